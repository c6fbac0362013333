//! A libgit2 diff turned into the files and hunks of a [`crate::git::Change`], renames paired as git
//! pairs them (see [`crate::git::renames`]), type changes split as git shows them.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

use anyhow::{Context as _, Result};
use git2::{Delta, Diff, DiffFile, DiffOptions, FileMode, Oid, Patch, Repository};

use crate::git::diff::{like_git_diff, read_hunks, MAX_FILE_BYTES};
use crate::git::patches::Job;
use crate::git::renames::{self, Side};
use crate::git::{content, FileChange, Status};

/// A submodule's mode: a submodule moves only as an exact rename (the same commit), as in git.
const GITLINK: u32 = 0o160000;

/// The files of `diff`, and the rename limit that would have been needed when it stopped the
/// search for renames.
/// `blobs`: both sides of every file are blobs (no work tree). Either way the hunks of modified
/// files are computed on all cores where that gives git's hunks (see [`crate::git::patches`]).
pub(super) fn collect(
    repo: &Repository,
    diff: Diff,
    context_lines: u32,
    blobs: bool,
) -> Result<(Vec<FileChange>, Option<usize>)> {
    let (srcs, dsts) = rename_candidates(&diff);
    let pairs = renames::pair(repo, renames::Settings::from_config(repo), srcs, dsts);

    // A work-tree side can be read raw unless git would convert it.
    let raw_worktree = blobs
        || !crate::git::patches::worktree_may_convert(
            repo,
            diff.deltas()
                .filter_map(|d| d.new_file().path_bytes().or(d.old_file().path_bytes())),
        ) && !index_has_attributes(repo);
    let mut files = Vec::with_capacity(diff.deltas().len());
    let (mut jobs, mut in_jobs) = (Vec::new(), Vec::new());
    for idx in 0..diff.deltas().len() {
        if pairs.moved_away.contains(&idx) {
            continue;
        }
        let delta = diff.get_delta(idx).expect("index in range");
        if let Some(&(src, status)) = pairs.by_dst.get(&idx) {
            let old = diff.get_delta(src).expect("index in range").old_file();
            files.push(paired(repo, old, delta.new_file(), status, context_lines)?);
            continue;
        }
        let status = match delta.status() {
            Delta::Added => Status::Added,
            Delta::Deleted => Status::Deleted,
            Delta::Renamed => Status::Renamed,
            Delta::Copied => Status::Copied,
            Delta::Typechange => Status::Typechange,
            Delta::Untracked => Status::Untracked,
            Delta::Unmodified | Delta::Ignored => continue,
            _ => Status::Modified,
        };
        let new_path = delta.new_file().path_bytes().map(path_string);
        let old_path = delta.old_file().path_bytes().map(path_string);
        let path = new_path.or(old_path).unwrap_or_default();
        let is_sub = |f: DiffFile| f.mode() == FileMode::Commit;
        let submodule = (is_sub(delta.old_file()) || is_sub(delta.new_file())).then(|| {
            let id = |f: DiffFile| (!f.id().is_zero()).then(|| f.id().to_string());
            (id(delta.old_file()), id(delta.new_file()))
        });
        let modes = (mode_of(&delta.old_file()), mode_of(&delta.new_file()));
        // In a work-tree diff the new side is the file on disk (an id libgit2 computed for it
        // need not be in the object database).
        let readable = !delta.old_file().id().is_zero() && raw_worktree;
        let file_or_link = |m: u32| m & 0o170000 == 0o100000 || m == 0o120000;
        if readable
            && submodule.is_none()
            && status == Status::Modified
            && file_or_link(modes.0)
            && file_or_link(modes.1)
        {
            let side = |f: DiffFile| (f.id(), f.path_bytes().unwrap_or_default().to_vec());
            let (new_id, new_path) = side(delta.new_file());
            jobs.push(Job {
                old: side(delta.old_file()),
                new: (if blobs { new_id } else { Oid::ZERO_SHA1 }, new_path),
            });
            in_jobs.push(files.len());
            files.push(FileChange::named(path, None, status, modes));
            continue;
        }
        // The patch first: libgit2 knows a side is binary only once it has loaded it.
        let patch = Patch::from_diff(&diff, idx).context("cannot compute a file's diff")?;
        let delta = diff.get_delta(idx).expect("index in range");
        let binary = submodule.is_none() && delta.flags().is_binary();
        let too_large = binary
            && (delta.new_file().size() > MAX_FILE_BYTES
                || delta.old_file().size() > MAX_FILE_BYTES);
        let mut fc = FileChange {
            binary,
            too_large,
            submodule,
            ..FileChange::named(path, None, status, modes)
        };
        if status == Status::Typechange && !binary && fc.submodule.is_none() {
            // git shows a file that became a symlink (or back) as the old one deleted and the
            // new one added, each with its content; libgit2 gives one delta and no lines.
            let bytes = delta.new_file().path_bytes().unwrap_or_default();
            let old = content::side_bytes(repo, delta.old_file().id(), bytes);
            let new = content::side_bytes(repo, delta.new_file().id(), bytes);
            if let (Some(old), Some(new)) = (old, new) {
                files.extend(crate::git::typechange::split(
                    &fc,
                    &old,
                    &new,
                    context_lines,
                )?);
                continue;
            }
        }
        if let (Some(patch), false, None) = (patch, binary, &fc.submodule) {
            read_hunks(&patch, &mut fc)?;
        }
        files.push(fc);
    }
    let mut waiting: Vec<&mut FileChange> = Vec::with_capacity(jobs.len());
    let mut next = in_jobs.iter().peekable();
    for (i, fc) in files.iter_mut().enumerate() {
        if next.next_if(|&&j| j == i).is_some() {
            waiting.push(fc);
        }
    }
    crate::git::patches::run(repo, &jobs, &mut waiting, context_lines)?;
    Ok((files, pairs.needed_limit))
}

