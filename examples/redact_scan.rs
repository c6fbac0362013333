//! Runs the redactor over public git repositories and reports what it would redact, per kind: the
//! false-positive check on ordinary public code (`scripts/redact-false-positives.sh` runs this).
//!
//! Usage: `cargo run --release --example redact_scan -- [--diffs N] <git-dir>...`.
//!
//! * Without `--diffs`: every text file at HEAD, redacted as a `file:` scope sends it.
//! * With `--diffs N`: the last N commits of HEAD as a `commit:` scope sends them, hunk by hunk
//!   with the file's path, and each commit message. Every hunk is also checked for its shape: a
//!   redaction must keep its number of lines and every line's diff marker (`+`, `-`, ` `).
//!
//! Each distinct redacted string is printed once as `dir: path: [kind] string`, so a person can
//! judge it, and a summary line per repository gives the counts, the distinct strings, the broken
//! hunks and the time. Blobs with a NUL byte (binary) or over 4 MiB are skipped, as git-debate
//! itself does not send them.
#![allow(clippy::print_stdout, clippy::print_stderr)] // a tool of its own: its output is the point

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::process::{Command, Stdio};
use std::time::Instant;

use git_debate::{redact, Redacted};

/// As git-debate reads a file: up to 4 MiB (`MAX_FILE_BYTES` in `src/git/resolve.rs`).
const MAX_BLOB: usize = 4 << 20;

/// What one repository's scan found.
#[derive(Default)]
struct Tally {
    texts: usize,
    bytes: usize,
    hits: usize,
    kinds: BTreeMap<&'static str, usize>,
    /// `(kind, string)` pairs already printed.
    distinct: BTreeSet<(String, String)>,
    /// Hunks whose shape a redaction changed.
    broken: usize,
}

impl Tally {
    /// Redacts `text` (from `path`), counts and prints what went.
    fn redact(&mut self, dir: &str, path: &str, text: &str, hint: Option<&str>) -> Redacted {
        self.texts += 1;
        self.bytes += text.len();
        let t = Instant::now();
        let r = redact(text, hint);
        if t.elapsed().as_millis() > 100 {
            eprintln!(
                "{dir}: {path}: slow, {} ms for {} bytes",
                t.elapsed().as_millis(),
                text.len()
            );
        }
        if r.count > 0 {
            self.hits += r.count;
            for (k, n) in &r.kinds {
                *self.kinds.entry(k).or_default() += n;
            }
            for (kind, s) in removed(text, &r.text) {
                let s: String = s.chars().take(120).collect();
                if self.distinct.insert((kind.clone(), s.clone())) {
                    println!("{dir}: {path}: [{kind}] {}", s.replace('\n', "\\n"));
                }
            }
        }
        r
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let diffs = match args.iter().position(|a| a == "--diffs") {
        Some(i) => {
            let n = args.get(i + 1).and_then(|n| n.parse::<usize>().ok());
            args.drain(i..(i + 2).min(args.len()));
            Some(n.unwrap_or_else(|| usage()))
        }
        None => None,
    };
    if args.is_empty() {
        usage();
    }
    // The first call compiles what the redactor needs: what every git-debate process pays once.
    let t = Instant::now();
    redact("a plain line of text\n", Some("README.md"));
    println!(
        "first call (rule compilation): {:.1} ms",
        t.elapsed().as_secs_f64() * 1000.0
    );
    let mut total_hits = 0;
    for dir in &args {
        let started = Instant::now();
        let mut tally = Tally::default();
        match diffs {
            Some(n) => scan_diffs(dir, n, &mut tally),
            None => scan_files(dir, &mut tally),
        }
        println!(
            "{dir}: {} texts, {} bytes, {} redactions ({} distinct strings), {} broken hunks {:?} in {:.2} s",
            tally.texts,
            tally.bytes,
            tally.hits,
            tally.distinct.len(),
            tally.broken,
            tally.kinds,
            started.elapsed().as_secs_f64()
        );
        total_hits += tally.hits;
    }
    std::process::exit(i32::from(total_hits > 0));
}

fn usage() -> ! {
    eprintln!(
        "usage: redact_scan [--diffs N] <git-dir>...: give at least one repository's git directory"
    );
    std::process::exit(2);
}

/// The strings a redaction replaced, each with its marker's kind: the original text between the
/// pieces the redacted text kept. A secret across lines (one marker a line) is one string.
fn removed(original: &str, redacted: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut glued = false;
    let mut pieces = redacted.split("[REDACTED:");
    let first = pieces.next().unwrap_or("");
    let mut at = first.len();
    let rest: Vec<&str> = pieces.collect();
    for (i, piece) in rest.iter().enumerate() {
        let Some((kind, kept)) = piece.split_once(']') else {
            continue;
        };
        // The kept text up to the next marker is what follows the secret in the original.
        let end = if i + 1 == rest.len() && kept.is_empty() {
            original.len()
        } else if kept.is_empty() {
            at
        } else {
            original[at..].find(kept).map_or(original.len(), |e| at + e)
        };
        let piece = &original[at..end];
        match out.last_mut() {
            Some((k, s)) if glued && k == kind => {
                s.push('\n');
                s.push_str(piece);
            }
            _ => out.push((kind.to_string(), piece.to_string())),
        }
        // Only a line break (and its diff marker) between two markers: the same secret.
        glued = kept.starts_with('\n') && kept.len() <= 2;
        at = (end + kept.len()).min(original.len());
    }
    out
}

/// `(path, blob id)` of every file at HEAD.
fn files(dir: &str) -> Vec<(String, String)> {
    let out = git(dir, &["ls-tree", "-r", "-z", "HEAD"]);
    out.split('\0')
        .filter_map(|e| {
            let (meta, path) = e.split_once('\t')?;
            let mut m = meta.split(' ');
            let (_, kind, id) = (m.next()?, m.next()?, m.next()?);
            (kind == "blob").then(|| (path.to_string(), id.to_string()))
        })
        .collect()
}

fn git(dir: &str, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["--git-dir", dir])
        .args(args)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?} failed in {dir}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every text file at HEAD, as a `file:` scope reads it.
