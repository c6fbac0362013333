//! Ctrl-C as a user presses it: `git debate` (the real git, running the built `git-debate` from
//! PATH) is the foreground job of a pseudo-terminal, and the test types the terminal's interrupt
//! character. The terminal signals git and git-debate, and git forwards its copy to git-debate:
//! one keypress must still be one interrupt, and a second keypress must still stop us at once.

use std::fs::File;
use std::os::fd::FromRawFd as _;
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{gone, read_json, TestEnv};

/// `git debate args` running on a pseudo-terminal we hold the master side of.
struct OnTerminal {
    child: Child,
    master: File,
    slave: i32,
    stderr: PathBuf,
}

impl OnTerminal {
    /// Starts `git debate args` as the foreground process group of a new terminal, with the fake
    /// claude as the launching agent; its output goes to files.
    fn start(env: &TestEnv, args: &[&str]) -> OnTerminal {
        let link = env.root.join("bin/git-debate");
        if !link.exists() {
            std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("git-debate"), &link).unwrap();
        }
        // The hermetic environment the binary would get, given to git instead.
        let template = env.cmd_in(&env.repo);
        let mut cmd = Command::new("git");
        crate::common::default_interrupts(&mut cmd);
        cmd.env_clear();
        for (k, v) in template.get_envs() {
            if let Some(v) = v {
                cmd.env(k, v);
            }
        }
        let (master, slave) = crate::common::openpty();
        let stderr = env.root.join("git-debate.stderr");
        // SAFETY: only async-signal-safe calls between fork and exec: a new session whose
        // controlling terminal is the slave, so git's process group is the foreground one.
        unsafe {
            cmd.pre_exec(move || {
                libc::setsid();
                libc::ioctl(slave, libc::TIOCSCTTY as _, 0);
                libc::close(master);
                Ok(())
            })
        };
        let child = cmd
            .arg("debate")
            .args(args)
            .current_dir(&env.repo)
            .env("GIT_DEBATE_LAUNCHER", "claude")
            // SAFETY: a duplicate of the slave, owned by the Stdio from here on.
            .stdin(unsafe { Stdio::from_raw_fd(libc::dup(slave)) })
            .stdout(File::create(env.root.join("git-debate.stdout")).unwrap())
            .stderr(File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        OnTerminal {
            child,
            // SAFETY: `master` is ours alone.
            master: unsafe { File::from_raw_fd(master) },
            slave,
            stderr,
        }
    }

    /// Types Ctrl-C.
    fn press_ctrl_c(&mut self) {
        use std::io::Write as _;
        self.master.write_all(&[0x03]).unwrap();
    }

    /// Waits (generously) for git to end; panics if it does not.
    fn wait(mut self) -> (ExitStatus, String) {
        let deadline = Instant::now() + Duration::from_secs(60);
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "git debate did not end after Ctrl-C:\n{}",
                    std::fs::read_to_string(&self.stderr).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // SAFETY: our copy of the slave, no longer needed.
        unsafe { libc::close(self.slave) };
        (status, std::fs::read_to_string(&self.stderr).unwrap())
    }
}

/// Waits (generously) until the fake wrote `file`.
fn wait_for(env: &TestEnv, file: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while env.fake_file(file).is_none() {
        assert!(Instant::now() < deadline, "{file} never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Git ends the way a shell reports as 130: it re-raises the SIGINT it got once its child
/// (git-debate) has exited.
fn ended_by_ctrl_c(status: ExitStatus) -> bool {
    status.signal() == Some(libc::SIGINT) || status.code() == Some(130)
}

fn the_session(env: &TestEnv) -> PathBuf {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(env.store())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.is_dir()
                && p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("debate-")
        })
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs.remove(0)
}

#[test]
fn one_ctrl_c_through_git_saves_the_session_as_interrupted() {
    // Whether git's copy arrives separately is a race (about half the time), so a few tries make
    // a regression show.
    for _ in 0..3 {
        one_ctrl_c_through_git();
    }
}

fn one_ctrl_c_through_git() {
    let env = TestEnv::with_subtraction_bug();
    env.fake("codex", json!({"hang": true}));
    env.fake("claude", json!({}));
    let mut run = OnTerminal::start(&env, &[]);
    wait_for(&env, "codex.pid");
    run.press_ctrl_c();
    let (status, stderr) = run.wait();
    assert!(ended_by_ctrl_c(status), "{status:?}\n{stderr}");
    let dir = the_session(&env);
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["status"], "interrupted", "{meta}\n{stderr}");
    assert_eq!(meta["stop_reason"], "interrupted (Ctrl-C)");
    let s: Value = read_json(&dir.join("summary.json"));
    assert_eq!(s["status"], "interrupted");

    // What was saved is enough to go on.
    env.fake("codex", json!({"answer": "LGTM"}));
    let run = env.run(&["resume", "last", "--format", "json"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["status"], "completed", "{}", run.stderr);
}

#[test]
fn a_second_ctrl_c_through_git_stops_at_once() {
    // The first Ctrl-C gives the reviewer two seconds to end before it is killed; on a machine
    // too busy to deliver the second keypress within them, the run ends the slow way and says
    // nothing about the second keypress, so it is tried again.
    for _ in 0..5 {
        if second_ctrl_c_through_git() {
            return;
        }
    }
    panic!(
        "five tries each outlasted the reviewer's grace: the second Ctrl-C no longer stops us at \
         once, or the machine is far too busy"
    );
}

/// One try; false when it took too long to tell whether the second keypress stopped us.
fn second_ctrl_c_through_git() -> bool {
    let env = TestEnv::with_subtraction_bug();
    // A reviewer that outlives SIGTERM keeps us waiting after the first Ctrl-C.
    env.fake("codex", json!({"hang": true, "ignore_term": true}));
    env.fake("claude", json!({}));
    let mut run = OnTerminal::start(&env, &[]);
    wait_for(&env, "codex.pid");
    let first = Instant::now();
    run.press_ctrl_c();
    // The first keypress reached the reviewer: we are waiting for it to end.
    wait_for(&env, "codex.term");
    run.press_ctrl_c();
    let (status, stderr) = run.wait();
    // Everything from the first keypress to the end fit in the reviewer's grace, so only the
    // second keypress can have ended the run.
    let judged = first.elapsed() < Duration::from_millis(1800);
    assert!(ended_by_ctrl_c(status), "{status:?}\n{stderr}");
    let pid: i32 = env.fake_file("codex.pid").unwrap().trim().parse().unwrap();
    let dead = gone(pid);
    if !dead {
        // SAFETY: plain kill of the fake we started, so it does not outlive the test.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    // Even so, the reviewer that ignored SIGTERM does not outlive us.
    assert!(dead, "the reviewer {pid} survived the second Ctrl-C");
    let dir = the_session(&env);
    let status = read_json(&dir.join("metadata.json"))["status"].clone();
    if status != "running" && !judged {
        return false;
    }
    // Stopped at once: nothing was saved after the start of the round.
    assert_eq!(status, "running", "{stderr}");
    assert!(!dir.join("summary.json").exists());
    true
}
