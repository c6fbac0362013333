//! Backends end to end: `git debate ask` and `git debate backends` against the scripted fake agent
//! installed under the real CLIs' names, in real repositories.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::{argv, gone, TestEnv};

const AGENTS: [&str; 6] = ["claude", "codex", "gemini", "qwen", "copilot", "opencode"];

fn ask(env: &TestEnv, backend: &str, prompt: &str, extra: &[&str]) -> crate::common::Run {
    let mut args = vec!["ask", "--backend", backend];
    args.extend_from_slice(extra);
    env.run_full(&args, prompt, &[])
}

#[test]
fn every_cli_format_round_trips_through_its_adapter() {
    let env = TestEnv::with_repo();
    for name in AGENTS {
        let answer = format!("The answer from {name}:\n- line two");
        env.fake(
            name,
            json!({"answer": answer, "model": format!("{name}-model-x"), "input_tokens": 42, "output_tokens": 7}),
        );
        let prompt = format!("Review this for {name}: SECRET-PROMPT-MARKER\n");
        let run = ask(&env, name, &prompt, &["--format", "json"]).ok();
        let a: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(a["text"], answer.as_str(), "{name}");
        assert_eq!(a["backend"], name);
        // The model the CLI reported (where its format carries one) and its version.
        assert_eq!(a["cli_version"], "9.8.7", "{name}");
        let calls = env.fake_calls(name);
        assert_eq!(calls.len(), 1, "{name}");
        // The prompt arrives on stdin exactly, and never in argv.
        assert_eq!(calls[0]["prompt"], prompt.as_str(), "{name}");
        assert!(
            !argv(&calls[0])
                .iter()
                .any(|w| w.contains("SECRET-PROMPT-MARKER")),
            "{name}: {:?}",
            argv(&calls[0])
        );
        // It runs in the work tree, so read-only tools can look at files.
        assert_eq!(
            calls[0]["cwd"].as_str().unwrap(),
            env.repo.to_str().unwrap(),
            "{name}"
        );
    }
}

#[test]
fn text_output_prints_the_answer_and_usage_separately() {
    let env = TestEnv::with_repo();
    env.fake(
        "claude",
        json!({"answer": "Looks fine.", "model": "claude-sonnet-4-5", "input_tokens": 8573, "output_tokens": 14}),
    );
    let run = ask(&env, "claude", "hi", &[]).ok();
    assert_eq!(run.stdout, "Looks fine.\n");
    assert!(
        run.stderr
            .contains("claude · claude-sonnet-4-5 · 8573 in / 14 out tokens"),
        "{}",
        run.stderr
    );
}

