//! Scope-resolution benchmark on a large generated repository.
//!
//! Why: `git debate` resolves every scope with libgit2 in-process and computes full hunks (not
//! just a stat), then redacts, budgets and renders them into the artifact. This benchmark shows
//! what that costs on a big change, next to what `git` itself needs for the same range, so a
//! regression (or a claim in the README's performance section) can be checked with numbers.
//!
//! What it does, once per run, in a temporary directory (generation time is printed):
//!
//! - builds a repository of 200 directories x 100 files x 40 lines (20,000 files) with one
//!   `git fast-import` child fed from this program, and commits it as "base";
//! - commits "head" on top: 2,000 files changed (1,985 with three edited lines each, 5 added,
//!   5 deleted, 5 renamed with a one-line edit; 8 edits carry a fake AWS key for redaction to
//!   find), then checks the work tree out at head;
//! - measures `scope::resolve` for `range:HEAD~1..HEAD`, the same plus `artifact::from_change`
//!   (and `from_change` alone), `git diff --stat` and full `git diff` of the same range, and the
//!   release binary end to end (`--dry-run --scope range:HEAD~1..HEAD`);
//! - then modifies 2,000 other files in the work tree without committing and measures
//!   `scope::resolve` for `uncommitted` next to `git diff --stat HEAD`, and the binary with
//!   `--scope uncommitted`.
//!
//! Every operation runs once untimed (warm-up; it also yields the "files" count), then
//! `BENCH_ITERS` times (default 5); min / median / max wall-clock milliseconds are printed as a
//! markdown table. Library calls get a freshly opened `git2::Repository` each iteration (opening is
//! not timed) so libgit2's object cache does not carry over, as in a real one-shot invocation.
//! Child processes are timed from spawn to exit, output to `/dev/null`.
//!
//! All `git` children and the binary run with a hermetic environment (temp `HOME`,
//! `GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL=/dev/null`, fixed author/committer and dates); the
//! same variables are set in this process before libgit2 is first used.
//!
//! The binary is `option_env!("CARGO_BIN_EXE_git-debate")`, which cargo sets for benchmarks and builds
//! before running them (`target/release/git-debate` under `cargo bench`); if that variable is
//! missing, it is taken next to the bench executable (`target/release/deps/scope-*` ->
//! `target/release/git-debate`).
//!
//! Run it with (about 30 s on 2 cores with the default iterations, plus the first release build):
//!
//! ```text
//! cargo bench --bench scope
//! BENCH_ITERS=10 cargo bench --bench scope     # more iterations
//! benches/run-scope-bench.sh                   # same, plus the machine and git version
//! ```

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use git_debate::artifact;
use git_debate::config::TargetSetting;
use git_debate::review::export;
use git_debate::scope::{self, Scope};

const DIRS: usize = 200;
const FILES_PER_DIR: usize = 100;
const LINES_PER_FILE: usize = 40;
/// Files whose global index is `3 (mod 10)` change in the head commit, `7 (mod 10)` in the work
/// tree: 2,000 each, never the same file.
const HEAD_RESIDUE: usize = 3;
const WORKTREE_RESIDUE: usize = 7;
/// Among the 2,000 head candidates (`k` = index / 10): `k % 400` picks the special ones.
const DELETE_AT: usize = 100;
const SKIP_AT: usize = 200;
const RENAME_AT: usize = 300;
const ADDED: usize = 5;
const BUDGET: u64 = 262_144;
const CONTEXT_LINES: u32 = 3;
/// Head candidates with `k % 250 == SECRET_AT` get a fake credential in an edited line, so
/// redaction has matches to handle (8 files).
const SECRET_AT: usize = 7;
/// The `generation` of an edit that carries the fake credential.
const SECRET_EDIT: u64 = 9;
/// AWS's documented example access key id, split so this source holds no credential-shaped
/// literal for secret scanners to flag.
const FAKE_KEY: [&str; 2] = ["AKIA", "IOSFODNN7EXAMPLE"];
const AUTHOR: &str = "Bench Author <bench@example.com>";
const BASE_DATE: &str = "1767225600 +0000"; // 2026-01-01T00:00:00Z
const HEAD_DATE: &str = "1767229200 +0000";

