//! Which diff makes a scope's hunks as `git diff` makes them: libgit2's, in this process, or
//! git's own, asked for (see [`crate::git::asked`]).
//!
//! libgit2 is the default: it is exact for what it has (renames are paired as git pairs them,
//! see [`crate::git::renames`]), needs no child process, and diffs on every core. git is asked
//! whenever libgit2 would be wrong or would fail:
//!
//! - libgit2 cannot open the repository (`--object-format=sha256`, `--ref-format=reftable`) or
//!   read its index (`index.sparse`, `core.splitIndex`: "unsupported mandatory extension");
//! - a partial clone (`extensions.partialClone`, a promisor remote): libgit2 cannot fetch the
//!   blobs a diff needs, git fetches them as it would for `git diff`;
//! - `uncommitted` in a sparse checkout (or with any `--skip-worktree` file): libgit2 lists the
//!   files outside the sparse patterns as deleted, git does not;
//! - `diff.algorithm = histogram`, which libgit2 does not have;
//! - a `diff=<driver>` attribute that libgit2 would not follow as git does: a textconv filter
//!   (`diff.<driver>.textconv`), a per-driver algorithm, or a function-name driver built into
//!   git or libgit2 (`rust`, `css`, `kotlin`, `markdown`, `bash`, `elixir`…, which libgit2
//!   lacks, and `cpp`, `python`, `java`… whose patterns git has changed since libgit2 copied
//!   them) and not given its own `xfuncname`.
//!
//! `GIT_DEBATE_DIFF=git` (or `libgit2`, where libgit2 can) chooses for measurements.

use std::collections::BTreeSet;
use std::os::unix::ffi::OsStrExt as _;
use std::path::PathBuf;

use git2::Repository;

use crate::git::repo::Repo;
use crate::git::{gitconfig, Scope};

/// The index entry flag of a file outside the sparse checkout (`git update-index
/// --skip-worktree`; libgit2's `GIT_INDEX_ENTRY_SKIP_WORKTREE`, in the extended flags).
const SKIP_WORKTREE: u16 = 1 << 14;

/// The function-name drivers git has built in (`gitattributes(5)`), and libgit2's `javascript`,
/// which git does not have (git shows such a file with its default function names).
const BUILT_IN: &[&str] = &[
    "ada",
    "bash",
    "bibtex",
    "cpp",
    "csharp",
    "css",
    "dts",
    "elixir",
    "fortran",
    "fountain",
    "golang",
    "html",
    "java",
    "javascript",
    "kotlin",
    "markdown",
    "matlab",
    "objc",
    "pascal",
    "perl",
    "php",
    "python",
    "ruby",
    "rust",
    "scheme",
    "tex",
];

/// Who makes the diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Engine {
    Libgit2,
    /// git, for the reason given.
    Git(String),
}

/// The diff for `scope` of `repo`.
pub(super) fn engine(repo: &Repo, scope: &Scope) -> Engine {
    let Some(lib) = repo.libgit2() else {
        let why = repo.unopened().unwrap_or("unknown");
        return Engine::Git(format!("libgit2 cannot open this repository ({why})"));
    };
    let index = match lib.index() {
        Ok(i) => i,
        Err(e) => return Engine::Git(format!("libgit2 cannot read the index ({})", e.message())),
    };
    match std::env::var("GIT_DEBATE_DIFF").as_deref() {
        Ok("git") => return Engine::Git("GIT_DEBATE_DIFF=git".into()),
        Ok("libgit2") => return Engine::Libgit2,
        _ => {}
    }
    if partial_clone(lib) {
        return Engine::Git("a partial clone: git fetches the blobs it needs".into());
    }
    if gitconfig::string(lib, "diff.algorithm")
        .is_some_and(|a| a.trim().eq_ignore_ascii_case("histogram"))
    {
        return Engine::Git("diff.algorithm = histogram".into());
    }
    if *scope == Scope::Uncommitted && index.iter().any(|e| e.flags_extended & SKIP_WORKTREE != 0) {
        return Engine::Git("a sparse checkout".into());
    }
    if let Some(driver) = drivers(lib, &index)
        .into_iter()
        .find(|d| git_follows_otherwise(lib, d))
    {
        return Engine::Git(format!("the diff driver {driver}"));
    }
    Engine::Libgit2
}

