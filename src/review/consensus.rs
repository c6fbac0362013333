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
use crate::findings::{Finding, Severity, Vote};
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

/// One reviewer's replies to the disputes of a round, and whether its answers approve the
/// change as a whole.
pub(super) struct SeatReplies {
    pub reviewer: String,
    pub replies: Replies,
    pub agreement: bool,
}

/// What one disputed finding's raisers answered apart, in a review by several: who withdrew
/// their vote, and who lowered theirs to which level.
pub(super) struct VoteChange {
    id: String,
    gone: Vec<String>,
    lowered: Vec<(String, Severity)>,
}

/// In a review by several, a raiser's withdrawal or lowering is its own vote's: a finding another
/// raiser did not withdraw stands, at the level of the votes that stay. `by_seat` is each
/// reviewer's replies; `merged` (all of them together, which
/// [`crate::review::disputes::settle`] reads) is corrected in place to what the raisers that
/// stay said: a hold if one holds, a lowering if all of them lowered, else nothing (it stands as
/// raised). Returns the changes to apply to the votes of the findings that come back.
pub(super) fn own_replies(
    open: &[&Judged],
    by_seat: &[SeatReplies],
    merged: &mut Replies,
) -> Vec<VoteChange> {
    // A reviewer whose answer approves the change as a whole and says nothing of the finding
    // withdraws its vote, as one reviewer's approval withdraws what it does not hold.
    let approved = (
        Reply::Withdraw,
        "it approved the change as a whole".to_string(),
    );
    let reply_of = |who: &str, id: &str| {
        by_seat.iter().find(|r| r.reviewer == who).and_then(|r| {
            r.replies.said.get(id).or(
                (r.agreement && !r.replies.ambiguous.iter().any(|a| a == id)).then_some(&approved),
            )
        })
    };
    let mut out = Vec::new();
    for j in open.iter().filter(|j| j.finding.raised_by.len() > 1) {
        let id = &j.finding.id;
        let replies: Vec<(&Vote, Option<&(Reply, String)>)> = j
            .finding
            .raised_by
            .iter()
            .map(|v| (v, reply_of(&v.reviewer, id)))
            .collect();
        let gone: Vec<String> = replies
            .iter()
            .filter(|(_, r)| matches!(r, Some((Reply::Withdraw, _))))
            .map(|(v, _)| v.reviewer.clone())
            .collect();
        let lowered: Vec<(String, Severity)> = replies
            .iter()
            .filter_map(|(v, r)| match r {
                Some((Reply::Lower(s), _)) => Some((v.reviewer.clone(), *s)),
                _ => None,
            })
            .collect();
        let stay: Vec<_> = replies
            .iter()
            .filter(|(v, _)| !gone.contains(&v.reviewer))
            .collect();
        if (gone.is_empty() && lowered.is_empty()) || stay.is_empty() {
            continue;
        }
        merged.said.remove(id);
        merged.ambiguous.retain(|a| a != id);
        let held = stay
            .iter()
            .find_map(|(_, r)| r.filter(|(r, _)| matches!(r, Reply::Hold | Reply::HoldAt(_))));
        let all_lowered = stay
            .iter()
            .all(|(_, r)| matches!(r, Some((Reply::Lower(_), _))));
        if let Some(h) = held {
            merged.said.insert(id.clone(), h.clone());
        } else if all_lowered {
            // The highest of the lowered levels: the finding stands at it.
            if let Some(r) = stay
                .iter()
                .filter_map(|(_, r)| *r)
                .min_by_key(|(r, _)| match r {
                    Reply::Lower(s) => *s,
                    _ => Severity::Unclassified,
                })
            {
                merged.said.insert(id.clone(), r.clone());
            }
        }
        out.push(VoteChange {
            id: id.clone(),
            gone,
            lowered,
        });
    }
    out
}

/// Applies the raisers' own replies to the votes of the findings that came back (withdrawn votes
/// out, lowered ones at their new level) and their level back to the highest vote; one note per
/// finding.
pub(super) fn apply_votes(back: &mut [Finding], changes: &[VoteChange]) -> Vec<String> {
    let mut notes = Vec::new();
    for f in back.iter_mut() {
        let Some(c) = changes.iter().find(|c| c.id == f.id) else {
            continue;
        };
        f.raised_by.retain(|v| !c.gone.contains(&v.reviewer));
        for v in &mut f.raised_by {
            if let Some((_, s)) = c.lowered.iter().find(|(who, _)| *who == v.reviewer) {
                v.severity = *s;
            }
        }
        if let Some(top) = f.raised_by.iter().map(|v| v.severity).min() {
            f.severity = top;
        }
        let mut said: Vec<String> = Vec::new();
        if !c.gone.is_empty() {
            said.push(format!(
                "{} withdrew {} {}",
                c.gone.join(" and "),
                if c.gone.len() == 1 {
                    "its vote on"
                } else {
                    "their votes on"
                },
                f.id
            ));
        }
        for (who, s) in &c.lowered {
            said.push(format!(
                "{who} lowered its vote on {} to {}",
                f.id,
                s.describe()
            ));
        }
        notes.push(format!(
            "{}; it stands at {} for {}",
            said.join("; "),
            f.severity.describe(),
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
