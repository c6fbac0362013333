//! Running one model CLI as a child process, safely: the shared runner every CLI backend uses.
//!
//! Agent CLIs hang, stall silently, retry forever and leave children behind (the recorded runs
//! show all of these), so nothing here trusts the child: the prompt goes on stdin while stdout and
//! stderr are drained, all from this thread with `poll` ([`crate::sys::pipes`]), so a 10 MB prompt
//! cannot deadlock and a pipe held open by someone else cannot hold us; captured output is
//! bounded; a wall-clock deadline and an idle deadline (no output for too long) kill the child's
//! whole process group. Once the child itself has exited we read on only for a short grace, then
//! stop, kill its group and sweep away whatever it left ([`crate::sys::reap`]: detached grandchildren
//! too, and the child dies with us if we are killed). No shell is involved: the program and its
//! arguments are passed as they are.

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::sys::pipes::Pipes;
pub use crate::sys::pipes::MAX_CAPTURE;
use crate::sys::reap;

/// After the child itself exits, how long its leftover children may keep our pipes open before
/// we stop reading and kill them (the copilot recording shows one writing on after its parent
/// died; a detached grandchild may hold them for ever).
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// How long a child may take to exit after Ctrl-C sent it SIGTERM before it gets SIGKILL.
const INTERRUPT_GRACE: Duration = Duration::from_secs(2);

/// How often the loop looks at the child while it waits for output.
const TICK: Duration = Duration::from_millis(50);

/// How often a watched stderr is read again for a reason to stop (gemini's retry lines).
const WATCH_EVERY: Duration = Duration::from_millis(250);

/// What to run.
#[derive(Debug, Clone)]
pub struct Invocation {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// Extra variables for the child (on top of ours, which it inherits).
    pub env: Vec<(String, String)>,
    /// Variables removed from the child's environment (e.g. Claude Code's session markers).
    pub env_remove: Vec<String>,
    pub cwd: Option<PathBuf>,
    pub stdin: Vec<u8>,
    pub timeout: Duration,
    pub idle_timeout: Duration,
    /// Reads stderr as it comes and stops the call once it shows the CLI cannot succeed.
    pub watch: Option<Watch>,
}

/// Reads a CLI's stderr: the failed attempts it reports so far, and what they failed with.
pub type Retrying = fn(stderr: &str) -> Option<(u32, crate::agents::Failure)>;

/// A CLI's retry reports on stderr, read while it runs: gemini retries 429/500 for minutes and
/// nothing bounds it from outside, so we stop it after `limit` failed attempts.
#[derive(Debug, Clone, Copy)]
pub struct Watch {
    pub retrying: Retrying,
    pub limit: u32,
}

/// How the child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Exited(ExitStatus),
    /// Killed at the wall-clock deadline.
    TimedOut,
    /// Killed after printing nothing for the idle timeout.
    Idle,
    /// Killed when its stderr showed more failed attempts than the [`Watch`] allows.
    GaveUp,
    /// A conversation ([`Talk`]) was over and the child, its input closed, was stopped.
    Concluded,
}

/// A child spoken with while it runs (ACP's JSON-RPC over stdio): each line it prints on stdout
/// is heard as it arrives and may be answered on its stdin. Lines heard are not kept in
/// [`Finished::stdout`], so a long conversation holds no more memory than one line.
pub trait Talk {
    /// What to send as soon as the child runs.
    fn open(&mut self) -> Vec<u8>;
    /// One line of its stdout (without the newline); returns what to write to its stdin.
    fn hear(&mut self, line: &[u8]) -> Vec<u8>;
    /// The conversation is over: its input is closed and it is stopped.
    fn done(&self) -> bool;
}

#[derive(Debug, Clone)]
pub struct Finished {
    pub ending: Ending,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Bytes dropped beyond [`MAX_CAPTURE`] (stdout + stderr).
    pub dropped: usize,
    pub duration: Duration,
}

/// Runs `inv` to completion or to a deadline. `Err` only when the program cannot be started;
/// every other failure is described by the returned [`Finished`].
pub fn run(inv: &Invocation) -> Result<Finished> {
    run_talking(inv, None)
}

/// [`run`] speaking with the child through `talk` (`inv.stdin` is not used): the same deadlines,
/// process-group kill and sweep.
pub fn converse(inv: &Invocation, talk: &mut dyn Talk) -> Result<Finished> {
    run_talking(inv, Some(talk))
}

