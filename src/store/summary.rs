//! What a session ended with (`summary.json`): a review's report — the same value `--format json`
//! prints and every other format is rendered from — or a duel's or a panel's result.
//!
//! [`crate::report`] builds a review's [`Report`] from the round records and renders it;
//! [`crate::debate`] makes the debates'. Read back, a review's summary gives a stored report its
//! totals and an incremental review the findings the earlier one left open.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::change::budget::Note;
use crate::choices::{Consensus, FailOn};
use crate::findings::{Finding, Judged, Location, Severity, Source, Vote};
use crate::store::call::BackendUsage;
pub use crate::store::call::Fallback;
use crate::store::debate::{Debater, Entry, Exchange, Seat, Verdict};
use crate::store::incremental::Incremental;
use crate::store::metadata::Kind;
use crate::store::round::ChunkRecord;

/// The summary's file in a session folder.
pub const FILE: &str = "summary.json";

/// The version of a review report's JSON (`schema`); fields are only ever added.
pub const SCHEMA: u32 = 1;

/// The JSON Schema of a review's [`Report`] (`git debate schema report`), pretty-printed.
pub fn report_schema() -> String {
    let mut schema = schemars::schema_for!(Report);
    schema.insert(
        "title".into(),
        format!("git-debate review report, schema {SCHEMA}").into(),
    );
    serde_json::to_string_pretty(&schema).unwrap_or_default()
}

/// One finding as reported: its latest state.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Item {
    pub id: String,
    /// `P0`..`P3`, or `unclassified`.
    pub severity: Severity,
    pub title: String,
    /// The reviewer's evidence text, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// Where it points, and whether that was found in the reviewed change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Which reading stage produced it: schema, reader, normaliser, raw or judge.
    pub source: Source,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub body: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment: Option<String>,
    /// valid, invalid, missing-context, not ruled, or carried-open.
    pub judged: String,
    /// The judge disputed the reviewer's finding: both positions, and whose word the gate counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dispute: Option<Dispute>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// The round it was last raised in (0: carried from an earlier review).
    pub round: u32,
    pub from_judge: bool,
    /// In a review by several reviewers: each that raised it, at its own level.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raised_by: Vec<Vote>,
    /// In a review by several reviewers: how many raised it, of how many answered, and whether
    /// that meets the consensus rule (the gate counts it only then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub votes: Option<Votes>,
    /// The code around its location (a hash), for fingerprints that survive moved lines; not in
    /// the JSON, whose readers have the finding's location.
    #[serde(skip)]
    anchor: Option<String>,
    /// The waiver in `.gitdebate-waivers` that covers it: shown with its reason, not counted by
    /// the gate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waiver: Option<crate::waivers::Waiver>,
}

/// A finding's votes in a review by several reviewers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Votes {
    /// Reviewers that raised it.
    pub raised: usize,
    /// Reviewers that answered.
    pub of: usize,
    /// Who, for people: `codex + gemini`, `gemini only`.
    pub by: String,
    /// The consensus rule is met: the gate counts it.
    pub counted: bool,
}

impl Votes {
    /// `codex + gemini, 2 of 3`, and `; not counted by the consensus rule` when it is not met.
    pub fn text(&self) -> String {
        let mut s = format!("{}, {} of {}", self.by, self.raised, self.of);
        if !self.counted {
            s.push_str("; not counted by the consensus rule");
        }
        s
    }
}

/// Both positions on a finding the judge disputed.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Dispute {
    /// The reviewer's level.
    pub reviewer_severity: Severity,
    /// The judge's ruling: invalid, missing-context or valid (at a lower level).
    pub judge: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_severity: Option<Severity>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub judge_reason: String,
    /// What the reviewer answered to the judge's ruling of the round before: `held`, `did not
    /// answer` or `lowered`; `not asked` when no round was left for it to answer.
    pub reviewer: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reviewer_words: String,
    /// Whose word the gate counts: `reviewer`, or `judge` under `debate.gate.trustJudge`.
    pub counted: String,
}

impl Dispute {
    /// Both positions on `j`, a finding the judge disputed; `trust_judge`: whose word counts.
    pub fn of(j: &Judged, trust_judge: bool) -> Dispute {
        Dispute {
            reviewer_severity: j.reviewer_severity(),
            judge: j.verdict_label().to_string(),
            judge_severity: j
                .ruling
                .as_ref()
                .and_then(|r| r.severity)
                .filter(|s| *s != j.reviewer_severity()),
            judge_reason: j
                .ruling
                .as_ref()
                .map(|r| r.reason.clone())
                .unwrap_or_default(),
            reviewer: j
                .rejoinder
                .as_ref()
                .map_or("not asked", |r| r.reply.label())
                .to_string(),
            reviewer_words: j
                .rejoinder
                .as_ref()
                .map(|r| r.words.clone())
                .unwrap_or_default(),
            counted: if trust_judge { "judge" } else { "reviewer" }.to_string(),
        }
    }
}

