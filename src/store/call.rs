//! A model call as a session records it: what it cost (tokens, money, time), how its answer's
//! format was obtained, and how it failed. Part of every round record (`round-<n>.json`) and of
//! the report's totals; the model layer ([`crate::agents`]) fills these in, and they live here so
//! a record never depends on the code that talks to models.

use serde::{Deserialize, Serialize};

use crate::error::BackendError;

/// Token counts, cost and time a CLI reported for a call; `None` where it reports nothing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Usage {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// Input tokens served from a prompt cache (included in or added to input, as the CLI says).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// Time the CLI says it spent waiting on the API.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_duration_ms: Option<u64>,
}

impl Usage {
    /// The parts worth showing, in words: `["8573 in / 14 out tokens", "$0.0259"]`.
    pub fn describe(&self) -> Vec<String> {
        let mut parts = Vec::new();
        match (self.input_tokens, self.output_tokens) {
            (Some(i), Some(o)) => parts.push(format!("{i} in / {o} out tokens")),
            (Some(i), None) => parts.push(format!("{i} in tokens")),
            (None, Some(o)) => parts.push(format!("{o} out tokens")),
            (None, None) => {}
        }
        if let Some(c) = self.cost_usd {
            parts.push(format!("${c:.4}"));
        }
        parts
    }

    /// Adds `other` into `self`: a field stays `None` only when neither side reported it.
    pub fn add(&mut self, other: &Usage) {
        fn sum<T: Copy + std::ops::Add<Output = T>>(a: Option<T>, b: Option<T>) -> Option<T> {
            match (a, b) {
                (Some(a), Some(b)) => Some(a + b),
                (a, b) => a.or(b),
            }
        }
        self.input_tokens = sum(self.input_tokens, other.input_tokens);
        self.output_tokens = sum(self.output_tokens, other.output_tokens);
        self.cached_input_tokens = sum(self.cached_input_tokens, other.cached_input_tokens);
        self.cost_usd = sum(self.cost_usd, other.cost_usd);
        self.api_duration_ms = sum(self.api_duration_ms, other.api_duration_ms);
    }
}

/// How an answer's format was obtained, for the record: `schema` (the backend enforced the
/// protocol's JSON Schema and returned its object) or `prompt` (the prompt's format request),
/// with why when a schema was asked for and not used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputMode {
    pub mode: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// A schema was asked for and the backend could not take it (an older CLI without the
    /// flag, a server that refused `response_format`): worth telling the user.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fell_back: bool,
}

impl OutputMode {
    pub fn schema(note: Option<String>) -> OutputMode {
        OutputMode {
            mode: "schema".into(),
            note,
            fell_back: false,
        }
    }
    pub fn prompt(note: Option<String>) -> OutputMode {
        OutputMode {
            mode: "prompt".into(),
            note,
            fell_back: false,
        }
    }
    pub fn fallback(note: String) -> OutputMode {
        OutputMode {
            mode: "prompt".into(),
            note: Some(note),
            fell_back: true,
        }
    }
}

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

/// Calls, tokens, cost and time per backend.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BackendUsage {
    pub calls: u32,
    pub failed_calls: u32,
    pub duration_ms: u64,
    #[serde(flatten)]
    pub usage: Usage,
}

/// A fallback reviewer took over from one that never answered.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Fallback {
    /// The backend that reviewed.
    pub reviewer: String,
    /// The one that was chosen first, and why it did not review.
    pub instead_of: String,
    pub because: String,
    /// Others of the failover chain that were tried before it and did not answer either.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also_failed: Vec<PassedOver>,
}

/// A reviewer of the failover chain that did not answer, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PassedOver {
    pub reviewer: String,
    pub because: String,
}
