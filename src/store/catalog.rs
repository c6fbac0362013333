//! Every session of a store, from the index, which this keeps true to the folders.
//!
//! One `readdir` of the store (cheap: 10,000 names in a few milliseconds) is compared with the
//! index: a folder the index does not know (made by an older version, copied in by hand, or
//! whose line was lost) is read and added, and an entry whose folder is gone (deleted by hand) is
//! dropped. Only those folders are opened, so a listing costs the same whatever the store's size,
//! and a missing or damaged index is a one-time full rebuild. A session whose metadata cannot be
//! read is listed with the reason and never written to the index: it is read again next time, in
//! case its run was only about to write it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

use crate::store::index::{self, Entry, Parsed, Snapshot};

/// One session of a store: its index entry, or why its metadata cannot be read.
#[derive(Debug, Clone)]
pub struct Row {
    pub id: String,
    pub dir: PathBuf,
    pub entry: Result<Entry, String>,
}

/// The names of a store's session folders, newest first (ids sort by time); none when the store
/// does not exist yet.
pub fn folder_names(base: &Path) -> Result<Vec<String>> {
    let entries = match fs::read_dir(base) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(e)
                .with_context(|| format!("cannot read the session store {}", base.display()))
        }
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry =
            entry.with_context(|| format!("cannot read the session store {}", base.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("debate-") && entry.file_type().is_ok_and(|t| t.is_dir()) {
            out.push(name);
        }
    }
    out.sort_unstable_by(|a, b| b.cmp(a));
    Ok(out)
}

/// Every session of the store `base`, newest first. The index is repaired on the way when it
/// disagrees with the folders; a store that cannot be written to is still listed.
pub fn list(base: &Path) -> Result<Vec<Row>> {
    let mut names = folder_names(base)?;
    names.reverse(); // oldest first, as the index is sorted
    let snapshot = index::read(base).ok().flatten();
    let parsed = match &snapshot {
        Some(s) => index::parse(&s.bytes, true),
        // Missing or unusable: everything is read from the folders.
        None => Parsed {
            bad: true,
            ..Parsed::default()
        },
    };
    let (rebuild, lines) = (parsed.bad, parsed.lines);
    let mut known = if rebuild { Vec::new() } else { parsed.entries }
        .into_iter()
        .peekable();
    // Both sorted by id: one walk pairs each folder with its entry.
    let (mut rows, mut stale, mut added) = (Vec::with_capacity(names.len()), false, 0);
    for id in names {
        while known.next_if(|e| e.id < id).is_some() {
            stale = true; // its folder is gone
        }
        let entry = match known.next_if(|e| e.id == id) {
            Some(e) => Ok(e),
            None => {
                let read = read_entry(&base.join(&id), &id);
                // A folder name an index line cannot hold is read each time, as before the
                // index; so is a session whose metadata cannot be read.
                added += usize::from(read.is_ok() && index::is_id(&id));
                read
            }
        };
        rows.push(Row {
            dir: base.join(&id),
            id,
            entry,
        });
    }
    stale |= known.next().is_some();
    let bloated = lines > 2 * rows.len() + 64;
    let nothing = rows.is_empty() && snapshot.is_none();
    if !nothing && (rebuild || added > 0 || stale || bloated) {
        let mine = rows
            .iter()
            .filter(|r| index::is_id(&r.id))
            .filter_map(|r| r.entry.as_ref().ok())
            .map(|e| (e.id.clone(), e.clone()))
            .collect();
        if let Some(merged) = rewrite(base, snapshot.as_ref(), mine) {
            // Appends made while the folders were read are newer than what was read.
            for row in &mut rows {
                if let Some(e) = merged.get(&row.id) {
                    row.entry = Ok(e.clone());
                }
            }
        }
    }
    rows.reverse();
    Ok(rows)
}

