//! Ctrl-C while a model works: every live child process group is killed, then we exit 130.
//!
//! The runner starts each CLI in its own process group (so one signal reaches everything it
//! spawns), which also means the terminal's SIGINT no longer reaches it. So we catch SIGINT,
//! SIGTERM and SIGHUP ourselves: the handler (async-signal-safe: atomics, `kill`, `getppid`,
//! `clock_gettime` and `sigaction` only, and reentrant, since the registry's handlers may nest
//! across signals) sends SIGTERM to every registered group and raises a flag; the runner sees its
//! child end, and the caller turns the flag into an `interrupted` error (exit 130) after saving
//! what it has. When no child is running the handler restores the default action and re-raises,
//! so Ctrl-C in any other phase stops us as it always did, unless a caller that checks the flag
//! itself (the review loop, between its steps) asked for [`graceful`] handling. A second
//! interrupt always stops us at once.
//!
//! A signal that was ignored when we started stays ignored: a script's `cmd &` starts us with
//! SIGINT and SIGQUIT ignored (POSIX), `nohup` with SIGHUP ignored, and whoever did that meant
//! it, so no handler is installed for such a signal. SIGXFSZ is ignored from the start
//! ([`at_start`]): under `ulimit -f` a write past the limit then fails with EFBIG, which the
//! writer reports naming the file, instead of the signal killing us mid-write.
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
use std::sync::{Once, OnceLock};

use rustix::process::{Pid, Signal};

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

/// The signals an interrupt comes as.
const SIGNALS: [Signal; 3] = [Signal::INT, Signal::TERM, Signal::HUP];

/// Where a copy of a signal came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Origin {
    /// `kill` from our parent process (git forwarding what it got).
    Parent = 1,
    /// The terminal, the kernel, or any other process.
    Other = 2,
}

/// The dispositions we were started with, read once before we change any.
struct Start {
    /// Of [`SIGNALS`] and SIGXFSZ, those ignored (bit `n` for signal `n`).
    ignored: u64,
}

fn start() -> &'static Start {
    static START: OnceLock<Start> = OnceLock::new();
    START.get_or_init(|| Start {
        ignored: SIGNALS
            .iter()
            .chain([&Signal::XFSZ])
            .filter(|s| ignored(s.as_raw()))
            .fold(0, |bits, s| bits | 1 << s.as_raw()),
    })
}

/// Whether `sig` was ignored when we started.
pub fn ignored_at_start(sig: Signal) -> bool {
    start().ignored & (1 << sig.as_raw()) != 0
}

/// First thing in `main`: reads the dispositions we were started with, and ignores SIGXFSZ so
/// a write past `ulimit -f` fails with EFBIG rather than killing us with a half-written file.
pub fn at_start() {
    start();
    set_action(Signal::XFSZ.as_raw(), libc::SIG_IGN);
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
        kill_group(pgid, Signal::TERM);
    }
    (0..SLOTS)
        .find(|&i| {
            GROUPS[i]
                .compare_exchange(0, pgid, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
        })
        .map(Guard)
}

/// Sends `sig` to process group `pgid`; a group that is gone already is fine.
pub fn kill_group(pgid: i32, sig: Signal) {
    if let Some(pid) = Pid::from_raw(pgid) {
        let _ = rustix::process::kill_process_group(pid, sig);
    }
}

fn install() {
    INSTALL.call_once(|| {
        for sig in SIGNALS.iter().filter(|s| !ignored_at_start(**s)) {
            // SAFETY: `handle` is async-signal-safe and reentrant: it touches only atomics and
            // makes only async-signal-safe system calls (kill, getppid, clock_gettime,
            // sigaction), never allocates, locks or panics.
            let _ = unsafe { signal_hook_registry::register_sigaction(sig.as_raw(), handle) };
        }
    });
}

