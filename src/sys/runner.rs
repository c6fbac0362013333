//! Running one model CLI as a child process, safely: the shared runner every CLI backend uses,
//! as a [`Call`].
//!
//! Agent CLIs hang, stall silently, retry forever and leave children behind (the recorded runs
//! show all of these), so nothing here trusts the child: the prompt goes on stdin while stdout
//! and stderr are drained, all from this thread with `poll` ([`crate::sys::pipes`]), so a 10 MB
//! prompt cannot deadlock and a pipe held open by someone else cannot hold us; captured output
//! is bounded; a wall-clock deadline and an idle deadline (no output for too long) kill the
//! child's whole process group. The same `poll` wakes for the child's exit. Once the child
//! itself has exited we read on only for a short grace, then stop, kill its group and sweep away
//! whatever it left ([`crate::sys::reap`]: detached grandchildren too, and the child dies with
//! us if we are killed). No shell is involved: the program and its arguments are passed as they
//! are.

use std::os::fd::{AsFd as _, OwnedFd};
use std::os::unix::process::{CommandExt as _, ExitStatusExt as _};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};
use rustix::process::Signal;

use crate::sys::pipes::Pipes;
pub use crate::sys::pipes::{IsHeartbeat, MAX_CAPTURE};
use crate::sys::{reap, signals};

/// After the child itself exits, how long its leftover children may keep our pipes open before
/// we stop reading and kill them (the copilot recording shows one writing on after its parent
/// died; a detached grandchild may hold them for ever).
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// How long a child may take to exit after Ctrl-C sent it SIGTERM before it gets SIGKILL.
const INTERRUPT_GRACE: Duration = Duration::from_secs(2);

/// The longest the loop sleeps between looks at the child while it waits for output.
const TICK: Duration = Duration::from_millis(50);

/// Where the kernel gives no exit descriptor: the first pause between looks for the exit of a
/// child whose pipes are already closed, doubled up to [`TICK`]. Its pipes close a moment
/// before its exit can be collected; that moment is microseconds, so a call that answered at
/// once is reaped within a millisecond or two, and a child that closed its output but runs on
/// costs no more than a look per tick.
const FIRST_PAUSE: Duration = Duration::from_millis(1);

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
    /// Written to the child's input first (the prompt).
    pub stdin: Vec<u8>,
    pub timeout: Duration,
    pub idle_timeout: Duration,
    /// Reads stderr as it comes and stops the call once it shows the CLI cannot succeed.
    pub watch: Option<Watch>,
    /// Recognises the stderr lines the child prints only to show it is working (codex's
    /// tracing, switched on for that): they keep the idle deadline away and are not kept.
    pub heartbeat: Option<IsHeartbeat>,
}

/// Reads a CLI's stderr while it runs and says when the call can no longer succeed: gemini
/// retries 429/500 for minutes and nothing bounds it from outside, so its caller stops it after
/// so many failed attempts. What counts as hopeless is the caller's to say; the runner only asks.
#[derive(Clone)]
pub struct Watch(Arc<dyn Fn(&str) -> bool + Send + Sync>);

impl Watch {
    /// `hopeless` gets all of stderr so far, and answers whether to give up.
    pub fn new(hopeless: impl Fn(&str) -> bool + Send + Sync + 'static) -> Watch {
        Watch(Arc::new(hopeless))
    }
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watch(..)")
    }
}

/// How the child ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Exited(ExitStatus),
    /// Killed at the wall-clock deadline.
    TimedOut,
    /// Killed after printing nothing for the idle timeout.
    Idle,
    /// Killed when its stderr showed the call could not succeed (see [`Watch`]).
    GaveUp,
    /// A conversation ([`Talk`]) was over and the child, its input closed, was stopped.
    Concluded,
}

impl Ending {
    /// The signal that ended the child by itself (a crash, or a kill from outside), if one did.
    pub fn signal(&self) -> Option<i32> {
        match self {
            Ending::Exited(status) => status.signal(),
            _ => None,
        }
    }
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
    /// How often the watch slept because the pipes had closed and the exit could not be waited
    /// on (no pidfd): zero where the kernel gives one, so an exit is collected the moment it
    /// happens.
    pub blind_pauses: u32,
}

/// One model CLI running as our child, in a process group of its own.
///
/// [`Call::spawn`] starts it; [`Call::wait`] feeds it its input and collects what it says until
/// it ends or a deadline kills it; [`Call::talk`] does the same as a line-by-line conversation;
/// [`Call::kill`] kills its group at once. However it ends (even dropped unwaited, or unwound
/// through a panic) the group is killed, the child reaped and its leftovers swept: nothing of a
/// call outlives it.
pub struct Call {
    child: Child,
    pgid: i32,
    token: String,
    pipes: Pipes,
    /// Readable once the child has exited (a pidfd; Linux 5.3 and later), so the wait wakes for
    /// the exit itself. Without one, the exit is looked for after each wake-up.
    exit_fd: Option<OwnedFd>,
    started: Instant,
    timeout: Duration,
    idle_timeout: Duration,
    watch: Option<Watch>,
    /// Keeps the group registered for Ctrl-C until the call is over.
    _interrupts: Option<signals::Guard>,
    /// The child was reaped and its leftovers swept: nothing left for `Drop` to do.
    over: bool,
}

