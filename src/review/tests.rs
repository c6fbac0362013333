//! The review loop driven by scripted in-process backends: rounds, budgets, decisions, and what
//! a signal does at each step.

use super::*;
use crate::agents::scripted::{ByPrompt, Slow};
use crate::agents::{Answer, Family};
use crate::choices::TargetSetting;
use crate::findings::Severity;
use crate::settings::{Layers, Overrides};

const CRITIQUE: &str = "```json\n{\"verdict\":\"revise\",\"findings\":[{\"severity\":\"P2\",\"title\":\"naming\",\"action\":\"rename\"}]}\n```";

fn run(reviewer_delay_ms: u64, author_delay_ms: u64, budget_ms: u64) -> ReviewOutcome {
    run_counting_syncs(reviewer_delay_ms, author_delay_ms, budget_ms).0
}

/// [`run`], and how many times the session's files were flushed to disk.
fn run_counting_syncs(
    reviewer_delay_ms: u64,
    author_delay_ms: u64,
    budget_ms: u64,
) -> (ReviewOutcome, usize) {
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
        normalizer: Restater::Reviewer,
        locations: None,
        sandbox: Default::default(),
        exports: None,
        chunking: None,
        fallback: Vec::new(),
        others: Vec::new(),
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
        normalizer: Restater::Reviewer,
        locations: None,
        sandbox: Default::default(),
        exports: None,
        chunking: None,
        fallback: Vec::new(),
        others: Vec::new(),
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

/// The review of `fn f() {}` by `reviewer`, judged by `author`, in at most `rounds` rounds.
fn review_by(
    author: Box<dyn Backend>,
    reviewer: Box<dyn Backend>,
    rounds: u32,
    normalizer: Restater,
) -> ReviewOutcome {
    let tmp = tempfile::tempdir().unwrap();
    let args = Overrides {
        max_rounds: Some(rounds),
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
    Review {
        session: &session,
        settings: &settings,
        author,
        reviewer,
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
        normalizer,
        locations: None,
        sandbox: Default::default(),
        exports: None,
        chunking: None,
        fallback: Vec::new(),
        others: Vec::new(),
    }
    .run()
    .unwrap()
}

/// What each prompt of the loop starts with, to script the sides by.
const REVIEW: &str = "You are reviewing a code change";
const REPAIR: &str = "Below is your own answer";
const NORMALIZE: &str = "Below is a code reviewer's answer";
const JUDGE: &str = "Judge each of its findings";
const REBUTTAL: &str = "Write a short rebuttal";
const COMPROMISE: &str = "fixes what is valid";
const MATERIALIZE: &str = "Apply every valid finding";

/// A judge's answer: `(id, verdict, reason)` rulings and a letter.
fn judged(rulings: &[(&str, &str, &str)], letter: &str) -> String {
    let list: Vec<serde_json::Value> = rulings
        .iter()
        .map(
            |(id, v, r)| serde_json::json!({"id": id, "verdict": v, "severity": null, "reason": r}),
        )
        .collect();
    format!(
        "```json\n{}\n```",
        serde_json::json!({"classifications": list, "added": [], "recommendation": letter,
            "reason": "the judge's view"})
    )
}

/// A review answer in the schema, with `(severity, title, body)` findings that have an action.
fn schema_answer(verdict: &str, findings: &[(&str, &str, &str)]) -> String {
    let list: Vec<serde_json::Value> = findings
        .iter()
        .map(|(s, t, b)| {
            serde_json::json!({"severity": s, "title": t, "file": null, "start_line": null,
                "end_line": null, "body": b, "action": "fix it"})
        })
        .collect();
    format!(
        "```json\n{}\n```",
        serde_json::json!({"verdict": verdict, "summary": "s", "findings": list})
    )
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

const TWO_CONCERNS: &str = "The migration in db/0042.py drops the users table on rollback at \
line 18, so a rollback loses every account.\n\nSeparately, the retry loop in worker.py never gives \
up when the queue keeps failing, which pins a CPU.\n";

fn restatement(verdict: &str, findings: serde_json::Value) -> &'static str {
    leak(format!(
        "```json\n{}\n```",
        serde_json::json!({"verdict": verdict, "summary": "s", "findings": findings})
    ))
}

#[test]
fn a_repair_that_drops_or_invents_a_finding_is_caught_and_reported() {
    let dishonest = restatement(
        "revise",
        serde_json::json!([
            {"severity": "P3", "title": "Migration drops the users table on rollback",
             "file": "db/0042.py", "start_line": 18, "end_line": null, "body": "", "action": ""},
            {"severity": "P1", "title": "SQL injection in the search endpoint", "file": null,
             "start_line": null, "end_line": null, "body": "", "action": ""}
        ]),
    );
    let (reviewer, asked) = ByPrompt::new(
        "reviewer",
        Family::openai(),
        &[(REVIEW, &[TWO_CONCERNS]), (REPAIR, &[dishonest])],
    );
    let quiet = leak(judged(&[], "D"));
    let (author, _) = ByPrompt::new("author", Family::anthropic(), &[(JUDGE, &[quiet])]);
    let o = review_by(author, reviewer, 1, Restater::Reviewer);
    let r = &o.rounds[0];
    assert_eq!(r.repairs.len(), 1, "{:?}", r.notes);
    let repair = &r.repairs[0];
    assert!(repair.by_reviewer && repair.outcome == "used", "{repair:?}");
    assert_eq!(repair.restated, 2);
    assert_eq!(repair.invented.len(), 1, "{repair:?}");
    assert!(repair.invented[0].contains("SQL injection"), "{repair:?}");
    assert_eq!(repair.uncovered, 1, "{repair:?}");
    let titles: Vec<(&str, Severity)> = r
        .findings
        .iter()
        .map(|j| (j.finding.title.as_str(), j.finding.severity))
        .collect();
    assert_eq!(titles.len(), 2, "{titles:?}");
    assert!(titles[0].0.starts_with("Migration drops"), "{titles:?}");
    // The retry loop the restatement dropped stays, of unknown severity: it trips every gate.
    assert!(
        r.findings[1].finding.body.contains("retry loop"),
        "{titles:?}"
    );
    assert_eq!(r.findings[1].finding.severity, Severity::Unclassified);
    let note = r.notes.iter().find(|n| n.contains("sent back")).unwrap();
    assert!(
        note.contains("1 not in the answer and dropped") && note.contains("1 part(s)"),
        "{note}"
    );
    // The reviewer was asked, with its own answer and no diff.
    let prompts = asked.lock().unwrap();
    assert!(prompts[1].starts_with(REPAIR) && prompts[1].contains("users table"));
    assert!(!prompts[1].contains("fn f()"), "{}", prompts[1]);
    assert!(r.calls.iter().any(|c| c.purpose == "repair"));
}

#[test]
fn an_honest_repair_classifies_every_finding() {
    let honest = restatement(
        "reject",
        serde_json::json!([
            {"severity": "P0", "title": "Migration drops the users table on rollback",
             "file": "db/0042.py", "start_line": 18, "end_line": null,
             "body": "a rollback loses every account", "action": "keep the table"},
            {"severity": "P2", "title": "Retry loop never gives up", "file": "worker.py",
             "start_line": null, "end_line": null, "body": "the queue keeps failing",
             "action": "cap the retries"}
        ]),
    );
    let (reviewer, _) = ByPrompt::new(
        "reviewer",
        Family::openai(),
        &[(REVIEW, &[TWO_CONCERNS]), (REPAIR, &[honest])],
    );
    let quiet = leak(judged(&[], "D"));
    let (author, _) = ByPrompt::new("author", Family::anthropic(), &[(JUDGE, &[quiet])]);
    let o = review_by(author, reviewer, 1, Restater::Reviewer);
    let r = &o.rounds[0];
    let repair = &r.repairs[0];
    assert_eq!(
        (repair.invented.len(), repair.uncovered),
        (0, 0),
        "{repair:?}"
    );
    let levels: Vec<Severity> = r.findings.iter().map(|j| j.finding.severity).collect();
    assert_eq!(levels, [Severity::P0, Severity::P2]);
    assert!(r
        .findings
        .iter()
        .all(|j| j.finding.source == crate::findings::Source::Repair));
}

#[test]
fn a_restatement_as_approval_of_a_blocker_is_refused() {
    let blocker: &str = "Applying this migration will wipe the users table in production. This \
is a blocker.";
    let approve = restatement("approve", serde_json::json!([]));
    for normalizer in ["reviewer", "author"] {
        let (reviewer, _) = ByPrompt::new(
            "reviewer",
            Family::openai(),
            &[(REVIEW, &[blocker]), (REPAIR, &[approve])],
        );
        let quiet = leak(judged(&[], "A"));
        let (author, _) = ByPrompt::new(
            "author",
            Family::anthropic(),
            &[(JUDGE, &[quiet]), (NORMALIZE, &[approve])],
        );
        let restater = match normalizer {
            "author" => Restater::Author,
            _ => Restater::Reviewer,
        };
        let o = review_by(author, reviewer, 1, restater);
        let r = &o.rounds[0];
        assert!(!r.agreement, "{normalizer}: {:?}", r.notes);
        assert_eq!(r.findings.len(), 1, "{normalizer}: {:?}", r.findings);
        assert!(r.findings[0].finding.body.contains("wipe the users table"));
        assert_eq!(
            r.findings[0].counted(false).map(Severity::rank),
            Some(1),
            "{normalizer}"
        );
        assert_eq!(r.repairs[0].uncovered, 1, "{normalizer}");
        assert_eq!(r.repairs[0].by_reviewer, normalizer == "reviewer");
    }
}

const TWO_BLOCKERS: &[(&str, &str, &str)] = &[
    (
        "P1",
        "Shell command built from user input",
        "run() passes the query to sh -c",
    ),
    ("P1", "Crash on empty input", "f() indexes the first byte"),
];

#[test]
fn ruling_every_blocker_invalid_in_round_one_does_not_end_the_review() {
    let round1 = leak(schema_answer("reject", TWO_BLOCKERS));
    let round2 = leak(format!(
        "No new problems in this version.\n\n{}\n\n## Disputed findings\n- F1: hold — run() \
         still hands the query to `sh -c`; the ruling misread the call\n- F2: withdraw — the \
         author is right, the input is never empty\n",
        schema_answer("revise", &[])
    ));
    let (reviewer, asked) =
        ByPrompt::new("reviewer", Family::openai(), &[(REVIEW, &[round1, round2])]);
    let j1 = leak(judged(
        &[
            ("F1", "invalid", "the query is a constant"),
            ("F2", "invalid", "the input is never empty"),
        ],
        "A",
    ));
    let j2 = leak(judged(&[("F1", "invalid", "still a constant")], "A"));
    let (author, _) = ByPrompt::new(
        "author",
        Family::anthropic(),
        &[
            (JUDGE, &[j1, j2]),
            (REBUTTAL, &["The query is a constant."]),
        ],
    );
    let o = review_by(author, reviewer, 3, Restater::Reviewer);
    assert!(o.rounds.len() >= 2, "{}", o.stop_reason);
    let r1 = &o.rounds[0];
    assert_eq!((r1.rubric, r1.judge_choice), ('A', Some('A')));
    assert_eq!((r1.choice, r1.choice_from.as_str()), ('D', "disputes"));
    // The reviewer heard of the dispute, with the judge's reason.
    let prompts = asked.lock().unwrap();
    assert!(
        prompts[1].contains("DISPUTED FINDINGS") && prompts[1].contains("the query is a constant"),
        "{}",
        prompts[1]
    );
    let r2 = &o.rounds[1];
    assert_eq!(r2.withdrawn.len(), 1);
    assert_eq!(r2.withdrawn[0].id, "F2");
    let f1 = r2.findings.iter().find(|j| j.finding.id == "F1").unwrap();
    assert_eq!(
        f1.rejoinder.as_ref().map(|r| r.reply),
        Some(crate::answer::judge::Rejoined::Held)
    );
    // The reviewer's word counts for the gate; a trusted judge's would not.
    let last = o.rounds.last().unwrap();
    let held = last.findings.iter().find(|j| j.finding.id == "F1").unwrap();
    assert_eq!(held.counted(false), Some(Severity::P1));
    assert_eq!(held.counted(true), None);
    assert!(!last.findings.iter().any(|j| j.finding.id == "F2"));
    assert!(!o.converged, "{}", o.stop_reason);
}

#[test]
fn one_round_keeps_a_disputed_blocker_standing() {
    let answer = leak(schema_answer("reject", TWO_BLOCKERS));
    let (reviewer, _) = ByPrompt::new("reviewer", Family::openai(), &[(REVIEW, &[answer])]);
    let j = leak(judged(
        &[
            ("F1", "missing-context", "depends on the caller"),
            ("F2", "missing-context", "depends on the caller"),
        ],
        "A",
    ));
    let (author, _) = ByPrompt::new("author", Family::anthropic(), &[(JUDGE, &[j])]);
    let o = review_by(author, reviewer, 1, Restater::Reviewer);
    assert_eq!(o.rounds.len(), 1);
    let r = &o.rounds[0];
    assert!(r.findings.iter().all(|j| j.disputed()));
    assert!(r
        .findings
        .iter()
        .all(|j| j.counted(false) == Some(Severity::P1) && j.rejoinder.is_none()));
}

#[test]
fn a_judges_e_stops_without_a_compromise() {
    let answer = leak(schema_answer(
        "revise",
        &[("P2", "Rename f", "the name says nothing")],
    ));
    let (reviewer, _) = ByPrompt::new("reviewer", Family::openai(), &[(REVIEW, &[answer])]);
    let j = leak(judged(&[("F1", "valid", "true but churn")], "E"));
    let (author, told) = ByPrompt::new(
        "author",
        Family::anthropic(),
        &[(JUDGE, &[j]), (COMPROMISE, &["v2"])],
    );
    let o = review_by(author, reviewer, 3, Restater::Reviewer);
    assert_eq!(o.rounds.len(), 1, "{}", o.stop_reason);
    let r = &o.rounds[0];
    assert_eq!(
        (r.rubric, r.choice, r.choice_from.as_str()),
        ('C', 'E', "judge")
    );
    assert_eq!(o.final_decision, "Stopped");
    assert!(told.lock().unwrap().iter().all(|p| !p.contains(COMPROMISE)));
}

#[test]
fn a_judges_c_is_not_turned_into_b() {
    let answer = leak(schema_answer(
        "revise",
        &[("P1", "Crash on empty input", "f() indexes the first byte")],
    ));
    let (reviewer, _) = ByPrompt::new("reviewer", Family::openai(), &[(REVIEW, &[answer])]);
    let j = leak(judged(&[("F1", "valid", "true")], "C"));
    let (author, told) = ByPrompt::new(
        "author",
        Family::anthropic(),
        &[
            (JUDGE, &[j]),
            (COMPROMISE, &["fn f() { if x.is_empty() {} }"]),
        ],
    );
    let o = review_by(author, reviewer, 1, Restater::Reviewer);
    let r = &o.rounds[0];
    assert_eq!(
        (r.rubric, r.choice, r.choice_from.as_str()),
        ('B', 'C', "judge")
    );
    let told = told.lock().unwrap();
    assert!(told.iter().any(|p| p.contains(COMPROMISE)));
    assert!(told.iter().all(|p| !p.contains(MATERIALIZE)));
}

#[test]
fn judge_findings_get_ids_and_rulings_on_unknown_ids_are_noted() {
    let answer = leak(schema_answer(
        "revise",
        &[("P2", "Rename f", "the name says nothing")],
    ));
    let (reviewer, _) = ByPrompt::new("reviewer", Family::openai(), &[(REVIEW, &[answer])]);
    let j = leak(format!(
        "```json\n{}\n```",
        serde_json::json!({"classifications": [
            {"id": "F1", "verdict": "valid", "severity": null, "reason": "true"},
            {"id": "F9", "verdict": "invalid", "severity": null, "reason": "no such"}],
          "added": [{"severity": "P3", "title": "Missing doc comment", "file": null,
            "start_line": null, "end_line": null, "body": "", "action": "document f"}],
          "recommendation": "C", "reason": "r"})
    ));
    let (author, _) = ByPrompt::new(
        "author",
        Family::anthropic(),
        &[(JUDGE, &[j]), (COMPROMISE, &["v2"])],
    );
    let o = review_by(author, reviewer, 1, Restater::Reviewer);
    let r = &o.rounds[0];
    assert_eq!(r.unknown_rulings, ["F9"]);
    assert!(r
        .notes
        .iter()
        .any(|n| n.contains("F9 is not a finding of this round")));
    let added = r.findings.iter().find(|j| j.from_judge).unwrap();
    assert_eq!(added.finding.id, "F2");
}
