//! The export's blob store: each file an export shows, redacted, kept once and hard-linked into
//! every export that shows it, so a review pays for the files that changed since the last one, not
//! for the whole tree.
//!
//! Exporting git/git (4,847 files) took 1.39 s of CPU before any model was called, 70 % of it
//! redaction, and the pre-commit hook paid it on every commit although the next commit's tree
//! shares nearly every blob with the last one. So an entry is keyed by what decides its content —
//! the blob id, the path (the redactor's rules depend on the file's name) and the executable bit —
//! and a later export finds it without reading or redacting the blob again.
//!
//! Where: `<base>/git-debate-cache-<uid>/<build>/` beside the exports (same file system, so a
//! link is possible; `<base>` is outside the repository and HOME, see
//! [`crate::sys::scratch::private_dir`]). `<build>` names this build of git-debate and the user's
//! redaction rules file, so entries redacted under other rules are never shown: other builds'
//! folders are removed (two runs with different rules files take turns emptying it).
//! Both folders must be ours and `0700`, or no cache is used (a shared `/tmp` could hold someone
//! else's folder of that name). Entries are written to a temporary name and renamed, so a
//! concurrent run sees a whole entry or none, and are read-only (`0400`, `0500`): a reviewer
//! that ignored its read-only flag could otherwise edit the shared inode through its export.
//!
//! Bounded: after an export that added entries, a store over [`CAP`] bytes drops every entry no
//! live export links (link count 1): a kept export ([`crate::sandbox::kept`], at most a few)
//! counts as live. `git debate sessions --prune` empties it.

use std::io::Write as _;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::{
    DirBuilderExt as _, MetadataExt as _, OpenOptionsExt as _, PermissionsExt as _,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use git2::{ObjectType, Oid};

/// The most the store keeps between runs (it lives in memory when the exports do).
pub const CAP: u64 = 256 << 20;

/// The prefix of the cache's folder in the export base.
const PREFIX: &str = "git-debate-cache-";

/// What the store holds for a key.
#[derive(Debug, PartialEq, Eq)]
pub enum Hit {
    /// The redacted file and its size.
    File(PathBuf, u64),
    /// A file the export leaves out (binary).
    Skip,
    Miss,
}

/// One build's store.
#[derive(Debug)]
pub struct Store {
    dir: PathBuf,
    /// Bytes this process added, to know whether the bound needs checking.
    added: AtomicU64,
}

/// Whether `dir` is a real folder of ours that no one else can write.
fn private(dir: &Path) -> bool {
    std::fs::symlink_metadata(dir).is_ok_and(|m| {
        m.is_dir()
            && m.uid() == rustix::process::getuid().as_raw()
            && m.permissions().mode() & 0o077 == 0
    })
}

fn make_private(dir: &Path) -> bool {
    let _ = std::fs::DirBuilder::new().mode(0o700).create(dir);
    // A folder of ours that no one else can write, but readable by others (made with the
    // default mode by an older build): nothing in it can be someone else's, so it is closed.
    let ours_closed_to_writes = std::fs::symlink_metadata(dir).is_ok_and(|m| {
        m.is_dir()
            && m.uid() == rustix::process::getuid().as_raw()
            && m.permissions().mode() & 0o022 == 0
    });
    if ours_closed_to_writes && !private(dir) {
        let _ = std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700));
    }
    private(dir)
}

/// The cache's root folder in `base`.
fn root(base: &Path) -> PathBuf {
    base.join(format!("{PREFIX}{}", rustix::process::getuid().as_raw()))
}

/// This build and its rules: the version, the executable's size and time and the user's rules
/// file (`debate.redact.rules`), so a rebuilt binary or a new rule starts afresh — an entry
/// redacted without a rule must never be shown once the rule exists.
fn build() -> String {
    let stamp = std::env::current_exe()
        .and_then(std::fs::metadata)
        .map(|m| format!("{} {} {}", m.len(), m.mtime(), m.mtime_nsec()))
        .unwrap_or_default();
    let seed = format!(
        "{} {stamp}\n{}",
        env!("CARGO_PKG_VERSION"),
        crate::redact::user::rules_text()
    );
    let id = Oid::hash_object(ObjectType::Blob, seed.as_bytes())
        .map_or_else(|_| "0".repeat(12), |o| o.to_string()[..12].to_string());
    format!("{}-{id}", env!("CARGO_PKG_VERSION"))
}