/// What the watching loop keeps between wake-ups.
struct Watching {
    deadline: Instant,
    last_output: Instant,
    exited: Option<(ExitStatus, Instant)>,
    interrupted_at: Option<Instant>,
    /// Bytes of stderr the [`Watch`] has seen, and when it last looked.
    watched: (usize, Instant),
    /// Of stdout not yet heard as lines: how far a newline was already looked for.
    scanned: usize,
    concluded_at: Option<Instant>,
    /// The next pause while nothing is left to poll (see [`FIRST_PAUSE`]).
    pause: Duration,
    /// Pauses taken so far.
    blind_pauses: u32,
}

impl Call {
    /// Starts `inv` (its input queued, not yet written). `Err` only when the program cannot be
    /// started; every other failure is described by the [`Finished`] the call ends with.
    pub fn spawn(inv: &Invocation) -> Result<Call> {
        let started = Instant::now();
        reap::become_subreaper();
        reap::start_guardian();
        let token = reap::token();
        let mut cmd = command(inv, &token);
        let mut child = cmd
            .spawn()
            .with_context(|| format!("cannot start {}", inv.program.display()))?;
        let pgid = child.id() as i32;
        reap::waited_on(pgid, false);
        // Ctrl-C kills this group too (it is not in our terminal's foreground group).
        let interrupts = signals::register(pgid);
        let pipes = Pipes::new(
            child.stdin.take().expect("piped"),
            child.stdout.take().expect("piped"),
            child.stderr.take().expect("piped"),
        );
        let mut pipes = match pipes {
            Ok(p) => p,
            Err(e) => {
                signals::kill_group(pgid, Signal::KILL);
                let _ = child.wait();
                reap::waited_on(pgid, true);
                return Err(e).context("cannot set up the model process's pipes");
            }
        };
        if let Some(beat) = inv.heartbeat {
            pipes.drop_heartbeats(beat);
        }
        pipes.send(&inv.stdin);
        Ok(Call {
            exit_fd: exit_fd(child.id()),
            child,
            pgid,
            token,
            pipes,
            started,
            timeout: inv.timeout,
            idle_timeout: inv.idle_timeout,
            watch: inv.watch.clone(),
            _interrupts: interrupts,
            over: false,
        })
    }

    /// The child's process id (also its process group's).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL to the child's whole group now; [`Call::wait`] then reports it killed.
    pub fn kill(&self) {
        signals::kill_group(self.pgid, Signal::KILL);
    }

    /// Writes the queued input, closes it, and reads the child's output until it ends or a
    /// deadline kills it.
    pub fn wait(mut self) -> Result<Finished> {
        self.pipes.close_input();
        self.serve(None)
    }

    /// Speaks with the child through `talk` until the conversation is over, it ends, or a
    /// deadline kills it: the same deadlines, process-group kill and sweep as [`Call::wait`].
    pub fn talk(mut self, talk: &mut dyn Talk) -> Result<Finished> {
        let first = talk.open();
        self.pipes.send(&first);
        self.serve(Some(talk))
    }

    fn serve(&mut self, mut talk: Option<&mut dyn Talk>) -> Result<Finished> {
        let now = Instant::now();
        let mut w = Watching {
            deadline: self.started + self.timeout,
            last_output: now,
            exited: None,
            interrupted_at: None,
            watched: (0, self.started),
            scanned: 0,
            concluded_at: None,
            pause: FIRST_PAUSE,
            blind_pauses: 0,
        };
        let (ending, failure) = loop {
            match self.step(&mut w, &mut talk) {
                Ok(None) => {}
                Ok(Some(ending)) => break (ending, None),
                Err(e) => break (None, Some(e)),
            }
        };
        // Whatever happened, nothing of this call may outlive it.
        let status = self.end(w.exited.map(|(s, _)| s))?;
        if let Some(t) = talk {
            // What it said last, even a final line without a newline.
            hear_lines(&mut self.pipes, t, &mut w.scanned, true);
        }
        if let Some(e) = failure {
            return Err(e).context("cannot watch the model process");
        }
        Ok(Finished {
            ending: ending.unwrap_or(Ending::Exited(status)),
            stdout: std::mem::take(&mut self.pipes.stdout),
            stderr: std::mem::take(&mut self.pipes.stderr),
            dropped: self.pipes.dropped,
            duration: self.started.elapsed(),
            blind_pauses: w.blind_pauses,
        })
    }

