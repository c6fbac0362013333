//! The incremental part of a report (`--since`): which review it continues, what was sent, and
//! how every finding stands — new, carried-open, fixed or outdated. Carried-open findings join
//! the unresolved list, so the gate, the next actions and the CI formats count new +
//! carried-open; fixed and outdated ones are listed here only.

use serde::{Deserialize, Serialize};

use crate::findings::{Finding, Location};
use crate::report::{Item, Report};
use crate::ui::terminal::clean_line;

/// Which review an incremental one continues and what it sent: decided before the review (the
/// plan in `incremental.json`) and repeated in its report.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Basis {
    /// `delta` (only what changed was reviewed) or `full` (an incremental review was asked for
    /// and could not be done; `reason` says why).
    pub mode: String,
    /// As given: `last`, a session id, a revision, or `auto` (`debate.incremental`).
    pub since: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_head: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_head: Option<String>,
    /// Why a full review instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The old head is not an ancestor of the new one, and the trees were compared.
    #[serde(default)]
    pub rebased: bool,
    /// The change's files that changed since the old head: what was sent.
    #[serde(default)]
    pub files: Vec<String>,
    /// Files that changed between the two heads outside the change (brought in by a rebase or
    /// a merge of the base): not reviewed.
    #[serde(default)]
    pub left_out: Vec<String>,
}

/// The incremental part of a report.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Incremental {
    #[serde(flatten)]
    pub basis: Basis,
    #[serde(default)]
    pub counts: Counts,
    #[serde(default)]
    pub carried: Vec<CarriedItem>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Counts {
    pub new: usize,
    pub carried_open: usize,
    pub fixed: usize,
    pub outdated: usize,
}

/// A finding carried from the earlier review, as it ends this one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CarriedItem {
    pub id: String,
    pub severity: String,
    pub title: String,
    /// `carried-open`, `fixed` or `outdated`.
    pub status: String,
    pub why: String,
    /// Where it points at the new head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Where it pointed when it was raised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_location: Option<Location>,
    /// The finding itself, for the next review to carry again.
    #[serde(skip)]
    pub finding: Option<Finding>,
}

impl Report {
    /// Adds the incremental part: carried-open findings join the unresolved ones (unless the
    /// reviewer raised them again: they are there already), and the gate is counted again.
    pub fn add_incremental(&mut self, mut inc: Incremental, fail_on: &str, code: bool) {
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
        self.gate = crate::report::gate(&self.unresolved, fail_on);
        self.incremental = Some(inc);
        self.next_actions = crate::report::next_actions(self, code);
    }
}

impl Item {
    /// A finding still open from the earlier review.
    fn carried(f: &Finding, why: &str) -> Item {
        Item {
            id: f.id.clone(),
            severity: f.severity.label(),
            title: f.title.clone(),
            evidence: f.evidence.clone(),
            location: f.location.clone(),
            source: f.source,
            body: f.body.clone(),
            action: f.action.clone(),
            segment: f.segment.clone(),
            judged: "carried-open",
            reason: why.to_string(),
            round: 0,
            from_judge: false,
            anchor: f.anchor.clone(),
            rank: f.severity.rank(),
            stands: true,
        }
    }
}

impl Incremental {
    /// The lines people read (each one safe to print).
    pub fn lines(&self) -> Vec<String> {
        let short = |s: &Option<String>| {
            s.as_deref()
                .map(|h| h.chars().take(12).collect::<String>())
                .unwrap_or_else(|| "?".into())
        };
        let mut out = Vec::new();
        if self.basis.mode == "full" {
            out.push(format!(
                "full review (since {}): {}",
                self.basis.since,
                self.basis
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
            self.basis
                .previous_session
                .as_deref()
                .unwrap_or(&self.basis.since),
            short(&self.basis.old_head),
            short(&self.basis.new_head),
            if self.basis.rebased { ", rebased" } else { "" },
            self.basis.files.len(),
            if self.basis.left_out.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} file(s) outside the change (from the base) not reviewed",
                    self.basis.left_out.len()
                )
            }
        ));
        let c = &self.counts;
        out.push(format!(
            "{} new · {} carried-open · {} fixed · {} outdated",
            c.new, c.carried_open, c.fixed, c.outdated
        ));
        for i in &self.carried {
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
}
