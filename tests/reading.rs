//! How answers are read, end to end: the schema asked of the CLIs that enforce one, the fallback
//! when a CLI does not know the flag, blockers in foreign formats failing the gate, approval as
//! a verdict, the normaliser and the raw fallback, an unreadable judge, and "not evaluated"
//! visible in every output format.

use serde_json::{json, Value};

use crate::common::{read_json, Run, TestEnv};

fn setup() -> TestEnv {
    TestEnv::with_subtraction_bug()
}

fn review(env: &TestEnv, args: &[&str]) -> Run {
    env.run_from_claude(args)
}

fn session(run: &Run) -> std::path::PathBuf {
    if let Ok(v) = serde_json::from_str::<Value>(&run.stdout) {
        if let Some(d) = v["session_dir"].as_str() {
            return d.into();
        }
    }
    let line = run
        .stdout
        .lines()
        .chain(run.stderr.lines())
        .find_map(|l| l.strip_prefix("session: "))
        .unwrap_or_else(|| panic!("no session line:\n{}\n{}", run.stdout, run.stderr));
    std::path::PathBuf::from(line.trim())
}

fn round(run: &Run, n: u32) -> Value {
    read_json(&session(run).join(format!("round-{n}.json")))
}

/// The judge says nothing useful but is readable: every finding unruled, rubric decides.
const QUIET_JUDGE: &str = "```json\n{\"classifications\": [], \"added\": [], \"recommendation\": \"D\", \"reason\": \"\"}\n```";

