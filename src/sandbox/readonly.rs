//! Read-only is verified, not assumed: the repository is fingerprinted before and after each model
//! call, and whatever a "read-only" reviewer changed is reported.
//!
//! Users of other review tools found their "read-only" reviewer had edited the tree. We pass each
//! CLI its read-only flags, but a flag can be ignored, mis-spelled in a new version or overridden by
//! the user's own config, so we check: HEAD, every index entry, every tracked file and every
//! untracked file that is not ignored (a file that was already dirty and got edited again shows
//! up too).
//!
//! Files are fingerprinted by what `lstat` says (inode, size, mode, modification and change time
//! to the nanosecond), never by reading them: any write changes the change time, which no
//! process can set back, so a write cannot hide, and the cost follows the number of files, not
//! their size times the number of dirty ones. (Hashing every dirty file twice per call took
//! about a second per snapshot with 3,000 dirty files; see the README.) A file written again with the
//! same bytes counts as changed: a read-only reviewer wrote it. Untracked files are found by
//! walking the work tree as `git status` does, into folders that are not ignored only.
//!
//! The parts of `.git` that make git run programs are checked too: `config` (and the per-work-tree
//! `config.worktree`), `hooks/` and `info/`. A reviewer that installs a hook or sets
//! `core.fsmonitor` has the user run its command on the next `git commit` or `git status`, so
//! that is a change like any other. Objects, refs and logs are not checked: git itself changes
//! them (a reviewer's `git status` may refresh the index, `git fetch` writes refs).

use std::collections::{BTreeMap, HashSet};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};

use git2::{Oid, Repository};

use crate::git::name_of;

/// What is checked under the git folder shared by all work trees, and under a linked work
/// tree's own git folder: everything that can make git run a program.
const GIT_SHARED: &[&str] = &["config", "config.worktree", "hooks", "info"];
const GIT_PER_WORKTREE: &[&str] = &["config.worktree"];
/// Files in those folders that git writes itself (`git gc` refreshes `info/refs`).
const GIT_WRITTEN: &[&str] = &["info/refs"];

/// At most this many files are fingerprinted under the git folder (a hostile `hooks/` full of
/// files must not make every call slow).
const GIT_FILES_CAP: usize = 5000;
/// At most this many untracked files are fingerprinted (a reviewer that floods the work tree is
/// reported by the files it made first).
const UNTRACKED_CAP: usize = 100_000;

/// `lstat` of a file at one moment: `None` when it is missing.
type Stat = Option<(u64, u64, u32, i64, i64, i64, i64)>;

/// The state of a repository at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    head: Option<Oid>,
    /// (path, stage) -> (blob, mode).
    index: BTreeMap<(Vec<u8>, u16), (Oid, u32)>,
    /// Tracked and untracked files of the work tree, by path.
    worktree: BTreeMap<Vec<u8>, Stat>,
    /// Files under the git folder that can run programs, by the path shown for them.
    git: BTreeMap<String, (u32, Stat)>,
}

/// How old the last snapshot of a folder may be to stand for "before" the next call: the time
/// git-debate itself takes between one call's end and the next one's start (reading an answer,
/// writing a round), in which nobody is expected to edit the tree.
const REUSE_WITHIN: std::time::Duration = std::time::Duration::from_secs(1);

/// The last snapshot taken of each folder, and when: the "after" of one call is the "before"
/// of the next, so a run takes one snapshot per call plus one, not two per call.
fn recent() -> &'static std::sync::Mutex<Vec<(PathBuf, std::time::Instant, Snapshot)>> {
    static RECENT: std::sync::OnceLock<
        std::sync::Mutex<Vec<(PathBuf, std::time::Instant, Snapshot)>>,
    > = std::sync::OnceLock::new();
    RECENT.get_or_init(Default::default)
}

impl Snapshot {
    /// The state of `dir` before a call: the snapshot taken at the end of the call before it
    /// when that was moments ago, else a new one ([`Snapshot::take`]).
    pub fn before_call(dir: &Path) -> Option<Snapshot> {
        let reused = {
            let recent = recent().lock().unwrap_or_else(|e| e.into_inner());
            recent
                .iter()
                .find(|(d, at, _)| d == dir && at.elapsed() <= REUSE_WITHIN)
                .map(|(_, _, s)| s.clone())
        };
        reused.or_else(|| Snapshot::take(dir))
    }

    /// The state of `dir` after a call, remembered for the next call's [`Snapshot::before_call`].
    pub fn after_call(dir: &Path) -> Option<Snapshot> {
        let snap = Snapshot::take(dir)?;
        let mut recent = recent().lock().unwrap_or_else(|e| e.into_inner());
        recent.retain(|(d, _, _)| d != dir);
        recent.push((dir.to_path_buf(), std::time::Instant::now(), snap.clone()));
        Some(snap)
    }

