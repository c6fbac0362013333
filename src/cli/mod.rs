//! Every clap type of `git debate`, in one folder: the top level and its subcommands here, each
//! subcommand's arguments in a file of its own, and the flags several subcommands share in
//! [`groups`], defined once and flattened where they are used.
//!
//! The doc comments here are the manual: `man/git-debate.1` is generated from them (a test fails
//! when the checked-in page is stale), so the wording is written for users, not for maintainers.
//! Nothing here interprets values beyond their syntax, and nothing here knows the settings:
//! [`crate::flags`] adds the manual's sections generated from the key table and turns the flags
//! into settings overrides, so that what was typed and what it means stay apart.

// These doc comments are the `--help` text and the manual: `commit:<rev>` is the notation users
// read there, not HTML.
#![allow(rustdoc::invalid_html_tags)]

pub mod groups;
pub mod review;
pub mod sessions;
pub mod tools;
pub mod topic;
pub mod waivers;

use clap::{Parser, Subcommand};

pub use groups::{
    BudgetArgs, EffortArgs, GateArgs, IdleArgs, ModeArgs, ReportArgs, RoundsArgs, SidesArgs,
    StoreArgs, TimeoutArgs,
};
pub use review::{HookAction, HookArgs, HookRunArgs, ResumeArgs, ReviewArgs};
pub use sessions::{ListFormat, PostArgs, SessionsArgs, ShowArgs, ShowFormat};
pub use tools::{
    ApplyArgs, AskArgs, BackendsArgs, CompletionsArgs, InstallManArgs, ProtocolArg, SchemaArgs,
};
pub use topic::TopicArgs;
pub use waivers::{WaiveArgs, WaiversArgs};

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
    subcommand_precedence_over_arg = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub review: ReviewArgs,

    /// Say less on stderr: warnings, errors and the report only (no notes, hints or progress).
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Say more on stderr: each model call as it starts and ends, also in logs and pipes.
    #[arg(short, long, global = true)]
    pub verbose: bool,

    /// Colour the text report: `auto` (a terminal, unless NO_COLOR is set or TERM=dumb),
    /// `always` or `never`.
    #[arg(long, global = true, value_name = "WHEN", default_value = "auto")]
    pub color: crate::choices::ColorWhen,
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
    /// Post a finished review to its GitHub pull request: one review with a comment on each
    /// finding's lines in the change (its why and fix, and a suggested change when the fix is a
    /// patch of those lines), and one summary comment, updated in place on the next post.
    ///
    /// The token comes from $GITHUB_TOKEN only (in Actions, `github.token` with `pull-requests:
    /// write`), the API from $GITHUB_API_URL (default `https://api.github.com`; GitHub Enterprise
    /// sets it). Posting the same session again adds no second review; the summary comment is
    /// found by a hidden marker and edited.
    Post(PostArgs),
    /// Debate a question between two models of different families, or in a chaired panel of
    /// personas (--panel, --debater), grounded in this repository.
    Topic(Box<TopicArgs>),
    /// Apply a review's final version (its `final.patch`) to the work tree: exactly when it
    /// applies, else a three-way merge as `git apply --3way`, never into uncommitted edits
    /// without --force.
    Apply(ApplyArgs),
    /// Waive a finding: record in `.gitdebate-waivers` (at the top of the work tree; commit it)
    /// that it does not apply here, with a reason, your git identity, the date and an optional
    /// expiry.
    ///
    /// The waiver names the finding by its fingerprint (SARIF's partialFingerprints: the file,
    /// the title and the code around it), so later reviews show the same finding on the same
    /// code as waived, with the reason, and the gate does not count it; a finding whose code
    /// changed is not covered. An expired waiver stops applying, and the report says so.
    Waive(WaiveArgs),
    /// List the waivers of `.gitdebate-waivers` in the work tree, active and expired.
    Waivers(WaiversArgs),
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory as _;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
