//! Several reviewers, one verdict: fake agents of three families (codex/openai, gemini/google,
//! qwen/qwen) review one change at once for a claude author; their findings are merged by
//! identity with every family's vote, the consensus rule decides what the gate counts, a
//! reviewer that fails is named while the others count, and a failover chain moves on from a
//! reviewer that is rate-limited or times out.

use serde_json::{json, Value};

use crate::common::{read_json, Run, TestEnv};

fn answer(v: Value) -> Value {
    json!({"answer": format!("Review.\n\n```json\n{v}\n```\n")})
}

/// A review that raises `findings` (an approval when there are none).
fn raises(findings: Value) -> Value {
    let verdict = if findings.as_array().is_some_and(Vec::is_empty) {
        "approve"
    } else {
        "revise"
    };
    answer(json!({"verdict": verdict, "findings": findings}))
}

fn subtracts(sev: &str) -> Value {
    json!({"severity": sev, "title": "add() subtracts instead of adding", "file": "lib.rs",
        "start_line": 2, "body": "a - b returns the difference, not the sum"})
}

fn naming(sev: &str) -> Value {
    json!({"severity": sev, "title": "name the parameters lhs and rhs", "file": "lib.rs",
        "start_line": 1, "body": "a and b say nothing about their roles"})
}

