//! A debate as a session records it, duel or panel: the turns of `debate-log.jsonl` (a duel's
//! exchanges, a panel's entries in the panel-log schema), the citations checked in them, who sat
//! where, the judge's verdict, a panel's lineup and call timings. [`crate::debate`] makes them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::store::call::Usage;

/// A debate's log in its session folder: one JSON object per line, appended as the debate goes.
pub const LOG: &str = "debate-log.jsonl";

/// How far a citation was checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Verified,
    NotFound,
    /// The source exists but does not hold what is cited: a `path:line` past the end of an
    /// existing file (for a web source: the page exists but does not support the claim).
    Unreliable,
    Unverifiable,
    /// Cited, and being checked (a panel entry's own list; its results follow in the log).
    Unchecked,
}

impl Status {
    /// The status as the records write it (`verified`, `not-found`, ...).
    pub fn key(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::NotFound => "not-found",
            Status::Unreliable => "unreliable",
            Status::Unverifiable => "unverifiable",
            Status::Unchecked => "unchecked",
        }
    }

    pub fn mark(self) -> &'static str {
        match self {
            Status::Verified => "verified",
            Status::NotFound => "NOT FOUND",
            Status::Unreliable => "UNRELIABLE",
            Status::Unverifiable => "unverifiable offline",
            Status::Unchecked => "being checked",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Citation {
    /// `path`, `path:line`, a pattern, or a URL, as cited.
    pub cited: String,
    /// `location`, `path`, `pattern` or `url`.
    pub kind: String,
    pub status: Status,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub detail: String,
}

/// One turn of a duel, as logged in its `debate-log.jsonl`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Exchange {
    pub seq: u32,
    pub round: u32,
    /// `proposer` or `challenger`.
    pub role: String,
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    pub response: String,
    pub citations: Vec<Citation>,
    /// The revision the citations were checked against (`the work tree`, `commit 1a2b3c4`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub citations_checked_at: String,
    /// How the backend was spoken to: `cli`, `acp` or `http`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub transport: String,
    /// Secrets redacted from the answer (the response ends with the `[WARN]` line).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub redactions: usize,
    pub duration_ms: u64,
    pub usage: Usage,
    pub timestamp: String,
}

/// The judge's verdict.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Verdict {
    /// `proposer` or `challenger`; `None` when the judge would not pick, even when asked again.
    pub winner: Option<String>,
    pub reasoning: String,
    /// The judge's ratings of the debate, as its answer gave them (its own JSON, not ours).
    pub quality: Value,
    /// Each with its evidence: "point (evidence: ...)".
    pub agreements: Vec<String>,
    /// Each with both sides: "point: claude argues X, codex argues Y".
    pub disagreements: Vec<String>,
    pub unresolved: Vec<String>,
    pub recommendation: String,
    /// How many times the judge was asked (2 when its first verdict picked no side).
    #[serde(default = "one")]
    pub asked: u32,
}

fn one() -> u32 {
    1
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Who sat where: the tool and the model of each side and of the judge.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Seat {
    pub tool: String,
    /// The model the CLI reported, else the one we asked for; `None` when neither is known.
    pub model: Option<String>,
    /// Why this backend (the judge's default is worth a line in the output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// How it was spoken to: `cli`, `acp` or `http`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<String>,
}

impl Seat {
    /// `codex (gpt-5.1)`, or `codex (model not reported)`.
    pub fn label(&self) -> String {
        format!(
            "{} ({})",
            self.tool,
            self.model.as_deref().unwrap_or("model not reported")
        )
    }
}

/// One line of a panel's `debate-log.jsonl` (the established panel-log schema).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    pub seq: u32,
    pub timestamp: String,
    /// `system`, `opening`, `rebuttal` or `closing`.
    pub phase: String,
    pub speaker: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub content: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<Source>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rebuttal_to_seq: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_seq: Option<u32>,
}

/// A cited source as the panel log writes one: `url`, `title`, `accessed`. Here `url` is what was
/// cited (a URL, or a repository path, `path:line` or code pattern); a debater's answer names no
/// title and no access time, so those stay null rather than invented; `kind` and `status` say what
/// it is and that it is not checked yet (its `verification_result` entry follows).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Source {
    #[serde(alias = "cited")]
    pub url: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub accessed: Option<String>,
    pub kind: String,
    pub status: Status,
}

