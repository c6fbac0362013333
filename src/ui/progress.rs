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
