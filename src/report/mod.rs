//! The final report of a review, as text (coloured on a terminal), markdown or JSON, and the gate
//! that turns it into an exit code.
//!
//! All three formats are rendered from one [`Report`] value built from the session record, so
//! they cannot disagree. The JSON has a `schema` version; fields are only ever added.

pub mod ci;
pub mod codequality;
pub mod conclude;
pub mod coverage;
pub mod debate;
mod display;
pub mod dry_run;
pub mod emit;
pub mod github_api;
mod human;
pub mod incremental;
mod inert;
pub mod output;
pub mod post;
pub mod session_view;
pub mod stored;
pub mod suggestion;
pub mod unchanged;
pub mod votes;
pub mod waive;
pub mod waived;

use std::path::PathBuf;

use crate::choices::FailOn;
use crate::findings::Severity;
use crate::review::record::usage_by_backend;
use crate::review::ReviewOutcome;
pub use crate::store::summary::{Dispute, Gate, Item, JudgeLine, Report, WithdrawnItem};

pub use human::{markdown, text, use_color};

pub const SCHEMA: u32 = crate::store::summary::SCHEMA;

/// Inputs a report needs besides the outcome.
pub struct Context<'a> {
    pub session: &'a str,
    pub session_dir: PathBuf,
    pub target: String,
    pub author: String,
    pub reviewer: String,
    pub fail_on: FailOn,
    /// `debate.gate.trustJudge`: the judge's ruling decides whether a disputed finding counts.
    pub trust_judge: bool,
    /// With several reviewers: which findings count for the gate.
    pub consensus: crate::choices::Consensus,
    pub code: bool,
    /// The one file reviewed, when the artifact is one file (SARIF attaches location-less
    /// findings to it).
    pub single_file: Option<String>,
    /// Lines of the material that read as instructions to the reviewer: findings of their own.
    pub injections: &'a [crate::injection::Found],
}

/// Every finding's latest state (most severe first), and what stands unresolved in the last
/// completed round; the planted instructions the detector found are in both.
fn latest_findings(o: &ReviewOutcome, cx: &Context) -> (Vec<Item>, Vec<Item>) {
    let trust = cx.trust_judge;
    let mut findings: Vec<Item> = Vec::new();
    for r in &o.rounds {
        for j in &r.findings {
            let item = Item::of(j, r.round, trust);
            match findings
                .iter_mut()
                .find(|i| i.id == item.id && !item.id.is_empty())
            {
                Some(old) => *old = item,
                None => findings.push(item),
            }
        }
    }
    // The reviewer's latest view: what stands in the last completed round. A finding the judge
    // disputed stands there until the reviewer withdraws it (unless the judge is trusted).
    let mut unresolved: Vec<Item> = o
        .rounds
        .last()
        .map(|r| {
            r.findings
                .iter()
                .filter(|j| j.counted(trust).is_some())
                .map(|j| Item::of(j, r.round, trust))
                .collect()
        })
        .unwrap_or_default();
    // A planted instruction is reported whatever the models made of it (they may have obeyed).
    let detected: Vec<Item> = cx
        .injections
        .iter()
        .enumerate()
        .map(|(n, f)| Item::detected(&crate::findings::Finding::injection(n, f)))
        .collect();
    findings.extend(detected.iter().cloned());
    findings.sort_by_key(|i| most_severe_first(i.severity));
    unresolved.extend(detected);
    unresolved.sort_by_key(|i| most_severe_first(i.severity));
    (findings, unresolved)
}

/// Each round's letters: the rubric's, the judge's, and the one chosen.
/// Every alternative the reviewer said was missing, in any round, each once: a later round that
/// approves does not unsay what an earlier one raised.
fn every_alternative(rounds: &[crate::store::round::Round]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for a in rounds.iter().flat_map(|r| &r.missing_alternatives) {
        let key = crate::answer::vocab::normalise(a);
        if !out
            .iter()
            .any(|o| crate::answer::vocab::normalise(o) == key)
        {
            out.push(a.clone());
        }
    }
    out
}

fn judge_history(o: &ReviewOutcome) -> Vec<JudgeLine> {
    o.rounds
        .iter()
        .map(|r| JudgeLine {
            round: r.round,
            choice: r.choice,
            decided_by: r.decided_by.clone(),
            rubric: r.rubric,
            reason: r.rubric_reason.clone(),
            judge: r.judge_choice,
            judge_reason: r.judge_reason.clone(),
            from: r.choice_from.clone(),
            why: r.choice_reason.clone(),
        })
        .collect()
}