    /// Fingerprints the repository containing `dir`; `None` outside a repository with a work tree.
    pub fn take(dir: &Path) -> Option<Snapshot> {
        with_repository(dir, |repo| {
            let workdir = repo.workdir()?.to_path_buf();
            let head = repo.head().ok().and_then(|h| h.target());
            let index = index_entries(repo);
            let mut paths: Vec<&[u8]> = index.keys().map(|(p, _)| p.as_slice()).collect();
            paths.dedup();
            let mut worktree: BTreeMap<Vec<u8>, Stat> = stat_all(&workdir, &paths)
                .into_iter()
                .zip(&paths)
                .map(|(st, p)| (p.to_vec(), st))
                .collect();
            untracked(repo, &workdir, &mut worktree);
            let git = git_files(repo, &workdir);
            Some(Snapshot {
                head,
                index,
                worktree,
                git,
            })
        })
    }

    /// What changed between `self` (before) and `after`, one line per change.
    pub fn changes(&self, after: &Snapshot) -> Vec<String> {
        let mut out = Vec::new();
        if self.head != after.head {
            let short = |h: &Option<Oid>| {
                h.map_or("(unborn)".to_string(), |h| h.to_string()[..12].to_string())
            };
            out.push(format!(
                "HEAD moved: {} -> {}",
                short(&self.head),
                short(&after.head)
            ));
        }
        for (k, v) in &after.index {
            match self.index.get(k) {
                None => out.push(format!("index: {} added", name_of(&k.0))),
                Some(old) if old != v => out.push(format!("index: {} changed", name_of(&k.0))),
                _ => {}
            }
        }
        for k in self.index.keys().filter(|k| !after.index.contains_key(*k)) {
            out.push(format!("index: {} removed", name_of(&k.0)));
        }
        let tracked = |s: &Snapshot, p: &[u8]| s.index.contains_key(&(p.to_vec(), 0));
        for (path, st) in &after.worktree {
            let what = match (self.worktree.get(path), st) {
                (Some(old), new) if old == new => continue,
                // Newly tracked or untracked: the index lines say so.
                (None, _) if tracked(after, path) => continue,
                (None, _) => "created",
                (Some(_), None) => "deleted",
                (Some(None), Some(_)) => "created",
                (Some(Some(_)), Some(_)) => "modified",
            };
            out.push(format!("work tree: {} {what}", name_of(path)));
        }
        for path in self
            .worktree
            .keys()
            .filter(|p| !after.worktree.contains_key(*p) && !tracked(self, p))
        {
            out.push(format!("work tree: {} removed", name_of(path)));
        }
        for (path, sig) in &after.git {
            match self.git.get(path) {
                None => out.push(format!("git: {path} created")),
                Some(old) if old != sig => out.push(format!("git: {path} modified")),
                _ => {}
            }
        }
        for path in self.git.keys().filter(|p| !after.git.contains_key(*p)) {
            out.push(format!("git: {path} removed"));
        }
        out
    }
}

/// Runs `f` on the repository containing `dir`, opened once per folder and kept: a run
/// snapshots the same folder once per model call, and opening a repository (finding it,
/// resolving its paths, reading three config files) was a third of a snapshot's time in a small
/// one. What a snapshot reads is read from disk each time all the same: HEAD and the work tree
/// are never cached by libgit2, and the index is reloaded when its file changed
/// ([`index_entries`]).
fn with_repository<T>(dir: &Path, f: impl FnOnce(&Repository) -> Option<T>) -> Option<T> {
    static OPEN: std::sync::Mutex<Option<(PathBuf, Repository)>> = std::sync::Mutex::new(None);
    let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
    if !matches!(&*open, Some((d, _)) if d == dir) {
        *open = Some((dir.to_path_buf(), Repository::discover(dir).ok()?));
    }
    f(&open.as_ref()?.1)
}

/// The index as it is on disk now: (path, stage) -> (blob, mode).
fn index_entries(repo: &Repository) -> BTreeMap<(Vec<u8>, u16), (Oid, u32)> {
    let mut index = BTreeMap::new();
    let Ok(mut idx) = repo.index() else {
        return index;
    };
    // libgit2 keeps the index it read; an unforced read reloads it only when the file's size,
    // inode or modification time changed (git replaces it whole, so a write always shows),
    // without parsing and hashing an unchanged file again. A file removed since is not noticed
    // by that read, and an index that no longer exists has no entries.
    if !repo.path().join("index").exists() {
        return index;
    }
    if idx.read(false).is_err() {
        return index;
    }
    for e in idx.iter() {
        let stage = (e.flags >> 12) & 0x3;
        index.insert((e.path, stage), (e.id, e.mode));
    }
    index
}

