//! What `git diff --raw --numstat -p -z` prints, read back into [`FileChange`]s as it streams.
//!
//! The output has three parts. First the raw records (`:<mode> <mode> <id> <id> <status>` then
//! the path, or a rename's or copy's two paths, each ended by a NUL), then the numstat records
//! (`<added>\t<deleted>\t` then the path, or an empty path and the two, `-` counts for a binary
//! file), then one more NUL, then the patch. Raw and numstat records are in the order of the
//! patch's sections, one section per file, two for a type change (the old side deleted, the new
//! added). So names, statuses and modes come from the raw records, byte for byte and never
//! parsed out of a quoted header; "binary" from numstat (git says so even of an unchanged
//! binary rename, which has no patch text); hunks from the patch, their header lines exactly as
//! git prints them, each hunk's lines counted off by its header so no content line is ever
//! taken for a header.
//!
//! Lines arrive one at a time (split at newlines, so a path holding a newline comes in pieces
//! and is joined again); only the file being read is held beyond the finished ones.

use std::collections::HashSet;

use anyhow::Result;

use crate::git::diff::MAX_FILE_BYTES;
use crate::git::{name_of, FileChange, Hunk, Status};

const GITLINK: u32 = 0o160000;

/// One file of the raw and numstat lists.
#[derive(Debug, Clone)]
struct Listed {
    status: u8,
    modes: (u32, u32),
    ids: (String, String),
    path: Vec<u8>,
    old_path: Option<Vec<u8>>,
    binary: bool,
}

/// The hunk being read: its lines still to come on the old and the new side.
#[derive(Debug, Default)]
struct Open {
    old: u32,
    new: u32,
}

/// Reads one `git diff --raw --numstat -p -z` stream.
#[derive(Debug, Default)]
pub(super) struct Reader {
    prefix: Vec<u8>,
    in_patch: bool,
    listed: Vec<Listed>,
    /// The listed file the current section belongs to, and its sections still to come.
    next: usize,
    parts_left: u8,
    current: Option<FileChange>,
    hunk: Option<Open>,
    /// Bytes of hunk text of the current file (past [`MAX_FILE_BYTES`] it is listed as too large).
    bytes: u64,
    /// Paths added only for this diff (untracked files): listed as untracked, not added.
    untracked: HashSet<Vec<u8>>,
    pub files: Vec<FileChange>,
    error: Option<String>,
}

impl Reader {
    pub fn new(untracked: HashSet<Vec<u8>>) -> Reader {
        Reader {
            untracked,
            ..Reader::default()
        }
    }

    /// One line of output, without its newline.
    pub fn line(&mut self, line: &[u8]) {
        if self.error.is_some() {
            return;
        }
        if self.in_patch {
            return self.patch_line(line);
        }
        self.prefix.extend_from_slice(line);
        self.prefix.push(b'\n');
        match read_lists(&self.prefix, false) {
            Ok(Some((listed, end))) => {
                self.listed = listed;
                self.in_patch = true;
                let first = self.prefix[end..self.prefix.len() - 1].to_vec();
                self.prefix = Vec::new();
                if !first.is_empty() {
                    self.patch_line(&first);
                }
            }
            Ok(None) => {}
            Err(e) => self.error = Some(e),
        }
    }

    /// The files read, once the output has ended.
    pub fn finish(mut self) -> Result<Vec<FileChange>> {
        if !self.in_patch && !self.prefix.is_empty() && self.error.is_none() {
            // Lists and no patch at all: the last newline was ours, not git's.
            self.prefix.pop();
            match read_lists(&self.prefix, true) {
                Ok(Some((listed, _))) => self.listed = listed,
                Ok(None) => self.error = Some("its file list was cut short".into()),
                Err(e) => self.error = Some(e),
            }
        }
        self.end_section();
        if let Some(e) = self.error {
            anyhow::bail!("cannot read the output of `git diff`: {e}");
        }
        if self.next != self.listed.len() || self.parts_left != 0 {
            anyhow::bail!(
                "cannot read the output of `git diff`: it listed {} files but printed {} of them",
                self.listed.len(),
                self.next
            );
        }
        Ok(self.files)
    }

