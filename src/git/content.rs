//! The bytes of one side of a change: a blob, or a work-tree file libgit2 did not hash.
//!
//! Rename pairing and type changes both need a side's content outside libgit2's own patch
//! machinery; this is the one place that reads it, with the same size cap and the same refusal
//! to follow a link out of the work tree.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

use git2::{Oid, Repository};

use crate::git::diff::MAX_FILE_BYTES;

/// The content of the side with blob `id` (zero when libgit2 did not hash a work-tree file) at
/// `path`: the blob, or the file or link target on disk. `None` when it cannot be read or is
/// bigger than [`MAX_FILE_BYTES`].
pub(super) fn side_bytes(repo: &Repository, id: Oid, path: &[u8]) -> Option<Vec<u8>> {
    if !id.is_zero() {
        if let Ok(blob) = repo.find_blob(id) {
            if blob.size() as u64 > MAX_FILE_BYTES {
                return None;
            }
            return Some(blob.content().to_vec());
        }
    }
    let full = repo.workdir()?.join(Path::new(OsStr::from_bytes(path)));
    let meta = std::fs::symlink_metadata(&full).ok()?;
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&full).ok()?;
        return Some(target.as_os_str().as_bytes().to_vec());
    }
    crate::sys::file_io::read_regular_no_link(&full, MAX_FILE_BYTES).ok()
}

/// The size of a blob from its header (a packed blob is not inflated for it).
pub(super) fn blob_size(odb: &git2::Odb, id: Oid) -> Option<u64> {
    odb.read_header(id).ok().map(|(size, _)| size as u64)
}
