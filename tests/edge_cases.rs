//! git edge cases: each ends in a sensible result or a one-line error naming the input.

use crate::common::{paths, TestEnv};

fn one_line_error(stderr: &str) -> &str {
    let lines: Vec<_> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(lines.len(), 1, "expected one error line in:\n{stderr}");
    lines[0]
}

#[test]
fn outside_a_repository_only_content_and_file_work() {
    let env = TestEnv::new();
    let dir = env.root.join("plain");
    std::fs::create_dir_all(&dir).unwrap();
    let run = env.run_in(&dir, &["--dry-run"]).fails(2);
    assert!(
        one_line_error(&run.stderr).contains("not in a git repository"),
        "{}",
        run.stderr
    );
    let run = env
        .run_in(&dir, &["--dry-run", "--scope", "uncommitted"])
        .fails(2);
    assert!(run.stderr.contains("not in a git repository"));

    std::fs::write(dir.join("snippet.py"), "def f():\n    return 1\n").unwrap();
    let run = env
        .run_in(&dir, &["--dry-run", "--scope", "file:snippet.py"])
        .ok();
    assert_eq!(run.metadata()["target"], "code");
    // Sessions go to $XDG_STATE_HOME/debate/<workspace-key>/review-loop.
    let state = env.home.join(".local/state/debate");
    assert!(
        run.session_dir().starts_with(&state),
        "{}",
        run.session_dir().display()
    );
    let key = run
        .session_dir()
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(
        key.starts_with("plain-") && key.len() == "plain-".len() + 12,
        "{key}"
    );

    let run = env
        .run_in(&dir, &["--dry-run", "some explicit text to review"])
        .ok();
    assert_eq!(run.metadata()["source"]["origin"], "argument");
    // `sessions` outside a repository lists that store.
    let list = env.run_in(&dir, &["sessions"]).ok();
    assert_eq!(list.stdout.lines().count(), 2, "{}", list.stdout);
}

#[test]
fn bare_repository_reviews_commits_but_has_no_work_tree() {
    let env = TestEnv::with_repo();
    let bare = env.root.join("bare.git");
    env.git_in(
        &env.root,
        &[
            "clone",
            "-q",
            "--bare",
            env.repo.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    let run = env.run_in(&bare, &["--dry-run"]).fails(2);
    assert!(
        one_line_error(&run.stderr).contains("bare repository"),
        "{}",
        run.stderr
    );
    let run = env
        .run_in(&bare, &["--dry-run", "--scope", "staged"])
        .fails(2);
    assert!(run.stderr.contains("bare repository"));
    let run = env
        .run_in(&bare, &["--dry-run", "--scope", "commit:HEAD"])
        .ok();
    assert!(run.session_dir().starts_with(bare.join("review-loop")));
}

#[test]
fn unborn_branch_diffs_against_the_empty_tree() {
    let env = TestEnv::new();
    env.git(&["init", "-q", "-b", "main"]);
    env.write("first.txt", "first\n");
    env.write("staged.txt", "staged\n");
    env.git(&["add", "staged.txt"]);
    let meta = env.run(&["--dry-run"]).ok().metadata();
    assert_eq!(paths(&meta), ["first.txt", "staged.txt"]);
    assert!(meta["scope"]["resolved"]["base"].is_null());
    let meta = env.run(&["--dry-run", "--scope", "staged"]).ok().metadata();
    assert_eq!(paths(&meta), ["staged.txt"]);
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).fails(2);
    assert!(
        one_line_error(&run.stderr).contains("no commits yet"),
        "{}",
        run.stderr
    );
    let run = env.run(&["--dry-run", "--scope", "base:main"]).fails(2);
    assert!(
        one_line_error(&run.stderr).contains("no commits yet"),
        "{}",
        run.stderr
    );
}

#[test]
fn detached_head_works_and_is_named() {
    let env = TestEnv::with_repo();
    env.write("a.txt", "a\n");
    let sha = env.commit_all("a");
    env.git(&["checkout", "-q", "--detach", "HEAD"]);
    env.write("a.txt", "a\nb\n");
    let run = env.run(&["--dry-run"]).ok();
    assert!(
        run.stdout.contains(&format!("detached at {}", &sha[..7])),
        "{}",
        run.stdout
    );
    assert_eq!(paths(&run.metadata()), ["a.txt"]);
    env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
}

#[test]
fn unknown_rev_and_malformed_scopes_are_usage_errors() {
    let env = TestEnv::with_repo();
    for (scope, says) in [
        ("commit:no-such-rev", "unknown revision 'no-such-rev'"),
        ("base:nope", "unknown revision 'nope'"),
        ("range:HEAD..nope", "unknown revision 'nope'"),
        ("commit:", "needs a value"),
        ("sideways", "malformed --scope 'sideways'"),
        ("range:HEAD", "malformed --scope range:HEAD"),
    ] {
        let run = env.run(&["--dry-run", "--scope", scope]).fails(2);
        assert!(
            one_line_error(&run.stderr).contains(says),
            "{scope}: {}",
            run.stderr
        );
    }
    // Nothing was stored for a failed resolution.
    assert_eq!(env.session_count(), 0);
}

#[test]
fn shallow_clone_without_merge_base_explains_how_to_deepen() {
    let env = TestEnv::with_repo();
    env.git(&["checkout", "-q", "-b", "feature"]);
    env.write("f.txt", "f\n");
    env.commit_all("feature");
    env.git(&["checkout", "-q", "main"]);
    env.write("m.txt", "m\n");
    env.commit_all("main");
    let shallow = env.root.join("shallow");
    let url = format!("file://{}", env.repo.display());
    env.git_in(
        &env.root,
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            "--no-single-branch",
            "-b",
            "feature",
            &url,
            shallow.to_str().unwrap(),
        ],
    );
    let run = env
        .run_in(&shallow, &["--dry-run", "--scope", "base:main"])
        .fails(2);
    let err = one_line_error(&run.stderr);
    assert!(
        err.contains("shallow") && err.contains("--unshallow"),
        "{err}"
    );
    // base:main found origin/main (a clone has no local main).
    assert!(err.contains("origin/main"), "{err}");
}

