//! Nothing a model call starts may outlive the call, or us.
//!
//! Killing the child's process group (the runner's first line of defence) misses what escapes the
//! group: a grandchild that calls `setsid` holds our pipes open and keeps running after every
//! deadline, and a `kill -9` of git-debate itself leaves the whole group running. So, on Linux:
//! - each child asks the kernel for SIGKILL when we die (`PR_SET_PDEATHSIG`), checking right after
//!   that we had not already died while it was starting;
//! - we are a child subreaper (`PR_SET_CHILD_SUBREAPER`), so whatever the child leaves behind is
//!   re-parented to us rather than to init, stays in our process tree, and can be found and reaped;
//! - every child carries a per-call token in its environment ([`TOKEN_VAR`]), inherited by its
//!   descendants; when the call ends, [`sweep`] kills every process under us that carries the
//!   call's token or belongs to its process group, and reaps those that became our children.
//!
//! Limits: a descendant that clears its environment *and* leaves the group is not found; after a
//! `kill -9` of git-debate only the direct child is killed by the kernel (its own descendants are
//! left to it). Elsewhere than Linux these are no-ops and the process-group kill is what remains.

use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The environment variable that marks every process of one model call.
pub const TOKEN_VAR: &str = "GIT_DEBATE_CALL";

/// How long [`sweep`] waits for killed processes to be reaped before leaving them to the kernel.
const REAP_WAIT: Duration = Duration::from_secs(2);

/// How many times [`sweep`] looks again for processes forked while it was killing.
const SWEEP_ROUNDS: usize = 5;

/// A token no other call of this process (nor of another git-debate) uses.
pub fn token() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}.{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// Makes this process the subreaper of its descendants (once; later calls do nothing).
pub fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        // SAFETY: prctl with integer arguments only.
        ONCE.call_once(|| unsafe {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
        });
    }
}

/// Arranges for the child `cmd` starts to get SIGKILL when we die.
///
/// The kernel sends it when the *thread* that forked the child exits, not the process. That is
/// safe here because [`super::runner::run`] spawns the child and then stays in that same call,
/// on that same thread, until the child has been killed and reaped: the thread never ends while
/// the child lives, except by our death, which is the point.
pub fn die_with_parent(cmd: &mut Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: getpid before the fork; in the child only async-signal-safe calls (prctl,
        // getppid, raise).
        let parent = unsafe { libc::getpid() };
        unsafe {
            cmd.pre_exec(move || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
                // We may have died between the fork and the prctl: then nobody will signal.
                if libc::getppid() != parent {
                    libc::raise(libc::SIGKILL);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

/// Kills every process under us that carries `token` or is in process group `pgid`, except
/// `skip` (the direct child, which the runner reaps itself), and reaps those re-parented to us.
/// Returns how many were killed.
pub fn sweep(token: &str, pgid: i32, skip: i32) -> usize {
    #[cfg(target_os = "linux")]
    {
        linux::sweep(token, pgid, skip)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (token, pgid, skip);
        0
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use super::*;

    /// What `/proc/<pid>/stat` says about one process.
    struct Proc {
        pid: i32,
        ppid: i32,
        pgid: i32,
    }

    /// `/proc/<pid>/stat`: `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses,
    /// so the fields are read after the last `)`.
    fn stat(pid: i32) -> Option<(char, i32, i32)> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (_, rest) = text.rsplit_once(')')?;
        let mut f = rest.split_whitespace();
        let state = f.next()?.chars().next()?;
        let ppid = f.next()?.parse().ok()?;
        let pgid = f.next()?.parse().ok()?;
        Some((state, ppid, pgid))
    }

    fn all() -> Vec<Proc> {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(|pid| stat(pid).map(|(_, ppid, pgid)| Proc { pid, ppid, pgid }))
            .collect()
    }

    /// Every process below `root` in the process tree.
    fn descendants(root: i32) -> Vec<Proc> {
        let procs = all();
        let mut found: Vec<Proc> = Vec::new();
        let mut parents = vec![root];
        while let Some(parent) = parents.pop() {
            for p in procs.iter().filter(|p| p.ppid == parent) {
                if !found.iter().any(|f| f.pid == p.pid) {
                    parents.push(p.pid);
                    found.push(Proc { ..*p });
                }
            }
        }
        found
    }

    fn carries(pid: i32, marker: &[u8]) -> bool {
        std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var == marker))
    }

    pub(super) fn sweep(token: &str, pgid: i32, skip: i32) -> usize {
        let marker = format!("{TOKEN_VAR}={token}").into_bytes();
        let me = std::process::id() as i32;
        let mut killed: Vec<i32> = Vec::new();
        for _ in 0..SWEEP_ROUNDS {
            let before = killed.len();
            for p in descendants(me) {
                if p.pid == skip || killed.contains(&p.pid) {
                    continue;
                }
                // A zombie has no environment left, but keeps its group.
                if p.pgid == pgid || carries(p.pid, &marker) {
                    // SAFETY: kill(2) of a process found under us; touches no memory.
                    unsafe { libc::kill(p.pid, libc::SIGKILL) };
                    killed.push(p.pid);
                }
            }
            if killed.len() == before {
                break;
            }
        }
        reap(&killed);
        killed.len()
    }

    /// Waits (bounded) for the killed processes: each is reaped here once it is our child; one
    /// whose parent is still alive is that parent's to reap (and comes to us if it dies too).
    fn reap(killed: &[i32]) {
        let mut left: Vec<i32> = killed.to_vec();
        let until = Instant::now() + REAP_WAIT;
        while !left.is_empty() && Instant::now() < until {
            left.retain(|&pid| {
                let mut status = 0;
                // SAFETY: waitpid on one pid we killed, without blocking.
                let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
                if r == pid {
                    return false;
                }
                // Not ours (yet): still dying under a parent that is dying too, and re-parented
                // to us when that one is gone. Waiting ends when it no longer exists.
                stat(pid).is_some()
            });
            if !left.is_empty() {
                std::thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_unique_and_name_the_process() {
        let (a, b) = (token(), token());
        assert_ne!(a, b);
        assert!(a.starts_with(&format!("{}.", std::process::id())));
    }

    #[test]
    fn a_detached_marked_process_under_us_is_killed_and_reaped() {
        use std::os::unix::process::CommandExt;
        become_subreaper();
        let t = token();
        // Its own session (like `setsid`), so no group kill reaches it: only the token does.
        let mut cmd = Command::new("sleep");
        cmd.arg("600").env(TOKEN_VAR, &t);
        // SAFETY: setsid is async-signal-safe.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
        let child = cmd.spawn().unwrap();
        let pid = child.id() as i32;
        // An unmarked one is left alone.
        let mut other = Command::new("sleep").arg("600").spawn().unwrap();
        assert_eq!(sweep(&t, -1, -1), 1);
        // Reaped by the sweep: the pid no longer exists (not even as a zombie).
        assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
        assert!(other.try_wait().unwrap().is_none());
        other.kill().unwrap();
        other.wait().unwrap();
        std::mem::forget(child);
    }
}
