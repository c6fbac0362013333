//! The two sides of a scope's diff and the words that describe them: shared by the sides libgit2
//! finds ([`crate::git::resolve()`]) and those git is asked for ([`crate::git::asked`]), so a
//! change reads the same whichever found it.

use crate::git::{Change, CommitInfo};

/// A range can span thousands of commits; the reviewer needs the gist, not the whole log.
pub(super) const MAX_COMMITS: usize = 200;

/// The new side of a diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum New {
    Commit(String),
    Index,
    WorkTree,
}

/// The two sides of a scope's diff, and the change described, its files not yet read.
pub(super) struct Sides {
    pub change: Change,
    /// The old side: a commit id; `None` for the empty tree.
    pub old: Option<String>,
    pub new: New,
    /// For `staged` found with libgit2: the index as it would be committed (`git add -N` files
    /// set aside), which a libgit2 diff compares with.
    pub index: Option<git2::Index>,
}

/// The words for HEAD: `HEAD a1b2c3d (main)`, or `empty tree (unborn branch main)`.
pub(super) fn head_words(head: Option<&str>, name: &str) -> String {
    match head {
        Some(id) => format!("HEAD {} ({name})", &id[..7.min(id.len())]),
        None => format!("empty tree ({name})"),
    }
}

/// The words for a commit shown against its first parent (`parents`: how many it has).
pub(super) fn commit_words(
    id: &str,
    parent: Option<&str>,
    parents: usize,
    shallow: bool,
) -> String {
    let s = |x: &str| x[..7.min(x.len())].to_string();
    match parent {
        Some(p) if parents > 1 => {
            format!("merge commit {} against its first parent {}", s(id), s(p))
        }
        Some(p) => format!("commit {} (parent {})", s(id), s(p)),
        None if shallow => format!(
            "shallow boundary commit {} (its parent was not fetched, so every file \
             shows as added; `git fetch --deepen=1` to see its own change)",
            s(id)
        ),
        None => format!("root commit {}", s(id)),
    }
}

/// A range's two names, an empty side meaning HEAD.
pub(super) fn range_names(from: &str, to: &str) -> (String, String) {
    let side = |s: &str| {
        if s.is_empty() {
            "HEAD".to_string()
        } else {
            s.to_string()
        }
    };
    (side(from), side(to))
}

/// The words for a range: `a..b` from `a`'s commit, `a...b` from their merge-base `old`.
pub(super) fn range_words(
    from: &str,
    to: &str,
    a: &str,
    old: &str,
    b: &str,
    three_dots: bool,
) -> String {
    let s = |x: &str| x[..7.min(x.len())].to_string();
    if three_dots {
        format!("merge-base {} of {from} and {to} -> {to} {}", s(old), s(b))
    } else {
        format!("{from} {} -> {to} {}", s(a), s(b))
    }
}

/// A commit's id, subject and message from its raw message bytes.
pub(super) fn info(sha: String, message: &[u8]) -> CommitInfo {
    let message = String::from_utf8_lossy(message).trim_end().to_string();
    CommitInfo {
        sha,
        subject: message.lines().next().unwrap_or("").to_string(),
        message,
    }
}
