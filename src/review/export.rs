//! A clean, redacted copy of the reviewed revision for the model CLIs to run in.
//!
//! Agent CLIs read files with their own tools, and those reads bypass the artifact's redaction:
//! in the user's work tree a reviewer reads a gitignored `.env` as easily as the diff (observed
//! with the real claude and codex). So by default every model call of a review runs in a private
//! temporary directory holding only what is being reviewed, with every text file passed through
//! the same redactor as the artifact, and no `.git` (no history, no config, no hooks to touch).
//!
//! What "the reviewed revision" is, per scope:
//! - `commit:`, `range:`, `base:`: the tree of the head commit.
//! - `staged`: the tree the index would commit (blobs from the object database, so unstaged
//!   edits do not leak in).
//! - `uncommitted`: the tracked files as they are in the work tree, plus the untracked files the
//!   change lists: those are not ignored, and their content is already in the artifact, so
//!   showing them whole gives the reviewer context and nothing new. Ignored files never come.
//! - `file:` and explicit text: an empty directory (the artifact is the whole input).
//!
//! Binary files (a NUL byte in their first 8 KB) are copied as they are: the redactor reads text,
//! and the artifact never shows them either. Symlinks are kept only when their target stays inside
//! the export (relative, no way out through `..`); any other symlink is left out, so no read is
//! ever followed out of the copy. Submodules are left out.
//!
//! The directory is `<tmp>/git-debate-<pid>-<n>/<repo name>`, mode 0700, outside the repository
//! (a temp dir configured inside the repository falls back to `/tmp`); it is removed when the
//! [`Export`] is dropped, which covers errors and the graceful Ctrl-C. A process killed outright
//! leaves one behind: the next export removes leftovers whose process is gone.

use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use anyhow::{Context, Result};
use git2::{ObjectType, Oid, Repository, TreeWalkMode, TreeWalkResult};

use crate::backend::confine::Sandbox;

/// The prefix of every export directory, to find our own leftovers.
const PREFIX: &str = "git-debate-";

/// What to copy.
#[derive(Debug, Clone)]
pub enum Source {
    /// A commit's tree, or a tree object (the one the index would commit).
    Tree(String),
    /// The index's paths read from the work tree, plus these untracked paths.
    WorkTree { untracked: Vec<String> },
    /// Nothing: a private empty directory.
    Empty,
}

/// A live export; removed when dropped.
#[derive(Debug)]
pub struct Export {
    /// The private parent (holds nothing but `tree` and our own scratch files).
    pub scratch: PathBuf,
    /// Where the models run.
    pub tree: PathBuf,
    pub files: usize,
}

impl Drop for Export {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// One entry to write.
enum Item {
    File {
        path: String,
        bytes: Vec<u8>,
        exec: bool,
    },
    Link {
        path: String,
        target: Vec<u8>,
    },
}

/// Copies `source` of `repo` into a new private directory named after the repository.
pub fn create(repo: Option<&Repository>, source: &Source) -> Result<Export> {
    let workdir = repo.and_then(|r| r.workdir()).map(Path::to_path_buf);
    let scratch = private_dir(workdir.as_deref())?;
    let name = workdir
        .as_deref()
        .and_then(Path::file_name)
        .map_or_else(|| "review".into(), |n| n.to_string_lossy().into_owned());
    let mut export = Export {
        tree: scratch.join(name),
        scratch,
        files: 0,
    };
    std::fs::DirBuilder::new()
        .mode(0o700)
        .create(&export.tree)
        .with_context(|| format!("cannot create {}", export.tree.display()))?;
    let items = match (repo, source) {
        (Some(repo), Source::Tree(id)) => from_tree(repo, id)?,
        (Some(repo), Source::WorkTree { untracked }) => from_worktree(repo, untracked)?,
        _ => Vec::new(),
    };
    export.files = write_all(&export.tree, items)?;
    Ok(export)
}

impl Source {
    /// The revision a change resolved to: its head commit, the index's tree, or the work tree
    /// with the untracked files it adds.
    pub fn of_change(change: &crate::scope::Change) -> Source {
        match (&change.head, &change.index_tree) {
            (Some(id), _) | (None, Some(id)) => Source::Tree(id.clone()),
            (None, None) => Source::WorkTree {
                untracked: change
                    .files
                    .iter()
                    .filter(|f| f.status == crate::scope::Status::Untracked)
                    .map(|f| f.path.clone())
                    .collect(),
            },
        }
    }

