//! A file that became a symlink, or a symlink that became a file, as git shows it.
//!
//! libgit2 reports a type change as one delta with no lines; git writes the old side deleted and
//! the new side added, each with its content (the link's target as its one line). A reviewer
//! needs the content: a config file replaced by a link to somewhere else is the change.

use anyhow::{Context as _, Result};
use git2::{DiffOptions, Patch};

use crate::git::{FileChange, Status};

/// A type change as git writes it: the old side deleted, then the new side added.
pub(super) fn split(
    fc: &FileChange,
    old: &[u8],
    new: &[u8],
    context_lines: u32,
) -> Result<[FileChange; 2]> {
    let path = std::path::Path::new(&fc.path);
    let side = |status, modes, before: &[u8], after: &[u8]| -> Result<FileChange> {
        let mut opts = DiffOptions::new();
        opts.context_lines(context_lines);
        let (old_path, new_path) = match status {
            Status::Deleted => (Some(path), None),
            _ => (None, Some(path)),
        };
        let patch = Patch::from_buffers(before, old_path, after, new_path, Some(&mut opts))
            .context("cannot compute a type change's diff")?;
        let mut part = FileChange {
            status,
            modes,
            hunks: Vec::new(),
            additions: 0,
            deletions: 0,
            ..fc.clone()
        };
        crate::git::diff::read_hunks(&patch, &mut part)?;
        Ok(part)
    };
    Ok([
        side(Status::Deleted, (fc.modes.0, 0), old, b"")?,
        side(Status::Added, (0, fc.modes.1), b"", new)?,
    ])
}
