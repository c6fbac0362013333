//! How sessions are listed, by `git debate sessions` and by its `--prune`: one line per session
//! as text, or one object per session as JSON, with the status a person can act on.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;

use crate::store::catalog::Row;
use crate::store::prune::{Limits, Policy, Report};

/// One session of `sessions --format json` (fields in alphabetical order, as always printed).
#[derive(serde::Serialize)]
#[serde(untagged)]
enum JsonRow<'a> {
    Session {
        created_at: Option<&'a str>,
        id: &'a str,
        path: &'a Path,
        scope: &'a str,
        status: &'a str,
        target: Option<&'a str>,
    },
    Damaged {
        error: &'a str,
        id: &'a str,
        path: &'a Path,
        status: &'static str,
    },
}

impl<'a> JsonRow<'a> {
    fn of(row: &'a Row) -> JsonRow<'a> {
        match &row.entry {
            Ok(e) => JsonRow::Session {
                created_at: e.created_at.as_deref(),
                id: &row.id,
                path: &row.dir,
                scope: &e.scope,
                status: status(row),
                target: e.target.as_deref(),
            },
            Err(e) => JsonRow::Damaged {
                error: e,
                id: &row.id,
                path: &row.dir,
                status: "corrupt",
            },
        }
    }
}

/// The listing as JSON, with its final newline.
pub fn json(rows: &[Row]) -> Result<String> {
    // Serialized as they are, never as a `Value` each: 10,000 of those took 28 MiB.
    let rows: Vec<_> = rows.iter().map(JsonRow::of).collect();
    Ok(serde_json::to_string_pretty(&rows)? + "\n")
}

/// The listing as text, one line per session.
pub fn text(rows: &[Row]) -> String {
    let mut out = String::with_capacity(rows.len() * 120);
    for row in rows {
        text_row(&mut out, row);
        out.push('\n');
    }
    out
}

/// One line of the listing, without its newline, appended to `out`.
fn text_row(out: &mut String, row: &Row) {
    let _ = match &row.entry {
        Ok(e) => write!(
            out,
            "{}  {}  {:<8}  {:<24}  {}",
            row.id,
            e.created_at.as_deref().unwrap_or("?"),
            e.target.as_deref().unwrap_or("?"),
            e.scope,
            status(row)
        ),
        Err(e) => write!(out, "{}  {e}", row.id),
    };
}

/// The stored status, except that a session stored as `running` whose process is gone (killed
/// outright, so it never wrote its end) is `stopped`: `git debate resume` can continue it. Only
/// those few sessions have their lock looked at.
fn status(row: &Row) -> &str {
    let stored = row
        .entry
        .as_ref()
        .ok()
        .and_then(|e| e.status.as_deref())
        .unwrap_or("?");
    if stored == "running" && crate::store::lock::holder_gone(&row.dir) == Some(true) {
        return "stopped";
    }
    stored
}

/// What `sessions --prune --format json` prints.
#[derive(serde::Serialize)]
struct Pruned<'a> {
    dry_run: bool,
    sessions: usize,
    removed: Vec<Removed<'a>>,
    kept: Vec<Kept<'a>>,
    failed: Vec<Failed<'a>>,
    left: usize,
}

/// A session removed (or that would be), as listed, and why.
#[derive(serde::Serialize)]
struct Removed<'a> {
    #[serde(flatten)]
    row: JsonRow<'a>,
    reason: String,
}

#[derive(serde::Serialize)]
struct Kept<'a> {
    id: &'a str,
    reason: String,
}

#[derive(serde::Serialize)]
struct Failed<'a> {
    id: &'a str,
    error: &'a str,
}

/// What a prune of `total` sessions did, as JSON with its final newline (every object's keys
/// sorted, as it has always been printed).
pub fn prune_json(report: &Report, total: usize, dry_run: bool) -> Result<String> {
    let pruned = Pruned {
        dry_run,
        sessions: total,
        removed: report
            .removed
            .iter()
            .map(|(row, why)| Removed {
                row: JsonRow::of(row),
                reason: why.to_string(),
            })
            .collect(),
        kept: report
            .kept
            .iter()
            .map(|(row, why)| Kept {
                id: &row.id,
                reason: why.to_string(),
            })
            .collect(),
        failed: report
            .failed
            .iter()
            .map(|(row, e)| Failed {
                id: &row.id,
                error: e,
            })
            .collect(),
        left: total - report.removed.len(),
    };
    let bytes = crate::store::sorted_json(&pruned)?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// What a prune of `total` sessions under `policy` did, as text.
pub fn prune_text(report: &Report, policy: &Policy, total: usize, dry_run: bool) -> String {
    let verb = if dry_run { "would remove" } else { "removed" };
    let left = total - report.removed.len();
    let mut out = String::new();
    for (row, why) in &report.removed {
        out.push_str(verb);
        out.push(' ');
        text_row(&mut out, row);
        out.push_str(&format!("  ({why})\n"));
    }
    for (row, why) in &report.kept {
        out.push_str(&format!("kept {}: {why}\n", row.id));
    }
    for (row, e) in &report.failed {
        out.push_str(&format!("failed {}: {e}\n", row.id));
    }
    let kept = match report.kept.len() {
        0 => String::new(),
        k => format!("; {k} past the limits kept"),
    };
    out.push_str(&match (report.removed.len(), report.kept.len()) {
        (0, 0) => format!(
            "nothing to prune: {} within {}\n",
            sessions(total),
            describe(policy)
        ),
        (n, _) => format!("{verb} {n} of {} ({left} left{kept})\n", sessions(total)),
    });
    if dry_run && !report.removed.is_empty() {
        out.push_str("nothing was removed (--dry-run)\n");
    }
    out
}

/// `1 session`, `2 sessions`.
pub fn sessions(n: usize) -> String {
    format!("{n} session{}", if n == 1 { "" } else { "s" })
}

/// The limits of a policy, in words.
fn describe(policy: &Policy) -> String {
    if policy.hook == Limits::default() {
        return format!("the limits ({})", policy.all);
    }
    format!(
        "the limits ({}; of the hook's, {})",
        policy.all, policy.hook
    )
}
