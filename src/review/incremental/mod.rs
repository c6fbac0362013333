//! Incremental review: a branch reviewed before is reviewed again only where it changed since,
//! and the findings the earlier review left open are carried forward (`--since
//! last|SESSION|REV`, or `debate.incremental` for `base:` scopes).
//!
//! [`start`] finds the earlier review ([`previous`]), compares the trees of the head it saw and
//! the new head in the change's files ([`delta`]), re-anchors the open findings on the new head
//! ([`carry`]) and stores the plan as `incremental.json` in the new session. The reviewer gets
//! the delta plus the carried findings ([`context`]) and is asked to review the delta and say,
//! per carried finding, whether it is fixed, still open or no longer applicable. [`finish()`]
//! reads that answer (untrusted, through [`crate::answer::carried`]) and returns how every carried
//! finding stands (carried-open, fixed or outdated), which the report merges with the new ones;
//! the live run and `git debate show` both call it, from what the session holds.

pub mod carry;
pub mod delta;
mod finish;
pub mod previous;

pub use finish::{context, finish, load, Incremental};

use std::collections::BTreeSet;
use std::path::Path;

use anyhow::{Context as _, Result};
use git2::{Oid, Repository};

use crate::error::UsageError;
use crate::git::{Change, Scope};
pub use crate::store::incremental::{Basis, Plan};
use carry::Carry;

/// What `--since` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Since {
    /// The newest finished review of the same scope.
    Last,
    Session(String),
    /// A commit: the delta from it; findings are carried from a finished review of it, if any.
    Rev(String),
}

impl Since {
    pub fn parse(s: &str) -> Result<Since, UsageError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(UsageError::new(
                "--since needs a value: last, a session id (`git debate sessions`) or a revision",
            ));
        }
        if s == "last" {
            return Ok(Since::Last);
        }
        if s.starts_with("debate-") {
            if !crate::store::index::is_id(s) {
                return Err(UsageError::new(format!(
                    "--since {s}: not a session id; `git debate sessions` lists them"
                )));
            }
            return Ok(Since::Session(s.to_string()));
        }
        Ok(Since::Rev(s.to_string()))
    }
}

/// How a review with `--since` goes on.
pub enum Start {
    /// Review the whole change (the plan says why).
    Full(Plan),
    /// Review the delta (this change), carrying the plan's findings.
    Delta(Plan, Box<Change>),
    /// Nothing in the change's files changed since the earlier review.
    Unchanged(Plan),
}

/// Plans the review of `change` (resolved from `scope`) since `since`, against the sessions of
/// `store`. `given`: `since` as the user gave it (`auto` for `debate.incremental`).
pub fn start(
    repo: &Repository,
    store: &Path,
    scope: &Scope,
    change: &Change,
    since: &Since,
    given: &str,
    context_lines: Option<u32>,
) -> Result<Start> {
    if !matches!(scope, Scope::Base(_) | Scope::Range { .. }) {
        crate::usage!(
            "--since works with --scope base:<branch> or range:<a>..<b> (a change with a commit \
             head), not {scope}"
        );
    }
    let new_head = change
        .head
        .clone()
        .context("an incremental review needs a commit head")?;
    let scope_text = scope.to_string();
    let mut plan = Plan {
        basis: Basis {
            mode: "full".into(),
            since: given.to_string(),
            new_head: Some(new_head.clone()),
            ..Basis::default()
        },
        carried: Vec::new(),
        last_id: 0,
    };
    let Some(Earlier {
        previous,
        old_head,
        unrelated,
    }) = earlier(
        repo,
        store,
        &scope_text,
        change,
        since,
        context_lines,
        &mut plan,
    )?
    else {
        return Ok(Start::Full(plan));
    };
    plan.basis.previous_session = previous.as_ref().map(|p| p.id.clone());
    plan.last_id = previous.as_ref().map_or(0, |p| p.last_id);
    plan.basis.old_head = Some(old_head.clone());
    let old = Oid::from_str(&old_head)
        .ok()
        .filter(|o| repo.find_commit(*o).is_ok());
    let Some(old) = old else {
        plan.basis.reason = Some(format!(
            "history was rewritten: the reviewed head {} is not in this repository any more",
            &old_head[..old_head.len().min(12)]
        ));
        return Ok(Start::Full(plan));
    };
    let new = Oid::from_str(&new_head)?;
    let paths = change_paths(change);
    let seen = with_files(&paths, previous.as_ref());
    let ancestor = repo.graph_descendant_of(new, old).unwrap_or(false);
    let delta = if old == new {
        Change::default()
    } else {
        crate::git::between(repo, old, new, &seen, context_lines)?
    };
    plan.basis.rebased = !ancestor && old != new;
    plan.basis.left_out = crate::git::changed_paths(repo, old, new)?
        .into_iter()
        .filter(|p| !seen.contains(p))
        .collect();
    if let Some(why) = delta::rewritten(
        ancestor || old == new,
        previous.as_ref().map(|p| p.files.as_slice()),
        &paths,
        delta.additions() + delta.deletions(),
        change.additions() + change.deletions(),
    ) {
        plan.basis.reason = Some(match unrelated {
            Some(prefix) => format!("{prefix}{why})"),
            None => why,
        });
        plan.basis.left_out.clear();
        return Ok(Start::Full(plan));
    }
    plan.basis.files = delta.files.iter().map(|f| f.path.clone()).collect();
    plan.carried = previous
        .iter()
        .flat_map(|p| &p.open)
        .map(|f| carried(repo, old, new, &delta, f.clone()))
        .collect();
    plan.basis.mode = "delta".into();
    if delta.files.is_empty() {
        return Ok(Start::Unchanged(plan));
    }
    let delta = describe_delta(delta, change, &plan, given, ancestor);
    Ok(Start::Delta(plan, Box::new(delta)))
}