/// Rewrites the index of `base` without the sessions whose folders are gone (after a prune).
pub fn forget_gone(base: &Path) {
    if matches!(index::read(base), Ok(Some(_))) {
        rewrite(base, None, BTreeMap::new());
    }
}

/// The entry of one session folder, read from its metadata.
pub fn read_entry(dir: &Path, id: &str) -> Result<Entry, String> {
    match crate::store::session_read::read(&dir.join("metadata.json")) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err("incomplete: no metadata.json (interrupted before it was written)".to_string())
        }
        Err(e) => Err(format!("unreadable metadata.json: {e}")),
        Ok(bytes) => Entry::from_metadata(id, &bytes),
    }
}

/// Writes the index of `base` anew under the exclusive lock, from `mine` (what this process read)
/// and whatever was appended since `seen` was read, keeping only sessions whose folders exist.
/// Returns the entries written, or `None` when the lock or the write failed (the caller goes on
/// with what it has; the next reader tries again).
///
/// Lines appended to the file `seen` after it was read are newer than anything read from the
/// folders (each run writes its metadata, then appends), so they win. If another process rewrote
/// the file meanwhile, its file is the newer whole and wins, and `mine` only fills its gaps.
fn rewrite(
    base: &Path,
    seen: Option<&Snapshot>,
    mut mine: BTreeMap<String, Entry>,
) -> Option<BTreeMap<String, Entry>> {
    let _lock = index::Lock::take(base, true)?;
    let current = index::read(base).ok().flatten();
    let mut merged = match (seen, current) {
        (Some(s), Some(c)) if s.identity == c.identity && c.bytes.len() >= s.bytes.len() => {
            // From the end of the last whole line read: a line still being appended then was
            // skipped, and is whole now.
            let read = s
                .bytes
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let tail = index::parse(&c.bytes[read..], false).entries;
            mine.extend(tail.into_iter().map(|e| (e.id.clone(), e)));
            mine
        }
        (_, Some(c)) => match index::parse(&c.bytes, true) {
            Parsed {
                entries,
                bad: false,
                ..
            } => {
                let mut theirs: BTreeMap<String, Entry> =
                    entries.into_iter().map(|e| (e.id.clone(), e)).collect();
                for (id, e) in mine {
                    theirs.entry(id).or_insert(e);
                }
                theirs
            }
            _ => mine,
        },
        (_, None) => mine,
    };
    // Read again under the lock: a folder made since is kept, one removed since is dropped.
    let names: BTreeSet<String> = folder_names(base).ok()?.into_iter().collect();
    merged.retain(|id, _| names.contains(id));
    crate::store::write_atomic(
        &base.join(index::FILE),
        index::render(merged.values()).as_bytes(),
    )
    .ok()?;
    Some(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(base: &Path, id: &str, status: &str) {
        let dir = base.join(id);
        fs::create_dir_all(&dir).unwrap();
        let meta = serde_json::json!({"status": status, "scope": {"effective": "staged"}});
        crate::store::write_atomic(&dir.join("metadata.json"), meta.to_string().as_bytes())
            .unwrap();
        index::record(&dir, id, meta.to_string().as_bytes());
    }

    fn statuses(base: &Path) -> Vec<(String, String)> {
        list(base)
            .unwrap()
            .into_iter()
            .map(|r| (r.id, r.entry.map_or_else(|e| e, |e| e.status.unwrap())))
            .collect()
    }

    fn indexed(base: &Path) -> Vec<String> {
        let p = index::parse(&index::read(base).unwrap().unwrap().bytes, true);
        assert!(!p.bad);
        p.entries.into_iter().map(|e| e.id).collect()
    }

    #[test]
    fn the_index_is_built_then_kept_true_to_the_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path();
        assert!(list(base).unwrap().is_empty());
        assert!(!base.join(index::FILE).exists());
        session(base, "debate-1", "running");
        session(base, "debate-2", "dry-run");
        // Built by the first listing, then appended to.
        assert_eq!(statuses(base).len(), 2);
        assert_eq!(indexed(base), ["debate-1", "debate-2"]);
        session(base, "debate-1", "completed");
        session(base, "debate-3", "running");
        assert_eq!(
            statuses(base),
            [
                ("debate-3".into(), "running".into()),
                ("debate-2".into(), "dry-run".into()),
                ("debate-1".into(), "completed".into())
            ]
        );
        // Deleted by hand: dropped from the index.
        fs::remove_dir_all(base.join("debate-2")).unwrap();
        assert_eq!(statuses(base).len(), 2);
        assert_eq!(indexed(base), ["debate-1", "debate-3"]);
        // Garbage in the index: rebuilt from the folders.
        let mut f = fs::OpenOptions::new()
            .append(true)
            .open(base.join(index::FILE))
            .unwrap();
        std::io::Write::write_all(&mut f, b"garbage\n").unwrap();
        assert_eq!(statuses(base).len(), 2);
        assert_eq!(indexed(base), ["debate-1", "debate-3"]);
    }

    #[test]
    fn damaged_sessions_are_listed_with_the_reason_but_never_indexed() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path();
        session(base, "debate-1", "completed");
        fs::create_dir(base.join("debate-2")).unwrap();
        fs::create_dir(base.join("debate-odd name")).unwrap();
        fs::write(base.join("debate-odd name/metadata.json"), "{}").unwrap();
        let rows = list(base).unwrap();
        assert_eq!(rows.len(), 3);
        assert!(rows[0].entry.as_ref().unwrap().status.is_none());
        assert!(rows[1]
            .entry
            .as_ref()
            .unwrap_err()
            .starts_with("incomplete"));
        assert_eq!(indexed(base), ["debate-1"]);
        // The run that made it writes its metadata after all.
        session(base, "debate-2", "dry-run");
        assert_eq!(indexed(base), ["debate-1", "debate-2"]);
    }

    #[test]
    fn a_long_index_is_compacted() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path();
        session(base, "debate-1", "running");
        list(base).unwrap();
        for _ in 0..100 {
            session(base, "debate-1", "running");
        }
        list(base).unwrap();
        let text = fs::read_to_string(base.join(index::FILE)).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
    }

    #[test]
    fn a_line_half_appended_when_the_index_was_read_is_kept_by_a_rewrite() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path();
        session(base, "debate-1", "running");
        list(base).unwrap();
        let line = read_entry(&base.join("debate-1"), "debate-1")
            .map(|mut e| {
                e.status = Some("completed".into());
                e
            })
            .unwrap()
            .line();
        let (first, rest) = line.split_at(10);
        let append = |text: &str| {
            let mut f = fs::OpenOptions::new()
                .append(true)
                .open(base.join(index::FILE))
                .unwrap();
            std::io::Write::write_all(&mut f, text.as_bytes()).unwrap();
        };
        append(first);
        let seen = index::read(base).unwrap().unwrap();
        append(rest);
        let merged = rewrite(base, Some(&seen), BTreeMap::new()).unwrap();
        assert_eq!(merged["debate-1"].status.as_deref(), Some("completed"));
    }

    #[test]
    fn a_rewrite_keeps_what_was_appended_while_the_folders_were_read() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path();
        session(base, "debate-1", "running");
        list(base).unwrap();
        let seen = index::read(base).unwrap().unwrap();
        // Appended after `seen` was read: newer than what the reader took from the folder.
        session(base, "debate-1", "completed");
        let mine = BTreeMap::from([(
            "debate-1".to_string(),
            read_entry(&base.join("debate-1"), "debate-1")
                .map(|mut e| {
                    e.status = Some("running".into());
                    e
                })
                .unwrap(),
        )]);
        let merged = rewrite(base, Some(&seen), mine).unwrap();
        assert_eq!(merged["debate-1"].status.as_deref(), Some("completed"));
    }
}
