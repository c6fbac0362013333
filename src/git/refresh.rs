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
//!
//! Starting git cost more CPU than the rest of a one-file review's setup (3 to 4 ms), most often
//! for nothing: git writes the index only for an entry whose stat data changed while its content
//! did not. So the stat data is compared first ([`nothing_to_refresh`]), and git is started only
//! when some entry may be such an entry, or when a setting may make git write the index anyway.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::MetadataExt as _;

use crate::git::repo::Repo;

/// Refreshes `repo`'s index if git would; failing to is never an error.
pub(super) fn index(repo: &Repo) {
    if std::env::var("GIT_OPTIONAL_LOCKS").is_ok_and(|v| v.trim() == "0") {
        return;
    }
    if !repo.index_file().is_file() || nothing_to_refresh(repo) {
        return;
    }
    let _ = repo
        .git()
        .answer(&["update-index", "-q", "--refresh", "--ignore-submodules"]);
}

/// Settings under which reading or refreshing the index may write it whatever its entries say
/// (an fsmonitor token, a split index, an untracked cache added, a sparse index).
const WRITING_SETTINGS: &[&str] = &[
    "core.fsmonitor",
    "core.splitindex",
    "core.untrackedcache",
    "feature.manyfiles",
    "index.sparse",
];

/// Index entry flags (`ce_flags`): assume-unchanged, which a refresh leaves alone.
const ASSUME_VALID: u16 = 0x8000;
/// Extended flags: a sparse checkout's entry, which a refresh leaves alone.
const SKIP_WORKTREE: u16 = 1 << 14;
/// Extended flags: an entry added with `git add -N`, which git takes as changed.
const INTENT_TO_ADD: u16 = 1 << 13;
/// A submodule's entry, which `--ignore-submodules` leaves alone.
const GITLINK: u32 = 0o160000;

/// Attributes and settings under which git hashes a file other than as its bytes (line endings,
/// filters, `$Id$`, an encoding).
const CONVERTING_ATTRIBUTES: &[&str] = &[
    "text",
    "eol",
    "crlf",
    "filter",
    "ident",
    "working-tree-encoding",
];
/// (And a SHA-256 repository, whose blob ids a SHA-1 hash of the file is not.)
const CONVERTING_SETTINGS: &[&str] = &["core.autocrlf", "core.eol", "extensions.objectformat"];

/// At most this many files whose stat data changed but not their size are hashed to learn
/// whether their content did; more, and git is left to do it.
const MAX_HASHED: usize = 16;

/// Whether `git update-index -q --refresh` would certainly leave the index as it is: every entry
/// either matches its file's `lstat` in every field the index records (git compares a subset of
/// them, so it finds these unchanged too), or is missing from the work tree, or has a size other
/// than the one recorded (git takes that as modified without reading it, unless the recorded
/// size is 0), or has content other than its blob (hashed here when nothing converts it, as
/// git's check of the content would find). Anything else (a touched file, a mode change, an
/// entry of a kind git treats apart, a setting that writes on its own, `git -c` values libgit2
/// cannot see) answers false, and git decides as before.
fn nothing_to_refresh(repo: &Repo) -> bool {
    let env_set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    if [
        "GIT_INDEX_FILE",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
    ]
    .iter()
    .any(|k| env_set(k))
    {
        return false;
    }
    let (Some(lib), Some(work)) = (repo.libgit2(), repo.workdir()) else {
        return false;
    };
    let Ok(config) = lib.config() else {
        return false;
    };
    if WRITING_SETTINGS.iter().any(|k| config.get_entry(k).is_ok()) {
        return false;
    }
    let Ok(mut index) = lib.index() else {
        return false;
    };
    // What is on disk now, not what an earlier reading kept.
    if index.read(true).is_err() {
        return false;
    }
    // Entries whose stat data changed but not their size: their content decides.
    let mut to_hash: Vec<(std::path::PathBuf, git2::Oid, bool)> = Vec::new();
    let entries_unchanged = index.iter().all(|e| {
        let stage = (e.flags >> 12) & 0x3;
        if stage != 0
            || e.flags & ASSUME_VALID != 0
            || e.flags_extended & (INTENT_TO_ADD | SKIP_WORKTREE) != 0
            || !matches!(e.mode, 0o100644 | 0o100755 | 0o120000 | GITLINK)
        {
            return false;
        }
        if e.mode == GITLINK {
            return true;
        }
        let path = work.join(OsStr::from_bytes(&e.path));
        let Ok(st) = std::fs::symlink_metadata(&path) else {
            // Missing (or under a file now): git reports it, and writes nothing for it.
            return true;
        };
        let mode = if st.file_type().is_symlink() {
            0o120000
        } else if st.file_type().is_file() && st.mode() & 0o100 != 0 {
            0o100755
        } else if st.file_type().is_file() {
            0o100644
        } else {
            return false;
        };
        if mode != e.mode {
            return false;
        }
        // The index keeps the low 32 bits of each field.
        let size = st.size() as u32;
        let same = e.ctime.seconds() as u32 == st.ctime() as u32
            && e.ctime.nanoseconds() == st.ctime_nsec() as u32
            && e.mtime.seconds() as u32 == st.mtime() as u32
            && e.mtime.nanoseconds() == st.mtime_nsec() as u32
            && e.dev == st.dev() as u32
            && e.ino == st.ino() as u32
            && e.uid == st.uid()
            && e.gid == st.gid()
            && e.file_size == size;
        if same || (e.file_size != 0 && e.file_size != size) {
            return true;
        }
        to_hash.push((path, e.id, mode == 0o120000));
        to_hash.len() <= MAX_HASHED
    });
    if !entries_unchanged {
        return false;
    }
    if to_hash.is_empty() {
        return true;
    }
    if CONVERTING_SETTINGS
        .iter()
        .any(|k| config.get_entry(k).is_ok())
    {
        return false;
    }
    to_hash.iter().all(|(path, blob, link)| {
        let Ok(rel) = path.strip_prefix(work) else {
            return false;
        };
        let converted = CONVERTING_ATTRIBUTES.iter().any(|a| {
            !matches!(
                lib.get_attr_bytes(rel, a, git2::AttrCheckFlags::FILE_THEN_INDEX),
                Ok(None)
            )
        });
        if converted {
            return false;
        }
        let hash = if *link {
            std::fs::read_link(path).ok().and_then(|t| {
                git2::Oid::hash_object(git2::ObjectType::Blob, t.as_os_str().as_bytes()).ok()
            })
        } else {
            git2::Oid::hash_file(git2::ObjectType::Blob, path).ok()
        };
        // The same bytes: git would refresh this entry, and write the index.
        hash.is_some_and(|h| h != *blob)
    })
}
