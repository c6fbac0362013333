//! Files of the reviewed version read by name: a commit's or the index's tree, or the work tree.
//!
//! What the repository says about its own review (instruction files, the waivers file) must come
//! from the version under review: for `commit:` the commit's tree, not whatever is on disk now.
//! Only regular files are read: a committed symbolic link named `AGENTS.md` pointing at
//! `~/.aws/credentials` would otherwise send that file to a model. In the work tree a path
//! through a linked folder is refused too, and so is a file git ignores (a local, private file
//! is not the repository's word).

use std::path::{Component, Path};

use git2::{ObjectType, Repository};

use crate::git::repo::Repo;

/// Where files are read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Version {
    /// A commit or a tree, by id.
    Tree(String),
    /// The files on disk under the work tree.
    WorkTree,
}

impl Version {
    /// The version a change's new side is: its head commit, the tree the index would commit,
    /// else the work tree.
    pub fn of_change(change: &crate::git::Change) -> Version {
        match (&change.head, &change.index_tree) {
            (Some(id), _) | (None, Some(id)) => Version::Tree(id.clone()),
            (None, None) => Version::WorkTree,
        }
    }
}

/// A path made of plain names only (no `..`, no root, no `.`): the only kind read.
fn plain(path: &str) -> bool {
    !path.is_empty()
        && Path::new(path)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

fn regular_mode(mode: i32) -> bool {
    mode == 0o100644 || mode == 0o100755
}

/// The content of the regular file `path` (repository-relative) in `at`, when it is there and
/// no bigger than `cap` bytes.
pub fn read_at(repo: &Repo, at: &Version, path: &str, cap: u64) -> Option<Vec<u8>> {
    if !plain(path) {
        return None;
    }
    match at {
        Version::Tree(id) => match repo.libgit2() {
            Some(lib) => read_tree_lib(lib, id, path, cap),
            None => read_tree_git(repo, id, path, cap),
        },
        Version::WorkTree => read_work_tree(repo, path, cap),
    }
}

/// The regular files under folder `dir` (repository-relative, searched at every depth) in `at`,
/// in path order.
pub fn files_under(repo: &Repo, at: &Version, dir: &str) -> Vec<String> {
    if !plain(dir) {
        return Vec::new();
    }
    let mut out = match at {
        Version::Tree(id) => match repo.libgit2() {
            Some(lib) => list_tree_lib(lib, id, dir),
            None => list_tree_git(repo, id, dir),
        },
        Version::WorkTree => list_work_tree(repo, dir),
    };
    out.sort();
    out
}

fn tree_of<'r>(lib: &'r Repository, id: &str) -> Option<git2::Tree<'r>> {
    lib.revparse_single(id).ok()?.peel_to_tree().ok()
}

fn read_tree_lib(lib: &Repository, id: &str, path: &str, cap: u64) -> Option<Vec<u8>> {
    let tree = tree_of(lib, id)?;
    let entry = tree.get_path(Path::new(path)).ok()?;
    if entry.kind() != Some(ObjectType::Blob) || !regular_mode(entry.filemode()) {
        return None;
    }
    let blob = lib.find_blob(entry.id()).ok()?;
    (blob.size() as u64 <= cap).then(|| blob.content().to_vec())
}

fn list_tree_lib(lib: &Repository, id: &str, dir: &str) -> Vec<String> {
    let Some(sub) = tree_of(lib, id)
        .and_then(|t| t.get_path(Path::new(dir)).ok())
        .and_then(|e| lib.find_tree(e.id()).ok())
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let _ = sub.walk(git2::TreeWalkMode::PreOrder, |parent, entry| {
        if entry.kind() == Some(ObjectType::Blob) && regular_mode(entry.filemode()) {
            if let Ok(name) = entry.name() {
                out.push(format!("{dir}/{parent}{name}"));
            }
        }
        git2::TreeWalkResult::Ok
    });
    out
}

/// `<mode> <type> <id> <size>\t<path>` records of `git ls-tree -r -l -z id -- path`.
fn ls_tree(repo: &Repo, id: &str, path: &str) -> Vec<(String, String, u64)> {
    let Ok(out) = repo
        .git()
        .output(&["ls-tree", "-r", "-l", "-z", "--full-tree", id, "--", path])
    else {
        return Vec::new();
    };
    out.split(|&b| b == 0)
        .filter_map(|rec| {
            let rec = std::str::from_utf8(rec).ok()?;
            let (meta, name) = rec.split_once('\t')?;
            let mut parts = meta.split_whitespace();
            let mode = i32::from_str_radix(parts.next()?, 8).ok()?;
            let _kind = parts.next()?;
            let blob = parts.next()?.to_string();
            let size = parts.next()?.parse().ok()?;
            regular_mode(mode).then(|| (name.to_string(), blob, size))
        })
        .collect()
}

fn read_tree_git(repo: &Repo, id: &str, path: &str, cap: u64) -> Option<Vec<u8>> {
    let (_, blob, size) = ls_tree(repo, id, path)
        .into_iter()
        .find(|(name, _, _)| name == path)?;
    if size > cap {
        return None;
    }
    repo.git().output(&["cat-file", "blob", &blob]).ok()
}

fn list_tree_git(repo: &Repo, id: &str, dir: &str) -> Vec<String> {
    let prefix = format!("{dir}/");
    ls_tree(repo, id, &prefix)
        .into_iter()
        .map(|(name, _, _)| name)
        .filter(|n| n.starts_with(&prefix))
        .collect()
}

/// Whether git ignores `path` in the work tree.
fn ignored(repo: &Repo, path: &str) -> bool {
    match repo.libgit2() {
        Some(lib) => lib.is_path_ignored(Path::new(path)).unwrap_or(true),
        None => repo
            .git()
            .answer(&["check-ignore", "-q", "--", path])
            .map_or(true, |a| a.ok),
    }
}

/// No part of `path` below the work tree's top is a symbolic link.
fn no_link_on_the_way(root: &Path, path: &str) -> bool {
    let mut at = root.to_path_buf();
    Path::new(path).components().all(|c| {
        at.push(c);
        std::fs::symlink_metadata(&at).is_ok_and(|m| !m.file_type().is_symlink())
    })
}

fn read_work_tree(repo: &Repo, path: &str, cap: u64) -> Option<Vec<u8>> {
    let root = repo.workdir()?;
    if !no_link_on_the_way(root, path) || ignored(repo, path) {
        return None;
    }
    crate::sys::file_io::read_regular_no_link(&root.join(path), cap).ok()
}

/// At most this many files are listed from one folder of the work tree.
const MAX_LISTED: usize = 500;

fn list_work_tree(repo: &Repo, dir: &str) -> Vec<String> {
    let Some(root) = repo.workdir() else {
        return Vec::new();
    };
    if !no_link_on_the_way(root, dir) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut folders = vec![dir.to_string()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&folder)) else {
            continue;
        };
        for e in entries.flatten() {
            let (Ok(kind), Some(name)) = (e.file_type(), e.file_name().to_str().map(String::from))
            else {
                continue;
            };
            let rel = format!("{folder}/{name}");
            if kind.is_dir() {
                folders.push(rel);
            } else if kind.is_file() && !ignored(repo, &rel) {
                out.push(rel);
            }
            if out.len() >= MAX_LISTED {
                return out;
            }
        }
    }
    out
}
