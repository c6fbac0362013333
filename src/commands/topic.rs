//! `git debate topic "QUESTION"`: a proposer/challenger debate between models of different
//! families, grounded in the repository (and optionally in a change), judged by a third model;
//! or, with `--debater`/`--panel`, a chaired panel.

use anyhow::Result;

use crate::cli::TopicArgs;
use crate::debate::setup::{self, Ground};
use crate::error::Outcome;
use crate::settings::{Layers, Overrides, Settings};

pub fn run(args: &TopicArgs) -> Result<Outcome> {
    debate(args).map_err(crate::debate::hints::in_topic_words)
}

fn debate(args: &TopicArgs) -> Result<Outcome> {
    setup::check(args)?;
    let repo = crate::git::repo::discover()?;
    let settings = setup::settings(repo.as_ref(), &Overrides::from(args))?;
    let cwd = std::env::current_dir()?;
    crate::git::protect::guard_output(
        repo.as_ref(),
        settings.output.as_deref(),
        settings.force_output,
        &cwd,
        &[],
    )?;
    crate::redact::use_rules_file(settings.redact_rules.as_deref())?;
    let ground = Ground::new(args, repo.as_ref(), &settings)?;
    let ended = if !args.debaters.is_empty() || args.panel.is_some() {
        let panel =
            crate::debate::panel::setup::settings(settings.clone(), args.budget.budget_minutes);
        crate::debate::panel::setup::run(args, ground, &panel)?
    } else {
        // The sides: proposer and challenger route like author and reviewer (the same family
        // is checked by the debate, in its own words). Their warnings were said with the topic's.
        let sides = Settings::resolve(
            Layers::load(repo.as_ref().map(crate::git::Repo::dirs))?,
            &crate::flags::sides(args),
        )?;
        setup::duel(args, ground, &settings, &sides)?
    };
    crate::report::debate::emit(&settings, &ended)
}
