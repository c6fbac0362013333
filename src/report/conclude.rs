//! The end of a review run, whatever it was: a review's report written to its session
//! (`summary.md`, `summary.json`) and printed in the chosen format, with the exit code the gate
//! decides; or the dry run, the unchanged re-review, the cancelled or empty run, each said in its
//! own way. A resumed review ends here too.

use anyhow::Result;

use crate::change::markdown::Target;
use crate::error::Outcome;
use crate::report::{self, Report};
use crate::review::setup::{Ran, Reviewed};
use crate::settings::Settings;
use crate::store;

/// Shows how the run ended and picks the exit code.
pub fn ran(ran: Ran, settings: &Settings) -> Result<Outcome> {
    match ran {
        Ran::Nothing(why) => {
            crate::outln!("{why}");
            Ok(Outcome::Success)
        }
        Ran::Cancelled => {
            crate::errln!("cancelled: nothing was reviewed");
            Ok(Outcome::Success)
        }
        Ran::Unchanged { plan, store } => report::unchanged::print(&plan, settings, &store),
        Ran::DryRun(d) => report::dry_run::print(&d, settings),
        Ran::Reviewed(r) => review(&r, settings),
    }
}

/// Writes `summary.md` and `summary.json`, prints the report, and picks the exit code.
pub fn review(r: &Reviewed, settings: &Settings) -> Result<Outcome> {
    let session = &r.session;
    let code = r.target != Target::Proposal;
    let mut report = report::build(
        &r.outcome,
        &report::Context {
            session: &session.id,
            session_dir: session.dir.clone(),
            target: serde_json::to_value(r.target)?
                .as_str()
                .unwrap_or("code")
                .to_string(),
            author: r.author.clone(),
            reviewer: r.reviewer.clone(),
            fail_on: settings.fail_on,
            trust_judge: settings.trust_judge,
            consensus: settings.consensus,
            code,
            single_file: single_file(&session.dir),
            injections: &r.injections,
        },
    );
    report.notes.extend(r.setup_notes.iter().cloned());
    report.add_session_incremental(&session.dir, settings.fail_on, code);
    report::waived::apply(&mut report, &r.waivers, Some(crate::waivers::today()), code);
    if r.waivers_edited {
        report.waiver_notes.push(format!(
            "this change edits {}: only the waivers it had before the change apply to this \
             review",
            crate::waivers::FILE
        ));
    }
    session.write("summary.md", report::markdown(&report).as_bytes())?;
    session.write_summary(&report)?;
    emit(settings, &report)?;
    Ok(match report.status.as_str() {
        "interrupted" => Outcome::Interrupted,
        "unavailable" => Outcome::Unavailable,
        _ if report.gate.failed => Outcome::GateFailed,
        // Files no chunk reviewed were not evaluated: never a pass, unless the user said a
        // partial review may pass (`--allow-partial`; the reports still list them).
        _ if !settings.allow_partial
            && report
                .coverage
                .as_ref()
                .is_some_and(|c| !c.not_evaluated.is_empty()) =>
        {
            Outcome::Unavailable
        }
        _ => Outcome::Success,
    })
}

/// The one file reviewed, from the session's location index (none when the review was of
/// several files, of content, or the index cannot be read).
pub fn single_file(dir: &std::path::Path) -> Option<String> {
    store::folder::locations(dir)
        .ok()
        .flatten()
        .and_then(|i| i.single_file)
}

/// The report in the chosen format, on standard output or in `--output`.
fn emit(settings: &Settings, report: &Report) -> Result<()> {
    report::emit::print(settings.format, report, settings.output.as_deref())
}