#[test]
fn failures_are_classified_per_cli_with_what_to_do() {
    let env = TestEnv::with_repo();
    let cases = [
        ("claude", 401, "not-authenticated", "ANTHROPIC_API_KEY"),
        ("codex", 429, "rate-limited", "another --reviewer"),
        ("gemini", 500, "server-error", "retry later"),
        // qwen reports API errors as a successful result with exit 0.
        ("qwen", 401, "not-authenticated", ""),
        ("copilot", 503, "server-error", ""),
        ("opencode", 429, "rate-limited", ""),
    ];
    for (name, status, kind, hint) in cases {
        env.fake(
            name,
            json!({"error": {"status": status, "message": format!("simulated {status}")}}),
        );
        let run = ask(&env, name, "hi", &[]).fails(3);
        let line = run.stderr.trim();
        assert!(
            line.contains(&format!("{name} failed ({kind})")),
            "{name}: {line}"
        );
        assert!(line.contains(hint), "{name}: {line}");
        assert_eq!(line.lines().count(), 1, "{name}: one line: {line}");
        assert!(line.len() < 600, "{name}: bounded: {line}");
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn a_missing_cli_says_how_to_install_it() {
    let env = TestEnv::with_repo();
    let run = ask(&env, "claude", "hi", &[]).fails(3);
    assert!(
        run.stderr.contains("claude failed (not-installed)")
            && run
                .stderr
                .contains("npm install -g @anthropic-ai/claude-code"),
        "{}",
        run.stderr
    );
    let run = ask(&env, "nonesuch", "hi", &[]).fails(2);
    assert!(
        run.stderr.contains("unknown backend \"nonesuch\""),
        "{}",
        run.stderr
    );
}

#[test]
fn an_empty_answer_is_a_failure_not_a_pass() {
    let env = TestEnv::with_repo();
    env.fake("codex", json!({"answer": "  \n"}));
    let run = ask(&env, "codex", "hi", &[]).fails(3);
    assert!(
        run.stderr.contains("codex failed (empty-answer)"),
        "{}",
        run.stderr
    );
}

#[test]
fn unparseable_output_is_reported_without_echoing_it() {
    let env = TestEnv::with_repo();
    env.fake(
        "claude",
        json!({"stdout": "garbage with a token sk-ant-api03-SHOULDNOTLEAK\n", "exit": 0}),
    );
    let run = ask(&env, "claude", "hi", &[]).fails(3);
    assert!(
        run.stderr.contains("parse-error") && run.stderr.contains("PARSE_ERROR:"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("SHOULDNOTLEAK"), "{}", run.stderr);
}

#[test]
fn timeout_kills_the_whole_process_group() {
    let env = TestEnv::with_repo();
    env.fake("codex", json!({"hang": true, "sleeper": true}));
    let started = Instant::now();
    let run = ask(&env, "codex", "hi", &["--backend-timeout-seconds", "1"]).fails(3);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(
        run.stderr.contains("codex failed (timeout)"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("--backend-timeout-seconds is 1"),
        "{}",
        run.stderr
    );
    for file in ["codex.pid", "codex.sleeper.pid"] {
        let pid: i32 = env.fake_file(file).unwrap().trim().parse().unwrap();
        assert!(gone(pid), "{file} {pid} still running");
    }
}

#[test]
fn silence_trips_the_idle_timeout() {
    let env = TestEnv::with_repo();
    env.fake("gemini", json!({"delay_ms": 5000, "answer": "late"}));
    let run = ask(&env, "gemini", "hi", &["--backend-idle-seconds", "1"]).fails(3);
    assert!(
        run.stderr
            .contains("gemini failed (timeout): no output for 1 s"),
        "{}",
        run.stderr
    );
}

#[test]
fn ctrl_c_kills_the_model_and_exits_130() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({"hang": true, "sleeper": true}));
    env.ctrl_c_during_ask("claude", "claude");
}

#[test]
fn a_ten_megabyte_prompt_does_not_deadlock() {
    let env = TestEnv::with_repo();
    env.fake(
        "exectool",
        json!({"format": "raw", "answer": "read it all"}),
    );
    let prompt = "0123456789abcdef".repeat(10 << 16);
    let run = env
        .run_full(&["ask", "--backend", "exec:exectool"], &prompt, &[])
        .ok();
    assert_eq!(run.stdout, "read it all\n");
    let calls = env.fake_calls("exectool");
    assert_eq!(calls[0]["prompt"].as_str().unwrap().len(), prompt.len());
}

#[test]
fn runaway_output_is_bounded_and_not_passed_off_as_an_answer() {
    let env = TestEnv::with_repo();
    env.fake("exectool", json!({"huge": 80 << 20}));
    let run = env
        .run_full(&["ask", "--backend", "exec:exectool"], "hi", &[])
        .fails(3);
    assert!(run.stderr.contains("output-over-64-MB"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn a_reviewer_that_edits_the_tree_is_reported_loudly() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({"touch": "evil.txt", "answer": "done"}));
    let run = ask(&env, "claude", "hi", &["--format", "json"]).ok();
    assert!(
        run.stderr
            .contains("warning: claude changed the repository although it was run read-only")
            && run.stderr.contains("work tree: evil.txt created"),
        "{}",
        run.stderr
    );
    let a: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(a["tree_changes"], json!(["work tree: evil.txt created"]));
}

#[test]
fn claude_code_session_markers_are_stripped_and_user_env_passes() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({"answer": "ok"}));
    env.run_full(
        &["ask", "--backend", "claude"],
        "hi",
        &[
            ("CLAUDECODE", Some("1")),
            ("CLAUDE_CODE_ENTRYPOINT", Some("cli")),
            ("CLAUDE_CODE_SESSION_ID", Some("abc")),
            ("ANTHROPIC_API_KEY", Some("sk-user-key")),
            ("ANTHROPIC_BASE_URL", Some("http://127.0.0.1:9")),
            ("DISABLE_TELEMETRY", Some("0")),
        ],
    )
    .ok();
    let e = &env.fake_calls("claude")[0]["env"];
    for gone in [
        "CLAUDECODE",
        "CLAUDE_CODE_ENTRYPOINT",
        "CLAUDE_CODE_SESSION_ID",
    ] {
        assert!(e.get(gone).is_none(), "{gone} reached the child");
    }
    assert_eq!(e["ANTHROPIC_API_KEY"], "sk-user-key");
    assert_eq!(e["ANTHROPIC_BASE_URL"], "http://127.0.0.1:9");
    // Our retry bound and traffic switches apply, but never over the user's own value.
    assert_eq!(e["CLAUDE_CODE_MAX_RETRIES"], "2");
    assert_eq!(e["CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"], "1");
    assert_eq!(e["DISABLE_TELEMETRY"], "0");
}

#[test]
fn exec_backends_split_words_without_a_shell() {
    let env = TestEnv::with_repo();
    env.fake("tool", json!({"format": "raw", "answer": "from exec"}));
    let run = env
        .run_full(
            &[
                "ask",
                "--backend",
                "exec:tool --flag 'a b' \"$HOME\" ; echo hi",
            ],
            "hi",
            &[],
        )
        .ok();
    assert_eq!(run.stdout, "from exec\n");
    let a = argv(&env.fake_calls("tool")[0]);
    assert_eq!(&a[1..], ["--flag", "a b", "$HOME", ";", "echo", "hi"]);
    let run = env
        .run_full(&["ask", "--backend", "exec:tool 'unterminated"], "hi", &[])
        .fails(2);
    assert!(run.stderr.contains("unterminated"), "{}", run.stderr);
}

#[test]
fn models_effort_and_per_backend_config_shape_the_command_line() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({"answer": "ok"}));
    let last_argv = || argv(env.fake_calls("claude").last().unwrap()).join(" ");

    ask(&env, "claude", "hi", &["--effort", "low"]).ok();
    // The effort table's model, and its turns (seed 001: 1 at low).
    assert!(
        last_argv().ends_with("--model claude-haiku-4-5 --max-turns 1"),
        "{}",
        last_argv()
    );

    env.git(&["config", "debate.claude.effortLow", "my-haiku"]);
    ask(&env, "claude", "hi", &["--effort", "low"]).ok();
    assert!(
        last_argv().ends_with("--model my-haiku --max-turns 1"),
        "{}",
        last_argv()
    );

    env.git(&["config", "debate.claude.model", "configured-model"]);
    ask(&env, "claude", "hi", &["--effort", "low"]).ok();
    assert!(
        last_argv().ends_with("--model configured-model --max-turns 1"),
        "{}",
        last_argv()
    );

    ask(&env, "claude", "hi", &["--model", "flag-model"]).ok();
    assert!(
        last_argv().ends_with("--model flag-model"),
        "{}",
        last_argv()
    );

    env.git(&[
        "config",
        "debate.claude.args",
        "--max-turns 3 --append-system-prompt 'be brief'",
    ]);
    ask(&env, "claude", "hi", &[]).ok();
    assert!(
        last_argv()
            .ends_with("--model configured-model --max-turns 3 --append-system-prompt be brief"),
        "{}",
        last_argv()
    );
    let a = argv(env.fake_calls("claude").last().unwrap());
    assert_eq!(a.last().unwrap(), "be brief");
}

