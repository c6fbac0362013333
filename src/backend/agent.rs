//! The adapter shared by the six agent CLIs: run the CLI through the process runner with its
//! recorded read-only command line, verify it left the repository alone, and parse its output.
//!
//! What differs between CLIs (arguments, environment, output format, error envelopes) is data and
//! one parser per CLI in an [`AgentSpec`], in that CLI's own file; what is the same (timeouts,
//! Ctrl-C, read-only verification, error hints, empty answers) is written once here.

use std::path::PathBuf;
use std::time::Duration;

use super::error::generic_hint;
use super::runner::{self, Ending, Invocation};
use super::{readonly, signals};
use super::{Answer, Backend, BackendError, Captured, ErrorKind, Failure, Family, Reply, Request};

/// What a CLI's adapter needs to build its command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallOptions {
    /// `-m`/`--model`, when one is chosen (flag, config or the effort table); else the CLI's default.
    pub model: Option<String>,
    /// A reasoning-effort setting for CLIs that take one (codex, opencode's variant).
    pub reasoning: Option<String>,
    /// `debate.<backend>.args`: the user's extra flags, placed before any trailing prompt marker.
    pub extra_args: Vec<String>,
}

/// Everything that makes one agent CLI different from the others.
pub struct AgentSpec {
    /// The backend name and default program name.
    pub name: &'static str,
    /// The model family, given the model we ask for (copilot and opencode serve several).
    pub family: fn(model: Option<&str>) -> Family,
    /// How to install it, for the not-installed hint.
    pub install: &'static str,
    /// How to log in or configure a key, for the not-authenticated hint.
    pub login: &'static str,
    /// Its arguments: non-interactive, prompt on stdin, machine-readable output, read-only tools.
    pub args: fn(&CallOptions) -> Vec<String>,
    /// Variables set for the child unless the user already set them (retry bounds, no telemetry).
    pub env_defaults: &'static [(&'static str, &'static str)],
    /// Variables removed from the child's environment.
    pub env_remove: &'static [&'static str],
    /// Variables this CLI sets in the shells it starts: finding one means it launched us.
    pub launched_by: &'static [&'static str],
    /// Turns captured output into the answer or a classified failure. Only called when the CLI
    /// exited by itself (timeouts are decided before).
    pub parse: fn(&Captured) -> Result<Reply, Failure>,
}

impl AgentSpec {
    /// The environment changes for a child, given the user's environment.
    pub fn child_env(&self, lookup: &dyn Fn(&str) -> Option<String>) -> Vec<(String, String)> {
        self.env_defaults
            .iter()
            .filter(|(k, _)| lookup(k).is_none())
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    /// The hint for a failure of this CLI.
    pub fn hint(&self, kind: ErrorKind, timeout_secs: u64) -> String {
        match kind {
            ErrorKind::NotInstalled => format!(
                "install it ({}) or set `git config --global debate.{}.command /path/to/{}`",
                self.install, self.name, self.name
            ),
            ErrorKind::NotAuthenticated => self.login.to_string(),
            kind => generic_hint(kind, timeout_secs),
        }
    }
}

/// An agent CLI ready to be asked.
pub struct AgentBackend {
    pub spec: &'static AgentSpec,
    pub program: PathBuf,
    pub family: Family,
    pub options: CallOptions,
    /// `--version`, asked once per backend (alongside its first call).
    version: std::sync::OnceLock<Option<String>>,
}

impl AgentBackend {
    pub fn new(spec: &'static AgentSpec, program: PathBuf, options: CallOptions) -> AgentBackend {
        AgentBackend {
            family: (spec.family)(options.model.as_deref()),
            spec,
            program,
            options,
            version: std::sync::OnceLock::new(),
        }
    }

    fn invocation(&self, req: &Request) -> Invocation {
        Invocation {
            program: self.program.clone(),
            args: (self.spec.args)(&self.options),
            env: self.spec.child_env(&|k| std::env::var(k).ok()),
            env_remove: self.spec.env_remove.iter().map(|s| s.to_string()).collect(),
            cwd: req.cwd.clone(),
            stdin: req.prompt.as_bytes().to_vec(),
            timeout: req.timeout,
            idle_timeout: req.idle_timeout,
        }
    }

