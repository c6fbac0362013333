//! Finding the repository the way git does, and the facts about it the rest of the tool needs.
//!
//! `Repository::open_from_env` honours `GIT_DIR`, `GIT_WORK_TREE` and `GIT_CEILING_DIRECTORIES`,
//! so `git -C dir debate` and hooks (which run with `GIT_DIR` set) see the same repository git
//! does. Sessions live under the *common* git dir so every linked worktree shares them.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use git2::{ErrorCode, Repository};

/// libgit2 re-hashes every object it reads to check it against its name; git does not on its
/// read paths (it trusts its own object store, and `git fsck` is where integrity is checked).
/// We only read, so the re-hashing is pure cost: 16–27 % of the CPU of resolving a big commit.
pub fn read_like_git() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| git2::opts::strict_hash_verification(false));
}

/// Opens the repository around the current directory, or `None` outside any repository.
pub fn discover() -> Result<Option<Repository>> {
    read_like_git();
    match Repository::open_from_env() {
        Ok(repo) => Ok(Some(repo)),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
        Err(e) => Err(anyhow::Error::new(e).context("cannot open the git repository here")),
    }
}

/// `<common git dir>/review-loop`: one store for all linked worktrees of a repository (a linked
/// worktree's own git dir is `.git/worktrees/<name>`, which would scatter sessions).
pub fn session_base(repo: &Repository) -> PathBuf {
    repo.commondir().join("review-loop")
}

/// The work tree, or a one-line error that says why there is none.
pub fn workdir<'r>(repo: &'r Repository, what: &str) -> Result<&'r Path> {
    repo.workdir().ok_or_else(|| {
        crate::error::UsageError::new(format!(
            "{what} needs a work tree, but {} is a bare repository; use --scope commit:<rev>, \
             base:<branch> or range:<a>..<b>, or pass content",
            repo.path().display()
        ))
        .into()
    })
}

/// HEAD's commit, or `None` on an unborn branch (a repository with no commits yet).
pub fn head_commit(repo: &Repository) -> Result<Option<git2::Commit<'_>>> {
    match repo.head() {
        Ok(head) => Ok(Some(
            head.peel_to_commit()
                .context("HEAD does not point at a commit")?,
        )),
        Err(e) if e.code() == ErrorCode::UnbornBranch || e.code() == ErrorCode::NotFound => {
            Ok(None)
        }
        Err(e) => Err(anyhow::Error::new(e).context("cannot read HEAD")),
    }
}

/// A name for HEAD for messages: the branch, or `detached at <sha>`.
pub fn head_name(repo: &Repository) -> String {
    match repo.head() {
        Ok(h) if h.is_branch() => h.shorthand().unwrap_or("HEAD").to_string(),
        Ok(h) => match h.target() {
            Some(oid) => format!("detached at {}", short(oid)),
            None => "HEAD".into(),
        },
        Err(_) => {
            let name = repo.find_reference("HEAD").ok().and_then(|r| {
                r.symbolic_target()
                    .ok()
                    .flatten()
                    .map(|s| s.trim_start_matches("refs/heads/").to_string())
            });
            format!("unborn branch {}", name.unwrap_or_else(|| "HEAD".into()))
        }
    }
}

/// Seven hex digits, as git abbreviates.
pub fn short(oid: git2::Oid) -> String {
    oid.to_string()[..7].to_string()
}
