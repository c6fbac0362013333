//! Exit codes and the one place errors become them.
//!
//! Commands return `anyhow::Result<Outcome>`. An error whose chain holds a [`UsageError`] is the
//! user's input to fix (exit 2); a failed model call ([`BackendError`]) leaves the change not
//! evaluated (exit 3, or 130 when Ctrl-C stopped it); any other error is a runtime failure
//! (exit 4). Keeping the mapping here means a later command cannot invent its own codes.

use std::fmt;
use std::process::ExitCode;

use serde::{Deserialize, Serialize};

/// Bad input the user can fix: a malformed scope, an unknown rev, a bad config value.
#[derive(Debug)]
pub struct UsageError(pub String);

impl UsageError {
    pub fn new(msg: impl Into<String>) -> Self {
        UsageError(msg.into())
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// A review that cannot be evaluated: no backend to ask, or the reviewer never answered (exit 3,
/// which a CI gate must never read as a pass).
#[derive(Debug)]
pub struct Unavailable(pub String);

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unavailable {}

/// What kind of failure a model call ended in. Defined here, beside the exit codes it decides
/// ([`report`]); the model layer classifies failures and words them (`crate::agents::error`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "code")]
pub enum ErrorKind {
    /// The program is not on PATH (or the configured command does not exist).
    NotInstalled,
    /// 401/403, missing or rejected credentials.
    NotAuthenticated,
    /// 429, quota, too many requests.
    RateLimited,
    /// 5xx, overloaded, or a response the CLI itself could not read.
    ServerError,
    /// Our wall-clock or idle timeout fired, or the CLI's own request timeout did.
    Timeout,
    /// The call succeeded but carried no answer text.
    EmptyAnswer,
    /// The CLI's output was not in the format it is known to print.
    ParseError,
    /// The CLI exited with this code and no recognisable error.
    Exited(i32),
    /// The CLI was ended by this signal (a crash, or a kill from outside) before it answered.
    Killed(i32),
    /// The user pressed Ctrl-C (or we got SIGTERM/SIGHUP) while the call ran.
    Interrupted,
}

impl ErrorKind {
    pub fn label(self) -> String {
        match self {
            ErrorKind::NotInstalled => "not-installed".into(),
            ErrorKind::NotAuthenticated => "not-authenticated".into(),
            ErrorKind::RateLimited => "rate-limited".into(),
            ErrorKind::ServerError => "server-error".into(),
            ErrorKind::Timeout => "timeout".into(),
            ErrorKind::EmptyAnswer => "empty-answer".into(),
            ErrorKind::ParseError => "parse-error".into(),
            ErrorKind::Exited(code) => format!("exited({code})"),
            ErrorKind::Killed(sig) => format!("killed by {}", crate::sys::signals::name(sig)),
            ErrorKind::Interrupted => "interrupted".into(),
        }
    }
}

/// A failed model call, ready to show: backend name, kind, sanitised message and what to do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackendError {
    pub backend: String,
    #[serde(flatten)]
    pub kind: ErrorKind,
    pub message: String,
    pub hint: String,
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} failed ({})", self.backend, self.kind.label())?;
        if !self.message.is_empty() {
            write!(f, ": {}", self.message)?;
        }
        if !self.hint.is_empty() {
            write!(f, "; {}", self.hint)?;
        }
        Ok(())
    }
}

impl std::error::Error for BackendError {}

/// `bail!`-like shorthand for a usage error.
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => {
        return Err($crate::error::UsageError::new(format!($($arg)*)).into())
    };
}

/// How a successful run ended; each maps to one documented exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// 0: done (including "nothing to review" and `--dry-run`).
    Success,
    /// 1: unresolved findings at or above `--fail-on`.
    GateFailed,
    /// 3: not evaluated (the reviewer never answered).
    Unavailable,
    /// 130: interrupted; what was done is saved.
    Interrupted,
}

impl Outcome {
    pub fn exit_code(self) -> ExitCode {
        // Ctrl-C stopped a model call but the command finished anyway (e.g. `backends` with a
        // version probe killed): still an interruption.
        if crate::sys::signals::interrupted() {
            return ExitCode::from(EXIT_INTERRUPTED);
        }
        match self {
            Outcome::Success => ExitCode::SUCCESS,
            Outcome::GateFailed => ExitCode::from(1),
            Outcome::Unavailable => ExitCode::from(EXIT_UNAVAILABLE),
            Outcome::Interrupted => ExitCode::from(EXIT_INTERRUPTED),
        }
    }
}

pub const EXIT_USAGE: u8 = 2;
pub const EXIT_UNAVAILABLE: u8 = 3;
pub const EXIT_RUNTIME: u8 = 4;
pub const EXIT_INTERRUPTED: u8 = 130;

/// Prints `error: ...` with the cause chain on one line and picks the exit code.
pub fn report(err: &anyhow::Error) -> ExitCode {
    if is_broken_pipe(err) {
        // `git debate sessions | head` must not print an error.
        return ExitCode::SUCCESS;
    }
    let mut msg = err.to_string();
    for cause in err.chain().skip(1) {
        msg.push_str(": ");
        msg.push_str(&cause.to_string());
    }
    crate::errln!("error: {msg}");
    let backend = err.chain().find_map(|c| c.downcast_ref::<BackendError>());
    if backend.is_some_and(|b| b.kind == ErrorKind::Interrupted)
        || crate::sys::signals::interrupted()
    {
        ExitCode::from(EXIT_INTERRUPTED)
    } else if err.chain().any(|c| c.is::<UsageError>()) {
        ExitCode::from(EXIT_USAGE)
    } else if backend.is_some() || err.chain().any(|c| c.is::<Unavailable>()) {
        // A model that never answered: not evaluated.
        ExitCode::from(EXIT_UNAVAILABLE)
    } else {
        ExitCode::from(EXIT_RUNTIME)
    }
}

fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
