//! The chaired panel end to end: three debaters (claude, codex, gemini) and a chair (qwen), all
//! the fake agent.

use serde_json::{json, Value};

use crate::common::{read_json, TestEnv};

fn a(text: &str) -> Value {
    json!({"answer": text})
}

fn block(v: Value) -> Value {
    a(&format!("```json\n{v}\n```"))
}

fn setup() -> TestEnv {
    let env = TestEnv::with_repo();
    env.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    );
    env.commit_all("lib");
    env
}

fn panel_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "topic",
        "Should we replace Redis with Postgres LISTEN/NOTIFY?",
        "--debater",
        "alice=claude:a database purist",
        "--debater",
        "bob=codex:an SRE who carries the pager",
        "--debater",
        "carol=gemini",
        "--min-rounds",
        "1",
        "--max-rounds",
        "2",
        "--format",
        "json",
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn a_three_debater_panel_through_every_phase() {
    let env = setup();
    env.fake(
        "qwen",
        json!([
            block(json!([{"name": "carol", "persona": "a pragmatic architect", "position": "keep both", "incentives": "ship fast"}])),
            block(json!({"questions": [{"to": "bob", "question": "What about failover?"}], "continue": true})),
            block(json!({"questions": [], "continue": false})),
            a("1. failover under load [seq 3]"),
            block(json!({"outcome": "bob_wins", "reason": "the only verified sources"})),
            a("Overall rating: Good."),
        ]),
    );
    env.fake(
        "claude",
        json!([
            a("OPENING alice: see `src/lib.rs:2` and `src/ghost.rs`."),
            a("R1 alice"),
            a("R2 alice"),
            a("CLOSING alice")
        ]),
    );
    env.fake(
        "codex",
        json!([
            a("OPENING bob: https://example.com/pg"),
            a("R1 bob"),
            a("R2 bob"),
            a("CLOSING bob")
        ]),
    );
    env.fake(
        "gemini",
        json!([
            a("OPENING carol"),
            a("R1 carol"),
            a("R2 carol"),
            a("CLOSING carol")
        ]),
    );
    let run = env
        .run_full(
            &panel_args(&["--yes"]),
            "",
            &[("GIT_DEBATE_LAUNCHER", Some("qwen"))],
        )
        .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["status"], "completed");
    assert_eq!(s["outcome"], "bob_wins");
    assert_eq!(s["rounds"], 2);
    assert_eq!(s["debaters"][2]["persona"], "a pragmatic architect");
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    let log: Vec<Value> = std::fs::read_to_string(dir.join("debate-log.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for (i, e) in log.iter().enumerate() {
        assert_eq!(e["seq"], i, "seq is 0-based and dense");
        for k in ["timestamp", "phase", "speaker", "type", "content"] {
            assert!(e.get(k).is_some(), "{k} missing in {e}");
        }
        assert!(
            ["system", "opening", "rebuttal", "closing"].contains(&e["phase"].as_str().unwrap()),
            "{e}"
        );
    }
    let said = |kind: &str| -> Vec<String> {
        log.iter()
            .filter(|e| e["type"] == kind)
            .map(|e| e["speaker"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(said("opening_statement"), ["alice", "bob", "carol"]);
    assert_eq!(
        said("closing_statement"),
        ["carol", "bob", "alice"],
        "closings in reverse order"
    );
    assert_eq!(said("rebuttal").len(), 6);
    // Every cited source was checked and logged; the invented one was redacted.
    let checks: Vec<Value> = log
        .iter()
        .filter(|e| e["type"] == "verification_result")
        .map(|e| serde_json::from_str(e["content"].as_str().unwrap()).unwrap())
        .collect();
    let status = |src: &str| checks.iter().find(|c| c["source"] == src).unwrap()["status"].clone();
    assert_eq!(status("src/lib.rs:2"), "verified");
    assert_eq!(status("src/ghost.rs"), "not-found");
    assert_eq!(status("https://example.com/pg"), "unverifiable");
    assert_eq!(said("redaction"), ["chair"]);
    assert_eq!(s["redactions"], 1);
    // The audience question reached bob in round 2, and only bob.
    assert!(log.iter().any(
        |e| e["type"] == "audience_question" && e["content"] == "Q: bob: What about failover?"
    ));
    let bob2 = env.fake_calls("codex")[2]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        bob2.contains("An audience question for you: What about failover?"),
        "{bob2}"
    );
    assert!(!env.fake_calls("claude")[2]["prompt"]
        .as_str()
        .unwrap()
        .contains("An audience question for you"));
    // Alice was told her citation was not found.
    assert!(env.fake_calls("claude")[1]["prompt"]
        .as_str()
        .unwrap()
        .contains("[REDACTED — `src/ghost.rs` cited in seq 1 does not exist"));
    // Closings see the unresolved points.
    assert!(env.fake_calls("gemini")[3]["prompt"]
        .as_str()
        .unwrap()
        .contains("failover under load"));
    for f in [
        "transcript.md",
        "summary.md",
        "assessor-report.md",
        "summary.json",
        "metadata.json",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let transcript = std::fs::read_to_string(dir.join("transcript.md")).unwrap();
    assert!(transcript.contains("[FACT-CHECK]"), "{transcript}");
    assert!(log.last().unwrap()["content"]
        .as_str()
        .unwrap()
        .starts_with("Outcome: bob_wins. Reason:"));
    assert_eq!(read_json(&dir.join("metadata.json"))["kind"], "panel");
}

#[test]
fn an_outcome_outside_the_allowed_values_is_void() {
    let env = setup();
    env.fake(
        "qwen",
        json!([
            block(json!([{"name": "carol", "persona": "p", "position": "q", "incentives": "r"}])),
            block(json!({"questions": [], "continue": false})),
            a("1. cost"),
            block(json!({"outcome": "affirmative_wins", "reason": "r"})),
            a("ok"),
        ]),
    );
    for cli in ["claude", "codex", "gemini"] {
        env.fake(cli, a("I argue."));
    }
    let run = env
        .run_full(
            &panel_args(&["--yes"]),
            "",
            &[("GIT_DEBATE_LAUNCHER", Some("qwen"))],
        )
        .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["outcome"], "void");
}

#[test]
fn a_proposed_lineup_needs_yes_or_a_terminal_and_bad_specs_are_usage_errors() {
    use std::os::unix::process::CommandExt;
    let env = setup();
    env.fake(
        "qwen",
        block(json!([{"name": "carol", "persona": "p", "position": "q", "incentives": "r"}])),
    );
    let mut cmd = env.cmd_in(&env.repo);
    cmd.args(panel_args(&[])).env("GIT_DEBATE_LAUNCHER", "qwen");
    // SAFETY: setsid only; the child has no terminal.
    unsafe {
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        })
    };
    let run = crate::common::to_run(cmd.output().unwrap()).fails(2);
    assert!(run.stderr.contains("pass --yes"), "{}", run.stderr);
    let run = env
        .run(&["topic", "x?", "--debater", "only=claude"])
        .fails(2);
    assert!(run.stderr.contains("at least 2 debaters"), "{}", run.stderr);
    let run = env
        .run(&[
            "topic",
            "x?",
            "--debater",
            "a b=claude",
            "--debater",
            "c=codex",
        ])
        .fails(2);
    assert!(run.stderr.contains("bad --debater"), "{}", run.stderr);
}

