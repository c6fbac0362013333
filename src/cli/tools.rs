//! The subcommands that help set up and check `git debate` itself: backends, ask, schema,
//! completions and install-man.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::groups::{EffortArgs, IdleArgs, SidesArgs, TimeoutArgs};
use super::sessions::ListFormat;

#[derive(Debug, Args)]
#[command(
    mut_arg("author", |a| a.help("Route as if --author were given")),
    mut_arg("reviewer", |a| a.help("Route as if --reviewer were given")),
    mut_arg("effort", |a| a.help("Show models as chosen for this effort"))
)]
pub struct BackendsArgs {
    #[command(flatten)]
    pub sides: SidesArgs,
    #[command(flatten)]
    pub reasoning: EffortArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
}

#[derive(Debug, Args)]
#[command(
    mut_arg("effort", |a| a.help("Reasoning effort, mapped to the provider's model and settings")),
    mut_arg("backend_timeout_seconds", |a| a.help("Timeout of the call, in seconds")),
    mut_arg("backend_idle_seconds", |a| a.help(
        "Kill the call when it prints nothing for this many seconds"
    ))
)]
pub struct AskArgs {
    /// The backend: claude, codex, gemini, qwen, copilot, opencode, kiro, exec:<command>,
    /// openai:<model> or acp:<command>.
    #[arg(long, value_name = "BACKEND")]
    pub backend: String,
    /// The model to ask for (default: config, the effort table, or the CLI's own default).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    #[command(flatten)]
    pub reasoning: EffortArgs,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
    #[command(flatten)]
    pub idle: IdleArgs,
    /// text prints the answer (usage on stderr); json prints answer, usage and timing as one object.
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
}

#[derive(Debug, Args)]
pub struct ApplyArgs {
    /// Session id (or a unique prefix of one), or `last` for the newest.
    #[arg(value_name = "ID", default_value = "last")]
    pub id: String,
    /// Only say whether the final version applies exactly, as `git apply --check` would, and
    /// show what it changes; change nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Stage the files it changed, as they are after applying.
    #[arg(long)]
    pub index: bool,
    /// Merge into files that have uncommitted changes as well (a three-way merge there may
    /// leave conflict markers in your edits).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub store: crate::cli::StoreArgs,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The protocol: cr (code review findings), peer-review (a proposal's concerns) or judge
    /// (rulings on findings); or report: the report `--format json` prints (and `summary.json`
    /// holds) for a review.
    #[arg(value_enum, default_value = "cr")]
    pub protocol: ProtocolArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    Cr,
    PeerReview,
    Judge,
    Report,
}

#[derive(Debug, Args)]
pub struct InstallManArgs {
    /// A man folder to install into instead (the page goes to DIR/man1/git-debate.1).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}
