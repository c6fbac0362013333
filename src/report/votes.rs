//! A review by several reviewers, in the report: who answered, each finding's votes ("codex +
//! gemini, 2 of 3") and whether the consensus rule lets the gate count it.
//!
//! The votes are made here, from the last round's record of who answered and each finding's
//! `raised_by`, so every format reads the same [`Votes`] and a stored report re-emits them alike.

use crate::choices::Consensus;
use crate::review::ReviewOutcome;
use crate::store::summary::{Item, Reviewers, Votes};

/// The reviewers of the last round that has them, under `rule`; `None` with one reviewer.
pub fn reviewers(o: &ReviewOutcome, rule: Consensus) -> Option<Reviewers> {
    // The last recorded round's, else the last round tried (too few answered to record it).
    let seats = o
        .rounds
        .iter()
        .rev()
        .find(|r| !r.reviewers.is_empty())
        .map_or(&o.seats, |r| &r.reviewers);
    (!seats.is_empty()).then(|| Reviewers {
        consensus: rule,
        seats: seats.clone(),
    })
}

/// Gives each item raised by reviewers its votes. A finding no reviewer raised (the judge's, the
/// detector's, one carried from an earlier review) has none, and counts as it always did.
///
/// For the gate a vote counts only at the level that reviewer gave: a P1 from codex and a P3
/// from gemini on one finding is one vote for a P1, so `--consensus majority --fail-on p1` does
/// not count it (`threshold` is the gate's rank; `None`: no gate, every vote counts).
pub fn annotate(items: &mut [Item], r: &Reviewers, threshold: Option<u8>) {
    let of = r.answered().max(1);
    for i in items.iter_mut().filter(|i| !i.raised_by.is_empty()) {
        let raised = i.raised_by.len();
        let at_level = i
            .raised_by
            .iter()
            .filter(|v| threshold.is_none_or(|t| v.severity.rank() <= t))
            .count();
        i.votes = Some(Votes {
            raised,
            of,
            by: crate::findings::agreement_text(&i.raised_by),
            counted: r.consensus.met(at_level, of),
        });
    }
}

/// The report's line on who reviewed: `reviewers: codex, gemini (answered), qwen (failed: …);
/// consensus majority`.
pub fn line(r: &Reviewers) -> String {
    let seats: Vec<String> = r
        .seats
        .iter()
        .map(|s| {
            let mut line = match (&s.answered, &s.error) {
                (true, _) => format!("{} ({})", s.reviewer, s.family),
                (false, Some(e)) => format!("{} ({}) did not answer: {e}", s.reviewer, s.family),
                (false, None) => format!("{} ({}) did not answer", s.reviewer, s.family),
            };
            for p in &s.instead_of {
                line.push_str(&format!(", in place of {} ({})", p.reviewer, p.because));
            }
            line
        })
        .collect();
    format!(
        "{} of {} answered: {}; consensus {} (a finding counts for the gate when {})",
        r.answered(),
        r.seats.len(),
        seats.join("; "),
        r.consensus.name(),
        match r.consensus {
            Consensus::Any => "one reviewer raised it",
            Consensus::Majority => "more than half of those that answered raised it",
            Consensus::All => "every reviewer that answered raised it",
        }
    )
}
