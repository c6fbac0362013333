//! git's rename matrix: every destination left scored against every source left, keeping the
//! best four per destination exactly as git keeps them (the slot a candidate lands in decides
//! ties later, so the bookkeeping is git's, not a plain top-four).
//!
//! This is where a big change spends its time (sources x destinations similarity scores), so the
//! destinations are split over the machine's cores; the result does not depend on the split.

use std::cmp::Ordering;

use super::renames::{compare, same_name, Candidate, Scorable};
use super::similarity::{self, MAX_SCORE};

const SLOTS: usize = 4;
const MINIMUM: u64 = MAX_SCORE / 2;
/// Below this many scores a second thread costs more than it saves.
const PARALLEL_FROM: usize = 20_000;

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
                same_name: same_name(src.name, dst.name),
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
