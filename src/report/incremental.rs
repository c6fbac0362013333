//! The incremental part of a report (`--since`): which review it continues, what was sent, and
//! how every finding stands — new, carried-open, fixed or outdated. Carried-open findings join
//! the unresolved list, so the gate, the next actions and the CI formats count new +
//! carried-open; fixed and outdated ones are listed here only.
//!
//! The engine ([`crate::review::incremental`]) decides how each carried finding stands and
//! returns it as an [`Incremental`] record; this module only merges that record into the report
//! and renders it.

use std::path::Path;

use crate::choices::FailOn;
use crate::report::{Item, Report};
use crate::review::incremental::Incremental;
use crate::ui::terminal::clean_line;

impl Report {
    /// Adds the incremental part of the session in `dir`, when it is an incremental review: the
    /// engine reads how the carried findings stand, given the findings this report holds
    /// unresolved (a carried one among them was raised again).
    pub fn add_session_incremental(&mut self, dir: &Path, fail_on: FailOn, code: bool) {
        let unresolved: Vec<&str> = self.unresolved.iter().map(|i| i.id.as_str()).collect();
        if let Some(inc) = crate::review::incremental::finish(dir, &unresolved) {
            self.add_incremental(inc, fail_on, code);
        }
    }

    /// Adds the incremental part: carried-open findings join the unresolved ones (unless the
    /// reviewer raised them again: they are there already), and the gate is counted again.
    pub fn add_incremental(&mut self, mut inc: Incremental, fail_on: FailOn, code: bool) {
        let carried_ids: Vec<&str> = inc.carried.iter().map(|c| c.id.as_str()).collect();
        inc.counts.new = self
            .unresolved
            .iter()
            .filter(|i| !carried_ids.contains(&i.id.as_str()))
            .count();
        for c in &inc.carried {
            match c.status.as_str() {
                "fixed" => inc.counts.fixed += 1,
                "outdated" => inc.counts.outdated += 1,
                _ => {
                    inc.counts.carried_open += 1;
                    if !self.unresolved.iter().any(|i| i.id == c.id) {
                        if let Some(f) = &c.finding {
                            self.unresolved.push(Item::carried(f, &c.why));
                        }
                    }
                }
            }
        }
        if inc.basis.mode == "full" {
            if let Some(r) = &inc.basis.reason {
                self.notes
                    .push(format!("full review instead of incremental: {r}"));
            }
        }
        let waived = self.gate.waived;
        self.gate = crate::report::gate(
            &self.unresolved,
            fail_on,
            self.gate.trust_judge,
            self.gate.consensus,
        );
        self.gate.waived = waived;
        self.incremental = Some(inc);
        self.next_actions = crate::report::next_actions(self, code);
    }
}

/// The lines people read of an incremental review's record (each one safe to print).
pub fn lines(inc: &Incremental) -> Vec<String> {
    let short = |s: &Option<String>| {
        s.as_deref()
            .map(|h| h.chars().take(12).collect::<String>())
            .unwrap_or_else(|| "?".into())
    };
    let mut out = Vec::new();
    if inc.basis.mode == "full" {
        out.push(format!(
            "full review (since {}): {}",
            inc.basis.since,
            inc.basis
                .reason
                .as_deref()
                .unwrap_or("no earlier review to continue")
        ));
        return out
            .into_iter()
            .map(|l| clean_line(&l).into_owned())
            .collect();
    }
    out.push(format!(
        "since {} ({} -> {}{}): {} file(s) changed{}",
        inc.basis
            .previous_session
            .as_deref()
            .unwrap_or(&inc.basis.since),
        short(&inc.basis.old_head),
        short(&inc.basis.new_head),
        if inc.basis.rebased { ", rebased" } else { "" },
        inc.basis.files.len(),
        if inc.basis.left_out.is_empty() {
            String::new()
        } else {
            format!(
                "; {} file(s) outside the change (from the base) not reviewed",
                inc.basis.left_out.len()
            )
        }
    ));
    let c = &inc.counts;
    out.push(format!(
        "{} new · {} carried-open · {} fixed · {} outdated",
        c.new, c.carried_open, c.fixed, c.outdated
    ));
    for i in &inc.carried {
        let at = i
            .location
            .as_ref()
            .map(|l| format!(" ({})", l.display()))
            .unwrap_or_default();
        out.push(format!(
            "[{}] {} {} {}{at}: {}",
            i.id, i.status, i.severity, i.title, i.why
        ));
    }
    out.into_iter()
        .map(|l| clean_line(&l).into_owned())
        .collect()
}
