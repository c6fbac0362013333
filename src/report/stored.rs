//! A stored session's report, rebuilt from what the session folder holds, so `git debate show ID
//! --format sarif` can hand CI what a hook or an earlier step produced without asking any model.
//!
//! The rounds come from their `round-<n>.json` records and go through the same [`crate::report::build`]
//! as a live review; what only the final report knew (status, decision, the error, totals, the
//! gate's threshold) is taken from the stored `summary.json`.

use std::path::Path;

use anyhow::{Context as _, Result};

use crate::report::{Context as ReportContext, Report};
use crate::review::ReviewOutcome;
use crate::store::folder;

/// The report of the finished session in `dir`.
pub fn load(id: &str, dir: &Path) -> Result<Report> {
    let summary: Report = folder::summary(dir)
        .with_context(|| format!("session {id}: its report cannot be read"))?
        .with_context(|| {
            format!(
                "session {id} has no report (it is a dry run, still running or was cut short); \
                 `git debate show {id}` shows what it holds"
            )
        })?;
    let rounds =
        folder::rounds(dir).with_context(|| format!("session {id}: a round cannot be read"))?;
    let coverage = summary.coverage.as_ref();
    let outcome = ReviewOutcome {
        status: summary.status.clone(),
        stop_reason: summary.stop_reason.clone(),
        converged: summary.converged,
        final_decision: summary.final_decision.clone(),
        final_artifact: summary.final_artifact.clone(),
        final_patch: summary.final_patch.clone(),
        patch_check: summary.patch_check.clone(),
        rounds,
        extra_calls: Vec::new(),
        error: None,
        not_evaluated: coverage
            .map(|c| c.not_evaluated.clone())
            .unwrap_or_default(),
        unfit: coverage.map(|c| c.unfit.clone()).unwrap_or_default(),
        fallback: summary.fallback.clone(),
        seats: summary
            .reviewers
            .as_ref()
            .map(|r| r.seats.clone())
            .unwrap_or_default(),
        duration_ms: summary.duration_ms,
    };
    let fail_on = summary.gate.fail_on;
    let (injections, setup_notes) = match folder::metadata(dir) {
        Ok(crate::store::metadata::Metadata::Review(m)) => (
            m.injections,
            m.instructions.map(|r| r.notes).unwrap_or_default(),
        ),
        _ => (Vec::new(), Vec::new()),
    };
    let mut report = crate::report::build(
        &outcome,
        &ReportContext {
            session: id,
            session_dir: dir.to_path_buf(),
            code: summary.target != "proposal",
            target: summary.target.clone(),
            author: summary.author.clone(),
            reviewer: summary.reviewer.clone(),
            fail_on,
            trust_judge: summary.gate.trust_judge,
            consensus: summary
                .reviewers
                .as_ref()
                .map_or(crate::choices::Consensus::Any, |r| r.consensus),
            single_file: crate::report::conclude::single_file(dir),
            injections: &injections,
        },
    );
    report.notes.extend(setup_notes);
    // Known only to the live run: its error and its totals (summaries included).
    report.error = summary.error;
    report.usage = summary.usage;
    report.next_actions = crate::report::next_actions(&report, report.target != "proposal");
    let code = report.target != "proposal";
    report.add_session_incremental(dir, fail_on, code);
    // The waivers that applied when it ran, as they applied then.
    let waivers: Vec<_> = summary
        .waived
        .iter()
        .filter_map(|i| i.waiver.clone())
        .collect();
    crate::report::waived::apply(&mut report, &waivers, None, code);
    report.waiver_notes = summary.waiver_notes;
    Ok(report)
}
