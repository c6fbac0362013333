//! Cutting a change too big for one prompt into chunks that are reviewed at once.
//!
//! A reviewer judges code best with its neighbours and its tests in view, so files are ordered by
//! module (their directory with `src`/`test`-like folders taken out) and then by stem, which puts
//! `src/parse.rs` beside `tests/parse.rs` and `Foo.java` beside `FooTest.java`; modules are packed
//! whole while they fit. A module bigger than a chunk is cut between files, never inside one; only
//! a file bigger than a chunk is cut, between its hunks, and only a hunk bigger than a chunk is
//! clipped. Whatever does not fit (a clipped hunk, files past `debate.maxChunks`) is named in
//! [`Plan::unfit`]: nothing goes unreviewed without the report saying so.

use std::collections::BTreeMap;

use crate::change::budget::Note;
use crate::change::sections::DiffDoc;

/// Folder names that hold sources or tests rather than name a module.
const NOT_A_MODULE: &[&str] = &[
    "src",
    "lib",
    "app",
    "main",
    "test",
    "tests",
    "spec",
    "specs",
    "__tests__",
    "__test__",
    "testing",
    "java",
    "kotlin",
    "scala",
];
/// Name endings and beginnings that make a file the tests of another.
const TEST_SUFFIXES: &[&str] = &[
    "_test", "_tests", ".test", "_spec", ".spec", "Test", "Tests", "Spec", "-test", "-spec",
];
const TEST_PREFIXES: &[&str] = &["test_", "test-"];

/// Which hunks of a file a chunk holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// The file's index in the document's sections.
    pub section: usize,
    pub hunks: std::ops::Range<usize>,
    /// The file's hunk count (a part holds all of them unless the file was cut).
    pub of: usize,
    /// Bytes kept of a single hunk too big for any chunk.
    pub clipped: Option<usize>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Chunk {
    pub parts: Vec<Part>,
    pub bytes: usize,
}

#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub chunks: Vec<Chunk>,
    pub unfit: Vec<Note>,
}

/// Plans chunks of about `budget` bytes over the sections `include` (indices into `doc`).
pub fn plan(doc: &DiffDoc, include: &[usize], budget: usize, max_chunks: usize) -> Plan {
    let budget = budget.max(1024);
    let mut order = include.to_vec();
    order.sort_by_cached_key(|&i| sort_key(&doc.sections[i].path));
    let mut p = Packer {
        doc,
        budget,
        plan: Plan::default(),
        current: Chunk::default(),
    };
    // Modules, then within a module the files that share a stem (a file and its tests).
    let mut i = 0;
    while i < order.len() {
        let module = module_of(&doc.sections[order[i]].path);
        let j = (i..order.len())
            .find(|&k| module_of(&doc.sections[order[k]].path) != module)
            .unwrap_or(order.len());
        p.group(&order[i..j], true);
        i = j;
    }
    p.flush();
    let mut plan = p.plan;
    if plan.chunks.len() > max_chunks {
        for c in plan.chunks.drain(max_chunks..) {
            for part in c.parts {
                let path = &doc.sections[part.section].path;
                // A file cut across the cap is noted once; whether any of it was reviewed decides
                // whether it is "not evaluated" (see `review::chunked::Coverage`).
                if plan.unfit.last().is_some_and(|n| &n.path == path) {
                    continue;
                }
                plan.unfit.push(Note {
                    path: path.clone(),
                    reason: format!(
                        "not reviewed: the change needs more than {max_chunks} chunks \
                         (debate.maxChunks)"
                    ),
                    omitted: true,
                });
            }
        }
    }
    plan
}

struct Packer<'a> {
    doc: &'a DiffDoc,
    budget: usize,
    plan: Plan,
    current: Chunk,
}