fn scan_files(dir: &str, tally: &mut Tally) {
    let list = files(dir);
    let mut child = Command::new("git")
        .args(["--git-dir", dir, "cat-file", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("git cat-file runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let ids: Vec<String> = list.iter().map(|(_, id)| id.clone()).collect();
    let writer = std::thread::spawn(move || {
        for id in ids {
            writeln!(stdin, "{id}").expect("write id");
        }
    });
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    for (path, _) in &list {
        let mut header = String::new();
        out.read_line(&mut header).expect("header");
        let size: usize = header
            .split_whitespace()
            .nth(2)
            .and_then(|s| s.parse().ok())
            .expect("blob size");
        let mut blob = vec![0; size + 1];
        out.read_exact(&mut blob).expect("blob");
        blob.pop();
        if size > MAX_BLOB || blob.contains(&0) {
            continue;
        }
        let text = String::from_utf8_lossy(&blob);
        tally.redact(dir, path, &text, Some(path));
    }
    writer.join().expect("writer");
    let _ = child.wait();
}

/// The last `n` commits' messages and hunks, as a `commit:` scope reads them.
fn scan_diffs(dir: &str, n: usize, tally: &mut Tally) {
    let count = n.to_string();
    let log = git(
        dir,
        &[
            "log",
            "-p",
            "--no-color",
            "--no-ext-diff",
            "--no-renames",
            "--format=%x00commit %H%n%B%x00",
            "-n",
            &count,
        ],
    );
    let mut parts = log.split('\0').skip(1);
    while let (Some(head), Some(body)) = (parts.next(), parts.next()) {
        let (sha, message) = head.split_once('\n').unwrap_or((head, ""));
        let sha = sha.trim_start_matches("commit ");
        tally.redact(dir, &format!("{sha} message"), message, None);
        for (path, hunk) in hunks(body) {
            let text = hunk.join("\n");
            if text.len() > MAX_BLOB {
                continue;
            }
            let r = tally.redact(dir, &path, &text, Some(&path));
            if r.count > 0 && !same_shape(&hunk, &r.text) {
                tally.broken += 1;
                println!("{dir}: {path}: BROKEN HUNK in {sha}");
            }
        }
    }
}

/// `(path, lines)` of each hunk of a commit's patch, lines with their diff markers.
fn hunks(patch: &str) -> Vec<(String, Vec<&str>)> {
    let mut out: Vec<(String, Vec<&str>)> = Vec::new();
    let mut path = String::new();
    let mut in_hunk = false;
    for line in patch.lines() {
        if line.starts_with("diff --git ") {
            in_hunk = false;
        } else if in_hunk && line.starts_with(['+', '-', ' ']) {
            out.last_mut().expect("a hunk").1.push(line);
        } else if let Some(p) = line.strip_prefix("+++ b/") {
            path = p.to_string();
        } else if let Some(p) = line.strip_prefix("--- a/") {
            path = p.to_string();
        } else if line.starts_with("@@ ") {
            in_hunk = true;
            out.push((path.clone(), Vec::new()));
        }
    }
    out
}

/// Whether `redacted` has the lines of `hunk`, each with its diff marker.
fn same_shape(hunk: &[&str], redacted: &str) -> bool {
    let lines: Vec<&str> = redacted.split('\n').collect();
    lines.len() == hunk.len()
        && hunk
            .iter()
            .zip(&lines)
            .all(|(a, b)| a.as_bytes().first() == b.as_bytes().first())
}
