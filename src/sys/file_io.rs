//! Reading a file we were pointed at, and writing one whole or not at all.
//!
//! A `file:` scope, an `--artifact-file`, a panel file or a path a reviewer cited may name a FIFO
//! (reading blocks forever), `/dev/zero` (reading never ends and eats memory) or a huge file.
//! Every such read goes through [`read_regular`]: the path is checked before it is opened, opened
//! without blocking, checked again on the open descriptor (so a swap in between does not
//! matter), and read up to the cap.
//!
//! Every file we write (session files, `--output`, the manual page, caches) goes through
//! [`write_atomic`], so a crash, Ctrl-C or a full disk leaves the old file or the new one, never
//! half of one.

use std::fmt;
use std::fs;
use std::io::Read;
use std::io::Write as _;
use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use rustix::fs::OFlags;

/// `open(2)` flags for a file that may be a planted FIFO or link: never wait on it, and (with
/// `follow` false) never go through a link.
pub fn careful_flags(follow: bool) -> i32 {
    let flags = if follow {
        OFlags::NONBLOCK
    } else {
        OFlags::NONBLOCK | OFlags::NOFOLLOW
    };
    flags.bits() as i32
}

/// What a file is, in words.
pub fn kind(t: &fs::FileType) -> &'static str {
    if t.is_file() {
        "a regular file"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a folder"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() || t.is_block_device() {
        "a device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

/// Why a file was not read.
#[derive(Debug)]
pub enum Refusal {
    Io(std::io::Error),
    /// Not a regular file: what it is instead.
    NotRegular(&'static str),
    /// Larger than the cap (in bytes).
    TooLarge(u64),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Io(e) => write!(f, "{e}"),
            Refusal::NotRegular(k) => write!(f, "is {k}, not a regular file"),
            Refusal::TooLarge(cap) => write!(f, "is larger than {cap} bytes"),
        }
    }
}

impl std::error::Error for Refusal {}

/// The contents of the regular file at `path` (symbolic links followed), at most `cap` bytes.
pub fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, Refusal> {
    read_checked(path, cap, true)
}

/// The same for a file that must itself be a regular file, never a link (a session's files: a
/// link there was planted, since we write none).
pub fn read_regular_no_link(path: &Path, cap: u64) -> Result<Vec<u8>, Refusal> {
    read_checked(path, cap, false)
}

fn read_checked(path: &Path, cap: u64, follow: bool) -> Result<Vec<u8>, Refusal> {
    let regular = |m: &fs::Metadata| {
        if m.is_file() {
            Ok(())
        } else {
            Err(Refusal::NotRegular(kind(&m.file_type())))
        }
    };
    let named = if follow {
        fs::metadata(path)
    } else {
        fs::symlink_metadata(path)
    };
    regular(&named.map_err(Refusal::Io)?)?;
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(careful_flags(follow))
        .open(path)
        .map_err(Refusal::Io)?;
    let opened = file.metadata().map_err(Refusal::Io)?;
    regular(&opened)?;
    if opened.len() > cap {
        return Err(Refusal::TooLarge(cap));
    }
    read_capped(file, cap)
}

/// Which end of a file [`read_end_no_link`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Head,
    Tail,
}

/// At most `max` bytes from one end of the regular file at `path`, which must not be a link,
/// and whether the rest was left out. For logs that only grow (an agent's transcript): the newest
/// records are at the tail, the header at the head, and the whole may be far larger than needed.
pub fn read_end_no_link(path: &Path, max: u64, end: End) -> Result<(Vec<u8>, bool), Refusal> {
    use std::io::{Seek as _, SeekFrom};
    let named = fs::symlink_metadata(path).map_err(Refusal::Io)?;
    if !named.is_file() {
        return Err(Refusal::NotRegular(kind(&named.file_type())));
    }
    let mut file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(careful_flags(false))
        .open(path)
        .map_err(Refusal::Io)?;
    let opened = file.metadata().map_err(Refusal::Io)?;
    if !opened.is_file() {
        return Err(Refusal::NotRegular(kind(&opened.file_type())));
    }
    let cut = opened.len() > max;
    if cut && end == End::Tail {
        file.seek(SeekFrom::Start(opened.len() - max))
            .map_err(Refusal::Io)?;
    }
    let mut bytes = Vec::new();
    file.take(max)
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    Ok((bytes, cut))
}

/// All of `r`, unless it is longer than `cap` bytes.
pub fn read_capped(r: impl Read, cap: u64) -> Result<Vec<u8>, Refusal> {
    let mut bytes = Vec::new();
    r.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Refusal::Io)?;
    if bytes.len() as u64 > cap {
        return Err(Refusal::TooLarge(cap));
    }
    Ok(bytes)
}

/// Writes `contents` to `path` whole or not at all: into a fresh file beside it, synced, then
/// renamed over it. The fresh file has a random name and is created exclusively, so neither a
/// link planted in its place nor another thread writing the same path at the same moment is ever
/// written through; on any failure (a full disk, EFBIG past `ulimit -f`) it is removed and
/// `path` is left as it was. `mode` gives the new file's permissions; by default they are
/// 0666 less the umask, as for any new file.
pub fn write_atomic(
    path: &Path,
    contents: &[u8],
    mode: Option<fs::Permissions>,
) -> std::io::Result<()> {
    write_whole(path, contents, mode, true)
}

