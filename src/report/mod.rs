//! The final report of a review, as text (coloured on a terminal), markdown or JSON, and the gate
//! that turns it into an exit code.
//!
//! All three formats are rendered from one [`Report`] value built from the session record, so
//! they cannot disagree. The JSON has a `schema` version; fields are only ever added.

pub mod ci;
pub mod conclude;
pub mod coverage;
pub mod debate;
mod display;
pub mod dry_run;
pub mod emit;
mod human;
pub mod incremental;
pub mod output;
pub mod stored;
pub mod unchanged;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use crate::answer::judge::Judged;
use crate::choices::FailOn;
use crate::findings::{Location, Source};
use crate::review::record::{usage_by_backend, BackendUsage};
use crate::review::Outcome;

pub use human::{markdown, text, use_color};

pub const SCHEMA: u32 = 1;

/// One finding as reported: its latest state.
#[derive(Debug, Clone, Serialize)]
pub struct Item {
    pub id: String,
    pub severity: &'static str,
    pub title: String,
    /// The reviewer's evidence text, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// Where it points, and whether that was found in the reviewed change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Which reading stage produced it: schema, reader, normaliser, raw or judge.
    pub source: Source,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub body: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segment: Option<String>,
    /// valid, invalid, missing-context or not ruled.
    pub judged: &'static str,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// The round it was last raised in.
    pub round: u32,
    pub from_judge: bool,
    /// The code around its location (a hash), for fingerprints that survive moved lines.
    #[serde(skip)]
    anchor: Option<String>,
    #[serde(skip)]
    rank: u8,
    #[serde(skip)]
    stands: bool,
}

impl Item {
    fn of(j: &Judged, round: u32) -> Item {
        Item {
            id: j.finding.id.clone(),
            severity: j.severity().label(),
            title: j.finding.title.clone(),
            evidence: j.finding.evidence.clone(),
            location: j.finding.location.clone(),
            source: j.finding.source,
            body: j.finding.body.clone(),
            action: j.finding.action.clone(),
            segment: j.finding.segment.clone(),
            judged: j.verdict_label(),
            reason: j
                .ruling
                .as_ref()
                .map(|r| r.reason.clone())
                .unwrap_or_default(),
            round,
            from_judge: j.from_judge,
            anchor: j.finding.anchor.clone(),
            rank: j.severity().rank(),
            stands: j.stands(),
        }
    }

    /// `P1`, or `severity unknown` for an unclassified finding.
    pub fn severity_text(&self) -> &'static str {
        if self.severity == "unclassified" {
            "severity unknown"
        } else {
            self.severity
        }
    }

    /// Where it points, for people: `path:line` (with the check when it failed), else the
    /// reviewer's own evidence text.
    pub fn where_(&self) -> Option<String> {
        crate::findings::where_of(self.location.as_ref(), self.evidence.as_deref())
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct JudgeLine {
    pub round: u32,
    pub choice: char,
    pub decided_by: String,
    pub rubric: char,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judge: Option<char>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub judge_reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Gate {
    pub fail_on: FailOn,
    pub failed: bool,
    /// Unresolved findings at or above the threshold.
    pub blocking: Vec<String>,
}

/// Everything a report says.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub schema: u32,
    /// `false` when the reviewer never answered (exit 3): nothing was reviewed, nothing passed.
    pub evaluated: bool,
    pub session: String,
    pub session_dir: PathBuf,
    pub target: String,
    pub author: String,
    pub reviewer: String,
    pub status: String,
    pub rounds: usize,
    pub converged: bool,
    pub stop_reason: String,
    pub final_decision: String,
    pub final_artifact: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_patch: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_check: Option<String>,
    pub findings: Vec<Item>,
    pub judge_history: Vec<JudgeLine>,
    pub unresolved: Vec<Item>,
    /// Alternatives the reviewer said the artifact failed to consider (last round).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_alternatives: Vec<String>,
    /// The reviewer's own recommended decision, when its protocol asks for one (last round).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviewer_recommendation: Option<String>,
    pub notes: Vec<String>,
    pub next_actions: Vec<String>,
    pub usage: BTreeMap<String, BackendUsage>,
    pub duration_ms: u64,
    pub gate: Gate,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What a chunked review covered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<coverage::Coverage>,
    /// The fallback reviewer reviewed (`reviewer` names it), because the first never answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<crate::review::Fallback>,
    /// An incremental review (`--since`): what it continued and how carried findings stand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub incremental: Option<crate::review::incremental::Incremental>,
    #[serde(skip)]
    pub single_file: Option<String>,
}

/// Inputs a report needs besides the outcome.
pub struct Context<'a> {
    pub session: &'a str,
    pub session_dir: PathBuf,
    pub target: String,
    pub author: String,
    pub reviewer: String,
    pub fail_on: FailOn,
    pub code: bool,
    /// The one file reviewed, when the artifact is one file (SARIF attaches location-less
    /// findings to it).
    pub single_file: Option<String>,
}

