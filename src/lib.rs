//! git-debate: a second opinion on a change or a design from an AI model of another family.
//!
//! `main.rs` only parses and maps the outcome to an exit code; everything else lives here. The
//! modules the binaries and the integration tests reach are public; the commands, the report,
//! the debates and the rest are private to the crate, so rustc finds what nothing uses.
//!
//! `unsafe` is denied everywhere but [`sys`], the one door to the operating system.

#![deny(unsafe_code)]

pub mod agents;
pub mod answer;
pub mod change;
pub mod choices;
mod cli;
mod commands;
mod debate;
pub mod error;
pub mod findings;
pub mod flags;
pub mod git;
mod injection;
mod instructions;
mod markdown;
mod pattern;
mod prompts;
pub mod redact;
mod report;
pub mod review;
pub mod sandbox;
pub mod settings;
pub mod store;
#[allow(unsafe_code)]
pub mod sys;
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
