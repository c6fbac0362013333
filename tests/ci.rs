//! Output for code hosts and CI: SARIF, rdjson, GitHub annotations and job summary, and manual
//! mode turning automatic in CI.

use serde_json::{json, Value};

use crate::common::{Run, TestEnv};

fn setup(findings: Value) -> TestEnv {
    let env = TestEnv::with_repo();
    env.write("a.txt", "one\ntwo\nthree\n");
    env.fake(
        "codex",
        json!({"answer": format!("```json\n{}\n```", json!({"verdict": "revise", "findings": findings}))}),
    );
    env.fake(
        "claude",
        json!({"answer": "```json\n{\"classifications\":[]}\n```"}),
    );
    env
}

fn review(env: &TestEnv, args: &[&str], vars: &[(&str, Option<&str>)]) -> Run {
    let mut all = vec![("GIT_DEBATE_LAUNCHER", Some("claude"))];
    all.extend_from_slice(vars);
    env.run_full(args, "", &all)
}

fn two_findings() -> Value {
    json!([
        {"severity": "P1", "title": "wrong sum", "evidence": "a.txt:2-3", "body": "adds\nbadly", "action": "fix it"},
        {"severity": "P3", "title": "style nit"}
    ])
}

/// Checks SARIF against the OASIS 2.1.0 schema (vendored in `tests/fixtures/sarif/`) and
/// GitHub's upload rules: every result has a location with a start line and a fingerprint.
pub fn valid_sarif(v: &Value) {
    let schema: Value =
        serde_json::from_str(include_str!("fixtures/sarif/sarif-schema-2.1.0.json")).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(v)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "SARIF schema: {errors:#?}\n{v:#}");
    for r in v["runs"][0]["results"].as_array().unwrap() {
        let loc = &r["locations"][0]["physicalLocation"];
        assert!(loc["artifactLocation"]["uri"].is_string(), "{r}");
        assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1, "{r}");
        assert!(
            r["partialFingerprints"]
                .as_object()
                .is_some_and(|o| !o.is_empty()),
            "{r}"
        );
    }
}

#[test]
fn sarif_has_the_required_fields_and_locations() {
    let env = setup(two_findings());
    let run = review(&env, &["--format", "sarif", "--max-rounds", "1"], &[]).ok();
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    valid_sarif(&v);
    assert_eq!(v["version"], "2.1.0");
    let run0 = &v["runs"][0];
    assert_eq!(run0["tool"]["driver"]["name"], "git-debate");
    assert_eq!(run0["invocations"][0]["executionSuccessful"], true);
    let results = run0["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        assert!(["error", "warning", "note", "none"].contains(&r["level"].as_str().unwrap()));
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let rule = r["ruleId"].as_str().unwrap();
        let rules = run0["tool"]["driver"]["rules"].as_array().unwrap();
        let described = rules.iter().find(|x| x["id"] == rule).unwrap();
        assert!(described["fullDescription"]["text"].is_string());
    }
    assert_eq!(results[0]["level"], "error");
    let loc = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "a.txt");
    assert_eq!(loc["region"]["startLine"], 2);
    assert_eq!(loc["region"]["endLine"], 3);
    assert_eq!(results[0]["properties"]["location"], "verified");
    // The review was of one file: a finding without a place is attached to it, at line 1.
    assert_eq!(results[1]["level"], "note");
    let loc = &results[1]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "a.txt");
    assert_eq!(loc["region"]["startLine"], 1);
    // Fingerprints are the finding's, not the session's: the same review again gives the same.
    let again = review(&env, &["--format", "sarif", "--max-rounds", "1"], &[]).ok();
    let w: Value = serde_json::from_str(&again.stdout).unwrap();
    assert_eq!(
        results[0]["partialFingerprints"],
        w["runs"][0]["results"][0]["partialFingerprints"]
    );
    assert!(!results[0]["partialFingerprints"]
        .to_string()
        .contains("\"F1\""));
}

