//! The session as a user relies on it: its status tells the truth about how the review ended,
//! it is held by one process at a time, and `resume` trusts nothing in it that could run a
//! program or hang on a file.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{read_json, Run, TestEnv};

/// A reviewer answer raising one P2 finding with an action (the rubric then chooses C).
fn one_p2() -> Value {
    let block = json!({"verdict": "revise", "findings": [{"severity": "P2",
        "title": "naming is unclear", "evidence": "lib.rs:2", "body": "the name hides intent",
        "action": "rename it"}]});
    json!({"answer": format!("Review.\n\n```json\n{block}\n```\n")})
}

/// The author's ruling: F1 is valid.
fn f1_valid() -> Value {
    let block = json!({"classifications": [{"id": "F1", "verdict": "valid", "reason": "true"}],
        "recommendation": "C", "reason": "a small fix"});
    json!({"answer": format!("```json\n{block}\n```")})
}

fn summary_of(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\nstdout:\n{}\nstderr:\n{}", run.stdout, run.stderr))
}

#[test]
fn a_failed_compromise_is_reported_as_such_and_keeps_the_last_good_version() {
    let env = TestEnv::with_subtraction_bug();
    env.fake("codex", one_p2());
    env.fake(
        "claude",
        json!([f1_valid(), {"error": {"status": 500, "message": "overloaded"}}]),
    );
    let run = env.run_from_claude(&["--format", "json"]);
    let s = summary_of(&run);
    assert_eq!(s["status"], "failed", "{s}");
    let decision = s["final_decision"].as_str().unwrap();
    assert!(!decision.contains("Compromise"), "{decision}");
    assert_eq!(decision, "Stopped (the compromise failed in round 1)");
    let reason = s["stop_reason"].as_str().unwrap();
    assert!(
        reason.starts_with("the author failed in round 1 (the compromise): claude failed")
            && reason.ends_with("the last good version (v1) is kept"),
        "{reason}"
    );
    assert_eq!(s["rounds"], 1);
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    // The final version is the last good one: the original.
    assert_eq!(
        std::fs::read_to_string(dir.join("final-artifact.md")).unwrap(),
        std::fs::read_to_string(dir.join("artifact.md")).unwrap()
    );
    assert!(!dir.join("artifact-v2.md").exists());
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["status"], "failed");
    assert_eq!(meta["final_decision"], decision);
    assert!(
        run.stdout.contains("git debate resume"),
        "no way on offered:\n{}",
        run.stdout
    );

    // It can be continued, and then the compromise is written.
    let diff = "```diff\ndiff --git a/lib.rs b/lib.rs\n--- a/lib.rs\n+++ b/lib.rs\n\
                @@ -1,3 +1,3 @@\n fn add(a: i32, b: i32) -> i32 {\n-    a + b\n+    a.wrapping_add(b) // VERSION TWO\n }\n```\n";
    env.fake("claude", json!([{}, {}, f1_valid(), {"answer": diff}]));
    let run = env.run(&["resume", "last", "--max-rounds", "2", "--format", "json"]);
    let s = summary_of(&run);
    assert_eq!(s["status"], "completed", "{s}");
    assert_eq!(s["final_decision"], "Compromise");
    assert!(std::fs::read_to_string(dir.join("final-artifact.md"))
        .unwrap()
        .contains("VERSION TWO"));
}

