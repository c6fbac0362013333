//! git's rename matrix: every destination left scored against every source left, keeping the
//! best four per destination exactly as git keeps them (the slot a candidate lands in decides
//! ties later, so the bookkeeping is git's, not a plain top-four).
//!
//! This is where a big change spends its time (sources x destinations similarity scores), so the
//! destinations are split over the machine's cores; the result does not depend on the split.

use std::cmp::Ordering;

use crate::git::similarity::{self, Signature, MAX_SCORE};

const SLOTS: usize = 4;
const MINIMUM: u64 = MAX_SCORE / 2;
/// Below this many scores a second thread costs more than it saves.
const PARALLEL_FROM: usize = 20_000;

/// What the matrix needs of a candidate: whether it can be scored, its size and signature, and
/// its file name (the part after the last `/`: of equal scores, a pair that keeps its file name
/// wins).
pub(super) struct Scorable<'a> {
    pub file: Option<(u64, &'a Signature)>,
    pub name: &'a [u8],
}

/// One scored (source, destination) candidate of the matrix; positions index `active`/`left`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Candidate {
    pub score: u64,
    pub same_name: bool,
    pub dst: usize,
    pub src: usize,
}

/// git's order: higher score first, then a same-name pair first; stable otherwise.
pub(super) fn compare(a: &Candidate, b: &Candidate) -> Ordering {
    b.score
        .cmp(&a.score)
        .then_with(|| b.same_name.cmp(&a.same_name))
}

/// The candidates of every destination, in destination order, each destination's in slot order.
pub(super) fn best_candidates(srcs: &[Scorable], dsts: &[Scorable]) -> Vec<Candidate> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if threads < 2 || srcs.len() * dsts.len() < PARALLEL_FROM {
        return chunk(srcs, dsts, 0);
    }
    let per = dsts.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let parts: Vec<_> = dsts
            .chunks(per)
            .enumerate()
            .map(|(k, part)| scope.spawn(move || chunk(srcs, part, k * per)))
            .collect();
        parts
            .into_iter()
            .flat_map(|h| h.join().expect("a rename-matrix thread panicked"))
            .collect()
    })
}

fn chunk(srcs: &[Scorable], dsts: &[Scorable], first: usize) -> Vec<Candidate> {
    let mut out = Vec::with_capacity(dsts.len() * SLOTS);
    for (k, dst) in dsts.iter().enumerate() {
        let mut slots: [Option<Candidate>; SLOTS] = [None; SLOTS];
        for (j, src) in srcs.iter().enumerate() {
            let c = Candidate {
                score: score(src, dst),
                same_name: src.name == dst.name,
                dst: first + k,
                src: j,
            };
            record_if_better(&mut slots, c);
        }
        out.extend(slots.into_iter().flatten());
    }
    out
}

fn score(src: &Scorable, dst: &Scorable) -> u64 {
    match (src.file, dst.file) {
        (Some((ss, s)), Some((ds, d))) if !similarity::sizes_rule_out(ss, ds, MINIMUM) => {
            similarity::score(s, ss, d, ds)
        }
        _ => 0,
    }
}

/// An empty slot sorts after every candidate.
fn slot_order(a: &Option<Candidate>, b: &Option<Candidate>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(a), Some(b)) => compare(a, b),
    }
}

/// Replaces the worst slot (the first of equals) when `c` is strictly better.
fn record_if_better(slots: &mut [Option<Candidate>; SLOTS], c: Candidate) {
    let mut worst = 0;
    for i in 1..SLOTS {
        if slot_order(&slots[i], &slots[worst]) == Ordering::Greater {
            worst = i;
        }
    }
    if slot_order(&slots[worst], &Some(c)) == Ordering::Greater {
        slots[worst] = Some(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(score: u64, same_name: bool, src: usize) -> Candidate {
        Candidate {
            score,
            same_name,
            dst: 0,
            src,
        }
    }

    #[test]
    fn slots_keep_the_best_four_in_gits_places() {
        let mut slots = [None; SLOTS];
        for (i, score) in [10, 50, 50, 20, 50, 30].into_iter().enumerate() {
            record_if_better(&mut slots, c(score, false, i));
        }
        let kept: Vec<(usize, u64)> = slots.iter().flatten().map(|c| (c.src, c.score)).collect();
        // The third 50 took the worst slot (10's, the first), then 30 took 20's: a later
        // candidate can sit before an earlier equal one, and so wins a tie, as in git.
        assert_eq!(kept, [(4, 50), (1, 50), (2, 50), (5, 30)]);
        // A same-name candidate beats an equal score under another name.
        let mut sorted: Vec<Candidate> = slots.iter().flatten().copied().collect();
        sorted.push(c(50, true, 9));
        sorted.sort_by(compare);
        assert_eq!(sorted[0].src, 9);
        assert_eq!(sorted.last().unwrap().score, 30);
    }
}
