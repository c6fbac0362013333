//! Interruptions during a round turn: a debater may challenge a source another debater cited, or
//! ask the chair to clarify a rule, instead of speaking at once. The turn is paused, the matter
//! settled and logged, and the debater is asked for its turn again with the chair's ruling.
//!
//! - A source challenge (`CHALLENGE: [seq N] source — why`) is logged as the debater's
//!   `source_challenge` entry (`target_seq` N, the source in `sources`); the source is checked at
//!   once, as an urgent verification (a `verification_result` of seq N); then the chair rules: a
//!   fabricated source is redacted (the entry is struck) and its author penalised, an unreliable
//!   one gets a warning asking its author to withdraw or replace it, a verified one dismisses the
//!   challenge, and one that cannot be checked offline is left to the author to support. Every
//!   ruling is a `ruling` entry that names the challenge's seq.
//! - A clarification request (`CLARIFY: question`) is logged as the debater's
//!   `clarification_request` entry; the chair answers at once, neutrally and on procedure only,
//!   and its answer is logged as a `ruling`.
//!
//! One interruption is taken per turn: the resumed answer is the turn, whatever it starts with.

use crate::store::debate::VerificationResult;
use anyhow::Result;

use crate::agents::budget::Budget;
use crate::debate::citations::{self, Citation, Status};
use crate::debate::panel::log::{Entry, Extra, Log};
use crate::debate::panel::verify::seed_status;
use crate::debate::panel::{Debater, Panel};

/// What a debater's answer asks for instead of a turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Interruption {
    /// A challenge of `source`, cited in entry `seq`.
    Challenge {
        seq: u32,
        source: String,
        why: String,
    },
    /// A question to the chair.
    Clarify(String),
}

/// How a debater asks, told in every round cue.
pub const HOW: &str = "Before your turn you may interrupt once: to challenge a source another \
debater cited, answer with only the line `CHALLENGE: [seq N] source — why`; to ask the chair to \
clarify a rule or the procedure, answer with only the line `CLARIFY: your question`. Your turn is \
then paused, the chair rules, and you are asked for your turn again.";

/// The interruption an answer opens with, if any: its first non-empty line is `CHALLENGE:` or
/// `CLARIFY:`.
pub fn read(text: &str) -> Option<Interruption> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let upper = first.to_ascii_uppercase();
    if upper.starts_with("CLARIFY:") {
        let q = first[8..].trim();
        return (!q.is_empty()).then(|| Interruption::Clarify(q.to_string()));
    }
    if !upper.starts_with("CHALLENGE:") {
        return None;
    }
    let rest = first[10..].trim();
    let lower = rest.to_ascii_lowercase();
    let at = lower.find("seq")?;
    let digits: String = lower[at + 3..]
        .trim_start_matches([' ', '#'])
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let seq: u32 = digits.parse().ok()?;
    let after = rest[at..].split_once(']').map_or("", |(_, r)| r).trim();
    let (source, why) = match after.split_once(" — ").or_else(|| after.split_once(" - ")) {
        Some((s, w)) => (s.trim(), w.trim()),
        None => (after, ""),
    };
    let source = source.trim_matches('`').trim();
    (!source.is_empty()).then(|| Interruption::Challenge {
        seq,
        source: source.to_string(),
        why: why.to_string(),
    })
}

/// An answer without the interruption lines it may still open with (a resumed turn is the turn).
pub fn strip(text: &str) -> String {
    let mut lines = text.lines().peekable();
    while let Some(l) = lines.peek() {
        let u = l.trim().to_ascii_uppercase();
        if u.is_empty() || u.starts_with("CHALLENGE:") || u.starts_with("CLARIFY:") {
            lines.next();
        } else {
            break;
        }
    }
    lines.collect::<Vec<_>>().join("\n")
}

