//! A reviewer's answer read inside the loop: the reading pipeline of [`crate::answer`]
//! plus its one model call, the normaliser, and the location check against the reviewed change.
//!
//! The normaliser is asked only when the reader found no shape at all in a non-empty answer. It is
//! the author by default (`debate.normalizer` picks the reviewer or another backend); its
//! restatement is used only when grounded, else the raw answer is kept as unclassified blocks.
//! Every way this can go is said in the round's notes, so a report never hides how it read.

use std::time::Instant;

use anyhow::Result;

use crate::agents::Answer;
use crate::answer::{self, normalise, Protocol, Roots};
use crate::change::markdown::Target;
use crate::findings::Critique;
use crate::prompts::Template;
use crate::review::record::Call;
use crate::review::Review;

/// The protocol a review prompt was written under.
pub fn protocol_of(segment: Option<&str>, target: Target) -> Protocol {
    match (segment, target) {
        (Some("proposal"), _) | (None, Target::Proposal) => Protocol::PeerReview,
        _ => Protocol::Cr,
    }
}

impl Review<'_> {
    pub(super) fn roots(&self) -> Roots {
        Roots::new(Some(&self.workspace))
    }

    /// Reads one review answer, calling the normaliser when it has no recognisable shape.
    /// Returns the critique, the normaliser's call if one was made, and notes for the round.
    pub(super) fn read_answer(
        &self,
        n: u32,
        segment: Option<&'static str>,
        answer: &Answer,
        started: Instant,
    ) -> Result<(Critique, Option<Call>, Vec<String>)> {
        let protocol = protocol_of(segment, self.artifact.target);
        let roots = self.roots();
        let which = segment.map_or("the".to_string(), |s| format!("the {s}"));
        let mut notes = Vec::new();
        if let (true, Some(note)) = (answer.output.fell_back, &answer.output.note) {
            notes.push(format!("{which} review: {note}"));
        }
        let reading = answer::read(&answer.text, answer.structured.as_ref(), protocol, &roots);
        if reading.structured || answer.text.trim().is_empty() {
            return Ok((reading.critique, None, notes));
        }
        let normalizer = self.normalizer.as_deref().unwrap_or(self.author.as_ref());
        let schema = serde_json::to_string_pretty(&protocol.schema_for_cli())?;
        let prompt = Template::Normalize.render(
            self.templates.as_deref(),
            &[("answer", &answer.text), ("schema", &schema)],
        )?;
        let req = self.request(normalizer, false, &prompt, started, Some(protocol));
        let t = Instant::now();
        let r = crate::ui::progress::with_progress(
            normalizer.name(),
            (n, self.settings.max_rounds),
            "normalise",
            || normalizer.ask(&req),
        );
        let call = Call::of(
            "normalize",
            normalizer.name(),
            segment,
            &prompt,
            &r,
            t.elapsed().as_millis() as u64,
        );
        let why = match r {
            Ok(a) => {
                match normalise::grounded(
                    &answer.text,
                    &a.text,
                    a.structured.as_ref(),
                    protocol,
                    &roots,
                ) {
                    Ok(c) => {
                        notes.push(format!(
                            "{which} review's answer had no recognisable structure; {} restated \
                             it ({} finding(s), each grounded in the answer)",
                            normalizer.name(),
                            c.findings.len()
                        ));
                        return Ok((c, Some(call), notes));
                    }
                    Err(why) => format!("its restatement was not used: {why}"),
                }
            }
            Err(e) => format!("the normaliser failed: {e}"),
        };
        let raw = normalise::raw_blocks(&answer.text, &roots);
        notes.push(format!(
            "{which} review's answer had no recognisable structure and {why}; it is kept as {} \
             unclassified finding(s) of unknown severity",
            raw.findings.len()
        ));
        Ok((raw, Some(call), notes))
    }
}
