//! gemini's retry reports, read from its stderr while it runs.
//!
//! gemini retries a 429 or 500 with backoff and model fallback for minutes, and nothing outside
//! its settings file bounds that (see `gemini.rs`). Each failed attempt is one stderr line as it
//! happens, so the runner stops the call once `debate.gemini.maxAttempts` attempts have failed,
//! and the call is reported as what the attempts failed with, not as a timeout.

use serde_json::Value;

use crate::agents::error::classify;
use crate::agents::parse::str_at;
use crate::agents::{ErrorKind, Failure};
use crate::pattern::Pattern;

/// gemini's retry reports on stderr, one line per failed attempt (`Attempt 2 failed with status
/// 429. Retrying with backoff... _ApiError: {…}`, `Attempt 3 failed: <message>. Max attempts
/// reached`). It counts again from 1 when it falls back to another model, so lines are counted,
/// not numbers read. The cause is the last reported status, the message the server's own.
pub(crate) fn retrying(stderr: &str) -> Option<(u32, Failure)> {
    static ATTEMPT: Pattern = Pattern::new(r"^Attempt \d+ failed(?: with status (\d{3}))?");
    let re = &ATTEMPT;
    let failed: Vec<(&str, Option<u16>)> = stderr
        .lines()
        .filter_map(|l| {
            let c = re.captures(l)?;
            Some((l, c.get(1).and_then(|s| s.as_str().parse().ok())))
        })
        .collect();
    let (last, _) = *failed.last()?;
    let status = failed.iter().rev().find_map(|(_, s)| *s);
    // The server's body from the latest line that carries one (`{"error":{"code":429,
    // "message":…}}`), else the last line's own words after "failed".
    let body = failed.iter().rev().find_map(|(l, _)| {
        let at = l.find("{\"error\"")?;
        let v: Value = serde_json::Deserializer::from_str(&l[at..])
            .into_iter()
            .next()?
            .ok()?;
        str_at(&v, &["error", "message"]).map(str::to_string)
    });
    let message = body.unwrap_or_else(|| {
        let words = last.split_once("failed").map_or(last, |(_, w)| w);
        words
            .trim_start_matches([':', ' '])
            .trim_end_matches(". Max attempts reached")
            .trim()
            .to_string()
    });
    let kind = match classify(last, status, None) {
        // A retried failure that names nothing else is the server's.
        ErrorKind::Exited(_) | ErrorKind::ParseError => ErrorKind::ServerError,
        k => k,
    };
    Some((failed.len() as u32, Failure::new(kind, message)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::fixtures::read;

    #[test]
    fn recorded_429_and_500_retries_are_read_as_such() {
        // As the real gemini 0.61 printed them against the fake server (json and stream-json).
        for (file, kind, server) in [
            (
                "429.stderr",
                ErrorKind::RateLimited,
                "fake_llm simulated 429",
            ),
            (
                "stream-429.stderr",
                ErrorKind::RateLimited,
                "fake_llm simulated 429",
            ),
            (
                "500.stderr",
                ErrorKind::ServerError,
                "fake_llm simulated 500",
            ),
        ] {
            let (n, f) = retrying(&read("gemini", file)).unwrap();
            assert!(n >= 3, "{file}: {n}");
            assert_eq!((f.kind, f.message.as_str()), (kind, server), "{file}");
        }
        // Counted as they come: the first line alone is one attempt.
        let first = read("gemini", "429.stderr");
        let upto = first.find("Attempt 2").unwrap();
        assert_eq!(retrying(&first[..upto]).map(|(n, _)| n), Some(1));
        // "Max attempts reached" lines carry no status: the kind comes from an earlier line.
        let max = "Attempt 1 failed with status 500. Retrying with backoff... _ApiError: x\n\
                   Attempt 2 failed: boom. Max attempts reached\n";
        let (n, f) = retrying(max).unwrap();
        assert_eq!(
            (n, f.kind, f.message.as_str()),
            (2, ErrorKind::ServerError, "boom")
        );
    }

    #[test]
    fn no_retry_lines_no_verdict() {
        assert!(retrying(&read("gemini", "ok.stderr")).is_none());
        assert!(retrying(&read("gemini", "hang.stderr")).is_none());
        assert!(retrying("Attempting nothing\n  Attempt 1 failed (indented)\n").is_none());
    }
}
