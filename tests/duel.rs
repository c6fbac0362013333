//! Topic duels as seeds 001/003 ask, beyond the basics in `topic.rs`: the judge (a third family
//! by default) must pick a side, asked again once; the sides' flags; the topic's own budget; the
//! round-3 summary's brief.

use serde_json::{json, Value};

use crate::common::{read_json, Run, TestEnv};
use crate::topic::a;

fn duel(env: &TestEnv, extra: &[&str]) -> Run {
    let mut args = vec![
        "topic",
        "Saturate?",
        "--proposer",
        "claude",
        "--challenger",
        "codex",
    ];
    args.extend_from_slice(extra);
    env.run_full(&args, "", &[("GIT_DEBATE_LAUNCHER", Some("claude"))])
}

fn json_of(run: &Run) -> Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

fn summary_of(report: &Value) -> String {
    let dir = std::path::PathBuf::from(report["session_dir"].as_str().unwrap());
    std::fs::read_to_string(dir.join("summary.md")).unwrap()
}

const PICKS: &str = "```json\n{\"winner\":\"challenger\",\"reasoning\":\"it measured\"}\n```";
const NO_SIDE: &str =
    "Both approaches have merit.\n```json\n{\"winner\":\"both\",\"reasoning\":\"balanced\"}\n```";

#[test]
fn a_verdict_that_picks_no_side_is_asked_again_once() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING"), a(NO_SIDE), a(PICKS)]));
    env.fake("codex", json!([a("CRITIQUE")]));
    let s = json_of(&duel(&env, &["--rounds", "1", "--format", "json"]).ok());
    assert_eq!(s["verdict"]["winner"], "challenger");
    assert_eq!(s["verdict"]["asked"], 2);
    let calls = env.fake_calls("claude");
    assert_eq!(calls.len(), 3, "opening, verdict, verdict again");
    let again = calls[2]["prompt"].as_str().unwrap();
    assert!(again.contains("named neither side"), "{again}");
    assert!(
        again.contains("Both approaches have merit."),
        "the first answer is quoted"
    );
    assert!(!s["notes"].to_string().contains("undecided"), "{s}");
}

