//! The ACP transport: a model asked through the Agent Client Protocol (JSON-RPC 2.0 over the
//! agent's stdin and stdout) instead of a one-shot command line.
//!
//! A topic debate prefers ACP wherever a provider speaks it, and kiro speaks nothing else. The same
//! guarantees as the CLI transport hold: the prompt travels in `session/prompt` on stdin, never on
//! argv; the session is put in the agent's read-only mode and every permission that would write,
//! execute or fetch is refused (and recorded); the model and effort are set through the session's
//! settings and checked against what the agent reports; the process runner's wall-clock and idle
//! deadlines, process-group kill and sweep apply ([`crate::sys::runner::Call::talk`]); failures
//! are classified like the CLI adapters'. [`agents`] says which agents speak it and how,
//! [`session`] holds the conversation ([`steps`] its requests, [`permissions`] its answers to the
//! agent's), [`options`] the shapes of the agents' settings and reports, [`wire`] the framing,
//! [`trace`] the optional transcript.

pub mod agents;
pub mod options;
pub mod permissions;
#[cfg(test)]
mod replay;
pub mod session;
pub mod steps;
pub mod trace;
pub mod wire;

use std::path::PathBuf;

use crate::agents::agent::{limit_failure, run_checked_talking};
use crate::agents::error::generic_hint;
use crate::agents::{OutputMode, Usage};
use crate::sys::runner::{Ending, Finished, Invocation};
use crate::{
    agents::{Answer, Backend, BackendError, ErrorKind, Failure, Family, Request},
    choices::Effort,
    sys::signals,
};
use agents::AcpAgent;
use session::{Conversation, Heard, Wanted};

/// An agent spoken to over ACP: one of [`agents::ACP_AGENTS`] or any `acp:<command>`.
pub struct AcpBackend {
    /// `kiro`, `gemini`, or `acp:<command>` as the user wrote it.
    pub name: String,
    pub agent: Option<&'static AcpAgent>,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub family: Family,
    pub model: Option<String>,
    pub effort: Option<Effort>,
}

impl AcpBackend {
    fn error(&self, failure: Failure, req: &Request) -> BackendError {
        BackendError::new(&self.name, failure, &|kind| match (kind, self.agent) {
            (ErrorKind::NotInstalled, Some(a)) => format!(
                "install it ({}) or set `git config --global debate.{}.acpCommand /path/to/{}`",
                a.install, a.name, a.program
            ),
            (ErrorKind::NotAuthenticated, Some(a)) => a.login().to_string(),
            (kind, _) => generic_hint(kind, req.timeout.as_secs()),
        })
    }

    fn invocation(&self, req: &Request) -> Invocation {
        let spec = self.agent.and_then(|a| a.cli);
        let mut env = spec.map_or_else(Vec::new, |s| s.child_env(&|k| std::env::var(k).ok()));
        let mut env_remove: Vec<String> = spec
            .map(|s| s.env_remove.iter().map(|v| v.to_string()).collect())
            .unwrap_or_default();
        if let Some(dir) = &req.sandbox.dir {
            env.push(("PWD".into(), dir.display().to_string()));
            env_remove.extend(
                crate::sandbox::confine::REPO_VARS
                    .iter()
                    .map(|s| s.to_string()),
            );
        }
        Invocation {
            program: self.program.clone(),
            args: self.args.clone(),
            env,
            env_remove,
            cwd: req.run_dir(),
            // The conversation writes; nothing goes on stdin up front.
            stdin: Vec::new(),
            timeout: req.timeout,
            // The agent streams message chunks and tool updates: silence means a stuck call.
            idle_timeout: req.idle_timeout,
            watch: None,
            heartbeat: None,
        }
    }
}

