//! A panel where things go wrong (seed 002 as issue 13 asks): a failed turn or role stops no one
//! else, only the chair makes a panel void, and a budget that runs out in round 2 still leaves
//! the closings and the conclusion their time.

use serde_json::json;

use crate::common::panel::*;
use crate::common::TestEnv;

#[test]
fn a_failure_stops_no_one_else_in_any_phase_or_role() {
    let env = TestEnv::with_committed_add();
    let fail = json!({"error": {"status": 500, "message": "boom"}});
    fakes(
        &env,
        &[
            ("Opening Statements. alice,", fail.clone()),
            ("Round 1 — Your turn, bob.", fail.clone()),
            ("Closing Statements. carol,", fail.clone()),
            ("Any questions for the debaters?", fail.clone()),
            ("Write the body of summary.md", fail.clone()),
            ("You are the assessor", fail.clone()),
            ("Write blog-post.md", fail.clone()),
            ("Please share your conclusions on the topic", fail.clone()),
            ("running notes on this entry", fail.clone()),
            // The chair cannot say whether to go on: it goes on.
            ("Prepare the next round", fail.clone()),
        ],
    );
    let (s, dir) = run_panel(&env, &["--yes", "--blog"]);
    assert_eq!(s["status"], "completed");
    assert_eq!(s["outcome"], "bob_wins", "the chair still concludes");
    let log = read_log(&dir);
    check_schema(&log, &["alice", "bob", "carol"]);
    assert_eq!(
        said(&log, "opening_statement"),
        ["bob", "carol"],
        "later debaters still open"
    );
    assert_eq!(said(&log, "closing_statement"), ["bob", "alice"]);
    let rulings: Vec<&str> = kinds_of(&log, "ruling")
        .iter()
        .map(|e| e["content"].as_str().unwrap())
        .collect();
    for r in [
        "Ruling: alice did not deliver a turn in the opening",
        "Ruling: bob did not deliver a turn in the rebuttal",
        "Ruling: carol did not deliver a turn in the closing",
        "Ruling: the audience did not answer after round 1",
    ] {
        assert!(rulings.iter().any(|x| x.starts_with(r)), "{r}: {rulings:?}");
    }
    // Round 1 went on after bob: carol spoke; round 2 had all three.
    let r1 = position(&log, "Round 1 of 2 beginning.");
    let r2 = position(&log, "Round 2 of 2 beginning.");
    let in_round = |a: usize, b: usize| -> Vec<&str> {
        log[a..b]
            .iter()
            .filter(|e| e["phase"] == "rebuttal" && e["speaker"] != "chair")
            .map(|e| e["speaker"].as_str().unwrap())
            .collect()
    };
    assert_eq!(in_round(r1, r2), ["alice", "carol"]);
    assert_eq!(in_round(r2, log.len()), ["alice", "bob", "carol"]);
    let notes = s["notes"].as_array().unwrap();
    for n in [
        "alice (claude) failed in the opening",
        "the reporter",
        "the assessor",
    ] {
        assert!(
            notes.iter().any(|x| x.as_str().unwrap().contains(n)),
            "{n}: {notes:?}"
        );
    }
    assert!(std::fs::read_to_string(dir.join("assessor-report.md"))
        .unwrap()
        .contains("could not be written"));
    assert!(std::fs::read_to_string(dir.join("summary.md"))
        .unwrap()
        .contains("### Outcome"));
}

#[test]
fn a_chair_that_cannot_conclude_makes_the_panel_void_and_nothing_else_does() {
    let env = TestEnv::with_committed_add();
    let fail = json!({"error": {"status": 500, "message": "boom"}});
    fakes(
        &env,
        &[
            ("Phase 4 — Conclusion.", fail.clone()),
            ("Before the closing statements", fail),
        ],
    );
    let (s, dir) = run_panel(&env, &["--yes", "--blog"]);
    assert_eq!(s["outcome"], "void");
    let log = read_log(&dir);
    assert_eq!(said(&log, "closing_statement"), ["carol", "bob", "alice"]);
    assert!(log.iter().any(|e| e["content"]
        .as_str()
        .unwrap()
        .starts_with("Pre-Phase-3 review:")));
    assert!(log.iter().any(|e| e["content"]
        == "Debate concluded. Outcome: void. Reason: the chair could not conclude (no answer)"));
    // The blog post is about the topic, not the outcome: a void debate has one too.
    assert!(std::fs::read_to_string(dir.join("blog-post.md"))
        .unwrap()
        .contains("Proponents argue"));
}