#[test]
fn an_interrupted_panel_resumes_where_it_stopped() {
    let env = setup();
    let lineup = env.root.join("lineup.json");
    std::fs::write(
        &lineup,
        json!([
            {"name": "alice", "backend": "claude", "persona": "purist", "position": "switch", "incentives": "x"},
            {"name": "bob", "backend": "codex", "persona": "sre", "position": "keep", "incentives": "y"},
            {"name": "carol", "backend": "gemini", "persona": "pm", "position": "both", "incentives": "z"}
        ])
        .to_string(),
    )
    .unwrap();
    env.fake(
        "qwen",
        json!([
            block(json!({"questions": [], "continue": false})),
            a("1. cost"),
            block(json!({"outcome": "draw", "reason": "balanced"})),
            a("Adequate."),
        ]),
    );
    env.fake(
        "claude",
        json!([a("OPENING alice"), a("R1 alice"), a("CLOSING alice")]),
    );
    env.fake(
        "codex",
        json!([a("OPENING bob"), {"hang": true}, a("R1 bob"), a("CLOSING bob")]),
    );
    env.fake(
        "gemini",
        json!([a("OPENING carol"), a("R1 carol"), a("CLOSING carol")]),
    );
    env.interrupt_when(
        &[
            "topic",
            "Redis?",
            "--panel",
            lineup.to_str().unwrap(),
            "--min-rounds",
            "1",
            "--max-rounds",
            "2",
        ],
        "qwen",
        "codex.pid",
    )
    .fails(130);

    let run = env
        .run_full(&["resume", "last", "--format", "json"], "", &[])
        .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["status"], "completed", "{s}");
    assert_eq!(s["outcome"], "draw");
    let said: Vec<String> = s["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            ["opening_statement", "rebuttal", "closing_statement"]
                .contains(&e["type"].as_str().unwrap())
        })
        .map(|e| e["content"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        said,
        [
            "OPENING alice",
            "OPENING bob",
            "OPENING carol",
            "R1 alice",
            "R1 bob",
            "R1 carol",
            "CLOSING carol",
            "CLOSING bob",
            "CLOSING alice"
        ]
    );
    let announcements = s["entries"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["content"] == "Round 1 of 2 beginning.")
        .count();
    assert_eq!(announcements, 1, "round 1 was announced again");
}
