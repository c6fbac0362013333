//! Flags that several subcommands take, each defined once and flattened into every subcommand
//! that has it, so a flag means and parses the same wherever it appears.
//!
//! The help text here is the review's; a subcommand where the flag means a little more (the
//! topic's budget, the resume's routing) words it for itself with `mut_arg`, keeping one
//! definition of the flag's name, type and values. Those strings end without a period because
//! clap drops the period of a one-sentence doc comment, and the two must read alike.

use std::path::PathBuf;

use clap::Args;

use crate::choices::{Effort, FailOn, Format, Mode};

/// `--state-dir`: review, topic, resume, sessions and show.
#[derive(Debug, Args, Default, Clone)]
pub struct StoreArgs {
    /// Where sessions are stored (default: <git common dir>/review-loop).
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
}

/// `--format` and `--output` of a report: review, topic and resume.
#[derive(Debug, Args, Default, Clone)]
pub struct ReportArgs {
    /// Output format of the report.
    #[arg(long, value_enum)]
    pub format: Option<Format>,

    /// Write the report to FILE instead of standard output.
    ///
    /// FILE is replaced whole: the report is written beside it and renamed over it. A symbolic
    /// link, FIFO, device or folder at FILE is refused, never replaced or written through.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Let --output replace a file git tracks or the review reads (the file under review, a
    /// file of the reviewed change); without it such a FILE is refused.
    #[arg(long)]
    pub force: bool,
}

/// `--fail-on` and `--trust-judge`: review, resume and the hook.
#[derive(Debug, Args, Default, Clone)]
pub struct GateArgs {
    /// Exit 1 when unresolved findings at or above this severity remain.
    #[arg(long, value_enum, ignore_case = true)]
    pub fail_on: Option<FailOn>,
    /// Let the author's judge decide whether a finding it disputes counts for --fail-on
    /// (normally the reviewer's word decides: a finding counts at its level until the reviewer
    /// withdraws it). Never taken from a committed .gitdebate.
    #[arg(long, overrides_with = "no_trust_judge")]
    pub trust_judge: bool,
    /// Undo --trust-judge (e.g. one set in config).
    #[arg(long, hide_short_help = true)]
    pub no_trust_judge: bool,
    /// With several reviewers, which findings count for --fail-on: any (one reviewer is
    /// enough), majority (more than half of those that answered) or all [default: any].
    #[arg(long, value_enum, ignore_case = true)]
    pub consensus: Option<crate::choices::Consensus>,
}

/// `--mode`: review and resume.
#[derive(Debug, Args, Default, Clone)]
pub struct ModeArgs {
    /// auto takes the judge's recommendation; manual asks you on the terminal.
    #[arg(long, value_enum)]
    pub mode: Option<Mode>,
}

/// `--max-rounds`: review, resume and the hook (a panel's rounds are its own flag).
#[derive(Debug, Args, Default, Clone)]
pub struct RoundsArgs {
    /// Maximum critique rounds (1..5).
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<u32>,
}

/// `--budget-minutes`: review, topic and resume.
#[derive(Debug, Args, Default, Clone)]
pub struct BudgetArgs {
    /// Wall-clock budget for the whole session, in minutes.
    #[arg(long, value_name = "MINUTES")]
    pub budget_minutes: Option<u64>,
}

/// `--backend-timeout-seconds`: every subcommand that calls a model.
#[derive(Debug, Args, Default, Clone)]
pub struct TimeoutArgs {
    /// Timeout for one model call, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub backend_timeout_seconds: Option<u64>,
}

/// `--backend-idle-seconds`: review and ask.
#[derive(Debug, Args, Default, Clone)]
pub struct IdleArgs {
    /// Kill a model call that prints nothing for this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub backend_idle_seconds: Option<u64>,
}

/// `--author` and `--reviewer`: review, resume and backends.
#[derive(Debug, Args, Default, Clone)]
pub struct SidesArgs {
    /// The home model: judge, rebuttals, compromises (a backend name or exec:<command>).
    #[arg(long, value_name = "BACKEND")]
    pub author: Option<String>,

    /// The opposite model that critiques (a backend name or exec:<command>); given more than
    /// once, each reviews the same change at once and one verdict merges their findings.
    #[arg(long, value_name = "BACKEND")]
    pub reviewer: Vec<String>,
}

/// `--effort`: review, topic, backends and ask.
#[derive(Debug, Args, Default, Clone)]
pub struct EffortArgs {
    /// Reasoning effort, mapped to each provider's model and settings.
    #[arg(long, value_enum)]
    pub effort: Option<Effort>,
}