/// The earlier review a `--since` names, as [`earlier`] finds it.
struct Earlier {
    /// The earlier finished review, if there is one (a `--since REV` may have none).
    previous: Option<previous::Previous>,
    /// The head it reviewed (for `--since REV`, that commit).
    old_head: String,
    /// `--since last` found reviews of the scope, none of this branch's history: the start of
    /// the reason a full review gives.
    unrelated: Option<String>,
}

/// Finds the earlier review `since` names and the head it saw. `None` when `--since last` finds
/// no earlier finished review of the scope at all (`plan`'s reason then says so).
fn earlier(
    repo: &Repository,
    store: &Path,
    scope_text: &str,
    change: &Change,
    since: &Since,
    context_lines: Option<u32>,
    plan: &mut Plan,
) -> Result<Option<Earlier>> {
    // `--since last` found reviews of the scope, none of this branch's history.
    let mut unrelated: Option<String> = None;
    let (previous, old_head) = match since {
        Since::Last => {
            let all = previous::finished(store, scope_text, None, CANDIDATES)?;
            let Some(newest) = all.first() else {
                plan.basis.reason = Some(format!(
                    "no earlier finished review of {scope_text} to continue"
                ));
                return Ok(None);
            };
            // The newest review this branch continues; else the newest, which then says why
            // not (another branch's review of the same base, or rewritten history).
            let p = match continued(repo, &all, change, context_lines)? {
                Some(p) => p,
                None => {
                    unrelated = Some(format!(
                        "no earlier review of {scope_text} is of this branch's history (the \
                         newest, {}: ",
                        newest.id
                    ));
                    newest.clone()
                }
            };
            let h = p.head.clone();
            (Some(p), h)
        }
        Since::Session(id) => {
            let p = previous::named(store, id)?;
            let h = p.head.clone();
            (Some(p), h)
        }
        Since::Rev(rev) => {
            let commit = repo
                .revparse_single(rev)
                .and_then(|o| o.peel_to_commit())
                .map_err(|_| {
                    UsageError::new(format!(
                        "--since {rev}: not `last`, a session id or a commit in this repository; \
                         check `git log --oneline` or `git debate sessions`"
                    ))
                })?;
            let sha = commit.id().to_string();
            (previous::latest(store, scope_text, Some(&sha))?, sha)
        }
    };
    Ok(Some(Earlier {
        previous,
        old_head,
        unrelated,
    }))
}

