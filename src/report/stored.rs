//! A stored session's report, rebuilt from what the session folder holds, so `git debate show ID
//! --format sarif` can hand CI what a hook or an earlier step produced without asking any model.
//!
//! The rounds come from their `round-<n>.json` records and go through the same [`crate::report::build`]
//! as a live review; what only the final report knew (status, decision, the error, totals, the
//! gate's threshold) is taken from the stored `summary.json`.

use std::path::Path;

use anyhow::{bail, Context, Result};
use serde_json::Value;

use crate::choices::FailOn;
use crate::report::{Context as ReportContext, Report};
use crate::review::record::Round;
use crate::review::Outcome;
use crate::store::files;

/// The report of the finished session in `dir`.
pub fn load(id: &str, dir: &Path) -> Result<Report> {
    let summary: Value = match files::read(&dir.join("summary.json")) {
        Ok(b) => serde_json::from_slice(&b)
            .with_context(|| format!("session {id}: summary.json is not valid JSON"))?,
        Err(_) => bail!(
            "session {id} has no report (it is a dry run, still running or was cut short); \
             `git debate show {id}` shows what it holds"
        ),
    };
    let mut rounds = Vec::new();
    for n in 1.. {
        let Ok(bytes) = files::read(&dir.join(format!("round-{n}.json"))) else {
            break;
        };
        let round: Round = serde_json::from_slice(&bytes)
            .with_context(|| format!("session {id}: round-{n}.json cannot be read"))?;
        rounds.push(round);
    }
    let text = |k: &str| summary[k].as_str().unwrap_or_default().to_string();
    let path = |k: &str| summary[k].as_str().map(std::path::PathBuf::from);
    let coverage = &summary["coverage"];
    let outcome = Outcome {
        status: text("status"),
        stop_reason: text("stop_reason"),
        converged: summary["converged"].as_bool().unwrap_or(false),
        final_decision: text("final_decision"),
        final_artifact: path("final_artifact").unwrap_or_default(),
        final_patch: path("final_patch"),
        patch_check: summary["patch_check"].as_str().map(String::from),
        rounds,
        extra_calls: Vec::new(),
        error: None,
        not_evaluated: serde_json::from_value(coverage["not_evaluated"].clone())
            .unwrap_or_default(),
        unfit: serde_json::from_value(coverage["unfit"].clone()).unwrap_or_default(),
        fallback: serde_json::from_value(summary["fallback"].clone()).unwrap_or_default(),
        duration_ms: summary["duration_ms"].as_u64().unwrap_or(0),
    };
    let single_file = files::read(&dir.join("locations.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<crate::review::locations::LocationIndex>(&b).ok())
        .and_then(|i| i.single_file);
    let target = text("target");
    let fail_on = summary["gate"]["fail_on"]
        .as_str()
        .and_then(FailOn::parse)
        .unwrap_or(FailOn::Never);
    let mut report = crate::report::build(
        &outcome,
        &ReportContext {
            session: id,
            session_dir: dir.to_path_buf(),
            code: target != "proposal",
            target,
            author: text("author"),
            reviewer: text("reviewer"),
            fail_on,
            single_file,
        },
    );
    // Known only to the live run: its error and its totals (summaries included).
    report.error = summary["error"].as_str().map(String::from);
    if let Ok(usage) = serde_json::from_value(summary["usage"].clone()) {
        report.usage = usage;
    }
    report.next_actions = crate::report::next_actions(&report, report.target != "proposal");
    let code = report.target != "proposal";
    report.add_session_incremental(dir, fail_on, code);
    Ok(report)
}
