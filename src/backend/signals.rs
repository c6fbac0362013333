//! Ctrl-C while a model works: every live child process group is killed, then we exit 130.
//!
//! The runner starts each CLI in its own process group (so one signal reaches everything it
//! spawns), which also means the terminal's SIGINT no longer reaches it. So we catch SIGINT,
//! SIGTERM and SIGHUP ourselves: the handler (async-signal-safe: atomics and `kill` only) sends
//! SIGTERM to every registered group and raises a flag; the runner sees its child end, and the
//! caller turns the flag into an `interrupted` error (exit 130) after saving what it has. When no
//! child is running the handler restores the default action and re-raises, so Ctrl-C in any other
//! phase stops us as it always did, unless a caller that checks the flag itself (the review loop,
//! between its steps) asked for [`graceful`] handling. A second Ctrl-C always stops us at once.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::Once;

const SLOTS: usize = 64;

static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static GRACEFUL: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// True once SIGINT, SIGTERM or SIGHUP arrived while a model call ran.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// From now on an interrupt only raises the flag (and kills running children); the caller checks
/// [`interrupted`] between its steps and saves its state before exiting.
pub fn graceful() {
    install();
    GRACEFUL.store(true, Ordering::SeqCst);
}

/// A registered process group; unregistered when dropped.
pub struct Guard(usize);

impl Drop for Guard {
    fn drop(&mut self) {
        GROUPS[self.0].store(0, Ordering::SeqCst);
    }
}

/// Registers `pgid` so an interrupt kills it. `None` when every slot is taken (64 concurrent
/// calls): the group is still killed by its own deadlines.
pub fn register(pgid: i32) -> Option<Guard> {
    install();
    if interrupted() {
        // An interrupt came while this child was starting: it must not outlive us.
        unsafe { libc::kill(-pgid, libc::SIGTERM) };
    }
    (0..SLOTS)
        .find(|&i| {
            GROUPS[i]
                .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })
        .map(Guard)
}

fn install() {
    INSTALL.call_once(|| unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = handler as extern "C" fn(libc::c_int) as usize;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    });
}

extern "C" fn handler(sig: libc::c_int) {
    let mut any = false;
    for slot in &GROUPS {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            any = true;
            unsafe { libc::kill(-pgid, libc::SIGTERM) };
        }
    }
    let again = INTERRUPTED.swap(true, Ordering::SeqCst);
    if again || (!any && !GRACEFUL.load(Ordering::SeqCst)) {
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
}
