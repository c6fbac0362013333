//! What a finished (or stopped) debate leaves in its session: for a duel the transcript, the
//! summary, the JSON report, `last-debate.json` beside the sessions and the final metadata; the
//! [`Ended`] that comes back is what is printed.

use std::path::Path;

use anyhow::Result;

use crate::choices::Effort;
use crate::debate::{self, Ended};
use crate::settings::Settings;
use crate::store::debate::Status;
use crate::store::metadata::{Duel as Meta, Kind, Metadata, RedactedTurn};
use crate::store::summary::{DebateSummary, DuelSummary, SCHEMA};
use crate::store::{folder, Session};

/// Writes the duel's transcript, summary, report and `last-debate.json`, and the metadata's end.
pub fn finish(
    s: Session,
    settings: &Settings,
    base: &Path,
    meta: &mut Meta,
    outcome: &debate::DebateOutcome,
) -> Result<Ended> {
    let topic = meta.topic.clone();
    let rounds = meta.rounds;
    s.write(
        "transcript.md",
        debate::transcript(&topic, &outcome.exchanges, &outcome.notes).as_bytes(),
    )?;
    let summary = debate::summary_markdown(&s.id, &topic, outcome, rounds);
    s.write("summary.md", summary.as_bytes())?;
    let report = DuelSummary {
        schema: SCHEMA,
        kind: Kind::Topic,
        session: s.id.clone(),
        session_dir: s.dir.clone(),
        topic: topic.clone(),
        status: outcome.status.clone(),
        rounds_completed: outcome.rounds_completed,
        max_rounds: rounds,
        proposer: outcome.proposer.clone(),
        challenger: outcome.challenger.clone(),
        judge: outcome.judge.clone(),
        verdict: outcome.verdict.clone(),
        notes: outcome.notes.clone(),
        exchanges: outcome.exchanges.clone(),
        duration_ms: outcome.duration_ms,
    };
    s.write_summary(&report)?;
    let state = debate::state_record(
        &s.id,
        &topic,
        outcome,
        rounds,
        settings.effort.map(Effort::name),
    );
    folder::write_last_debate(base, &state)?;
    meta.common.update(&outcome.status);
    meta.rounds_completed = Some(outcome.rounds_completed);
    meta.debated.slug = Some(debate::slug(&topic));
    meta.debated.entries = Some(outcome.exchanges.len());
    let verification = [
        Status::Verified,
        Status::NotFound,
        Status::Unreliable,
        Status::Unverifiable,
    ]
    .into_iter()
    .map(|st| {
        let n = outcome
            .exchanges
            .iter()
            .flat_map(|e| &e.citations)
            .filter(|c| c.status == st)
            .count();
        (st.key().to_string(), n)
    })
    .collect();
    meta.debated.verification = Some(verification);
    meta.secrets_redacted = Some(
        outcome
            .exchanges
            .iter()
            .filter(|e| e.redactions > 0)
            .map(|e| RedactedTurn {
                seq: e.seq,
                role: e.role.clone(),
                count: e.redactions,
            })
            .collect(),
    );
    s.write_metadata(&Metadata::Topic(Box::new(meta.clone())))?;
    Ok(Ended {
        status: outcome.status.clone(),
        session: s,
        report: DebateSummary::Duel(Box::new(report)),
        summary,
    })
}
