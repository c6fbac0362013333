//! `--output FILE`: the report goes to a regular file, written whole or not at all.
//!
//! The file is written next to its destination under a fresh name and renamed over it
//! ([`crate::sys::file_io::write_atomic`]), so a reader never sees half a report and a failed write
//! leaves the old one. What is at the destination is checked first, by the same rule a run's
//! settings were checked with ([`crate::settings::output`]): only nothing or a regular file is
//! replaced. To print on standard output, leave `--output` out.

use std::path::Path;

use anyhow::{Context as _, Result};

/// Writes `contents` to `path` atomically, refusing anything there that is not a regular file.
pub fn write(path: &Path, contents: &[u8]) -> Result<()> {
    let old = crate::settings::output::existing(path)?;
    if path.file_name().is_none() {
        anyhow::bail!("--output {} does not name a file", path.display());
    }
    // The report replaces the old one: keep who may read it.
    crate::sys::file_io::write_atomic(path, contents, old.map(|m| m.permissions()))
        .with_context(|| format!("cannot write --output {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn replaces_a_regular_file_whole_and_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt as _;
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("report.md");
        write(&p, b"one").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        write(&p, b"two").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
        // Nothing is left behind next to it.
        assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn refuses_links_fifos_folders_and_devices() {
        use std::os::unix::fs::FileTypeExt as _;
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("target.md");
        fs::write(&target, "keep").unwrap();
        let link = tmp.path().join("link.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let fifo = tmp.path().join("fifo");
        crate::sys::file_io::make_fifo(&fifo);
        for (p, kind) in [
            (link.as_path(), "a symbolic link"),
            (fifo.as_path(), "a FIFO"),
            (tmp.path(), "a folder"),
            (Path::new("/dev/null"), "a device"),
        ] {
            let e = format!("{:#}", write(p, b"x").unwrap_err());
            assert!(e.contains(kind) && !e.contains('\n'), "{e}");
        }
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
        assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    }
}
