//! The review loop end to end: the fake agent as reviewer (codex) and author (claude), scripted
//! per test, in a real repository with an uncommitted change.

use serde_json::{json, Value};

use crate::common::{read_json, Run, TestEnv};

fn setup() -> TestEnv {
    TestEnv::with_subtraction_bug()
}

fn review(env: &TestEnv, args: &[&str]) -> Run {
    env.run_from_claude(args)
}

/// A reviewer answer with a JSON findings block.
fn critique(findings: Value) -> Value {
    let verdict = if findings.as_array().unwrap().is_empty() {
        "approve"
    } else {
        "revise"
    };
    json!({"answer": format!("Review.\n\n```json\n{}\n```\n", json!({"verdict": verdict, "findings": findings}))})
}

fn p(sev: &str, title: &str, action: Option<&str>) -> Value {
    let mut f = json!({"severity": sev, "title": title, "evidence": "lib.rs:2", "body": format!("{title} because reasons")});
    if let Some(a) = action {
        f["action"] = a.into();
    }
    f
}

/// A judge answer ruling `rulings` (id, verdict), with no letter of its own: the rubric decides.
fn judge(rulings: &[(&str, &str)]) -> Value {
    let list: Vec<Value> = rulings
        .iter()
        .map(|(id, v)| json!({"id": id, "verdict": v, "reason": format!("{id} is {v}")}))
        .collect();
    json!({"answer": format!("```json\n{}\n```", json!({"classifications": list, "reason": "the judge's view"}))})
}

/// A judge answer ruling `rulings` and recommending `letter`.
fn judge_letter(rulings: &[(&str, &str)], letter: &str) -> Value {
    let mut j = judge(rulings);
    let answer = j["answer"].as_str().unwrap().replace(
        "\"reason\":\"the judge's view\"",
        &format!("\"recommendation\":\"{letter}\",\"reason\":\"the judge's view\""),
    );
    j["answer"] = answer.into();
    j
}

fn summary(run: &Run) -> Value {
    let dir = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("session: "))
        .unwrap_or_else(|| panic!("no session line:\n{}\n{}", run.stdout, run.stderr));
    read_json(&std::path::Path::new(dir.trim()).join("summary.json"))
}

const PATCH: &str = "```diff\ndiff --git a/lib.rs b/lib.rs\n--- a/lib.rs\n+++ b/lib.rs\n@@ -1,3 +1,3 @@\n fn add(a: i32, b: i32) -> i32 {\n-    a - b\n+    a + b\n }\n```";

#[test]
fn a_valid_p1_with_an_action_accepts_the_reviewers_version_as_a_checked_patch() {
    let env = setup();
    env.fake(
        "codex",
        critique(json!([p("P1", "add() subtracts", Some("return a + b"))])),
    );
    env.fake(
        "claude",
        json!([judge_letter(&[("F1", "valid")], "B"), {"answer": PATCH}]),
    );
    let run = review(&env, &[]).ok();
    let s = summary(&run);
    assert_eq!(s["schema"], 1);
    // The documented top-level fields of schema 1.
    let mut keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "author",
            "converged",
            "duration_ms",
            "evaluated",
            "final_artifact",
            "final_decision",
            "final_patch",
            "findings",
            "gate",
            "judge_history",
            "next_actions",
            "notes",
            "patch_check",
            "reviewer",
            "rounds",
            "schema",
            "session",
            "session_dir",
            "status",
            "stop_reason",
            "target",
            "unresolved",
            "usage"
        ]
    );
    assert_eq!(s["status"], "completed");
    assert_eq!(s["final_decision"], "Accept Opposite");
    assert_eq!(s["converged"], true);
    assert_eq!(s["judge_history"][0]["rubric"], "B");
    assert_eq!(s["judge_history"][0]["judge"], "B");
    assert_eq!(s["judge_history"][0]["choice"], "B");
    assert_eq!(s["judge_history"][0]["from"], "judge");
    assert_eq!(s["patch_check"], "applies cleanly; not applied");
    let patch = std::fs::read_to_string(s["final_patch"].as_str().unwrap()).unwrap();
    assert!(patch.starts_with("diff --git a/lib.rs b/lib.rs"), "{patch}");
    // Never applied to the work tree by itself.
    assert!(std::fs::read_to_string(env.repo.join("lib.rs"))
        .unwrap()
        .contains("a - b"));
    assert!(run.stdout.contains("Next actions"), "{}", run.stdout);
    // The accepted version is the reviewer's fix: the checklist asks to check it, not to fix
    // the finding a second time by hand.
    let actions = s["next_actions"].to_string();
    assert!(
        actions.contains("check that the accepted version fixes [F1] P1"),
        "{actions}"
    );
    assert!(!actions.contains("Address [F1]"), "{actions}");
    // The decision in plain words in text, the protocol's name kept in JSON.
    assert!(
        run.stdout
            .contains("outcome: the reviewer's version was taken"),
        "{}",
        run.stdout
    );
    // The loop converged, but the P1 stays open until the version is applied: not "agreed".
    assert_eq!(s["converged"], true);
    assert!(
        run.stdout
            .contains("agreed not yet (a blocking finding is still open)"),
        "{}",
        run.stdout
    );
    // The round record and the prompts are kept.
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    for f in [
        "round-1-input.md",
        "round-1-critique.md",
        "round-1-judge.md",
        "round-1.json",
        "summary.md",
        "metadata.json",
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    // The judge is shown the rubric its rulings go through.
    let judge_prompt = env.fake_calls("claude")[0]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        judge_prompt.contains("| **B** accept the reviewer's version |"),
        "{judge_prompt}"
    );
    let input = std::fs::read_to_string(dir.join("round-1-input.md")).unwrap();
    assert!(
        input.contains("+    a - b") && input.contains("P1 - Must Fix"),
        "{input}"
    );
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["status"], "completed");
    assert_eq!(meta["final_decision"], "Accept Opposite");

    // The same review as a gate: the P1 is unresolved in the work tree, so exit 1.
    let run = review(&env, &["--fail-on", "p1"]).fails(1);
    assert!(run.stdout.contains("gate failed"), "{}", run.stdout);
}

