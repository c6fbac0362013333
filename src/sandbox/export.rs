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
//!
//! Cost: a review exports at most once, and only when a call that can read files first asks
//! ([`Lazy`]); every file comes from the blob store of [`crate::sandbox::cache`] by hard link,
//! so only files no earlier export showed are read and redacted. The export's files are
//! read-only, as the store's are. A commit's tree is not even linked whole: the repository's
//! last export is kept and brought up to date by the difference of the two trees
//! ([`crate::sandbox::kept`]), so the pre-commit hook's next commit in git/git links a few files
//! instead of making 4,800 links and folders and removing them again.

use std::io::Write as _;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use anyhow::{Context as _, Result};
use git2::{ObjectType, Oid, Repository};

use crate::choices::{Tools, Workspace};
use crate::sandbox::cache::{Hit, Store};
use crate::sandbox::confine::Sandbox;
use crate::sandbox::kept;
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
    /// Files read and redacted for this export (the rest came from the cache).
    pub redacted: usize,
    /// Whether it was a kept export brought up to date (see [`crate::sandbox::kept`]).
    pub updated: bool,
    /// Set when the export may be kept for the next run once dropped.
    seal: Option<kept::Seal>,
}

impl Drop for Export {
    fn drop(&mut self) {
        if let Some(seal) = &self.seal {
            kept::keep(&self.tree, seal);
        }
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
        redacted: 0,
        updated: false,
        seal: None,
    };
    let store = match (repo, source) {
        (Some(_), Source::Tree(_) | Source::WorkTree { .. }) => {
            export.scratch.parent().and_then(Store::open)
        }
        _ => None,
    };
    let out = Writer::new(export.tree.clone(), store);
    match (repo, source) {
        (Some(repo), Source::Tree(id)) => match repo.libgit2() {
            Some(lib) => {
                let tree = lib
                    .find_object(Oid::from_str(id)?, None)
                    .and_then(|o| o.peel_to_tree())
                    .with_context(|| {
                        format!("cannot read tree {id} to export the reviewed revision")
                    })?;
                let (out, updated) = tree_export(lib, repo.commondir(), &tree, out)?;
                export.updated = updated;
                export.seal = out.seal(&export.scratch, repo.commondir(), tree.id());
                return Ok(export.with_counts(out));
            }
            // A layout libgit2 cannot open (sha256, reftable): the files as git lists them.
            None => {
                out.make_root()?;
                crate::git::tree_files(repo, id, MAX_FILE, &mut |path, exec, bytes| {
                    if out.fits(bytes.len() as u64) {
                        out.put(
                            Path::new(std::ffi::OsStr::from_bytes(path)),
                            bytes,
                            exec,
                            None,
                        );
                    }
                })?;
            }
        },
        (Some(repo), Source::WorkTree { untracked }) => {
            out.make_root()?;
            from_worktree(repo, untracked, &out)?;
        }
        _ => out.make_root()?,
    }
    Ok(export.with_counts(out))
}

impl Export {
    fn with_counts(mut self, out: Writer) -> Export {
        if let Some(store) = &out.store {
            store.bound();
        }
        self.files = out.files.into_inner();
        self.redacted = out.redacted.into_inner();
        self
    }
}