#[test]
fn when_time_runs_out_in_round_2_the_closings_and_the_conclusion_still_arrive() {
    let env = TestEnv::with_committed_add();
    // 12 seconds of budget; alice's round-2 turn would take a minute.
    env.git(&["config", "debate.panel.budgetMinutes", "0.2"]);
    fakes(
        &env,
        &[(
            "Round 2 — Your turn, alice.",
            json!({"answer": "too late", "delay_ms": 60000}),
        )],
    );
    let (s, dir) = run_panel(&env, &["--yes", "--max-rounds", "3"]);
    assert_eq!(s["status"], "completed");
    assert_eq!(s["outcome"], "bob_wins");
    assert_eq!(s["budget_spent"], true);
    assert_eq!(s["rounds"], 2);
    let log = read_log(&dir);
    check_schema(&log, &["alice", "bob", "carol"]);
    let r2 = position(&log, "Round 2 of 3 beginning.");
    assert!(!log
        .iter()
        .any(|e| e["content"].as_str().unwrap().starts_with("Round 3")));
    let ruling = position(&log, "Ruling: alice did not deliver a turn in the rebuttal");
    assert!(
        ruling > r2
            && log[ruling]["content"]
                .as_str()
                .unwrap()
                .contains("the time budget ran out")
    );
    assert_eq!(said(&log, "closing_statement"), ["carol", "bob", "alice"]);
    assert!(log.iter().any(|e| e["type"] == "conclusion"));
    assert_eq!(log.last().unwrap()["type"], "audience_conclusion");
    // Past the budget nobody is asked anything more before the closings.
    assert!(!log.iter().any(|e| e["content"]
        .as_str()
        .unwrap()
        .starts_with("Ruling: the audience")));
    assert_eq!(
        log.iter()
            .filter(|e| e["content"]
                .as_str()
                .unwrap()
                .starts_with("Verifier findings relayed this round:"))
            .count(),
        2
    );
    let notes = s["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n
            .as_str()
            .unwrap()
            .contains("the time budget (debate.panel.budgetMinutes) ran out")),
        "{notes:?}"
    );
}

#[test]
fn an_outcome_outside_the_allowed_values_is_void() {
    let env = TestEnv::with_committed_add();
    fakes(
        &env,
        &[(
            "Phase 4 — Conclusion.",
            json!({"answer": block(json!({"outcome": "affirmative_wins", "reason": "r"}))}),
        )],
    );
    let (s, _) = run_panel(&env, &["--yes"]);
    assert_eq!(s["outcome"], "void");
}

#[test]
fn a_panel_interrupted_between_a_round_and_the_closings_does_not_repeat_the_round_end() {
    let env = TestEnv::with_committed_add();
    fakes(
        &env,
        &[("Before the closing statements", json!({"hang": true}))],
    );
    let args = panel_args(&["--yes", "--max-rounds", "1"]);
    env.interrupt_when(&args, "qwen", "qwen.pid").fails(130);
    fakes(&env, &[]);
    let run = env
        .run_full(&["resume", "last", "--format", "json"], "", &[])
        .ok();
    let s: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["status"], "completed", "{s}");
    let log: Vec<serde_json::Value> = serde_json::from_value(s["entries"].clone()).unwrap();
    check_schema(&log, &["alice", "bob", "carol"]);
    let count = |c: &str| {
        log.iter()
            .filter(|e| e["content"].as_str().unwrap().starts_with(c))
            .count()
    };
    assert_eq!(count("Verifier findings relayed this round:"), 1);
    assert_eq!(count("Q: bob: What about failover?"), 1);
    assert_eq!(count("Pre-Phase-3 review:"), 1);
    assert_eq!(said(&log, "closing_statement"), ["carol", "bob", "alice"]);
    // The audience question asked after the last round still reaches bob's closing.
    let cue = env
        .fake_calls("codex")
        .iter()
        .map(|c| c["prompt"].as_str().unwrap().to_string())
        .find(|p| p.contains("Closing Statements. bob,"))
        .unwrap();
    assert!(
        cue.contains("An audience question for you: What about failover?"),
        "{cue}"
    );
}
