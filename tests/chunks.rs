//! A change bigger than one prompt, end to end: cut into chunks that keep a module and its tests
//! together, reviewed at once, duplicates merged, one judge shown only what the findings point
//! at, a failed chunk reported as not evaluated (exit 3, never a pass), and later rounds sent
//! only what moved.

use serde_json::{json, Value};

use crate::common::{read_json, TestEnv};

/// Three modules of three files each (one of them a test beside its code), about 2 KiB of diff
/// per file, committed as one change; reviewed with an 8,000-byte budget, so one module per chunk.
fn big_change() -> TestEnv {
    let env = TestEnv::with_repo();
    for (dir, stem) in [("alpha", "a"), ("beta", "b"), ("gamma", "c")] {
        for i in 0..3 {
            let path = if dir == "alpha" && i == 2 {
                // The tests of alpha/a0.rs: they must travel with it.
                "alpha/tests/a0_test.rs".to_string()
            } else {
                format!("{dir}/{stem}{i}.rs")
            };
            let body: String = (0..60)
                .map(|l| format!("pub fn {stem}{i}_{l}() -> u32 {{ {l} }}\n"))
                .collect();
            env.write(&path, &body);
        }
    }
    env.commit_all("a big change");
    env
}

const BUDGET: &[&str] = &["--scope", "commit:HEAD", "--max-artifact-bytes", "8000"];

fn args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = BUDGET.to_vec();
    a.extend_from_slice(extra);
    a
}

fn answer(findings: Value) -> Value {
    let verdict = if findings.as_array().unwrap().is_empty() {
        "approve"
    } else {
        "revise"
    };
    json!(format!(
        "Review.\n\n```json\n{}\n```\n",
        json!({"verdict": verdict, "findings": findings})
    ))
}

fn finding(title: &str, file: Option<&str>, line: u32) -> Value {
    json!({"severity": "P2", "title": title, "file": file, "start_line": file.map(|_| line),
           "body": format!("{title}: the reason, in detail"), "action": "fix it"})
}

/// A reviewer that answers each chunk about its own module: alpha gets a located finding, beta
/// and gamma both raise the same unlocated one (a duplicate across chunks).
fn reviewer_by_chunk(env: &TestEnv) {
    let dup = finding("The new public functions are not documented", None, 0);
    env.fake(
        "codex",
        json!({"answer": answer(json!([])), "when": [
            {"contains": "+++ b/alpha/a0.rs", "answer": answer(json!([finding("a0_3 returns the wrong value", Some("alpha/a0.rs"), 4)]))},
            {"contains": "+++ b/beta/", "answer": answer(json!([dup]))},
            {"contains": "+++ b/gamma/", "answer": answer(json!([dup]))},
        ]}),
    );
}

/// Round 1 (three chunks): a finding on alpha/a0.rs; every later review: nothing. Round 1's
/// calls run at once and take steps in any order, so each of its steps holds the same cases.
fn one_finding_then_quiet(env: &TestEnv) {
    let first = json!({"answer": answer(json!([])), "when": [
        {"contains": "+++ b/alpha/a0.rs", "answer": answer(json!([finding("a0_3 returns the wrong value", Some("alpha/a0.rs"), 4)]))},
    ]});
    let quiet = json!({"answer": answer(json!([]))});
    env.fake("codex", json!([first, first, first, quiet]));
}

fn judge_all_valid(ids: &[&str], recommendation: &str) -> Value {
    let list: Vec<Value> = ids
        .iter()
        .map(|id| json!({"id": id, "verdict": "valid", "reason": "right"}))
        .collect();
    json!({"answer": format!("```json\n{}\n```", json!({"classifications": list, "recommendation": recommendation, "reason": "r"}))})
}

/// The newest session's folder (ids sort by time).
fn last_session(env: &TestEnv) -> std::path::PathBuf {
    std::fs::read_dir(env.store())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .max()
        .unwrap()
}

fn summary(env: &TestEnv) -> Value {
    read_json(&last_session(env).join("summary.json"))
}