    fn error(&self, failure: Failure, timeout: Duration) -> BackendError {
        BackendError::new(self.spec.name, failure, &|k| {
            self.spec.hint(k, timeout.as_secs())
        })
    }
}

impl Backend for AgentBackend {
    fn name(&self) -> &str {
        self.spec.name
    }
    fn family(&self) -> &Family {
        &self.family
    }
    fn model(&self) -> Option<&str> {
        self.options.model.as_deref()
    }
    fn describe(&self) -> String {
        let mut words = vec![self.program.display().to_string()];
        words.extend((self.spec.args)(&self.options));
        words.push("< prompt".into());
        words.join(" ")
    }

    fn ask(&self, req: &Request) -> Result<Answer, BackendError> {
        let inv = self.invocation(req);
        // The version is read next to the first call, not before it: no added latency.
        let (result, version) = std::thread::scope(|s| {
            let version = s.spawn(|| {
                self.version
                    .get_or_init(|| super::registry::version(&self.program))
                    .clone()
            });
            let result = run_checked(self.spec.name, &inv, req);
            (result, version.join().ok().flatten())
        });
        let (finished, changes) = result.map_err(|f| self.error(f, req.timeout))?;
        let reply =
            interpret(&finished, self.spec.parse, req).map_err(|f| self.error(f, req.timeout))?;
        Ok(Answer {
            backend: self.spec.name.to_string(),
            text: reply.text,
            usage: reply.usage,
            model: reply.model.or_else(|| self.options.model.clone()),
            duration_ms: finished.duration.as_millis() as u64,
            cli_version: version,
            tree_changes: changes,
        })
    }
}

/// Runs `inv` with the repository snapshotted before and after, warning loudly on stderr about
/// anything the call changed. Shared by every process backend.
pub fn run_checked(
    name: &str,
    inv: &Invocation,
    req: &Request,
) -> Result<(runner::Finished, Vec<String>), Failure> {
    let before = req.cwd.as_deref().and_then(readonly::Snapshot::take);
    let finished = runner::run(inv).map_err(|e| {
        let not_found = e
            .chain()
            .filter_map(|c| c.downcast_ref::<std::io::Error>())
            .any(|io| {
                matches!(
                    io.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::PermissionDenied
                )
            });
        if not_found {
            Failure::new(
                ErrorKind::NotInstalled,
                format!("cannot run {}", inv.program.display()),
            )
        } else {
            Failure::new(ErrorKind::Exited(-1), format!("{e:#}"))
        }
    })?;
    let changes = match (&before, req.cwd.as_deref()) {
        (Some(before), Some(cwd)) => readonly::Snapshot::take(cwd)
            .map(|after| before.changes(&after))
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    if !changes.is_empty() {
        eprintln!(
            "warning: {name} changed the repository although it was run read-only ({} change{}):",
            changes.len(),
            if changes.len() == 1 { "" } else { "s" }
        );
        for c in &changes {
            eprintln!("warning:   {c}");
        }
    }
    Ok((finished, changes))
}

/// Decides how a finished call ended: interrupted, timed out, or whatever its parser says, with an
/// empty answer counted as a failure.
pub fn interpret(
    finished: &runner::Finished,
    parse: fn(&Captured) -> Result<Reply, Failure>,
    req: &Request,
) -> Result<Reply, Failure> {
    if signals::interrupted() {
        return Err(Failure::new(ErrorKind::Interrupted, "interrupted"));
    }
    let code = match finished.ending {
        Ending::TimedOut => {
            return Err(Failure::new(
                ErrorKind::Timeout,
                format!("no answer after {} s", req.timeout.as_secs()),
            ))
        }
        Ending::Idle => {
            return Err(Failure::new(
                ErrorKind::Timeout,
                format!("no output for {} s", req.idle_timeout.as_secs()),
            ))
        }
        Ending::Exited(status) => status.code(),
    };
    if finished.dropped > 0 {
        // A cut answer must not pass for a whole one.
        return Err(Failure::new(
            ErrorKind::ParseError,
            format!(
                "PARSE_ERROR:output-over-{}-MB:{}",
                runner::MAX_CAPTURE >> 20,
                code.map_or("signal".into(), |c| c.to_string())
            ),
        ));
    }
    let stdout = String::from_utf8_lossy(&finished.stdout);
    let stderr = String::from_utf8_lossy(&finished.stderr);
    let reply = parse(&Captured {
        stdout: &stdout,
        stderr: &stderr,
        code,
    })?;
    if reply.text.trim().is_empty() {
        return Err(Failure::new(
            ErrorKind::EmptyAnswer,
            "the call succeeded but the answer is empty",
        ));
    }
    Ok(reply)
}