#[test]
fn a_non_default_command_comes_from_user_config_only() {
    let env = TestEnv::with_repo();
    let other = env.fake(
        "my-claude",
        json!({"answer": "from my-claude", "format": "claude"}),
    );
    env.write(
        ".gitdebate",
        &format!("[debate \"claude\"]\n\tcommand = {}\n", other.display()),
    );
    // From the committed file: ignored, with a warning; claude is then not installed.
    let run = ask(&env, "claude", "hi", &[]).fails(3);
    assert!(
        run.stderr.contains("ignoring debate.claude.command"),
        "{}",
        run.stderr
    );
    // From the user's own config: used.
    env.git(&["config", "debate.claude.command", other.to_str().unwrap()]);
    let run = ask(&env, "claude", "hi", &[]).ok();
    assert_eq!(run.stdout, "from my-claude\n");
}

fn backends_json(env: &TestEnv, vars: &[(&str, Option<&str>)]) -> Value {
    let run = env
        .run_full(&["backends", "--format", "json"], "", vars)
        .ok();
    serde_json::from_str(&run.stdout).unwrap()
}

#[test]
fn backends_lists_every_cli_and_the_route_with_reasons() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({}));
    env.fake("codex", json!({}));
    let v = backends_json(
        &env,
        &[("GIT_DEBATE_LAUNCHER", None), ("CLAUDECODE", Some("1"))],
    );
    let rows = v["backends"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    for a in AGENTS {
        assert!(names.contains(&a), "{names:?}");
    }
    let row = |n: &str| rows.iter().find(|r| r["name"] == n).unwrap();
    assert_eq!(row("claude")["installed"], true);
    assert_eq!(row("claude")["version"], "9.8.7");
    assert_eq!(row("claude")["family"], "anthropic");
    assert_eq!(row("claude")["role"], json!(["author"]));
    assert!(row("claude")["invocation"]
        .as_str()
        .unwrap()
        .contains("--tools Read,Grep,Glob"));
    assert_eq!(row("gemini")["installed"], false);
    assert_eq!(row("codex")["role"], json!(["reviewer"]));
    // Its heartbeat filter is part of how it runs, whatever RUST_LOG the user has.
    assert!(row("codex")["invocation"]
        .as_str()
        .unwrap()
        .starts_with("RUST_LOG=error,codex_app_server::outgoing_message=trace "));
    assert_eq!(v["route"]["author"]["backend"], "claude");
    assert!(v["route"]["author"]["why"]
        .as_str()
        .unwrap()
        .contains("CLAUDECODE"));
    assert_eq!(v["route"]["reviewer"]["backend"], "codex");

    let text = env.run(&["backends"]).ok().stdout;
    assert!(text.starts_with("BACKEND"), "{text}");
    assert!(text.contains("reviewer: codex"), "{text}");
}

