//! Opt-in: the integrations checked with the real tools, not with our reading of their docs.
//!
//! Skipped unless `GIT_DEBATE_INTEGRATIONS=1` (`scripts/check-integrations.sh` installs the tools
//! and sets everything). Then a missing tool is a failure, not a skip:
//!
//! * `.pre-commit-hooks.yaml` passes `validate-manifest` of every pre-commit in
//!   `GIT_DEBATE_PRE_COMMIT` (paths, space-separated; default `pre-commit` on PATH), and a real
//!   `git commit` through each of them shows the review's verdict when it blocks and the warning
//!   when no model answered and the commit went through (`verbose: true`).
//! * With `GIT_DEBATE_INTEGRATIONS_RUST=1` too: the `git-debate-rust` hook, which pre-commit
//!   builds from this checkout with `cargo install` (minutes).
//! * `examples/github-actions.yml` and `.github/workflows/release.yml` pass actionlint
//!   (`GIT_DEBATE_ACTIONLINT`, default `actionlint` on PATH; it runs shellcheck on the scripts
//!   when shellcheck is installed).
//! * `examples/gitlab-ci.yml` is valid against GitLab's schema (`GIT_DEBATE_CHECK_JSONSCHEMA`,
//!   default `check-jsonschema`), and a real review's `--format codequality`, as the job runs it,
//!   has every field GitLab requires.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::common::{to_run, Run, TestEnv};

fn enabled() -> bool {
    let on = std::env::var("GIT_DEBATE_INTEGRATIONS").ok().as_deref() == Some("1");
    if !on {
        eprintln!("skipped: set GIT_DEBATE_INTEGRATIONS=1 (scripts/check-integrations.sh)");
    }
    on
}

fn project() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A tool named by `var`, else `name` from PATH; a failure when neither is there.
fn tool(var: &str, name: &str) -> PathBuf {
    if let Some(p) = std::env::var_os(var).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!("GIT_DEBATE_INTEGRATIONS=1 but no {name}: set {var} or put it on PATH")
        })
}

fn pre_commits() -> Vec<PathBuf> {
    match std::env::var("GIT_DEBATE_PRE_COMMIT") {
        Ok(list) if !list.trim().is_empty() => list.split_whitespace().map(PathBuf::from).collect(),
        _ => vec![tool("GIT_DEBATE_PRE_COMMIT", "pre-commit")],
    }
}

fn version(exe: &Path, flag: &str) -> String {
    let out = Command::new(exe).arg(flag).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .trim()
        .to_string()
}

/// `pre-commit validate-manifest`; pre-commit 1.x has it as a program of its own.
fn validate_manifest(pc: &Path) -> Run {
    let run = to_run(
        Command::new(pc)
            .args(["validate-manifest", ".pre-commit-hooks.yaml"])
            .current_dir(project())
            .output()
            .unwrap(),
    );
    let separate = pc.with_file_name("pre-commit-validate-manifest");
    if run.code != 0 && run.stderr.contains("invalid choice") && separate.is_file() {
        return to_run(
            Command::new(separate)
                .arg(".pre-commit-hooks.yaml")
                .current_dir(project())
                .output()
                .unwrap(),
        );
    }
    run
}

#[test]
fn the_hook_manifest_validates_on_each_pre_commit() {
    if !enabled() {
        return;
    }
    for pc in pre_commits() {
        let v = version(&pc, "--version");
        let run = validate_manifest(&pc);
        assert_eq!(
            run.code, 0,
            "{v}: validate-manifest failed\n{}{}",
            run.stdout, run.stderr
        );
        assert!(
            !format!("{}{}", run.stdout, run.stderr).contains("arning"),
            "{v}: warnings\n{}{}",
            run.stdout,
            run.stderr
        );
        eprintln!("{v}: .pre-commit-hooks.yaml is valid");
    }
}

