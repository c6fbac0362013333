//! A round as a session records it (`round-<n>.json`): the findings with their ids and rulings,
//! the rubric's choice and the judge's, and every model call the round made. The review loop
//! ([`crate::review`]) builds these; `resume`, `show` and the stored report read them back.

use serde::{Deserialize, Serialize};

use crate::findings::{Judged, Severity};
use crate::store::call::Call;

/// One round.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Round {
    pub round: u32,
    /// The artifact version reviewed (1 = the original).
    pub version: u32,
    pub findings: Vec<Judged>,
    /// Ids first raised in this round.
    pub new_ids: Vec<String>,
    pub missing_alternatives: Vec<String>,
    /// The reviewer's own recommended decision (peer-review asks for one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reviewer_recommendation: Option<String>,
    pub agreement: bool,
    /// The rubric's choice and why; the judge's own letter when it gave one.
    pub rubric: char,
    pub rubric_reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge_choice: Option<char>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub judge_reason: String,
    /// The choice taken and by whom: `auto`, `user`, or `guard` (agreement ended the round).
    pub choice: char,
    pub decided_by: String,
    /// Whose letter the choice is in auto mode: `judge` (its letter was honoured), `rubric` (the
    /// rubric raised the stakes, or the judge gave none) or `disputes` (a disputed P0/P1 went back
    /// to the reviewer instead of keeping the original); and why.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub choice_from: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub choice_reason: String,
    /// Findings the reviewer withdrew this round, answering the judge's dispute of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub withdrawn: Vec<Withdrawn>,
    /// Ids the judge ruled on that are not findings of this round (its rulings on them were not
    /// used).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unknown_rulings: Vec<String>,
    /// Answers restated in the schema this round (the reviewer's repair turn, or a normaliser).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repairs: Vec<Repair>,
    /// What went wrong but did not stop the round (judge failed, one mixed side failed, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    pub calls: Vec<Call>,
    /// A chunked review's chunks: which files each held and whether it was reviewed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chunks: Vec<ChunkRecord>,
    /// What a chunked review could not fit in its chunks this round.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unfit: Vec<crate::change::budget::Note>,
    /// Files the author's revision of this round replaced or added (the next round re-reviews
    /// them, also after a resume).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub revised: Vec<String>,
    /// In a review by several reviewers: each of them this round, and whether it answered.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reviewers: Vec<Seat>,
    pub duration_ms: u64,
}

/// One reviewer of a review by several, in one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Seat {
    pub reviewer: String,
    pub family: String,
    /// At least one of its calls answered.
    pub answered: bool,
    /// Why it did not answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The reviewers that held this seat before it and never answered (the failover chain).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instead_of: Vec<crate::store::call::PassedOver>,
}

/// A finding the reviewer withdrew after the judge disputed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Withdrawn {
    pub id: String,
    /// The level it was raised at.
    pub severity: Severity,
    pub title: String,
    /// The judge's ruling it answered.
    pub ruling: String,
    /// The reviewer's words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub words: String,
}

/// One answer restated in the protocol's schema, and what the two-way check made of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Repair {
    /// `code`/`proposal` for a mixed review, `chunk 2/5` for a chunked one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment: Option<String>,
    /// Who restated it: the reviewer itself (the default) or a normaliser.
    pub by: String,
    pub by_reviewer: bool,
    /// Why the answer was sent back: no verdict, findings of unknown severity, no shape.
    pub because: Vec<String>,
    /// `used`, `refused` (no review in the restatement) or `failed` (the call failed).
    pub outcome: String,
    /// Findings in the restatement.
    pub restated: usize,
    /// Restated findings not grounded in the answer: dropped, each with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invented: Vec<String>,
    /// Units of the answer that look like findings and no restated finding covers: kept as read.
    pub uncovered: usize,
    /// Findings whose level the reviewer stated only in its restatement.
    #[serde(default)]
    pub levelled: usize,
}

/// One chunk of a round.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, schemars::JsonSchema)]
pub struct ChunkRecord {
    /// From 1.
    pub chunk: u32,
    pub files: Vec<String>,
    pub reviewed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Round {
    /// P0/P1/P2 findings that stand (valid or not ruled on) and are new this round.
    pub fn new_serious(&self) -> usize {
        self.findings
            .iter()
            .filter(|j| {
                j.stands() && j.severity().rank() <= 2 && self.new_ids.contains(&j.finding.id)
            })
            .count()
    }
}
