//! Incremental review (`--since`, `debate.incremental`) end to end: real repositories with a
//! pull-request branch pushed to, rebased and force-pushed; the fake agent as reviewer (codex)
//! and author (claude).

use serde_json::{json, Value};

use crate::common::{read_json, Run, TestEnv};

/// `parse.rs` of the first push: an unwrap at line 4, a logged token at line 9.
const PARSE_V1: &str = "pub fn parse(s: &str) -> u32 {\n    // the count\n    let t = s.trim();\n    let n = t.parse::<u32>().unwrap();\n    n\n}\n\npub fn login(token: &str) {\n    println!(\"login with token {token}\");\n    connect(token);\n}\n";
/// The second push: the unwrap fixed, the token line untouched.
const PARSE_V2: &str = "pub fn parse(s: &str) -> Option<u32> {\n    // the count\n    let t = s.trim();\n    t.parse::<u32>().ok()\n}\n\npub fn login(token: &str) {\n    println!(\"login with token {token}\");\n    connect(token);\n}\n";
/// `cache.rs` of the first push: an unbounded cache at line 3 (deleted by the second push).
const CACHE_V1: &str = "use std::collections::HashMap;\n\npub static CACHE_GROWS_WITHOUT_BOUND: HashMap<String, String> = HashMap::new();\n";

/// main: README and lib.rs; feature (checked out): the first push.
fn pull_request() -> TestEnv {
    let env = TestEnv::with_repo();
    env.write("lib.rs", "pub mod parse;\n");
    env.commit_all("lib");
    env.git(&["checkout", "-q", "-b", "feature"]);
    env.write("src/parse.rs", PARSE_V1);
    env.write("src/cache.rs", CACHE_V1);
    env.write(
        "src/untouched.rs",
        "pub fn untouched_by_the_second_push() -> u8 {\n    7\n}\n",
    );
    env.commit_all("first push");
    env
}

fn finding(sev: &str, title: &str, file: &str, line: u32) -> Value {
    json!({"severity": sev, "title": title, "file": file, "start_line": line, "end_line": line,
           "body": format!("{title}: explained"), "action": "change it"})
}

/// A reviewer answer: findings in JSON, then `extra` markdown (the carried statuses).
fn critique(findings: Value, extra: &str) -> Value {
    let verdict = if findings.as_array().unwrap().is_empty() {
        "approve"
    } else {
        "revise"
    };
    json!({"answer": format!(
        "Review.\n\n{extra}\n\n```json\n{}\n```\n",
        json!({"verdict": verdict, "summary": "s", "findings": findings})
    )})
}

/// The author's judge answer: every id valid.
fn judge() -> Value {
    let list: Vec<Value> = (1..=9)
        .map(|n| json!({"id": format!("F{n}"), "verdict": "valid", "reason": "right"}))
        .collect();
    json!({"answer": format!("```json\n{}\n```", json!({"classifications": list, "recommendation": "D", "reason": "r"}))})
}

fn first_review(env: &TestEnv) -> Value {
    env.fake(
        "codex",
        critique(
            json!([
                finding("P1", "unwrap panics on bad input", "src/parse.rs", 4),
                finding("P2", "the token is logged in clear", "src/parse.rs", 9),
                finding("P2", "the cache grows without bound", "src/cache.rs", 3),
            ]),
            "",
        ),
    );
    env.fake("claude", judge());
    let run = review(env, &["--scope", "base:main"]).ok();
    summary(&run)
}

fn review(env: &TestEnv, args: &[&str]) -> Run {
    let mut all = vec!["--max-rounds", "1", "--skip-materialize-opposite"];
    all.extend_from_slice(args);
    env.run_from_claude(&all)
}

fn summary(run: &Run) -> Value {
    let dir = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("session: "))
        .unwrap_or_else(|| panic!("no session line:\n{}\n{}", run.stdout, run.stderr));
    read_json(&std::path::Path::new(dir.trim()).join("summary.json"))
}

