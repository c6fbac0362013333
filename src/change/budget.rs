//! Fitting a change into the artifact's size budget, deterministically and never silently.
//!
//! A model's context is finite and a huge prompt is slow and expensive, so the diff content is
//! bounded by `debate.maxArtifactBytes`. What gives way first follows how much a reviewer loses:
//! changed lines of ordinary files are kept longest, then their context lines, then deleted files,
//! then lock/generated/vendored files; binaries are never sent. Every file that lost anything is
//! listed, with what it lost, in the artifact, the dry-run summary and `metadata.json`.

use serde::Serialize;

use crate::git::{FileChange, Status};

/// What the budget did. Empty lists mean the whole change was sent.
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
pub struct Truncation {
    pub budget_bytes: u64,
    /// Size of the diff content before fitting, and what was kept.
    pub content_bytes: usize,
    pub kept_bytes: usize,
    /// Files whose content is never sent (binary, too large, submodule pointers).
    pub not_sent: Vec<Note>,
    /// Files left out to fit the budget.
    pub omitted: Vec<Note>,
    /// Files sent in part.
    pub clipped: Vec<Note>,
}

impl Truncation {
    /// True when the budget cut something (policy exclusions such as binaries do not count).
    pub fn cut_anything(&self) -> bool {
        !self.omitted.is_empty() || !self.clipped.is_empty()
    }
}

#[derive(Debug, Clone, Serialize, serde::Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct Note {
    pub path: String,
    pub reason: String,
    /// The file's changes were left out whole (no chunk, no prompt held them): it is not
    /// evaluated, and the review cannot pass it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub omitted: bool,
}

impl Note {
    /// A note on part of a file left out (clipped lines, a file never sent).
    pub fn part(path: String, reason: String) -> Note {
        Note {
            path,
            reason,
            omitted: false,
        }
    }
}

/// How many "did not fit" lines a report shows one by one; past it, one line says how many.
const NOTES_SHOWN: usize = 10;

/// The report lines for notes on files that lost some of their lines: one each when few, else
/// one line for them all (a 10,000-file change printed 11,879 of them). Every note stays in the
/// session's JSON.
pub fn note_lines(notes: &[Note]) -> Vec<String> {
    if notes.len() <= NOTES_SHOWN {
        return notes
            .iter()
            .map(|n| format!("did not fit: {}: {}", n.path, n.reason))
            .collect();
    }
    let mut files: Vec<&str> = notes.iter().map(|n| n.path.as_str()).collect();
    files.dedup();
    let shown = files[..files.len().min(NOTES_SHOWN)].join(", ");
    vec![format!(
        "did not fit: {} parts of {} files were left out or clipped to fit the budget: {shown}{} \
         (every one is listed in the session's JSON)",
        notes.len(),
        files.len(),
        if files.len() > NOTES_SHOWN {
            format!(" and {} more", files.len() - NOTES_SHOWN)
        } else {
            String::new()
        }
    )]
}

/// Priority classes, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Code,
    Deleted,
    Generated,
}

/// How much of one file is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Hunks with their context lines.
    Full,
    /// Only changed lines (and hunk headers).
    ChangedOnly,
    /// The first n changed lines.
    Clipped(usize),
    Omitted,
}

/// Decides, for each file (same order as `files`), how much of it to render within `budget`
/// bytes of diff text.
pub fn fit(files: &[FileChange], budget: u64) -> (Vec<Keep>, Truncation) {
    let mut t = Truncation {
        budget_bytes: budget,
        ..Default::default()
    };
    let mut keep = vec![Keep::Omitted; files.len()];
    let mut left = budget as usize;
    let full: Vec<usize> = files
        .iter()
        .map(|f| render_file(f, Keep::Full).len())
        .collect();
    t.content_bytes = full.iter().sum();

    let mut by_class: Vec<(Class, usize)> = Vec::new();
    for (i, f) in files.iter().enumerate() {
        if let Some(reason) = never_sent(f) {
            t.not_sent.push(Note::part(f.path.clone(), reason));
            continue;
        }
        let class = if is_generated(&f.path) {
            Class::Generated
        } else if f.status == Status::Deleted {
            Class::Deleted
        } else {
            Class::Code
        };
        by_class.push((class, i));
    }

    // 1. Changed lines of ordinary code, in path order; the file that crosses the line is clipped.
    for &(_, i) in by_class.iter().filter(|(c, _)| *c == Class::Code) {
        let size = render_file(&files[i], Keep::ChangedOnly).len();
        if size <= left {
            keep[i] = Keep::ChangedOnly;
            left -= size;
        } else if let Some(n) = lines_that_fit(&files[i], left) {
            keep[i] = Keep::Clipped(n);
            left -= render_file(&files[i], Keep::Clipped(n)).len();
        }
    }
    // 2. Their context lines.
    for &(_, i) in by_class.iter().filter(|(c, _)| *c == Class::Code) {
        if keep[i] == Keep::ChangedOnly {
            let extra = full[i] - render_file(&files[i], Keep::ChangedOnly).len();
            if extra <= left {
                keep[i] = Keep::Full;
                left -= extra;
            }
        }
    }
    // 3. and 4. Deleted files, then generated ones: whole or not at all.
    for class in [Class::Deleted, Class::Generated] {
        for &(_, i) in by_class.iter().filter(|(c, _)| *c == class) {
            if full[i] <= left {
                keep[i] = Keep::Full;
                left -= full[i];
            }
        }
    }

    for &(class, i) in &by_class {
        let f = &files[i];
        let changed = f.additions + f.deletions;
        let note = |reason: String| Note::part(f.path.clone(), reason);
        match keep[i] {
            Keep::Full => {}
            Keep::ChangedOnly => t
                .clipped
                .push(note("context lines left out to fit the budget".into())),
            Keep::Clipped(n) => t.clipped.push(note(format!(
                "kept the first {n} of {changed} changed lines"
            ))),
            Keep::Omitted => t.omitted.push(Note {
                omitted: true,
                ..note(match class {
                    Class::Code => format!("{changed} changed lines left out to fit the budget"),
                    Class::Deleted => {
                        "deleted file; its old content left out to fit the budget".into()
                    }
                    Class::Generated => {
                        "lock/generated/vendored file left out to fit the budget".into()
                    }
                })
            }),
        }
    }
    t.kept_bytes = files
        .iter()
        .zip(&keep)
        .map(|(f, k)| render_file(f, *k).len())
        .sum();
    (keep, t)
}