#[test]
fn sarif_never_places_a_finding_where_the_reviewer_did_not_say_or_could_not_be_right() {
    let env = setup(json!([
        {"severity": "P1", "title": "no place given", "body": "somewhere"},
        {"severity": "P2", "title": "invented file", "evidence": "src/nowhere.rs:10"},
        {"severity": "P2", "title": "past the end", "evidence": "a.txt:99"},
        {"severity": "P3", "title": "real", "evidence": "a.txt:1"}
    ]));
    // A second changed file: the review is not of one file any more.
    env.write("b.txt", "b\n");
    let run = review(&env, &["--format", "sarif", "--max-rounds", "1"], &[]).ok();
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    valid_sarif(&v);
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{v:#}");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        1
    );
    let notes = v["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    let texts: Vec<&str> = notes
        .iter()
        .map(|n| n["message"]["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("no place given")));
    assert!(texts
        .iter()
        .any(|t| t.contains("src/nowhere.rs:10 (not found in the reviewed change)")));
    assert!(texts.iter().any(|t| t.contains("a.txt:99 (not found")));
    // The JSON report keeps every location as the reviewer gave it, with the check.
    let json = review(&env, &["--format", "json", "--max-rounds", "1"], &[]).ok();
    let r: Value = serde_json::from_str(&json.stdout).unwrap();
    let checks: Vec<&Value> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| &f["location"]["check"])
        .collect();
    assert_eq!(
        checks,
        [
            &Value::Null,
            &json!("not-found"),
            &json!("not-found"),
            &json!("verified")
        ]
    );
}

#[test]
fn rdjson_for_reviewdog() {
    let env = setup(two_findings());
    let run = review(&env, &["--format", "rdjson", "--max-rounds", "1"], &[]).ok();
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["source"]["name"], "git-debate");
    let d = v["diagnostics"].as_array().unwrap();
    assert_eq!(d[0]["severity"], "ERROR");
    assert_eq!(d[0]["location"]["path"], "a.txt");
    assert_eq!(d[0]["location"]["range"]["start"]["line"], 2);
    assert_eq!(d[1]["severity"], "INFO");
    // A finding without a place, in a one-file review: the file at line 1, as in SARIF, so
    // reviewdog posts it as a comment and not a log line.
    assert_eq!(d[1]["location"]["path"], "a.txt");
    assert_eq!(d[1]["location"]["range"]["start"]["line"], 1);
}

#[test]
fn codequality_for_gitlab_from_a_review_and_from_show() {
    let env = setup(json!([
        {"severity": "P1", "title": "wrong sum", "evidence": "a.txt:2-3", "action": "fix it"},
        {"severity": "P3", "title": "style nit", "evidence": "a.txt:1"},
        {"severity": "P2", "title": "no tests anywhere"}
    ]));
    // Two files changed: the finding with no place has no entry, and stderr says so.
    env.write("b.txt", "four\n");
    let run = review(
        &env,
        &[
            "--format",
            "codequality",
            "--max-rounds",
            "1",
            "--fail-on",
            "p1",
        ],
        &[],
    )
    .fails(1);
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    let entries = v.as_array().expect("GitLab reads a bare array");
    assert_eq!(entries.len(), 2, "{v:#}");
    for e in entries {
        for key in ["description", "check_name", "fingerprint", "severity"] {
            assert!(e[key].as_str().is_some_and(|s| !s.is_empty()), "{key}: {e}");
        }
        assert_eq!(e["location"]["path"], "a.txt", "{e}");
        assert!(e["location"]["lines"]["begin"].as_u64().unwrap() >= 1);
    }
    let p1 = entries
        .iter()
        .find(|e| e["check_name"] == "git-debate/P1")
        .unwrap();
    assert_eq!(p1["severity"], "critical");
    assert_eq!(p1["location"]["lines"]["begin"], 2);
    assert!(
        run.stderr.contains("1 finding(s) with no place"),
        "{}",
        run.stderr
    );
    let shown = env.run(&["show", "last", "--format", "codequality"]).ok();
    assert_eq!(serde_json::from_str::<Value>(&shown.stdout).unwrap(), v);
}

#[test]
fn github_annotations_are_capped_and_the_summary_is_written() {
    let many: Vec<Value> = (0..12)
        .map(|i| json!({"severity": "P2", "title": format!("issue {i}: details, here"), "evidence": format!("a.txt:{}", i % 3 + 1)}))
        .chain([json!({"severity": "P1", "title": "worst", "evidence": "a.txt:1", "body": "line one\nline two"})])
        .collect();
    let env = setup(json!(many));
    let summary = env.root.join("summary.md");
    let run = review(
        &env,
        &["--format", "github", "--max-rounds", "1", "--fail-on", "p1"],
        &[("GITHUB_STEP_SUMMARY", Some(summary.to_str().unwrap()))],
    )
    .fails(1);
    let lines: Vec<&str> = run.stdout.lines().collect();
    // Every annotation with a file names a real line of the change.
    assert!(!run.stdout.contains("line=0"));
    // The P1 error comes first, then at most 10 warnings, then the count of the rest.
    assert!(
        lines[0].starts_with("::error file=a.txt,line=1,endLine=1,title=git debate P1 "),
        "{}",
        lines[0]
    );
    assert!(lines[0].ends_with("line one%0Aline two"), "{}", lines[0]);
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("::warning ")).count(),
        10
    );
    assert!(run
        .stdout
        .contains("::notice title=git debate::2 more finding(s) in the job summary"));
    assert!(
        run.stdout
            .contains("title=git debate P2 [F1] issue 0%3A details%2C here"),
        "{}",
        run.stdout
    );
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.contains("## Debate Summary"), "{md}");
}

