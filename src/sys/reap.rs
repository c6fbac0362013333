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
//! - the kernel's death signal reaches only the direct child, and the real CLIs are wrappers
//!   (codex's npm script starts its native binary, gemini relaunches itself in a second node), so
//!   the first call also starts a **guardian**: this same binary, in a process group of its own
//!   (no Ctrl-C reaches it), holding the read end of a pipe whose write end only we hold. When we
//!   die, however we die (`kill -9`, or the immediate exit of a second Ctrl-C), the pipe closes
//!   and the guardian kills every process that carries one of our tokens, then exits.
//!
//! Limits: a descendant that clears its environment *and* leaves the group is not found.
//! Elsewhere than Linux these are no-ops and the process-group kill is what remains.

use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal};

use crate::sys::child;

/// The environment variable that marks every process of one model call.
pub const TOKEN_VAR: &str = "GIT_DEBATE_CALL";

/// Set (to our pid) only in the guardian's environment: what makes `git-debate` a guardian.
const GUARDIAN_VAR: &str = "GIT_DEBATE_GUARDIAN_OF";

/// Direct children the runners wait on themselves: never reaped by a sweep (their runner's wait
/// would fail), whatever state they are in.
static WAITED: std::sync::Mutex<Vec<i32>> = std::sync::Mutex::new(Vec::new());

/// Marks `pid` as a direct child its runner reaps; `done` when it has.
pub fn waited_on(pid: i32, done: bool) {
    let mut w = WAITED.lock().unwrap_or_else(|e| e.into_inner());
    w.retain(|&p| p != pid);
    if !done {
        w.push(pid);
    }
}

/// Starts the guardian (once; only from the real binary: a test harness must never run itself
/// with the guardian's variable).
pub fn start_guardian() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            use std::os::unix::process::CommandExt as _;
            let Ok(exe) = std::env::current_exe() else {
                return;
            };
            if exe.file_name().and_then(|n| n.to_str()) != Some("git-debate") {
                return;
            }
            let spawned = Command::new(exe)
                .env(GUARDIAN_VAR, std::process::id().to_string())
                .env_remove(TOKEN_VAR)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .process_group(0)
                .spawn();
            if let Ok(mut child) = spawned {
                // The write end lives exactly as long as we do (and, close-on-exec, in none of
                // our children); the guardian is never waited for.
                std::mem::forget(child.stdin.take());
                std::mem::forget(child);
            }
        });
    }
}

/// When this process was started as a guardian: waits for its parent to end, kills what is left
/// of its calls, and returns the exit code. `None` for an ordinary run.
pub fn guardian_main() -> Option<std::process::ExitCode> {
    let parent: i32 = std::env::var(GUARDIAN_VAR).ok()?.parse().ok()?;
    use std::io::Read as _;
    let mut buf = [0u8; 64];
    let mut stdin = std::io::stdin().lock();
    loop {
        match stdin.read(&mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    #[cfg(target_os = "linux")]
    linux::kill_orphans(parent);
    #[cfg(not(target_os = "linux"))]
    let _ = parent;
    Some(std::process::ExitCode::SUCCESS)
}

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
        ONCE.call_once(|| {
            let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
        });
    }
}

/// Arranges for the child `cmd` starts to get SIGKILL when we die, and to start with the signal
/// dispositions we were started with (we ignore SIGXFSZ for ourselves only).
///
/// The kernel sends it when the *thread* that forked the child exits, not the process. That is
/// safe here because [`crate::sys::runner::Call`] spawns the child and then stays in that same
/// call, on that same thread, until the child has been killed and reaped: the thread never ends
/// while the child lives, except by our death, which is the point.
pub fn die_with_parent(cmd: &mut Command) {
    let mut steps = child::InChild {
        die_with: Some(rustix::process::getpid()),
        ..Default::default()
    };
    if !crate::sys::signals::ignored_at_start(Signal::XFSZ) {
        steps.defaults.push(Signal::XFSZ);
    }
    child::in_child(cmd, steps);
}

