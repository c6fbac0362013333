//! The review loop driven by scripted in-process backends: rounds, budgets, decisions, and what
//! a signal does at each step.

use super::*;
use crate::agents::scripted::Slow;
use crate::agents::{Answer, Family};
use crate::choices::TargetSetting;
use crate::settings::{Layers, Overrides};

const CRITIQUE: &str = "```json\n{\"verdict\":\"revise\",\"findings\":[{\"severity\":\"P2\",\"title\":\"naming\",\"action\":\"rename\"}]}\n```";

fn run(reviewer_delay_ms: u64, author_delay_ms: u64, budget_ms: u64) -> Outcome {
    run_counting_syncs(reviewer_delay_ms, author_delay_ms, budget_ms).0
}

/// [`run`], and how many times the session's files were flushed to disk.
fn run_counting_syncs(
    reviewer_delay_ms: u64,
    author_delay_ms: u64,
    budget_ms: u64,
) -> (Outcome, usize) {
    let tmp = tempfile::tempdir().unwrap();
    let settings = Settings::resolve(Layers::default(), &Overrides::default()).unwrap();
    let input = crate::change::TextInput {
        text: "fn f() {}\n".into(),
        origin: "test".into(),
        path_hint: None,
        lossy: false,
    };
    let art = crate::change::from_text(&input, TargetSetting::Code, 1 << 20);
    let session = Session::create(tmp.path()).unwrap();
    let outcome = Review {
        session: &session,
        settings: &settings,
        author: Slow::new("author", Family::anthropic(), author_delay_ms, &["v2"]),
        reviewer: Slow::new("reviewer", Family::openai(), reviewer_delay_ms, &[CRITIQUE]),
        artifact: &art,
        workspace: tmp.path().to_path_buf(),
        repo_dir: None,
        patch_base: PatchBase::None,
        templates: None,
        snippet: true,
        metadata: Default::default(),
        terminal: None,
        incremental: None,
        resume: None,
        budget_override: Some(Duration::from_millis(budget_ms)),
        normalizer: None,
        locations: None,
        sandbox: Default::default(),
        exports: None,
        chunking: None,
        fallback: None,
    }
    .run()
    .unwrap();
    (outcome, session.syncs())
}

#[test]
fn a_round_is_flushed_to_disk_once_not_once_per_file() {
    let (outcome, syncs) = run_counting_syncs(0, 0, 60_000);
    let rounds = outcome.rounds.len();
    assert!(rounds >= 2, "{rounds} rounds");
    // Each round writes its input, the critique, the judge's and author's answers, a version
    // and its record, and the metadata: one flush for all of them.
    assert_eq!(syncs, rounds);
}

/// An author whose compromise (its second call) sees Ctrl-C arrive and still answers.
struct CtrlCDuringTheLastStep(std::sync::atomic::AtomicU32);

impl Backend for CtrlCDuringTheLastStep {
    fn name(&self) -> &str {
        "author"
    }
    fn family(&self) -> &Family {
        static F: std::sync::OnceLock<Family> = std::sync::OnceLock::new();
        F.get_or_init(Family::anthropic)
    }
    fn model(&self) -> Option<&str> {
        None
    }
    fn describe(&self) -> String {
        String::new()
    }
    fn ask(&self, _: &Request) -> std::result::Result<Answer, BackendError> {
        if self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 1 {
            // The loop asked for graceful handling, so the handler only raises the flag.
            signals::interrupt_self();
            assert!(signals::interrupted());
        }
        Ok(Answer::plain("author", "v2".into()))
    }
}

#[test]
fn a_signal_once_the_last_step_is_done_leaves_the_session_completed() {
    // The signal flag is process-wide, so the scenario runs in a process of its own, with SIGINT
    // at its default action even when this test run was started with it ignored.
    let mut child = std::process::Command::new(std::env::current_exe().unwrap());
    child
        .args([
            "--exact",
            "review::tests::signal_during_the_last_step",
            "--ignored",
        ])
        .env("GIT_DEBATE_TEST_SIGNAL_CHILD", "1");
    crate::sys::child::default_interrupts(&mut child);
    let out = child.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("1 passed"),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
#[ignore = "run by a_signal_once_the_last_step_is_done_leaves_the_session_completed"]
fn signal_during_the_last_step() {
    assert!(std::env::var_os("GIT_DEBATE_TEST_SIGNAL_CHILD").is_some());
    let tmp = tempfile::tempdir().unwrap();
    let args = Overrides {
        max_rounds: Some(1),
        ..Default::default()
    };
    let settings = Settings::resolve(Layers::default(), &args).unwrap();
    let input = crate::change::TextInput {
        text: "fn f() {}\n".into(),
        origin: "test".into(),
        path_hint: None,
        lossy: false,
    };
    let art = crate::change::from_text(&input, TargetSetting::Code, 1 << 20);
    let session = Session::create(tmp.path()).unwrap();
    let o = Review {
        session: &session,
        settings: &settings,
        author: Box::new(CtrlCDuringTheLastStep(Default::default())),
        reviewer: Slow::new("reviewer", Family::openai(), 0, &[CRITIQUE]),
        artifact: &art,
        workspace: tmp.path().to_path_buf(),
        repo_dir: None,
        patch_base: PatchBase::None,
        templates: None,
        snippet: true,
        metadata: Default::default(),
        terminal: None,
        incremental: None,
        resume: None,
        budget_override: None,
        normalizer: None,
        locations: None,
        sandbox: Default::default(),
        exports: None,
        chunking: None,
        fallback: None,
    }
    .run()
    .unwrap();
    // The round was done when the signal came: nothing was cut short.
    assert_eq!(o.rounds.len(), 1, "{}", o.stop_reason);
    assert_eq!(o.rounds[0].choice, 'C');
    assert_eq!(o.status, "completed");
    assert_eq!(o.stop_reason, "max rounds (1) reached");
    assert_eq!(o.final_decision, "Compromise");
}

#[test]
fn a_call_running_when_the_budget_ends_is_cancelled_and_said_so() {
    let o = run(3000, 0, 800);
    assert_eq!(o.status, "unavailable");
    assert!(
        o.stop_reason
            .starts_with("budget exceeded (0.8 s) during round 1: the call was cancelled"),
        "{}",
        o.stop_reason
    );
    assert!(o.duration_ms < 2500, "{}", o.duration_ms);
}

#[test]
fn the_budget_is_checked_before_each_round() {
    // Round 1 fits; its compromise uses up the rest; round 2 does not start.
    let o = run(0, 600, 1000);
    assert_eq!(o.rounds.len(), 1, "{}", o.stop_reason);
    assert!(
        o.stop_reason
            .starts_with("budget exceeded (1.0 s) before round 2"),
        "{}",
        o.stop_reason
    );
}
