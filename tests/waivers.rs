//! Waivers: `git debate waive` records a finding's SARIF fingerprint with a reason in the
//! committed `.gitdebate-waivers`; later reviews show the finding as waived in every format and
//! the gate does not count it, unless the waiver expired or the finding's code changed.

use serde_json::{json, Value};

use crate::common::{read_json, Run, TestEnv};

/// The reviewer finds that `add` subtracts (lib.rs:2); the judge agrees and keeps the original.
fn script(env: &TestEnv) {
    let review = format!(
        "Review.\n\n```json\n{}\n```\n",
        json!({"verdict": "revise", "findings": [{"severity": "P1", "title": "add() subtracts",
            "evidence": "lib.rs:2", "body": "wrong operator", "action": "return a + b"}]})
    );
    env.fake("codex", json!({"answer": review}));
    let judge = "```json\n{\"classifications\": [{\"id\": \"F1\", \"verdict\": \"valid\", \
                 \"severity\": null, \"reason\": \"r\"}], \"added\": [], \
                 \"recommendation\": \"A\", \"reason\": \"r\"}\n```";
    env.fake("claude", json!({"answer": judge}));
}

fn review(env: &TestEnv, extra: &[&str]) -> Run {
    let mut args = vec!["--max-rounds", "1", "--fail-on", "p1"];
    args.extend_from_slice(extra);
    env.run_from_claude(&args)
}

/// A repository whose uncommitted `add` subtracts, reviewed once: the gate fails on F1.
fn reviewed() -> TestEnv {
    let env = TestEnv::with_subtraction_bug();
    script(&env);
    review(&env, &[]).fails(1);
    env
}

fn waivers_file(env: &TestEnv) -> String {
    std::fs::read_to_string(env.repo.join(".gitdebate-waivers")).unwrap_or_default()
}