/// The sides rename pairing chooses among: deleted files and (for copies) the old side of
/// modified ones as sources, added and untracked files as destinations.
fn rename_candidates(diff: &Diff) -> (Vec<(Side, bool)>, Vec<Side>) {
    let mut srcs = Vec::new();
    let mut dsts = Vec::new();
    for (idx, delta) in diff.deltas().enumerate() {
        let side = |f: DiffFile| Side {
            delta: idx,
            path: f.path_bytes().unwrap_or_default().to_vec(),
            id: f.id(),
            mode: mode_of(&f),
        };
        match delta.status() {
            Delta::Deleted => srcs.push((side(delta.old_file()), false)),
            Delta::Modified => srcs.push((side(delta.old_file()), true)),
            Delta::Added | Delta::Untracked => dsts.push(side(delta.new_file())),
            _ => {}
        }
    }
    (srcs, dsts)
}

/// Whether any tracked file is a `.gitattributes` (one the diff did not list still applies).
fn index_has_attributes(repo: &Repository) -> bool {
    repo.index().is_ok_and(|idx| {
        idx.iter()
            .any(|e| renames::file_name(&e.path) == b".gitattributes")
    })
}

/// The new side of a rename: a blob, or the work tree's file as it is on disk.
enum NewSide<'r> {
    Blob(git2::Blob<'r>),
    Disk(Vec<u8>),
}

/// A rename or copy: `old` (the source's old side) to `new`, diffed as git diffs the pair.
fn paired(
    repo: &Repository,
    old: DiffFile,
    new: DiffFile,
    status: Status,
    context_lines: u32,
) -> Result<FileChange> {
    let (old_bytes, new_bytes) = (
        old.path_bytes().unwrap_or_default(),
        new.path_bytes().unwrap_or_default(),
    );
    let mut fc = FileChange::named(
        path_string(new_bytes),
        Some(path_string(old_bytes)),
        status,
        (mode_of(&old), mode_of(&new)),
    );
    if fc.modes.0 == GITLINK || fc.modes.1 == GITLINK {
        let id = |f: &DiffFile| (!f.id().is_zero()).then(|| f.id().to_string());
        fc.submodule = Some((id(&old), id(&new)));
        return Ok(fc);
    }
    if !old.id().is_zero() && old.id() == new.id() {
        // Nothing to diff, but git still calls an unchanged binary file binary.
        fc.binary = repo
            .find_blob(old.id())
            .is_ok_and(|b| binary_like_git(repo, old_bytes, b.content()));
        return Ok(fc);
    }
    let too_big = |id: git2::Oid| {
        repo.odb()
            .ok()
            .and_then(|odb| content::blob_size(&odb, id))
            .is_some_and(|size| size > MAX_FILE_BYTES)
    };
    let old_blob = repo.find_blob(old.id()).ok().filter(|_| !too_big(old.id()));
    let new_blob = (!new.id().is_zero())
        .then(|| repo.find_blob(new.id()).ok())
        .flatten()
        .filter(|_| !too_big(new.id()));
    let new_side = match new_blob {
        Some(blob) => Some(NewSide::Blob(blob)),
        None => content::side_bytes(repo, new.id(), new_bytes).map(NewSide::Disk),
    };
    let (Some(old_blob), Some(new_side)) = (old_blob, new_side) else {
        fc.binary = true;
        fc.too_large = true;
        return Ok(fc);
    };
    if matches!(&new_side, NewSide::Disk(bytes) if bytes == old_blob.content()) {
        fc.binary = binary_like_git(repo, old_bytes, old_blob.content());
        return Ok(fc);
    }
    let mut opts = DiffOptions::new();
    opts.context_lines(context_lines);
    like_git_diff(repo, &mut opts);
    // From the blobs (not their bytes), so `.gitattributes` drivers apply as in a whole diff.
    let (old_path, new_path) = (
        Path::new(OsStr::from_bytes(old_bytes)),
        Path::new(OsStr::from_bytes(new_bytes)),
    );
    let patch = match &new_side {
        NewSide::Blob(blob) => Patch::from_blobs(
            &old_blob,
            Some(old_path),
            blob,
            Some(new_path),
            Some(&mut opts),
        ),
        NewSide::Disk(bytes) => Patch::from_blob_and_buffer(
            &old_blob,
            Some(old_path),
            bytes,
            Some(new_path),
            Some(&mut opts),
        ),
    }
    .context("cannot compute a renamed file's diff")?;
    if patch.delta().flags().is_binary() {
        fc.binary = true;
    } else {
        read_hunks(&patch, &mut fc)?;
    }
    Ok(fc)
}

/// Whether git calls `content` at `path` binary: its attributes say `-diff` (or `binary`), or a
/// NUL byte is among its first 8,000 bytes.
fn binary_like_git(repo: &Repository, path: &[u8], content: &[u8]) -> bool {
    let unset = repo
        .get_attr_bytes(
            Path::new(OsStr::from_bytes(path)),
            "diff",
            git2::AttrCheckFlags::default(),
        )
        .ok()
        .flatten()
        .is_some_and(|v| git2::AttrValue::from_bytes(Some(v)) == git2::AttrValue::False);
    unset || crate::git::similarity::is_binary(content)
}

/// A path as the change stores it: as it is, or quoted when it is not UTF-8.
fn path_string(bytes: &[u8]) -> String {
    crate::git::name_of(bytes)
}

/// A side's mode as git writes it (0 for a side that does not exist).
fn mode_of(f: &DiffFile) -> u32 {
    match f.mode() {
        FileMode::Unreadable => 0,
        m => i32::from(m) as u32,
    }
}
