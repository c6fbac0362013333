//! What to review: the `--scope` syntax, and the [`Change`] it resolves to.
//!
//! Parsing is separate from resolution so a malformed scope is rejected before we touch the
//! repository, with a message that lists the accepted forms.
//!
//! The change must be what `git diff` shows, byte for byte. Two ways make it
//! ([`resolve()`]): libgit2 in this process ([`collect`], [`renames`], [`patches`]), and git itself,
//! asked through its plumbing without a shell ([`command`], [`asked`], [`printed`]). libgit2 is
//! the default where it is exact: no child process, its hunks on every core (git's are made on
//! one), and on real history (curl, prettier, git, rails…) its patches are git's. Each case
//! libgit2 does not cover takes the path that gives git's result, as [`route`] decides:
//!
//! | case | path | why |
//! | --- | --- | --- |
//! | sha256 or reftable repository | asked git (`rev-parse`, `cat-file`, `log`, `diff`) | libgit2 cannot open it ([`repo::Repo`] still gives its folders) |
//! | sparse index (`index.sparse`), split index (`core.splitIndex`) | asked git | libgit2 cannot read the index ("unsupported mandatory extension") |
//! | partial (blobless) clone | asked git (`git diff`) | libgit2 cannot fetch a missing blob; git fetches what the diff needs in one batch, as for a plain `git diff` |
//! | sparse checkout, `--skip-worktree` (`uncommitted`) | asked git | libgit2 lists files outside the sparse patterns as deleted |
//! | `diff.algorithm = histogram`, `diff.<driver>.algorithm` | asked git | libgit2 has no histogram diff |
//! | `diff.<driver>.textconv` | asked git | libgit2 runs no textconv filter |
//! | a built-in function-name driver in `.gitattributes` (`rust`, `css`, `kotlin`, `markdown`, `bash`, `elixir`…) | asked git | libgit2 lacks most of git's drivers and has older patterns for the rest |
//! | more than 100 identical files moved | implemented ([`renames`]) | git tries at most 100 unused candidates per file; used ones are not counted |
//! | `diff.context`, `diff.interHunkContext` | implemented ([`diff`]) | libgit2 has both options; `debate.contextLines` wins when set |
//! | `GIT_WORK_TREE` with a bare repository | implemented ([`repo`]) | libgit2 left such a repository bare |
//! | copies, an unchanged binary rename, hunk headers | implemented ([`collect`], [`diff`]) | `copy from`/`to`; a binary flag from content and attributes; headers trimmed as git trims |
//! | stale stat data (`uncommitted`) | asked git (`git update-index -q --refresh`, [`refresh`]) | git takes `index.lock` before it reads, so no concurrent git's index is overwritten |
//!
//! The sides of a scope (which commits, the merge-base, the log) are found with libgit2 when it
//! can open the repository and read what the scope needs, else asked of git ([`sides`]); the
//! words describing them are the same either way. `GIT_DEBATE_DIFF=git` or `=libgit2` chooses
//! the diff for measurements (`scripts/diff-parity.sh`, `ENGINE=`).

pub mod apply;
mod asked;
mod collect;
mod command;
mod content;
mod diff;
mod gitconfig;
mod matrix;
mod patches;
mod pathspec;
mod printed;
pub mod protect;
mod quote;
mod refresh;
mod renames;
pub mod repo;
mod resolve;
mod revision;
mod route;
mod sides;
mod similarity;
mod staged;
mod tree;
mod typechange;
mod version;
mod words;

pub use quote::{name_of, path_bytes, quote_path};

use serde::Serialize;

use crate::error::UsageError;
pub use pathspec::limit as limit_to_paths;
pub use repo::Repo;
pub use resolve::{between, changed_paths, resolve};
pub use staged::{staged, staged_tree, Staged};
pub use tree::tree_files;
pub use version::{files_under, read_at, Version};
pub use words::{described as described_scope, scope_of as scope_of_word};

/// Lines of context git shows around a change in `repo`: `diff.context`, else 3.
pub fn context_lines(repo: Option<&Repo>) -> u32 {
    repo.and_then(|r| gitconfig::integer_in(r.config().as_ref(), "diff.context"))
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(3)
}

