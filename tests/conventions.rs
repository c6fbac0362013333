//! The conventions of a command-line tool that users expect without reading the manual: `-q`,
//! `-v`, `--color`, and an error said on stderr when the report goes elsewhere.

use serde_json::json;

use crate::common::TestEnv;

fn answered(env: &TestEnv) {
    let review = format!(
        "Review.\n\n```json\n{}\n```\n",
        json!({"verdict": "revise", "findings": [{"severity": "P1", "title": "add() subtracts",
            "evidence": "lib.rs:2", "body": "wrong operator", "action": "use +"}]})
    );
    env.fake("codex", json!({"answer": review}));
    env.fake(
        "claude",
        json!({"answer": "```json\n{\"classifications\": [{\"id\": \"F1\", \"verdict\": \"valid\", \"severity\": null, \"reason\": \"r\"}], \"added\": [], \"recommendation\": \"A\", \"reason\": \"r\"}\n```"}),
    );
}

#[test]
fn quiet_drops_notes_and_keeps_errors() {
    let env = TestEnv::with_repo();
    env.write("docs/design.md", "# Design\n\nUse a queue.\n");
    let loud = env.run(&["docs/design.md", "--dry-run"]).ok();
    assert!(
        loud.stderr.contains("note: reviewing the file"),
        "{}",
        loud.stderr
    );
    let quiet = env.run(&["-q", "docs/design.md", "--dry-run"]).ok();
    assert!(!quiet.stderr.contains("note:"), "{}", quiet.stderr);
    assert!(
        quiet.stdout.contains("source:     file:docs/design.md"),
        "{}",
        quiet.stdout
    );
    // Errors are never quiet; -q and -v together are a contradiction.
    let bad = env.run(&["-q", "--scope", "HEAD~1", "--dry-run"]).fails(2);
    assert!(bad.stderr.contains("did you mean"), "{}", bad.stderr);
    env.run(&["-q", "-v", "--dry-run"]).fails(2);
    // Global: after a subcommand too.
    env.run(&["sessions", "-q"]).ok();
}

#[test]
fn verbose_says_each_model_call_as_it_starts_and_ends() {
    let env = TestEnv::with_subtraction_bug();
    answered(&env);
    let quiet = env.run_from_claude(&["--max-rounds", "1"]).ok();
    assert!(!quiet.stderr.contains("done in"), "{}", quiet.stderr);
    let run = env.run_from_claude(&["-v", "--max-rounds", "1"]).ok();
    let starts = run
        .stderr
        .lines()
        .filter(|l| l.contains("codex · round 1/1"))
        .count();
    let ends = run
        .stderr
        .lines()
        .filter(|l| l.contains("codex · round 1/1") && l.contains("done in"))
        .count();
    assert!(starts >= 2 && ends >= 1, "{}", run.stderr);
}

#[test]
fn color_always_and_never_override_the_terminal_check() {
    let env = TestEnv::with_subtraction_bug();
    answered(&env);
    let piped = env.run_from_claude(&["--max-rounds", "1"]).ok();
    assert!(!piped.stdout.contains('\x1b'), "{}", piped.stdout);
    answered(&env);
    let always = env
        .run_from_claude(&["--max-rounds", "1", "--color", "always"])
        .ok();
    assert!(always.stdout.contains("\x1b[1;31m"), "{}", always.stdout);
    answered(&env);
    let never = env
        .run_env(
            &["--max-rounds", "1", "--color", "never"],
            &[("GIT_DEBATE_LAUNCHER", "claude")],
        )
        .ok();
    assert!(!never.stdout.contains('\x1b'), "{}", never.stdout);
    env.run(&["--color", "sometimes", "--dry-run"]).fails(2);
}

#[test]
fn a_text_report_piped_away_still_says_its_error_on_stderr() {
    let env = TestEnv::with_subtraction_bug();
    env.fake(
        "codex",
        json!({"error": {"status": 500, "message": "the server broke"}}),
    );
    env.fake("claude", json!({"answer": "unused"}));
    let run = env.run_from_claude(&["--max-rounds", "1"]).fails(3);
    assert!(run.stdout.contains("error:"), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("git debate: the review was not evaluated (exit 3)"),
        "{}",
        run.stderr
    );
}

#[test]
fn findings_are_listed_most_severe_first() {
    let env = TestEnv::with_subtraction_bug();
    let finding = |sev: &str, title: &str| json!({"severity": sev, "title": title, "evidence": "lib.rs:2", "body": "b", "action": "a"});
    let review = format!(
        "Review.\n\n```json\n{}\n```\n",
        json!({"verdict": "revise", "findings": [finding("P3", "naming"), finding("P2", "docs"),
            finding("P1", "add() subtracts"), {"severity": "whatever", "title": "unsure", "body": "b"}]})
    );
    env.fake("codex", json!({"answer": review}));
    env.fake("claude", json!({"answer": "no rulings here"}));
    let run = env
        .run_from_claude(&["--max-rounds", "1", "--format", "json"])
        .ok();
    let s: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let order: Vec<&str> = s["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["severity"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["P1", "unclassified", "P2", "P3"], "{s:#}");
}

#[test]
fn the_session_folder_is_printed_once_and_its_files_by_name() {
    let env = TestEnv::with_subtraction_bug();
    answered(&env);
    let run = env.run_from_claude(&["--max-rounds", "1"]).ok();
    let dir = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("session: "))
        .unwrap_or_else(|| panic!("{}", run.stdout))
        .to_string();
    assert_eq!(run.stdout.matches(&dir).count(), 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("  final artifact: final-artifact.md"),
        "{}",
        run.stdout
    );
}
