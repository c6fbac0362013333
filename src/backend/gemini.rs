//! Gemini CLI (`gemini`, family google), as recorded in `harness/REAL-CLIS.md`.
//!
//! Quirks handled here: with stdin not a terminal the prompt needs no `-p`; `--skip-trust` is
//! needed or it exits 55 in an untrusted directory; `--approval-mode plan` keeps it read-only and
//! also skips its router call. The answer is `.response` of one pretty-printed JSON object on
//! stdout, but errors go to **stderr** (after warnings and a stack trace) as a JSON object, with
//! stdout empty and the exit code = HTTP status & 0xFF (401 -> 145, 500 -> 244). It retries 429/500
//! with model fallback for minutes and no flag bounds that (its `general.maxAttempts` setting lives
//! in the user's settings file, which we do not touch): our wall-clock and idle timeouts do.

use serde_json::Value;

use super::agent::{AgentSpec, CallOptions};
use super::parse::{at, str_at, trailing_json_object, u64_at, whole_json};
use super::{Captured, Failure, Family, Reply, Usage};

pub static SPEC: AgentSpec = AgentSpec {
    name: "gemini",
    family: |_| Family::google(),
    install: "npm install -g @google/gemini-cli",
    login: "run `gemini` once and sign in, or set GEMINI_API_KEY",
    args,
    env_defaults: &[],
    env_remove: &[],
    // gemini sets GEMINI_CLI=1 in the shells it starts.
    launched_by: &["GEMINI_CLI"],
    parse,
};

fn args(o: &CallOptions) -> Vec<String> {
    let mut a: Vec<String> = ["--skip-trust", "-o", "json", "--approval-mode", "plan"]
        .map(String::from)
        .to_vec();
    if let Some(m) = &o.model {
        a.extend(["-m".into(), m.clone()]);
    }
    a.extend(o.extra_args.iter().cloned());
    a
}

fn parse(c: &Captured) -> Result<Reply, Failure> {
    if let Some(obj) = whole_json(c.stdout).filter(|v| v.get("response").is_some()) {
        let text = obj.get("response").and_then(Value::as_str).unwrap_or("");
        return Ok(Reply {
            text: text.to_string(),
            usage: usage(&obj),
            model: main_model(&obj),
        });
    }
    if let Some(err) = trailing_json_object(c.stderr).filter(|v| v.get("error").is_some()) {
        let message = str_at(&err, &["error", "message"]).unwrap_or("gemini failed");
        // `message` is sometimes the server's own JSON body; its code is the HTTP status.
        let inner = whole_json(message);
        let status = u64_at(&err, &["error", "code"])
            .or_else(|| inner.as_ref().and_then(|v| u64_at(v, &["error", "code"])))
            .filter(|s| (100..=599).contains(s))
            .map(|s| s as u16);
        let text = inner
            .as_ref()
            .and_then(|v| str_at(v, &["error", "message"]))
            .unwrap_or(message);
        return Err(Failure::classified(text, status, c.code));
    }
    // Startup failures (bad settings, empty input) print a line, no JSON.
    Err(super::parse::unstructured(c, "no-response-object"))
}

/// Tokens summed over every model the call used (the router may add a small one).
fn usage(obj: &Value) -> Usage {
    let mut u = Usage::default();
    let Some(models) = at(obj, &["stats", "models"]).and_then(Value::as_object) else {
        return u;
    };
    for m in models.values() {
        u.add(&Usage {
            input_tokens: u64_at(m, &["tokens", "prompt"]).or(u64_at(m, &["tokens", "input"])),
            output_tokens: u64_at(m, &["tokens", "candidates"]),
            cached_input_tokens: u64_at(m, &["tokens", "cached"]),
            cost_usd: None,
            api_duration_ms: u64_at(m, &["api", "totalLatencyMs"]),
        });
    }
    u
}

/// The model in the `main` role, else the one that wrote the most.
fn main_model(obj: &Value) -> Option<String> {
    let models = at(obj, &["stats", "models"])?.as_object()?;
    models
        .iter()
        .find(|(_, m)| at(m, &["roles", "main"]).is_some())
        .or_else(|| {
            models
                .iter()
                .max_by_key(|(_, m)| u64_at(m, &["tokens", "candidates"]).unwrap_or(0))
        })
        .map(|(k, _)| k.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::parse::fixtures::{check_all, parse_file, read, replay};
    use crate::backend::ErrorKind;

    #[test]
    fn every_recorded_scenario() {
        use ErrorKind::*;
        check_all(
            "gemini",
            parse,
            |s| match s {
                "ok" => None,
                "401" => Some(NotAuthenticated),
                "500-model-attempts1" | "malformed" => Some(ServerError),
                // Retrying for minutes or silent: the harness killed them, as our timeout would.
                "429"
                | "429-attempts1"
                | "500"
                | "500-attempts1"
                | "hang"
                | "stall-model-attempts1" => Some(Timeout),
                other => panic!("unexpected scenario {other}"),
            },
            |r| {
                assert_eq!(
                    r.model.as_deref(),
                    Some("gemini-3.1-pro-preview-customtools")
                );
                assert_eq!(r.usage.input_tokens, Some(10507));
                assert_eq!(r.usage.output_tokens, Some(14));
                assert_eq!(r.usage.api_duration_ms, Some(55));
            },
        );
    }

    #[test]
    fn the_servers_message_is_unwrapped_from_the_error_object() {
        let f = replay("gemini", "401", parse).unwrap_err();
        assert_eq!(f.message, "fake_llm simulated 401");
    }

    #[test]
    fn startup_failures_without_json_are_classified() {
        let stderr = read("gemini", "badsettings-exit52.stderr");
        let f = parse(&Captured {
            stdout: "",
            stderr: &stderr,
            code: Some(52),
        })
        .unwrap_err();
        assert_eq!(f.kind, ErrorKind::Exited(52));
    }

    #[test]
    fn other_output_formats_are_not_mistaken_for_an_answer() {
        for file in ["ok-text.stdout", "ok-stream-json.stdout"] {
            let f = parse_file("gemini", file, parse).unwrap_err();
            assert_eq!(f.kind, ErrorKind::ParseError, "{file}");
        }
    }

    #[test]
    fn read_only_command_line() {
        let a = args(&CallOptions {
            model: Some("gemini-2.5-pro".into()),
            ..Default::default()
        });
        assert_eq!(
            a.join(" "),
            "--skip-trust -o json --approval-mode plan -m gemini-2.5-pro"
        );
        assert!(!a.iter().any(|w| w == "--yolo" || w == "yolo" || w == "-y"));
    }
}
