//! A CLI's version, asked once per installed binary rather than once per run.
//!
//! `claude --version` starts a node process (a third of a second or more, and a second CPU busy
//! next to the real call) on every review and every pre-commit hook run, for an answer that only
//! changes when the CLI is updated. So answers are kept in `<cache dir>/git-debate/versions`, one
//! line per program path, keyed by what an update changes in the file it resolves to: its inode,
//! size, mtime and ctime. npm gives every file it installs the same mtime, so the inode and ctime (which no
//! installer can set) are what tell two installs apart.

use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

/// At most this many binaries are remembered; older lines are dropped first.
const KEEP: usize = 64;

/// The version of `program`: from the cache when the binary is unchanged, else from `probe`
/// (whose answer is then remembered). A cache that cannot be read or written is no cache.
pub fn cached(program: &Path, probe: impl FnOnce(&Path) -> Option<String>) -> Option<String> {
    let (Some(key), Some(file)) = (key_of(program), cache_file()) else {
        return probe(program);
    };
    let lines = read_lines(&file);
    if let Some(v) = lines
        .iter()
        .find_map(|l| l.strip_prefix(&format!("{key}\t")))
    {
        return Some(v.to_string());
    }
    let version = probe(program)?;
    // A binary updated in place replaces its old line.
    let path_of = |k: &str| k.rsplit_once(' ').map(|(p, _)| p.to_string());
    let mine = path_of(&key);
    let mut kept: Vec<String> = lines
        .into_iter()
        .filter(|l| l.rsplit_once('\t').and_then(|(k, _)| path_of(k)) != mine)
        .collect();
    kept.push(format!("{key}\t{version}"));
    let from = kept.len().saturating_sub(KEEP);
    let text = kept[from..].join("\n") + "\n";
    if let Some(dir) = file.parent() {
        let _ = std::fs::create_dir_all(dir);
        let _ = crate::store::write_atomic(&file, text.as_bytes());
    }
    Some(version)
}

/// `path inode:size:mtime:ctime`: the program's path as we run it (one binary may answer to
/// several names) and what the file it resolves to says of itself.
fn key_of(program: &Path) -> Option<String> {
    let m = std::fs::metadata(program).ok()?;
    let path = program.to_str()?.replace(['\t', '\n'], " ");
    Some(format!(
        "{path} {}:{}:{}.{}:{}.{}",
        m.ino(),
        m.size(),
        m.mtime(),
        m.mtime_nsec(),
        m.ctime(),
        m.ctime_nsec()
    ))
}

fn cache_file() -> Option<PathBuf> {
    let base = directories::BaseDirs::new()?;
    Some(base.cache_dir().join("git-debate").join("versions"))
}

fn read_lines(file: &Path) -> Vec<String> {
    crate::sys::file_io::read_regular_no_link(file, 1 << 20)
        .map(|b| {
            String::from_utf8_lossy(&b)
                .lines()
                .filter(|l| l.contains('\t'))
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}
