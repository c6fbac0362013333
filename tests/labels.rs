//! Reports that tell the truth about what happened: the decision names what the final artifact
//! is, a user's choice shows the rubric's letter beside it, the reviewer's missing alternatives
//! and recommendation appear, totals are given, and a PR comment holds no local paths.

use serde_json::{json, Value};

use crate::common::{read_json, TestEnv};

fn answer(v: Value) -> Value {
    json!({"answer": format!("Review.\n\n```json\n{v}\n```\n")})
}

fn summary(env: &TestEnv) -> Value {
    let last = std::fs::read_dir(env.store())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .max()
        .unwrap();
    read_json(&last.join("summary.json"))
}

#[test]
fn a_compromise_the_reviewer_accepts_is_called_a_compromise() {
    let env = TestEnv::with_subtraction_bug();
    env.fake(
        "codex",
        json!([
            answer(json!({"verdict": "revise", "findings": [{"severity": "P2", "title": "add() subtracts", "file": "lib.rs", "start_line": 2, "body": "a - b", "action": "use a + b"}]})),
            answer(json!({"verdict": "approve", "findings": []})),
        ]),
    );
    env.fake(
        "claude",
        json!([
            {"answer": "```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"valid\",\"reason\":\"yes\"}]}\n```"},
            {"answer": "```diff\ndiff --git a/lib.rs b/lib.rs\n--- a/lib.rs\n+++ b/lib.rs\n@@ -1,3 +1,3 @@\n fn add(a: i32, b: i32) -> i32 {\n-    a - b\n+    a + b\n }\n```"},
        ]),
    );
    let run = env
        .run_from_claude(&[
            "--max-rounds",
            "3",
            "--format",
            "markdown",
            "--fail-on",
            "P1",
        ])
        .ok();
    let s = summary(&env);
    assert_eq!(s["final_decision"], "Compromise (v2, accepted)", "{s:#}");
    let last = std::path::Path::new(s["final_artifact"].as_str().unwrap());
    assert!(std::fs::read_to_string(last)
        .unwrap()
        .contains("+    a + b"));
    // The PR-comment markdown names files within the session, never a local absolute path.
    assert!(
        !run.stdout.contains(env.root.to_str().unwrap()),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("- `final-artifact.md` in session `debate-"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("- total: 4 calls"), "{}", run.stdout);
}

#[test]
fn the_reviewer_s_missing_alternatives_and_recommendation_are_reported() {
    let env = TestEnv::with_repo();
    env.write(
        "design.md",
        "# Design: cache\n\n## Proposal\n\nCache every response for five minutes.\n",
    );
    env.fake(
        "codex",
        answer(json!({"verdict": "revise", "findings": [{"severity": "P3", "title": "say the size bound"}],
            "missing_alternatives": ["an ETag-based revalidation instead of a fixed TTL"], "recommendation": "revise"})),
    );
    env.fake(
        "claude",
        json!({"answer": "```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"invalid\",\"reason\":\"bounded elsewhere\"}]}\n```"}),
    );
    let run = env
        .run_from_claude(&["design.md", "--max-rounds", "1"])
        .ok();
    assert!(
        run.stdout.contains("Missing alternatives"),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .contains("an ETag-based revalidation instead of a fixed TTL"));
    assert!(run.stdout.contains("the reviewer recommends: revise"));
    let s = summary(&env);
    assert_eq!(s["reviewer_recommendation"], "revise");
    assert_eq!(s["missing_alternatives"].as_array().unwrap().len(), 1);
}

#[test]
fn a_missing_alternative_from_an_early_round_stays_in_the_report_after_a_later_approval() {
    let env = TestEnv::with_repo();
    env.write(
        "design.md",
        "# Design: cache\n\n## Proposal\n\nCache every response for five minutes.\n",
    );
    env.fake(
        "codex",
        json!([
            answer(json!({"verdict": "revise", "findings": [{"severity": "P2", "title": "say the size bound", "body": "unbounded", "action": "bound it"}],
                "missing_alternatives": ["an ETag-based revalidation instead of a fixed TTL"]})),
            answer(json!({"verdict": "approve", "findings": [], "missing_alternatives": []})),
        ]),
    );
    env.fake(
        "claude",
        json!([
            {"answer": "```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"valid\",\"reason\":\"yes\"}]}\n```"},
            {"answer": "# Design: cache\n\n## Proposal\n\nCache every response for five minutes, at most 10,000 entries.\n"},
        ]),
    );
    let run = env
        .run_from_claude(&["design.md", "--max-rounds", "3"])
        .ok();
    let s = summary(&env);
    assert_eq!(s["stop_reason"], "the reviewer agreed in round 2", "{s:#}");
    assert_eq!(
        s["missing_alternatives"],
        json!(["an ETag-based revalidation instead of a fixed TTL"]),
        "{s:#}"
    );
    assert!(run
        .stdout
        .contains("an ETag-based revalidation instead of a fixed TTL"));
}

#[test]
fn a_fallback_reviewer_reviews_when_the_reviewer_never_answers_and_the_report_says_so() {
    let env = TestEnv::with_subtraction_bug();
    env.fake(
        "codex",
        json!({"error": {"status": 503, "message": "overloaded"}}),
    );
    env.fake(
        "gemini",
        answer(json!({"verdict": "revise", "findings": [{"severity": "P3", "title": "name the sign", "file": "lib.rs", "start_line": 2}]})),
    );
    env.fake(
        "claude",
        json!({"answer": "```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"invalid\",\"reason\":\"fine\"}]}\n```"}),
    );
    // Without a fallback: not evaluated.
    env.run_from_claude(&["--reviewer", "codex", "--max-rounds", "1"])
        .fails(3);
    let run = env
        .run_from_claude(&[
            "--reviewer",
            "codex",
            "--fallback-reviewer",
            "gemini",
            "--max-rounds",
            "1",
        ])
        .ok();
    assert!(
        run.stdout
            .contains("fallback reviewer: gemini reviewed because codex did not answer"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr
            .contains("the fallback reviewer gemini reviews instead"),
        "{}",
        run.stderr
    );
    let s = summary(&env);
    assert_eq!(s["reviewer"], "gemini");
    assert_eq!(s["fallback"]["instead_of"], "codex");
    assert!(s["fallback"]["because"].as_str().unwrap().contains("codex"));
    assert_eq!(s["evaluated"], true);
    assert_eq!(env.fake_calls("gemini").len(), 1);
    // A fallback of the author's own family is refused before any call.
    let run = env
        .run_from_claude(&["--reviewer", "codex", "--fallback-reviewer", "claude"])
        .fails(2);
    assert!(
        run.stderr.contains("like the author claude"),
        "{}",
        run.stderr
    );
}