#[test]
fn manual_mode_runs_automatically_in_ci() {
    let env = setup(json!([]));
    env.git(&["config", "debate.mode", "manual"]);
    let run = review(&env, &["--max-rounds", "1"], &[("CI", Some("true"))]).ok();
    assert!(run.stderr.contains("CI detected"), "{}", run.stderr);
}

#[test]
fn show_re_emits_a_stored_review_in_every_report_format() {
    let env = setup(two_findings());
    let run = review(
        &env,
        &[
            "--max-rounds",
            "1",
            "--format",
            "sarif",
            "--output",
            "live.sarif",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let live = std::fs::read_to_string(env.repo.join("live.sarif")).unwrap();
    let shown = env.run(&["show", "last", "--format", "sarif"]).ok();
    let a: Value = serde_json::from_str(&live).unwrap();
    let b: Value = serde_json::from_str(&shown.stdout).unwrap();
    assert_eq!(a, b, "the stored review re-emits the SARIF it printed");
    valid_sarif(&b);
    // Markdown is the stored summary.md, byte for byte.
    let md = env.run(&["show", "last", "--format", "markdown"]).ok();
    let session = b["runs"][0]["automationDetails"]["id"]
        .as_str()
        .unwrap()
        .trim_start_matches("git-debate/")
        .to_string();
    let stored = std::fs::read_to_string(env.store().join(&session).join("summary.md")).unwrap();
    assert_eq!(md.stdout, stored);
    let rd = env.run(&["show", "last", "--format", "rdjson"]).ok();
    let rd: Value = serde_json::from_str(&rd.stdout).unwrap();
    assert_eq!(rd["diagnostics"].as_array().unwrap().len(), 2);
    let gh = env.run(&["show", "last", "--format", "github"]).ok();
    assert!(
        gh.stdout.contains("::error file=a.txt,line=2"),
        "{}",
        gh.stdout
    );
    // A dry run has no report to re-emit: said, not faked.
    env.run(&["--dry-run"]).ok();
    let none = env.run(&["show", "last", "--format", "sarif"]).fails(2);
    assert!(none.stderr.contains("has no report"), "{}", none.stderr);
    let round = env
        .run(&["show", &session, "--round", "1", "--format", "sarif"])
        .fails(2);
    assert!(round
        .stderr
        .contains("--round shows one round as text or json"));
}

fn yaml(path: &str) -> serde_yaml_ng::Value {
    let text = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap();
    serde_yaml_ng::from_str(&text).unwrap()
}

/// What lets the pre-commit hooks work on Debian 12's pre-commit 3.0.4 and on 4.x alike (the
/// opt-in `integrations` tests run them under the real pre-commit).
#[test]
fn the_pre_commit_hooks_load_on_old_and_new_pre_commit() {
    let hooks = yaml(".pre-commit-hooks.yaml");
    let hooks = hooks.as_sequence().unwrap();
    let ids: Vec<(&str, &str)> = hooks
        .iter()
        .map(|h| (h["id"].as_str().unwrap(), h["language"].as_str().unwrap()))
        .collect();
    assert_eq!(ids, [("git-debate", "system"), ("git-debate-rust", "rust")]);
    for h in hooks {
        assert_eq!(h["entry"].as_str(), Some("git-debate hook run"), "{h:?}");
        // Seen when it passes too: the verdict, or the warning that nothing was reviewed.
        assert_eq!(h["verbose"].as_bool(), Some(true), "{h:?}");
        assert_eq!(h["pass_filenames"].as_bool(), Some(false), "{h:?}");
        assert_eq!(h["always_run"].as_bool(), Some(true), "{h:?}");
        // `pre-commit` as a stage needs 3.2, `commit` is deprecated in 4: no name suits both.
        assert!(h.get("stages").is_none(), "{h:?}");
        assert!(h["minimum_pre_commit_version"].is_string(), "{h:?}");
    }
}

/// The first major version of each action that runs on node24 (node20 is gone from the runners).
const NODE24: &[(&str, u32)] = &[
    ("actions/checkout", 5),
    ("actions/cache", 5),
    ("actions/setup-node", 5),
    ("actions/upload-artifact", 6),
    ("github/codeql-action", 4),
];

#[test]
fn the_github_example_runs_on_node24_skips_forks_and_keeps_the_exit_code() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/github-actions.yml"),
    )
    .unwrap();
    let uses_lines = text
        .lines()
        .filter_map(|l| l.trim().trim_start_matches("- ").strip_prefix("uses: "));
    let mut checked = 0;
    for uses in uses_lines {
        let (action, version) = uses.split_once('@').unwrap();
        let Some((_, first)) = NODE24.iter().find(|(a, _)| action.starts_with(a)) else {
            continue;
        };
        let major: u32 = version.trim_start_matches('v').parse().unwrap();
        assert!(major >= *first, "{uses}: node20 or older");
        checked += 1;
    }
    assert_eq!(checked, 8);
    let wf = yaml("examples/github-actions.yml");
    let jobs = &wf["jobs"];
    assert!(jobs["keys"]["steps"][0]["run"]
        .as_str()
        .unwrap()
        .contains("::notice"));
    assert_eq!(
        jobs["review"]["if"].as_str(),
        Some("needs.keys.outputs.ready == 'true'")
    );
    let steps = jobs["review"]["steps"].as_sequence().unwrap();
    for step in steps {
        if let Some(run) = step["run"].as_str().filter(|r| r.contains("| reviewdog")) {
            let pipefail = run.find("set -o pipefail").expect("set -o pipefail");
            assert!(pipefail < run.find("| reviewdog").unwrap(), "{run}");
        }
    }
    // Each review continues the pull request's earlier one: its sessions are restored before
    // the reviews and saved after them, even when the gate failed.
    let at = |pred: &dyn Fn(&serde_yaml_ng::Value) -> bool| steps.iter().position(pred);
    let uses =
        |s: &serde_yaml_ng::Value, a: &str| s["uses"].as_str().is_some_and(|u| u.starts_with(a));
    let path = |s: &serde_yaml_ng::Value| s["with"]["path"].as_str() == Some(".git/review-loop");
    let restore = at(&|s| uses(s, "actions/cache/restore") && path(s)).expect("restore");
    let save = at(&|s| uses(s, "actions/cache/save") && path(s)).expect("save");
    assert_eq!(steps[save]["if"].as_str(), Some("${{ !cancelled() }}"));
    let reviews: Vec<usize> = (0..steps.len())
        .filter(|i| {
            steps[*i]["run"]
                .as_str()
                .is_some_and(|r| r.contains("git debate --scope"))
        })
        .collect();
    assert_eq!(reviews.len(), 3);
    for i in reviews {
        assert!(
            restore < i && i < save,
            "step {i} is outside the sessions cache"
        );
        assert!(
            steps[i]["run"].as_str().unwrap().contains("--since last"),
            "step {i}"
        );
    }
}