#[test]
fn agreement_ends_the_review_without_a_judge() {
    let env = setup();
    env.fake("codex", json!({"answer": "LGTM — the change is fine."}));
    env.fake("claude", json!({"answer": "unused"}));
    let run = review(&env, &["--fail-on", "p3"]).ok();
    let s = summary(&run);
    assert_eq!(s["rounds"], 1);
    assert_eq!(s["converged"], true);
    assert_eq!(s["final_decision"], "Keep Original");
    assert!(s["stop_reason"].as_str().unwrap().contains("agreed"));
    assert!(env.fake_calls("claude").is_empty(), "the judge was asked");
}

#[test]
fn a_finding_the_judge_rules_invalid_gates_until_the_reviewer_withdraws_it() {
    let env = setup();
    env.fake(
        "codex",
        critique(json!([p("P1", "imaginary race", Some("add a lock"))])),
    );
    env.fake("claude", judge(&[("F1", "invalid")]));
    let run = review(
        &env,
        &["--max-rounds", "1", "--fail-on", "p1", "--format", "json"],
    )
    .fails(1);
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["final_decision"], "Keep Original");
    assert_eq!(s["findings"][0]["judged"], "invalid");
    let d = &s["unresolved"][0]["dispute"];
    assert_eq!(d["judge"], "invalid", "{s:#}");
    assert_eq!(d["reviewer"], "not asked");
    assert_eq!(d["counted"], "reviewer");
    assert_eq!(s["gate"]["blocking"], json!(["F1"]));

    // Withdrawn in round 2 when the reviewer hears the ruling: nothing gates.
    let env = setup();
    env.fake(
        "codex",
        json!([
            critique(json!([p("P1", "imaginary race", Some("add a lock"))])),
            {"answer": "Nothing new.\n\n```json\n{\"verdict\": \"approve\", \"summary\": \"s\", \"findings\": []}\n```\n\n## Disputed findings\n- F1: withdraw — the lock is held by the caller, I missed it\n"}
        ]),
    );
    env.fake(
        "claude",
        json!([judge(&[("F1", "invalid")]), {"answer": "The caller holds the lock."}]),
    );
    let run = review(
        &env,
        &["--max-rounds", "3", "--fail-on", "p1", "--format", "json"],
    )
    .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["rounds"], 2, "{s:#}");
    assert_eq!(s["unresolved"], json!([]));
    assert_eq!(s["withdrawn"][0]["id"], "F1");
    assert!(s["withdrawn"][0]["words"]
        .as_str()
        .unwrap()
        .contains("held by the caller"));
}