/// The prompt of the reviewer's last call.
fn last_prompt(env: &TestEnv) -> String {
    let calls = env.fake_calls("codex");
    calls.last().unwrap()["prompt"]
        .as_str()
        .unwrap()
        .to_string()
}

fn carried_status(s: &Value, id: &str) -> (String, String) {
    let c = s["incremental"]["carried"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("{id} not carried: {s:#}"));
    (
        c["status"].as_str().unwrap().into(),
        c["why"].as_str().unwrap().into(),
    )
}

/// The second push: F1's code fixed, F3's code deleted, a new file; parse.rs's token line kept.
fn second_push(env: &TestEnv) {
    env.write("src/parse.rs", PARSE_V2);
    std::fs::remove_file(env.repo.join("src/cache.rs")).unwrap();
    env.write(
        "src/extra.rs",
        "pub fn extra(v: &[u8]) -> u8 {\n    v[0]\n}\n",
    );
    env.commit_all("second push");
}

#[test]
fn a_second_push_is_reviewed_as_its_delta_with_the_open_findings_carried() {
    let env = pull_request();
    let first = first_review(&env);
    assert_eq!(first["unresolved"].as_array().unwrap().len(), 3);
    let first_prompt = last_prompt(&env);
    assert!(first_prompt.contains("untouched_by_the_second_push"));
    second_push(&env);
    env.fake(
        "codex",
        critique(
            json!([finding(
                "P2",
                "index out of bounds on empty input",
                "src/extra.rs",
                2
            )]),
            "## Carried findings\n- F1: fixed — parse returns an Option now\n",
        ),
    );
    let run = review(
        &env,
        &[
            "--scope",
            "base:main",
            "--since",
            "last",
            "--format",
            "json",
        ],
    )
    .ok();
    assert!(
        run.stderr.contains("incremental review since debate-"),
        "{}",
        run.stderr
    );
    let prompt = last_prompt(&env);
    // The delta, not the untouched file, and the carried findings with their anchors.
    assert!(prompt.contains("v[0]"), "{prompt}");
    assert!(prompt.contains("t.parse::<u32>().ok()"), "{prompt}");
    assert!(!prompt.contains("untouched_by_the_second_push"), "{prompt}");
    assert!(prompt.contains("CARRIED FINDINGS"), "{prompt}");
    assert!(
        prompt.contains("F2 [P2] the token is logged in clear — src/parse.rs:8"),
        "{prompt}"
    );
    assert!(prompt.contains("## Carried findings"), "{prompt}");
    // What it adds to a prompt of the same size is the carried block (the findings, their
    // anchors and how to answer for them, ~1.2 KB); the untouched files are gone.
    assert!(
        prompt.len() < first_prompt.len() + 1300,
        "{} vs {}: {prompt}",
        prompt.len(),
        first_prompt.len()
    );

    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    let inc = &s["incremental"];
    assert_eq!(inc["mode"], "delta");
    assert_eq!(inc["rebased"], false);
    assert_eq!(
        inc["counts"],
        json!({"new": 1, "carried_open": 1, "fixed": 1, "outdated": 1})
    );
    assert_eq!(carried_status(&s, "F1").0, "fixed");
    let (st, why) = carried_status(&s, "F2");
    assert_eq!(st, "carried-open");
    assert!(why.contains("said nothing"), "{why}");
    // The token line moved up a line (the fix shortened parse): re-anchored there.
    assert_eq!(inc["carried"][1]["location"]["start_line"], 8, "{inc:#}");
    let (st, why) = carried_status(&s, "F3");
    assert_eq!(st, "outdated");
    assert!(why.contains("gone"), "{why}");
    // New findings are numbered after the earlier review's.
    let unresolved: Vec<&str> = s["unresolved"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].as_str().unwrap())
        .collect();
    assert_eq!(unresolved, ["F4", "F2"]);
    assert_eq!(s["unresolved"][1]["judged"], "carried-open");
}

