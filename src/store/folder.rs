//! A session folder's JSON records, written and read as their types: the metadata, the rounds,
//! the summary, a debate's log, an incremental review's plan and the location index. Nothing
//! else writes or parses these files, so a record's shape is decided by its type alone.
//!
//! A file that is missing, is not a regular file, or does not hold its record is an
//! [`Unreadable`] naming the file and, for JSON that does not fit, serde's words for the field and
//! the line (`round-2.json: missing field `choice` at line 40 column 1`).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::store::debate::{self, Entry, Exchange};
use crate::store::incremental::{self, Plan};
use crate::store::locations::{self, LocationIndex};
use crate::store::metadata::{self, Metadata};
use crate::store::round::Round;
use crate::store::sorted_json;
use crate::store::summary::{self, DuelSummary, PanelSummary, Report};
use crate::store::{index, session_read, Session};

/// A JSON file of a session folder.
pub trait Record: Serialize + DeserializeOwned {
    /// Written through a `serde_json::Value`, keys sorted at every depth, as the release that
    /// introduced the file wrote it; otherwise in the order the type declares its fields.
    const SORTED: bool = false;
}

impl Record for Round {}
impl Record for Plan {}
impl Record for LocationIndex {}
impl Record for Report {}
impl Record for DuelSummary {
    const SORTED: bool = true;
}
impl Record for PanelSummary {
    const SORTED: bool = true;
}
impl Record for debate::LastDebate {
    const SORTED: bool = true;
}

/// What `summary.json` can hold: a review's report, or a duel's or a panel's result.
pub trait Summary: Record {}
impl Summary for Report {}
impl Summary for DuelSummary {}
impl Summary for PanelSummary {}

/// A line of `debate-log.jsonl`: a duel's exchange or a panel's entry.
pub trait LogLine: Serialize + DeserializeOwned {}
impl LogLine for Exchange {}
impl LogLine for Entry {}

/// A session file that could not be read as its record.
#[derive(Debug)]
pub struct Unreadable {
    /// The file's name in the session folder.
    pub file: String,
    pub why: Why,
}

/// Why a session file could not be read.
#[derive(Debug)]
pub enum Why {
    Missing,
    /// Not a regular file, too large, or an I/O error (the error names the path).
    Io(io::Error),
    /// Not JSON, or not the record's shape: serde's error, with the line.
    Json(serde_json::Error),
    /// A metadata of a later release's layout (its `version`).
    Newer(u32),
}

impl Unreadable {
    fn new(file: &str, why: Why) -> Unreadable {
        Unreadable {
            file: file.to_string(),
            why,
        }
    }

    pub fn is_missing(&self) -> bool {
        matches!(self.why, Why::Missing)
    }
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.why {
            Why::Missing => write!(f, "{}: no such file", self.file),
            Why::Io(e) => write!(f, "{}: {e}", self.file),
            Why::Json(e) => write!(f, "{}: {e}", self.file),
            Why::Newer(v) => write!(f, "{}: {}", self.file, metadata::Unknown::Newer(*v)),
        }
    }
}

impl std::error::Error for Unreadable {}

/// The bytes of `name` in `dir`, read as a session file ([`session_read::read`]).
fn bytes(dir: &Path, name: &str) -> Result<Vec<u8>, Unreadable> {
    session_read::read(&dir.join(name)).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => Unreadable::new(name, Why::Missing),
        _ => Unreadable::new(name, Why::Io(e)),
    })
}

/// The record in `name`, `None` when there is no such file.
fn read<R: DeserializeOwned>(dir: &Path, name: &str) -> Result<Option<R>, Unreadable> {
    match bytes(dir, name) {
        Ok(b) => serde_json::from_slice(&b)
            .map(Some)
            .map_err(|e| Unreadable::new(name, Why::Json(e))),
        Err(e) if e.is_missing() => Ok(None),
        Err(e) => Err(e),
    }
}

/// A record's file contents: pretty JSON with a final newline.
fn encode<R: Record>(record: &R) -> serde_json::Result<Vec<u8>> {
    if R::SORTED {
        return sorted_json(record);
    }
    let mut bytes = serde_json::to_vec_pretty(record)?;
    bytes.push(b'\n');
    Ok(bytes)
}

/// `round-<n>.json`.
pub fn round_file(n: u32) -> String {
    format!("round-{n}.json")
}

/// The text file `name` (an artifact, a prompt, an answer), `None` when the session has none.
pub fn text(dir: &Path, name: &str) -> Result<Option<String>, Unreadable> {
    match session_read::read_to_string(&dir.join(name)) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Unreadable::new(name, Why::Io(e))),
    }
}

