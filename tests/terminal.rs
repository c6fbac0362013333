//! What a person at a terminal sees: the progress line, colour, and `TERM=dumb`.

use std::io::Read;
use std::os::fd::FromRawFd;
use std::process::Stdio;

use serde_json::json;

use crate::common::TestEnv;

/// Runs `git-debate args` with standard input, output and error on a new pseudo-terminal and
/// returns everything it wrote there.
fn on_terminal(env: &TestEnv, args: &[&str], vars: &[(&str, &str)]) -> (i32, String) {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: plain openpty with no name, termios or window size.
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
    let mut cmd = env.cmd_in(&env.repo);
    cmd.args(args).env("GIT_DEBATE_LAUNCHER", "claude");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    // SAFETY: duplicates of the slave, each owned by its Stdio from here on.
    let io = || unsafe { Stdio::from_raw_fd(libc::dup(slave)) };
    let mut child = cmd.stdin(io()).stdout(io()).stderr(io()).spawn().unwrap();
    // The command keeps its copies of the slave until dropped; the child holds its own.
    drop(cmd);
    // SAFETY: our own descriptor.
    unsafe { libc::close(slave) };
    // SAFETY: `master` is ours alone.
    let mut master = unsafe { std::fs::File::from_raw_fd(master) };
    let mut out = Vec::new();
    // Reading the master ends with EIO once the child (the last holder of the slave) is gone.
    let mut buf = [0u8; 4096];
    while let Ok(n) = master.read(&mut buf) {
        if n == 0 {
            break;
        }
        out.extend_from_slice(&buf[..n]);
    }
    let code = child.wait().unwrap().code().unwrap_or(-1);
    (code, String::from_utf8_lossy(&out).into_owned())
}

fn slow_review(env: &TestEnv) {
    env.fake(
        "codex",
        json!({"delay_ms": 700, "answer": "```json\n{\"verdict\":\"revise\",\"findings\":[{\"severity\":\"P2\",\"title\":\"naming\",\"body\":\"the name hides the unit\",\"action\":\"call it timeout_ms\"}]}\n```"}),
    );
    env.fake(
        "claude",
        json!({"answer": "```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"invalid\",\"reason\":\"fine\"}]}\n```"}),
    );
}

#[test]
fn a_terminal_gets_the_round_of_rounds_colour_and_each_finding_s_why_and_fix() {
    let env = TestEnv::with_subtraction_bug();
    slow_review(&env);
    let (code, out) = on_terminal(&env, &["--max-rounds", "2"], &[("TERM", "xterm")]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("codex · round 1/2 · review"), "{out}");
    assert!(out.contains("\x1b[1m"), "colour on a terminal: {out}");
    assert!(out.contains("why: the name hides the unit"), "{out}");
    assert!(out.contains("fix: call it timeout_ms"), "{out}");
}

#[test]
fn term_dumb_gets_no_escape_sequences_at_all() {
    let env = TestEnv::with_subtraction_bug();
    slow_review(&env);
    let (code, out) = on_terminal(&env, &["--max-rounds", "2"], &[("TERM", "dumb")]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains('\x1b'), "{out:?}");
    assert!(out.contains("Debate summary"), "{out}");
}
