//! Evidence that is checked, not just demanded: every repository citation in a debate entry is
//! looked up at HEAD.
//!
//! The seeds ask debaters for evidence and then trust it. Here a `path:line` must name a file that
//! exists at HEAD with that many lines (a file that exists with fewer lines is an unreliable
//! citation, one that does not exist is not found), a bare path must exist, and a code pattern in backticks must
//! occur in some file; each citation is marked verified or not found, and the marks go to the next
//! speaker and to the synthesis, so a fabricated source costs its author. URLs cannot be checked
//! offline and are marked so.

use std::sync::OnceLock;

pub use crate::store::debate::{Citation, Status};
use regex::Regex;

/// Files read while searching for a pattern, at most (a huge repository must not stall a turn).
const MAX_SEARCH_BYTES: u64 = 64 << 20;
/// Blobs larger than this are not searched (generated or binary data).
const MAX_BLOB: usize = 1 << 20;

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("valid regex"))
}

/// The citations in `text`, each once.
pub fn extract(text: &str) -> Vec<(String, &'static str)> {
    static LOC: OnceLock<Regex> = OnceLock::new();
    static TICK: OnceLock<Regex> = OnceLock::new();
    static URL: OnceLock<Regex> = OnceLock::new();
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

/// HEAD of a repository, to check citations against. It holds the repository's path, not an
/// open handle, so checks can run on their own threads (while the next speaker speaks).
#[derive(Debug, Clone)]
pub struct Checker {
    git_dir: Option<std::path::PathBuf>,
}

impl Checker {
    pub fn new(repo: Option<&git2::Repository>) -> Checker {
        Checker {
            git_dir: repo.map(|r| r.path().to_path_buf()),
        }
    }

    pub fn check(&self, text: &str) -> Vec<Citation> {
        let repo = self
            .git_dir
            .as_deref()
            .and_then(|d| git2::Repository::open(d).ok());
        extract(text)
            .into_iter()
            .map(|(cited, kind)| {
                let (status, detail) = status(repo.as_ref(), &cited, kind);
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

fn status(repo: Option<&git2::Repository>, cited: &str, kind: &str) -> (Status, String) {
    if kind == "url" {
        return (Status::Unverifiable, String::new());
    }
    let Some(tree) = repo.and_then(|r| r.head().ok()?.peel_to_tree().ok()) else {
        return (Status::Unverifiable, "no repository HEAD".into());
    };
    let repo = repo.expect("checked above");
    let blob_text = |path: &str| -> Option<String> {
        let entry = tree
            .get_path(std::path::Path::new(path.trim_start_matches("./")))
            .ok()?;
        let blob = repo.find_blob(entry.id()).ok()?;
        Some(String::from_utf8_lossy(blob.content()).into_owned())
    };
    match kind {
        "location" => {
            let (path, lines) = cited.rsplit_once(':').expect("location has a colon");
            let mut range = lines.split('-').filter_map(|n| n.parse::<usize>().ok());
            let start = range.next().unwrap_or(0);
            let end = range.next().unwrap_or(start);
            match blob_text(path) {
                None => (Status::NotFound, format!("{path} does not exist at HEAD")),
                Some(t) => {
                    let n = t.lines().count();
                    if start >= 1 && start <= end && end <= n {
                        (Status::Verified, String::new())
                    } else {
                        (
                            Status::Unreliable,
                            format!("{path} exists but has {n} lines"),
                        )
                    }
                }
            }
        }
        "path" => {
            let p = cited.trim_start_matches("./").trim_end_matches('/');
            if tree.get_path(std::path::Path::new(p)).is_ok() {
                (Status::Verified, String::new())
            } else {
                (Status::NotFound, "no such path at HEAD".into())
            }
        }
        _ => search(repo, &tree, cited),
    }
}

/// Whether `pattern` occurs in any file at HEAD (bounded).
fn search(repo: &git2::Repository, tree: &git2::Tree, pattern: &str) -> (Status, String) {
    let mut found: Option<String> = None;
    let mut read = 0u64;
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
        Some(path) => (Status::Verified, format!("in {path}")),
        None if read > MAX_SEARCH_BYTES => (
            Status::Unverifiable,
            "the repository is too large to search fully".into(),
        ),
        None => (Status::NotFound, "occurs in no file at HEAD".into()),
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
