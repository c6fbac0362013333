//! The quiet prune after a run that made a session: the store is kept within its configured
//! limits without anyone running `git debate sessions --prune`.

use std::path::Path;

use anyhow::Result;

use crate::store::catalog;
use crate::store::listing::sessions;
use crate::store::prune::{self, Policy, Report};

/// The most sessions a run removes after it: a store of 10,000 from before the limits would
/// otherwise hold up one commit for the minute it takes to delete 9,000 (the rest go in later
/// runs, or at once with `sessions --prune`).
const MOST_AFTER_A_RUN: usize = 100;

/// After a run that made a session: the configured limits, applied quietly. Cheap when the store
/// is within them (the index is read, no folder). Never fails the run; a problem is a warning.
pub fn after_run(state_dir: Option<&Path>) {
    let pruned = (|| -> Result<Report> {
        let store = crate::store::located::locate(state_dir)?;
        let policy = Policy::configured(&store.settings)?;
        let rows = catalog::list(&store.base)?;
        let repo = store.repo.as_ref();
        Ok(prune::prune(
            &store.base,
            rows,
            &policy,
            false,
            MOST_AFTER_A_RUN,
            repo,
        ))
    })();
    let report = match pruned {
        Ok(r) => r,
        Err(e) => return crate::errln!("warning: git debate: cannot prune old sessions: {e:#}"),
    };
    for (row, e) in &report.failed {
        crate::errln!(
            "warning: git debate: cannot remove old session {}: {e}",
            row.id
        );
    }
    let more = match report.deferred {
        0 => String::new(),
        n => format!(
            "; {} more past them go in later runs, or now with `git debate sessions --prune`",
            sessions(n)
        ),
    };
    if !report.removed.is_empty() {
        crate::errln!(
            "git debate: removed {} old session{} (past debate.keepSessions or keepDays{more})",
            report.removed.len(),
            if report.removed.len() == 1 { "" } else { "s" }
        );
    }
}
