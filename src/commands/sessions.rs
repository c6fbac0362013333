//! `git debate sessions`: the stored sessions, newest first, from the store's index; `--prune`
//! removes old ones, as every run that makes a session does after it.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::json;

use crate::cli::{ListFormat, ReviewArgs, SessionsArgs};
use crate::error::Outcome;
use crate::settings::{Layers, Settings};
use crate::store::catalog::{self, Row};
use crate::store::prune::{self, Limits, Policy, Report};

/// The store this invocation reads (`--state-dir`, `debate.stateDir`, or the default), with the
/// repository and settings it was found from.
struct Store {
    base: PathBuf,
    repo: Option<crate::git::Repo>,
    settings: Settings,
}

fn open_store(state_dir: Option<&Path>) -> Result<Store> {
    let repo = crate::git::repo::discover()?;
    let args = ReviewArgs {
        state_dir: state_dir.map(Into::into),
        ..Default::default()
    };
    let settings = Settings::resolve(
        Layers::load(repo.as_ref().map(crate::git::Repo::dirs))?,
        &args,
    )?;
    let cwd = std::env::current_dir()?;
    let base = crate::store::base_dir(repo.as_ref(), settings.state_dir.as_deref(), &cwd);
    Ok(Store {
        base,
        repo,
        settings,
    })
}

/// The session store this invocation reads: `--state-dir`, `debate.stateDir`, or the default.
pub fn store_dir(state_dir: Option<&Path>) -> Result<PathBuf> {
    Ok(open_store(state_dir)?.base)
}

pub fn run(args: &SessionsArgs) -> Result<Outcome> {
    let store = open_store(args.state_dir.as_deref())?;
    if args.prune {
        return run_prune(args, &store);
    }
    let all = catalog::list(&store.base)?;
    let mut out = String::new();
    match args.format {
        ListFormat::Json => {
            // Serialized as they are, never as a `Value` each: 10,000 of those took 28 MiB.
            let rows: Vec<_> = all.iter().map(JsonRow::of).collect();
            out.push_str(&serde_json::to_string_pretty(&rows)?);
            out.push('\n');
        }
        ListFormat::Text if all.is_empty() => {
            crate::errln!("no sessions in {}", store.base.display());
        }
        ListFormat::Text => {
            out.reserve(all.len() * 120);
            for row in &all {
                text_row(&mut out, row);
                out.push('\n');
            }
        }
    }
    crate::ui::terminal::out(&out)?;
    Ok(Outcome::Success)
}

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

fn json_row(row: &Row) -> serde_json::Value {
    serde_json::to_value(JsonRow::of(row)).expect("a row serializes")
}

/// One line of the listing, without its newline, appended to `out`.
fn text_row(out: &mut String, row: &Row) {
    use std::fmt::Write;
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

/// `sessions --prune`: the limits given, else the configured ones.
fn run_prune(args: &SessionsArgs, store: &Store) -> Result<Outcome> {
    let policy = if args.keep.is_some() || args.older_than.is_some() {
        Policy {
            all: Limits {
                keep: args.keep,
                max_age: args.older_than,
            },
            hook: Limits::default(),
        }
    } else {
        Policy::configured(&store.settings)?
    };
    let rows = catalog::list(&store.base)?;
    let total = rows.len();
    let report = prune::prune(
        &store.base,
        rows,
        &policy,
        args.dry_run,
        usize::MAX,
        store.repo.as_ref(),
    );
    let verb = if args.dry_run {
        "would remove"
    } else {
        "removed"
    };
    let left = total - report.removed.len();
    match args.format {
        ListFormat::Json => {
            let removed: Vec<_> = report
                .removed
                .iter()
                .map(|(row, why)| {
                    let mut v = json_row(row);
                    v["reason"] = why.to_string().into();
                    v
                })
                .collect();
            let kept: Vec<_> = report
                .kept
                .iter()
                .map(|(row, why)| json!({"id": row.id, "reason": why.to_string()}))
                .collect();
            let failed: Vec<_> = report
                .failed
                .iter()
                .map(|(row, e)| json!({"id": row.id, "error": e}))
                .collect();
            let v = json!({"dry_run": args.dry_run, "sessions": total, "removed": removed,
                "kept": kept, "failed": failed, "left": left});
            crate::ui::terminal::out(&(serde_json::to_string_pretty(&v)? + "\n"))?;
        }
        ListFormat::Text => {
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
                    describe(&policy)
                ),
                (n, _) => format!("{verb} {n} of {} ({left} left{kept})\n", sessions(total)),
            });
            if args.dry_run && !report.removed.is_empty() {
                out.push_str("nothing was removed (--dry-run)\n");
            }
            crate::ui::terminal::out(&out)?;
        }
    }
    if !report.failed.is_empty() {
        anyhow::bail!("{} session(s) could not be removed", report.failed.len());
    }
    Ok(Outcome::Success)
}

/// `1 session`, `2 sessions`.
fn sessions(n: usize) -> String {
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

/// The most sessions a run removes after it: a store of 10,000 from before the limits would
/// otherwise hold up one commit for the minute it takes to delete 9,000 (the rest go in later
/// runs, or at once with `sessions --prune`).
const MOST_AFTER_A_RUN: usize = 100;

/// After a run that made a session: the configured limits, applied quietly. Cheap when the store
/// is within them (the index is read, no folder). Never fails the run; a problem is a warning.
pub fn after_run(state_dir: Option<&Path>) {
    let pruned = (|| -> Result<Report> {
        let store = open_store(state_dir)?;
        let policy = Policy::configured(&store.settings)?;
        let rows = catalog::list(&store.base)?;
        let repo = store.repo.as_ref();
        Ok(prune::prune(
            &store.base,
            rows,
            &policy,
            false,
            MOST_AFTER_A_RUN,
            repo,
        ))
    })();
    let report = match pruned {
        Ok(r) => r,
        Err(e) => return crate::errln!("warning: git debate: cannot prune old sessions: {e:#}"),
    };
    for (row, e) in &report.failed {
        crate::errln!(
            "warning: git debate: cannot remove old session {}: {e}",
            row.id
        );
    }
    let more = match report.deferred {
        0 => String::new(),
        n => format!(
            "; {} more past them go in later runs, or now with `git debate sessions --prune`",
            sessions(n)
        ),
    };
    if !report.removed.is_empty() {
        crate::errln!(
            "git debate: removed {} old session{} (past debate.keepSessions or keepDays{more})",
            report.removed.len(),
            if report.removed.len() == 1 { "" } else { "s" }
        );
    }
}