/// [`write_atomic`] without its `fsync`: whole or not at all for every reader while the machine
/// runs, durable only once [`sync_files`] flushes it with its folder (a session's files, flushed
/// once per round rather than each as it is written).
pub fn write_replace(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    write_whole(path, contents, None, false)
}

/// Makes `files` (written in `dir`) durable, and `dir`'s entries for them: their data first
/// (`fdatasync` each), then the folder (`fsync`). A file gone since it was written (replaced, pruned) has
/// nothing left to flush.
pub fn sync_files(dir: &Path, files: &[PathBuf]) -> std::io::Result<()> {
    let open = |p: &Path| match fs::File::open(p) {
        Ok(f) => Ok(Some(f)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    };
    for p in files {
        if let Some(f) = open(p)? {
            f.sync_data()?;
        }
    }
    let fd = rustix::fs::open(
        dir,
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )?;
    rustix::fs::fsync(&fd)?;
    Ok(())
}

fn write_whole(
    path: &Path,
    contents: &[u8],
    mode: Option<fs::Permissions>,
    sync: bool,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let mut file = tempfile::Builder::new()
        .prefix(&format!(".{name}.tmp-"))
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)?;
    file.write_all(contents)?;
    if let Some(mode) = mode {
        file.as_file().set_permissions(mode)?;
    }
    if sync {
        file.as_file().sync_all()?;
    }
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// How much of a work-tree file that an answer cites is read to check the citation.
pub const CITED_FILE_CAP: u64 = 8 << 20;

/// How much of a file or standard input given for review is read: far more than any artifact
/// budget sends (what does not fit is listed), but bounded. 64 × `--max-artifact-bytes`, at
/// least 16 MiB.
pub fn review_cap(max_artifact_bytes: u64) -> u64 {
    max_artifact_bytes.saturating_mul(64).max(16 << 20)
}

/// Makes a FIFO at `path` (for tests of what is refused without blocking).
#[cfg(test)]
pub fn make_fifo(path: &Path) {
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_are_read_up_to_the_cap() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("a.txt");
        fs::write(&p, "12345").unwrap();
        assert_eq!(read_regular(&p, 5).unwrap(), b"12345");
        assert!(matches!(read_regular(&p, 4), Err(Refusal::TooLarge(4))));
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        assert_eq!(read_regular(&link, 5).unwrap(), b"12345");
    }

    #[test]
    fn either_end_of_a_file_is_read_and_links_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("log");
        fs::write(&p, "line one\nline two\n").unwrap();
        let read = |max, end| read_end_no_link(&p, max, end).unwrap();
        assert_eq!(read(9, End::Tail), (b"line two\n".to_vec(), true));
        assert_eq!(read(4, End::Head), (b"line".to_vec(), true));
        assert_eq!(
            read(100, End::Tail),
            (b"line one\nline two\n".to_vec(), false)
        );
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        let e = read_end_no_link(&link, 100, End::Tail).unwrap_err();
        assert_eq!(e.to_string(), "is a symbolic link, not a regular file");
    }

    #[test]
    fn fifos_devices_and_folders_are_refused_without_blocking() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("fifo");
        make_fifo(&fifo);
        for (p, k) in [
            (fifo.as_path(), "a FIFO"),
            (Path::new("/dev/zero"), "a device"),
            (tmp.path(), "a folder"),
        ] {
            let e = read_regular(p, 1 << 20).unwrap_err();
            assert_eq!(e.to_string(), format!("is {k}, not a regular file"));
        }
        // An endless stream stops at the cap.
        let zero = fs::File::open("/dev/zero").unwrap();
        assert!(matches!(
            read_capped(zero, 1000),
            Err(Refusal::TooLarge(1000))
        ));
    }

    #[test]
    fn threads_writing_one_file_at_once_each_replace_it_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("metadata.json");
        let body = |t: usize| vec![b'a' + t as u8; 256 << 10];
        std::thread::scope(|s| {
            for t in 0..8 {
                let (p, body) = (&p, body(t));
                s.spawn(move || {
                    for _ in 0..20 {
                        write_atomic(p, &body, None).unwrap();
                    }
                });
            }
        });
        let last = fs::read(&p).unwrap();
        assert!((0..8).any(|t| last == body(t)), "a torn file");
        // Nothing is left beside it.
        assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_new_file_gets_the_usual_mode_and_a_given_one_is_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("report.md");
        write_atomic(&p, b"one", None).unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        // 0666 less whatever the umask takes: at least the owner may read and write.
        assert_eq!(mode(&p) & 0o600, 0o600);
        assert_eq!(mode(&p) & 0o111, 0);
        write_atomic(&p, b"two", Some(fs::Permissions::from_mode(0o640))).unwrap();
        assert_eq!((mode(&p), fs::read(&p).unwrap()), (0o640, b"two".to_vec()));
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_one() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("sub");
        // A folder at the destination: the rename fails after the data was written.
        fs::create_dir(&p).unwrap();
        fs::write(p.join("keep"), "x").unwrap();
        assert!(write_atomic(&p, b"data", None).is_err());
        assert!(p.join("keep").exists());
        assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 1);
    }
}
