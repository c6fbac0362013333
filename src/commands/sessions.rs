//! `git debate sessions`: the stored sessions, newest first, from the store's index; `--prune`
//! removes old ones, as every run that makes a session does after it.

use anyhow::Result;

use crate::cli::{ListFormat, SessionsArgs};
use crate::error::Outcome;
use crate::store::located::{locate, Located};
use crate::store::prune::{self, Limits, Policy};
use crate::store::{catalog, listing};

pub fn run(args: &SessionsArgs) -> Result<Outcome> {
    let store = locate(args.store.state_dir.as_deref())?;
    if args.prune {
        return run_prune(args, &store);
    }
    let all = catalog::list(&store.base)?;
    let out = match args.format {
        ListFormat::Json => listing::json(&all)?,
        ListFormat::Text if all.is_empty() => {
            crate::errln!("no sessions in {}", store.base.display());
            String::new()
        }
        ListFormat::Text => listing::text(&all),
    };
    crate::ui::terminal::out(&out)?;
    Ok(Outcome::Success)
}

/// `sessions --prune`: the limits given, else the configured ones.
fn run_prune(args: &SessionsArgs, store: &Located) -> Result<Outcome> {
    let policy = if args.keep.is_some() || args.older_than.is_some() {
        Policy {
            all: Limits {
                keep: args.keep,
                max_age: args.older_than,
            },
            hook: Limits::default(),
        }
    } else {
        Policy::configured(&store.settings)?
    };
    let rows = catalog::list(&store.base)?;
    let total = rows.len();
    let report = prune::prune(
        &store.base,
        rows,
        &policy,
        args.dry_run,
        usize::MAX,
        store.repo.as_ref(),
    );
    if !args.dry_run {
        // The reviewer's export cache goes with the sessions: it only saves time.
        crate::sandbox::cache::prune();
    }
    let out = match args.format {
        ListFormat::Json => listing::prune_json(&report, total, args.dry_run)?,
        ListFormat::Text => listing::prune_text(&report, &policy, total, args.dry_run),
    };
    crate::ui::terminal::out(&out)?;
    if !report.failed.is_empty() {
        anyhow::bail!("{} session(s) could not be removed", report.failed.len());
    }
    Ok(Outcome::Success)
}