#[test]
fn configured_sides_say_where_they_were_configured() {
    let env = TestEnv::with_repo();
    env.fake("claude", json!({}));
    env.fake("codex", json!({}));
    env.fake("gemini", json!({}));
    env.git(&["config", "debate.reviewer", "gemini"]);
    env.git(&["config", "debate.author", "codex"]);
    let v = backends_json(&env, &[]);
    assert_eq!(v["route"]["reviewer"]["backend"], "gemini");
    let why = v["route"]["reviewer"]["why"].as_str().unwrap();
    assert!(
        why.starts_with("debate.reviewer is set in ") && why.ends_with(".git/config"),
        "{why}"
    );
    // A flag beats config, and says so.
    let run = env
        .run_full(
            &["backends", "--format", "json", "--reviewer", "claude"],
            "",
            &[],
        )
        .ok();
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["route"]["reviewer"]["backend"], "claude");
    assert_eq!(v["route"]["reviewer"]["why"], "--reviewer was given");
}

#[test]
fn backends_without_any_cli_explains_what_to_install() {
    let env = TestEnv::with_repo();
    let v = backends_json(&env, &[]);
    let err = v["route_error"].as_str().unwrap();
    assert!(err.contains("no model backend is installed"), "{err}");
    assert!(v["backends"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["installed"] == false));
}

#[test]
fn the_launching_agent_is_found_through_the_process_chain() {
    let env = TestEnv::with_repo();
    let bin = assert_cmd::cargo::cargo_bin("git-debate");
    env.fake("gemini", json!({}));
    // codex starts `git-debate backends` as its child, with no marker variables.
    env.fake(
        "codex",
        json!({"exec": [bin.to_str().unwrap(), "backends", "--format", "json"]}),
    );
    let run = env
        .run_full(
            &["ask", "--backend", "exec:codex"],
            "hi",
            &[("GIT_DEBATE_LAUNCHER", None)],
        )
        .ok();
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["route"]["author"]["backend"], "codex", "{v}");
    assert!(
        v["route"]["author"]["why"]
            .as_str()
            .unwrap()
            .contains("parent process"),
        "{v}"
    );
    assert_eq!(v["route"]["reviewer"]["backend"], "gemini");
}

#[test]
fn same_family_is_refused_unless_allowed() {
    let env = TestEnv::with_repo();
    env.write("a.txt", "change\n");
    env.fake("claude", json!({}));
    env.fake("tool", json!({"format": "raw"}));
    env.git(&["config", "debate.exec.family", "anthropic"]);
    let run = env
        .run(&["--author", "claude", "--reviewer", "exec:tool"])
        .fails(2);
    assert!(
        run.stderr.contains("both anthropic models") && run.stderr.contains("--allow-same-family"),
        "{}",
        run.stderr
    );
    let run = env
        .run(&[
            "--author",
            "claude",
            "--reviewer",
            "exec:tool",
            "--allow-same-family",
        ])
        .ok();
    assert!(run.stdout.contains("reviewer exec:tool"), "{}", run.stdout);
    // A misspelled backend is bad input, said before any call.
    let run = env
        .run(&["--author", "claude", "--reviewer", "gemnii"])
        .fails(2);
    assert!(
        run.stderr.contains("unknown backend \"gemnii\""),
        "{}",
        run.stderr
    );
}

