//! The adapter shared by the six agent CLIs: run the CLI through the process runner with its
//! recorded read-only command line, verify it left the repository alone, and parse its output.
//!
//! What differs between CLIs (arguments, environment, output format, error envelopes) is data and
//! one parser per CLI in an [`AgentSpec`], in that CLI's own file; what is the same (timeouts,
//! Ctrl-C, read-only verification, error hints, empty answers) is written once here.

pub mod host;
mod structured;
mod versions;

pub use structured::structured_answer;
use structured::*;

use std::path::PathBuf;

use std::sync::atomic::{AtomicBool, Ordering};

use std::time::Duration;

use crate::agents::error::generic_hint;

use crate::sys::runner::{self, Ending, Invocation};

use crate::{sandbox::readonly, sys::signals};

use crate::agents::{
    Answer, Backend, BackendError, Captured, ErrorKind, Failure, Family, OutputMode, Reply, Request,
};

use crate::answer::Protocol;

/// How a CLI takes the JSON Schema its final answer must follow.
#[derive(Debug, Clone, Copy)]
pub struct SchemaFlag {
    /// `--json-schema`, `--output-schema`.
    pub flag: &'static str,
    /// The flag takes a file path (codex) rather than the schema's JSON text (claude, qwen).
    /// Such a CLI also has no separate field for the object: its final message is the JSON.
    pub file: bool,
    /// Words of its error when the model answered in text instead of the schema (qwen fails the
    /// call then; the text is lost, so the call is made again without the schema).
    pub refused: &'static [&'static str],
}

/// What a CLI's adapter needs to build its command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallOptions {
    /// `-m`/`--model`, when one is chosen (flag, config or the effort table); else the CLI's default.
    pub model: Option<String>,
    /// A reasoning-effort setting for CLIs that take one (codex, opencode's variant).
    pub reasoning: Option<String>,
    /// `debate.<backend>.args`: the user's extra flags, placed before any trailing prompt marker.
    pub extra_args: Vec<String>,
    /// `debate.<backend>.maxAttempts`: failed attempts a CLI that reports its retries may make
    /// before we stop it ([`DEFAULT_ATTEMPTS`] when unset).
    pub max_attempts: Option<u32>,
}

/// Reads a CLI's stderr: the failed attempts it reports so far, and what they failed with.
pub type Retrying = fn(stderr: &str) -> Option<(u32, Failure)>;

/// How many failed attempts a retrying CLI is allowed by default: enough for a passing hiccup,
/// few enough that a 429 or 500 is reported in seconds rather than after the timeout.
pub const DEFAULT_ATTEMPTS: u32 = 3;

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
    /// Its structured-output flag, when it has one.
    pub schema: Option<SchemaFlag>,
    /// Turns captured output into the answer or a classified failure. Only called when the CLI
    /// exited by itself (timeouts are decided before).
    pub parse: fn(&Captured) -> Result<Reply, Failure>,
    /// For a CLI that reports its retries on stderr: the failed attempts so far and their cause.
    /// Read while it runs (it is stopped past `maxAttempts`) and when a limit ended the call.
    pub retrying: Option<Retrying>,
    /// Whether its output mode prints as the model writes (claude, gemini and qwen in
    /// `stream-json`, copilot's JSON events), so that silence means a stuck call. codex's
    /// `exec --json` and opencode's `--format json` print an answer only once it is whole
    /// (checked with a slow streamed answer from a fake model server), so for them the idle limit
    /// would end every long answer: only the wall clock bounds opencode, and codex is held to
    /// the idle limit through its [`Heartbeat`].
    pub streams: bool,
    /// For a CLI whose output mode is silent while the model writes but that can be made to say
    /// on stderr that it is working: how. With one, the idle limit applies.
    pub heartbeat: Option<Heartbeat>,
}

/// Lines a CLI prints on stderr, once its environment asks for them, each time the model sends it
/// something (codex's tracing of the events it passes on: one line per streamed delta). They
/// count as output for the idle limit, so its silence means a stalled model, and are dropped as
/// they come: they take no memory beyond the line being read and never reach the parser.
#[derive(Debug, Clone, Copy)]
pub struct Heartbeat {
    /// Set for the child whatever the user's environment says: a value of theirs would decide
    /// what it prints.
    pub env: &'static [(&'static str, &'static str)],
    /// Whether a line of its stderr (newline included) is one of them.
    pub line: runner::IsHeartbeat,
}