fn main() {
    // As the binary does: no re-hashing of objects read (`repo::read_like_git`).
    git_debate::repo::read_like_git();
    let iters: usize = match std::env::var("BENCH_ITERS") {
        Ok(v) => v.trim().parse().ok().filter(|n| *n > 0).unwrap_or_else(|| {
            eprintln!("BENCH_ITERS must be a positive integer, got {v:?}");
            std::process::exit(2)
        }),
        Err(_) => 5,
    };
    // cargo bench passes `--bench` (and any filter); there is nothing to filter here.
    let tmp = tempfile::Builder::new()
        .prefix("git-debate-scope-bench-")
        .tempdir()
        .expect("tempdir");
    let root = tmp.path().canonicalize().expect("canonical tempdir");
    let env = Env::new(&root);
    env.apply_to_self();
    let bin = binary_path();
    eprintln!(
        "bench: repository in {}, binary {}",
        env.repo.display(),
        bin.display()
    );

    let gen = generate(&env);
    println!(
        "Generated {} files ({} MB) + head commit ({} files changed) in {:.1} s \
         (fast-import {:.1} s, checkout {:.1} s); {} iterations per operation, {}, {} CPUs.\n",
        DIRS * FILES_PER_DIR,
        gen.bytes / 1_000_000,
        gen.head_changes,
        (gen.import + gen.checkout).as_secs_f64(),
        gen.import.as_secs_f64(),
        gen.checkout.as_secs_f64(),
        iters,
        env.git_output(&["--version"]).trim(),
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
    );

    let range = Scope::Range {
        from: "HEAD~1".into(),
        to: "HEAD".into(),
        three_dots: false,
    };
    let mut rows = Vec::new();
    let mut notes = Vec::new();

    let (samples, files) = measure(iters, || {
        let repo = env.open();
        timed(|| {
            scope::resolve(&repo, &range, CONTEXT_LINES)
                .expect("resolve range")
                .files
                .len()
        })
    });
    rows.push(Row::new(
        "`scope::resolve` range:HEAD~1..HEAD (libgit2)",
        samples,
        files,
    ));

    let (samples, (files, art)) = measure(iters, || {
        let repo = env.open();
        timed(|| {
            let change = scope::resolve(&repo, &range, CONTEXT_LINES).expect("resolve range");
            let art =
                artifact::from_change(&change, "range:HEAD~1..HEAD", TargetSetting::Auto, BUDGET);
            (change.files.len(), art)
        })
    });
    rows.push(Row::new(
        "`resolve` + `artifact::from_change` (redact, budget, render)",
        samples,
        files,
    ));
    notes.push(format!(
        "artifact: {} bytes of text for a {BUDGET}-byte budget, {} of {} content bytes kept, {} redactions",
        art.text.len(),
        art.truncation.kept_bytes,
        art.truncation.content_bytes,
        art.redactions.count,
    ));

    let change = scope::resolve(&env.open(), &range, CONTEXT_LINES).expect("resolve range");
    let (samples, files) = measure(iters, || {
        timed(|| {
            artifact::from_change(&change, "range:HEAD~1..HEAD", TargetSetting::Auto, BUDGET);
            change.files.len()
        })
    });
    rows.push(Row::new("`artifact::from_change` alone", samples, files));
    notes.push(format!(
        "change: {} files, +{} -{} lines, {} hunks",
        change.files.len(),
        change.additions(),
        change.deletions(),
        change.files.iter().map(|f| f.hunks.len()).sum::<usize>(),
    ));
    drop(change);

    rows.push(env.bench_git(
        iters,
        "`git diff --stat HEAD~1 HEAD`",
        &["diff", "--stat", "HEAD~1", "HEAD"],
        stat_files,
    ));
    rows.push(env.bench_git(
        iters,
        "`git diff HEAD~1 HEAD > /dev/null` (full patch)",
        &["diff", "HEAD~1", "HEAD"],
        patch_files,
    ));
    rows.push(env.bench_binary(iters, &bin, "range:HEAD~1..HEAD"));

    // The redacted copy a review's model CLIs run in: every tracked file of the head commit.
    rows.push(env.bench_export(iters, &range, "the head commit"));

    let changed = modify_work_tree(&env);
    notes.push(format!(
        "work tree: {changed} files modified on top of head, not staged"
    ));

    let (samples, files) = measure(iters, || {
        let repo = env.open();
        timed(|| {
            scope::resolve(&repo, &Scope::Uncommitted, CONTEXT_LINES)
                .expect("resolve uncommitted")
                .files
                .len()
        })
    });
    rows.push(Row::new(
        "`scope::resolve` uncommitted (libgit2, work tree)",
        samples,
        files,
    ));
    rows.push(env.bench_git(
        iters,
        "`git diff --stat HEAD` (work tree)",
        &["diff", "--stat", "HEAD"],
        stat_files,
    ));
    rows.push(env.bench_git(
        iters,
        "`git diff HEAD > /dev/null` (work tree, full patch)",
        &["diff", "HEAD"],
        patch_files,
    ));
    rows.push(env.bench_binary(iters, &bin, "uncommitted"));

    rows.push(env.bench_export(iters, &Scope::Uncommitted, "the work tree"));

    print!("{}", table(&rows));
    println!();
    for n in notes {
        println!("- {n}");
    }
}