#[test]
fn a_dry_run_records_who_would_review() {
    let env = TestEnv::with_repo();
    env.write("a.txt", "change\n");
    env.fake("claude", json!({}));
    env.fake("gemini", json!({}));
    let run = env.run(&["--dry-run"]).ok();
    let m = run.metadata();
    assert_eq!(m["route"]["author"]["backend"], "claude");
    assert_eq!(m["route"]["reviewer"]["backend"], "gemini");
    // And without any backend, the dry run still works and says why there is no route.
    let env = TestEnv::with_repo();
    env.write("a.txt", "change\n");
    let m = env.run(&["--dry-run"]).ok().metadata();
    assert!(m["route_error"]
        .as_str()
        .unwrap()
        .contains("no model backend"));
}

#[test]
fn openai_compatible_servers_are_reached_through_config_or_environment() {
    use std::io::{BufRead as _, BufReader, Read as _, Write as _};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}/v1", listener.local_addr().unwrap());
    let server = std::thread::spawn(move || {
        let mut models = Vec::new();
        for _ in 0..2 {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut len = 0;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap();
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; len];
            reader.read_exact(&mut body).unwrap();
            let req: Value = serde_json::from_slice(&body).unwrap();
            models.push(req["model"].as_str().unwrap().to_string());
            let reply =
                json!({"model": req["model"], "choices": [{"message": {"content": "served"}}],
                "usage": {"prompt_tokens": 5, "completion_tokens": 1}})
                .to_string();
            let mut stream = stream;
            write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
                reply.len()
            )
            .unwrap();
        }
        models
    });
    let env = TestEnv::with_repo();
    env.git(&["config", "debate.openai.baseUrl", &base]);
    let run = env
        .run_full(&["ask", "--backend", "openai:llama3.1"], "hi", &[])
        .ok();
    assert_eq!(run.stdout, "served\n");
    assert!(
        run.stderr
            .contains("openai:llama3.1 · llama3.1 · 5 in / 1 out tokens"),
        "{}",
        run.stderr
    );
    env.git(&["config", "--unset", "debate.openai.baseUrl"]);
    let run = env
        .run_full(
            &[
                "ask",
                "--backend",
                "openai:qwen2.5-coder",
                "--model",
                "override",
            ],
            "hi",
            &[("OPENAI_BASE_URL", Some(&base))],
        )
        .ok();
    assert_eq!(run.stdout, "served\n");
    assert_eq!(server.join().unwrap(), ["llama3.1", "override"]);
}

#[test]
fn a_configured_family_changes_routing() {
    let env = TestEnv::with_repo();
    for cli in ["claude", "codex", "gemini"] {
        env.fake(cli, json!({}));
    }
    // Say codex is served by an Anthropic model: it can no longer review claude's work.
    env.git(&["config", "debate.codex.family", "anthropic"]);
    let v = backends_json(&env, &[("GIT_DEBATE_LAUNCHER", Some("claude"))]);
    let row = |n: &str| {
        v["backends"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(row("codex")["family"], "anthropic");
    assert_eq!(v["route"]["reviewer"]["backend"], "gemini");
}

#[test]
fn a_clis_version_is_asked_once_per_installed_binary() {
    let env = TestEnv::with_repo();
    let program = env.fake("claude", json!({"answer": "ok"}));
    let probes = || {
        env.fake_file("claude.version-calls")
            .map_or(0, |s| s.lines().count())
    };
    for _ in 0..3 {
        let run = env
            .run_full(
                &["ask", "--backend", "claude", "--format", "json"],
                "hi",
                &[],
            )
            .ok();
        let v: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(v["cli_version"], "9.8.7", "{}", run.stdout);
    }
    assert_eq!(probes(), 1, "asked again though the binary did not change");
    // An update installs a new file: asked again, once.
    std::fs::remove_file(&program).unwrap();
    std::fs::copy(assert_cmd::cargo::cargo_bin("fake-agent"), &program).unwrap();
    for _ in 0..2 {
        env.run_full(&["ask", "--backend", "claude"], "hi", &[])
            .ok();
    }
    assert_eq!(probes(), 2);
}
