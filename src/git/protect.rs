//! Files an `--output` must not replace: what git tracks and what the run reads. A report written
//! over `lib.rs` would destroy the code under review, uncommitted work included; the check is
//! here, beside the repository, so a review, a resumed review and a topic debate ask the same
//! question. The path rules are [`crate::settings::output::protected`].

use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::git::Repo;

/// Refuses `out` when it is a tracked file of `repo` or one of `reviewed` (absolute paths), unless
/// `force`. Nothing to check without `--output`.
pub fn guard_output(
    repo: Option<&Repo>,
    out: Option<&Path>,
    force: bool,
    cwd: &Path,
    reviewed: &[PathBuf],
) -> Result<()> {
    let Some(out) = out.filter(|_| !force) else {
        return Ok(());
    };
    let root = repo.and_then(Repo::workdir);
    // Listed only when asked (libgit2's index, or `git ls-files` where libgit2 cannot read it).
    let tracked = |rel: &Path| {
        repo.and_then(|r| r.tracked_files().ok())
            .is_some_and(|files| {
                files
                    .iter()
                    .any(|f| f.as_slice() == rel.as_os_str().as_bytes())
            })
    };
    match crate::settings::output::protected(out, cwd, root, reviewed, &tracked) {
        Some(why) => Err(crate::settings::output::refusal(out, why)),
        None => Ok(()),
    }
}
