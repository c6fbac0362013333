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

#[test]
fn a_revision_as_content_is_the_change_git_means_never_the_string() {
    let env = TestEnv::with_repo();
    env.write("a.txt", "one\n");
    env.commit_all("add a");
    env.git(&["branch", "topic-base"]);
    env.write("a.txt", "one\ntwo\n");
    env.commit_all("grow a");
    // A commit (`git show HEAD~1`).
    let run = env.run(&["HEAD~1", "--dry-run"]).ok();
    assert!(
        run.stdout.contains("scope:      commit:HEAD~1"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr
            .contains("note: reviewing the commit HEAD~1 (as --scope commit:HEAD~1)"),
        "{}",
        run.stderr
    );
    // A branch other than the one checked out: what a pull request against it shows.
    let run = env.run(&["topic-base", "--dry-run"]).ok();
    assert!(
        run.stdout.contains("scope:      base:topic-base"),
        "{}",
        run.stdout
    );
    assert!(run.artifact().contains("+two"), "{}", run.artifact());
    assert!(!run.artifact().contains("+one"), "{}", run.artifact());
    // A range, as `git log a..b`.
    let run = env.run(&["HEAD~2..HEAD", "--dry-run"]).ok();
    assert!(
        run.stdout.contains("scope:      range:HEAD~2..HEAD"),
        "{}",
        run.stdout
    );
    // The branch checked out is its tip commit; a tag is a commit too.
    env.git(&["tag", "v1", "HEAD~1"]);
    let run = env.run(&["v1", "--dry-run"]).ok();
    assert!(
        run.stdout.contains("scope:      commit:v1"),
        "{}",
        run.stdout
    );
    // A commit id of git's usual length is a commit; four hex digits are a word ("face").
    let head = env.git(&["rev-parse", "HEAD"]);
    let run = env.run(&[&head[..7], "--dry-run"]).ok();
    assert!(
        run.stdout
            .contains(&format!("scope:      commit:{}", &head[..7])),
        "{}",
        run.stdout
    );
    let run = env.run(&[&head[..4], "--dry-run"]).ok();
    assert!(
        run.stdout.contains("source:     argument"),
        "{}",
        run.stdout
    );
    // With --scope as well, the user meant one of them.
    let run = env
        .run(&["HEAD~1", "--scope", "staged", "--dry-run"])
        .fails(2);
    assert!(
        run.stderr.contains("names a revision (commit:HEAD~1)"),
        "{}",
        run.stderr
    );
    // A word that names no revision is still text, and a file of that name is the file.
    let run = env.run(&["lgtm?", "--dry-run"]).ok();
    assert!(
        run.stdout.contains("source:     argument"),
        "{}",
        run.stdout
    );
    env.write("main", "a file called main\n");
    let run = env.run(&["main", "--dry-run"]).ok();
    assert!(
        run.stderr.contains("reviewing the file main"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_bare_revision_as_scope_is_refused_with_the_scope_to_use() {
    let env = TestEnv::with_repo();
    let run = env.run(&["--scope", "HEAD~1", "--dry-run"]).fails(2);
    assert!(
        run.stderr.contains("did you mean --scope commit:HEAD~1"),
        "{}",
        run.stderr
    );
}

#[test]
fn pathspecs_after_the_double_dash_limit_any_scope_as_git_diff_does() {
    let env = TestEnv::with_repo();
    env.write("src/lib.rs", "fn a() {}\n");
    env.write("docs/guide/intro.md", "# Intro\n");
    env.write("notes.txt", "n\n");
    env.commit_all("three files");
    let names = |run: &crate::common::Run| -> Vec<String> {
        let want = env.git(&[
            "diff",
            "--name-only",
            "HEAD~1",
            "HEAD",
            "--",
            "src/",
            "docs/*.md",
        ]);
        let got: Vec<String> = want.lines().map(str::to_string).collect();
        for f in ["src/lib.rs", "docs/guide/intro.md", "notes.txt"] {
            assert_eq!(
                run.artifact().contains(f),
                got.iter().any(|g| g == f),
                "{f}: {}",
                run.artifact()
            );
        }
        got
    };
    let run = env
        .run(&[
            "--scope",
            "commit:HEAD",
            "--dry-run",
            "--",
            "src/",
            "docs/*.md",
        ])
        .ok();
    // git's `*` matches `/` too: docs/guide/intro.md is in, notes.txt is not.
    assert_eq!(names(&run), ["docs/guide/intro.md", "src/lib.rs"]);
    assert!(
        run.stdout.contains("(limited to src/ docs/*.md)"),
        "{}",
        run.stdout
    );
    // Relative to where the user stands.
    let sub = env
        .run_in(
            &env.repo.join("src"),
            &["--scope", "commit:HEAD", "--dry-run", "--", "lib.rs"],
        )
        .ok();
    assert!(sub.artifact().contains("src/lib.rs"), "{}", sub.artifact());
    assert!(!sub.artifact().contains("notes.txt"), "{}", sub.artifact());
    // A pathspec that matches nothing is a typo, not an empty review.
    let run = env
        .run(&["--scope", "commit:HEAD", "--dry-run", "--", "srcc/"])
        .fails(2);
    assert!(
        run.stderr
            .contains("pathspec 'srcc/' matches no file of this change"),
        "{}",
        run.stderr
    );
}
