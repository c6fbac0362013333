//! The reviewer owns its words, end to end with the fake agent in real repositories: a finding the
//! author's judge disputes gates until the reviewer withdraws it (or a trusted judge decides), the
//! hook's one round keeps a disputed blocker, the repair turn goes to the reviewer and is checked
//! both ways, the judge's letter is heard, and the gate holds both ways over reviewers' answers in
//! many shapes.

use serde_json::{json, Value};

use crate::common::{Run, TestEnv};

fn setup() -> TestEnv {
    TestEnv::with_subtraction_bug()
}

fn review(env: &TestEnv, args: &[&str]) -> Run {
    env.run_from_claude(args)
}

/// A judge that rules on nothing and gives no letter: every finding stands as raised.
const QUIET_JUDGE: &str =
    "```json\n{\"classifications\": [], \"added\": [], \"reason\": \"nothing to add\"}\n```";

/// A review answer in the protocol's schema.
fn schema(verdict: &str, findings: Value) -> String {
    format!(
        "```json\n{}\n```",
        json!({"verdict": verdict, "summary": "s", "findings": findings})
    )
}

fn blocker(title: &str, body: &str) -> Value {
    json!({"severity": "P1", "title": title, "file": "lib.rs", "start_line": 2, "end_line": 2,
        "body": body, "action": "fix it"})
}

/// A crash and code execution, both P1, both in lib.rs.
fn two_blockers() -> String {
    schema(
        "reject",
        json!([
            blocker(
                "Crash on overflow in add",
                "a - b overflows and panics in debug builds"
            ),
            blocker(
                "Code execution through the config loader",
                "the loader evaluates the file it reads"
            ),
        ]),
    )
}

/// A judge's answer: `(id, verdict)` rulings and a letter.
fn judged(rulings: &[(&str, &str)], letter: &str) -> Value {
    let list: Vec<Value> = rulings
        .iter()
        .map(|(id, v)| json!({"id": id, "verdict": v, "severity": null, "reason": format!("{id}: the author says {v}")}))
        .collect();
    json!({"answer": format!("```json\n{}\n```", json!({"classifications": list, "added": [],
        "recommendation": letter, "reason": "the judge's view"}))})
}

fn json_of(run: &Run) -> Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}\n{}\n{}", run.stdout, run.stderr))
}

#[test]
fn ruling_every_blocker_invalid_does_not_pass_while_the_reviewer_holds_them() {
    for trust in [false, true] {
        let env = setup();
        let holds = format!(
            "Nothing new in this version.\n\n{}\n\n## Disputed findings\n- F1: hold — `a - b` \
             still overflows for i32::MIN, run add(i32::MIN, 1)\n- F2: hold — the loader \
             still calls eval on the file\n",
            schema("revise", json!([]))
        );
        env.fake(
            "codex",
            json!([{"answer": two_blockers()}, {"answer": holds}]),
        );
        let invalid = judged(&[("F1", "invalid"), ("F2", "invalid")], "A");
        env.fake(
            "claude",
            json!([invalid, {"answer": "Neither is real."}, invalid, {"answer": "Still not."}]),
        );
        let mut args = vec!["--max-rounds", "3", "--fail-on", "p1", "--format", "json"];
        if trust {
            args.push("--trust-judge");
        }
        let run = review(&env, &args);
        let run = if trust { run.ok() } else { run.fails(1) };
        let s = json_of(&run);
        // Round 1 did not end the review: the disputed blockers went back to the reviewer.
        assert!(s["rounds"].as_u64().unwrap() >= 2, "{s:#}");
        let h = &s["judge_history"][0];
        assert_eq!(
            (&h["rubric"], &h["judge"], &h["choice"], &h["from"]),
            (&json!("A"), &json!("A"), &json!("D"), &json!("disputes")),
            "{s:#}"
        );
        let second = &env.fake_calls("codex")[1]["prompt"];
        let second = second.as_str().unwrap();
        assert!(
            second.contains("DISPUTED FINDINGS") && second.contains("F1: the author says invalid"),
            "{second}"
        );
        assert_eq!(s["gate"]["trust_judge"].as_bool().unwrap_or(false), trust);
        if trust {
            // The judge decided, and the report says so.
            assert_eq!(s["unresolved"], json!([]));
            let notes = s["notes"].to_string();
            assert!(
                notes.contains("F1 (P1) is not counted by the gate: debate.gate.trustJudge"),
                "{notes}"
            );
            let f = &s["findings"][0]["dispute"];
            assert_eq!(f["counted"], "judge");
        } else {
            let ids: Vec<&str> = s["unresolved"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["id"].as_str().unwrap())
                .collect();
            assert_eq!(ids, ["F1", "F2"], "{s:#}");
            let d = &s["unresolved"][0]["dispute"];
            assert_eq!(d["judge"], "invalid");
            assert_eq!(d["reviewer"], "held");
            assert_eq!(d["counted"], "reviewer");
            assert!(d["reviewer_words"].as_str().unwrap().contains("i32::MIN"));
            assert_eq!(s["converged"], false);
            // Both positions in the other formats too.
            let md = env.run(&["show", "last"]).ok().stdout;
            assert!(
                md.contains("disputed: the judge ruled invalid")
                    && md.contains("the reviewer held it")
                    && md.contains("counted at the reviewer's P1"),
                "{md}"
            );
            let sarif: Value =
                serde_json::from_str(&env.run(&["show", "last", "--format", "sarif"]).ok().stdout)
                    .unwrap();
            let result = &sarif["runs"][0]["results"][0];
            assert_eq!(result["properties"]["dispute"]["reviewer"], "held");
            assert!(result["message"]["text"]
                .as_str()
                .unwrap()
                .contains("disputed"));
            let gh = env.run(&["show", "last", "--format", "github"]).ok().stdout;
            assert!(gh.contains("the reviewer held it"), "{gh}");
        }
    }
}

