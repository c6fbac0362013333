//! Where `--output` (`debate.output`) may write: nothing yet, or a regular file. A symbolic link,
//! FIFO, device, socket or folder is refused with one line, because replacing it with a regular
//! file would silently break the user's link or device node (as root, `--output /dev/full` would
//! replace the device), and writing into a FIFO can block forever.
//!
//! A run checks its destination when its settings are resolved, before any work is done for it,
//! and the writer checks again when it writes (`report::output`), since the path may have changed
//! in between.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result};

use crate::error::UsageError;

/// What a non-regular destination is, in words, or `None` for a regular file.
fn odd_kind(t: &fs::FileType) -> Option<&'static str> {
    if t.is_file() {
        None
    } else if t.is_symlink() {
        Some("a symbolic link (name the file it points to)")
    } else {
        Some(crate::sys::files::kind(t))
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