/// The delta as the reviewer is told of it: its description says since what and how it was
/// found, and it keeps the change's commits when it has none of its own.
fn describe_delta(
    delta: Change,
    change: &Change,
    plan: &Plan,
    given: &str,
    ancestor: bool,
) -> Change {
    let mut delta = delta;
    delta.description = format!(
        "{} since {} ({}): {}",
        change.description,
        plan.basis.previous_session.as_deref().unwrap_or(given),
        if ancestor {
            "new commits"
        } else {
            "trees compared after a rebase"
        },
        delta.description
    );
    if delta.commits.is_empty() {
        delta.commits = change.commits.clone();
    }
    delta
}

/// How many earlier reviews of a scope `--since last` looks through for the one this branch
/// continues (several branches may be reviewed against one base in one repository).
const CANDIDATES: usize = 20;

/// The newest of `all` (finished reviews of the scope, newest first) that the change continues:
/// its head is HEAD or an ancestor of it, else (a rebase) the trees say it is the same change.
fn continued(
    repo: &Repository,
    all: &[previous::Previous],
    change: &Change,
    context_lines: Option<u32>,
) -> Result<Option<previous::Previous>> {
    let Some(new) = change.head.as_deref().and_then(|h| Oid::from_str(h).ok()) else {
        return Ok(None);
    };
    let commit = |p: &previous::Previous| {
        Oid::from_str(&p.head)
            .ok()
            .filter(|o| repo.find_commit(*o).is_ok())
    };
    let descends = |old: Oid| old == new || repo.graph_descendant_of(new, old).unwrap_or(false);
    if let Some(p) = all.iter().find(|p| commit(p).is_some_and(descends)) {
        return Ok(Some(p.clone()));
    }
    let paths = change_paths(change);
    for p in all {
        let Some(old) = commit(p) else { continue };
        let seen = with_files(&paths, Some(p));
        let delta = crate::git::between(repo, old, new, &seen, context_lines)?;
        let why = delta::rewritten(
            false,
            Some(&p.files),
            &paths,
            delta.additions() + delta.deletions(),
            change.additions() + change.deletions(),
        );
        if why.is_none() {
            return Ok(Some(p.clone()));
        }
    }
    Ok(None)
}

/// The paths of a change, both sides of renames, sorted.
fn change_paths(change: &Change) -> Vec<String> {
    change
        .files
        .iter()
        .flat_map(|f| std::iter::once(f.path.clone()).chain(f.old_path.clone()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// `paths` and the files the earlier review saw: one the change no longer touches (reverted, or
/// added then deleted) changed since, and that is part of the delta.
fn with_files(paths: &[String], previous: Option<&previous::Previous>) -> Vec<String> {
    paths
        .iter()
        .chain(previous.iter().flat_map(|p| &p.files))
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// A finding of the earlier review, followed from the old head to the new one.
fn carried(
    repo: &Repository,
    old: Oid,
    new: Oid,
    delta: &Change,
    f: crate::findings::Finding,
) -> Carry {
    let previous = f.location.clone();
    let Some((path, line)) = f
        .location
        .as_ref()
        .filter(|l| !l.outside)
        .and_then(|l| Some((l.path.clone(), l.start_line? as usize)))
    else {
        return Carry {
            finding: f,
            previous,
            anchoring: carry::Anchoring::Unplaced,
        };
    };
    // A file renamed since is followed under its new name.
    let now = delta
        .files
        .iter()
        .find(|c| c.old_path.as_deref() == Some(path.as_str()))
        .map_or(path.clone(), |c| c.path.clone());
    let anchoring = carry::reanchor(
        file_at(repo, old, &path).as_deref(),
        file_at(repo, new, &now).as_deref(),
        line,
    );
    Carry {
        finding: carry::moved(f, &anchoring, &now),
        previous,
        anchoring,
    }
}

/// The text of `path` in commit `at`, when it is a text file we would read.
fn file_at(repo: &Repository, at: Oid, path: &str) -> Option<String> {
    let tree = repo.find_commit(at).ok()?.tree().ok()?;
    let entry = tree.get_path(Path::new(path)).ok()?;
    let blob = repo.find_blob(entry.id()).ok()?;
    (blob.size() as u64 <= crate::sys::file_io::CITED_FILE_CAP && !blob.is_binary())
        .then(|| String::from_utf8_lossy(blob.content()).into_owned())
}
