//! Typed backend failures: what went wrong with a model call, said by backend name, with what to do.
//!
//! Callers decide policy by kind (the review loop treats `rate-limited` differently from
//! `not-installed`), and users get one short line. Messages come from model CLIs and servers, so
//! they are sanitised before anyone sees them: secrets redacted, control characters dropped,
//! whitespace collapsed and length bounded (the `PARSE_ERROR:<type>:<code>` discipline: raw
//! output is never echoed).

pub use crate::error::{BackendError, ErrorKind};
use crate::pattern::Pattern;

/// The longest message kept from a backend, in characters.
pub const MAX_MESSAGE: usize = 300;

/// What a parser or transport found wrong, before it is tied to a backend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub kind: ErrorKind,
    /// The CLI's or server's own words (sanitised later), or our description.
    pub message: String,
}

impl Failure {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Failure {
        Failure {
            kind,
            message: message.into(),
        }
    }

    /// A failure classified from an error message and, when the CLI reported one, its HTTP status.
    pub fn classified(
        message: impl Into<String>,
        status: Option<u16>,
        code: Option<i32>,
    ) -> Failure {
        let message = message.into();
        let kind = classify(&message, status, code);
        Failure { kind, message }
    }

    /// Output that did not have the shape we expect: only sanitised metadata, never the raw text
    /// (`PARSE_ERROR:<type>:<code>`).
    pub fn parse(what: &str, code: Option<i32>) -> Failure {
        let code = code.map_or("signal".to_string(), |c| c.to_string());
        Failure::new(ErrorKind::ParseError, format!("PARSE_ERROR:{what}:{code}"))
    }
}

// The type lives beside the exit codes it decides (`crate::error`); it is made only here, where
// messages are sanitised and hints chosen.
impl BackendError {
    /// Ties `failure` to `backend`, sanitising the message and adding the hint for its kind.
    /// `hint` gives the backend-specific advice (install command, how to log in, ...).
    pub fn new(
        backend: &str,
        failure: Failure,
        hint: &dyn Fn(ErrorKind) -> String,
    ) -> BackendError {
        BackendError {
            backend: backend.to_string(),
            kind: failure.kind,
            message: sanitize(&failure.message),
            hint: hint(failure.kind),
        }
    }
}

/// Advice that is the same for every backend; adapters add their own for install and login.
pub fn generic_hint(kind: ErrorKind, timeout_secs: u64) -> String {
    match kind {
        ErrorKind::NotInstalled => "install it or point debate.<backend>.command at it".into(),
        ErrorKind::NotAuthenticated => "log in to it or set its API key".into(),
        ErrorKind::RateLimited => "wait and retry, or pick another --reviewer".into(),
        ErrorKind::ServerError => {
            "the provider failed; retry later or pick another --reviewer".into()
        }
        ErrorKind::Timeout => format!(
            "raise the limit that ended it (--backend-timeout-seconds is {timeout_secs}; \
             --backend-idle-seconds), or use --effort low"
        ),
        ErrorKind::EmptyAnswer => "the model returned no text; retry or pick another model".into(),
        ErrorKind::ParseError => {
            "its output format was not recognised; check its version with `git debate backends`"
                .into()
        }
        ErrorKind::Exited(_) => "run it by hand to see what it needs".into(),
        ErrorKind::Killed(_) => {
            "it crashed or something killed it; run it by hand to see what it needs".into()
        }
        ErrorKind::Interrupted => String::new(),
    }
}

/// Sorts an error message into a kind. A status the CLI reported in a structured field wins;
/// otherwise the wording is matched against what the recorded CLIs print (see
/// `tests/fixtures/<cli>/`), and an exit code is the last resort.
pub fn classify(message: &str, status: Option<u16>, code: Option<i32>) -> ErrorKind {
    if let Some(kind) = status.and_then(kind_of_status) {
        return kind;
    }
    let lower = message.to_ascii_lowercase();
    if let Some(kind) = status_in_text(&lower).and_then(kind_of_status) {
        return kind;
    }
    let any = |words: &[&str]| words.iter().any(|w| lower.contains(w));
    if any(&[
        "unauthorized",
        "unauthenticated",
        "authenticat",
        "invalid api key",
        "api key not valid",
        "not logged in",
        "please log in",
        "login required",
        "permission denied by provider",
        // No credentials configured at all: gemini's "Please set an Auth method", qwen's "No auth
        // type is selected".
        "auth method",
        "auth type",
    ]) {
        ErrorKind::NotAuthenticated
    } else if any(&[
        "rate limit",
        "rate-limit",
        "too many requests",
        "quota",
        "resource_exhausted",
        "resource exhausted",
    ]) {
        ErrorKind::RateLimited
    } else if any(&["timed out", "timeout", "deadline exceeded"]) {
        ErrorKind::Timeout
    } else if any(&[
        "server error",
        "server-side",
        "internal error",
        "overloaded",
        "high demand",
        "unavailable",
        "stream disconnected",
        "stream ended",
        "failed to parse json",
        "not valid json",
        "incomplete json",
        "bad gateway",
    ]) {
        ErrorKind::ServerError
    } else if code == Some(0) {
        // The CLI said it failed while exiting 0 (qwen does): the provider side, as far as we can
        // tell; "exited(0)" would read as success.
        ErrorKind::ServerError
    } else {
        ErrorKind::Exited(code.unwrap_or(1))
    }
}