#[test]
fn the_cli_schema_is_asked_for_and_its_object_is_the_answer() {
    let env = setup();
    // claude reviews (the author is codex): it gets --json-schema and answers with the object.
    env.fake(
        "claude",
        json!({"answer": "ignored when the schema object is there", "structured": {
            "verdict": "revise", "summary": "s", "findings": [{"severity": "P1",
            "title": "Subtraction instead of addition", "file": "lib.rs", "start_line": 2,
            "end_line": null, "body": "add() returns a - b", "action": "return a + b"}]}}),
    );
    env.fake(
        "codex",
        json!({"answer": "x", "structured": {"classifications": [{"id": "F1", "verdict": "valid",
            "severity": null, "reason": "true"}], "added": [], "recommendation": "B", "reason": "r"}}),
    );
    let run = env
        .run_full(
            &[
                "--author",
                "codex",
                "--reviewer",
                "claude",
                "--max-rounds",
                "1",
                "--skip-materialize-opposite",
                "--format",
                "json",
            ],
            "",
            &[],
        )
        .ok();
    let r: Value = serde_json::from_str(&run.stdout).unwrap();
    let f = &r["findings"][0];
    assert_eq!(f["source"], "schema");
    assert_eq!(f["location"]["path"], "lib.rs");
    assert_eq!(f["location"]["check"], "verified");
    assert_eq!(f["judged"], "valid");
    // The schema went on argv as JSON, without the 2020-12 `$schema` claude ignores silently.
    let calls = env.fake_calls("claude");
    let argv: Vec<&str> = calls[0]["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let at = argv
        .iter()
        .position(|a| *a == "--json-schema")
        .expect("schema flag");
    let schema: Value = serde_json::from_str(argv[at + 1]).unwrap();
    assert!(schema.get("$schema").is_none());
    assert!(schema["properties"]["findings"].is_object());
    // codex judged with its schema in a file that existed during the call only.
    let judge = &env.fake_calls("codex")[0];
    let file: Value =
        serde_json::from_str(judge["schema_file"].as_str().expect("file read")).unwrap();
    assert!(file["properties"]["classifications"].is_object());
    let argv: Vec<&str> = judge["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let path = argv[argv.iter().position(|a| *a == "--output-schema").unwrap() + 1];
    assert!(!std::path::Path::new(path).exists(), "{path} left behind");
    assert_eq!(*argv.last().unwrap(), "-");
    let rr = round(&run, 1);
    assert_eq!(rr["calls"][0]["output"]["mode"], "schema");
    assert_eq!(rr["calls"][0]["read"], "schema");
}

#[test]
fn an_older_cli_without_the_schema_flag_falls_back_to_the_prompt_and_says_so_once() {
    let env = setup();
    env.fake(
        "claude",
        json!({"no_schema_flag": true, "answer": "## P1 - Must Fix\n- Subtraction instead of addition — lib.rs:2 — wrong sign\n"}),
    );
    env.fake("codex", json!({"answer": QUIET_JUDGE}));
    let run = env.run_full(
        &[
            "--author",
            "codex",
            "--reviewer",
            "claude",
            "--max-rounds",
            "2",
            "--fail-on",
            "p1",
        ],
        "",
        &[],
    );
    let run = run.fails(1);
    assert_eq!(
        run.stderr
            .matches("claude does not accept --json-schema")
            .count(),
        1,
        "{}",
        run.stderr
    );
    let calls = env.fake_calls("claude");
    // Round 1: with the flag (refused), without; round 2: without only (remembered).
    let flagged: Vec<bool> = calls
        .iter()
        .map(|c| {
            c["argv"]
                .as_array()
                .unwrap()
                .iter()
                .any(|a| a == "--json-schema")
        })
        .collect();
    assert_eq!(&flagged[..3], [true, false, false]);
    let r1 = round(&run, 1);
    assert_eq!(r1["findings"][0]["severity"], "P1");
    assert_eq!(r1["calls"][0]["output"]["fell_back"], true);
    assert!(r1["notes"][0]
        .as_str()
        .unwrap()
        .contains("does not accept --json-schema"));
}

/// Reviewer answers in the formats of other tools, each with a blocker in it.
const FOREIGN_BLOCKERS: &[(&str, &str)] = &[
    (
        "codex connector",
        "### 💡 Codex Review\n\nhttps://github.com/acme/app/blob/abc1234/lib.rs#L2\n**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange?style=flat)</sub></sub>  Return the sum, not the difference**\n\n`add` subtracts its second argument.\n\nUseful? React with 👍 / 👎.\n",
    ),
    (
        "gemini code assist",
        "### lib.rs (2)\n\n![high](https://www.gstatic.com/codereviewagent/high-priority.svg)\n\nThe function subtracts where it should add, so every caller gets a wrong total.\n",
    ),
    (
        "coderabbit",
        "**Actionable comments posted: 1**\n\n<details>\n<summary>lib.rs (1)</summary><blockquote>\n\n`2-2`: _⚠️ Potential issue_ | _🔴 Critical_\n\n**Wrong operator in `add`.**\n\nIt returns `a - b`.\n\n</blockquote></details>\n",
    ),
    (
        "greptile",
        "<h3>Greptile Summary</h3>\n\nChanges arithmetic.\n\n---\n\n**lib.rs:2**\n\n<a href=\"#\"><img alt=\"P1\" src=\"https://greptile-static-assets.s3.amazonaws.com/badges/p1.svg?v=9\" align=\"top\"></a> **Sign error in add**\n\nThe result is negated for the second operand.\n",
    ),
    (
        "bugbot",
        "### Addition Became Subtraction\n\n**High Severity**\n\n<!-- DESCRIPTION START -->\n`add` now computes `a - b`.\n<!-- DESCRIPTION END -->\n\n<!-- LOCATIONS START\nlib.rs#L2-L2\nLOCATIONS END -->\n",
    ),
    (
        "plain JSON",
        "```json\n{\"issues\": [{\"severity\": \"critical\", \"file\": \"lib.rs\", \"line\": 2, \"message\": \"add subtracts\"}]}\n```\n",
    ),
    (
        "conventional comments",
        "lib.rs:2\n> + a - b\n\n**issue (blocking):** `add` returns the difference of its arguments.\n",
    ),
    (
        "XML tags",
        "<review><issues><issue severity=\"major\" file=\"lib.rs\" line=\"2\"><title>add subtracts</title></issue></issues></review>\n",
    ),
    (
        "JSON Lines",
        "{\"sev\":\"P0\",\"path\":\"lib.rs\",\"start_line\":\"2\",\"msg\":\"add subtracts\"}\n{\"type\":\"verdict\",\"approve\":false}\n",
    ),
];

#[test]
fn a_blocker_in_a_foreign_format_fails_the_gate() {
    for (name, answer) in FOREIGN_BLOCKERS {
        let env = setup();
        env.fake("codex", json!({"answer": answer}));
        env.fake("claude", json!({"answer": QUIET_JUDGE}));
        let run = review(
            &env,
            &["--max-rounds", "1", "--fail-on", "p1", "--format", "json"],
        );
        let run = run.fails(1);
        let r: Value = serde_json::from_str(&run.stdout).unwrap();
        let f = &r["findings"][0];
        assert!(
            ["P0", "P1"].contains(&f["severity"].as_str().unwrap()),
            "{name}: {f}"
        );
        assert_eq!(f["location"]["path"], "lib.rs", "{name}: {f}");
        assert_eq!(f["location"]["start_line"], 2, "{name}: {f}");
        assert_eq!(f["location"]["check"], "verified", "{name}: {f}");
        assert!(r["gate"]["failed"].as_bool().unwrap(), "{name}");
    }
}

#[test]
fn an_approval_word_next_to_a_problem_is_not_agreement() {
    let env = setup();
    env.fake(
        "codex",
        json!({"answer": "LGTM overall, but `add` in lib.rs:2 will return the wrong value for every call: it subtracts."}),
    );
    env.fake("claude", json!({"answer": QUIET_JUDGE}));
    let run = review(
        &env,
        &["--max-rounds", "1", "--fail-on", "p1", "--format", "json"],
    )
    .fails(1);
    let r: Value = serde_json::from_str(&run.stdout).unwrap();
    let r1 = round(&run, 1);
    assert_eq!(r1["agreement"], false);
    assert_eq!(r["findings"].as_array().unwrap().len(), 1);
    assert_eq!(r["findings"][0]["location"]["path"], "lib.rs");
    // And a real approval is agreement, with no judge call at all.
    let env = setup();
    env.fake(
        "codex",
        json!({"answer": "No issues found. The change is small and correct."}),
    );
    env.fake("claude", json!({"answer": QUIET_JUDGE}));
    let run = review(&env, &["--max-rounds", "1", "--fail-on", "p3"]).ok();
    assert!(round(&run, 1)["agreement"].as_bool().unwrap());
    assert!(env.fake_calls("claude").is_empty());
}

/// A prose answer with no structure: restated by the reviewer (codex) or, when named, the author
/// (claude).
const PROSE: &str = "I read the change to the arithmetic helper. The helper in lib.rs now subtracts its second argument at line 2, so totals computed with it come out wrong. Separately, nothing guards against overflow when both numbers are large.";

/// A review whose author (claude), named as the normaliser, restates the reviewer's answer as
/// `restated` when asked, then judges quietly; gated at P3, so any finding fails it.
fn normalised(env: &TestEnv, restated: &Value) -> (Run, Value) {
    env.fake(
        "claude",
        json!([{"answer": format!("```json\n{restated}\n```")}, {"answer": QUIET_JUDGE}]),
    );
    let run = review(
        env,
        &[
            "--max-rounds",
            "1",
            "--fail-on",
            "p3",
            "--format",
            "json",
            "--normalizer",
            "author",
        ],
    )
    .fails(1);
    let r: Value = serde_json::from_str(&run.stdout).unwrap();
    (run, r)
}

#[test]
fn an_unstructured_answer_is_restated_by_the_normaliser_when_grounded() {
    let env = setup();
    env.fake("codex", json!({"answer": PROSE}));
    let restated = json!({"verdict": "revise", "summary": "s", "findings": [
        {"severity": "P1", "title": "The helper subtracts its second argument", "file": "lib.rs",
         "start_line": 2, "end_line": null, "body": "totals come out wrong", "action": ""},
        {"severity": "P2", "title": "Nothing guards against overflow", "file": null,
         "start_line": null, "end_line": null, "body": "large numbers", "action": ""}]});
    let (run, r) = normalised(&env, &restated);
    let findings = r["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2, "{r:#}");
    assert!(findings.iter().all(|f| f["source"] == "normaliser"));
    // The answer stated no severity: none is invented, and unknown severity fails every gate.
    assert!(findings.iter().all(|f| f["severity"] == "unclassified"));
    assert_eq!(findings[0]["location"]["check"], "verified");
    let prompt = env.fake_calls("claude")[0]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(prompt.contains(PROSE), "the normaliser sees the raw answer");
    let r1 = round(&run, 1);
    assert_eq!(r1["calls"][1]["purpose"], "normalize");
    assert!(r1["notes"][0].as_str().unwrap().contains("restated it"));
    assert_eq!(r1["repairs"][0]["by_reviewer"], false);
    // Text output says "severity unknown", not a pretend level.
    let text = review(&env, &["--max-rounds", "1", "--normalizer", "author"]).ok();
    assert!(text.stdout.contains("severity unknown"), "{}", text.stdout);
}

#[test]
fn an_ungrounded_restatement_is_refused_and_the_raw_answer_kept_in_full() {
    let env = setup();
    let long_tail = "The reasoning continues at length. ".repeat(200);
    let answer = format!("{PROSE}\n\n{long_tail}");
    env.fake("codex", json!({"answer": answer}));
    let invented = json!({"verdict": "revise", "summary": "s", "findings": [
        {"severity": "P3", "title": "SQL injection in the login handler", "file": "src/login.rs",
         "start_line": 9, "end_line": null, "body": "", "action": ""}]});
    let (_, r) = normalised(&env, &invented);
    let findings = r["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2, "{r:#}");
    assert!(findings
        .iter()
        .all(|f| f["source"] == "raw" && f["severity"] == "unclassified"));
    // Nothing cut: the whole block, far over 4,000 characters, is the finding's body.
    assert!(findings[1]["body"].as_str().unwrap().len() > 6000);
    assert!(!r.to_string().contains("SQL injection"));
    let note = r["notes"][0].as_str().unwrap();
    assert!(
        note.contains("not used") && note.contains("unclassified"),
        "{note}"
    );
}

#[test]
fn an_unreadable_judge_is_stated_like_a_failed_one() {
    let env = setup();
    env.fake(
        "codex",
        json!({"answer": "## P2 - Should Fix\n- Subtraction — lib.rs:2 — wrong — use +\n"}),
    );
    env.fake(
        "claude",
        json!({"answer": "Hmm, interesting change. Let me think about it another time."}),
    );
    let run = review(&env, &["--max-rounds", "1", "--format", "json"]).ok();
    let r: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(
        r["notes"].as_array().unwrap().iter().any(|n| n
            .as_str()
            .unwrap()
            .contains("the judge's answer could not be read; the rubric was applied")),
        "{r:#}"
    );
    assert_eq!(r["findings"][0]["judged"], "not ruled");
}

#[test]
fn not_evaluated_is_visible_in_every_format() {
    for format in ["text", "markdown", "json", "sarif", "rdjson", "github"] {
        let env = setup();
        env.fake(
            "codex",
            json!({"error": {"status": 401, "message": "bad key"}}),
        );
        env.fake("claude", json!({"answer": QUIET_JUDGE}));
        let run = review(&env, &["--max-rounds", "1", "--format", format]).fails(3);
        let said = format!("{}{}", run.stdout, run.stderr);
        match format {
            "json" => {
                let r: Value = serde_json::from_str(&run.stdout).unwrap();
                assert_eq!(r["evaluated"], false);
            }
            "sarif" => {
                let v: Value = serde_json::from_str(&run.stdout).unwrap();
                crate::ci::valid_sarif(&v);
                let inv = &v["runs"][0]["invocations"][0];
                assert_eq!(inv["executionSuccessful"], false);
                assert!(inv["toolExecutionNotifications"][0]["message"]["text"]
                    .as_str()
                    .unwrap()
                    .contains("not evaluated"));
            }
            "github" => assert!(
                run.stdout
                    .starts_with("::error title=git debate: not evaluated::"),
                "{}",
                run.stdout
            ),
            _ => {}
        }
        if format != "text" {
            assert!(
                run.stderr.contains("the review was not evaluated (exit 3)"),
                "{format}: {}",
                run.stderr
            );
        }
        assert!(
            said.contains("bad key") || said.contains("not authenticated"),
            "{format}: {said}"
        );
    }
}

#[test]
fn the_schemas_are_printed_as_shipped() {
    let env = TestEnv::new();
    for (name, file) in [
        ("cr", "cr.json"),
        ("peer-review", "peer-review.json"),
        ("judge", "judge.json"),
    ] {
        let run = env.run(&["schema", name]).ok();
        let shipped = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("references/schemas")
                .join(file),
        )
        .unwrap();
        assert_eq!(run.stdout, shipped);
        let v: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(v["type"], "object");
    }
    env.run(&["schema", "nonsense"]).fails(2);
}

#[test]
fn the_normaliser_can_be_the_reviewer_and_a_clone_cannot_make_it_a_program() {
    let env = setup();
    let restated = json!({"verdict": "revise", "summary": "s", "findings": [
        {"severity": "P1", "title": "The helper subtracts its second argument", "file": "lib.rs",
         "start_line": 2, "end_line": null, "body": "", "action": ""}]});
    env.fake(
        "codex",
        json!([{"answer": PROSE}, {"answer": format!("```json\n{restated}\n```")}]),
    );
    env.fake("claude", json!({"answer": QUIET_JUDGE}));
    let run = review(
        &env,
        &[
            "--max-rounds",
            "1",
            "--normalizer",
            "reviewer",
            "--format",
            "json",
        ],
    )
    .ok();
    let r: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(r["findings"][0]["source"], "repair");
    assert_eq!(
        env.fake_calls("codex").len(),
        2,
        "the reviewer restated its own answer"
    );
    // A committed .gitdebate naming a program as normaliser is ignored, with a warning.
    env.write(".gitdebate", "[debate]\n\tnormalizer = exec:./evil.sh\n");
    let run = review(&env, &["--dry-run"]).ok();
    assert!(
        run.stderr.contains("ignoring debate.normalizer from"),
        "{}",
        run.stderr
    );
}

/// An answer that names no finding and gives no verdict — here a summary posted before the
/// review — and that its repair turn does not mend, is kept as one finding of unknown severity:
/// a review that did not happen never passes the gate. The same answer with a verdict that
/// clears the change passes.
#[test]
fn an_answer_with_neither_verdict_nor_finding_never_passes() {
    let summary = "## Summary of changes\n\nI am still reviewing this change and will post my \
                   comments shortly. Meanwhile, an overview.\n\n### Highlights\n\n* **Helper**: \
                   `add` in `lib.rs` now takes two numbers.\n* **Tests**: none yet.\n";
    let env = setup();
    env.fake("codex", json!({"answer": summary}));
    env.fake("claude", json!({"answer": QUIET_JUDGE}));
    let run = review(
        &env,
        &["--max-rounds", "1", "--fail-on", "p1", "--format", "json"],
    )
    .fails(1);
    let r: Value = serde_json::from_str(&run.stdout).unwrap();
    let findings = r["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{r:#}");
    assert_eq!(findings[0]["severity"], "unclassified");
    assert!(findings[0]["body"]
        .as_str()
        .unwrap()
        .contains("post my comments shortly"));
    let notes = round(&run, 1)["notes"].to_string();
    assert!(
        notes.contains("gives no verdict and names no finding"),
        "{notes}"
    );
    // With a verdict that clears the change, the same summary is an approval.
    let env = setup();
    env.fake(
        "codex",
        json!({"answer": format!("{summary}\nVerdict: approve\n")}),
    );
    env.fake("claude", json!({"answer": QUIET_JUDGE}));
    review(&env, &["--max-rounds", "1", "--fail-on", "p1"]).ok();
}

#[test]
fn a_later_rounds_answer_with_neither_verdict_nor_finding_never_passes() {
    // Round 1 raises a P1 the author's judge rules invalid; in round 2 the reviewer answers
    // without a verdict, a finding or a word on the dispute.
    let raised = "```json\n{\"verdict\": \"revise\", \"summary\": \"s\", \"findings\": \
                  [{\"severity\": \"P1\", \"title\": \"Subtraction instead of addition\", \
                  \"file\": \"lib.rs\", \"start_line\": 2, \"end_line\": 2, \"body\": \"a - b\", \
                  \"action\": \"use a + b\"}]}\n```";
    let silent = "I had another look at the new version of `lib.rs`.";
    let env = setup();
    env.fake("codex", json!([{"answer": raised}, {"answer": silent}]));
    let invalid = "```json\n{\"classifications\": [{\"id\": \"F1\", \"verdict\": \"invalid\", \
                   \"severity\": null, \"reason\": \"the author says it is intended\"}], \
                   \"added\": [], \"recommendation\": \"A\", \"reason\": \"r\"}\n```";
    env.fake(
        "claude",
        json!([{"answer": invalid}, {"answer": "Not a bug."}]),
    );
    let run = review(
        &env,
        &["--max-rounds", "2", "--fail-on", "p1", "--format", "json"],
    )
    .fails(1);
    let r: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(r["rounds"], 2, "{r:#}");
    // The answer is kept as a finding of unknown severity: it cannot clear the gate.
    let kept = r["findings"].as_array().unwrap().iter().any(|f| {
        f["severity"] == "unclassified" && f["body"].as_str().unwrap_or("").contains("another look")
    });
    assert!(kept, "{r:#}");
    let notes = round(&run, 2)["notes"].to_string();
    assert!(notes.contains("unclassified"), "{notes}");
}
