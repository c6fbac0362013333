//! Scope-resolution benchmark on a large generated repository, next to `git diff`.
//!
//! Why: `git debate` resolves every scope with libgit2 in-process and computes full hunks (not
//! just a stat), pairs renames as git does, then redacts, budgets and renders them into the
//! artifact. This benchmark shows what that costs next to what `git diff` needs for the same
//! change, side by side in one run, so a regression (or a claim in the README's performance
//! section) can be checked with numbers. The goal is at most 1.3x `git diff`.
//!
//! The repository (see `gen.rs`): 20,000 files; a commit changing 1,005 of them (tagged `wide`);
//! 500 small commits on top (about 2,000 files, with renames); then 2,000 files edited in the
//! work tree. Measured:
//!
//! - `commit:wide`, `range:wide..HEAD` (500 commits) and `uncommitted`: `resolve_scope` next to
//!   `git diff` of the same sides (full patch to `/dev/null`), and the release binary end to end
//!   (`--dry-run`, which also builds and stores the artifact);
//! - `artifact_from_change` alone (redact, budget, render) for the wide commit;
//! - `review::export` (the reviewer's redacted copy) of the head commit and of the work tree.
//!
//! Every operation runs once untimed (warm-up; it also yields the "files" count), then
//! `BENCH_ITERS` times (default 5); min / median / max wall-clock milliseconds are printed as a
//! markdown table, after a summary table of medians and ratios. Library calls get a freshly
//! opened `git2::Repository` each iteration (opening is not timed) so libgit2's object cache does
//! not carry over, as in a real one-shot invocation. Child processes are timed from spawn to
//! exit, output to `/dev/null`. All `git` children and the binary run with a hermetic
//! environment (temp `HOME`, `GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL=/dev/null`, fixed
//! identities and dates); the same variables are set in this process before libgit2 is used.
//!
//! The binary is `option_env!("CARGO_BIN_EXE_git-debate")`, which cargo sets for benchmarks and
//! builds before running them; if that variable is missing, it is taken next to the bench
//! executable (`target/release/deps/scope-*` -> `target/release/git-debate`).
//!
//! ```text
//! cargo bench --bench scope
//! BENCH_ITERS=10 cargo bench --bench scope     # more iterations
//! benches/run-scope-bench.sh                   # same, plus the machine and git version
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)] // a tool of its own: its output is the point

mod env;
mod gen;

use std::fmt::Write as _;
use std::time::Duration;

use git_debate::{artifact_from_change, resolve_scope, Scope, TargetSetting};

use env::{measure, patch_files, timed, Env, Row};

pub const CONTEXT_LINES: u32 = 3;
const BUDGET: u64 = 262_144;

