//! Small helpers the CLI output parsers share: JSON lines, a JSON object at the end of noisy
//! text, and numeric fields that may be absent. Plus, for tests, replaying a recorded run from
//! `tests/fixtures/<cli>/` through the same path a live call takes.

use serde_json::Value;

use crate::agents::{Captured, Failure};

/// Every line of `text` that is a JSON value; other lines (warnings, banners) are skipped.
pub fn json_lines(text: &str) -> impl Iterator<Item = Value> + '_ {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with('{') || l.starts_with('['))
        .filter_map(|l| serde_json::from_str(l).ok())
}

/// The last meaningful line of a CLI's stderr: not blank, not a warning banner. That is where
/// the CLIs put the reason they stopped before printing any structured output.
pub fn last_line(text: &str) -> Option<&str> {
    text.lines().map(str::trim).rev().find(|l| {
        !l.is_empty()
            && !l.starts_with("WARNING:")
            && !l.to_ascii_lowercase().starts_with("warning:")
    })
}

/// The failure for output without the structure a parser looks for: a CLI that exited non-zero
/// said why on stderr (usage errors, bad config); anything else is a parse error named `what`,
/// never the raw output.
pub fn unstructured(c: &Captured, what: &str) -> Failure {
    match last_line(c.stderr) {
        Some(line) if c.code != Some(0) => Failure::classified(line, None, c.code),
        _ => Failure::parse(what, c.code),
    }
}

/// The whole of `text` as one JSON value, if it is one.
pub fn whole_json(text: &str) -> Option<Value> {
    serde_json::from_str(text.trim()).ok()
}

/// The last JSON object in `text` that runs to its end (after trailing whitespace), for CLIs that
/// print warnings and stack traces before a pretty-printed error object (gemini on stderr).
pub fn trailing_json_object(text: &str) -> Option<Value> {
    let trimmed = text.trim_end();
    // Candidates are lines that start with `{`: the object's first line.
    let mut offset = 0;
    let mut starts = Vec::new();
    for line in trimmed.split_inclusive('\n') {
        if line.trim_start().starts_with('{') {
            starts.push(offset + (line.len() - line.trim_start().len()));
        }
        offset += line.len();
    }
    starts
        .into_iter()
        .find_map(|s| serde_json::from_str::<Value>(&trimmed[s..]).ok())
        .filter(Value::is_object)
}

/// A non-negative integer at `path` (`["usage", "input_tokens"]`).
pub fn u64_at(v: &Value, path: &[&str]) -> Option<u64> {
    at(v, path)?.as_u64()
}

/// A number at `path`.
pub fn f64_at(v: &Value, path: &[&str]) -> Option<f64> {
    at(v, path)?.as_f64()
}

/// A string at `path`.
pub fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(v, path)?.as_str()
}

pub fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

/// Replays recorded runs of the real CLIs (copied from the harness into `tests/fixtures/`).
#[cfg(test)]
pub mod fixtures {
    use std::os::unix::process::ExitStatusExt;
    use std::path::PathBuf;
    use std::process::ExitStatus;
    use std::time::Duration;

    use crate::agents::{agent, Captured, Failure, Reply, Request};
    use crate::sys::runner::{Ending, Finished};

