//! The one-line progress indicator a person at a terminal sees while a model call runs: who is
//! speaking, which round of how many, what the call is for, and the seconds so far. Reviews,
//! topics and panels share it so they look alike; it is drawn only where it can be redrawn
//! (a terminal that is not `TERM=dumb`), so logs and pipes never get carriage returns.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Runs `f` while `  <backend> · round <round>/<of> · <what> · <n>s` ticks on stderr.
pub fn with_progress<T>(
    backend: &str,
    (round, of): (u32, u32),
    what: &str,
    f: impl FnOnce() -> T,
) -> T {
    if !crate::terminal::can_redraw() {
        return f();
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let started = Instant::now();
            while !done.load(Ordering::Relaxed) {
                crate::terminal::progress(&format!(
                    "  {backend} · round {round}/{of} · {what} · {}s",
                    started.elapsed().as_secs()
                ));
                std::thread::sleep(Duration::from_millis(500));
            }
            crate::terminal::progress_clear();
        });
        let out = f();
        done.store(true, Ordering::Relaxed);
        out
    })
}
