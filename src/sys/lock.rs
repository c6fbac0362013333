//! The one kind of file lock: an advisory `flock(2)` on a small file of its own.
//!
//! The kernel drops an `flock` when its holder dies however it dies (even `kill -9`), so a crashed
//! run never locks anything for ever, and the lock belongs to the open file, so two opens in one
//! process conflict as two processes would. The lock file itself may be planted (a session folder
//! may not be ours): it is opened without following a link and without waiting on a FIFO, and
//! must be a regular file. Some file systems have no `flock`; callers decide what that means
//! ([`Locking::Unsupported`]).

use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// How the lock is shared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Share {
    /// Many holders at once (appending to an index).
    Shared,
    /// One holder (a session's writer, an index rewrite).
    Exclusive,
}

/// What an attempt to lock came to.
#[derive(Debug)]
pub enum Locking {
    Locked,
    /// Someone else holds it.
    Busy,
    /// This file system cannot lock.
    Unsupported,
}

/// An open lock file; whatever lock was taken on it goes when it is dropped.
#[derive(Debug)]
pub struct LockFile {
    file: File,
}

/// How long [`LockFile::lock_within`] pauses between attempts.
const RETRY: Duration = Duration::from_millis(10);

impl LockFile {
    /// Opens the lock file at `path`, creating it private (0600) when missing. Fails for a link
    /// there, and with `InvalidData` ("… is not a regular file") for anything else not a
    /// regular file.
    pub fn open(path: &Path) -> io::Result<LockFile> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .custom_flags(crate::sys::file_io::careful_flags(false))
            .open(path)?;
        if !file.metadata()?.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("{} is not a regular file", path.display()),
            ));
        }
        Ok(LockFile { file })
    }

    /// Locks without waiting.
    pub fn try_lock(&self, share: Share) -> Locking {
        let tried = match share {
            Share::Shared => self.file.try_lock_shared(),
            Share::Exclusive => self.file.try_lock(),
        };
        match tried {
            Ok(()) => Locking::Locked,
            Err(TryLockError::WouldBlock) => Locking::Busy,
            Err(TryLockError::Error(_)) => Locking::Unsupported,
        }
    }

    /// Locks, trying again while someone else holds it, for at most `wait`.
    pub fn lock_within(&self, share: Share, wait: Duration) -> Locking {
        let until = Instant::now() + wait;
        loop {
            match self.try_lock(share) {
                Locking::Busy if Instant::now() < until => std::thread::sleep(RETRY),
                other => return other,
            }
        }
    }

    /// The file, to read or write what it records (a holder's pid).
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exclusive_excludes_every_other_open_and_shared_only_exclusive() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("lock");
        let (a, b) = (LockFile::open(&p).unwrap(), LockFile::open(&p).unwrap());
        assert!(matches!(a.try_lock(Share::Shared), Locking::Locked));
        assert!(matches!(b.try_lock(Share::Shared), Locking::Locked));
        let c = LockFile::open(&p).unwrap();
        assert!(matches!(c.try_lock(Share::Exclusive), Locking::Busy));
        drop((a, b));
        assert!(matches!(c.try_lock(Share::Exclusive), Locking::Locked));
        let d = LockFile::open(&p).unwrap();
        let started = Instant::now();
        let waited = d.lock_within(Share::Shared, Duration::from_millis(50));
        assert!(matches!(waited, Locking::Busy));
        assert!(started.elapsed() >= Duration::from_millis(50));
    }

    #[test]
    fn a_link_or_fifo_in_place_of_the_lock_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert!(LockFile::open(&link).is_err());
        let fifo = dir.path().join("fifo");
        crate::sys::file_io::make_fifo(&fifo);
        let e = LockFile::open(&fifo).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().ends_with("is not a regular file"), "{e}");
    }
}