/// Paths and the hermetic environment shared by every child process.
struct Env {
    home: PathBuf,
    repo: PathBuf,
    state: PathBuf,
}

impl Env {
    fn new(root: &Path) -> Env {
        let env = Env {
            home: root.join("home"),
            repo: root.join("repo"),
            state: root.join("state"),
        };
        for d in [&env.home, &env.repo, &env.state] {
            std::fs::create_dir_all(d).expect("create bench directories");
        }
        env
    }

    fn vars(&self) -> Vec<(&'static str, std::ffi::OsString)> {
        let s = |v: &str| std::ffi::OsString::from(v);
        vec![
            ("PATH", std::env::var_os("PATH").unwrap_or_default()),
            ("HOME", self.home.clone().into_os_string()),
            (
                "XDG_CONFIG_HOME",
                self.home.join(".config").into_os_string(),
            ),
            (
                "XDG_STATE_HOME",
                self.home.join(".local/state").into_os_string(),
            ),
            ("GIT_CONFIG_NOSYSTEM", s("1")),
            ("GIT_CONFIG_GLOBAL", s("/dev/null")),
            ("GIT_AUTHOR_NAME", s("Bench Author")),
            ("GIT_AUTHOR_EMAIL", s("bench@example.com")),
            ("GIT_COMMITTER_NAME", s("Bench Author")),
            ("GIT_COMMITTER_EMAIL", s("bench@example.com")),
            ("GIT_AUTHOR_DATE", s("2026-01-01T00:00:00Z")),
            ("GIT_COMMITTER_DATE", s("2026-01-01T00:00:00Z")),
            ("LANG", s("C.UTF-8")),
        ]
    }

    /// The same variables for the in-process library calls; done first thing in `main`, while
    /// this process has a single thread and before libgit2 reads any configuration.
    fn apply_to_self(&self) {
        for (k, v) in self.vars() {
            std::env::set_var(k, v);
        }
    }

    fn command(&self, program: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .envs(self.vars())
            .current_dir(&self.repo)
            .stdin(Stdio::null());
        cmd
    }

    fn git(&self) -> Command {
        self.command(Path::new("git"))
    }

    fn git_run(&self, args: &[&str]) {
        let status = self.git().args(args).status().expect("run git");
        assert!(status.success(), "git {args:?} failed: {status}");
    }

