//! The session index and pruning, end to end: `sessions --prune` by count and by age, dry runs,
//! the limits applied after each run (the hook's sooner), and what is never removed: a running
//! session, and a hook session whose tree is staged (with its cached verdict). The index itself
//! is tested in `index.rs`.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::common::{Run, TestEnv};

fn env_with_change() -> TestEnv {
    let env = TestEnv::with_repo();
    env.write("a.txt", "change\n");
    env
}

#[test]
fn prune_by_count_lists_first_with_dry_run_then_removes_the_oldest() {
    let env = env_with_change();
    let all = env.dry_runs(4);
    assert_eq!(all.len(), 4);
    let listed = env.run(&["sessions"]).ok().stdout;

    let dry = env
        .run(&["sessions", "--prune", "--keep", "2", "--dry-run"])
        .ok();
    assert_eq!(env.session_ids(), all, "a dry run removed something");
    let lines: Vec<&str> = dry.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", dry.stdout);
    for (line, id) in lines.iter().zip(&all[2..]) {
        assert!(
            line.starts_with(&format!("would remove {id}  "))
                && line.ends_with("dry-run  (beyond the newest 2)"),
            "{line}"
        );
    }
    assert_eq!(
        lines[2..],
        [
            "would remove 2 of 4 sessions (2 left)",
            "nothing was removed (--dry-run)"
        ]
    );

    let run = env.run(&["sessions", "--prune", "--keep", "2"]).ok();
    assert!(
        run.stdout.ends_with("removed 2 of 4 sessions (2 left)\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(&format!("removed {}  ", all[3])));
    assert_eq!(env.session_ids(), &all[..2]);
    // The listing is what it was, less the two removed; the index knows only the two left.
    let expected: String = listed.lines().take(2).map(|l| format!("{l}\n")).collect();
    assert_eq!(env.run(&["sessions"]).ok().stdout, expected);
    let mut known: Vec<String> = env.session_index().keys().cloned().collect();
    known.sort_by(|a, b| b.cmp(a));
    assert_eq!(known, &all[..2]);

    let json = env
        .run(&["sessions", "--prune", "--keep", "1", "--format", "json"])
        .ok();
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["removed"][0]["id"], all[1].as_str());
    assert_eq!(v["removed"][0]["reason"], "beyond the newest 1");
    assert_eq!(
        (v["sessions"].as_u64(), v["left"].as_u64()),
        (Some(2), Some(1))
    );

    let none = env.run(&["sessions", "--prune", "--keep", "5"]).ok();
    assert_eq!(
        none.stdout,
        "nothing to prune: 1 session within the limits (the newest 5)\n"
    );
    // The prune options need --prune.
    env.run(&["sessions", "--keep", "1"]).fails(2);
}

#[test]
fn prune_by_age_goes_by_creation_time() {
    let env = env_with_change();
    let fresh = env.dry_runs(1);
    env.plant_old_session("debate-20200101-000000-000-0000001", "2020-01-01T00:00:00Z");
    // No created_at: the time in the id says.
    let dir = env.store().join("debate-20200102-000000-000-0000002");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("metadata.json"), r#"{"status": "completed"}"#).unwrap();

    let bad = env
        .run(&["sessions", "--prune", "--older-than", "3m"])
        .fails(2);
    assert!(
        bad.stderr.contains("write it as 30d, 12h or 2w"),
        "{}",
        bad.stderr
    );
    let run = env
        .run(&["sessions", "--prune", "--older-than", "30d"])
        .ok();
    assert!(
        run.stdout
            .contains("removed debate-20200101-000000-000-0000001  2020-01-01T00:00:00Z")
            && run.stdout.contains("(older than 30 days)")
            && run.stdout.ends_with("removed 2 of 3 sessions (1 left)\n"),
        "{}",
        run.stdout
    );
    assert_eq!(env.session_ids(), fresh);
    // A bare number is days; 12h keeps what was made a moment ago.
    env.run(&["sessions", "--prune", "--older-than", "12h"])
        .ok();
    assert_eq!(env.session_ids(), fresh);
}

#[test]
fn the_configured_limits_apply_after_each_run_and_a_repository_cannot_set_them() {
    let env = env_with_change();
    env.git(&["config", "debate.keepSessions", "2"]);
    env.dry_runs(2);
    let third = env.run(&["--dry-run", "proposal 3"]).ok();
    assert!(
        third
            .stderr
            .contains("git debate: removed 1 old session (past debate.keepSessions or keepDays)\n"),
        "{}",
        third.stderr
    );
    assert_eq!(env.session_ids().len(), 2);
    assert_eq!(
        env.session_ids()[0],
        third.metadata()["id"].as_str().unwrap()
    );

    // Age, and `--prune` alone applies the configuration too.
    env.git(&["config", "debate.keepSessions", "0"]);
    env.plant_old_session("debate-20200101-000000-000-0000001", "2020-01-01T00:00:00Z");
    let dry = env.run(&["sessions", "--prune", "--dry-run"]).ok();
    assert!(
        dry.stdout.contains("(older than 90 days)")
            && dry.stdout.contains("would remove 1 of 3 sessions (2 left)"),
        "{}",
        dry.stdout
    );
    env.run(&["--dry-run", "proposal 4"]).ok();
    assert_eq!(
        env.session_ids().len(),
        3,
        "the old session was not pruned by age"
    );

    // A committed .gitdebate may not decide what of the user's history goes.
    env.git(&["config", "--unset", "debate.keepSessions"]);
    env.write(
        ".gitdebate",
        "[debate]\n\tkeepSessions = 1\n\tkeepDays = 1\n",
    );
    let run = env.run(&["--dry-run", "proposal 5"]).ok();
    assert!(
        run.stderr
            .contains("warning: ignoring debate.keepsessions from")
            && run.stderr.contains("what is deleted"),
        "{}",
        run.stderr
    );
    assert_eq!(env.session_ids().len(), 4);
    let bad = env.run_env(
        &["sessions", "--prune"],
        &[("GIT_DEBATE_KEEP_DAYS", "soon")],
    );
    let bad = bad.fails(2);
    assert!(bad.stderr.contains("debate.keepDays"), "{}", bad.stderr);
}

#[test]
fn a_run_removes_at_most_a_hundred_and_says_what_is_left() {
    let env = env_with_change();
    for i in 0..105 {
        env.plant_old_session(
            &format!("debate-20200101-000000-000-{i:07}"),
            "2020-01-01T00:00:00Z",
        );
    }
    let run = env.run(&["--dry-run"]).ok();
    assert!(
        run.stderr.contains(
            "git debate: removed 100 old sessions (past debate.keepSessions or keepDays; 5 \
             sessions more past them go in later runs, or now with `git debate sessions --prune`)"
        ),
        "{}",
        run.stderr
    );
    // The oldest went first.
    let left = env.session_ids();
    assert_eq!(left.len(), 6);
    assert_eq!(left[5], "debate-20200101-000000-000-0000100");
    let run = env.run(&["sessions", "--prune"]).ok();
    assert!(
        run.stdout.ends_with("removed 5 of 6 sessions (1 left)\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_running_session_is_never_pruned() {
    let env = TestEnv::with_subtraction_bug();
    let mut running = env.start_running_review();
    let id = env.session_ids().remove(0);
    for args in [
        &["sessions", "--prune", "--keep", "0", "--dry-run"][..],
        &["sessions", "--prune", "--keep", "0"],
    ] {
        let run = env.run(args).ok();
        assert!(
            run.stdout.contains(&format!("kept {id}: still running"))
                && run
                    .stdout
                    .contains("0 of 1 session (1 left; 1 past the limits kept)"),
            "{}",
            run.stdout
        );
    }
    assert_eq!(env.session_ids(), std::slice::from_ref(&id));

    running.kill().unwrap();
    running.wait().unwrap();
    let reviewer: i32 = env.fake_file("codex.pid").unwrap().trim().parse().unwrap();
    // SAFETY: plain kill of the fake reviewer the killed run left behind.
    unsafe { libc::kill(-reviewer, libc::SIGKILL) };
    let run = env.run(&["sessions", "--prune", "--keep", "0"]).ok();
    assert!(
        run.stdout.contains(&format!("removed {id}")),
        "{}",
        run.stdout
    );
    assert!(env.session_ids().is_empty());
}

fn critique_p1() -> Value {
    json!({"answer": "```json\n{\"verdict\":\"revise\",\"findings\":[{\"severity\":\"P1\",\"title\":\"leaks the key\",\"evidence\":\"a.txt:1\",\"action\":\"remove it\"}]}\n```"})
}

fn judge_valid() -> Value {
    json!({"answer": "```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"valid\",\"reason\":\"yes\"}]}\n```"})
}

/// The hook's verdict-cache entries.
fn cache(env: &TestEnv) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(env.store().join("hook-cache"))
        .map(|d| {
            d.map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn commit(env: &TestEnv, file: &str) -> Run {
    env.write(file, &format!("{file}\n"));
    env.git(&["add", file]);
    env.git_run(&["commit", "-q", "-m", file])
}

#[test]
fn the_hooks_sessions_go_sooner_and_take_their_cached_verdicts_along() {
    let env = TestEnv::with_repo();
    env.run(&["hook", "install"]).ok();
    env.git(&["config", "debate.hook.keepSessions", "1"]);
    env.fake("codex", json!({"answer": "LGTM"}));
    env.fake("claude", json!({}));
    env.write("notes.md", "a proposal\n");
    let review = env.run(&["--dry-run", "--scope", "file:notes.md"]).ok();
    let review = review.metadata()["id"].as_str().unwrap().to_string();
    assert_eq!(commit(&env, "a.txt").code, 0);
    let first = env.session_ids()[0].clone();
    assert!(env.session_index()[&first]["hook"].is_string(), "{first}");
    assert_eq!(cache(&env).len(), 1);
    assert_eq!(commit(&env, "b.txt").code, 0);
    // The first hook session went, with its cache entry; the review is no hook session.
    let left = env.session_ids();
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(!left.contains(&first) && left.contains(&review), "{left:?}");
    assert_eq!(cache(&env).len(), 1);
    let tree = env.git(&["rev-parse", "HEAD^{tree}"]);
    assert!(cache(&env)[0].starts_with(&tree), "{:?}", cache(&env));
}

#[test]
fn a_blocked_verdict_on_a_staged_tree_survives_pruning_in_any_work_tree() {
    let env = TestEnv::with_repo();
    env.run(&["hook", "install"]).ok();
    env.fake("codex", critique_p1());
    env.fake("claude", judge_valid());
    let blocked = commit(&env, "a.txt");
    assert_ne!(blocked.code, 0, "{}", blocked.stderr);
    let id = env.session_ids().remove(0);
    assert_eq!(cache(&env).len(), 1);

    let run = env.run(&["sessions", "--prune", "--keep", "0"]).ok();
    assert!(
        run.stdout.contains(&format!(
            "kept {id}: the hook's verdict on the tree staged now"
        )),
        "{}",
        run.stdout
    );
    assert_eq!(env.session_ids(), std::slice::from_ref(&id));
    assert_eq!(cache(&env).len(), 1);
    // The commit is still blocked from the cache: no model asked again.
    let again = env.git_run(&["commit", "-q", "-m", "a"]);
    assert!(
        again.stderr.contains("reviewed before: blocked"),
        "{}",
        again.stderr
    );
    assert_eq!(env.fake_calls("codex").len(), 1);

    // Staged in a linked work tree only: still kept.
    let other: PathBuf = env.root.join("other");
    env.git(&["worktree", "add", "-q", other.to_str().unwrap()]);
    std::fs::write(other.join("a.txt"), "a.txt\n").unwrap();
    env.git_in(&other, &["add", "a.txt"]);
    env.git(&["reset", "-q"]);
    env.run(&["sessions", "--prune", "--keep", "0"]).ok();
    assert_eq!(env.session_ids(), std::slice::from_ref(&id));

    // Staged nowhere: the session and its verdict go.
    env.git_in(&other, &["reset", "-q"]);
    let run = env.run(&["sessions", "--prune", "--keep", "0"]).ok();
    assert!(
        run.stdout.contains(&format!("removed {id}")),
        "{}",
        run.stdout
    );
    assert!(env.session_ids().is_empty());
    assert!(cache(&env).is_empty(), "{:?}", cache(&env));
}
