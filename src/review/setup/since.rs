//! `--since` and `debate.incremental` for a review: what to review instead of the whole change
//! (the delta since an earlier review, see [`crate::review::incremental`]), what to record of it,
//! and whether nothing changed since (no model is asked then).

use std::path::Path;

use anyhow::Result;

use crate::git::Scope;
use crate::review::incremental::{self, Plan, Since, Start};
use crate::review::setup::{Source, What};
use crate::settings::Settings;
use crate::store::metadata::{self, Review};
use crate::store::Session;

/// An incremental review's plan and the whole change's files, to record; `None` for a review of
/// everything.
pub type Pending = Option<Box<(Plan, Vec<String>)>>;

/// How the review goes on.
pub enum Next {
    /// Review `source` (now the delta, for an incremental review).
    Review(Pending),
    /// Nothing in the change's files changed since the earlier review: what it left open stands.
    Unchanged(Box<Plan>),
}

/// Plans an incremental review when one is asked for, replacing `source`'s change by the delta.
pub fn prepare(
    args: &What,
    settings: &Settings,
    source: &mut Source,
    repo: Option<&crate::git::Repo>,
    store: &Path,
) -> Result<Next> {
    let Some((since, given)) = incremental_since(args, settings, source)? else {
        return Ok(Next::Review(None));
    };
    if let Some(why) = repo.and_then(crate::git::Repo::unopened) {
        crate::usage!(
            "an incremental review (--since, debate.incremental) reads history with libgit2, \
             which cannot open this repository ({why}); review the whole change without --since"
        )
    }
    let repo = repo.and_then(crate::git::Repo::libgit2);
    let (Source::Change { scope, change }, Some(repo)) = (&*source, repo) else {
        crate::usage!(
            "--since works with --scope base:<branch> or range:<a>..<b>, not with content"
        )
    };
    let start = incremental::start(
        repo,
        store,
        scope,
        change,
        &since,
        &given,
        settings.context_lines,
    )?;
    let mut change_files: Vec<String> = change.files.iter().map(|f| f.path.clone()).collect();
    change_files.extend(change.files.iter().filter_map(|f| f.old_path.clone()));
    Ok(match start {
        Start::Full(p) => {
            if let Some(r) = &p.basis.reason {
                crate::errln!("note: full review, not incremental: {r}");
            }
            Next::Review(Some(Box::new((p, change_files))))
        }
        Start::Unchanged(p) => Next::Unchanged(Box::new(p)),
        Start::Delta(p, delta) => {
            crate::errln!(
                "note: incremental review since {}: {} of the change's files changed, {} \
                 finding(s) carried",
                p.basis
                    .previous_session
                    .as_deref()
                    .unwrap_or(&p.basis.since),
                p.basis.files.len(),
                p.carried.len()
            );
            let scope = scope.clone();
            *source = Source::Change {
                scope,
                change: *delta,
            };
            Next::Review(Some(Box::new((p, change_files))))
        }
    })
}

/// Stores the plan in the session (`incremental.json`, and a summary in the metadata); returns
/// it when the review is a delta review.
pub fn record(session: &Session, meta: &mut Review, plan: Pending) -> Result<Option<Plan>> {
    let Some((p, change_files)) = plan.map(|b| *b) else {
        return Ok(None);
    };
    session.write_plan(&p)?;
    meta.incremental = Some(metadata::Incremental {
        mode: p.basis.mode.clone(),
        since: p.basis.since.clone(),
        previous_session: p.basis.previous_session.clone(),
        old_head: p.basis.old_head.clone(),
        reason: p.basis.reason.clone(),
        change_files: Some(change_files),
    });
    Ok((p.basis.mode == "delta").then_some(p))
}

/// What `--since` asks for, or `debate.incremental` for a `base:` scope (`--since last`), with
/// the value as given (`auto` for the key).
fn incremental_since(
    args: &What,
    settings: &Settings,
    source: &Source,
) -> Result<Option<(Since, String)>> {
    if let Some(s) = &args.since {
        return Ok(Some((Since::parse(s)?, s.trim().to_string())));
    }
    let base_scope = matches!(
        source,
        Source::Change {
            scope: Scope::Base(_),
            ..
        }
    );
    Ok((settings.incremental && base_scope).then(|| (Since::Last, "auto".to_string())))
}
