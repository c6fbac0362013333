//! Resolving a [`Scope`] to a [`Change`]: first its two sides (which commits, the index or the
//! work tree, and the words that describe them), then the diff between them.
//!
//! Each step has two ways. The sides are found with libgit2 when it can open the repository
//! (and, for `staged`, read its index), else by asking git ([`crate::git::asked`]). The diff is
//! made by libgit2 ([`crate::git::collect`]) unless [`crate::git::route`] finds something only
//! git does as git does it; then it is `git diff`'s own output, read back.

use std::os::unix::ffi::OsStrExt as _;

use anyhow::{Context as _, Result};
use git2::{Commit, Diff, DiffOptions, Oid, Repository, Tree};

use crate::git::diff::{like_git_diff, MAX_FILE_BYTES};
use crate::git::repo::{self, short, Repo};
use crate::git::revision::{find_base, find_commit, merge_base, shallow_boundary};
use crate::git::route::{self, Engine};
use crate::git::sides::MAX_COMMITS;
use crate::git::sides::{commit_words, head_words, info, range_names, range_words, New, Sides};
use crate::git::{Change, CommitInfo, Scope};

/// The index entry flag of a file added with `git add -N` (libgit2's
/// `GIT_INDEX_ENTRY_INTENT_TO_ADD`, in the extended flags).
pub(super) const INTENT_TO_ADD: u16 = 1 << 13;
/// Resolves a git scope. `file:` is not a diff and is handled by the artifact builder.
/// `context_lines`: `None` takes git's `diff.context` (3 when unset).
pub fn resolve(repo: &Repo, scope: &Scope, context_lines: Option<u32>) -> Result<Change> {
    if matches!(scope, Scope::File(_)) {
        unreachable!("file: scopes are read by the artifact builder");
    }
    if matches!(scope, Scope::Uncommitted | Scope::Staged) {
        repo::workdir(repo, &format!("--scope {scope}"))?;
    }
    if *scope == Scope::Uncommitted {
        crate::git::refresh::index(repo);
    }
    let engine = route::engine(repo, scope);
    let lib = repo.libgit2().filter(|r| {
        // A staged side is the index, which libgit2 must then be able to read.
        *scope != Scope::Staged || r.index().is_ok()
    });
    let sides = match lib {
        Some(r) => sides(r, scope)?,
        None => crate::git::asked::sides(repo, scope)?,
    };
    let Sides {
        mut change,
        old,
        new,
        index,
    } = sides;
    let (files, needed_limit) = match (engine, repo.libgit2()) {
        (Engine::Libgit2, Some(r)) => {
            let diff = libgit2_diff(r, old.as_deref(), &new, index, context_lines)?;
            // Every side is a blob unless the work tree is one of them.
            let blobs = new != New::WorkTree;
            let context = crate::git::diff::context_lines(r, context_lines);
            crate::git::collect::collect(r, diff, context, blobs)?
        }
        _ => crate::git::asked::diff(repo, old.as_deref(), &new, context_lines)?,
    };
    change.files = files;
    if let Some(n) = needed_limit {
        // git warns the same way and shows the files as added and deleted.
        change.description.push_str(&format!(
            "; renames not looked for among so many files (set diff.renameLimit to at least {n})"
        ));
    }
    Ok(change)
}

/// The options every libgit2 diff of a scope is made with.
fn diff_options(repo: &Repository, context_lines: Option<u32>) -> DiffOptions {
    let mut opts = DiffOptions::new();
    opts.context_lines(crate::git::diff::context_lines(repo, context_lines))
        .max_size(MAX_FILE_BYTES as i64)
        .include_typechange(true)
        .ignore_submodules(false);
    like_git_diff(repo, &mut opts);
    opts
}

