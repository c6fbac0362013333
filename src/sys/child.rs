//! What a child does between fork and exec, where only async-signal-safe calls are allowed:
//! fixed steps chosen by data, so no caller can put arbitrary code there, and the one
//! `pre_exec` of the program.

use std::process::Command;

use rustix::process::{Pid, Signal};

/// The steps one child takes before it runs its program.
#[derive(Debug, Clone, Default)]
pub(in crate::sys) struct InChild {
    /// Asks for SIGKILL when the thread that forked it dies (see
    /// [`crate::sys::reap::die_with_parent`]); the pid is ours, read before the fork, to tell
    /// whether we died before the request was made.
    pub die_with: Option<Pid>,
    /// Signals set back to their default action (ignored ones stay ignored across exec).
    pub defaults: Vec<Signal>,
}

impl InChild {
    fn run(&self) {
        for sig in &self.defaults {
            crate::sys::signals::set_action(sig.as_raw(), libc::SIG_DFL);
        }
        #[cfg(target_os = "linux")]
        if let Some(parent) = self.die_with {
            let _ = rustix::process::set_parent_process_death_signal(Some(Signal::KILL));
            // We may have died between the fork and the prctl: then nobody will signal.
            if rustix::process::getppid() != Some(parent) {
                let _ = rustix::process::kill_process(rustix::process::getpid(), Signal::KILL);
            }
        }
    }
}

/// Has `cmd`'s child do `steps` before it runs its program.
pub(in crate::sys) fn in_child(cmd: &mut Command, steps: InChild) {
    use std::os::unix::process::CommandExt as _;
    // SAFETY: between fork and exec the child runs only `InChild::run`: sigaction, prctl,
    // getppid, getpid and kill on data moved in before the fork; all async-signal-safe, no
    // allocation, no lock.
    unsafe {
        cmd.pre_exec(move || {
            steps.run();
            Ok(())
        });
    }
}

/// Arranges for `cmd`'s child to start with SIGINT and SIGQUIT at their default action,
/// whatever we were started with: tests that interrupt a child of their own, so they pass even
/// when the test run itself was started with those signals ignored.
#[cfg(test)]
pub fn default_interrupts(cmd: &mut Command) {
    in_child(
        cmd,
        InChild {
            defaults: vec![Signal::INT, Signal::QUIT],
            ..Default::default()
        },
    );
}
