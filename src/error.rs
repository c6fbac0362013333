//! Exit codes and the one place errors become them.
//!
//! Commands return `anyhow::Result<Outcome>`. An error whose chain holds a [`UsageError`] is the
//! user's input to fix (exit 2); any other error is a runtime failure (exit 4). Keeping the mapping
//! here means a later command cannot invent its own codes.

use std::fmt;
use std::process::ExitCode;

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
}

impl Outcome {
    pub fn exit_code(self) -> ExitCode {
        match self {
            Outcome::Success => ExitCode::SUCCESS,
        }
    }
}

pub const EXIT_USAGE: u8 = 2;
pub const EXIT_RUNTIME: u8 = 4;

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
    eprintln!("error: {msg}");
    if err.chain().any(|c| c.is::<UsageError>()) {
        ExitCode::from(EXIT_USAGE)
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
