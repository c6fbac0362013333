//! The session index: one short line per session, so listing and pruning never open thousands of
//! metadata files.
//!
//! `git debate sessions` read every `metadata.json` for five fields: 1 s and 27 MiB at 10,000
//! sessions, and the hook writes one session per commit. The index, `<store>/sessions-index`, is
//! a header line and then one JSON object per metadata write (id, creation time, target, status,
//! scope, the hook's cache key); the last line of an id wins. Each write appends one line with
//! `O_APPEND` under a shared `flock` of `sessions-index.lock`; a rewrite (compaction, repair) holds
//! that lock exclusively and replaces the file atomically, so no append is lost to a rewrite and
//! readers never see a torn file.
//!
//! It is a cache, and data that may not be ours: reads are bounded, an id must look like one, and
//! anything that does not parse makes [`crate::store::catalog`] rebuild it from the folders.

use std::fs::OpenOptions;
use std::io::{Read as _, Write as _};
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::sys::lock::{LockFile, Locking, Share};

/// The index file in a store.
pub const FILE: &str = "sessions-index";
/// Its lock: taken shared to append, exclusive to rewrite. Never replaced, unlike the index.
pub const LOCK: &str = "sessions-index.lock";
/// The first line; another version (or none) means the file is rebuilt.
const HEADER: &str = r#"{"git-debate":"sessions-index","version":1}"#;
/// The largest index read: 10,000 sessions take about 2 MiB.
const MAX_BYTES: u64 = 64 << 20;
/// The longest line accepted; ours are a few hundred bytes.
const MAX_LINE: usize = 16 << 10;

/// What the index knows of one session: the fields `sessions` prints and pruning needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The scope as the user would type it, or where explicit content came from (`?` if neither).
    pub scope: String,
    /// The commit reviewed (a commit-headed scope's new side): what `--since` finds the earlier
    /// review of a branch by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// The pre-commit hook's verdict-cache key (`<tree>-<fail-on>-<rounds>`) of a hook session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<String>,
}

/// The metadata fields an [`Entry`] is made of. Read into this, a metadata file (which lists
/// every file of its change) is scanned but never held: listing took 5 GB when each was kept.
/// Any kind of session's metadata reads as one (a debate's `scope` is a string, or none).
#[derive(Deserialize)]
struct Brief {
    created_at: Option<String>,
    target: Option<String>,
    status: Option<String>,
    scope: Option<Loose<BriefScope>>,
    source: Option<BriefSource>,
    /// Read loosely: an odd value here makes a session no hook session, not a corrupt one.
    hook: Option<Loose<BriefHook>>,
}

/// A value read when it has the expected shape, and otherwise passed over: listing shows what it
/// can of a session rather than calling it corrupt for a field it only summarises.
#[derive(Deserialize)]
#[serde(untagged)]
enum Loose<T> {
    Is(T),
    Not(serde::de::IgnoredAny),
}

impl<T> Loose<T> {
    fn get(&self) -> Option<&T> {
        match self {
            Loose::Is(t) => Some(t),
            Loose::Not(_) => None,
        }
    }
}

#[derive(Deserialize)]
struct BriefScope {
    effective: Option<Loose<String>>,
    given: Option<Loose<String>>,
    resolved: Option<Loose<BriefResolved>>,
}

#[derive(Deserialize)]
struct BriefResolved {
    head: Option<Loose<String>>,
}

#[derive(Deserialize)]
struct BriefSource {
    origin: Option<String>,
}

#[derive(Deserialize)]
struct BriefHook {
    cache: Option<Loose<String>>,
}

/// The string a loose field holds, if it holds one.
fn text(v: &Option<Loose<String>>) -> Option<&str> {
    v.as_ref().and_then(Loose::get).map(String::as_str)
}

