//! The benchmark's hermetic environment (temp `HOME`, no system or global git config, fixed
//! identities and dates) for `git` children, the binary and this process, and the timing helpers
//! that turn runs into min / median / max rows.

use std::fmt::Write as _;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use git_debate::{create_export, resolve_scope, ExportSource, Repo, Scope};

use crate::CONTEXT_LINES;

/// Paths and the hermetic environment shared by every child process.
pub struct Env {
    home: PathBuf,
    pub repo: PathBuf,
    state: PathBuf,
}

impl Env {
    pub fn new(root: &Path) -> Env {
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
    pub fn apply_to_self(&self) {
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

    pub fn git(&self) -> Command {
        self.command(Path::new("git"))
    }

    pub fn git_run(&self, args: &[&str]) {
        let status = self.git().args(args).status().expect("run git");
        assert!(status.success(), "git {args:?} failed: {status}");
    }

    pub fn git_output(&self, args: &[&str]) -> String {
        let out = self
            .git()
            .args(args)
            .stderr(Stdio::inherit())
            .output()
            .expect("run git");
        assert!(out.status.success(), "git {args:?} failed: {}", out.status);
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    pub fn open(&self) -> Repo {
        Repo::from_libgit2(git2::Repository::open(&self.repo).expect("open the bench repository"))
    }

    /// A `git` command: once with its output captured (warm-up, and `files` from the output),
    /// then timed with its output to `/dev/null`.
    pub fn bench_git(
        &self,
        iters: usize,
        name: &str,
        args: &[&str],
        files: fn(&str) -> usize,
    ) -> Row {
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
    pub fn bench_export(&self, iters: usize, scope: &Scope, what: &str) -> Row {
        let change = resolve_scope(&self.open(), scope, Some(CONTEXT_LINES)).expect("resolve");
        let (samples, files) = measure(iters, || {
            let repo = self.open();
            timed(|| {
                create_export(Some(&repo), &ExportSource::of_change(&change))
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

    pub fn bench_binary(&self, iters: usize, bin: &Path, scope: &str) -> Row {
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
pub fn binary_path() -> PathBuf {
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

pub fn timed<T>(f: impl FnOnce() -> T) -> (Duration, T) {
    let start = Instant::now();
    let out = f();
    (start.elapsed(), out)
}

/// One untimed warm-up, then `iters` samples; `one` times its own measured section.
pub fn measure<T>(iters: usize, mut one: impl FnMut() -> (Duration, T)) -> (Vec<Duration>, T) {
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
pub fn time_child(iters: usize, mut make: impl FnMut() -> Command) -> Vec<Duration> {
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

pub fn patch_files(out: &str) -> usize {
    out.lines().filter(|l| l.starts_with("diff --git ")).count()
}

pub struct Row {
    name: String,
    samples: Vec<Duration>,
    pub files: usize,
}

impl Row {
    pub fn new(name: &str, mut samples: Vec<Duration>, files: usize) -> Row {
        samples.sort();
        Row {
            name: name.to_string(),
            samples,
            files,
        }
    }

    pub fn median(&self) -> Duration {
        let n = self.samples.len();
        if n % 2 == 1 {
            self.samples[n / 2]
        } else {
            (self.samples[n / 2 - 1] + self.samples[n / 2]) / 2
        }
    }
}

pub fn table(rows: &[Row]) -> String {
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
