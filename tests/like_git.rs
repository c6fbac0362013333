//! The artifact's diff is git's: headers, quoting, mode lines, hunks and renames compared with
//! what the real `git diff` prints for the same generated repository.

use crate::common::TestEnv;

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