#[test]
fn the_gitlab_example_skips_without_keys_as_a_warning_and_reports_code_quality() {
    let ci = yaml("examples/gitlab-ci.yml");
    let job = &ci["git-debate:review"];
    let code = job["allow_failure"]["exit_codes"].as_u64().unwrap();
    let script: Vec<&str> = job["script"]
        .as_sequence()
        .unwrap()
        .iter()
        .filter_map(|s| s.as_str())
        .collect();
    assert!(script[0].contains(&format!("exit {code}")), "{}", script[0]);
    let report = job["artifacts"]["reports"]["codequality"].as_str().unwrap();
    assert!(
        script
            .iter()
            .any(|s| s.contains(&format!("--format codequality --output {report}"))),
        "{script:#?}"
    );
    assert!(!script.iter().any(|s| s.contains("jq")), "no jq any more");
    assert_eq!(job["artifacts"]["when"].as_str(), Some("always"));
}

/// The `--format json` report and the stored `summary.json` follow the schema `git debate schema
/// report` publishes, whether the review found something, approved, or was not evaluated.
#[test]
fn the_json_report_follows_its_published_schema() {
    let env = setup(two_findings());
    let run = review(&env, &["--format", "json", "--fail-on", "p1"], &[]).fails(1);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["findings"].as_array().unwrap().len(), 2, "{report}");
    crate::common::valid_report(&report);
    // The schema has teeth: a wrong type or a missing level is caught.
    let mut bad = report.clone();
    bad["rounds"] = json!("three");
    bad["findings"][0]["severity"] = json!("urgent");
    assert_eq!(crate::common::report_errors(&bad).len(), 2, "{bad:#}");
    let dir = std::path::Path::new(report["session_dir"].as_str().unwrap()).to_path_buf();
    let stored: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    crate::common::valid_report(&stored);

    let env = setup(json!([]));
    env.fake(
        "codex",
        json!({"answer": "```json\n{\"verdict\": \"approve\", \"findings\": []}\n```"}),
    );
    let run = review(&env, &["--format", "json"], &[]).ok();
    crate::common::valid_report(&serde_json::from_str(&run.stdout).unwrap());

    let env = setup(json!([]));
    env.fake("codex", json!({"answer": "  \n"}));
    let run = review(&env, &["--format", "json"], &[]).fails(3);
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(report["evaluated"], false, "{report}");
    crate::common::valid_report(&report);
}
