//! A clean, redacted copy of the reviewed revision for the model CLIs to run in.
//!
//! Agent CLIs read files with their own tools, and those reads bypass the artifact's redaction:
//! in the user's work tree a reviewer reads a gitignored `.env` as easily as the diff (observed
//! with the real claude and codex). So by default every model call of a review runs in a private
//! temporary directory holding only what is being reviewed, with every text file (its name too)
//! passed through the same redactor as the artifact, and no `.git` (no history, no config, no
//! hooks to touch).
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
//! Left out: binary files (a NUL byte in their first 8 KB: the redactor reads text, so a secret
//! in a UTF-16 `.env` or after a stray NUL would pass unredacted), every symlink (a link is the
//! way out of a copy: a chain of relative links can climb to `/` or `/proc/self/cwd` however each
//! one is checked as text), files over [`MAX_FILE`] bytes and whatever comes after [`MAX_TOTAL`]
//! bytes (generated or vendored blobs; the export is written as the tree is walked, so a huge
//! revision is never read whole), submodules, and entries a crafted tree repeats or nests under
//! a file. Nothing is ever created through a link, because no link is ever created.
//!
//! The directory is `<base>/git-debate-<pid>-<n>/tree/<repo name>`, mode 0700 (`<base>`: see
//! [`crate::sys::scratch::base_dir`], a memory file system unless `TMPDIR` says otherwise), outside the repository
//! and the home directory (a temp dir configured inside either falls back to `/tmp`,
//! since both are what claude's deny rules guard); the fixed `tree/` level keeps the repository's
//! name from ever colliding with our own scratch files beside it; it is removed when the
//! [`Export`] is dropped, which covers errors and the graceful Ctrl-C. A process killed outright
//! leaves one behind: the next export removes leftovers whose process is gone.

use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use anyhow::{Context, Result};
use git2::{ObjectType, Oid, Repository};

use crate::choices::{Tools, Workspace};
use crate::sandbox::confine::Sandbox;
use crate::sys::scratch::private_dir;

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

/// A file bigger than this is left out: a reviewer reads source, not generated blobs.
pub const MAX_FILE: u64 = 4 << 20;
/// Past this many bytes in all, the rest of the revision is left out.
pub const MAX_TOTAL: u64 = 256 << 20;

/// Copies `source` of `repo` into a new private directory named after the repository.
pub fn create(repo: Option<&crate::git::Repo>, source: &Source) -> Result<Export> {
    let workdir = repo.and_then(|r| r.workdir()).map(Path::to_path_buf);
    // Room for four full exports: memory is shared with everything else on the machine.
    let scratch = private_dir(workdir.as_deref(), 4 * MAX_TOTAL)?;
    let name = workdir
        .as_deref()
        .and_then(Path::file_name)
        .map_or_else(|| "review".into(), |n| n.to_string_lossy().into_owned());
    let mut export = Export {
        tree: scratch.join("tree").join(name),
        scratch,
        files: 0,
    };
    std::fs::DirBuilder::new()
        .mode(0o700)
        .recursive(true)
        .create(&export.tree)
        .with_context(|| format!("cannot create {}", export.tree.display()))?;
    let out = Writer {
        root: export.tree.clone(),
        files: AtomicUsize::new(0),
        bytes: AtomicU64::new(0),
    };
    match (repo, source) {
        (Some(repo), Source::Tree(id)) => match repo.libgit2() {
            Some(lib) => from_tree(lib, id, &out)?,
            // A layout libgit2 cannot open (sha256, reftable): the files as git lists them.
            None => crate::git::tree_files(repo, id, MAX_FILE, &mut |path, exec, bytes| {
                if out.fits(bytes.len() as u64) {
                    out.put(Path::new(std::ffi::OsStr::from_bytes(path)), bytes, exec);
                }
            })?,
        },
        (Some(repo), Source::WorkTree { untracked }) => from_worktree(repo, untracked, &out)?,
        _ => {}
    }
    export.files = out.files.into_inner();
    Ok(export)
}

