//! The session as a user relies on it: its status tells the truth about how the review ended,
//! it is held by one process at a time, and `resume` trusts nothing in it that could run a
//! program or hang on a file.

use serde_json::{json, Value};

use crate::common::{read_json, Run, TestEnv};

/// A reviewer answer raising one P2 finding with an action (the rubric then chooses C).
fn one_p2() -> Value {
    let block = json!({"verdict": "revise", "findings": [{"severity": "P2",
        "title": "naming is unclear", "evidence": "lib.rs:2", "body": "the name hides intent",
        "action": "rename it"}]});
    json!({"answer": format!("Review.\n\n```json\n{block}\n```\n")})
}

/// The author's ruling: F1 is valid.
fn f1_valid() -> Value {
    let block = json!({"classifications": [{"id": "F1", "verdict": "valid", "reason": "true"}],
        "recommendation": "C", "reason": "a small fix"});
    json!({"answer": format!("```json\n{block}\n```")})
}

fn summary_of(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\nstdout:\n{}\nstderr:\n{}", run.stdout, run.stderr))
}

#[test]
fn a_failed_compromise_is_reported_as_such_and_keeps_the_last_good_version() {
    let env = TestEnv::with_subtraction_bug();
    env.fake("codex", one_p2());
    env.fake(
        "claude",
        json!([f1_valid(), {"error": {"status": 500, "message": "overloaded"}}]),
    );
    let run = env.run_from_claude(&["--format", "json"]);
    let s = summary_of(&run);
    assert_eq!(s["status"], "failed", "{s}");
    let decision = s["final_decision"].as_str().unwrap();
    assert!(!decision.contains("Compromise"), "{decision}");
    assert_eq!(decision, "Stopped (the compromise failed in round 1)");
    let reason = s["stop_reason"].as_str().unwrap();
    assert!(
        reason.starts_with("the author failed in round 1 (the compromise): claude failed")
            && reason.ends_with("the last good version (v1) is kept"),
        "{reason}"
    );
    assert_eq!(s["rounds"], 1);
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    // The final version is the last good one: the original.
    assert_eq!(
        std::fs::read_to_string(dir.join("final-artifact.md")).unwrap(),
        std::fs::read_to_string(dir.join("artifact.md")).unwrap()
    );
    assert!(!dir.join("artifact-v2.md").exists());
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["status"], "failed");
    assert_eq!(meta["final_decision"], decision);
    assert!(
        run.stdout.contains("git debate resume"),
        "no way on offered:\n{}",
        run.stdout
    );

    // It can be continued, and then the compromise is written.
    env.fake(
        "claude",
        json!([{}, {}, f1_valid(), {"answer": "VERSION TWO"}]),
    );
    let run = env.run(&["resume", "last", "--max-rounds", "2", "--format", "json"]);
    let s = summary_of(&run);
    assert_eq!(s["status"], "completed", "{s}");
    assert_eq!(s["final_decision"], "Compromise");
    assert!(std::fs::read_to_string(dir.join("final-artifact.md"))
        .unwrap()
        .contains("VERSION TWO"));
}
