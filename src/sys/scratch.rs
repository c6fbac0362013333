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

/// Removes what runs that died left in the temp dir (their schema files,
/// `git-debate-<pid>-<n>-<protocol>-<nanos>.json`, written for a CLI that reads its schema from
/// a file and removed when the call ends — unless the process was killed first). Once per
/// process.
pub fn sweep_temp_dir() {
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| remove_leftovers(&std::env::temp_dir()));
}

/// Removes `git-debate-<pid>-<n>` directories, and `git-debate-<pid>-<n>-….json` files, whose
/// process no longer runs.
fn remove_leftovers(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((pid, rest)) = name.strip_prefix(PREFIX).and_then(|r| r.split_once('-')) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        let (n, file) = match rest.split_once('-') {
            Some((n, tail)) => (n, tail.ends_with(".json")),
            None => (rest, false),
        };
        if n.parse::<u32>().is_err() {
            continue;
        }
        let gone = !crate::sys::reap::alive(pid);
        let ours = e.metadata().is_ok_and(|m| {
            std::os::unix::fs::MetadataExt::uid(&m) == rustix::process::getuid().as_raw()
        });
        let Ok(kind) = e.file_type() else {
            continue;
        };
        if !gone || !ours {
            continue;
        }
        if kind.is_dir() && !file {
            let _ = std::fs::remove_dir_all(e.path());
        } else if kind.is_file() && file {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leftovers_of_dead_runs_go_and_those_of_live_ones_stay() {
        let base = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let live = std::process::id();
        let make_file = |name: String| std::fs::write(base.path().join(name), "{}").unwrap();
        let make_dir = |name: String| std::fs::create_dir(base.path().join(name)).unwrap();
        make_file(format!("{PREFIX}{dead}-0-git_debate_cr-123.json"));
        make_dir(format!("{PREFIX}{dead}-1"));
        make_file(format!("{PREFIX}{live}-0-git_debate_cr-456.json"));
        make_dir(format!("{PREFIX}{live}-1"));
        // Not ours by name: a file of another tool, and one of ours that is not a schema.
        make_file(format!("{PREFIX}notes-{dead}.json"));
        make_file(format!("{PREFIX}{dead}-2-notes.txt"));
        remove_leftovers(base.path());
        let mut left: Vec<String> = std::fs::read_dir(base.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let mut want = vec![
            format!("{PREFIX}{live}-0-git_debate_cr-456.json"),
            format!("{PREFIX}{live}-1"),
            format!("{PREFIX}notes-{dead}.json"),
            format!("{PREFIX}{dead}-2-notes.txt"),
        ];
        want.sort();
        assert_eq!(left, want);
    }
}