#[test]
fn a_compromise_that_is_not_a_change_is_a_failed_compromise_never_the_decision() {
    for answer in ["LGTM".to_string(), "x".repeat(300_000)] {
        let env = TestEnv::with_subtraction_bug();
        env.fake("codex", one_p2());
        env.fake("claude", json!([f1_valid(), {"answer": answer}]));
        let run = env.run_from_claude(&["--format", "json", "--max-rounds", "1"]);
        let s = summary_of(&run);
        let what = &answer[..answer.len().min(8)];
        assert_eq!(s["status"], "failed", "{what}: {s}");
        assert_eq!(
            s["final_decision"], "Stopped (the compromise failed in round 1)",
            "{what}"
        );
        let reason = s["stop_reason"].as_str().unwrap();
        assert!(
            reason.contains("not a version of what it revises")
                && reason.ends_with("the last good version (v1) is kept"),
            "{what}: {reason}"
        );
        let notes = s["notes"].to_string();
        assert!(notes.contains("the compromise is not a version"), "{notes}");
        let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
        assert_eq!(
            std::fs::read_to_string(dir.join("final-artifact.md")).unwrap(),
            std::fs::read_to_string(dir.join("artifact.md")).unwrap()
        );
        assert!(!dir.join("artifact-v2.md").exists());
        // Said in the report people read, too.
        let text = env.run(&["show", "last"]).ok();
        assert!(
            text.stdout.contains("compromise"),
            "{what}: {}",
            text.stdout
        );
    }
}

/// Runs `git-debate args` in the repository with a generous bound, so a hang fails the test
/// instead of stalling the suite; output goes to files (no pipe to fill).
fn run_bounded(env: &TestEnv, args: &[&str]) -> Run {
    let (out, err) = (env.root.join("bounded.out"), env.root.join("bounded.err"));
    let mut child = env
        .cmd_in(&env.repo)
        .args(args)
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("git-debate {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: std::fs::read_to_string(out).unwrap(),
        stderr: std::fs::read_to_string(err).unwrap(),
    }
}

/// Plants a session folder as a hostile repository could ship it; returns its folder.
fn plant(env: &TestEnv, meta: Value) -> PathBuf {
    let dir = env.store().join("debate-20990101-000000-000-0000001");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("metadata.json"), meta.to_string()).unwrap();
    std::fs::write(dir.join("artifact.md"), "fn f() {}\n").unwrap();
    dir
}

