//! Applying a session's final version to the work tree, as `git apply` does it — by asking git
//! itself (`git apply`, run without a shell), so whitespace rules, binary patches, renames and the
//! three-way fallback behave exactly as the user's own `git apply --3way` would.
//!
//! Order of attempts: an exact apply (`--check` first, so a failure changes nothing); then, only
//! when the files the patch touches have no uncommitted changes (or `force`), git's three-way
//! merge, which may leave conflict markers for the user to resolve. A patch that touches a file
//! with uncommitted edits is refused by default: a three-way merge there could bury those edits in
//! conflict markers.

use std::path::Path;

use anyhow::Result;

use crate::error::UsageError;
use crate::git::Repo;

/// How to apply.
#[derive(Debug, Clone, Copy, Default)]
pub struct How {
    /// Only say whether it applies (`git apply --check`); change nothing.
    pub dry_run: bool,
    /// Stage the files it changed too.
    pub index: bool,
    /// Merge into files with uncommitted changes as well.
    pub force: bool,
}

/// What happened.
#[derive(Debug, PartialEq, Eq)]
pub enum Applied {
    /// It applies exactly (`dry_run`: it would).
    Exactly { stat: String },
    /// It did not apply exactly; with `dry_run` this is all that was done: git's reason.
    WouldNeedMerge { why: String },
    /// Three-way merged; `conflicts` lists the files left with conflict markers.
    Merged {
        stat: String,
        conflicts: Vec<String>,
    },
}

/// Applies the patch file at `patch` to `repo`'s work tree.
pub fn apply(repo: &Repo, patch: &Path, how: How) -> Result<Applied> {
    let git = repo.git();
    let file = patch.to_string_lossy().into_owned();
    let stat = String::from_utf8_lossy(&git.output(&["apply", "--stat", &file])?).into_owned();
    let touched = touched_files(&git.output(&["apply", "--numstat", "-z", &file])?);
    let exact = git.answer(&["apply", "--check", &file])?;
    if exact.ok {
        if !how.dry_run {
            git.output(&["apply", &file])?;
            stage(repo, &touched, how)?;
        }
        return Ok(Applied::Exactly { stat });
    }
    let why = first_line(&exact.stderr);
    if how.dry_run {
        return Ok(Applied::WouldNeedMerge { why });
    }
    let dirty = dirty_among(repo, &touched)?;
    if !dirty.is_empty() && !how.force {
        return Err(UsageError::new(format!(
            "the final version does not apply exactly ({why}), and {} uncommitted changes it \
             would merge into; commit or stash them and retry, or pass --force to merge anyway",
            if dirty.len() == 1 {
                format!("{} has", dirty[0])
            } else {
                format!("{} have", dirty.join(", "))
            }
        ))
        .into());
    }
    // `--3way` works through the index: it records the merge there, as `git apply --3way` does.
    let merged = git.answer(&["apply", "--3way", &file])?;
    let conflicts = conflicted(repo)?;
    if !merged.ok && conflicts.is_empty() {
        return Err(UsageError::new(format!(
            "the final version does not apply, even with a three-way merge: {}",
            first_line(&merged.stderr)
        ))
        .into());
    }
    if conflicts.is_empty() {
        stage(repo, &touched, how)?;
    }
    Ok(Applied::Merged { stat, conflicts })
}

/// `--index`: the files the patch touched, staged as they now are in the work tree. A review's
/// final version is made against the work tree (an uncommitted change is reviewed there), so it
/// is applied there and then staged, rather than applied to an index that may not match it.
fn stage(repo: &Repo, touched: &[String], how: How) -> Result<()> {
    if !how.index || touched.is_empty() {
        return Ok(());
    }
    let mut args = vec!["add", "-A", "--"];
    args.extend(touched.iter().map(String::as_str));
    repo.git().output(&args)?;
    Ok(())
}

/// Why `patch` does not apply to the work tree of the repository whose git folder is `git_dir`,
/// as `git apply --check` says it (libgit2's own check accepts patches git refuses); `None` when
/// it applies.
pub fn refused_by_git(git_dir: &Path, work_tree: &Path, patch: &str) -> Result<Option<String>> {
    let git = crate::git::command::Git::new(Some(git_dir.into()), Some(work_tree.into()));
    let a = git.answer_with_input(&["apply", "--check", "-"], patch.as_bytes().to_vec())?;
    Ok((!a.ok).then(|| first_line(&a.stderr)))
}

fn first_line(s: &str) -> String {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("git gave no reason")
        .trim()
        .to_string()
}

/// The paths of `git apply --numstat -z` (a rename's both names).
fn touched_files(numstat: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut fields = numstat.split(|b| *b == 0).peekable();
    while let Some(entry) = fields.next() {
        if entry.is_empty() {
            continue;
        }
        let entry = String::from_utf8_lossy(entry);
        // `added<TAB>deleted<TAB>path`, or for a rename an empty path and then both names.
        let path = entry.splitn(3, '\t').nth(2).unwrap_or_default().to_string();
        if path.is_empty() {
            for _ in 0..2 {
                if let Some(name) = fields.next() {
                    out.push(String::from_utf8_lossy(name).into_owned());
                }
            }
        } else {
            out.push(path);
        }
    }
    out
}

/// Of `paths`, those with staged or unstaged changes against HEAD.
fn dirty_among(repo: &Repo, paths: &[String]) -> Result<Vec<String>> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let mut args = vec![
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=no",
        "--",
    ];
    args.extend(paths.iter().map(String::as_str));
    let out = repo.git().output(&args)?;
    Ok(out
        .split(|b| *b == 0)
        .filter(|e| e.len() > 3)
        .map(|e| String::from_utf8_lossy(&e[3..]).into_owned())
        .filter(|p| paths.contains(p))
        .collect())
}

/// Files the index holds in conflict after a three-way apply.
fn conflicted(repo: &Repo) -> Result<Vec<String>> {
    let out = repo
        .git()
        .output(&["diff", "--name-only", "--diff-filter=U", "-z"])?;
    Ok(out
        .split(|b| *b == 0)
        .filter(|e| !e.is_empty())
        .map(|e| String::from_utf8_lossy(e).into_owned())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::touched_files;

    #[test]
    fn numstat_names_both_sides_of_a_rename() {
        let out = touched_files(b"1\t1\tlib.rs\x000\t0\t\x00old.rs\x00new.rs\x00");
        assert_eq!(out, ["lib.rs", "old.rs", "new.rs"]);
    }
}
