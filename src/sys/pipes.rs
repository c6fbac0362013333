//! The three pipes of a model child, served from the runner's own thread with `poll(2)`.
//!
//! Reader and writer threads would block in `read`/`write` for as long as *anyone* holds the other
//! end, and a detached grandchild can hold it for ever: the call could not end until it let go.
//! Here every descriptor is non-blocking and the runner decides when to stop; dropping [`Pipes`]
//! closes our ends whoever still holds theirs. The prompt is written as the child reads it, while
//! its output is read, so a large prompt cannot deadlock against a child that answers as it reads.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::time::Duration;

/// Captured output beyond this is dropped (and counted): a runaway child must not take our memory
/// with it. Streamed output is far bigger than the answer it carries (claude's partial messages
/// cost some 230 bytes of envelope per text delta, and each file a tool read comes back twice),
/// and the line the answer is read from comes last, so the cap leaves a long review room.
pub const MAX_CAPTURE: usize = 64 << 20;

/// Reads per wake-up and stream, so a child that never stops writing cannot starve the deadlines.
const READS_PER_WAKE: usize = 16;

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
    /// A conversation (ACP): the child's input stays open for what we send next, until
    /// [`Pipes::close_input`].
    talking: bool,
}

fn non_blocking(fd: &OwnedFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor we own.
    let flags = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETFL) };
    if flags < 0
        || unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0
    {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

impl Pipes {
    pub fn new(
        stdin: ChildStdin,
        stdout: ChildStdout,
        stderr: ChildStderr,
        input: Vec<u8>,
    ) -> io::Result<Pipes> {
        let talking = false;
        Pipes::open_with(stdin, stdout, stderr, input, talking)
    }

    fn open_with(
        stdin: ChildStdin,
        stdout: ChildStdout,
        stderr: ChildStderr,
        input: Vec<u8>,
        talking: bool,
    ) -> io::Result<Pipes> {
        let (i, o, e) = (
            OwnedFd::from(stdin),
            OwnedFd::from(stdout),
            OwnedFd::from(stderr),
        );
        for fd in [&i, &o, &e] {
            non_blocking(fd)?;
        }
        Ok(Pipes {
            // Nothing to write: the child sees end of input at once.
            stdin: (talking || !input.is_empty()).then_some(i),
            input,
            written: 0,
            out: Some(o),
            err: Some(e),
            stdout: Vec::new(),
            stderr: Vec::new(),
            dropped: 0,
            talking,
        })
    }

    /// Pipes for a conversation: the child's input stays open, fed by [`Pipes::send`].
    pub fn talking(
        stdin: ChildStdin,
        stdout: ChildStdout,
        stderr: ChildStderr,
    ) -> io::Result<Pipes> {
        Pipes::open_with(stdin, stdout, stderr, Vec::new(), true)
    }

    /// Queues `bytes` for the child's input (written as it reads, never blocking us).
    pub fn send(&mut self, bytes: &[u8]) {
        if self.stdin.is_some() {
            self.input.extend_from_slice(bytes);
        }
    }

    /// Closes the child's input once what is queued was written (a last `session/cancel`): end of
    /// file, the way to tell an ACP agent to exit.
    pub fn close_input(&mut self) {
        self.talking = false;
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

    /// Waits up to `timeout` for any pipe to be ready and serves it. True when output arrived.
    pub fn wait(&mut self, timeout: Duration) -> io::Result<bool> {
        let mut fds: Vec<libc::pollfd> = Vec::with_capacity(3);
        let watch = |fd: &Option<OwnedFd>, events| {
            fd.as_ref().map(|f| libc::pollfd {
                fd: f.as_raw_fd(),
                events,
                revents: 0,
            })
        };
        // An open conversation with nothing queued does not wait for room to write.
        if self.written < self.input.len() {
            fds.extend(watch(&self.stdin, libc::POLLOUT));
        }
        fds.extend(watch(&self.out, libc::POLLIN));
        fds.extend(watch(&self.err, libc::POLLIN));
        if fds.is_empty() {
            std::thread::sleep(timeout);
            return Ok(false);
        }
        let ms = timeout.as_millis().min(i32::MAX as u128) as i32;
        // SAFETY: `fds` is a live array of `fds.len()` pollfd structures.
        let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
        if n < 0 {
            let e = io::Error::last_os_error();
            return if e.kind() == io::ErrorKind::Interrupted {
                Ok(false)
            } else {
                Err(e)
            };
        }
        let ready = |fd: &Option<OwnedFd>| {
            fd.as_ref()
                .is_some_and(|f| fds.iter().any(|p| p.fd == f.as_raw_fd() && p.revents != 0))
        };
        let (write, read_out, read_err) = (ready(&self.stdin), ready(&self.out), ready(&self.err));
        if write {
            self.write_some();
        }
        let mut got = false;
        if read_out {
            got |= self.read_some(true);
        }
        if read_err {
            got |= self.read_some(false);
        }
        Ok(got)
    }

    /// Reads whatever is already there, without waiting (after the child is gone).
    pub fn drain(&mut self) {
        for _ in 0..64 {
            if !(self.read_some(true) | self.read_some(false)) {
                break;
            }
        }
    }

    fn write_some(&mut self) {
        let Some(fd) = &self.stdin else { return };
        let rest = &self.input[self.written..];
        // SAFETY: writes from a live slice to a descriptor we own.
        let n = unsafe { libc::write(fd.as_raw_fd(), rest.as_ptr().cast(), rest.len()) };
        if n >= 0 {
            self.written += n as usize;
        }
        let again = n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::WouldBlock;
        if self.talking && (n >= 0 || again) {
            if self.written >= self.input.len() {
                // All sent: keep the input open for the next message.
                self.input.clear();
                self.written = 0;
            }
            return;
        }
        // Done, or the child closed its input (EPIPE: it answers without reading all, harmless).
        if self.written >= self.input.len() || (n < 0 && !again) {
            self.stdin = None;
        }
    }

    /// Reads what one stream has now; true when bytes came. Closes it at end of file or error.
    fn read_some(&mut self, out: bool) -> bool {
        let mut buf = [0u8; 64 * 1024];
        let mut got = false;
        for _ in 0..READS_PER_WAKE {
            let fd = if out { &self.out } else { &self.err };
            let Some(fd) = fd else { break };
            // SAFETY: reads into a live buffer of that length from a descriptor we own.
            let n = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
            if n > 0 {
                got = true;
                let n = n as usize;
                self.dropped += if out {
                    keep(&mut self.stdout, &buf[..n], self.stderr.len())
                } else {
                    keep(&mut self.stderr, &buf[..n], self.stdout.len())
                };
                continue;
            }
            let err = io::Error::last_os_error().kind();
            if n < 0 && err == io::ErrorKind::WouldBlock {
                break;
            }
            if n < 0 && err == io::ErrorKind::Interrupted {
                continue;
            }
            // End of file or a real error: nothing more will come.
            if out {
                self.out = None;
            } else {
                self.err = None;
            }
            break;
        }
        got
    }
}

/// Appends `chunk` while the total stays under [`MAX_CAPTURE`]; returns the bytes dropped.
fn keep(buf: &mut Vec<u8>, chunk: &[u8], other: usize) -> usize {
    let room = MAX_CAPTURE.saturating_sub(buf.len() + other);
    let take = room.min(chunk.len());
    buf.extend_from_slice(&chunk[..take]);
    chunk.len() - take
}
