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

#[test]
fn sarif_has_the_required_fields_and_locations() {
    let env = setup(two_findings());
    let run = review(&env, &["--format", "sarif", "--max-rounds", "1"], &[]).ok();
    let v: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["version"], "2.1.0");
    let run0 = &v["runs"][0];
    assert_eq!(run0["tool"]["driver"]["name"], "git-debate");
    let results = run0["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        assert!(["error", "warning", "note", "none"].contains(&r["level"].as_str().unwrap()));
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let rule = r["ruleId"].as_str().unwrap();
        assert!(run0["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == rule));
    }
    assert_eq!(results[0]["level"], "error");
    let loc = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "a.txt");
    assert_eq!(loc["region"]["startLine"], 2);
    assert_eq!(loc["region"]["endLine"], 3);
    assert_eq!(results[1]["level"], "note");
    assert!(results[1].get("locations").is_none());
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
}

#[test]
fn github_annotations_are_capped_and_the_summary_is_written() {
    let many: Vec<Value> = (0..12)
        .map(|i| json!({"severity": "P2", "title": format!("issue {i}: details, here"), "evidence": format!("a.txt:{}", i + 1)}))
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