fn kind_of_status(status: u16) -> Option<ErrorKind> {
    match status {
        401 | 403 => Some(ErrorKind::NotAuthenticated),
        429 => Some(ErrorKind::RateLimited),
        408 | 504 => Some(ErrorKind::Timeout),
        500..=599 => Some(ErrorKind::ServerError),
        _ => None,
    }
}

/// An HTTP status in the wording the CLIs use: "status 401", "401 unauthorized", "api error: 500",
/// "(http 401)", "error: 429", "last error: 500", "(429)". Bare numbers elsewhere (ports, counts)
/// are not statuses.
fn status_in_text(lower: &str) -> Option<u16> {
    static RE: Pattern = Pattern::new(
        r"(?:status:?\s*|http\s*|error:\s*|\(|\bcode\W{0,3})([45]\d\d)\b|\b([45]\d\d) (?:unauthorized|forbidden|too many requests|internal server error|bad gateway|service unavailable|gateway timeout)",
    );
    let caps = RE.captures(lower)?;
    caps.get(1)
        .or_else(|| caps.get(2))
        .and_then(|m| m.as_str().parse().ok())
}

/// Makes a backend's message safe to print and store: secrets redacted, control characters and
/// ANSI escapes dropped, whitespace collapsed, at most [`MAX_MESSAGE`] characters.
pub fn sanitize(message: &str) -> String {
    let redacted = crate::redact::redact(message, None).text;
    let mut out = String::with_capacity(redacted.len().min(MAX_MESSAGE * 4));
    let mut chars = redacted.chars().peekable();
    let mut space = false;
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // ESC [ ... final byte: an ANSI sequence, dropped whole.
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            }
            continue;
        }
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if c.is_control() {
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    if out.chars().count() > MAX_MESSAGE {
        out = out.chars().take(MAX_MESSAGE - 1).collect();
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structured_status_wins() {
        assert_eq!(
            classify("anything", Some(401), Some(1)),
            ErrorKind::NotAuthenticated
        );
        assert_eq!(
            classify("anything", Some(429), None),
            ErrorKind::RateLimited
        );
        assert_eq!(
            classify("anything", Some(503), None),
            ErrorKind::ServerError
        );
    }

    #[test]
    fn wording_of_the_recorded_clis() {
        let cases = [
            ("Failed to authenticate. API Error: 401 fake_llm simulated 401", ErrorKind::NotAuthenticated),
            ("API Error: Request rejected (429) · fake_llm simulated 429", ErrorKind::RateLimited),
            ("exceeded retry limit, last status: 429 Too Many Requests", ErrorKind::RateLimited),
            ("unexpected status 401 Unauthorized: x, url: http://127.0.0.1:45487/v1/responses", ErrorKind::NotAuthenticated),
            ("We’re currently experiencing high demand, which may cause temporary errors.", ErrorKind::ServerError),
            ("Failed to get response from the AI model; retried 5 times (total retry wait time: 14.63 seconds) Last error: 500 fake_llm simulated 500", ErrorKind::ServerError),
            ("[API Error: Request timeout after 10s. Try reducing input length", ErrorKind::Timeout),
            ("stream disconnected before completion: idle timeout waiting for SSE", ErrorKind::Timeout),
            ("stream disconnected before completion: stream closed before response.completed", ErrorKind::ServerError),
            ("Please set an Auth method in your /home/u/.gemini/settings.json or specify one of the following environment variables before running: GEMINI_API_KEY", ErrorKind::NotAuthenticated),
            ("No auth type is selected. Please configure an auth type (e.g. via settings or `--auth-type`) before running in non-interactive mode.", ErrorKind::NotAuthenticated),
            ("something odd", ErrorKind::Exited(3)),
        ];
        for (msg, want) in cases {
            assert_eq!(classify(msg, None, Some(3)), want, "{msg}");
        }
    }

    #[test]
    fn ports_and_counts_are_not_statuses() {
        assert_eq!(
            status_in_text("url: http://127.0.0.1:40150/v1 retried 5 times"),
            None
        );
    }

    #[test]
    fn sanitize_bounds_and_cleans() {
        let s = sanitize("a\u{1b}[31mred\u{1b}[0m\n\n  b\u{7}c");
        assert_eq!(s, "ared bc");
        let long = "x".repeat(1000);
        assert_eq!(sanitize(&long).chars().count(), MAX_MESSAGE);
        let secret = sanitize("key sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA failed");
        assert!(!secret.contains("AAAAAAAAAAAAAAAA"), "{secret}");
    }

    #[test]
    fn display_names_backend_kind_and_hint() {
        let e = BackendError::new(
            "claude",
            Failure::new(ErrorKind::NotAuthenticated, "401"),
            &|_| "run `claude` once to log in".into(),
        );
        assert_eq!(
            e.to_string(),
            "claude failed (not-authenticated): 401; run `claude` once to log in"
        );
    }
}
