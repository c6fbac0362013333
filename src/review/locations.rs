//! Is a finding's location real? Each `path:line` a reviewer gives is checked against the
//! reviewed change before any code host sees it: the file is in the change and the line inside
//! one of its hunks (`verified`), the file exists in the reviewed revision but the line is
//! outside the change (`outside-change`), or there is no such file or line (`not-found`).
//!
//! The index is stored in the session (`locations.json`) so `resume` checks the same way. Files
//! outside the change are looked up in the reviewed revision through git (the tree of the
//! reviewed commit or index, or the work tree), and only by repository-relative paths without
//! `..`: a model's answer never chooses which local file we open.

use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt as _;
use std::path::Path;

use crate::findings::{Finding, Location, LocationCheck};
use crate::git::{Change, Status};
pub use crate::store::locations::{Changed, LocationIndex, Revision};

/// `@@ -a,b +c,d @@` → ((a, b), (c, d)).
fn hunk_ranges(header: &str) -> Option<((u32, u32), (u32, u32))> {
    let inner = header.strip_prefix("@@ ")?;
    let end = inner.find(" @@")?;
    let mut parts = inner[..end].split(' ');
    let side = |p: &str| -> Option<(u32, u32)> {
        let p = p.get(1..)?;
        let (s, n) = p.split_once(',').unwrap_or((p, "1"));
        Some((s.parse().ok()?, n.parse().ok()?))
    };
    Some((side(parts.next()?)?, side(parts.next()?)?))
}

impl LocationIndex {
    /// The index with its paths as the artifact shows them: a secret in a file's name is
    /// redacted there, so a finding names the redacted path, and `locations.json` never holds it.
    pub fn with_redacted_paths(mut self) -> LocationIndex {
        let redact = |p: String| crate::redact::redact_path(&p);
        self.changed = self
            .changed
            .into_iter()
            .map(|(p, c)| (redact(p), c))
            .collect();
        self.single_file = self.single_file.map(redact);
        self
    }

    pub fn from_change(change: &Change, revision: Revision) -> LocationIndex {
        let mut changed = BTreeMap::new();
        for f in &change.files {
            let deleted = f.status == Status::Deleted;
            let ranges = f
                .hunks
                .iter()
                .filter_map(|h| hunk_ranges(&h.header))
                .map(|(old, new)| {
                    let (s, n) = if deleted { old } else { new };
                    (s.max(1), s.max(1) + n.saturating_sub(1))
                })
                .collect();
            changed.insert(
                f.path.clone(),
                Changed {
                    ranges,
                    lines: None,
                    deleted,
                },
            );
        }
        let single_file = (change.files.len() == 1).then(|| change.files[0].path.clone());
        LocationIndex {
            changed,
            revision,
            single_file,
        }
    }

    /// A single file reviewed whole (`--scope file:`): every line of it is "the change".
    pub fn whole_file(path: &str, text: &str) -> LocationIndex {
        let n = text.lines().count() as u32;
        let mut changed = BTreeMap::new();
        changed.insert(
            path.to_string(),
            Changed {
                ranges: vec![(1, n.max(1))],
                lines: Some(n),
                deleted: false,
            },
        );
        LocationIndex {
            changed,
            revision: Revision::None,
            single_file: Some(path.to_string()),
        }
    }

    /// Checks (and where needed re-maps) each finding's location.
    pub fn check_all(&self, findings: &mut [Finding], repo: Option<&Path>) {
        let repo = repo.and_then(|r| git2::Repository::open(r).ok());
        for f in findings {
            if let Some(l) = &mut f.location {
                self.check(l, repo.as_ref());
            }
        }
    }

    fn check(&self, l: &mut Location, repo: Option<&git2::Repository>) {
        // A name that is not UTF-8 is known by git's quoted form; a reviewer may cite it without
        // the quotes.
        let quoted = format!("\"{}\"", l.path);
        if !self.changed.contains_key(&l.path) && self.changed.contains_key(&quoted) {
            l.path = quoted;
            l.outside = false;
        }
        // An absolute or shortened path that names a changed file by its tail is that file
        // (codex reports absolute paths of its sandbox copy).
        if !self.changed.contains_key(&l.path) {
            let tail: Vec<&String> = self
                .changed
                .keys()
                .filter(|p| {
                    l.path.ends_with(&format!("/{p}")) || p.ends_with(&format!("/{}", l.path))
                })
                .collect();
            if let [only] = tail.as_slice() {
                l.path = (*only).clone();
                l.outside = false;
            }
        }
        if l.outside {
            l.check = Some(LocationCheck::NotFound);
            return;
        }
        l.check = Some(match self.changed.get(&l.path) {
            Some(c) => match l.start_line {
                None => LocationCheck::Verified,
                Some(s) if c.lines.is_some_and(|n| s > n) && !c.deleted => LocationCheck::NotFound,
                Some(s) => {
                    let e = l.end_line.unwrap_or(s);
                    if c.ranges.iter().any(|(a, b)| s <= *b && e >= *a) {
                        LocationCheck::Verified
                    } else {
                        match self.line_count(&l.path, repo) {
                            Some(n) if s > n && !c.deleted => LocationCheck::NotFound,
                            _ => LocationCheck::OutsideChange,
                        }
                    }
                }
            },
            None => match self.line_count(&l.path, repo) {
                None => LocationCheck::NotFound,
                Some(n) if l.start_line.is_some_and(|s| s > n) => LocationCheck::NotFound,
                Some(_) => LocationCheck::OutsideChange,
            },
        });
    }

