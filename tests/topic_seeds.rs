//! Seed 001 rows of the duel that an outside audit found missing: the ACP transport preferred
//! where it is verified, with the transport and the answering model recorded; the redaction
//! warning; fractional budgets; failure hints in the topic's own flags; the effort table's flags.
//! And seed 002's documents and config keys for a panel.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::common::panel::*;
use crate::common::{argv, read_json, Run, TestEnv};
use crate::topic::a;

const VERDICT: &str = "```json\n{\"winner\":\"challenger\",\"reasoning\":\"measured\"}\n```";

fn duel(env: &TestEnv, extra: &[&str]) -> Run {
    let mut args = vec![
        "topic",
        "Cache or not?",
        "--proposer",
        "claude",
        "--challenger",
        "codex",
        "--rounds",
        "1",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    env.run_full(&args, "", &[("GIT_DEBATE_LAUNCHER", Some("claude"))])
}

fn json_of(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stderr))
}

#[test]
fn topic_prefers_a_verified_acp_server_and_records_transport_and_model() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING"), a(VERDICT)]));
    env.fake("codex", json!([a("never: the CLI is not used")]));
    env.fake_acp(
        "codex-acp",
        json!({"answer": "CRITIQUE over ACP", "report_model": true}),
    );
    let s = json_of(&duel(&env, &["--model-challenger", "fake-model-b"]).ok());
    assert_eq!(s["status"], "completed", "{s}");
    let ex = &s["exchanges"];
    assert_eq!(ex[1]["response"], "CRITIQUE over ACP");
    assert_eq!(ex[1]["transport"], "acp");
    assert_eq!(
        ex[1]["model"], "fake-model-b",
        "the model the agent confirmed"
    );
    assert_eq!(ex[0]["transport"], "cli", "claude stays on its CLI");
    assert_eq!(s["challenger"]["transport"], "acp");
    assert!(env.fake_calls("codex").is_empty());
    let calls = env.acp_calls("codex-acp");
    assert_eq!(calls.len(), 1);
    // The agent ran in the export, not in the repository.
    assert!(!PathBuf::from(calls[0]["cwd"].as_str().unwrap()).starts_with(&env.repo));
    // debate.codex.transport = cli keeps the command line.
    env.git(&["config", "--global", "debate.codex.transport", "cli"]);
    env.fake("codex", json!([a("CRITIQUE by CLI")]));
    env.fake("claude", json!([a("OPENING"), a(VERDICT)]));
    let s = json_of(&duel(&env, &[]).ok());
    assert_eq!(s["exchanges"][1]["transport"], "cli");
    assert_eq!(env.acp_calls("codex-acp").len(), 1);
}

#[test]
fn topic_an_acp_agent_without_a_model_setting_records_no_model_it_was_not_given() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING"), a(VERDICT)]));
    env.git(&["config", "--global", "debate.codex.transport", "acp"]);
    // Like copilot's ACP server: no model option at all.
    env.fake_acp(
        "codex-acp",
        json!({"answer": "CRITIQUE", "session": {"configOptions": [
            {"id": "mode", "name": "Mode", "category": "mode", "type": "select",
             "currentValue": "default",
             "options": [{"value": "default", "name": "Default"}, {"value": "read-only", "name": "Read Only"}]}
        ]}}),
    );
    let s = json_of(&duel(&env, &["--model-challenger", "gpt-asked-for"]).ok());
    assert!(
        s["exchanges"][1]["model"].is_null(),
        "the model asked for is not the one that answered: {}",
        s["exchanges"][1]
    );
    assert_eq!(s["challenger"]["model"], Value::Null);
}

#[test]
fn topic_a_redacted_answer_carries_the_warning_and_its_count() {
    let env = TestEnv::with_committed_add();
    let key = ["ghp_", "0123456789abcdefghijABCDEFGHIJ012345"].concat();
    env.fake(
        "claude",
        json!([
            a(&format!("OPENING: I found TOKEN={key} in .env")),
            a(VERDICT)
        ]),
    );
    env.fake("codex", json!([a("CRITIQUE")]));
    let s = json_of(&duel(&env, &[]).ok());
    let first = s["exchanges"][0]["response"].as_str().unwrap();
    assert!(!first.contains(&key));
    assert!(
        first.ends_with("[WARN] Sensitive tokens were redacted from the response. (1 redaction)"),
        "{first}"
    );
    assert_eq!(s["exchanges"][0]["redactions"], 1);
    let dir = PathBuf::from(s["session_dir"].as_str().unwrap());
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        summary.contains("[WARN] Sensitive tokens were redacted from the response. (1 redaction) — the proposer's answer in round 1"),
        "{summary}"
    );
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["secrets_redacted"][0]["count"], 1);
    assert_eq!(meta["slug"], "cache-or-not-");
}

#[test]
fn topic_budget_minutes_takes_fractions_like_the_key() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING"), a(VERDICT)]));
    env.fake("codex", json!([a("CRITIQUE")]));
    let s = json_of(&duel(&env, &["--budget-minutes", "0.3"]).ok());
    let dir = PathBuf::from(s["session_dir"].as_str().unwrap());
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["budget"]["seconds"], 18);
    assert_eq!(meta["budget"]["source"], "--budget-minutes 0.3");
    let bad = duel(&env, &["--budget-minutes", "0"]).fails(2);
    assert!(bad.stderr.contains("fractions allowed"), "{}", bad.stderr);
}

