//! `git debate [OPTIONS] [CONTENT]`: resolve what to review, build and store the artifact, and
//! run the critique loop. `--dry-run` stops before any model call.

use anyhow::Result;

use crate::cli::ReviewArgs;
use crate::error::Outcome;
use crate::review::setup::{self, What};
use crate::settings::{Overrides, Settings};
use crate::transcript::last_message::Transcripts;

pub fn run(args: &ReviewArgs) -> Result<Outcome> {
    let repo = crate::git::repo::discover()?;
    let settings = Settings::for_run(
        repo.as_ref().map(crate::git::Repo::dirs),
        &Overrides::from(args),
    )?;
    crate::redact::use_rules_file(settings.redact_rules.as_deref())?;
    let ran = setup::run(repo, &what(args), &settings, &Transcripts)?;
    crate::report::conclude::ran(ran, &settings)
}

/// What the command line says to review, beside the settings.
fn what(args: &ReviewArgs) -> What {
    What {
        content: args.content.clone(),
        artifact_file: args.artifact_file.clone(),
        paths: args.paths.clone(),
        last_message: args.last_message,
        since: args.since.clone(),
        hook_cache: None,
    }
}