pub fn build(o: &ReviewOutcome, cx: &Context) -> Report {
    let trust = cx.trust_judge;
    let (mut findings, mut unresolved) = latest_findings(o, cx);
    let reviewers = votes::reviewers(o, cx.consensus);
    if let Some(r) = &reviewers {
        votes::annotate(&mut findings, r, cx.fail_on.rank());
        votes::annotate(&mut unresolved, r, cx.fail_on.rank());
    }
    let withdrawn = o
        .rounds
        .iter()
        .flat_map(|r| {
            r.withdrawn.iter().map(move |w| WithdrawnItem {
                id: w.id.clone(),
                severity: w.severity,
                title: w.title.clone(),
                round: r.round,
                ruling: w.ruling.clone(),
                words: w.words.clone(),
            })
        })
        .collect();
    let judge_history = judge_history(o);
    let mut notes: Vec<String> = o
        .rounds
        .iter()
        .flat_map(|r| {
            r.notes
                .iter()
                .map(move |n| format!("round {}: {n}", r.round))
        })
        .collect();
    notes.extend(trusted_notes(o, trust));
    let mut report = Report {
        schema: SCHEMA,
        evaluated: o.status != "unavailable",
        session: cx.session.to_string(),
        session_dir: cx.session_dir.clone(),
        target: cx.target.clone(),
        author: cx.author.clone(),
        reviewer: o
            .fallback
            .as_ref()
            .map_or_else(|| cx.reviewer.clone(), |f| f.reviewer.clone()),
        status: o.status.clone(),
        rounds: o.rounds.len(),
        converged: o.converged,
        stop_reason: o.stop_reason.clone(),
        final_decision: o.final_decision.clone(),
        final_artifact: o.final_artifact.clone(),
        final_patch: o.final_patch.clone(),
        patch_check: o.patch_check.clone(),
        findings,
        judge_history,
        unresolved: Vec::new(),
        withdrawn,
        missing_alternatives: every_alternative(&o.rounds),
        reviewer_recommendation: o
            .rounds
            .iter()
            .rev()
            .find_map(|r| r.reviewer_recommendation.clone()),
        notes,
        next_actions: Vec::new(),
        usage: usage_by_backend(&o.rounds, &o.extra_calls),
        duration_ms: o.duration_ms,
        gate: gate(
            &unresolved,
            cx.fail_on,
            trust,
            reviewers.as_ref().map(|r| r.consensus),
        ),
        reviewers,
        error: o.error.as_ref().map(|e| e.to_string()),
        coverage: coverage::Coverage::of(o),
        fallback: o.fallback.clone(),
        single_file: cx.single_file.clone(),
        incremental: None,
        waived: Vec::new(),
        waiver_notes: Vec::new(),
    };
    report.unresolved = unresolved;
    report.next_actions = next_actions(&report, cx.code);
    report
}

/// What the gate left out because the judge is trusted: each disputed finding of the last round
/// the reviewer's word would have counted.
fn trusted_notes(o: &ReviewOutcome, trust: bool) -> Vec<String> {
    let Some(last) = o.rounds.last().filter(|_| trust) else {
        return Vec::new();
    };
    last.findings
        .iter()
        .filter(|j| j.disputed() && j.counted(true).is_none())
        .map(|j| {
            format!(
                "{} ({}) is not counted by the gate: debate.gate.trustJudge lets the judge's ruling \
                 decide ({}), where the reviewer's word would count it",
                j.finding.id,
                j.reviewer_severity().describe(),
                j.verdict_label()
            )
        })
        .collect()
}

/// One line for people on a disputed finding: `disputed: the judge ruled invalid: …; the reviewer
/// held it: …; counted at the reviewer's P1`.
pub(crate) fn dispute_text(d: &Dispute, severity: &str) -> String {
    let mut s = format!("disputed: the judge ruled {}", d.judge);
    if let Some(l) = d.judge_severity {
        s.push_str(&format!(" at {}", l.describe()));
    }
    if !d.judge_reason.is_empty() {
        s.push_str(&format!(": {}", d.judge_reason));
    }
    s.push_str(&match d.reviewer.as_str() {
        "not asked" => "; no round was left for the reviewer to answer".to_string(),
        r => format!("; the reviewer {r} it"),
    });
    if !d.reviewer_words.is_empty() {
        s.push_str(&format!(": {}", d.reviewer_words));
    }
    s.push_str(&match d.counted.as_str() {
        "judge" => "; not counted: the judge's ruling decides (trustJudge)".to_string(),
        _ => format!("; counted at the reviewer's {severity}"),
    });
    s
}

