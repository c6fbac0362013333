//! Several reviewers, one verdict: who sits in a round, which disputes each is asked about, each
//! reviewer's findings tagged with its vote, and who answered.
//!
//! Every reviewer gets the same version in the same round, run at once with the other calls
//! ([`crate::review::chunked`]); their findings are merged by identity afterwards
//! ([`crate::review::matching::merge_reviewers`]) and the judge rules once on the merged set. A
//! reviewer that fails is named in the round's notes and the others count; the round fails only
//! when fewer answered than the consensus rule needs. With one reviewer nothing here changes a
//! round: findings carry no votes and the record names no seats.

use crate::agents::{Answer, Backend, BackendError};
use crate::answer::judge::Judged;
use crate::findings::{Finding, Vote};
use crate::review::chunked::Job;
use crate::review::Review;
use crate::store::round::Seat;

impl Review<'_> {
    /// The reviewers of a round: the reviewer, then the others.
    pub(super) fn seats(&self) -> Vec<&dyn Backend> {
        std::iter::once(self.reviewer.as_ref())
            .chain(self.others.iter().map(|b| b.as_ref()))
            .collect()
    }

    /// More than one reviewer.
    pub(super) fn is_panel(&self) -> bool {
        !self.others.is_empty()
    }

    /// The reviewer of seat `k`.
    pub(super) fn seat(&self, k: usize) -> &dyn Backend {
        match k {
            0 => self.reviewer.as_ref(),
            k => self.others[k - 1].as_ref(),
        }
    }

    /// Each seat, and whether any of its calls answered; empty with one reviewer.
    pub(super) fn seat_records(
        &self,
        jobs: &[Job],
        results: &[(Result<Answer, BackendError>, u64)],
    ) -> Vec<Seat> {
        if !self.is_panel() {
            return Vec::new();
        }
        self.seats()
            .iter()
            .enumerate()
            .map(|(k, who)| {
                let mine: Vec<_> = jobs
                    .iter()
                    .zip(results)
                    .filter(|(j, _)| j.seat == k)
                    .map(|(_, (r, _))| r)
                    .collect();
                Seat {
                    reviewer: who.name().to_string(),
                    family: who.family().0.clone(),
                    answered: mine.iter().any(|r| r.is_ok()),
                    error: mine
                        .iter()
                        .all(|r| r.is_err())
                        .then(|| mine.iter().find_map(|r| r.as_ref().err()))
                        .flatten()
                        .map(ToString::to_string),
                }
            })
            .collect()
    }

    /// Whether enough reviewers answered for the consensus rule to say anything.
    pub(super) fn enough(&self, seats: &[Seat]) -> bool {
        let answered = seats.iter().filter(|s| s.answered).count();
        self.settings.consensus.enough(answered, seats.len())
    }

    /// A reviewer's finding, with its vote when several review.
    pub(super) fn tag(&self, who: &dyn Backend, mut f: Finding) -> Finding {
        if self.is_panel() {
            f.raised_by = vec![Vote {
                reviewer: who.name().to_string(),
                family: who.family().0.clone(),
                severity: f.severity,
                title: String::new(),
            }];
        }
        f
    }
}

/// The open disputes a reviewer is asked about: those of the findings it raised (all of them
/// with one reviewer, and a finding raised before anyone voted goes to every reviewer).
pub(super) fn disputes_for<'j>(open: &[&'j Judged], who: &str, panel: bool) -> Vec<&'j Judged> {
    open.iter()
        .copied()
        .filter(|j| {
            !panel
                || j.finding.raised_by.is_empty()
                || j.finding.raised_by.iter().any(|v| v.reviewer == who)
        })
        .collect()
}

/// The notes of a round by several on who did not answer.
pub(super) fn failed_notes(seats: &[Seat]) -> Vec<String> {
    let answered: Vec<&str> = seats
        .iter()
        .filter(|s| s.answered)
        .map(|s| s.reviewer.as_str())
        .collect();
    seats
        .iter()
        .filter(|s| !s.answered)
        .map(|s| {
            format!(
                "the reviewer {} did not answer ({}); {} counted",
                s.reviewer,
                s.error.as_deref().unwrap_or("no answer"),
                if answered.is_empty() {
                    "no other reviewer".to_string()
                } else {
                    answered.join(" and ")
                }
            )
        })
        .collect()
}
