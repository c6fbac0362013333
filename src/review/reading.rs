//! A reviewer's answer read inside the loop: the reading pipeline of [`crate::answer`], the
//! reviewer's replies to disputed findings, and the repair turn.
//!
//! The repair turn: an answer that is not the protocol's schema JSON and leaves a finding of
//! unknown severity, gives no verdict, has no recognisable shape, or holds prose that raises
//! something its JSON does not, goes back once to the same reviewer, which restates its own
//! answer in the schema (its answer and the schema, no diff). An explicit `--normalizer author`
//! or `<backend>` restates it instead. The restatement is checked both ways
//! ([`crate::answer::restate`]): restated findings not grounded in the answer are dropped, units
//! of the answer no restated finding covers stay as read, and each count is in the round's
//! record and notes. When the restatement fails or holds no review, the answer stays as read (an
//! answer with no shape at all as unclassified blocks, in full). An answer whose verdict objects to
//! the change but that names no finding, or that still gives neither a verdict nor a finding,
//! is kept as one finding of unknown severity.

use std::time::Instant;

use anyhow::Result;

use crate::agents::{Answer, Backend};
use crate::answer::dispute::{self, Replies, Reply};
use crate::answer::restate::{self, By};
use crate::answer::{self, normalise, Protocol, Reading, Roots};
use crate::change::markdown::Target;
use crate::findings::{Critique, Finding, Severity, Source};
use crate::prompts::Template;
use crate::review::record::{Call, Repair};
use crate::review::Review;

/// Who restates an answer the reader could not read whole (`debate.normalizer`).
pub enum Restater {
    /// The reviewer itself, restating its own answer (the default).
    Reviewer,
    /// The author: only when asked for by name.
    Author,
    /// Another backend, named.
    Backend(Box<dyn Backend>),
}

/// The protocol a review prompt was written under.
pub fn protocol_of(segment: Option<&str>, target: Target) -> Protocol {
    match (segment, target) {
        (Some("proposal"), _) | (None, Target::Proposal) => Protocol::PeerReview,
        _ => Protocol::Cr,
    }
}

/// One review answer, read.
pub(super) struct Answered {
    pub critique: Critique,
    /// The restater's call, when there was one.
    pub call: Option<Call>,
    pub repair: Option<Repair>,
    /// The reviewer's replies to the disputes it was asked about.
    pub replies: Replies,
    pub notes: Vec<String>,
}

/// Why an answer read as `reading` goes back for a restatement (empty: it does not).
fn repair_due(reading: &Reading, text: &str, roots: &Roots) -> Vec<String> {
    let c = &reading.critique;
    if c.format == "schema" {
        return Vec::new();
    }
    if !reading.structured {
        return vec!["it had no recognisable structure".into()];
    }
    let mut why = Vec::new();
    let unknown = c
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Unclassified)
        .count();
    if unknown > 0 {
        why.push(format!("{unknown} finding(s) of unknown severity"));
    }
    let verdict = c.verdict.is_some() || c.recommendation.is_some() || c.agreement;
    if !verdict && answer::verdict::stated(text).is_none() {
        why.push("no verdict".into());
    }
    let units = restate::units(text, &c.findings, roots);
    let missed = &units[c.findings.len().min(units.len())..];
    if c.format == "json" && !missed.is_empty() {
        why.push("prose that raises something its JSON does not hold".into());
    } else if missed.iter().any(|u| {
        u.severity != Severity::Unclassified
            || u.location.as_ref().is_some_and(|l| l.start_line.is_some())
    }) {
        // A part that states a level or points at a line, and that no finding read covers: the
        // reader may have dropped it, and the reviewer's restatement, checked both ways, keeps
        // it. (A paragraph that only sounds concerned is not worth a call.)
        why.push("a part that rates or places a problem no finding covers".into());
    }
    why
}

