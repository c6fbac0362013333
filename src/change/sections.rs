//! A code artifact seen as one section per file, so that calls after the review send only the
//! files that matter: the judge gets the hunks the findings point at, the compromise the files
//! the valid findings touch, and a big change is cut into chunks at file boundaries.
//!
//! The same reader takes our own artifact text (a header, a fenced `diff` block, a trailer) and a
//! model's revised diff (bare, or in its own fence), and a revision is merged back file by file,
//! so a version of the change never shrinks to the few files an author was shown.

use crate::findings::Finding;

/// A diff cut at its `diff --git` lines: what comes before, the files, what comes after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffDoc {
    /// Up to the first file (title, commits, the file list, the opening fence).
    pub head: String,
    pub sections: Vec<Section>,
    /// From the closing fence on (the list of what was not sent).
    pub tail: String,
}

/// One file's part of the diff, headers included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The file's path after the change (before it, for a deletion).
    pub path: String,
    /// The path before a rename, when there is one.
    pub old_path: Option<String>,
    pub text: String,
}

/// A hunk's place in a section: its byte range and the new-side lines it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HunkSpan {
    pub start: usize,
    pub end: usize,
    pub new_start: u32,
    pub new_len: u32,
}

impl DiffDoc {
    /// Reads `text`; `None` when it holds no per-file diff (prose, or a diff without headers).
    pub fn parse(text: &str) -> Option<DiffDoc> {
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        // Files start at `diff --git`; a diff without those lines (as some models write it)
        // starts them at each `---` line that a `+++` line follows.
        let git = lines.iter().any(|l| l.starts_with("diff --git "));
        let mut starts = Vec::new();
        let mut end = text.len();
        let mut offset = 0;
        // A diff quoted in a fenced block ends where the block's content does.
        let fenced: Vec<std::ops::Range<usize>> = crate::markdown::Doc::parse(text)
            .fenced()
            .map(|(_, c)| c.body_span.clone())
            .collect();
        for (i, line) in lines.iter().enumerate() {
            let starts_file = if git {
                line.starts_with("diff --git ")
            } else {
                line.starts_with("--- ") && lines.get(i + 1).is_some_and(|n| n.starts_with("+++ "))
            };
            if offset >= end {
                break;
            }
            if starts_file {
                if starts.is_empty() {
                    if let Some(f) = fenced.iter().find(|f| f.start <= offset && offset < f.end) {
                        end = f.end;
                    }
                }
                starts.push(offset);
            }
            offset += line.len();
        }
        let first = *starts.first()?;
        let sections = starts
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let e = starts.get(i + 1).copied().unwrap_or(end);
                Section::read(&text[s..e])
            })
            .collect();
        Some(DiffDoc {
            head: text[..first].to_string(),
            sections,
            tail: text[end..].to_string(),
        })
    }

    pub fn render(&self) -> String {
        let mut s = self.head.clone();
        for sec in &self.sections {
            s.push_str(&sec.text);
            if !sec.text.ends_with('\n') {
                s.push('\n');
            }
        }
        s.push_str(&self.tail);
        s
    }

    /// The index of the section of `path` (new or old name).
    pub fn find(&self, path: &str) -> Option<usize> {
        let path = path.trim_start_matches("./");
        self.sections
            .iter()
            .position(|s| s.path == path)
            .or_else(|| {
                self.sections
                    .iter()
                    .position(|s| s.old_path.as_deref() == Some(path))
            })
    }

    /// Replaces each file that `revision` holds, adds the files it adds, and keeps the others:
    /// the revised version of the whole change. Returns the paths replaced or added, or `None`
    /// when `revision` holds no per-file diff.
    pub fn merge(&mut self, revision: &str) -> Option<Vec<String>> {
        let rev = DiffDoc::parse(revision)?;
        let mut touched = Vec::new();
        for sec in rev.sections {
            touched.push(sec.path.clone());
            match self.find(&sec.path) {
                Some(i) => self.sections[i] = sec,
                None => self.sections.push(sec),
            }
        }
        Some(touched)
    }
}

impl Section {
    fn read(text: &str) -> Section {
        let mut plus = None;
        let mut minus = None;
        let mut git = None;
        let mut renamed_from = None;
        for line in text.lines() {
            if line.starts_with("@@") {
                break;
            }
            if let Some(p) = line.strip_prefix("+++ ") {
                plus = side(p, "b/");
            } else if let Some(p) = line.strip_prefix("--- ") {
                minus = side(p, "a/");
            } else if let Some(p) = line
                .strip_prefix("rename from ")
                .or_else(|| line.strip_prefix("copy from "))
            {
                renamed_from = Some(unquote(p));
            } else if let Some(p) = line.strip_prefix("diff --git ") {
                git = git_line_new_path(p);
            }
        }
        let path = plus.clone().or(git).or(minus.clone()).unwrap_or_default();
        let old_path = renamed_from.or(minus).filter(|o| *o != path);
        Section {
            path,
            old_path,
            text: text.to_string(),
        }
    }

    /// The section's hunks in order.
    pub fn hunks(&self) -> Vec<HunkSpan> {
        let mut out: Vec<HunkSpan> = Vec::new();
        let mut offset = 0;
        for line in self.text.split_inclusive('\n') {
            if line.starts_with("@@") {
                if let Some(last) = out.last_mut() {
                    last.end = offset;
                }
                let (new_start, new_len) = new_range(line).unwrap_or((0, 0));
                out.push(HunkSpan {
                    start: offset,
                    end: self.text.len(),
                    new_start,
                    new_len,
                });
            }
            offset += line.len();
        }
        out
    }