/// A finding the reviewer withdrew after the judge disputed it, as reported.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct WithdrawnItem {
    pub id: String,
    pub severity: Severity,
    pub title: String,
    /// The round it was withdrawn in.
    pub round: u32,
    /// The judge's ruling it answered, and the reviewer's words.
    pub ruling: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub words: String,
}

impl Item {
    /// A judged finding of round `round`, at the level the gate counts it at (the reviewer's, or
    /// the judge's under `trust_judge`; see [`Judged::counted`]).
    pub fn of(j: &Judged, round: u32, trust_judge: bool) -> Item {
        let severity = j.counted(trust_judge).unwrap_or_else(|| {
            if j.from_judge {
                j.severity()
            } else {
                j.reviewer_severity()
            }
        });
        Item {
            id: j.finding.id.clone(),
            severity,
            title: j.finding.title.clone(),
            evidence: j.finding.evidence.clone(),
            location: j.finding.location.clone(),
            source: j.finding.source,
            body: j.finding.body.clone(),
            action: j.finding.action.clone(),
            segment: j.finding.segment.clone(),
            judged: j.verdict_label().to_string(),
            dispute: j.disputed().then(|| Dispute::of(j, trust_judge)),
            reason: j
                .ruling
                .as_ref()
                .map(|r| r.reason.clone())
                .unwrap_or_default(),
            round,
            from_judge: j.from_judge,
            raised_by: j.finding.raised_by.clone(),
            votes: None,
            anchor: j.finding.anchor.clone(),
            waiver: None,
        }
    }

    /// A finding of git-debate's own checks (a possible prompt injection): no model raised it and
    /// no judge ruled on it, so it stands.
    pub fn detected(f: &Finding) -> Item {
        let mut item = Item::carried(f, "");
        item.judged = "detected".into();
        item
    }

    /// A finding still open from the earlier review, and why.
    pub fn carried(f: &Finding, why: &str) -> Item {
        Item {
            id: f.id.clone(),
            severity: f.severity,
            title: f.title.clone(),
            evidence: f.evidence.clone(),
            location: f.location.clone(),
            source: f.source,
            body: f.body.clone(),
            action: f.action.clone(),
            segment: f.segment.clone(),
            judged: "carried-open".into(),
            dispute: None,
            reason: why.to_string(),
            round: 0,
            from_judge: false,
            raised_by: f.raised_by.clone(),
            votes: None,
            anchor: f.anchor.clone(),
            waiver: None,
        }
    }

    /// The finding it reports (as an earlier review's open finding is carried into the next).
    pub fn finding(&self) -> Finding {
        Finding {
            id: self.id.clone(),
            severity: self.severity,
            title: self.title.clone(),
            evidence: self.evidence.clone(),
            location: self.location.clone(),
            body: self.body.clone(),
            action: self.action.clone(),
            segment: self.segment.clone(),
            chunk: None,
            source: self.source,
            anchor: self.anchor.clone(),
            raised_by: self.raised_by.clone(),
        }
    }

    /// The level thresholds compare ([`Severity::rank`]).
    pub fn rank(&self) -> u8 {
        self.severity.rank()
    }

    /// It counts: valid, not ruled on, carried open, or disputed with the reviewer's word
    /// counted.
    pub fn stands(&self) -> bool {
        match &self.dispute {
            Some(d) => d.counted == "reviewer",
            None => !matches!(self.judged.as_str(), "invalid" | "missing-context"),
        }
    }

    /// The code around its location, when the finding was anchored.
    pub fn anchor(&self) -> Option<&str> {
        self.anchor.as_deref()
    }

    /// `P1`, or `severity unknown` for an unclassified finding.
    pub fn severity_text(&self) -> &'static str {
        self.severity.describe()
    }

    /// Where it points, for people: `path:line` (with the check when it failed), else the
    /// reviewer's own evidence text.
    pub fn where_(&self) -> Option<String> {
        crate::findings::where_of(self.location.as_ref(), self.evidence.as_deref())
    }
}

/// One round's decision, as the report lists them.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct JudgeLine {
    pub round: u32,
    pub choice: char,
    pub decided_by: String,
    pub rubric: char,
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<char>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub judge_reason: String,
    /// Whose letter the final one is in auto mode (`judge`, `rubric` or `disputes`), and why.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub from: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub why: String,
}

