//! The one-line progress indicator a person at a terminal sees while a model call runs: who is
//! speaking, which round of how many, what the call is for, and the seconds so far. Reviews,
//! topics and panels share it so they look alike; it is drawn only where it can be redrawn
//! (a terminal that is not `TERM=dumb`), so logs and pipes never get carriage returns.

/// Runs `f` while `  <backend> · round <round>/<of> · <what> · <n>s` ticks on stderr.
pub fn with_progress<T>(
    backend: &str,
    (round, of): (u32, u32),
    what: &str,
    f: impl FnOnce() -> T,
) -> T {
    crate::ui::terminal::ticking(&format!("  {backend} · round {round}/{of} · {what}"), f)
}

/// [`with_progress`] for a round's chunks: the line names the newest chunk started, so a
/// person sees the round move ("chunk 4/7") rather than one figure for all of them.
pub fn with_chunk_progress<T>(
    backend: &str,
    (round, of): (u32, u32),
    (started, total): (&std::sync::atomic::AtomicUsize, usize),
    f: impl FnOnce() -> T,
) -> T {
    let line = || {
        let k = started.load(std::sync::atomic::Ordering::Relaxed);
        format!(
            "  {backend} · round {round}/{of} · {}",
            chunk_label(k, total)
        )
    };
    crate::ui::terminal::ticking_with(&line, f)
}

/// `review · chunk k/total`, for the `k`-th chunk started (at least the first).
pub fn chunk_label(started: usize, total: usize) -> String {
    format!("review · chunk {}/{total}", started.clamp(1, total.max(1)))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_chunk_line_names_the_newest_chunk_started_of_all() {
        assert_eq!(super::chunk_label(0, 7), "review · chunk 1/7");
        assert_eq!(super::chunk_label(4, 7), "review · chunk 4/7");
        assert_eq!(super::chunk_label(9, 7), "review · chunk 7/7");
    }
}