/// Below this many files one thread stats them all: starting threads costs more than it saves.
const PARALLEL_FROM: usize = 2048;

/// The [`stat`] of each of `paths` under `workdir`, in order. A big tree is statted on up to
/// four threads: the kernel's path lookups are most of a snapshot's time, they run in parallel,
/// and a snapshot stands between the user and every model call.
fn stat_all(workdir: &Path, paths: &[&[u8]]) -> Vec<Stat> {
    let one = |p: &&[u8]| stat(&workdir.join(OsStr::from_bytes(p)));
    if paths.len() < PARALLEL_FROM {
        return paths.iter().map(one).collect();
    }
    // Asked only here: the answer reads cgroup files, which cost a small tree's snapshot more
    // than its stats.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    if threads < 2 {
        return paths.iter().map(one).collect();
    }
    let per = paths.len().div_ceil(threads);
    let parts: Option<Vec<Vec<Stat>>> = std::thread::scope(|s| {
        let handles: Vec<_> = paths
            .chunks(per)
            .map(|part| s.spawn(move || part.iter().map(one).collect::<Vec<_>>()))
            .collect();
        handles.into_iter().map(|h| h.join().ok()).collect()
    });
    // A part lost to a panic must not shift the others onto the wrong paths.
    match parts {
        Some(parts) => parts.concat(),
        None => paths.iter().map(one).collect(),
    }
}

fn stat(path: &Path) -> Stat {
    let m = std::fs::symlink_metadata(path).ok()?;
    Some((
        m.ino(),
        m.size(),
        m.mode(),
        m.mtime(),
        m.mtime_nsec(),
        m.ctime(),
        m.ctime_nsec(),
    ))
}

/// Adds the work tree's untracked files that are not ignored, walking only into folders that
/// hold tracked files or are neither tracked nor ignored (what `git status` shows).
fn untracked(repo: &Repository, workdir: &Path, files: &mut BTreeMap<Vec<u8>, Stat>) {
    let mut tracked_dirs: HashSet<Vec<u8>> = HashSet::new();
    for path in files.keys() {
        let mut end = path.len();
        while let Some(slash) = path[..end].iter().rposition(|&b| b == b'/') {
            if !tracked_dirs.insert(path[..slash].to_vec()) {
                break;
            }
            end = slash;
        }
    }
    let mut found = 0;
    let mut todo: Vec<Vec<u8>> = vec![Vec::new()];
    while let Some(dir) = todo.pop() {
        let full: PathBuf = workdir.join(OsStr::from_bytes(&dir));
        let Ok(entries) = std::fs::read_dir(&full) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.as_bytes();
            if dir.is_empty() && name == b".git" {
                continue;
            }
            let rel = if dir.is_empty() {
                name.to_vec()
            } else {
                [&dir[..], b"/", name].concat()
            };
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && tracked_dirs.contains(&rel) {
                todo.push(rel);
                continue;
            }
            if files.contains_key(&rel) {
                continue;
            }
            // libgit2 needs a trailing slash to apply a folder-only rule (`target/`).
            let probe = if is_dir {
                [&rel[..], b"/"].concat()
            } else {
                rel.clone()
            };
            if repo
                .is_path_ignored(Path::new(OsStr::from_bytes(&probe)))
                .unwrap_or(false)
            {
                continue;
            }
            if is_dir {
                // A nested repository is git's business, not a folder of files.
                if !full.join(OsStr::from_bytes(name)).join(".git").exists() {
                    todo.push(rel);
                }
                continue;
            }
            if found >= UNTRACKED_CAP {
                return;
            }
            found += 1;
            let st = stat(&workdir.join(OsStr::from_bytes(&rel)));
            files.insert(rel, st);
        }
    }
}

