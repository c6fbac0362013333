//! `--since` and `debate.incremental` for a review: what to review instead of the whole change
//! (the delta since an earlier review, see [`crate::review::incremental`]), what to record of it, and
//! what to say when nothing changed since.

use std::path::Path;

use anyhow::Result;
use serde_json::json;

use crate::cli::ReviewArgs;
use crate::commands::review::Source;
use crate::error::Outcome;
use crate::git::Scope;
use crate::review::incremental::{self, Plan, Since, Start};
use crate::settings::Settings;
use crate::store::Session;

/// How the review goes on.
pub(super) enum Next {
    /// Review `source` (now the delta, for an incremental review); the plan and the whole
    /// change's files, to record.
    Review(Option<Box<(Plan, Vec<String>)>>),
    /// Nothing changed since the earlier review: done, with this exit.
    Done(Outcome),
}

/// Plans an incremental review when one is asked for, replacing `source`'s change by the delta.
pub(super) fn prepare(
    args: &ReviewArgs,
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
        Start::Unchanged(p) => Next::Done(unchanged(&p, settings, store)?),
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
pub(super) fn record(
    session: &Session,
    meta: &mut serde_json::Value,
    plan: Option<Box<(Plan, Vec<String>)>>,
) -> Result<Option<Plan>> {
    let Some((p, change_files)) = plan.map(|b| *b) else {
        return Ok(None);
    };
    session.write_json(incremental::FILE, &p)?;
    meta["incremental"] = json!({
        "mode": p.basis.mode, "since": p.basis.since, "previous_session": p.basis.previous_session,
        "old_head": p.basis.old_head, "reason": p.basis.reason, "change_files": change_files,
    });
    crate::redact::redact_json(meta);
    Ok((p.basis.mode == "delta").then_some(p))
}

/// What `--since` asks for, or `debate.incremental` for a `base:` scope (`--since last`), with
/// the value as given (`auto` for the key).
fn incremental_since(
    args: &ReviewArgs,
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

/// Nothing in the change's files changed since the earlier review: no model is asked, and what
/// that review left open still stands (and counts for the gate).
fn unchanged(plan: &incremental::Plan, settings: &Settings, store: &Path) -> Result<Outcome> {
    use crate::ui::terminal::clean_line;
    let head: String = plan
        .basis
        .old_head
        .as_deref()
        .unwrap_or("?")
        .chars()
        .take(12)
        .collect();
    let reviewed = match &plan.basis.previous_session {
        Some(id) => format!(", reviewed in session {id}"),
        None => String::new(),
    };
    let mut lines = vec![format!(
        "nothing to review: the change's files are as they were at {head}{reviewed}; {} open \
         finding(s) stand",
        plan.carried.len()
    )];
    let limit = match settings.fail_on.as_str() {
        "p1" => 1,
        "p2" => 2,
        "p3" => 3,
        _ => 0,
    };
    let mut blocking = 0;
    for c in &plan.carried {
        let f = &c.finding;
        let at = f.where_().map(|w| format!(" ({w})")).unwrap_or_default();
        lines.push(format!(
            "  [{}] {} {}{at}",
            f.id,
            f.severity.label(),
            f.title
        ));
        // As the gate counts: at or above --fail-on, and an unclassified finding always.
        blocking += usize::from(limit > 0 && f.severity.rank() <= limit);
    }
    // Titles are a model's text: one line each, whatever they hold.
    let text: String = lines
        .iter()
        .map(|l| format!("{}\n", clean_line(l)))
        .collect();
    // A CI format still gets its report: the earlier review's, whose open findings stand (a
    // re-run or a rebase-only push must not make the annotations, or the SARIF file, vanish).
    let previous = plan
        .basis
        .previous_session
        .as_deref()
        .and_then(|id| crate::store::find(store, id).ok());
    match previous.filter(|_| settings.format != "text") {
        Some(s) => {
            crate::ui::terminal::err(&text);
            let report = crate::report::stored::load(&s.id, &s.dir)?;
            crate::report::emit::print(&settings.format, &report, settings.output.as_deref())?;
        }
        None => crate::ui::terminal::out(&text)?,
    }
    Ok(if blocking > 0 {
        Outcome::GateFailed
    } else {
        Outcome::Success
    })
}
