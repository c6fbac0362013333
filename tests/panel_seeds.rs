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
    cli_transport(&env);
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

#[test]
fn panel_interruptions_pause_the_turn_for_a_ruling_then_resume_it() {
    let env = TestEnv::with_committed_add();
    let a = |t: &str| json!({ "answer": t });
    fakes(
        &env,
        &[
            (
                "Your turn resumes, alice.",
                a("TYPE: new_point\nR1 alice after the ruling"),
            ),
            (
                "Your turn resumes, bob.",
                a("TYPE: rebuttal to [seq 2]\nbob after the ruling"),
            ),
            (
                "Your turn resumes, carol.",
                a("TYPE: conjecture\ncarol after the answer"),
            ),
            (
                "Round 1 — Your turn, alice.",
                a("CHALLENGE: [seq 6] `src/lib.rs:99` — lib.rs has three lines"),
            ),
            (
                "Round 1 — Your turn, bob.",
                a("CHALLENGE: [seq 2] `src/lib.rs:2` — I doubt it"),
            ),
            (
                "Round 2 — Your turn, bob.",
                a("CHALLENGE: [seq 2] `src/ghost.rs` — no such file"),
            ),
            (
                "Round 1 — Your turn, carol.",
                a("CLARIFY: may I cite a benchmark that has no URL?"),
            ),
            (
                "asks the chair to clarify",
                a("Yes, if you say where it was published; it will be marked unverifiable."),
            ),
        ],
    );
    let (_, dir) = run_panel(&env, &["--yes"]);
    let log = read_log(&dir);
    check_schema(&log, &["alice", "bob", "carol"]);
    assert_eq!(log[6]["speaker"], "bob", "seq 6 is bob's opening");
    assert_eq!(log[6]["type"], "opening_statement");
    let content = |e: &Value| e["content"].as_str().unwrap().to_string();
    let after = |seq: &Value, kind: &str| -> Vec<Value> {
        log.iter()
            .filter(|e| e["seq"].as_u64() > seq.as_u64() && e["type"] == kind)
            .cloned()
            .collect()
    };
    let challenges = kinds_of(&log, "source_challenge");
    assert_eq!(challenges.len(), 3, "{challenges:?}");
    // alice: an unreliable source — the urgent check, then a warning, then her turn.
    let c = challenges.iter().find(|e| e["speaker"] == "alice").unwrap();
    assert_eq!(c["target_seq"], 6);
    assert_eq!(c["sources"][0]["url"], "src/lib.rs:99");
    let check = &after(&c["seq"], "verification_result")[0];
    let v: Value = serde_json::from_str(check["content"].as_str().unwrap()).unwrap();
    assert_eq!(
        (v["status"].as_str(), v["urgent"].as_bool()),
        (Some("unreliable"), Some(true))
    );
    assert_eq!(
        check["seq"],
        c["seq"].as_u64().unwrap() + 1,
        "checked at once"
    );
    let ruling = &log[check["seq"].as_u64().unwrap() as usize + 1];
    assert_eq!(ruling["type"], "ruling");
    assert!(
        content(ruling).starts_with(&format!(
            "Ruling on the source challenge at seq {}",
            c["seq"]
        )) && content(ruling).contains("upheld — the source is unreliable")
            && content(ruling).contains("bob is warned and asked to withdraw or replace it"),
        "{ruling}"
    );
    let turn = &log[ruling["seq"].as_u64().unwrap() as usize + 1];
    assert_eq!(
        (turn["speaker"].as_str(), turn["type"].as_str()),
        (Some("alice"), Some("new_point"))
    );
    assert_eq!(content(turn), "R1 alice after the ruling");
    // The resumed cue carried the ruling.
    let resumed = all_prompts(&env)
        .into_iter()
        .find(|p| p.contains("Your turn resumes, alice."))
        .unwrap();
    assert!(resumed.contains("upheld — the source is unreliable"));
    // bob: a verified source — dismissed.
    let c = challenges
        .iter()
        .find(|e| e["speaker"] == "bob" && content(e).contains("src/lib.rs:2"))
        .unwrap();
    let r = after(&c["seq"], "ruling")[0].clone();
    assert!(
        content(&r).contains("dismissed — the source is verified"),
        "{r}"
    );
    // bob in round 2: a fabricated source — upheld, the entry stays struck (once).
    let c = challenges
        .iter()
        .find(|e| content(e).contains("src/ghost.rs"))
        .unwrap();
    let r = after(&c["seq"], "ruling")[0].clone();
    assert!(
        content(&r).contains("upheld — the source is fabricated")
            && content(&r).contains("alice is penalised"),
        "{r}"
    );
    let struck: Vec<&Value> = kinds_of(&log, "redaction")
        .into_iter()
        .filter(|e| e["target_seq"] == 2)
        .collect();
    assert_eq!(struck.len(), 1, "{struck:?}");
    // carol: a clarification — the chair answers at once, logged as a ruling.
    let q = kinds_of(&log, "clarification_request")[0];
    assert_eq!(q["speaker"], "carol");
    assert_eq!(content(q), "may I cite a benchmark that has no URL?");
    let r = &log[q["seq"].as_u64().unwrap() as usize + 1];
    assert_eq!(
        (r["speaker"].as_str(), r["type"].as_str()),
        (Some("chair"), Some("ruling"))
    );
    assert!(content(r).starts_with(&format!(
        "Ruling on the clarification request at seq {}: Yes, if you say",
        q["seq"]
    )));
    let turn = &log[r["seq"].as_u64().unwrap() as usize + 1];
    assert_eq!(content(turn), "[CONJECTURE] carol after the answer");
    // Every round cue says how to interrupt.
    assert!(all_prompts(&env)
        .iter()
        .filter(|p| p.contains("Round 1 — Your turn"))
        .all(|p| p.contains("CHALLENGE: [seq N] source")));
}
