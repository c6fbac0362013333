//! Resolving a [`Scope`] to a [`Change`] with libgit2 (never a `git` child process).
//!
//! Each scope picks the two sides of a diff; one shared routine then turns the diff into files and
//! hunks with rename detection, binary and submodule handling, and lossy UTF-8 flagging.

use std::os::unix::ffi::OsStrExt;

use anyhow::{Context, Result};
use git2::{Commit, Diff, DiffOptions, Oid, Repository, Tree};

use crate::git::diff::{like_git_diff, MAX_FILE_BYTES};
use crate::git::repo::{self, short};
use crate::git::revision::{find_base, find_commit, merge_base, shallow_boundary};
use crate::git::{Change, CommitInfo, Scope};

/// The index entry flag of a file added with `git add -N` (libgit2's
/// `GIT_INDEX_ENTRY_INTENT_TO_ADD`, in the extended flags).
const INTENT_TO_ADD: u16 = 1 << 13;
/// A range can span thousands of commits; the reviewer needs the gist, not the whole log.
const MAX_COMMITS: usize = 200;

/// Resolves a git scope. `file:` is not a diff and is handled by the artifact builder.
pub fn resolve(repo: &Repository, scope: &Scope, context_lines: u32) -> Result<Change> {
    let mut opts = DiffOptions::new();
    opts.context_lines(context_lines)
        .max_size(MAX_FILE_BYTES as i64)
        .include_typechange(true)
        .ignore_submodules(false);
    like_git_diff(repo, &mut opts);
    let head = repo::head_commit(repo)?;
    let head_tree = head.as_ref().map(|c| c.tree()).transpose()?;
    let head_desc = || match &head {
        Some(c) => format!("HEAD {} ({})", short(c.id()), repo::head_name(repo)),
        None => format!("empty tree ({})", repo::head_name(repo)),
    };
    let mut change = Change {
        base: head.as_ref().map(|c| c.id().to_string()),
        ..Change::default()
    };

    let diff = match scope {
        Scope::Uncommitted => {
            repo::workdir(repo, "--scope uncommitted")?;
            opts.include_untracked(true)
                .recurse_untracked_dirs(true)
                .show_untracked_content(true);
            change.description = format!(
                "{} -> index + work tree (incl. untracked files)",
                head_desc()
            );
            repo.diff_tree_to_workdir_with_index(head_tree.as_ref(), Some(&mut opts))
                .context("cannot diff the work tree")?
        }
        Scope::Staged => {
            repo::workdir(repo, "--scope staged")?;
            let mut index = repo.index().context("cannot read the index")?;
            if index.has_conflicts() {
                crate::usage!(
                    "the index has unresolved merge conflicts; resolve them (git add) before reviewing --scope staged"
                );
            }
            // A file added with `git add -N` is in the index only as an intent: git leaves it
            // out of `git diff --cached` and of `git write-tree`, and so do we (in this
            // in-memory copy of the index only; the index file is never written).
            let intents: Vec<Vec<u8>> = index
                .iter()
                .filter(|e| e.flags_extended & INTENT_TO_ADD != 0)
                .map(|e| e.path)
                .collect();
            for path in &intents {
                let path = std::path::Path::new(std::ffi::OsStr::from_bytes(path));
                index
                    .remove_path(path)
                    .context("cannot set an intent-to-add file aside")?;
            }
            // write_tree stores tree objects (as `git write-tree` does) but changes no ref and
            // nothing staged; it gives the id a pre-commit hook can cache its verdict by.
            let tree = index
                .write_tree()
                .context("cannot compute the index tree")?;
            change.index_tree = Some(tree.to_string());
            change.description = format!("{} -> index (tree {})", head_desc(), short(tree));
            repo.diff_tree_to_index(head_tree.as_ref(), Some(&index), Some(&mut opts))
                .context("cannot diff the index")?
        }
        Scope::Commit(rev) => {
            let commit = find_commit(repo, rev, &scope.to_string())?;
            // A merge is shown against its first parent: what it brought into the branch.
            let parent = commit.parents().next();
            let old = parent.as_ref().map(|p| p.tree()).transpose()?;
            change.base = parent.as_ref().map(|p| p.id().to_string());
            change.head = Some(commit.id().to_string());
            change.description = match &parent {
                Some(p) if commit.parent_count() > 1 => format!(
                    "merge commit {} against its first parent {}",
                    short(commit.id()),
                    short(p.id())
                ),
                Some(p) => format!("commit {} (parent {})", short(commit.id()), short(p.id())),
                None if shallow_boundary(repo, commit.id()) => format!(
                    "shallow boundary commit {} (its parent was not fetched, so every file \
                     shows as added; `git fetch --deepen=1` to see its own change)",
                    short(commit.id())
                ),
                None => format!("root commit {}", short(commit.id())),
            };
            change.commits = vec![commit_info(&commit)];
            diff_trees(repo, old.as_ref(), &commit.tree()?, &mut opts)?
        }
        Scope::Base(branch) => {
            let Some(head) = head.as_ref() else {
                crate::usage!("--scope base:{branch} needs a commit on HEAD, but the branch has no commits yet")
            };
            let (base_commit, base_name) = find_base(repo, branch)?;
            let mb = merge_base(repo, base_commit.id(), head.id(), &base_name, "HEAD")?;
            change.base = Some(mb.to_string());
            change.merge_base = Some(mb.to_string());
            change.head = Some(head.id().to_string());
            change.description = format!(
                "merge-base {} of {base_name} and HEAD -> {}",
                short(mb),
                head_desc()
            );
            change.commits = commits_between(repo, Some(mb), head.id())?;
            diff_trees(
                repo,
                Some(&repo.find_commit(mb)?.tree()?),
                &head.tree()?,
                &mut opts,
            )?
        }
        Scope::Range {
            from,
            to,
            three_dots,
        } => {
            let side = |s: &str| {
                if s.is_empty() {
                    "HEAD".to_string()
                } else {
                    s.to_string()
                }
            };
            let (from, to) = (side(from), side(to));
            let a = find_commit(repo, &from, &scope.to_string())?;
            let b = find_commit(repo, &to, &scope.to_string())?;
            let old = if *three_dots {
                let mb = merge_base(repo, a.id(), b.id(), &from, &to)?;
                change.merge_base = Some(mb.to_string());
                mb
            } else {
                a.id()
            };
            change.base = Some(old.to_string());
            change.head = Some(b.id().to_string());
            change.description = if *three_dots {
                format!(
                    "merge-base {} of {from} and {to} -> {to} {}",
                    short(old),
                    short(b.id())
                )
            } else {
                format!("{from} {} -> {to} {}", short(a.id()), short(b.id()))
            };
            change.commits = commits_between(repo, Some(old), b.id())?;
            diff_trees(
                repo,
                Some(&repo.find_commit(old)?.tree()?),
                &b.tree()?,
                &mut opts,
            )?
        }
        Scope::File(_) => unreachable!("file: scopes are read by the artifact builder"),
    };
    // Every side is a blob unless the work tree is one of them.
    let blobs = *scope != Scope::Uncommitted;
    let (files, needed_limit) = crate::git::collect::collect(repo, diff, context_lines, blobs)?;
    change.files = files;
    if let Some(n) = needed_limit {
        // git warns the same way and shows the files as added and deleted.
        change.description.push_str(&format!(
            "; renames not looked for among so many files (set diff.renameLimit to at least {n})"
        ));
    }
    Ok(change)
}