/// A repository that installs our hook `id` from a copy of the manifest (all a `language:
/// system` hook needs from its repository), through the pre-commit at `pc`.
fn repo_with_pre_commit(pc: &Path, id: &str) -> TestEnv {
    let env = TestEnv::with_repo();
    std::os::unix::fs::symlink(
        assert_cmd::cargo::cargo_bin("git-debate"),
        env.root.join("bin/git-debate"),
    )
    .unwrap();
    let hooks = env.root.join("hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    std::fs::copy(
        project().join(".pre-commit-hooks.yaml"),
        hooks.join(".pre-commit-hooks.yaml"),
    )
    .unwrap();
    env.git_in(&hooks, &["init", "-q", "-b", "main"]);
    env.git_in(&hooks, &["add", "-A"]);
    env.git_in(&hooks, &["commit", "-q", "-m", "hooks"]);
    let rev = env.git_in(&hooks, &["rev-parse", "HEAD"]);
    env.write(
        ".pre-commit-config.yaml",
        &format!(
            "repos:\n- repo: {}\n  rev: {rev}\n  hooks:\n  - id: {id}\n",
            hooks.display()
        ),
    );
    env.commit_all("pre-commit config");
    let mut cmd = Command::new(pc);
    cmd.env_clear()
        .env("PATH", env.path())
        .env("HOME", &env.home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", env.home.join(".gitconfig"))
        .arg("install")
        .current_dir(&env.repo);
    let run = to_run(cmd.output().unwrap());
    assert_eq!(
        run.code, 0,
        "pre-commit install\n{}{}",
        run.stdout, run.stderr
    );
    env
}

/// What a person sees of a `git commit` (git runs the hook with its output on stderr).
fn commit(env: &TestEnv, message: &str) -> Run {
    env.git_run(&["commit", "-q", "-m", message])
}

#[test]
fn pre_commit_shows_the_verdict_and_the_warning() {
    if !enabled() {
        return;
    }
    for pc in pre_commits() {
        let v = version(&pc, "--version");

        // No model installed: the commit goes through, and the warning is there to read.
        let env = repo_with_pre_commit(&pc, "git-debate");
        env.write("a.txt", "x\n");
        env.git(&["add", "a.txt"]);
        let run = commit(&env, "add a");
        let seen = format!("{}{}", run.stdout, run.stderr);
        assert_eq!(run.code, 0, "{v}: the commit was blocked\n{seen}");
        assert!(
            seen.contains("Passed") && seen.contains("- hook id: git-debate"),
            "{v}\n{seen}"
        );
        assert!(
            seen.contains("warning: git debate: no second opinion for this commit"),
            "{v}: the warning is hidden\n{seen}"
        );
        assert!(!seen.contains("deprecated"), "{v}\n{seen}");

        // A P1 the judge upholds: blocked, with the finding and the verdict in the output.
        let env = repo_with_pre_commit(&pc, "git-debate");
        env.fake(
            "codex",
            json!({"answer": "```json\n{\"verdict\":\"revise\",\"findings\":[{\"severity\":\"P1\",\"title\":\"leaks the key\",\"evidence\":\"a.txt:1\",\"action\":\"remove it\"}]}\n```"}),
        );
        env.fake(
            "claude",
            json!({"answer": "```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"valid\",\"reason\":\"yes\"}]}\n```"}),
        );
        env.write("a.txt", "AKIA-not-really-a-key\n");
        env.git(&["add", "a.txt"]);
        let run = commit(&env, "add a");
        let seen = format!("{}{}", run.stdout, run.stderr);
        assert_ne!(run.code, 0, "{v}: the commit went through\n{seen}");
        assert!(seen.contains("Failed"), "{v}\n{seen}");
        assert!(
            seen.contains("leaks the key") && seen.contains("git debate: commit blocked"),
            "{v}: no verdict\n{seen}"
        );
        assert_eq!(env.git(&["rev-list", "--count", "HEAD"]), "2");
        eprintln!("{v}: the hook blocks with its verdict and warns visibly");
    }
}

#[test]
fn pre_commit_builds_the_rust_hook() {
    if !enabled()
        || std::env::var("GIT_DEBATE_INTEGRATIONS_RUST")
            .ok()
            .as_deref()
            != Some("1")
    {
        return;
    }
    let pc = pre_commits().pop().unwrap();
    let v = version(&pc, "--version");
    let env = TestEnv::with_repo();
    env.write("a.txt", "x\n");
    env.git(&["add", "a.txt"]);
    // cargo from the real environment (its toolchain and its registry cache); pre-commit's own
    // store in the test's HOME. `try-repo` takes this checkout as it is, uncommitted work too.
    let home = PathBuf::from(std::env::var_os("HOME").unwrap());
    let var = |k: &str, default: PathBuf| std::env::var_os(k).map_or(default, PathBuf::from);
    let cargo_home = var("CARGO_HOME", home.join(".cargo"));
    let rustup_home = var("RUSTUP_HOME", home.join(".rustup"));
    let cargo_dir = tool("GIT_DEBATE_CARGO", "cargo")
        .parent()
        .unwrap()
        .to_path_buf();
    let out = Command::new(&pc)
        .env_clear()
        .env("PATH", format!("{}:{}", cargo_dir.display(), env.path()))
        .env("HOME", &env.home)
        .env("CARGO_HOME", cargo_home)
        .env("RUSTUP_HOME", rustup_home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", env.home.join(".gitconfig"))
        .args(["try-repo"])
        .arg(project())
        .args(["git-debate-rust", "--verbose"])
        .current_dir(&env.repo)
        .output()
        .unwrap();
    let run = to_run(out);
    let seen = format!("{}{}", run.stdout, run.stderr);
    assert_eq!(run.code, 0, "{v}\n{seen}");
    assert!(
        seen.contains("Passed")
            && seen.contains("warning: git debate: no second opinion for this commit"),
        "{v}\n{seen}"
    );
    eprintln!("{v}: the git-debate-rust hook builds and runs");
}

#[test]
fn the_github_workflow_passes_actionlint() {
    if !enabled() {
        return;
    }
    let actionlint = tool("GIT_DEBATE_ACTIONLINT", "actionlint");
    let v = version(&actionlint, "-version");
    let run = to_run(
        Command::new(&actionlint)
            .args([
                "-no-color",
                "examples/github-actions.yml",
                ".github/workflows/release.yml",
            ])
            .current_dir(project())
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 0, "actionlint {v}\n{}{}", run.stdout, run.stderr);
    eprintln!("actionlint {v}: examples/github-actions.yml and the release workflow pass");
}

/// shellcheck on each job's script, as bash runs it, when shellcheck is installed.
fn shellcheck_gitlab_scripts() {
    let Some(shellcheck) = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|d| d.join("shellcheck"))
        .find(|p| p.is_file())
    else {
        eprintln!("no shellcheck: the GitLab jobs' scripts are not checked");
        return;
    };
    let text = std::fs::read_to_string(project().join("examples/gitlab-ci.yml")).unwrap();
    let ci: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).unwrap();
    for job in ["git-debate:build", "git-debate:review"] {
        let script: Vec<&str> = ci[job]["script"]
            .as_sequence()
            .unwrap()
            .iter()
            .filter_map(|s| s.as_str())
            .collect();
        let mut child = Command::new(&shellcheck)
            .args(["--shell", "bash", "-"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.join("\n").as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "shellcheck, {job}:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn the_gitlab_job_is_valid_and_makes_code_quality() {
    if !enabled() {
        return;
    }
    let checker = tool("GIT_DEBATE_CHECK_JSONSCHEMA", "check-jsonschema");
    let run = to_run(
        Command::new(&checker)
            .args([
                "--builtin-schema",
                "vendor.gitlab-ci",
                "examples/gitlab-ci.yml",
            ])
            .current_dir(project())
            .output()
            .unwrap(),
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    shellcheck_gitlab_scripts();

    // A real review of two files: two findings placed in the change, one nowhere.
    let env = TestEnv::with_repo();
    env.write("a.txt", "one\ntwo\nthree\n");
    env.write("b.txt", "four\n");
    let findings = json!([
        {"severity": "P1", "title": "wrong sum", "evidence": "a.txt:2-3", "action": "fix it"},
        {"severity": "P3", "title": "style nit", "evidence": "a.txt:1"},
        {"severity": "P2", "title": "no tests anywhere"}
    ]);
    env.fake(
        "codex",
        json!({"answer": format!("```json\n{}\n```", json!({"verdict": "revise", "findings": findings}))}),
    );
    env.fake(
        "claude",
        json!({"answer": "```json\n{\"classifications\":[]}\n```"}),
    );
    let out = env.root.join("gl-code-quality-report.json");
    env.run_full(
        &[
            "--format",
            "codequality",
            "--output",
            out.to_str().unwrap(),
            "--fail-on",
            "p1",
            "--max-rounds",
            "1",
        ],
        "",
        &[("GIT_DEBATE_LAUNCHER", Some("claude"))],
    )
    .fails(1);
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let entries = report.as_array().unwrap();
    assert_eq!(entries.len(), 2, "{report:#}");
    for e in entries {
        // GitLab's required fields and severities (a report stops at its first invalid entry).
        for key in ["description", "check_name", "fingerprint", "severity"] {
            assert!(e[key].as_str().is_some_and(|s| !s.is_empty()), "{key}: {e}");
        }
        assert!(
            ["info", "minor", "major", "critical", "blocker"]
                .contains(&e["severity"].as_str().unwrap()),
            "{e}"
        );
        assert_eq!(e["location"]["path"], "a.txt", "{e}");
        assert!(
            e["location"]["lines"]["begin"].as_u64().unwrap() >= 1,
            "{e}"
        );
    }
    let p1 = entries
        .iter()
        .find(|e| e["check_name"] == "git-debate/P1")
        .unwrap();
    assert_eq!(p1["severity"], "critical");
    assert_eq!(p1["location"]["lines"]["begin"], 2);
    assert!(p1["description"].as_str().unwrap().contains("wrong sum"));
}
