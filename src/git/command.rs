//! Asking `git` itself: one `git` child process, run without a shell (the arguments an array)
//! through [`crate::sys::runner`], with a deadline, its output read as it comes.
//!
//! Every call names the repository explicitly (`GIT_DIR`, and `GIT_WORK_TREE` when there is a
//! work tree) and runs at the top of the work tree, so the child sees the repository we resolved,
//! whatever the current directory. The rest of the environment is inherited: `git -c` values
//! (`GIT_CONFIG_PARAMETERS`), `GIT_INDEX_FILE` in a hook, `GIT_OPTIONAL_LOCKS`. A failure becomes
//! one line that names the command, what git said, and what to do.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;

use crate::sys::runner::{self, Call, Ending, Invocation, Talk};

/// A quick question (`rev-parse`, `ls-files`, `write-tree`): a repository so slow to answer one is
/// stuck.
const QUICK: Duration = Duration::from_secs(120);
/// A diff of a huge range, or one that first fetches a partial clone's missing blobs.
const LONG: Duration = Duration::from_secs(30 * 60);

/// The `git` to run for one repository.
#[derive(Debug, Clone)]
pub(super) struct Git {
    /// `None`: found from the current directory, as git finds it.
    git_dir: Option<PathBuf>,
    work_tree: Option<PathBuf>,
    env: Vec<(String, String)>,
}

/// How a `git` call ended when its exit code is an answer (`merge-base` says "none" with 1).
pub(super) struct Answer {
    pub ok: bool,
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

impl Git {
    pub fn new(git_dir: Option<PathBuf>, work_tree: Option<PathBuf>) -> Git {
        Git {
            git_dir,
            work_tree,
            env: Vec::new(),
        }
    }

    /// The same repository with one more variable set for the child.
    pub fn with_env(&self, key: &str, value: &str) -> Git {
        let mut g = self.clone();
        g.env.push((key.to_string(), value.to_string()));
        g
    }

    fn invocation(&self, args: &[&str], stdin: Vec<u8>, timeout: Duration) -> Invocation {
        // Messages we may quote back are git's own English ones.
        let mut env = vec![("LC_ALL".to_string(), "C".to_string())];
        if let Some(d) = &self.git_dir {
            env.push(("GIT_DIR".to_string(), d.to_string_lossy().into_owned()));
            if let Some(w) = &self.work_tree {
                env.push((
                    "GIT_WORK_TREE".to_string(),
                    w.to_string_lossy().into_owned(),
                ));
            }
        }
        // Ours is named relative to our folder; the child runs in another.
        if let Some(index) = std::env::var_os("GIT_INDEX_FILE").filter(|i| !i.is_empty()) {
            if let Ok(abs) = std::path::absolute(PathBuf::from(index)) {
                env.push((
                    "GIT_INDEX_FILE".to_string(),
                    abs.to_string_lossy().into_owned(),
                ));
            }
        }
        env.extend(self.env.iter().cloned());
        Invocation {
            program: PathBuf::from("git"),
            args: std::iter::once("--no-pager")
                .chain(args.iter().copied())
                .map(str::to_string)
                .collect(),
            env,
            // A pager, an editor or a credential prompt has no terminal to talk to here.
            env_remove: vec!["GIT_PAGER".into(), "PAGER".into()],
            cwd: self.work_tree.clone().or_else(|| self.git_dir.clone()),
            stdin,
            timeout,
            idle_timeout: timeout,
            watch: None,
            heartbeat: None,
        }
    }

    /// Runs `git args` to its end; its stdout, or an error when it fails.
    pub fn output(&self, args: &[&str]) -> Result<Vec<u8>> {
        self.output_with_input(args, Vec::new())
    }

    /// [`Git::output`] with `stdin` written to the child.
    pub fn output_with_input(&self, args: &[&str], stdin: Vec<u8>) -> Result<Vec<u8>> {
        let a = self.answer_with_input(args, stdin)?;
        if !a.ok {
            return Err(failed(args, a.code, &a.stderr));
        }
        Ok(a.stdout)
    }