    fn patch_line(&mut self, line: &[u8]) {
        if let Some(open) = &mut self.hunk {
            if open.old > 0 || open.new > 0 {
                let counted = match line.first() {
                    Some(b' ') | None => {
                        open.old = open.old.saturating_sub(1);
                        open.new = open.new.saturating_sub(1);
                        true
                    }
                    Some(b'-') => {
                        open.old = open.old.saturating_sub(1);
                        true
                    }
                    Some(b'+') => {
                        open.new = open.new.saturating_sub(1);
                        true
                    }
                    Some(b'\\') => true,
                    _ => false,
                };
                if counted {
                    return self.hunk_line(line);
                }
                self.error = Some(format!(
                    "a hunk line starts with {:?}",
                    String::from_utf8_lossy(&line[..line.len().min(20)])
                ));
                return;
            }
            if line.first() == Some(&b'\\') {
                return self.hunk_line(line);
            }
            self.hunk = None;
        }
        if line.starts_with(b"diff --git ") || line.starts_with(b"* Unmerged path ") {
            return self.start_section();
        }
        let Some(fc) = self.current.as_mut() else {
            self.error = Some(format!(
                "text before the first file: {:?}",
                String::from_utf8_lossy(&line[..line.len().min(40)])
            ));
            return;
        };
        if line.starts_with(b"@@ ") {
            let Some((old, new)) = hunk_sizes(line) else {
                self.error = Some(format!(
                    "a hunk header it cannot read: {:?}",
                    String::from_utf8_lossy(line)
                ));
                return;
            };
            self.hunk = Some(Open { old, new });
            if keeps_hunks(fc) {
                fc.hunks.push(Hunk {
                    header: String::from_utf8_lossy(line).into_owned(),
                    lines: Vec::new(),
                });
            }
        } else if line.starts_with(b"Binary files ") {
            fc.binary = true;
        }
    }

    fn hunk_line(&mut self, line: &[u8]) {
        let Some(fc) = self.current.as_mut() else {
            return;
        };
        if let Some(sub) = fc.submodule.as_mut() {
            // A work-tree side's commit is not in the raw list; its patch line names it.
            let named = |prefix: &[u8]| {
                line.strip_prefix(prefix).map(|id| {
                    let id = String::from_utf8_lossy(id);
                    id.trim_end_matches("-dirty").to_string()
                })
            };
            if let (None, Some(id)) = (&sub.1, named(b"+Subproject commit ")) {
                sub.1 = Some(id);
            } else if let (None, Some(id)) = (&sub.0, named(b"-Subproject commit ")) {
                sub.0 = Some(id);
            }
        }
        if !keeps_hunks(fc) {
            return;
        }
        match line.first() {
            Some(b'+') => fc.additions += 1,
            Some(b'-') => fc.deletions += 1,
            _ => {}
        }
        self.bytes += line.len() as u64 + 1;
        if self.bytes > MAX_FILE_BYTES {
            // Listed like a file too big to load, as a libgit2 diff lists it.
            fc.hunks = Vec::new();
            fc.binary = true;
            fc.too_large = true;
            (fc.additions, fc.deletions) = (0, 0);
            return;
        }
        // `diff.suppressBlankEmpty` prints an empty context line without its space.
        let line = if line.is_empty() { &b" "[..] } else { line };
        let text = String::from_utf8_lossy(line);
        fc.lossy |= matches!(text, std::borrow::Cow::Owned(_));
        let text = text.into_owned();
        if let Some(h) = fc.hunks.last_mut() {
            h.lines.push(text);
        }
    }

    /// A new section: the next part of the listed file being read, or the next listed file.
    fn start_section(&mut self) {
        self.end_section();
        if self.parts_left == 0 {
            let Some(l) = self.listed.get(self.next) else {
                self.error = Some(format!(
                    "it printed more files than the {} it listed",
                    self.listed.len()
                ));
                return;
            };
            self.parts_left = if l.status == b'T' { 2 } else { 1 };
        }
        let l = &self.listed[self.next];
        let typechange = l.status == b'T';
        let first = self.parts_left == 2;
        self.parts_left -= 1;
        if self.parts_left == 0 {
            self.next += 1;
        }
        self.bytes = 0;
        let submodule = l.modes.0 == GITLINK || l.modes.1 == GITLINK;
        if typechange && submodule && !first {
            // A type change to or from a submodule is one file, as a libgit2 diff lists it.
            return;
        }
        self.current = Some(file_of(l, &self.untracked, typechange.then_some(first)));
    }

    fn end_section(&mut self) {
        self.hunk = None;
        if let Some(fc) = self.current.take() {
            self.files.push(fc);
        }
    }
}