fn never_sent(f: &FileChange) -> Option<String> {
    if let Some((old, new)) = &f.submodule {
        let s = |o: &Option<String>| {
            o.as_deref()
                .map_or("none".to_string(), |s| s[..7.min(s.len())].to_string())
        };
        return Some(format!(
            "submodule pointer {} -> {}; not descended into",
            s(old),
            s(new)
        ));
    }
    if f.too_large {
        return Some("too large to load; content not sent".into());
    }
    if f.binary {
        return Some("binary; content not sent".into());
    }
    None
}

/// The largest number of changed lines whose clipped rendering fits in `room`; `None` when not
/// even the file header and one line fit.
fn lines_that_fit(f: &FileChange, room: usize) -> Option<usize> {
    let (mut lo, mut hi) = (0usize, f.additions + f.deletions);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if render_file(f, Keep::Clipped(mid)).len() <= room {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    (lo > 0).then_some(lo)
}

/// Lock files, build output and vendored code: changes there are rarely where a reviewer's
/// attention pays off, so they give way first.
pub fn is_generated(path: &str) -> bool {
    const NAMES: &[&str] = &[
        "Cargo.lock",
        "package-lock.json",
        "npm-shrinkwrap.json",
        "yarn.lock",
        "pnpm-lock.yaml",
        "poetry.lock",
        "Pipfile.lock",
        "uv.lock",
        "Gemfile.lock",
        "composer.lock",
        "go.sum",
        "flake.lock",
        "mix.lock",
        "pubspec.lock",
        "Podfile.lock",
        "packages.lock.json",
    ];
    const DIRS: &[&str] = &[
        "vendor",
        "node_modules",
        "third_party",
        "dist",
        "target",
        "__generated__",
    ];
    let name = path.rsplit('/').next().unwrap_or(path);
    NAMES.contains(&name)
        || name.ends_with(".lock")
        || name.contains(".min.")
        || name.ends_with(".map")
        || name.ends_with(".pb.go")
        || name.contains("_generated.")
        || name.contains(".generated.")
        || path.split('/').rev().skip(1).any(|d| DIRS.contains(&d))
}

/// One file as unified diff text (headers and hunks), as much of it as `keep` says.
pub fn render_file(f: &FileChange, keep: Keep) -> String {
    if keep == Keep::Omitted {
        return String::new();
    }
    let old = f.old_path.as_deref().unwrap_or(&f.path);
    let q = crate::git::quote_path;
    let mut s = format!("diff --git {} {}\n", q("a/", old), q("b/", &f.path));
    let (a, b) = match f.status {
        Status::Added | Status::Untracked => ("/dev/null".to_string(), q("b/", &f.path)),
        Status::Deleted => (q("a/", old), "/dev/null".to_string()),
        _ => (q("a/", old), q("b/", &f.path)),
    };
    // The mode lines git writes, in its order, before any rename lines.
    match (f.status, f.modes) {
        (Status::Added | Status::Untracked, (_, new)) if new != 0 => {
            s.push_str(&format!("new file mode {new:o}\n"));
        }
        (Status::Deleted, (old, _)) if old != 0 => {
            s.push_str(&format!("deleted file mode {old:o}\n"));
        }
        (_, (old, new)) if old != 0 && new != 0 && old != new => {
            s.push_str(&format!("old mode {old:o}\nnew mode {new:o}\n"));
        }
        _ => {}
    }
    if f.old_path.is_some() {
        // git heads a copy `copy from`/`copy to`, a rename `rename from`/`rename to`.
        let how = if f.status == Status::Copied {
            "copy"
        } else {
            "rename"
        };
        s.push_str(&format!(
            "{how} from {}\n{how} to {}\n",
            q("", old),
            q("", &f.path)
        ));
    }
    if f.hunks.is_empty() {
        return s;
    }
    // git ends a `---`/`+++` name that holds a space with a tab, so patch tools see where it
    // ends (the `diff --git` line has no such mark).
    let end = |n: &str| if n.contains(' ') { "\t" } else { "" };
    s.push_str(&format!("--- {a}{}\n+++ {b}{}\n", end(&a), end(&b)));
    let mut budget_lines = match keep {
        Keep::Clipped(n) => n,
        _ => usize::MAX,
    };
    for h in &f.hunks {
        if budget_lines == 0 {
            break;
        }
        s.push_str(&h.header);
        s.push('\n');
        for line in &h.lines {
            let changed = line.starts_with('+') || line.starts_with('-');
            if !changed && keep != Keep::Full {
                continue;
            }
            if changed {
                if budget_lines == 0 {
                    break;
                }
                budget_lines = budget_lines.saturating_sub(1);
            }
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::Hunk;

    fn file(path: &str, status: Status, changed: usize, context: usize) -> FileChange {
        let mut lines: Vec<String> = (0..context).map(|i| format!(" context {i}")).collect();
        lines.extend((0..changed).map(|i| format!("+added line {i}")));
        FileChange {
            path: path.into(),
            old_path: None,
            status,
            binary: false,
            too_large: false,
            lossy: false,
            submodule: None,
            additions: changed,
            deletions: 0,
            hunks: vec![Hunk {
                header: "@@ -1 +1 @@".into(),
                lines,
            }],
            modes: (0o100644, 0o100644),
        }
    }

    #[test]
    fn everything_fits_in_a_large_budget() {
        let files = vec![
            file("a.rs", Status::Modified, 5, 3),
            file("Cargo.lock", Status::Modified, 5, 3),
        ];
        let (keep, t) = fit(&files, 1 << 20);
        assert_eq!(keep, vec![Keep::Full, Keep::Full]);
        assert!(!t.cut_anything());
        assert_eq!(t.kept_bytes, t.content_bytes);
    }

    #[test]
    fn priority_is_changed_code_then_context_then_deleted_then_generated() {
        let files = vec![
            file("Cargo.lock", Status::Modified, 10, 0),
            file("gone.rs", Status::Deleted, 10, 0),
            file("src/a.rs", Status::Modified, 10, 30),
        ];
        let changed_only = render_file(&files[2], Keep::ChangedOnly).len();
        // Room for a.rs's changed lines and the deleted file, not for context or the lock file.
        let budget = changed_only + render_file(&files[1], Keep::Full).len() + 10;
        let (keep, t) = fit(&files, budget as u64);
        assert_eq!(keep, vec![Keep::Omitted, Keep::Full, Keep::ChangedOnly]);
        assert_eq!(
            t.omitted,
            vec![Note {
                path: "Cargo.lock".into(),
                reason: "lock/generated/vendored file left out to fit the budget".into(),
                omitted: true,
            }]
        );
        assert_eq!(t.clipped.len(), 1);
        assert!(t.kept_bytes <= budget);
    }

    #[test]
    fn the_file_that_crosses_the_budget_is_clipped_and_later_ones_omitted() {
        let files = vec![
            file("a.rs", Status::Modified, 100, 0),
            file("b.rs", Status::Modified, 100, 0),
        ];
        let one = render_file(&files[0], Keep::Full).len();
        let (keep, t) = fit(&files, (one + one / 2) as u64);
        // No context lines: the changed-only rendering is the full one, so it is upgraded.
        assert_eq!(keep[0], Keep::Full);
        assert!(
            matches!(keep[1], Keep::Clipped(n) if n > 10 && n < 100),
            "{keep:?}"
        );
        assert_eq!(t.clipped[0].path, "b.rs");
        let (keep, t) = fit(&files, (one / 2) as u64);
        assert!(matches!(keep[0], Keep::Clipped(_)));
        assert_eq!(keep[1], Keep::Omitted);
        assert_eq!(t.omitted[0].path, "b.rs");
    }

    #[test]
    fn binaries_and_submodules_are_never_sent() {
        let mut bin = file("img.png", Status::Added, 0, 0);
        bin.binary = true;
        let mut sub = file("lib/sub", Status::Modified, 0, 0);
        sub.submodule = Some((Some("a".repeat(40)), Some("b".repeat(40))));
        let (_, t) = fit(&[bin, sub], 1 << 20);
        assert_eq!(t.not_sent.len(), 2);
        assert!(t.not_sent[1].reason.contains("aaaaaaa -> bbbbbbb"));
        assert!(!t.cut_anything());
    }

    #[test]
    fn generated_paths() {
        for p in [
            "Cargo.lock",
            "web/yarn.lock",
            "vendor/x/y.go",
            "a/node_modules/b.js",
            "app.min.js",
            "api.pb.go",
        ] {
            assert!(is_generated(p), "{p}");
        }
        for p in ["src/lock.rs", "vendor.rs", "docs/dist.md"] {
            assert!(!is_generated(p), "{p}");
        }
    }
}