/// The newest version of the artifact the author rewrote (`artifact-v<n>.md`, the highest `n`)
/// and its number; `None` while there is only the original.
pub fn latest_version(dir: &Path) -> anyhow::Result<Option<(String, u32)>> {
    let mut best: Option<u32> = None;
    for e in std::fs::read_dir(dir)? {
        let name = e?.file_name().to_string_lossy().into_owned();
        if let Some(n) = name
            .strip_prefix("artifact-v")
            .and_then(|r| r.strip_suffix(".md"))
            .and_then(|n| n.parse().ok())
        {
            best = best.max(Some(n));
        }
    }
    let Some(n) = best else { return Ok(None) };
    let name = format!("artifact-v{n}.md");
    let text = text(dir, &name)?.ok_or_else(|| Unreadable::new(&name, Why::Missing))?;
    Ok(Some((text, n)))
}

/// The metadata of the session in `dir`.
pub fn metadata(dir: &Path) -> Result<Metadata, Unreadable> {
    let b = bytes(dir, metadata::FILE)?;
    Metadata::parse(&b).map_err(|e| {
        let why = match e {
            metadata::Unknown::Json(e) => Why::Json(e),
            metadata::Unknown::Newer(v) => Why::Newer(v),
        };
        Unreadable::new(metadata::FILE, why)
    })
}

/// Round `n`'s record, `None` when the session has no such round.
pub fn round(dir: &Path, n: u32) -> Result<Option<Round>, Unreadable> {
    read(dir, &round_file(n))
}

/// Every round recorded: `round-1.json`, `round-2.json`, ... up to the first one missing.
pub fn rounds(dir: &Path) -> Result<Vec<Round>, Unreadable> {
    let mut rounds = Vec::new();
    for n in 1.. {
        match round(dir, n)? {
            Some(r) => rounds.push(r),
            None => break,
        }
    }
    Ok(rounds)
}

/// The session's summary, `None` before it ends (a dry run, a running or interrupted review).
pub fn summary<S: Summary>(dir: &Path) -> Result<Option<S>, Unreadable> {
    read(dir, summary::FILE)
}

/// An incremental review's plan, `None` for any other session.
pub fn plan(dir: &Path) -> Result<Option<Plan>, Unreadable> {
    read(dir, incremental::FILE)
}

/// A review's location index, `None` when it has none (explicit content).
pub fn locations(dir: &Path) -> Result<Option<LocationIndex>, Unreadable> {
    read(dir, locations::FILE)
}

/// A debate's log, line by line; empty when there is none yet. A line that is not an entry is
/// named by its number.
pub fn log<L: LogLine>(dir: &Path) -> Result<Vec<L>, Unreadable> {
    let text = match bytes(dir, debate::LOG) {
        Ok(b) => String::from_utf8_lossy(&b).into_owned(),
        Err(e) if e.is_missing() => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    text.lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| {
                Unreadable::new(&format!("{} (line {})", debate::LOG, i + 1), Why::Json(e))
            })
        })
        .collect()
}

/// The store's `last-debate.json` (the newest duel's state record, in the
/// established `last-debate.json` shape), written whole; it has no final newline, so the file
/// matches that established format.
pub fn write_last_debate(base: &Path, record: &debate::LastDebate) -> anyhow::Result<()> {
    let bytes = serde_json::to_vec_pretty(&serde_json::to_value(record)?)?;
    crate::store::write_atomic(&base.join(debate::LAST_DEBATE), &bytes)
}

impl Session {
    fn write_record<R: Record>(&self, name: &str, record: &R) -> anyhow::Result<PathBuf> {
        self.write(name, &encode(record)?)
    }

    /// Writes the session's metadata (and its line in the store's index).
    pub fn write_metadata(&self, m: &Metadata) -> anyhow::Result<()> {
        let bytes = m.to_json()?;
        self.write(metadata::FILE, &bytes)?;
        index::record(&self.dir, &self.id, &bytes);
        Ok(())
    }

    /// Writes a round's record, as `round-<n>.json`, and makes the round durable: its record
    /// is the last of its files, and a resume starts after the last round it can read.
    pub fn write_round(&self, r: &Round) -> anyhow::Result<PathBuf> {
        let path = self.write_record(&round_file(r.round), r)?;
        self.sync()?;
        Ok(path)
    }

    /// Writes how the session ended, and makes the session durable.
    pub fn write_summary<S: Summary>(&self, s: &S) -> anyhow::Result<PathBuf> {
        let path = self.write_record(summary::FILE, s)?;
        self.sync()?;
        Ok(path)
    }

    pub fn write_plan(&self, p: &Plan) -> anyhow::Result<PathBuf> {
        self.write_record(incremental::FILE, p)
    }

    pub fn write_locations(&self, l: &LocationIndex) -> anyhow::Result<PathBuf> {
        self.write_record(locations::FILE, l)
    }

    /// Appends one line to the debate's log, in one write so a crash cannot leave half a line.
    pub fn append_to_log<L: LogLine>(&self, line: &L) -> anyhow::Result<()> {
        self.append_json_line(debate::LOG, line)
    }
}

#[cfg(test)]
#[path = "folder_tests.rs"]
mod tests;
