//! Waivers in a review's report, and the finding a `git debate waive` names.
//!
//! A finding is waived when a waiver's fingerprint is the finding's SARIF fingerprint
//! ([`crate::report::ci::fingerprint`]: file, normalised title, the code around it) and the
//! waiver has not expired. A waived finding leaves the unresolved list (so neither the gate nor
//! the next actions count it) for a list of its own that every format shows with the waiver's
//! reason; an expired waiver that would have matched is said in the report, and its finding
//! counts. Since the fingerprint holds the code around the finding, a waiver never covers the
//! same finding on changed code, and moved code keeps its fingerprint.

use std::path::Path;

use anyhow::Result;
use time::Date;

use crate::report::{Item, Report};
use crate::waivers::Waiver;

/// Marks the unresolved findings of `r` that `waivers` cover as waived, counts the gate and
/// the next actions again; `today` decides expiry (`None`: the waivers were already checked).
pub fn apply(r: &mut Report, waivers: &[Waiver], today: Option<Date>, code: bool) {
    if waivers.is_empty() {
        return;
    }
    let mut kept = Vec::new();
    for mut item in std::mem::take(&mut r.unresolved) {
        let print = crate::report::ci::fingerprint(&item);
        let matching: Vec<&Waiver> = waivers.iter().filter(|w| w.fingerprint == print).collect();
        let active = matching
            .iter()
            .find(|w| today.is_none_or(|t| !w.expired(t)));
        match (active, matching.first()) {
            (Some(w), _) => {
                item.waiver = Some((*w).clone());
                r.waived.push(item);
            }
            (None, Some(w)) => {
                r.waiver_notes.push(format!(
                    "the waiver of [{}] {} (by {}, {}) expired on {}; it counts again",
                    item.id,
                    item.title,
                    if w.by.is_empty() { "unknown" } else { &w.by },
                    w.reason,
                    w.expiry()
                ));
                kept.push(item);
            }
            (None, None) => kept.push(item),
        }
    }
    r.unresolved = kept;
    for f in &mut r.findings {
        if let Some(w) = r.waived.iter().find(|w| w.id == f.id) {
            f.waiver = w.waiver.clone();
        }
    }
    r.gate = crate::report::gate(&r.unresolved, r.gate.fail_on, r.gate.trust_judge);
    r.gate.waived = r.waived.len();
    r.next_actions = crate::report::next_actions(r, code);
}

/// `waived by Ada <ada@example.com> on 2026-11-26: reason (expires 2027-03-01)`.
pub fn waiver_text(w: &Waiver) -> String {
    let by = if w.by.is_empty() {
        String::new()
    } else {
        format!(" by {}", w.by)
    };
    let on =
        w.at.get(..10)
            .map(|d| format!(" on {d}"))
            .unwrap_or_default();
    let until = w
        .expires
        .as_deref()
        .map(|e| format!(" (expires {e})"))
        .unwrap_or_default();
    format!("waived{by}{on}: {}{until}", w.reason)
}

/// A finding of a stored session named as `<session>:F2`, `last:F2` or `F2` (the last
/// session), with its fingerprint.
pub struct Named {
    pub session: String,
    pub item: Item,
    pub fingerprint: String,
}

/// The finding `wanted` names in the store at `base`.
pub fn find(base: &Path, wanted: &str) -> Result<Named> {
    let (session, id) = match wanted.rsplit_once(':') {
        Some((s, id)) => (s, id),
        None => ("last", wanted),
    };
    let id = id.trim();
    if session.is_empty() || id.is_empty() {
        crate::usage!(
            "{wanted:?} names no finding: write <session>:F2, last:F2 or F2 (of the last session)"
        );
    }
    let stored = crate::store::find(base, session)?;
    let report = crate::report::stored::load(&stored.id, &stored.dir)
        .map_err(|e| crate::error::UsageError::new(format!("{e:#}")))?;
    let item = report
        .unresolved
        .iter()
        .chain(&report.waived)
        .chain(&report.findings)
        .find(|i| i.id.eq_ignore_ascii_case(id))
        .cloned();
    let Some(item) = item else {
        let ids: Vec<&str> = report.findings.iter().map(|i| i.id.as_str()).collect();
        crate::usage!(
            "session {} has no finding {id} (its findings: {}); `git debate show {}` lists them",
            stored.id,
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            },
            stored.id
        );
    };
    Ok(Named {
        fingerprint: crate::report::ci::fingerprint(&item),
        session: stored.id,
        item,
    })
}

/// What `git debate waive` asked.
pub struct Asked<'a> {
    /// `<session>:F2`, `last:F2` or `F2`.
    pub finding: &'a str,
    pub reason: Option<&'a str>,
    /// `YYYY-MM-DD`.
    pub expires: Option<&'a str>,
}

/// Records a waiver of the finding `asked` names (in the store at `base`) in the work tree's
/// `.gitdebate-waivers`: the waiver and the file's path.
pub fn record(
    repo: &crate::git::Repo,
    base: &Path,
    asked: &Asked,
) -> Result<(Waiver, std::path::PathBuf)> {
    let Some(reason) = asked.reason.map(str::trim).filter(|r| !r.is_empty()) else {
        crate::usage!(
            "a waiver needs a reason: git debate waive {} --reason \"why it does not apply here\"",
            asked.finding
        );
    };
    if let Some(e) = asked.expires {
        match crate::waivers::parse_date(e) {
            None => crate::usage!("--expires {e:?} is not a date: write it as YYYY-MM-DD"),
            Some(d) if d <= crate::waivers::today() => {
                crate::usage!("--expires {e} is not in the future: give a later date")
            }
            Some(_) => {}
        }
    }
    let Some(work_tree) = repo.workdir() else {
        crate::usage!(
            "a bare repository has no work tree for {}",
            crate::waivers::FILE
        );
    };
    let named = find(base, asked.finding)?;
    let existing = crate::waivers::read(Some(repo), &crate::git::Version::WorkTree)?;
    let today = crate::waivers::today();
    if let Some(w) = existing
        .iter()
        .find(|w| w.fingerprint == named.fingerprint && !w.expired(today))
    {
        crate::usage!(
            "[{}] {} is already waived in {} (line {}): {}",
            named.item.id,
            named.item.title,
            crate::waivers::FILE,
            w.line,
            w.reason
        );
    }
    let waiver = Waiver {
        fingerprint: named.fingerprint,
        reason: reason.to_string(),
        by: repo.identity()?,
        at: crate::store::rfc3339(crate::store::now_utc()),
        expires: asked.expires.map(|e| e.trim().to_string()),
        finding: format!("{}:{}", named.session, named.item.id),
        title: named.item.title.clone(),
        path: named
            .item
            .location
            .as_ref()
            .map(|l| l.path.clone())
            .unwrap_or_default(),
        line: 0,
    };
    let path = crate::waivers::append(work_tree, &waiver)?;
    Ok((waiver, path))
}
