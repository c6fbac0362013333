//! Every clap type of `git debate`, in one place.
//!
//! The doc comments here are the manual: `man/git-debate.1` is generated from them (a test fails when
//! the checked-in page is stale), so the wording is written for users, not for maintainers.
//! Nothing here interprets values beyond their syntax; `config.rs` merges them with git config and
//! the environment into one `Settings`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Get a second opinion on a change or a design from an AI model of another family.
///
/// Without a subcommand, `git debate` reviews a change: it resolves a scope (your uncommitted work
/// by default, or a commit, a branch, a range, a file) or takes explicit content, builds an artifact
/// from it with secrets redacted, and runs a bounded critique -> judge -> decision loop between the
/// model that wrote it (the author) and a model of another family (the reviewer). Every session is
/// kept under `.git/review-loop/` for audit.
#[derive(Debug, Parser)]
#[command(
    name = "git-debate",
    bin_name = "git debate",
    version,
    args_conflicts_with_subcommands = true,
    subcommand_precedence_over_arg = true,
    after_long_help = crate::settings::manual::manual_sections()
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub review: ReviewArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List stored sessions, newest first, or remove old ones (--prune).
    ///
    /// Every run that makes a session prunes the store after it, to debate.keepSessions (default
    /// 1000) and debate.keepDays (default 90); the pre-commit hook's sessions also to
    /// debate.hook.keepSessions (100) and debate.hook.keepDays (30). A running session is never
    /// removed, nor a hook session whose tree is staged now (its cached verdict stays too).
    /// `--prune --dry-run` shows what would go.
    Sessions(SessionsArgs),
    /// Print a stored session: its artifact and metadata.
    Show(ShowArgs),
    /// Debate a question between two models of different families, or in a chaired panel of
    /// personas (--panel, --debater), grounded in this repository.
    Topic(Box<TopicArgs>),
    /// Continue a stopped, interrupted or failed review from its last complete round.
    Resume(ResumeArgs),
    /// Install, remove or run the pre-commit hook that reviews the staged change.
    Hook(HookArgs),
    /// Show every model backend: installed or not, version, family, how it is run, and which are
    /// chosen as author and reviewer here, and why.
    Backends(BackendsArgs),
    /// Send standard input to one backend and print its answer and usage (tests one adapter).
    Ask(AskArgs),
    /// Print the JSON Schema of a protocol's answer: what the CLIs that enforce one are given
    /// (claude and qwen `--json-schema`, codex `--output-schema`, OpenAI `response_format`), and
    /// what an `exec:` reviewer may print to be read exactly.
    Schema(SchemaArgs),
    /// Print a shell completion script.
    ///
    /// For bash, git's own completion calls `_git_debate` for `git debate <TAB>`; the script printed
    /// for bash defines that function too, so both `git-debate` and `git debate` complete.
    Completions(CompletionsArgs),
    /// Install this manual page where `man` (and so `git debate --help`) finds it: beside the
    /// binary, in `<bin>/../share/man/man1/`, which man-db searches for every folder on PATH.
    InstallMan(InstallManArgs),
}

/// What to review and how. Every option also has a `debate.<key>` git config key (see
/// CONFIGURATION); a flag overrides config for that run.
#[derive(Debug, Args, Default, Clone)]
pub struct ReviewArgs {
    /// Explicit content to review (wins over --scope). `-` reads it from standard input.
    #[arg(value_name = "CONTENT")]
    pub content: Option<String>,

    /// Read the content to review from a file (`-` for standard input). Wins over --scope.
    #[arg(long, value_name = "PATH", conflicts_with = "content")]
    pub artifact_file: Option<PathBuf>,

    /// Review the launching agent's last answer, read from its own session transcript (claude,
    /// codex, gemini, qwen, copilot, opencode). Also what happens, said on stderr, when an agent
    /// runs `git debate` with nothing to review; GIT_DEBATE_LAUNCHER=<agent> names the agent.
    #[arg(long, conflicts_with_all = ["content", "artifact_file", "scope"])]
    pub last_message: bool,

    /// What kind of review: code (cr protocol), proposal (peer review), mixed (both), or auto.
    #[arg(long, value_enum)]
    pub target: Option<TargetArg>,

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
    pub intensity: Option<IntensityArg>,

    /// Maximum critique rounds (1..5).
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<u32>,