fn main() {
    // As the binary does: no re-hashing of objects read (`read_like_git`).
    git_debate::read_like_git();
    let iters: usize = match std::env::var("BENCH_ITERS") {
        Ok(v) => v.trim().parse().ok().filter(|n| *n > 0).unwrap_or_else(|| {
            eprintln!("BENCH_ITERS must be a positive integer, got {v:?}");
            std::process::exit(2)
        }),
        Err(_) => 5,
    };
    let tmp = tempfile::Builder::new()
        .prefix("git-debate-scope-bench-")
        .tempdir()
        .expect("tempdir");
    let root = tmp.path().canonicalize().expect("canonical tempdir");
    let env = Env::new(&root);
    env.apply_to_self();
    let bin = env::binary_path();
    eprintln!(
        "bench: repository in {}, binary {}",
        env.repo.display(),
        bin.display()
    );

    let gen = gen::generate(&env);
    println!(
        "Generated {} files ({} MB), a {}-file commit and {} commits on top in {:.1} s \
         (fast-import {:.1} s, checkout {:.1} s); {} iterations per operation, {}, {} CPUs.\n",
        gen::DIRS * gen::FILES_PER_DIR,
        gen.bytes / 1_000_000,
        gen.wide_changes,
        gen::RANGE_COMMITS,
        (gen.import + gen.checkout).as_secs_f64(),
        gen.import.as_secs_f64(),
        gen.checkout.as_secs_f64(),
        iters,
        env.git_output(&["--version"]).trim(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
    );

    let commit = Scope::Commit("wide".into());
    let range = Scope::Range {
        from: "wide".into(),
        to: "HEAD".into(),
        three_dots: false,
    };
    let mut rows = Vec::new();
    let mut sides = Vec::new();
    let mut notes = Vec::new();
    for (scope, git_args, what) in [
        (
            &commit,
            vec!["diff", "wide^", "wide"],
            "a 1,005-file commit",
        ),
        (&range, vec!["diff", "wide", "HEAD"], "500 commits"),
    ] {
        let ours = resolve_row(&env, iters, scope);
        let git = env.bench_git(
            iters,
            &format!("`git {} > /dev/null`", git_args.join(" ")),
            &git_args,
            patch_files,
        );
        let binary = env.bench_binary(iters, &bin, &scope.to_string());
        sides.push(Side::new(scope, what, &ours, &git, &binary));
        rows.extend([ours, git, binary]);
    }

    let change = resolve_scope(&env.open(), &commit, Some(CONTEXT_LINES)).expect("resolve");
    let (samples, art) = measure(iters, || {
        timed(|| artifact_from_change(&change, "commit:wide", TargetSetting::Auto, BUDGET))
    });
    rows.push(Row::new(
        "`artifact::from_change` alone (commit:wide: redact, budget, render)",
        samples,
        change.files.len(),
    ));
    notes.push(format!(
        "commit:wide: {} files, +{} -{} lines; artifact {} bytes for a {BUDGET}-byte budget \
         ({} of {} content bytes kept), {} redactions",
        change.files.len(),
        change.additions(),
        change.deletions(),
        art.text.len(),
        art.truncation.kept_bytes,
        art.truncation.content_bytes,
        art.redactions.count,
    ));
    drop(change);
    rows.push(env.bench_export(iters, &Scope::Commit("HEAD".into()), "the head commit"));

    let changed = gen::modify_work_tree(&env);
    notes.push(format!(
        "work tree: {changed} files modified on top of HEAD, not staged"
    ));
    let ours = resolve_row(&env, iters, &Scope::Uncommitted);
    let git = env.bench_git(
        iters,
        "`git diff HEAD > /dev/null` (work tree)",
        &["diff", "HEAD"],
        patch_files,
    );
    let binary = env.bench_binary(iters, &bin, "uncommitted");
    sides.push(Side::new(
        &Scope::Uncommitted,
        "2,000 edited files",
        &ours,
        &git,
        &binary,
    ));
    rows.extend([ours, git, binary]);
    rows.push(env.bench_export(iters, &Scope::Uncommitted, "the work tree"));

    print!("{}", side_by_side(&sides));
    println!();
    print!("{}", env::table(&rows));
    println!();
    for n in notes {
        println!("- {n}");
    }
}

/// `resolve_scope` of `scope`, a fresh repository handle per run.
fn resolve_row(env: &Env, iters: usize, scope: &Scope) -> Row {
    let (samples, files) = measure(iters, || {
        let repo = env.open();
        timed(|| {
            resolve_scope(&repo, scope, Some(CONTEXT_LINES))
                .expect("resolve")
                .files
                .len()
        })
    });
    Row::new(&format!("`scope::resolve` {scope}"), samples, files)
}

/// One scope's medians: ours, git's, and the binary's.
struct Side {
    scope: String,
    what: &'static str,
    files: usize,
    ours: Duration,
    git: Duration,
    binary: Duration,
}

impl Side {
    fn new(scope: &Scope, what: &'static str, ours: &Row, git: &Row, binary: &Row) -> Side {
        Side {
            scope: scope.to_string(),
            what,
            files: ours.files,
            ours: ours.median(),
            git: git.median(),
            binary: binary.median(),
        }
    }
}

fn side_by_side(sides: &[Side]) -> String {
    let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
    let mut s = String::from(
        "| scope | change | files | `git diff` (ms) | `scope::resolve` (ms) | ratio | \
         binary end to end (ms) |\n|---|---|---:|---:|---:|---:|---:|\n",
    );
    for side in sides {
        writeln!(
            s,
            "| `{}` | {} | {} | {} | {} | {:.2}x | {} |",
            side.scope,
            side.what,
            side.files,
            ms(side.git),
            ms(side.ours),
            side.ours.as_secs_f64() / side.git.as_secs_f64(),
            ms(side.binary),
        )
        .expect("write to a String");
    }
    s
}
