//! Removing old sessions: by count, by age, the pre-commit hook's sooner than the rest.
//!
//! The hook writes one session per commit, so a store grows without end unless something removes
//! them. What goes is decided from the index alone ([`crate::store::catalog`]); what stays regardless:
//! a session some process is running (its lock is held: a prune takes the lock itself before it
//! deletes, so a `resume` cannot start on a folder being removed), and a hook session whose tree
//! is staged now in one of the repository's work trees, whose cached verdict a `git commit` may
//! still reuse and whose report "commit blocked" sends the user to. A removed hook session takes
//! its verdict-cache entry along (the cache would otherwise grow by one file per commit forever).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use crate::settings::Settings;
use crate::store::catalog::Row;

/// The hook's own limits when none are configured: a hook session explains one commit's verdict
/// and is rarely looked at once the commit is made.
pub const HOOK_KEEP_SESSIONS: u64 = 100;
pub const HOOK_KEEP_DAYS: u64 = 30;

const DAY: u64 = 24 * 3600;

/// How many sessions to keep and for how long; `None` is no limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    pub keep: Option<usize>,
    /// In seconds.
    pub max_age: Option<u64>,
}

/// The limits of all sessions, and the ones the hook's sessions must meet as well.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Policy {
    pub all: Limits,
    pub hook: Limits,
}

impl Policy {
    /// `debate.keepSessions`/`keepDays` and `debate.hook.keepSessions`/`keepDays` (0: no limit).
    pub fn configured(settings: &Settings) -> anyhow::Result<Policy> {
        let hook = |var: &str, default: u64| -> anyhow::Result<u64> {
            match settings
                .backend_vars
                .get(&format!("hook.{}", var.to_ascii_lowercase()))
            {
                None => Ok(default),
                Some(v) => v.parse().map_err(|_| {
                    crate::error::UsageError::new(format!(
                        "bad value for debate.hook.{var} = {v:?}: expected a whole number \
                         (0: no limit)"
                    ))
                    .into()
                }),
            }
        };
        let limits = |keep: u64, days: u64| Limits {
            keep: (keep > 0).then_some(keep as usize),
            max_age: (days > 0).then_some(days.saturating_mul(DAY)),
        };
        Ok(Policy {
            all: limits(settings.keep_sessions, settings.keep_days),
            hook: limits(
                hook("keepSessions", HOOK_KEEP_SESSIONS)?,
                hook("keepDays", HOOK_KEEP_DAYS)?,
            ),
        })
    }
}

/// An age in the words of the limit that set it.
pub fn age_words(secs: u64) -> String {
    let (n, unit) = if secs.is_multiple_of(DAY) {
        (secs / DAY, "day")
    } else if secs.is_multiple_of(3600) {
        (secs / 3600, "hour")
    } else {
        (secs, "second")
    };
    format!("{n} {unit}{}", if n == 1 { "" } else { "s" })
}

impl std::fmt::Display for Limits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.keep, self.max_age) {
            (None, None) => f.write_str("no limit"),
            (Some(n), None) => write!(f, "the newest {n}"),
            (None, Some(a)) => write!(f, "none older than {}", age_words(a)),
            (Some(n), Some(a)) => write!(f, "the newest {n}, none older than {}", age_words(a)),
        }
    }
}

/// Why a session goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Why {
    Count(usize),
    Age(u64),
    HookCount(usize),
    HookAge(u64),
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Why::Count(n) => write!(f, "beyond the newest {n}"),
            Why::Age(a) => write!(f, "older than {}", age_words(a)),
            Why::HookCount(n) => write!(f, "a hook session beyond the newest {n}"),
            Why::HookAge(a) => write!(f, "a hook session older than {}", age_words(a)),
        }
    }
}

/// Why a session that is past the limits stays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kept {
    Running,
    StagedVerdict,
}

impl std::fmt::Display for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kept::Running => "still running",
            Kept::StagedVerdict => "the hook's verdict on the tree staged now",
        })
    }
}

