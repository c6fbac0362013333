//! Sessions as the release before typed records wrote them (`tests/fixtures/sessions-v1`, copied
//! as that release left them) are still listed, shown, resumed and continued by `--since last`;
//! a layout newer than this release reads is refused, and a damaged one is named.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::{read_json, TestEnv};

const REVIEW: &str = "debate-20261126-170857-906-0004264";
const DUEL: &str = "debate-20261126-170859-220-0004375";
const PANEL: &str = "debate-20261126-170901-493-0004535";

fn fixture(kind: &str, id: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/sessions-v1")
        .join(kind)
        .join(id)
}

/// The repository the review fixture was made in, commit for commit (fixed dates make the same
/// ids): `main` with `add`, `feature` (checked out) where it subtracts.
fn feature_repo() -> TestEnv {
    let env = TestEnv::with_repo();
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
    env.commit_all("add");
    env.git(&["checkout", "-q", "-b", "feature"]);
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n");
    env.commit_all("subtract");
    // The fixtures are old by the time this runs: no run may prune them.
    env.git(&["config", "debate.keepDays", "0"]);
    env
}

/// Copies the fixture session `id` of `kind` into the store of `env`; its folder there.
fn plant(env: &TestEnv, kind: &str, id: &str) -> PathBuf {
    let to = env.store().join(id);
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(fixture(kind, id)).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    to
}

fn json_of(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}\n{stdout}"))
}

#[test]
fn an_earlier_releases_review_is_listed_shown_resumed_and_continued() {
    let env = feature_repo();
    assert_eq!(
        env.git(&["rev-parse", "HEAD"]),
        "e2e32128943cb14c463c40a1e3470b8b2f74a7e5",
        "the fixture's repository was not rebuilt commit for commit"
    );
    let dir = plant(&env, "review", REVIEW);
    let list = env.run(&["sessions"]).ok();
    assert!(
        list.stdout.starts_with(&format!(
            "{REVIEW}  2026-11-26T17:08:57Z  code      base:main                 completed"
        )),
        "{}",
        list.stdout
    );

    let show = env.run(&["show", REVIEW]).ok();
    for line in [
        "status: completed",
        "target: code",
        "scope: merge-base 607193b of main and HEAD -> HEAD e2e3212 (feature)",
        "redactions: 0",
    ] {
        assert!(show.stdout.contains(line), "{line}:\n{}", show.stdout);
    }
    // What it holds comes back as it was written.
    let shown = json_of(&env.run(&["show", REVIEW, "--format", "json"]).ok().stdout);
    assert_eq!(shown["metadata"], read_json(&dir.join("metadata.json")));
    assert_eq!(shown["summary"], read_json(&dir.join("summary.json")));
    let round = json_of(
        &env.run(&["show", REVIEW, "--round", "1", "--format", "json"])
            .ok()
            .stdout,
    );
    assert_eq!(round["record"], read_json(&dir.join("round-1.json")));
    let sarif = json_of(&env.run(&["show", REVIEW, "--format", "sarif"]).ok().stdout);
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "P2");

    // Resumed: a second round, recorded beside the first.
    env.fake("codex", json!({"answer": "LGTM"}));
    env.fake("claude", json!({}));
    let run = env
        .run_from_claude(&["resume", REVIEW, "--max-rounds", "2", "--format", "json"])
        .ok();
    let s = json_of(&run.stdout);
    assert_eq!(s["status"], "completed", "{s}");
    assert_eq!(s["rounds"], 2);
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["rounds"], 2);
    assert_eq!(meta["resumed_at"].as_array().unwrap().len(), 1);
    assert_eq!(
        meta["settings"]["max_rounds"], 1,
        "the session's own record"
    );
}