#[test]
fn a_ci_checkout_without_the_base_says_how_to_fetch_it() {
    let env = TestEnv::with_repo();
    env.git(&["checkout", "-q", "-b", "feature"]);
    env.write("f.txt", "f\n");
    env.commit_all("feature");
    // What actions/checkout makes: one commit of one branch, no other refs.
    let ci = env.root.join("ci");
    let url = format!("file://{}", env.repo.display());
    env.git_in(
        &env.root,
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            "-b",
            "feature",
            &url,
            ci.to_str().unwrap(),
        ],
    );
    let run = env
        .run_in(&ci, &["--dry-run", "--scope", "base:main"])
        .fails(2);
    let err = one_line_error(&run.stderr);
    assert!(
        err.contains("not in this shallow clone")
            && err.contains("git fetch --deepen=200 origin main:refs/remotes/origin/main"),
        "{err}"
    );
}

#[test]
fn linked_worktrees_share_the_common_session_store() {
    let env = TestEnv::with_repo();
    let wt = env.root.join("wt");
    env.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "wt-branch",
        wt.to_str().unwrap(),
    ]);
    std::fs::write(wt.join("wt.txt"), "from the worktree\n").unwrap();
    let run = env.run_in(&wt, &["--dry-run"]).ok();
    assert_eq!(paths(&run.metadata()), ["wt.txt"]);
    assert!(
        run.session_dir().starts_with(env.store()),
        "{}",
        run.session_dir().display()
    );
    // Visible from the main worktree, and the main tree's changes are its own.
    let list = env.run(&["sessions"]).ok();
    assert!(list
        .stdout
        .contains(run.session_dir().file_name().unwrap().to_str().unwrap()));
    env.run(&["--dry-run"])
        .ok()
        .stdout
        .contains("nothing to review");
}