impl From<Citation> for Source {
    fn from(c: Citation) -> Source {
        Source {
            url: c.cited,
            title: None,
            accessed: None,
            kind: c.kind,
            status: c.status,
        }
    }
}

/// One panellist.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Debater {
    /// A slug: letters, digits and hyphens; the `speaker` in the log.
    pub name: String,
    pub backend: String,
    #[serde(default)]
    pub persona: String,
    #[serde(default)]
    pub position: String,
    #[serde(default)]
    pub incentives: String,
}

/// One model call of a panel, for `metadata.json`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Timing {
    /// `chair`, `debater`, `audience`, `reporter` or `assessor`.
    pub role: String,
    /// The debater's name, or the role.
    pub speaker: String,
    pub step: String,
    pub backend: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Milliseconds since the panel started, and how long the call took.
    pub at_ms: u64,
    pub ms: u64,
    pub ok: bool,
    /// How the backend was spoken to: `cli`, `acp` or `http` (empty in records made before it
    /// was recorded).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub transport: String,
    /// Secrets redacted from the answer (the answer carries the `[WARN]` line).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub redactions: usize,
}

/// The store's `last-debate.json`: the state record of the newest duel, beside the sessions.
/// `verdict.winner` is the winning tool (as the established format has it); `winner_role` says
/// which side that was.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LastDebate {
    pub id: String,
    pub topic: String,
    pub proposer: Tool,
    pub challenger: Tool,
    pub judge: Tool,
    pub effort: Option<String>,
    pub rounds_completed: u32,
    pub max_rounds: u32,
    pub status: String,
    pub exchanges: Vec<LastExchange>,
    pub verdict: Option<LastVerdict>,
    pub timestamp: String,
}

/// `last-debate.json`'s file, in the store (not in a session folder).
pub const LAST_DEBATE: &str = "last-debate.json";

/// A seat as the state record names it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Tool {
    pub tool: String,
    pub model: Option<String>,
}

/// A turn as the state record keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LastExchange {
    pub round: u32,
    pub role: String,
    pub tool: String,
    pub response: String,
    pub duration_ms: u64,
}

/// The verdict as the state record keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LastVerdict {
    /// The winning tool.
    pub winner: Option<String>,
    /// `proposer` or `challenger`.
    pub winner_role: Option<String>,
    pub reasoning: String,
    pub agreements: Vec<String>,
    pub disagreements: Vec<String>,
    pub recommendation: String,
}

/// What a panel's verifier found of one cited source: the `content` of a `verification_result`
/// entry, itself JSON (compact, keys sorted, as the established panel-log format has it).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VerificationResult {
    /// The entry whose source this is.
    pub verified_seq: u32,
    pub url: String,
    pub kind: String,
    /// `verified`, `fabricated`, `unreliable` or `unverifiable` (the panel log's words).
    pub status: String,
    #[serde(default)]
    pub explanation: String,
    /// Checked at once, because a debater challenged the source.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub urgent: bool,
    /// The challenge that asked for the check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub challenge_seq: Option<u32>,
}

impl VerificationResult {
    /// The entry's content.
    pub fn to_content(&self) -> String {
        // Through a Value: its keys come out sorted, as the established panel-log format has them.
        serde_json::to_value(self)
            .map(|v| v.to_string())
            .unwrap_or_default()
    }

    /// The result an entry's content holds, if it is one.
    pub fn of_content(content: &str) -> Option<VerificationResult> {
        serde_json::from_str(content).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_key_is_the_word_its_record_writes() {
        for st in [
            Status::Verified,
            Status::NotFound,
            Status::Unreliable,
            Status::Unverifiable,
            Status::Unchecked,
        ] {
            assert_eq!(serde_json::to_value(st).unwrap(), st.key());
        }
    }

    #[test]
    fn an_urgent_result_says_so_and_an_ordinary_one_keeps_the_seed_keys() {
        let mut r = VerificationResult {
            verified_seq: 3,
            url: "src/a.rs:9".into(),
            kind: "location".into(),
            status: "verified".into(),
            explanation: String::new(),
            urgent: false,
            challenge_seq: None,
        };
        assert_eq!(
            r.to_content(),
            r#"{"explanation":"","kind":"location","status":"verified","url":"src/a.rs:9","verified_seq":3}"#
        );
        r.urgent = true;
        r.challenge_seq = Some(7);
        let back = VerificationResult::of_content(&r.to_content()).unwrap();
        assert!(back.urgent);
        assert_eq!(back.challenge_seq, Some(7));
    }
}
