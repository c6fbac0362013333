//! The command line, read: clap's definition with the manual's sections generated from the
//! settings' key table, and each subcommand's flags as settings [`Overrides`].
//!
//! It sits beside [`crate::cli`] so that the clap types need nothing of the settings and the
//! settings nothing of clap: this is the one place that knows both, and each shared flag group is
//! turned into overrides here once, whichever subcommand flattened it.

use clap::{CommandFactory as _, FromArgMatches as _};

use crate::choices::Chunking;
use crate::cli::{
    AskArgs, BackendsArgs, BudgetArgs, Cli, EffortArgs, GateArgs, IdleArgs, ModeArgs, ReportArgs,
    ReviewArgs, RoundsArgs, SidesArgs, StoreArgs, TimeoutArgs, TopicArgs,
};
use crate::settings::Overrides;

/// The whole command: clap's definition, with CONFIGURATION, FILES, ENVIRONMENT, EXAMPLES and
/// EXIT STATUS after the long help (and so in the man page).
pub fn command() -> clap::Command {
    Cli::command().after_long_help(crate::settings::manual::manual_sections())
}

/// Parses the process's arguments; on an error or `--help`, prints and exits as clap does.
pub fn parse() -> Cli {
    let matches = command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let color = match cli.color {
        crate::choices::ColorWhen::Auto => None,
        crate::choices::ColorWhen::Always => Some(true),
        crate::choices::ColorWhen::Never => Some(false),
    };
    crate::ui::terminal::set_output(cli.quiet, cli.verbose, color);
    cli
}

/// A flag group's share of the overrides: what it sets, and nothing else.
pub trait Fill {
    fn fill(&self, o: &mut Overrides);
}

impl Fill for StoreArgs {
    fn fill(&self, o: &mut Overrides) {
        o.state_dir = self.state_dir.clone();
    }
}

impl Fill for ReportArgs {
    fn fill(&self, o: &mut Overrides) {
        o.format = self.format;
        o.output = self.output.clone();
        o.force_output = self.force;
    }
}

impl Fill for GateArgs {
    fn fill(&self, o: &mut Overrides) {
        o.fail_on = self.fail_on;
        o.trust_judge = either(self.trust_judge, self.no_trust_judge);
        o.consensus = self.consensus;
    }
}

impl Fill for ModeArgs {
    fn fill(&self, o: &mut Overrides) {
        o.mode = self.mode;
    }
}

impl Fill for RoundsArgs {
    fn fill(&self, o: &mut Overrides) {
        o.max_rounds = self.max_rounds;
    }
}

impl Fill for BudgetArgs {
    fn fill(&self, o: &mut Overrides) {
        o.budget_minutes = self.budget_minutes;
    }
}

impl Fill for crate::cli::topic::TopicBudgetArgs {
    fn fill(&self, o: &mut Overrides) {
        // The settings hold whole minutes; a debate's budget reads the flag itself.
        o.budget_minutes = self.budget_minutes.map(|m| m.ceil().max(1.0) as u64);
    }
}

impl Fill for TimeoutArgs {
    fn fill(&self, o: &mut Overrides) {
        o.backend_timeout_seconds = self.backend_timeout_seconds;
    }
}

impl Fill for IdleArgs {
    fn fill(&self, o: &mut Overrides) {
        o.backend_idle_seconds = self.backend_idle_seconds;
    }
}

impl Fill for SidesArgs {
    fn fill(&self, o: &mut Overrides) {
        o.author = self.author.clone();
        // The first `--reviewer` is the reviewer; all of them, given on the command line, are
        // the reviewers (so one `--reviewer` replaces a `debate.reviewers` list from config).
        o.reviewer = self.reviewer.first().cloned();
        o.reviewers = (!self.reviewer.is_empty()).then(|| self.reviewer.join(","));
    }
}

impl Fill for EffortArgs {
    fn fill(&self, o: &mut Overrides) {
        o.effort = self.effort;
    }
}

/// `debate.reviewers` from `--reviewer` (all of them) and `--reviewers N`: the named ones, then as
/// many routed ones as make N.
fn reviewers(named: Option<&str>, count: Option<u32>) -> Option<String> {
    match (named, count) {
        (Some(n), Some(c)) => Some(format!("{n},{c}")),
        (Some(n), None) => Some(n.to_string()),
        (None, Some(c)) => Some(c.to_string()),
        (None, None) => None,
    }
}

