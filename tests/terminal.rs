//! What a person at a terminal sees: the progress line, colour, and `TERM=dumb`.

use std::io::Read as _;
use std::os::fd::FromRawFd as _;
use std::process::Stdio;

use serde_json::json;

use crate::common::TestEnv;

/// Runs `git-debate args` with standard input, output and error on a new pseudo-terminal and
/// returns everything it wrote there.
fn on_terminal(env: &TestEnv, args: &[&str], vars: &[(&str, &str)]) -> (i32, String) {
    typed(env, args, vars, "")
}

/// The same, with `input` typed on the terminal (the line discipline holds it until read).
fn typed(env: &TestEnv, args: &[&str], vars: &[(&str, &str)], input: &str) -> (i32, String) {
    let (master, slave) = crate::common::openpty();
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
    std::io::Write::write_all(&mut master, input.as_bytes()).unwrap();
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

fn quiet_review(env: &TestEnv) {
    env.fake("codex", json!({"answer": "LGTM"}));
    env.fake("claude", json!({}));
}

#[test]
fn text_of_doubtful_kind_is_asked_about_and_the_answer_picks_the_protocol() {
    let env = TestEnv::with_repo();
    quiet_review(&env);
    let text = "we could cache the user list for a while";
    let (code, out) = typed(
        &env,
        &[text, "--max-rounds", "1"],
        &[("TERM", "dumb")],
        "code\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("I detected a proposal as the debate target (no code or proposal markers: plain text). Continue? [Y/n/code/proposal/mixed]"),
        "{out}"
    );
    let prompt = env.fake_calls("codex")[0]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        prompt.contains("CHANGE UNDER REVIEW"),
        "reviewed as code: {prompt}"
    );

    // "n" stops before anything is sent.
    let before = env.fake_calls("codex").len();
    let (code, out) = typed(&env, &[text], &[("TERM", "dumb")], "n\n");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("cancelled: nothing was reviewed"), "{out}");
    assert_eq!(env.fake_calls("codex").len(), before);

    // Without a terminal nobody is asked: the detection stands, and stderr says how to choose.
    let run = env.run_from_claude(&[text, "--max-rounds", "1"]).ok();
    assert!(
        run.stderr.contains("detected with low confidence"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("pass --target code|proposal|mixed"));
}

#[test]
fn a_mixed_document_is_asked_mixed_or_proposal_only() {
    let env = TestEnv::with_repo();
    quiet_review(&env);
    env.write(
        "design.md",
        "# Design: retries\n\n## Proposal\n\nRetry three times.\n\n```rust\nfn retry() {}\n```\n",
    );
    let (code, out) = typed(
        &env,
        &["design.md", "--max-rounds", "1"],
        &[("TERM", "dumb")],
        "p\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Review it as mixed (both protocols), or proposal-only? [M/p/n]"),
        "{out}"
    );
    let calls = env.fake_calls("codex");
    assert_eq!(calls.len(), 1, "one proposal review, not two halves");
    assert!(calls[0]["prompt"]
        .as_str()
        .unwrap()
        .contains("DOCUMENT UNDER REVIEW"));
}

#[test]
fn a_topic_shows_who_is_speaking_in_which_round() {
    let env = TestEnv::with_repo();
    env.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    );
    env.commit_all("lib");
    env.fake(
        "claude",
        json!([{"delay_ms": 700, "answer": "OPENING"}, {"answer": "```json\n{\"winner\":\"proposer\"}\n```"}]),
    );
    env.fake("codex", json!({"delay_ms": 700, "answer": "CRITIQUE"}));
    let args = [
        "topic",
        "Saturate?",
        "--proposer",
        "claude",
        "--challenger",
        "codex",
        "--rounds",
        "1",
    ];
    let (code, out) = on_terminal(&env, &args, &[("TERM", "xterm")]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("claude · round 1/1 · proposer · 0s"), "{out}");
    assert!(out.contains("codex · round 1/1 · challenger"), "{out}");
    // Not on a dumb terminal.
    let (_, out) = on_terminal(&env, &args, &[("TERM", "dumb")]);
    assert!(!out.contains("· proposer ·"), "{out}");
}
