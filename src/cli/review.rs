//! The review's arguments (the top level's), and those of the two subcommands that run a review:
//! `resume` and the pre-commit `hook`.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::groups::{
    BudgetArgs, EffortArgs, GateArgs, IdleArgs, ModeArgs, ReportArgs, RoundsArgs, SidesArgs,
    StoreArgs, TimeoutArgs,
};
use crate::choices::{Intensity, TargetSetting};

/// What to review and how. Every option also has a `debate.<key>` git config key (see
/// CONFIGURATION); a flag overrides config for that run.
#[derive(Debug, Args, Default, Clone)]
pub struct ReviewArgs {
    /// Explicit content to review (wins over --scope). `-` reads it from standard input.
    #[arg(value_name = "CONTENT")]
    pub content: Option<String>,

    /// After `--`: review only the files these pathspecs match, as `git diff -- <paths>`
    /// (relative to the current directory; `*` also matches `/`).
    #[arg(last = true, value_name = "PATHSPEC")]
    pub paths: Vec<String>,

    /// Read the content to review from a file (`-` for standard input). Wins over --scope.
    #[arg(long, value_name = "PATH", conflicts_with = "content")]
    pub artifact_file: Option<PathBuf>,

    /// Review the launching agent's last answer, read from its own session transcript (claude,
    /// codex, gemini, qwen, copilot, opencode). Also what happens, said on stderr, when an agent
    /// runs `git debate` with nothing to review; GIT_DEBATE_LAUNCHER=<agent> names the agent.
    #[arg(long, conflicts_with_all = ["content", "artifact_file", "scope"])]
    pub last_message: bool,

    /// What kind of review: code (cr protocol), proposal (peer review; `doc` is the same), mixed
    /// (both), or auto.
    #[arg(long, value_enum)]
    pub target: Option<TargetSetting>,

    /// Which change to review: uncommitted | staged | commit:<rev> | base:<branch> |
    /// range:<a>..<b> | range:<a>...<b> | file:<path>.
    ///
    /// Without it: your uncommitted changes (staged, unstaged and untracked files), if any.
    #[arg(long, value_name = "SCOPE")]
    pub scope: Option<String>,

    /// Review only what changed since an earlier review of this branch, and carry the findings
    /// it left open: `last` (the newest finished review of the same scope), a session id, or a
    /// revision (the commit reviewed before). For base: and range: scopes.
    ///
    /// The change's files are compared between the head reviewed then and HEAD (trees, not
    /// commits, so a rebase stays incremental and what it brought in from the base is left out);
    /// the reviewer also says whether each carried finding is fixed, still open or no longer
    /// applicable. A finding whose code is gone is outdated. History rewritten beyond a rebase
    /// gets a full review, and the report says why.
    #[arg(long, value_name = "last|SESSION|REV")]
    pub since: Option<String>,

    /// Review base: scopes incrementally by default (as --since last).
    #[arg(long, overrides_with = "no_incremental")]
    pub incremental: bool,
    /// Review the whole change even where debate.incremental is set.
    #[arg(long)]
    pub no_incremental: bool,

    /// Preset for rounds, budget and timeout: quick (1 round, 10 min, 180 s), standard (3, 20,
    /// 600), extensive (5, 40, 900). An explicit flag overrides only its own value.
    #[arg(long, value_enum)]
    pub intensity: Option<Intensity>,

    #[command(flatten)]
    pub rounds: RoundsArgs,

    #[command(flatten)]
    pub decision: ModeArgs,

    #[command(flatten)]
    pub budget: BudgetArgs,

    /// Stop before a round once this many tokens were used, summed over all backends (estimated at
    /// 4 characters per token where a CLI reports none).
    #[arg(long, value_name = "TOKENS")]
    pub budget_tokens: Option<u64>,

    /// Stop before a round once the cost the CLIs report reaches this many US dollars.
    #[arg(long, value_name = "USD")]
    pub budget_usd: Option<f64>,

    #[command(flatten)]
    pub timeout: TimeoutArgs,

    #[command(flatten)]
    pub idle: IdleArgs,

    /// On decision B, do not ask the author model to write the reviewer's version.
    #[arg(long, overrides_with = "no_skip_materialize_opposite")]
    pub skip_materialize_opposite: bool,
    /// Undo --skip-materialize-opposite (e.g. one set in config).
    #[arg(long, hide_short_help = true)]
    pub no_skip_materialize_opposite: bool,

    #[command(flatten)]
    pub store: StoreArgs,

    #[command(flatten)]
    pub sides: SidesArgs,

    /// Who restates an answer that cannot be read whole (`reviewer`, `author` or a backend
    /// name); the restatement is checked against the answer both ways [default: reviewer].
    #[arg(long, value_name = "BACKEND")]
    pub normalizer: Option<String>,

    /// A backend that reviews instead when the reviewer never answers (e.g. a local
    /// openai:<model>); given more than once, a chain tried in order. The report says who
    /// answered and why the others did not.
    #[arg(long, value_name = "BACKEND")]
    pub fallback_reviewer: Vec<String>,

    /// Several reviewers at once, one verdict: the N best installed families other than the
    /// author's, in routing order (after those named with --reviewer).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=8))]
    pub reviewers: Option<u32>,

    /// Where the models run: `export` (a redacted copy of the reviewed revision: tracked files
    /// only, no ignored or untracked files, no .git) or `worktree` (the work tree itself)
    /// [default: export].
    #[arg(long, value_name = "WHERE", value_enum)]
    pub reviewer_workspace: Option<crate::choices::Workspace>,

