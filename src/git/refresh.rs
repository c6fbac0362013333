//! The index's stat data refreshed and written back, as `git status` does.
//!
//! The index records each file's size and times; a file whose times changed (a `touch`, a branch
//! switched back and forth, a build that rewrites what it did not change) must be read and hashed
//! again to learn that it did not change. `git status` (and `git diff`) does that once and, when
//! it can take the index lock, writes the refreshed entries back, so the next run reads nothing.
//! A libgit2 diff refreshes only in memory, so every run paid again. So before an `uncommitted`
//! diff git refreshes the index itself (`git update-index -q --refresh`): it takes `index.lock`
//! before it reads the index and writes it only when an entry changed, so it never overwrites a
//! concurrent git's index; when another git holds the lock it gives up, and so do we (the diff
//! then reads the files, as before). `GIT_OPTIONAL_LOCKS=0` (`git --no-optional-locks debate`)
//! asks for no such write, as it does of `git status`.

use crate::git::repo::Repo;

/// Refreshes `repo`'s index if git would; failing to is never an error.
pub(super) fn index(repo: &Repo) {
    if std::env::var("GIT_OPTIONAL_LOCKS").is_ok_and(|v| v.trim() == "0") {
        return;
    }
    if !repo.index_file().is_file() {
        return;
    }
    let _ = repo
        .git()
        .answer(&["update-index", "-q", "--refresh", "--ignore-submodules"]);
}