/// The diff between the sides, made by libgit2.
fn libgit2_diff<'r>(
    repo: &'r Repository,
    old: Option<&str>,
    new: &New,
    index: Option<git2::Index>,
    context_lines: Option<u32>,
) -> Result<Diff<'r>> {
    let mut opts = diff_options(repo, context_lines);
    let tree_of =
        |id: &str| -> Result<Tree<'r>> { Ok(repo.find_commit(Oid::from_str(id)?)?.tree()?) };
    let old_tree = old.map(tree_of).transpose()?;
    Ok(match new {
        New::WorkTree => {
            opts.include_untracked(true)
                .recurse_untracked_dirs(true)
                .show_untracked_content(true);
            repo.diff_tree_to_workdir_with_index(old_tree.as_ref(), Some(&mut opts))
                .context("cannot diff the work tree")?
        }
        New::Index => {
            let index = match index {
                Some(i) => i,
                None => repo.index().context("cannot read the index")?,
            };
            repo.diff_tree_to_index(old_tree.as_ref(), Some(&index), Some(&mut opts))
                .context("cannot diff the index")?
        }
        New::Commit(id) => diff_trees(repo, old_tree.as_ref(), &tree_of(id)?, &mut opts)?,
    })
}

/// The sides of `scope`, found with libgit2.
fn sides(repo: &Repository, scope: &Scope) -> Result<Sides> {
    let head = repo::head_commit(repo)?;
    let head_id = head.as_ref().map(|c| c.id().to_string());
    let head_desc = || head_words(head_id.as_deref(), &repo::head_name(repo));
    let mut change = Change {
        base: head_id.clone(),
        ..Change::default()
    };
    let (old, new, index) = match scope {
        Scope::Uncommitted => {
            change.description = format!(
                "{} -> index + work tree (incl. untracked files)",
                head_desc()
            );
            (head_id.clone(), New::WorkTree, None)
        }
        Scope::Staged => {
            let (index, tree) = index_to_commit(repo)?;
            change.index_tree = Some(tree.to_string());
            change.description = format!("{} -> index (tree {})", head_desc(), short(tree));
            (head_id.clone(), New::Index, Some(index))
        }
        Scope::Commit(rev) => {
            let commit = find_commit(repo, rev, &scope.to_string())?;
            // A merge is shown against its first parent: what it brought into the branch.
            let parent = commit.parents().next().map(|p| p.id().to_string());
            let id = commit.id().to_string();
            change.base = parent.clone();
            change.head = Some(id.clone());
            let shallow = parent.is_none() && shallow_boundary(repo.commondir(), &id);
            change.description =
                commit_words(&id, parent.as_deref(), commit.parent_count(), shallow);
            change.commits = vec![commit_info(&commit)];
            (parent, New::Commit(id), None)
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
            let new = New::Commit(head.id().to_string());
            (Some(mb.to_string()), new, None)
        }
        Scope::Range {
            from,
            to,
            three_dots,
        } => {
            let (from, to) = range_names(from, to);
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
            change.description = range_words(
                &from,
                &to,
                &a.id().to_string(),
                &old.to_string(),
                &b.id().to_string(),
                *three_dots,
            );
            change.commits = commits_between(repo, Some(old), b.id())?;
            (Some(old.to_string()), New::Commit(b.id().to_string()), None)
        }
        Scope::File(_) => unreachable!("file: scopes are read by the artifact builder"),
    };
    Ok(Sides {
        change,
        old,
        new,
        index,
    })
}

/// The index as a commit would record it, and its tree: a file added with `git add -N` is in
/// the index only as an intent, which git leaves out of `git diff --cached` and of
/// `git write-tree`, and so do we (in this in-memory copy of the index only; the index file is
/// never written).
fn index_to_commit(repo: &Repository) -> Result<(git2::Index, Oid)> {
    let mut index = repo.index().context("cannot read the index")?;
    if index.has_conflicts() {
        crate::usage!(
            "the index has unresolved merge conflicts; resolve them (git add) before reviewing --scope staged"
        );
    }
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
    // write_tree stores tree objects (as `git write-tree` does) but changes no ref and nothing
    // staged; it gives the id a pre-commit hook can cache its verdict by.
    let tree = index
        .write_tree()
        .context("cannot compute the index tree")?;
    Ok((index, tree))
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
    info(c.id().to_string(), c.message_bytes())
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
    context_lines: Option<u32>,
) -> Result<Change> {
    let mut opts = diff_options(repo, context_lines);
    opts.disable_pathspec_match(true);
    for p in paths {
        opts.pathspec(p);
    }
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
    let context = crate::git::diff::context_lines(repo, context_lines);
    let (files, _) = crate::git::collect::collect(repo, diff, context, true)?;
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
