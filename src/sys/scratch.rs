//! Where an export lives: a private directory per run, on a memory file system when there is
//! room (see [`base_dir`]), never under the repository or HOME, and the leftovers of runs that
//! died cleaned up by the next one.

use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use anyhow::{Context, Result};

use crate::sandbox::export::MAX_TOTAL;

/// The prefix of every export directory, to find our own leftovers.
pub(super) const PREFIX: &str = "git-debate-";

/// A new 0700 directory in the temp dir (never inside the repository), after removing leftovers
/// of dead processes.
pub fn private_dir(workdir: Option<&Path>) -> Result<PathBuf> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let mut base = base_dir();
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let home = std::env::var_os("HOME")
        .map(PathBuf::from)
        .filter(|h| h.is_absolute() && h != Path::new("/"));
    let guarded = workdir.map(Path::to_path_buf).into_iter().chain(home);
    if guarded
        .into_iter()
        .any(|g| canon(&base).starts_with(canon(&g)))
    {
        base = PathBuf::from("/tmp");
    }
    remove_leftovers(&base);
    let pid = std::process::id();
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("{PREFIX}{pid}-{n}"));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(e).with_context(|| {
                    format!(
                        "cannot create a private directory for the reviewer in {}: set TMPDIR \
                         to a writable directory",
                        base.display()
                    )
                })
            }
        }
    }
}

/// Where exports go: `TMPDIR` when the user set one; else a memory file system (the per-user
/// `XDG_RUNTIME_DIR`, else `/dev/shm`) with room to spare, because writing tens of thousands of
/// small files is disk-bound — 20,000 files took 8 s on a VM's ext4 and 0.4 s on tmpfs; else
/// `/tmp`.
pub(super) fn base_dir() -> PathBuf {
    if std::env::var_os("TMPDIR").is_some_and(|t| !t.is_empty()) {
        return std::env::temp_dir();
    }
    // Memory is shared: a container's 64 MiB `/dev/shm` must not be filled (nor half a copy
    // written into it), so a memory file system is used only with room for four full exports.
    let usable = |p: &Path| {
        let Ok(c) = std::ffi::CString::new(p.as_os_str().as_encoded_bytes()) else {
            return false;
        };
        // SAFETY: access(2) and statvfs(2) on a NUL-terminated path we own, into a zeroed struct.
        let writable = unsafe { libc::access(c.as_ptr(), libc::W_OK | libc::X_OK) } == 0;
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        let room = unsafe { libc::statvfs(c.as_ptr(), &mut st) } == 0
            && (st.f_bavail as u64).saturating_mul(st.f_frsize as u64) >= 4 * MAX_TOTAL;
        std::fs::metadata(p).is_ok_and(|m| m.is_dir()) && writable && room
    };
    std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .into_iter()
        .chain([PathBuf::from("/dev/shm")])
        .find(|p| p.is_absolute() && usable(p))
        .unwrap_or_else(std::env::temp_dir)
}

/// Removes `git-debate-<pid>-<n>` directories whose process no longer runs.
pub(super) fn remove_leftovers(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(PREFIX)
            .and_then(|r| r.split_once('-'))
            .and_then(|(p, n)| n.parse::<u32>().ok().and(p.parse::<i32>().ok()))
        else {
            continue;
        };
        // SAFETY: signal 0 only asks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        let ours = e
            .metadata()
            .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == unsafe { libc::getuid() })
            .unwrap_or(false);
        if gone && ours && e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}