    fn git_output(&self, args: &[&str]) -> String {
        let out = self
            .git()
            .args(args)
            .stderr(Stdio::inherit())
            .output()
            .expect("run git");
        assert!(out.status.success(), "git {args:?} failed: {}", out.status);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn open(&self) -> git2::Repository {
        git2::Repository::open(&self.repo).expect("open the bench repository")
    }

    /// A `git` command: once with its output captured (warm-up, and `files` from the output),
    /// then timed with its output to `/dev/null`.
    fn bench_git(&self, iters: usize, name: &str, args: &[&str], files: fn(&str) -> usize) -> Row {
        let files = files(&self.git_output(args));
        let samples = time_child(iters, || {
            let mut cmd = self.git();
            cmd.args(args);
            cmd
        });
        Row::new(name, samples, files)
    }

    /// The binary end to end, each run with a fresh `--state-dir`.
    /// `review::export` of what `scope` resolves to, written and removed each time.
    fn bench_export(&self, iters: usize, scope: &Scope, what: &str) -> Row {
        let change = scope::resolve(&self.open(), scope, CONTEXT_LINES).expect("resolve");
        let (samples, files) = measure(iters, || {
            let repo = self.open();
            timed(|| {
                export::create(Some(&repo), &export::Source::of_change(&change))
                    .expect("export")
                    .files
            })
        });
        Row::new(
            &format!("`review::export` of {what} (redacted copy for the reviewer)"),
            samples,
            files,
        )
    }

    fn bench_binary(&self, iters: usize, bin: &Path, scope: &str) -> Row {
        let mut n = 0;
        let mut cmd = || {
            n += 1;
            let state = self
                .state
                .join(format!("{scope}-{n}").replace([':', '.'], "_"));
            let mut cmd = self.command(bin);
            cmd.args(["--dry-run", "--scope", scope, "--state-dir"])
                .arg(state);
            cmd
        };
        let out = cmd()
            .stderr(Stdio::inherit())
            .output()
            .expect("run git-debate");
        assert!(
            out.status.success(),
            "git-debate --dry-run --scope {scope} failed: {}",
            out.status
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let files = stdout
            .lines()
            .find_map(|l| l.strip_prefix("files:"))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no 'files:' line in the dry-run summary:\n{stdout}"));
        let samples = time_child(iters, cmd);
        Row::new(
            &format!("`git-debate --dry-run --scope {scope}` (binary, end to end)"),
            samples,
            files,
        )
    }
}

/// Where the release binary is: cargo's `CARGO_BIN_EXE_<name>` (set for benchmarks), else next
/// to this bench executable's `deps/` folder.
fn binary_path() -> PathBuf {
    let path = match option_env!("CARGO_BIN_EXE_git-debate") {
        Some(p) => PathBuf::from(p),
        None => {
            let exe = std::env::current_exe().expect("current_exe");
            let deps = exe.parent().expect("bench executable has a folder");
            deps.parent().unwrap_or(deps).join("git-debate")
        }
    };
    assert!(
        path.is_file(),
        "no git-debate binary at {} (run `cargo build --release`)",
        path.display()
    );
    path
}

struct Generated {
    import: Duration,
    checkout: Duration,
    bytes: usize,
    head_changes: usize,
}

/// Builds base and head with one `git fast-import`, then checks head out.
fn generate(env: &Env) -> Generated {
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
    let mut head_changes = 0;
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
            "head\n\nChange 2,000 of the 20,000 files.",
            HEAD_DATE,
        );
        for g in (HEAD_RESIDUE..DIRS * FILES_PER_DIR).step_by(10) {
            let (d, f, k) = (g / FILES_PER_DIR, g % FILES_PER_DIR, g / 10);
            match k % 400 {
                SKIP_AT => continue,
                DELETE_AT => writeln!(w, "D {}", path_of(d, f)).expect("write to fast-import"),
                RENAME_AT => {
                    let to = format!("src/moved/mod_{d:03}_file_{f:03}.rs");
                    writeln!(w, "R {} {to}", path_of(d, f)).expect("write to fast-import");
                    put_file(&mut w, &to, &file_content(d, f, &[(23, 1)]));
                }
                _ => {
                    let last = if k % 250 == SECRET_AT { SECRET_EDIT } else { 1 };
                    put_file(
                        &mut w,
                        &path_of(d, f),
                        &file_content(d, f, &[(5, 1), (17, 1), (29, last)]),
                    )
                }
            }
            head_changes += 1;
        }
        for a in 0..ADDED {
            put_file(
                &mut w,
                &format!("src/added/new_{a:03}.rs"),
                &file_content(DIRS + a, 0, &[]),
            );
            head_changes += 1;
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
        head_changes,
    }
}

fn commit_header(w: &mut impl Write, message: &str, date: &str) {
    write!(
        w,
        "commit refs/heads/main\nauthor {AUTHOR} {date}\ncommitter {AUTHOR} {date}\ndata {}\n{message}\n",
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

/// Forty lines of plausible Rust, unique per file (so rename detection has real work and no
/// accidental exact matches). `edits`: (line, generation) pairs whose seed constant is replaced.
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
                "//! Module {d:03}, file {f:03}: generated by benches/scope.rs."
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

/// Modifies 2,000 files that head did not touch, after the index has settled (no racily clean
/// entries), as an editing session would.
fn modify_work_tree(env: &Env) -> usize {
    // Let the checkout's mtimes fall strictly before the index's, then refresh the index, so
    // unmodified files are clean by stat as in a long-lived clone.
    std::thread::sleep(Duration::from_millis(1100));
    env.git_run(&["update-index", "-q", "--refresh"]);
    let mut n = 0;
    for g in (WORKTREE_RESIDUE..DIRS * FILES_PER_DIR).step_by(10) {
        let (d, f) = (g / FILES_PER_DIR, g % FILES_PER_DIR);
        let content = file_content(d, f, &[(11, 2), (23, 2), (35, 2)]);
        std::fs::write(env.repo.join(path_of(d, f)), content).expect("modify a work-tree file");
        n += 1;
    }
    n
}

fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let out = f();
    (start.elapsed(), out)
}

/// One untimed warm-up, then `iters` samples; `one` times its own measured section.
fn measure<T>(iters: usize, mut one: impl FnMut() -> (Duration, T)) -> (Vec<Duration>, T) {
    let (_, mut last) = one();
    let mut samples = Vec::with_capacity(iters);
    for _ in 0..iters {
        let (d, out) = one();
        samples.push(d);
        last = out;
    }
    (samples, last)
}

/// Spawn-to-exit times of a command, stdout to `/dev/null`; the caller ran it once already.
fn time_child(iters: usize, mut make: impl FnMut() -> Command) -> Vec<Duration> {
    (0..iters)
        .map(|_| {
            let mut cmd = make();
            let null = File::create("/dev/null").expect("open /dev/null");
            cmd.stdout(null).stderr(Stdio::inherit());
            let (d, status) = timed(|| cmd.status().expect("spawn a child"));
            assert!(status.success(), "{cmd:?} failed: {status}");
            d
        })
        .collect()
}

/// " 2000 files changed, ..." -> 2000.
fn stat_files(out: &str) -> usize {
    out.lines()
        .last()
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn patch_files(out: &str) -> usize {
    out.lines().filter(|l| l.starts_with("diff --git ")).count()
}

struct Row {
    name: String,
    samples: Vec<Duration>,
    files: usize,
}

impl Row {
    fn new(name: &str, mut samples: Vec<Duration>, files: usize) -> Row {
        samples.sort();
        Row {
            name: name.to_string(),
            samples,
            files,
        }
    }

    fn median(&self) -> Duration {
        let n = self.samples.len();
        if n % 2 == 1 {
            self.samples[n / 2]
        } else {
            (self.samples[n / 2 - 1] + self.samples[n / 2]) / 2
        }
    }
}

fn table(rows: &[Row]) -> String {
    let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
    let mut s = String::from(
        "| operation | min (ms) | median (ms) | max (ms) | files |\n|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let (min, max) = (r.samples[0], r.samples[r.samples.len() - 1]);
        writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            r.name,
            ms(min),
            ms(r.median()),
            ms(max),
            r.files
        )
        .expect("write to a String");
    }
    s
}
