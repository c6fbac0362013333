//! Reviewing the launching agent's last answer: `--last-message`, and what an agent's
//! `git debate` with nothing to review falls back to.
//!
//! The order for finding what to debate is explicit content, then the working tree's changes,
//! then the agent's last message: fenced code makes it a code review, proposal sections (Design,
//! Proposal, Approach, Decision) a proposal review, and short plain text is reviewed whole. Long
//! plain text is a weak guess, so the automatic fallback does not spend a review on it (it says
//! how to ask for one); `--last-message` reviews it anyway. Where the message came from is always
//! said: on stderr, in the dry-run summary and in the session's metadata.
//!
//! Reading an agent's transcript is output-side work (see [`crate::transcript`]), so the review
//! is handed a [`LastMessage`] reader rather than reaching up for one; the rules that decide what
//! the message becomes are here.

use std::path::Path;

use anyhow::Result;

use crate::change::{Artifact, TextInput};
use crate::choices::TargetSetting;
use crate::settings::Settings;

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

/// A message to review, and where it came from.
pub type Found = (TextInput, Origin);

/// Reads the launching agent's last message.
pub trait LastMessage {
    /// `--last-message`: the message, or a usage error saying where it looked and what to do.
    fn asked(&self, settings: &Settings, cwd: &Path, root: Option<&Path>) -> Result<Found>;

    /// Nothing changed: the message when there is one worth reviewing, else `None` with a note
    /// on stderr when an agent launched us (so the user knows why not).
    fn instead(&self, settings: &Settings, cwd: &Path, root: Option<&Path>) -> Option<Found>;
}

/// The message's length as it is counted for [`SHORT_CHARS`]: characters, surrounding blank
/// space aside.
pub fn chars(text: &str) -> usize {
    text.trim().chars().count()
}

/// The rule, recorded where the target is explained: plain text is the whole message.
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