#[test]
fn the_hooks_one_round_keeps_a_disputed_blocker_in_unresolved_and_the_gate() {
    let env = TestEnv::with_repo();
    env.run(&["hook", "install"]).ok();
    let answer = schema(
        "reject",
        json!([
            {"severity": "P1", "title": "Crash when the file is empty", "file": "a.txt",
             "start_line": 1, "end_line": 1, "body": "the reader indexes byte 0", "action": "check"},
            {"severity": "P1", "title": "Code execution through the loader", "file": "a.txt",
             "start_line": 1, "end_line": 1, "body": "the loader runs what it reads",
             "action": "parse, do not run"}
        ]),
    );
    env.fake("codex", json!({"answer": answer}));
    env.fake(
        "claude",
        judged(&[("F1", "missing-context"), ("F2", "missing-context")], "A"),
    );
    env.write("a.txt", "data\n");
    env.git(&["add", "a.txt"]);
    let run = env.git_run(&["commit", "-q", "-m", "add a"]);
    assert_ne!(run.code, 0, "the commit went through:\n{}", run.stderr);
    assert!(run.stderr.contains("commit blocked"), "{}", run.stderr);
    let last = env.session_ids().remove(0);
    let s = crate::common::read_json(&env.store().join(last).join("summary.json"));
    let unresolved = s["unresolved"].as_array().unwrap();
    assert_eq!(unresolved.len(), 2, "{s:#}");
    for i in unresolved {
        assert_eq!(i["dispute"]["judge"], "missing-context");
        assert_eq!(i["dispute"]["reviewer"], "not asked");
        assert_eq!(i["severity"], "P1");
    }
    assert_eq!(s["gate"]["blocking"], json!(["F1", "F2"]));
    assert!(s["next_actions"].to_string().contains("Address [F1] P1"));
}

#[test]
fn a_committed_gitdebate_cannot_trust_the_judge_but_git_config_can() {
    let env = setup();
    env.fake("codex", json!({"answer": two_blockers()}));
    env.fake(
        "claude",
        judged(&[("F1", "invalid"), ("F2", "invalid")], "A"),
    );
    env.write(".gitdebate", "[debate \"gate\"]\n\ttrustJudge = true\n");
    let run = review(&env, &["--max-rounds", "1", "--fail-on", "p1"]).fails(1);
    assert!(
        run.stderr
            .to_lowercase()
            .contains("ignoring debate.gate.trustjudge"),
        "{}",
        run.stderr
    );
    env.git(&["config", "debate.gate.trustJudge", "true"]);
    let run = review(&env, &["--max-rounds", "1", "--fail-on", "p1"]).ok();
    assert!(run.stdout.contains("trustJudge"), "{}", run.stdout);
    // And the flag undoes it for one run.
    review(
        &env,
        &["--max-rounds", "1", "--fail-on", "p1", "--no-trust-judge"],
    )
    .fails(1);
    // The environment may set it too (the user's own layer).
    env.git(&["config", "--unset", "debate.gate.trustJudge"]);
    env.run_full(
        &["--max-rounds", "1", "--fail-on", "p1"],
        "",
        &[
            ("GIT_DEBATE_LAUNCHER", Some("claude")),
            ("GIT_DEBATE_GATE_TRUST_JUDGE", Some("true")),
        ],
    )
    .ok();
}