impl Packer<'_> {
    fn size(&self, section: usize) -> usize {
        let s = &self.doc.sections[section];
        s.text.len() + s.path.len() + 24
    }

    /// Packs `files` whole if they fit; else cuts them into smaller groups (by stem, then one
    /// file each).
    fn group(&mut self, files: &[usize], by_stem: bool) {
        let size: usize = files.iter().map(|&f| self.size(f)).sum();
        if self.current.bytes + size <= self.budget {
            return self.add_whole(files, size);
        }
        if size <= self.budget {
            self.flush();
            return self.add_whole(files, size);
        }
        if files.len() == 1 {
            return self.cut_file(files[0]);
        }
        if by_stem {
            let mut i = 0;
            while i < files.len() {
                let stem = stem_of(&self.doc.sections[files[i]].path);
                let j = (i..files.len())
                    .find(|&k| stem_of(&self.doc.sections[files[k]].path) != stem)
                    .unwrap_or(files.len());
                self.group(&files[i..j], false);
                i = j;
            }
        } else {
            for &f in files {
                self.group(&[f], false);
            }
        }
    }

    fn add_whole(&mut self, files: &[usize], size: usize) {
        for &f in files {
            let of = self.doc.sections[f].hunks().len();
            self.current.parts.push(Part {
                section: f,
                hunks: 0..of,
                of,
                clipped: None,
            });
        }
        self.current.bytes += size;
    }

    /// A file bigger than a chunk: its hunks in as few chunks as they fit in.
    fn cut_file(&mut self, f: usize) {
        self.flush();
        let sec = &self.doc.sections[f];
        let hunks = sec.hunks();
        let head = sec.header().len() + sec.path.len() + 24;
        let mut start = 0;
        let mut bytes = head;
        for (k, h) in hunks.iter().enumerate() {
            let len = h.end - h.start;
            if bytes + len > self.budget && k > start {
                self.push_part(f, start..k, hunks.len(), bytes, None);
                start = k;
                bytes = head;
            }
            if head + len > self.budget {
                // One hunk bigger than a chunk: what fits of it, and the rest named.
                let keep = self.budget - head;
                self.plan.unfit.push(Note::part(
                    sec.path.clone(),
                    format!(
                        "hunk {} of {} clipped: {keep} of its {len} bytes reviewed",
                        k + 1,
                        hunks.len()
                    ),
                ));
                self.push_part(f, k..k + 1, hunks.len(), self.budget, Some(keep));
                start = k + 1;
                bytes = head;
                continue;
            }
            bytes += len;
        }
        if start < hunks.len() || hunks.is_empty() {
            // The last part stays open: the next files may fill the rest of its chunk.
            self.current.parts.push(Part {
                section: f,
                hunks: start..hunks.len(),
                of: hunks.len(),
                clipped: None,
            });
            self.current.bytes = bytes;
        }
    }

    fn push_part(
        &mut self,
        f: usize,
        hunks: std::ops::Range<usize>,
        of: usize,
        bytes: usize,
        clipped: Option<usize>,
    ) {
        self.flush();
        self.plan.chunks.push(Chunk {
            parts: vec![Part {
                section: f,
                hunks,
                of,
                clipped,
            }],
            bytes,
        });
    }

    fn flush(&mut self) {
        if !self.current.parts.is_empty() {
            self.plan.chunks.push(std::mem::take(&mut self.current));
        }
    }
}

