//! `git debate apply [ID|last]`: put a review's final version into the work tree, the way the
//! report's next actions say, without finding `final.patch` and running `git apply` by hand.

use anyhow::Result;

use crate::cli::ApplyArgs;
use crate::error::{Outcome, UsageError};
use crate::git::apply::{self, Applied, How};
use crate::store;
use crate::store::summary::OfKind;

pub fn run(args: &ApplyArgs) -> Result<Outcome> {
    let Some(repo) = crate::git::repo::discover()? else {
        crate::usage!("not in a git repository: `git debate apply` changes a work tree");
    };
    let base = store::located::dir(args.store.state_dir.as_deref())?;
    let s = store::find(&base, &args.id)?;
    let patch = s.dir.join("final.patch");
    if !patch.is_file() {
        let decision = match s.contents().summary {
            Some(OfKind::Review(r)) => format!("its decision was {}", r.final_decision),
            Some(OfKind::Debate(_)) => "it is a topic debate".to_string(),
            None => "it has no summary (a dry run, or a review that did not finish)".to_string(),
        };
        return Err(UsageError::new(format!(
            "session {} has no final version as a patch ({decision}); nothing to apply",
            s.id
        ))
        .into());
    }
    let how = How {
        dry_run: args.dry_run,
        index: args.index,
        force: args.force,
    };
    match apply::apply(&repo, &patch, how)? {
        Applied::Exactly { stat } if args.dry_run => {
            crate::outln!("{}", std::fs::read_to_string(&patch).unwrap_or_default());
            crate::outln!("applies exactly (git apply --check):\n{stat}");
            Ok(Outcome::Success)
        }
        Applied::Exactly { stat } => {
            crate::outln!("applied {} from session {}:\n{stat}", patch.display(), s.id);
            Ok(Outcome::Success)
        }
        Applied::WouldNeedMerge { why } => {
            crate::outln!(
                "does not apply exactly ({why}); `git debate apply {}` would try a three-way \
                 merge",
                s.id
            );
            Ok(Outcome::GateFailed)
        }
        Applied::Merged { stat, conflicts } if conflicts.is_empty() => {
            crate::outln!(
                "applied with a three-way merge from session {}:\n{stat}",
                s.id
            );
            Ok(Outcome::Success)
        }
        Applied::Merged { conflicts, .. } => {
            crate::outln!(
                "applied with conflicts in {}; resolve them (the markers are in the files), \
                 then `git add` them",
                conflicts.join(", ")
            );
            Ok(Outcome::GateFailed)
        }
    }
}
