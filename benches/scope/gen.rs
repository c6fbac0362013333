//! The benchmark's repository, generated with one `git fast-import` fed from this program.
//!
//! - "base": 200 directories x 100 files x 40 lines of plausible Rust (20,000 files), each file
//!   unique so rename detection has real work and no accidental exact matches;
//! - "wide" (tagged `wide`): 1,005 files changed at once (990 with three edited lines, 5 added,
//!   5 deleted, 5 renamed with a one-line edit; 8 edits carry a fake AWS key for redaction);
//! - 500 small commits on top, each editing 4 other files (2,000 in all), every 25th also
//!   renaming one with an edit: `range:wide..HEAD` spans 500 commits and about 2,000 files;
//! - later, [`modify_work_tree`] edits 2,000 more files without committing.

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::env::Env;

pub const DIRS: usize = 200;
pub const FILES_PER_DIR: usize = 100;
const FILES: usize = DIRS * FILES_PER_DIR;
const LINES_PER_FILE: usize = 40;
/// Files whose global index is `3 (mod 20)` change in the wide commit (1,000), `5 (mod 10)` in
/// the 500 small commits (2,000), `7 (mod 10)` in the work tree (2,000): never the same file.
const WIDE_RESIDUE: usize = 3;
const RANGE_RESIDUE: usize = 5;
const WORKTREE_RESIDUE: usize = 7;
/// Among the wide commit's candidates (`k` = index / 20): `k % 200` picks the special ones.
const DELETE_AT: usize = 100;
const RENAME_AT: usize = 150;
const ADDED: usize = 5;
pub const RANGE_COMMITS: usize = 500;
const FILES_PER_COMMIT: usize = 4;
const RENAME_EVERY: usize = 25;
/// Wide candidates with `k % 125 == SECRET_AT` get a fake credential in an edited line (8 files).
const SECRET_AT: usize = 7;
const SECRET_EDIT: u64 = 9;
/// AWS's documented example access key id, split so this source holds no credential-shaped
/// literal for secret scanners to flag.
const FAKE_KEY: [&str; 2] = ["AKIA", "IOSFODNN7EXAMPLE"];
const AUTHOR: &str = "Bench Author <bench@example.com>";
const BASE_DATE: u64 = 1_767_225_600; // 2026-01-01T00:00:00Z

pub struct Generated {
    pub import: Duration,
    pub checkout: Duration,
    pub bytes: usize,
    pub wide_changes: usize,
}

