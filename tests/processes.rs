//! No process outlives a call, and no pipe holds one: the scripted fake agent starts a detached
//! (`setsid`) grandchild that keeps our pipes open, or hangs, and git-debate is timed out,
//! interrupted or killed with SIGKILL. Bounds on time are generous; what is checked is that the
//! call ends long before the grandchild would, and that nothing is left running.

use std::io::Write as _;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::{gone, TestEnv};

/// The fake's grandchild sleeps 600 s: ending well before that means it did not hold us.
const LONG_BEFORE: Duration = Duration::from_secs(120);

/// The pid a fake wrote into its state folder, waiting (bounded) for the file.
fn pid_of(env: &TestEnv, file: &str) -> i32 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(pid) = env.fake_file(file).and_then(|s| s.trim().parse().ok()) {
            return pid;
        }
        assert!(Instant::now() < deadline, "{file} never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Kills a process a failed test would leave behind.
/// `git debate ask --backend claude` running in the background, its prompt sent.
fn start_ask(env: &TestEnv) -> std::process::Child {
    let mut child = env
        .cmd_in(&env.repo)
        .args(["ask", "--backend", "claude"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"hi").unwrap();
    child
}

fn cleanup(pid: i32) {
    // SAFETY: kill(2) of a test's own leftover.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

fn ask(env: &TestEnv, extra: &[&str]) -> crate::common::Run {
    let mut args = vec!["ask", "--backend", "claude"];
    args.extend_from_slice(extra);
    env.run_full(&args, "hi", &[])
}

#[test]
fn a_detached_grandchild_holding_stdout_does_not_hold_the_call() {
    let env = TestEnv::with_repo();
    env.fake(
        "claude",
        json!({"detached": true, "answer": "ANSWER-DESPITE-GRANDCHILD"}),
    );
    let started = Instant::now();
    let run = ask(&env, &[]);
    let took = started.elapsed();
    let grandchild = pid_of(&env, "claude.detached.pid");
    let ok = gone(grandchild);
    cleanup(grandchild);
    let run = run.ok();
    assert!(
        run.stdout.contains("ANSWER-DESPITE-GRANDCHILD"),
        "{}",
        run.stdout
    );
    assert!(
        took < LONG_BEFORE,
        "held by the grandchild's pipe: {took:?}"
    );
    assert!(ok, "the detached grandchild {grandchild} is still running");
}

#[test]
fn a_grandchild_left_running_after_a_timeout_is_killed() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({"detached": true, "hang": true}));
    let started = Instant::now();
    let run = ask(&env, &["--backend-timeout-seconds", "1"]);
    let took = started.elapsed();
    let (agent, grandchild) = (
        pid_of(&env, "claude.pid"),
        pid_of(&env, "claude.detached.pid"),
    );
    let ok = (gone(agent), gone(grandchild));
    cleanup(grandchild);
    let run = run.fails(3);
    assert!(
        run.stderr.contains("claude failed (timeout)"),
        "{}",
        run.stderr
    );
    assert!(took < LONG_BEFORE, "{took:?}");
    assert_eq!(ok, (true, true), "agent {agent}, grandchild {grandchild}");
}

#[test]
fn ctrl_c_does_not_wait_for_a_detached_grandchild() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({"detached": true, "hang": true}));
    let started = Instant::now();
    let child = start_ask(&env);
    let (agent, grandchild) = (
        pid_of(&env, "claude.pid"),
        pid_of(&env, "claude.detached.pid"),
    );
    // SAFETY: kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    let ok = (gone(agent), gone(grandchild));
    cleanup(grandchild);
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(started.elapsed() < LONG_BEFORE);
    assert_eq!(ok, (true, true), "agent {agent}, grandchild {grandchild}");
}

#[test]
fn the_agent_dies_with_git_debate_on_kill_9() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({"hang": true}));
    let mut child = start_ask(&env);
    let agent = pid_of(&env, "claude.pid");
    child.kill().unwrap();
    child.wait().unwrap();
    let ok = gone(agent);
    cleanup(agent);
    assert!(ok, "the agent {agent} outlived a kill -9 of git-debate");
}

#[test]
fn what_a_wrapper_agent_started_dies_too_when_git_debate_is_killed() {
    // Real CLIs are wrappers (codex's npm script, gemini's relaunch): the kernel's death signal
    // reaches only the wrapper; the guardian finds the rest by their call token.
    let env = TestEnv::with_repo();
    env.fake(
        "claude",
        json!({"hang": true, "sleeper": true, "detached": true}),
    );
    let mut child = start_ask(&env);
    let pids: Vec<i32> = ["claude.pid", "claude.sleeper.pid", "claude.detached.pid"]
        .iter()
        .map(|f| pid_of(&env, f))
        .collect();
    child.kill().unwrap();
    child.wait().unwrap();
    let left: Vec<i32> = pids.iter().copied().filter(|&p| !gone(p)).collect();
    for &p in &pids {
        cleanup(p);
    }
    assert!(
        left.is_empty(),
        "{left:?} of {pids:?} outlived a kill -9 of git-debate"
    );
}

#[test]
fn an_interrupt_ignored_when_we_started_stays_ignored() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({"hang": true}));
    // As a script's `cmd &` starts us (POSIX): SIGINT ignored. The shell execs git-debate, so
    // its pid is ours.
    let template = env.cmd_in(&env.repo);
    let mut cmd = std::process::Command::new("sh");
    cmd.env_clear();
    for (k, v) in template.get_envs() {
        if let Some(v) = v {
            cmd.env(k, v);
        }
    }
    let mut child = cmd
        .args(["-c", r#"trap '' INT; exec "$0" ask --backend claude"#])
        .arg(assert_cmd::cargo::cargo_bin("git-debate"))
        .current_dir(&env.repo)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"hi").unwrap();
    let agent = pid_of(&env, "claude.pid");
    // SAFETY: kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    std::thread::sleep(Duration::from_millis(500));
    let running = child.try_wait().unwrap().is_none();
    let agent_alive = std::path::Path::new(&format!("/proc/{agent}")).exists();
    // What the caller did not ignore still stops it, and nothing is left behind.
    // SAFETY: kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    let ok = gone(agent);
    cleanup(agent);
    assert!(running && agent_alive, "SIGINT was not ignored");
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(ok, "the agent {agent} outlived SIGTERM");
}

#[test]
fn a_reviewer_killed_by_a_signal_is_reported_by_the_signals_name() {
    let env = TestEnv::with_repo();
    env.fake(
        "claude",
        json!({"signal": "SEGV", "stdout": "{\"type\":\"system\"}\n"}),
    );
    let run = ask(&env, &[]).fails(3);
    assert!(
        run.stderr.contains("claude failed (killed by SIGSEGV)"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("exited("), "{}", run.stderr);
}