/// A parsed `--scope` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    /// Staged, unstaged and untracked (not ignored) changes against HEAD.
    Uncommitted,
    /// Exactly the index against HEAD: what a pre-commit hook sees.
    Staged,
    Commit(String),
    /// The merge-base of the branch and HEAD, to HEAD: what a pull request shows.
    Base(String),
    /// `a..b`: from a to b. `three_dots`: from merge-base(a, b) to b. An empty side means HEAD.
    Range {
        from: String,
        to: String,
        three_dots: bool,
    },
    File(String),
}

const FORMS: &str =
    "uncommitted, staged, commit:<rev>, base:<branch>, range:<a>..<b>, range:<a>...<b> or file:<path>";

impl Scope {
    pub fn parse(s: &str) -> Result<Scope, UsageError> {
        let s = s.trim();
        let need = |kind: &str, v: &str, example: &str| -> Result<String, UsageError> {
            if v.trim().is_empty() {
                Err(UsageError::new(format!(
                    "--scope {kind}: needs a value, e.g. {kind}:{example}"
                )))
            } else {
                Ok(v.trim().to_string())
            }
        };
        match s.split_once(':') {
            None if s == "uncommitted" => Ok(Scope::Uncommitted),
            None if s == "staged" => Ok(Scope::Staged),
            Some(("commit", v)) => Ok(Scope::Commit(need("commit", v, "HEAD~1")?)),
            Some(("base", v)) => Ok(Scope::Base(need("base", v, "main")?)),
            Some(("file", v)) => Ok(Scope::File(need("file", v, "docs/design.md")?)),
            Some(("range", v)) => {
                let v = need("range", v, "main..HEAD")?;
                let (from, to, three_dots) = if let Some((a, b)) = v.split_once("...") {
                    (a, b, true)
                } else if let Some((a, b)) = v.split_once("..") {
                    (a, b, false)
                } else {
                    return Err(UsageError::new(format!(
                        "malformed --scope range:{v}: expected range:<a>..<b> or range:<a>...<b>"
                    )));
                };
                if from.is_empty() && to.is_empty() {
                    return Err(UsageError::new(format!(
                        "malformed --scope range:{v}: name at least one side, e.g. range:main..HEAD"
                    )));
                }
                Ok(Scope::Range {
                    from: from.to_string(),
                    to: to.to_string(),
                    three_dots,
                })
            }
            None if s.contains("..") && !s.contains(char::is_whitespace) => {
                Err(UsageError::new(format!(
                    "malformed --scope '{s}': did you mean --scope range:{s}? (expected {FORMS})"
                )))
            }
            None if !s.is_empty() && !s.contains(char::is_whitespace) => {
                Err(UsageError::new(format!(
                    "malformed --scope '{s}': did you mean --scope commit:{s} (that commit) or \
                     --scope base:{s} (this branch since it left {s})? (expected {FORMS})"
                )))
            }
            _ => Err(UsageError::new(format!(
                "malformed --scope '{s}': expected {FORMS}"
            ))),
        }
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scope::Uncommitted => write!(f, "uncommitted"),
            Scope::Staged => write!(f, "staged"),
            Scope::Commit(r) => write!(f, "commit:{r}"),
            Scope::Base(b) => write!(f, "base:{b}"),
            Scope::Range {
                from,
                to,
                three_dots,
            } => {
                write!(
                    f,
                    "range:{from}{}{to}",
                    if *three_dots { "..." } else { ".." }
                )
            }
            Scope::File(p) => write!(f, "file:{p}"),
        }
    }
}

/// A resolved change: the files, their hunks, and the commits it spans.
#[derive(Debug, Clone, Serialize, Default)]
pub struct Change {
    /// Old side of the diff (a commit sha), `None` for the empty tree.
    pub base: Option<String>,
    /// New side: a commit sha, or `None` when it is the index or the work tree.
    pub head: Option<String>,
    /// For `base:` and `range:a...b`: the merge-base used as the old side.
    pub merge_base: Option<String>,
    /// For `staged`: the tree the index would commit.
    pub index_tree: Option<String>,
    /// Human description of both sides, e.g. "HEAD a1b2c3d (main) -> index + work tree".
    pub description: String,
    pub files: Vec<FileChange>,
    pub commits: Vec<CommitInfo>,
}

