//! Ctrl-C while a model works: every live child process group is killed, then we exit 130.
//!
//! The runner starts each CLI in its own process group (so one signal reaches everything it
//! spawns), which also means the terminal's SIGINT no longer reaches it. So we catch SIGINT,
//! SIGTERM and SIGHUP ourselves: the handler (async-signal-safe: atomics, `kill`, `getppid` and
//! `clock_gettime` only) sends SIGTERM to every registered group and raises a flag; the runner
//! sees its child end, and the caller turns the flag into an `interrupted` error (exit 130) after
//! saving what it has. When no child is running the handler restores the default action and
//! re-raises, so Ctrl-C in any other phase stops us as it always did, unless a caller that checks
//! the flag itself (the review loop, between its steps) asked for [`graceful`] handling. A second
//! interrupt always stops us at once.
//!
//! One keypress can reach us twice. Run as `git debate`, we share git's process group, so the
//! terminal signals us directly, and git, which kills its dashed child with the signal it got,
//! sends a second copy (standard signals merge only when the first is still pending, so whether
//! we see one or two is a race). Counting both would turn every Ctrl-C into "exit at once" and
//! lose the session. So each signal's origin is read from its `siginfo`: a copy sent with
//! `kill` by our parent process, and a copy from anywhere else (the terminal, another process),
//! are one interrupt when they come as a pair within [`PAIR_WINDOW_MS`]. A second keypress
//! brings a new terminal copy (git, still waiting for us inside its handler, forwards no more),
//! so a deliberate second Ctrl-C still exits at once.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Once;

const SLOTS: usize = 64;

/// How far apart the two copies of one keypress may arrive. Git forwards within microseconds;
/// the margin covers a loaded machine, and a deliberate second press within it is still seen
/// (it repeats an origin the pair has already used).
pub const PAIR_WINDOW_MS: u64 = 2000;

static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static GRACEFUL: AtomicBool = AtomicBool::new(false);
/// The last counted interrupt, packed by [`pack`] (0: none yet).
static LAST: AtomicU64 = AtomicU64::new(0);
static INSTALL: Once = Once::new();

/// Where a copy of a signal came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Origin {
    /// `kill` from our parent process (git forwarding what it got).
    Parent = 1,
    /// The terminal, the kernel, or any other process.
    Other = 2,
}

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
        action.sa_sigaction =
            handler as extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) as usize;
        action.sa_flags = libc::SA_RESTART | libc::SA_SIGINFO;
        // Handlers never nest on one thread: each sees the others' effects whole.
        libc::sigemptyset(&mut action.sa_mask);
        for sig in SIGNALS {
            libc::sigaddset(&mut action.sa_mask, sig);
        }
        for sig in SIGNALS {
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    });
}

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// A counted interrupt as one word, so the handler updates it with one compare-and-swap:
/// signal number (8 bits), origins seen (8 bits), milliseconds on the monotonic clock (48 bits).
fn pack(sig: i32, origins: u64, at_ms: u64) -> u64 {
    ((sig as u64 & 0xff) << 56) | ((origins & 0xff) << 48) | (at_ms & 0xffff_ffff_ffff)
}

/// Whether a copy of `sig` from `origin` at `now_ms` repeats the interrupt recorded in `last`:
/// the same signal, within the window, from an origin that interrupt has not come from yet.
/// Returns the new record and whether this copy is a duplicate.
pub fn observe(last: u64, sig: i32, origin: Origin, now_ms: u64) -> (u64, bool) {
    let bit = origin as u64;
    if last != 0 {
        let (s, seen, at) = (
            (last >> 56) as i32,
            (last >> 48) & 0xff,
            last & 0xffff_ffff_ffff,
        );
        // A hangup is never pressed twice on purpose: the kernel's, the shell's and git's copies
        // of one closed terminal are all one.
        let repeat = seen & bit == 0 || sig == libc::SIGHUP;
        if s == sig && repeat && now_ms.saturating_sub(at) <= PAIR_WINDOW_MS {
            return (pack(s, seen | bit, at), true);
        }
    }
    (pack(sig, bit, now_ms), false)
}

fn now_ms() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime is async-signal-safe and writes only `ts`.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    // +1 so no real record packs to 0 ("none yet").
    (ts.tv_sec as u64) * 1000 + (ts.tv_nsec as u64) / 1_000_000 + 1
}

