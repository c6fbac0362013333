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

use anyhow::{Context, Result};

use super::index::{self, Entry, Parsed, Snapshot};

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
    let names = folder_names(base)?;
    let snapshot = index::read(base).ok();
    let parsed = match &snapshot {
        Some(Some(s)) => index::parse(&s.bytes, true),
        // Missing or unusable: everything is read from the folders.
        _ => Parsed {
            bad: true,
            ..Parsed::default()
        },
    };
    let rebuild = parsed.bad;
    let lines = parsed.lines;
    let mut known = if rebuild {
        BTreeMap::new()
    } else {
        parsed.entries
    };
    let on_disk: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    let stale = known.keys().any(|id| !on_disk.contains(id.as_str()));
    let mut unreadable = BTreeMap::new();
    let mut added = 0;
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !known.contains_key(n.as_str()))
        .collect();
    for name in missing {
        match read_entry(&base.join(name), name) {
            Ok(e) if index::is_id(name) => {
                known.insert(name.clone(), e);
                added += 1;
            }
            // A folder name an index line cannot hold is read each time, as before the index.
            Ok(e) => drop(unreadable.insert(name.clone(), Ok(e))),
            Err(e) => drop(unreadable.insert(name.clone(), Err(e))),
        }
    }
    let bloated = lines > 2 * names.len() + 64;
    if rebuild && names.is_empty() && !matches!(snapshot, Some(Some(_))) {
        // No sessions and no index: nothing to write (and no store folder to create).
    } else if rebuild || added > 0 || stale || bloated {
        let seen = match &snapshot {
            Some(Some(s)) => Some(s),
            _ => None,
        };
        if let Some(merged) = rewrite(base, seen, known.clone()) {
            known = merged;
        }
    }
    Ok(names
        .into_iter()
        .map(|id| {
            let entry = match unreadable.remove(&id) {
                Some(r) => r,
                None => match known.get(&id) {
                    Some(e) => Ok(e.clone()),
                    None => read_entry(&base.join(&id), &id),
                },
            };
            Row {
                dir: base.join(&id),
                id,
                entry,
            }
        })
        .collect())
}

/// Rewrites the index of `base` without the sessions whose folders are gone (after a prune).
pub fn forget_gone(base: &Path) {
    if matches!(index::read(base), Ok(Some(_))) {
        rewrite(base, None, BTreeMap::new());
    }
}

/// The entry of one session folder, read from its metadata.
pub fn read_entry(dir: &Path, id: &str) -> Result<Entry, String> {
    match super::files::read(&dir.join("metadata.json")) {
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
            mine.extend(index::parse(&c.bytes[s.bytes.len()..], false).entries);
            mine
        }
        (_, Some(c)) => match index::parse(&c.bytes, true) {
            Parsed {
                mut entries,
                bad: false,
                ..
            } => {
                for (id, e) in mine {
                    entries.entry(id).or_insert(e);
                }
                entries
            }
            _ => mine,
        },
        (_, None) => mine,
    };
    // Read again under the lock: a folder made since is kept, one removed since is dropped.
    let names: BTreeSet<String> = folder_names(base).ok()?.into_iter().collect();
    merged.retain(|id, _| names.contains(id));
    super::write_atomic(
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
        super::super::write_atomic(&dir.join("metadata.json"), meta.to_string().as_bytes())
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
        p.entries.into_keys().collect()
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
