//! `git debate topic "QUESTION"`: a proposer/challenger debate between models of different
//! families, grounded in the repository (and optionally in a change), judged by a third model;
//! or, with `--debater`/`--panel`, a chaired panel.

use anyhow::Result;

use crate::cli::{ReviewArgs, TopicArgs};
use crate::debate::setup::{self, Ground};
use crate::error::Outcome;
use crate::settings::{Layers, Settings};

pub fn run(args: &TopicArgs) -> Result<Outcome> {
    setup::check(args)?;
    let repo = crate::git::repo::discover()?;
    let base_args = ReviewArgs {
        effort: args.effort,
        backend_timeout_seconds: args.backend_timeout_seconds,
        budget_minutes: args.budget_minutes,
        format: args.format,
        output: args.output.clone(),
        state_dir: args.state_dir.clone(),
        ..Default::default()
    };
    let layers = || Layers::load(repo.as_ref());
    let settings = Settings::resolve(layers()?, &base_args)?;
    for w in &settings.warnings {
        crate::errln!("{w}");
    }
    if let Some(p) = &settings.output {
        crate::report::output::check(p)?;
    }
    let ground = Ground::new(args, repo.as_ref(), &settings)?;
    let ended = if !args.debaters.is_empty() || args.panel.is_some() {
        let panel = crate::debate::panel::setup::settings(settings.clone(), args.budget_minutes);
        crate::debate::panel::setup::run(args, ground, &panel)?
    } else {
        // The sides: proposer and challenger route like author and reviewer (the same family
        // is checked by the debate, in its own words).
        let sides = Settings::resolve(
            layers()?,
            &ReviewArgs {
                author: args.proposer.clone(),
                reviewer: args.challenger.clone(),
                model_author: args.model_proposer.clone(),
                model_reviewer: args.model_challenger.clone(),
                allow_same_family: true,
                ..base_args.clone()
            },
        )?;
        setup::duel(args, ground, &settings, &sides)?
    };
    crate::report::debate::emit(&settings, &ended)
}
