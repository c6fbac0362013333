//! Finding the repository the way git does, and the facts about it the rest of the tool needs.
//!
//! `Repository::open_from_env` honours `GIT_DIR`, `GIT_WORK_TREE` and `GIT_CEILING_DIRECTORIES`,
//! so `git -C dir debate` and hooks (which run with `GIT_DIR` set) see the same repository git
//! does. Sessions live under the *common* git dir so every linked worktree shares them.
//!
//! A [`Repo`] is that repository whether libgit2 can open it or not. libgit2 refuses layouts
//! newer than it (`git init --object-format=sha256`: "unknown object format"; `--ref-format=
//! reftable`: "unsupported extension"); git itself then says where the repository is
//! (`git rev-parse`), the rest of the tool gets its folders all the same, and every diff of it is
//! asked of git (see [`crate::git`]).

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use git2::{ErrorCode, Repository};

use crate::git::command::{self, Git};

/// libgit2 re-hashes every object it reads to check it against its name; git does not on its
/// read paths (it trusts its own object store, and `git fsck` is where integrity is checked).
/// We only read, so the re-hashing is pure cost: 16–27 % of the CPU of resolving a big commit.
pub fn read_like_git() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| git2::opts::strict_hash_verification(false));
}

/// A repository: its folders, and libgit2's handle on it when libgit2 can open it.
pub struct Repo {
    lib: Option<Repository>,
    git_dir: PathBuf,
    common_dir: PathBuf,
    work_tree: Option<PathBuf>,
    /// Why libgit2 could not open it.
    unopened: Option<String>,
}

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Repo")
            .field("git_dir", &self.git_dir)
            .field("work_tree", &self.work_tree)
            .field("unopened", &self.unopened)
            .finish()
    }
}

impl Repo {
    /// A repository libgit2 opened.
    pub fn from_libgit2(repo: Repository) -> Repo {
        Repo {
            git_dir: repo.path().to_path_buf(),
            common_dir: repo.commondir().to_path_buf(),
            work_tree: repo.workdir().map(Path::to_path_buf),
            lib: Some(repo),
            unopened: None,
        }
    }

    /// Another handle on the same repository and work tree, to keep where a borrowed one cannot
    /// go (the reviewer's export, made later and from any thread).
    pub fn reopen(&self) -> Result<Repo> {
        Ok(Repo {
            lib: self.lib.as_ref().map(reopen).transpose()?,
            git_dir: self.git_dir.clone(),
            common_dir: self.common_dir.clone(),
            work_tree: self.work_tree.clone(),
            unopened: self.unopened.clone(),
        })
    }

    /// libgit2's handle, unless libgit2 cannot open this repository's layout.
    pub fn libgit2(&self) -> Option<&Repository> {
        self.lib.as_ref()
    }

    /// Why libgit2 could not open it (`None` when it could).
    pub fn unopened(&self) -> Option<&str> {
        self.unopened.as_deref()
    }

    /// The git dir (`.git`, or `.git/worktrees/<name>` in a linked worktree).
    pub fn path(&self) -> &Path {
        &self.git_dir
    }

    /// The git dir every linked worktree shares.
    pub fn commondir(&self) -> &Path {
        &self.common_dir
    }

    /// The top of the work tree; `None` in a bare repository.
    pub fn workdir(&self) -> Option<&Path> {
        self.work_tree.as_deref()
    }