impl Panel<'_> {
    /// Settles `i`, raised by `d` during its round-`round` turn: logs the debater's entry, the
    /// check or the chair's answer, and the ruling. Returns the ruling's text for the resumed cue.
    pub(super) fn interrupt(
        &self,
        log: &mut Log,
        d: &Debater,
        i: Interruption,
        budget: &Budget,
    ) -> Result<String> {
        match i {
            Interruption::Clarify(q) => self.clarify(log, d, &q, budget),
            Interruption::Challenge { seq, source, why } => {
                self.challenge(log, d, (seq, &source, &why), budget)
            }
        }
    }

    fn clarify(&self, log: &mut Log, d: &Debater, q: &str, budget: &Budget) -> Result<String> {
        let none = Extra {
            sources: Some(Vec::new()),
            ..Extra::default()
        };
        let at = log.push_with("rebuttal", &d.name, "clarification_request", q, none)?;
        let task = format!(
            "{} asks the chair to clarify, pausing its turn: {q}\nRespond immediately: answer on \
             the rules and the procedure only, in one to three sentences, favouring no position \
             on the topic.",
            d.name
        );
        let answer = self
            .chair(
                &format!("clarification at seq {at}"),
                &task,
                &log.entries,
                budget,
                false,
            )
            .unwrap_or_else(|| {
                "The chair could not answer now; the rules stand as given in your cue.".into()
            });
        let ruling = format!("Ruling on the clarification request at seq {at}: {answer}");
        log.push("system", "chair", "ruling", &ruling)?;
        Ok(ruling)
    }

    fn challenge(
        &self,
        log: &mut Log,
        d: &Debater,
        (seq, source, why): (u32, &str, &str),
        budget: &Budget,
    ) -> Result<String> {
        let target = log
            .entries
            .get(seq as usize)
            .filter(|e| e.speaker != d.name && self.names().contains(&e.speaker.as_str()))
            .cloned();
        let cited = citations::unchecked(&as_citation(source));
        let extra = Extra {
            sources: Some(cited.clone()),
            rebuttal_to: None,
            target: target.as_ref().map(|_| seq),
        };
        let text = format!("Challenge of `{source}` in [seq {seq}]: {why}");
        let at = log.push_with("rebuttal", &d.name, "source_challenge", &text, extra)?;
        let Some(target) = target else {
            let ruling = format!(
                "Ruling on the source challenge at seq {at}: dismissed; seq {seq} is not another \
                 debater's entry."
            );
            log.push("system", "chair", "ruling", &ruling)?;
            return Ok(ruling);
        };
        let c = self.urgent_check(&target, source, budget);
        let result = VerificationResult {
            verified_seq: seq,
            url: c.cited.clone(),
            kind: c.kind.clone(),
            status: seed_status(c.status).to_string(),
            explanation: c.detail.clone(),
            urgent: true,
            challenge_seq: Some(at),
        };
        let on = Extra {
            target: Some(seq),
            ..Extra::default()
        };
        log.push_with(
            "system",
            "verifier",
            "verification_result",
            &result.to_content(),
            on.clone(),
        )?;
        let author = &target.speaker;
        let head = format!(
            "Ruling on the source challenge at seq {at} (`{}` in seq {seq})",
            c.cited
        );
        let ruling = match c.status {
            Status::NotFound => {
                let struck = log
                    .entries
                    .iter()
                    .find(|e| e.kind == "redaction" && e.target_seq == Some(seq))
                    .map(|e| e.seq);
                if struck.is_none() {
                    log.push_with(
                        "system",
                        "chair",
                        "redaction",
                        &format!(
                            "REDACTED: seq {seq} ({author}). Reason: `{}` does not exist ({}). \
                             Entry is struck from the record.",
                            c.cited, c.detail
                        ),
                        on.clone(),
                    )?;
                }
                format!(
                    "{head}: upheld — the source is fabricated ({}); seq {seq} is struck from the \
                     record and {author} is penalised for it.",
                    c.detail
                )
            }
            Status::Unreliable => format!(
                "{head}: upheld — the source is unreliable ({}); {author} is warned and asked to \
                 withdraw or replace it.",
                c.detail
            ),
            Status::Verified => {
                format!("{head}: dismissed — the source is verified ({}).", c.detail)
            }
            Status::Unverifiable | Status::Unchecked => format!(
                "{head}: not settled — the source cannot be checked offline{}; {author} is asked \
                 to support it with a source that can be checked.",
                if c.detail.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", c.detail)
                }
            ),
        };
        log.push_with("system", "chair", "ruling", &ruling, on)?;
        Ok(ruling)
    }

    /// The challenged source checked now: by the tool, then by the verifier model for what the
    /// tool cannot check, when one is configured.
    fn urgent_check(&self, target: &Entry, source: &str, budget: &Budget) -> Citation {
        let mut checked = self.checker.check(&as_citation(source));
        if checked.is_empty() {
            checked.push(Citation {
                cited: source.to_string(),
                kind: "pattern".into(),
                status: Status::Unverifiable,
                detail: "not a source the tool can read".into(),
            });
        }
        if !target.content.contains(source) {
            for c in &mut checked {
                c.detail = format!("seq {} does not cite it; {}", target.seq, c.detail);
            }
        }
        if let Some(v) = self.roles.verifier.as_ref() {
            self.model_check(v.as_ref(), target, &mut checked, budget);
        }
        checked.swap_remove(0)
    }
}

/// A challenged source as text the citation reader takes: in backticks, unless it is a URL.
fn as_citation(source: &str) -> String {
    if source.contains("://") {
        source.to_string()
    } else {
        format!("`{source}`")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interruptions_are_read_from_the_first_line() {
        assert_eq!(
            read("CHALLENGE: [seq 4] `src/lib.rs:99` — the file is shorter\nmore"),
            Some(Interruption::Challenge {
                seq: 4,
                source: "src/lib.rs:99".into(),
                why: "the file is shorter".into()
            })
        );
        assert_eq!(
            read("\nclarify: may I cite a benchmark?"),
            Some(Interruption::Clarify("may I cite a benchmark?".into()))
        );
        assert_eq!(read("TYPE: new_point\nCHALLENGE: [seq 1] x"), None);
        assert_eq!(read("CHALLENGE: no seq here"), None);
        assert_eq!(
            strip("CLARIFY: q\n\nTYPE: new_point\nx"),
            "TYPE: new_point\nx"
        );
    }
}