/// The export of `tree`: the repository's kept export brought up to date when there is one
/// ([`crate::sandbox::kept`]), else made afresh; whether it was an update.
fn tree_export(
    repo: &Repository,
    commondir: &Path,
    tree: &git2::Tree,
    out: Writer,
) -> Result<(Writer, bool)> {
    let slot = out.store.as_ref().map(|s| kept::slot(s.dir(), commondir));
    if let Some(slot) = &slot {
        std::fs::DirBuilder::new()
            .mode(0o700)
            .recursive(true)
            .create(out.root.parent().unwrap_or(&out.root))
            .with_context(|| format!("cannot create {}", out.root.display()))?;
        if let Some(stamp) = kept::take(slot, &out.root) {
            out.files.store(stamp.files, Ordering::Relaxed);
            out.bytes.store(stamp.bytes, Ordering::Relaxed);
            if update(repo, &stamp.tree, tree, &out)? {
                return Ok((out, true));
            }
            // Not a tree this repository has (pruned), or an update it cannot make: afresh.
            let _ = std::fs::remove_dir_all(&out.root);
            let out = Writer::new(out.root.clone(), out.store);
            out.make_root()?;
            from_tree(repo, tree, &out)?;
            return Ok((out, false));
        }
    }
    out.make_root()?;
    from_tree(repo, tree, &out)?;
    Ok((out, false))
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

/// Where a review's calls run, made when first needed: the export of the reviewed revision for
/// a call that can read files, a private empty folder for one that cannot (a reviewer with no
/// tools, a backend with no file access). A review whose calls never read files never exports
/// (the hook's clean commit with `--reviewer-tools none`), and one that does exports once, however
/// many calls and threads ask.
#[derive(Debug)]
pub struct Lazy {
    /// A handle of its own on the repository (the caller's is borrowed, and not for threads).
    repo: std::sync::Mutex<Option<crate::git::Repo>>,
    source: Source,
    guarded: Vec<PathBuf>,
    /// The empty folder (also where gemini's policy file goes).
    empty: Export,
    /// The export; `None` inside when it could not be made (its calls then run in `empty`,
    /// with no tools: less to read, never more).
    full: std::sync::OnceLock<Option<Export>>,
}

impl Lazy {
    /// The confinement of one call: `reads_files` says whether this call's CLI can read files at
    /// all; `no_tools` is passed on for the CLI's own switch.
    pub fn sandbox(&self, reads_files: bool, no_tools: bool) -> Sandbox {
        let export = reads_files.then(|| self.export()).flatten();
        match export {
            Some(export) => Sandbox {
                dir: Some(export.tree.clone()),
                scratch: Some(export.scratch.clone()),
                deny: crate::sandbox::confine::deny_list(
                    &self
                        .guarded
                        .iter()
                        .map(PathBuf::as_path)
                        .collect::<Vec<_>>(),
                    &export.tree,
                ),
                no_tools,
            },
            None => Sandbox {
                dir: Some(self.empty.tree.clone()),
                scratch: Some(self.empty.scratch.clone()),
                deny: crate::sandbox::confine::deny_list(
                    &self
                        .guarded
                        .iter()
                        .map(PathBuf::as_path)
                        .collect::<Vec<_>>(),
                    &self.empty.tree,
                ),
                // It failed to export: the call gets nothing to read rather than the repository.
                no_tools: no_tools || reads_files,
            },
        }
    }

    /// The export, made on the first call that needs it.
    pub fn export(&self) -> Option<&Export> {
        self.full
            .get_or_init(|| {
                let repo = self.repo.lock().unwrap_or_else(|e| e.into_inner());
                create(repo.as_ref(), &self.source)
                    .map_err(|e| {
                        crate::errln!(
                            "warning: cannot export the reviewed revision ({e:#}); the models \
                             run with nothing to read"
                        );
                    })
                    .ok()
            })
            .as_ref()
    }

    /// Whether the export was made (for tests and the session's record).
    pub fn exported(&self) -> bool {
        self.full.get().is_some_and(Option::is_some)
    }
}

/// What [`prepare`] sets up; kept alive by the caller for the whole review (dropping it removes
/// the folders).
#[derive(Debug)]
pub struct Prepared {
    /// With `debate.reviewerWorkspace = export`: where each call runs, made as calls need it.
    pub lazy: Option<Lazy>,
    /// With `worktree`: the confinement of every call (the reviewer's `no_tools` applies to its
    /// calls only), and the private folder it names.
    pub sandbox: Sandbox,
    _scratch: Option<Export>,
}

/// The places a review's calls run in, as `debate.reviewerWorkspace` and `debate.reviewerTools`
/// say. Nothing is exported here: see [`Lazy`].
pub fn prepare(
    repo: Option<&crate::git::Repo>,
    source: &Source,
    settings: &crate::settings::Settings,
) -> Result<Prepared> {
    let no_tools = settings.reviewer_tools == Tools::None;
    if settings.reviewer_workspace == Workspace::Worktree {
        // A tool-less gemini still needs a private place for its policy file.
        let scratch = no_tools.then(|| create(None, &Source::Empty)).transpose()?;
        let sandbox = Sandbox {
            scratch: scratch.as_ref().map(|e| e.scratch.clone()),
            no_tools,
            ..Default::default()
        };
        return Ok(Prepared {
            lazy: None,
            sandbox,
            _scratch: scratch,
        });
    }
    let mut guarded: Vec<PathBuf> = Vec::new();
    if let Some(r) = repo {
        guarded.extend(r.workdir().map(Path::to_path_buf));
        guarded.push(r.commondir().to_path_buf());
    }
    let empty = create(None, &Source::Empty)?;
    Ok(Prepared {
        sandbox: Sandbox {
            no_tools,
            ..Default::default()
        },
        lazy: Some(Lazy {
            repo: std::sync::Mutex::new(repo.map(crate::git::Repo::reopen).transpose()?),
            source: match source {
                Source::Tree(_) | Source::WorkTree { .. } if repo.is_some() => source.clone(),
                _ => Source::Empty,
            },
            guarded,
            empty,
            full: std::sync::OnceLock::new(),
        }),
        _scratch: None,
    })
}

/// The export made at once and the confinement of every call, for callers whose every call
/// reads files (a debate's sides, which all keep their tools); the caller keeps the export alive.
pub fn prepare_now(
    repo: Option<&crate::git::Repo>,
    source: &Source,
    settings: &crate::settings::Settings,
) -> Result<(Option<Export>, Sandbox)> {
    let no_tools = settings.reviewer_tools == Tools::None;
    if settings.reviewer_workspace == Workspace::Worktree {
        let p = prepare(repo, source, settings)?;
        return Ok((p._scratch, p.sandbox));
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

fn from_tree(repo: &Repository, tree: &git2::Tree, out: &Writer) -> Result<()> {
    // Files only: a link (0o120000) or a submodule is left out. Names are kept as bytes: a
    // name that is not UTF-8 is copied as it is (libgit2's `walk` gives up on such a folder).
    let mut blobs: Vec<(PathBuf, Oid, bool)> = Vec::new();
    let mut todo = vec![(PathBuf::new(), tree.clone())];
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
                    blobs.push((path, entry.id(), mode == 0o100755));
                }
                _ => {}
            }
        }
    }
    write_blobs(repo, &blobs, out)
}

