//! Topic debates end to end: the fake agent as proposer (claude, also the orchestrating judge)
//! and challenger (codex).

use serde_json::{json, Value};

use crate::common::{read_json, Run, TestEnv};

fn topic(env: &TestEnv, extra: &[&str]) -> Run {
    let mut args = vec![
        "topic",
        "Should add() saturate instead of overflowing?",
        "--proposer",
        "claude",
        "--challenger",
        "codex",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    env.run_full(&args, "", &[("GIT_DEBATE_LAUNCHER", Some("claude"))])
}

/// A fake's step that answers `text`.
pub(crate) fn a(text: &str) -> Value {
    json!({"answer": text})
}

const VERDICT: &str = "The challenger had the evidence.\n```json\n{\"winner\":\"challenger\",\"reasoning\":\"cited real code\",\"quality\":{\"genuine_disagreement\":\"high\",\"evidence_quality\":\"medium\",\"challenge_depth\":\"high\"},\"agreements\":[\"overflow is a bug\"],\"disagreements\":[\"saturate vs checked\"],\"unresolved\":[\"performance\"],\"recommendation\":\"use checked_add\"}\n```";

#[test]
fn a_one_round_duel_with_a_verdict_and_the_stored_files() {
    let env = TestEnv::with_committed_add();
    env.fake(
        "claude",
        json!([a("OPENING: saturate, see `src/lib.rs:2`."), a(VERDICT)]),
    );
    env.fake(
        "codex",
        json!([a("CRITIQUE: wrong, checked_add is better.")]),
    );
    let run = topic(&env, &["--rounds", "1"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["status"], "completed");
    assert_eq!(s["rounds_completed"], 1);
    assert_eq!(s["verdict"]["winner"], "challenger");
    assert_eq!(s["verdict"]["quality"]["challenge_depth"], "high");
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    let log: Vec<Value> = std::fs::read_to_string(dir.join("debate-log.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(log.len(), 2);
    for (i, e) in log.iter().enumerate() {
        for k in [
            "seq",
            "round",
            "role",
            "tool",
            "response",
            "citations",
            "duration_ms",
            "timestamp",
        ] {
            assert!(e.get(k).is_some(), "{k} missing in {e}");
        }
        assert_eq!(e["seq"], i + 1);
    }
    assert_eq!(log[0]["role"], "proposer");
    assert_eq!(log[1]["role"], "challenger");
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    // Every field of seed 001's synthesis format, with tool and model per side.
    for want in [
        "## Debate Summary",
        "**Topic**: Should add() saturate instead of overflowing?",
        "**Proposer**: claude (",
        "**Challenger**: codex (",
        "**Rounds**: 1 of 1",
        "**Rigor**: Structured perspective comparison (prompt-enforced adversarial rules; \
         repository citations checked by the tool against HEAD: 1 verified, 0 not found, 0 \
         unreliable",
        "### Verdict\n**Winner**: challenger (codex)",
        "codex had the stronger argument because: cited real code",
        "### Debate Quality\n- **Genuine disagreement**: high\n- **Evidence quality**: medium\n- \
         **Challenge depth**: high",
        "### Key Agreements\n- overflow is a bug",
        "### Key Disagreements\n- saturate vs checked",
        "### Unresolved Questions\n- performance",
        "### Recommendation\nuse checked_add",
        // No third family is installed: the judge is the orchestrating author, and says so.
        "**Judge**: claude (",
        "the orchestrating author: no backend of a third family is installed",
    ] {
        assert!(summary.contains(want), "{want:?} missing in:\n{summary}");
    }
    assert!(std::fs::read_to_string(dir.join("transcript.md"))
        .unwrap()
        .contains("## Round 1 - Challenger (codex)"));
    let state = read_json(&env.store().join("last-debate.json"));
    for k in [
        "id",
        "topic",
        "proposer",
        "challenger",
        "effort",
        "rounds_completed",
        "max_rounds",
        "status",
        "exchanges",
        "verdict",
        "timestamp",
    ] {
        assert!(state.get(k).is_some(), "{k} missing in last-debate.json");
    }
    assert_eq!(state["proposer"]["tool"], "claude");
    assert_eq!(state["exchanges"][1]["role"], "challenger");
    // As in the seed, the winner is the winning tool.
    assert_eq!(state["verdict"]["winner"], "codex");
    assert_eq!(state["verdict"]["winner_role"], "challenger");
    // Listed and shown like any session.
    let listed = env.run(&["sessions"]).ok().stdout;
    assert!(listed.contains(s["session"].as_str().unwrap()), "{listed}");
    assert!(env
        .run(&["show", "last"])
        .ok()
        .stdout
        .contains("**Winner**: challenger (codex)"));
}

#[test]
fn repository_citations_are_checked_and_the_marks_travel() {
    let env = TestEnv::with_committed_add();
    env.fake(
        "claude",
        json!([a("Evidence: `src/lib.rs:2`, `src/invented.rs:5`, the `pub fn add(` pattern and `src/nowhere.rs`."), a(VERDICT)]),
    );
    env.fake("codex", json!([a("You cite a file that does not exist.")]));
    let run = topic(&env, &["--rounds", "1"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    let cites = s["exchanges"][0]["citations"].as_array().unwrap();
    let status = |c: &str| {
        cites
            .iter()
            .find(|x| x["cited"] == c)
            .unwrap_or_else(|| panic!("{c} not extracted: {cites:?}"))["status"]
            .clone()
    };
    assert_eq!(status("src/lib.rs:2"), "verified");
    assert_eq!(status("src/invented.rs:5"), "not-found");
    assert_eq!(status("pub fn add("), "verified");
    assert_eq!(status("src/nowhere.rs"), "not-found");
    // The challenger saw the marks.
    let prompt = env.fake_calls("codex")[0]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        prompt.contains("`src/invented.rs:5` (location): NOT FOUND"),
        "{prompt}"
    );
    assert!(
        prompt.contains("`src/lib.rs:2` (location): verified"),
        "{prompt}"
    );
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(summary.contains("2 verified, 2 not found"), "{summary}");
}

#[test]
fn from_round_three_the_prompt_carries_a_summary_not_the_history() {
    let env = TestEnv::with_committed_add();
    env.fake(
        "claude",
        json!([
            a("OPENING-UNIQUE-MARKER saturate"),
            a("DEFENSE-2"),
            a("SUMMARY-OF-EARLY-ROUNDS"),
            a("DEFENSE-3"),
            a("SUMMARY-TWO"),
            a("DEFENSE-4"),
            a(VERDICT)
        ]),
    );
    env.fake(
        "codex",
        json!([
            a("CRITIQUE-1"),
            a("FOLLOWUP-2"),
            a("FOLLOWUP-3"),
            a("FOLLOWUP-4")
        ]),
    );
    let run = topic(&env, &["--rounds", "4"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["rounds_completed"], 4, "{s}");
    let codex = env.fake_calls("codex");
    let p2 = codex[1]["prompt"].as_str().unwrap();
    assert!(
        p2.contains("OPENING-UNIQUE-MARKER"),
        "round 2 has rounds 1-2 in full"
    );
    let p4 = codex[3]["prompt"].as_str().unwrap();
    assert!(p4.contains("Summary of rounds 1-2:\nSUMMARY-TWO"), "{p4}");
    assert!(
        !p4.contains("OPENING-UNIQUE-MARKER"),
        "round 4 still carries round 1 in full"
    );
    assert!(p4.contains("DEFENSE-4") && p4.contains("FOLLOWUP-3"));
}

#[test]
fn the_error_table() {
    // Proposer fails in round 1: abort, nothing recorded.
    let env = TestEnv::with_committed_add();
    env.fake(
        "claude",
        json!({"error": {"status": 500, "message": "down"}}),
    );
    env.fake("codex", json!([a("unused")]));
    let run = topic(&env, &[]).fails(3);
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["status"], "aborted");
    let notes: Vec<&str> = s["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(
        notes[0].starts_with("[ERROR] Debate aborted: the proposer failed in round 1"),
        "{notes:?}"
    );
    assert_eq!(
        notes[1],
        "[ERROR] Debate failed: no successful exchanges were recorded."
    );

    // Every call timed out.
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!({"hang": true}));
    let run = topic(&env, &["--backend-timeout-seconds", "1"]).fails(3);
    assert!(
        run.stdout
            .contains("[ERROR] Debate failed: all tool invocations timed out."),
        "{}",
        run.stdout
    );

    // Challenger fails in round 1: the proposer's uncontested position, shown in the output
    // with the warning; nothing was contested, so no verdict is asked for and it is "not
    // evaluated" (3), as a review whose reviewer never answers.
    let env = TestEnv::with_committed_add();
    env.fake(
        "claude",
        json!([a("OPENING-POSITION: saturate"), a(VERDICT)]),
    );
    env.fake(
        "codex",
        json!({"error": {"status": 401, "message": "bad key"}}),
    );
    let run = env
        .run_full(
            &[
                "topic",
                "Saturate?",
                "--proposer",
                "claude",
                "--challenger",
                "codex",
            ],
            "",
            &[("GIT_DEBATE_LAUNCHER", Some("claude"))],
        )
        .fails(3);
    let out = &run.stdout;
    assert!(
        out.contains("[WARN] Challenger failed. Showing proposer's uncontested position."),
        "{out}"
    );
    assert!(
        out.contains("### Proposer's uncontested position (claude)\n\nOPENING-POSITION: saturate"),
        "{out}"
    );
    assert!(out.contains("Status: uncontested"), "{out}");
    assert_eq!(
        env.fake_calls("claude").len(),
        1,
        "no verdict on an uncontested position"
    );

    // A later failure: synthesized from the completed rounds.
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING"), a("DEFENSE"), a(VERDICT)]));
    env.fake(
        "codex",
        json!([a("CRITIQUE"), {"error": {"status": 429, "message": "slow"}}]),
    );
    let run = topic(&env, &[]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["rounds_completed"], 1);
    assert_eq!(s["verdict"]["winner"], "challenger");
    assert!(
        s["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("[WARN] Round 2 is incomplete: the challenger failed"),
        "{s}"
    );
}

#[test]
fn the_two_sides_must_differ() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!({}));
    let run = env
        .run_full(
            &[
                "topic",
                "x?",
                "--proposer",
                "claude",
                "--challenger",
                "claude",
            ],
            "",
            &[],
        )
        .fails(2);
    assert!(
        run.stderr.contains("both claude; they must differ"),
        "{}",
        run.stderr
    );
    let run = env
        .run_full(&["topic", "x?", "--rounds", "9"], "", &[])
        .fails(2);
    assert!(run.stderr.contains("--rounds 9"), "{}", run.stderr);
}

#[test]
fn a_topic_grounded_in_a_change_shares_it_with_both_sides() {
    let env = TestEnv::with_committed_add();
    env.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a.saturating_add(b)\n}\n",
    );
    env.fake("claude", json!([a("OPENING"), a(VERDICT)]));
    env.fake("codex", json!([a("CRITIQUE")]));
    topic(&env, &["--rounds", "1", "--scope", "uncommitted"]).ok();
    for who in ["claude", "codex"] {
        let p = env.fake_calls(who)[0]["prompt"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            p.contains("SHARED CONTEXT") && p.contains("a.saturating_add(b)"),
            "{who}: {p}"
        );
    }
}

#[test]
fn an_interrupted_duel_resumes_from_the_next_turn() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING"), a("DEFENSE-2"), a(VERDICT)]));
    env.fake(
        "codex",
        json!([a("CRITIQUE-1"), {"hang": true}, a("FOLLOWUP-2")]),
    );
    env.interrupt_when(
        &[
            "topic",
            "Saturate?",
            "--proposer",
            "claude",
            "--challenger",
            "codex",
        ],
        "claude",
        "codex.pid",
    )
    .fails(130);

    let run = env
        .run_full(&["resume", "last", "--format", "json"], "", &[])
        .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["status"], "completed");
    assert_eq!(s["rounds_completed"], 2);
    let turns: Vec<&str> = s["exchanges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["response"].as_str().unwrap())
        .collect();
    assert_eq!(turns, ["OPENING", "CRITIQUE-1", "DEFENSE-2", "FOLLOWUP-2"]);
    assert_eq!(s["verdict"]["winner"], "challenger");
    // Finished now.
    let run = env.run(&["resume", "last"]).fails(2);
    assert!(run.stderr.contains("is finished"), "{}", run.stderr);
}