    /// One turn of the watching loop: `Some` when the call is over (with how it ended, or
    /// `None` for "as its exit status says").
    fn step(
        &mut self,
        w: &mut Watching,
        talk: &mut Option<&mut dyn Talk>,
    ) -> std::io::Result<Option<Option<Ending>>> {
        let now = Instant::now();
        if let Some(t) = talk.as_deref_mut() {
            hear_lines(&mut self.pipes, t, &mut w.scanned, false);
            if t.done() && w.concluded_at.is_none() {
                self.pipes.close_input();
                w.concluded_at = Some(now);
            }
        }
        if w.exited.is_none() {
            if let Some(status) = self.child.try_wait()? {
                w.exited = Some((status, now));
            }
        }
        if let Some(at) = w.concluded_at {
            // It may exit by itself on end of input; it gets a moment, then is stopped.
            if w.exited.is_some() || now >= at + EXIT_GRACE {
                let how = w
                    .exited
                    .map_or(Ending::Concluded, |(s, _)| Ending::Exited(s));
                return Ok(Some(Some(how)));
            }
        }
        if let Some((status, at)) = w.exited {
            // Its output is complete when both pipes closed; if someone it left behind holds
            // them, we stop reading after the grace all the same.
            if !self.pipes.open() || now >= at + EXIT_GRACE {
                return Ok(Some(Some(Ending::Exited(status))));
            }
        }
        if signals::interrupted() {
            // The handler sent SIGTERM; a child that ignores it gets SIGKILL after a grace.
            let since = *w.interrupted_at.get_or_insert(now);
            if now >= since + INTERRUPT_GRACE {
                return Ok(Some(None));
            }
        }
        let idle_deadline = w.last_output + self.idle_timeout;
        if now >= w.deadline {
            return Ok(Some(Some(Ending::TimedOut)));
        }
        if now >= idle_deadline {
            return Ok(Some(Some(Ending::Idle)));
        }
        if self.gave_up(w, now) {
            return Ok(Some(Some(Ending::GaveUp)));
        }
        // Once the exit is known, its descriptor stays readable: no longer waited on.
        let exit = self
            .exit_fd
            .as_ref()
            .filter(|_| w.exited.is_none())
            .map(|fd| fd.as_fd());
        let woke = self
            .pipes
            .wait((w.deadline.min(idle_deadline) - now).min(TICK), exit)?;
        if woke.output {
            w.last_output = Instant::now();
        }
        if woke.idle {
            // Pipes closed, exit not yet collectable, no descriptor to wait on: look again soon.
            std::thread::sleep(w.pause.min(w.deadline.min(idle_deadline) - now));
            w.pause = (w.pause * 2).min(TICK);
            w.blind_pauses += 1;
        }
        Ok(None)
    }

    /// Whether the [`Watch`] says to stop, reading stderr at most a few times a second: a chatty
    /// stderr must not make the loop quadratic.
    fn gave_up(&self, w: &mut Watching, now: Instant) -> bool {
        let Some(watch) = &self.watch else {
            return false;
        };
        let (seen, at) = w.watched;
        if self.pipes.stderr.len() <= seen || now < at + WATCH_EVERY {
            return false;
        }
        w.watched = (self.pipes.stderr.len(), now);
        (watch.0)(&String::from_utf8_lossy(&self.pipes.stderr))
    }

    /// Kills the group, reaps the child (unless `exited` says it was) and sweeps its leftovers,
    /// then reads what is left in the pipes. Returns its exit status.
    fn end(&mut self, exited: Option<ExitStatus>) -> Result<ExitStatus> {
        signals::kill_group(self.pgid, Signal::KILL);
        let status = match exited {
            Some(status) => status,
            None => self.child.wait().context("cannot reap the model process")?,
        };
        reap::waited_on(self.pgid, true);
        reap::sweep(&self.token, self.pgid, self.pgid);
        self.over = true;
        self.pipes.drain();
        Ok(status)
    }
}

impl Drop for Call {
    fn drop(&mut self) {
        if !self.over {
            signals::kill_group(self.pgid, Signal::KILL);
            let _ = self.child.wait();
            reap::waited_on(self.pgid, true);
            reap::sweep(&self.token, self.pgid, self.pgid);
        }
    }
}

/// The command for `inv`: piped, in a process group of its own, marked with the call's token,
/// dying with us.
fn command(inv: &Invocation, token: &str) -> Command {
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
    cmd.env(reap::TOKEN_VAR, token);
    if let Some(cwd) = &inv.cwd {
        cmd.current_dir(cwd);
    }
    // This thread spawns the child and stays in the call until it is reaped (see
    // `die_with_parent`).
    reap::die_with_parent(&mut cmd);
    cmd
}

/// A descriptor that becomes readable when our child `pid` exits, where the kernel has them.
/// The child is not reaped before the call ends, so its pid cannot be reused meanwhile.
fn exit_fd(pid: u32) -> Option<OwnedFd> {
    #[cfg(target_os = "linux")]
    {
        let pid = rustix::process::Pid::from_raw(i32::try_from(pid).ok()?)?;
        rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = pid;
        None
    }
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

#[cfg(test)]
#[path = "runner_tests.rs"]
mod tests;