/// Writes `blobs` (path, id, executable) into the export, from the store where it has them.
fn write_blobs(repo: &Repository, blobs: &[(PathBuf, Oid, bool)], out: &Writer) -> Result<()> {
    // A repository handle is not shared between threads: each opens its own.
    let git_dir = repo.path().to_path_buf();
    in_parallel(blobs, |part| {
        let repo = Repository::open(&git_dir).context("cannot open the repository to export")?;
        let odb = repo.odb().context("cannot open the object database")?;
        for (path, id, exec) in part {
            let key = out.store.as_ref().map(|_| Store::key(*id, path, *exec));
            if out.cached(path, key.as_deref()) {
                continue;
            }
            // The size from the object's header, so a huge blob is never inflated.
            let fits = odb
                .read_header(*id)
                .is_ok_and(|(size, _)| out.fits(size as u64));
            if fits {
                let blob = repo
                    .find_blob(*id)
                    .context("cannot read a blob of the reviewed revision")?;
                out.put(path, blob.content(), *exec, key.as_deref());
            }
        }
        Ok(())
    })
}

/// A file of a tree in a diff: its path, blob id and executable bit; `None` for a link, a
/// submodule or the side a file is missing from.
fn diff_blob(f: &git2::DiffFile) -> Option<(PathBuf, Oid, bool)> {
    let exec = match f.mode() {
        git2::FileMode::Blob => false,
        git2::FileMode::BlobExecutable => true,
        _ => return None,
    };
    let path = PathBuf::from(std::ffi::OsStr::from_bytes(f.path_bytes()?));
    (!f.id().is_zero()).then_some((path, f.id(), exec))
}

