//! `git debate [OPTIONS] [CONTENT]`: resolve what to review, build and store the artifact, and
//! run the critique loop. `--dry-run` stops before any model call.

use anyhow::Result;

use crate::cli::ReviewArgs;
use crate::error::Outcome;
use crate::review::setup::{self, What};
use crate::settings::{Layers, Settings};
use crate::transcript::last_message::Transcripts;

pub fn run(args: &ReviewArgs) -> Result<Outcome> {
    let repo = crate::git::repo::discover()?;
    let settings = Settings::resolve(Layers::load(repo.as_ref())?, args)?;
    for w in &settings.warnings {
        crate::errln!("{w}");
    }
    if let Some(p) = &settings.output {
        crate::report::output::check(p)?;
    }
    let ran = setup::run(repo, &What::of(args), &settings, &Transcripts)?;
    crate::report::conclude::ran(ran, &settings)
}
