//! What a topic debate is grounded in: citations are checked against the revision debated (the
//! work tree for `--scope uncommitted`, the index for `staged`), and every model call runs in a
//! private export of that revision, never in the repository.

use std::path::PathBuf;

use serde_json::{json, Value};

use crate::common::panel::*;
use crate::common::TestEnv;
use crate::topic::a;

const VERDICT: &str =
    "```json\n{\"winner\":\"proposer\",\"reasoning\":\"cited the new code\"}\n```";
const ENV_SECRET: &str = "plain-envsecret-4444";

/// A committed `add`, an uncommitted `checked_sum` below it (lines 4-6), an untracked
/// `src/new.rs`, and an ignored `.env`.
fn uncommitted() -> TestEnv {
    let env = TestEnv::with_committed_add();
    env.write(".gitignore", ".env\n");
    env.commit_all("ignore");
    env.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\npub fn checked_sum(a: i32, b: i32) -> Option<i32> {\n    a.checked_add(b)\n}\n",
    );
    env.write("src/new.rs", "pub const NEW: u8 = 1;\n");
    env.write(".env", &format!("TOKEN={ENV_SECRET}\n"));
    env
}

fn duel(env: &TestEnv, extra: &[&str]) -> Value {
    let mut args = vec![
        "topic",
        "Is checked_sum right?",
        "--proposer",
        "claude",
        "--challenger",
        "codex",
        "--rounds",
        "1",
        "--format",
        "json",
    ];
    args.extend_from_slice(extra);
    let run = env
        .run_full(&args, "", &[("GIT_DEBATE_LAUNCHER", Some("claude"))])
        .ok();
    serde_json::from_str(&run.stdout).unwrap()
}

const QUOTES: &str =
    "See `src/lib.rs:5`, `src/new.rs` and the `pub fn checked_sum(` pattern; also `src/gone.rs`.";

fn status_of<'a>(cites: &'a Value, cited: &str) -> &'a Value {
    &cites
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["cited"] == cited)
        .unwrap_or_else(|| panic!("{cited} not in {cites}"))["status"]
}

#[test]
fn topic_quotes_of_uncommitted_code_are_verified_in_the_work_tree() {
    let env = uncommitted();
    let read = json!([".env", "src/new.rs", ".git/config"]);
    env.fake(
        "claude",
        json!([{"answer": QUOTES, "read": read}, a(VERDICT)]),
    );
    env.fake("codex", json!([a("Unsupported.")]));
    let s = duel(&env, &["--scope", "uncommitted"]);
    assert_eq!(s["status"], "completed", "{s}");
    let cites = &s["exchanges"][0]["citations"];
    for c in ["src/lib.rs:5", "src/new.rs", "pub fn checked_sum("] {
        assert_eq!(status_of(cites, c), "verified", "{c}: {cites}");
    }
    assert_eq!(status_of(cites, "src/gone.rs"), "not-found");
    assert_eq!(s["exchanges"][0]["citations_checked_at"], "the work tree");
    let dir = PathBuf::from(s["session_dir"].as_str().unwrap());
    let meta: Value = crate::common::read_json(&dir.join("metadata.json"));
    assert_eq!(meta["citations_checked_at"], "the work tree");
    let summary = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    assert!(
        summary.contains(
            "citations checked by the tool against the work tree: 3 verified, 1 not found"
        ),
        "{summary}"
    );
    // The debaters ran in the export: the untracked file the change adds is there, the ignored
    // `.env` and `.git` are not, and the repository is not where they ran.
    let answer = s["exchanges"][0]["response"].as_str().unwrap();
    assert!(
        answer.contains("READ src/new.rs: pub const NEW"),
        "{answer}"
    );
    assert!(answer.contains("READ .env: unreadable"), "{answer}");
    assert!(answer.contains("READ .git/config: unreadable"), "{answer}");
    assert!(!answer.contains(ENV_SECRET));
    for call in env
        .fake_calls("claude")
        .iter()
        .chain(&env.fake_calls("codex"))
    {
        let cwd = PathBuf::from(call["cwd"].as_str().unwrap());
        assert!(!cwd.starts_with(&env.repo), "{}", cwd.display());
        assert!(!cwd.exists(), "the export {} is left behind", cwd.display());
    }
}