/// A session file by its name: the session folder's path is said once, on its own line.
fn in_session(p: &std::path::Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Reports list findings most severe first (in the order they were raised within a level): a
/// finding of unknown severity may be a blocker, so it comes after P0 and P1, before P2.
fn most_severe_first(s: Severity) -> u8 {
    match s {
        Severity::P0 => 0,
        Severity::P1 => 1,
        Severity::Unclassified => 2,
        Severity::P2 => 3,
        Severity::P3 => 4,
    }
}

/// The gate: unresolved findings at or above `fail_on`; with several reviewers, only those the
/// consensus rule counts (their `votes` say).
pub(crate) fn gate(
    unresolved: &[Item],
    fail_on: FailOn,
    trust_judge: bool,
    consensus: Option<crate::choices::Consensus>,
) -> Gate {
    let threshold = fail_on.rank();
    let blocking: Vec<String> = threshold
        .map(|t| {
            unresolved
                .iter()
                .filter(|i| i.rank() <= t && i.votes.as_ref().is_none_or(|v| v.counted))
                .map(|i| i.id.clone())
                .collect()
        })
        .unwrap_or_default();
    Gate {
        fail_on,
        failed: !blocking.is_empty(),
        blocking,
        trust_judge,
        consensus,
        waived: 0,
    }
}

pub(crate) fn next_actions(r: &Report, code: bool) -> Vec<String> {
    let mut out = Vec::new();
    if r.status == "unavailable" {
        let failed: Vec<String> = r
            .reviewers
            .iter()
            .flat_map(|v| &v.seats)
            .filter(|s| !s.answered)
            .map(|s| s.reviewer.clone())
            .collect();
        out.push(match failed.as_slice() {
            [] => format!(
                "Fix the reviewer ({}) and run again: {}",
                r.reviewer,
                r.error.as_deref().unwrap_or("it did not answer")
            ),
            _ => format!(
                "Fix the reviewers that did not answer ({}) and run again, or ask for a looser \
                 --consensus: {}",
                failed.join(", "),
                r.stop_reason
            ),
        });
        return out;
    }
    if let Some(line) = r.coverage.as_ref().and_then(|c| c.not_evaluated_line()) {
        out.push(format!("Review again: {line}"));
    }
    if r.status == "failed" || r.status == "interrupted" {
        // Both stopped before the loop was done; the session keeps the last good version.
        out.push(format!(
            "Continue from the last good version: `git debate resume {}`",
            r.session
        ));
    }
    if let Some(p) = &r.final_patch {
        out.push(format!(
            "Review the accepted changes in {} in the session folder ({}), then apply them: `git \
             debate apply {}`",
            in_session(p),
            r.patch_check.as_deref().unwrap_or("not checked"),
            r.session
        ));
    }
    if r.final_decision.starts_with("Compromise")
        || (r.final_decision.starts_with("Accept") && r.final_patch.is_none())
    {
        out.push(format!(
            "Compare the final version ({} in the session folder) with the original",
            in_session(&r.final_artifact)
        ));
    }
    // After decision B the accepted version is the reviewer's fix: what it gave a fix for is
    // checked once applied, not fixed a second time by hand.
    let fixed_by_patch = r.final_decision.starts_with("Accept Opposite")
        && r.final_patch.is_some()
        && r.patch_check
            .as_deref()
            .is_some_and(|c| c.starts_with("applies"));
    for i in r.unresolved.iter().filter(|i| i.rank() <= 2) {
        let at = i.where_().map(|e| format!(" ({e})")).unwrap_or_default();
        let verb = if fixed_by_patch && i.action.is_some() {
            "Once applied, check that the accepted version fixes"
        } else {
            "Address"
        };
        out.push(format!(
            "{verb} [{}] {} {}{at}",
            i.id,
            i.severity_text(),
            i.title
        ));
    }
    if out.is_empty() && r.unresolved.is_empty() {
        out.push("Nothing to address from this review".into());
    }
    if code {
        out.push("Run the tests".into());
    }
    out
}

/// Reports made up for the formats' tests.
#[cfg(test)]
pub(crate) mod sample {
    use super::{Report, SCHEMA};

    /// A finished review's report with these unresolved findings (also its findings), for the
    /// formats' tests; `single_file` is the one file reviewed, if any.
    pub(crate) fn report(unresolved: serde_json::Value, single_file: Option<&str>) -> Report {
        let items: Vec<serde_json::Value> = unresolved
            .as_array()
            .expect("an array of findings")
            .iter()
            .enumerate()
            .map(|(k, f)| {
                let mut f = f.clone();
                let o = f.as_object_mut().expect("a finding object");
                o.entry("id").or_insert(format!("F{}", k + 1).into());
                o.entry("source").or_insert("reader".into());
                o.entry("judged").or_insert("valid".into());
                o.entry("round").or_insert(1.into());
                o.entry("from_judge").or_insert(false.into());
                f
            })
            .collect();
        let mut r: Report = serde_json::from_value(serde_json::json!({
            "schema": SCHEMA, "evaluated": true, "session": "s1", "session_dir": "/tmp/s1",
            "target": "base:main", "author": "claude", "reviewer": "codex", "status": "completed",
            "rounds": 1, "converged": false, "stop_reason": "max rounds",
            "final_decision": "Revise", "final_artifact": "/tmp/s1/artifact.md",
            "findings": items, "judge_history": [], "unresolved": items, "notes": [],
            "next_actions": [], "usage": {}, "duration_ms": 1,
            "gate": {"fail_on": "p1", "failed": false, "blocking": []},
        }))
        .expect("a report");
        r.single_file = single_file.map(str::to_string);
        r
    }
}