    /// The same, from a session's `metadata.json` (for `resume`).
    pub fn of_metadata(meta: &serde_json::Value) -> Source {
        if meta["source"]["kind"].as_str() != Some("scope") {
            return Source::Empty;
        }
        let resolved = &meta["scope"]["resolved"];
        match resolved["head"]
            .as_str()
            .or(resolved["index_tree"].as_str())
        {
            Some(id) => Source::Tree(id.to_string()),
            None => Source::WorkTree {
                untracked: meta["files"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|f| f["status"] == "untracked")
                    .filter_map(|f| f["path"].as_str().map(str::to_string))
                    .collect(),
            },
        }
    }
}

/// The export (kept alive by the caller for the whole review) and the confinement of its calls,
/// as `debate.reviewerWorkspace` and `debate.reviewerTools` say.
pub fn prepare(
    repo: Option<&Repository>,
    source: &Source,
    settings: &crate::config::Settings,
) -> Result<(Option<Export>, Sandbox)> {
    let no_tools = settings.reviewer_tools == "none";
    if settings.reviewer_workspace == "worktree" {
        // A tool-less gemini still needs a private place for its policy file.
        let scratch = no_tools.then(|| create(None, &Source::Empty)).transpose()?;
        let sandbox = Sandbox {
            scratch: scratch.as_ref().map(|e| e.scratch.clone()),
            no_tools,
            ..Default::default()
        };
        return Ok((scratch, sandbox));
    }
    let export = create(repo, source)?;
    let mut guarded: Vec<&Path> = Vec::new();
    if let Some(r) = repo {
        guarded.extend(r.workdir());
        guarded.push(r.commondir());
    }
    let sandbox = Sandbox {
        dir: Some(export.tree.clone()),
        scratch: Some(export.scratch.clone()),
        deny: crate::backend::confine::deny_list(&guarded, &export.tree),
        no_tools,
    };
    Ok((Some(export), sandbox))
}

fn from_tree(repo: &Repository, id: &str) -> Result<Vec<Item>> {
    let tree = repo
        .find_object(Oid::from_str(id)?, None)
        .and_then(|o| o.peel_to_tree())
        .with_context(|| format!("cannot read tree {id} to export the reviewed revision"))?;
    let mut items = Vec::new();
    let mut failed = None;
    tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
        if entry.kind() != Some(ObjectType::Blob) {
            return TreeWalkResult::Ok;
        }
        let path = format!("{dir}{}", String::from_utf8_lossy(entry.name_bytes()));
        match repo.find_blob(entry.id()) {
            Ok(blob) => items.push(item(path, blob.content().to_vec(), entry.filemode())),
            Err(e) => failed = Some(e),
        }
        TreeWalkResult::Ok
    })?;
    match failed {
        Some(e) => Err(e).context("cannot read a blob of the reviewed revision"),
        None => Ok(items),
    }
}

fn from_worktree(repo: &Repository, untracked: &[String]) -> Result<Vec<Item>> {
    let root = repo.workdir().context("no work tree to export")?;
    let index = repo.index().context("cannot read the index")?;
    let mut paths: Vec<(String, i32)> = index
        .iter()
        .filter(|e| (e.flags >> 12) & 0x3 == 0 && e.mode != 0o160000)
        .map(|e| (String::from_utf8_lossy(&e.path).into_owned(), e.mode as i32))
        .collect();
    paths.extend(untracked.iter().map(|p| (p.clone(), 0o100644)));
    let mut items = Vec::new();
    for (path, mode) in paths {
        let Some(full) = inside(root, &path) else {
            continue;
        };
        // Never through a directory symlink: the file must be where the index says it is.
        let Ok(meta) = std::fs::symlink_metadata(&full) else {
            continue; // deleted in the work tree
        };
        if meta.file_type().is_symlink() {
            if let Ok(target) = std::fs::read_link(&full) {
                let target = target.as_os_str().as_encoded_bytes().to_vec();
                items.push(Item::Link { path, target });
            }
        } else if meta.is_file() {
            let bytes = std::fs::read(&full).with_context(|| format!("cannot read {path}"))?;
            let exec = meta.permissions().mode() & 0o111 != 0 || mode == 0o100755;
            items.push(Item::File { path, bytes, exec });
        }
    }
    Ok(items)
}