impl AgentSpec {
    /// Whether the idle limit applies: its output, or its heartbeat, shows the model writing.
    pub fn idle_limited(&self) -> bool {
        self.streams || self.heartbeat.is_some()
    }

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
    /// This build rejected the schema flag: ask in the prompt only from now on.
    schema_unsupported: AtomicBool,
}

/// Why a call with a schema is made again without one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::agents) enum Retry {
    /// The CLI does not know the flag (an older version).
    FlagRejected,
    /// The model answered in text and the CLI failed the call for it.
    Refused,
}

impl AgentBackend {
    pub fn new(spec: &'static AgentSpec, program: PathBuf, options: CallOptions) -> AgentBackend {
        AgentBackend {
            family: (spec.family)(options.model.as_deref()),
            spec,
            program,
            options,
            version: std::sync::OnceLock::new(),
            schema_unsupported: AtomicBool::new(false),
        }
    }

    /// The command line, with the schema flag (and its value) before a trailing `-` if any.
    pub(in crate::agents) fn args(&self, schema_arg: Option<&str>) -> Vec<String> {
        let mut a = (self.spec.args)(&self.options);
        if let (Some(flag), Some(value)) = (self.spec.schema, schema_arg) {
            let at = if a.last().map(String::as_str) == Some("-") {
                a.len() - 1
            } else {
                a.len()
            };
            a.splice(at..at, [flag.flag.to_string(), value.to_string()]);
        }
        a
    }

