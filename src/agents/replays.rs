//! Recorded runs of the real CLIs replayed through the same path a live call takes, and
//! hand-written output parsed as a CLI's.

use std::time::Duration;

use crate::agents::fixtures::{read, recorded, scenarios, OK_ANSWER};
use crate::agents::{agent, Captured, Failure, Reply, Request};

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
