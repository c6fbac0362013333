//! Where an export lives: a private directory per run, on a memory file system when there is
//! room (see [`base_dir`]), never under the repository or HOME, and the leftovers of runs that
//! died cleaned up by the next one. How much room an export needs is its caller's to say.

use std::os::unix::fs::DirBuilderExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use anyhow::{Context as _, Result};

/// The prefix of every export directory, to find our own leftovers.
const PREFIX: &str = "git-debate-";

/// A new 0700 directory in the temp dir (never inside the repository), after removing leftovers
/// of dead processes; on a memory file system only if it has `room` bytes free.
pub fn private_dir(workdir: Option<&Path>, room: u64) -> Result<PathBuf> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let mut base = base_dir(room);
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
/// `XDG_RUNTIME_DIR`, else `/dev/shm`) with `room` bytes free, because writing tens of
/// thousands of small files is disk-bound — 20,000 files took 8 s on a VM's ext4 and 0.4 s on
/// tmpfs; else `/tmp`.
pub fn base_dir(room: u64) -> PathBuf {
    if std::env::var_os("TMPDIR").is_some_and(|t| !t.is_empty()) {
        return std::env::temp_dir();
    }
    // Memory is shared: a container's 64 MiB `/dev/shm` must not be filled (nor half a copy
    // written into it), so a memory file system is used only with the room asked for.
    let usable = |p: &Path| {
        use rustix::fs::Access;
        let writable = rustix::fs::access(p, Access::WRITE_OK | Access::EXEC_OK).is_ok();
        let free =
            rustix::fs::statvfs(p).is_ok_and(|st| st.f_bavail.saturating_mul(st.f_frsize) >= room);
        std::fs::metadata(p).is_ok_and(|m| m.is_dir()) && writable && free
    };
    std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .into_iter()
        .chain([PathBuf::from("/dev/shm")])
        .find(|p| p.is_absolute() && usable(p))
        .unwrap_or_else(std::env::temp_dir)
}

/// Removes `git-debate-<pid>-<n>` directories whose process no longer runs.
fn remove_leftovers(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(PREFIX)
            .and_then(|r| r.split_once('-'))
            .and_then(|(p, n)| n.parse::<u32>().ok().and(p.parse::<u32>().ok()))
        else {
            continue;
        };
        let gone = !crate::sys::reap::alive(pid);
        let ours = e.metadata().is_ok_and(|m| {
            std::os::unix::fs::MetadataExt::uid(&m) == rustix::process::getuid().as_raw()
        });
        if gone && ours && e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}
