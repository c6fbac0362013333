//! The one question asked before a review: when the target was detected with low confidence ("I
//! detected X as the debate target. Continue?"), or the content is a mixed document ("mixed, or
//! proposal-only?").
//!
//! It is asked only of a person: standard input and standard error on a terminal, not in CI
//! (a hook reviews a git change, which is never in doubt). Anywhere else the detection stands and
//! stderr says so, with the flag that would have chosen. Nothing has been sent to a model when it
//! is asked, so "no" costs nothing.

use anyhow::Result;

use crate::change::{self, Artifact, Target, TextInput};
use crate::choices::TargetSetting;
use crate::settings::Settings;
use crate::ui::ask::{self, Reply};

/// What the user decided.
pub enum Answer {
    /// Review this artifact (the detected one, or rebuilt for the target the user chose).
    Review(Box<Artifact>),
    /// Stop: nothing is reviewed.
    Cancel,
}

/// Asks when there is something to ask and someone to ask; returns the artifact to review.
pub fn target(artifact: Artifact, input: &TextInput, settings: &Settings) -> Result<Answer> {
    let doubtful = artifact.confidence == "low";
    let mixed = artifact.target == Target::Mixed;
    if settings.target != TargetSetting::Auto || settings.dry_run || !(doubtful || mixed) {
        return Ok(Answer::Review(Box::new(artifact)));
    }
    let detected = name(artifact.target);
    if !ask::person_present() {
        if doubtful {
            crate::errln!(
                "note: reviewing as {detected} (detected with low confidence: {}); pass --target \
                 code|proposal|mixed to choose",
                artifact.target_reasons.join("; ")
            );
        }
        return Ok(Answer::Review(Box::new(artifact)));
    }
    let (question, choices): (String, &[(&str, Option<TargetSetting>)]) = if doubtful {
        (
            format!(
                "I detected {detected} as the debate target ({}). Continue? \
                 [Y/n/code/proposal/mixed] ",
                artifact.target_reasons.join("; ")
            ),
            &[
                ("", None),
                ("y", None),
                ("yes", None),
                ("code", Some(TargetSetting::Code)),
                ("proposal", Some(TargetSetting::Proposal)),
                ("mixed", Some(TargetSetting::Mixed)),
            ],
        )
    } else {
        (
            "This is a mixed document: code and a proposal. Review it as mixed (both protocols), \
             or proposal-only? [M/p/n] "
                .to_string(),
            &[
                ("", None),
                ("m", None),
                ("mixed", None),
                ("p", Some(TargetSetting::Proposal)),
                ("proposal", Some(TargetSetting::Proposal)),
            ],
        )
    };
    Ok(match ask::choose(&question, choices)? {
        Reply::No => Answer::Cancel,
        Reply::Chose(None) => Answer::Review(Box::new(artifact)),
        Reply::Chose(Some(t)) => {
            let mut a = change::from_text(input, t, settings.max_artifact_bytes);
            a.target_reasons = vec!["chosen at the prompt".into()];
            Answer::Review(Box::new(a))
        }
        Reply::Unanswered => {
            // No usable answer: the detection stands, said once more.
            crate::errln!("note: reviewing as {detected}");
            Answer::Review(Box::new(artifact))
        }
    })
}

fn name(t: Target) -> &'static str {
    match t {
        Target::Code => "code",
        Target::Proposal => "a proposal",
        Target::Mixed => "a mixed document",
    }
}