fn run_talking(inv: &Invocation, mut talk: Option<&mut dyn Talk>) -> Result<Finished> {
    let started = Instant::now();
    reap::become_subreaper();
    reap::start_guardian();
    let token = reap::token();
    let mut cmd = Command::new(&inv.program);
    cmd.args(&inv.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Its own process group, so one signal reaches everything it starts.
        .process_group(0);
    for k in &inv.env_remove {
        cmd.env_remove(k);
    }
    for (k, v) in &inv.env {
        cmd.env(k, v);
    }
    // Inherited by everything it starts: how the sweep recognises this call's processes.
    cmd.env(reap::TOKEN_VAR, &token);
    if let Some(cwd) = &inv.cwd {
        cmd.current_dir(cwd);
    }
    // This thread spawns the child and stays here until it is reaped (see `die_with_parent`).
    reap::die_with_parent(&mut cmd);
    let mut child = cmd
        .spawn()
        .with_context(|| format!("cannot start {}", inv.program.display()))?;
    let pgid = child.id() as i32;
    reap::waited_on(pgid, false);
    // Ctrl-C kills this group too (it is not in our terminal's foreground group).
    let _registered = crate::sys::signals::register(pgid);
    let (stdin, stdout, stderr) = (
        child.stdin.take().expect("piped"),
        child.stdout.take().expect("piped"),
        child.stderr.take().expect("piped"),
    );
    let pipes = match talk.is_some() {
        true => Pipes::talking(stdin, stdout, stderr),
        false => Pipes::new(stdin, stdout, stderr, inv.stdin.clone()),
    };
    let mut pipes = match pipes {
        Ok(p) => p,
        Err(e) => {
            kill_group(pgid);
            let _ = child.wait();
            reap::waited_on(pgid, true);
            return Err(e).context("cannot set up the model process's pipes");
        }
    };

    let deadline = started + inv.timeout;
    let mut last_output = Instant::now();
    let mut ending = None;
    let mut exited: Option<(ExitStatus, Instant)> = None;
    let mut interrupted_at: Option<Instant> = None;
    let mut failure = None;
    let mut watched = 0;
    let mut watched_at = started;
    // Of stdout not yet heard as lines: how far a newline was already looked for.
    let mut scanned = 0;
    let mut concluded_at: Option<Instant> = None;
    if let Some(t) = talk.as_deref_mut() {
        let first = t.open();
        pipes.send(&first);
    }
    loop {
        let now = Instant::now();
        if let Some(t) = talk.as_deref_mut() {
            hear_lines(&mut pipes, t, &mut scanned, false);
            if t.done() && concluded_at.is_none() {
                pipes.close_input();
                concluded_at = Some(now);
            }
        }
        if let Some(at) = concluded_at {
            // It may exit by itself on end of input; it gets a moment, then is stopped.
            if exited.is_some() || now >= at + EXIT_GRACE {
                ending = Some(exited.map_or(Ending::Concluded, |(s, _)| Ending::Exited(s)));
                break;
            }
        }
        if exited.is_none() {
            match child.try_wait() {
                Ok(Some(status)) => exited = Some((status, now)),
                Ok(None) => {}
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            }
        }
        if let Some((status, at)) = exited {
            // Its output is complete when both pipes closed; if someone it left behind holds
            // them, we stop reading after the grace all the same.
            if !pipes.open() || now >= at + EXIT_GRACE {
                ending = Some(Ending::Exited(status));
                break;
            }
        }
        let idle_deadline = last_output + inv.idle_timeout;
        if crate::sys::signals::interrupted() {
            // The handler sent SIGTERM; a child that ignores it gets SIGKILL after a grace.
            let since = *interrupted_at.get_or_insert(now);
            if now >= since + INTERRUPT_GRACE {
                break;
            }
        }
        if now >= deadline {
            ending = Some(Ending::TimedOut);
            break;
        }
        if now >= idle_deadline {
            ending = Some(Ending::Idle);
            break;
        }
        // Re-read what it said at most a few times a second: a chatty stderr must not make
        // this loop quadratic.
        let watch_due = now >= watched_at + WATCH_EVERY;
        if let Some(w) = inv
            .watch
            .filter(|_| pipes.stderr.len() > watched && watch_due)
        {
            watched = pipes.stderr.len();
            watched_at = now;
            let said = String::from_utf8_lossy(&pipes.stderr);
            if (w.retrying)(&said).is_some_and(|(n, _)| n >= w.limit) {
                ending = Some(Ending::GaveUp);
                break;
            }
        }
        match pipes.wait((deadline.min(idle_deadline) - now).min(TICK)) {
            Ok(true) => last_output = Instant::now(),
            Ok(false) => {}
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    // Whatever happened, nothing of this call may outlive it.
    kill_group(pgid);
    let status = match exited {
        Some((status, _)) => status,
        None => child.wait().context("cannot reap the model process")?,
    };
    reap::waited_on(pgid, true);
    reap::sweep(&token, pgid, pgid);
    pipes.drain();
    if let Some(t) = talk {
        // What it said last, even a final line without a newline.
        hear_lines(&mut pipes, t, &mut scanned, true);
    }
    if let Some(e) = failure {
        return Err(e).context("cannot watch the model process");
    }
    let Pipes {
        stdout,
        stderr,
        dropped,
        ..
    } = pipes;
    Ok(Finished {
        ending: ending.unwrap_or(Ending::Exited(status)),
        stdout,
        stderr,
        dropped,
        duration: started.elapsed(),
    })
}

/// Hands `talk` every whole line of stdout (and, at the end, what is left) and queues its
/// answers; heard lines leave the buffer.
fn hear_lines(pipes: &mut Pipes, talk: &mut dyn Talk, scanned: &mut usize, last: bool) {
    let mut from = 0;
    let mut look = *scanned;
    while let Some(nl) = pipes.stdout[look..].iter().position(|&b| b == b'\n') {
        let end = look + nl;
        let reply = talk.hear(&pipes.stdout[from..end]);
        pipes.send(&reply);
        from = end + 1;
        look = from;
    }
    if last && from < pipes.stdout.len() {
        let reply = talk.hear(&pipes.stdout[from..]);
        pipes.send(&reply);
        from = pipes.stdout.len();
    }
    pipes.stdout.drain(..from);
    *scanned = pipes.stdout.len();
}

/// SIGKILL to the whole process group; a group that is already gone is fine.
fn kill_group(pgid: i32) {
    // SAFETY: kill(2) with a negative pid signals a process group; it touches no memory.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