/// Builds the history with one `git fast-import`, tags the wide commit, checks HEAD out.
pub fn generate(env: &Env) -> Generated {
    let start = Instant::now();
    env.git_run(&["init", "-q", "-b", "main"]);
    let mut child = env
        .git()
        .args(["fast-import", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn git fast-import");
    let mut bytes = 0;
    let mut wide_changes = 0;
    {
        let mut w =
            BufWriter::with_capacity(1 << 20, child.stdin.take().expect("fast-import stdin"));
        commit_header(&mut w, "base", BASE_DATE);
        for d in 0..DIRS {
            for f in 0..FILES_PER_DIR {
                let content = file_content(d, f, &[]);
                bytes += content.len();
                put_file(&mut w, &path_of(d, f), &content);
            }
        }
        commit_header(
            &mut w,
            "wide\n\nChange 1,000 of the 20,000 files.",
            BASE_DATE + 3600,
        );
        for g in (WIDE_RESIDUE..FILES).step_by(20) {
            let (d, f, k) = (g / FILES_PER_DIR, g % FILES_PER_DIR, g / 20);
            match k % 200 {
                DELETE_AT => writeln!(w, "D {}", path_of(d, f)).expect("write to fast-import"),
                RENAME_AT => rename(&mut w, d, f, "moved", 23),
                _ => {
                    let last = if k % 125 == SECRET_AT { SECRET_EDIT } else { 1 };
                    let edits = [(5, 1), (17, 1), (29, last)];
                    put_file(&mut w, &path_of(d, f), &file_content(d, f, &edits));
                }
            }
            wide_changes += 1;
        }
        for a in 0..ADDED {
            let content = file_content(DIRS + a, 0, &[]);
            put_file(&mut w, &format!("src/added/new_{a:03}.rs"), &content);
            wide_changes += 1;
        }
        w.write_all(b"reset refs/tags/wide\nfrom refs/heads/main\n\n")
            .expect("write to fast-import");
        let mut next = (RANGE_RESIDUE..FILES).step_by(10);
        for c in 0..RANGE_COMMITS {
            let message = format!("small change {c}");
            commit_header(&mut w, &message, BASE_DATE + 7200 + 60 * c as u64);
            for j in 0..FILES_PER_COMMIT {
                let g = next.next().expect("enough files for the range");
                let (d, f) = (g / FILES_PER_DIR, g % FILES_PER_DIR);
                if j == 0 && c % RENAME_EVERY == 0 {
                    rename(&mut w, d, f, "renamed", 11);
                } else {
                    let edits = [(11, 3 + c as u64), (35, 3)];
                    put_file(&mut w, &path_of(d, f), &file_content(d, f, &edits));
                }
            }
        }
        w.write_all(b"done\n").expect("write to fast-import");
        w.flush().expect("flush fast-import input");
    }
    let status = child.wait().expect("wait for git fast-import");
    assert!(status.success(), "git fast-import failed: {status}");
    let import = start.elapsed();

    let start = Instant::now();
    env.git_run(&["reset", "-q", "--hard", "HEAD"]);
    Generated {
        import,
        checkout: start.elapsed(),
        bytes,
        wide_changes,
    }
}

fn rename(w: &mut impl Write, d: usize, f: usize, to_dir: &str, edited_line: usize) {
    let to = format!("src/{to_dir}/mod_{d:03}_file_{f:03}.rs");
    writeln!(w, "R {} {to}", path_of(d, f)).expect("write to fast-import");
    put_file(w, &to, &file_content(d, f, &[(edited_line, 1)]));
}

fn commit_header(w: &mut impl Write, message: &str, date: u64) {
    write!(
        w,
        "commit refs/heads/main\nauthor {AUTHOR} {date} +0000\ncommitter {AUTHOR} {date} +0000\n\
         data {}\n{message}\n",
        message.len()
    )
    .expect("write to fast-import");
}

fn put_file(w: &mut impl Write, path: &str, content: &str) {
    write!(
        w,
        "M 100644 inline {path}\ndata {}\n{content}\n",
        content.len()
    )
    .expect("write to fast-import");
}

fn path_of(d: usize, f: usize) -> String {
    format!("src/mod_{d:03}/file_{f:03}.rs")
}

/// Forty lines of plausible Rust, unique per file. `edits`: (line, generation) pairs whose seed
/// constant is replaced.
fn file_content(d: usize, f: usize, edits: &[(usize, u64)]) -> String {
    let mut rng = Rng::new((d * FILES_PER_DIR + f) as u64);
    let mut out = String::with_capacity(LINES_PER_FILE * 48);
    for i in 0..LINES_PER_FILE {
        let mut r = rng.next();
        let edit = edits
            .iter()
            .find(|(line, _)| *line == i)
            .map(|(_, generation)| *generation);
        if let Some(generation) = edit {
            r = Rng::new(r ^ generation.wrapping_mul(0x9e37_79b9)).next();
        }
        match i {
            0 => writeln!(
                out,
                "//! Module {d:03}, file {f:03}: generated by benches/scope."
            ),
            1 | 3 => writeln!(out),
            2 => writeln!(out, "use std::collections::HashMap;"),
            _ => match (i - 4) % 6 {
                0 => writeln!(
                    out,
                    "pub fn step_{d}_{f}_{i}(input: &HashMap<u64, u64>) -> u64 {{"
                ),
                1 if edit == Some(SECRET_EDIT) => {
                    let [a, b] = FAKE_KEY;
                    writeln!(
                        out,
                        "    let seed = 0x{r:016x}; // aws_access_key_id = {a}{b}"
                    )
                }
                1 => writeln!(out, "    let seed = 0x{r:016x};"),
                2 => writeln!(
                    out,
                    "    let total: u64 = input.values().map(|v| v ^ seed).sum();"
                ),
                3 => writeln!(
                    out,
                    "    total.wrapping_mul({}) // {}",
                    r % 9973 + 1,
                    WORDS[(r % 8) as usize]
                ),
                4 => writeln!(out, "}}"),
                _ => writeln!(out),
            },
        }
        .expect("write to a String");
    }
    out
}

const WORDS: [&str; 8] = [
    "fold the inputs",
    "mix in the seed",
    "keep it stable across runs",
    "see the design notes",
    "hot path",
    "checked by the tests",
    "no allocation here",
    "order does not matter",
];

/// xorshift64*: deterministic content without a dependency.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Modifies 2,000 files that no commit touched, after the index has settled (no racily clean
/// entries), as an editing session would.
pub fn modify_work_tree(env: &Env) -> usize {
    // Let the checkout's mtimes fall strictly before the index's, then refresh the index, so
    // unmodified files are clean by stat as in a long-lived clone.
    std::thread::sleep(Duration::from_millis(1100));
    env.git_run(&["update-index", "-q", "--refresh"]);
    let mut n = 0;
    for g in (WORKTREE_RESIDUE..FILES).step_by(10) {
        let (d, f) = (g / FILES_PER_DIR, g % FILES_PER_DIR);
        let content = file_content(d, f, &[(11, 2), (23, 2), (35, 2)]);
        std::fs::write(env.repo.join(path_of(d, f)), content).expect("modify a work-tree file");
        n += 1;
    }
    n
}
