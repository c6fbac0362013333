//! What is staged, as the pre-commit hook's fast paths need it: nothing, only whitespace, or a
//! tree to review (and cache its verdict by).

use anyhow::{Context as _, Result};
use git2::Repository;

use crate::git::command::text;
use crate::git::repo::{self, Repo};
use crate::git::Status;

/// The staged change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Staged {
    /// The index is HEAD's tree.
    Nothing,
    /// Every change is to whitespace (no file added, deleted, renamed or binary).
    WhitespaceOnly,
    /// The tree the index would commit; empty when the index has conflicts (no tree to name).
    Tree(String),
}

/// What `repo`'s index holds against HEAD: found with libgit2 when it can read the index, else
/// asked of git (`git write-tree`, `git diff --cached -w`).
pub fn staged(repo: &Repo) -> Result<Staged> {
    match repo.libgit2().filter(|r| r.index().is_ok()) {
        Some(r) => by_libgit2(r),
        None => by_git(repo),
    }
}

/// The tree the index would commit, when libgit2 can say so cheaply and it is not HEAD's: what
/// the hook's verdict cache is keyed by, found before any diff is made (a tree with a verdict
/// was reviewed, so it was not whitespace only).
pub fn staged_tree(repo: &Repo) -> Option<String> {
    let r = repo.libgit2()?;
    let mut index = r.index().ok()?;
    if index.has_conflicts() {
        return None;
    }
    let tree = index.write_tree().ok()?;
    let head = repo::head_commit(r).ok()?.map(|c| c.tree_id());
    (head != Some(tree)).then(|| tree.to_string())
}

fn by_libgit2(repo: &Repository) -> Result<Staged> {
    let mut index = repo.index().context("cannot read the index")?;
    if index.has_conflicts() {
        // The review itself will say what to do about them.
        return Ok(Staged::Tree(String::new()));
    }
    let tree = index
        .write_tree()
        .context("cannot compute the index tree")?;
    let head_tree = repo::head_commit(repo)?.map(|c| c.tree()).transpose()?;
    if head_tree.as_ref().map(|t| t.id()) == Some(tree) {
        return Ok(Staged::Nothing);
    }
    let mut opts = git2::DiffOptions::new();
    opts.ignore_whitespace(true);
    let diff = repo.diff_tree_to_index(head_tree.as_ref(), Some(&index), Some(&mut opts))?;
    let stats = diff.stats()?;
    let any_binary = diff.deltas().any(|d| {
        d.flags().contains(git2::DiffFlags::BINARY)
            || matches!(
                d.status(),
                git2::Delta::Added | git2::Delta::Deleted | git2::Delta::Renamed
            )
    });
    if stats.insertions() + stats.deletions() == 0 && !any_binary {
        return Ok(Staged::WhitespaceOnly);
    }
    Ok(Staged::Tree(tree.to_string()))
}

fn by_git(repo: &Repo) -> Result<Staged> {
    let git = repo.git();
    if !git.output(&["ls-files", "--unmerged", "-z"])?.is_empty() {
        return Ok(Staged::Tree(String::new()));
    }
    let tree = text(git.output(&["write-tree"])?);
    let head = git.answer(&["rev-parse", "--verify", "--quiet", "HEAD^{tree}"])?;
    let head = head.ok.then(|| text(head.stdout));
    if head.as_deref() == Some(tree.as_str()) {
        return Ok(Staged::Nothing);
    }
    let files = crate::git::asked::diff_with(
        repo,
        head.as_deref(),
        &crate::git::sides::New::Index,
        None,
        &["--ignore-all-space", "--no-renames"],
    )?
    .0;
    let whitespace = files
        .iter()
        .all(|f| f.status == Status::Modified && !f.binary && f.additions + f.deletions == 0);
    Ok(if whitespace {
        Staged::WhitespaceOnly
    } else {
        Staged::Tree(tree)
    })
}
