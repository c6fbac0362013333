//! What a review leaves behind: one record per model call and per round, and the final summary,
//! built here from the calls' answers; the records themselves are the store's
//! ([`crate::store::call`], [`crate::store::round`]).
//!
//! These are the machine-readable files of a session (`round-<n>.json`, `summary.json`) and the
//! input of every report format, so the report can never say more than the record holds.

use std::collections::BTreeMap;

use crate::agents::{Answer, BackendError, Usage};
pub use crate::store::call::{BackendUsage, Call};
pub use crate::store::round::{ChunkRecord, Repair, Round, Withdrawn};

/// The estimate used where a CLI reports no token counts.
const CHARS_PER_TOKEN: usize = 4;

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
