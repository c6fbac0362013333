//! Reviewing the launching agent's last answer: `--last-message`, and what an agent's
//! `git debate` with nothing to review falls back to.
//!
//! The seed's order for finding what to debate is explicit content, then the working tree's
//! changes, then the agent's last message: fenced code makes it a code review, proposal sections
//! (Design, Proposal, Approach, Decision) a proposal review, and short plain text is reviewed
//! whole. Long plain text is a weak guess, so the automatic fallback does not spend a review on
//! it (it says how to ask for one); `--last-message` reviews it anyway. Where the message came
//! from is always said: on stderr, in the dry-run summary and in the session's metadata.

use std::path::Path;

use anyhow::Result;

use crate::agents::routing::{self, World};
use crate::change::{markdown, Artifact, TextInput};
use crate::error::UsageError;
use crate::settings::{Settings, TargetSetting};
use crate::transcript::{self, Lookup};

/// Plain text shorter than this (in characters) is reviewed whole without asking.
pub const SHORT_CHARS: usize = 2000;

/// Where a reviewed message came from, for metadata and the summary.
#[derive(Debug, Clone)]
pub struct Origin {
    pub agent: String,
    pub file: String,
    pub message: String,
    /// `asked` (`--last-message`) or `nothing-to-review` (the automatic fallback).
    pub why: &'static str,
    /// Plain text without code or proposal markers.
    pub plain: bool,
}

/// The agent that launched us, and whether we run inside its turn.
fn launcher(settings: &Settings) -> Option<(String, bool)> {
    World::with(settings, |w| {
        routing::detect_launcher(w).map(|(name, _)| {
            let inside = routing::inside(w, &name);
            (name, inside)
        })
    })
}

/// The launching agent's last message, or why not.
fn read(settings: &Settings, cwd: &Path, root: Option<&Path>) -> Result<TextAndOrigin, String> {
    let names: Vec<&str> = transcript::AGENTS.iter().map(|a| a.name).collect();
    let Some((name, inside)) = launcher(settings) else {
        return Err(format!(
            "no launching agent detected; run it from an agent session, or name the agent with \
             GIT_DEBATE_LAUNCHER=<{}>",
            names.join("|")
        ));
    };
    let Some(agent) = transcript::agent(&name) else {
        return Err(format!(
            "{name}'s transcripts cannot be read (only {}'s)",
            names.join(", ")
        ));
    };
    let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let m = transcript::find(
        agent,
        &Lookup {
            var: &var,
            project: transcript::project_dirs(cwd, root),
            turn_open: inside,
        },
    )?;
    let plain = markdown::detect(&m.text, None).plain;
    Ok((
        TextInput {
            text: m.text,
            origin: format!("{}'s last message", m.agent),
            path_hint: None,
            lossy: false,
        },
        Origin {
            agent: m.agent.to_string(),
            file: m.file,
            message: m.id,
            why: "asked",
            plain,
        },
    ))
}

type TextAndOrigin = (TextInput, Origin);

/// `--last-message`: the message, or a usage error saying where it looked and what to do.
pub fn asked(settings: &Settings, cwd: &Path, root: Option<&Path>) -> Result<TextAndOrigin> {
    let (input, origin) = read(settings, cwd, root).map_err(|e| {
        UsageError::new(format!(
            "--last-message: {e}; or pass the content to review (an argument, --artifact-file \
             PATH, or - for stdin)"
        ))
    })?;
    crate::errln!("{}", said(&origin, &input, "as asked"));
    Ok((input, origin))
}

/// Nothing changed: the launching agent's last message when there is one worth reviewing,
/// else `None` with a note on stderr when an agent launched us (so the user knows why not).
pub fn instead(settings: &Settings, cwd: &Path, root: Option<&Path>) -> Option<TextAndOrigin> {
    launcher(settings)?;
    match read(settings, cwd, root) {
        Err(e) => {
            crate::errln!("note: the launching agent's last message was not reviewed: {e}");
            None
        }
        Ok((input, origin)) if origin.plain && chars(&input.text) >= SHORT_CHARS => {
            crate::errln!(
                "note: {} is {} characters of plain text with no code or proposal sections; \
                 review it anyway with --last-message",
                input.origin,
                chars(&input.text)
            );
            None
        }
        Ok((input, mut origin)) => {
            origin.why = "nothing-to-review";
            crate::errln!("{}", said(&origin, &input, "no uncommitted changes"));
            Some((input, origin))
        }
    }
}

/// The message's length as the seed counts it: characters, surrounding blank space aside.
pub fn chars(text: &str) -> usize {
    text.trim().chars().count()
}

fn said(o: &Origin, input: &TextInput, why: &str) -> String {
    let line = format!(
        "reviewing {} from {} (message {}): {why}",
        input.origin, o.file, o.message
    );
    crate::redact::redact(&line, None).text
}

/// The seed's rule, recorded where the target is explained: plain text is the whole message.
pub fn note_target(artifact: &mut Artifact, origin: &Origin, settings: &Settings, chars: usize) {
    if settings.target != TargetSetting::Auto || !origin.plain {
        return;
    }
    artifact.target_reasons.push(if chars < SHORT_CHARS {
        format!("short plain text ({chars} characters): the whole message")
    } else {
        format!("plain text ({chars} characters): the whole message, as asked")
    });
}