/// Fingerprints of the git folder's program-running files, named as a user would find them
/// (`.git/hooks/pre-commit` from the work tree when the folder is inside it).
fn git_files(repo: &Repository, workdir: &Path) -> BTreeMap<String, (u32, Stat)> {
    let mut out = BTreeMap::new();
    let common = repo.commondir().to_path_buf();
    let own = repo.path().to_path_buf();
    let mut todo: Vec<PathBuf> = GIT_SHARED.iter().map(|n| common.join(n)).collect();
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
        out.insert(shown(&p), (meta.mode(), stat(&p)));
    }
    out
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
    fn a_big_tree_statted_on_several_threads_keeps_each_file_with_its_own_state() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        git(d, &["init", "-q"]);
        let n = PARALLEL_FROM + 100;
        for i in 0..n {
            let dir = d.join(format!("d{}", i % 40));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(format!("f{i}.txt")), "x\n").unwrap();
        }
        git(d, &["add", "."]);
        let before = Snapshot::take(d).unwrap();
        assert_eq!(before.worktree.len(), n);
        assert!(before.worktree.values().all(Option::is_some));
        // One file near each end of the sorted list, and one deleted in the middle.
        std::fs::write(d.join("d0/f0.txt"), "y\n").unwrap();
        let late = format!("d{}/f{}.txt", (n - 11) % 40, n - 11);
        std::fs::write(d.join(&late), "y\n").unwrap();
        std::fs::remove_file(d.join("d20/f1020.txt")).unwrap();
        let mut c = before.changes(&Snapshot::take(d).unwrap());
        let mut want = vec![
            "work tree: d0/f0.txt modified".to_string(),
            "work tree: d20/f1020.txt deleted".to_string(),
            format!("work tree: {late} modified"),
        ];
        c.sort();
        want.sort();
        assert_eq!(c, want);
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
    fn the_repository_kept_open_still_reads_each_index_as_it_is_on_disk() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        git(d, &["init", "-q"]);
        std::fs::write(d.join("a.sh"), "a\n").unwrap();
        git(d, &["add", "."]);
        let first = Snapshot::take(d).unwrap();
        // An index of the same size, written within the same second: only the mode changed.
        git(d, &["update-index", "--chmod=+x", "a.sh"]);
        let second = Snapshot::take(d).unwrap();
        assert_eq!(first.changes(&second), ["index: a.sh changed"]);
        // No index at all: nothing staged, whatever was read before.
        std::fs::remove_file(d.join(".git/index")).unwrap();
        let third = Snapshot::take(d).unwrap();
        assert!(third.index.is_empty(), "{:?}", third.index);
        assert!(second
            .changes(&third)
            .contains(&"index: a.sh removed".to_string()));
        // And one written again after that is read again.
        git(d, &["add", "a.sh"]);
        assert_eq!(Snapshot::take(d).unwrap().index, first.index);
    }

    #[test]
    fn a_calls_after_is_the_next_calls_before() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        git(d, &["init", "-q"]);
        std::fs::write(d.join("a.txt"), "a\n").unwrap();
        let after = Snapshot::after_call(d).unwrap();
        // A change made after the call is the next call's: its "before" is the state the
        // last call left, not a second snapshot taken now.
        std::fs::write(d.join("b.txt"), "b\n").unwrap();
        let before = Snapshot::before_call(d).unwrap();
        assert_eq!(before, after);
        assert_eq!(
            before.changes(&Snapshot::take(d).unwrap()),
            ["work tree: b.txt created"]
        );
        // Another folder is not served another's snapshot.
        let other = tempfile::tempdir().unwrap();
        git(other.path(), &["init", "-q"]);
        assert_ne!(Snapshot::before_call(other.path()), Some(after));
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
        use std::os::unix::fs::PermissionsExt as _;
        let hook = d.join(".git/hooks/pre-commit");
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755)).unwrap();
        let c = now.changes(&Snapshot::take(d).unwrap());
        assert_eq!(c, vec!["git: .git/hooks/pre-commit modified".to_string()]);
    }

    #[test]
    fn deletions_new_folders_and_odd_names_count_and_ignored_files_do_not() {
        use std::os::unix::ffi::OsStrExt as _;
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        git(d, &["init", "-q"]);
        std::fs::write(d.join(".gitignore"), "/target/\n").unwrap();
        std::fs::write(d.join("a.txt"), "a\n").unwrap();
        git(d, &["add", "."]);
        git(d, &["commit", "-qm", "init"]);
        let before = Snapshot::take(d).unwrap();
        std::fs::remove_file(d.join("a.txt")).unwrap();
        std::fs::create_dir_all(d.join("target/debug")).unwrap();
        std::fs::write(d.join("target/debug/out.o"), "ignored\n").unwrap();
        std::fs::create_dir_all(d.join("new/deep")).unwrap();
        std::fs::write(d.join("new/deep/f.txt"), "n\n").unwrap();
        // Two names a lossy conversion would make one.
        for name in [&b"caf\xe9"[..], b"caf\xe8"] {
            std::fs::write(d.join(std::ffi::OsStr::from_bytes(name)), "x\n").unwrap();
        }
        let mut c = before.changes(&Snapshot::take(d).unwrap());
        c.sort();
        assert_eq!(
            c,
            [
                "work tree: \"caf\\350\" created",
                "work tree: \"caf\\351\" created",
                "work tree: a.txt deleted",
                "work tree: new/deep/f.txt created",
            ],
        );
    }

    #[test]
    fn outside_a_repository_there_is_nothing_to_check() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(Snapshot::take(tmp.path()).is_none());
    }
}
