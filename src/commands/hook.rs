//! `git debate hook install|uninstall|run`: a second opinion on the staged change before each
//! commit (see [`crate::review::hook`] for what the hook does and never does).

use anyhow::Result;

use crate::cli::{HookAction, HookArgs};
use crate::error::Outcome;
use crate::review::hook::{self, Gate, Pending};
use crate::review::setup;
use crate::settings::Settings;
use crate::transcript::last_message::Transcripts;

pub fn run(args: &HookArgs) -> Result<Outcome> {
    match &args.action {
        HookAction::Install(a) => hook::install(&a.run, a.force),
        HookAction::Uninstall => hook::uninstall(),
        HookAction::Run(a) => {
            let (repo, pending) = match hook::before(a)? {
                Gate::Done(outcome) => return Ok(outcome),
                Gate::Review(repo, pending) => (repo, pending),
            };
            let review = review(repo, &pending);
            pending.after(review)
        }
    }
}

/// The staged change's review, reported as `git debate` reports one, in the repository the
/// hook opened (one handle, and its object cache, serve the whole review).
fn review(repo: crate::git::Repo, pending: &Pending) -> Result<Outcome> {
    let settings = Settings::for_run(Some(repo.dirs()), &pending.overrides())?;
    crate::redact::use_rules_file(settings.redact_rules.as_deref())?;
    let ran = setup::run(Some(repo), &pending.what(), &settings, &Transcripts)?;
    crate::report::conclude::ran(ran, &settings)
}
