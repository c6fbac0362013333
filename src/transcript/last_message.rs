//! The launching agent's last message, found for a review: which agent launched us, its
//! transcript of this project, and what to say on stderr about the message taken (or not).
//! The rules for what the message becomes live with the review
//! ([`crate::review::setup::last_message`]); this is the reader it is handed.

use std::path::Path;

use anyhow::Result;

use crate::agents::routing::{self, World};
use crate::change::{markdown, TextInput};
use crate::error::UsageError;
use crate::review::setup::last_message::{chars, Found, LastMessage, Origin, SHORT_CHARS};
use crate::settings::Settings;
use crate::transcript::{self, Lookup};

/// Reads the message from the launching agent's transcript.
pub struct Transcripts;

impl LastMessage for Transcripts {
    fn asked(&self, settings: &Settings, cwd: &Path, root: Option<&Path>) -> Result<Found> {
        let (input, origin) = read(settings, cwd, root).map_err(|e| {
            UsageError::new(format!(
                "--last-message: {e}; or pass the content to review (an argument, \
                 --artifact-file PATH, or - for stdin)"
            ))
        })?;
        crate::errln!("{}", said(&origin, &input, "as asked"));
        Ok((input, origin))
    }

    fn instead(&self, settings: &Settings, cwd: &Path, root: Option<&Path>) -> Option<Found> {
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
fn read(settings: &Settings, cwd: &Path, root: Option<&Path>) -> Result<Found, String> {
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

fn said(o: &Origin, input: &TextInput, why: &str) -> String {
    let line = format!(
        "reviewing {} from {} (message {}): {why}",
        input.origin, o.file, o.message
    );
    crate::redact::redact(&line, None).text
}
