//! The three pipes of a model child, served from the runner's own thread with `poll(2)`.
//!
//! Reader and writer threads would block in `read`/`write` for as long as *anyone* holds the other
//! end, and a detached grandchild can hold it for ever: the call could not end until it let go.
//! Here every descriptor is non-blocking and the runner decides when to stop; dropping [`Pipes`]
//! closes our ends whoever still holds theirs. The prompt is written as the child reads it, while
//! its output is read, so a large prompt cannot deadlock against a child that answers as it reads.
//! The same `poll` also watches the child's exit (a pidfd, where the kernel has them), so the
//! runner wakes the moment the child ends rather than at its next tick.
//!
//! A child may print lines on stderr only to show it is working ([`IsHeartbeat`]: codex's tracing,
//! one line per event it streams): they wake the runner like any output, and are not kept.

use std::io;
use std::os::fd::{BorrowedFd, OwnedFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::time::Duration;

use rustix::event::{PollFd, PollFlags, Timespec};
use rustix::fs::OFlags;
use rustix::io::Errno;

/// Captured output beyond this is dropped (and counted): a runaway child must not take our memory
/// with it. Streamed output is far bigger than the answer it carries (claude's partial messages
/// cost some 230 bytes of envelope per text delta, and each file a tool read comes back twice),
/// and the line the answer is read from comes last, so the cap leaves a long review room.
pub const MAX_CAPTURE: usize = 64 << 20;

/// Reads per wake-up and stream, so a child that never stops writing cannot starve the deadlines.
const READS_PER_WAKE: usize = 16;

/// Says whether a line of stderr (its newline included) only shows the child is working: such a
/// line counts as output (the idle deadline moves) and is not kept.
pub type IsHeartbeat = fn(line: &[u8]) -> bool;

/// The longest start of a stderr line held back until its newline comes, so it can be told
/// apart from a heartbeat: a longer line is no heartbeat and is kept as it comes.
const LINE_HELD: usize = 64 << 10;

pub struct Pipes {
    stdin: Option<OwnedFd>,
    input: Vec<u8>,
    written: usize,
    out: Option<OwnedFd>,
    err: Option<OwnedFd>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// Bytes dropped beyond [`MAX_CAPTURE`] (stdout + stderr).
    pub dropped: usize,
    /// Nothing more will be queued: the child's input is closed once the queue is written.
    /// Until then (a conversation) it stays open for what we send next.
    closing: bool,
    /// What one read fills, kept between reads: a fresh one was 64 KiB zeroed on every wake.
    buf: Box<[u8]>,
    /// Heartbeat lines of stderr are dropped ([`Pipes::drop_heartbeats`]).
    heartbeat: Option<IsHeartbeat>,
    /// With a heartbeat: the start of a stderr line whose newline has not come yet.
    line: Vec<u8>,
    /// With a heartbeat: the current stderr line outgrew [`LINE_HELD`] and is kept as it comes.
    long_line: bool,
}

/// What a [`Pipes::wait`] woke for.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Woke {
    /// The child printed something.
    pub output: bool,
    /// The exit descriptor became readable: the child has ended.
    pub exited: bool,
    /// Nothing was left to wait on (every pipe closed, no exit descriptor): the call returned
    /// at once and the caller decides how long to pause.
    pub idle: bool,
}

fn non_blocking(fd: &OwnedFd) -> io::Result<()> {
    let flags = rustix::fs::fcntl_getfl(fd)?;
    rustix::fs::fcntl_setfl(fd, flags | OFlags::NONBLOCK)?;
    Ok(())
}

/// Which descriptor a poll entry watches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    In,
    Out,
    Err,
    Exit,
}

impl Pipes {
    /// Takes over the child's pipes; its input stays open until [`Pipes::close_input`].
    pub fn new(stdin: ChildStdin, stdout: ChildStdout, stderr: ChildStderr) -> io::Result<Pipes> {
        let (i, o, e) = (
            OwnedFd::from(stdin),
            OwnedFd::from(stdout),
            OwnedFd::from(stderr),
        );
        for fd in [&i, &o, &e] {
            non_blocking(fd)?;
        }
        Ok(Pipes {
            stdin: Some(i),
            input: Vec::new(),
            written: 0,
            out: Some(o),
            err: Some(e),
            stdout: Vec::new(),
            stderr: Vec::new(),
            dropped: 0,
            closing: false,
            buf: vec![0; 64 * 1024].into_boxed_slice(),
            heartbeat: None,
            line: Vec::new(),
            long_line: false,
        })
    }

    /// From now on, stderr lines `beat` recognises are read (they count as output) but not kept.
    pub fn drop_heartbeats(&mut self, beat: IsHeartbeat) {
        self.heartbeat = Some(beat);
    }

    /// Queues `bytes` for the child's input (written as it reads, never blocking us).
    pub fn send(&mut self, bytes: &[u8]) {
        if self.stdin.is_some() {
            self.input.extend_from_slice(bytes);
        }
    }

    /// Closes the child's input once what is queued was written: end of file, which tells a
    /// one-shot CLI the prompt is complete and an ACP agent to exit.
    pub fn close_input(&mut self) {
        self.closing = true;
        if self.written >= self.input.len() {
            self.stdin = None;
        } else {
            self.write_some();
        }
    }

    /// Whether the child's stdout or stderr may still bring something.
    pub fn open(&self) -> bool {
        self.out.is_some() || self.err.is_some()
    }

