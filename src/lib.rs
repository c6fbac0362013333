//! git-debate: a second opinion on a change or a design from an AI model of another family.
//!
//! `main.rs` only parses and maps the outcome to an exit code; everything else lives here. The
//! modules the binaries and the integration tests reach are public; the commands, the report,
//! the debates and the rest are private to the crate, so rustc finds what nothing uses.
//!
//! `unsafe` is denied everywhere but [`sys`], the one door to the operating system.

#![deny(unsafe_code)]

mod agents;
mod answer;
mod change;
mod choices;
mod cli;
mod commands;
mod debate;
mod error;
mod findings;
mod flags;
mod git;
mod injection;
mod instructions;
mod markdown;
mod pattern;
mod prompts;
mod redact;
mod report;
mod review;
mod sandbox;
mod settings;
mod store;
#[allow(unsafe_code)]
mod sys;
mod toml_lite;
mod transcript;
mod ui;
mod waivers;

use cli::{Cli, Command};
use error::Outcome;

/// Runs one invocation of `git debate`; a run that made a session then prunes the store to its
/// limits (not after an interrupted one: Ctrl-C means stop now).
pub fn run(cli: Cli) -> anyhow::Result<Outcome> {
    let state_dir = match &cli.command {
        None => cli.review.store.state_dir.clone(),
        Some(Command::Topic(args)) => args.store.state_dir.clone(),
        _ => None,
    };
    let outcome = dispatch(cli);
    if crate::store::created_one() && matches!(outcome, Ok(o) if o != Outcome::Interrupted) {
        store::sweep::after_run(state_dir.as_deref());
    }
    outcome
}

fn dispatch(cli: Cli) -> anyhow::Result<Outcome> {
    match cli.command {
        None => commands::review::run(&cli.review),
        Some(Command::Sessions(args)) => commands::sessions::run(&args),
        Some(Command::Show(args)) => commands::show::run(&args),
        Some(Command::Post(args)) => commands::post::run(&args),
        Some(Command::Topic(args)) => commands::topic::run(&args),
        Some(Command::Hook(args)) => commands::hook::run(&args),
        Some(Command::Resume(args)) => commands::resume::run(&args),
        Some(Command::Apply(args)) => commands::apply::run(&args),
        Some(Command::Waive(args)) => commands::waive::run(&args),
        Some(Command::Waivers(args)) => commands::waivers::run(&args),
        Some(Command::Backends(args)) => commands::backends::run(&args),
        Some(Command::Ask(args)) => commands::ask::run(&args),
        Some(Command::Schema(args)) => commands::schema::run(&args),
        Some(Command::Completions(args)) => commands::completions::run(&args),
        Some(Command::InstallMan(args)) => commands::install_man::run(&args),
    }
}

// The facade: what the binary, the integration tests and the benches reach. Everything else is
// private to the crate, so rustc reports what nothing uses.
pub use agents::{Answer, Backend, BackendError, Family, Request};
pub use answer::judge::{parse_round as parse_judge_round, Verdict};
pub use answer::normalise::{raises_nothing, raw_blocks};
pub use answer::{read as read_answer, Protocol, Roots, READ_CAP};
pub use change::{
    from_change as artifact_from_change, from_text as artifact_from_text, Artifact, TextInput,
};
pub use choices::TargetSetting;
pub use error::report as report_error;
pub use error::Outcome as Exit;
pub use findings::Critique;
pub use flags::{command as clap_command, parse as parse_args};
pub use git::{repo::read_like_git, resolve as resolve_scope, Repo, Scope};
pub use redact::{redact, Redacted};
pub use review::{PatchBase, Restater, Review};
pub use sandbox::export::{create as create_export, Source as ExportSource};
pub use sandbox::readonly::Snapshot;
pub use settings::keys::KEYS as SETTING_KEYS;
pub use settings::{Layers, Overrides, Settings};
pub use store::Session;
pub use sys::reap::guardian_main;
pub use sys::runner::{Call, Invocation};
pub use sys::signals::at_start as install_signal_handlers;
