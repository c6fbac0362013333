//! Runs the redactor over every text file at HEAD of one or more git repositories and reports
//! what it would redact, per kind: the false-positive check on ordinary public code
//! (`scripts/redact-false-positives.sh` fetches the repositories and runs this).
//!
//! Usage: `cargo run --release --example redact_scan -- <git-dir>...`. Each hit is printed as
//! `path: [kinds] line-after-redaction` so a person can judge it; blobs with a NUL byte (binary)
//! or over 1 MiB are skipped, as git-debate itself does not send them.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

const MAX_BLOB: usize = 1 << 20;

fn main() {
    let dirs: Vec<String> = std::env::args().skip(1).collect();
    if dirs.is_empty() {
        eprintln!("usage: redact_scan <git-dir>...: give at least one repository's git directory");
        std::process::exit(2);
    }
    let mut total_hits = 0;
    for dir in &dirs {
        total_hits += scan(dir);
    }
    std::process::exit(i32::from(total_hits > 0));
}

/// `(path, blob id)` of every file at HEAD.
fn files(dir: &str) -> Vec<(String, String)> {
    let out = Command::new("git")
        .args(["--git-dir", dir, "ls-tree", "-r", "-z", "HEAD"])
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git ls-tree failed in {dir}");
    out.stdout
        .split(|b| *b == 0)
        .filter_map(|e| {
            let e = std::str::from_utf8(e).ok()?;
            let (meta, path) = e.split_once('\t')?;
            let mut m = meta.split(' ');
            let (_, kind, id) = (m.next()?, m.next()?, m.next()?);
            (kind == "blob").then(|| (path.to_string(), id.to_string()))
        })
        .collect()
}

fn scan(dir: &str) -> usize {
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
    let (mut scanned, mut bytes, mut hits) = (0usize, 0usize, 0usize);
    let mut kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
    let started = std::time::Instant::now();
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
        scanned += 1;
        bytes += size;
        let t = std::time::Instant::now();
        let r = git_debate::redact::redact(&text, Some(path));
        if t.elapsed().as_millis() > 100 {
            eprintln!(
                "{dir}: {path}: slow, {} ms for {size} bytes",
                t.elapsed().as_millis()
            );
        }
        if r.count > 0 {
            hits += r.count;
            for (k, n) in &r.kinds {
                *kinds.entry(k).or_default() += n;
            }
            for line in r.text.lines().filter(|l| l.contains("[REDACTED:")) {
                let line: String = line.trim().chars().take(160).collect();
                println!("{dir}: {path}: {line}");
            }
        }
    }
    writer.join().expect("writer");
    let _ = child.wait();
    println!(
        "{dir}: {scanned} files, {bytes} bytes, {hits} redactions {kinds:?} in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    hits
}
