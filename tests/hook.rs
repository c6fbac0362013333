//! The pre-commit hook: installing it safely, and real `git commit`s that run it against the fake
//! agent.

use std::os::unix::fs::PermissionsExt as _;

use serde_json::json;

use crate::common::TestEnv;

fn critique_p1() -> serde_json::Value {
    json!({"answer": "```json\n{\"verdict\":\"revise\",\"findings\":[{\"severity\":\"P1\",\"title\":\"leaks the key\",\"evidence\":\"a.txt:1\",\"action\":\"remove it\"}]}\n```"})
}

fn judge_valid() -> serde_json::Value {
    json!({"answer": "```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"valid\",\"reason\":\"yes\"}]}\n```"})
}

#[test]
fn install_is_idempotent_keeps_an_existing_hook_and_uninstall_restores_it() {
    let env = TestEnv::with_repo();
    let hooks = env.repo.join(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let mine = "#!/bin/sh\necho mine >> \"$(git rev-parse --git-dir)/mine.log\"\n";
    std::fs::write(hooks.join("pre-commit"), mine).unwrap();
    std::fs::set_permissions(
        hooks.join("pre-commit"),
        std::fs::Permissions::from_mode(0o750),
    )
    .unwrap();

    let run = env.run(&["hook", "install"]).ok();
    assert!(
        run.stdout.contains("kept the existing pre-commit hook"),
        "{}",
        run.stdout
    );
    let ours = std::fs::read_to_string(hooks.join("pre-commit")).unwrap();
    assert!(
        ours.contains("# installed by git-debate")
            && ours.contains("hook run --fail-on p1 --max-rounds 1"),
        "{ours}"
    );
    assert_eq!(
        std::fs::metadata(hooks.join("pre-commit"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o755
    );
    assert_eq!(
        std::fs::read_to_string(hooks.join("pre-commit.before-git-debate")).unwrap(),
        mine
    );

    // Again: nothing changes.
    let run = env.run(&["hook", "install"]).ok();
    assert!(run.stdout.contains("already installed"), "{}", run.stdout);
    // With other settings: rewritten, the kept hook untouched.
    env.run(&["hook", "install", "--fail-on", "p2", "--max-rounds", "2"])
        .ok();
    assert!(std::fs::read_to_string(hooks.join("pre-commit"))
        .unwrap()
        .contains("--fail-on p2 --max-rounds 2"));
    assert_eq!(
        std::fs::read_to_string(hooks.join("pre-commit.before-git-debate")).unwrap(),
        mine
    );

    // The kept hook still runs on commit (nothing staged: our part returns at once).
    env.git(&["commit", "-q", "--allow-empty", "-m", "empty"]);
    assert!(
        env.repo.join(".git/mine.log").is_file(),
        "the kept hook did not run"
    );
    assert!(env.fake_calls("codex").is_empty());

    env.run(&["hook", "uninstall"]).ok();
    assert_eq!(
        std::fs::read_to_string(hooks.join("pre-commit")).unwrap(),
        mine
    );
    assert_eq!(
        std::fs::metadata(hooks.join("pre-commit"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777,
        0o750
    );
    assert!(!hooks.join("pre-commit.before-git-debate").exists());
    // A hook that is not ours is left alone.
    let run = env.run(&["hook", "uninstall"]).fails(2);
    assert!(
        run.stderr.contains("was not installed by git debate"),
        "{}",
        run.stderr
    );
}

#[test]
fn install_follows_core_hooks_path_and_linked_worktrees() {
    let env = TestEnv::with_repo();
    env.git(&["config", "core.hooksPath", "githooks"]);
    env.run(&["hook", "install"]).ok();
    assert!(env.repo.join("githooks/pre-commit").is_file());
    env.run(&["hook", "uninstall"]).ok();
    assert!(!env.repo.join("githooks/pre-commit").exists());
    env.git(&["config", "--unset", "core.hooksPath"]);

    let wt = env.root.join("wt");
    env.git(&["worktree", "add", "-q", "-b", "wt", wt.to_str().unwrap()]);
    env.run_in(&wt, &["hook", "install"]).ok();
    // Hooks live in the common git dir, shared by every worktree.
    assert!(env.repo.join(".git/hooks/pre-commit").is_file());
}

#[test]
fn a_commit_is_blocked_on_a_p1_and_the_verdict_is_cached_by_tree() {
    let env = TestEnv::with_repo();
    env.run(&["hook", "install"]).ok();
    env.fake("codex", critique_p1());
    env.fake("claude", judge_valid());
    env.write("a.txt", "AKIA-not-really-a-key\n");
    env.git(&["add", "a.txt"]);
    let run = env.git_run(&["commit", "-q", "-m", "add a"]);
    assert_ne!(
        run.code, 0,
        "the commit went through:\n{}\n{}",
        run.stdout, run.stderr
    );
    assert!(run.stderr.contains("commit blocked"), "{}", run.stderr);
    assert_eq!(env.git(&["rev-list", "--count", "HEAD"]), "1");
    assert_eq!(env.fake_calls("codex").len(), 1);

    // The same staged tree again: the verdict is reused, no model is asked.
    let run = env.git_run(&["commit", "-q", "-m", "add a"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("reviewed before: blocked"),
        "{}",
        run.stderr
    );
    assert_eq!(env.fake_calls("codex").len(), 1);

    // --no-verify and GIT_DEBATE_SKIP=1 skip it.
    let skip = env.git_run(&["commit", "-q", "--no-verify", "-m", "add a"]);
    assert_eq!(skip.code, 0, "{}", skip.stderr);
    env.write("b.txt", "b\n");
    env.git(&["add", "b.txt"]);
    let run = env.git_run_env(
        &["commit", "-q", "-m", "add b"],
        &[("GIT_DEBATE_SKIP", "1")],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(env.fake_calls("codex").len(), 1);
}

#[test]
fn a_clean_review_lets_the_commit_through() {
    let env = TestEnv::with_repo();
    env.run(&["hook", "install"]).ok();
    env.fake("codex", json!({"answer": "LGTM"}));
    env.fake("claude", json!({}));
    env.write("a.txt", "fine\n");
    env.git(&["add", "a.txt"]);
    let run = env.git_run(&["commit", "-q", "-m", "add a"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(env.git(&["rev-list", "--count", "HEAD"]), "2");
}

#[test]
fn a_missing_backend_warns_and_commits_unless_strict() {
    let env = TestEnv::with_repo();
    env.run(&["hook", "install"]).ok();
    env.write("a.txt", "x\n");
    env.git(&["add", "a.txt"]);
    let run = env.git_run(&["commit", "-q", "-m", "add a"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("warning: git debate: no second opinion"),
        "{}",
        run.stderr
    );

    env.git(&["config", "debate.hook.strict", "true"]);
    env.write("b.txt", "y\n");
    env.git(&["add", "b.txt"]);
    let run = env.git_run(&["commit", "-q", "-m", "add b"]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("debate.hook.strict is set"),
        "{}",
        run.stderr
    );
}

#[test]
fn whitespace_only_changes_are_not_reviewed() {
    let env = TestEnv::with_repo();
    env.run(&["hook", "install"]).ok();
    env.fake("codex", critique_p1());
    env.fake("claude", judge_valid());
    env.write("README.md", "# Project\n\nhello   \n");
    env.git(&["add", "README.md"]);
    let run = env.git_run(&["commit", "-q", "-m", "whitespace"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(env.fake_calls("codex").is_empty());
}
