//! Renames and copies paired as `git diff` pairs them (exact, by file name, by similarity, under
//! `diff.renames` and `diff.renameLimit`), and a renamed file's hunks as git makes them; compared
//! with the real git on generated repositories.

use crate::common::TestEnv;

/// `status\told\tnew` lines of a dry run's file list, sorted, as `git diff --name-status` has them
/// (without git's similarity digits).
fn our_name_status(env: &TestEnv, scope: &str) -> Vec<String> {
    let run = env
        .run(&["--dry-run", "--format", "json", "--scope", scope])
        .ok();
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let mut out: Vec<String> = json["metadata"]["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let letter = match f["status"].as_str().unwrap() {
                "added" | "untracked" => "A",
                "deleted" => "D",
                "renamed" => "R",
                "copied" => "C",
                "typechange" => "T",
                _ => "M",
            };
            match f["old_path"].as_str() {
                Some(old) => format!("{letter}\t{old}\t{}", f["path"].as_str().unwrap()),
                None => format!("{letter}\t{}", f["path"].as_str().unwrap()),
            }
        })
        .collect();
    out.sort();
    out
}

fn git_name_status(env: &TestEnv, args: &[&str]) -> Vec<String> {
    let mut all = vec!["diff", "--name-status"];
    all.extend_from_slice(args);
    let mut out: Vec<String> = env
        .git(&all)
        .lines()
        .map(|l| {
            let (status, rest) = l.split_once('\t').unwrap();
            format!("{}\t{rest}", &status[..1])
        })
        .collect();
    out.sort();
    out
}

/// Twenty ten-byte lines; `keep` of them are shared with `variant`'s other versions.
fn lines(seed: &str, keep: usize, variant: &str) -> String {
    (0..20)
        .map(|i| {
            if i < keep {
                format!("{seed}-{i:04}\n")
            } else {
                format!("{variant}-{i:04}\n")
            }
        })
        .collect()
}

#[test]
fn renames_and_copies_are_paired_as_git_pairs_them() {
    let env = TestEnv::with_repo();
    // (old path, old content, new path, new content); None: no such side.
    let cases: Vec<(Option<&str>, String, Option<&str>, String)> = vec![
        // An exact rename, and a CRLF conversion on the way.
        (
            Some("exact/a.txt"),
            lines("ex", 20, ""),
            Some("moved/a.txt"),
            lines("ex", 20, ""),
        ),
        (
            Some("crlf/dos.txt"),
            lines("cr", 20, ""),
            Some("moved/dos.txt"),
            lines("cr", 20, "").replace('\n', "\r\n"),
        ),
        // Around git's 50 %: 11, 10 and 9 of 20 lines kept.
        (
            Some("half/k11.txt"),
            lines("h11", 20, ""),
            Some("new/k11b.txt"),
            lines("h11", 11, "x"),
        ),
        (
            Some("half/k10.txt"),
            lines("h10", 20, ""),
            Some("new/k10b.txt"),
            lines("h10", 10, "x"),
        ),
        (
            Some("half/k09.txt"),
            lines("h09", 20, ""),
            Some("new/k09b.txt"),
            lines("h09", 9, "x"),
        ),
        // Three identical sources for two destinations: the first in path order, unless another
        // has the same file name.
        (
            Some("dup/one/same.txt"),
            lines("dup", 20, ""),
            None,
            String::new(),
        ),
        (
            Some("dup/two/same.txt"),
            lines("dup", 20, ""),
            None,
            String::new(),
        ),
        (
            Some("dup/other.txt"),
            lines("dup", 20, ""),
            None,
            String::new(),
        ),
        (
            None,
            String::new(),
            Some("dst/same.txt"),
            lines("dup", 20, ""),
        ),
        (
            None,
            String::new(),
            Some("dst/copy.txt"),
            lines("dup", 20, ""),
        ),
        // Same name at 80 % is taken before a better match under another name (git pairs
        // unique names first at 75 %); at 70 % the better match wins.
        (
            Some("byname/keep.txt"),
            lines("bn", 20, ""),
            Some("to/keep.txt"),
            lines("bn", 16, "y"),
        ),
        (
            Some("byname/alt.txt"),
            lines("bn", 19, "z"),
            None,
            String::new(),
        ),
        (
            Some("weak/hold.txt"),
            lines("wk", 20, ""),
            Some("to/hold.txt"),
            lines("wk", 14, "y"),
        ),
        (
            Some("weak/better.txt"),
            lines("wk", 18, "z"),
            None,
            String::new(),
        ),
        // A modified file is a copy source only with diff.renames=copies.
        (
            Some("src/orig.txt"),
            lines("cp", 20, ""),
            Some("src/orig.txt"),
            lines("cp", 19, "m"),
        ),
        (
            None,
            String::new(),
            Some("src/copied.txt"),
            lines("cp", 20, ""),
        ),
    ];
    for (old, content, _, _) in &cases {
        if let Some(old) = old {
            env.write(old, content);
        }
    }
    env.commit_all("before");
    for (old, _, new, content) in &cases {
        if let Some(old) = old {
            std::fs::remove_file(env.repo.join(old)).unwrap();
        }
        if let Some(new) = new {
            env.write(new, content);
        }
    }
    env.commit_all("after");

    for config in [None, Some("false"), Some("copies")] {
        if let Some(value) = config {
            env.git(&["config", "diff.renames", value]);
        }
        let git = git_name_status(&env, &["HEAD~1", "HEAD"]);
        assert_eq!(
            our_name_status(&env, "commit:HEAD"),
            git,
            "diff.renames={config:?}"
        );
        if config.is_none() {
            for want in [
                "R\thalf/k10.txt\tnew/k10b.txt",
                "A\tnew/k09b.txt",
                "R\tbyname/keep.txt\tto/keep.txt",
                "R\tweak/better.txt\tto/hold.txt",
                "R\tdup/two/same.txt\tdst/same.txt",
                "R\tdup/one/same.txt\tdst/copy.txt",
            ] {
                assert!(git.contains(&want.to_string()), "{want}: {git:?}");
            }
        }
    }
    // The rename limit: over it, git (and we) list adds and deletes, and say so.
    env.git(&["config", "diff.renames", "true"]);
    env.git(&["config", "diff.renameLimit", "2"]);
    let git = git_name_status(&env, &["HEAD~1", "HEAD"]);
    // Exact and same-name renames come before the limit is checked; the rest are not paired.
    assert!(git.contains(&"A\tnew/k11b.txt".to_string()), "{git:?}");
    assert!(
        git.contains(&"R\tbyname/keep.txt\tto/keep.txt".to_string()),
        "{git:?}"
    );
    assert_eq!(our_name_status(&env, "commit:HEAD"), git);
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    assert!(
        run.stdout.contains("diff.renameLimit to at least"),
        "{}",
        run.stdout
    );

    // The same change staged, and in the work tree.
    env.git(&["config", "--unset", "diff.renameLimit"]);
    env.git(&["reset", "-q", "--soft", "HEAD~1"]);
    assert_eq!(
        our_name_status(&env, "staged"),
        git_name_status(&env, &["--cached"])
    );
    assert_eq!(
        our_name_status(&env, "uncommitted"),
        git_name_status(&env, &["HEAD"])
    );
}