    /// auto takes the judge's recommendation; manual asks you on the terminal.
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,

    /// Wall-clock budget for the whole session, in minutes.
    #[arg(long, value_name = "MINUTES")]
    pub budget_minutes: Option<u64>,

    /// Stop before a round once this many tokens were used, summed over all backends (estimated at
    /// 4 characters per token where a CLI reports none).
    #[arg(long, value_name = "TOKENS")]
    pub budget_tokens: Option<u64>,

    /// Stop before a round once the cost the CLIs report reaches this many US dollars.
    #[arg(long, value_name = "USD")]
    pub budget_usd: Option<f64>,

    /// Timeout for one model call, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub backend_timeout_seconds: Option<u64>,

    /// Kill a model call that prints nothing for this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub backend_idle_seconds: Option<u64>,

    /// On decision B, do not ask the author model to write the reviewer's version.
    #[arg(long, overrides_with = "no_skip_materialize_opposite")]
    pub skip_materialize_opposite: bool,
    /// Undo --skip-materialize-opposite (e.g. one set in config).
    #[arg(long, hide_short_help = true)]
    pub no_skip_materialize_opposite: bool,

    /// Where sessions are stored (default: <git common dir>/review-loop).
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,

    /// The home model: judge, rebuttals, compromises (a backend name or exec:<command>).
    #[arg(long, value_name = "BACKEND")]
    pub author: Option<String>,

    /// The opposite model that critiques (a backend name or exec:<command>).
    #[arg(long, value_name = "BACKEND")]
    pub reviewer: Option<String>,

    /// Who restates an answer that cannot be read (`author`, `reviewer` or a backend name)
    /// [default: author].
    #[arg(long, value_name = "BACKEND")]
    pub normalizer: Option<String>,

    /// A backend that reviews instead when the reviewer never answers (e.g. a local
    /// openai:<model>); the report says it did.
    #[arg(long, value_name = "BACKEND")]
    pub fallback_reviewer: Option<String>,

    /// Where the models run: `export` (a redacted copy of the reviewed revision: tracked files
    /// only, no ignored or untracked files, no .git) or `worktree` (the work tree itself)
    /// [default: export].
    #[arg(long, value_name = "WHERE", value_parser = ["export", "worktree"])]
    pub reviewer_workspace: Option<String>,

    /// `none` runs the reviewer with no tools at all (the prompt only), where its CLI allows it
    /// [default: default].
    #[arg(long, value_name = "TOOLS", value_parser = ["default", "none"])]
    pub reviewer_tools: Option<String>,

    /// Allow an author and a reviewer of the same model family (normally refused: it would not be
    /// a second opinion).
    #[arg(long, overrides_with = "no_allow_same_family")]
    pub allow_same_family: bool,
    /// Undo --allow-same-family (e.g. one set in config).
    #[arg(long, hide_short_help = true)]
    pub no_allow_same_family: bool,

    /// Reasoning effort, mapped to each provider's model and settings.
    #[arg(long, value_enum)]
    pub effort: Option<EffortArg>,

    /// Model for the author backend.
    #[arg(long, value_name = "MODEL")]
    pub model_author: Option<String>,

    /// Model for the reviewer backend.
    #[arg(long, value_name = "MODEL")]
    pub model_reviewer: Option<String>,

    /// Output format of the report.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,

    /// Write the report to FILE instead of standard output.
    ///
    /// FILE is replaced whole: the report is written beside it and renamed over it. A symbolic
    /// link, FIFO, device or folder at FILE is refused, never replaced or written through.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Exit 1 when unresolved findings at or above this severity remain.
    #[arg(long, value_enum, ignore_case = true)]
    pub fail_on: Option<FailOnArg>,

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

    /// Resolve the scope, build and store the artifact, print what would be reviewed; call no model.
    #[arg(long, overrides_with = "no_dry_run")]
    pub dry_run: bool,
    /// Undo --dry-run (e.g. one set in config).
    #[arg(long, hide_short_help = true)]
    pub no_dry_run: bool,

