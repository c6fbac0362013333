//! Read-only is verified, not assumed: the repository is fingerprinted before and after each model
//! call, and whatever a "read-only" reviewer changed is reported.
//!
//! Users of other review tools found their "read-only" reviewer had edited the tree. We pass each
//! CLI its read-only flags, but a flag can be ignored, mis-spelled in a new version or overridden by
//! the user's own config, so we check: HEAD, every index entry, and the work-tree status with a
//! content hash of every dirty or untracked file (a file that was already dirty and got edited
//! again shows up too). The cost is one status walk per call, small next to a model call.
//!
//! The parts of `.git` that make git run programs are checked too: `config` (and the per-work-tree
//! `config.worktree`), `hooks/` and `info/`. A reviewer that installs a hook or sets
//! `core.fsmonitor` has the user run its command on the next `git commit` or `git status`, so
//! that is a change like any other. Objects, refs and logs are not checked: git itself changes
//! them (a reviewer's `git status` may refresh the index, `git fetch` writes refs).

use std::collections::BTreeMap;
use std::path::Path;

use git2::{Repository, Status, StatusOptions};

/// Files larger than this are fingerprinted by size and mtime instead of content.
const HASH_LIMIT: u64 = 8 << 20;

/// What is checked under the git folder shared by all work trees, and under a linked work
/// tree's own git folder: everything that can make git run a program.
const GIT_SHARED: &[&str] = &["config", "config.worktree", "hooks", "info"];
const GIT_PER_WORKTREE: &[&str] = &["config.worktree"];
/// Files in those folders that git writes itself (`git gc` refreshes `info/refs`).
const GIT_WRITTEN: &[&str] = &["info/refs"];

/// At most this many files are fingerprinted under the git folder (a hostile `hooks/` full of
/// files must not make every call slow).
const GIT_FILES_CAP: usize = 5000;

/// The state of a repository at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    head: Option<String>,
    index: BTreeMap<String, (String, u32)>,
    worktree: BTreeMap<String, (u32, String)>,
    /// Files under the git folder that can run programs, by the path shown for them.
    git: BTreeMap<String, String>,
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
        let git = git_files(&repo, &workdir);
        Some(Snapshot {
            head,
            index,
            worktree,
            git,
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
        for (path, hash) in &after.git {
            match self.git.get(path) {
                None => out.push(format!("git: {path} created")),
                Some(old) if old != hash => out.push(format!("git: {path} modified")),
                _ => {}
            }
        }
        for path in self.git.keys().filter(|p| !after.git.contains_key(*p)) {
            out.push(format!("git: {path} removed"));
        }
        out
    }
}

/// Fingerprints of the git folder's program-running files, named as a user would find them
/// (`.git/hooks/pre-commit` from the work tree when the folder is inside it).
fn git_files(repo: &Repository, workdir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let common = repo.commondir().to_path_buf();
    let own = repo.path().to_path_buf();
    let mut todo: Vec<std::path::PathBuf> = GIT_SHARED.iter().map(|n| common.join(n)).collect();
    if own != common {
        todo.extend(GIT_PER_WORKTREE.iter().map(|n| own.join(n)));
    }
    let shown = |p: &Path| match p.strip_prefix(workdir) {
        Ok(rel) => rel.display().to_string(),
        Err(_) => p.display().to_string(),
    };
    while let Some(p) = todo.pop() {
        if out.len() >= GIT_FILES_CAP {
            break;
        }
        if GIT_WRITTEN.iter().any(|w| p == common.join(w)) {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            if let Ok(entries) = std::fs::read_dir(&p) {
                todo.extend(entries.filter_map(|e| e.ok().map(|e| e.path())));
            }
            continue;
        }
        // The mode counts: `chmod +x` turns a sample into a hook.
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode();
        out.insert(shown(&p), format!("{mode:o}:{}", fingerprint(&p)));
    }
    out
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
    fn hooks_config_and_info_under_git_are_checked() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        git(d, &["init", "-q"]);
        std::fs::write(d.join("a.txt"), "a\n").unwrap();
        git(d, &["add", "."]);
        git(d, &["commit", "-qm", "init"]);
        let before = Snapshot::take(d).unwrap();
        // What git itself writes is not a change: objects, refs, logs.
        git(d, &["tag", "v1"]);
        git(d, &["gc", "-q"]);
        let c = before.changes(&Snapshot::take(d).unwrap());
        assert!(c.is_empty(), "{c:?}");

        std::fs::create_dir_all(d.join(".git/hooks")).unwrap();
        std::fs::write(d.join(".git/hooks/pre-commit"), "#!/bin/sh\nevil\n").unwrap();
        git(d, &["config", "core.fsmonitor", "evil"]);
        std::fs::create_dir_all(d.join(".git/info")).unwrap();
        std::fs::write(d.join(".git/info/attributes"), "* filter=evil\n").unwrap();
        let c = before.changes(&Snapshot::take(d).unwrap());
        for want in [
            "git: .git/hooks/pre-commit created",
            "git: .git/config modified",
            "git: .git/info/attributes created",
        ] {
            assert!(c.contains(&want.to_string()), "{want}: {c:?}");
        }

        // Making an existing file executable is a change too.
        let now = Snapshot::take(d).unwrap();
        use std::os::unix::fs::PermissionsExt;
        let hook = d.join(".git/hooks/pre-commit");
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
        let c = now.changes(&Snapshot::take(d).unwrap());
        assert_eq!(c, vec!["git: .git/hooks/pre-commit modified".to_string()]);
    }

    #[test]
    fn outside_a_repository_there_is_nothing_to_check() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(Snapshot::take(tmp.path()).is_none());
    }
}