#[test]
fn compromises_continue_until_two_rounds_bring_nothing_new() {
    let env = setup();
    // The same P2, worded differently each round.
    env.fake(
        "codex",
        json!([
            critique(json!([p(
                "P2",
                "Missing overflow check in add",
                Some("use checked_add")
            )])),
            critique(json!([p(
                "P2",
                "add is missing an overflow check",
                Some("use checked_add")
            )])),
            critique(json!([p(
                "P2",
                "overflow check missing in add()",
                Some("checked_add")
            )])),
        ]),
    );
    env.fake(
        "claude",
        json!([
            judge(&[("F1", "valid")]),
            {"answer": "fn add(a: i32, b: i32) -> Option<i32> { a.checked_add(b) } // v2"},
            judge(&[("F1", "valid")]),
            {"answer": "fn add(a: i32, b: i32) -> Option<i32> { a.checked_add(b) } // v3"},
            {"answer": "summary of round 1"},
            judge(&[("F1", "valid")]),
            {"answer": "fn add(a: i32, b: i32) -> Option<i32> { a.checked_add(b) } // v4"},
        ]),
    );
    let run = review(&env, &["--max-rounds", "5", "--format", "json"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["rounds"], 3, "{s}");
    assert_eq!(
        s["findings"].as_array().unwrap().len(),
        1,
        "one finding across rounds: {s}"
    );
    assert_eq!(s["stop_reason"], "no new P1/P2 findings in rounds 2 and 3");
    assert_eq!(s["final_decision"], "Compromise");
    // The final artifact is the latest version, never silently the original.
    let final_text = std::fs::read_to_string(s["final_artifact"].as_str().unwrap()).unwrap();
    assert_eq!(
        final_text,
        "fn add(a: i32, b: i32) -> Option<i32> { a.checked_add(b) } // v4\n"
    );
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    assert!(dir.join("artifact-v2.md").is_file() && dir.join("artifact-v3.md").is_file());
    // Round 2 reviews version 2 and carries round 1's findings with the author's rulings.
    let input2 = std::fs::read_to_string(dir.join("round-2-input.md")).unwrap();
    assert!(input2.contains("checked_add(b) } // v2"), "{input2}");
    assert!(
        input2.contains("[F1] P2") && input2.contains("judged valid"),
        "{input2}"
    );
    // Round 3 carries the summary of round 1 instead of its full text.
    let input3 = std::fs::read_to_string(dir.join("round-3-input.md")).unwrap();
    assert!(
        input3.contains("Summary of rounds 1-1:\nsummary of round 1"),
        "{input3}"
    );
}

#[test]
fn a_p1_without_an_action_gets_a_rebuttal_sent_to_the_next_round() {
    let env = setup();
    env.fake(
        "codex",
        json!([
            critique(json!([p("P1", "this may be wrong", None)])),
            critique(json!([])),
        ]),
    );
    env.fake(
        "claude",
        json!([judge(&[("F1", "valid")]), {"answer": "REBUTTAL: subtraction is intended for deltas."}]),
    );
    let run = review(&env, &["--format", "json"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["judge_history"][0]["choice"], "D");
    assert_eq!(s["rounds"], 2);
    assert_eq!(s["final_decision"], "Keep Original");
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    let input2 = std::fs::read_to_string(dir.join("round-2-input.md")).unwrap();
    assert!(
        input2.contains("REBUTTAL: subtraction is intended"),
        "{input2}"
    );
}

#[test]
fn a_reviewer_that_never_answers_is_unavailable_never_a_pass() {
    let env = setup();
    env.fake(
        "codex",
        json!({"error": {"status": 401, "message": "bad key"}}),
    );
    env.fake("claude", json!({}));
    let run = review(&env, &["--fail-on", "never"]).fails(3);
    let s = summary(&run);
    assert_eq!(s["status"], "unavailable");
    assert_eq!(s["rounds"], 0);
    assert!(s["error"]
        .as_str()
        .unwrap()
        .contains("codex failed (not-authenticated)"));
    assert!(run.stdout.contains("Fix the reviewer"), "{}", run.stdout);
}

#[test]
fn a_reviewer_failing_mid_loop_keeps_the_completed_rounds() {
    let env = setup();
    env.fake(
        "codex",
        json!([
            critique(json!([p("P2", "naming", Some("rename"))])),
            {"error": {"status": 500, "message": "overloaded"}},
        ]),
    );
    env.fake(
        "claude",
        json!([judge(&[("F1", "valid")]), {"answer": "v2"}]),
    );
    let run = review(&env, &["--format", "json"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["status"], "completed");
    assert_eq!(s["rounds"], 1);
    assert!(
        s["stop_reason"]
            .as_str()
            .unwrap()
            .contains("failed in round 2"),
        "{s}"
    );
}

#[test]
fn a_failed_judge_falls_back_to_the_rubric_and_says_so() {
    let env = setup();
    env.fake(
        "codex",
        critique(json!([p("P1", "add() subtracts", Some("return a + b"))])),
    );
    env.fake(
        "claude",
        json!([{"error": {"status": 429, "message": "slow down"}}, {"answer": PATCH}]),
    );
    let run = review(&env, &["--format", "json"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["findings"][0]["judged"], "not ruled");
    assert_eq!(s["judge_history"][0]["rubric"], "B");
    assert!(
        s["notes"][0].as_str().unwrap().contains("the judge failed"),
        "{s}"
    );
    // Findings nobody ruled on still count for the gate.
    env.fake(
        "claude",
        json!([{"error": {"status": 429, "message": "slow down"}}, {"answer": PATCH}]),
    );
    review(&env, &["--fail-on", "p1"]).fails(1);
}

/// One round of `design.md` reviewed as a mixed document; the JSON report.
fn review_mixed(env: &TestEnv) -> Value {
    let run = review(
        env,
        &[
            "--artifact-file",
            "design.md",
            "--target",
            "mixed",
            "--max-rounds",
            "1",
            "--format",
            "json",
        ],
    )
    .ok();
    serde_json::from_str(&run.stdout).unwrap()
}

#[test]
fn mixed_documents_are_reviewed_by_both_protocols_at_once() {
    let env = setup();
    env.write(
        "design.md",
        "# Design\n\n## Proposal\nWe cache results in Redis with a 5 minute TTL, because the API is slow.\n\n## Decision\nAdopt it.\n\n```rust\nfn get(k: &str) -> Option<String> { cache.get(k) }\n```\n",
    );
    env.fake(
        "codex",
        // Each call waits for the other: both meet only if they run side by side.
        json!({"rendezvous": {"tag": "halves", "wait_ms": 20000}, "answer": "```json\n{\"verdict\":\"revise\",\"findings\":[{\"severity\":\"P3\",\"title\":\"nit\"}]}\n```"}),
    );
    env.fake("claude", judge(&[]));
    let s = review_mixed(&env);
    let calls = env.fake_calls("codex");
    assert_eq!(calls.len(), 2);
    let prompts: Vec<&str> = calls
        .iter()
        .map(|c| c["prompt"].as_str().unwrap())
        .collect();
    assert!(prompts
        .iter()
        .any(|p| p.contains("CHANGE UNDER REVIEW") && p.contains("cache.get(k)")));
    assert!(prompts
        .iter()
        .any(|p| p.contains("DOCUMENT UNDER REVIEW") && p.contains("5 minute TTL")));
    // Both halves said the same problem: it is one finding.
    assert_eq!(s["findings"].as_array().unwrap().len(), 1, "{s:#}");
    // The two halves ran side by side: each met the other.
    let met = std::fs::read_dir(env.root.join("fake"))
        .unwrap()
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with("halves.") && n.ends_with(".met")
        })
        .count();
    assert_eq!(met, 2, "the two halves did not run at once");
}

#[test]
fn one_problem_from_both_halves_of_a_mixed_document_is_one_finding_at_the_higher_level() {
    let env = setup();
    env.write(
        "design.md",
        "# Design\n\n## Proposal\nWe cache results in Redis with no size bound.\n\n```rust\nfn put(k: &str, v: String) { cache.insert(k, v) }\n```\n",
    );
    let finding = |sev: &str, extra: &str| json!({"answer": format!("```json\n{{\"verdict\":\"revise\",\"findings\":[{{\"severity\":\"{sev}\",\"title\":\"the cache has no size bound\",\"body\":\"nothing evicts entries, so memory grows without limit{extra}\"}}]}}\n```")});
    env.fake(
        "codex",
        json!({"when": [
            {"contains": "CHANGE UNDER REVIEW", "answer": finding("P3", "")["answer"]},
            {"contains": "DOCUMENT UNDER REVIEW", "answer": finding("P2", "")["answer"]}
        ]}),
    );
    env.fake("claude", judge(&[]));
    let s = review_mixed(&env);
    let findings = s["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{s:#}");
    assert_eq!(findings[0]["severity"], "P2", "{s:#}");
    // Two different problems stay two.
    env.fake(
        "codex",
        json!({"when": [
            {"contains": "CHANGE UNDER REVIEW", "answer": "```json\n{\"verdict\":\"revise\",\"findings\":[{\"severity\":\"P3\",\"title\":\"put() takes ownership of the key needlessly\"}]}\n```"},
            {"contains": "DOCUMENT UNDER REVIEW", "answer": "```json\n{\"verdict\":\"revise\",\"findings\":[{\"severity\":\"P2\",\"title\":\"no plan for a Redis outage\"}]}\n```"}
        ]}),
    );
    let s = review_mixed(&env);
    assert_eq!(s["findings"].as_array().unwrap().len(), 2, "{s:#}");
}

#[test]
fn reports_in_markdown_and_to_a_file() {
    let env = setup();
    env.fake("codex", json!({"answer": "LGTM"}));
    env.fake("claude", json!({}));
    let out = env.root.join("report.md");
    let run = review(
        &env,
        &["--format", "markdown", "--output", out.to_str().unwrap()],
    )
    .ok();
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let md = std::fs::read_to_string(&out).unwrap();
    for section in [
        "## Debate Summary",
        "### Final Decision",
        "### Key Findings",
        "### Judge Recommendation History",
        "### Unresolved",
        "### Next Actions",
    ] {
        assert!(md.contains(section), "{section} missing:\n{md}");
    }
}

#[test]
fn a_dry_run_writes_the_round_one_prompt_and_calls_nothing() {
    let env = setup();
    env.fake("codex", json!({}));
    env.fake("claude", json!({}));
    let run = review(&env, &["--dry-run"]).ok();
    let input = std::fs::read_to_string(run.session_dir().join("round-1-input.md")).unwrap();
    assert!(input.contains("+    a - b"), "{input}");
    assert!(env.fake_calls("codex").is_empty() && env.fake_calls("claude").is_empty());
}

#[test]
fn ctrl_c_during_a_round_saves_the_session_as_interrupted() {
    let env = setup();
    env.fake("codex", json!({"hang": true}));
    env.fake("claude", json!({}));
    env.interrupt_when(&[], "claude", "codex.pid").fails(130);
    let store = env.store();
    let dir = std::fs::read_dir(&store)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["status"], "interrupted");
}

/// Runs `git debate` in a new session whose controlling terminal is a pseudo-terminal we hold
/// (so `/dev/tty` is ours), typing `typed` into it; `None` runs it with no terminal at all.
/// Returns the run and what was shown on the terminal.
fn run_with_tty(env: &TestEnv, args: &[&str], stdin: &str, typed: Option<&str>) -> (Run, String) {
    run_on_tty(env, args, stdin, typed, false)
}

/// As [`run_with_tty`]; with `stderr_on_tty` the child's standard error is the terminal too.
fn run_on_tty(
    env: &TestEnv,
    args: &[&str],
    stdin: &str,
    typed: Option<&str>,
    stderr_on_tty: bool,
) -> (Run, String) {
    crate::common::run_on_tty(env, args, stdin, typed, stderr_on_tty, "claude")
}

#[test]
fn manual_mode_asks_on_the_terminal_even_when_stdin_carried_the_artifact() {
    let env = setup();
    env.fake(
        "codex",
        critique(json!([p("P2", "naming is unclear", Some("rename it"))])),
    );
    env.fake("claude", judge(&[("F1", "valid")]));
    // The rubric says C; the user stops instead.
    let (run, shown) = run_with_tty(
        &env,
        &[
            "-", "--target", "code", "--mode", "manual", "--format", "json",
        ],
        "fn add(a: i32, b: i32) -> i32 { a - b }\n",
        Some("x\nE\n"),
    );
    let run = run.ok();
    assert!(shown.contains("P2 [F1] naming is unclear"), "{shown}");
    assert!(shown.contains("Choose [A/B/C/D/E] (default C)"), "{shown}");
    // Each finding's why and fix, not only its title.
    assert!(
        shown.contains("why: naming is unclear because reasons"),
        "{shown}"
    );
    assert!(shown.contains("fix: rename it"), "{shown}");
    assert!(shown.contains("Please answer A, B, C, D or E."), "{shown}");
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["final_decision"], "Stopped by user");
    assert_eq!(s["judge_history"][0]["choice"], "E");
    assert_eq!(s["judge_history"][0]["decided_by"], "user");
    assert_eq!(s["judge_history"][0]["rubric"], "C");
    let md = std::path::Path::new(s["session_dir"].as_str().unwrap()).join("summary.md");
    let md = std::fs::read_to_string(md).unwrap();
    assert!(md.contains("E (user; ") && md.contains("rubric C"), "{md}");

    // An empty answer takes the recommendation (C: a compromise is written).
    env.fake("claude", json!([judge(&[("F1", "valid")]), {"answer": "v2"}, judge(&[("F1", "valid")]), {"answer": "v3"}]));
    let (run, _) = run_with_tty(
        &env,
        &["--mode", "manual", "--max-rounds", "1", "--format", "json"],
        "",
        Some("\n"),
    );
    let s: Value = serde_json::from_str(&run.ok().stdout).unwrap();
    assert_eq!(s["judge_history"][0]["choice"], "C");
}