/// The judge: every id valid, no letter of its own; then a rebuttal for decision D.
fn judge_all_valid(ids: &[&str]) -> Value {
    let list: Vec<Value> = ids
        .iter()
        .map(|id| json!({"id": id, "verdict": "valid", "reason": "yes"}))
        .collect();
    json!([
        {"answer": format!("```json\n{}\n```", json!({"classifications": list, "reason": "seen"}))},
        {"answer": "The author stands by it."},
    ])
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

fn three(env: &TestEnv, extra: &[&str]) -> Run {
    let mut args = vec![
        "--reviewer",
        "codex",
        "--reviewer",
        "gemini",
        "--reviewer",
        "qwen",
        "--max-rounds",
        "1",
    ];
    args.extend_from_slice(extra);
    env.run_from_claude(&args)
}

#[test]
fn two_families_agree_on_a_p1_and_the_silent_third_makes_it_two_of_three() {
    let env = TestEnv::with_subtraction_bug();
    // codex and gemini each wait for the other: both meet only if they run side by side, so
    // two reviewers cost the longer call, not the sum.
    let meet = |mut a: Value| {
        a["rendezvous"] = json!({"tag": "reviewers", "wait_ms": 20000});
        a
    };
    env.fake("codex", meet(raises(json!([subtracts("P1")]))));
    env.fake("gemini", meet(raises(json!([subtracts("P2")]))));
    env.fake("qwen", raises(json!([])));
    env.fake("claude", judge_all_valid(&["F1"]));
    let run = three(&env, &["--fail-on", "p1"]).fails(1);
    assert!(
        run.stdout.contains("codex + gemini, 2 of 3"),
        "{}",
        run.stdout
    );
    // Each reviewer was asked once, all three at once.
    for name in ["codex", "gemini", "qwen"] {
        assert_eq!(env.fake_calls(name).len(), 1, "{name}");
    }
    let s = summary(&env);
    let f = &s["findings"][0];
    assert_eq!(s["findings"].as_array().unwrap().len(), 1, "{s}");
    // The merged severity is the highest; each family keeps its own.
    assert_eq!(f["severity"], "P1");
    assert_eq!(f["raised_by"][0]["reviewer"], "codex");
    assert_eq!(f["raised_by"][0]["severity"], "P1");
    assert_eq!(f["raised_by"][1]["reviewer"], "gemini");
    assert_eq!(f["raised_by"][1]["family"], "google");
    assert_eq!(f["raised_by"][1]["severity"], "P2");
    assert_eq!(f["votes"]["raised"], 2);
    assert_eq!(f["votes"]["of"], 3);
    assert_eq!(f["votes"]["by"], "codex + gemini");
    assert_eq!(s["reviewers"]["consensus"], "any");
    assert_eq!(s["reviewers"]["seats"].as_array().unwrap().len(), 3);
    assert_eq!(s["gate"]["blocking"], json!(["F1"]));
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    let critique = std::fs::read_to_string(dir.join("round-1-critique.md")).unwrap();
    assert_eq!(critique.matches("[met]").count(), 2, "{critique}");
    assert!(critique.contains("<!-- reviewer gemini -->"), "{critique}");
    // The judge ruled once, on the merged set.
    let judge = &env.fake_calls("claude")[0]["prompt"];
    assert_eq!(judge.as_str().unwrap().matches("[F1]").count(), 1);
    assert!(
        judge
            .as_str()
            .unwrap()
            .contains("raised by codex (P1), gemini (P2)"),
        "{judge}"
    );
    // Every reviewer's cost is its own line, and the total follows.
    for name in ["codex", "gemini", "qwen"] {
        assert!(s["usage"][name]["calls"] == 1, "{s}");
    }
}

#[test]
fn a_p2_of_one_family_passes_under_majority_and_fails_under_any() {
    let env = TestEnv::with_subtraction_bug();
    env.fake("codex", raises(json!([subtracts("P1")])));
    env.fake("gemini", raises(json!([subtracts("P1"), naming("P2")])));
    env.fake("qwen", raises(json!([subtracts("P1")])));
    env.fake("claude", judge_all_valid(&["F1", "F2"]));
    let run = three(&env, &["--fail-on", "p2", "--consensus", "any"]).fails(1);
    assert!(run.stdout.contains("gemini only, 1 of 3"), "{}", run.stdout);
    assert_eq!(summary(&env)["gate"]["blocking"], json!(["F1", "F2"]));
    let run = three(
        &env,
        &[
            "--fail-on",
            "p2",
            "--consensus",
            "majority",
            "--format",
            "json",
        ],
    )
    .fails(1);
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    crate::common::valid_report(&s);
    assert_eq!(s["gate"]["consensus"], "majority");
    // The P1 all three raised blocks; the P2 only gemini raised does not.
    assert_eq!(s["gate"]["blocking"], json!(["F1"]));
    let p2 = s["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["severity"] == "P2")
        .unwrap();
    assert_eq!(p2["votes"]["counted"], false);
    assert_eq!(p2["votes"]["by"], "gemini only");
    // The rule and each finding's votes in every format, re-emitted from the stored session.
    let sarif: Value = serde_json::from_str(
        &env.run_from_claude(&["show", "last", "--format", "sarif"])
            .ok()
            .stdout,
    )
    .unwrap();
    let run0 = &sarif["runs"][0];
    assert_eq!(run0["properties"]["reviewers"]["consensus"], "majority");
    let votes: Vec<&Value> = run0["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["properties"]["votes"])
        .collect();
    assert!(
        votes.iter().any(|v| v["by"] == "codex + gemini + qwen"),
        "{sarif}"
    );
    assert!(votes.iter().any(|v| v["counted"] == false), "{sarif}");
    let github = env
        .run_from_claude(&["show", "last", "--format", "github"])
        .ok()
        .stdout;
    assert!(
        github.contains("gemini only, 1 of 3; not counted by the consensus rule"),
        "{github}"
    );
    assert!(github.contains("consensus majority"), "{github}");
    let markdown = env
        .run_from_claude(&["show", "last", "--format", "markdown"])
        .ok()
        .stdout;
    assert!(
        markdown.contains("codex + gemini + qwen, 3 of 3"),
        "{markdown}"
    );
    assert!(
        markdown.contains("Reviewers: 3 of 3 answered"),
        "{markdown}"
    );
    // With only the P2 standing, majority passes the gate.
    env.fake("codex", raises(json!([])));
    env.fake("gemini", raises(json!([naming("P2")])));
    env.fake("qwen", raises(json!([])));
    env.fake("claude", judge_all_valid(&["F1"]));
    three(&env, &["--fail-on", "p2", "--consensus", "majority"]).ok();
    three(&env, &["--fail-on", "p2", "--consensus", "any"]).fails(1);
}

#[test]
fn a_reviewer_that_fails_is_named_and_the_others_count() {
    let env = TestEnv::with_subtraction_bug();
    env.fake("codex", raises(json!([subtracts("P1")])));
    env.fake(
        "gemini",
        json!({"error": {"status": 401, "message": "bad key"}}),
    );
    env.fake("qwen", raises(json!([subtracts("P1")])));
    env.fake("claude", judge_all_valid(&["F1"]));
    let run = three(&env, &["--fail-on", "p1"]).fails(1);
    assert!(
        run.stdout.contains("the reviewer gemini did not answer"),
        "{}",
        run.stdout
    );
    let s = summary(&env);
    assert_eq!(s["evaluated"], true);
    assert_eq!(s["findings"][0]["votes"]["of"], 2);
    assert_eq!(s["findings"][0]["votes"]["by"], "codex + qwen");
    let seats = s["reviewers"]["seats"].as_array().unwrap();
    let gemini = seats.iter().find(|x| x["reviewer"] == "gemini").unwrap();
    assert_eq!(gemini["answered"], false);
    assert!(gemini["error"]
        .as_str()
        .unwrap()
        .contains("not-authenticated"));
    // Under `all`, two of three answering is not enough to evaluate anything.
    let run = three(&env, &["--fail-on", "p1", "--consensus", "all"]).fails(3);
    assert!(
        run.stdout
            .contains("too few reviewers answered for --consensus all (2 of 3)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Fix the reviewers that did not answer (gemini)"),
        "{}",
        run.stdout
    );
    let s = summary(&env);
    assert_eq!(s["evaluated"], false);
    assert_eq!(s["reviewers"]["seats"].as_array().unwrap().len(), 3);
}

#[test]
fn the_chain_falls_over_on_a_rate_limit_and_on_a_timeout() {
    let env = TestEnv::with_subtraction_bug();
    env.fake(
        "codex",
        json!({"error": {"status": 429, "message": "rate limit exceeded"}}),
    );
    env.fake("gemini", json!({"hang": true}));
    env.fake("qwen", raises(json!([subtracts("P1")])));
    env.fake("claude", judge_all_valid(&["F1"]));
    env.git(&["config", "debate.reviewer", "codex,gemini"]);
    let run = env
        .run_from_claude(&[
            "--fallback-reviewer",
            "qwen",
            "--max-rounds",
            "1",
            "--backend-timeout-seconds",
            "2",
        ])
        .ok();
    assert!(
        run.stdout.contains("fallback reviewer: qwen reviewed"),
        "{}",
        run.stdout
    );
    let s = summary(&env);
    assert_eq!(s["reviewer"], "qwen");
    assert_eq!(s["fallback"]["instead_of"], "codex");
    assert!(s["fallback"]["because"]
        .as_str()
        .unwrap()
        .contains("rate-limited"));
    assert_eq!(s["fallback"]["also_failed"][0]["reviewer"], "gemini");
    assert!(s["fallback"]["also_failed"][0]["because"]
        .as_str()
        .unwrap()
        .contains("timeout"));
    assert!(run.stdout.contains("gemini"), "{}", run.stdout);
}

/// An answer that raises `findings` and answers the disputes with `replies` lines.
fn replies(findings: Value, lines: &str) -> Value {
    let mut a = raises(findings);
    let text = format!(
        "{}\n## Disputed findings\n{lines}\n",
        a["answer"].as_str().unwrap()
    );
    a["answer"] = text.into();
    a
}

#[test]
fn disputes_go_back_to_each_reviewer_that_raised_the_finding_and_a_withdrawal_is_its_own_vote() {
    let env = TestEnv::with_subtraction_bug();
    env.fake(
        "codex",
        json!([
            raises(json!([subtracts("P1")])),
            replies(json!([]), "- F1: withdraw — the caller wants a difference"),
        ]),
    );
    env.fake(
        "gemini",
        json!([
            raises(json!([subtracts("P1"), naming("P2")])),
            replies(
                json!([]),
                "- F1: hold — lib.rs:2 returns a - b\n- F2: withdraw — a matter of taste"
            ),
        ]),
    );
    let invalid = |ids: &[&str]| {
        let list: Vec<Value> = ids
            .iter()
            .map(|id| json!({"id": id, "verdict": "invalid", "reason": "intended"}))
            .collect();
        json!({"answer": format!("```json\n{}\n```", json!({"classifications": list, "reason": "no"}))})
    };
    env.fake(
        "claude",
        json!([
            invalid(&["F1", "F2"]),
            {"answer": "The difference is intended."},
            invalid(&["F1"]),
            {"answer": "Still intended."},
        ]),
    );
    let run = env
        .run_from_claude(&[
            "--reviewer",
            "codex",
            "--reviewer",
            "gemini",
            "--max-rounds",
            "2",
            "--fail-on",
            "p1",
        ])
        .fails(1);
    // Round 2 asks each reviewer about its own findings only.
    let codex = env.fake_calls("codex")[1]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    let gemini = env.fake_calls("gemini")[1]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        codex.contains("F1 [P1]") && !codex.contains("F2 [P2]"),
        "{codex}"
    );
    assert!(
        gemini.contains("F1 [P1]") && gemini.contains("F2 [P2]"),
        "{gemini}"
    );
    // codex took its vote back; gemini holds F1, which stands for it alone. F2 is withdrawn.
    assert!(
        run.stdout.contains("codex withdrew its vote on F1"),
        "{}",
        run.stdout
    );
    let s = summary(&env);
    let f1 = s["unresolved"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "F1")
        .unwrap();
    assert_eq!(f1["votes"]["by"], "gemini only", "{s}");
    assert_eq!(f1["dispute"]["reviewer"], "held");
    assert_eq!(s["withdrawn"][0]["id"], "F2");
}

#[test]
fn a_later_round_asks_each_reviewer_about_the_others_findings() {
    let env = TestEnv::with_subtraction_bug();
    env.fake(
        "codex",
        json!([
            raises(json!([naming("P2")])),
            raises(json!([naming("P2"), subtracts("P1")])),
        ]),
    );
    env.fake(
        "gemini",
        json!([
            raises(json!([subtracts("P1")])),
            raises(json!([subtracts("P1")])),
        ]),
    );
    env.fake(
        "claude",
        json!([
            judge_all_valid(&["F1", "F2"])[0],
            {"answer": "The author stands by it."},
            judge_all_valid(&["F1", "F2"])[0],
            {"answer": "Still."},
        ]),
    );
    env.run_from_claude(&[
        "--reviewer",
        "codex",
        "--reviewer",
        "gemini",
        "--max-rounds",
        "2",
        "--fail-on",
        "p1",
    ])
    .fails(1);
    let codex = env.fake_calls("codex")[1]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    let gemini = env.fake_calls("gemini")[1]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    let others = |p: &str| {
        p.split("raised by another reviewer, with the author's rulings:")
            .nth(1)
            .map(|rest| rest.split("\n\n").next().unwrap_or("").to_string())
            .unwrap_or_default()
    };
    assert!(others(&codex).contains("add() subtracts"), "{codex}");
    assert!(!others(&codex).contains("name the parameters"), "{codex}");
    assert!(others(&gemini).contains("name the parameters"), "{gemini}");
    assert!(
        gemini.contains("agree or disagree, with evidence"),
        "{gemini}"
    );
    // codex agreed with gemini's P1 by raising it: it now has both votes; the P2 only codex's.
    let s = summary(&env);
    let by = |title: &str| {
        s["unresolved"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["title"].as_str().unwrap().contains(title))
            .map(|f| f["votes"]["by"].clone())
            .unwrap()
    };
    assert_eq!(by("subtracts"), "codex + gemini", "{s}");
    assert_eq!(by("name the parameters"), "codex only", "{s}");
}

#[test]
fn backends_shows_every_reviewer_and_the_chain() {
    let env = TestEnv::with_subtraction_bug();
    for name in ["claude", "codex", "gemini", "qwen"] {
        env.fake(name, json!({}));
    }
    env.git(&["config", "debate.reviewers", "2"]);
    env.git(&["config", "debate.fallbackReviewer", "qwen"]);
    let run = env.run_from_claude(&["backends"]).ok();
    assert!(run.stdout.contains("reviewer: codex"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("reviewer: gemini (2 reviewers asked for: the next installed family"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("failover: qwen"), "{}", run.stdout);
    // `--reviewer` on the command line replaces the configured reviewers.
    let run = env
        .run_from_claude(&["backends", "--reviewer", "qwen", "--reviewer", "gemini"])
        .ok();
    assert!(
        run.stdout.contains("reviewer: qwen (--reviewer was given)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("reviewer: gemini (named"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("reviewer: codex"), "{}", run.stdout);
}

#[test]
fn several_reviewers_review_every_chunk_and_their_findings_merge_across_them() {
    let env = TestEnv::with_repo();
    for dir in ["alpha", "beta"] {
        let body: String = (0..60)
            .map(|l| format!("pub fn {dir}_{l}() -> u32 {{ {l} }}\n"))
            .collect();
        env.write(&format!("{dir}/lib.rs"), &body);
    }
    env.commit_all("two modules");
    let located = json!({"severity": "P2", "title": "alpha_3 returns the wrong value",
        "file": "alpha/lib.rs", "start_line": 4, "body": "it should return 4"});
    let by_chunk = json!({"answer": raises(json!([]))["answer"], "when": [
        {"contains": "+++ b/alpha/lib.rs", "answer": raises(json!([located]))["answer"]},
    ]});
    env.fake("codex", by_chunk.clone());
    // gemini's beta chunk fails: codex reviewed beta, so nothing goes unevaluated.
    env.fake(
        "gemini",
        json!({"answer": raises(json!([]))["answer"], "when": [
            {"contains": "+++ b/alpha/lib.rs", "answer": raises(json!([located]))["answer"]},
            {"contains": "+++ b/beta/lib.rs", "error": {"status": 500, "message": "overloaded"}},
        ]}),
    );
    env.fake("claude", judge_all_valid(&["F1"]));
    let run = env
        .run_from_claude(&[
            "--scope",
            "commit:HEAD",
            "--max-artifact-bytes",
            "3000",
            "--reviewer",
            "codex",
            "--reviewer",
            "gemini",
            "--max-rounds",
            "1",
            "--format",
            "json",
        ])
        .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(env.fake_calls("codex").len(), 2);
    assert_eq!(env.fake_calls("gemini").len(), 2);
    assert_eq!(s["findings"].as_array().unwrap().len(), 1, "{s}");
    assert_eq!(s["findings"][0]["votes"]["by"], "codex + gemini");
    assert_eq!(s["evaluated"], true);
    assert!(
        s["coverage"]["not_evaluated"]
            .as_array()
            .is_none_or(Vec::is_empty),
        "{s}"
    );
    assert!(
        s["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("gemini's chunk")),
        "{s}"
    );
}

#[test]
fn with_several_reviewers_the_chain_fills_the_seat_of_one_that_never_answers() {
    let env = TestEnv::with_subtraction_bug();
    env.fake("codex", raises(json!([subtracts("P1")])));
    env.fake(
        "gemini",
        json!({"error": {"status": 429, "message": "rate limit exceeded"}}),
    );
    env.fake("qwen", raises(json!([subtracts("P1")])));
    env.fake(
        "claude",
        json!([
            judge_all_valid(&["F1"])[0],
            {"answer": "The author stands by it."},
            judge_all_valid(&["F1"])[0],
            {"answer": "Still."},
        ]),
    );
    let run = env
        .run_from_claude(&[
            "--reviewer",
            "codex",
            "--reviewer",
            "gemini",
            "--fallback-reviewer",
            "qwen",
            "--max-rounds",
            "2",
            "--fail-on",
            "p1",
        ])
        .fails(1);
    assert!(
        run.stdout.contains("qwen (qwen), in place of gemini"),
        "{}",
        run.stdout
    );
    // qwen keeps the seat: round 2 asks it again, and gemini no more.
    assert_eq!(env.fake_calls("gemini").len(), 1);
    assert_eq!(env.fake_calls("qwen").len(), 2);
    let s = summary(&env);
    assert_eq!(s["findings"][0]["votes"]["by"], "codex + qwen", "{s}");
    assert_eq!(s["findings"][0]["votes"]["of"], 2);
    let seat = &s["reviewers"]["seats"][1];
    assert_eq!(seat["reviewer"], "qwen");
    assert_eq!(seat["instead_of"][0]["reviewer"], "gemini");
    assert!(seat["instead_of"][0]["because"]
        .as_str()
        .unwrap()
        .contains("rate-limited"));
}

#[test]
fn reviewers_n_seats_the_n_best_installed_families_other_than_the_authors() {
    let env = TestEnv::with_subtraction_bug();
    env.fake("codex", raises(json!([])));
    env.fake("gemini", raises(json!([])));
    env.fake("qwen", raises(json!([])));
    env.fake("claude", json!({}));
    let run = env
        .run_from_claude(&["--reviewers", "2", "--max-rounds", "1", "--format", "json"])
        .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    let seats: Vec<&str> = s["reviewers"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["reviewer"].as_str().unwrap())
        .collect();
    assert_eq!(seats, ["codex", "gemini"]);
    assert!(env.fake_calls("qwen").is_empty());
    // Both approved, nothing raised: the reviewers agreed.
    assert_eq!(s["converged"], true, "{s}");
    assert!(
        env.fake_calls("claude").is_empty(),
        "no judge for an agreement"
    );
}

#[test]
fn a_reviewer_that_lowers_a_shared_finding_lowers_its_own_vote_and_an_approval_withdraws_one() {
    let env = TestEnv::with_subtraction_bug();
    env.fake(
        "codex",
        json!([
            raises(json!([subtracts("P1")])),
            replies(json!([]), "- F1: lower to P3 — only a naming problem"),
        ]),
    );
    env.fake(
        "gemini",
        json!([raises(json!([subtracts("P1")])), raises(json!([]))]),
    );
    let invalid = json!({"answer": format!("```json\n{}\n```", json!({"classifications": [{"id": "F1", "verdict": "invalid", "reason": "intended"}], "reason": "no"}))});
    env.fake(
        "claude",
        json!([invalid, {"answer": "Intended."}, invalid, {"answer": "Intended."}]),
    );
    let run = env
        .run_from_claude(&[
            "--reviewer",
            "codex",
            "--reviewer",
            "gemini",
            "--max-rounds",
            "2",
            "--fail-on",
            "p1",
        ])
        .ok();
    // gemini approved the change as a whole and said nothing of F1: its vote is withdrawn, as
    // one reviewer's approval withdraws what it does not hold; codex's stands, at its own P3.
    assert!(
        run.stdout.contains(
            "gemini withdrew its vote on F1; codex lowered its vote on F1 to P3; it stands at P3 \
             for codex only"
        ),
        "{}",
        run.stdout
    );
    let s = summary(&env);
    let f1 = &s["unresolved"][0];
    assert_eq!(f1["severity"], "P3", "{s}");
    assert_eq!(f1["raised_by"].as_array().unwrap().len(), 1);
    assert_eq!(f1["raised_by"][0]["severity"], "P3");
}

/// A vote counts at the level its reviewer gave: one P1 and two P3s on the same finding make a
/// P1 that only one reviewer holds to be one, so a majority at `--fail-on p1` does not count it,
/// while at `--fail-on p3` all three votes do.
#[test]
fn a_vote_counts_only_at_the_level_its_reviewer_gave() {
    let env = TestEnv::with_subtraction_bug();
    env.fake("codex", raises(json!([subtracts("P1")])));
    env.fake("gemini", raises(json!([subtracts("P3")])));
    env.fake("qwen", raises(json!([subtracts("P3")])));
    env.fake("claude", judge_all_valid(&["F1"]));
    let run = three(
        &env,
        &[
            "--fail-on",
            "p1",
            "--consensus",
            "majority",
            "--format",
            "json",
        ],
    )
    .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    let f1 = &s["findings"][0];
    assert_eq!(f1["severity"], "P1", "{s}");
    assert_eq!(f1["votes"]["raised"], 3);
    assert_eq!(f1["votes"]["counted"], false, "{s}");
    let run = three(
        &env,
        &[
            "--fail-on",
            "p3",
            "--consensus",
            "majority",
            "--format",
            "json",
        ],
    )
    .fails(1);
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["gate"]["blocking"], json!(["F1"]), "{s}");
}