    /// `none` runs the reviewer with no tools at all (the prompt only), where its CLI allows it
    /// [default: default].
    #[arg(long, value_name = "TOOLS", value_enum)]
    pub reviewer_tools: Option<crate::choices::Tools>,

    /// Allow an author and a reviewer of the same model family (normally refused: it would not be
    /// a second opinion).
    #[arg(long, overrides_with = "no_allow_same_family")]
    pub allow_same_family: bool,
    /// Undo --allow-same-family (e.g. one set in config).
    #[arg(long, hide_short_help = true)]
    pub no_allow_same_family: bool,

    #[command(flatten)]
    pub reasoning: EffortArgs,

    /// Model for the author backend.
    #[arg(long, value_name = "MODEL")]
    pub model_author: Option<String>,

    /// Model for the reviewer backend.
    #[arg(long, value_name = "MODEL")]
    pub model_reviewer: Option<String>,

    #[command(flatten)]
    pub report: ReportArgs,

    #[command(flatten)]
    pub gate: GateArgs,

    /// Largest artifact sent to a model, in bytes; what does not fit is listed, never cut silently.
    #[arg(long, value_name = "BYTES")]
    pub max_artifact_bytes: Option<u64>,

    /// Lines of context around each change.
    #[arg(long, value_name = "N")]
    pub context_lines: Option<u32>,

    /// Review the change in chunks at once even when it fits the budget (default: only a change
    /// bigger than --max-artifact-bytes is chunked).
    #[arg(long, overrides_with = "no_chunk")]
    pub chunk: bool,
    /// Never chunk: cut a big change to the budget, listing what was left out.
    #[arg(long)]
    pub no_chunk: bool,

    /// Most model calls in flight at once [default: 3].
    #[arg(long, value_name = "N")]
    pub concurrency: Option<u64>,

    /// Most chunks one change is cut into [default: 16].
    #[arg(long, value_name = "N")]
    pub max_chunks: Option<u64>,

    /// Exit 0 although some files were not evaluated (past --max-chunks, or their chunk failed);
    /// the reports still list them.
    #[arg(long, overrides_with = "no_allow_partial")]
    pub allow_partial: bool,
    /// Undo --allow-partial (e.g. one set in config).
    #[arg(long, hide_short_help = true)]
    pub no_allow_partial: bool,

    /// Leave out the repository's review instructions (AGENTS.md, CLAUDE.md,
    /// .github/copilot-instructions.md, .github/instructions/*.instructions.md, debate.instructions
    /// and `[debate "path:<glob>"]` sections), which are otherwise sent with the change as
    /// untrusted material.
    #[arg(long, overrides_with = "read_instructions")]
    pub no_instructions: bool,
    /// Undo --no-instructions (e.g. one set in config as debate.readInstructions = false).
    #[arg(long, hide_short_help = true)]
    pub read_instructions: bool,

    /// Resolve the scope, build and store the artifact, print what would be reviewed; call no model.
    #[arg(long, overrides_with = "no_dry_run")]
    pub dry_run: bool,
    /// Undo --dry-run (e.g. one set in config).
    #[arg(long, hide_short_help = true)]
    pub no_dry_run: bool,
}

#[derive(Debug, Args)]
#[command(
    mut_arg("max_rounds", |a| a.help(
        "Total rounds the session may have, counting the ones it already has (1..5)"
    )),
    mut_arg("budget_minutes", |a| a.help("Wall-clock budget for this continuation, in minutes")),
    mut_arg("author", |a| a.help(
        "The author backend (default: routed from the current configuration, as for a review)"
    )),
    mut_arg("reviewer", |a| a.help(
        "The reviewer backend (default: routed from the current configuration)"
    ))
)]
pub struct ResumeArgs {
    /// Session id (or a unique prefix of one), or `last` for the newest.
    #[arg(value_name = "ID", default_value = "last")]
    pub id: String,
    #[command(flatten)]
    pub rounds: RoundsArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub timeout: TimeoutArgs,
    #[command(flatten)]
    pub decision: ModeArgs,
    #[command(flatten)]
    pub report: ReportArgs,
    #[command(flatten)]
    pub gate: GateArgs,
    #[command(flatten)]
    pub store: StoreArgs,
    #[command(flatten)]
    pub sides: SidesArgs,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    #[command(subcommand)]
    pub action: HookAction,
}

#[derive(Debug, Subcommand)]
pub enum HookAction {
    /// Install the pre-commit hook (in core.hooksPath if set). An existing hook is kept and
    /// still runs first; installing again is harmless.
    Install(HookInstallArgs),
    /// Remove the hook and put back the one that was there before.
    Uninstall,
    /// What the hook runs: review the staged change, exit 1 to block the commit. Returns at once
    /// when nothing (or only whitespace) is staged, reuses the verdict for a tree it reviewed
    /// before, and lets the commit through with a warning when no model answers (unless
    /// debate.hook.strict is true). GIT_DEBATE_SKIP=1 skips it.
    Run(HookRunArgs),
}

#[derive(Debug, Args)]
pub struct HookInstallArgs {
    #[command(flatten)]
    pub run: HookRunArgs,
    /// Replace a hook kept from an earlier install instead of refusing.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args, Clone)]
#[command(
    mut_arg("fail_on", |a| a.help(
        "Block the commit on unresolved findings at or above this severity [default: p1]"
    )),
    mut_arg("max_rounds", |a| a.help("Critique rounds before the verdict [default: 1]"))
)]
pub struct HookRunArgs {
    #[command(flatten)]
    pub gate: GateArgs,
    #[command(flatten)]
    pub rounds: RoundsArgs,
}
