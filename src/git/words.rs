//! git's words: CONTENT that git would read as a revision names the change git would show.
//!
//! `git debate HEAD~1` or `git debate main` in a script used to send a paid review of the literal
//! string. git reads those words as revisions, so we do too: `a..b` and `a...b` are a range (as
//! `git log a..b`), a branch other than the one checked out is that branch's merge-base to HEAD
//! (`base:`, what a pull request against it shows), and any other revision is that one commit (as
//! `git show`). A word is asked of the repository only when it could be a revision: no
//! whitespace, no leading `-` (never an option to git), not a file in the work tree (a file is
//! reviewed as a file).

use git2::BranchType;

use crate::git::{Repo, Scope};

/// git's default abbreviated id length (`core.abbrev`'s usual value).
const SHORT_ID: usize = 7;

/// The scope git would mean by `word`, or `None` when it names no commit.
pub fn scope_of(repo: &Repo, word: &str) -> Option<Scope> {
    let word = word.trim();
    if word.is_empty() || word.starts_with('-') || word.contains(char::is_whitespace) {
        return None;
    }
    if word.contains("..") {
        let scope = Scope::parse(&format!("range:{word}")).ok()?;
        let Scope::Range { from, to, .. } = &scope else {
            return None;
        };
        let sides_known = [from, to]
            .iter()
            .all(|side| side.is_empty() || is_commit(repo, side));
        return sides_known.then_some(scope);
    }
    // A short run of hex digits is as likely an English word ("face", "decade") as an id: only
    // git's default abbreviation length or more is read as a commit id.
    let hex_only = word.bytes().all(|b| b.is_ascii_hexdigit());
    if (hex_only && word.len() < SHORT_ID) || !is_commit(repo, word) {
        return None;
    }
    if is_branch(repo, word) && !is_checked_out(repo, word) {
        return Some(Scope::Base(word.to_string()));
    }
    Some(Scope::Commit(word.to_string()))
}

/// What a scope found this way is called on stderr: "commit HEAD~1", "the change since main".
pub fn described(scope: &Scope) -> String {
    match scope {
        Scope::Commit(rev) => format!("the commit {rev}"),
        Scope::Base(branch) => format!("this branch's change since it left {branch}"),
        Scope::Range { from, to, .. } => {
            let side = |s: &str| {
                if s.is_empty() {
                    "HEAD".to_string()
                } else {
                    s.to_string()
                }
            };
            format!("the commits from {} to {}", side(from), side(to))
        }
        other => other.to_string(),
    }
}

fn is_commit(repo: &Repo, rev: &str) -> bool {
    if rev.starts_with('-') {
        return false;
    }
    match repo.libgit2() {
        Some(lib) => lib
            .revparse_single(rev)
            .and_then(|o| o.peel_to_commit())
            .is_ok(),
        None => repo
            .git()
            .answer(&[
                "rev-parse",
                "--verify",
                "--quiet",
                "--end-of-options",
                &format!("{rev}^{{commit}}"),
            ])
            .is_ok_and(|a| a.ok),
    }
}

/// A local branch, or a remote-tracking one (`origin/main`).
fn is_branch(repo: &Repo, name: &str) -> bool {
    match repo.libgit2() {
        Some(lib) => {
            lib.find_branch(name, BranchType::Local).is_ok()
                || lib.find_branch(name, BranchType::Remote).is_ok()
        }
        None => ["refs/heads/", "refs/remotes/"].iter().any(|prefix| {
            repo.git()
                .answer(&[
                    "show-ref",
                    "--verify",
                    "--quiet",
                    &format!("{prefix}{name}"),
                ])
                .is_ok_and(|a| a.ok)
        }),
    }
}

/// Whether `name` is the branch HEAD is on (its base would be an empty change).
fn is_checked_out(repo: &Repo, name: &str) -> bool {
    match repo.libgit2() {
        Some(lib) => lib
            .head()
            .ok()
            .and_then(|h| h.shorthand().ok().map(str::to_string))
            .is_some_and(|h| h == name),
        None => repo
            .git()
            .answer(&["symbolic-ref", "--quiet", "--short", "HEAD"])
            .is_ok_and(|a| a.ok && String::from_utf8_lossy(&a.stdout).trim() == name),
    }
}
