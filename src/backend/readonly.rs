//! Read-only is verified, not assumed: the repository is fingerprinted before and after each model
//! call, and whatever a "read-only" reviewer changed is reported.
//!
//! Users of other review tools found their "read-only" reviewer had edited the tree. We pass each
//! CLI its read-only flags, but a flag can be ignored, mis-spelled in a new version or overridden by
//! the user's own config, so we check: HEAD, every index entry, and the work-tree status with a
//! content hash of every dirty or untracked file (a file that was already dirty and got edited
//! again shows up too). The cost is one status walk per call, small next to a model call.

use std::collections::BTreeMap;
use std::path::Path;

use git2::{Repository, Status, StatusOptions};

/// Files larger than this are fingerprinted by size and mtime instead of content.
const HASH_LIMIT: u64 = 8 << 20;

/// The state of a repository at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    head: Option<String>,
    index: BTreeMap<String, (String, u32)>,
    worktree: BTreeMap<String, (u32, String)>,
}

impl Snapshot {
    /// Fingerprints the repository containing `dir`; `None` outside a repository with a work tree.
    pub fn take(dir: &Path) -> Option<Snapshot> {
        let repo = Repository::discover(dir).ok()?;
        let workdir = repo.workdir()?.to_path_buf();
        let head = repo
            .head()
            .ok()
            .and_then(|h| h.target())
            .map(|o| o.to_string());
        let mut index = BTreeMap::new();
        if let Ok(mut idx) = repo.index() {
            // Re-read from disk: the point is to see what someone else wrote.
            let _ = idx.read(true);
            for e in idx.iter() {
                let path = String::from_utf8_lossy(&e.path).into_owned();
                let stage = (e.flags >> 12) & 0x3;
                index.insert(format!("{path}:{stage}"), (e.id.to_string(), e.mode));
            }
        }
        let mut opts = StatusOptions::new();
        opts.include_untracked(true)
            .recurse_untracked_dirs(true)
            .include_ignored(false)
            .exclude_submodules(false);
        let mut worktree = BTreeMap::new();
        if let Ok(statuses) = repo.statuses(Some(&mut opts)) {
            for s in statuses.iter() {
                let path = String::from_utf8_lossy(s.path_bytes()).into_owned();
                let bits = s.status().bits();
                let hash = fingerprint(&workdir.join(&path));
                worktree.insert(path, (bits, hash));
            }
        }
        Some(Snapshot {
            head,
            index,
            worktree,
        })
    }

    /// What changed between `self` (before) and `after`, one line per change.
    pub fn changes(&self, after: &Snapshot) -> Vec<String> {
        let mut out = Vec::new();
        if self.head != after.head {
            let short = |h: &Option<String>| {
                h.as_deref()
                    .map_or("(unborn)".to_string(), |h| h[..h.len().min(12)].to_string())
            };
            out.push(format!(
                "HEAD moved: {} -> {}",
                short(&self.head),
                short(&after.head)
            ));
        }
        let name = |k: &str| k.rsplit_once(':').map_or(k, |(p, _)| p).to_string();
        for (k, v) in &after.index {
            match self.index.get(k) {
                None => out.push(format!("index: {} added", name(k))),
                Some(old) if old != v => out.push(format!("index: {} changed", name(k))),
                _ => {}
            }
        }
        for k in self.index.keys().filter(|k| !after.index.contains_key(*k)) {
            out.push(format!("index: {} removed", name(k)));
        }
        for (path, (bits, hash)) in &after.worktree {
            if self.worktree.get(path) == Some(&(*bits, hash.clone())) {
                continue;
            }
            let st = Status::from_bits_truncate(*bits);
            let what = if st.contains(Status::WT_DELETED) {
                "deleted"
            } else if st.contains(Status::WT_NEW) && !self.worktree.contains_key(path) {
                "created"
            } else {
                "modified"
            };
            out.push(format!("work tree: {path} {what}"));
        }
        for path in self
            .worktree
            .keys()
            .filter(|p| !after.worktree.contains_key(*p))
        {
            out.push(format!("work tree: {path} restored or removed"));
        }
        out
    }
}

fn fingerprint(path: &Path) -> String {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return "missing".into();
    };
    if meta.is_dir() || meta.len() > HASH_LIMIT {
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        return format!("{}:{mtime}", meta.len());
    }
    if meta.file_type().is_symlink() {
        return std::fs::read_link(path)
            .map(|t| format!("link:{}", t.display()))
            .unwrap_or_default();
    }
    match std::fs::read(path) {
        Ok(bytes) => sha1_smol::Sha1::from(bytes).digest().to_string(),
        Err(_) => "unreadable".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", dir)
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    }

    #[test]
    fn sees_every_kind_of_change() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        git(d, &["init", "-q"]);
        std::fs::write(d.join("a.txt"), "a\n").unwrap();
        std::fs::write(d.join("dirty.txt"), "1\n").unwrap();
        git(d, &["add", "."]);
        git(d, &["commit", "-qm", "init"]);
        std::fs::write(d.join("dirty.txt"), "2\n").unwrap();

        let before = Snapshot::take(d).unwrap();
        assert!(before.changes(&Snapshot::take(d).unwrap()).is_empty());

        // An already-dirty file edited again, a new file, a staged file, a new commit.
        std::fs::write(d.join("dirty.txt"), "3\n").unwrap();
        std::fs::write(d.join("new.txt"), "n\n").unwrap();
        let after = Snapshot::take(d).unwrap();
        let c = before.changes(&after);
        assert!(
            c.contains(&"work tree: dirty.txt modified".to_string()),
            "{c:?}"
        );
        assert!(
            c.contains(&"work tree: new.txt created".to_string()),
            "{c:?}"
        );

        git(d, &["add", "new.txt"]);
        let c = after.changes(&Snapshot::take(d).unwrap());
        assert!(c.contains(&"index: new.txt added".to_string()), "{c:?}");

        let staged = Snapshot::take(d).unwrap();
        git(d, &["commit", "-qm", "x"]);
        let c = staged.changes(&Snapshot::take(d).unwrap());
        assert!(c.iter().any(|l| l.starts_with("HEAD moved")), "{c:?}");
    }

    #[test]
    fn outside_a_repository_there_is_nothing_to_check() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(Snapshot::take(tmp.path()).is_none());
    }
}