    /// Its folders, for reading its settings.
    pub fn dirs(&self) -> crate::settings::RepoDirs<'_> {
        crate::settings::RepoDirs {
            git_dir: &self.git_dir,
            common_dir: &self.common_dir,
            work_tree: self.work_tree.as_deref(),
        }
    }

    /// `git` for this repository.
    pub(super) fn git(&self) -> Git {
        Git::new(Some(self.git_dir.clone()), self.work_tree.clone())
    }

    /// The repository's configuration as git reads it (system, global, local, worktree; `git -c`
    /// values are [`crate::git::gitconfig`]'s).
    pub fn config(&self) -> Option<git2::Config> {
        if let Some(r) = &self.lib {
            return r.config().ok();
        }
        let mut cfg = git2::Config::open_default().ok()?;
        let local = self.common_dir.join("config");
        if local.is_file() {
            cfg.add_file(&local, git2::ConfigLevel::Local, false).ok()?;
            let per_worktree = self.git_dir.join("config.worktree");
            if cfg.get_bool("extensions.worktreeconfig").unwrap_or(false) && per_worktree.is_file()
            {
                cfg.add_file(&per_worktree, git2::ConfigLevel::Worktree, false)
                    .ok()?;
            }
        }
        Some(cfg)
    }

    /// The regular files (not links, not submodules) the index tracks, without conflicts: read
    /// by libgit2 when it can, else listed by `git ls-files`.
    pub fn tracked_files(&self) -> Result<Vec<Vec<u8>>> {
        let regular = |mode: u32| mode == 0o100644 || mode == 0o100755;
        if let Some(index) = self.lib.as_ref().and_then(|r| r.index().ok()) {
            return Ok(index
                .iter()
                .filter(|e| (e.flags >> 12) & 0x3 == 0 && regular(e.mode))
                .map(|e| e.path)
                .collect());
        }
        let out = self.git().output(&["ls-files", "--stage", "-z"])?;
        // `<mode> <id> <stage>\t<path>`
        Ok(out
            .split(|&b| b == 0)
            .filter_map(|rec| {
                let tab = rec.iter().position(|&b| b == b'\t')?;
                let meta = String::from_utf8_lossy(&rec[..tab]).into_owned();
                let mut parts = meta.split(' ');
                let mode = u32::from_str_radix(parts.next()?, 8).ok()?;
                let stage = parts.nth(1)?;
                (regular(mode) && stage == "0").then(|| rec[tab + 1..].to_vec())
            })
            .collect())
    }

    /// The index file git reads: `GIT_INDEX_FILE` (in a hook, the index being committed), else
    /// the git dir's `index`.
    pub(super) fn index_file(&self) -> PathBuf {
        std::env::var_os("GIT_INDEX_FILE")
            .filter(|i| !i.is_empty())
            .and_then(|i| std::path::absolute(PathBuf::from(i)).ok())
            .unwrap_or_else(|| self.git_dir.join("index"))
    }

    /// Who git says the user is, `Name <email>`, as a commit's author would be (user.name and
    /// user.email, or `GIT_AUTHOR_NAME`/`GIT_AUTHOR_EMAIL`).
    pub fn identity(&self) -> Result<String> {
        let out = self
            .git()
            .output(&["var", "GIT_AUTHOR_IDENT"])
            .map_err(|_| {
                crate::error::UsageError::new(
                "git does not know who you are: set it with `git config user.name \"Your Name\"` \
                 and `git config user.email you@example.com`",
            )
            })?;
        let ident = String::from_utf8_lossy(&out).trim().to_string();
        // `Name <email> 1764190000 +0000`: the date is not part of who.
        Ok(match ident.rfind('>') {
            Some(end) => ident[..=end].to_string(),
            None => ident,
        })
    }

    /// A config value as git sees it, `git -c` included.
    pub fn config_string(&self, key: &str) -> Option<String> {
        crate::git::gitconfig::value(self.config().as_ref(), key)
    }
}

/// Opens the repository around the current directory, or `None` outside any repository.
pub fn discover() -> Result<Option<Repo>> {
    read_like_git();
    match Repository::open_from_env() {
        Ok(repo) => Ok(Some(Repo::from_libgit2(with_env_work_tree(repo)?))),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
        Err(e) => match asked(&e)? {
            Some(repo) => Ok(Some(repo)),
            None => Err(anyhow::Error::new(e).context("cannot open the git repository here")),
        },
    }
}