impl Change {
    pub fn additions(&self) -> usize {
        self.files.iter().map(|f| f.additions).sum()
    }
    pub fn deletions(&self) -> usize {
        self.files.iter().map(|f| f.deletions).sum()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Added,
    Deleted,
    Modified,
    Renamed,
    Copied,
    Typechange,
    Untracked,
}

impl Status {
    /// One letter, as in `git status --short`.
    pub fn letter(self) -> char {
        match self {
            Status::Added => 'A',
            Status::Deleted => 'D',
            Status::Modified => 'M',
            Status::Renamed => 'R',
            Status::Copied => 'C',
            Status::Typechange => 'T',
            Status::Untracked => '?',
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct FileChange {
    pub path: String,
    /// The path before a rename or copy.
    pub old_path: Option<String>,
    pub status: Status,
    /// Binary content is listed but never sent.
    pub binary: bool,
    /// Larger than we load; listed like a binary.
    pub too_large: bool,
    /// Some text was not valid UTF-8 and was converted lossily.
    pub lossy: bool,
    /// A submodule pointer change: (old commit, new commit); never descended into.
    pub submodule: Option<(Option<String>, Option<String>)>,
    pub additions: usize,
    pub deletions: usize,
    pub hunks: Vec<Hunk>,
    /// Git's file modes before and after (`0o100644`, `0o100755`, `0o120000`; 0 where the side
    /// does not exist): a mode change is a change even without a changed line.
    pub modes: (u32, u32),
}

impl FileChange {
    /// A change with nothing read yet: no hunks, counts or flags, which the diff then fills in.
    pub fn named(
        path: String,
        old_path: Option<String>,
        status: Status,
        modes: (u32, u32),
    ) -> Self {
        FileChange {
            path,
            old_path,
            status,
            binary: false,
            too_large: false,
            lossy: false,
            submodule: None,
            additions: 0,
            deletions: 0,
            hunks: Vec::new(),
            modes,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Hunk {
    /// `@@ -a,b +c,d @@ section`
    pub header: String,
    /// Each line with its origin prefix (`+`, `-` or space), without the trailing newline.
    pub lines: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CommitInfo {
    pub sha: String,
    pub subject: String,
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(Scope::parse("uncommitted").unwrap(), Scope::Uncommitted);
        assert_eq!(Scope::parse("staged").unwrap(), Scope::Staged);
        assert_eq!(
            Scope::parse("commit:HEAD~2").unwrap(),
            Scope::Commit("HEAD~2".into())
        );
        assert_eq!(
            Scope::parse("base:origin/main").unwrap(),
            Scope::Base("origin/main".into())
        );
        assert_eq!(
            Scope::parse("range:a...b").unwrap(),
            Scope::Range {
                from: "a".into(),
                to: "b".into(),
                three_dots: true
            }
        );
        assert_eq!(
            Scope::parse("range:v1..").unwrap(),
            Scope::Range {
                from: "v1".into(),
                to: "".into(),
                three_dots: false
            }
        );
        assert_eq!(
            Scope::parse("file:a:b.md").unwrap(),
            Scope::File("a:b.md".into())
        );
    }

    #[test]
    fn rejects_malformed_forms_with_the_input_named() {
        for bad in [
            "",
            "commit",
            "commit:",
            "foo:bar",
            "range:abc",
            "range:..",
            "Staged",
        ] {
            let e = Scope::parse(bad).unwrap_err().to_string();
            assert!(e.contains("--scope"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_bare_revision_as_scope_gets_the_scope_it_likely_meant() {
        let e = Scope::parse("HEAD~1").unwrap_err().to_string();
        assert!(e.contains("did you mean --scope commit:HEAD~1"), "{e}");
        assert!(e.contains("--scope base:HEAD~1"), "{e}");
        let e = Scope::parse("main..topic").unwrap_err().to_string();
        assert!(e.contains("did you mean --scope range:main..topic"), "{e}");
    }

    #[test]
    fn display_round_trips() {
        for s in [
            "uncommitted",
            "staged",
            "commit:HEAD",
            "base:main",
            "range:a..b",
            "range:a...b",
            "file:x",
        ] {
            assert_eq!(Scope::parse(s).unwrap().to_string(), s);
        }
    }
}
