//! The hunks of many modified files at once, on all cores.
//!
//! Inflating blobs and diffing them is most of what resolving a big commit or range costs, and
//! libgit2 does it one file after another; `git diff` does too, on one core. A libgit2 diff can
//! not be shared between threads, but a blob pair can be diffed anywhere: each thread opens its
//! own handle on the repository and diffs its share with the same options (context, indent
//! heuristic, algorithm, size cap, and the path, so `.gitattributes` drivers apply as they do in
//! a whole diff). Only modified files go here (libgit2 diffs a blob with a blob, not with
//! nothing); added and deleted files keep the one-by-one path. A work-tree side is read from
//! disk as it is, which is what git compares unless a conversion applies (see
//! [`worktree_may_convert`]); then the work tree is left to libgit2, which converts.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;
use std::path::PathBuf;

use anyhow::{Context as _, Result};
use git2::{DiffOptions, Oid, Patch, Repository};

use crate::git::diff::{like_git_diff, read_hunks, MAX_FILE_BYTES};
use crate::git::FileChange;

/// Below this many files a second thread costs more than it saves.
const PARALLEL_FROM: usize = 64;

/// One modified file to diff: its old blob and path, and its new blob and path, or (`new.0`
/// zero) the file in the work tree at that path.
pub(super) struct Job {
    pub old: (Oid, Vec<u8>),
    pub new: (Oid, Vec<u8>),
}

/// Whether git would convert a work-tree file on its way in (`core.autocrlf`, or any attributes
/// file that could ask for `text`, `eol`, `filter`, `ident` or an encoding): then its raw bytes
/// are not what `git diff` compares, and the work tree's files are left to libgit2, which
/// converts them.
pub(super) fn worktree_may_convert<'a>(
    repo: &Repository,
    mut paths: impl Iterator<Item = &'a [u8]>,
) -> bool {
    let crlf = crate::git::gitconfig::string(repo, "core.autocrlf")
        .is_some_and(|v| crate::settings::parse_bool(v.trim()) != Some(false));
    let global = crate::git::gitconfig::string(repo, "core.attributesFile").is_some();
    let home_attributes = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .is_some_and(|d| d.join("git/attributes").exists());
    crlf || global
        || home_attributes
        || repo.path().join("info/attributes").exists()
        || paths.any(|p| crate::git::renames::file_name(p) == b".gitattributes")
}

/// Diffs every job into its `FileChange` (hunks, counts, binary flags), in place.
pub(super) fn run(
    repo: &Repository,
    jobs: &[Job],
    files: &mut [&mut FileChange],
    context_lines: u32,
) -> Result<()> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads < 2 || jobs.len() < PARALLEL_FROM {
        return share(repo, jobs, files, context_lines);
    }
    let per = jobs.len().div_ceil(threads);
    let handles = (0..threads)
        .map(|_| crate::git::repo::reopen(repo))
        .collect::<Result<Vec<_>>>()
        .context("cannot open the repository to diff files")?;
    std::thread::scope(|scope| {
        let parts: Vec<_> = jobs
            .chunks(per)
            .zip(files.chunks_mut(per))
            .zip(handles)
            .map(|((jobs, files), repo)| {
                scope.spawn(move || share(&repo, jobs, files, context_lines))
            })
            .collect();
        parts.into_iter().try_for_each(|h| {
            h.join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("a diff thread failed")))
        })
    })
}

/// One thread's share, with one repository handle.
fn share(
    repo: &Repository,
    jobs: &[Job],
    files: &mut [&mut FileChange],
    context_lines: u32,
) -> Result<()> {
    let mut opts = DiffOptions::new();
    opts.context_lines(context_lines)
        .max_size(MAX_FILE_BYTES as i64);
    like_git_diff(repo, &mut opts);
    for (job, fc) in jobs.iter().zip(files.iter_mut()) {
        let blob = |id: Oid| repo.find_blob(id).context("cannot read a blob to diff");
        let path = |p: &[u8]| PathBuf::from(OsStr::from_bytes(p));
        let (old_path, new_path) = (path(&job.old.1), path(&job.new.1));
        let old = blob(job.old.0)?;
        let (new, on_disk) = if job.new.0.is_zero() {
            let Some(bytes) = worktree_file(repo, &new_path) else {
                // Too big to load, or gone: listed as libgit2 lists what it does not load.
                fc.binary = true;
                fc.too_large = true;
                continue;
            };
            (None, bytes)
        } else {
            (Some(blob(job.new.0)?), Vec::new())
        };
        let patch = match &new {
            Some(new) => {
                Patch::from_blobs(&old, Some(&old_path), new, Some(&new_path), Some(&mut opts))
            }
            None => Patch::from_blob_and_buffer(
                &old,
                Some(&old_path),
                &on_disk,
                Some(&new_path),
                Some(&mut opts),
            ),
        }
        .context("cannot compute a file's diff")?;
        if patch.delta().flags().is_binary() {
            fc.binary = true;
            let new_size = new.as_ref().map_or(on_disk.len(), |b| b.size()) as u64;
            fc.too_large = old.size() as u64 > MAX_FILE_BYTES || new_size > MAX_FILE_BYTES;
        } else {
            read_hunks(&patch, fc)?;
        }
    }
    Ok(())
}

/// A work-tree file's bytes as git reads them without conversion: a link's target, or the
/// file's content; `None` when it is bigger than [`MAX_FILE_BYTES`] or cannot be read.
fn worktree_file(repo: &Repository, rel: &std::path::Path) -> Option<Vec<u8>> {
    let full = repo.workdir()?.join(rel);
    let meta = std::fs::symlink_metadata(&full).ok()?;
    if meta.file_type().is_symlink() {
        return Some(
            std::fs::read_link(&full)
                .ok()?
                .as_os_str()
                .as_bytes()
                .to_vec(),
        );
    }
    crate::sys::file_io::read_regular_no_link(&full, MAX_FILE_BYTES).ok()
}