impl Backend for AcpBackend {
    fn name(&self) -> &str {
        &self.name
    }
    fn family(&self) -> &Family {
        &self.family
    }
    fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }
    fn transport(&self) -> &'static str {
        "acp"
    }
    fn describe(&self) -> String {
        let mut words = vec![self.program.display().to_string()];
        words.extend(self.args.iter().cloned());
        let mut set = Vec::new();
        if let Some(m) = &self.model {
            set.push(format!("model {m}"));
        }
        if let Some(e) = self.effort {
            set.push(format!("effort {}", e.name()));
        }
        set.push("read-only mode".into());
        format!(
            "{} [ACP: {}; prompt in session/prompt]",
            words.join(" "),
            set.join(", ")
        )
    }

    fn ask(&self, req: &Request) -> Result<Answer, BackendError> {
        let cwd = req
            .run_dir()
            .or_else(|| std::env::current_dir().ok())
            .and_then(|d| d.canonicalize().ok())
            .map(|d| d.display().to_string())
            .unwrap_or_else(|| "/".into());
        let mut talk = Conversation::new(Wanted {
            prompt: req.prompt.to_string(),
            cwd,
            model: self.model.clone(),
            effort: self.effort,
            status_chunks: self.agent.is_some_and(|a| a.status_chunks),
        });
        if req.sandbox.no_tools {
            // No agent's ACP mode has a switch that really removes its tools (claude's deny
            // rules are command-line settings too): it still runs in the export, read-only.
            crate::sandbox::confine::warn_once(&format!(
                "{}: the ACP transport has no switch that removes an agent's tools",
                self.name
            ));
        }
        let inv = self.invocation(req);
        let ran = match trace::Traced::file() {
            Some(file) => {
                let mut traced = trace::Traced {
                    inner: &mut talk,
                    file,
                };
                run_checked_talking(&self.name, &inv, req, Some(&mut traced))
            }
            None => run_checked_talking(&self.name, &inv, req, Some(&mut talk)),
        };
        let (finished, changes) = ran.map_err(|f| self.error(f, req))?;
        let model = talk.settle_model();
        let heard = std::mem::take(&mut talk.heard);
        for d in &heard.denied {
            crate::errln!("warning: {}: {d}", self.name);
        }
        let reply = conclude(&heard, &finished, req).map_err(|f| self.error(f, req))?;
        let mut notes = heard.denied.clone();
        notes.extend(
            heard
                .notes
                .iter()
                .map(|n| crate::agents::error::sanitize(n))
                .collect::<Vec<_>>(),
        );
        Ok(Answer {
            backend: self.name.clone(),
            text: reply.0,
            usage: reply.1,
            model,
            duration_ms: finished.duration.as_millis() as u64,
            cli_version: heard.agent.clone(),
            tree_changes: changes,
            structured: None,
            output: OutputMode::prompt(req.schema.map(|_| {
                "the ACP transport takes no JSON Schema: the answer format is asked for in the \
                 prompt"
                    .to_string()
            })),
            notes,
            transport: "acp",
            redactions: 0,
        })
    }
}

/// The answer and usage of a finished conversation, or why there is none.
fn conclude(heard: &Heard, finished: &Finished, req: &Request) -> Result<(String, Usage), Failure> {
    if signals::interrupted() {
        return Err(Failure::new(ErrorKind::Interrupted, "interrupted"));
    }
    if let Some(f) = &heard.failure {
        return Err(f.clone());
    }
    if !heard.finished {
        if let Some(f) = limit_failure(finished.ending, req) {
            return Err(f);
        }
        let code = match finished.ending {
            Ending::Exited(s) => s.code(),
            _ => None,
        };
        if finished.dropped > 0 {
            // One line beyond the capture limit: cut, so never read as the answer.
            return Err(Failure::parse(
                &format!("acp-line-over-{}-MB", crate::sys::runner::MAX_CAPTURE >> 20),
                code,
            ));
        }
        let stderr = String::from_utf8_lossy(&finished.stderr);
        let said = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        if heard.malformed > 0 && said.is_empty() {
            return Err(Failure::parse(
                &format!("acp-{}-malformed-lines-no-answer", heard.malformed),
                code,
            ));
        }
        let signal = finished.ending.signal();
        let how = match (code, signal) {
            (Some(c), _) => format!("exited with code {c}"),
            (None, Some(sig)) => format!("was killed by {}", crate::sys::signals::name(sig)),
            (None, None) => "was killed by a signal".to_string(),
        };
        let message = if said.is_empty() {
            format!("the agent {how} before answering")
        } else {
            format!("the agent {how} before answering: {said}")
        };
        let kind = match (crate::agents::error::classify(said, None, code), signal) {
            // A signal ended it and its words name no known failure: the signal is the fact.
            (ErrorKind::Exited(_), Some(sig)) => ErrorKind::Killed(sig),
            (ErrorKind::ServerError, Some(sig)) if said.is_empty() => ErrorKind::Killed(sig),
            // Its words say nothing we know: the exit is the fact.
            (ErrorKind::Exited(_) | ErrorKind::ServerError, None) if said.is_empty() => {
                ErrorKind::Exited(code.unwrap_or(-1))
            }
            (k, _) => k,
        };
        return Err(Failure::new(kind, message));
    }
    match heard.stop_reason.as_deref() {
        None | Some("end_turn") => {}
        Some("refusal") => {
            return Err(Failure::new(
                ErrorKind::EmptyAnswer,
                "the model refused to answer (stopReason refusal)",
            ))
        }
        Some(other) => {
            return Err(Failure::new(
                ErrorKind::ParseError,
                format!(
                    "the agent stopped the turn early (stopReason {}): the answer may be cut",
                    crate::agents::error::sanitize(other)
                ),
            ))
        }
    }
    if heard.answer.trim().is_empty() {
        return Err(Failure::new(
            ErrorKind::EmptyAnswer,
            "the call succeeded but the answer is empty",
        ));
    }
    Ok((heard.answer.clone(), heard.usage.clone()))
}