#[test]
fn submodule_changes_are_pointer_changes_not_descended_into() {
    let env = TestEnv::with_repo();
    let sub = env.root.join("sub");
    std::fs::create_dir_all(&sub).unwrap();
    env.git_in(&sub, &["init", "-q", "-b", "main"]);
    std::fs::write(sub.join("inner.txt"), "inner v1\n").unwrap();
    env.git_in(&sub, &["add", "-A"]);
    env.git_in(&sub, &["commit", "-q", "-m", "v1"]);
    env.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        sub.to_str().unwrap(),
        "libsub",
    ]);
    env.commit_all("add submodule");
    let inner = env.repo.join("libsub");
    let old = env.git_in(&inner, &["rev-parse", "HEAD"]);
    std::fs::write(inner.join("inner.txt"), "inner v2 SECRET-INNER-CONTENT\n").unwrap();
    env.git_in(&inner, &["commit", "-q", "-am", "v2"]);
    let new = env.git_in(&inner, &["rev-parse", "HEAD"]);
    let run = env.run(&["--dry-run"]).ok();
    let meta = run.metadata();
    assert_eq!(paths(&meta), ["libsub"]);
    assert_eq!(meta["files"][0]["submodule"], serde_json::json!([old, new]));
    let art = run.artifact();
    assert!(!art.contains("SECRET-INNER-CONTENT"));
    assert!(
        art.contains(&format!("submodule pointer {} -> {}", &old[..7], &new[..7])),
        "{art}"
    );
}

#[test]
fn binary_files_are_listed_but_not_sent() {
    let env = TestEnv::with_repo();
    let mut bytes = b"PNG\0\0\x01binary-payload-marker".to_vec();
    bytes.extend(std::iter::repeat_n(0u8, 100));
    env.write_bytes("img.png", &bytes);
    env.write("code.rs", "fn main() {}\n");
    let run = env.run(&["--dry-run"]).ok();
    let meta = run.metadata();
    assert_eq!(paths(&meta), ["code.rs", "img.png"]);
    assert_eq!(meta["files"][1]["binary"], true);
    assert_eq!(meta["truncation"]["not_sent"][0]["path"], "img.png");
    assert!(!run.artifact().contains("binary-payload-marker"));
    assert!(
        run.artifact().contains("img.png (binary, not sent"),
        "{}",
        run.artifact()
    );
    assert!(
        run.stdout.contains("img.png: binary; content not sent"),
        "{}",
        run.stdout
    );
}

#[test]
fn non_utf8_text_is_shown_lossily_and_flagged() {
    let env = TestEnv::with_repo();
    env.write_bytes("latin1.txt", b"caf\xe9 cr\xe8me\n");
    let run = env.run(&["--dry-run"]).ok();
    let meta = run.metadata();
    assert_eq!(meta["files"][0]["lossy"], true);
    assert_eq!(meta["lossy"], true);
    assert!(
        run.artifact().contains("caf\u{FFFD} cr\u{FFFD}me"),
        "{}",
        run.artifact()
    );
    assert!(run.stdout.contains("not UTF-8"), "{}", run.stdout);
}

#[test]
fn file_scope_rejects_missing_outside_and_binary_paths() {
    let env = TestEnv::with_repo();
    std::fs::write(env.root.join("outside.md"), "# Design\n").unwrap();
    env.write_bytes("blob.bin", b"\0\0\0");
    for (scope, says) in [
        ("file:missing.md", "no such file"),
        ("file:../outside.md", "outside the work tree"),
        ("file:blob.bin", "binary file"),
        ("file:.", "is a directory"),
    ] {
        let run = env.run(&["--dry-run", "--scope", scope]).fails(2);
        assert!(
            one_line_error(&run.stderr).contains(says),
            "{scope}: {}",
            run.stderr
        );
    }
    // The hint works: --artifact-file reads any file.
    env.run(&["--dry-run", "--artifact-file", "../outside.md"])
        .ok();
}

#[test]
fn conflicted_index_is_reported_for_staged() {
    let env = TestEnv::with_repo();
    env.write("c.txt", "base\n");
    env.commit_all("base");
    env.git(&["checkout", "-q", "-b", "other"]);
    env.write("c.txt", "other\n");
    env.commit_all("other");
    env.git(&["checkout", "-q", "main"]);
    env.write("c.txt", "main\n");
    env.commit_all("main");
    let mut cmd = std::process::Command::new("git");
    cmd.args(["merge", "-q", "other"])
        .current_dir(&env.repo)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", &env.home);
    cmd.env("GIT_AUTHOR_NAME", "a")
        .env("GIT_AUTHOR_EMAIL", "a@b")
        .env("GIT_COMMITTER_NAME", "a")
        .env("GIT_COMMITTER_EMAIL", "a@b");
    assert!(!cmd.output().unwrap().status.success());
    let run = env.run(&["--dry-run", "--scope", "staged"]).fails(2);
    assert!(
        one_line_error(&run.stderr).contains("merge conflicts"),
        "{}",
        run.stderr
    );
}
