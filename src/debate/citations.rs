//! Evidence that is checked, not just demanded: every repository citation in a debate entry is
//! looked up in the revision the debate is about — the work tree for `--scope uncommitted`, the
//! index for `staged`, the head commit of a range, else HEAD — so a quote of the change under
//! debate is found where the debaters were shown it.
//!
//! Asking debaters for evidence is not enough if it is then trusted. Here a `path:line` must name a
//! file that exists in that revision with that many lines (a file that exists with fewer lines is
//! an unreliable citation, one that does not exist is not found), a bare path must exist, and a
//! code pattern in backticks must occur in some file; each citation is marked verified or not
//! found, and the marks go to the next speaker and to the synthesis, so a fabricated source costs
//! its author. URLs cannot be checked offline and are marked so.

use std::sync::OnceLock;

pub use crate::store::debate::{Citation, Status};

use crate::pattern::Pattern;
use crate::sandbox::export::Source;

/// Files read while searching for a pattern, at most (a huge repository must not stall a turn).
const MAX_SEARCH_BYTES: u64 = 64 << 20;
/// Blobs larger than this are not searched (generated or binary data).
const MAX_BLOB: usize = 1 << 20;

/// A pattern in its own cell, compiled the first time a text may match it
/// ([`crate::pattern`]).
fn re(cell: &'static OnceLock<Pattern>, pattern: &str) -> &'static Pattern {
    cell.get_or_init(|| Pattern::owned(pattern.to_string()))
}

/// The citations in `text`, each once.
pub fn extract(text: &str) -> Vec<(String, &'static str)> {
    static LOC: OnceLock<Pattern> = OnceLock::new();
    static TICK: OnceLock<Pattern> = OnceLock::new();
    static URL: OnceLock<Pattern> = OnceLock::new();
    let mut out: Vec<(String, &'static str)> = Vec::new();
    fn push(out: &mut Vec<(String, &'static str)>, s: String, k: &'static str) {
        if !out.iter().any(|(c, _)| *c == s) {
            out.push((s, k));
        }
    }
    for m in re(&URL, r"https?://[^\s)>\]`]+").find_iter(text) {
        push(
            &mut out,
            m.as_str().trim_end_matches(['.', ',']).to_string(),
            "url",
        );
    }
    for c in re(
        &LOC,
        r"(?:^|[\s(\[`])((?:[\w.-]+/)*[\w.-]+\.[A-Za-z0-9]+:\d+(?:-\d+)?)",
    )
    .captures_iter(text)
    {
        push(&mut out, c[1].to_string(), "location");
    }
    for c in re(&TICK, r"`([^`\n]{3,120})`").captures_iter(text) {
        let s = c[1].trim();
        if s.contains("://") || out.iter().any(|(x, _)| x == s) {
            continue;
        }
        let looks_like_path = !s.contains(' ')
            && (s.contains('/')
                || s.rsplit_once('.').is_some_and(|(_, ext)| {
                    (1..=5).contains(&ext.len()) && ext.chars().all(|c| c.is_ascii_alphanumeric())
                }))
            && !s.contains('(');
        if looks_like_path && !s.contains(':') {
            push(&mut out, s.to_string(), "path");
        } else if !s.contains(':') || s.contains("::") {
            push(&mut out, s.to_string(), "pattern");
        }
    }
    out
}

/// The revision of a repository that citations are checked against: HEAD, the head of a
/// range, the index's tree, or the work tree. It holds the repository's path, not an open handle,
/// so checks can run on their own threads (while the next speaker speaks).
#[derive(Debug, Clone)]
pub struct Checker {
    git_dir: Option<std::path::PathBuf>,
    at: At,
    /// The revision in words: `HEAD`, `commit 1a2b3c4`, `the index`, `the work tree`.
    label: String,
}

/// Which revision, as [`Checker`] reads it.
#[derive(Debug, Clone)]
enum At {
    Head,
    /// A commit or a tree, by id.
    Tree(String),
    /// The index's paths as the work tree has them, plus these untracked paths.
    WorkTree(Vec<String>),
}

impl Checker {
    /// Citations checked at HEAD (a debate about no change, or outside a repository: none).
    #[cfg(test)]
    pub fn new(repo: Option<&git2::Repository>) -> Checker {
        Checker {
            git_dir: repo.map(|r| r.path().to_path_buf()),
            at: At::Head,
            label: "HEAD".into(),
        }
    }

    /// Citations checked at the revision an export of `source` holds: a tree (a commit's, or
    /// the index's), or the work tree with the untracked files the change adds. An empty source
    /// checks at HEAD. `label` names the revision in words (`commit 1a2b3c4`, `the index`).
    pub fn at(repo: Option<&git2::Repository>, source: &Source, label: &str) -> Checker {
        let (at, label) = match source {
            Source::Tree(id) => (At::Tree(id.clone()), label.to_string()),
            Source::WorkTree { untracked } => {
                (At::WorkTree(untracked.clone()), "the work tree".to_string())
            }
            Source::Empty => (At::Head, "HEAD".to_string()),
        };
        Checker {
            git_dir: repo.map(|r| r.path().to_path_buf()),
            at,
            label,
        }
    }

    /// The revision checked, in words: `HEAD`, `commit 1a2b3c4`, `the index`, `the work tree`.
    pub fn revision(&self) -> &str {
        &self.label
    }

    pub fn check(&self, text: &str) -> Vec<Citation> {
        let repo = self
            .git_dir
            .as_deref()
            .and_then(|d| git2::Repository::open(d).ok());
        let view = repo
            .as_ref()
            .and_then(|r| View::open(r, &self.at, &self.label));
        let cited = extract(text);
        cited
            .into_iter()
            .map(|(cited, kind)| {
                let (status, detail) = match &view {
                    _ if kind == "url" => (Status::Unverifiable, String::new()),
                    None => (
                        Status::Unverifiable,
                        "no repository revision to check".into(),
                    ),
                    Some(v) => status(v, &cited, kind),
                };
                Citation {
                    cited,
                    kind: kind.to_string(),
                    status,
                    detail,
                }
            })
            .collect()
    }
}

/// A revision opened for reading: a tree, or the work tree's files.
enum View<'r> {
    Tree {
        repo: &'r git2::Repository,
        tree: git2::Tree<'r>,
        name: &'r str,
    },
    Work {
        root: std::path::PathBuf,
        paths: std::collections::BTreeSet<String>,
    },
}

impl<'r> View<'r> {
    fn open(repo: &'r git2::Repository, at: &At, name: &'r str) -> Option<View<'r>> {
        let tree = |tree: git2::Tree<'r>| Some(View::Tree { repo, tree, name });
        match at {
            At::Head => tree(repo.head().ok()?.peel_to_tree().ok()?),
            At::Tree(id) => tree(
                repo.find_object(git2::Oid::from_str(id).ok()?, None)
                    .ok()?
                    .peel_to_tree()
                    .ok()?,
            ),
            At::WorkTree(untracked) => {
                let index = repo.index().ok()?;
                let mut paths: std::collections::BTreeSet<String> = index
                    .iter()
                    .filter(|e| (e.flags >> 12) & 0x3 == 0)
                    .map(|e| String::from_utf8_lossy(&e.path).into_owned())
                    .collect();
                paths.extend(untracked.iter().cloned());
                Some(View::Work {
                    root: repo.workdir()?.to_path_buf(),
                    paths,
                })
            }
        }
    }

    /// Where the check was made, in words for a detail.
    fn name(&self) -> &str {
        match self {
            View::Tree { name, .. } => name,
            View::Work { .. } => "the work tree",
        }
    }

    /// A file's text, `None` when it is not a file of the revision.
    fn text(&self, path: &str) -> Option<String> {
        let path = path.trim_start_matches("./");
        match self {
            View::Tree { repo, tree, .. } => {
                let entry = tree.get_path(std::path::Path::new(path)).ok()?;
                let blob = repo.find_blob(entry.id()).ok()?;
                Some(String::from_utf8_lossy(blob.content()).into_owned())
            }
            View::Work { root, paths } => {
                if !paths.contains(path) {
                    return None;
                }
                let bytes =
                    crate::sys::file_io::read_regular_no_link(&root.join(path), MAX_BLOB as u64)
                        .ok()?;
                Some(String::from_utf8_lossy(&bytes).into_owned())
            }
        }
    }

    /// Whether a file or a folder of the revision is at `path`.
    fn exists(&self, path: &str) -> bool {
        let p = path.trim_start_matches("./").trim_end_matches('/');
        match self {
            View::Tree { tree, .. } => tree.get_path(std::path::Path::new(p)).is_ok(),
            View::Work { root, paths } => {
                let dir = format!("{p}/");
                let listed = paths.contains(p)
                    || paths
                        .range(dir.clone()..)
                        .next()
                        .is_some_and(|f| f.starts_with(&dir));
                // A deleted file is still in the index until it is staged.
                listed && std::fs::symlink_metadata(root.join(p)).is_ok()
            }
        }
    }

    /// The first file holding `pattern` (bounded); `Err` when the search was cut short.
    fn search(&self, pattern: &str) -> Result<Option<String>, ()> {
        let mut read = 0u64;
        match self {
            View::Tree { repo, tree, .. } => {
                let mut found: Option<String> = None;
                let _ = tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
                    if found.is_some() || read > MAX_SEARCH_BYTES {
                        return git2::TreeWalkResult::Abort;
                    }
                    if entry.kind() != Some(git2::ObjectType::Blob) {
                        return git2::TreeWalkResult::Ok;
                    }
                    if let Ok(blob) = repo.find_blob(entry.id()) {
                        let content = blob.content();
                        if content.len() <= MAX_BLOB && !blob.is_binary() {
                            read += content.len() as u64;
                            if String::from_utf8_lossy(content).contains(pattern) {
                                found = Some(format!("{dir}{}", entry.name().unwrap_or("")));
                                return git2::TreeWalkResult::Abort;
                            }
                        }
                    }
                    git2::TreeWalkResult::Ok
                });
                match found {
                    None if read > MAX_SEARCH_BYTES => Err(()),
                    f => Ok(f),
                }
            }
            View::Work { paths, .. } => {
                for p in paths {
                    if read > MAX_SEARCH_BYTES {
                        return Err(());
                    }
                    if let Some(t) = self.text(p) {
                        read += t.len() as u64;
                        if !t.contains('\0') && t.contains(pattern) {
                            return Ok(Some(p.clone()));
                        }
                    }
                }
                Ok(None)
            }
        }
    }
}