    /// Lines of `path` in the reviewed revision; `None` when there is no such file.
    fn line_count(&self, path: &str, repo: Option<&git2::Repository>) -> Option<u32> {
        if let Some(n) = self.changed.get(path).and_then(|c| c.lines) {
            return Some(n);
        }
        // The file's real name (see `scope::name_of`).
        let bytes = crate::git::path_bytes(path);
        let path = Path::new(std::ffi::OsStr::from_bytes(&bytes));
        let safe = !bytes.is_empty()
            && !bytes.starts_with(b"/")
            && !bytes.contains(&b'\\')
            && path
                .components()
                .all(|c| matches!(c, std::path::Component::Normal(_)));
        if !safe {
            return None;
        }
        let repo = repo?;
        let count = |bytes: &[u8]| {
            let n = bytes.iter().filter(|b| **b == b'\n').count();
            (n + usize::from(bytes.last().is_some_and(|b| *b != b'\n'))) as u32
        };
        let tree = match &self.revision {
            Revision::Commit(sha) => git2::Oid::from_str(sha)
                .and_then(|o| repo.find_commit(o))
                .and_then(|c| c.tree())
                .ok(),
            Revision::Tree(sha) => git2::Oid::from_str(sha)
                .and_then(|o| repo.find_tree(o))
                .ok(),
            Revision::WorkTree => {
                // Never through a symlink (of the file or of a folder on its way) out of the
                // work tree: a cloned repository does not choose which local file we read.
                let root = repo.workdir()?.canonicalize().ok()?;
                let full = root.join(path).canonicalize().ok()?;
                if !full.starts_with(&root) || !full.is_file() {
                    return None;
                }
                return crate::sys::file_io::read_regular(
                    &full,
                    crate::sys::file_io::CITED_FILE_CAP,
                )
                .ok()
                .map(|b| count(&b));
            }
            Revision::None => None,
        }?;
        let entry = tree.get_path(path).ok()?;
        let blob = entry.to_object(repo).ok()?.into_blob().ok()?;
        Some(count(blob.content()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunk_headers() {
        assert_eq!(
            hunk_ranges("@@ -1,3 +1,4 @@ fn a()"),
            Some(((1, 3), (1, 4)))
        );
        assert_eq!(hunk_ranges("@@ -5 +6 @@"), Some(((5, 1), (6, 1))));
        assert_eq!(hunk_ranges("@@ -0,0 +1,12 @@"), Some(((0, 0), (1, 12))));
    }

    #[test]
    fn whole_file_and_tails() {
        let idx = LocationIndex::whole_file("src/a.rs", "a\nb\nc\n");
        let mut l = Location::new("/tmp/sandbox/src/a.rs", Some(2), None);
        l.outside = true;
        idx.check(&mut l, None);
        assert_eq!(
            (l.path.as_str(), l.check),
            ("src/a.rs", Some(LocationCheck::Verified))
        );
        let mut past = Location::new("src/a.rs", Some(9), None);
        idx.check(&mut past, None);
        assert_eq!(past.check, Some(LocationCheck::NotFound));
        let mut other = Location::new("src/b.rs", Some(1), None);
        idx.check(&mut other, None);
        assert_eq!(other.check, Some(LocationCheck::NotFound));
        let mut escape = Location::new("../../etc/passwd", Some(1), None);
        idx.check(&mut escape, None);
        assert_eq!(escape.check, Some(LocationCheck::NotFound));
    }

    #[cfg(unix)]
    #[test]
    fn the_work_tree_is_read_only_inside_it() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "1\n2\n3\n").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let repo = git2::Repository::init(dir.path()).unwrap();
        std::fs::write(dir.path().join("in.txt"), "a\nb\n").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret.txt"),
            dir.path().join("link.txt"),
        )
        .unwrap();
        let idx = LocationIndex {
            changed: BTreeMap::new(),
            revision: Revision::WorkTree,
            single_file: None,
        };
        let check = |p: &str| {
            let mut l = Location::new(p, Some(1), None);
            idx.check(&mut l, Some(&repo));
            l.check
        };
        assert_eq!(check("in.txt"), Some(LocationCheck::OutsideChange));
        assert_eq!(check("out/secret.txt"), Some(LocationCheck::NotFound));
        assert_eq!(check("link.txt"), Some(LocationCheck::NotFound));
    }
}