impl Review<'_> {
    pub(super) fn roots(&self) -> Roots {
        Roots::new(Some(&self.workspace))
    }

    /// Reads one review answer (`asked`: the disputed findings its prompt asked about), sending
    /// it back for a restatement when [`repair_due`] says so.
    pub(super) fn read_answer(
        &self,
        who: &dyn Backend,
        n: u32,
        segment: (Option<&'static str>, Option<&str>),
        answer: &Answer,
        started: Instant,
        asked: &[(String, String)],
    ) -> Result<Answered> {
        let (segment, label) = segment;
        let protocol = protocol_of(segment, self.artifact.target);
        let roots = self.roots();
        let which = label.map_or("the".to_string(), |s| format!("the {s}"));
        let mut notes = Vec::new();
        if let (true, Some(note)) = (answer.output.fell_back, &answer.output.note) {
            notes.push(format!("{which} review: {note}"));
        }
        // Replies to disputes are read apart, and not as findings.
        let (text, replies) = if asked.is_empty() {
            (answer.text.clone(), Replies::default())
        } else {
            (
                dispute::without_section(&answer.text),
                dispute::read(&answer.text, answer.structured.as_ref(), asked),
            )
        };
        let reading = answer::read(&text, answer.structured.as_ref(), protocol, &roots);
        let because = repair_due(&reading, &text, &roots);
        let (mut critique, call, repair) = if because.is_empty() || text.trim().is_empty() {
            (reading.critique, None, None)
        } else {
            let (c, call, repair) =
                self.repair(who, n, (segment, label), &text, &reading, because, started)?;
            notes.push(repair_note(&which, &repair, &c));
            (c, Some(call), Some(repair))
        };
        // An objection explained by the disputes it holds needs no finding of its own.
        let disputes_explain = asked
            .iter()
            .any(|(id, _)| !matches!(replies.said.get(id), Some((Reply::Withdraw, _))));
        if !disputes_explain {
            notes.extend(objection(&which, &mut critique, &text));
        }
        Ok(Answered {
            critique,
            call,
            repair,
            replies,
            notes,
        })
    }

    /// The repair turn for `text`, read as `reading`: one call to the restater (`reviewer`, the
    /// one that answered, unless another restates), the two-way check, and what stands after it.
    #[allow(clippy::too_many_arguments)]
    fn repair(
        &self,
        reviewer: &dyn Backend,
        n: u32,
        (segment, label): (Option<&'static str>, Option<&str>),
        text: &str,
        reading: &Reading,
        because: Vec<String>,
        started: Instant,
    ) -> Result<(Critique, Call, Repair)> {
        let protocol = protocol_of(segment, self.artifact.target);
        let roots = self.roots();
        let (who, template, by): (&dyn Backend, Template, By) = match &self.normalizer {
            Restater::Reviewer => (reviewer, Template::Repair, By::Reviewer),
            Restater::Author => (self.author.as_ref(), Template::Normalize, By::Other),
            Restater::Backend(b) => (b.as_ref(), Template::Normalize, By::Other),
        };
        let schema = serde_json::to_string_pretty(&protocol.schema_for_cli())?;
        let prompt = template.render(
            self.templates.as_deref(),
            &[
                ("answer", text),
                ("schema", &schema),
                ("because", &because.join("; ")),
            ],
        )?;
        // The reviewer restating its own answer keeps its `--reviewer-tools`.
        let no_tools = by == By::Reviewer && self.sandbox.no_tools;
        let req = self.request(who, no_tools, &prompt, started, Some(protocol));
        let t = Instant::now();
        let r = crate::ui::progress::with_progress(
            who.name(),
            (n, self.settings.max_rounds),
            "restate",
            || who.ask(&req),
        );
        let call = Call::of(
            if by == By::Reviewer {
                "repair"
            } else {
                "normalize"
            },
            who.name(),
            label,
            &prompt,
            &r,
            t.elapsed().as_millis() as u64,
        );
        let units = restate::units(text, &reading.critique.findings, &roots);
        let mut repair = Repair {
            segment: label.map(str::to_string),
            by: who.name().to_string(),
            by_reviewer: by == By::Reviewer,
            because,
            outcome: "used".into(),
            restated: 0,
            invented: Vec::new(),
            uncovered: 0,
            levelled: 0,
        };
        let checked = match &r {
            Ok(a) => restate::check(
                text,
                &units,
                &a.text,
                a.structured.as_ref(),
                protocol,
                &roots,
                by,
            )
            .map_err(|why| ("refused", why)),
            Err(e) => Err(("failed", e.to_string())),
        };
        let critique = match checked {
            Ok(c) => {
                repair.restated = c.restated;
                repair.invented = c.invented;
                repair.uncovered = c.uncovered;
                repair.levelled = c.levelled;
                c.critique
            }
            Err((outcome, why)) => {
                repair.outcome = format!("{outcome}: {why}");
                if reading.structured {
                    reading.critique.clone()
                } else {
                    normalise::raw_blocks(text, &roots)
                }
            }
        };
        Ok((critique, call, repair))
    }
}

/// An answer whose verdict objects to the change (`reject`, `revise`, `request changes`) but
/// that names no finding keeps its objection as one finding of unknown severity: a reviewer that
/// says the change should not land is never read as saying nothing. So does an answer that, even
/// after its repair turn, neither names a finding nor gives any verdict (a summary posted before
/// the review, a question back, an answer cut off before it judged): nothing in it clears the
/// change, and a gate that passed it would pass a review that did not happen.
fn objection(which: &str, c: &mut Critique, text: &str) -> Option<String> {
    if c.agreement || !c.findings.is_empty() || text.trim().is_empty() {
        return None;
    }
    let objects = c.verdict.as_deref().and_then(answer::vocab::stance_of)
        == Some(answer::vocab::Stance::Object);
    let silent = c.verdict.is_none()
        && c.recommendation.is_none()
        && answer::verdict::stated(text).is_none();
    let (title, said) = if objects {
        let verdict = c.verdict.clone().unwrap_or_default();
        (
            format!("The reviewer's verdict is {verdict}, with no finding named"),
            format!("objects to the change ({verdict}) but names no finding"),
        )
    } else if silent {
        (
            "The reviewer gave no verdict and named no finding".to_string(),
            "gives no verdict and names no finding".to_string(),
        )
    } else {
        return None;
    };
    let mut f = Finding::new(Severity::Unclassified, &title);
    f.body = crate::answer::prepare::prepare(text).trim().to_string();
    f.source = Source::Verdict;
    c.findings.push(f);
    Some(format!(
        "{which} review's answer {said}; its answer is kept as one finding of unknown severity"
    ))
}

/// The round's note on a repair turn: why, by whom, and every count of the two-way check.
fn repair_note(which: &str, r: &Repair, c: &Critique) -> String {
    let who = if r.by_reviewer {
        format!("the reviewer {} restated its own answer", r.by)
    } else {
        format!("{} restated it", r.by)
    };
    if r.outcome != "used" {
        return format!(
            "{which} review's answer was sent back ({}); {who}, but the restatement was not used \
             ({}); the answer stands as read: {} finding(s){}",
            r.because.join("; "),
            r.outcome,
            c.findings.len(),
            unknown(c)
        );
    }
    let mut s = format!(
        "{which} review's answer was sent back ({}); {who}: {} finding(s) restated",
        r.because.join("; "),
        r.restated
    );
    if !r.invented.is_empty() {
        s.push_str(&format!(
            "; {} not in the answer and dropped ({})",
            r.invented.len(),
            r.invented.join("; ")
        ));
    }
    if r.uncovered > 0 {
        s.push_str(&format!(
            "; {} part(s) of the answer that raise something no restated finding covers, kept as \
             read",
            r.uncovered
        ));
    }
    if r.levelled > 0 {
        s.push_str(&format!(
            "; the reviewer gave {} finding(s) a level only now",
            r.levelled
        ));
    }
    s.push_str(&format!(
        "; {} finding(s) stand{}",
        c.findings.len(),
        unknown(c)
    ));
    s
}

fn unknown(c: &Critique) -> String {
    match c
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Unclassified)
        .count()
    {
        0 => String::new(),
        k => format!(", {k} of them unclassified (severity unknown)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A part that points at a line, beside findings that do not cover it, sends the answer
    /// back to its reviewer; the same answer without it does not.
    #[test]
    fn a_placed_part_no_finding_covers_asks_for_a_restatement() {
        let roots = Roots::default();
        let covered = "- **[P2]** `src/retry.rs:19`: the retry counter never resets after a \
                       success.\n\nVerdict: request changes\n";
        let r = answer::read(covered, None, Protocol::Cr, &roots);
        assert!(repair_due(&r, covered, &roots).is_empty());
        let missed = format!(
            "{covered}\n---\n\n### Stale closure drops queued uploads\n\n<!-- **Medium Severity** \
             -->\n\nThe callback at `web/src/queue.ts:33` captures the first render's array, so \
             later uploads are silently dropped.\n"
        );
        // As if the reader had dropped it: the reading of the answer without it.
        let why = repair_due(&r, &missed, &roots);
        assert!(
            why.iter().any(|w| w.contains("no finding covers")),
            "{why:?}"
        );
    }
}
