//! One process per session: a running review holds `lock` in its folder.
//!
//! Two processes writing one folder (a `resume last` started while the review still runs) make
//! every call twice and interleave their files. The lock is an advisory `flock` on the file
//! ([`crate::sys::lock`]), which the kernel drops when its holder dies however it dies (even
//! `kill -9`), so a crashed run never locks its session forever; the file holds the holder's pid
//! only to name it in the refusal. Where the file system has no `flock`, the recorded pid
//! decides: a live process other than us holds the session, a dead one does not.

use std::io::{Read as _, Seek as _, Write as _};
use std::path::Path;

use anyhow::{Context as _, Result};

use crate::error::UsageError;
use crate::sys::lock::{LockFile, Locking, Share};

/// The lock file's name inside a session folder.
pub const NAME: &str = "lock";

/// A held session lock; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct Lock {
    _file: LockFile,
}

/// Takes the lock of the session `id` in `dir`, or says which process holds it.
pub fn acquire(dir: &Path, id: &str) -> Result<Lock> {
    let path = dir.join(NAME);
    // A planted symlink or FIFO in its place is neither followed nor waited on.
    let mut lock = LockFile::open(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => anyhow::anyhow!("{e}; remove it to use session {id}"),
        _ => anyhow::Error::new(e)
            .context(format!("cannot open the session lock {}", path.display())),
    })?;
    let held = match lock.try_lock(Share::Exclusive) {
        Locking::Locked => false,
        Locking::Busy => true,
        // No flock here: believe the recorded pid while that process lives.
        Locking::Unsupported => holder_pid(lock.file())
            .is_some_and(|pid| pid != std::process::id() && crate::sys::reap::alive(pid)),
    };
    if held {
        let holder = holder_pid(lock.file());
        return Err(UsageError::new(format!(
            "session {id} is in use by {}; wait for it to finish (or stop it) before resuming",
            holder.map_or("another process".to_string(), |p| format!("process {p}"))
        ))
        .into());
    }
    let file = lock.file();
    file.set_len(0)?;
    file.rewind()?;
    file.write_all(format!("{}\n", std::process::id()).as_bytes())
        .with_context(|| format!("cannot write the session lock {}", path.display()))?;
    Ok(Lock { _file: lock })
}

/// Whether the process recorded as holding the session in `dir` is gone: a session stored as
/// `running` whose holder died (`kill -9`, a crash, a power cut) is not running. `None` when no
/// lock file says (sessions older than the lock). Reads the pid only, taking no lock, so listing
/// sessions never gets in the way of a `resume` starting at the same moment.
pub fn holder_gone(dir: &Path) -> Option<bool> {
    let text = crate::sys::file_io::read_regular_no_link(&dir.join(NAME), 32).ok()?;
    Some(!pid_in(&text).is_some_and(crate::sys::reap::alive))
}

/// The pid recorded in a lock file, if it holds one.
fn holder_pid(file: &mut std::fs::File) -> Option<u32> {
    let mut text = Vec::new();
    file.rewind().ok()?;
    file.take(32).read_to_end(&mut text).ok()?;
    pid_in(&text)
}

fn pid_in(text: &[u8]) -> Option<u32> {
    std::str::from_utf8(text)
        .ok()?
        .trim()
        .parse()
        .ok()
        .filter(|p| *p > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_session_is_refused_naming_the_holder_and_free_again_once_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let held = acquire(dir.path(), "debate-x").unwrap();
        // A second open file description conflicts, as another process's would.
        let e = acquire(dir.path(), "debate-x").unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "session debate-x is in use by process {}; wait for it to finish (or stop it) \
                 before resuming",
                std::process::id()
            )
        );
        drop(held);
        acquire(dir.path(), "debate-x").unwrap();
    }

    #[test]
    fn a_dead_holder_is_told_apart_from_a_live_one() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(holder_gone(dir.path()), None);
        let held = acquire(dir.path(), "debate-x").unwrap();
        assert_eq!(holder_gone(dir.path()), Some(false));
        drop(held);
        std::fs::write(dir.path().join(NAME), "999999999\n").unwrap();
        assert_eq!(holder_gone(dir.path()), Some(true));
    }

    #[test]
    fn a_stale_lock_file_of_a_dead_process_is_taken_over() {
        let dir = tempfile::tempdir().unwrap();
        // Left by a process that died: the pid is recorded, nobody holds the flock.
        std::fs::write(dir.path().join(NAME), "999999999\n").unwrap();
        acquire(dir.path(), "debate-x").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join(NAME)).unwrap(),
            format!("{}\n", std::process::id())
        );
    }

    #[test]
    fn a_planted_symlink_or_fifo_in_place_of_the_lock_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink("/dev/zero", dir.path().join(NAME)).unwrap();
        assert!(acquire(dir.path(), "debate-x").is_err());
        let other = tempfile::tempdir().unwrap();
        crate::sys::file_io::make_fifo(&other.path().join(NAME));
        let e = acquire(other.path(), "debate-x").unwrap_err().to_string();
        assert!(e.contains("is not a regular file"), "{e}");
    }
}
