//! A hermetic test environment: a temp HOME, no system or global git config, fixed dates, and real
//! git repositories built with the real `git` (tests fake models, never git).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

pub mod http;
pub mod panel;
pub mod planted;

pub struct TestEnv {
    _tmp: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    /// The main work tree (created by `new`, but not initialised).
    pub repo: PathBuf,
}

/// The result of one run of the binary.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn ok(self) -> Run {
        assert_eq!(
            self.code, 0,
            "expected success\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }
    pub fn fails(self, code: i32) -> Run {
        assert_eq!(
            self.code, code,
            "expected exit {code}\nstdout:\n{}\nstderr:\n{}",
            self.stdout, self.stderr
        );
        self
    }
    /// The session folder printed by a dry run.
    pub fn artifact_path(&self) -> PathBuf {
        let line = self
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("artifact:"))
            .unwrap_or_else(|| panic!("no artifact line in:\n{}", self.stdout));
        PathBuf::from(line.trim())
    }
    pub fn session_dir(&self) -> PathBuf {
        self.artifact_path().parent().unwrap().to_path_buf()
    }
    pub fn metadata(&self) -> Value {
        read_json(&self.session_dir().join("metadata.json"))
    }
    pub fn artifact(&self) -> String {
        std::fs::read_to_string(self.artifact_path()).unwrap()
    }
}

/// `cmd.output()` for a program the test has just copied: while another test's thread forks,
/// the child holds the copy's write handle for an instant and exec fails with "Text file busy"
/// (ETXTBSY); a short wait and another try is all it takes.
pub fn output_of_copied(cmd: &mut Command) -> Output {
    for _ in 0..50 {
        match cmd.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => return other.expect("the copied program runs"),
        }
    }
    panic!("the copied program stayed busy");
}

pub fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

