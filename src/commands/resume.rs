//! `git debate resume [ID]`: continue a review, a duel or a panel that stopped before it was
//! decided. The session is found and locked here, the settings resolved (the session's own
//! limits and gate, unless a flag changes them), and the engine of the session's kind goes on.

use anyhow::Result;

use crate::choices::FailOn;
use crate::cli::ResumeArgs;
use crate::error::Outcome;
use crate::settings::{Overrides, Settings};
use crate::store::metadata::Metadata;
use crate::store::{self, Session};

pub fn run(args: &ResumeArgs) -> Result<Outcome> {
    // Where the session is: only the store location matters before it is found.
    let store::located::Located { base, repo, .. } =
        store::located::locate(args.store.state_dir.as_deref())?;
    let found = store::find(&base, &args.id)?;
    // Locked before anything is read, then read again: what we continue is what the holder left.
    let session = Session::open(&found.dir, &found.id)?;
    let stored = found.reload();
    let meta = stored
        .metadata
        .clone()
        .map_err(|e| anyhow::anyhow!("session {} cannot be resumed: {e}", stored.id))?;
    if let Metadata::Review(m) = &meta {
        crate::review::resume::check_resumable(&stored.id, m)?;
    }
    let settings = Settings::for_run(
        repo.as_ref().map(crate::git::Repo::dirs),
        &overrides(args, &meta),
    )?;
    crate::redact::use_rules_file(settings.redact_rules.as_deref())?;
    // The files of the change reviewed are as protected as on the first run.
    let reviewed: Vec<std::path::PathBuf> = match (&meta, repo.as_ref().and_then(|r| r.workdir())) {
        (Metadata::Review(m), Some(root)) => m.files.iter().map(|f| root.join(&f.path)).collect(),
        _ => Vec::new(),
    };
    crate::git::protect::guard_output(
        repo.as_ref(),
        settings.output.as_deref(),
        settings.force_output,
        &std::env::current_dir()?,
        &reviewed,
    )?;
    let repo = repo.as_ref();
    match meta {
        Metadata::Panel(m) => {
            let ended = crate::debate::panel::resume::run(session, *m, &settings, repo)?;
            crate::report::debate::emit(&settings, &ended)
        }
        Metadata::Topic(m) => {
            let flags = (
                args.rounds.max_rounds,
                args.budget.budget_minutes.map(|m| m as f64),
            );
            let ended = crate::debate::resume::duel(session, *m, &settings, (repo, &base), flags)?;
            crate::report::debate::emit(&settings, &ended)
        }
        Metadata::Review(m) => {
            let reviewed = crate::review::resume::run(session, &m, &settings, repo, &base)?;
            crate::report::conclude::review(&reviewed, &settings)
        }
    }
}

/// The flags, and where they are silent the session's own limits and gate.
fn overrides(args: &ResumeArgs, meta: &Metadata) -> Overrides {
    let was = match meta {
        Metadata::Review(m) => Some(&m.settings),
        Metadata::Topic(m) => m.settings.as_ref(),
        Metadata::Panel(_) => None,
    };
    let was = was.cloned().unwrap_or_default();
    let given = crate::flags::of(&[
        &args.rounds,
        &args.budget,
        &args.timeout,
        &args.decision,
        &args.report,
        &args.gate,
        &args.store,
        &args.sides,
    ]);
    Overrides {
        max_rounds: given.max_rounds.or(was.max_rounds),
        budget_minutes: given.budget_minutes.or(was.budget_minutes),
        backend_timeout_seconds: given
            .backend_timeout_seconds
            .or(was.backend_timeout_seconds),
        fail_on: given
            .fail_on
            .or_else(|| was.fail_on.as_deref().and_then(FailOn::parse)),
        ..given
    }
}
