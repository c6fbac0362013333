//! Several reviewers, one verdict: who sits in a round (and who stands in for one that never
//! answers), what each is shown of the round before (its own findings, the others' to agree or
//! disagree with, the disputes of the findings it raised), each reviewer's findings tagged with
//! its vote, a withdrawal that takes back one vote only, and who answered.
//!
//! Every reviewer gets the same version in the same round, run at once with the other calls
//! ([`crate::review::chunked`]); their findings are merged by identity afterwards
//! ([`crate::review::matching::merge_reviewers`]) and the judge rules once on the merged set. A
//! reviewer that fails is named in the round's notes and the others count; the round fails only
//! when fewer answered than the consensus rule needs. With one reviewer nothing here changes a
//! round: findings carry no votes and the record names no seats.

use crate::agents::{Answer, Backend, BackendError};
use crate::answer::dispute::{Replies, Reply};
use crate::answer::judge::Judged;
use crate::findings::{Finding, Vote};
use crate::review::chunked::Job;
use crate::review::Review;
use crate::store::call::PassedOver;
use crate::store::round::Seat;

/// What a reviewer is asked about the findings another reviewer raised in the round before, so
/// cross-family agreement is asked for, not guessed.
pub(super) const ASK_OTHERS: &str = "For each finding raised by another reviewer: agree or \
disagree, with evidence. If you agree, raise it as a finding of your own (same place, your own \
level and words); if you disagree, say why in one line (path:line, a reproducing input or a \
measurement) and do not raise it.\n";

/// A round's findings as one reviewer of several sees them: those it raised (and those nobody
/// voted on: the judge's, and findings from before anyone voted), then those only others raised.
pub(super) fn split(findings: &[Judged], who: &str) -> (Vec<Judged>, Vec<Judged>) {
    findings.iter().cloned().partition(|j| {
        j.finding.raised_by.is_empty() || j.finding.raised_by.iter().any(|v| v.reviewer == who)
    })
}

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
                    instead_of: Vec::new(),
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

    /// In the first round of a review by several, the failover chain fills the seat of a reviewer
    /// that never answered: the next of the chain reviews its part, and keeps the seat for the
    /// rounds after. Returns, per seat filled, who held it before and why they did not answer.
    pub(super) fn stand_ins(
        &mut self,
        n: u32,
        jobs: &[Job],
        results: &mut [(Result<Answer, BackendError>, u64)],
        started: std::time::Instant,
    ) -> Vec<(usize, Vec<PassedOver>)> {
        let mut out = Vec::new();
        if !self.is_panel() {
            return out;
        }
        for k in 0..self.seats().len() {
            let mine: Vec<usize> = (0..jobs.len()).filter(|i| jobs[*i].seat == k).collect();
            let mut passed = Vec::new();
            while mine.iter().all(|i| results[*i].0.is_err()) && !self.fallback.is_empty() {
                if crate::sys::signals::interrupted() {
                    return out;
                }
                let Some(e) = mine.iter().find_map(|i| results[*i].0.as_ref().err()) else {
                    break;
                };
                // One already seated gives no other opinion: the next of the chain.
                let seated: Vec<String> =
                    self.seats().iter().map(|b| b.name().to_string()).collect();
                let Some(next) = self
                    .fallback
                    .iter()
                    .position(|b| !seated.iter().any(|s| s == b.name()))
                else {
                    break;
                };
                let fb = self.fallback.remove(next);
                let slot = match k {
                    0 => &mut self.reviewer,
                    k => &mut self.others[k - 1],
                };
                let was = std::mem::replace(slot, fb);
                crate::errln!(
                    "note: the reviewer {} did not answer ({e}); the fallback reviewer {} reviews \
                     in its place",
                    was.name(),
                    self.seat(k).name()
                );
                passed.push(PassedOver {
                    reviewer: was.name().to_string(),
                    because: e.to_string(),
                });
                let again: Vec<Job> = mine
                    .iter()
                    .map(|i| Job {
                        segment: jobs[*i].segment,
                        chunk: jobs[*i].chunk.clone(),
                        prompt: jobs[*i].prompt.clone(),
                        seat: k,
                    })
                    .collect();
                for (i, r) in mine.iter().zip(self.review_all(n, &again, started)) {
                    results[*i] = r;
                }
            }
            if !passed.is_empty() {
                out.push((k, passed));
            }
        }
        out
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

/// In a review by several, a withdrawal takes back the withdrawing reviewer's own vote only: a
/// finding another raiser did not withdraw stands, with that raiser's answer (or none: it stands
/// as raised). `by_seat` is each reviewer's replies; `merged` (all of them together, which
/// [`crate::review::disputes::settle`] reads) is corrected in place. Returns, per finding, the
/// reviewers whose votes leave it.
pub(super) fn own_withdrawals(
    open: &[&Judged],
    by_seat: &[(String, Replies)],
    merged: &mut Replies,
) -> Vec<(String, Vec<String>)> {
    let reply_of = |who: &str, id: &str| {
        by_seat
            .iter()
            .find(|(name, _)| name == who)
            .and_then(|(_, r)| r.said.get(id))
    };
    let mut out = Vec::new();
    for j in open.iter().filter(|j| j.finding.raised_by.len() > 1) {
        let id = &j.finding.id;
        let (gone, stay): (Vec<&Vote>, Vec<&Vote>) = j
            .finding
            .raised_by
            .iter()
            .partition(|v| matches!(reply_of(&v.reviewer, id), Some((Reply::Withdraw, _))));
        if gone.is_empty() || stay.is_empty() {
            continue;
        }
        merged.said.remove(id);
        merged.ambiguous.retain(|a| a != id);
        if let Some(answer) = stay.iter().find_map(|v| reply_of(&v.reviewer, id)) {
            merged.said.insert(id.clone(), answer.clone());
        }
        out.push((
            id.clone(),
            gone.iter().map(|v| v.reviewer.clone()).collect(),
        ));
    }
    out
}

/// Takes the withdrawn votes out of the findings that came back, and their level back to the
/// highest of the votes that stay; one note per finding.
pub(super) fn drop_votes(back: &mut [Finding], gone: &[(String, Vec<String>)]) -> Vec<String> {
    let mut notes = Vec::new();
    for f in back.iter_mut() {
        let Some((_, who)) = gone.iter().find(|(id, _)| *id == f.id) else {
            continue;
        };
        f.raised_by.retain(|v| !who.contains(&v.reviewer));
        if let Some(top) = f.raised_by.iter().map(|v| v.severity).min() {
            f.severity = top;
        }
        notes.push(format!(
            "{} withdrew {} {}; it stands for {}",
            who.join(" and "),
            if who.len() == 1 {
                "its vote on"
            } else {
                "their votes on"
            },
            f.id,
            crate::findings::agreement_text(&f.raised_by)
        ));
    }
    notes
}

/// Why a round by several failed, when too few answered for the consensus rule: `too few
/// reviewers answered for --consensus all (2 of 3)`; `None` when enough did, or one reviews.
pub(super) fn too_few(seats: &[Seat], rule: crate::choices::Consensus) -> Option<String> {
    let answered = seats.iter().filter(|s| s.answered).count();
    (!seats.is_empty() && !rule.enough(answered, seats.len())).then(|| {
        format!(
            "too few reviewers answered for --consensus {} ({answered} of {})",
            rule.name(),
            seats.len()
        )
    })
}