fn status(view: &View, cited: &str, kind: &str) -> (Status, String) {
    let at = view.name();
    match kind {
        "location" => {
            let (path, lines) = cited.rsplit_once(':').expect("location has a colon");
            let mut range = lines.split('-').filter_map(|n| n.parse::<usize>().ok());
            let start = range.next().unwrap_or(0);
            let end = range.next().unwrap_or(start);
            match view.text(path) {
                None => (Status::NotFound, format!("{path} does not exist in {at}")),
                Some(t) => {
                    let n = t.lines().count();
                    if start >= 1 && start <= end && end <= n {
                        (Status::Verified, format!("in {at}"))
                    } else {
                        (
                            Status::Unreliable,
                            format!("{path} exists in {at} but has {n} lines"),
                        )
                    }
                }
            }
        }
        "path" => {
            if view.exists(cited) {
                (Status::Verified, format!("in {at}"))
            } else {
                (Status::NotFound, format!("no such path in {at}"))
            }
        }
        _ => match view.search(cited) {
            Ok(Some(path)) => (Status::Verified, format!("in {path} ({at})")),
            Ok(None) => (Status::NotFound, format!("occurs in no file in {at}")),
            Err(()) => (
                Status::Unverifiable,
                "the repository is too large to search fully".into(),
            ),
        },
    }
}