/// The gate: what fails the run (exit 1).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Gate {
    pub fail_on: FailOn,
    pub failed: bool,
    /// Unresolved findings at or above the threshold.
    pub blocking: Vec<String>,
    /// The judge's ruling decided whether a finding it disputed counts (`debate.gate.trustJudge`);
    /// otherwise the reviewer's word did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trust_judge: bool,
    /// With several reviewers: how many of them must raise a finding for it to count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consensus: Option<Consensus>,
    /// Unresolved findings a waiver covers, which it did not count.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub waived: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// What a chunked review covered.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Coverage {
    /// The first round's chunks (later rounds re-review parts of them; see each round record).
    pub chunks: Vec<ChunkRecord>,
    /// Files whose chunk's review failed in every round that sent them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_evaluated: Vec<String>,
    /// What fit in no chunk.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unfit: Vec<Note>,
}

/// The reviewers of a review by several, as reported.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Reviewers {
    /// Which findings the gate counts (`any`, `majority`, `all`).
    pub consensus: Consensus,
    /// Each reviewer in the last round, and whether it answered (why not, when it did not).
    pub seats: Vec<crate::store::round::Seat>,
}

impl Reviewers {
    /// How many answered.
    pub fn answered(&self) -> usize {
        self.seats.iter().filter(|s| s.answered).count()
    }
}

/// Everything a review's report says: `summary.json`, and the `--format json` report.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_patch: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_check: Option<String>,
    pub findings: Vec<Item>,
    pub judge_history: Vec<JudgeLine>,
    pub unresolved: Vec<Item>,
    /// Findings the reviewer withdrew when the judge disputed them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawn: Vec<WithdrawnItem>,
    /// Alternatives the reviewer said the artifact failed to consider (last round).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing_alternatives: Vec<String>,
    /// The reviewer's own recommended decision, when its protocol asks for one (last round).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer_recommendation: Option<String>,
    pub notes: Vec<String>,
    pub next_actions: Vec<String>,
    pub usage: BTreeMap<String, BackendUsage>,
    pub duration_ms: u64,
    pub gate: Gate,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What a chunked review covered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<Coverage>,
    /// The fallback reviewer reviewed (`reviewer` names it), because the first never answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Fallback>,
    /// A review by several reviewers: the consensus rule and who answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewers: Option<Reviewers>,
    /// An incremental review (`--since`): what it continued and how carried findings stand.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incremental: Option<Incremental>,
    /// Unresolved findings a waiver in `.gitdebate-waivers` covers: shown with the waiver,
    /// not in `unresolved`, not counted by the gate.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waived: Vec<Item>,
    /// What the report says about waivers: one that matched a finding but expired (the finding
    /// counts again), a change that adds waivers to its own review.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waiver_notes: Vec<String>,
    /// The one file reviewed, when the artifact is one file (SARIF attaches location-less
    /// findings to it); from `locations.json`, not this file.
    #[serde(skip)]
    pub single_file: Option<String>,
}

/// A duel's result (`summary.json`, and its `--format json` output).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DuelSummary {
    pub schema: u32,
    /// Always `topic`.
    pub kind: Kind,
    pub session: String,
    pub session_dir: PathBuf,
    pub topic: String,
    pub status: String,
    pub rounds_completed: u32,
    pub max_rounds: u32,
    pub proposer: Seat,
    pub challenger: Seat,
    pub judge: Seat,
    pub verdict: Option<Verdict>,
    pub notes: Vec<String>,
    pub exchanges: Vec<Exchange>,
    pub duration_ms: u64,
}

/// A panel's result (`summary.json`, and its `--format json` output).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PanelSummary {
    pub schema: u32,
    /// Always `panel`.
    pub kind: Kind,
    pub session: String,
    pub session_dir: PathBuf,
    pub topic: String,
    pub status: String,
    /// `<name>_wins`, `draw` or `void`.
    pub outcome: String,
    pub reason: String,
    pub rounds: u32,
    pub redactions: u32,
    pub debaters: Vec<Debater>,
    pub budget_spent: bool,
    pub notes: Vec<String>,
    pub entries: Vec<Entry>,
}

/// A debate's result, duel or panel.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum DebateSummary {
    Duel(Box<DuelSummary>),
    Panel(Box<PanelSummary>),
}

/// Any session's summary, as its kind writes it.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum OfKind {
    Review(Box<Report>),
    Debate(DebateSummary),
}