impl TestEnv {
    pub fn new() -> TestEnv {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let home = root.join("home");
        let repo = root.join("repo");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&repo).unwrap();
        std::fs::create_dir_all(root.join("bin")).unwrap();
        std::fs::create_dir_all(root.join("fake")).unwrap();
        TestEnv {
            _tmp: tmp,
            root,
            home,
            repo,
        }
    }

    /// A repository whose one commit holds `src/lib.rs` with `add` (what debates cite).
    pub fn with_committed_add() -> TestEnv {
        let env = TestEnv::with_repo();
        env.write(
            "src/lib.rs",
            "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
        );
        env.commit_all("lib");
        env
    }

    /// A repository whose `lib.rs` has an uncommitted bug: `add` subtracts (line 2).
    pub fn with_subtraction_bug() -> TestEnv {
        let env = TestEnv::with_repo();
        env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
        env.commit_all("add");
        env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n");
        env
    }

    /// `git debate args` as launched by claude (so claude is the author).
    pub fn run_from_claude(&self, args: &[&str]) -> Run {
        self.run_full(args, "", &[("GIT_DEBATE_LAUNCHER", Some("claude"))])
    }

    /// A repository with one commit of `README.md`.
    pub fn with_repo() -> TestEnv {
        let env = TestEnv::new();
        env.git(&["init", "-q", "-b", "main"]);
        env.write("README.md", "# Project\n\nhello\n");
        env.commit_all("initial commit");
        env
    }

    fn base_env(&self, cmd: &mut Command) {
        cmd.env_clear()
            .env("PATH", self.path())
            // Tests may run inside an agent CLI; its process must not become our author.
            .env("GIT_DEBATE_LAUNCHER", "none")
            .env("FAKE_AGENT_DIR", self.root.join("fake"))
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("XDG_STATE_HOME", self.home.join(".local/state"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home.join(".gitconfig"))
            .env("GIT_AUTHOR_NAME", "Test Author")
            .env("GIT_AUTHOR_EMAIL", "author@example.com")
            .env("GIT_COMMITTER_NAME", "Test Committer")
            .env("GIT_COMMITTER_EMAIL", "committer@example.com")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .env("LANG", "C.UTF-8");
    }

    /// Installs the fake agent (`src/bin/fake-agent.rs`) as `name` in the test's PATH, answering
    /// per `script` (a step object or a list of steps, one per call).
    pub fn fake(&self, name: &str, script: Value) -> PathBuf {
        let link = self.root.join("bin").join(name);
        if !link.exists() {
            std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("fake-agent"), &link).unwrap();
        }
        std::fs::write(
            self.root.join("fake").join(format!("{name}.json")),
            script.to_string(),
        )
        .unwrap();
        link
    }

    /// Installs the fake ACP agent (`src/bin/fake-acp.rs`) as `name` in the test's PATH, playing
    /// `scenario` (one object, or a list: one per run).
    pub fn fake_acp(&self, name: &str, scenario: Value) -> PathBuf {
        let link = self.root.join("bin").join(name);
        if !link.exists() {
            std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("fake-acp"), &link).unwrap();
        }
        std::fs::write(
            self.root.join("fake").join(format!("{name}.acp.json")),
            scenario.to_string(),
        )
        .unwrap();
        link
    }

    /// What the fake ACP agent `name` was told, one JSON object per run (argv, cwd, prompt, the
    /// settings it was given, how its own requests were answered).
    pub fn acp_calls(&self, name: &str) -> Vec<Value> {
        self.fake_file(&format!("{name}.acp-calls.jsonl"))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// What the fake `name` received, one JSON object per call (argv, prompt, cwd, env).
    pub fn fake_calls(&self, name: &str) -> Vec<Value> {
        std::fs::read_to_string(self.root.join("fake").join(format!("{name}.calls.jsonl")))
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// A file the fake `name` wrote into its state folder (pid files).
    pub fn fake_file(&self, file: &str) -> Option<String> {
        std::fs::read_to_string(self.root.join("fake").join(file)).ok()
    }

    /// Runs with `input` on standard input and extra environment variables (`None` removes one).
    pub fn run_full(&self, args: &[&str], input: &str, vars: &[(&str, Option<&str>)]) -> Run {
        use std::io::Write as _;
        let mut cmd = self.cmd_in(&self.repo);
        for (k, v) in vars {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        let mut child = cmd
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let input = input.as_bytes().to_vec();
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap();
        to_run(out)
    }

    /// Starts `git debate args` with `launcher` as the launching agent, waits until the fake
    /// writes `pid_file` (a step with `"hang": true` is running), presses Ctrl-C, and returns how
    /// it ended.
    /// Waits (at most 30 s) until the fake agents have written `file` (e.g. `codex.pid` once a
    /// hanging call has started).
    pub fn wait_for_fake_file(&self, file: &str) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while self.fake_file(file).is_none() {
            assert!(
                std::time::Instant::now() < deadline,
                "{file} never appeared"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }

    /// Starts `git debate` (claude's review) in the background with a reviewer that hangs, and
    /// returns once the reviewer's call has started: a session that is running.
    pub fn start_running_review(&self) -> std::process::Child {
        self.fake("codex", serde_json::json!({"hang": true}));
        self.fake("claude", serde_json::json!({}));
        let running = self
            .cmd_in(&self.repo)
            .env("GIT_DEBATE_LAUNCHER", "claude")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        self.wait_for_fake_file("codex.pid");
        running
    }

    /// `git debate ask --backend BACKEND` interrupted (SIGINT) once the fake `fake` and the
    /// sleeping child it started have written their pids: exits 130 and leaves neither behind.
    pub fn ctrl_c_during_ask(&self, backend: &str, fake: &str) {
        let mut child = self
            .cmd_in(&self.repo)
            .args(["ask", "--backend", backend])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write as _;
            child.stdin.take().unwrap().write_all(b"hi").unwrap();
        }
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        // A pid file is there once it holds a number (it is created before it is written).
        let written = |f: &str| {
            self.fake_file(f)
                .is_some_and(|s| s.trim().parse::<i32>().is_ok())
        };
        let pids = [format!("{fake}.pid"), format!("{fake}.sleeper.pid")];
        while !pids.iter().all(|f| written(f)) {
            assert!(
                std::time::Instant::now() < deadline,
                "the fake never started"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // SAFETY: a plain kill(2) of our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(130),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for file in &pids {
            let pid: i32 = self.fake_file(file).unwrap().trim().parse().unwrap();
            assert!(gone(pid), "{file} {pid} survived Ctrl-C");
        }
    }

    pub fn interrupt_when(&self, args: &[&str], launcher: &str, pid_file: &str) -> Run {
        let child = self
            .cmd_in(&self.repo)
            .args(args)
            .env("GIT_DEBATE_LAUNCHER", launcher)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        self.wait_for_fake_file(pid_file);
        // SAFETY: a plain kill(2) of our own child.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        to_run(child.wait_with_output().unwrap())
    }

    /// PATH for every run: the test's own `bin/` (fake agents go there), then only the system
    /// directories git lives in, so agent CLIs installed on the machine are never found.
    pub fn path(&self) -> String {
        let git_dir = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .find(|d| d.join("git").is_file())
            .map(|d| d.display().to_string())
            .unwrap_or_else(|| "/usr/bin".into());
        format!(
            "{}:{git_dir}:/usr/bin:/bin",
            self.root.join("bin").display()
        )
    }

    /// Runs real git in `dir`, panicking on failure; returns trimmed stdout.
    pub fn git_in(&self, dir: &Path, args: &[&str]) -> String {
        let mut cmd = Command::new("git");
        self.base_env(&mut cmd);
        let out = cmd.args(args).current_dir(dir).output().unwrap();
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    /// Runs real git in the repository and returns how it ended (for commands expected to fail,
    /// such as a commit a hook blocks).
    pub fn git_run(&self, args: &[&str]) -> Run {
        let mut cmd = Command::new("git");
        self.base_env(&mut cmd);
        to_run(cmd.args(args).current_dir(&self.repo).output().unwrap())
    }

    /// [`Self::git_run`] with extra environment variables.
    pub fn git_run_env(&self, args: &[&str], vars: &[(&str, &str)]) -> Run {
        let mut cmd = Command::new("git");
        self.base_env(&mut cmd);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        to_run(cmd.args(args).current_dir(&self.repo).output().unwrap())
    }

    pub fn git(&self, args: &[&str]) -> String {
        self.git_in(&self.repo, args)
    }

    pub fn write(&self, path: &str, content: &str) {
        self.write_bytes(path, content.as_bytes());
    }

    pub fn write_bytes(&self, path: &str, content: &[u8]) {
        let p = self.repo.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content).unwrap();
    }

    pub fn commit_all(&self, msg: &str) -> String {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", msg]);
        self.git(&["rev-parse", "HEAD"])
    }

    /// The binary, hermetic, run in `dir`, with SIGINT and SIGQUIT at their default action as
    /// from a terminal, whatever this test run was started with.
    pub fn cmd_in(&self, dir: &Path) -> Command {
        let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("git-debate"));
        self.base_env(&mut cmd);
        cmd.current_dir(dir).stdin(Stdio::null());
        default_interrupts(&mut cmd);
        cmd
    }

    pub fn run_in(&self, dir: &Path, args: &[&str]) -> Run {
        to_run(self.cmd_in(dir).args(args).output().unwrap())
    }

    pub fn run(&self, args: &[&str]) -> Run {
        self.run_in(&self.repo, args)
    }

    /// Runs with extra environment variables.
    pub fn run_env(&self, args: &[&str], vars: &[(&str, &str)]) -> Run {
        let mut cmd = self.cmd_in(&self.repo);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        to_run(cmd.args(args).output().unwrap())
    }

    /// Runs with `input` on standard input.
    pub fn run_stdin(&self, args: &[&str], input: &str) -> Run {
        use std::io::Write as _;
        let mut child = self
            .cmd_in(&self.repo)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        to_run(child.wait_with_output().unwrap())
    }

    /// The default session store of the main repository.
    pub fn store(&self) -> PathBuf {
        self.repo.join(".git/review-loop")
    }

    /// Session ids in the default store, newest first.
    pub fn session_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = std::fs::read_dir(self.store())
            .map(|d| {
                d.map(|e| e.unwrap().file_name().into_string().unwrap())
                    .filter(|n| n.starts_with("debate-"))
                    .collect()
            })
            .unwrap_or_default();
        ids.sort_by(|a, b| b.cmp(a));
        ids
    }

    /// `n` dry runs, each its own session; the store's ids then, newest first.
    pub fn dry_runs(&self, n: usize) -> Vec<String> {
        for i in 0..n {
            self.run(&["--dry-run", &format!("proposal {i}")]).ok();
        }
        self.session_ids()
    }

    /// What the store's session index holds, id -> entry (checking its header).
    pub fn session_index(&self) -> serde_json::Map<String, Value> {
        let text = std::fs::read_to_string(self.store().join("sessions-index")).unwrap();
        let mut lines = text.lines();
        assert_eq!(
            lines.next(),
            Some(r#"{"git-debate":"sessions-index","version":1}"#)
        );
        lines
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|v| (v["id"].as_str().unwrap().to_string(), v))
            .collect()
    }

    /// Plants a finished session made at `created_at`, as an older version (or a copy) would
    /// leave it.
    pub fn plant_old_session(&self, id: &str, created_at: &str) {
        let dir = self.store().join(id);
        std::fs::create_dir_all(&dir).unwrap();
        let meta = serde_json::json!({"version": 1, "id": id, "created_at": created_at,
            "target": "code", "status": "completed",
            "scope": {"given": "staged", "effective": "staged"}});
        std::fs::write(dir.join("metadata.json"), meta.to_string()).unwrap();
    }

    /// Session folders in the default store (its index and the hook's cache are not sessions).
    pub fn session_count(&self) -> usize {
        std::fs::read_dir(self.store())
            .map(|d| {
                d.filter(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.file_name().to_string_lossy().starts_with("debate-"))
                })
                .count()
            })
            .unwrap_or(0)
    }
}

