//! `git debate apply`: a review's final version put into the work tree, exactly or not at all
//! unless asked, never over the user's uncommitted edits without --force.

use serde_json::json;

use crate::common::TestEnv;

const PATCH: &str = "```diff\ndiff --git a/lib.rs b/lib.rs\n--- a/lib.rs\n+++ b/lib.rs\n@@ -1,3 +1,3 @@\n fn add(a: i32, b: i32) -> i32 {\n-    a - b\n+    a + b\n }\n```";

/// A review of the subtraction bug that ends in decision B with the reviewer's patch.
fn reviewed() -> TestEnv {
    let env = TestEnv::with_subtraction_bug();
    let review = format!(
        "Review.\n\n```json\n{}\n```\n",
        json!({"verdict": "revise", "findings": [{"severity": "P1", "title": "add() subtracts",
            "evidence": "lib.rs:2", "body": "wrong operator", "action": "return a + b"}]})
    );
    env.fake("codex", json!({"answer": review}));
    let judge = "```json\n{\"classifications\": [{\"id\": \"F1\", \"verdict\": \"valid\", \
                 \"severity\": null, \"reason\": \"r\"}], \"added\": [], \
                 \"recommendation\": \"B\", \"reason\": \"r\"}\n```";
    env.fake("claude", json!([{"answer": judge}, {"answer": PATCH}]));
    let run = env.run_from_claude(&["--max-rounds", "1"]).ok();
    assert!(run.stdout.contains("git debate apply"), "{}", run.stdout);
    env
}

fn lib(env: &TestEnv) -> String {
    std::fs::read_to_string(env.repo.join("lib.rs")).unwrap()
}

#[test]
fn a_clean_tree_gets_the_final_version_and_a_dry_run_changes_nothing() {
    let env = reviewed();
    let dry = env.run(&["apply", "--dry-run"]).ok();
    assert!(dry.stdout.contains("applies exactly"), "{}", dry.stdout);
    assert!(dry.stdout.contains("+    a + b"), "{}", dry.stdout);
    assert!(lib(&env).contains("a - b"));
    let run = env.run(&["apply"]).ok();
    assert!(run.stdout.contains("applied"), "{}", run.stdout);
    assert!(lib(&env).contains("a + b"), "{}", lib(&env));
    // Applying twice does not apply twice.
    env.run(&["apply"]).fails(2);
    assert!(lib(&env).contains("a + b"));
}

#[test]
fn unrelated_edits_stay_and_index_stages_the_result() {
    let env = reviewed();
    env.write("README.md", "# Project\n\nedited by hand\n");
    // The reviewed version staged: after --index the index holds the applied one instead.
    env.git(&["add", "lib.rs"]);
    env.run(&["apply", "last", "--index"]).ok();
    assert!(lib(&env).contains("a + b"));
    assert!(std::fs::read_to_string(env.repo.join("README.md"))
        .unwrap()
        .contains("edited by hand"));
    let unstaged = env.git(&["diff", "--name-only"]);
    assert_eq!(unstaged.trim(), "README.md", "lib.rs staged as applied");
}

#[test]
fn a_conflicting_edit_is_never_merged_over_without_force() {
    let env = reviewed();
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a * b\n}\n");
    let run = env.run(&["apply"]).fails(2);
    assert!(
        run.stderr
            .contains("lib.rs has uncommitted changes it would merge into"),
        "{}",
        run.stderr
    );
    assert!(lib(&env).contains("a * b"), "nothing lost: {}", lib(&env));
    // --force tries git's three-way merge; this patch names no blobs, so git cannot, and says so.
    let forced = env.run(&["apply", "--force"]).fails(2);
    assert!(
        forced.stderr.contains("even with a three-way merge"),
        "{}",
        forced.stderr
    );
    assert!(lib(&env).contains("a * b"), "nothing lost: {}", lib(&env));
}

#[test]
fn a_session_without_a_patch_has_nothing_to_apply() {
    let env = TestEnv::with_subtraction_bug();
    env.run(&["--dry-run"]).ok();
    let run = env.run(&["apply"]).fails(2);
    assert!(
        run.stderr.contains("has no final version as a patch"),
        "{}",
        run.stderr
    );
    assert!(lib(&env).contains("a - b"));
}
