//! What a finished (or stopped) debate leaves in its session: for a duel the transcript, the
//! summary, the JSON report, `last-debate.json` beside the sessions and the final metadata; the
//! [`Ended`] that comes back is what is printed.

use std::path::Path;

use anyhow::Result;
use serde_json::json;

use crate::choices::Effort;
use crate::debate::{self, Ended};
use crate::settings::Settings;
use crate::store::{self, Session};

/// Writes the duel's transcript, summary, report and `last-debate.json`, and the metadata's end.
pub fn finish(
    s: Session,
    settings: &Settings,
    base: &Path,
    meta: &mut serde_json::Value,
    outcome: &debate::Outcome,
) -> Result<Ended> {
    let topic = meta["topic"].as_str().unwrap_or("").to_string();
    let rounds = meta["rounds"].as_u64().unwrap_or(2) as u32;
    s.write(
        "transcript.md",
        debate::transcript(&topic, &outcome.exchanges, &outcome.notes).as_bytes(),
    )?;
    let summary = debate::summary_markdown(&s.id, &topic, outcome, rounds);
    s.write("summary.md", summary.as_bytes())?;
    let report = json!({
        "schema": 1, "kind": "topic", "session": s.id, "session_dir": s.dir, "topic": topic,
        "status": outcome.status, "rounds_completed": outcome.rounds_completed,
        "max_rounds": rounds, "proposer": outcome.proposer, "challenger": outcome.challenger,
        "judge": outcome.judge, "verdict": outcome.verdict,
        "notes": outcome.notes, "exchanges": outcome.exchanges,
        "duration_ms": outcome.duration_ms,
    });
    s.write_json("summary.json", &report)?;
    let state = debate::state_record(
        &s.id,
        &topic,
        outcome,
        rounds,
        settings.effort.map(Effort::name),
    );
    store::write_atomic(
        &base.join("last-debate.json"),
        serde_json::to_string_pretty(&state)?.as_bytes(),
    )?;
    meta["status"] = outcome.status.clone().into();
    meta["rounds_completed"] = outcome.rounds_completed.into();
    meta["slug"] = debate::slug(&topic).into();
    meta["entries"] = outcome.exchanges.len().into();
    let mut verification = serde_json::Map::new();
    for st in [
        debate::citations::Status::Verified,
        debate::citations::Status::NotFound,
        debate::citations::Status::Unreliable,
        debate::citations::Status::Unverifiable,
    ] {
        let n = outcome
            .exchanges
            .iter()
            .flat_map(|e| &e.citations)
            .filter(|c| c.status == st)
            .count();
        verification.insert(
            serde_json::to_value(st)?.as_str().unwrap_or("").into(),
            n.into(),
        );
    }
    meta["verification"] = verification.into();
    meta["secrets_redacted"] = outcome
        .exchanges
        .iter()
        .filter(|e| e.redactions > 0)
        .map(|e| json!({"seq": e.seq, "role": e.role, "count": e.redactions}))
        .collect::<Vec<_>>()
        .into();
    meta["updated_at"] = store::rfc3339(store::now_utc()).into();
    s.write_json("metadata.json", meta)?;
    Ok(Ended {
        status: outcome.status.clone(),
        session: s,
        report,
        summary,
    })
}