/// A reviewer that answers in prose with two concerns and no level, and answers a repair prompt
/// with `restated`.
fn prose_reviewer(env: &TestEnv, restated: &Value) {
    let prose = "The helper in lib.rs now subtracts its second argument at line 2, so every \
total computed with it comes out wrong.\n\nSeparately, the retry loop in worker.rs never gives \
up when the queue keeps failing.\n";
    env.fake(
        "codex",
        json!({"answer": prose, "when": [{"contains": "Below is your own answer",
            "answer": format!("```json\n{restated}\n```")}]}),
    );
}

#[test]
fn a_repair_that_drops_or_invents_a_finding_is_caught_and_counted_in_every_format() {
    let env = setup();
    prose_reviewer(
        &env,
        &json!({"verdict": "approve", "summary": "s", "findings": [
            {"severity": "P3", "title": "The helper subtracts its second argument", "file": "lib.rs",
             "start_line": 2, "end_line": null, "body": "totals come out wrong", "action": ""},
            {"severity": "P1", "title": "SQL injection in the login form", "file": null,
             "start_line": null, "end_line": null, "body": "", "action": ""}]}),
    );
    env.fake("claude", json!({"answer": QUIET_JUDGE}));
    let run = review(
        &env,
        &["--max-rounds", "1", "--fail-on", "p2", "--format", "json"],
    )
    .fails(1);
    let s = json_of(&run);
    let findings = s["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2, "{s:#}");
    // Most severe first: the finding of unknown severity before the P3.
    assert_eq!(findings[1]["source"], "repair");
    assert_eq!(findings[1]["severity"], "P3");
    // The retry loop the restatement dropped stays, of unknown severity, and trips the gate.
    assert!(findings[0]["body"].as_str().unwrap().contains("retry loop"));
    assert_eq!(findings[0]["severity"], "unclassified");
    assert!(!s.to_string().contains("SQL injection in the login form\""));
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    let r1: Value =
        serde_json::from_slice(&std::fs::read(dir.join("round-1.json")).unwrap()).unwrap();
    let repair = &r1["repairs"][0];
    assert_eq!(repair["by_reviewer"], true);
    assert_eq!(repair["invented"].as_array().unwrap().len(), 1);
    assert_eq!(repair["uncovered"], 1);
    // The restatement went to the reviewer, with its own answer and no diff.
    let calls = env.fake_calls("codex");
    assert_eq!(calls.len(), 2);
    let repair_prompt = calls[1]["prompt"].as_str().unwrap();
    assert!(repair_prompt.contains("every total computed"));
    assert!(!repair_prompt.contains("a - b"), "{repair_prompt}");
    assert!(
        env.fake_calls("claude").iter().all(|c| !c["prompt"]
            .as_str()
            .unwrap()
            .contains("Below is a code reviewer")),
        "the author restated nothing"
    );
    // Counted in every format's notes.
    let said = "1 not in the answer and dropped";
    assert!(s["notes"].to_string().contains(said), "{s:#}");
    assert!(env.run(&["show", "last"]).ok().stdout.contains(said));
    let sarif = env.run(&["show", "last", "--format", "sarif"]).ok().stdout;
    assert!(sarif.contains(said));
    assert!(env
        .run(&["show", "last", "--format", "github"])
        .ok()
        .stdout
        .contains(said));
}

#[test]
fn an_honest_repair_turns_every_unclassified_finding_into_a_classified_one() {
    let env = setup();
    prose_reviewer(
        &env,
        &json!({"verdict": "revise", "summary": "s", "findings": [
            {"severity": "P1", "title": "The helper subtracts its second argument", "file": "lib.rs",
             "start_line": 2, "end_line": null, "body": "every total comes out wrong",
             "action": "add"},
            {"severity": "P2", "title": "The retry loop never gives up", "file": null,
             "start_line": null, "end_line": null, "body": "when the queue keeps failing",
             "action": "cap it"}]}),
    );
    env.fake("claude", json!({"answer": QUIET_JUDGE}));
    let run = review(
        &env,
        &["--max-rounds", "1", "--fail-on", "p1", "--format", "json"],
    )
    .fails(1);
    let s = json_of(&run);
    let levels: Vec<&str> = s["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["severity"].as_str().unwrap())
        .collect();
    assert_eq!(levels, ["P1", "P2"], "{s:#}");
    assert_eq!(s["gate"]["blocking"], json!(["F1"]));
}

#[test]
fn a_restatement_as_approval_of_a_blocker_answer_is_refused() {
    for normalizer in ["reviewer", "author"] {
        let env = setup();
        let approve = format!(
            "```json\n{}\n```",
            json!({"verdict": "approve", "summary": "fine", "findings": []})
        );
        env.fake(
            "codex",
            json!({"answer": "Running this against production would wipe the users table: \
                   `add` is called by the cleanup job with a negative count. This is a blocker.",
                   "when": [{"contains": "Below is your own answer", "answer": approve}]}),
        );
        env.fake(
            "claude",
            json!({"answer": QUIET_JUDGE, "when": [{"contains": "Below is a code reviewer's answer",
                "answer": approve}]}),
        );
        let run = review(
            &env,
            &[
                "--max-rounds",
                "1",
                "--fail-on",
                "p1",
                "--format",
                "json",
                "--normalizer",
                normalizer,
            ],
        )
        .fails(1);
        let s = json_of(&run);
        assert!(
            s["unresolved"][0]["body"]
                .as_str()
                .unwrap()
                .contains("wipe the users table"),
            "{normalizer}: {s:#}"
        );
    }
}

#[test]
fn the_judges_e_stops_without_a_compromise_and_its_c_is_not_turned_into_b() {
    let env = setup();
    let p2 = schema(
        "revise",
        json!([{"severity": "P2", "title": "Rename add", "file": "lib.rs", "start_line": 1,
            "end_line": 1, "body": "the name hides the subtraction", "action": "rename it"}]),
    );
    env.fake("codex", json!({"answer": p2}));
    env.fake("claude", judged(&[("F1", "valid")], "E"));
    let s = json_of(&review(&env, &["--max-rounds", "3", "--format", "json"]).ok());
    assert_eq!(s["rounds"], 1, "{s:#}");
    assert_eq!(s["final_decision"], "Stopped");
    let h = &s["judge_history"][0];
    assert_eq!((&h["rubric"], &h["choice"]), (&json!("C"), &json!("E")));
    assert_eq!(
        env.fake_calls("claude").len(),
        1,
        "no compromise was written"
    );

    let env = setup();
    env.fake(
        "codex",
        json!({"answer": schema("revise", json!([blocker("Subtraction in add", "add returns a - b")]))}),
    );
    env.fake(
        "claude",
        json!([judged(&[("F1", "valid")], "C"), {"answer": "fn add(a: i32, b: i32) -> i32 { a + b }"}]),
    );
    let s = json_of(&review(&env, &["--max-rounds", "1", "--format", "json"]).ok());
    let h = &s["judge_history"][0];
    assert_eq!(
        (&h["rubric"], &h["choice"], &h["from"]),
        (&json!("B"), &json!("C"), &json!("judge"))
    );
    assert_eq!(s["final_decision"], "Compromise");
    assert!(s.get("final_patch").is_none(), "{s:#}");
}

/// The corpus the gate table reads, wherever it is kept.
fn corpus() -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    ["answers/tuned/dev-w3", "answers-w3-dev"]
        .iter()
        .map(|p| root.join(p))
        .find(|p| p.is_dir())
        .expect("the dev-w3 answer corpus")
}

/// Answers of the corpus that raise a P0 or P1 (the `.expected.json` says so).
const BLOCKERS: &[&str] = &[
    "amazon-q/summary-severity",
    "bugbot/two-issues",
    "chat-es/critico-menor",
    "chat-zh/yanzhong-qingwei",
    "coderabbit/korean-critical",
    "codex/review-p1-lines",
    "cubic/p1-violations",
    "gemini-code-assist/code-review-priorities",
    "greptile/confidence-two",
    "qodo/code-review-by-qodo",
    "claude/prose-blocker",
    "chat-markdown/injection-refusal",
];

/// Answers of the corpus that approve and raise nothing.
const APPROVALS: &[&str] = &[
    "amazon-q/clean",
    "bito/actionable-zero",
    "bugbot/no-bugs",
    "chat-json/approve-true",
    "chat-markdown/lgtm-short",
    "codex/exec-clean",
    "copilot/no-comments",
    "cubic/no-issues",
    "gemini-code-assist/no-feedback",
    "greptile/five-no-comments",
];

/// Runs each answer of `names` (in `dir`) through a one-round review gated at `fail_on`, and
/// returns those whose exit code is not `want`.
fn gate_table(dir: &std::path::Path, names: &[&str], fail_on: &str, want: i32) -> Vec<String> {
    let env = setup();
    env.fake("claude", json!({"answer": QUIET_JUDGE}));
    let mut wrong = Vec::new();
    for name in names {
        let answer = std::fs::read_to_string(dir.join(format!("{name}.md"))).unwrap();
        env.fake("codex", json!({"answer": answer}));
        let run = review(&env, &["--max-rounds", "1", "--fail-on", fail_on]);
        if run.code != want {
            wrong.push(format!(
                "{name}: exit {} (want {want})\n{}",
                run.code, run.stdout
            ));
        }
    }
    wrong
}

/// Approvals in Spanish and Chinese, which the reader's vocabulary does not hold yet.
const APPROVALS_IN_OTHER_LANGUAGES: &[&str] = &["chat-es/aprobado", "chat-zh/tongguo"];

#[test]
fn the_gate_holds_both_ways_over_reviewers_answers() {
    let dir = corpus();
    let mut wrong = gate_table(&dir, BLOCKERS, "p1", 1);
    wrong.extend(gate_table(&dir, APPROVALS, "p1", 0));
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn approvals_in_other_languages_pass_the_gate() {
    let wrong = gate_table(&corpus(), APPROVALS_IN_OTHER_LANGUAGES, "p1", 0);
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

/// Seven answers that raise a problem in a shape that could hide it (`tests/fixtures/bypass/`).
const BYPASSES: &[&str] = &[
    "approved-no",
    "ship-it-absolutely-not",
    "p1-then-json-approve",
    "json-reject-no-findings",
    "json-finding-without-title",
    "syntax-fine-but-rce",
    "quoted-injection-refused",
];

#[test]
fn answers_that_could_hide_a_problem_still_fail_the_gate() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bypass");
    let wrong = gate_table(&dir, BYPASSES, "p2", 1);
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn a_disputed_finding_the_reviewer_holds_at_a_higher_level_gates_at_it() {
    let env = setup();
    // A disputed blocker keeps the loop going; the reviewer then holds the P2 beside it at P0.
    let first = schema(
        "revise",
        json!([
            blocker("Crash on overflow in add", "a - b overflows"),
            {"severity": "P2", "title": "Cells are written unescaped", "file": "lib.rs",
                "start_line": 2, "end_line": 2, "body": "a cell starting with = runs as a \
                formula", "action": "prefix it"}
        ]),
    );
    let raised = format!(
        "{}\n\n## Disputed findings\n- F1: hold — `a - b` still overflows for i32::MIN\n- F2 \
         stands, P0: the new share link sends the file to other tenants, so the formula runs \
         on their machines\n",
        schema("reject", json!([]))
    );
    env.fake("codex", json!([{"answer": first}, {"answer": raised}]));
    let invalid = judged(&[("F1", "invalid"), ("F2", "invalid")], "A");
    env.fake("claude", json!([invalid, {"answer": "Neither is real."}]));
    let s = json_of(
        &review(
            &env,
            &["--max-rounds", "2", "--fail-on", "p1", "--format", "json"],
        )
        .fails(1),
    );
    let f2 = s["unresolved"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["id"] == "F2")
        .unwrap_or_else(|| panic!("{s:#}"));
    assert_eq!(f2["severity"], "P0", "{s:#}");
}