/// The citations of `text`, not yet checked.
pub fn unchecked(text: &str) -> Vec<Citation> {
    extract(text)
        .into_iter()
        .map(|(cited, kind)| Citation {
            cited,
            kind: kind.to_string(),
            status: Status::Unchecked,
            detail: String::new(),
        })
        .collect()
}

/// The marks as a block for the transcript and the next prompt.
pub fn block(citations: &[Citation]) -> String {
    if citations.is_empty() {
        return String::new();
    }
    let mut s = String::from("Citations checked by git debate:\n");
    for c in citations {
        s.push_str(&format!(
            "- `{}` ({}): {}",
            c.cited,
            c.kind,
            c.status.mark()
        ));
        if !c.detail.is_empty() {
            s.push_str(&format!(" — {}", c.detail));
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extraction_kinds() {
        let got = extract("See src/lib.rs:12-14 and `src/main.rs`, the `fn parse_args(` helper, `Cargo.toml`, https://example.com/x. Also `not a path at all`.");
        let kinds: Vec<(&str, &str)> = got.iter().map(|(c, k)| (c.as_str(), *k)).collect();
        assert!(
            kinds.contains(&("https://example.com/x", "url")),
            "{kinds:?}"
        );
        assert!(
            kinds.contains(&("src/lib.rs:12-14", "location")),
            "{kinds:?}"
        );
        assert!(kinds.contains(&("src/main.rs", "path")), "{kinds:?}");
        assert!(kinds.contains(&("Cargo.toml", "path")), "{kinds:?}");
        assert!(kinds.contains(&("fn parse_args(", "pattern")), "{kinds:?}");
    }
}