#[test]
fn a_judge_that_never_picks_is_marked_undecided_not_given_a_winner() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING"), a(NO_SIDE)]));
    env.fake("codex", json!([a("CRITIQUE")]));
    let run = duel(&env, &["--rounds", "1"]).ok();
    assert_eq!(
        env.fake_calls("claude").len(),
        3,
        "asked once more, not more"
    );
    assert!(
        run.stdout
            .contains("**Winner**: undecided — the judge named no side, even when asked again"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("[WARN] The judge named no side, even when asked again"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_judge_is_a_third_family_when_one_is_installed_or_the_one_named() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING")]));
    env.fake("codex", json!([a("CRITIQUE")]));
    env.fake("gemini", json!([a(PICKS)]));
    crate::common::panel::cli_transport(&env);
    let s = json_of(&duel(&env, &["--rounds", "1", "--format", "json"]).ok());
    assert_eq!(s["judge"]["tool"], "gemini");
    assert_eq!(
        env.fake_calls("claude").len(),
        1,
        "the proposer does not judge itself"
    );
    let verdict_prompt = env.fake_calls("gemini")[0]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        verdict_prompt.contains("MUST pick a side"),
        "{verdict_prompt}"
    );
    let summary = summary_of(&s);
    assert!(
        summary.contains("**Judge**: gemini (") && summary.contains("a third family (google)"),
        "{summary}"
    );

    // --judge names it; it may be any backend, one of the sides included.
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING")]));
    env.fake("codex", json!([a("CRITIQUE"), a(PICKS)]));
    env.fake("gemini", json!([a("unused")]));
    crate::common::panel::cli_transport(&env);
    let s = json_of(
        &duel(
            &env,
            &["--rounds", "1", "--judge", "codex", "--format", "json"],
        )
        .ok(),
    );
    assert_eq!(s["judge"]["tool"], "codex");
    assert_eq!(s["judge"]["why"], "--judge was given");
    assert!(env.fake_calls("gemini").is_empty());
}

#[test]
fn same_family_sides_need_allow_same_family() {
    let env = TestEnv::with_committed_add();
    env.fake("codex", json!([a("OPENING"), a(PICKS)]));
    env.fake("copilot", json!([a("CRITIQUE")]));
    env.fake("claude", json!([a(PICKS)]));
    // Copilot's family is its model's.
    let args = [
        "topic",
        "Saturate?",
        "--proposer",
        "codex",
        "--challenger",
        "copilot",
        "--model-challenger",
        "gpt-5.5",
        "--rounds",
        "1",
    ];
    let run = env
        .run_full(&args, "", &[("GIT_DEBATE_LAUNCHER", Some("claude"))])
        .fails(2);
    assert!(
        run.stderr
            .contains("the proposer codex and the challenger copilot are both openai models")
            && run.stderr.contains("--allow-same-family"),
        "{}",
        run.stderr
    );
    let mut allowed = args.to_vec();
    allowed.push("--allow-same-family");
    let run = env
        .run_full(&allowed, "", &[("GIT_DEBATE_LAUNCHER", Some("claude"))])
        .ok();
    assert!(
        run.stderr
            .contains("note: the proposer and the challenger are both openai models"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("**Winner**: challenger (copilot)"),
        "{}",
        run.stdout
    );
}

#[test]
fn each_side_gets_its_model_and_the_effort() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING"), a(PICKS)]));
    env.fake("codex", json!([a("CRITIQUE")]));
    let run = duel(
        &env,
        &[
            "--rounds",
            "1",
            "--model-proposer",
            "opus-p",
            "--model-challenger",
            "gpt-c",
            "--effort",
            "high",
        ],
    )
    .ok();
    let argv = |who: &str, n: usize| env.fake_calls(who)[n]["argv"].to_string();
    assert!(
        argv("claude", 0).contains("\"opus-p\""),
        "{}",
        argv("claude", 0)
    );
    assert!(
        argv("codex", 0).contains("\"gpt-c\""),
        "{}",
        argv("codex", 0)
    );
    assert!(
        argv("codex", 0).contains("high"),
        "effort reaches codex: {}",
        argv("codex", 0)
    );
    // The judge is not the proposer's model.
    assert!(
        !argv("claude", 1).contains("\"opus-p\""),
        "{}",
        argv("claude", 1)
    );
    assert!(
        run.stdout.contains("**Challenger**: codex ("),
        "{}",
        run.stdout
    );
}

#[test]
fn a_topic_has_its_own_budget_and_names_where_it_came_from() {
    let env = TestEnv::with_committed_add();
    env.fake("claude", json!([a("OPENING"), a(PICKS)]));
    env.fake("codex", json!([a("CRITIQUE")]));
    let budget = |env: &TestEnv, extra: &[&str]| -> Value {
        let mut args = vec!["--rounds", "1", "--format", "json"];
        args.extend_from_slice(extra);
        let s = json_of(&duel(env, &args).ok());
        let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
        read_json(&dir.join("metadata.json"))["budget"].clone()
    };
    // The review's budget is not the topic's.
    env.git(&["config", "debate.budgetMinutes", "5"]);
    let b = budget(&env, &[]);
    assert_eq!(b["seconds"], 3600, "{b}");
    assert_eq!(b["source"], "debate.topic.budgetMinutes, default 60");
    assert_eq!(
        b["reserved_for_verdict_seconds"], 600,
        "one call's time: {b}"
    );
    env.git(&["config", "debate.topic.budgetMinutes", "45"]);
    let b = budget(&env, &[]);
    assert_eq!(
        (b["seconds"].clone(), b["source"].clone()),
        (json!(2700), json!("debate.topic.budgetMinutes = 45"))
    );
    let b = budget(&env, &["--budget-minutes", "7"]);
    assert_eq!(
        (b["seconds"].clone(), b["source"].clone()),
        (json!(420), json!("--budget-minutes 7"))
    );
    env.git(&["config", "debate.topic.budgetMinutes", "soon"]);
    let run = duel(&env, &["--rounds", "1"]).fails(2);
    assert!(
        run.stderr
            .contains("bad value for debate.topic.budgetMinutes = \"soon\""),
        "{}",
        run.stderr
    );
}

#[test]
fn the_round_three_summary_keeps_concessions_word_for_word() {
    let env = TestEnv::with_committed_add();
    env.fake(
        "claude",
        json!([
            a("OPENING"),
            a("DEFENSE-2: I concede the overflow."),
            a("SUMMARY"),
            a("DEFENSE-3"),
            a(PICKS)
        ]),
    );
    env.fake(
        "codex",
        json!([a("CRITIQUE-1"), a("FOLLOWUP-2"), a("FOLLOWUP-3")]),
    );
    let s = json_of(&duel(&env, &["--rounds", "3", "--format", "json"]).ok());
    assert_eq!(s["rounds_completed"], 3);
    let brief = env.fake_calls("claude")[2]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    for want in [
        "500 to 800 tokens",
        "every concession, quoted word for word",
        "every evidence citation",
        "Open disagreements",
        "Contradictions between rounds",
        "CRITIQUE-1",
    ] {
        assert!(
            brief.contains(want),
            "{want:?} not in the summary brief:\n{brief}"
        );
    }
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    assert_eq!(
        std::fs::read_to_string(dir.join("context-summary-3.md")).unwrap(),
        "SUMMARY"
    );
}

/// Time runs out in round 2: the turn that was cut is named with the budget that cut it, and
/// the verdict still arrives in the time kept for it. (6 s in all, 1.5 s of it for the verdict;
/// the defence would take 5 s.)
#[test]
fn when_the_topic_budget_runs_out_in_round_two_the_verdict_still_arrives() {
    let env = TestEnv::with_committed_add();
    env.git(&["config", "debate.topic.budgetMinutes", "0.1"]);
    env.fake(
        "claude",
        json!([{"answer": "OPENING", "delay_ms": 1000}, {"answer": "DEFENSE", "delay_ms": 5000}, a(PICKS)]),
    );
    env.fake("codex", json!([{"answer": "CRITIQUE", "delay_ms": 1000}]));
    let s = json_of(&duel(&env, &["--rounds", "2", "--format", "json"]).ok());
    assert_eq!(s["status"], "completed", "{s}");
    assert_eq!(s["rounds_completed"], 1);
    assert_eq!(s["verdict"]["winner"], "challenger", "{s}");
    let notes = s["notes"].to_string();
    assert!(notes.contains("Round 2 is incomplete"), "{notes}");
    assert!(
        notes.contains(
            "the topic's time budget (debate.topic.budgetMinutes = 0.1; 1.5 s of it kept"
        ),
        "{notes}"
    );
    assert!(!notes.contains("--backend-timeout-seconds"), "{notes}");
}