pub fn build(o: &Outcome, cx: &Context) -> Report {
    // Every finding's latest state, in order of first appearance.
    let mut findings: Vec<Item> = Vec::new();
    for r in &o.rounds {
        for j in &r.findings {
            let item = Item::of(j, r.round);
            match findings
                .iter_mut()
                .find(|i| i.id == item.id && !item.id.is_empty())
            {
                Some(old) => *old = item,
                None => findings.push(item),
            }
        }
    }
    // The reviewer's latest view: what stands in the last completed round.
    let unresolved: Vec<Item> = o
        .rounds
        .last()
        .map(|r| {
            r.findings
                .iter()
                .filter(|j| j.stands())
                .map(|j| Item::of(j, r.round))
                .collect()
        })
        .unwrap_or_default();
    let judge_history = o
        .rounds
        .iter()
        .map(|r| JudgeLine {
            round: r.round,
            choice: r.choice,
            decided_by: r.decided_by.clone(),
            rubric: r.rubric,
            reason: r.rubric_reason.clone(),
            judge: r.judge_choice,
            judge_reason: r.judge_reason.clone(),
        })
        .collect();
    let notes = o
        .rounds
        .iter()
        .flat_map(|r| {
            r.notes
                .iter()
                .map(move |n| format!("round {}: {n}", r.round))
        })
        .collect();
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
        missing_alternatives: o
            .rounds
            .last()
            .map(|r| r.missing_alternatives.clone())
            .unwrap_or_default(),
        reviewer_recommendation: o
            .rounds
            .iter()
            .rev()
            .find_map(|r| r.reviewer_recommendation.clone()),
        notes,
        next_actions: Vec::new(),
        usage: usage_by_backend(&o.rounds, &o.extra_calls),
        duration_ms: o.duration_ms,
        gate: gate(&unresolved, cx.fail_on),
        error: o.error.as_ref().map(|e| e.to_string()),
        coverage: coverage::Coverage::of(o),
        fallback: o.fallback.clone(),
        single_file: cx.single_file.clone(),
        incremental: None,
    };
    report.unresolved = unresolved;
    report.next_actions = next_actions(&report, cx.code);
    report
}

/// The gate: unresolved findings at or above `fail_on`.
pub(crate) fn gate(unresolved: &[Item], fail_on: FailOn) -> Gate {
    let threshold = fail_on.rank();
    let blocking: Vec<String> = threshold
        .map(|t| {
            unresolved
                .iter()
                .filter(|i| i.rank <= t)
                .map(|i| i.id.clone())
                .collect()
        })
        .unwrap_or_default();
    Gate {
        fail_on,
        failed: !blocking.is_empty(),
        blocking,
    }
}

pub(crate) fn next_actions(r: &Report, code: bool) -> Vec<String> {
    let mut out = Vec::new();
    if r.status == "unavailable" {
        out.push(format!(
            "Fix the reviewer ({}) and run again: {}",
            r.reviewer,
            r.error.as_deref().unwrap_or("it did not answer")
        ));
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
            "Review the accepted changes in {} ({}), then `git apply` it",
            p.display(),
            r.patch_check.as_deref().unwrap_or("not checked")
        ));
    }
    if r.final_decision.starts_with("Compromise")
        || (r.final_decision.starts_with("Accept") && r.final_patch.is_none())
    {
        out.push(format!(
            "Compare the final version with the original: {}",
            r.final_artifact.display()
        ));
    }
    for i in r.unresolved.iter().filter(|i| i.rank <= 2) {
        let at = i.where_().map(|e| format!(" ({e})")).unwrap_or_default();
        out.push(format!(
            "Address [{}] {} {}{at}",
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