impl Store {
    /// The store in `base` (the folder the exports are made in), created if needed; `None` when
    /// it cannot be used safely (then every export is written in full, as before the cache).
    pub fn open(base: &Path) -> Option<Store> {
        let root = root(base);
        if !make_private(&root) {
            return None;
        }
        let name = build();
        let dir = root.join(&name);
        if !dir.exists() {
            // Another build's entries were redacted by other rules: never shown again.
            for e in std::fs::read_dir(&root).ok()?.flatten() {
                if e.file_name().as_bytes() != name.as_bytes() {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        make_private(&dir).then(|| Store {
            dir,
            added: AtomicU64::new(0),
        })
    }

    /// The store's folder (kept exports live in it too: see [`crate::sandbox::kept`]).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of a file: its blob id, its path and its executable bit.
    pub fn key(blob: Oid, path: &Path, exec: bool) -> String {
        let mut seed = blob.as_bytes().to_vec();
        seed.push(u8::from(exec));
        seed.extend_from_slice(path.as_os_str().as_bytes());
        Oid::hash_object(ObjectType::Blob, &seed)
            .map_or_else(|_| format!("{blob}-{}", u8::from(exec)), |o| o.to_string())
    }

    /// The entry for `key`, when there is one.
    pub fn get(&self, key: &str) -> Hit {
        let p = self.dir.join(key);
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.is_file() => Hit::File(p, m.len()),
            _ if self.dir.join(format!("{key}.skip")).exists() => Hit::Skip,
            _ => Hit::Miss,
        }
    }

    /// Remembers that `key` is left out (binary), so it is not read again.
    pub fn skip(&self, key: &str) {
        let _ = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o400)
            .open(self.dir.join(format!("{key}.skip")));
    }

    /// Stores `bytes` (already redacted) as `key`; the entry, or `None` when it cannot be written.
    pub fn put(&self, key: &str, bytes: &[u8], exec: bool) -> Option<PathBuf> {
        static N: AtomicU32 = AtomicU32::new(0);
        let tmp = self.dir.join(format!(
            "tmp-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if exec { 0o500 } else { 0o400 })
            .open(&tmp)
            .and_then(|mut f| f.write_all(bytes));
        let dest = self.dir.join(key);
        if written.and_then(|()| std::fs::rename(&tmp, &dest)).is_err() {
            let _ = std::fs::remove_file(&tmp);
            return None;
        }
        self.added.fetch_add(bytes.len() as u64, Ordering::Relaxed);
        Some(dest)
    }

    /// Keeps the store within [`CAP`] once an export is made: when it is over, every entry no
    /// live export links goes (the export just made keeps its own).
    pub fn bound(&self) {
        if self.added.load(Ordering::Relaxed) == 0 {
            return;
        }
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let entries: Vec<(PathBuf, std::fs::Metadata)> = entries
            .flatten()
            .filter_map(|e| Some((e.path(), e.metadata().ok()?)))
            .collect();
        let total: u64 = entries.iter().map(|(_, m)| m.len()).sum();
        if total <= CAP {
            return;
        }
        for (p, m) in entries {
            if m.nlink() <= 1 {
                let _ = std::fs::remove_file(p);
            }
        }
    }
}

/// Empties the cache in the export base (`git debate sessions --prune`); what a live export
/// links stays readable through its own links.
pub fn prune() {
    // Every place an export may have been made: which one a run picked depends on the room free.
    let bases = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .into_iter()
        .chain([
            PathBuf::from("/dev/shm"),
            std::env::temp_dir(),
            PathBuf::from("/tmp"),
        ]);
    for base in bases {
        let root = root(&base);
        if private(&root) {
            let _ = std::fs::remove_dir_all(root);
        }
    }
}
