//! `git debate hook install|uninstall|run`: a second opinion on the staged change before each
//! commit (see [`crate::review::hook`] for what the hook does and never does).

use anyhow::Result;

use crate::cli::{HookAction, HookArgs, ReviewArgs};
use crate::error::Outcome;
use crate::review::hook::{self, Gate};
use crate::review::setup::{self, What};
use crate::settings::{Layers, Settings};
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
            let review = review(repo, &pending.review_args());
            pending.after(review)
        }
    }
}

/// The staged change's review, reported as `git debate` reports one, in the repository the
/// hook opened (one handle, and its object cache, serve the whole review).
fn review(repo: git2::Repository, args: &ReviewArgs) -> Result<Outcome> {
    let settings = Settings::resolve(Layers::load(Some(&repo))?, args)?;
    for w in &settings.warnings {
        crate::errln!("{w}");
    }
    if let Some(p) = &settings.output {
        crate::report::output::check(p)?;
    }
    let ran = setup::run(Some(repo), &What::of(args), &settings, &Transcripts)?;
    crate::report::conclude::ran(ran, &settings)
}
