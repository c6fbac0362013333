//! The artifact's diff is git's: headers, quoting, mode lines and hunks compared with
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

#[test]
fn names_that_are_not_utf8_are_shown_as_git_shows_them_and_stay_apart() {
    use std::os::unix::ffi::OsStrExt as _;
    let env = TestEnv::with_repo();
    let raw = |name: &[u8], content: &str| {
        let path = env.repo.join(std::ffi::OsStr::from_bytes(name));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    };
    // Two Latin-1 names that a lossy conversion would both turn into `caf\u{fffd}.txt`.
    raw(b"caf\xe9.txt", "e acute, in Latin-1\n");
    raw(b"caf\xe8.txt", "e grave, in Latin-1\n");
    env.write("caf\u{e9}.md", "a UTF-8 name\n");
    env.commit_all("names");

    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    let artifact = run.artifact();
    assert!(!artifact.contains('\u{fffd}'), "{artifact}");
    // git's default (core.quotePath = true) for the names that are not UTF-8 ...
    let git = env.git(&["diff", "HEAD~1", "HEAD"]);
    for want in [
        "diff --git \"a/caf\\350.txt\" \"b/caf\\350.txt\"",
        "diff --git \"a/caf\\351.txt\" \"b/caf\\351.txt\"",
        "+++ \"b/caf\\351.txt\"",
    ] {
        assert!(
            git.lines().any(|l| l == want),
            "{want} not in git's:\n{git}"
        );
        assert!(
            artifact.lines().any(|l| l == want),
            "{want} not in:\n{artifact}"
        );
    }
    // ... and core.quotePath = false for the one that is.
    let git = env.git(&["-c", "core.quotePath=false", "diff", "HEAD~1", "HEAD"]);
    let want = "diff --git a/caf\u{e9}.md b/caf\u{e9}.md";
    assert!(git.lines().any(|l| l == want), "{git}");
    assert!(artifact.lines().any(|l| l == want), "{artifact}");
    let mut names = crate::common::paths(&run.metadata());
    names.sort();
    assert_eq!(
        names,
        ["\"caf\\350.txt\"", "\"caf\\351.txt\"", "caf\u{e9}.md"]
    );
    assert!(
        run.stdout.contains("\"caf\\351.txt\"") && run.stdout.contains("\"caf\\350.txt\""),
        "{}",
        run.stdout
    );

    // Moved in the work tree (untracked), then staged: a rename, named as git names it.
    std::fs::create_dir_all(env.repo.join("dir")).unwrap();
    std::fs::rename(
        env.repo.join(std::ffi::OsStr::from_bytes(b"caf\xe9.txt")),
        env.repo
            .join(std::ffi::OsStr::from_bytes(b"dir/caf\xe9.txt")),
    )
    .unwrap();
    let run = env.run(&["--dry-run", "--scope", "uncommitted"]).ok();
    assert!(
        run.stdout
            .contains("\"caf\\351.txt\" -> \"dir/caf\\351.txt\""),
        "{}",
        run.stdout
    );
    env.git(&["add", "-A"]);
    let artifact = env.run(&["--dry-run", "--scope", "staged"]).ok().artifact();
    let git = env.git(&["diff", "--cached"]);
    for want in [
        "rename from \"caf\\351.txt\"",
        "rename to \"dir/caf\\351.txt\"",
    ] {
        assert!(
            git.lines().any(|l| l == want),
            "{want} not in git's:\n{git}"
        );
        assert!(
            artifact.lines().any(|l| l == want),
            "{want} not in:\n{artifact}"
        );
    }
}

#[test]
fn a_wide_commit_has_gits_hunks_file_for_file() {
    // Enough modified files that their hunks are computed on several threads.
    let env = TestEnv::with_repo();
    let body = |n: usize, v: usize| -> String {
        (0..30)
            .map(|l| match l % 10 {
                0 => format!("fn f_{n}_{l}() {{\n"),
                9 => "}\n".to_string(),
                _ if l == 5 || l == 17 => format!("    let x = {n} + {l} + {v};\n"),
                _ => format!("    step({n}, {l});\n"),
            })
            .collect()
    };
    for n in 0..150 {
        env.write(&format!("src/m{:02}/f{n:03}.rs", n % 7), &body(n, 0));
    }
    env.commit_all("base");
    for n in 0..150 {
        env.write(&format!("src/m{:02}/f{n:03}.rs", n % 7), &body(n, 1));
    }
    env.commit_all("wide");
    let run = env
        .run(&[
            "--dry-run",
            "--scope",
            "commit:HEAD",
            "--max-artifact-bytes",
            "4194304",
        ])
        .ok();
    let keep = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| {
                l.starts_with("diff --git ")
                    || l.starts_with("@@ ")
                    || (l.starts_with(['+', '-', ' '])
                        && !l.starts_with("+++")
                        && !l.starts_with("---"))
            })
            .map(str::to_string)
            .collect()
    };
    let git = keep(&env.git(&["diff", "HEAD~1", "HEAD"]));
    assert_eq!(
        git.iter().filter(|l| l.starts_with("diff --git")).count(),
        150
    );
    let ours = |run: crate::common::Run| -> Vec<String> {
        keep(&run.artifact())
            .into_iter()
            .skip_while(|l| !l.starts_with("diff --git"))
            .collect()
    };
    assert_eq!(ours(run), git);

    // The same files edited in the work tree (read from disk on several threads), and with
    // core.autocrlf (libgit2 converts them one by one).
    for n in 0..150 {
        env.write(&format!("src/m{:02}/f{n:03}.rs", n % 7), &body(n, 2));
    }
    for autocrlf in [None, Some("true")] {
        if let Some(v) = autocrlf {
            env.git(&["config", "core.autocrlf", v]);
        }
        let git = keep(&env.git(&["diff", "HEAD"]));
        assert_eq!(
            git.iter().filter(|l| l.starts_with("diff --git")).count(),
            150
        );
        let run = env
            .run(&[
                "--dry-run",
                "--scope",
                "uncommitted",
                "--max-artifact-bytes",
                "4194304",
            ])
            .ok();
        assert_eq!(ours(run), git, "core.autocrlf={autocrlf:?}");
    }
}