    /// Waits up to `timeout` for any pipe, or `exit` (a descriptor readable once the child has
    /// ended), to be ready, and serves the pipes.
    pub fn wait(&mut self, timeout: Duration, exit: Option<BorrowedFd<'_>>) -> io::Result<Woke> {
        let ready = {
            let mut which = Vec::with_capacity(4);
            let mut fds = Vec::with_capacity(4);
            // An open conversation with nothing queued does not wait for room to write.
            if let Some(f) = self
                .stdin
                .as_ref()
                .filter(|_| self.written < self.input.len())
            {
                which.push(Slot::In);
                fds.push(PollFd::new(f, PollFlags::OUT));
            }
            for (slot, fd) in [(Slot::Out, &self.out), (Slot::Err, &self.err)] {
                if let Some(f) = fd {
                    which.push(slot);
                    fds.push(PollFd::new(f, PollFlags::IN));
                }
            }
            if let Some(f) = exit {
                which.push(Slot::Exit);
                fds.push(PollFd::from_borrowed_fd(f, PollFlags::IN));
            }
            if fds.is_empty() {
                return Ok(Woke {
                    idle: true,
                    ..Woke::default()
                });
            }
            let ts = Timespec::try_from(timeout).unwrap_or(Timespec {
                tv_sec: i64::from(i32::MAX),
                tv_nsec: 0,
            });
            match rustix::event::poll(&mut fds, Some(&ts)) {
                Ok(_) => {}
                Err(Errno::INTR) => return Ok(Woke::default()),
                Err(e) => return Err(e.into()),
            }
            which
                .into_iter()
                .zip(&fds)
                .filter(|(_, p)| !p.revents().is_empty())
                .map(|(w, _)| w)
                .collect::<Vec<Slot>>()
        };
        if ready.contains(&Slot::In) {
            self.write_some();
        }
        let mut woke = Woke {
            exited: ready.contains(&Slot::Exit),
            ..Woke::default()
        };
        if ready.contains(&Slot::Out) {
            woke.output |= self.read_some(true);
        }
        if ready.contains(&Slot::Err) {
            woke.output |= self.read_some(false);
        }
        Ok(woke)
    }

    /// Reads whatever is already there, without waiting (after the child is gone), and keeps a
    /// last stderr line that never got its newline.
    pub fn drain(&mut self) {
        for _ in 0..64 {
            if !(self.read_some(true) | self.read_some(false)) {
                break;
            }
        }
        if !self.heartbeat.is_some_and(|beat| beat(&self.line)) {
            self.dropped += keep(&mut self.stderr, &self.line, self.stdout.len());
        }
        self.line.clear();
    }

    fn write_some(&mut self) {
        let Some(fd) = &self.stdin else { return };
        let result = rustix::io::write(fd, &self.input[self.written..]);
        match result {
            Ok(n) => self.written += n,
            Err(Errno::AGAIN) | Err(Errno::INTR) => return,
            // The child closed its input (EPIPE: it answers without reading all, harmless).
            Err(_) => {
                self.stdin = None;
                return;
            }
        }
        if self.written >= self.input.len() {
            // All sent: a conversation keeps the input open for the next message.
            self.input.clear();
            self.written = 0;
            if self.closing {
                self.stdin = None;
            }
        }
    }

    /// Reads what one stream has now; true when bytes came. Closes it at end of file or error.
    fn read_some(&mut self, out: bool) -> bool {
        let mut got = false;
        // Out of `self` while it is read into, so the stderr path may borrow `self` whole.
        let mut buf = std::mem::take(&mut self.buf);
        for _ in 0..READS_PER_WAKE {
            let fd = if out { &self.out } else { &self.err };
            let Some(fd) = fd else { break };
            match rustix::io::read(fd, &mut buf[..]) {
                Ok(n) if n > 0 => {
                    got = true;
                    self.dropped += if out {
                        keep(&mut self.stdout, &buf[..n], self.stderr.len())
                    } else {
                        self.keep_stderr(&buf[..n])
                    };
                    continue;
                }
                Err(Errno::AGAIN) => break,
                Err(Errno::INTR) => continue,
                // End of file or a real error: nothing more will come.
                _ => {}
            }
            if out {
                self.out = None;
            } else {
                self.err = None;
            }
            break;
        }
        self.buf = buf;
        got
    }

    /// Keeps a chunk of stderr but its heartbeat lines; returns the bytes dropped for the cap.
    fn keep_stderr(&mut self, chunk: &[u8]) -> usize {
        let Some(beat) = self.heartbeat else {
            return keep(&mut self.stderr, chunk, self.stdout.len());
        };
        let mut dropped = 0;
        for piece in chunk.split_inclusive(|&b| b == b'\n') {
            let ends = piece.ends_with(b"\n");
            if self.long_line {
                dropped += keep(&mut self.stderr, piece, self.stdout.len());
                self.long_line = !ends;
                continue;
            }
            self.line.extend_from_slice(piece);
            if ends || self.line.len() > LINE_HELD {
                self.long_line = !ends;
                if !(ends && beat(&self.line)) {
                    dropped += keep(&mut self.stderr, &self.line, self.stdout.len());
                }
                self.line.clear();
            }
        }
        dropped
    }
}

/// Appends `chunk` while the total stays under [`MAX_CAPTURE`]; returns the bytes dropped.
fn keep(buf: &mut Vec<u8>, chunk: &[u8], other: usize) -> usize {
    let room = MAX_CAPTURE.saturating_sub(buf.len() + other);
    let take = room.min(chunk.len());
    buf.extend_from_slice(&chunk[..take]);
    chunk.len() - take
}