/// Runs `each` over `items` on a few threads: redacting and writing tens of thousands of files is
/// CPU work that splits cleanly (each file on its own). Small revisions stay on this thread.
fn in_parallel<T: Sync>(items: &[T], each: impl Fn(&[T]) -> Result<()> + Sync) -> Result<()> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    if threads < 2 || items.len() < 512 {
        return each(items);
    }
    let per = items.len().div_ceil(threads);
    std::thread::scope(|s| {
        let workers: Vec<_> = items
            .chunks(per)
            .map(|part| s.spawn(|| each(part)))
            .collect();
        workers
            .into_iter()
            .map(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("an export thread failed")))
            })
            .collect::<Result<Vec<()>>>()
            .map(|_| ())
    })
}

impl Source {
    /// The revision a change resolved to: its head commit, the index's tree, or the work tree
    /// with the untracked files it adds.
    pub fn of_change(change: &crate::git::Change) -> Source {
        match (&change.head, &change.index_tree) {
            (Some(id), _) | (None, Some(id)) => Source::Tree(id.clone()),
            (None, None) => Source::WorkTree {
                untracked: change
                    .files
                    .iter()
                    .filter(|f| f.status == crate::git::Status::Untracked)
                    .map(|f| f.path.clone())
                    .collect(),
            },
        }
    }

    /// The same, from a session's `metadata.json` (for `resume`).
    pub fn of_metadata(meta: &crate::store::metadata::Review) -> Source {
        if !meta.source.is_scope() {
            return Source::Empty;
        }
        let resolved = meta.scope.resolved.as_ref();
        match resolved.and_then(|r| r.head.as_ref().or(r.index_tree.as_ref())) {
            Some(id) => Source::Tree(id.clone()),
            None => Source::WorkTree {
                untracked: meta
                    .files
                    .iter()
                    .filter(|f| f.status == "untracked")
                    .map(|f| f.path.clone())
                    .collect(),
            },
        }
    }
}

/// The export (kept alive by the caller for the whole review) and the confinement of its calls,
/// as `debate.reviewerWorkspace` and `debate.reviewerTools` say.
pub fn prepare(
    repo: Option<&crate::git::Repo>,
    source: &Source,
    settings: &crate::settings::Settings,
) -> Result<(Option<Export>, Sandbox)> {
    let no_tools = settings.reviewer_tools == Tools::None;
    if settings.reviewer_workspace == Workspace::Worktree {
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
        deny: crate::sandbox::confine::deny_list(&guarded, &export.tree),
        no_tools,
    };
    Ok((Some(export), sandbox))
}

fn from_tree(repo: &Repository, id: &str, out: &Writer) -> Result<()> {
    let tree = repo
        .find_object(Oid::from_str(id)?, None)
        .and_then(|o| o.peel_to_tree())
        .with_context(|| format!("cannot read tree {id} to export the reviewed revision"))?;
    // Files only: a link (0o120000) or a submodule is left out. Names are kept as bytes: a
    // name that is not UTF-8 is copied as it is (libgit2's `walk` gives up on such a folder).
    let mut blobs: Vec<(PathBuf, Oid, bool)> = Vec::new();
    let mut todo = vec![(PathBuf::new(), tree)];
    while let Some((dir, tree)) = todo.pop() {
        for entry in &tree {
            let path = dir.join(std::ffi::OsStr::from_bytes(entry.name_bytes()));
            let mode = entry.filemode();
            match entry.kind() {
                Some(ObjectType::Tree) => todo.push((
                    path,
                    repo.find_tree(entry.id())
                        .context("cannot read a folder of the reviewed revision")?,
                )),
                Some(ObjectType::Blob) if mode == 0o100644 || mode == 0o100755 => {
                    blobs.push((path, entry.id(), mode == 0o100755))
                }
                _ => {}
            }
        }
    }
    // A repository handle is not shared between threads: each opens its own.
    let git_dir = repo.path().to_path_buf();
    in_parallel(&blobs, |part| {
        let repo = Repository::open(&git_dir).context("cannot open the repository to export")?;
        let odb = repo.odb().context("cannot open the object database")?;
        for (path, id, exec) in part {
            // The size from the object's header, so a huge blob is never inflated.
            let fits = odb
                .read_header(*id)
                .is_ok_and(|(size, _)| out.fits(size as u64));
            if fits {
                let blob = repo
                    .find_blob(*id)
                    .context("cannot read a blob of the reviewed revision")?;
                out.put(path, blob.content(), *exec);
            }
        }
        Ok(())
    })
}

