//! Steps that may run at once (the chunks of a big change, the two halves of a mixed document, a
//! panellist's turn beside the verification of the entries before it) run through this one
//! scheduler, so `debate.concurrency` means the same thing everywhere (1: one step at a time) and
//! one slow call never holds up the start of the next.
//!
//! Threads, not tokio. Every job here is a blocking model call: the process runner already waits
//! on its child with `poll(2)` and enforces the timeouts and Ctrl-C itself (see
//! [`crate::sys::runner`]), so an async runtime would only wrap each call in `spawn_blocking`
//! and add a runtime to start, a second way to be cancelled and a dependency tree, for at most a
//! handful of calls in flight. A scoped pool of `limit` threads pulling from a shared queue is
//! the whole scheduler, borrows the caller's state without `Arc`s, and returns results in input
//! order.

use std::sync::Mutex;

/// Runs `job` on every item with at most `limit` running at once; results come back in the
/// order of `items`. A job that is still queued when Ctrl-C comes still runs: jobs check
/// [`crate::sys::signals::interrupted`] themselves (a model call returns at once then), so
/// each item gets exactly one result.
pub fn bounded<T, R, F>(limit: usize, items: Vec<T>, job: F) -> Vec<R>
where
    T: Send,
    R: Send,
    F: Fn(usize, T) -> R + Sync,
{
    let n = items.len();
    if n <= 1 || limit <= 1 {
        return items
            .into_iter()
            .enumerate()
            .map(|(i, t)| job(i, t))
            .collect();
    }
    let queue = Mutex::new(items.into_iter().enumerate());
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..limit.min(n) {
            s.spawn(|| loop {
                // The lock is held only to take the next item, never during a job.
                let next = queue.lock().expect("queue lock").next();
                let Some((i, item)) = next else { break };
                let r = job(i, item);
                results.lock().expect("results lock")[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .expect("results lock")
        .into_iter()
        .map(|r| r.expect("every job ran"))
        .collect()
}

/// Runs two different steps at once (a panellist's turn beside the verification of what was
/// said before it), or one after the other when `limit` is 1, and returns both results.
pub fn beside<A, B>(
    limit: usize,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B)
where
    A: Send,
    B: Send,
{
    if limit <= 1 {
        let first = a();
        return (first, b());
    }
    std::thread::scope(|s| {
        let second = s.spawn(b);
        let first = a();
        (first, second.join().expect("a step beside another"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn results_keep_input_order_and_no_more_than_limit_run_at_once() {
        let running = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let out = bounded(3, (0..10).collect(), |i, x: u64| {
            let now = running.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            // Later items finish first, so order can only come from the scheduler.
            std::thread::sleep(Duration::from_millis(30 - 2 * x));
            running.fetch_sub(1, Ordering::SeqCst);
            (i, x * 10)
        });
        assert_eq!(out, (0..10).map(|i| (i, i as u64 * 10)).collect::<Vec<_>>());
        assert_eq!(peak.load(Ordering::SeqCst), 3);
    }

    #[test]
    fn two_steps_run_beside_each_other_unless_the_limit_is_one() {
        let both = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let step = || {
            peak.fetch_max(both.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(30));
            both.fetch_sub(1, Ordering::SeqCst);
        };
        let (a, b) = beside(2, || (step(), 1).1, || (step(), "b").1);
        assert_eq!((a, b), (1, "b"));
        assert_eq!(peak.swap(0, Ordering::SeqCst), 2);
        beside(1, step, step);
        assert_eq!(peak.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_limit_of_one_runs_in_order_on_the_calling_thread() {
        let me = std::thread::current().id();
        let out = bounded(1, vec![1, 2, 3], |_, x| {
            assert_eq!(std::thread::current().id(), me);
            x + 1
        });
        assert_eq!(out, vec![2, 3, 4]);
        assert!(bounded(4, Vec::<u8>::new(), |_, x| x).is_empty());
    }
}
