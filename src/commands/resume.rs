//! `git debate resume [ID]`: continue a review, a duel or a panel that stopped before it was
//! decided. The session is found and locked here, the settings resolved (the session's own
//! limits and gate, unless a flag changes them), and the engine of the session's kind goes on.

use anyhow::{Context, Result};

use crate::cli::{ResumeArgs, ReviewArgs};
use crate::error::Outcome;
use crate::settings::{Layers, Settings};
use crate::store::{self, Session};

pub fn run(args: &ResumeArgs) -> Result<Outcome> {
    let repo = crate::git::repo::discover()?;
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    // Where the session is: only the store location matters before it is found.
    let locate = Settings::resolve(
        Layers::load(repo.as_ref())?,
        &ReviewArgs {
            state_dir: args.state_dir.clone(),
            ..Default::default()
        },
    )?;
    let base = store::base_dir(repo.as_ref(), locate.state_dir.as_deref(), &cwd);
    let found = store::find(&base, &args.id)?;
    // Locked before anything is read, then read again: what we continue is what the holder left.
    let session = Session::open(&found.dir, &found.id)?;
    let stored = found.reload();
    let meta = stored
        .metadata
        .clone()
        .map_err(|e| anyhow::anyhow!("session {} cannot be resumed: {e}", stored.id))?;
    let kind = meta["kind"].as_str().unwrap_or("review").to_string();
    if kind != "topic" && kind != "panel" {
        crate::review::resume::check_resumable(&stored.id, &meta)?;
    }
    let settings = Settings::resolve(Layers::load(repo.as_ref())?, &overrides(args, &meta))?;
    for w in &settings.warnings {
        crate::errln!("{w}");
    }
    let repo = repo.as_ref();
    match kind.as_str() {
        "panel" => {
            let ended = crate::debate::panel::resume::run(session, meta, &settings, repo)?;
            crate::report::debate::emit(&settings, &ended)
        }
        "topic" => {
            let flags = (args.max_rounds, args.budget_minutes);
            let ended =
                crate::debate::resume::duel(session, meta, &settings, (repo, &base), flags)?;
            crate::report::debate::emit(&settings, &ended)
        }
        _ => {
            let reviewed = crate::review::resume::run(session, &meta, &settings, repo, &base)?;
            crate::report::conclude::review(&reviewed, &settings)
        }
    }
}

/// The flags, and where they are silent the session's own limits and gate.
fn overrides(args: &ResumeArgs, meta: &serde_json::Value) -> ReviewArgs {
    let was = &meta["settings"];
    ReviewArgs {
        max_rounds: args
            .max_rounds
            .or(was["max_rounds"].as_u64().map(|n| n as u32)),
        budget_minutes: args.budget_minutes.or(was["budget_minutes"].as_u64()),
        backend_timeout_seconds: args
            .backend_timeout_seconds
            .or(was["backend_timeout_seconds"].as_u64()),
        mode: args.mode,
        format: args.format,
        output: args.output.clone(),
        fail_on: args.fail_on.or_else(|| {
            was["fail_on"]
                .as_str()
                .and_then(|f| clap::ValueEnum::from_str(f, true).ok())
        }),
        state_dir: args.state_dir.clone(),
        author: args.author.clone(),
        reviewer: args.reviewer.clone(),
        ..Default::default()
    }
}