#[test]
fn manual_mode_without_a_terminal_is_a_usage_error_not_a_hang() {
    let env = setup();
    env.fake("codex", json!({}));
    env.fake("claude", json!({}));
    let (run, _) = run_with_tty(&env, &["--mode", "manual"], "", None);
    let run = run.fails(2);
    assert!(
        run.stderr.contains("--mode manual needs a terminal"),
        "{}",
        run.stderr
    );
    assert!(env.fake_calls("codex").is_empty(), "a model was called");
}

#[test]
fn token_and_cost_budgets_stop_before_the_next_round() {
    let env = setup();
    // Each review uses 100 + 10 tokens and the judge as much (the fake's usage); round 1 ends
    // with a compromise, so only the budget can stop round 2.
    env.fake(
        "codex",
        critique(json!([p("P2", "naming", Some("rename"))])),
    );
    env.fake(
        "claude",
        json!([judge(&[("F1", "valid")]), {"answer": "v2"}]),
    );
    let run = review(&env, &["--budget-tokens", "200", "--format", "json"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["rounds"], 1);
    assert!(
        s["stop_reason"]
            .as_str()
            .unwrap()
            .starts_with("token budget (200) used up"),
        "{s}"
    );
    // claude reports a cost (0.001 per call in the fake); two calls reach $0.002.
    let run = review(&env, &["--budget-usd", "0.002", "--format", "json"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(
        s["stop_reason"]
            .as_str()
            .unwrap()
            .starts_with("cost budget ($0.002) used up"),
        "{s}"
    );
    let run = review(&env, &["--budget-usd=0"]).fails(2);
    assert!(run.stderr.contains("--budget-usd"), "{}", run.stderr);
}

#[test]
fn prompts_stay_bounded_as_rounds_accumulate() {
    let env = setup();
    // Five different problems, each with a long body of its own words.
    let words = |n: usize| {
        (0..400)
            .map(|i| format!("r{n}w{i}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let long = "x".repeat(3000);
    let reviews: Vec<Value> = (1..=5)
        .map(|n| {
            let mut c = critique(json!([p(
                "P1",
                &format!("distinct problem number {n}"),
                None
            )]));
            let a = c["answer"]
                .as_str()
                .unwrap()
                .replace("because reasons", &words(n));
            c["answer"] = a.into();
            c
        })
        .collect();
    env.fake("codex", json!(reviews));
    let j = judge(&[]);
    let rebut = json!({"answer": format!("rebuttal {long}")});
    let sum = json!({"answer": "SUMMARY OF EARLIER ROUNDS"});
    env.fake(
        "claude",
        json!([j, rebut, j, rebut, sum, j, rebut, sum, j, rebut, sum, j, rebut]),
    );
    let run = review(&env, &["--max-rounds", "5", "--format", "json"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["rounds"], 5, "{}", s["stop_reason"]);
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    let size = |n: u32| {
        std::fs::metadata(dir.join(format!("round-{n}-input.md")))
            .unwrap()
            .len()
    };
    // Round 5 carries a bounded summary plus the last round, not four rounds in full.
    assert!(
        size(5) <= size(2) + 4200,
        "round 2: {} bytes, round 5: {} bytes",
        size(2),
        size(5)
    );
    let input5 = std::fs::read_to_string(dir.join("round-5-input.md")).unwrap();
    assert!(input5.contains("SUMMARY OF EARLIER ROUNDS"));
    assert!(
        !input5.contains("distinct problem number 1"),
        "round 1 is in the summary only"
    );
    // The summaries are author calls outside rounds, counted in the usage.
    assert_eq!(s["usage"]["claude"]["calls"], 13);
}

#[test]
fn a_template_in_the_store_replaces_the_built_in_one() {
    let env = setup();
    let dir = env.store().join("templates");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("cr.md"), "HOUSE RULES. Review:\n{{artifact}}\n").unwrap();
    env.fake("codex", json!({"answer": "LGTM"}));
    env.fake("claude", json!({}));
    review(&env, &[]).ok();
    let prompt = env.fake_calls("codex")[0]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        prompt.starts_with("HOUSE RULES. Review:\n# Change under review"),
        "{prompt}"
    );
}

#[test]
fn show_prints_the_summary_and_single_rounds() {
    let env = setup();
    env.fake(
        "codex",
        critique(json!([p("P2", "naming is unclear", Some("rename it"))])),
    );
    env.fake("claude", json!([judge(&[("F1", "invalid")])]));
    review(&env, &[]).ok();
    let run = env.run(&["show", "last"]).ok();
    assert!(
        run.stdout.contains("## Debate Summary") && run.stdout.contains("Keep Original"),
        "{}",
        run.stdout
    );
    let run = env.run(&["show", "last", "--round", "1"]).ok();
    assert!(run.stdout.contains("choice: A (auto)"), "{}", run.stdout);
    assert!(
        run.stdout.contains("## Critique") && run.stdout.contains("naming is unclear"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("## Judge") && run.stdout.contains("F1 is invalid"),
        "{}",
        run.stdout
    );
    let run = env
        .run(&["show", "last", "--round", "1", "--format", "json"])
        .ok();
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["record"]["findings"][0]["id"], "F1");
    let run = env.run(&["show", "last", "--round", "7"]).fails(2);
    assert!(
        run.stderr.contains("has no round 7 (it has 1)"),
        "{}",
        run.stderr
    );
}

#[test]
fn resume_continues_after_max_rounds_with_the_latest_version() {
    let env = setup();
    env.fake("codex", json!([critique(json!([p("P2", "naming is unclear", Some("rename it"))])), {"answer": "LGTM now."}]));
    env.fake(
        "claude",
        // A compromise is a version of the change: here the whole file, revised.
        json!([judge(&[("F1", "valid")]), {"answer": "fn add(a: i32, b: i32) -> i32 {\n    a + b // VERSION TWO\n}\n"}]),
    );
    let run = review(&env, &["--max-rounds", "1", "--format", "json"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["stop_reason"], "max rounds (1) reached");
    let id = s["session"].as_str().unwrap().to_string();

    // Not without more rounds.
    let run = env.run(&["resume", &id]).fails(2);
    assert!(run.stderr.contains("pass --max-rounds 2"), "{}", run.stderr);

    let run = env
        .run(&["resume", &id, "--max-rounds", "2", "--format", "json"])
        .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["session"], id.as_str());
    assert_eq!(s["rounds"], 2);
    // What the reviewer accepted is the compromise of round 1, and the label says so.
    assert_eq!(s["final_decision"], "Compromise (v2, accepted)");
    assert_eq!(s["judge_history"][0]["choice"], "C");
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    let input2 = std::fs::read_to_string(dir.join("round-2-input.md")).unwrap();
    assert!(
        input2.contains("VERSION TWO") && input2.contains("[F1] P2 naming is unclear"),
        "{input2}"
    );
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["resumed_at"].as_array().unwrap().len(), 1);

    // A decided session is finished.
    let run = env.run(&["resume", &id]).fails(2);
    assert!(
        run.stderr
            .contains("is finished (Compromise (v2, accepted))"),
        "{}",
        run.stderr
    );
}

#[test]
fn resume_picks_up_an_interrupted_session() {
    let env = setup();
    env.fake("codex", json!({"hang": true}));
    env.fake("claude", json!({}));
    env.interrupt_when(&[], "claude", "codex.pid").fails(130);
    env.fake("codex", json!({"answer": "LGTM"}));
    let run = env.run(&["resume", "last", "--format", "json"]).ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["status"], "completed");
    assert_eq!(s["rounds"], 1);
    assert!(run.stderr.contains("resuming debate-"), "{}", run.stderr);
}

#[test]
fn ctrl_c_while_the_judge_works_discards_the_unfinished_round() {
    let env = setup();
    env.fake(
        "codex",
        critique(json!([p("P2", "naming", Some("rename"))])),
    );
    env.fake("claude", json!({"hang": true}));
    env.interrupt_when(&[], "claude", "claude.pid").fails(130);
    let dir = std::fs::read_dir(env.store())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    assert_eq!(
        read_json(&dir.join("metadata.json"))["status"],
        "interrupted"
    );
    assert!(
        !dir.join("round-1.json").exists(),
        "a half round was recorded"
    );
    let s = read_json(&dir.join("summary.json"));
    assert_eq!(s["rounds"], 0);
}

#[test]
fn a_progress_line_shows_on_a_terminal_only() {
    let env = setup();
    env.fake("codex", json!({"delay_ms": 700, "answer": "LGTM"}));
    env.fake("claude", json!({}));
    let (run, shown) = run_on_tty(&env, &[], "", Some(""), true);
    run.ok();
    assert!(
        shown.contains("codex · round 1/3 · review · 0s"),
        "{shown:?}"
    );
    // Not when standard error is a pipe.
    let run = review(&env, &[]).ok();
    assert!(!run.stderr.contains("round 1/3 · review"), "{}", run.stderr);
}

/// `--target doc` (the name a seed gives a design document's review) is a proposal review.
#[test]
fn target_doc_is_a_proposal_review() {
    let env = TestEnv::with_repo();
    env.write(
        "design.md",
        "# Cache\n\nWe add a cache in front of the pricing service.\n",
    );
    env.commit_all("design");
    let run = env
        .run(&["--target", "doc", "--scope", "commit:HEAD", "--dry-run"])
        .ok();
    assert!(run.stdout.contains("proposal"), "{}", run.stdout);
}

/// A proposal review under a call limit made for code is warned about; a code review is not.
#[test]
fn a_short_call_limit_for_a_proposal_is_warned_about() {
    let env = TestEnv::with_repo();
    env.write(
        "design.md",
        "# Cache\n\nWe add a cache in front of the pricing service.\n",
    );
    env.commit_all("design");
    let args = [
        "--scope",
        "commit:HEAD",
        "--dry-run",
        "--backend-timeout-seconds",
        "60",
    ];
    let mut with_target = args.to_vec();
    with_target.extend(["--target", "proposal"]);
    let run = env.run(&with_target).ok();
    assert!(
        run.stderr
            .contains("--backend-timeout-seconds 60 is short for a proposal review"),
        "{}",
        run.stderr
    );
    let mut code = args.to_vec();
    code.extend(["--target", "code"]);
    let run = env.run(&code).ok();
    assert!(!run.stderr.contains("is short for"), "{}", run.stderr);
}

/// A `--state-dir` inside the work tree holds our sessions as untracked files: they are never
/// reviewed as part of the change.
#[test]
fn a_state_dir_inside_the_work_tree_is_not_part_of_the_change() {
    let env = TestEnv::with_repo();
    env.write("a.rs", "fn a() {}\n");
    env.commit_all("a");
    env.write("a.rs", "fn a() { 1 }\n");
    let args = ["--state-dir", "reviews", "--dry-run"];
    env.run(&args).ok();
    assert!(
        env.repo.join("reviews").is_dir(),
        "the dry run made a session there"
    );
    let run = env.run(&args).ok();
    assert!(run.stdout.contains("1 changed"), "{}", run.stdout);
    assert!(!run.stdout.contains("? reviews/"), "{}", run.stdout);
}

/// A patch that does not fit the work tree (its last line has no newline there) is reported as
/// not applying; the check asks `git apply --check` too, so "applies cleanly" is what `git
/// debate apply` will find.
#[test]
fn the_patch_check_is_gits() {
    let env = setup();
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}");
    env.fake(
        "codex",
        critique(json!([p("P1", "add() subtracts", Some("return a + b"))])),
    );
    env.fake(
        "claude",
        json!([judge_letter(&[("F1", "valid")], "B"), {"answer": PATCH}]),
    );
    let run = review(&env, &[]).ok();
    let s = summary(&run);
    let check = s["patch_check"].as_str().unwrap();
    assert!(check.starts_with("does not apply"), "{check}");
}

/// A finding the judge adds gets an id like the reviewer's, so it can be cited, carried and
/// waived (never `P1 []`).
#[test]
fn a_finding_the_judge_adds_gets_an_id() {
    let env = setup();
    env.fake(
        "codex",
        critique(json!([p("P1", "add() subtracts", Some("return a + b"))])),
    );
    let judge = json!({"classifications": [{"id": "F1", "verdict": "valid", "severity": null,
        "reason": "r"}], "added": [{"severity": "P2", "title": "no test covers add()",
        "evidence": "lib.rs:1", "body": "nothing would have caught this", "action": "add one"}],
        "recommendation": "A", "reason": "r"});
    env.fake(
        "claude",
        json!({"answer": format!("```json\n{judge}\n```")}),
    );
    let run = review(&env, &["--max-rounds", "1"]).ok();
    let s = summary(&run);
    let added: Vec<&Value> = s["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["from_judge"] == true)
        .collect();
    assert_eq!(added.len(), 1, "{s:#}");
    let id = added[0]["id"].as_str().unwrap();
    assert!(id.starts_with('F') && id != "F1", "{id}");
    assert!(!run.stdout.contains("[]"), "{}", run.stdout);
}