extern "C" fn handler(sig: libc::c_int, info: *mut libc::siginfo_t, c: *mut libc::c_void) {
    // The interrupted code may be between a failed call and its read of errno: kill(2) of a group
    // that is gone (ESRCH) must not change what it reads.
    #[cfg(target_os = "linux")]
    // SAFETY: errno is thread-local; reading and restoring it is async-signal-safe.
    let saved = unsafe { *libc::__errno_location() };
    handle(sig, info, c);
    #[cfg(target_os = "linux")]
    // SAFETY: as above.
    unsafe {
        *libc::__errno_location() = saved
    };
}

fn handle(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler; getppid cannot fail.
    let origin = unsafe {
        match info.as_ref() {
            Some(i) if i.si_code == libc::SI_USER && i.si_pid() == libc::getppid() => {
                Origin::Parent
            }
            _ => Origin::Other,
        }
    };
    let now = now_ms();
    let mut last = LAST.load(Ordering::SeqCst);
    loop {
        let (next, duplicate) = observe(last, sig, origin, now);
        match LAST.compare_exchange(last, next, Ordering::SeqCst, Ordering::SeqCst) {
            Ok(_) if duplicate => return,
            Ok(_) => break,
            Err(seen) => last = seen,
        }
    }
    let again = INTERRUPTED.swap(true, Ordering::SeqCst);
    // The first interrupt asks children to stop; a second one leaves no time to ask.
    let kill_with = if again { libc::SIGKILL } else { libc::SIGTERM };
    let mut any = false;
    for slot in &GROUPS {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            any = true;
            unsafe { libc::kill(-pgid, kill_with) };
        }
    }
    if again || (!any && !GRACEFUL.load(Ordering::SeqCst)) {
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INT: i32 = libc::SIGINT;

    /// Feeds copies through [`observe`]; returns which ones count as interrupts.
    fn counted(copies: &[(i32, Origin, u64)]) -> Vec<bool> {
        let mut last = 0;
        copies
            .iter()
            .map(|&(sig, origin, at)| {
                let (next, duplicate) = observe(last, sig, origin, at);
                last = next;
                !duplicate
            })
            .collect()
    }

    #[test]
    fn the_terminal_copy_and_gits_copy_of_one_keypress_are_one_interrupt() {
        use Origin::*;
        assert_eq!(
            counted(&[(INT, Other, 1000), (INT, Parent, 1001)]),
            [true, false]
        );
        // In either order.
        assert_eq!(
            counted(&[(INT, Parent, 1000), (INT, Other, 1003)]),
            [true, false]
        );
    }

    #[test]
    fn a_second_keypress_counts_even_soon_after_the_first() {
        use Origin::*;
        // Two presses under git: the second brings only a terminal copy.
        assert_eq!(
            counted(&[(INT, Other, 1000), (INT, Parent, 1001), (INT, Other, 1300)]),
            [true, false, true]
        );
        // Without git (no parent copies), every press counts.
        assert_eq!(
            counted(&[(INT, Other, 1000), (INT, Other, 1100)]),
            [true, true]
        );
        // A parent that sends twice (a supervisor, a test harness) is heard twice.
        assert_eq!(
            counted(&[(INT, Parent, 1000), (INT, Parent, 1100)]),
            [true, true]
        );
    }

    #[test]
    fn copies_far_apart_or_of_other_signals_are_separate_interrupts() {
        use Origin::*;
        assert_eq!(
            counted(&[(INT, Other, 1000), (INT, Parent, 1000 + PAIR_WINDOW_MS + 1)]),
            [true, true]
        );
        assert_eq!(
            counted(&[(INT, Other, 1000), (libc::SIGTERM, Parent, 1001)]),
            [true, true]
        );
    }

    #[test]
    fn a_closed_terminal_is_one_hangup_however_many_copies_come() {
        use Origin::*;
        let hup = libc::SIGHUP;
        // The kernel's copy, the shell's (both from "elsewhere") and git's.
        assert_eq!(
            counted(&[(hup, Other, 1000), (hup, Other, 1001), (hup, Parent, 1002)]),
            [true, false, false]
        );
        // Two Ctrl-C from the terminal are still two.
        assert_eq!(
            counted(&[(INT, Other, 1000), (INT, Other, 1500)]),
            [true, true]
        );
    }
}
