//! `git debate waive FINDING --reason "…" [--expires YYYY-MM-DD]`: record that a finding does
//! not apply here, in the committed `.gitdebate-waivers`.

use anyhow::Result;

use crate::cli::WaiveArgs;
use crate::error::Outcome;
use crate::report::waive::{self, Asked};

pub fn run(args: &WaiveArgs) -> Result<Outcome> {
    let Some(repo) = crate::git::repo::discover()? else {
        crate::usage!("not in a git repository: waivers are kept in its work tree");
    };
    let base = crate::store::located::dir(args.store.state_dir.as_deref())?;
    let (w, path) = waive::record(
        &repo,
        &base,
        &Asked {
            finding: &args.finding,
            reason: args.reason.as_deref(),
            expires: args.expires.as_deref(),
        },
    )?;
    crate::outln!(
        "waived {} ({}) until {}: {}\nfingerprint {}\nrecorded in {}; commit it so the waiver \
         is reviewed and shared",
        w.finding,
        w.title,
        w.expiry(),
        w.reason,
        w.fingerprint,
        path.display()
    );
    Ok(Outcome::Success)
}
