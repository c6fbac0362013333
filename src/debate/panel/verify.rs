//! The verifier, deterministic: every entry's cited sources are checked (see
//! [`crate::debate::citations`]) beside the next speaker's turn, and logged in the panel-log format
//! — a `verification_result` whose content is `{verified_seq, url, status, explanation}` with the
//! panel log's statuses (`verified`, `unreliable`, `fabricated`, plus `unverifiable` for what
//! cannot be checked offline; with `--verifier`, a model's judgement of those, marked as such). A
//! fabricated source is redacted by a chair ruling; an unreliable one gets a ruling and a warning
//! at its author's next turn. Each round ends with the chair's mandatory line on what was relayed.

use anyhow::Result;
use serde::Deserialize;

use crate::agents::budget::Budget;
use crate::agents::Backend;
use crate::answer::json::json_blocks;
use crate::debate::citations::{Citation, Status};
use crate::debate::panel::calls::Call;
use crate::debate::panel::log::{Entry, Extra, Log};
use crate::debate::panel::Panel;
use crate::store::debate::VerificationResult;

/// An entry not verified yet.
pub type Pending = Entry;

/// The panel log's word for a status.
pub fn seed_status(s: Status) -> &'static str {
    match s {
        Status::Verified => "verified",
        Status::NotFound => "fabricated",
        Status::Unreliable => "unreliable",
        Status::Unverifiable | Status::Unchecked => "unverifiable",
    }
}

/// One item of the verifier model's answer (its JSON, not ours).
#[derive(Deserialize)]
struct ModelCheck {
    url: Option<String>,
    status: Option<String>,
    explanation: Option<String>,
}

impl Panel<'_> {
    /// Each entry's cited sources, checked: by the tool, then, for what it cannot check (URLs),
    /// by the verifier model when one is configured.
    pub(super) fn verify(&self, entries: &[Pending], budget: &Budget) -> Vec<(u32, Vec<Citation>)> {
        entries
            .iter()
            .map(|e| {
                let mut checked = self.checker.check(&e.content);
                if let Some(v) = self.roles.verifier.as_ref().filter(|_| !budget.spent()) {
                    self.model_check(v.as_ref(), e, &mut checked, budget);
                }
                (e.seq, checked)
            })
            .collect()
    }

    /// Asks the verifier model about the sources the tool marked unverifiable. It cannot fetch
    /// them either, so it may only confirm or call one unreliable; "fabricated" needs proof and
    /// stays the tool's word. Its judgement is marked as a model's in the explanation.
    pub(super) fn model_check(
        &self,
        v: &dyn Backend,
        e: &Entry,
        checked: &mut [Citation],
        budget: &Budget,
    ) {
        // Each source is checked once per debate; a later citation of it is logged as a
        // re-confirmation of that check, not asked about again.
        {
            let judged = self.judged.lock().unwrap_or_else(|p| p.into_inner());
            for c in checked
                .iter_mut()
                .filter(|c| c.status == Status::Unverifiable)
            {
                if let Some((status, detail, seq)) = judged.get(&c.cited) {
                    c.status = *status;
                    c.detail = format!("re-confirmation of the check at seq {seq}: {detail}");
                }
            }
        }
        let open: Vec<&str> = checked
            .iter()
            .filter(|c| c.status == Status::Unverifiable)
            .map(|c| c.cited.as_str())
            .collect();
        if open.is_empty() {
            return;
        }
        let prompt = format!(
            "You are the verifier of a panel debate. From what you know (you cannot fetch \
             anything), judge each source below: is it a real, reliable source that supports the \
             claim it is cited for? Sources: {}\n\n{}\nAnswer with ONE fenced json block: \
             [{{\"url\": \"...\", \"status\": \"verified\" | \"unreliable\" | \"unknown\", \
             \"explanation\": \"...\"}}]",
            open.join(", "),
            crate::prompts::fence::wrap("ENTRY", &e.content)
        );
        let c = Call {
            role: "verifier",
            speaker: "verifier",
            step: format!("model check of seq {}", e.seq),
            reserved: false,
            progress: None,
        };
        let Ok(a) = self.call(v, c, &prompt, budget) else {
            return;
        };
        // The model's answer: each item read on its own, so one odd item costs only itself.
        let said: Vec<ModelCheck> = json_blocks(&a.text)
            .into_iter()
            .rev()
            .find_map(|v| v.as_array().cloned())
            .unwrap_or_default()
            .into_iter()
            .filter_map(|j| serde_json::from_value(j).ok())
            .collect();
        let mut judged = self.judged.lock().unwrap_or_else(|p| p.into_inner());
        for c in checked
            .iter_mut()
            .filter(|c| c.status == Status::Unverifiable)
        {
            let Some(j) = said
                .iter()
                .find(|j| j.url.as_deref() == Some(c.cited.as_str()))
            else {
                continue;
            };
            let why = j.explanation.as_deref().unwrap_or("").trim();
            c.status = match j.status.as_deref() {
                Some("verified") => Status::Verified,
                Some("unreliable") => Status::Unreliable,
                _ => continue,
            };
            c.detail = format!("model check ({}): {why}", v.name());
            judged.insert(c.cited.clone(), (c.status, c.detail.clone(), e.seq));
        }
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
                let result = VerificationResult {
                    verified_seq: seq,
                    url: c.cited.clone(),
                    kind: c.kind.clone(),
                    status: seed_status(c.status).to_string(),
                    explanation: c.detail.clone(),
                    urgent: false,
                    challenge_seq: None,
                };
                let target = Extra {
                    target: Some(seq),
                    ..Extra::default()
                };
                log.push_with(
                    "system",
                    "verifier",
                    "verification_result",
                    &result.to_content(),
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

/// How the chair's relay line starts.
pub const RELAY: &str = "Verifier findings relayed this round:";

/// The chair's mandatory relay line for a round: the findings logged since `from`.
pub fn relay_line(log: &[Entry], from: u32) -> String {
    let found: Vec<String> = log
        .iter()
        .filter(|e| e.seq >= from && e.kind == "verification_result")
        .filter_map(|e| VerificationResult::of_content(&e.content))
        .filter(|v| v.status == "fabricated" || v.status == "unreliable")
        .map(|v| format!("seq {} `{}` {}", v.verified_seq, v.url, v.status))
        .collect();
    format!(
        "{RELAY} {}",
        if found.is_empty() {
            "none".to_string()
        } else {
            found.join("; ")
        }
    )
}