/// Starts `cmd`'s child with SIGINT and SIGQUIT at their default action. A test run started
/// with them ignored (`cargo test &` in a script, `trap "" INT`) passes that on to every child,
/// and git-debate keeps an ignored signal ignored, so a test that interrupts it must undo that.
pub fn default_interrupts(cmd: &mut Command) {
    use std::os::unix::process::CommandExt as _;
    // SAFETY: signal(2) is async-signal-safe, and nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            libc::signal(libc::SIGQUIT, libc::SIG_DFL);
            Ok(())
        });
    }
}

pub fn to_run(out: Output) -> Run {
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Paths of the files a dry run listed in metadata.
pub fn paths(meta: &Value) -> Vec<String> {
    meta["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

/// Every file under `dir`, recursively, as bytes.
pub fn all_files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(all_files(&p));
        } else {
            out.push((p.clone(), std::fs::read(&p).unwrap()));
        }
    }
    out
}

/// A process is gone when it no longer exists or is a zombie nobody reaped yet; polled for a
/// generous while (a loaded machine is slow to deliver signals), never a timing assertion.
pub fn gone(pid: i32) -> bool {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let state = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| s.rsplit_once(')').map(|(_, r)| r.trim().chars().next()))
            .flatten();
        if matches!(state, None | Some('Z') | Some('X')) {
            return true;
        }
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The command line a fake agent was run with (one record of [`TestEnv::fake_calls`]).
pub fn argv(call: &Value) -> Vec<String> {
    call["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect()
}

/// A new pseudo-terminal: (master, slave) descriptors, both owned by the caller. Plain, with
/// no name, termios or window size (so ISIG is on and ^C is the interrupt character).
pub fn openpty() -> (i32, i32) {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes the two descriptors; every other argument may be null.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty");
    (master, slave)
}

/// Runs git-debate in `env.repo` as launched by `launcher`. With `typed`, the child gets a
/// pseudo-terminal as its controlling terminal (`/dev/tty`), `typed` is typed on it, and what the
/// child showed there is returned; with `stderr_on_tty` its standard error goes there too.
/// Without `typed`, the child has no terminal at all.
pub fn run_on_tty(
    env: &TestEnv,
    args: &[&str],
    stdin: &str,
    typed: Option<&str>,
    stderr_on_tty: bool,
    launcher: &str,
) -> (Run, String) {
    use std::io::{Read as _, Write as _};
    use std::os::fd::FromRawFd as _;
    use std::os::unix::process::CommandExt as _;
    let mut cmd = env.cmd_in(&env.repo);
    cmd.args(args)
        .env("GIT_DEBATE_LAUNCHER", launcher)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let Some(typed) = typed else {
        // SAFETY: setsid is async-signal-safe; the child gets no controlling terminal.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                Ok(())
            })
        };
        return (crate::common::to_run(cmd.output().unwrap()), String::new());
    };
    let (master, slave) = crate::common::openpty();
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::setsid();
            libc::ioctl(slave, libc::TIOCSCTTY as _, 0);
            libc::close(master);
            libc::close(slave);
            Ok(())
        })
    };
    cmd.stdin(Stdio::piped());
    if stderr_on_tty {
        // SAFETY: a duplicate of our slave descriptor, owned by the Stdio from here on.
        cmd.stderr(unsafe { Stdio::from_raw_fd(libc::dup(slave)) });
    }
    let mut child = cmd.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    // SAFETY: `master` is ours. The slave stays open here until the end, so what the child wrote
    // is not discarded when it exits (Linux drops unread output once no slave is open).
    let mut tty = unsafe { std::fs::File::from_raw_fd(master) };
    tty.write_all(typed.as_bytes()).unwrap();
    let mut reader = tty.try_clone().unwrap();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let finished = done.clone();
    let shown = std::thread::spawn(move || {
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let mut pfd = libc::pollfd {
                fd: master,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd.
            let ready = unsafe { libc::poll(&mut pfd, 1, 100) };
            if ready > 0 {
                match reader.read(&mut buf) {
                    Ok(n) if n > 0 => out.extend_from_slice(&buf[..n]),
                    _ => break,
                }
            } else if finished.load(std::sync::atomic::Ordering::SeqCst) {
                break;
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    });
    let out = child.wait_with_output().unwrap();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let shown = shown.join().unwrap();
    drop(tty);
    // SAFETY: our copy of the slave, no longer needed.
    unsafe { libc::close(slave) };
    (crate::common::to_run(out), shown)
}

/// Checks a review's JSON report (`--format json`, `summary.json`) against the schema
/// `git debate schema report` prints: what is published and what is printed cannot drift apart.
pub fn valid_report(v: &Value) {
    let errors = report_errors(v);
    assert!(errors.is_empty(), "report schema: {errors:#?}\n{v:#}");
}

/// What the published report schema finds wrong with `v`.
pub fn report_errors(v: &Value) -> Vec<String> {
    let out = Command::new(assert_cmd::cargo::cargo_bin("git-debate"))
        .args(["schema", "report"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let schema: Value = serde_json::from_slice(&out.stdout).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    validator
        .iter_errors(v)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect()
}