#[test]
fn a_renamed_files_hunks_use_its_diff_driver_as_git_does() {
    // The python driver names the method a hunk is in; git's default would name the class.
    let env = TestEnv::with_repo();
    env.write(".gitattributes", "*.py diff=python\n");
    let method = |edit: &str| -> String {
        let body: String = (0..12).map(|i| format!("        step({i})\n")).collect();
        format!("class Shape:\n    def area(self):\n{body}        return {edit}\n")
    };
    env.write("old/shape.py", &method("1"));
    env.commit_all("base");
    std::fs::remove_file(env.repo.join("old/shape.py")).unwrap();
    env.write("new/shape.py", &method("2"));
    let hunk_headers = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.starts_with("@@ ") || l.starts_with("rename "))
            .map(str::to_string)
            .collect()
    };
    // In the work tree (the new side read from disk), staged, then committed.
    let ours = hunk_headers(
        &env.run(&["--dry-run", "--scope", "uncommitted"])
            .ok()
            .artifact(),
    );
    env.git(&["add", "-A"]);
    let git = hunk_headers(&env.git(&["diff", "--cached"]));
    assert!(
        git.iter().any(|l| l.ends_with("def area(self):")),
        "{git:?}"
    );
    assert_eq!(ours, git);
    let staged = hunk_headers(&env.run(&["--dry-run", "--scope", "staged"]).ok().artifact());
    assert_eq!(staged, git);
    env.commit_all("move");
    let commit = hunk_headers(
        &env.run(&["--dry-run", "--scope", "commit:HEAD"])
            .ok()
            .artifact(),
    );
    assert_eq!(commit, git);
}

#[test]
fn a_submodule_moved_with_the_same_commit_is_a_rename() {
    let env = TestEnv::with_repo();
    let pointer = env.git(&["rev-parse", "HEAD"]);
    let add = |path: &str| {
        env.git(&[
            "update-index",
            "--add",
            "--cacheinfo",
            &format!("160000,{pointer},{path}"),
        ]);
    };
    add("vendor/lib");
    env.git(&["commit", "-qm", "a submodule"]);
    env.git(&["rm", "-q", "--cached", "vendor/lib"]);
    add("third_party/lib");
    env.git(&["commit", "-qm", "moved"]);
    let git = git_name_status(&env, &["HEAD~1", "HEAD"]);
    assert_eq!(git, ["R\tvendor/lib\tthird_party/lib"]);
    assert_eq!(our_name_status(&env, "commit:HEAD"), git);
}

#[test]
fn git_dash_c_settings_are_honoured_as_git_honours_them() {
    // `git -c diff.renames=false debate` passes the setting in GIT_CONFIG_PARAMETERS, which
    // libgit2 does not read.
    let env = TestEnv::with_repo();
    env.write("old/name.txt", &lines("gc", 20, ""));
    env.commit_all("base");
    std::fs::remove_file(env.repo.join("old/name.txt")).unwrap();
    env.write("new/name.txt", &lines("gc", 20, ""));
    env.commit_all("move");
    let ours = |params: &str| -> Vec<String> {
        let run = env
            .run_env(
                &["--dry-run", "--format", "json", "--scope", "commit:HEAD"],
                &[("GIT_CONFIG_PARAMETERS", params)],
            )
            .ok();
        let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        let mut statuses: Vec<String> = json["metadata"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["status"].as_str().unwrap().to_string())
            .collect();
        statuses.sort();
        statuses
    };
    let git = |config: &str| -> usize {
        env.git(&["-c", config, "diff", "--name-status", "HEAD~1", "HEAD"])
            .lines()
            .count()
    };
    assert_eq!(
        (git("diff.renames=true"), ours("")),
        (1, vec!["renamed".to_string()])
    );
    assert_eq!(
        (git("diff.renames=false"), ours("'diff.renames'='false'")),
        (2, vec!["added".to_string(), "deleted".to_string()])
    );
}
