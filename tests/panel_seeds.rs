//! Seed 002 rows of the panel that an outside audit found missing: support roles that stay off
//! the debaters' backends, struck entries that later speakers never see, interruptions (source
//! challenges and clarification requests) and the documents the seed names.

use serde_json::{json, Value};

use crate::common::panel::*;
use crate::common::{read_json, TestEnv};

fn prompts(env: &TestEnv, cli: &str) -> Vec<String> {
    env.fake_calls(cli)
        .iter()
        .map(|c| c["prompt"].as_str().unwrap().to_string())
        .collect()
}

fn all_prompts(env: &TestEnv) -> Vec<String> {
    ["qwen", "claude", "codex", "gemini", "opencode"]
        .iter()
        .flat_map(|c| prompts(env, c))
        .collect()
}

#[test]
fn panel_support_roles_run_on_a_backend_no_debater_uses() {
    let env = TestEnv::with_committed_add();
    fakes(&env, &[]);
    let (_, dir) = run_panel(&env, &["--yes", "--max-rounds", "1"]);
    let meta = read_json(&dir.join("metadata.json"));
    for r in ["audience", "reporter", "assessor"] {
        assert_eq!(meta["roles"][r]["backend"], "opencode", "{r}: {meta}");
        assert!(meta["roles"][r]["warning"].is_null());
    }
    // No debater's CLI was asked to grade or report.
    for cli in ["claude", "codex", "gemini"] {
        for p in prompts(&env, cli) {
            assert!(
                !p.contains("You are the assessor") && !p.contains("You are the reporter"),
                "{cli} was given a support role"
            );
        }
    }
}

#[test]
fn panel_says_loudly_when_every_installed_cli_is_a_debaters() {
    let env = TestEnv::with_committed_add();
    for cli in ["qwen", "claude", "codex", "gemini"] {
        env.fake(cli, script(&[]));
    }
    let run = env
        .run_full(
            &panel_args(&["--yes", "--max-rounds", "1", "--debater", "dave=qwen"]),
            "",
            &[("GIT_DEBATE_LAUNCHER", Some("qwen"))],
        )
        .ok();
    assert!(
        run.stderr
            .contains("[WARN] the panel's reporter is codex, which bob also debate(s) on"),
        "{}",
        run.stderr
    );
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    let meta = read_json(&dir.join("metadata.json"));
    assert!(meta["roles"]["assessor"]["warning"]
        .as_str()
        .unwrap()
        .starts_with("[WARN] the panel's assessor"));
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        summary.contains("[WARN] the panel's assessor is codex"),
        "{summary}"
    );
}

#[test]
fn panel_later_speakers_get_the_strike_notice_not_the_struck_words() {
    let env = TestEnv::with_committed_add();
    fakes(&env, &[]);
    let (_, dir) = run_panel(&env, &["--yes", "--max-rounds", "1"]);
    let log = read_log(&dir);
    // alice's opening cites `src/ghost.rs`: redacted once verified.
    let alice = log
        .iter()
        .find(|e| e["speaker"] == "alice" && e["type"] == "opening_statement")
        .unwrap()["seq"]
        .clone();
    let redaction = kinds_of(&log, "redaction")
        .into_iter()
        .find(|e| e["target_seq"] == alice)
        .expect("alice's opening is struck");
    let notice = format!(
        "[STRUCK FROM THE RECORD by the chair's redaction at seq {}",
        redaction["seq"]
    );
    let later: Vec<String> = all_prompts(&env)
        .into_iter()
        .filter(|p| p.contains("Round 1 — Your turn") || p.contains("Closing Statements"))
        .collect();
    assert!(!later.is_empty());
    for p in &later {
        assert!(
            !p.contains("OPENING alice: see"),
            "struck words passed on:\n{p}"
        );
        assert!(p.contains(&notice), "no notice in:\n{p}");
    }
    // The support roles read the notice too, never the words.
    for p in all_prompts(&env)
        .iter()
        .filter(|p| p.contains("Write the body of summary.md") || p.contains("Phase 4"))
    {
        assert!(!p.contains("OPENING alice: see"), "{p}");
    }
}