/// Whether process `pid` exists (it may be a zombie, or another user's).
pub fn alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
        return false;
    };
    match rustix::process::test_kill_process(pid) {
        Ok(()) => true,
        Err(e) => e == rustix::io::Errno::PERM,
    }
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
        stat_with_session(pid).map(|(state, ppid, pgid, _)| (state, ppid, pgid))
    }

    /// The same and the session id.
    fn stat_with_session(pid: i32) -> Option<(char, i32, i32, i32)> {
        let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let (_, rest) = text.rsplit_once(')')?;
        let mut f = rest.split_whitespace();
        let state = f.next()?.chars().next()?;
        let ppid = f.next()?.parse().ok()?;
        let pgid = f.next()?.parse().ok()?;
        let session = f.next()?.parse().ok()?;
        Some((state, ppid, pgid, session))
    }

    fn all() -> Vec<Proc> {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(|pid| stat(pid).map(|(_, ppid, pgid)| Proc { pid, ppid, pgid }))
            .collect()
    }

    /// The children of `pid`, from `/proc/<pid>/task/<tid>/children`: a child belongs to the
    /// thread that forked it, and one handed to us as subreaper to one of our threads, so every
    /// thread's list is read. Empty for a process that is gone; `None` where the kernel has no
    /// such files (built without `CONFIG_PROC_CHILDREN`).
    fn children(pid: i32) -> Option<Vec<i32>> {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            return Some(Vec::new());
        };
        let mut out = Vec::new();
        for task in tasks.filter_map(Result::ok) {
            match std::fs::read_to_string(task.path().join("children")) {
                Ok(list) => out.extend(
                    list.split_whitespace()
                        .filter_map(|p| p.parse::<i32>().ok()),
                ),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && task.path().exists() => {
                    return None;
                }
                // The thread ended while we read.
                Err(_) => {}
            }
        }
        Some(out)
    }

    /// Every process below `root` in the process tree.
    ///
    /// Read down the tree from `root` through the `children` files: a few reads for the few
    /// processes a call leaves, where reading the parent of every process on the machine cost
    /// a read of each one's `stat` (a few ms per call on a machine with a few hundred). Where
    /// the kernel has no `children` files, every process is read.
    fn descendants(root: i32) -> Vec<Proc> {
        let Some(mut parents) = children(root).map(|c| vec![(root, c)]) else {
            return descendants_of_all(root);
        };
        let mut found: Vec<Proc> = Vec::new();
        while let Some((parent, kids)) = parents.pop() {
            for pid in kids {
                if found.iter().any(|f| f.pid == pid) {
                    continue;
                }
                // Gone, or no longer below `parent` (it died and the child was re-parented):
                // its new parent's list has it when it is still ours.
                let Some((_, ppid, pgid)) = stat(pid) else {
                    continue;
                };
                if ppid != parent {
                    continue;
                }
                found.push(Proc { pid, ppid, pgid });
                parents.push((pid, children(pid).unwrap_or_default()));
            }
        }
        found
    }

    /// [`descendants`] from a read of every process.
    fn descendants_of_all(root: i32) -> Vec<Proc> {
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

    /// Whether `pid`'s environment holds `marker`; `None` when it reads empty. A process in the
    /// middle of `execve` shows an empty environment for a moment (the kernel names the new
    /// program before it lays out the new environment), so an empty one is worth a second look.
    fn carries(pid: i32, marker: &[u8]) -> Option<bool> {
        let env = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
        if env.is_empty() {
            return None;
        }
        Some(env.split(|&b| b == 0).any(|var| var == marker))
    }

    pub(super) fn sweep(token: &str, pgid: i32, skip: i32) -> usize {
        let marker = format!("{TOKEN_VAR}={token}").into_bytes();
        let me = std::process::id() as i32;
        let mut killed: Vec<i32> = Vec::new();
        for _ in 0..SWEEP_ROUNDS {
            let before = killed.len();
            let mut unsure = false;
            for p in descendants(me) {
                if p.pid == skip || killed.contains(&p.pid) {
                    continue;
                }
                // A zombie has no environment left, but keeps its group.
                let marked = p.pgid == pgid || {
                    let seen = carries(p.pid, &marker);
                    unsure |= seen.is_none() && stat(p.pid).is_some_and(|(s, ..)| s != 'Z');
                    seen == Some(true)
                };
                if marked {
                    kill(p.pid);
                    killed.push(p.pid);
                }
            }
            if killed.len() == before && !unsure {
                break;
            }
            if unsure {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        reap(&killed);
        reap_zombies(me);
        killed.len()
    }

    /// Detached processes handed to us that ended on their own are zombies with no environment
    /// and no group to recognise them by. They did call `setsid` (that is how they left the
    /// call's group), and nothing we start ourselves does: so a zombie child of ours in another
    /// session than ours is reaped here, never one a runner or a `Command::output` waits on.
    fn reap_zombies(me: i32) {
        // Our own children are all it can be; every process where the kernel cannot list them.
        let candidates: Vec<i32> = match children(me) {
            Some(kids) => kids,
            None => {
                let Ok(dir) = std::fs::read_dir("/proc") else {
                    return;
                };
                dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
                    .collect()
            }
        };
        // Our session is read from /proc, not asked with getsid(2): in a container whose
        // session leader lives outside our pid namespace the kernel answers 0, which rustix
        // treats as impossible and panics on — in a destructor, that aborts the process.
        let Some((_, _, _, ours)) = stat_with_session(me) else {
            return;
        };
        let zombies: Vec<i32> = candidates
            .into_iter()
            .filter(|&pid| {
                matches!(stat_with_session(pid),
                    Some(('Z', ppid, _, sid)) if ppid == me && sid != ours)
            })
            .collect();
        let waited = WAITED.lock().unwrap_or_else(|e| e.into_inner());
        for pid in zombies.into_iter().filter(|p| !waited.contains(p)) {
            reap_one(pid);
        }
    }

    /// SIGKILL to one process; one that is gone already is fine.
    fn kill(pid: i32) {
        if let Some(pid) = Pid::from_raw(pid) {
            let _ = rustix::process::kill_process(pid, Signal::KILL);
        }
    }

    /// Reaps child `pid` if it has ended, without waiting; true when it was.
    fn reap_one(pid: i32) -> bool {
        let Some(p) = Pid::from_raw(pid) else {
            return false;
        };
        matches!(
            rustix::process::waitpid(Some(p), rustix::process::WaitOptions::NOHANG),
            Ok(Some((reaped, _))) if reaped == p
        )
    }

    /// The guardian's work once `parent` is gone: every process carrying one of its call tokens
    /// is killed, looking again while new ones appear (a wrapper forking as it dies).
    pub(super) fn kill_orphans(parent: i32) {
        let prefix = format!("{TOKEN_VAR}={parent}.").into_bytes();
        let me = std::process::id() as i32;
        let mut killed: Vec<i32> = Vec::new();
        for _ in 0..SWEEP_ROUNDS {
            let before = killed.len();
            for p in all() {
                if p.pid == me || killed.contains(&p.pid) {
                    continue;
                }
                let marked = std::fs::read(format!("/proc/{}/environ", p.pid))
                    .is_ok_and(|env| env.split(|&b| b == 0).any(|var| var.starts_with(&prefix)));
                if marked {
                    kill(p.pid);
                    killed.push(p.pid);
                }
            }
            if killed.len() == before {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits (bounded) for the killed processes: each is reaped here once it is our child; one
    /// whose parent is still alive is that parent's to reap (and comes to us if it dies too).
    fn reap(killed: &[i32]) {
        let mut left: Vec<i32> = killed.to_vec();
        let until = Instant::now() + REAP_WAIT;
        while !left.is_empty() && Instant::now() < until {
            left.retain(|&pid| {
                if reap_one(pid) {
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
        become_subreaper();
        let t = token();
        // Its own session (`setsid`, which execs `sleep` in place: not a group leader, it does
        // not fork), so no group kill reaches it: only the token does.
        let mut cmd = Command::new("setsid");
        cmd.args(["sleep", "600"]).env(TOKEN_VAR, &t);
        let child = cmd.spawn().unwrap();
        let pid = child.id() as i32;
        // An unmarked one is left alone.
        let mut other = Command::new("sleep").arg("600").spawn().unwrap();
        // While `setsid` execs `sleep`, its environment reads as empty for a moment, and the
        // kernel names the new program (`comm`) before it lays out the new environment, so a
        // loaded machine can show `sleep` with no environment yet: sweep once it is `sleep`
        // and its environment is readable again.
        let until = Instant::now() + Duration::from_secs(20);
        let settled = || {
            std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == "sleep")
                && std::fs::read(format!("/proc/{pid}/environ")).is_ok_and(|e| !e.is_empty())
        };
        while !settled() {
            assert!(Instant::now() < until, "setsid never became sleep");
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(sweep(&t, -1, -1), 1);
        // Reaped by the sweep: the pid no longer exists (not even as a zombie).
        assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
        assert!(other.try_wait().unwrap().is_none());
        other.kill().unwrap();
        other.wait().unwrap();
        std::mem::forget(child);
    }

    #[test]
    fn a_detached_process_that_ended_on_its_own_is_reaped_not_left_a_zombie() {
        become_subreaper();
        // The shell leaves a `setsid` process behind and exits: that one comes to us.
        let out = Command::new("sh")
            .args(["-c", "setsid sleep 0.2 >/dev/null 2>&1 & echo $!"])
            .output()
            .unwrap();
        let pid: i32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
        let zombie = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
                s.rsplit_once(')')
                    .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
            })
        };
        let until = Instant::now() + Duration::from_secs(20);
        while !zombie() {
            assert!(Instant::now() < until, "never became our zombie");
            std::thread::sleep(Duration::from_millis(20));
        }
        // A child of our own session that ended is left to whoever waits on it.
        let mut ours = Command::new("true").spawn().unwrap();
        std::thread::sleep(Duration::from_millis(100));
        sweep("no-such-token", -1, -1);
        assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists());
        assert!(ours.wait().unwrap().success());
    }

    /// In a container whose session leader is outside our pid namespace, getsid(2) answers 0
    /// (CI machines run us so). The sweeping tests are run again there, in a fresh pid
    /// namespace, where they once aborted the whole test binary. Skipped where a pid namespace
    /// cannot be made (no `unshare`, or not allowed).
    #[test]
    fn sweeping_works_where_our_session_leader_is_outside_our_namespace() {
        if std::env::var_os("GIT_DEBATE_IN_NEW_PID_NS").is_some() {
            return;
        }
        let probe = Command::new("unshare")
            .args(["-p", "-f", "--mount-proc", "true"])
            .output();
        if !probe.is_ok_and(|o| o.status.success()) {
            return;
        }
        let out = Command::new("unshare")
            .args(["-p", "-f", "--mount-proc"])
            .arg(std::env::current_exe().unwrap())
            .args(["sys::reap::tests::a_detached", "--test-threads=1"])
            .env("GIT_DEBATE_IN_NEW_PID_NS", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains("2 passed"), "{text}");
    }
}
