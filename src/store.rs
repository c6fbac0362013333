//! The session store: one folder per review under `<git common dir>/review-loop/`.
//!
//! Ids sort by creation time and are claimed with an exclusive `mkdir`, so concurrent runs never
//! share a folder. Every file is written to a temporary name and renamed into place, so a crash or
//! Ctrl-C leaves either the old file or the new one, never a torn one.
//!
//! Durable once per round, not as each file is written: the files a session wrote since the
//! last flush are flushed together, then its folder ([`Session::sync`]), when a round's record
//! is written, when the summary is, and when the session is let go — an `fsync` as each file
//! and folder was written cost 20 flushes a run (42–141 ms). A dry run's record is never
//! flushed: nothing resumes from it. So Ctrl-C or a crash of git-debate loses nothing written; a crash of the machine (power,
//! kernel) can lose the round in progress and the metadata written since the last round: its
//! files may be missing (`git debate resume` then starts again after the last round whose record
//! exists), or, caught between their rename and the flush, present but empty (a record read back
//! empty is reported as unreadable, never guessed at). Readers therefore treat any file as possibly missing or
//! corrupt and say so instead of panicking, and read it through
//! [`session_read`] (regular files only, bounded). A session is held by one process at a time
//! ([`lock`]). Each metadata write also goes to the store's [`index`], from which [`catalog`]
//! lists sessions and [`prune`] removes old ones.
//!
//! A session's JSON files are typed records, written and read only through [`folder`]:
//! [`metadata`] (what the session is, versioned), [`round`] and [`call`] (each round and model
//! call), [`summary`] (how it ended), [`debate`] (a debate's log), [`incremental`] (an
//! incremental review's plan) and [`locations`]. The store's other files are the hook's
//! [`hook_cache`] and the user's prompt [`templates`].

pub mod call;
pub mod catalog;
pub mod debate;
pub mod folder;
pub mod hook_cache;
pub mod incremental;
pub mod index;
pub mod listing;
pub mod located;
pub mod locations;
pub mod lock;
pub mod metadata;
pub mod prune;
pub mod round;
pub mod session_read;
pub mod summary;
pub mod sweep;
pub mod templates;
pub mod view;

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

use crate::error::UsageError;
use metadata::Metadata;

/// Where sessions of this workspace live: `--state-dir`, else the repository's common git dir,
/// else the user's state directory keyed by the workspace path.
pub fn base_dir(repo: Option<&crate::git::Repo>, state_dir: Option<&Path>, cwd: &Path) -> PathBuf {
    if let Some(dir) = state_dir {
        return if dir.is_absolute() {
            dir.to_path_buf()
        } else {
            cwd.join(dir)
        };
    }
    if let Some(repo) = repo {
        return crate::git::repo::session_base(repo);
    }
    // No git dir to hide sessions in: use $XDG_STATE_HOME (or the platform's equivalent), and
    // fall back to the data dir, then a dot-folder in $HOME, where a platform has no state dir.
    let root = std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            directories::BaseDirs::new().map(|b| {
                b.state_dir()
                    .unwrap_or_else(|| b.data_local_dir())
                    .to_path_buf()
            })
        })
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        .unwrap_or_else(std::env::temp_dir);
    root.join("debate")
        .join(workspace_key(cwd))
        .join("review-loop")
}

/// `<sanitized basename>-<12 hex of sha1(absolute path)>`: readable, and unique per directory.
pub fn workspace_key(dir: &Path) -> String {
    let abs = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let name: String = abs
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.-".contains(c) {
                c
            } else {
                '-'
            }
        })
        .collect();
    let name = if name.is_empty() {
        "workspace".to_string()
    } else {
        name
    };
    let hash = sha1_smol::Sha1::from(abs.to_string_lossy().as_bytes())
        .digest()
        .to_string();
    format!("{name}-{}", &hash[..12])
}

