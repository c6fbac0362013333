//! Long calls live and failing ones say why: claude, gemini and qwen are run streaming, and codex
//! with its tracing heartbeat on stderr, so the idle limit measures silence rather than the length
//! of an answer; a limit that ends a call is named; gemini's retry reports on stderr end a call as
//! `rate-limited`/`server-error` after `debate.gemini.maxAttempts` attempts instead of running
//! into the timeout.

use serde_json::json;

use crate::common::TestEnv;

fn ask(env: &TestEnv, backend: &str, extra: &[&str]) -> crate::common::Run {
    let mut args = vec!["ask", "--backend", backend];
    args.extend_from_slice(extra);
    env.run_full(&args, "hi", &[])
}

#[test]
fn a_streamed_answer_longer_than_the_idle_limit_lives() {
    let env = TestEnv::with_repo();
    for cli in ["claude", "gemini", "qwen"] {
        // Five times the idle limit in all, but never silent for long.
        env.fake(
            cli,
            json!({"trickle": {"count": 10, "every_ms": 500}, "answer": "STREAMED-ANSWER"}),
        );
        let run = ask(&env, cli, &["--backend-idle-seconds", "2"]).ok();
        assert!(
            run.stdout.contains("STREAMED-ANSWER"),
            "{cli}: {}",
            run.stdout
        );
        let argv = env.fake_calls(cli).last().unwrap()["argv"].to_string();
        assert!(argv.contains("stream-json"), "{cli}: {argv}");
    }
}