#[test]
fn the_report_formats_show_new_carried_fixed_and_outdated() {
    let env = pull_request();
    first_review(&env);
    second_push(&env);
    env.fake(
        "codex",
        critique(
            json!([]),
            "## Carried findings\n- F1: fixed\n- F2: still open\n",
        ),
    );
    let run = review(&env, &["--scope", "base:main", "--since", "last"]).ok();
    assert!(
        run.stdout
            .contains("0 new · 1 carried-open · 1 fixed · 1 outdated"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("[F3] outdated"), "{}", run.stdout);
    assert!(run.stdout.contains("[F2] carried-open"), "{}", run.stdout);
    let s = summary(&run);
    let id = s["session"].as_str().unwrap().to_string();
    let md = env.run(&["show", &id, "--format", "markdown"]).ok().stdout;
    assert!(md.contains("### Incremental"), "{md}");
    assert!(md.contains("[F1] fixed"), "{md}");
    let sarif = env.run(&["show", &id, "--format", "sarif"]).ok().stdout;
    assert!(sarif.contains("the token is logged in clear"), "{sarif}");
    assert!(!sarif.contains("unwrap panics"), "{sarif}");
}

/// A push that touches only a new file: the earlier findings' code is unchanged.
fn small_push(env: &TestEnv, index: u8) {
    env.write(
        "src/extra.rs",
        &format!("pub fn extra(v: &[u8]) -> u8 {{\n    v[{index}]\n}}\n"),
    );
    env.commit_all(&format!("push {index}"));
}

#[test]
fn the_gate_counts_new_and_carried_open_findings() {
    let env = pull_request();
    first_review(&env);
    small_push(&env, 0);
    // Nothing new, and nothing said of F1 (P1): it stays open and fails the gate.
    env.fake("codex", critique(json!([]), "LGTM"));
    let gate = ["--scope", "base:main", "--since", "last", "--fail-on", "p1"];
    let run = review(&env, &gate).fails(1);
    let s = summary(&run);
    assert_eq!(s["gate"]["blocking"], json!(["F1"]));
    assert_eq!(s["incremental"]["counts"]["carried_open"], 3);
    // Said fixed (F1, F3) and not applicable (F2): the gate passes.
    small_push(&env, 1);
    env.fake(
        "codex",
        critique(
            json!([]),
            "- F1: fixed\n- F2: no longer applicable\n- F3: resolved",
        ),
    );
    let s = summary(&review(&env, &gate).ok());
    assert_eq!(
        s["incremental"]["counts"],
        json!({"new": 0, "carried_open": 0, "fixed": 2, "outdated": 1})
    );
    // Nothing is carried any more; a new P1 fails the gate.
    small_push(&env, 2);
    env.fake(
        "codex",
        critique(
            json!([finding("P1", "index 2 panics", "src/extra.rs", 2)]),
            "",
        ),
    );
    let run = review(&env, &gate).fails(1);
    let s = summary(&run);
    assert_eq!(s["incremental"]["counts"]["new"], 1);
    assert_eq!(s["incremental"]["carried"], json!([]));
    assert_eq!(s["gate"]["blocking"], json!(["F4"]));
}

#[test]
fn a_rebase_onto_a_moved_base_stays_incremental_and_leaves_upstream_out() {
    let env = pull_request();
    first_review(&env);
    env.git(&["checkout", "-q", "main"]);
    env.write("upstream.rs", "pub fn upstream_only_change() {}\n");
    env.commit_all("upstream moves on");
    env.git(&["checkout", "-q", "feature"]);
    env.git(&["rebase", "-q", "main"]);
    second_push(&env);
    env.fake("codex", critique(json!([]), "- F1: fixed"));
    let run = review(&env, &["--scope", "base:main", "--since", "last"]).ok();
    let prompt = last_prompt(&env);
    assert!(!prompt.contains("upstream_only_change"), "{prompt}");
    assert!(prompt.contains("v[0]"), "{prompt}");
    let s = summary(&run);
    assert_eq!(s["incremental"]["mode"], "delta");
    assert_eq!(s["incremental"]["rebased"], true);
    assert_eq!(s["incremental"]["left_out"], json!(["upstream.rs"]));
    assert_eq!(carried_status(&s, "F1").0, "fixed");
}

#[test]
fn a_force_push_that_rewrote_history_gets_a_full_review_and_says_why() {
    let env = pull_request();
    first_review(&env);
    // The branch is reset and something else entirely is pushed.
    env.git(&["checkout", "-q", "-B", "feature", "main"]);
    env.write("src/other.rs", "pub fn a_different_approach() {}\n");
    env.commit_all("rewritten");
    env.fake("codex", critique(json!([]), "LGTM"));
    let run = review(&env, &["--scope", "base:main", "--since", "last"]).ok();
    assert!(
        run.stderr.contains("note: full review, not incremental: ")
            && run.stderr.contains("history was rewritten"),
        "{}",
        run.stderr
    );
    assert!(last_prompt(&env).contains("a_different_approach"));
    assert!(!last_prompt(&env).contains("CARRIED FINDINGS"));
    let s = summary(&run);
    assert_eq!(s["incremental"]["mode"], "full");
    // Named, the session gives the reason alone.
    let id = s["incremental"]["previous_session"]
        .as_str()
        .unwrap()
        .to_string();
    let run = review(&env, &["--scope", "base:main", "--since", &id]).ok();
    assert!(
        run.stderr.contains(
            "note: full review, not incremental: history was rewritten: the reviewed head is \
             not an ancestor of the new one, and none of the files reviewed then"
        ),
        "{}",
        run.stderr
    );
    let s = summary(&run);
    assert!(s["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n.as_str().unwrap().contains("none of the files")));
}

#[test]
fn since_a_session_or_a_revision() {
    let env = pull_request();
    let first = first_review(&env);
    let id = first["session"].as_str().unwrap().to_string();
    let first_head = env.git(&["rev-parse", "HEAD"]);
    second_push(&env);
    // A later full review of the same scope: `--since ID` still continues the first one.
    env.fake("codex", critique(json!([]), "LGTM"));
    review(&env, &["--scope", "base:main", "--no-incremental"]).ok();
    env.fake("codex", critique(json!([]), "- F2: fixed"));
    let run = review(&env, &["--scope", "base:main", "--since", &id]).ok();
    let s = summary(&run);
    assert_eq!(s["incremental"]["previous_session"], id.as_str());
    assert_eq!(carried_status(&s, "F2").0, "fixed");
    // A revision: the delta from it, findings carried from its review.
    let run = review(
        &env,
        &["--scope", "base:main", "--since", first_head.trim()],
    )
    .ok();
    let s = summary(&run);
    assert_eq!(s["incremental"]["previous_session"], id.as_str());
    assert_eq!(s["incremental"]["old_head"], first_head.trim());
    // A revision nobody reviewed: the delta, nothing carried.
    let run = review(&env, &["--scope", "base:main", "--since", "main"]).ok();
    let s = summary(&run);
    assert_eq!(s["incremental"]["mode"], "delta");
    assert!(s["incremental"]["previous_session"].is_null());
    assert_eq!(s["incremental"]["carried"], json!([]));
}

#[test]
fn bad_since_values_are_one_line_errors() {
    let env = pull_request();
    for (args, says) in [
        (
            vec!["--since", "debate-20990101-000000-000-0000001"],
            "no such session",
        ),
        (vec!["--since", "debate-bad/../x"], "not a session id"),
        (
            vec!["--since", "no-such-rev"],
            "not `last`, a session id or a commit",
        ),
        (vec!["--since", " "], "--since needs a value"),
    ] {
        let mut all = vec!["--dry-run", "--scope", "base:main"];
        all.extend(args);
        let run = env.run(&all).fails(2);
        assert!(run.stderr.contains(says), "{all:?}: {}", run.stderr);
        assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
    }
    env.write("lib.rs", "changed\n");
    env.git(&["add", "lib.rs"]);
    let run = env
        .run(&["--dry-run", "--scope", "staged", "--since", "last"])
        .fails(2);
    assert!(run.stderr.contains("--since works with"), "{}", run.stderr);
    let run = env
        .run(&["--dry-run", "--since", "last", "some content"])
        .fails(2);
    assert!(run.stderr.contains("--since works with"), "{}", run.stderr);
    // A session that reviewed no commit cannot be continued.
    let dry = env.run(&["--dry-run", "--scope", "staged"]).ok();
    let staged = dry.session_dir();
    let staged_id = staged.file_name().unwrap().to_str().unwrap();
    let run = env
        .run(&["--dry-run", "--scope", "base:main", "--since", staged_id])
        .fails(2);
    assert!(run.stderr.contains("reviewed no commit"), "{}", run.stderr);
}

#[test]
fn debate_incremental_makes_base_scopes_incremental_and_a_committed_gitdebate_may_set_it() {
    let env = pull_request();
    first_review(&env);
    second_push(&env);
    env.git(&["config", "debate.incremental", "true"]);
    env.fake("codex", critique(json!([]), "- F1: fixed"));
    let run = review(&env, &["--scope", "base:main"]).ok();
    let s = summary(&run);
    assert_eq!(s["incremental"]["mode"], "delta");
    assert_eq!(s["incremental"]["since"], "auto");
    // --no-incremental undoes it.
    let run = review(&env, &["--scope", "base:main", "--no-incremental"]).ok();
    assert!(summary(&run).get("incremental").is_none());
    // From the repository's .gitdebate: honoured (it chooses no program, place or file, and
    // carried findings still count for the gate).
    env.git(&["config", "--unset", "debate.incremental"]);
    env.write(".gitdebate", "[debate]\n\tincremental = true\n");
    env.commit_all("team config");
    let run = review(&env, &["--scope", "base:main"]).ok();
    assert!(
        !run.stderr.contains("ignoring debate.incremental"),
        "{}",
        run.stderr
    );
    assert_eq!(summary(&run)["incremental"]["mode"], "delta");
    // Only base: scopes are automatic.
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    assert!(run.metadata().get("incremental").is_none());
}

#[test]
fn nothing_new_since_the_last_review_asks_no_model_and_its_open_findings_still_gate() {
    let env = pull_request();
    first_review(&env);
    let calls = env.fake_calls("codex").len();
    let run = review(
        &env,
        &["--scope", "base:main", "--since", "last", "--fail-on", "p1"],
    )
    .fails(1);
    assert!(run.stdout.contains("nothing to review"), "{}", run.stdout);
    assert!(
        run.stdout.contains("[F1] P1 unwrap panics"),
        "{}",
        run.stdout
    );
    assert_eq!(env.fake_calls("codex").len(), calls);
    review(
        &env,
        &[
            "--scope",
            "base:main",
            "--since",
            "last",
            "--fail-on",
            "never",
        ],
    )
    .ok();
    // A CI format gets the earlier review's report, whose findings stand: a re-run must not
    // make the SARIF results or the annotations vanish.
    let args = [
        "--scope",
        "base:main",
        "--since",
        "last",
        "--fail-on",
        "p1",
        "--format",
    ];
    let run = review(&env, &[&args[..], &["sarif"]].concat()).fails(1);
    let sarif: Value = serde_json::from_str(&run.stdout).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 3, "{sarif:#}");
    assert!(run.stderr.contains("nothing to review"), "{}", run.stderr);
    let run = review(&env, &[&args[..], &["github"]].concat()).fails(1);
    assert!(
        run.stdout.contains("unwrap panics on bad input"),
        "{}",
        run.stdout
    );
    assert_eq!(env.fake_calls("codex").len(), calls, "still no model call");
}

#[test]
fn a_carried_finding_raised_again_keeps_its_id_and_is_not_new_and_a_renamed_file_is_followed() {
    let env = pull_request();
    let first = first_review(&env)["session"].as_str().unwrap().to_string();
    env.git(&["mv", "src/parse.rs", "src/parsing.rs"]);
    small_push(&env, 0);
    // Reworded, at its new place: the same finding (F2), not a new one.
    env.fake(
        "codex",
        critique(
            json!([finding(
                "P2",
                "The token gets logged in clear text",
                "src/parsing.rs",
                9
            )]),
            "",
        ),
    );
    let run = review(&env, &["--scope", "base:main", "--since", "last"]).ok();
    let s = summary(&run);
    let (st, why) = carried_status(&s, "F2");
    assert_eq!(
        (st.as_str(), why.as_str()),
        ("carried-open", "the reviewer raised it again")
    );
    assert_eq!(
        s["incremental"]["counts"]["new"], 0,
        "{:#}",
        s["incremental"]
    );
    assert_eq!(
        s["incremental"]["carried"][0]["location"]["path"],
        "src/parsing.rs"
    );
    // Said nothing of F1: still open, at its new path.
    assert_eq!(carried_status(&s, "F1").0, "carried-open");
    // A dry run shows the same prompt: the carried findings beside the delta.
    let dry = env
        .run(&["--dry-run", "--scope", "base:main", "--since", &first])
        .ok();
    let input = std::fs::read_to_string(dry.session_dir().join("round-1-input.md")).unwrap();
    assert!(input.contains("CARRIED FINDINGS"), "{input}");
}

#[test]
fn since_last_continues_this_branch_s_review_not_another_branch_s() {
    let env = pull_request();
    let a = first_review(&env)["session"].as_str().unwrap().to_string();
    // Another pull request against the same base, reviewed after.
    env.git(&["checkout", "-q", "-b", "other", "main"]);
    env.write("src/other.rs", "pub fn another_pull_request() {}\n");
    env.commit_all("other work");
    env.fake("codex", critique(json!([]), "LGTM"));
    let run = review(&env, &["--scope", "base:main", "--since", "last"]).ok();
    let s = summary(&run);
    assert_eq!(s["incremental"]["mode"], "full");
    assert!(
        s["incremental"]["reason"]
            .as_str()
            .unwrap()
            .contains("no earlier review of base:main is of this branch's history"),
        "{:#}",
        s["incremental"]
    );
    // Back on the first branch: its own review is continued, not the newest one.
    env.git(&["checkout", "-q", "feature"]);
    small_push(&env, 0);
    env.fake("codex", critique(json!([]), "LGTM"));
    let s = summary(&review(&env, &["--scope", "base:main", "--since", "last"]).ok());
    assert_eq!(s["incremental"]["previous_session"], a.as_str());
    assert_eq!(s["incremental"]["mode"], "delta");
}

/// A reviewer whose CLI enforces the review schema (codex `--output-schema`) has no section to
/// end with: it is told to put the statuses in the object's `summary`, and they are read there.
#[test]
fn a_schema_bound_reviewer_gives_the_statuses_in_its_summary() {
    let env = pull_request();
    first_review(&env);
    second_push(&env);
    env.fake(
        "codex",
        json!({"answer": "unused", "structured": {"verdict": "approve", "findings": [],
            "summary": "The delta is fine.\n- F1: fixed — parse returns an Option now\n- F2: still open — the token is still printed"}}),
    );
    let run = review(
        &env,
        &[
            "--scope",
            "base:main",
            "--since",
            "last",
            "--format",
            "json",
        ],
    )
    .ok();
    let prompt = last_prompt(&env);
    assert!(
        prompt.contains("put those lines at the end of its `summary`"),
        "{prompt}"
    );
    let argv = env.fake_calls("codex").last().unwrap()["argv"].to_string();
    assert!(
        argv.contains("--output-schema"),
        "the schema was enforced: {argv}"
    );
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(carried_status(&s, "F1").0, "fixed");
    let (st, why) = carried_status(&s, "F2");
    assert_eq!(st, "carried-open");
    assert!(!why.contains("said nothing"), "the reviewer did say: {why}");
}