/// Set once this process claims a session folder: runs that made one prune the store after.
static CREATED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether this process created a session (so the store may have grown past its limits).
pub fn created_one() -> bool {
    CREATED.load(std::sync::atomic::Ordering::Relaxed)
}

/// A claimed session folder, locked while this value lives.
#[derive(Debug)]
pub struct Session {
    pub id: String,
    pub dir: PathBuf,
    _lock: lock::Lock,
    /// Files written since the last [`Session::sync`], by name.
    unsynced: std::sync::Mutex<Vec<String>>,
    /// A dry run's record: nothing resumes from it, so it is never flushed.
    scratch: std::sync::atomic::AtomicBool,
    /// How many times the session's files were made durable (tests count them).
    syncs: std::sync::atomic::AtomicUsize,
}

impl Session {
    /// Claims a new, empty folder under `base`.
    pub fn create(base: &Path) -> Result<Session> {
        fs::create_dir_all(base)
            .with_context(|| format!("cannot create the session store {}", base.display()))?;
        let stamp = now_utc()
            .format(time::macros::format_description!(
                "[year][month][day]-[hour][minute][second]-[subsecond digits:3]"
            ))
            .expect("static format");
        // Fixed-width parts, so plain string order is creation order.
        let stem = format!("debate-{stamp}-{:07}", std::process::id());
        for n in 0..1000 {
            let id = if n == 0 {
                stem.clone()
            } else {
                format!("{stem}-{n:03}")
            };
            let dir = base.join(&id);
            match fs::create_dir(&dir) {
                Ok(()) => {
                    let _lock = lock::acquire(&dir, &id)?;
                    CREATED.store(true, std::sync::atomic::Ordering::Relaxed);
                    return Ok(Session {
                        id,
                        dir,
                        _lock,
                        unsynced: Default::default(),
                        scratch: Default::default(),
                        syncs: Default::default(),
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(e)
                        .with_context(|| format!("cannot create session folder {}", dir.display()))
                }
            }
        }
        anyhow::bail!("cannot claim a session folder under {}", base.display())
    }

    /// An existing session, to continue writing to it (`resume`); refused while another
    /// process holds it.
    pub fn open(dir: &Path, id: &str) -> Result<Session> {
        Ok(Session {
            id: id.to_string(),
            dir: dir.to_path_buf(),
            _lock: lock::acquire(dir, id)?,
            unsynced: Default::default(),
            scratch: Default::default(),
            syncs: Default::default(),
        })
    }

    /// Appends `value` as one line of the JSON-lines file `name` (a debate log), in one write so a
    /// crash cannot leave half a line.
    fn append_json_line(&self, name: &str, value: &impl serde::Serialize) -> Result<()> {
        use std::io::Write as _;
        let path = self.dir.join(name);
        let line = format!("{}\n", serde_json::to_string(value)?);
        fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(line.as_bytes()))
            .with_context(|| format!("cannot append to {}", path.display()))?;
        self.written(name);
        Ok(())
    }

    fn written(&self, name: &str) {
        let mut names = self.unsynced.lock().unwrap_or_else(|e| e.into_inner());
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }

    /// Marks the session a dry run's record: never flushed (see [`Session::sync`]).
    pub fn scratch(&self) {
        self.scratch
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Writes the file `name` whole (text: an artifact, a prompt, an answer); the JSON records
    /// have their own writers ([`folder`]).
    /// Whole or not at all, but not yet durable: see [`Session::sync`].
    pub fn write(&self, name: &str, contents: &[u8]) -> Result<PathBuf> {
        let path = self.dir.join(name);
        crate::sys::file_io::write_replace(&path, contents)
            .with_context(|| format!("cannot write {}", path.display()))?;
        self.written(name);
        Ok(path)
    }

    /// Makes every file written since the last call durable, and the folder entries that name
    /// them: called where a resume needs it, when a round's record is written and when the
    /// session ends. Only this session's files are flushed (`fdatasync` each, then the folder):
    /// flushing the whole file system (`syncfs`) made a commit wait for whatever else the machine
    /// had not yet written (a build, a copy), 0.35 s behind 800 MB of someone else's data. A dry
    /// run's record is not flushed at all: nothing resumes from it.
    pub fn sync(&self) -> Result<()> {
        let names = std::mem::take(&mut *self.unsynced.lock().unwrap_or_else(|e| e.into_inner()));
        if names.is_empty() || self.scratch.load(std::sync::atomic::Ordering::Relaxed) {
            return Ok(());
        }
        self.syncs
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let paths: Vec<PathBuf> = names.iter().map(|n| self.dir.join(n)).collect();
        crate::sys::file_io::sync_files(&self.dir, &paths)
            .with_context(|| format!("cannot flush {} to disk", self.dir.display()))
    }

    /// How many times [`Session::sync`] flushed.
    pub fn syncs(&self) -> usize {
        self.syncs.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl Drop for Session {
    /// Whatever path a run ends by (an error, a debate's last transcript), what it wrote is
    /// made durable before the folder is let go.
    fn drop(&mut self) {
        let _ = self.sync();
    }
}

/// Writes `path` whole or not at all ([`crate::sys::file_io::write_atomic`]).
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    crate::sys::file_io::write_atomic(path, contents, None)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `value` as pretty JSON whose object keys are sorted at every depth, with a final newline: the
/// layout of every file written through a `serde_json::Value`.
pub fn sorted_json(value: &impl serde::Serialize) -> serde_json::Result<Vec<u8>> {
    let mut bytes = serde_json::to_vec_pretty(&serde_json::to_value(value)?)?;
    bytes.push(b'\n');
    Ok(bytes)
}

pub fn now_utc() -> time::OffsetDateTime {
    time::OffsetDateTime::now_utc()
}

pub fn rfc3339(t: time::OffsetDateTime) -> String {
    // Second precision in UTC: readable, sortable, and free of the local-offset pitfalls.
    t.format(time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second]Z"
    ))
    .expect("formattable")
}

/// A stored session as found on disk; its metadata may be missing or unreadable.
#[derive(Debug)]
pub struct Stored {
    pub id: String,
    pub dir: PathBuf,
    /// The parsed metadata, or why it could not be read.
    pub metadata: Result<Metadata, String>,
}

impl Stored {
    fn load(dir: PathBuf) -> Stored {
        let id = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let metadata = folder::metadata(&dir).map_err(|e| match e.why {
            folder::Why::Missing => {
                "incomplete: no metadata.json (interrupted before it was written)".to_string()
            }
            folder::Why::Io(e) => format!("unreadable metadata.json: {e}"),
            folder::Why::Json(e) => format!("corrupt metadata.json: {e}"),
            folder::Why::Newer(v) => format!("metadata.json: {}", metadata::Unknown::Newer(v)),
        });
        Stored { id, dir, metadata }
    }

    /// The same session read again (after locking it, say).
    pub fn reload(&self) -> Stored {
        Stored::load(self.dir.clone())
    }
}

/// The session folders of a store, newest first, without reading any of them: ids sort by time,
/// so `last` or a prefix is found from the folder names alone.
fn folders(base: &Path) -> Result<Vec<(String, PathBuf)>> {
    Ok(catalog::folder_names(base)?
        .into_iter()
        .map(|id| {
            let dir = base.join(&id);
            (id, dir)
        })
        .collect())
}

/// `last`, an exact id, or a unique prefix of one (the `debate-` prefix may be left out). Only the
/// session found is read: `show last` costs the same with ten sessions or ten thousand.
pub fn find(base: &Path, wanted: &str) -> Result<Stored> {
    let mut all = folders(base)?;
    if all.is_empty() {
        crate::usage!(
            "no sessions in {}; run `git debate --dry-run` to create one",
            base.display()
        );
    }
    if wanted == "last" {
        // A folder without metadata is a run stopped (by a signal, a crash) between making the
        // folder and writing its first file, or one about to write it: never "the last session".
        let at = all
            .iter()
            .position(|(_, dir)| dir.join(metadata::FILE).exists())
            .unwrap_or(0);
        for (id, _) in &all[..at] {
            crate::errln!(
                "note: skipped {id}: it has no {} (its run stopped before writing it, or is \
                 starting)",
                metadata::FILE
            );
        }
        return Ok(Stored::load(all.remove(at).1));
    }
    if let Some(i) = all.iter().position(|(id, _)| id == wanted) {
        return Ok(Stored::load(all.remove(i).1));
    }
    let matches: Vec<usize> = all
        .iter()
        .enumerate()
        .filter(|(_, (id, _))| {
            id.starts_with(wanted) || id.starts_with(&format!("debate-{wanted}"))
        })
        .map(|(i, _)| i)
        .collect();
    match matches.as_slice() {
        [i] => Ok(Stored::load(all.remove(*i).1)),
        [] => Err(UsageError::new(format!(
            "no session '{wanted}' in {}; `git debate sessions` lists them",
            base.display()
        ))
        .into()),
        _ => Err(UsageError::new(format!(
            "session id '{wanted}' is ambiguous ({} sessions match); give more of it",
            matches.len()
        ))
        .into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_planted_at_the_temporary_name_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "keep").unwrap();
        let tmp = dir
            .path()
            .join(format!(".metadata.json.tmp-{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &tmp).unwrap();
        write_atomic(&dir.path().join("metadata.json"), b"{}").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "keep");
        assert_eq!(
            fs::read_to_string(dir.path().join("metadata.json")).unwrap(),
            "{}"
        );
    }

    #[test]
    fn workspace_key_is_sanitized_and_hashed() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("My Proj!");
        fs::create_dir(&p).unwrap();
        let key = workspace_key(&p);
        assert!(key.starts_with("My-Proj--"), "{key}");
        assert_eq!(key.len(), "My-Proj--".len() + 12);
    }

    #[test]
    fn ids_are_unique_and_sorted_by_time() {
        let dir = tempfile::tempdir().unwrap();
        let ids: Vec<String> = (0..20)
            .map(|_| Session::create(dir.path()).unwrap().id.clone())
            .collect();
        let mut sorted = ids.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, ids);
    }

    #[test]
    fn a_session_flushes_what_it_wrote_once_and_a_dry_run_never() {
        let dir = tempfile::tempdir().unwrap();
        let s = Session::create(dir.path()).unwrap();
        s.write("a.md", b"one").unwrap();
        s.write("a.md", b"two").unwrap();
        s.append_json_line("log.jsonl", &1).unwrap();
        assert_eq!(s.unsynced.lock().unwrap().len(), 2, "each file once");
        s.sync().unwrap();
        s.sync().unwrap();
        assert_eq!(s.syncs(), 1, "nothing new, nothing to flush");
        // A file removed before the flush (pruned, replaced) is no error.
        s.write("gone.md", b"x").unwrap();
        fs::remove_file(s.dir.join("gone.md")).unwrap();
        s.sync().unwrap();
        assert_eq!(s.syncs(), 2);

        let dry = Session::create(dir.path()).unwrap();
        dry.scratch();
        dry.write("artifact.md", b"x").unwrap();
        dry.sync().unwrap();
        assert_eq!(dry.syncs(), 0, "a dry run's record is not flushed");
        drop(dry);
        assert_eq!(fs::read(s.dir.join("a.md")).unwrap(), b"two");
    }

    #[test]
    fn atomic_write_leaves_no_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let s = Session::create(dir.path()).unwrap();
        s.write("a.md", b"one").unwrap();
        s.write("a.md", b"two").unwrap();
        let names: Vec<_> = fs::read_dir(&s.dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        let mut names = names;
        names.sort();
        // The file and the session's lock, no temporary left over.
        assert_eq!(names, ["a.md", lock::NAME]);
        assert_eq!(fs::read(s.dir.join("a.md")).unwrap(), b"two");
    }
}