fn sarif_fingerprint(sarif: &Value) -> String {
    sarif["runs"][0]["results"][0]["partialFingerprints"]["gitDebateFinding/v1"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_waiver_keeps_a_finding_out_of_the_gate_in_every_format() {
    let env = reviewed();
    let sarif: Value =
        serde_json::from_str(&env.run(&["show", "last", "--format", "sarif"]).ok().stdout).unwrap();
    let print = sarif_fingerprint(&sarif);
    let run = env
        .run(&[
            "waive",
            "last:F1",
            "--reason",
            "fixture code, never shipped",
            "--expires",
            "2099-12-31",
        ])
        .ok();
    assert!(run.stdout.contains("recorded in"), "{}", run.stdout);
    let file = waivers_file(&env);
    for part in [
        "[[waiver]]",
        &format!("fingerprint = \"{print}\""),
        "reason = \"fixture code, never shipped\"",
        "by = \"Test Author <author@example.com>\"",
        "expires = \"2099-12-31\"",
        ":F1\"",
        "title = \"add() subtracts\"",
    ] {
        assert!(file.contains(part), "{part} missing:\n{file}");
    }

    let text = review(&env, &[]).ok();
    assert!(
        text.stdout.contains("Waived: 1 (not counted by the gate)"),
        "{}",
        text.stdout
    );
    assert!(
        text.stdout.contains("fixture code, never shipped"),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("1 waived"), "{}", text.stdout);

    let report: Value =
        serde_json::from_str(&review(&env, &["--format", "json"]).ok().stdout).unwrap();
    crate::common::valid_report(&report);
    assert_eq!(report["gate"]["waived"], 1, "{report}");
    assert_eq!(report["gate"]["failed"], false);
    assert!(report["unresolved"].as_array().unwrap().is_empty());
    assert_eq!(
        report["waived"][0]["waiver"]["reason"],
        "fixture code, never shipped"
    );

    let sarif: Value =
        serde_json::from_str(&review(&env, &["--format", "sarif"]).ok().stdout).unwrap();
    crate::ci::valid_sarif(&sarif);
    let s = &sarif["runs"][0]["results"][0]["suppressions"][0];
    assert_eq!(s["kind"], "external", "{sarif}");
    assert!(
        s["justification"]
            .as_str()
            .unwrap()
            .contains("fixture code, never shipped"),
        "{s}"
    );
    assert_eq!(sarif["runs"][0]["properties"]["waived"], 1);

    // Formats with no place for a suppressed finding leave it out.
    let cq: Value =
        serde_json::from_str(&review(&env, &["--format", "codequality"]).ok().stdout).unwrap();
    assert_eq!(cq, json!([]));
    let rd: Value =
        serde_json::from_str(&review(&env, &["--format", "rdjson"]).ok().stdout).unwrap();
    assert!(
        rd.get("diagnostics").is_none_or(|d| d == &json!([])),
        "{rd}"
    );

    let md = review(&env, &["--format", "markdown"]).ok();
    assert!(md.stdout.contains("### Waived"), "{}", md.stdout);
    assert!(md.stdout.contains("1 waived"), "{}", md.stdout);

    let summary = env.root.join("step-summary.md");
    let gh = env
        .run_full(
            &["--max-rounds", "1", "--fail-on", "p1", "--format", "github"],
            "",
            &[
                ("GIT_DEBATE_LAUNCHER", Some("claude")),
                ("GITHUB_STEP_SUMMARY", Some(summary.to_str().unwrap())),
            ],
        )
        .ok();
    assert!(
        gh.stdout.contains("0 unresolved finding(s), 1 waived"),
        "{}",
        gh.stdout
    );
    assert!(!gh.stdout.contains("::error"), "{}", gh.stdout);
    let job = std::fs::read_to_string(&summary).unwrap();
    assert!(job.contains("1 waived"), "{job}");

    // A stored report says the same when shown again.
    let shown: Value =
        serde_json::from_str(&env.run(&["show", "last", "--format", "sarif"]).ok().stdout).unwrap();
    assert_eq!(
        shown["runs"][0]["results"][0]["suppressions"][0]["kind"],
        "external"
    );
}

#[test]
fn an_expired_waiver_stops_applying_with_a_note() {
    let env = reviewed();
    let sarif: Value =
        serde_json::from_str(&env.run(&["show", "last", "--format", "sarif"]).ok().stdout).unwrap();
    env.write(
        ".gitdebate-waivers",
        &format!(
            "[[waiver]]\nfingerprint = \"{}\"\nreason = \"until the rewrite\"\nby = \"A <a@x>\"\n\
             expires = 2020-01-01\n",
            sarif_fingerprint(&sarif)
        ),
    );
    let run = review(&env, &["--format", "json"]).fails(1);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(report.get("waived").is_none(), "{report}");
    assert_eq!(report["gate"]["blocking"][0], "F1");
    assert!(
        report["waiver_notes"][0]
            .as_str()
            .unwrap()
            .contains("expired on 2020-01-01"),
        "{report}"
    );
    let text = review(&env, &[]).fails(1);
    assert!(
        text.stdout.contains("expired on 2020-01-01"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_finding_whose_code_changed_is_not_hidden() {
    let env = reviewed();
    env.run(&["waive", "F1", "--reason", "reviewed by hand"])
        .ok();
    review(&env, &[]).ok();
    // The same title on other code: another fingerprint, so the waiver does not cover it.
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a * b\n}\n");
    let run = review(&env, &["--format", "json"]).fails(1);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(report.get("waived").is_none(), "{report}");
    assert_eq!(report["gate"]["blocking"][0], "F1");
}

#[test]
fn waive_refuses_without_a_reason_and_keeps_other_entries() {
    let env = reviewed();
    for args in [
        vec!["waive", "last:F1"],
        vec!["waive", "last:F1", "--reason", "  "],
    ] {
        let run = env.run(&args).fails(2);
        assert!(
            run.stderr.contains("a waiver needs a reason"),
            "{}",
            run.stderr
        );
    }
    let run = env
        .run(&["waive", "F1", "--reason", "r", "--expires", "2020-01-01"])
        .fails(2);
    assert!(run.stderr.contains("not in the future"), "{}", run.stderr);
    let run = env.run(&["waive", "last:F9", "--reason", "r"]).fails(2);
    assert!(run.stderr.contains("has no finding F9"), "{}", run.stderr);
    assert!(waivers_file(&env).is_empty());
    // An entry written by hand is kept byte for byte when another is appended.
    let mine = "# ours\n[[waiver]]\nfingerprint = 'abc'   # kept\nreason = 'old decision'\n";
    env.write(".gitdebate-waivers", mine);
    env.run(&["waive", "last:F1", "--reason", "new decision"])
        .ok();
    let file = waivers_file(&env);
    assert!(file.starts_with(mine), "{file}");
    assert!(file.contains("reason = \"new decision\""), "{file}");
    // Twice is refused: it is already waived.
    let run = env.run(&["waive", "last:F1", "--reason", "again"]).fails(2);
    assert!(run.stderr.contains("already waived"), "{}", run.stderr);
}

#[test]
fn waivers_lists_active_and_expired_ones() {
    let env = reviewed();
    let none = env.run(&["waivers"]).ok();
    assert!(none.stdout.contains("no waivers"), "{}", none.stdout);
    env.write(
        ".gitdebate-waivers",
        "[[waiver]]\nfingerprint = \"old\"\nreason = \"was fine then\"\nexpires = \"2020-01-01\"\n",
    );
    env.run(&["waive", "last:F1", "--reason", "fine now"]).ok();
    let dry = env.run(&["--dry-run"]).ok();
    assert!(
        dry.stdout
            .contains("waivers:    2 in .gitdebate-waivers (1 expired)"),
        "{}",
        dry.stdout
    );
    let run = env.run(&["waivers"]).ok();
    assert!(
        run.stdout.contains("2 waiver(s), 1 active, 1 expired"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("expired"), "{}", run.stdout);
    assert!(run.stdout.contains("fine now"), "{}", run.stdout);
    let json: Value =
        serde_json::from_str(&env.run(&["waivers", "--format", "json"]).ok().stdout).unwrap();
    let states: Vec<&str> = json
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["expired", "active"]);
}

#[test]
fn a_malformed_waivers_file_is_one_line_naming_the_file_and_line() {
    let env = TestEnv::with_subtraction_bug();
    script(&env);
    env.write(
        ".gitdebate-waivers",
        "[[waiver]]\nreason = \"r\"\nfingerprint = oops\n",
    );
    let run = review(&env, &[]).fails(2);
    let line = run
        .stderr
        .lines()
        .find(|l| l.contains(".gitdebate-waivers:3:"))
        .unwrap_or_else(|| panic!("{}", run.stderr));
    assert!(line.contains("expected a quoted string"), "{line}");
    assert!(env.fake_calls("codex").is_empty(), "no model was called");
    let listed = env.run(&["waivers"]).fails(2);
    assert!(
        listed.stderr.contains(".gitdebate-waivers:3:"),
        "{}",
        listed.stderr
    );
}

/// A waiver is given before the change it waives for: a branch that adds its own waiver is
/// still stopped by the finding; once the waiver is on `main`, the next branch passes.
#[test]
fn a_branch_cannot_waive_its_own_findings() {
    let env = TestEnv::with_repo();
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
    env.commit_all("add");
    env.git(&["checkout", "-q", "-b", "topic"]);
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n");
    env.commit_all("subtract");
    script(&env);
    review(&env, &["--scope", "base:main"]).fails(1);
    env.run(&["waive", "F1", "--reason", "on purpose"]).ok();
    // Only on disk: the branch under review does not carry it yet.
    review(&env, &["--scope", "base:main"]).fails(1);
    env.commit_all("waive F1");
    let run = review(&env, &["--scope", "base:main", "--format", "json"]).fails(1);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(report["gate"]["waived"].is_null(), "{report}");
    assert!(
        report["waiver_notes"][0]
            .as_str()
            .unwrap()
            .contains("only the waivers it had before the change apply"),
        "{report}"
    );
    // The waiver lands on main (reviewed as its own change); a branch from there passes.
    env.git(&["checkout", "-q", "main"]);
    env.git(&["merge", "-q", "--ff-only", "topic"]);
    env.git(&["checkout", "-q", "-b", "next"]);
    env.write("notes.txt", "unrelated\n");
    env.commit_all("notes");
    let run = review(&env, &["--scope", "range:HEAD~2..HEAD", "--format", "json"]).fails(1);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(
        report["gate"]["waived"].is_null(),
        "the range adds the waiver: {report}"
    );
    let run = review(&env, &["--scope", "range:HEAD~1..HEAD", "--format", "json"]).ok();
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["gate"]["waived"], 1, "{report}");
    let dir = report["session_dir"].as_str().unwrap();
    let summary = read_json(&std::path::Path::new(dir).join("summary.json"));
    assert_eq!(summary["waived"][0]["waiver"]["reason"], "on purpose");
}

/// The reviewer's finding on `add` at `line` of lib.rs.
fn script_at(env: &TestEnv, line: u32) {
    let review = format!(
        "Review.\n\n```json\n{}\n```\n",
        json!({"verdict": "revise", "findings": [{"severity": "P1", "title": "add() subtracts",
            "evidence": format!("lib.rs:{line}"), "body": "wrong operator", "action": "use +"}]})
    );
    env.fake("codex", json!({"answer": review}));
}

#[test]
fn moved_code_keeps_its_waiver() {
    let env = TestEnv::with_repo();
    let body = "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n";
    env.write(
        "lib.rs",
        &format!("// one\n// two\n// three\n// four\n{body}"),
    );
    env.commit_all("lib");
    env.write(
        "lib.rs",
        &format!("// one\n// two\n// three\n// four!\n{body}"),
    );
    script(&env);
    script_at(&env, 6);
    review(&env, &[]).fails(1);
    env.run(&["waive", "F1", "--reason", "kept on purpose"])
        .ok();
    // Three lines above it: the same code, four lines further down.
    env.write(
        "lib.rs",
        &format!("use a;\nuse b;\nuse c;\n// one\n// two\n// three\n// four!\n{body}"),
    );
    script_at(&env, 9);
    let run = review(&env, &["--format", "json"]).ok();
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["gate"]["waived"], 1, "{report}");
}
