//! Every repository git can make: sparse checkouts, partial clones, sparse and split indexes,
//! sha256 and reftable repositories, a bare repository with `GIT_WORK_TREE`, and the diff
//! settings and attributes libgit2 lacks. Each is built with the real git in a temp dir and the
//! artifact's diff compared with `git diff`'s, line for line. A case the installed git cannot
//! build is skipped with a line that says so.

use serde_json::json;

use crate::common::TestEnv;

/// What the artifact shows of git's patch: all but the `index`, `similarity index` and
/// `dissimilarity index` lines, and no binary file (listed, never sent): none whose header is
/// one of `binary`'s, none git calls binary.
fn shown(git: &str, binary: &[String]) -> Vec<String> {
    let mut sections: Vec<Vec<&str>> = Vec::new();
    for line in git.split('\n') {
        if line.starts_with("diff --git ") || sections.is_empty() {
            sections.push(Vec::new());
        }
        sections.last_mut().unwrap().push(line);
    }
    sections
        .into_iter()
        .filter(|s| {
            !binary.iter().any(|h| h == s[0]) && !s.iter().any(|l| l.starts_with("Binary files "))
        })
        .flatten()
        .filter(|l| {
            !["index ", "similarity index ", "dissimilarity index "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// The lines of the artifact's diff blocks.
fn artifact_diff(artifact: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fence: Option<String> = None;
    for line in artifact.split('\n') {
        match &fence {
            Some(f) if line == f => fence = None,
            Some(_) => out.push(line.to_string()),
            None => {
                if let Some(f) = line.strip_suffix("diff").filter(|f| f.starts_with("```")) {
                    fence = Some(f.to_string());
                }
            }
        }
    }
    out.retain(|l| !l.is_empty());
    out
}

/// Runs `--scope scope` in `dir` (with `vars`) and asserts its diff is `git_args`'s.
fn same_as_git_in(
    env: &TestEnv,
    dir: &std::path::Path,
    vars: &[(&str, &str)],
    scope: &str,
    git_args: &[&str],
) -> crate::common::Run {
    let mut cmd = env.cmd_in(dir);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let run = crate::common::to_run(
        cmd.args([
            "--dry-run",
            "--scope",
            scope,
            "--max-artifact-bytes",
            "4194304",
        ])
        .output()
        .unwrap(),
    )
    .ok();
    let out = std::process::Command::new("git")
        .env_clear()
        .env("PATH", env.path())
        .env("HOME", &env.home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", env.home.join(".gitconfig"))
        .env("LANG", "C.UTF-8")
        .envs(vars.iter().copied())
        .args(git_args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {git_args:?}: {out:?}");
    let binary: Vec<String> = run.metadata()["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["binary"] == true)
        .map(|f| {
            let new = f["path"].as_str().unwrap();
            let old = f["old_path"].as_str().unwrap_or(new);
            format!("diff --git a/{old} b/{new}")
        })
        .collect();
    let want = shown(&String::from_utf8_lossy(&out.stdout), &binary);
    assert!(!want.is_empty(), "git {git_args:?} shows nothing");
    assert_eq!(
        artifact_diff(&run.artifact()),
        want,
        "--scope {scope} against git {git_args:?}"
    );
    run
}

fn same_as_git(env: &TestEnv, scope: &str, git_args: &[&str]) -> crate::common::Run {
    same_as_git_in(env, &env.repo, &[], scope, git_args)
}

/// Whether the installed git can run `args` in a scratch folder; prints a skip line when not.
fn git_can(env: &TestEnv, what: &str, args: &[&str]) -> bool {
    let dir = env.root.join(format!("probe-{}", what.replace(' ', "-")));
    std::fs::create_dir_all(&dir).unwrap();
    let ok = std::process::Command::new("git")
        .args(args)
        .current_dir(&dir)
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("skipped: the installed git cannot make {what} (git {args:?} failed)");
    }
    ok
}

/// Two folders, a few commits and a branch: enough for every scope.
fn history(env: &TestEnv) {
    for (path, text) in [
        ("a/x.txt", "one\ntwo\nthree\n"),
        ("a/y.txt", "alpha\nbeta\n"),
        ("b/z.txt", "outside\n"),
        ("b/w.txt", "also outside\n"),
    ] {
        env.write(path, text);
    }
    env.commit_all("base");
    env.git(&["branch", "topic-base"]);
    env.write("a/x.txt", "one\n2\nthree\n");
    env.write("b/z.txt", "outside, changed\n");
    env.git(&["mv", "a/y.txt", "a/moved.txt"]);
    env.commit_all("change");
}

/// Every scope of `env`'s repository, compared with git's diff of the same sides.
fn every_scope_is_gits(env: &TestEnv) {
    same_as_git(env, "commit:HEAD", &["diff", "HEAD~1", "HEAD"]);
    same_as_git(env, "base:topic-base", &["diff", "topic-base...HEAD"]);
    same_as_git(env, "range:HEAD~1..HEAD", &["diff", "HEAD~1", "HEAD"]);
    env.write("a/x.txt", "one\n2\nthree\nfour\n");
    env.git(&["add", "a/x.txt"]);
    same_as_git(env, "staged", &["diff", "--cached"]);
    env.write("a/moved.txt", "alpha\nbeta\ngamma\n");
    same_as_git(env, "uncommitted", &["diff", "HEAD"]);
}

#[test]
fn a_sparse_checkout_lists_no_file_outside_it() {
    for (cone, sparse_index) in [(true, false), (true, true), (false, false)] {
        let env = TestEnv::with_repo();
        history(&env);
        let mut set = vec!["sparse-checkout", "set"];
        set.push(if cone { "--cone" } else { "--no-cone" });
        if sparse_index {
            set.push("--sparse-index");
        }
        set.push(if cone { "a" } else { "/a/" });
        env.git(&set);
        assert!(!env.repo.join("b/z.txt").exists());
        env.write("a/x.txt", "one\n2\nthree\nedited\n");
        let run = same_as_git(&env, "uncommitted", &["diff", "HEAD"]);
        assert!(
            !run.stdout.contains("b/z.txt"),
            "cone {cone}, sparse index {sparse_index}: {}",
            run.stdout
        );
        // An untracked file inside the checkout is listed, with its content.
        env.write("a/new.txt", "fresh\n");
        let meta = env
            .run(&["--dry-run", "--scope", "uncommitted"])
            .ok()
            .metadata();
        let mut paths = crate::common::paths(&meta);
        paths.sort();
        assert_eq!(paths, ["a/new.txt", "a/x.txt"]);
        std::fs::remove_file(env.repo.join("a/new.txt")).unwrap();
        env.git(&["add", "a/x.txt"]);
        same_as_git(&env, "staged", &["diff", "--cached"]);
    }
}

#[test]
fn a_blobless_clone_fetches_what_the_diff_needs() {
    let env = TestEnv::with_repo();
    history(&env);
    env.git(&["config", "uploadpack.allowFilter", "true"]);
    env.git(&["config", "uploadpack.allowAnySHA1InWant", "true"]);
    let clone = env.root.join("clone");
    let url = format!("file://{}", env.repo.display());
    env.git_in(
        &env.root,
        &[
            "clone",
            "-q",
            "--filter=blob:none",
            "--no-checkout",
            &url,
            clone.to_str().unwrap(),
        ],
    );
    env.git_in(&clone, &["branch", "topic-base", "origin/topic-base"]);
    let missing = env.git_in(
        &clone,
        &["rev-list", "--objects", "--all", "--missing=print"],
    );
    assert!(missing.lines().any(|l| l.starts_with('?')), "{missing}");
    same_as_git_in(
        &env,
        &clone,
        &[],
        "commit:HEAD",
        &["diff", "HEAD~1", "HEAD"],
    );
    same_as_git_in(
        &env,
        &clone,
        &[],
        "base:topic-base",
        &["diff", "topic-base...HEAD"],
    );
    same_as_git_in(
        &env,
        &clone,
        &[],
        "range:HEAD~1..HEAD",
        &["diff", "HEAD~1", "HEAD"],
    );
}

/// A hook installed, and a commit it reviews (the reviewer says it is fine) goes through.
fn the_hook_runs(env: &TestEnv) {
    env.run(&["hook", "install"]).ok();
    // The reviewer reads the staged file in its copy of the revision.
    env.fake("codex", json!({"answer": "LGTM", "read": ["a/hooked.txt"]}));
    env.fake("claude", json!({}));
    env.write("a/hooked.txt", "reviewed\n");
    env.git(&["add", "a/hooked.txt"]);
    let before = env.git(&["rev-list", "--count", "HEAD"]);
    let run = env.git_run(&["commit", "-q", "-m", "hooked"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert_eq!(env.fake_calls("codex").len(), 1, "{}", run.stderr);
    let after: u32 = env.git(&["rev-list", "--count", "HEAD"]).parse().unwrap();
    assert_eq!(after, before.parse::<u32>().unwrap() + 1);
    let store = env.repo.join(".git/review-loop");
    let read = crate::common::all_files(&store)
        .iter()
        .any(|(_, bytes)| String::from_utf8_lossy(bytes).contains("READ a/hooked.txt: reviewed"));
    assert!(read, "the reviewer's copy lacks the staged file");
}

#[test]
fn sparse_and_split_indexes_work_for_every_scope_and_the_hook() {
    for (what, config) in [
        ("a sparse index", ["index.sparse", "true"]),
        ("a split index", ["core.splitIndex", "true"]),
    ] {
        let env = TestEnv::with_repo();
        history(&env);
        env.git(&["config", config[0], config[1]]);
        if what == "a sparse index" {
            env.git(&["sparse-checkout", "set", "--sparse-index", "a", "b"]);
        } else {
            env.git(&["update-index", "--split-index"]);
        }
        // The index now has an extension libgit2 refuses.
        let run = env.git_run(&["status", "--short"]);
        assert_eq!(run.code, 0, "{what}");
        every_scope_is_gits(&env);
        env.git(&["commit", "-qam", "more"]);
        the_hook_runs(&env);
    }
}

#[test]
fn sha256_and_reftable_repositories_work_for_every_scope_and_the_hook() {
    for (what, init) in [
        ("a sha256 repository", "--object-format=sha256"),
        ("a reftable repository", "--ref-format=reftable"),
    ] {
        let env = TestEnv::new();
        if !git_can(&env, what, &["init", "-q", init]) {
            continue;
        }
        env.git(&["init", "-q", "-b", "main", init]);
        history(&env);
        every_scope_is_gits(&env);
        env.git(&["commit", "-qam", "more"]);
        the_hook_runs(&env);
        let meta = env
            .run(&["--dry-run", "--scope", "commit:HEAD"])
            .ok()
            .metadata();
        assert_eq!(
            meta["scope"]["resolved"]["head"].as_str().unwrap(),
            env.git(&["rev-parse", "HEAD"]),
            "{what}"
        );
    }
}

#[test]
fn a_move_of_150_identical_files_is_150_renames() {
    let env = TestEnv::with_repo();
    for i in 0..150 {
        env.write(&format!("old/d{i:03}/.gitkeep"), "");
    }
    env.commit_all("keep");
    env.git(&["mv", "old", "new"]);
    env.commit_all("move");
    let run = same_as_git(&env, "commit:HEAD", &["diff", "HEAD~1", "HEAD"]);
    let meta = run.metadata();
    let statuses: Vec<&str> = meta["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses.len(), 150);
    assert!(statuses.iter().all(|s| *s == "renamed"), "{statuses:?}");
}

#[test]
fn a_histogram_diff_is_gits() {
    let env = TestEnv::with_repo();
    // Myers and histogram pair these lines differently.
    let before = "b\n{\n{\ny\na\nx\n";
    let after = "b\n{\n{\nx\ny\nx\na\n";
    env.write("f.txt", before);
    env.commit_all("before");
    env.write("f.txt", after);
    env.commit_all("after");
    let myers = env.git(&["diff", "--diff-algorithm=myers", "HEAD~1", "HEAD"]);
    let histogram = env.git(&["diff", "--diff-algorithm=histogram", "HEAD~1", "HEAD"]);
    assert_ne!(myers, histogram, "the case must tell the algorithms apart");
    env.git(&["config", "diff.algorithm", "histogram"]);
    same_as_git(&env, "commit:HEAD", &["diff", "HEAD~1", "HEAD"]);
    env.write("f.txt", before);
    same_as_git(&env, "uncommitted", &["diff", "HEAD"]);
}

#[test]
fn a_textconv_driver_and_a_built_in_function_name_driver_are_gits() {
    let env = TestEnv::with_repo();
    env.write(
        ".gitattributes",
        "*.upper diff=upper\n*.rs diff=rust\n*.md diff=markdown\n",
    );
    env.git(&["config", "diff.upper.textconv", "tr a-z A-Z <"]);
    let rust = |v: &str| {
        format!(
            "impl Thing {{\n    fn first(&self) {{\n        one();\n        two();\n        three();\n        four();\n    }}\n\n    fn second(&self) {{\n        five();\n        six();\n        seven();\n        {v}();\n    }}\n}}\n"
        )
    };
    let md = |v: &str| format!("# Title\n\ntext\n\n## Section\n\none\ntwo\nthree\nfour\n{v}\n");
    env.write("lib.rs", &rust("eight"));
    env.write("notes.md", &md("five"));
    env.write("shout.upper", "quiet words\nstay\n");
    env.commit_all("base");
    env.write("lib.rs", &rust("nine"));
    env.write("notes.md", &md("six"));
    env.write("shout.upper", "quiet words\nchanged\n");
    env.commit_all("change");
    let git = env.git(&["diff", "HEAD~1", "HEAD"]);
    assert!(git.contains("@@ fn second(&self) {"), "{git}");
    assert!(git.contains("@@ ## Section"), "{git}");
    assert!(git.contains("+CHANGED"), "{git}");
    same_as_git(&env, "commit:HEAD", &["diff", "HEAD~1", "HEAD"]);
    env.write("lib.rs", &rust("ten"));
    same_as_git(&env, "uncommitted", &["diff", "HEAD"]);
}

#[test]
fn diff_context_is_gits_unless_ours_is_set() {
    let env = TestEnv::with_repo();
    let text = |a: &str, b: &str| {
        (0..30)
            .map(|i| match i {
                5 => format!("{a}\n"),
                12 => format!("{b}\n"),
                _ => format!("line {i}\n"),
            })
            .collect::<String>()
    };
    env.write("f.txt", &text("x", "y"));
    env.commit_all("base");
    env.write("f.txt", &text("X", "Y"));
    env.commit_all("change");
    env.git(&["config", "diff.context", "1"]);
    same_as_git(&env, "commit:HEAD", &["diff", "HEAD~1", "HEAD"]);
    env.git(&["config", "diff.interHunkContext", "6"]);
    let run = same_as_git(&env, "commit:HEAD", &["diff", "HEAD~1", "HEAD"]);
    assert_eq!(
        artifact_diff(&run.artifact())
            .iter()
            .filter(|l| l.starts_with("@@"))
            .count(),
        1
    );
    env.git(&["config", "debate.contextLines", "4"]);
    same_as_git(&env, "commit:HEAD", &["diff", "-U4", "HEAD~1", "HEAD"]);
}

#[test]
fn a_bare_repository_with_a_work_tree_elsewhere_is_reviewed_like_git() {
    // The dotfiles pattern: `git --git-dir=~/.dotfiles --work-tree=~ debate`.
    let env = TestEnv::new();
    let dots = env.root.join("dots.git");
    env.git_in(&env.root, &["init", "-q", "--bare", dots.to_str().unwrap()]);
    let vars = [
        ("GIT_DIR", dots.to_str().unwrap()),
        ("GIT_WORK_TREE", env.repo.to_str().unwrap()),
    ];
    env.write(".bashrc", "alias ll='ls -l'\n");
    env.git_run_env(&["add", ".bashrc"], &vars).ok();
    env.git_run_env(&["commit", "-qm", "dots"], &vars).ok();
    env.write(".bashrc", "alias ll='ls -la'\n");
    same_as_git_in(&env, &env.repo, &vars, "uncommitted", &["diff", "HEAD"]);
    same_as_git_in(
        &env,
        &env.repo,
        &vars,
        "commit:HEAD",
        &["show", "--format=", "HEAD"],
    );
}

#[test]
fn copies_and_binary_renames_are_headed_and_flagged_as_git_does() {
    let env = TestEnv::with_repo();
    let body: String = (0..20).map(|i| format!("shared line {i}\n")).collect();
    env.write("src.txt", &body);
    env.write_bytes("logo.bin", b"\x89PNG\0\0binary\0content");
    env.commit_all("base");
    env.write("copy.txt", &body);
    env.write("src.txt", &format!("{body}one more\n"));
    std::fs::create_dir(env.repo.join("art")).unwrap();
    env.git(&["mv", "logo.bin", "art/logo.bin"]);
    env.commit_all("copy and move");
    env.git(&["config", "diff.renames", "copies"]);
    let git = env.git(&["diff", "HEAD~1", "HEAD"]);
    assert!(git.contains("copy from src.txt\ncopy to copy.txt"), "{git}");
    let run = same_as_git(&env, "commit:HEAD", &["diff", "HEAD~1", "HEAD"]);
    let meta = run.metadata();
    let logo = meta["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"] == "art/logo.bin")
        .unwrap()
        .clone();
    assert_eq!(logo["status"], "renamed");
    assert_eq!(logo["binary"], true, "{logo}");
}

#[test]
fn stale_stat_data_is_refreshed_once_and_written_back_under_the_lock() {
    let env = TestEnv::with_repo();
    for i in 0..20 {
        env.write(&format!("f{i}.txt"), &format!("file {i}\n"));
    }
    env.commit_all("files");
    // Touched, not changed: the index's stat data no longer matches.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    for i in 0..20 {
        let f = std::fs::File::options()
            .write(true)
            .open(env.repo.join(format!("f{i}.txt")))
            .unwrap();
        f.set_modified(later).unwrap();
    }
    env.write("f0.txt", "file 0, edited\n");
    let stale = || env.git(&["diff-files", "--name-only"]);
    assert!(stale().lines().count() >= 20, "{}", stale());
    // Another git holds the index: nothing is written, and the review still works.
    let lock = env.repo.join(".git/index.lock");
    std::fs::write(&lock, b"").unwrap();
    same_as_git(&env, "uncommitted", &["diff", "HEAD"]);
    assert!(stale().lines().count() >= 20);
    assert_eq!(std::fs::read(&lock).unwrap(), b"");
    std::fs::remove_file(&lock).unwrap();
    // `--no-optional-locks` asks for no write either.
    env.run_env(
        &["--dry-run", "--scope", "uncommitted"],
        &[("GIT_OPTIONAL_LOCKS", "0")],
    )
    .ok();
    assert!(stale().lines().count() >= 20);
    // Now the refreshed index is written back: only the edited file is left to read.
    env.run(&["--dry-run", "--scope", "uncommitted"]).ok();
    assert_eq!(stale(), "f0.txt");
    same_as_git(&env, "uncommitted", &["diff", "HEAD"]);
}

#[test]
fn a_touched_file_is_refreshed_and_an_edit_of_the_same_size_is_not() {
    let env = TestEnv::with_repo();
    for i in 0..3 {
        env.write(&format!("f{i}.txt"), &format!("file {i}\n"));
    }
    env.commit_all("files");
    // Edited to another text of the same size: its stat data changed, its size did not.
    env.write("f0.txt", "FILE 0\n");
    let stale = || env.git(&["diff-files", "--name-only"]);
    let index = env.repo.join(".git/index");
    let before = std::fs::read(&index).unwrap();
    env.run(&["--dry-run", "--scope", "uncommitted"]).ok();
    // Nothing to refresh: the index is as it was.
    assert_eq!(std::fs::read(&index).unwrap(), before);
    assert_eq!(stale(), "f0.txt");
    // Touched, not changed: refreshed and written back.
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(5);
    std::fs::File::options()
        .write(true)
        .open(env.repo.join("f1.txt"))
        .unwrap()
        .set_modified(later)
        .unwrap();
    assert_eq!(stale(), "f0.txt\nf1.txt");
    env.run(&["--dry-run", "--scope", "uncommitted"]).ok();
    assert_eq!(stale(), "f0.txt");
    same_as_git(&env, "uncommitted", &["diff", "HEAD"]);
}