#[test]
fn an_earlier_releases_review_is_what_since_last_continues() {
    let env = feature_repo();
    plant(&env, "review", REVIEW);
    env.write(
        "lib.rs",
        "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\nfn one() -> i32 {\n    1\n}\n",
    );
    env.commit_all("one");
    env.fake("codex", json!({"answer": "LGTM"}));
    env.fake("claude", json!({}));
    let run = env.run_from_claude(&[
        "--scope",
        "base:main",
        "--since",
        "last",
        "--format",
        "json",
    ]);
    assert!(
        run.stderr
            .contains(&format!("note: incremental review since {REVIEW}")),
        "{}",
        run.stderr
    );
    let s = json_of(&run.stdout);
    assert_eq!(s["incremental"]["previous_session"], REVIEW, "{s}");
    assert_eq!(s["incremental"]["carried"][0]["id"], "F1", "{s}");
}

#[test]
fn an_earlier_releases_debates_are_shown_and_an_interrupted_duel_resumed() {
    let env = TestEnv::with_committed_add();
    env.git(&["config", "debate.keepDays", "0"]);
    let panel = plant(&env, "panel", PANEL);
    let shown = json_of(&env.run(&["show", PANEL, "--format", "json"]).ok().stdout);
    assert_eq!(shown["metadata"], read_json(&panel.join("metadata.json")));
    assert_eq!(shown["summary"], read_json(&panel.join("summary.json")));
    let show = env.run(&["show", PANEL]).ok();
    assert!(show.stdout.contains("status: completed"), "{}", show.stdout);

    let duel = plant(&env, "duel", DUEL);
    let verdict = "```json\n{\"winner\":\"challenger\",\"reasoning\":\"r\",\"quality\":{},\
                   \"agreements\":[],\"disagreements\":[],\"unresolved\":[],\
                   \"recommendation\":\"x\"}\n```";
    env.fake("codex", json!([{"answer": "FOLLOWUP-2"}]));
    env.fake("claude", json!([{"answer": verdict}]));
    let run = env.run(&["resume", DUEL, "--format", "json"]).ok();
    let s = json_of(&run.stdout);
    assert_eq!(s["status"], "completed", "{s}");
    let turns: Vec<&str> = s["exchanges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["response"].as_str().unwrap())
        .collect();
    assert_eq!(turns, ["OPENING", "CRITIQUE-1", "DEFENSE-2", "FOLLOWUP-2"]);
    assert_eq!(
        read_json(&duel.join("metadata.json"))["rounds_completed"],
        2
    );
}

#[test]
fn a_later_layout_is_refused_and_a_damaged_one_named() {
    let env = feature_repo();
    let dir = plant(&env, "review", REVIEW);
    let mut meta = read_json(&dir.join("metadata.json"));
    meta["version"] = 2.into();
    std::fs::write(dir.join("metadata.json"), meta.to_string()).unwrap();
    let show = env.run(&["show", REVIEW]).fails(4);
    assert!(
        show.stdout
            .contains("metadata: metadata.json: version 2 is newer than this git-debate reads"),
        "{}",
        show.stdout
    );
    let resume = env.run(&["resume", REVIEW]).fails(4);
    assert!(
        resume.stderr.contains(&format!(
            "session {REVIEW} cannot be resumed: metadata.json: version 2 is newer"
        )),
        "{}",
        resume.stderr
    );

    meta["version"] = 1.into();
    meta["rounds"] = "one".into();
    std::fs::write(dir.join("metadata.json"), meta.to_string()).unwrap();
    let resume = env.run(&["resume", REVIEW]).fails(4);
    assert!(
        resume
            .stderr
            .contains("corrupt metadata.json: invalid type: string \"one\", expected u64"),
        "{}",
        resume.stderr
    );
    meta["rounds"] = 1.into();
    meta.as_object_mut().unwrap().remove("status");
    std::fs::write(dir.join("metadata.json"), meta.to_string()).unwrap();
    let show = env.run(&["show", REVIEW]).fails(4);
    assert!(
        show.stdout
            .contains("metadata: corrupt metadata.json: missing field `status`"),
        "{}",
        show.stdout
    );
}
