//! The pre-commit hook's verdict cache, beside the sessions (`<store>/hook-cache/<key>`): one
//! file per staged tree and gate (`<tree>-<fail-on>-<rounds>`, see
//! [`crate::store::index::is_cache_key`]), holding `1` when the commit was blocked and `0` when
//! it passed, so committing the same tree again costs no model call. Pruning a hook session
//! removes its entry ([`crate::store::prune`]).

use std::path::{Path, PathBuf};

/// The cache's folder for the repository `repo`.
pub fn dir(repo: &crate::git::Repo) -> PathBuf {
    crate::git::repo::session_base(repo).join("hook-cache")
}

/// The verdict cached under `key` in `dir`: `Some(true)` when the commit was blocked. Read as a
/// session file is ([`crate::store::session_read`]), so nothing planted there can hang a commit.
pub fn verdict(dir: &Path, key: &str) -> Option<bool> {
    let code = crate::store::session_read::read_to_string(&dir.join(key)).ok()?;
    Some(code.trim() == "1")
}

/// Caches the verdict of `key` in `dir`. A cache that cannot be written only costs the next
/// commit of the same tree a review, so failures are not reported.
pub fn record(dir: &Path, key: &str, blocked: bool) {
    let _ = std::fs::create_dir_all(dir);
    let _ = crate::store::write_atomic(&dir.join(key), if blocked { b"1" } else { b"0" });
}
