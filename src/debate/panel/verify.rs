//! The verifier, deterministic: every entry's cited sources are checked (see
//! [`crate::debate::citations`]) beside the next speaker's turn, and logged as seed 002 logs them —
//! a `verification_result` whose content is `{verified_seq, url, status, explanation}` with the
//! seed's statuses (`verified`, `unreliable`, `fabricated`, plus `unverifiable` for what cannot be
//! checked offline). A fabricated source is redacted by a chair ruling; an unreliable one gets a
//! ruling and a warning at its author's next turn. Each round ends with the chair's mandatory
//! line on what was relayed.

use anyhow::Result;
use serde_json::json;

use super::log::{Entry, Extra, Log};
use super::Panel;
use crate::debate::citations::{Citation, Status};

/// An entry not verified yet.
pub type Pending = Entry;

/// The seed's word for a status.
pub fn seed_status(s: Status) -> &'static str {
    match s {
        Status::Verified => "verified",
        Status::NotFound => "fabricated",
        Status::Unreliable => "unreliable",
        Status::Unverifiable | Status::Unchecked => "unverifiable",
    }
}

impl Panel<'_> {
    /// Each entry's cited sources, checked.
    pub(super) fn verify(&self, entries: &[Pending]) -> Vec<(u32, Vec<Citation>)> {
        entries
            .iter()
            .map(|e| (e.seq, self.checker.check(&e.content)))
            .collect()
    }

    /// One `verification_result` per cited source; a redaction for a fabricated one, a ruling
    /// for an unreliable one.
    pub(super) fn log_checked(
        &self,
        log: &mut Log,
        checked: Vec<(u32, Vec<Citation>)>,
    ) -> Result<()> {
        for (seq, sources) in checked {
            let speaker = log.entries[seq as usize].speaker.clone();
            for c in &sources {
                let result = json!({
                    "verified_seq": seq, "url": c.cited, "kind": c.kind,
                    "status": seed_status(c.status), "explanation": c.detail,
                });
                let target = Extra {
                    target: Some(seq),
                    ..Extra::default()
                };
                log.push_with(
                    "system",
                    "verifier",
                    "verification_result",
                    &result.to_string(),
                    target.clone(),
                )?;
                match c.status {
                    Status::NotFound => {
                        log.push_with(
                            "system",
                            "chair",
                            "redaction",
                            &format!(
                                "REDACTED: seq {seq} ({speaker}). Reason: `{}` does not exist ({}). Entry is struck from the record.",
                                c.cited, c.detail
                            ),
                            target,
                        )?;
                    }
                    Status::Unreliable => {
                        log.push_with(
                            "system",
                            "chair",
                            "ruling",
                            &format!(
                                "Ruling on seq {seq}: the source `{}` is unreliable ({}). {speaker} is warned and asked to withdraw or replace it.",
                                c.cited, c.detail
                            ),
                            target,
                        )?;
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// What the verifier found wrong with `name`'s entries, as notes for its cue.
    pub(super) fn flags_for(&self, log: &[Entry], name: &str) -> Vec<String> {
        let mine: Vec<u32> = log
            .iter()
            .filter(|e| e.speaker == name)
            .map(|e| e.seq)
            .collect();
        log.iter()
            .filter(|e| {
                e.kind == "redaction" || (e.kind == "ruling" && e.content.contains("unreliable"))
            })
            .filter(|e| e.target_seq.is_some_and(|t| mine.contains(&t)))
            .map(|e| {
                format!(
                    "Note: the verifier flagged seq {}: {}",
                    e.target_seq.unwrap_or(0),
                    e.content
                )
            })
            .collect()
    }
}

/// The chair's mandatory relay line for a round: the findings logged since `from`.
pub fn relay_line(log: &[Entry], from: u32) -> String {
    let found: Vec<String> = log
        .iter()
        .filter(|e| e.seq >= from && e.kind == "verification_result")
        .filter_map(|e| {
            let v: serde_json::Value = serde_json::from_str(&e.content).ok()?;
            let status = v["status"].as_str()?;
            (status == "fabricated" || status == "unreliable").then(|| {
                format!(
                    "seq {} `{}` {status}",
                    v["verified_seq"],
                    v["url"].as_str().unwrap_or("")
                )
            })
        })
        .collect();
    format!(
        "Verifier findings relayed this round: {}",
        if found.is_empty() {
            "none".to_string()
        } else {
            found.join("; ")
        }
    )
}
