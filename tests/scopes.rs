//! Every `--scope` form against real repositories.

use crate::common::{paths, TestEnv};

#[test]
fn uncommitted_covers_staged_unstaged_and_untracked_but_not_ignored() {
    let env = TestEnv::with_repo();
    env.write(".gitignore", "*.log\n");
    env.write("tracked.txt", "one\n");
    env.commit_all("add files");
    env.write("staged.txt", "staged\n");
    env.git(&["add", "staged.txt"]);
    env.write("tracked.txt", "one\ntwo\n");
    env.write("dir/untracked.txt", "new file\n");
    env.write("debug.log", "ignored\n");
    let run = env.run(&["--dry-run"]).ok();
    let meta = run.metadata();
    assert_eq!(
        paths(&meta),
        ["dir/untracked.txt", "staged.txt", "tracked.txt"]
    );
    assert_eq!(meta["scope"]["effective"], "uncommitted");
    assert!(meta["scope"]["given"].is_null());
    assert_eq!(meta["status"], "dry-run");
    let art = run.artifact();
    assert!(
        art.contains("+two") && art.contains("+staged") && art.contains("+new file"),
        "{art}"
    );
    assert!(!art.contains("ignored"));
}

#[test]
fn no_changes_is_nothing_to_review_exit_0_and_no_session() {
    let env = TestEnv::with_repo();
    let run = env.run(&["--dry-run"]).ok();
    assert!(run.stdout.contains("nothing to review"), "{}", run.stdout);
    assert!(run.stdout.contains("hint:"), "{}", run.stdout);
    assert_eq!(env.session_count(), 0);
    // Without --dry-run too: a hook with nothing to review must pass.
    env.run(&[]).ok();
}

#[test]
fn staged_is_exactly_the_index_even_with_partial_staging() {
    let env = TestEnv::with_repo();
    env.write("f.txt", "a\n");
    env.commit_all("f");
    env.write("f.txt", "a\nstaged line\n");
    env.git(&["add", "f.txt"]);
    env.write("f.txt", "a\nstaged line\nunstaged line\n");
    env.write("untracked.txt", "x\n");
    let run = env.run(&["--dry-run", "--scope", "staged"]).ok();
    let art = run.artifact();
    assert!(art.contains("+staged line"), "{art}");
    assert!(!art.contains("unstaged line"), "{art}");
    let meta = run.metadata();
    assert_eq!(paths(&meta), ["f.txt"]);
    assert_eq!(
        meta["scope"]["resolved"]["index_tree"],
        env.git(&["write-tree"])
    );
    // Nothing was staged or unstaged by us.
    assert_eq!(env.git(&["diff", "--cached", "--name-only"]), "f.txt");
    assert_eq!(
        env.git(&["status", "--porcelain"]),
        "MM f.txt\n?? untracked.txt".trim()
    );
}

#[test]
fn commit_accepts_any_revspec() {
    let env = TestEnv::with_repo();
    env.write("a.txt", "first\n");
    let first = env.commit_all("first change");
    env.git(&["tag", "v1"]);
    env.write("a.txt", "first\nsecond\n");
    let second = env.commit_all("second change\n\nWith a body line.");
    env.git(&["branch", "topic"]);
    for (rev, want) in [
        (first.as_str(), &first),
        (&first[..8], &first),
        ("HEAD~1", &first),
        ("v1", &first),
        ("topic", &second),
        ("HEAD", &second),
    ] {
        let run = env
            .run(&["--dry-run", "--scope", &format!("commit:{rev}")])
            .ok();
        let meta = run.metadata();
        assert_eq!(
            meta["scope"]["resolved"]["head"],
            want.as_str(),
            "commit:{rev}"
        );
        assert_eq!(meta["commits"][0]["sha"], want.as_str());
    }
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    let art = run.artifact();
    assert!(
        art.contains("second change") && art.contains("With a body line."),
        "{art}"
    );
    assert!(art.contains("+second") && !art.contains("+first"), "{art}");
}

