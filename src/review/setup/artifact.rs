//! The artifact a review sends: built from text or from a change, cut to the prompt budget, and
//! for a change bigger than one prompt, the chunking that reviews all of it that fits.

use crate::change::{self, Artifact};
use crate::choices;
use crate::review::setup::last_message::{self, Origin};
use crate::review::setup::Source;
use crate::review::Chunking;
use crate::settings::Settings;

/// The artifact of `source`, and how it is chunked (`None`: one prompt).
pub fn build(
    source: &Source,
    from_message: Option<&Origin>,
    settings: &Settings,
) -> (Artifact, Option<Chunking>) {
    let artifact = match source {
        Source::Text(input) => {
            let mut a = change::from_text(input, settings.target, settings.max_artifact_bytes);
            if let Some(origin) = from_message {
                last_message::note_target(
                    &mut a,
                    origin,
                    settings,
                    last_message::chars(&input.text),
                );
            }
            a
        }
        Source::Change { scope, change } => change::from_change(
            change,
            &scope.to_string(),
            settings.target,
            settings.max_artifact_bytes,
        ),
    };
    // A change bigger than one prompt is reviewed in chunks at once: the artifact then holds all
    // of it that fits in the chunks.
    match source {
        Source::Change { scope, change } if wants_chunks(settings, &artifact) => (
            change::from_change(
                change,
                &scope.to_string(),
                settings.target,
                settings
                    .max_artifact_bytes
                    .saturating_mul(settings.max_chunks as u64),
            ),
            Some(Chunking {
                budget: settings.max_artifact_bytes as usize,
                max_chunks: settings.max_chunks,
            }),
        ),
        _ => (artifact, None),
    }
}

/// Whether a change is reviewed in chunks: `--chunk`, or (by default) when it does not fit.
pub fn wants_chunks(settings: &Settings, a: &Artifact) -> bool {
    a.target == change::Target::Code
        && match settings.chunk {
            choices::Chunking::Always => true,
            choices::Chunking::Never => false,
            choices::Chunking::Auto => a.truncation.cut_anything(),
        }
}
