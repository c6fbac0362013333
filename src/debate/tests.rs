//! The duel's orchestration with scripted backends (the model is the only thing faked): the
//! budget runs out mid-debate and the verdict still arrives, and the note names the limit that
//! bit. End-to-end runs of the built binary are in `tests/topic.rs`.

use std::time::Duration;

use crate::agents::budget::Budget;
use crate::agents::scripted::Slow;
use crate::agents::Family;
use crate::debate::citations::Checker;
use crate::debate::{DebateOutcome, Duel};
use crate::settings::{Layers, Overrides, Settings};
use crate::store::Session;

const VERDICT: &str = "```json\n{\"winner\": \"challenger\", \"reasoning\": \"measured\"}\n```";

fn duel(budget: Budget, sides_ms: u64, rounds: u32) -> DebateOutcome {
    let tmp = tempfile::tempdir().unwrap();
    let session = Session::create(tmp.path()).unwrap();
    let settings = Settings::resolve(Layers::default(), &Overrides::default()).unwrap();
    Duel {
        session: &session,
        settings: &settings,
        topic: "cache or not?".into(),
        proposer: Slow::new("claude", Family::anthropic(), sides_ms, &["FOR"]),
        challenger: Slow::new("codex", Family::openai(), sides_ms, &["AGAINST"]),
        judge: Slow::new("gemini", Family::google(), 50, &["SUMMARY", VERDICT]),
        judge_why: "a third family".into(),
        rounds,
        budget,
        workspace: tmp.path().to_path_buf(),
        context: None,
        templates: None,
        checker: Checker::new(None),
        sandbox: Default::default(),
        resume: Vec::new(),
    }
    .run()
    .unwrap()
}

#[test]
fn when_the_budget_runs_out_in_round_two_the_verdict_still_arrives() {
    // 4 s in all, 1 s of it kept for the verdict; each turn takes 1.2 s, so round 2 cannot be
    // finished within the 3 s the turns have.
    let budget = Budget::new(
        Duration::from_secs(4),
        Duration::from_secs(60),
        "--budget-minutes 4".into(),
    )
    .keep_for_verdict();
    assert_eq!(budget.reserve, Duration::from_secs(1));
    let o = duel(budget, 1200, 3);
    assert_eq!(o.status, "completed", "{:?}", o.notes);
    assert_eq!(o.rounds_completed, 1);
    let v = o.verdict.expect("the verdict got its reserved time");
    assert_eq!(v.winner.as_deref(), Some("challenger"));
    let note = o.notes.join("\n");
    assert!(note.contains("[WARN] Round 2 is incomplete"), "{note}");
    assert!(
        note.contains("the topic's time budget (--budget-minutes 4; 1 s of it kept"),
        "the note names the budget that bit: {note}"
    );
    assert!(!note.contains("--backend-timeout-seconds"), "{note}");
    assert_eq!(o.judge.tool, "gemini");
    assert_eq!(o.judge.why.as_deref(), Some("a third family"));
}

#[test]
fn a_per_call_timeout_is_named_as_such_when_the_budget_had_room() {
    let budget = Budget::new(
        Duration::from_secs(3600),
        Duration::from_millis(300),
        "debate.topic.budgetMinutes, default 60".into(),
    )
    .keep_for_verdict();
    let o = duel(budget, 600, 2);
    // The proposer's opening timed out on the per-call limit: the duel aborts.
    assert_eq!(o.status, "aborted");
    let note = o.notes.join("\n");
    assert!(note.contains("[ERROR] Debate aborted"), "{note}");
    assert!(!note.contains("topic's time budget ("), "{note}");
    assert!(
        note.contains(
            "claude: no answer within 300 ms, the per-call limit (--backend-timeout-seconds"
        ),
        "{note}"
    );
    assert!(
        note.contains("[ERROR] Debate failed: all tool invocations timed out."),
        "{note}"
    );
    assert!(o.verdict.is_none());
}
