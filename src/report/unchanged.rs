//! The report of a re-review that found nothing changed since the earlier review: no model was
//! asked, and what that review left open still stands (and counts for the gate). A CI format
//! still gets its report, the earlier review's.

use std::path::Path;

use anyhow::Result;

use crate::choices::Format;
use crate::error::Outcome;
use crate::review::incremental::Plan;
use crate::settings::Settings;

/// Nothing in the change's files changed since the earlier review: no model is asked, and what
/// that review left open still stands (and counts for the gate).
pub fn print(plan: &Plan, settings: &Settings, store: &Path) -> Result<Outcome> {
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
    let limit = settings.fail_on.rank().unwrap_or(0);
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
    match previous.filter(|_| settings.format != Format::Text) {
        Some(s) => {
            crate::ui::terminal::err(&text);
            let report = crate::report::stored::load(&s.id, &s.dir)?;
            crate::report::emit::print(settings.format, &report, settings.output.as_deref())?;
        }
        None => crate::ui::terminal::out(&text)?,
    }
    Ok(if blocking > 0 {
        Outcome::GateFailed
    } else {
        Outcome::Success
    })
}
