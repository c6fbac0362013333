//! Finding this project's newest transcript in an agent's folder.
//!
//! Agents file sessions by project in different ways: a folder named after the project's path
//! (claude, qwen), a marker file holding the path (gemini), the path recorded inside each session
//! (codex in the transcript's first line, copilot in a metadata file beside it). Whichever way,
//! a transcript counts only when the folder it names is one of the project's, and the newest
//! (by modification time) of those is read. Links are never followed below the agent's folder,
//! and every listing is bounded.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::sys::file_io::{read_end_no_link, End};
use crate::transcript::Agent;

/// How an agent's transcripts are filed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `<dir>/<slug of the project path>/<inner>/*.jsonl`.
    Slug {
        dir: &'static str,
        inner: &'static str,
    },
    /// `<dir>/YYYY/MM/DD/*.jsonl`, the project's path in the first line (`"cwd"`).
    Dated { dir: &'static str },
    /// `<dir>/<name>/<marker>` holds the project's path; transcripts in `<dir>/<name>/<inner>/`.
    Marked {
        dir: &'static str,
        marker: &'static str,
        inner: &'static str,
    },
    /// `<dir>/<session>/<file>`, the project's path in `<meta>` (`cwd:` or `git_root:`).
    Sessions {
        dir: &'static str,
        file: &'static str,
        meta: &'static str,
    },
    /// Asked of the agent's own command (opencode keeps sessions in a database).
    Command,
}

/// Entries looked at in one folder, at most.
const MAX_ENTRIES: usize = 20_000;
/// Transcripts whose project is checked by reading them, newest first, at most.
const MAX_CHECKED: usize = 400;
/// How much of a file that names the project is read.
const HEAD_BYTES: u64 = 64 << 10;

/// `/src/my_app` → `-src-my-app`: how claude and qwen name a project's folder. Every character
/// but an ASCII letter or digit becomes `-`, one per UTF-16 unit (the CLIs are JavaScript: an
/// emoji is two).
pub fn slug(path: &Path) -> String {
    path.to_string_lossy()
        .chars()
        .flat_map(|c| {
            let n = if c.is_ascii_alphanumeric() {
                1
            } else {
                c.len_utf16()
            };
            std::iter::repeat_n(if c.is_ascii_alphanumeric() { c } else { '-' }, n)
        })
        .collect()
}

/// Longer slugs are cut to this many characters and given a hash of the path, whose function
/// differs between builds of the CLI; so they are found by their prefix and checked by the
/// folder the transcript records.
const SLUG_MAX: usize = 200;

/// The folder names that can be `project`'s under `folder/dir`, and whether they were found by
/// a long slug's prefix (and so must be confirmed).
fn slug_names(folder: &Path, dir: &str, project: &Path) -> (Vec<String>, bool) {
    let name = slug(project);
    if name.len() <= SLUG_MAX {
        return (vec![name], false);
    }
    let prefix = format!("{}-", &name[..SLUG_MAX]);
    let names = below(folder, &[dir])
        .map(|d| subdirs(&d))
        .unwrap_or_default()
        .into_iter()
        .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().into_owned()))
        .filter(|n| n.starts_with(&prefix))
        .collect();
    (names, true)
}

/// The newest transcript of this project, or why there is none (naming where it looked).
/// `session` is the running session's id when the agent exports it to the commands it runs:
/// its transcript is preferred over a newer one of another session in the same project.
pub fn newest(
    agent: &Agent,
    folder: &Path,
    project: &[PathBuf],
    session: Option<&str>,
) -> Result<PathBuf, String> {
    let session = session.filter(|s| {
        s.len() >= 8
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    });
    let rank =
        |p: &Path, t: SystemTime| (session.is_some_and(|s| p.to_string_lossy().contains(s)), t);
    let here = project
        .first()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let none = |looked: String| {
        format!(
            "no {} transcript for this project ({here}): {looked}",
            agent.name
        )
    };
    match agent.layout {
        Layout::Slug { dir, inner } => {
            let mut looked = Vec::new();
            for p in project {
                let (names, long) = slug_names(folder, dir, p);
                looked.push(
                    folder
                        .join(dir)
                        .join(slug(p))
                        .join(inner)
                        .display()
                        .to_string(),
                );
                for name in names {
                    let Some(file) = below(folder, &[dir, &name, inner])
                        .and_then(|d| newest_file(&d, ".jsonl", rank))
                    else {
                        continue;
                    };
                    // The slug is lossy (`/a/b-c` and `/a/b/c` share one, long paths share a
                    // prefix): the transcript's own record of where the agent ran must agree.
                    match recorded_cwd(&file) {
                        Some(cwd) if Path::new(&cwd).starts_with(p) => return Ok(file),
                        None if !long => return Ok(file),
                        Some(cwd) if !long => {
                            return Err(format!(
                                "{} belongs to {cwd}, not this project ({here}); pass the \
                                 content to review instead",
                                file.display()
                            ))
                        }
                        _ => {}
                    }
                }
            }
            Err(none(format!("nothing in {}", looked.join(", "))))
        }
        Layout::Marked { dir, marker, inner } => {
            let base = folder.join(dir);
            for d in below(folder, &[dir])
                .map(|b| subdirs(&b))
                .unwrap_or_default()
            {
                let named = read_small(&d.join(marker)).map(|s| PathBuf::from(s.trim()));
                if named.is_some_and(|n| project.contains(&n)) {
                    if let Some(file) =
                        below(&d, &[inner]).and_then(|i| newest_file(&i, ".jsonl", rank))
                    {
                        return Ok(file);
                    }
                }
            }
            Err(none(format!(
                "no folder in {} has a {marker} naming it",
                base.display()
            )))
        }
        Layout::Dated { dir } => {
            let base = folder.join(dir);
            let mut files = Vec::new();
            for y in below(folder, &[dir])
                .map(|b| subdirs(&b))
                .unwrap_or_default()
            {
                for m in subdirs(&y) {
                    for d in subdirs(&m) {
                        files.extend(list(&d, ".jsonl", false));
                    }
                }
            }
            pick(files, project, rank, |f| {
                let (head, _) = read_end_no_link(f, HEAD_BYTES, End::Head).ok()?;
                first_string_field(&String::from_utf8_lossy(&head), "cwd")
            })
            .ok_or_else(|| none(format!("no session in {} ran here", base.display())))
        }
        Layout::Sessions { dir, file, meta } => {
            let base = folder.join(dir);
            let files: Vec<_> = below(folder, &[dir])
                .map(|b| subdirs(&b))
                .unwrap_or_default()
                .into_iter()
                .filter_map(|d| stamped(&d.join(file)))
                .collect();
            pick(files, project, rank, |f| {
                let text = read_small(&f.parent()?.join(meta))?;
                let v: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).ok()?;
                v.get("cwd").and_then(|c| c.as_str()).map(String::from)
            })
            .ok_or_else(|| none(format!("no session in {} ran here", base.display())))
        }
        Layout::Command => Err(format!("{} has no transcript files", agent.name)),
    }
}

