//! What the read-only check costs per model call, in a large repository with many dirty files.
//!
//! Why: `backend::readonly::Snapshot::take` runs before and after every model call (a review
//! makes a dozen), to report what a "read-only" reviewer changed. Its cost must follow what can
//! change, not the size of the repository times the number of dirty files.
//!
//! The repository: 20,000 tracked files (200 folders x 100 files of 2 KB), committed; then 3,000
//! of them edited in place (same size, so only their content tells them apart from the index),
//! 200 untracked files, and an ignored `target/` of 5,000 files. Measured: `Snapshot::take` and
//! `Snapshot::changes` of two snapshots, each once untimed and then `BENCH_ITERS` times (default
//! 10); min / median / max milliseconds. `git status --porcelain` is timed as a yardstick.
//!
//! ```text
//! cargo bench --bench readonly
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)] // a tool of its own: its output is the point

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use git_debate::Snapshot;

const DIRS: usize = 200;
const FILES_PER_DIR: usize = 100;
const DIRTY: usize = 3000;
const UNTRACKED: usize = 200;
const IGNORED: usize = 5000;

fn main() {
    let iters: usize = std::env::var("BENCH_ITERS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(10);
    let tmp = tempfile::Builder::new()
        .prefix("git-debate-readonly-bench-")
        .tempdir()
        .expect("tempdir");
    let repo = tmp.path().join("repo");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    std::env::set_var("HOME", &home);
    std::env::set_var("GIT_CONFIG_NOSYSTEM", "1");
    std::env::set_var("GIT_CONFIG_GLOBAL", "/dev/null");
    let start = Instant::now();
    for d in 0..DIRS {
        let dir = repo.join(format!("src/d{d:03}"));
        std::fs::create_dir_all(&dir).expect("create a folder");
        for f in 0..FILES_PER_DIR {
            std::fs::write(dir.join(format!("f{f:03}.txt")), content(d, f, 0)).expect("write");
        }
    }
    std::fs::write(repo.join(".gitignore"), "/target/\n").expect("write .gitignore");
    git(&repo, &["init", "-q", "-b", "main"]);
    git(&repo, &["add", "-A"]);
    git(
        &repo,
        &[
            "-c",
            "user.name=b",
            "-c",
            "user.email=b@b",
            "commit",
            "-qm",
            "base",
        ],
    );
    // Stat data settles (no racily clean entries), as in a long-lived clone.
    std::thread::sleep(Duration::from_millis(1100));
    git(&repo, &["update-index", "-q", "--refresh"]);
    for i in 0..DIRTY {
        let (d, f) = (i % DIRS, i / DIRS);
        let path = repo.join(format!("src/d{d:03}/f{f:03}.txt"));
        std::fs::write(path, content(d, f, 1)).expect("edit");
    }
    for i in 0..UNTRACKED {
        std::fs::write(
            repo.join(format!("src/d{:03}/new{i}.txt", i % DIRS)),
            "new\n",
        )
        .expect("untracked");
    }
    let target = repo.join("target/debug");
    std::fs::create_dir_all(&target).expect("target");
    for i in 0..IGNORED {
        std::fs::write(target.join(format!("o{i}.o")), "obj\n").expect("ignored");
    }
    println!(
        "Generated {} files, {DIRTY} edited, {UNTRACKED} untracked, {IGNORED} ignored in {:.1} s; \
         {iters} iterations.\n",
        DIRS * FILES_PER_DIR,
        start.elapsed().as_secs_f64()
    );

    let mut rows = Vec::new();
    rows.push(row("`Snapshot::take`", iters, || {
        Snapshot::take(&repo).expect("a snapshot");
    }));
    let (a, b) = (
        Snapshot::take(&repo).unwrap(),
        Snapshot::take(&repo).unwrap(),
    );
    rows.push(row("`Snapshot::changes` (nothing changed)", iters, || {
        assert!(a.changes(&b).is_empty());
    }));
    rows.push(row("`git status --porcelain` (yardstick)", iters, || {
        git(&repo, &["status", "--porcelain"]);
    }));
    println!("| operation | min (ms) | median (ms) | max (ms) |\n|---|---:|---:|---:|");
    for (name, mut samples) in rows {
        samples.sort();
        let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
        println!(
            "| {name} | {} | {} | {} |",
            ms(samples[0]),
            ms(samples[samples.len() / 2]),
            ms(samples[samples.len() - 1])
        );
    }
}

fn row(name: &str, iters: usize, mut f: impl FnMut()) -> (String, Vec<Duration>) {
    f();
    let samples = (0..iters)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    (name.to_string(), samples)
}

/// About 2 KB of text; `generation` changes every line but keeps the size.
fn content(d: usize, f: usize, generation: usize) -> String {
    (0..40)
        .map(|l| format!("line {l:02} of file {d:03}/{f:03}, version {generation}: some text\n"))
        .collect()
}

fn git(dir: &Path, args: &[&str]) {
    let status = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .status()
        .expect("run git");
    assert!(status.success(), "git {args:?} failed");
}
