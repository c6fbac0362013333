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
fn odd_file_names_are_quoted_as_git_quotes_them() {
    // A newline in a name must not split the `diff --git` line into two files.
    let env = TestEnv::with_repo();
    env.commit_all("base");
    for name in [
        "new\nline.txt",
        "tab\there.txt",
        "say \"hi\".txt",
        "back\\slash.txt",
        "my file.txt",
    ] {
        env.write(name, "content\n");
    }
    env.commit_all("odd names");
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    let artifact = run.artifact();
    let git = env.git(&["diff", "HEAD~1", "HEAD"]);
    let headers: Vec<&str> = git
        .lines()
        .filter(|l| l.starts_with("diff --git "))
        .collect();
    assert_eq!(headers.len(), 5, "{git}");
    for h in headers {
        assert!(
            artifact.lines().any(|l| l == h),
            "{h:?} not in:\n{artifact}"
        );
    }
    for plus in git.lines().filter(|l| l.starts_with("+++ ")) {
        assert!(
            artifact.lines().any(|l| l == plus),
            "{plus:?} not in:\n{artifact}"
        );
    }
}

#[test]
fn mode_changes_and_new_files_carry_gits_mode_lines() {
    let env = TestEnv::with_repo();
    env.write("run.sh", "echo hi\n");
    env.commit_all("script");
    let script = env.repo.join("run.sh");
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    env.write("added.txt", "new\n");
    env.commit_all("chmod and add");
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    let artifact = run.artifact();
    let git = env.git(&["diff", "HEAD~1", "HEAD"]);
    for line in git.lines().filter(|l| l.contains(" mode ")) {
        assert!(
            artifact.lines().any(|l| l == line),
            "{line:?} not in:\n{artifact}"
        );
    }
    assert!(git.contains("old mode 100644\nnew mode 100755"), "{git}");
    assert!(
        artifact.contains("old mode 100644\nnew mode 100755"),
        "{artifact}"
    );
    assert!(
        artifact.contains("run.sh (+0 -0, mode 100644 -> 100755)"),
        "{artifact}"
    );
}

#[test]
fn crlf_is_kept_as_git_keeps_it_and_named() {
    let env = TestEnv::with_repo();
    env.write("dos.txt", "one\ntwo\n");
    env.commit_all("lf");
    env.write("dos.txt", "one\r\ntwo\r\n");
    env.commit_all("crlf");
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    let artifact = run.artifact();
    let git = env.git(&["diff", "HEAD~1", "HEAD"]);
    // `str::lines` would drop the very `\r` under test.
    let changed: Vec<&str> = git
        .split('\n')
        .filter(|l| {
            (l.starts_with('+') || l.starts_with('-'))
                && !l.starts_with("+++")
                && !l.starts_with("---")
        })
        .collect();
    // (The harness trims git's output, so its last `\r` is gone; the first three are whole.)
    assert_eq!(&changed[..3], ["-one", "-two", "+one\r"], "{git:?}");
    for l in ["-one", "-two", "+one\r", "+two\r"] {
        assert!(
            artifact.split('\n').any(|a| a == l),
            "{l:?} not in {artifact:?}"
        );
    }
    assert!(artifact.contains("CRLF line endings added"), "{artifact}");
}

/// git's patch without its `index` lines (which the artifact leaves out).
fn git_patch_lines(git: &str) -> Vec<String> {
    git.split('\n')
        .filter(|l| !l.starts_with("index "))
        .map(str::to_string)
        .collect()
}

#[test]
fn a_file_that_becomes_a_symlink_is_shown_as_git_shows_it() {
    let env = TestEnv::with_repo();
    env.write("x", "hello\n");
    env.commit_all("a file");
    std::fs::remove_file(env.repo.join("x")).unwrap();
    std::os::unix::fs::symlink("target", env.repo.join("x")).unwrap();
    // In the work tree first, then committed.
    let check = |scope: &str, git: String| {
        let run = env.run(&["--dry-run", "--scope", scope]).ok();
        let artifact = run.artifact();
        let want = git_patch_lines(&git).join("\n");
        assert!(
            artifact.contains(&want),
            "{scope}: {want:?} not in:\n{artifact}"
        );
    };
    check("uncommitted", env.git(&["diff", "HEAD"]));
    env.commit_all("now a link");
    check("commit:HEAD", env.git(&["diff", "HEAD~1", "HEAD"]));
}

#[test]
fn hunks_slide_where_git_slides_them() {
    // An ambiguous insertion: git's indent heuristic (on by default) places it after the first
    // `b`; without it the block starts a line later.
    let env = TestEnv::with_repo();
    env.write("f.txt", "1\n2\na\n\nb\n3\n4\n");
    env.commit_all("base");
    env.write("f.txt", "1\n2\na\n\nb\na\n\nb\n3\n4\n");
    env.commit_all("insert");
    let hunk = |text: &str| -> String {
        let at = text.find("@@ ").expect("a hunk");
        text[at..]
            .lines()
            .take_while(|l| !l.starts_with("```"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    let git = env.git(&["diff", "HEAD~1", "HEAD"]);
    assert_eq!(hunk(&run.artifact()), hunk(&git));
    assert!(hunk(&git).starts_with("@@ -2,6 +2,9 @@"), "{git}");
    // `diff.indentHeuristic = false` is honoured, as git honours it.
    env.git(&["config", "diff.indentHeuristic", "false"]);
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    let git = env.git(&["diff", "HEAD~1", "HEAD"]);
    assert_eq!(hunk(&run.artifact()), hunk(&git));
    assert!(hunk(&git).starts_with("@@ -3,5 +3,8 @@"), "{git}");
}

#[test]
fn an_intent_to_add_file_is_what_git_shows_for_it() {
    // `git add -N`: not staged content (not in `git diff --cached`, not in `git write-tree`), but
    // a new file in `git diff HEAD`; the index file itself is left as it was.
    let env = TestEnv::with_repo();
    env.write("new.txt", "planned\n");
    env.git(&["add", "-N", "new.txt"]);
    env.write("a.txt", "staged change\n");
    env.git(&["add", "a.txt"]);
    let staged = env.run(&["--dry-run", "--scope", "staged"]).ok().metadata();
    assert_eq!(
        staged["scope"]["resolved"]["index_tree"],
        env.git(&["write-tree"]).trim()
    );
    let paths: Vec<&str> = staged["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["a.txt"]);
    let all = env
        .run(&["--dry-run", "--scope", "uncommitted"])
        .ok()
        .metadata();
    assert!(all["files"]
        .as_array()
        .unwrap()
        .iter()
        .any(|f| f["path"] == "new.txt"));
    assert!(env.git(&["status", "--short"]).contains(" A new.txt"));
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