/// `folder/a/b/…` when each of those is a real folder, not a link (empty names are skipped).
fn below(folder: &Path, names: &[&str]) -> Option<PathBuf> {
    let mut path = folder.to_path_buf();
    for n in names.iter().filter(|n| !n.is_empty()) {
        path.push(n);
        if !fs::symlink_metadata(&path).ok()?.is_dir() {
            return None;
        }
    }
    Some(path)
}

/// The best-ranked of `files` whose project (per `project_of`) is one of ours.
fn pick(
    mut files: Vec<(PathBuf, SystemTime)>,
    project: &[PathBuf],
    rank: impl Fn(&Path, SystemTime) -> (bool, SystemTime),
    project_of: impl Fn(&Path) -> Option<String>,
) -> Option<PathBuf> {
    files.sort_by_key(|(p, t)| std::cmp::Reverse(rank(p, *t)));
    files
        .into_iter()
        .take(MAX_CHECKED)
        .map(|(f, _)| f)
        .find(|f| project_of(f).is_some_and(|p| project.contains(&PathBuf::from(p))))
}

/// The regular file `path` (not a link) with its modification time.
fn stamped(path: &Path) -> Option<(PathBuf, SystemTime)> {
    let m = fs::symlink_metadata(path).ok()?;
    (m.is_file())
        .then(|| m.modified().ok())
        .flatten()
        .map(|t| (path.to_path_buf(), t))
}

/// Regular files (or, with `dirs`, folders) in `dir` ending in `ext`, never links.
fn list(dir: &Path, ext: &str, dirs: bool) -> Vec<(PathBuf, SystemTime)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .take(MAX_ENTRIES)
        .flatten()
        .filter(|e| {
            e.file_type()
                .is_ok_and(|t| if dirs { t.is_dir() } else { t.is_file() })
                && e.file_name().to_string_lossy().ends_with(ext)
        })
        .filter_map(|e| {
            let t = e.metadata().ok()?.modified().ok()?;
            Some((e.path(), t))
        })
        .collect()
}

/// Folders in `dir` (not links), in name order.
fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = list(dir, "", true).into_iter().map(|(p, _)| p).collect();
    out.sort();
    out
}

/// The best-ranked file in `dir` (the running session's, else the newest).
fn newest_file(
    dir: &Path,
    ext: &str,
    rank: impl Fn(&Path, SystemTime) -> (bool, SystemTime),
) -> Option<PathBuf> {
    list(dir, ext, false)
        .into_iter()
        .max_by_key(|(p, t)| rank(p, *t))
        .map(|(p, _)| p)
}

/// A small file's text (a marker or metadata file), never through a link.
fn read_small(path: &Path) -> Option<String> {
    let (bytes, _) = read_end_no_link(path, 64 << 10, End::Head).ok()?;
    String::from_utf8(bytes).ok()
}

/// The folder the transcript says the agent last ran in (the last `"cwd"` of its tail).
fn recorded_cwd(file: &Path) -> Option<String> {
    let (tail, _) = read_end_no_link(file, HEAD_BYTES, End::Tail).ok()?;
    let text = String::from_utf8_lossy(&tail);
    let at = text.rfind("\"cwd\":")?;
    first_string_field(&text[at..], "cwd")
}

/// The value of the first `"key": "…"` in `text`, which may be cut anywhere after it. A key
/// inside a JSON string has escaped quotes, so the first bare `"key"` is a real key.
pub fn first_string_field(text: &str, key: &str) -> Option<String> {
    let needle = format!("\"{key}\"");
    let mut from = 0;
    while let Some(i) = text[from..].find(&needle) {
        let rest = text[from + i + needle.len()..].trim_start();
        if let Some(value) = rest.strip_prefix(':') {
            let value = value.trim_start();
            if value.starts_with('"') {
                let mut de = serde_json::Deserializer::from_str(value).into_iter::<String>();
                return de.next().and_then(Result::ok);
            }
        }
        from += i + needle.len();
    }
    None
}