/// `root/path` when `path` is plain (no `..`, not absolute) and no directory on the way is a
/// symlink.
fn inside(root: &Path, path: &str) -> Option<PathBuf> {
    let rel = Path::new(path);
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return None;
    }
    let mut at = root.to_path_buf();
    let parts: Vec<_> = rel.components().collect();
    for c in &parts[..parts.len().saturating_sub(1)] {
        at.push(c);
        if !std::fs::symlink_metadata(&at).ok()?.is_dir() {
            return None;
        }
    }
    Some(root.join(rel))
}

fn item(path: String, bytes: Vec<u8>, mode: i32) -> Item {
    if mode == 0o120000 {
        Item::Link {
            path,
            target: bytes,
        }
    } else {
        Item::File {
            path,
            bytes,
            exec: mode == 0o100755,
        }
    }
}

/// Writes files first, then links (so no file is ever written through a link), and returns how
/// many entries were written.
fn write_all(root: &Path, items: Vec<Item>) -> Result<usize> {
    let (files, links): (Vec<_>, Vec<_>) = items
        .into_iter()
        .partition(|i| matches!(i, Item::File { .. }));
    let mut n = 0;
    for it in files.into_iter().chain(links) {
        match it {
            Item::File { path, bytes, exec } => {
                let Some(dest) = place(root, &path)? else {
                    continue;
                };
                let bytes = redacted(&path, bytes);
                let mut f = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(if exec { 0o700 } else { 0o600 })
                    .open(&dest)
                    .with_context(|| format!("cannot write {}", dest.display()))?;
                f.write_all(&bytes)?;
                n += 1;
            }
            Item::Link { path, target } => {
                let target = PathBuf::from(String::from_utf8_lossy(&target).into_owned());
                if !stays_inside(&path, &target) {
                    continue;
                }
                if let Some(dest) = place(root, &path)? {
                    if std::os::unix::fs::symlink(&target, &dest).is_ok() {
                        n += 1;
                    }
                }
            }
        }
    }
    Ok(n)
}

/// The destination of `path` under `root` with its directories created; `None` for a path that
/// is not plain.
fn place(root: &Path, path: &str) -> Result<Option<PathBuf>> {
    let rel = Path::new(path);
    // A crafted tree may name a `.git`: the export has none, and must not get one.
    let plain = |c: Component| matches!(c, Component::Normal(n) if !n.to_string_lossy().eq_ignore_ascii_case(".git"));
    if path.is_empty() || !rel.components().all(plain) {
        return Ok(None);
    }
    let dest = root.join(rel);
    if let Some(parent) = dest.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    Ok(Some(dest))
}

/// Text goes through the artifact's redactor; binary content is kept as it is.
fn redacted(path: &str, bytes: Vec<u8>) -> Vec<u8> {
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return bytes;
    }
    let text = String::from_utf8_lossy(&bytes);
    let out = crate::redact::redact(&text, Some(path));
    if out.count == 0 {
        return bytes;
    }
    out.text.into_bytes()
}

/// A link target that, read from the link's directory, stays inside the export.
fn stays_inside(link: &str, target: &Path) -> bool {
    if target.is_absolute() {
        return false;
    }
    let mut depth = Path::new(link).components().count() as i64 - 1;
    for c in target.components() {
        match c {
            Component::Normal(_) => depth += 1,
            Component::CurDir => {}
            Component::ParentDir => depth -= 1,
            _ => return false,
        }
        if depth < 0 {
            return false;
        }
    }
    true
}

/// A new 0700 directory in the temp dir (never inside the repository), after removing leftovers
/// of dead processes.
fn private_dir(workdir: Option<&Path>) -> Result<PathBuf> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let mut base = std::env::temp_dir();
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    if let Some(w) = workdir {
        if canon(&base).starts_with(canon(w)) {
            base = PathBuf::from("/tmp");
        }
    }
    remove_leftovers(&base);
    let pid = std::process::id();
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("{PREFIX}{pid}-{n}"));
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(e).with_context(|| {
                    format!(
                        "cannot create a private directory for the reviewer in {}: set TMPDIR \
                         to a writable directory",
                        base.display()
                    )
                })
            }
        }
    }
}

/// Removes `git-debate-<pid>-<n>` directories whose process no longer runs.
fn remove_leftovers(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(PREFIX)
            .and_then(|r| r.split_once('-'))
            .and_then(|(p, n)| n.parse::<u32>().ok().and(p.parse::<i32>().ok()))
        else {
            continue;
        };
        // SAFETY: signal 0 only asks whether the process exists.
        let gone = unsafe { libc::kill(pid, 0) } != 0
            && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        let ours = e
            .metadata()
            .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == unsafe { libc::getuid() })
            .unwrap_or(false);
        if gone && ours && e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