#[test]
fn topic_failure_hints_name_the_topic_s_flags() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING")]));
    env.fake(
        "codex",
        json!({"error": {"status": 429, "message": "slow down"}}),
    );
    let run = duel(&env, &[]);
    let s = json_of(&run);
    let notes = s["notes"].to_string();
    assert!(notes.contains("rate-limited"), "{notes}");
    assert!(!notes.contains("--reviewer"), "{notes}");
    assert!(notes.contains("--challenger"), "{notes}");
    // A routing error too: no second family installed.
    let lone = TestEnv::with_committed_add();
    lone.fake("claude", json!([a("x")]));
    let run = lone.run_full(
        &["topic", "Cache?"],
        "",
        &[("GIT_DEBATE_LAUNCHER", Some("claude"))],
    );
    assert_ne!(run.code, 0);
    assert!(!run.stderr.contains("--reviewer"), "{}", run.stderr);
}

#[test]
fn topic_effort_sets_claude_s_turns_and_opencode_s_thinking() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING"), a(VERDICT)]));
    env.fake("codex", json!([a("CRITIQUE")]));
    json_of(&duel(&env, &["--effort", "max"]).ok());
    let args = argv(&env.fake_calls("claude")[0]);
    let at = args
        .iter()
        .position(|a| a == "--max-turns")
        .expect("--max-turns");
    assert_eq!(args[at + 1], "10");
    env.fake("opencode", json!([a("x")]));
    env.git(&["config", "--global", "debate.opencode.transport", "cli"]);
    let run = env.run_stdin(&["ask", "--backend", "opencode", "--effort", "max"], "hi");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let args = argv(env.fake_calls("opencode").last().unwrap());
    assert!(args.contains(&"--thinking".to_string()), "{args:?}");
}

#[test]
fn panel_writes_the_seed_s_documents_and_reads_its_round_keys() {
    let env = TestEnv::with_committed_add();
    fakes(&env, &[]);
    env.git(&["config", "--global", "debate.panel.maxRounds", "1"]);
    let run = env
        .run_full(
            &[
                "topic",
                "Should we replace Redis with Postgres LISTEN/NOTIFY?",
                "--debater",
                "alice=claude:a database purist",
                "--debater",
                "bob=codex:an SRE",
                "--debater",
                "carol=gemini",
                "--min-rounds",
                "1",
                "--yes",
                "--format",
                "json",
            ],
            "",
            &[("GIT_DEBATE_LAUNCHER", Some("qwen"))],
        )
        .ok();
    let s = json_of(&run);
    assert_eq!(s["rounds"], 1, "debate.panel.maxRounds = 1");
    let dir = PathBuf::from(s["session_dir"].as_str().unwrap());
    // blog-post.md without --blog.
    let blog = std::fs::read_to_string(dir.join("blog-post.md")).unwrap();
    assert!(blog.contains("Proponents argue"), "{blog}");
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["max_rounds"], 1);
    assert_eq!(
        meta["slug"],
        "should-we-replace-redis-with-postgres-listen-notif"
    );
    let log = read_log(&dir);
    assert_eq!(meta["entries"], log.len());
    assert_eq!(
        meta["redactions"].as_array().unwrap().len(),
        kinds_of(&log, "redaction").len()
    );
    assert!(meta["verification"]["fabricated"].as_u64().unwrap() >= 1);
    assert!(meta["verification"]["verified"].is_u64());
    for t in meta["timings"]["calls"].as_array().unwrap() {
        assert!(t["transport"] == "cli", "{t}");
    }
    let report = std::fs::read_to_string(dir.join("verifier-report.md")).unwrap();
    assert!(report.contains("## Withdrawn Claims"), "{report}");
    assert!(
        report.contains("| alice | `src/ghost.rs` | fabricated:")
            && report.contains("struck from the record (redaction, seq"),
        "{report}"
    );
    assert!(report.contains("asked to withdraw or replace (ruling, seq"));
    let assessor = std::fs::read_to_string(dir.join("assessor-report.md")).unwrap();
    assert!(
        assessor.contains("### Execution improvements")
            && assessor.contains("### Output improvements"),
        "{assessor}"
    );
    let asked = all_assessor_prompts(&env);
    assert!(asked
        .iter()
        .all(|p| p.contains("3 to 5 items on how the debate was run")));
    // A panel without a fabricated or unreliable source says none.
    let clean = TestEnv::with_committed_add();
    fakes(
        &clean,
        &[
            ("Opening Statements. alice,", a("OPENING alice")),
            ("Opening Statements. bob,", a("OPENING bob")),
        ],
    );
    let (_, dir) = run_panel(&clean, &["--yes", "--max-rounds", "1"]);
    let report = std::fs::read_to_string(dir.join("verifier-report.md")).unwrap();
    assert!(report.contains("## Withdrawn Claims\n\nnone\n"), "{report}");
}

fn all_assessor_prompts(env: &TestEnv) -> Vec<String> {
    ["qwen", "claude", "codex", "gemini", "opencode"]
        .iter()
        .flat_map(|c| env.fake_calls(c))
        .map(|c| c["prompt"].as_str().unwrap().to_string())
        .filter(|p| p.contains("You are the assessor"))
        .collect()
}
