//! Reading a session's files without trusting them.
//!
//! A session folder may not be ours: a repository can ship one inside a checked-in `.git`, or a
//! user can point `--state-dir` at a copied folder. A FIFO there would hang a plain read, and a
//! symlink to `/dev/zero` would fill memory (24 GB in the run). Every session file is read
//! here: only a regular file, never through a symlink, opened without blocking, and never more
//! than [`MAX_BYTES`]; anything else is a one-line error naming the file.

use std::io;
use std::path::Path;

use crate::sys::file_io::Refusal;

/// The largest session file read. What we write is far smaller (an artifact is capped at
/// `debate.maxArtifactBytes`, a model answer is a part of the runner's capture).
pub const MAX_BYTES: u64 = 64 << 20;

/// The bytes of the session file `path`. A missing file is `NotFound`, as for `fs::read`.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    crate::sys::file_io::read_regular_no_link(path, MAX_BYTES).map_err(|r| match r {
        Refusal::Io(e) => e,
        Refusal::NotRegular(_) => not_regular(path),
        Refusal::TooLarge(_) => too_large(path),
    })
}

/// [`read`] as UTF-8 text.
pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not UTF-8 text", path.display()),
        )
    })
}

fn not_regular(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{} is not a regular file (git-debate writes only regular files to a session); \
             remove it",
            path.display()
        ),
    )
}

fn too_large(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{} is larger than {} MiB, more than git-debate ever writes; remove it",
            path.display(),
            MAX_BYTES >> 20
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mkfifo(path: &Path) {
        crate::sys::file_io::make_fifo(path);
    }

    #[test]
    fn regular_files_are_read_and_missing_ones_are_not_found() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "text").unwrap();
        assert_eq!(read_to_string(&dir.path().join("a.md")).unwrap(), "text");
        let e = read(&dir.path().join("none.md")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn fifos_devices_and_symlinks_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("metadata.json");
        mkfifo(&fifo);
        let link = dir.path().join("round-1.json");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let plain = dir.path().join("plain.md");
        std::fs::write(&plain, "x").unwrap();
        let to_plain = dir.path().join("artifact.md");
        std::os::unix::fs::symlink(&plain, &to_plain).unwrap();
        for p in [&fifo, &link, &to_plain, Path::new("/dev/zero")] {
            let e = read(p).unwrap_err().to_string();
            assert!(e.ends_with("is not a regular file (git-debate writes only regular files to a session); remove it"), "{e}");
        }
    }

    #[test]
    fn a_file_over_the_cap_is_refused_by_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("round-1-critique.md");
        // Sparse: the size says too large without writing 64 MiB.
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_BYTES + 1)
            .unwrap();
        let e = read(&big).unwrap_err().to_string();
        assert!(e.contains("is larger than 64 MiB"), "{e}");
    }
}