impl Entry {
    /// The entry of session `id` from the bytes of its `metadata.json`, or why they are not
    /// metadata (worded as `sessions` prints it).
    pub fn from_metadata(id: &str, bytes: &[u8]) -> Result<Entry, String> {
        let b: Brief =
            serde_json::from_slice(bytes).map_err(|e| format!("corrupt metadata.json: {e}"))?;
        if !bytes.trim_ascii_start().starts_with(b"{") {
            return Err("corrupt metadata.json: not a JSON object".into());
        }
        let scope = b.scope.as_ref().and_then(Loose::get);
        let given = scope.and_then(|s| text(&s.effective).or(text(&s.given)));
        let scope_text = match (given, &b.source) {
            (Some(s), _) => s.to_string(),
            (None, Some(BriefSource { origin: Some(o) })) => format!("content ({o})"),
            _ => "?".into(),
        };
        let head = scope
            .and_then(|s| s.resolved.as_ref())
            .and_then(Loose::get)
            .and_then(|r| text(&r.head))
            .filter(|h| is_sha(h))
            .map(String::from);
        let hook = b
            .hook
            .as_ref()
            .and_then(Loose::get)
            .and_then(|h| text(&h.cache))
            .filter(|k| is_cache_key(k))
            .map(String::from);
        Ok(Entry {
            id: id.to_string(),
            created_at: b.created_at,
            target: b.target,
            status: b.status,
            scope: scope_text,
            head,
            hook,
        })
    }

    /// The entry as one index line, newline included.
    pub fn line(&self) -> String {
        let mut s = serde_json::to_string(self).expect("an entry serializes");
        s.push('\n');
        s
    }
}

