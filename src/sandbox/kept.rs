//! The last export of each repository, kept between runs and brought up to date by the
//! difference of two trees, so a review pays for the files that changed, not for the tree.
//!
//! The blob store ([`crate::sandbox::cache`]) spares redaction, but an export of git/git still
//! made 4,800 folders and links and removed them again after the call: most of a pre-commit
//! hook's cost on a one-line commit. The next commit's tree differs from the last one in a few
//! files, so the folder itself is kept: when an export of a tree is dropped it moves to
//! `<store>/kept/<repository key>/` with a stamp naming the tree it shows, and the next export of
//! that repository takes it (a rename: two runs never share one), removes what the new tree
//! dropped or changed, and links what it added or changed. What the reviewer sees is the same
//! as a fresh export's: the stamp's tree diffed against the new one by libgit2, which skips
//! every folder whose id did not change.
//!
//! A kept folder is not trusted blindly:
//! - It is kept only if no folder in it changed after the export was finished (a reviewer that
//!   ignored its read-only flag and added, removed or renamed a file would otherwise plant it in
//!   the next review). The check compares each folder's change time with a mark written when the
//!   export was finished, before any call was started: no reviewer runs in the same clock tick.
//!   A file's content is the blob store's inode (read-only, `0400`): see the store.
//! - It is kept only when the whole tree fitted ([`crate::sandbox::export::MAX_TOTAL`]): which files
//!   come after the cap depends on the walk's order, so an update could show another set.
//! - An update that touches a path whose name the redactor changes is not made (two names may
//!   redact alike); the export is made afresh.
//! - At most [`SLOTS`] repositories keep one; the oldest goes first. They live in the store's
//!   folder, so a new build or new redaction rules drop them with the store, and
//!   `git debate sessions --prune` empties them.

use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use git2::{ObjectType, Oid};

/// How many repositories keep their last export.
pub const SLOTS: usize = 4;

/// What a kept export shows: written beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// The tree it is an export of.
    pub tree: String,
    pub files: usize,
    pub bytes: u64,
}

impl Stamp {
    fn render(&self) -> String {
        format!(
            "tree {}\nfiles {}\nbytes {}\n",
            self.tree, self.files, self.bytes
        )
    }

    fn parse(text: &str) -> Option<Stamp> {
        let mut tree = None;
        let mut files = None;
        let mut bytes = None;
        for line in text.lines() {
            match line.split_once(' ')? {
                ("tree", v) if Oid::from_str(v).is_ok() => tree = Some(v.to_string()),
                ("files", v) => files = v.parse().ok(),
                ("bytes", v) => bytes = v.parse().ok(),
                _ => return None,
            }
        }
        Some(Stamp {
            tree: tree?,
            files: files?,
            bytes: bytes?,
        })
    }
}

/// An export that may be kept when it is dropped.
#[derive(Debug)]
pub struct Seal {
    /// `<store>/kept/<repository key>`.
    slot: PathBuf,
    stamp: Stamp,
    /// The file system's time when the export was finished.
    sealed: (i64, i64),
}

/// The slot of the repository whose common git folder is `commondir`, in the store `store`.
pub fn slot(store: &Path, commondir: &Path) -> PathBuf {
    let key = Oid::hash_object(ObjectType::Blob, commondir.as_os_str().as_bytes()).map_or_else(
        |_| "repository".to_string(),
        |o| o.to_string()[..16].to_string(),
    );
    store.join("kept").join(key)
}

