//! An incremental review as a session records it: the plan it starts from (`incremental.json`:
//! which review it continues, what changed since, the findings carried and where their code is
//! now) and how it ends (the report's `incremental` part). [`crate::review::incremental`] makes
//! both.

use serde::{Deserialize, Serialize};

use crate::findings::{Finding, Location};

/// The plan's file in a session folder.
pub const FILE: &str = "incremental.json";

/// Which review an incremental one continues and what it sent: decided before the review (the
/// plan in `incremental.json`) and repeated in its report.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Basis {
    /// `delta` (only what changed was reviewed) or `full` (an incremental review was asked for
    /// and could not be done; `reason` says why).
    pub mode: String,
    /// As given: `last`, a session id, a revision, or `auto` (`debate.incremental`).
    pub since: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old_head: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_head: Option<String>,
    /// Why a full review instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The old head is not an ancestor of the new one, and the trees were compared.
    #[serde(default)]
    pub rebased: bool,
    /// The change's files that changed since the old head: what was sent.
    #[serde(default)]
    pub files: Vec<String>,
    /// Files that changed between the two heads outside the change (brought in by a rebase or
    /// a merge of the base): not reviewed.
    #[serde(default)]
    pub left_out: Vec<String>,
}

/// What an incremental review does, stored as `incremental.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    #[serde(flatten)]
    pub basis: Basis,
    #[serde(default)]
    pub carried: Vec<Carry>,
    /// The highest finding number the earlier review gave: new findings are numbered after it,
    /// so an id never names two findings of one branch.
    #[serde(default)]
    pub last_id: usize,
}

/// Where a carried finding's code is at the new head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Anchoring {
    /// The same code at the same line.
    Same { line: usize },
    /// The same code, at another line.
    Moved { from: usize, to: usize },
    /// Neither the code around it nor the cited line is in the file any more.
    Gone { why: String },
    /// It points at no line (or at one the old head does not have): nothing to follow.
    Unplaced,
}

/// One finding carried from the earlier review, re-anchored on the new head.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Carry {
    /// The finding, its location moved to the new head where the code moved.
    pub finding: Finding,
    /// Where it pointed at the old head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<Location>,
    pub anchoring: Anchoring,
}

/// How an incremental review ends: what it continued and sent, and how every carried finding
/// stands (the counts are the report's to fill in, from its unresolved findings).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Incremental {
    #[serde(flatten)]
    pub basis: Basis,
    #[serde(default)]
    pub counts: Counts,
    #[serde(default)]
    pub carried: Vec<CarriedItem>,
}

/// How many findings end the review each way: new and carried-open ones count for the gate,
/// fixed and outdated ones are only listed.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Counts {
    pub new: usize,
    pub carried_open: usize,
    pub fixed: usize,
    pub outdated: usize,
}

/// A finding carried from the earlier review, as it ends this one.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct CarriedItem {
    pub id: String,
    pub severity: String,
    pub title: String,
    /// `carried-open`, `fixed` or `outdated`.
    pub status: String,
    pub why: String,
    /// Where it points at the new head.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Where it pointed when it was raised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_location: Option<Location>,
    /// The finding itself, for the next review to carry again.
    #[serde(skip)]
    pub finding: Option<Finding>,
}