fn diff_trees<'r>(
    repo: &'r Repository,
    old: Option<&Tree>,
    new: &Tree,
    opts: &mut DiffOptions,
) -> Result<Diff<'r>> {
    repo.diff_tree_to_tree(old, Some(new), Some(opts))
        .context("cannot diff the trees")
}

fn commit_info(c: &Commit) -> CommitInfo {
    let message = String::from_utf8_lossy(c.message_bytes())
        .trim_end()
        .to_string();
    CommitInfo {
        sha: c.id().to_string(),
        subject: message.lines().next().unwrap_or("").to_string(),
        message,
    }
}

/// Commits reachable from `to` but not from `from`, newest first, at most [`MAX_COMMITS`].
fn commits_between(repo: &Repository, from: Option<Oid>, to: Oid) -> Result<Vec<CommitInfo>> {
    let mut walk = repo.revwalk()?;
    walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::TIME)?;
    walk.push(to)?;
    if let Some(from) = from {
        walk.hide(from)?;
    }
    let mut out = Vec::new();
    for oid in walk.take(MAX_COMMITS) {
        out.push(commit_info(&repo.find_commit(oid?)?));
    }
    Ok(out)
}

/// The change from commit `old` to commit `new` in the files `paths` only (an incremental
/// review's delta: the trees compared, whatever the history between them). `commits`: the
/// commits to describe it with. Paths are literal, never patterns.
pub fn between(
    repo: &Repository,
    old: Oid,
    new: Oid,
    paths: &[String],
    context_lines: u32,
) -> Result<Change> {
    let mut opts = DiffOptions::new();
    opts.context_lines(context_lines)
        .max_size(MAX_FILE_BYTES as i64)
        .include_typechange(true)
        .ignore_submodules(false)
        .disable_pathspec_match(true);
    for p in paths {
        opts.pathspec(p);
    }
    like_git_diff(repo, &mut opts);
    let (a, b) = (repo.find_commit(old)?, repo.find_commit(new)?);
    let mut change = Change {
        base: Some(old.to_string()),
        head: Some(new.to_string()),
        description: format!("{} -> {}", short(old), short(new)),
        ..Change::default()
    };
    let ancestor = repo.graph_descendant_of(new, old).unwrap_or(false);
    change.commits = if ancestor {
        commits_between(repo, Some(old), new)?
    } else {
        Vec::new()
    };
    if paths.is_empty() {
        return Ok(change);
    }
    let diff = diff_trees(repo, Some(&a.tree()?), &b.tree()?, &mut opts)?;
    let (files, _) = crate::git::collect::collect(repo, diff, context_lines, true)?;
    change.files = files;
    Ok(change)
}

/// The paths that differ between the trees of two commits (names only, nothing read).
pub fn changed_paths(repo: &Repository, old: Oid, new: Oid) -> Result<Vec<String>> {
    let (a, b) = (
        repo.find_commit(old)?.tree()?,
        repo.find_commit(new)?.tree()?,
    );
    let diff = repo
        .diff_tree_to_tree(Some(&a), Some(&b), None)
        .context("cannot diff the trees")?;
    Ok(diff
        .deltas()
        .flat_map(|d| [d.old_file().path_bytes(), d.new_file().path_bytes()])
        .flatten()
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect())
}
