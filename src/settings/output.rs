//! Where `--output` (`debate.output`) may write: nothing yet, or a regular file. A symbolic link,
//! FIFO, device, socket or folder is refused with one line, because replacing it with a regular
//! file would silently break the user's link or device node (as root, `--output /dev/full` would
//! replace the device), and writing into a FIFO can block forever.
//!
//! Nor may it replace what the review reads: a file git tracks, a file of the reviewed change
//! (untracked ones included) or the file under review. `--output lib.rs` would otherwise replace
//! the code being reviewed, uncommitted work included, and exit 0. `--force` allows it.
//!
//! A run checks its destination when its settings are resolved, before any work is done for it,
//! and the writer checks again when it writes (`report::output`), since the path may have changed
//! in between.

use std::fs;
use std::path::Path;

use anyhow::{Context as _, Result};

use crate::error::UsageError;

/// What a non-regular destination is, in words, or `None` for a regular file.
fn odd_kind(t: &fs::FileType) -> Option<&'static str> {
    if t.is_file() {
        None
    } else if t.is_symlink() {
        Some("a symbolic link (name the file it points to)")
    } else {
        Some(crate::sys::file_io::kind(t))
    }
}

/// Refuses a destination that is not a regular file.
pub fn check(path: &Path) -> Result<()> {
    existing(path).map(|_| ())
}

/// What is at `path` now: nothing, or a regular file; anything else is refused.
pub fn existing(path: &Path) -> Result<Option<fs::Metadata>> {
    Ok(match fs::symlink_metadata(path) {
        Ok(meta) => {
            if let Some(kind) = odd_kind(&meta.file_type()) {
                return Err(UsageError::new(format!(
                    "--output {} is {kind}: it writes regular files only; \
                     leave --output out to print on standard output",
                    path.display()
                ))
                .into());
            }
            Some(meta)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(e).with_context(|| format!("cannot check --output {}", path.display()))
        }
    })
}

/// Why `--output` must not replace `path`, given what the review reads: `tracked` says whether a
/// repository-relative path is in git's index, `reviewed` lists the absolute paths of the change's
/// files and the file under review. `None` when it may.
pub fn protected(
    path: &Path,
    cwd: &Path,
    root: Option<&Path>,
    reviewed: &[std::path::PathBuf],
    tracked: &dyn Fn(&Path) -> bool,
) -> Option<&'static str> {
    let at = absolute(&cwd.join(path));
    if reviewed.iter().any(|r| absolute(r) == at) {
        return Some("part of the reviewed change");
    }
    let root = root.map(absolute)?;
    let rel = at.strip_prefix(&root).ok()?;
    tracked(rel).then_some("tracked by git")
}

/// The error for a protected destination: one line, the path, why, and what to do.
pub fn refusal(path: &Path, why: &str) -> anyhow::Error {
    UsageError::new(format!(
        "--output {} is {why}: the report would replace it; name another file, or add --force \
         to replace it anyway",
        path.display()
    ))
    .into()
}

/// `path` made absolute with its folder's links resolved (the file itself may not exist yet),
/// so two names of one file compare equal.
fn absolute(path: &Path) -> std::path::PathBuf {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return path.to_path_buf();
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    match parent.canonicalize() {
        Ok(p) => p.join(name),
        Err(_) => path.to_path_buf(),
    }
}
