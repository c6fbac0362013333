//! `git debate topic`: a question debated by a proposer and a challenger, or by a chaired panel.

use clap::Args;

use super::groups::{EffortArgs, ReportArgs, StoreArgs, TimeoutArgs};

/// `--budget-minutes` of a topic: minutes with fractions, as its config keys take.
#[derive(Debug, Args, Default, Clone)]
pub struct TopicBudgetArgs {
    /// Wall-clock budget for the whole debate, verdict included, in minutes, fractions allowed
    /// (0.5 is 30 s) [default: debate.topic.budgetMinutes, else 60; a panel's:
    /// debate.panel.budgetMinutes, else 30]. The verdict's share is kept back.
    #[arg(long, value_name = "MINUTES")]
    pub budget_minutes: Option<f64>,
}

#[derive(Debug, Args)]
#[command(
    mut_arg("format", |a| a.help(
        "Output format (text and markdown print the summary; json everything)"
    )),
    mut_arg("output", |a| a.help("Write the result to FILE instead of standard output")
        .long_help(None::<&str>))
)]
pub struct TopicArgs {
    /// The question, e.g. "should we replace Redis with Postgres LISTEN/NOTIFY here?"
    #[arg(value_name = "TOPIC")]
    pub topic: String,
    /// Who argues for a position (default: the author, as for reviews).
    #[arg(long, value_name = "BACKEND")]
    pub proposer: Option<String>,
    /// Who challenges it (default: a backend of another family).
    #[arg(long, value_name = "BACKEND")]
    pub challenger: Option<String>,
    /// Rounds of proposer and challenger turns (1..5).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub rounds: u32,
    #[command(flatten)]
    pub reasoning: EffortArgs,
    /// Model for the proposer.
    #[arg(long, value_name = "MODEL")]
    pub model_proposer: Option<String>,
    /// Model for the challenger.
    #[arg(long, value_name = "MODEL")]
    pub model_challenger: Option<String>,
    /// Who gives the verdict (and the round summaries) [default: a backend of a third family
    /// when one is installed, else the orchestrating author; the output says which].
    #[arg(long, value_name = "BACKEND")]
    pub judge: Option<String>,
    /// Let the proposer and the challenger be models of the same family (never the same
    /// backend).
    #[arg(long)]
    pub allow_same_family: bool,
    /// A panel debater: NAME=BACKEND[:persona text] (repeat, 2 or more, for a chaired panel
    /// instead of a proposer/challenger duel).
    #[arg(long = "debater", value_name = "NAME=BACKEND[:PERSONA]")]
    pub debaters: Vec<String>,
    /// A chaired panel: a lineup JSON file ([{"name", "backend", "persona", "position",
    /// "incentives"}]), a head count ("3 debaters", "a panel of four") or a list of personas ("a
    /// venture capitalist, a labour economist and an SRE"); bare (`--panel` last, or before
    /// another flag), the chair proposes 3 debaters across the installed families.
    #[arg(long, value_name = "FILE|PHRASE", num_args = 0..=1, default_missing_value = "", conflicts_with = "debaters")]
    pub panel: Option<String>,
    /// Panel: rebuttal rounds before the chair may close [default: debate.panel.minRounds, else 3].
    #[arg(long, value_name = "N")]
    pub min_rounds: Option<u32>,
    /// Panel: rebuttal rounds at most [default: debate.panel.maxRounds, else 8].
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<u32>,
    /// Panel: accept the lineup the chair proposes without asking.
    #[arg(long)]
    pub yes: bool,
    /// Panel: who asks the questions and gives the audience's conclusion (default: debate.panel.audience, else an installed CLI no debater uses).
    #[arg(long, value_name = "BACKEND")]
    pub audience: Option<String>,
    /// Panel: who keeps running notes and writes summary.md and blog-post.md (default: debate.panel.reporter, else an installed CLI no debater uses).
    #[arg(long, value_name = "BACKEND")]
    pub reporter: Option<String>,
    /// Panel: who grades the run after the reporter (default: debate.panel.assessor, else an installed CLI no debater uses).
    #[arg(long, value_name = "BACKEND")]
    pub assessor: Option<String>,
    /// Panel: a model that also judges the sources the tool cannot check, such as URLs (default: debate.panel.verifier, else none).
    #[arg(long, value_name = "BACKEND")]
    pub verifier: Option<String>,
    /// Panel: kept for scripts; blog-post.md is always written.
    #[arg(long)]
    pub blog: bool,
    /// Ground the debate in a change (any review scope); it is shared with both sides.
    #[arg(long, value_name = "SCOPE")]
    pub scope: Option<String>,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
    #[command(flatten)]
    pub budget: TopicBudgetArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub store: StoreArgs,
}