/// Whether a file's hunks are kept: never a submodule's (its pointer is the change) nor those
/// of a file found too large.
fn keeps_hunks(fc: &FileChange) -> bool {
    fc.submodule.is_none() && !fc.too_large
}

/// The change for listed file `l`; `part`: for a type change, whether this is its first part
/// (the old side, deleted) or its second (the new side, added).
fn file_of(l: &Listed, untracked: &HashSet<Vec<u8>>, part: Option<bool>) -> FileChange {
    let submodule = (l.modes.0 == GITLINK || l.modes.1 == GITLINK).then(|| {
        let id = |s: &str| (!s.bytes().all(|b| b == b'0')).then(|| s.to_string());
        (id(&l.ids.0), id(&l.ids.1))
    });
    let (status, modes) = match (l.status, part) {
        (b'T', _) if submodule.is_some() => (Status::Typechange, l.modes),
        (b'T', Some(true)) => (Status::Deleted, (l.modes.0, 0)),
        (b'T', _) => (Status::Added, (0, l.modes.1)),
        (b'A', _) if untracked.contains(&l.path) => (Status::Untracked, l.modes),
        (b'A', _) => (Status::Added, l.modes),
        (b'D', _) => (Status::Deleted, l.modes),
        (b'R', _) => (Status::Renamed, l.modes),
        (b'C', _) => (Status::Copied, l.modes),
        _ => (Status::Modified, l.modes),
    };
    FileChange {
        binary: l.binary && submodule.is_none(),
        submodule,
        ..FileChange::named(
            name_of(&l.path),
            l.old_path.as_deref().map(name_of),
            status,
            modes,
        )
    }
}

/// `@@ -a[,b] +c[,d] @@…` -> (b, d); a missing count is 1.
fn hunk_sizes(line: &[u8]) -> Option<(u32, u32)> {
    let text = std::str::from_utf8(line.get(3..)?).ok().or_else(|| {
        // The function name after the second `@@` may be in any encoding; the ranges are ASCII.
        let end = line.windows(2).skip(3).position(|w| w == b"@@")? + 3;
        std::str::from_utf8(&line[3..end]).ok()
    })?;
    let mut parts = text.split(' ');
    let count = |part: Option<&str>, sign: char| -> Option<u32> {
        let range = part?.strip_prefix(sign)?;
        match range.split_once(',') {
            Some((_, n)) => n.parse().ok(),
            None => range.parse::<u64>().ok().map(|_| 1),
        }
    };
    Some((count(parts.next(), '-')?, count(parts.next(), '+')?))
}

/// The raw and numstat lists at the start of `bytes`, and where the patch begins; `None` while
/// they are incomplete. `whole`: `bytes` is all there is (no patch follows).
fn read_lists(bytes: &[u8], whole: bool) -> Result<Option<(Vec<Listed>, usize)>, String> {
    let mut listed: Vec<Listed> = Vec::new();
    let mut numstat = 0;
    let mut at = 0;
    // The next NUL-ended field from `at`.
    let field = |at: &mut usize| -> Option<Vec<u8>> {
        let end = bytes[*at..].iter().position(|&b| b == 0)? + *at;
        let f = bytes[*at..end].to_vec();
        *at = end + 1;
        Some(f)
    };
    loop {
        match bytes.get(at) {
            None if whole => return Ok(Some((listed, at))),
            None => return Ok(None),
            Some(0) => return Ok(Some((listed, at + 1))),
            Some(b':') => {
                let mut pos = at;
                let Some(meta) = field(&mut pos) else {
                    return Ok(None);
                };
                let mut l = raw_record(&meta)?;
                let Some(path) = field(&mut pos) else {
                    return Ok(None);
                };
                if matches!(l.status, b'R' | b'C') {
                    let Some(new) = field(&mut pos) else {
                        return Ok(None);
                    };
                    l.old_path = Some(path);
                    l.path = new;
                } else {
                    l.path = path;
                }
                listed.push(l);
                at = pos;
            }
            Some(_) => {
                let mut pos = at;
                let Some(counts) = field(&mut pos) else {
                    return Ok(None);
                };
                let binary = counts.starts_with(b"-\t-\t");
                // `<added>\t<deleted>\t<path>`; a rename's or copy's path is empty, its two
                // paths follow.
                let mut tabs = counts.iter().enumerate().filter(|(_, &b)| b == b'\t');
                let after = tabs.nth(1).map_or(counts.len(), |(i, _)| i + 1);
                if after == counts.len() {
                    for _ in 0..2 {
                        if field(&mut pos).is_none() {
                            return Ok(None);
                        }
                    }
                }
                let Some(l) = listed.get_mut(numstat) else {
                    return Err("more numstat lines than files".into());
                };
                l.binary = binary;
                numstat += 1;
                at = pos;
            }
        }
    }
}

