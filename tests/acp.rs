//! The ACP transport end to end: `git debate ask`, reviews and `git debate backends` against the
//! scripted fake ACP agent (`src/bin/fake-acp.rs`) installed as `kiro-cli`, `gemini` or an
//! `acp:` command, in real repositories.

use serde_json::{json, Value};

use crate::common::{gone, Run, TestEnv};

fn ask(env: &TestEnv, backend: &str, extra: &[&str]) -> Run {
    let mut args = vec!["ask", "--backend", backend, "--format", "json"];
    args.extend_from_slice(extra);
    env.run_full(&args, "Is this safe? SECRET-PROMPT-MARKER\n", &[])
}

fn answer(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", run.stdout, run.stderr))
}

/// The settings the agent was given, as `(configId or method, value)`.
fn settings(call: &Value) -> Vec<(String, String)> {
    call["set"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let p = &s["params"];
            let key = p["configId"]
                .as_str()
                .unwrap_or(s["method"].as_str().unwrap())
                .to_string();
            let value = p["value"]
                .as_str()
                .or(p["modelId"].as_str())
                .or(p["modeId"].as_str());
            (key, value.unwrap().to_string())
        })
        .collect()
}

fn pair(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

#[test]
fn kiro_answers_over_acp_with_the_prompt_on_stdin_in_read_only_mode() {
    let env = TestEnv::with_repo();
    env.fake_acp(
        "kiro-cli",
        json!({"answer": "Looks safe.\n- one line more", "usage": {"inputTokens": 120, "outputTokens": 9}, "report_model": true}),
    );
    let a = answer(&ask(&env, "kiro", &[]).ok());
    assert_eq!(a["text"], "Looks safe.\n- one line more");
    assert_eq!(a["backend"], "kiro");
    assert_eq!(a["usage"]["input_tokens"], 120);
    assert_eq!(a["usage"]["output_tokens"], 9);
    // The agent's own name and version, from `initialize`.
    assert_eq!(a["cli_version"], "kiro-cli 1.2.3");
    assert_eq!(a["model"], "fake-model-a");
    let calls = env.acp_calls("kiro-cli");
    assert_eq!(calls.len(), 1);
    let call = &calls[0];
    // The prompt came in session/prompt, never on argv.
    assert_eq!(call["prompt"], "Is this safe? SECRET-PROMPT-MARKER\n");
    assert_eq!(call["argv"], json!(["acp"]));
    assert_eq!(
        call["session_cwd"].as_str().unwrap(),
        env.repo.to_str().unwrap()
    );
    // Switched to its read-only mode before the prompt; no model or effort was asked for.
    assert_eq!(settings(call), [pair("mode", "read-only")]);
    let log = env.fake_file("kiro-cli.acp.jsonl").unwrap();
    let init: Value = serde_json::from_str(
        serde_json::from_str::<Value>(log.lines().next().unwrap()).unwrap()["line"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(init["method"], "initialize");
    assert_eq!(init["params"]["protocolVersion"], 1);
    // No file writing, no terminal offered.
    assert_eq!(
        init["params"]["clientCapabilities"],
        json!({"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false})
    );
}

#[test]
fn the_model_and_effort_are_set_and_confirmed_by_the_agent() {
    let env = TestEnv::with_repo();
    env.fake_acp("kiro-cli", json!({"answer": "ok"}));
    env.git(&["config", "debate.kiro.model", "fake-model-b"]);
    let a = answer(&ask(&env, "kiro", &["--effort", "high"]).ok());
    let call = &env.acp_calls("kiro-cli")[0];
    assert_eq!(
        settings(call),
        [
            pair("mode", "read-only"),
            pair("model", "fake-model-b"),
            pair("effort", "high")
        ]
    );
    // The agent echoed the model it now has: that is the model of the record.
    assert_eq!(a["model"], "fake-model-b");
    assert!(a.get("notes").is_none(), "{a}");
}

#[test]
fn a_model_the_agent_does_not_offer_fails_before_the_prompt() {
    let env = TestEnv::with_repo();
    env.fake_acp("kiro-cli", json!({"answer": "never"}));
    let run = ask(&env, "kiro", &["--model", "gpt-9"]).fails(3);
    assert!(
        run.stderr
            .contains("does not offer model \"gpt-9\" (it offers: fake-model-a, fake-model-b)"),
        "{}",
        run.stderr
    );
    assert!(env.acp_calls("kiro-cli")[0].get("prompt").is_none());
}

#[test]
fn an_alias_only_model_list_gets_the_alias_and_says_so() {
    // claude-agent-acp 0.101 offers default/opus/sonnet/haiku and refuses full model ids
    // (tests/fixtures/acp/claude.jsonl).
    let env = TestEnv::with_repo();
    let session = json!({"configOptions": [
        {"id": "model", "category": "model", "type": "select", "currentValue": "default",
         "options": [{"value": "default"}, {"value": "opus"}, {"value": "sonnet"}, {"value": "haiku"}]}
    ]});
    env.fake_acp(
        "claude-agent-acp",
        json!({"answer": "ok", "session": session, "report_model": "claude-sonnet-4-6"}),
    );
    env.git(&["config", "debate.claude.transport", "acp"]);
    let a = answer(&ask(&env, "claude", &["--model", "claude-sonnet-4-5"]).ok());
    assert_eq!(
        settings(&env.acp_calls("claude-agent-acp")[0]),
        [pair("model", "sonnet")]
    );
    // What answered, as the agent reports it.
    assert_eq!(a["model"], "claude-sonnet-4-6");
    let notes = a["notes"].to_string();
    assert!(
        notes.contains("offers aliases only and was set to \\\"sonnet\\\""),
        "{notes}"
    );
    assert!(notes.contains("no read-only mode"), "{notes}");
    assert!(
        notes.contains("the agent reports claude-sonnet-4-6"),
        "{notes}"
    );
}

#[test]
fn a_model_the_agent_cannot_confirm_is_said_so() {
    // gemini's legacy `models` + `session/set_model`: accepted with `{}`; here it never reports
    // which model answered.
    let env = TestEnv::with_repo();
    let session = json!({
        "configOptions": [],
        "modes": {"currentModeId": "default", "availableModes": [{"id": "default"}, {"id": "plan"}]},
        "models": {"currentModelId": "auto", "availableModels": [{"modelId": "auto"}, {"modelId": "gemini-2.5-pro"}]}
    });
    env.fake_acp("gemini", json!({"answer": "ok", "session": session}));
    env.git(&["config", "debate.gemini.transport", "acp"]);
    let a = answer(&ask(&env, "gemini", &["--model", "gemini-2.5-flash"]).ok());
    let call = &env.acp_calls("gemini")[0];
    assert_eq!(call["argv"], json!(["--acp"]));
    assert_eq!(
        settings(call),
        [
            pair("session/set_mode", "plan"),
            pair("session/set_model", "gemini-2.5-flash")
        ]
    );
    assert_eq!(a["model"], "gemini-2.5-flash");
    assert!(
        a["notes"]
            .to_string()
            .contains("did not report which model answered"),
        "{a}"
    );
    // With no model selection at all (kiro's), the note says the agent chose.
    let env = TestEnv::with_repo();
    env.fake_acp(
        "kiro-cli",
        json!({"answer": "ok", "session": {"configOptions": []}}),
    );
    let a = answer(&ask(&env, "kiro", &["--model", "claude-x"]).ok());
    assert!(
        a["notes"]
            .to_string()
            .contains("offers no model selection over ACP"),
        "{a}"
    );
}

#[test]
fn a_permission_to_write_is_refused_and_recorded_and_reading_is_allowed() {
    let env = TestEnv::with_repo();
    env.fake_acp(
        "kiro-cli",
        json!([
            {"answer": "tried", "permission": {"kind": "edit", "title": "Write src/evil.rs"}},
            {"answer": "read it", "permission": {"kind": "read", "title": "Read README.md"}},
            {"answer": "tried", "write_request": true}
        ]),
    );
    let run = ask(&env, "kiro", &[]).ok();
    assert!(
        run.stderr
            .contains("warning: kiro: refused permission for a edit tool call: Write src/evil.rs"),
        "{}",
        run.stderr
    );
    let a = answer(&run);
    assert_eq!(a["text"], "tried");
    assert!(a["notes"].to_string().contains("Write src/evil.rs"), "{a}");
    ask(&env, "kiro", &[]).ok();
    let run = ask(&env, "kiro", &[]).ok();
    assert!(
        run.stderr
            .contains("refused the agent's fs/write_text_file request"),
        "{}",
        run.stderr
    );
    let calls = env.acp_calls("kiro-cli");
    let outcome = |i: usize| calls[i]["answers"][0].clone();
    assert_eq!(
        outcome(0)["result"]["outcome"],
        json!({"outcome": "selected", "optionId": "reject"})
    );
    assert_eq!(
        outcome(1)["result"]["outcome"],
        json!({"outcome": "selected", "optionId": "allow"})
    );
    assert_eq!(outcome(2)["error"]["code"], -32601);
}

#[test]
fn a_review_records_a_refused_permission_in_the_session() {
    let env = TestEnv::with_subtraction_bug();
    let critique = format!(
        "Review.\n\n```json\n{}\n```\n",
        json!({"verdict": "approve", "findings": []})
    );
    env.fake_acp(
        "gemini",
        json!({"answer": critique, "permission": {"kind": "execute", "title": "rm -rf /"}, "report_model": true,
               "session": {"configOptions": [{"id": "model", "category": "model", "type": "select", "currentValue": "gemini-3-flash-preview",
                 "options": [{"value": "gemini-3-flash-preview"}, {"value": "gemini-3.1-pro-preview"}]},
                 {"id": "mode", "category": "mode", "type": "select", "currentValue": "default", "options": [{"value": "default"}, {"value": "plan"}]}]}}),
    );
    env.fake("claude", json!({"answer": "unused"}));
    env.git(&["config", "debate.gemini.transport", "acp"]);
    let run = env.run_from_claude(&["--reviewer", "gemini", "--effort", "high"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    let call = &env.acp_calls("gemini")[0];
    // The diff under review travelled in the prompt.
    assert!(call["prompt"].as_str().unwrap().contains("a - b"), "{call}");
    // --effort high picks gemini's high model from the effort table, set through the session.
    assert!(settings(call).contains(&pair("model", "gemini-3.1-pro-preview")));
    let dir = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("session: "))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    let round =
        std::fs::read_to_string(std::path::Path::new(dir.trim()).join("round-1.json")).unwrap();
    assert!(
        round.contains("refused permission for a execute tool call: rm -rf /"),
        "{round}"
    );
    assert!(
        round.contains("\"model\": \"gemini-3.1-pro-preview\""),
        "{round}"
    );
}

#[test]
fn malformed_lines_are_skipped_and_an_agent_of_only_garbage_is_a_parse_error() {
    let env = TestEnv::with_repo();
    env.fake_acp(
        "kiro-cli",
        json!([
            {"answer": "fine", "garbage": ["Loading model...", "{not json", "[1,2]", "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}"]},
            {"garbage": ["\u{1b}[31mBOOM", "{\"jsonrpc\":\"2.0\",\"id\":0}"], "quit": true}
        ]),
    );
    assert_eq!(answer(&ask(&env, "kiro", &[]).ok())["text"], "fine");
    let run = ask(&env, "kiro", &[]).fails(3);
    assert!(
        run.stderr
            .contains("kiro failed (parse-error): PARSE_ERROR:acp-2-malformed-lines-no-answer:0"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains("BOOM"),
        "raw output echoed: {}",
        run.stderr
    );
}

#[test]
fn a_notification_flood_does_not_lose_the_answer() {
    let env = TestEnv::with_repo();
    env.fake_acp(
        "kiro-cli",
        json!({"answer": "survived the flood", "flood": 200_000}),
    );
    let a = answer(&ask(&env, "kiro", &[]).ok());
    assert_eq!(a["text"], "survived the flood");
}

#[test]
fn a_hung_agent_is_killed_with_its_children_at_the_deadline() {
    let env = TestEnv::with_repo();
    env.fake_acp("kiro-cli", json!({"hang": true}));
    let run = ask(&env, "kiro", &["--backend-timeout-seconds", "1"]).fails(3);
    assert!(
        run.stderr
            .contains("kiro failed (timeout): no answer within 1 s"),
        "{}",
        run.stderr
    );
    for file in ["kiro-cli.pid", "kiro-cli.sleeper.pid"] {
        let pid: i32 = env.fake_file(file).unwrap().trim().parse().unwrap();
        assert!(gone(pid), "{file} {pid} still running");
    }
    let run = ask(&env, "kiro", &["--backend-idle-seconds", "1"]).fails(3);
    assert!(
        run.stderr
            .contains("kiro failed (timeout): no output for 1 s"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_agent_exiting_mid_prompt_or_answering_an_error_is_classified() {
    let env = TestEnv::with_repo();
    env.fake_acp(
        "kiro-cli",
        json!([
            {"exit": {"code": 1, "stderr": "Error: 401 Unauthorized"}},
            {"exit": {"code": 7, "stderr": ""}},
            {"error": {"method": "session/prompt", "code": -32000, "message": "Authentication required"}},
            {"error": {"method": "session/new", "code": -32603, "message": "Rate limit exceeded, quota"}},
            {"stop_reason": "max_tokens"},
            {"error": {"method": "session/set_config_option", "code": -32602, "message": "Invalid params"}}
        ]),
    );
    let expect = [
        "kiro failed (not-authenticated): the agent exited with code 1 before answering: Error: 401 Unauthorized",
        "kiro failed (exited(7)): the agent exited with code 7 before answering",
        "kiro failed (not-authenticated): the agent refused the prompt (-32000): Authentication required",
        "kiro failed (rate-limited): the agent refused session/new (-32603)",
        "kiro failed (parse-error): the agent stopped the turn early (stopReason max_tokens)",
        // No read-only mode, no prompt.
        "the agent refused switching to read-only mode (-32602): Invalid params",
    ];
    for e in expect {
        let run = ask(&env, "kiro", &[]).fails(3);
        assert!(run.stderr.contains(e), "{e}\n{}", run.stderr);
    }
    assert!(env
        .acp_calls("kiro-cli")
        .last()
        .unwrap()
        .get("prompt")
        .is_none());
}

#[test]
fn copilots_error_chunks_fail_the_call_and_cancel_the_turn() {
    // copilot 1.0.102 reports provider errors as message chunks and ends the turn normally
    // (tests/fixtures/acp/copilot-401.jsonl); its retry notices are not the answer either.
    let env = TestEnv::with_repo();
    env.git(&["config", "debate.copilot.transport", "acp"]);
    env.fake_acp(
        "copilot",
        json!([
            {"answer": "Error: 429 Too Many Requests", "chunks": 1},
            {"answer": "Info: Request failed due to a transient API error. Retrying...", "chunks": 1, "qwen_usage": {"inputTokens": 1}},
        ]),
    );
    let run = ask(&env, "copilot", &[]).fails(3);
    assert!(
        run.stderr
            .contains("copilot failed (rate-limited): 429 Too Many Requests"),
        "{}",
        run.stderr
    );
    assert_eq!(
        env.acp_calls("copilot")[0]["argv"],
        json!(["--acp", "--stdio"])
    );
    // The turn in progress was cancelled before the agent was stopped.
    let log = env.fake_file("copilot.acp.jsonl").unwrap();
    assert!(log.contains(r#"\"method\":\"session/cancel\""#), "{log}");
    // Only a notice and no answer: empty.
    let run = ask(&env, "copilot", &[]).fails(3);
    assert!(
        run.stderr.contains("copilot failed (empty-answer)"),
        "{}",
        run.stderr
    );
}

#[test]
fn kiro_without_kiro_cli_says_how_to_install_it() {
    let env = TestEnv::with_repo();
    let run = ask(&env, "kiro", &[]).fails(3);
    assert!(
        run.stderr.contains("kiro failed (not-installed)"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("kiro-cli"), "{}", run.stderr);
}

#[test]
fn ctrl_c_kills_the_agent_and_exits_130() {
    let env = TestEnv::with_repo();
    env.fake_acp("kiro-cli", json!({"hang": true}));
    env.ctrl_c_during_ask("kiro", "kiro-cli");
}

#[test]
fn the_trace_variable_records_the_conversation_both_ways() {
    let env = TestEnv::with_repo();
    env.fake_acp("kiro-cli", json!({"answer": "traced"}));
    let trace = env.root.join("trace.jsonl");
    env.run_full(
        &["ask", "--backend", "kiro"],
        "hi",
        &[("GIT_DEBATE_ACP_TRACE", Some(trace.to_str().unwrap()))],
    )
    .ok();
    let lines: Vec<Value> = std::fs::read_to_string(&trace)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Exactly what the agent logged, in the same order, from our side.
    let agent: Vec<Value> = env
        .fake_file("kiro-cli.acp.jsonl")
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            let flipped = if v["dir"] == "in" { "out" } else { "in" };
            let line: Value = serde_json::from_str(v["line"].as_str().unwrap()).unwrap();
            json!([flipped, line])
        })
        .collect();
    let ours: Vec<Value> = lines
        .iter()
        .map(|v| {
            json!([
                v["dir"],
                serde_json::from_str::<Value>(v["line"].as_str().unwrap()).unwrap()
            ])
        })
        .collect();
    assert_eq!(ours, agent);
    assert!(ours.iter().any(|l| l[1]["method"] == "session/prompt"));
}

#[test]
fn any_acp_agent_runs_as_acp_command_from_user_config() {
    let env = TestEnv::with_repo();
    env.fake_acp("my-agent", json!({"answer": "from my agent"}));
    let a = answer(&ask(&env, "acp:my-agent --stdio 'two words'", &[]).ok());
    assert_eq!(a["text"], "from my agent");
    assert_eq!(a["backend"], "acp:my-agent --stdio 'two words'");
    assert_eq!(
        env.acp_calls("my-agent")[0]["argv"],
        json!(["--stdio", "two words"])
    );
}

#[test]
fn backends_shows_the_transport_of_each() {
    let env = TestEnv::with_repo();
    env.fake_acp("kiro-cli", json!({}));
    env.fake("codex", json!({}));
    env.git(&["config", "debate.gemini.transport", "acp"]);
    let run = env.run(&["backends", "--format", "json"]).ok();
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let row = |n: &str| {
        v["backends"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == n)
            .unwrap_or_else(|| panic!("no {n}: {v}"))
            .clone()
    };
    assert_eq!(row("kiro")["transport"], "acp");
    assert_eq!(row("kiro")["installed"], true);
    assert!(row("kiro")["invocation"]
        .as_str()
        .unwrap()
        .contains("kiro-cli acp [ACP:"));
    assert_eq!(row("gemini")["transport"], "acp");
    assert!(row("gemini")["invocation"]
        .as_str()
        .unwrap()
        .contains("gemini --acp"));
    assert_eq!(row("codex")["transport"], "cli");
    let text = env.run(&["backends"]).ok().stdout;
    assert!(text.contains("TRANSPORT"), "{text}");
    let kiro = text.lines().find(|l| l.starts_with("kiro ")).unwrap();
    assert!(kiro.contains(" acp "), "{kiro}");
}

#[test]
fn kiro_is_picked_as_the_reviewer_of_another_familys_author() {
    let env = TestEnv::with_repo();
    env.fake_acp("kiro-cli", json!({}));
    env.fake("codex", json!({}));
    let run = env.run_full(
        &["backends", "--format", "json"],
        "",
        &[("GIT_DEBATE_LAUNCHER", Some("codex"))],
    );
    let v: Value = serde_json::from_str(&run.ok().stdout).unwrap();
    assert_eq!(v["route"]["author"]["backend"], "codex");
    assert_eq!(v["route"]["reviewer"]["backend"], "kiro");
    assert_eq!(v["route"]["reviewer"]["family"], "anthropic");
}

#[test]
fn a_committed_gitdebate_cannot_choose_the_transport_or_an_acp_command() {
    let env = TestEnv::with_repo();
    env.write(
        ".gitdebate",
        "[debate \"gemini\"]\n\ttransport = acp\n\tacpCommand = /tmp/evil\n[debate]\n\treviewer = acp:evil-agent\n",
    );
    env.commit_all("shared config");
    let v: Value =
        serde_json::from_str(&env.run(&["backends", "--format", "json"]).ok().stdout).unwrap();
    let gemini = v["backends"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "gemini")
        .unwrap()
        .clone();
    assert_eq!(gemini["transport"], "cli");
    assert!(!v.to_string().contains("evil"), "{v}");
}

#[test]
fn a_bad_transport_is_a_one_line_usage_error() {
    let env = TestEnv::with_repo();
    env.git(&["config", "debate.codex.transport", "smoke-signals"]);
    let run = ask(&env, "codex", &[]).fails(2);
    assert!(
        run.stderr
            .contains("bad debate.codex.transport \"smoke-signals\": use cli"),
        "{}",
        run.stderr
    );
    env.git(&["config", "debate.kiro.transport", "cli"]);
    let run = ask(&env, "kiro", &[]).fails(2);
    assert!(
        run.stderr.contains("kiro has no command-line mode"),
        "{}",
        run.stderr
    );
}
