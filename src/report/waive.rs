//! The finding a `git debate waive` names, and its waiver written down.
//!
//! A finding is named as a report shows it (`<session>:F2`, `last:F2`, `F2` of the last
//! session) and recorded by the fingerprint SARIF gives it ([`crate::report::ci::fingerprint`]),
//! computed from the stored session's report exactly as a live review's is, so a later review's
//! same finding on the same code matches it.

use std::path::Path;

use anyhow::Result;

use crate::report::Item;
use crate::waivers::Waiver;

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