    fn invocation(&self, req: &Request, schema_arg: Option<&str>) -> Invocation {
        let mut args = self.args(schema_arg);
        if let Err(why) = crate::sandbox::confine::apply(self.spec.name, &mut args, &req.sandbox) {
            crate::sandbox::confine::warn_once(&why);
        }
        let mut env = self.spec.child_env(&|k| std::env::var(k).ok());
        if let Some(beat) = &self.spec.heartbeat {
            env.extend(beat.env.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        }
        let mut env_remove: Vec<String> =
            self.spec.env_remove.iter().map(|s| s.to_string()).collect();
        if let Some(dir) = &req.sandbox.dir {
            // Nothing in its environment may lead it back to the repository.
            env.push(("PWD".into(), dir.display().to_string()));
            env_remove.extend(
                crate::sandbox::confine::REPO_VARS
                    .iter()
                    .map(|s| s.to_string()),
            );
        }
        Invocation {
            program: self.program.clone(),
            args,
            env,
            env_remove,
            cwd: req.run_dir(),
            stdin: req.prompt.as_bytes().to_vec(),
            timeout: req.timeout,
            idle_timeout: if self.spec.idle_limited() {
                req.idle_timeout
            } else {
                req.timeout
            },
            watch: self.spec.retrying.map(|retrying| {
                let limit = self.options.max_attempts.unwrap_or(DEFAULT_ATTEMPTS).max(1);
                runner::Watch::new(move |stderr| retrying(stderr).is_some_and(|(n, _)| n >= limit))
            }),
            heartbeat: self.spec.heartbeat.map(|beat| beat.line),
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
        // Variables set whatever the user's environment says are part of how it runs.
        let mut words: Vec<String> = self
            .spec
            .heartbeat
            .iter()
            .flat_map(|beat| beat.env.iter().map(|(k, v)| format!("{k}={v}")))
            .collect();
        words.push(self.program.display().to_string());
        words.extend((self.spec.args)(&self.options));
        if let Some(f) = self.spec.schema {
            words.push(format!("[{} <schema>]", f.flag));
        }
        words.push("< prompt".into());
        words.join(" ")
    }

    fn reads_files(&self, no_tools: bool) -> bool {
        // Only a switch checked to remove its file tools counts (opencode has none).
        !(no_tools && crate::sandbox::confine::can_disable_tools(self.spec.name))
    }

    fn ask(&self, req: &Request) -> Result<Answer, BackendError> {
        let wanted = req.schema.filter(|_| {
            self.spec.schema.is_some() && !self.schema_unsupported.load(Ordering::Relaxed)
        });
        let Some(protocol) = wanted else {
            return self.ask_once(req, None).map_err(|(e, _)| e);
        };
        let flag = self.spec.schema.expect("checked").flag;
        let started = std::time::Instant::now();
        let first = self.ask_once(req, Some(protocol));
        let req = &req.after(started.elapsed());
        match first {
            Err((_, Some(Retry::FlagRejected))) => {
                self.schema_unsupported.store(true, Ordering::Relaxed);
                let note = format!(
                    "{} does not accept {flag} (an older version?): the answer format is asked \
                     for in the prompt only",
                    self.spec.name
                );
                say_once(self.spec.name, &note);
                self.retry_plain(req, note)
            }
            Err((_, Some(Retry::Refused))) => self.retry_plain(
                req,
                format!(
                    "{} answered in text instead of the schema; asked again without {flag}",
                    self.spec.name
                ),
            ),
            other => other.map_err(|(e, _)| e),
        }
    }
}

impl AgentBackend {
    fn retry_plain(&self, req: &Request, note: String) -> Result<Answer, BackendError> {
        let mut a = self.ask_once(req, None).map_err(|(e, _)| e)?;
        a.output = OutputMode::fallback(note);
        Ok(a)
    }

    /// One call, with the schema flag when `protocol` is set. The error says whether a call
    /// without the schema should follow.
    fn ask_once(
        &self,
        req: &Request,
        protocol: Option<Protocol>,
    ) -> Result<Answer, (BackendError, Option<Retry>)> {
        let flag = self.spec.schema.filter(|_| protocol.is_some());
        let file = match (flag, protocol) {
            (Some(f), Some(p)) if f.file => Some(SchemaFile::write(p).map_err(|e| {
                (
                    self.error(
                        Failure::new(
                            ErrorKind::Exited(-1),
                            format!("cannot write the schema file: {e}"),
                        ),
                        req.timeout,
                    ),
                    None,
                )
            })?),
            _ => None,
        };
        let value = match (&file, protocol) {
            (Some(f), _) => Some(f.0.display().to_string()),
            (None, Some(p)) if flag.is_some() => Some(p.schema_for_cli().to_string()),
            _ => None,
        };
        let inv = self.invocation(req, value.as_deref());
        // The version is read next to the first call, not before it: no added latency.
        let (result, version) = std::thread::scope(|s| {
            let version = s.spawn(|| {
                self.version
                    .get_or_init(|| host::version(&self.program))
                    .clone()
            });
            let result = run_checked(self.spec.name, &inv, req);
            (result, version.join().ok().flatten())
        });
        drop(file);
        let (finished, changes) = result.map_err(|f| (self.error(f, req.timeout), None))?;
        let mut answer = self.conclude(&finished, req, protocol)?;
        answer.cli_version = version;
        answer.tree_changes = changes;
        Ok(answer)
    }

    /// A finished call read: the answer, or the failure and whether to ask again without the
    /// schema (the flag is unknown to this build, or the model answered in text and the CLI
    /// failed the call for it).
    pub(in crate::agents) fn conclude(
        &self,
        finished: &runner::Finished,
        req: &Request,
        protocol: Option<Protocol>,
    ) -> Result<Answer, (BackendError, Option<Retry>)> {
        let flag = self.spec.schema.filter(|_| protocol.is_some());
        let reply = match (
            interpret_with(finished, self.spec.parse, self.spec.retrying, req),
            flag,
        ) {
            (Ok(r), _) => r,
            (Err(f), Some(flag)) => {
                let out = String::from_utf8_lossy(&finished.stdout);
                let err = String::from_utf8_lossy(&finished.stderr);
                let retry = if rejects_flag(&out, &err, flag.flag) {
                    Some(Retry::FlagRejected)
                } else if flag
                    .refused
                    .iter()
                    .any(|w| f.message.contains(w) || out.contains(w))
                {
                    Some(Retry::Refused)
                } else {
                    None
                };
                return Err((self.error(f, req.timeout), retry));
            }
            (Err(f), None) => return Err((self.error(f, req.timeout), None)),
        };
        let mut reply = reply;
        if self.spec.schema.is_some_and(|f| !f.file) && reply.structured.is_none() {
            // claude and qwen report the object apart from the text; without it, the JSON in
            // the text was not enforced, whatever it looks like.
            reply.text_is_not_the_object = true;
        }
        let (structured, output) = structured_answer(&reply, protocol, self.spec.name);
        Ok(Answer {
            backend: self.spec.name.to_string(),
            text: reply.text,
            usage: reply.usage,
            model: reply.model.or_else(|| self.options.model.clone()),
            duration_ms: finished.duration.as_millis() as u64,
            cli_version: None,
            tree_changes: Vec::new(),
            structured,
            output,
            notes: Vec::new(),
            transport: "cli",
            redactions: 0,
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
    run_checked_talking(name, inv, req, None)
}

/// [`run_checked`] for a conversation ([`runner::Call::talk`]) when `talk` is given.
pub fn run_checked_talking(
    name: &str,
    inv: &Invocation,
    req: &Request,
    talk: Option<&mut dyn runner::Talk>,
) -> Result<(runner::Finished, Vec<String>), Failure> {
    let before = req.cwd.as_deref().and_then(readonly::Snapshot::before_call);
    let ran = runner::Call::spawn(inv).and_then(|call| match talk {
        Some(t) => call.talk(t),
        None => call.wait(),
    });
    let finished = ran.map_err(|e| {
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
        (Some(before), Some(cwd)) => readonly::Snapshot::after_call(cwd)
            .map(|after| before.changes(&after))
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    if !changes.is_empty() {
        crate::errln!(
            "warning: {name} changed the repository although it was run read-only ({} change{}):",
            changes.len(),
            if changes.len() == 1 { "" } else { "s" }
        );
        for c in &changes {
            crate::errln!("warning:   {c}");
        }
    }
    Ok((finished, changes))
}

/// The failure of a call a limit ended, saying which limit: the user must know which one to
/// raise. `None` when no limit ended it.
pub fn limit_failure(ending: Ending, req: &Request) -> Option<Failure> {
    match ending {
        Ending::TimedOut => Some(Failure::new(
            ErrorKind::Timeout,
            format!(
                "no answer within {} s, the wall-clock limit (--backend-timeout-seconds, or \
                 the time left of --budget-minutes)",
                req.timeout.as_secs()
            ),
        )),
        Ending::Idle => Some(Failure::new(
            ErrorKind::Timeout,
            format!(
                "no output for {} s, the idle limit (--backend-idle-seconds)",
                req.idle_timeout.as_secs()
            ),
        )),
        _ => None,
    }
}

/// Decides how a finished call ended: interrupted, timed out, or whatever its parser says, with an
/// empty answer counted as a failure.
pub fn interpret(
    finished: &runner::Finished,
    parse: fn(&Captured) -> Result<Reply, Failure>,
    req: &Request,
) -> Result<Reply, Failure> {
    interpret_with(finished, parse, None, req)
}

/// [`interpret`] for a CLI that reports its retries: a call stopped or timed out while retrying
/// failed for the reason it was retrying (rate-limited, server error), not for lack of time.
pub fn interpret_with(
    finished: &runner::Finished,
    parse: fn(&Captured) -> Result<Reply, Failure>,
    retrying: Option<Retrying>,
    req: &Request,
) -> Result<Reply, Failure> {
    if signals::interrupted() {
        return Err(Failure::new(ErrorKind::Interrupted, "interrupted"));
    }
    let stopped_retrying = || {
        let stderr = String::from_utf8_lossy(&finished.stderr);
        retrying.and_then(|r| r(&stderr)).map(|(n, f)| {
            let s = if n == 1 { "" } else { "s" };
            Failure::new(
                f.kind,
                format!("stopped after {n} failed attempt{s}: {}", f.message),
            )
        })
    };
    let code = match finished.ending {
        Ending::GaveUp | Ending::TimedOut | Ending::Idle if stopped_retrying().is_some() => {
            return Err(stopped_retrying().expect("checked"));
        }
        Ending::GaveUp => return Err(Failure::new(ErrorKind::ServerError, "stopped retrying")),
        Ending::TimedOut | Ending::Idle => {
            return Err(limit_failure(finished.ending, req).expect("a limit ended it"))
        }
        Ending::Exited(status) => status.code(),
        // Only conversations conclude; their transports read their own outcome.
        Ending::Concluded => None,
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
    })
    .and_then(|reply| {
        if reply.text.trim().is_empty() {
            return Err(Failure::new(
                ErrorKind::EmptyAnswer,
                "the call succeeded but the answer is empty",
            ));
        }
        Ok(reply)
    });
    reply.map_err(|f| killed_by(finished.ending, f))
}

/// The failure of a CLI that a signal ended (a crash, an out-of-memory kill): its output, cut
/// short, says only that no answer was found, and a code read from it would blame the CLI's own
/// error path. What the CLI itself said failed (a 401, a 429) still wins.
fn killed_by(ending: Ending, f: Failure) -> Failure {
    match (ending.signal(), f.kind) {
        (Some(sig), ErrorKind::Exited(_) | ErrorKind::ParseError | ErrorKind::EmptyAnswer) => {
            Failure::new(ErrorKind::Killed(sig), f.message)
        }
        _ => f,
    }
}