#[test]
fn topic_citations_of_a_staged_change_are_checked_in_the_index() {
    let env = uncommitted();
    env.git(&["add", "src/lib.rs"]);
    // Not staged: only in the work tree.
    env.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    );
    env.fake(
        "claude",
        json!([
            a("See `src/lib.rs:5` and `pub fn checked_sum(`."),
            a(VERDICT)
        ]),
    );
    env.fake("codex", json!([a("Unsupported.")]));
    let s = duel(&env, &["--scope", "staged"]);
    let cites = &s["exchanges"][0]["citations"];
    assert_eq!(status_of(cites, "src/lib.rs:5"), "verified", "{cites}");
    assert_eq!(status_of(cites, "pub fn checked_sum("), "verified");
    assert_eq!(s["exchanges"][0]["citations_checked_at"], "the index");
}

#[test]
fn topic_without_a_scope_runs_in_an_empty_private_directory() {
    let env = uncommitted();
    let read = json!([".env", "src/lib.rs"]);
    env.fake(
        "claude",
        json!([{"answer": "OPEN", "read": read}, a(VERDICT)]),
    );
    env.fake("codex", json!([a("Unsupported.")]));
    let s = duel(&env, &[]);
    let answer = s["exchanges"][0]["response"].as_str().unwrap();
    assert!(answer.contains("READ .env: unreadable"), "{answer}");
    assert!(answer.contains("READ src/lib.rs: unreadable"), "{answer}");
    let cwd = PathBuf::from(env.fake_calls("claude")[0]["cwd"].as_str().unwrap());
    assert!(!cwd.starts_with(&env.repo));
}

#[test]
fn panel_evidence_from_the_uncommitted_change_is_not_ruled_fabricated() {
    let env = uncommitted();
    fakes(
        &env,
        &[(
            "Opening Statements. alice,",
            json!({"answer": "OPENING alice: `src/lib.rs:5` and `src/new.rs`.", "read": [".env"]}),
        )],
    );
    let (_, dir) = run_panel(
        &env,
        &["--yes", "--scope", "uncommitted", "--max-rounds", "1"],
    );
    let log = read_log(&dir);
    let alice = log
        .iter()
        .find(|e| e["speaker"] == "alice" && e["type"] == "opening_statement")
        .unwrap();
    assert!(alice["content"]
        .as_str()
        .unwrap()
        .contains("READ .env: unreadable"));
    let seq = alice["seq"].clone();
    let results: Vec<Value> = kinds_of(&log, "verification_result")
        .iter()
        .filter(|e| e["target_seq"] == seq)
        .map(|e| serde_json::from_str(e["content"].as_str().unwrap()).unwrap())
        .collect();
    assert_eq!(results.len(), 2, "{results:?}");
    assert!(
        results.iter().all(|r| r["status"] == "verified"),
        "{results:?}"
    );
    assert!(!kinds_of(&log, "redaction")
        .iter()
        .any(|e| e["target_seq"] == seq));
    let ready = &log[position(&log, "All agents confirmed ready")]["content"];
    assert!(
        ready
            .as_str()
            .unwrap()
            .contains("checked against the work tree"),
        "{ready}"
    );
    let report = std::fs::read_to_string(dir.join("verifier-report.md")).unwrap();
    assert!(report.contains("checked against the work tree"), "{report}");
    for call in env.fake_calls("claude") {
        let cwd = PathBuf::from(call["cwd"].as_str().unwrap());
        assert!(!cwd.starts_with(&env.repo), "{}", cwd.display());
    }
}