fn from_worktree(repo: &crate::git::Repo, untracked: &[String], out: &Writer) -> Result<()> {
    let root = repo.workdir().context("no work tree to export")?;
    let as_path = |bytes: &[u8]| PathBuf::from(std::ffi::OsStr::from_bytes(bytes));
    let mut paths: Vec<PathBuf> = repo
        .tracked_files()
        .context("cannot list the tracked files")?
        .iter()
        .map(|p| as_path(p))
        .collect();
    // The change names files as it shows them (see `scope::name_of`).
    paths.extend(
        untracked
            .iter()
            .map(|p| as_path(&crate::git::path_bytes(p))),
    );
    in_parallel(&paths, |part| {
        for path in part {
            let Some(full) = inside(root, path) else {
                continue;
            };
            // Never through a directory symlink, and never a link itself: a regular file where
            // the index says it is.
            let Ok(meta) = std::fs::symlink_metadata(&full) else {
                continue; // deleted in the work tree
            };
            if !meta.is_file() || !out.fits(meta.len()) {
                continue;
            }
            let Ok(bytes) = crate::sys::files::read_regular_no_link(&full, MAX_FILE) else {
                continue; // changed under us, or became something else
            };
            out.put(path, &bytes, meta.permissions().mode() & 0o111 != 0);
        }
        Ok(())
    })
}

/// `root/path` when `path` is plain (no `..`, not absolute) and no directory on the way is a
/// symlink.
fn inside(root: &Path, rel: &Path) -> Option<PathBuf> {
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

/// Writes the export as the revision is walked, within the size caps; shared by the export's
/// threads.
struct Writer {
    root: PathBuf,
    files: AtomicUsize,
    bytes: AtomicU64,
}

impl Writer {
    /// Whether a file of `size` bytes is to be written; its room under [`MAX_TOTAL`] is taken
    /// at once, so threads never overshoot the cap together.
    fn fits(&self, size: u64) -> bool {
        if size > MAX_FILE {
            return false;
        }
        let before = self.bytes.fetch_add(size, Ordering::Relaxed);
        if before + size > MAX_TOTAL {
            self.bytes.fetch_sub(size, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// Writes one text file, redacted; binary content and paths that are not plain are left out,
    /// and so is an entry that cannot be placed (a crafted tree repeating a path, or nesting one
    /// under a file): the export is a courtesy to the reviewer, never a reason to fail a review.
    fn put(&self, path: &Path, bytes: &[u8], exec: bool) {
        if bytes[..bytes.len().min(8192)].contains(&0) {
            return;
        }
        // A secret in a file's name (`keys/sk_live_….txt`) is redacted here as in the artifact.
        let name = path.to_string_lossy();
        let shown = crate::redact::redact_path(&name);
        let shown = if shown == name {
            path.to_path_buf()
        } else {
            PathBuf::from(shown)
        };
        let Some(dest) = place(&self.root, &shown) else {
            return;
        };
        let text = String::from_utf8_lossy(bytes);
        let red = crate::redact::redact(&text, Some(&path.to_string_lossy()));
        let bytes = if red.count == 0 {
            bytes
        } else {
            red.text.as_bytes()
        };
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if exec { 0o700 } else { 0o600 })
            .open(&dest)
            .and_then(|mut f| f.write_all(bytes));
        if written.is_ok() {
            self.files.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The destination of `path` under `root` with its directories created; `None` for a path that
/// is not plain, names a `.git`, or cannot be placed.
fn place(root: &Path, rel: &Path) -> Option<PathBuf> {
    // A crafted tree may name a `.git`: the export has none, and must not get one.
    let plain = |c: Component| matches!(c, Component::Normal(n) if !n.to_string_lossy().eq_ignore_ascii_case(".git"));
    if rel.as_os_str().is_empty() || !rel.components().all(plain) {
        return None;
    }
    let dest = root.join(rel);
    if let Some(parent) = dest.parent() {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(parent)
            .ok()?;
    }
    Some(dest)
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