#[test]
fn root_commit_diffs_against_the_empty_tree() {
    let env = TestEnv::with_repo();
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    assert!(run.metadata()["scope"]["resolved"]["base"].is_null());
    assert!(run.artifact().contains("+hello"));
    assert!(run.stdout.contains("root commit"), "{}", run.stdout);
}

/// main: A - M1 ; feature: A - F1 - F2. base:main is merge-base(main, HEAD)=A -> HEAD.
fn forked() -> (TestEnv, String) {
    let env = TestEnv::with_repo();
    let fork = env.git(&["rev-parse", "HEAD"]);
    env.git(&["checkout", "-q", "-b", "feature"]);
    env.write("feature.txt", "feature work\n");
    env.commit_all("F1: feature work");
    env.write("feature.txt", "feature work\nmore\n");
    env.commit_all("F2: more feature work");
    env.git(&["checkout", "-q", "main"]);
    env.write("main.txt", "main only\n");
    env.commit_all("M1: main moves on");
    env.git(&["checkout", "-q", "feature"]);
    (env, fork)
}

#[test]
fn base_reviews_what_a_pull_request_shows() {
    let (env, fork) = forked();
    let run = env.run(&["--dry-run", "--scope", "base:main"]).ok();
    let meta = run.metadata();
    assert_eq!(meta["scope"]["resolved"]["merge_base"], fork.as_str());
    assert_eq!(paths(&meta), ["feature.txt"]);
    let subjects: Vec<_> = meta["commits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["subject"].as_str().unwrap())
        .collect();
    assert_eq!(subjects, ["F2: more feature work", "F1: feature work"]);
    assert!(!run.artifact().contains("main only"));
}

#[test]
fn base_falls_back_to_the_remote_tracking_branch() {
    let (env, fork) = forked();
    env.git(&["update-ref", "refs/remotes/origin/trunk", "main"]);
    let run = env.run(&["--dry-run", "--scope", "base:trunk"]).ok();
    assert_eq!(
        run.metadata()["scope"]["resolved"]["merge_base"],
        fork.as_str()
    );
    assert!(run.stdout.contains("origin/trunk"), "{}", run.stdout);
}

#[test]
fn two_and_three_dot_ranges_have_gits_meanings() {
    let (env, fork) = forked();
    // main..feature: from main's tip to feature's: main.txt disappears, feature.txt appears.
    let two = env
        .run(&["--dry-run", "--scope", "range:main..feature"])
        .ok()
        .metadata();
    assert_eq!(paths(&two), ["feature.txt", "main.txt"]);
    // main...feature: from the merge-base: only the feature's side.
    let three = env
        .run(&["--dry-run", "--scope", "range:main...feature"])
        .ok()
        .metadata();
    assert_eq!(paths(&three), ["feature.txt"]);
    assert_eq!(three["scope"]["resolved"]["merge_base"], fork.as_str());
    // An empty side means HEAD (feature is checked out).
    let open = env
        .run(&["--dry-run", "--scope", "range:main.."])
        .ok()
        .metadata();
    assert_eq!(paths(&open), ["feature.txt", "main.txt"]);
}

#[test]
fn renames_are_detected_with_the_old_path() {
    let env = TestEnv::with_repo();
    let body: String = (0..40).map(|i| format!("line {i}\n")).collect();
    env.write("old/name.rs", &body);
    env.commit_all("add");
    std::fs::create_dir(env.repo.join("new")).unwrap();
    env.git(&["mv", "old/name.rs", "new/name.rs"]);
    env.write("new/name.rs", &format!("{body}one more\n"));
    env.commit_all("move");
    let meta = env
        .run(&["--dry-run", "--scope", "commit:HEAD"])
        .ok()
        .metadata();
    let f = &meta["files"][0];
    assert_eq!(meta["files"].as_array().unwrap().len(), 1, "{meta}");
    assert_eq!(f["status"], "renamed");
    assert_eq!(f["old_path"], "old/name.rs");
    assert_eq!(f["path"], "new/name.rs");
    assert_eq!(f["additions"], 1);
}

#[test]
fn an_unstaged_move_is_a_rename_too() {
    let env = TestEnv::with_repo();
    let body: String = (0..40).map(|i| format!("line {i}\n")).collect();
    env.write("a.txt", &body);
    env.commit_all("add");
    std::fs::rename(env.repo.join("a.txt"), env.repo.join("b.txt")).unwrap();
    let meta = env.run(&["--dry-run"]).ok().metadata();
    assert_eq!(meta["files"][0]["status"], "renamed", "{meta}");
    assert_eq!(meta["files"][0]["old_path"], "a.txt");
}

#[test]
fn file_scope_is_the_whole_file() {
    let env = TestEnv::with_repo();
    env.write("src/lib.rs", "pub fn answer() -> u32 {\n    42\n}\n");
    env.commit_all("lib");
    let run = env.run(&["--dry-run", "--scope", "file:src/lib.rs"]).ok();
    let meta = run.metadata();
    assert_eq!(meta["target"], "code");
    assert_eq!(meta["source"]["origin"], "file:src/lib.rs");
    assert_eq!(run.artifact(), "pub fn answer() -> u32 {\n    42\n}\n");
}

#[test]
fn file_scope_paths_are_relative_to_the_current_directory() {
    let env = TestEnv::with_repo();
    env.write("docs/design.md", "# Design\n\nWe will use a queue.\n");
    let run = env
        .run_in(
            &env.repo.join("docs"),
            &["--dry-run", "--scope", "file:design.md"],
        )
        .ok();
    assert_eq!(run.metadata()["source"]["origin"], "file:docs/design.md");
    assert_eq!(run.metadata()["target"], "proposal");
}

#[test]
fn scope_can_come_from_config() {
    let env = TestEnv::with_repo();
    env.write("a.txt", "x\n");
    env.commit_all("a");
    env.git(&["config", "debate.scope", "commit:HEAD"]);
    let meta = env.run(&["--dry-run"]).ok().metadata();
    assert_eq!(meta["scope"]["given"], "commit:HEAD");
    assert_eq!(paths(&meta), ["a.txt"]);
}

/// `git commit -a` and `git commit <paths>` run the pre-commit hook with a temporary index in
/// `GIT_INDEX_FILE`; staged must review that index, as git would commit it.
#[test]
fn staged_honours_git_index_file() {
    let env = TestEnv::with_repo();
    env.write("f.txt", "a\n");
    env.commit_all("f");
    env.write("f.txt", "a\nonly in the temporary index\n");
    let alt = env.root.join("alt-index");
    std::fs::copy(env.repo.join(".git/index"), &alt).unwrap();
    let mut add = std::process::Command::new("git");
    add.args(["add", "f.txt"])
        .current_dir(&env.repo)
        .env("GIT_INDEX_FILE", &alt);
    assert!(add.status().unwrap().success());
    // The real index has nothing staged.
    let run = env.run(&["--dry-run", "--scope", "staged"]).ok();
    assert!(run.stdout.contains("nothing to review"), "{}", run.stdout);
    let run = env
        .run_env(
            &["--dry-run", "--scope", "staged"],
            &[("GIT_INDEX_FILE", alt.to_str().unwrap())],
        )
        .ok();
    assert!(
        run.artifact().contains("+only in the temporary index"),
        "{}",
        run.artifact()
    );
}

#[test]
fn a_shallow_clones_boundary_commit_is_not_called_a_root_commit() {
    let env = TestEnv::with_repo();
    env.write("a.txt", "two\n");
    env.commit_all("second");
    let clone = env.root.join("shallow");
    let url = format!("file://{}", env.repo.display());
    env.git(&["clone", "-q", "--depth", "1", &url, clone.to_str().unwrap()]);
    let run = env
        .run_in(&clone, &["--dry-run", "--scope", "commit:HEAD"])
        .ok();
    assert!(
        run.stdout.contains("shallow boundary commit") && !run.stdout.contains("root commit"),
        "{}",
        run.stdout
    );
    // The real first commit is still a root commit.
    let first = env.git(&["rev-list", "--max-parents=0", "HEAD"]);
    let run = env
        .run(&["--dry-run", "--scope", &format!("commit:{}", first.trim())])
        .ok();
    assert!(run.stdout.contains("root commit"), "{}", run.stdout);
}
