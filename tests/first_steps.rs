//! The first things a new user types: a file name as CONTENT, a mistyped command, text.

use serde_json::json;

use crate::common::TestEnv;

#[test]
fn a_file_named_as_content_is_reviewed_as_that_file() {
    let env = TestEnv::with_repo();
    env.write(
        "docs/design.md",
        "# Design\n\n## Approach\n\nUse a queue.\n",
    );
    let run = env.run(&["docs/design.md", "--dry-run"]).ok();
    assert!(
        run.stdout.contains("source:     file:docs/design.md"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr
            .contains("note: reviewing the file docs/design.md (as --scope file:docs/design.md)"),
        "{}",
        run.stderr
    );
    assert!(run.artifact().contains("Use a queue."));
    // From a subfolder, relative to where the user stands.
    let sub = env
        .run_in(&env.repo.join("docs"), &["design.md", "--dry-run"])
        .ok();
    assert!(
        sub.stdout.contains("source:     file:docs/design.md"),
        "{}",
        sub.stdout
    );
    // Outside the work tree it is still that file.
    let outside = env.root.join("notes.md");
    std::fs::write(&outside, "# Notes\n\nplain\n").unwrap();
    let out = env.run(&[outside.to_str().unwrap(), "--dry-run"]).ok();
    assert!(out.stderr.contains("(as --artifact-file"), "{}", out.stderr);
    assert!(out.artifact().contains("plain"));
}

#[test]
fn a_mistyped_command_is_an_error_with_a_suggestion_never_a_review() {
    let env = TestEnv::with_repo();
    env.fake("codex", json!({"answer": "LGTM"}));
    env.fake("claude", json!({"answer": "unused"}));
    for (typo, meant) in [
        ("sesions", "sessions"),
        ("shwo", "show"),
        ("resum", "resume"),
    ] {
        let run = env.run_from_claude(&[typo]).fails(2);
        assert!(
            run.stderr
                .contains(&format!("did you mean `git debate {meant}`?")),
            "{typo}: {}",
            run.stderr
        );
    }
    let run = env.run(&["docs/desing.md"]).fails(2);
    assert!(
        run.stderr.contains("no such file: docs/desing.md"),
        "{}",
        run.stderr
    );
    let run = env.run(&["."]).fails(2);
    assert!(run.stderr.contains("is a directory"), "{}", run.stderr);
    assert!(
        env.fake_calls("codex").is_empty(),
        "nothing was sent to a model"
    );
    assert_eq!(env.session_count(), 0);
}

#[test]
fn text_is_still_text() {
    let env = TestEnv::with_repo();
    let run = env
        .run(&["fn add(a: i32, b: i32) -> i32 { a - b }", "--dry-run"])
        .ok();
    assert!(
        run.stdout.contains("source:     argument"),
        "{}",
        run.stdout
    );
    let word = env.run_stdin(&["-", "--dry-run"], "sesions\n").ok();
    assert!(word.stdout.contains("source:     stdin"), "{}", word.stdout);
}