    /// Set by the pre-commit hook: its verdict-cache key, recorded in the session so pruning
    /// keeps what the cache still needs. Not a flag.
    #[arg(skip)]
    pub hook_cache: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TargetArg {
    Auto,
    Code,
    Proposal,
    Mixed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IntensityArg {
    Quick,
    Standard,
    Extensive,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Auto,
    Manual,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EffortArg {
    Low,
    Medium,
    High,
    Max,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// For people at a terminal (coloured there).
    Text,
    /// The seed's summary contract; fits a pull-request comment.
    Markdown,
    /// Everything, versioned (`"schema": 1`).
    Json,
    /// SARIF 2.1.0, one result per unresolved finding (code scanning).
    Sarif,
    /// reviewdog's diagnostic format, for `reviewdog -f=rdjson`.
    Rdjson,
    /// GitHub Actions annotations, plus the markdown summary in $GITHUB_STEP_SUMMARY.
    Github,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOnArg {
    P1,
    P2,
    P3,
    Never,
}

#[derive(Debug, Args)]
pub struct SessionsArgs {
    /// Where sessions are stored (default: <git common dir>/review-loop).
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
    /// Remove old sessions: beyond --keep and --older-than if given, else beyond the configured
    /// limits (debate.keepSessions, debate.keepDays and the hook's own).
    #[arg(long)]
    pub prune: bool,
    /// With --prune: keep only the newest N sessions.
    #[arg(long, value_name = "N", requires = "prune")]
    pub keep: Option<usize>,
    /// With --prune: remove sessions older than AGE: 30d, 12h, 2w (a bare number is days).
    #[arg(long, value_name = "AGE", requires = "prune", value_parser = parse_age)]
    pub older_than: Option<u64>,
    /// With --prune: list what would be removed, and remove nothing.
    #[arg(long, requires = "prune")]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Session id (or a unique prefix of one), or `last` for the newest.
    #[arg(value_name = "ID", default_value = "last")]
    pub id: String,
    /// Show one round: its choice, the critique and the judgement.
    #[arg(long, value_name = "N")]
    pub round: Option<u32>,
    /// Where sessions are stored (default: <git common dir>/review-loop).
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// Output format. `markdown`, `sarif`, `rdjson` and `github` re-emit a finished review's
    /// report exactly as the review would have printed it (no model is called), so CI can
    /// upload what a hook or an earlier step produced.
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    pub format: ShowFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Text,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    /// The session's metadata and its summary (or the artifact of a dry run).
    Text,
    /// Everything stored: metadata, artifact and the JSON report.
    Json,
    Markdown,
    Sarif,
    Rdjson,
    Github,
}

#[derive(Debug, Args)]
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
    /// Reasoning effort, mapped to each provider's model and settings.
    #[arg(long, value_enum)]
    pub effort: Option<EffortArg>,
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
    /// Panel: rebuttal rounds before the chair may close.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub min_rounds: u32,
    /// Panel: rebuttal rounds at most.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub max_rounds: u32,
    /// Panel: accept the lineup the chair proposes without asking.
    #[arg(long)]
    pub yes: bool,
    /// Panel: who asks the questions and gives the audience's conclusion (default: debate.panel.audience, else a family other than the chair's).
    #[arg(long, value_name = "BACKEND")]
    pub audience: Option<String>,
    /// Panel: who keeps running notes and writes summary.md and blog-post.md (default: debate.panel.reporter, else a family other than the chair's).
    #[arg(long, value_name = "BACKEND")]
    pub reporter: Option<String>,
    /// Panel: who grades the run after the reporter (default: debate.panel.assessor, else a family other than the chair's).
    #[arg(long, value_name = "BACKEND")]
    pub assessor: Option<String>,
    /// Panel: a model that also judges the sources the tool cannot check, such as URLs (default: debate.panel.verifier, else none).
    #[arg(long, value_name = "BACKEND")]
    pub verifier: Option<String>,
    /// Panel: also write blog-post.md (never for a void debate).
    #[arg(long)]
    pub blog: bool,
    /// Ground the debate in a change (any review scope); it is shared with both sides.
    #[arg(long, value_name = "SCOPE")]
    pub scope: Option<String>,
    /// Timeout for one model call, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub backend_timeout_seconds: Option<u64>,
    /// Wall-clock budget for the whole debate, verdict included, in minutes [default:
    /// debate.topic.budgetMinutes, else 60; a panel's: 30]. The verdict's share is kept back.
    #[arg(long, value_name = "MINUTES")]
    pub budget_minutes: Option<u64>,
    /// Output format (text and markdown print the summary; json everything).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Write the result to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Where sessions are stored (default: <git common dir>/review-loop).
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
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
pub struct HookRunArgs {
    /// Block the commit on unresolved findings at or above this severity [default: p1].
    #[arg(long, value_enum, ignore_case = true)]
    pub fail_on: Option<FailOnArg>,
    /// Critique rounds before the verdict [default: 1].
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<u32>,
}

#[derive(Debug, Args)]
pub struct ResumeArgs {
    /// Session id (or a unique prefix of one), or `last` for the newest.
    #[arg(value_name = "ID", default_value = "last")]
    pub id: String,
    /// Total rounds the session may have, counting the ones it already has (1..5).
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<u32>,
    /// Wall-clock budget for this continuation, in minutes.
    #[arg(long, value_name = "MINUTES")]
    pub budget_minutes: Option<u64>,
    /// Timeout for one model call, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub backend_timeout_seconds: Option<u64>,
    /// auto takes the judge's recommendation; manual asks you on the terminal.
    #[arg(long, value_enum)]
    pub mode: Option<ModeArg>,
    /// Output format of the report.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Write the report to FILE instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Exit 1 when unresolved findings at or above this severity remain.
    #[arg(long, value_enum, ignore_case = true)]
    pub fail_on: Option<FailOnArg>,
    /// Where sessions are stored (default: <git common dir>/review-loop).
    #[arg(long, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// The author backend (default: routed from the current configuration, as for a review).
    #[arg(long, value_name = "BACKEND")]
    pub author: Option<String>,
    /// The reviewer backend (default: routed from the current configuration).
    #[arg(long, value_name = "BACKEND")]
    pub reviewer: Option<String>,
}

#[derive(Debug, Args)]
pub struct BackendsArgs {
    /// Route as if --author were given.
    #[arg(long, value_name = "BACKEND")]
    pub author: Option<String>,
    /// Route as if --reviewer were given.
    #[arg(long, value_name = "BACKEND")]
    pub reviewer: Option<String>,
    /// Show models as chosen for this effort.
    #[arg(long, value_enum)]
    pub effort: Option<EffortArg>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
}

#[derive(Debug, Args)]
pub struct AskArgs {
    /// The backend: claude, codex, gemini, qwen, copilot, opencode, kiro, exec:<command>,
    /// openai:<model> or acp:<command>.
    #[arg(long, value_name = "BACKEND")]
    pub backend: String,
    /// The model to ask for (default: config, the effort table, or the CLI's own default).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,
    /// Reasoning effort, mapped to the provider's model and settings.
    #[arg(long, value_enum)]
    pub effort: Option<EffortArg>,
    /// Timeout of the call, in seconds.
    #[arg(long, value_name = "SECONDS")]
    pub backend_timeout_seconds: Option<u64>,
    /// Kill the call when it prints nothing for this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub backend_idle_seconds: Option<u64>,
    /// text prints the answer (usage on stderr); json prints answer, usage and timing as one object.
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The protocol: cr (code review findings), peer-review (a proposal's concerns) or judge
    /// (rulings on findings).
    #[arg(value_enum, default_value = "cr")]
    pub protocol: ProtocolArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    Cr,
    PeerReview,
    Judge,
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

/// Seconds in a day, the unit of a bare `--older-than` number.
const DAY: u64 = 24 * 3600;

/// `30d`, `12h`, `2w`, or a number of days, as seconds (`--older-than`).
pub fn parse_age(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => (&s[..i], &s[i..]),
        None => (s, "d"),
    };
    let unit = match unit {
        "h" => 3600,
        "d" => DAY,
        "w" => 7 * DAY,
        _ => return Err(format!("{s:?} is not an age: write it as 30d, 12h or 2w")),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .filter(|secs| *secs <= 1000 * 365 * DAY)
        .ok_or_else(|| format!("{s:?} is not an age: write it as 30d, 12h or 2w"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn ages_parse_in_hours_days_and_weeks() {
        assert_eq!(parse_age("12h"), Ok(12 * 3600));
        assert_eq!(parse_age("30d"), Ok(30 * DAY));
        assert_eq!(parse_age("30"), Ok(30 * DAY));
        assert_eq!(parse_age("2w"), Ok(14 * DAY));
        for bad in ["", "d", "3m", "-1d", "1.5d", "99999999999999999999d"] {
            assert!(parse_age(bad).is_err(), "{bad}");
        }
    }
}