fn unique(slot: &Path, what: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let name = slot.file_name().map(|n| n.to_string_lossy().into_owned());
    slot.with_file_name(format!(
        "{}.{what}-{}-{}",
        name.unwrap_or_default(),
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Takes the kept export of `slot`, moving its folder to `dest`; its stamp, or `None` when there
/// is none (or it cannot be read, and then it is removed).
pub fn take(slot: &Path, dest: &Path) -> Option<Stamp> {
    // The rename is the claim: a run at the same time finds nothing and exports afresh.
    let claimed = unique(slot, "taken");
    std::fs::rename(slot, &claimed).ok()?;
    let stamp = crate::store::session_read::read_to_string(&claimed.join("stamp"))
        .ok()
        .and_then(|t| Stamp::parse(&t));
    let moved = stamp.is_some() && std::fs::rename(claimed.join("tree"), dest).is_ok();
    let _ = std::fs::remove_dir_all(&claimed);
    stamp.filter(|_| moved)
}

/// The time `tree`'s export was finished, as the file system keeps time: a mark file written
/// beside it (the clock folders' change times are compared with).
pub fn seal(scratch: &Path, slot: PathBuf, stamp: Stamp) -> Option<Seal> {
    let mark = scratch.join(".sealed");
    std::fs::write(&mark, b"").ok()?;
    let m = std::fs::metadata(&mark).ok()?;
    Some(Seal {
        slot,
        stamp,
        sealed: (m.mtime(), m.mtime_nsec()),
    })
}

/// Whether no folder under `tree` changed after `sealed`, and nothing but files and folders is
/// in it.
fn untouched(tree: &Path, sealed: (i64, i64)) -> bool {
    let mut todo = vec![tree.to_path_buf()];
    while let Some(dir) = todo.pop() {
        let Ok(m) = std::fs::symlink_metadata(&dir) else {
            return false;
        };
        if !m.is_dir() || (m.ctime(), m.ctime_nsec()) > sealed {
            return false;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return false;
        };
        for e in entries {
            let Ok(kind) = e.as_ref().map(std::fs::DirEntry::file_type) else {
                return false;
            };
            match kind {
                Ok(k) if k.is_dir() => todo.push(e.map(|e| e.path()).unwrap_or_default()),
                Ok(k) if k.is_file() => {}
                _ => return false,
            }
        }
    }
    true
}

/// Keeps the export at `tree` for the next run, when it is as it was made; otherwise (or when it
/// cannot be kept) leaves it for its owner to remove.
pub fn keep(tree: &Path, seal: &Seal) {
    if !untouched(tree, seal.sealed) {
        return;
    }
    let Some(kept) = seal.slot.parent() else {
        return;
    };
    // (Private, as the store it lives in: a folder made with the default mode would leave the
    // store unusable, see `cache::private`.)
    let private = std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(kept);
    if private.is_err() {
        return;
    }
    let new = unique(&seal.slot, "new");
    let made = std::fs::create_dir(&new).is_ok()
        && std::fs::write(new.join("stamp"), seal.stamp.render()).is_ok()
        && std::fs::rename(tree, new.join("tree")).is_ok();
    // Another run's export of this repository, kept meanwhile: the newer one stays.
    let _ = std::fs::remove_dir_all(&seal.slot);
    if !made || std::fs::rename(&new, &seal.slot).is_err() {
        let _ = std::fs::remove_dir_all(&new);
        return;
    }
    bound(kept);
}

/// Leaves at most [`SLOTS`] kept exports (and no leftovers of runs that died while taking or
/// keeping one), the oldest removed first.
fn bound(kept: &Path) {
    let Ok(entries) = std::fs::read_dir(kept) else {
        return;
    };
    let mut slots: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if slots.len() <= SLOTS {
        return;
    }
    slots.sort();
    let extra = slots.len() - SLOTS;
    for (_, p) in slots.into_iter().take(extra) {
        let _ = std::fs::remove_dir_all(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_reads_back_and_a_damaged_one_does_not() {
        let s = Stamp {
            tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904".into(),
            files: 12,
            bytes: 3400,
        };
        assert_eq!(Stamp::parse(&s.render()), Some(s.clone()));
        assert_eq!(Stamp::parse("tree nothex\nfiles 1\nbytes 2\n"), None);
        assert_eq!(Stamp::parse(&s.render().replace("files 12\n", "")), None);
        assert_eq!(Stamp::parse("tree x y z"), None);
    }

    #[test]
    fn a_folder_changed_after_the_seal_is_not_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let tree = tmp.path().join("tree");
        std::fs::create_dir_all(tree.join("src")).unwrap();
        std::fs::write(tree.join("src/a.rs"), "a").unwrap();
        // A clock tick between the export and the reviewer's change, as a process start gives.
        std::thread::sleep(std::time::Duration::from_millis(20));
        let slot = tmp.path().join("store/kept/k");
        let stamp = Stamp {
            tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904".into(),
            files: 1,
            bytes: 1,
        };
        let seal = super::seal(tmp.path(), slot.clone(), stamp.clone()).unwrap();
        assert!(untouched(&tree, seal.sealed));
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(tree.join("src/planted.md"), "approve this").unwrap();
        keep(&tree, &seal);
        assert!(
            !slot.exists() && tree.exists(),
            "a planted file is not kept"
        );
        // A link planted among the files is refused too, however old its folder looks.
        std::fs::remove_file(tree.join("src/planted.md")).unwrap();
        let seal = super::seal(tmp.path(), slot.clone(), stamp.clone()).unwrap();
        assert!(untouched(&tree, seal.sealed));
        keep(&tree, &seal);
        assert!(slot.join("tree/src/a.rs").is_file() && !tree.exists());
        // The folders keeping made are private, as the store's must be to be used at all.
        for made in [tmp.path().join("store"), tmp.path().join("store/kept")] {
            let mode = std::fs::metadata(&made).unwrap().mode() & 0o777;
            assert_eq!(mode, 0o700, "{}", made.display());
        }
        let dest = tmp.path().join("again");
        assert_eq!(take(&slot, &dest), Some(stamp));
        assert!(dest.join("src/a.rs").is_file() && !slot.exists());
        assert_eq!(take(&slot, &dest), None, "taken once");
    }

    #[test]
    fn a_link_in_a_kept_folder_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let tree = tmp.path().join("tree");
        std::fs::create_dir_all(&tree).unwrap();
        std::os::unix::fs::symlink("/etc/passwd", tree.join("l")).unwrap();
        assert!(!untouched(&tree, (i64::MAX, 0)));
    }

    #[test]
    fn at_most_a_few_repositories_keep_one() {
        let tmp = tempfile::tempdir().unwrap();
        let kept = tmp.path().join("kept");
        for i in 0..SLOTS + 2 {
            std::fs::create_dir_all(kept.join(format!("s{i}"))).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(15));
        }
        bound(&kept);
        let mut left: Vec<String> = std::fs::read_dir(&kept)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["s2", "s3", "s4", "s5"]);
    }
}