/// `GIT_WORK_TREE` (what `git --work-tree=<dir>` passes down) names the work tree even of a
/// repository configured bare, the dotfiles pattern (`git --git-dir=~/.dotfiles --work-tree=~`);
/// libgit2 leaves such a repository bare.
fn with_env_work_tree(repo: Repository) -> Result<Repository> {
    let Some(dir) = std::env::var_os("GIT_WORK_TREE").filter(|d| !d.is_empty()) else {
        return Ok(repo);
    };
    let dir = std::path::absolute(PathBuf::from(dir)).context("cannot resolve GIT_WORK_TREE")?;
    let same = repo
        .workdir()
        .is_some_and(|w| w.canonicalize().ok() == dir.canonicalize().ok());
    if !same {
        repo.set_workdir(&dir, false)
            .with_context(|| format!("cannot use {} as the work tree", dir.display()))?;
    }
    Ok(repo)
}

/// A second libgit2 handle on `repo` (for another thread), with the same work tree.
pub(super) fn reopen(repo: &Repository) -> Result<Repository> {
    let again = Repository::open(repo.path()).context("cannot open the repository again")?;
    if let Some(w) = repo.workdir() {
        if again.workdir() != Some(w) {
            again.set_workdir(w, false)?;
        }
    }
    Ok(again)
}

/// The repository as git finds it, when libgit2 could not open it (`why`): `None` when git
/// finds none either (the caller then reports libgit2's error).
fn asked(why: &git2::Error) -> Result<Option<Repo>> {
    let git = Git::new(None, None);
    let Ok(out) = git.output(&[
        "rev-parse",
        "--path-format=absolute",
        "--git-dir",
        "--git-common-dir",
        "--is-bare-repository",
    ]) else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&out).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let [git_dir, common_dir, bare] = lines.as_slice() else {
        return Ok(None);
    };
    let work_tree = if *bare == "true" {
        None
    } else {
        git.output(&["rev-parse", "--show-toplevel"])
            .ok()
            .map(command::text)
            .filter(|t| !t.is_empty())
            .map(PathBuf::from)
    };
    Ok(Some(Repo {
        lib: None,
        git_dir: PathBuf::from(git_dir),
        common_dir: PathBuf::from(common_dir),
        work_tree,
        unopened: Some(why.message().to_string()),
    }))
}

/// `<common git dir>/review-loop`: one store for all linked worktrees of a repository (a linked
/// worktree's own git dir is `.git/worktrees/<name>`, which would scatter sessions).
pub fn session_base(repo: &Repo) -> PathBuf {
    repo.commondir().join("review-loop")
}

/// The work tree, or a one-line error that says why there is none.
pub fn workdir<'r>(repo: &'r Repo, what: &str) -> Result<&'r Path> {
    repo.workdir().ok_or_else(|| {
        crate::error::UsageError::new(format!(
            "{what} needs a work tree, but {} is a bare repository; use --scope commit:<rev>, \
             base:<branch> or range:<a>..<b>, or pass content",
            repo.path().display()
        ))
        .into()
    })
}

/// HEAD's commit, or `None` on an unborn branch (a repository with no commits yet).
pub fn head_commit(repo: &Repository) -> Result<Option<git2::Commit<'_>>> {
    match repo.head() {
        Ok(head) => Ok(Some(
            head.peel_to_commit()
                .context("HEAD does not point at a commit")?,
        )),
        Err(e) if e.code() == ErrorCode::UnbornBranch || e.code() == ErrorCode::NotFound => {
            Ok(None)
        }
        Err(e) => Err(anyhow::Error::new(e).context("cannot read HEAD")),
    }
}

/// A name for HEAD for messages: the branch, or `detached at <sha>`.
pub fn head_name(repo: &Repository) -> String {
    match repo.head() {
        Ok(h) if h.is_branch() => h.shorthand().unwrap_or("HEAD").to_string(),
        Ok(h) => match h.target() {
            Some(oid) => format!("detached at {}", short(oid)),
            None => "HEAD".into(),
        },
        Err(_) => {
            let name = repo.find_reference("HEAD").ok().and_then(|r| {
                r.symbolic_target()
                    .ok()
                    .flatten()
                    .map(|s| s.trim_start_matches("refs/heads/").to_string())
            });
            format!("unborn branch {}", name.unwrap_or_else(|| "HEAD".into()))
        }
    }
}

/// Seven hex digits, as git abbreviates.
pub fn short(oid: git2::Oid) -> String {
    oid.to_string()[..7].to_string()
}