/// Brings the export at `out.root`, a kept export of tree `old`, up to `new`: what the new tree
/// dropped or changed goes, what it added or changed comes. `false` when it cannot be done as a
/// fresh export would (an unknown tree, a name the redactor changes, the size cap reached).
fn update(repo: &Repository, old: &str, new: &git2::Tree, out: &Writer) -> Result<bool> {
    let Ok(old) = Oid::from_str(old).and_then(|id| repo.find_tree(id)) else {
        return Ok(false);
    };
    let Ok(diff) = repo.diff_tree_to_tree(Some(&old), Some(new), None) else {
        return Ok(false);
    };
    let mut gone = Vec::new();
    let mut added = Vec::new();
    for delta in diff.deltas() {
        gone.extend(diff_blob(&delta.old_file()));
        added.extend(diff_blob(&delta.new_file()));
    }
    let renamed = |(p, ..): &(PathBuf, Oid, bool)| {
        let name = p.to_string_lossy();
        crate::redact::redact_path(&name) != name
    };
    if gone.iter().chain(&added).any(renamed) {
        return Ok(false);
    }
    for (path, ..) in &gone {
        out.remove(path);
    }
    write_blobs(repo, &added, out)?;
    Ok(!out.capped.load(Ordering::Relaxed))
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
            let Ok(bytes) = crate::sys::file_io::read_regular_no_link(&full, MAX_FILE) else {
                continue; // changed under us, or became something else
            };
            let exec = meta.permissions().mode() & 0o111 != 0;
            // The content's blob id keys the cache: reading is cheap, redacting is not.
            let key = out.store.as_ref().and_then(|_| {
                Oid::hash_object(ObjectType::Blob, &bytes)
                    .ok()
                    .map(|id| Store::key(id, path, exec))
            });
            if let (Some(store), Some(k)) = (&out.store, &key) {
                // The room was taken above already; a hit is linked as it is.
                match store.get(k) {
                    Hit::File(entry, _) if out.link(path, &entry) => continue,
                    Hit::File(..) => {}
                    Hit::Skip => continue,
                    Hit::Miss => {}
                }
            }
            out.put(path, &bytes, exec, key.as_deref());
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
    /// Whether some file was left out for [`MAX_TOTAL`] (which ones depends on the walk).
    capped: AtomicBool,
    /// The blob store files are linked from, when one can be used.
    store: Option<Store>,
    /// Files read and redacted (not found in the store).
    redacted: AtomicUsize,
}

impl Writer {
    fn new(root: PathBuf, store: Option<Store>) -> Writer {
        Writer {
            root,
            files: AtomicUsize::new(0),
            bytes: AtomicU64::new(0),
            capped: AtomicBool::new(false),
            store,
            redacted: AtomicUsize::new(0),
        }
    }

    /// Creates the (empty) folder the export is written to.
    fn make_root(&self) -> Result<()> {
        std::fs::DirBuilder::new()
            .mode(0o700)
            .recursive(true)
            .create(&self.root)
            .with_context(|| format!("cannot create {}", self.root.display()))
    }

    /// The seal that lets the finished export of `tree` be kept for the next run: only a whole
    /// tree, with a store to keep it in.
    fn seal(&self, scratch: &Path, commondir: &Path, tree: Oid) -> Option<kept::Seal> {
        let store = self.store.as_ref()?;
        if self.capped.load(Ordering::Relaxed) {
            return None;
        }
        let stamp = kept::Stamp {
            tree: tree.to_string(),
            files: self.files.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
        };
        kept::seal(scratch, kept::slot(store.dir(), commondir), stamp)
    }