/// When a session was made: its `created_at`, else the time in its id.
pub fn created(row: &Row) -> Option<time::OffsetDateTime> {
    let stamp = row
        .entry
        .as_ref()
        .ok()
        .and_then(|e| e.created_at.as_deref());
    stamp
        .and_then(|s| {
            // Ours are `YYYY-MM-DDTHH:MM:SSZ` (`crate::store::rfc3339`).
            let d: String = s.strip_suffix('Z')?.chars().filter(|c| *c != ':').collect();
            datetime(&d.replace('-', "").replace('T', "-"))
        })
        .or_else(|| datetime(row.id.strip_prefix("debate-")?.get(..15)?))
}

/// `YYYYMMDD-HHMMSS` in UTC.
fn datetime(s: &str) -> Option<time::OffsetDateTime> {
    let b = s.as_bytes();
    if b.len() != 15 || b[8] != b'-' {
        return None;
    }
    let n = |r: std::ops::Range<usize>| s.get(r)?.parse::<u32>().ok();
    let month = time::Month::try_from(n(4..6)? as u8).ok()?;
    let date = time::Date::from_calendar_date(n(0..4)? as i32, month, n(6..8)? as u8).ok()?;
    let t = time::Time::from_hms(n(9..11)? as u8, n(11..13)? as u8, n(13..15)? as u8).ok()?;
    Some(time::PrimitiveDateTime::new(date, t).assume_utc())
}

/// The sessions of `rows` (newest first) past the limits, with the first reason for each.
pub fn candidates(rows: &[Row], policy: &Policy, now: time::OffsetDateTime) -> Vec<(usize, Why)> {
    let old = |row: &Row, max: Option<u64>| {
        max.zip(created(row))
            .is_some_and(|(max, at)| (now - at).whole_seconds() > max as i64)
    };
    let mut hooks_seen = 0;
    let mut out = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let hook = row.entry.as_ref().is_ok_and(|e| e.hook.is_some());
        let why = if policy.all.keep.is_some_and(|n| i >= n) {
            Some(Why::Count(policy.all.keep.unwrap_or_default()))
        } else if old(row, policy.all.max_age) {
            policy.all.max_age.map(Why::Age)
        } else if hook && policy.hook.keep.is_some_and(|n| hooks_seen >= n) {
            policy.hook.keep.map(Why::HookCount)
        } else if hook && old(row, policy.hook.max_age) {
            policy.hook.max_age.map(Why::HookAge)
        } else {
            None
        };
        hooks_seen += usize::from(hook);
        if let Some(why) = why {
            out.push((i, why));
        }
    }
    out
}

/// What a prune did (or, for a dry run, would do), newest first.
#[derive(Debug, Default)]
pub struct Report {
    pub removed: Vec<(Row, Why)>,
    pub kept: Vec<(Row, Kept)>,
    pub failed: Vec<(Row, String)>,
    /// Past the limits, but beyond the most one prune removes (left for the next).
    pub deferred: usize,
}

/// Removes the sessions of `rows` past `policy` from the store `base`, the oldest first and at
/// most `most` of them (lists them only, with `dry_run`). `repo` is where the hook's verdict
/// cache and the staged trees are found.
pub fn prune(
    base: &Path,
    rows: Vec<Row>,
    policy: &Policy,
    dry_run: bool,
    most: usize,
    repo: Option<&crate::git::Repo>,
) -> Report {
    let now = time::OffsetDateTime::now_utc();
    let chosen = candidates(&rows, policy, now);
    let mut report = Report::default();
    if chosen.is_empty() {
        return report;
    }
    let hook_key = |row: &Row| row.entry.as_ref().ok().and_then(|e| e.hook.clone());
    let staged = match repo.and_then(crate::git::Repo::libgit2) {
        Some(r) if chosen.iter().any(|(i, _)| hook_key(&rows[*i]).is_some()) => staged_trees(r),
        _ => BTreeSet::new(),
    };
    let mut gone = BTreeSet::new();
    for (i, why) in chosen.into_iter().rev() {
        if report.removed.len() == most {
            report.deferred += 1;
            continue;
        }
        let row = rows[i].clone();
        let key = hook_key(&row);
        if key
            .as_deref()
            .and_then(|k| k.split('-').next())
            .is_some_and(|tree| staged.contains(tree))
        {
            report.kept.push((row, Kept::StagedVerdict));
        } else if dry_run {
            if crate::store::lock::holder_gone(&row.dir) == Some(false) {
                report.kept.push((row, Kept::Running));
            } else {
                report.removed.push((row, why));
            }
        } else {
            match remove(base, &row) {
                Ok(true) => {
                    gone.insert(i);
                    report.removed.push((row, why));
                }
                Ok(false) => report.kept.push((row, Kept::Running)),
                Err(e) => report.failed.push((row, format!("{e:#}"))),
            }
        }
    }
    if !gone.is_empty() {
        if let Some(repo) = repo {
            drop_cache_entries(&crate::store::hook_cache::dir(repo), &rows, &gone);
        }
        crate::store::catalog::forget_gone(base);
    }
    report.removed.reverse();
    report.kept.reverse();
    report.failed.reverse();
    report
}