/// Reads whether `sig` is ignored now.
fn ignored(sig: libc::c_int) -> bool {
    // SAFETY: sigaction(2) with no new action only writes the current one into `old`, a zeroed
    // (valid) sigaction struct we own.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(sig, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}

/// Sets `sig` to `SIG_DFL` or `SIG_IGN`. Async-signal-safe: used in the handler and between
/// fork and exec.
pub(in crate::sys) fn set_action(sig: libc::c_int, to: libc::sighandler_t) {
    debug_assert!(to == libc::SIG_DFL || to == libc::SIG_IGN);
    // SAFETY: sigaction(2) from a zeroed (valid) struct whose action is SIG_DFL or SIG_IGN, so no
    // code of ours becomes a handler; sigaction is async-signal-safe.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = to;
        libc::sigaction(sig, &action, std::ptr::null_mut());
    }
}

/// Sends SIGINT to this process, as a keypress would, and returns once the handler has run
/// (for tests of the handler). The kernel hands a process-wide signal to any thread that does
/// not block it, so the wait is for the flag (bounded: with SIGINT ignored it never comes).
#[cfg(test)]
pub fn interrupt_self() {
    let _ = rustix::process::kill_process(rustix::process::getpid(), Signal::INT);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !interrupted() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// The name of signal `sig` (`SIGSEGV`), or `signal N` for one without a common name.
pub fn name(sig: i32) -> String {
    const NAMES: [(Signal, &str); 20] = [
        (Signal::HUP, "SIGHUP"),
        (Signal::INT, "SIGINT"),
        (Signal::QUIT, "SIGQUIT"),
        (Signal::ILL, "SIGILL"),
        (Signal::TRAP, "SIGTRAP"),
        (Signal::ABORT, "SIGABRT"),
        (Signal::BUS, "SIGBUS"),
        (Signal::FPE, "SIGFPE"),
        (Signal::KILL, "SIGKILL"),
        (Signal::USR1, "SIGUSR1"),
        (Signal::SEGV, "SIGSEGV"),
        (Signal::USR2, "SIGUSR2"),
        (Signal::PIPE, "SIGPIPE"),
        (Signal::ALARM, "SIGALRM"),
        (Signal::TERM, "SIGTERM"),
        (Signal::XCPU, "SIGXCPU"),
        (Signal::XFSZ, "SIGXFSZ"),
        (Signal::VTALARM, "SIGVTALRM"),
        (Signal::PROF, "SIGPROF"),
        (Signal::SYS, "SIGSYS"),
    ];
    NAMES
        .iter()
        .find(|(s, _)| s.as_raw() == sig)
        .map_or_else(|| format!("signal {sig}"), |(_, n)| n.to_string())
}

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
        let repeat = seen & bit == 0 || sig == Signal::HUP.as_raw();
        if s == sig && repeat && now_ms.saturating_sub(at) <= PAIR_WINDOW_MS {
            return (pack(s, seen | bit, at), true);
        }
    }
    (pack(sig, bit, now_ms), false)
}

fn now_ms() -> u64 {
    let ts = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    // +1 so no real record packs to 0 ("none yet").
    (ts.tv_sec as u64) * 1000 + (ts.tv_nsec as u64) / 1_000_000 + 1
}

/// Where a signal came from, from its `siginfo`.
fn origin(info: &libc::siginfo_t) -> Origin {
    if info.si_code != libc::SI_USER {
        return Origin::Other;
    }
    // SAFETY: for SI_USER the kernel filled in the sender's pid, so that union field is the one
    // written.
    let sender = unsafe { info.si_pid() };
    match rustix::process::getppid() {
        Some(parent) if parent.as_raw_nonzero().get() == sender => Origin::Parent,
        _ => Origin::Other,
    }
}

/// The handler (through signal-hook-registry, which keeps errno as the interrupted code had it).
fn handle(info: &libc::siginfo_t) {
    let sig = info.si_signo;
    let origin = origin(info);
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
    let kill_with = if again { Signal::KILL } else { Signal::TERM };
    let mut any = false;
    for slot in &GROUPS {
        let pgid = slot.load(Ordering::SeqCst);
        if pgid > 0 {
            any = true;
            kill_group(pgid, kill_with);
        }
    }
    if again || (!any && !GRACEFUL.load(Ordering::SeqCst)) {
        // Die of the signal, as without a handler: blocked while we run, it is delivered with
        // the default action as soon as the handler returns.
        set_action(sig, libc::SIG_DFL);
        if let Some(s) = Signal::from_named_raw(sig) {
            let _ = rustix::process::kill_process(rustix::process::getpid(), s);
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