/// The prompt text of chunk `k` (from 0) of `n`: the change's title and commits, which files
/// this chunk holds, where the others are, and the chunk's diff.
pub fn render(doc: &DiffDoc, chunk: &Chunk, k: usize, n: usize) -> String {
    let title = match doc.head.find("\n## Files (") {
        Some(i) => doc.head[..i].trim_end(),
        None => "",
    };
    let mut s = format!(
        "{title}\n\n## Part {} of {n}\n\nThis change is too big for one review, so its files are \
         reviewed in {n} parts at once. Review the files of this part; the other files are \
         listed only so you know the shape of the whole change.\n\n### Files in this part\n\n",
        k + 1
    );
    let mut diff = String::new();
    let mut mine = std::collections::BTreeSet::new();
    for p in &chunk.parts {
        let sec = &doc.sections[p.section];
        mine.insert(p.section);
        let (a, d) = sec.counts();
        let cut = if p.hunks.len() < p.of {
            format!(
                ", hunks {}-{} of {}: the rest is in another part",
                p.hunks.start + 1,
                p.hunks.end,
                p.of
            )
        } else {
            String::new()
        };
        s.push_str(&format!("- {} (+{a} -{d}{cut})\n", sec.path));
        diff.push_str(sec.header());
        let hunks = sec.hunks();
        for h in &hunks[p.hunks.clone()] {
            let text = &sec.text[h.start..h.end];
            match p.clipped {
                Some(keep) => {
                    diff.push_str(&text[..floor_line(text, keep)]);
                    diff.push_str("[git-debate: the rest of this hunk is left out]\n");
                }
                None => diff.push_str(text),
            }
        }
    }
    let others = doc.sections.len() - mine.len();
    if others > 0 {
        s.push_str(&format!(
            "\n### Other files of the change ({others}), reviewed in other parts\n\n"
        ));
        let mut dirs: BTreeMap<&str, usize> = BTreeMap::new();
        for (i, sec) in doc.sections.iter().enumerate() {
            if !mine.contains(&i) {
                let dir = sec.path.rsplit_once('/').map_or(".", |(d, _)| d);
                *dirs.entry(dir).or_default() += 1;
            }
        }
        for (dir, count) in dirs.iter().take(60) {
            s.push_str(&format!("- {dir}/ ({count} files)\n"));
        }
        if dirs.len() > 60 {
            s.push_str(&format!("- ... and {} more folders\n", dirs.len() - 60));
        }
    }
    let fence = crate::change::fence_for(&diff);
    s.push_str(&format!("\n## Diff\n\n{fence}diff\n{diff}{fence}\n"));
    s
}

/// The paths a chunk holds.
pub fn files(doc: &DiffDoc, chunk: &Chunk) -> Vec<String> {
    let mut out: Vec<String> = chunk
        .parts
        .iter()
        .map(|p| doc.sections[p.section].path.clone())
        .collect();
    out.dedup();
    out
}

/// The longest prefix of at most `max` bytes that ends a line.
fn floor_line(text: &str, max: usize) -> usize {
    let mut cut = max.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text[..cut].rfind('\n').map_or(cut, |nl| nl + 1)
}

/// Files sort by module, then stem, then tests after their code, then path.
fn sort_key(path: &str) -> (String, String, bool, String) {
    let stem = stem_of(path);
    let name = path.rsplit('/').next().unwrap_or(path);
    let is_test = !name.starts_with(&stem) || name.len() > stem.len() + ext_len(name);
    (module_of(path), stem, is_test, path.to_string())
}

fn ext_len(name: &str) -> usize {
    name.rfind('.').map_or(0, |i| name.len() - i)
}

/// The folder a file belongs to, without the folders that only say "sources" or "tests".
fn module_of(path: &str) -> String {
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    dir.split('/')
        .filter(|c| !NOT_A_MODULE.contains(c))
        .collect::<Vec<_>>()
        .join("/")
}

/// A file's name without extension and without test markers: `parse` for `parse.rs`,
/// `parse_test.go`, `test_parse.py` and `parse.spec.ts`.
fn stem_of(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let mut stem = name.split('.').next().unwrap_or(name);
    let dotted = name
        .strip_suffix(&name[name.len() - ext_len(name)..])
        .unwrap_or(name);
    for s in TEST_SUFFIXES {
        if let Some(base) = dotted.strip_suffix(s).filter(|b| !b.is_empty()) {
            stem = base.split('.').next().unwrap_or(base);
            break;
        }
    }
    for p in TEST_PREFIXES {
        if let Some(base) = stem.strip_prefix(p).filter(|b| !b.is_empty()) {
            stem = base;
        }
    }
    stem.to_string()
}

#[cfg(test)]
mod tests;