/// Deletes one session folder while holding its lock; `false` when another process holds it.
/// The folder is first renamed out of the store, so nothing ever sees it half deleted.
fn remove(base: &Path, row: &Row) -> anyhow::Result<bool> {
    use anyhow::Context as _;
    if !fs::symlink_metadata(&row.dir).is_ok_and(|m| m.is_dir()) {
        return Ok(true); // removed meanwhile (another prune)
    }
    let _lock = match crate::store::lock::acquire(&row.dir, &row.id) {
        Ok(l) => Some(l),
        Err(e) if e.is::<crate::error::UsageError>() => return Ok(false),
        // A lock file we cannot use (a planted link, say) does not save the folder.
        Err(_) => None,
    };
    let doomed: PathBuf = base.join(format!(".pruning-{}-{}", row.id, std::process::id()));
    let target = match fs::rename(&row.dir, &doomed) {
        Ok(()) => &doomed,
        Err(_) => &row.dir,
    };
    fs::remove_dir_all(target).with_context(|| format!("cannot remove {}", target.display()))?;
    Ok(true)
}

/// Removes the cache entries of the removed sessions `gone` (indexes into `rows`) that no
/// remaining session shares.
fn drop_cache_entries(cache: &Path, rows: &[Row], gone: &BTreeSet<usize>) {
    let key = |row: &Row| row.entry.as_ref().ok().and_then(|e| e.hook.clone());
    let still: BTreeSet<String> = rows
        .iter()
        .enumerate()
        .filter(|(i, _)| !gone.contains(i))
        .filter_map(|(_, r)| key(r))
        .collect();
    for i in gone {
        if let Some(k) = key(&rows[*i]).filter(|k| !still.contains(k)) {
            // The key was checked when the index was read: a plain file name.
            let _ = fs::remove_file(cache.join(k));
        }
    }
}

/// The tree each work tree of `repo` has staged now (the one `repo` was opened for, which
/// honours `GIT_INDEX_FILE` inside a hook, the main one and every linked one): a commit can
/// still be made of them.
pub fn staged_trees(repo: &git2::Repository) -> BTreeSet<String> {
    let mut trees = BTreeSet::new();
    let mut add = |r: &git2::Repository| {
        let tree = r
            .index()
            .ok()
            .filter(|i| !i.has_conflicts())
            .and_then(|mut i| i.write_tree().ok());
        if let Some(t) = tree {
            trees.insert(t.to_string());
        }
    };
    add(repo);
    if let Ok(main) = git2::Repository::open(repo.commondir()) {
        add(&main);
    }
    let names = repo.worktrees().ok();
    for name in names.iter().flat_map(|w| w.iter()).flatten().flatten() {
        if let Some(r) = repo
            .find_worktree(name)
            .ok()
            .and_then(|w| git2::Repository::open_from_worktree(&w).ok())
        {
            add(&r);
        }
    }
    trees
}

#[cfg(test)]
#[path = "prune_tests.rs"]
mod tests;