/// A `--x`/`--no-x` pair: `None` when neither was given (clap keeps only the last of the two).
fn either(on: bool, off: bool) -> Option<bool> {
    (on || off).then_some(on)
}

/// Overrides made of the given groups' values, the rest unset.
pub fn of(groups: &[&dyn Fill]) -> Overrides {
    let mut o = Overrides::default();
    for g in groups {
        g.fill(&mut o);
    }
    o
}

impl From<&ReviewArgs> for Overrides {
    fn from(a: &ReviewArgs) -> Overrides {
        let o = of(&[
            &a.rounds,
            &a.decision,
            &a.budget,
            &a.timeout,
            &a.idle,
            &a.store,
            &a.sides,
            &a.reasoning,
            &a.report,
            &a.gate,
        ]);
        Overrides {
            target: a.target,
            scope: a.scope.clone(),
            intensity: a.intensity,
            budget_tokens: a.budget_tokens,
            budget_usd: a.budget_usd,
            skip_materialize_opposite: either(
                a.skip_materialize_opposite,
                a.no_skip_materialize_opposite,
            ),
            normalizer: a.normalizer.clone(),
            fallback_reviewer: (!a.fallback_reviewer.is_empty())
                .then(|| a.fallback_reviewer.join(",")),
            reviewers: reviewers(o.reviewers.as_deref(), a.reviewers),
            reviewer_workspace: a.reviewer_workspace,
            reviewer_tools: a.reviewer_tools,
            allow_same_family: either(a.allow_same_family, a.no_allow_same_family),
            allow_partial: either(a.allow_partial, a.no_allow_partial),
            model_author: a.model_author.clone(),
            model_reviewer: a.model_reviewer.clone(),
            max_artifact_bytes: a.max_artifact_bytes,
            context_lines: a.context_lines,
            chunk: (a.chunk || a.no_chunk).then_some(if a.chunk {
                Chunking::Always
            } else {
                Chunking::Never
            }),
            concurrency: a.concurrency,
            max_chunks: a.max_chunks,
            dry_run: either(a.dry_run, a.no_dry_run),
            incremental: either(a.incremental, a.no_incremental),
            read_instructions: either(a.read_instructions, a.no_instructions),
            ..o
        }
    }
}

/// A topic's own settings: its effort, limits, report and store. Who argues is routed from
/// [`sides`].
impl From<&TopicArgs> for Overrides {
    fn from(a: &TopicArgs) -> Overrides {
        of(&[&a.reasoning, &a.timeout, &a.budget, &a.report, &a.store])
    }
}

/// A duel's sides: the proposer and the challenger route as the author and the reviewer do, on
/// top of the topic's own settings. The same family is allowed here because the debate checks
/// it itself, in its own words.
pub fn sides(a: &TopicArgs) -> Overrides {
    Overrides {
        author: a.proposer.clone(),
        reviewer: a.challenger.clone(),
        model_author: a.model_proposer.clone(),
        model_reviewer: a.model_challenger.clone(),
        allow_same_family: Some(true),
        ..Overrides::from(a)
    }
}

impl From<&AskArgs> for Overrides {
    fn from(a: &AskArgs) -> Overrides {
        Overrides {
            model_reviewer: a.model.clone(),
            ..of(&[&a.reasoning, &a.timeout, &a.idle])
        }
    }
}

impl From<&BackendsArgs> for Overrides {
    fn from(a: &BackendsArgs) -> Overrides {
        of(&[&a.sides, &a.reasoning])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choices::{Format, Mode};
    use clap::Parser as _;

    #[test]
    fn review_flags_become_overrides() {
        let cli = Cli::try_parse_from([
            "git-debate",
            "--mode",
            "manual",
            "--no-chunk",
            "--format",
            "json",
            "--no-dry-run",
            "--state-dir",
            "/s",
        ])
        .unwrap();
        let o = Overrides::from(&cli.review);
        assert_eq!(o.mode, Some(Mode::Manual));
        assert_eq!(o.chunk, Some(Chunking::Never));
        assert_eq!(o.format, Some(Format::Json));
        assert_eq!(o.dry_run, Some(false));
        assert_eq!(o.incremental, None);
        assert_eq!(o.state_dir.as_deref(), Some(std::path::Path::new("/s")));
    }

    #[test]
    fn the_manual_sections_follow_the_long_help() {
        let help = command().render_long_help().to_string();
        assert!(help.contains("CONFIGURATION:") && help.contains("EXIT STATUS:"));
    }
}
