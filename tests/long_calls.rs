//! Long calls live and failing ones say why: claude, gemini and qwen are run streaming, so the
//! idle limit measures silence rather than the length of an answer; a limit that ends a call is
//! named; gemini's retry reports on stderr end a call as `rate-limited`/`server-error` after
//! `debate.gemini.maxAttempts` attempts instead of running into the timeout.

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
    // codex `exec --json` and opencode `--format json` print nothing while the model writes
    // (seen with a slow streamed answer through the harness): silence is not a stuck call there.
    let env = TestEnv::with_repo();
    for cli in ["codex", "opencode"] {
        env.fake(cli, json!({"delay_ms": 2500, "answer": "whole at last"}));
        let run = ask(&env, cli, &["--backend-idle-seconds", "1"]).ok();
        assert!(
            run.stdout.contains("whole at last"),
            "{cli}: {}",
            run.stderr
        );
        // The wall clock still bounds it, and says so.
        let run = ask(&env, cli, &["--backend-timeout-seconds", "1"]).fails(3);
        assert!(
            run.stderr
                .contains("the wall-clock limit (--backend-timeout-seconds"),
            "{cli}: {}",
            run.stderr
        );
    }
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