/// A program that leaves a mark if anyone runs it.
fn evil_program(env: &TestEnv) -> (PathBuf, PathBuf) {
    let mark = env.root.join("evil-ran");
    let prog = env.root.join("evil");
    std::fs::write(
        &prog,
        format!("#!/bin/sh\ntouch {}\necho LGTM\n", mark.display()),
    )
    .unwrap();
    std::fs::set_permissions(&prog, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    (prog, mark)
}

#[test]
fn resume_runs_no_program_and_no_folder_a_session_file_names() {
    let env = TestEnv::with_repo();
    let (prog, mark) = evil_program(&env);
    let evil = format!("exec:{}", prog.display());
    plant(
        &env,
        json!({"version": 1, "kind": "review", "status": "interrupted", "target": "code",
            "source": {"kind": "content", "origin": "planted"}, "workspace": "/",
            "settings": {"max_rounds": 3},
            "route": {"author": {"backend": evil}, "reviewer": {"backend": evil}}}),
    );
    env.fake("codex", json!({"answer": "LGTM"}));
    env.fake("claude", json!({}));
    let run = run_bounded(&env, &["resume", "last", "--format", "json"]);
    assert!(
        !mark.exists(),
        "resume ran the program named in the session"
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("was run with reviewer exec:")
            && run
                .stderr
                .contains("it goes on with codex from the current configuration"),
        "{}",
        run.stderr
    );
    // The reviewer ran in the export of the current repository, not in the folder the session
    // named.
    let calls = env.fake_calls("codex");
    let cwd = calls[0]["cwd"].as_str().unwrap();
    assert!(
        cwd.contains("/git-debate-") && cwd.ends_with("/repo"),
        "{cwd}"
    );

    // A debate names its lineup only in the session: a program there is refused outright.
    let env = TestEnv::with_repo();
    let (prog, mark) = evil_program(&env);
    let evil = format!("exec:{}", prog.display());
    plant(
        &env,
        json!({"version": 1, "kind": "topic", "status": "interrupted", "topic": "t",
            "rounds": 2, "proposer": {"backend": evil}, "challenger": {"backend": "codex"},
            "orchestrator": evil}),
    );
    env.fake("codex", json!({"answer": "LGTM"}));
    let run = run_bounded(&env, &["resume", "last"]).fails(2);
    assert!(!mark.exists(), "resume ran the program named in the debate");
    assert!(
        run.stderr
            .contains("resume runs no program named in a session file"),
        "{}",
        run.stderr
    );
}

#[test]
fn session_files_that_are_not_regular_files_are_refused_without_hanging() {
    let env = TestEnv::with_repo();
    let dir = plant(
        &env,
        json!({"version": 1, "kind": "review", "status": "interrupted", "target": "code",
            "source": {"kind": "content", "origin": "planted"}, "settings": {"max_rounds": 3}}),
    );
    env.fake("codex", json!({"answer": "LGTM"}));
    env.fake("claude", json!({}));
    // A round record that is endless zeros.
    std::os::unix::fs::symlink("/dev/zero", dir.join("round-1.json")).unwrap();
    let run = run_bounded(&env, &["resume", "last"]).fails(4);
    assert!(
        run.stderr.contains("round-1.json is not a regular file"),
        "{}",
        run.stderr
    );
    assert!(env.fake_calls("codex").is_empty());
    // Metadata that is a FIFO nobody writes to.
    std::fs::remove_file(dir.join("metadata.json")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("metadata.json").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid C string.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let run = run_bounded(&env, &["resume", "last"]).fails(4);
    assert!(
        run.stderr.contains("metadata.json is not a regular file"),
        "{}",
        run.stderr
    );
    let run = run_bounded(&env, &["sessions"]).ok();
    assert!(run.stdout.contains("debate-20990101"), "{}", run.stdout);
}

#[test]
fn a_running_session_cannot_be_resumed_and_a_dead_holders_lock_is_taken_over() {
    let env = TestEnv::with_subtraction_bug();
    let mut running = env.start_running_review();
    let run = run_bounded(&env, &["resume", "last"]).fails(2);
    assert_eq!(
        run.stderr.trim(),
        format!(
            "error: session {} is in use by process {}; wait for it to finish (or stop it) \
             before resuming",
            the_only_session(&env),
            running.id()
        )
    );
    assert_eq!(
        env.fake_calls("codex").len(),
        1,
        "the refused resume called the reviewer"
    );
    let listed = |env: &TestEnv| run_bounded(env, &["sessions"]).ok().stdout;
    assert!(
        listed(&env).trim_end().ends_with("running"),
        "{}",
        listed(&env)
    );

    // The holder dies without a word: its lock goes with it, and the list says it stopped.
    running.kill().unwrap();
    running.wait().unwrap();
    assert!(
        listed(&env).trim_end().ends_with("stopped"),
        "{}",
        listed(&env)
    );
    let reviewer: i32 = env.fake_file("codex.pid").unwrap().trim().parse().unwrap();
    // SAFETY: plain kill of the fake reviewer the killed run left behind.
    unsafe { libc::kill(-reviewer, libc::SIGKILL) };
    env.fake("codex", json!({"answer": "LGTM"}));
    let run = run_bounded(&env, &["resume", "last", "--format", "json"]).ok();
    assert_eq!(summary_of(&run)["status"], "completed");
}

fn the_only_session(env: &TestEnv) -> String {
    let names: Vec<String> = std::fs::read_dir(env.store())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("debate-"))
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    names[0].clone()
}

#[test]
fn show_last_skips_a_session_folder_left_without_metadata_by_an_early_signal() {
    let env = TestEnv::with_subtraction_bug();
    let dry = env.run(&["--dry-run"]).ok();
    let id = dry
        .session_dir()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    // What a signal in the first milliseconds leaves: a newer folder, empty.
    let stray = "debate-20991231-235959-999-0000001";
    std::fs::create_dir(env.store().join(stray)).unwrap();
    let run = env.run(&["show", "last"]).ok();
    assert!(run.stdout.contains(&id), "{}", run.stdout);
    assert!(
        run.stderr
            .contains(&format!("note: skipped {stray}: it has no metadata.json")),
        "{}",
        run.stderr
    );
}