    /// Runs `git args` and returns how it ended, whatever its exit code; `Err` only when it could
    /// not be run or was stopped.
    pub fn answer(&self, args: &[&str]) -> Result<Answer> {
        self.answer_with_input(args, Vec::new())
    }

    pub(super) fn answer_with_input(&self, args: &[&str], stdin: Vec<u8>) -> Result<Answer> {
        let done = Call::spawn(&self.invocation(args, stdin, QUICK))
            .map_err(not_started)?
            .wait()?;
        if done.dropped > 0 {
            anyhow::bail!(
                "`git {}` printed more than {} MiB; the repository is too big to ask this way",
                args.join(" "),
                runner::MAX_CAPTURE >> 20
            );
        }
        let code = ended(args, done.ending)?;
        Ok(Answer {
            ok: code == Some(0),
            code,
            stdout: done.stdout,
            stderr: String::from_utf8_lossy(&done.stderr).into_owned(),
        })
    }

    /// Runs `git args`, handing `each` every line of its stdout (without the newline) as it
    /// comes, so output of any size is never held whole; returns what it printed on stderr.
    pub fn stream(&self, args: &[&str], each: &mut dyn FnMut(&[u8])) -> Result<String> {
        struct Lines<'a>(&'a mut dyn FnMut(&[u8]));
        impl Talk for Lines<'_> {
            fn open(&mut self) -> Vec<u8> {
                Vec::new()
            }
            fn hear(&mut self, line: &[u8]) -> Vec<u8> {
                (self.0)(line);
                Vec::new()
            }
            fn done(&self) -> bool {
                false
            }
        }
        let inv = self.invocation(args, Vec::new(), LONG);
        let done = Call::spawn(&inv)
            .map_err(not_started)?
            .talk(&mut Lines(each))?;
        let stderr = String::from_utf8_lossy(&done.stderr).into_owned();
        match ended(args, done.ending)? {
            Some(0) => Ok(stderr),
            code => Err(failed(args, code, &stderr)),
        }
    }
}

/// The exit code, or an error when the call was stopped rather than ended.
fn ended(args: &[&str], ending: Ending) -> Result<Option<i32>> {
    match ending {
        Ending::Exited(status) => Ok(status.code()),
        Ending::TimedOut | Ending::Idle => anyhow::bail!(
            "`git {}` did not finish in time and was stopped; run it yourself to see why \
             (a partial clone may be fetching from its remote)",
            args.join(" ")
        ),
        other => anyhow::bail!("`git {}` was stopped ({other:?})", args.join(" ")),
    }
}

fn not_started(e: anyhow::Error) -> anyhow::Error {
    e.context("cannot run git: install git, or put it on PATH")
}

/// One line: the command, git's own reason (its `fatal:`/`error:` line), and what to do.
fn failed(args: &[&str], code: Option<i32>, stderr: &str) -> anyhow::Error {
    let said = stderr
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("fatal:") || l.starts_with("error:"))
        .or_else(|| stderr.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("no message");
    let code = code.map_or_else(|| "a signal".to_string(), |c| format!("exit {c}"));
    anyhow::anyhow!(
        "`git {}` failed ({code}): {said}; run it in this repository to see the whole error",
        args.join(" ")
    )
}

/// Reads the answer as text (paths are not expected in it).
pub(super) fn text(bytes: Vec<u8>) -> String {
    String::from_utf8_lossy(&bytes).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_one_line_naming_the_command_and_gits_reason() {
        let e = failed(
            &["diff", "HEAD"],
            Some(128),
            "warning: x\nfatal: bad revision 'HEAD'\n",
        );
        assert_eq!(
            e.to_string(),
            "`git diff HEAD` failed (exit 128): fatal: bad revision 'HEAD'; run it in this \
             repository to see the whole error"
        );
    }
}