    /// Whether a file of `size` bytes is to be written; its room under [`MAX_TOTAL`] is taken
    /// at once, so threads never overshoot the cap together.
    fn fits(&self, size: u64) -> bool {
        if size > MAX_FILE {
            return false;
        }
        let before = self.bytes.fetch_add(size, Ordering::Relaxed);
        if before + size > MAX_TOTAL {
            self.bytes.fetch_sub(size, Ordering::Relaxed);
            self.capped.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// Removes `path` from the export (a kept one being updated), with the folders it leaves
    /// empty; nothing when it was never shown (binary, too big).
    fn remove(&self, path: &Path) {
        let Some(dest) = target(&self.root, path) else {
            return;
        };
        let Ok(meta) = std::fs::symlink_metadata(&dest) else {
            return;
        };
        if !meta.is_file() || std::fs::remove_file(&dest).is_err() {
            return;
        }
        // (Saturating: the counts came from the kept export's stamp.)
        let _ = self
            .files
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
                Some(n.saturating_sub(1))
            });
        let _ = self
            .bytes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                Some(b.saturating_sub(meta.len()))
            });
        let mut dir = dest.parent();
        while let Some(d) = dir.filter(|d| *d != self.root) {
            if std::fs::remove_dir(d).is_err() {
                break;
            }
            dir = d.parent();
        }
    }

    /// Whether the store already settled `path` (its entry linked, or left out as binary); its
    /// room under the caps is taken as for a fresh file.
    fn cached(&self, path: &Path, key: Option<&str>) -> bool {
        let (Some(store), Some(key)) = (&self.store, key) else {
            return false;
        };
        match store.get(key) {
            Hit::File(entry, size) => {
                if !self.fits(size) {
                    return true;
                }
                // An entry another build's run removed under us: read the blob after all.
                let linked = self.link(path, &entry);
                if !linked {
                    self.bytes.fetch_sub(size, Ordering::Relaxed);
                }
                linked
            }
            Hit::Skip => true,
            Hit::Miss => false,
        }
    }

    /// Where `path` goes in the export, its folders made: a secret in a file's name
    /// (`keys/sk_live_….txt`) is redacted here as in the artifact.
    fn dest(&self, path: &Path) -> Option<PathBuf> {
        let name = path.to_string_lossy();
        let shown = crate::redact::redact_path(&name);
        let shown = if shown == name {
            path.to_path_buf()
        } else {
            PathBuf::from(shown)
        };
        place(&self.root, &shown)
    }

    /// Puts the store's `entry` at `path`: a hard link (no copy, no second inode), else a copy.
    /// `false` when the entry is gone; a path that cannot be placed counts as done.
    fn link(&self, path: &Path, entry: &Path) -> bool {
        let Some(dest) = self.dest(path) else {
            return true;
        };
        let done = match std::fs::hard_link(entry, &dest) {
            Ok(()) => true,
            // A path a crafted tree repeats: the first one stays, as with a fresh file.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => return true,
            // Another file system, or too many links: a copy (never over an existing file).
            Err(_) => std::fs::copy(entry, &dest).is_ok(),
        };
        if done {
            self.files.fetch_add(1, Ordering::Relaxed);
        }
        done
    }

    /// Writes one text file, redacted; binary content and paths that are not plain are left out,
    /// and so is an entry that cannot be placed (a crafted tree repeating a path, or nesting one
    /// under a file): the export is a courtesy to the reviewer, never a reason to fail a review.
    /// With a `key`, the redacted file goes to the store and is linked from there.
    fn put(&self, path: &Path, bytes: &[u8], exec: bool, key: Option<&str>) {
        let store = self.store.as_ref().zip(key);
        if bytes[..bytes.len().min(8192)].contains(&0) {
            if let Some((store, key)) = store {
                store.skip(key);
            }
            return;
        }
        let text = String::from_utf8_lossy(bytes);
        let red = crate::redact::redact(&text, Some(&path.to_string_lossy()));
        self.redacted.fetch_add(1, Ordering::Relaxed);
        let bytes = if red.count == 0 {
            bytes
        } else {
            red.text.as_bytes()
        };
        if let Some(entry) = store.and_then(|(store, key)| store.put(key, bytes, exec)) {
            if self.link(path, &entry) {
                return;
            }
        }
        let Some(dest) = self.dest(path) else {
            return;
        };
        let written = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(if exec { 0o500 } else { 0o400 })
            .open(&dest)
            .and_then(|mut f| f.write_all(bytes));
        if written.is_ok() {
            self.files.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// The destination of `path` under `root`; `None` for a path that is not plain or names a
/// `.git`.
fn target(root: &Path, rel: &Path) -> Option<PathBuf> {
    // A crafted tree may name a `.git`: the export has none, and must not get one.
    let plain = |c: Component| matches!(c, Component::Normal(n) if !n.to_string_lossy().eq_ignore_ascii_case(".git"));
    if rel.as_os_str().is_empty() || !rel.components().all(plain) {
        return None;
    }
    Some(root.join(rel))
}

/// The destination of `path` under `root` with its directories created; `None` for a path that
/// is not plain, names a `.git`, or cannot be placed.
fn place(root: &Path, rel: &Path) -> Option<PathBuf> {
    let dest = target(root, rel)?;
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