/// `:100644 100644 <id> <id> M` (a score may follow the status letter).
fn raw_record(meta: &[u8]) -> Result<Listed, String> {
    let text = std::str::from_utf8(meta).map_err(|_| "a raw line that is not text")?;
    let parts: Vec<&str> = text.trim_start_matches(':').split(' ').collect();
    let [old_mode, new_mode, old_id, new_id, status] = parts.as_slice() else {
        return Err(format!("a raw line it cannot read: {text:?}"));
    };
    let mode = |m: &str| u32::from_str_radix(m, 8).map_err(|_| format!("a mode {m:?}"));
    Ok(Listed {
        status: status.bytes().next().unwrap_or(b'M'),
        modes: (mode(old_mode)?, mode(new_mode)?),
        ids: (old_id.to_string(), new_id.to_string()),
        path: Vec::new(),
        old_path: None,
        binary: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(out: &[u8]) -> Vec<FileChange> {
        let mut r = Reader::new(HashSet::new());
        for line in out.split(|&b| b == b'\n') {
            r.line(line);
        }
        r.finish().unwrap()
    }

    const ZERO: &str = "0000000000000000000000000000000000000000";

    #[test]
    fn reads_names_statuses_binary_and_hunks() {
        let a = "1111111111111111111111111111111111111111";
        let mut out = Vec::new();
        out.extend(format!(":100644 100644 {a} {a} R100\0b.bin\0c.bin\0").bytes());
        out.extend(format!(":100644 100755 {a} {ZERO} M\0new\nline\0").bytes());
        out.extend(b"-\t-\t\0b.bin\0c.bin\0" as &[u8]);
        out.extend(b"1\t1\tnew\nline\0\0" as &[u8]);
        out.extend(
            b"diff --git a/b.bin b/c.bin\nsimilarity index 100%\nrename from b.bin\n\
              rename to c.bin\ndiff --git \"a/new\\nline\" \"b/new\\nline\"\nold mode 100644\n\
              new mode 100755\n--- \"a/new\\nline\"\n+++ \"b/new\\nline\"\n\
              @@ -1,2 +1,2 @@ fn main() \n x\n-@@ -9 +9 @@\n+diff --git a b\n\\ No newline at end of file\n"
                as &[u8],
        );
        let files = read(&out);
        assert_eq!(files.len(), 2);
        assert_eq!(
            (
                files[0].status,
                files[0].binary,
                files[0].old_path.as_deref()
            ),
            (Status::Renamed, true, Some("b.bin"))
        );
        let f = &files[1];
        // Named as it is (quoted only where a header is written).
        assert_eq!(f.path, "new\nline");
        assert_eq!(f.modes, (0o100644, 0o100755));
        assert_eq!(f.hunks[0].header, "@@ -1,2 +1,2 @@ fn main() ");
        assert_eq!(
            f.hunks[0].lines,
            [
                " x",
                "-@@ -9 +9 @@",
                "+diff --git a b",
                "\\ No newline at end of file"
            ]
        );
        assert_eq!((f.additions, f.deletions), (1, 1));
    }

    #[test]
    fn a_type_change_is_two_files_and_an_empty_output_none() {
        let a = "1111111111111111111111111111111111111111";
        let mut out = Vec::new();
        out.extend(format!(":100644 120000 {a} {a} T\0x\0").bytes());
        out.extend(b"1\t1\tx\0\0" as &[u8]);
        out.extend(
            b"diff --git a/x b/x\ndeleted file mode 100644\n--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-hi\n\
              diff --git a/x b/x\nnew file mode 120000\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+t\n\
              \\ No newline at end of file"
                as &[u8],
        );
        let files = read(&out);
        let got: Vec<(Status, (u32, u32), usize)> = files
            .iter()
            .map(|f| (f.status, f.modes, f.hunks[0].lines.len()))
            .collect();
        assert_eq!(
            got,
            [
                (Status::Deleted, (0o100644, 0), 1),
                (Status::Added, (0, 0o120000), 2)
            ]
        );
        assert!(Reader::new(HashSet::new()).finish().unwrap().is_empty());
    }
}