/// Whether objects may be missing, to be fetched from a promisor remote on demand.
fn partial_clone(repo: &Repository) -> bool {
    if gitconfig::string(repo, "extensions.partialClone").is_some() {
        return true;
    }
    let Ok(cfg) = repo.config() else {
        return false;
    };
    let Ok(mut entries) = cfg.entries(Some(r"^remote\..*\.promisor$")) else {
        return false;
    };
    let mut any = false;
    while let Some(Ok(e)) = entries.next() {
        any |= e
            .value()
            .ok()
            .and_then(|v| crate::settings::parse_bool(v.trim()))
            .unwrap_or(false);
    }
    any
}

/// Whether libgit2 would show a file with `diff=<driver>` otherwise than git.
fn git_follows_otherwise(repo: &Repository, driver: &str) -> bool {
    let set = |what: &str| gitconfig::string(repo, &format!("diff.{driver}.{what}")).is_some();
    if set("textconv") || set("algorithm") {
        return true;
    }
    // A pattern of its own replaces the built-in one, in git and in libgit2 alike.
    BUILT_IN.contains(&driver) && !set("xfuncname") && !set("funcname")
}

/// Every driver an attributes file names (`diff=<driver>`): the `.gitattributes` files of the
/// index (as they are in the work tree, else as staged), `info/attributes`, the user's
/// attributes file, and in a bare repository HEAD's `.gitattributes`.
fn drivers(repo: &Repository, index: &git2::Index) -> BTreeSet<String> {
    let mut texts: Vec<Vec<u8>> = Vec::new();
    for e in index.iter() {
        if crate::git::renames::file_name(&e.path) != b".gitattributes" {
            continue;
        }
        let path = std::path::Path::new(std::ffi::OsStr::from_bytes(&e.path));
        let on_disk = repo
            .workdir()
            .and_then(|w| crate::sys::file_io::read_regular_no_link(&w.join(path), 1 << 20).ok());
        match on_disk {
            Some(t) => texts.push(t),
            None => texts.extend(repo.find_blob(e.id).ok().map(|b| b.content().to_vec())),
        }
    }
    let mut files = vec![repo.commondir().join("info/attributes")];
    files.extend(user_attributes(repo));
    for f in files {
        texts.extend(crate::sys::file_io::read_regular(&f, 1 << 20).ok());
    }
    if repo.is_bare() {
        let head = repo
            .head()
            .and_then(|h| h.peel_to_tree())
            .and_then(|t| t.get_path(std::path::Path::new(".gitattributes")))
            .and_then(|e| repo.find_blob(e.id()));
        texts.extend(head.ok().map(|b| b.content().to_vec()));
    }
    texts.iter().flat_map(|t| named_drivers(t)).collect()
}

/// `core.attributesFile`, else `$XDG_CONFIG_HOME/git/attributes` (`~/.config/git/attributes`).
fn user_attributes(repo: &Repository) -> Option<PathBuf> {
    if let Some(p) = gitconfig::string(repo, "core.attributesFile") {
        return Some(crate::settings::expand_home(p.trim()));
    }
    std::env::var_os("XDG_CONFIG_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .map(|d| d.join("git/attributes"))
}

/// The `<driver>` of every `diff=<driver>` in an attributes file (comments left out).
fn named_drivers(text: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(text)
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| {
            l.split_whitespace()
                .filter_map(|t| t.strip_prefix("diff="))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_drivers_an_attributes_file_names() {
        let text =
            b"# *.md diff=markdown\n*.rs diff=rust\n[attr]gen -diff\n*.x text diff=xml eol=lf\n";
        assert_eq!(named_drivers(text), ["rust", "xml"]);
    }
}