#[test]
fn the_limit_that_ended_a_call_is_named() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({"delay_ms": 5000}));
    let run = ask(&env, "claude", &["--backend-idle-seconds", "1"]).fails(3);
    assert!(
        run.stderr
            .contains("claude failed (timeout): no output for 1 s")
            && run.stderr.contains("--backend-idle-seconds"),
        "{}",
        run.stderr
    );
    env.fake("claude", json!({"trickle": {"count": 50, "every_ms": 200}}));
    let run = ask(&env, "claude", &["--backend-timeout-seconds", "1"]).fails(3);
    assert!(
        run.stderr
            .contains("no answer within 1 s, the wall-clock limit (--backend-timeout-seconds"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_cli_that_prints_its_answer_only_when_whole_is_not_held_to_the_idle_limit() {
    // opencode `--format json` prints nothing while the model writes (seen with a slow streamed
    // answer through the harness): silence is not a stuck call there.
    let env = TestEnv::with_repo();
    env.fake(
        "opencode",
        json!({"delay_ms": 2500, "answer": "whole at last"}),
    );
    let run = ask(&env, "opencode", &["--backend-idle-seconds", "1"]).ok();
    assert!(run.stdout.contains("whole at last"), "{}", run.stderr);
    // The wall clock still bounds it, and says so.
    let run = ask(&env, "opencode", &["--backend-timeout-seconds", "1"]).fails(3);
    assert!(
        run.stderr
            .contains("the wall-clock limit (--backend-timeout-seconds"),
        "{}",
        run.stderr
    );
}

/// The lines codex 0.169 printed on stderr in the recorded run `scenario`
/// (`tests/fixtures/codex/`), run with the tracing filter git-debate gives it.
fn codex_stderr(scenario: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/codex")
        .join(format!("{scenario}.stderr"));
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// What makes the fake codex print its tracing lines, as the real one does: the filter in
/// `RUST_LOG` that names their target.
fn when_traced() -> serde_json::Value {
    json!({"RUST_LOG": "codex_app_server::outgoing_message=trace"})
}

#[test]
fn codex_streaming_slowly_lives_on_its_heartbeat() {
    // `exec --json` is silent while the model writes (recording `ok-slow`); with the tracing
    // filter codex prints a line per streamed delta on stderr (recording `ok-slow-heartbeat`).
    // Five times the idle limit in all, never silent for long: the answer comes.
    let env = TestEnv::with_repo();
    let beats: Vec<String> = codex_stderr("ok-slow-heartbeat")
        .into_iter()
        .filter(|l| l.contains("item/agentMessage/delta"))
        .collect();
    assert!(beats.len() >= 10, "{beats:?}");
    env.fake(
        "codex",
        json!({"trickle": {"stream": "stderr", "lines": beats[..10], "every_ms": 500,
                           "needs_env": when_traced()},
               "answer": "LONG-STREAMED-ANSWER"}),
    );
    // The user's own RUST_LOG would decide what codex prints: it is replaced for codex.
    let run = env.run_full(
        &["ask", "--backend", "codex", "--backend-idle-seconds", "2"],
        "hi",
        &[("RUST_LOG", Some("warn"))],
    );
    let run = run.ok();
    assert!(
        run.stdout.contains("LONG-STREAMED-ANSWER"),
        "{}",
        run.stderr
    );
    // The heartbeat lines were read, not kept: nothing of them reaches the user.
    assert!(!run.stderr.contains("outgoing_message"), "{}", run.stderr);
    let call = env.fake_calls("codex").last().unwrap().clone();
    assert_eq!(
        call["env"]["RUST_LOG"],
        "error,codex_app_server::outgoing_message=trace"
    );
}

#[test]
fn a_codex_model_that_stalls_or_never_answers_ends_at_the_idle_limit() {
    // Recorded: the model stalled after four deltas (`stall-midway-heartbeat`), or sent nothing
    // at all (`hang-heartbeat`); codex's lines stopped with it and only a kill ended the run.
    let env = TestEnv::with_repo();
    for scenario in ["stall-midway-heartbeat", "hang-heartbeat"] {
        env.fake(
            "codex",
            json!({"trickle": {"stream": "stderr", "lines": codex_stderr(scenario),
                               "every_ms": 100, "needs_env": when_traced()},
                   "hang": true}),
        );
        let started = std::time::Instant::now();
        let run = ask(
            &env,
            "codex",
            &[
                "--backend-idle-seconds",
                "2",
                "--backend-timeout-seconds",
                "60",
            ],
        )
        .fails(3);
        assert!(
            run.stderr
                .contains("codex failed (timeout): no output for 2 s, the idle limit (--backend-idle-seconds)"),
            "{scenario}: {}",
            run.stderr
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "{scenario}: {:?}",
            started.elapsed()
        );
        assert!(!run.stderr.contains("outgoing_message"), "{}", run.stderr);
    }
}

#[test]
fn codex_heartbeat_lines_are_not_its_error_message() {
    // codex's tracing lines (recorded in `401-heartbeat`), then one of its plain-text errors
    // (recorded in `schema-file-missing`) and exit 1 with no event: the message is the error
    // alone.
    let env = TestEnv::with_repo();
    let mut stderr = codex_stderr("401-heartbeat")[..5].join("\n");
    stderr.push('\n');
    stderr.push_str(&codex_stderr("schema-file-missing").join("\n"));
    env.fake("codex", json!({"stdout": "", "stderr": stderr, "exit": 1}));
    let run = ask(&env, "codex", &[]).fails(3);
    assert!(
        run.stderr.contains(
            "codex failed (exited(1)): Failed to read output schema file \
             /tmp/so/no-such-schema.json: No such file or directory (os error 2)"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("TRACE"), "{}", run.stderr);
}

/// gemini's stderr while it retries, as recorded from gemini 0.61 (one line per failed attempt).
fn retry_lines(status: u16, n: usize) -> Vec<String> {
    (1..=n)
        .map(|i| {
            format!(
                "Attempt {i} failed with status {status}. Retrying with backoff... _ApiError: \
                 {{\"error\":{{\"code\":{status},\"message\":\"fake_llm simulated {status}\"}}}}"
            )
        })
        .collect()
}

/// N of "stopped after N failed attempts".
fn attempts(stderr: &str) -> u32 {
    let at = stderr.find("stopped after ").expect("stopped after") + "stopped after ".len();
    stderr[at..].split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn gemini_retrying_a_429_is_rate_limited_after_max_attempts() {
    let env = TestEnv::with_repo();
    env.git(&["config", "--global", "debate.gemini.maxAttempts", "2"]);
    env.fake(
        "gemini",
        json!({"trickle": {"stream": "stderr", "lines": retry_lines(429, 10), "every_ms": 100},
               "hang": true}),
    );
    let run = ask(
        &env,
        "gemini",
        &[
            "--backend-timeout-seconds",
            "600",
            "--backend-idle-seconds",
            "60",
        ],
    )
    .fails(3);
    assert!(
        run.stderr
            .contains("gemini failed (rate-limited): stopped after")
            && run
                .stderr
                .contains("failed attempts: fake_llm simulated 429"),
        "{}",
        run.stderr
    );
    assert!((2..10).contains(&attempts(&run.stderr)), "{}", run.stderr);
}

#[test]
fn gemini_retrying_a_500_is_a_server_error_after_the_default_attempts() {
    let env = TestEnv::with_repo();
    env.fake(
        "gemini",
        json!({"trickle": {"stream": "stderr", "lines": retry_lines(500, 10), "every_ms": 100},
               "hang": true}),
    );
    let run = ask(
        &env,
        "gemini",
        &[
            "--backend-timeout-seconds",
            "600",
            "--backend-idle-seconds",
            "60",
        ],
    )
    .fails(3);
    assert!(
        run.stderr
            .contains("gemini failed (server-error): stopped after"),
        "{}",
        run.stderr
    );
    // At the default 3 (or the next line, read in the same go), not all 10 it printed: stopped
    // as the lines came, not when a limit ran out.
    assert!((3..10).contains(&attempts(&run.stderr)), "{}", run.stderr);
}

#[test]
fn a_bad_max_attempts_is_a_usage_error_naming_the_key() {
    let env = TestEnv::with_repo();
    env.git(&["config", "--global", "debate.gemini.maxAttempts", "zero"]);
    env.fake("gemini", json!({"answer": "x"}));
    let run = ask(&env, "gemini", &[]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("debate.gemini.maxAttempts"),
        "{}",
        run.stderr
    );
}
