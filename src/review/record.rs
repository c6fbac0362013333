//! What a review leaves behind: one record per model call and per round, and the final summary.
//!
//! These are the machine-readable files of a session (`round-<n>.json`, `summary.json`) and the
//! input of every report format, so the report can never say more than the record holds.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::agents::{Answer, BackendError, OutputMode, Usage};
use crate::answer::judge::Judged;

/// The estimate used where a CLI reports no token counts.
const CHARS_PER_TOKEN: usize = 4;

/// One model call.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Call {
    /// `review`, `judge`, `materialize`, `compromise`, `rebuttal` or `summarize`.
    pub purpose: String,
    pub backend: String,
    /// `code`/`proposal` for a mixed review, `chunk 2/5` for a chunked one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment: Option<String>,
    /// The prompt's size: what this call cost us to send, whatever the CLI reports.
    #[serde(default)]
    pub prompt_bytes: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cli_version: Option<String>,
    pub duration_ms: u64,
    pub usage: Usage,
    /// Token counts were estimated (4 characters per token): the CLI reported none.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tokens_estimated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<BackendError>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tree_changes: Vec<String>,
    /// How the answer's format was obtained: the backend's schema or the prompt's request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<OutputMode>,
    /// How a review answer was read: `schema`, `json`, `markdown`, `normaliser` or `raw`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read: Option<String>,
    /// The transport's notes: permissions refused to an ACP agent, a model it did not confirm.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// How the backend was spoken to (`cli`, `acp`, `http`), when it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<String>,
}

impl Call {
    pub fn of(
        purpose: &'static str,
        backend: &str,
        segment: Option<&str>,
        prompt: &str,
        result: &Result<Answer, BackendError>,
        elapsed_ms: u64,
    ) -> Call {
        let prompt_chars = prompt.chars().count();
        match result {
            Ok(a) => {
                let mut usage = a.usage.clone();
                let estimated = usage.input_tokens.is_none() || usage.output_tokens.is_none();
                usage
                    .input_tokens
                    .get_or_insert((prompt_chars / CHARS_PER_TOKEN) as u64);
                usage
                    .output_tokens
                    .get_or_insert((a.text.chars().count() / CHARS_PER_TOKEN) as u64);
                Call {
                    purpose: purpose.to_string(),
                    backend: backend.to_string(),
                    segment: segment.map(str::to_string),
                    prompt_bytes: prompt.len(),
                    model: a.model.clone(),
                    cli_version: a.cli_version.clone(),
                    duration_ms: a.duration_ms,
                    usage,
                    tokens_estimated: estimated,
                    error: None,
                    tree_changes: a.tree_changes.clone(),
                    output: Some(a.output.clone()),
                    read: None,
                    notes: a.notes.clone(),
                    transport: Some(a.transport.to_string()),
                }
            }
            Err(e) => Call {
                purpose: purpose.to_string(),
                backend: backend.to_string(),
                segment: segment.map(str::to_string),
                prompt_bytes: prompt.len(),
                model: None,
                cli_version: None,
                duration_ms: elapsed_ms,
                usage: Usage::default(),
                tokens_estimated: false,
                error: Some(e.clone()),
                tree_changes: Vec::new(),
                output: None,
                read: None,
                notes: Vec::new(),
                transport: None,
            },
        }
    }
}

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
    pub duration_ms: u64,
}

/// One chunk of a round.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
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

/// Calls, tokens, cost and time per backend.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct BackendUsage {
    pub calls: u32,
    pub failed_calls: u32,
    pub duration_ms: u64,
    #[serde(flatten)]
    pub usage: Usage,
}

pub fn usage_by_backend(rounds: &[Round], extra: &[Call]) -> BTreeMap<String, BackendUsage> {
    let mut out: BTreeMap<String, BackendUsage> = BTreeMap::new();
    for c in rounds.iter().flat_map(|r| r.calls.iter()).chain(extra) {
        let e = out.entry(c.backend.clone()).or_default();
        e.calls += 1;
        e.failed_calls += u32::from(c.error.is_some());
        e.duration_ms += c.duration_ms;
        e.usage.add(&c.usage);
    }
    out
}