fn prompts(env: &TestEnv, name: &str) -> Vec<String> {
    env.fake_calls(name)
        .iter()
        .map(|c| c["prompt"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_big_change_is_reviewed_in_chunks_with_one_judge_over_merged_findings() {
    let env = big_change();
    reviewer_by_chunk(&env);
    env.fake(
        "claude",
        json!([judge_all_valid(&["F1", "F2"], "C"), {"answer": "```diff\ndiff --git a/alpha/a0.rs b/alpha/a0.rs\n--- a/alpha/a0.rs\n+++ b/alpha/a0.rs\n@@ -0,0 +1,1 @@\n+pub fn a0_3() -> u32 { 3 } // fixed\n```"}]),
    );
    let run = env.run_from_claude(&args(&["--max-rounds", "1"])).ok();
    let reviews = prompts(&env, "codex");
    assert_eq!(reviews.len(), 3, "one call per module");
    // Every file in exactly one chunk, and a file's tests in the same chunk as the file.
    for file in ["alpha/a0.rs", "alpha/a1.rs", "beta/b2.rs", "gamma/c0.rs"] {
        let holding = reviews
            .iter()
            .filter(|p| p.contains(&format!("+++ b/{file}")))
            .count();
        assert_eq!(holding, 1, "{file}");
    }
    let alpha = reviews
        .iter()
        .find(|p| p.contains("+++ b/alpha/a0.rs"))
        .unwrap();
    assert!(alpha.contains("+++ b/alpha/tests/a0_test.rs"));
    assert!(alpha.contains("## Part ") && alpha.contains("of 3"));
    assert!(
        alpha.contains("- beta/ (3 files)"),
        "the other files are named"
    );

    let s = summary(&env);
    let chunks = s["coverage"]["chunks"].as_array().unwrap();
    assert_eq!(chunks.len(), 3);
    let listed: usize = chunks
        .iter()
        .map(|c| c["files"].as_array().unwrap().len())
        .sum();
    assert_eq!(listed, 9);
    assert!(chunks.iter().all(|c| c["reviewed"] == true));
    // The duplicate from beta and gamma is one finding; the judge ran once over both.
    assert_eq!(s["findings"].as_array().unwrap().len(), 2, "{s:#}");
    let round: Value = read_json(&last_session(&env).join("round-1.json"));
    let calls = round["calls"].as_array().unwrap();
    assert_eq!(calls.iter().filter(|c| c["purpose"] == "judge").count(), 1);
    assert!(calls
        .iter()
        .all(|c| c["prompt_bytes"].as_u64().unwrap() > 0));
    assert!(calls.iter().any(|c| c["segment"] == "chunk 2/3"));
    assert!(round["notes"].to_string().contains("merged"), "{round:#}");

    // The judge sees the file list and the hunk of the located finding, not the whole change.
    let author = prompts(&env, "claude");
    let judge = &author[0];
    assert!(judge.contains("- gamma/c2.rs (+60 -0)"), "{judge}");
    assert!(judge.contains("+++ b/alpha/a0.rs"));
    assert!(
        !judge.contains("+++ b/beta/b0.rs"),
        "beta's diff is not resent"
    );
    assert!(
        judge.len() < alpha.len(),
        "{} vs {}",
        judge.len(),
        alpha.len()
    );
    // The compromise gets the files the findings touch; its answer is merged into the whole.
    let compromise = &author[1];
    assert!(compromise.contains("+++ b/alpha/a0.rs") && !compromise.contains("+++ b/gamma/"));
    assert!(compromise.contains("output the revised diff of those files only"));
    let v2 = std::fs::read_to_string(last_session(&env).join("artifact-v2.md")).unwrap();
    assert!(
        v2.contains("// fixed") && v2.contains("+++ b/gamma/c2.rs"),
        "{v2}"
    );
    assert!(
        run.stdout.contains("reviewed in 3 chunks at once"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_failed_chunk_leaves_its_files_not_evaluated_and_the_review_never_passes() {
    let env = big_change();
    env.fake(
        "codex",
        json!({"answer": answer(json!([])), "when": [
            {"contains": "+++ b/beta/", "error": {"status": 500, "message": "upstream failure"}},
        ]}),
    );
    env.fake("claude", json!({"answer": "unused"}));
    let run = env
        .run_from_claude(&args(&[
            "--max-rounds",
            "1",
            "--fail-on",
            "never",
            "--format",
            "github",
        ]))
        .fails(3);
    assert!(
        run.stdout
            .contains("::error title=git debate: not evaluated::3 files were not evaluated"),
        "{}",
        run.stdout
    );
    let s = summary(&env);
    assert_eq!(
        s["coverage"]["not_evaluated"],
        json!(["beta/b0.rs", "beta/b1.rs", "beta/b2.rs"])
    );
    let failed: Vec<&Value> = s["coverage"]["chunks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["reviewed"] == false)
        .collect();
    assert_eq!(failed.len(), 1);
    assert!(failed[0]["error"].as_str().unwrap().contains("codex"));
    assert!(s["next_actions"][0]
        .as_str()
        .unwrap()
        .starts_with("Review again: 3 files"));
    // The SARIF run is not a successful execution either.
    let sarif = env
        .run_from_claude(&args(&["--max-rounds", "1", "--format", "sarif"]))
        .fails(3);
    let v: Value = serde_json::from_str(&sarif.stdout).unwrap();
    assert_eq!(v["runs"][0]["invocations"][0]["executionSuccessful"], false);
}

#[test]
fn later_rounds_re_review_only_the_revised_files_and_those_in_question() {
    let env = big_change();
    one_finding_then_quiet(&env);
    env.fake(
        "claude",
        json!([judge_all_valid(&["F1"], "C"), {"answer": "```diff\ndiff --git a/alpha/a0.rs b/alpha/a0.rs\n--- a/alpha/a0.rs\n+++ b/alpha/a0.rs\n@@ -1,1 +1,1 @@\n-pub fn a0_0() -> u32 { 0 }\n+pub fn a0_0() -> u32 { 100 } // revised\n```"}]),
    );
    env.run_from_claude(&args(&["--max-rounds", "2"])).ok();
    let reviews = prompts(&env, "codex");
    assert_eq!(reviews.len(), 4, "three chunks, then one");
    let second = &reviews[3];
    assert!(
        second.contains("// revised"),
        "the revised version is reviewed"
    );
    assert!(second.contains("+++ b/alpha/a0.rs"));
    assert!(
        !second.contains("+++ b/beta/"),
        "unchanged modules are not resent"
    );
    assert!(second.contains("re-reviews only the files revised or still in question (1 of 9)"));
    let s = summary(&env);
    assert_eq!(s["rounds"], 2);
    assert!(s["coverage"]["not_evaluated"].is_null());
}

#[test]
fn a_dry_run_shows_the_chunks_and_no_chunk_cuts_to_the_budget() {
    let env = big_change();
    let run = env.run(&args(&["--dry-run"])).ok();
    assert!(
        run.stdout
            .contains("chunks:     3 reviewed at once (3 at a time)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("  chunk 1: 3 files (alpha/a0.rs, alpha/tests/a0_test.rs, alpha/a1.rs)"),
        "{}",
        run.stdout
    );
    let meta = run.metadata();
    assert_eq!(meta["chunks"].as_array().unwrap().len(), 3);
    assert_eq!(meta["chunking"]["budget"], 8000);
    // All of the change is stored, since all of it is reviewed.
    assert!(run.artifact().contains("+++ b/gamma/c2.rs"));

    let cut = env.run(&args(&["--dry-run", "--no-chunk"])).ok();
    assert!(!cut.stdout.contains("chunks:"));
    assert!(cut.stdout.contains("truncation: kept"), "{}", cut.stdout);
    // Forced chunking of a change that fits, and a chunk limit that leaves files out, named.
    let one = env
        .run(&["--scope", "commit:HEAD", "--dry-run", "--chunk"])
        .ok();
    assert!(
        one.stdout.contains("chunks:     1 reviewed at once"),
        "{}",
        one.stdout
    );
    let few = env.run(&args(&["--dry-run", "--max-chunks", "2"])).ok();
    assert!(
        few.stdout.contains(
            "not evaluated: 3 files would not be reviewed (more than debate.maxChunks chunks"
        ) && few.stdout.contains("gamma/c0.rs, gamma/c1.rs, gamma/c2.rs"),
        "{}",
        few.stdout
    );
}

#[test]
fn a_resumed_chunked_review_goes_on_in_chunks_from_where_it_stopped() {
    let env = big_change();
    one_finding_then_quiet(&env);
    env.fake(
        "claude",
        json!([judge_all_valid(&["F1"], "C"), {"answer": "```diff\ndiff --git a/alpha/a0.rs b/alpha/a0.rs\n--- a/alpha/a0.rs\n+++ b/alpha/a0.rs\n@@ -1,1 +1,1 @@\n-pub fn a0_0() -> u32 { 0 }\n+pub fn a0_0() -> u32 { 7 } // resumed\ndiff --git a/beta/b1.rs b/beta/b1.rs\n--- a/beta/b1.rs\n+++ b/beta/b1.rs\n@@ -1,1 +1,1 @@\n-pub fn b1_0() -> u32 { 0 }\n+pub fn b1_0() -> u32 { 8 } // also revised\n```"}]),
    );
    env.run_from_claude(&args(&["--max-rounds", "1"])).ok();
    assert_eq!(prompts(&env, "codex").len(), 3);
    env.run_from_claude(&["resume", "last", "--max-rounds", "2"])
        .ok();
    let reviews = prompts(&env, "codex");
    assert_eq!(reviews.len(), 4, "round 2 is one chunk");
    assert!(reviews[3].contains("// resumed") && !reviews[3].contains("+++ b/gamma/"));
    // A file the author revised with no finding on it is re-reviewed too, after the resume.
    assert!(reviews[3].contains("// also revised"), "{}", reviews[3]);
    assert!(!reviews[3].contains("+++ b/beta/b0.rs"));
    assert!(reviews[3].contains("## Part 1 of 1"));
}

/// Processes started as the fake `name` of this test that are still alive.
fn alive(env: &TestEnv, name: &str) -> Vec<i32> {
    let exe = env.root.join("bin").join(name);
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .ok()
                .and_then(|c| c.split(|b| *b == 0).next().map(|a| a.to_vec()))
                .is_some_and(|argv0| argv0 == exe.as_os_str().as_encoded_bytes())
        })
        .collect()
}

#[test]
fn ctrl_c_during_a_chunked_round_stops_every_chunk_call_and_saves_the_session() {
    let env = big_change();
    env.fake("codex", json!({"hang": true}));
    env.fake("claude", json!({"answer": "unused"}));
    let run = env.interrupt_when(&args(&["--concurrency", "3"]), "claude", "codex.pid");
    assert_eq!(run.code, 130, "{}", run.stderr);
    let meta = read_json(&last_session(&env).join("metadata.json"));
    assert_eq!(meta["status"], "interrupted");
    // Every chunk call that had started is gone with us: none is left hanging.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    while !alive(&env, "codex").is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "{:?}",
            alive(&env, "codex")
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn the_compromise_of_a_small_change_gets_only_the_file_its_findings_touch() {
    // Two findings on one file, none elsewhere: the other file is not sent again.
    let env = TestEnv::with_repo();
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n");
    env.write("other.rs", "pub fn untouched_marker() {}\n");
    let f = |title: &str, line: u32| finding(title, Some("lib.rs"), line);
    env.fake(
        "codex",
        json!({"answer": answer(json!([f("add subtracts", 2), f("no overflow check", 2)]))}),
    );
    env.fake(
        "claude",
        json!([judge_all_valid(&["F1", "F2"], "C"), {"answer": "```diff\ndiff --git a/lib.rs b/lib.rs\n--- a/lib.rs\n+++ b/lib.rs\n@@ -1,3 +1,3 @@\n fn add(a: i32, b: i32) -> i32 {\n-    a - b\n+    a.wrapping_add(b)\n }\n```"}]),
    );
    env.run_from_claude(&["--max-rounds", "1"]).ok();
    let compromise = &prompts(&env, "claude")[1];
    assert!(compromise.contains("+++ b/lib.rs"), "{compromise}");
    assert!(!compromise.contains("untouched_marker"), "{compromise}");
    // The next version still holds the other file: the answer was merged, not taken whole.
    let v2 = std::fs::read_to_string(last_session(&env).join("artifact-v2.md")).unwrap();
    assert!(
        v2.contains("untouched_marker") && v2.contains("wrapping_add"),
        "{v2}"
    );
}

#[test]
fn files_past_the_chunk_cap_are_not_evaluated_and_exit_3_unless_allow_partial() {
    let env = big_change();
    env.fake("codex", json!({"answer": answer(json!([]))}));
    env.fake("claude", json!({"answer": "unused"}));
    let run = env
        .run_from_claude(&args(&[
            "--max-chunks",
            "2",
            "--max-rounds",
            "1",
            "--format",
            "github",
        ]))
        .fails(3);
    assert!(
        run.stdout
            .contains("::error title=git debate: not evaluated::3 files were not evaluated"),
        "{}",
        run.stdout
    );
    let s = summary(&env);
    assert_eq!(
        s["coverage"]["not_evaluated"],
        json!(["gamma/c0.rs", "gamma/c1.rs", "gamma/c2.rs"])
    );
    // Two chunks were asked for, not three.
    assert_eq!(env.fake_calls("codex").len(), 2);
    // The text report says it too.
    let text = env
        .run_from_claude(&args(&["--max-chunks", "2", "--max-rounds", "1"]))
        .fails(3);
    assert!(
        text.stdout.contains("3 files were not evaluated")
            || text.stderr.contains("3 files were not evaluated"),
        "{}{}",
        text.stdout,
        text.stderr
    );
    // With --allow-partial the run passes, and still lists them.
    env.run_from_claude(&args(&[
        "--max-chunks",
        "2",
        "--max-rounds",
        "1",
        "--allow-partial",
    ]))
    .ok();
    assert_eq!(
        summary(&env)["coverage"]["not_evaluated"],
        json!(["gamma/c0.rs", "gamma/c1.rs", "gamma/c2.rs"])
    );
}

#[test]
fn a_change_far_past_the_budget_prints_one_line_for_what_did_not_fit() {
    let env = TestEnv::with_repo();
    for i in 0..40 {
        let body: String = (0..60)
            .map(|l| format!("pub fn f{i}_{l}() -> u32 {{ {l} }}\n"))
            .collect();
        env.write(&format!("m{i}/f{i}.rs"), &body);
    }
    env.commit_all("forty modules");
    let run = env.run(&args(&["--dry-run", "--max-chunks", "1"])).ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    let fit = lines
        .iter()
        .filter(|l| l.contains("did not fit") || l.contains("left out to fit"))
        .count();
    assert!(fit <= 2, "{}", run.stdout);
    assert!(run.stdout.contains("not evaluated: "), "{}", run.stdout);
}