    fn dir(cli: &str) -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(cli)
    }

    pub fn read(cli: &str, file: &str) -> String {
        let p = dir(cli).join(file);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    /// Every scenario recorded for `cli` (the names of its `*.meta.json` files).
    pub fn scenarios(cli: &str) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir(cli))
            .unwrap()
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                name.strip_suffix(".meta.json").map(str::to_string)
            })
            .collect();
        v.sort();
        v
    }

    /// A recorded run as the process runner would have returned it: a run the harness had to
    /// kill (exit 124, `timed_out`) is our wall-clock timeout.
    pub fn recorded(cli: &str, scenario: &str) -> Finished {
        let meta: serde_json::Value =
            serde_json::from_str(&read(cli, &format!("{scenario}.meta.json"))).unwrap();
        let code = meta["exit_code"].as_i64().expect("exit_code") as i32;
        let ending = if meta["timed_out"].as_bool() == Some(true) {
            Ending::TimedOut
        } else {
            Ending::Exited(ExitStatus::from_raw(code << 8))
        };
        Finished {
            ending,
            stdout: read(cli, &format!("{scenario}.stdout")).into_bytes(),
            stderr: read(cli, &format!("{scenario}.stderr")).into_bytes(),
            dropped: 0,
            duration: Duration::from_secs(1),
        }
    }

    /// Runs the recorded `scenario` through [`agent::interpret`] as a live call would.
    pub fn replay(
        cli: &str,
        scenario: &str,
        parse: fn(&Captured) -> Result<Reply, Failure>,
    ) -> Result<Reply, Failure> {
        let finished = recorded(cli, scenario);
        let req = Request {
            prompt: "",
            cwd: None,
            timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(30),
            schema: None,
            sandbox: Default::default(),
        };
        // gemini's retry lines decide why a killed call failed; no other CLI reports retries.
        let retrying = (cli == "gemini").then_some(crate::agents::gemini_retries::retrying as _);
        agent::interpret_with(&finished, parse, retrying, &req)
    }

    /// Replays every recorded scenario of `cli`: `expect` names the failure kind each one must end
    /// in (`None` for a success, checked by `ok`) and panics on a scenario it does not know, so a
    /// new recording forces a decision.
    pub fn check_all(
        cli: &str,
        parse: fn(&Captured) -> Result<Reply, Failure>,
        expect: fn(&str) -> Option<crate::agents::ErrorKind>,
        ok: impl Fn(&Reply),
    ) {
        // `schema-*` runs are checked by the structured-output tests in `agent.rs`.
        let all: Vec<String> = scenarios(cli)
            .into_iter()
            .filter(|s| !s.starts_with("schema-"))
            .collect();
        assert!(all.len() >= 5, "{cli}: {all:?}");
        for s in all {
            match (expect(&s), replay(cli, &s, parse)) {
                (None, Ok(r)) => {
                    assert_eq!(r.text, OK_ANSWER, "{cli} {s}");
                    ok(&r);
                }
                (Some(kind), Err(f)) => assert_eq!(f.kind, kind, "{cli} {s}: {f:?}"),
                (want, got) => panic!("{cli} {s}: wanted {want:?}, got {got:?}"),
            }
        }
    }

    /// Parses hand-written output as if the CLI exited with `code`.
    pub fn parse_text(
        parse: fn(&Captured) -> Result<Reply, Failure>,
        stdout: &str,
        stderr: &str,
        code: i32,
    ) -> Result<Reply, Failure> {
        parse(&Captured {
            stdout,
            stderr,
            code: Some(code),
        })
    }

    /// Parses a recorded output file of another format (text, stream-json) as if it exited 0.
    pub fn parse_file(
        cli: &str,
        file: &str,
        parse: fn(&Captured) -> Result<Reply, Failure>,
    ) -> Result<Reply, Failure> {
        let out = read(cli, file);
        parse(&Captured {
            stdout: &out,
            stderr: "",
            code: Some(0),
        })
    }

    /// The answer every `ok` recording carries.
    pub const OK_ANSWER: &str = "FAKE-ANSWER: No, add() subtracts; it should return a + b.";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_object_after_noise() {
        let text = "Warning: x\n    at foo (bar.js:1)\n{\n  \"error\": {\"code\": 401}\n}\n";
        let v = trailing_json_object(text).unwrap();
        assert_eq!(u64_at(&v, &["error", "code"]), Some(401));
        assert!(trailing_json_object("no json here").is_none());
    }

    #[test]
    fn json_lines_skip_banners() {
        let v: Vec<_> = json_lines("WARNING: x\n{\"a\":1}\nnot json\n{\"a\":2}\n").collect();
        assert_eq!(v.len(), 2);
    }
}
