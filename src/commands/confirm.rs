//! The one question seed 004 asks before a review: when the target was detected with low
//! confidence ("I detected X as the debate target. Continue?"), or the content is a mixed
//! document ("mixed, or proposal-only?").
//!
//! It is asked only of a person: standard input and standard error on a terminal, not in CI
//! (a hook reviews a git change, which is never in doubt). Anywhere else the detection stands and
//! stderr says so, with the flag that would have chosen. Nothing has been sent to a model when it
//! is asked, so "no" costs nothing.

use std::io::{BufRead, IsTerminal};

use anyhow::Result;

use crate::change::{self, Artifact, Target, TextInput};
use crate::settings::{Settings, TargetSetting};

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
    let person = std::io::stdin().is_terminal()
        && crate::ui::terminal::stderr_is_terminal()
        && !crate::commands::review::in_ci();
    let detected = name(artifact.target);
    if !person {
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
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    for _ in 0..3 {
        crate::ui::terminal::prompt(&question)?;
        let mut line = String::new();
        if lines.read_line(&mut line)? == 0 {
            break;
        }
        let word = line.trim().to_ascii_lowercase();
        if word == "n" || word == "no" {
            return Ok(Answer::Cancel);
        }
        if let Some((_, choice)) = choices.iter().find(|(w, _)| *w == word) {
            return Ok(Answer::Review(Box::new(match choice {
                None => artifact,
                Some(t) => {
                    let mut a = change::from_text(input, *t, settings.max_artifact_bytes);
                    a.target_reasons = vec!["chosen at the prompt".into()];
                    a
                }
            })));
        }
    }
    // No usable answer: the detection stands, said once more.
    crate::errln!("note: reviewing as {detected}");
    Ok(Answer::Review(Box::new(artifact)))
}

fn name(t: Target) -> &'static str {
    match t {
        Target::Code => "code",
        Target::Proposal => "a proposal",
        Target::Mixed => "a mixed document",
    }
}