/// A session id as `Session::create` makes them: nothing a path could be built from.
pub fn is_id(id: &str) -> bool {
    id.len() <= 128
        && id.starts_with("debate-")
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// A full commit id (sha-1 or sha-256), lower-case hex.
pub fn is_sha(s: &str) -> bool {
    matches!(s.len(), 40 | 64)
        && s.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// The hook's cache key, `<tree sha>-<fail-on>-<rounds>`: it names a file we may delete, so
/// nothing else is accepted.
pub fn is_cache_key(key: &str) -> bool {
    let mut parts = key.split('-');
    let (Some(tree), Some(fail_on), Some(rounds), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    matches!(tree.len(), 40 | 64)
        && tree
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
        && crate::choices::FailOn::NAMES.contains(&fail_on)
        && !rounds.is_empty()
        && rounds.len() <= 3
        && rounds.bytes().all(|b| b.is_ascii_digit())
}

/// The lines of an index (or of what was appended to one), read.
#[derive(Debug, Default)]
pub struct Parsed {
    /// The last entry of each id, sorted by id. A sorted list, not a map: a listing walks it
    /// beside the sorted folder names, and 10,000 map look-ups of ids that share their first 20
    /// bytes were a third of a listing's time.
    pub entries: Vec<Entry>,
    /// Complete lines read, entries and header included.
    pub lines: usize,
    /// A line that is not an entry, or a missing or unknown header: the file must be rebuilt.
    pub bad: bool,
}

/// Reads `bytes`, which begin with the header when `header` is set. A last line without its
/// newline is an append still being written, and is skipped without calling the file bad.
pub fn parse(bytes: &[u8], header: bool) -> Parsed {
    let mut p = Parsed::default();
    let complete = match bytes.iter().rposition(|&b| b == b'\n') {
        Some(end) => &bytes[..=end],
        None => &[][..],
    };
    let mut lines = complete.split(|&b| b == b'\n');
    lines.next_back(); // the empty piece after the final newline
    if header {
        p.bad = lines.next() != Some(HEADER.as_bytes());
        p.lines += 1;
    }
    for line in lines {
        p.lines += 1;
        let entry = (line.len() <= MAX_LINE)
            .then(|| serde_json::from_slice::<Entry>(line).ok())
            .flatten()
            .filter(|e| {
                is_id(&e.id)
                    && e.hook.as_deref().is_none_or(is_cache_key)
                    && e.head.as_deref().is_none_or(is_sha)
            });
        match entry {
            Some(e) => p.entries.push(e),
            None => p.bad = true,
        }
    }
    // Stable, and close to linear: a rewritten index is sorted, and only appends follow it.
    p.entries.sort_by(|a, b| a.id.cmp(&b.id));
    // Of equal ids the later line wins: its entry moves into the one kept.
    p.entries.dedup_by(|later, kept| {
        let same = later.id == kept.id;
        if same {
            std::mem::swap(later, kept);
        }
        same
    });
    p
}

/// The whole text of an index holding `entries`.
pub fn render<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> String {
    let mut s = format!("{HEADER}\n");
    for e in entries {
        s.push_str(&e.line());
    }
    s
}

/// An index file as read, with what tells it apart from a later rewrite of it.
#[derive(Debug)]
pub struct Snapshot {
    pub bytes: Vec<u8>,
    /// Device and inode: a rewrite is a new file.
    pub identity: (u64, u64),
}

/// The index of the store `base`: `Ok(None)` when there is none, `Err` when it cannot be used
/// (not a regular file, too large, unreadable).
pub fn read(base: &Path) -> std::io::Result<Option<Snapshot>> {
    let mut file = match OpenOptions::new()
        .read(true)
        .custom_flags(crate::sys::file_io::careful_flags(false))
        .open(base.join(FILE))
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "not a regular file of a sane size",
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    (&mut file).take(MAX_BYTES).read_to_end(&mut bytes)?;
    Ok(Some(Snapshot {
        bytes,
        identity: (meta.dev(), meta.ino()),
    }))
}

/// Records a metadata write of the session in `dir` (called by `Session::write`). Never fails
/// the write: when the line cannot be added the index is removed, and the next listing rebuilds
/// it. With no index yet nothing is written; the next listing builds one.
pub fn record(dir: &Path, id: &str, metadata: &[u8]) {
    let Some(base) = dir.parent() else { return };
    if !base.join(FILE).exists() {
        return;
    }
    let line = match Entry::from_metadata(id, metadata) {
        Ok(e) if is_id(id) => e.line(),
        _ => return invalidate(base),
    };
    // Without the lock (held over two seconds by a rewrite) the line still goes in: it is lost
    // only if that rewrite then replaces the file, and an entry stays as it was.
    let _lock = Lock::take(base, false);
    let appended = OpenOptions::new()
        .append(true)
        .custom_flags(crate::sys::file_io::careful_flags(false))
        .open(base.join(FILE))
        .and_then(|mut f| {
            if !f.metadata()?.is_file() {
                return Err(std::io::ErrorKind::InvalidData.into());
            }
            // One write of a short line: concurrent appenders never interleave inside it.
            f.write_all(line.as_bytes())
        });
    match appended {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(_) => invalidate(base),
        Ok(()) => {}
    }
}

/// Drops the index of `base`, so the next reader rebuilds it from the folders.
pub fn invalidate(base: &Path) {
    let _ = std::fs::remove_file(base.join(FILE));
}

/// A held lock of the index ([`crate::sys::lock`]); released when dropped.
pub struct Lock {
    _file: LockFile,
}

impl Lock {
    /// Takes the lock (shared to append, exclusive to rewrite), waiting up to two seconds: a
    /// rewrite holds it for milliseconds. `None` when it cannot be had; where the file system has
    /// no `flock` the lock is granted (appends stay atomic; only a rewrite could race one).
    pub fn take(base: &Path, exclusive: bool) -> Option<Lock> {
        let file = LockFile::open(&base.join(LOCK)).ok()?;
        let share = if exclusive {
            Share::Exclusive
        } else {
            Share::Shared
        };
        match file.lock_within(share, std::time::Duration::from_secs(2)) {
            Locking::Locked | Locking::Unsupported => Some(Lock { _file: file }),
            Locking::Busy => None,
        }
    }
}

#[cfg(test)]
#[path = "index_tests.rs"]
mod tests;