    /// The lines before the first hunk (`diff --git`, modes, `---`/`+++`).
    pub fn header(&self) -> &str {
        let end = self.hunks().first().map_or(self.text.len(), |h| h.start);
        &self.text[..end]
    }

    /// Lines added and removed.
    pub fn counts(&self) -> (usize, usize) {
        let body = &self.text[self.header().len()..];
        let count = |sign: char| {
            body.lines()
                .filter(|l| l.starts_with(sign) && !l.starts_with("@@"))
                .count()
        };
        (count('+'), count('-'))
    }
}

/// What the judge needs of the change: every file's name and size, and the hunks the findings
/// point at (the hunk holding a finding's line, or a file's first hunks when it names no line),
/// within `cap` bytes. Findings that name no file add nothing: their text is all there is.
pub fn pointed(doc: &DiffDoc, findings: &[Finding], cap: usize) -> String {
    let mut s = format!("## Files ({} changed)\n\n", doc.sections.len());
    for sec in &doc.sections {
        let (a, d) = sec.counts();
        s.push_str(&format!("- {} (+{a} -{d})\n", sec.path));
    }
    // (section, hunk) pairs in the order the diff has them, each once.
    let mut wanted: Vec<(usize, usize)> = Vec::new();
    for f in findings {
        let Some(loc) = &f.location else { continue };
        let Some(i) = doc.find(&loc.path) else {
            continue;
        };
        let hunks = doc.sections[i].hunks();
        let picked: Vec<usize> = match loc.start_line {
            Some(line) => {
                let end = loc.end_line.unwrap_or(line);
                let near = |h: &HunkSpan| {
                    let (lo, hi) = (h.new_start, h.new_start + h.new_len.max(1));
                    lo.saturating_sub(3) <= end && line < hi + 3
                };
                let hit: Vec<usize> = (0..hunks.len()).filter(|&k| near(&hunks[k])).collect();
                if hit.is_empty() {
                    // Outside every hunk: the nearest one still shows what changed there.
                    (0..hunks.len())
                        .min_by_key(|&k| hunks[k].new_start.abs_diff(line))
                        .into_iter()
                        .collect()
                } else {
                    hit
                }
            }
            None => (0..hunks.len().min(3)).collect(),
        };
        if hunks.is_empty() {
            wanted.push((i, usize::MAX));
        }
        wanted.extend(picked.into_iter().map(|k| (i, k)));
    }
    wanted.sort_unstable();
    wanted.dedup();
    let mut body = String::new();
    let mut current = None;
    let mut left_out = 0;
    for (i, k) in wanted {
        let sec = &doc.sections[i];
        let hunk = sec.hunks().get(k).map(|h| &sec.text[h.start..h.end]);
        let header = (current != Some(i)).then(|| sec.header());
        let add = header.map_or(0, str::len) + hunk.map_or(0, str::len);
        if body.len() + add > cap {
            left_out += 1;
            continue;
        }
        if let Some(h) = header {
            body.push_str(h);
            current = Some(i);
        }
        body.push_str(hunk.unwrap_or(""));
    }
    if body.is_empty() {
        s.push_str("\n(no finding points at a changed file)\n");
    } else {
        let fence = crate::change::fence_for(&body);
        s.push_str(&format!(
            "\n## The hunks the findings point at\n\n{fence}diff\n{body}{fence}\n"
        ));
    }
    if left_out > 0 {
        s.push_str(&format!(
            "\n({left_out} more hunks left out to fit the budget; read them in the repository)\n"
        ));
    }
    s
}

/// `+++ b/src/x.rs` -> `src/x.rs`; `/dev/null` -> none.
fn side(p: &str, prefix: &str) -> Option<String> {
    let p = p.split('\t').next().unwrap_or(p).trim_end();
    if p == "/dev/null" {
        return None;
    }
    let p = unquote(p);
    Some(p.strip_prefix(prefix).map(str::to_string).unwrap_or(p))
}

/// The new path of a `diff --git a/x b/x` line (the half after the last ` b/`).
fn git_line_new_path(rest: &str) -> Option<String> {
    if rest.starts_with('"') || rest.ends_with('"') {
        let i = rest.rfind(" \"b/").or_else(|| rest.rfind(" b/"))?;
        return Some(
            unquote(rest[i + 1..].trim())
                .trim_start_matches("b/")
                .to_string(),
        );
    }
    rest.rfind(" b/").map(|i| rest[i + 3..].to_string())
}

/// Undoes git's C-style quoting of a path, as far as the escapes we write go.
fn unquote(p: &str) -> String {
    let Some(inner) = p.strip_prefix('"').and_then(|p| p.strip_suffix('"')) else {
        return p.to_string();
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some(o) => out.push(o),
            None => {}
        }
    }
    out
}

/// `@@ -1,2 +3,4 @@` -> (3, 4); a count left out means 1.
fn new_range(line: &str) -> Option<(u32, u32)> {
    let plus = line.split_whitespace().find(|w| w.starts_with('+'))?;
    let mut it = plus[1..].splitn(2, ',');
    let start = it.next()?.parse().ok()?;
    let len = it.next().map_or(Some(1), |l| l.parse().ok())?;
    Some((start, len))
}

#[cfg(test)]
mod tests;
