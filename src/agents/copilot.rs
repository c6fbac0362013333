//! GitHub Copilot CLI (`copilot`), as the real CLI behaved against a fake model server (its
//! recorded runs are in `tests/fixtures/copilot/`).
//!
//! Non-interactive use needs `--allow-all-tools`; `--available-tools=view,rg,glob` is what keeps it
//! read-only (only those tools exist for the model). `--output-format json` prints JSONL events:
//! the answer is the last `assistant.message` with content, which also names the model that
//! answered; failures are a `session.error` event (type, message, HTTP status) and a `result` with
//! `exitCode: 1`. No token counts are reported, only API time. Its family is that of its model
//! (`--model`, config or `COPILOT_MODEL`); without one, copilot's default model is a Claude Sonnet
//! model, so anthropic. It retries failed model calls itself (5 times, up to a minute of waits in
//! the 429 recording) and 1.0.102 offers no flag or variable to bound that: our timeouts do.

use serde_json::Value;

use crate::agents::agent::{AgentSpec, CallOptions};
use crate::agents::parse::{json_lines, str_at, u64_at, unstructured};
use crate::agents::{Captured, Failure, Family, Reply, Usage};

pub static SPEC: AgentSpec = AgentSpec {
    name: "copilot",
    family: |model| {
        model
            .map(str::to_string)
            .or_else(|| {
                std::env::var("COPILOT_MODEL")
                    .ok()
                    .filter(|m| !m.is_empty())
            })
            .map_or_else(Family::anthropic, |m| Family::of_model(&m))
    },
    install: "npm install -g @github/copilot",
    login: "run `copilot` once and /login with GitHub, or set COPILOT_GITHUB_TOKEN",
    args,
    env_defaults: &[],
    env_remove: &[],
    // Copilot sets COPILOT_CLI=1 for the processes it starts.
    launched_by: &["COPILOT_CLI"],
    schema: None,
    parse,
    retrying: None,
    streams: true,
    heartbeat: None,
};

fn args(o: &CallOptions) -> Vec<String> {
    let mut a: Vec<String> = [
        "--output-format",
        "json",
        // Required without a terminal; the tool list below is what limits it to reading.
        "--allow-all-tools",
        "--no-auto-update",
        "--disable-client-telemetry",
        "--available-tools=view,rg,glob",
    ]
    .map(String::from)
    .to_vec();
    if let Some(m) = &o.model {
        a.extend(["--model".into(), m.clone()]);
    }
    a.extend(o.extra_args.iter().cloned());
    a
}

fn kind(v: &Value) -> &str {
    v.get("type").and_then(Value::as_str).unwrap_or("")
}

fn parse(c: &Captured) -> Result<Reply, Failure> {
    let events: Vec<Value> = json_lines(c.stdout).collect();
    if let Some(err) = events.iter().rev().find(|e| kind(e) == "session.error") {
        let msg = str_at(err, &["data", "message"]).unwrap_or("copilot failed");
        let status = u64_at(err, &["data", "statusCode"]).and_then(|s| u16::try_from(s).ok());
        let status = status.or(match str_at(err, &["data", "errorType"]) {
            Some("authentication") => Some(401),
            Some("rate_limit") => Some(429),
            _ => None,
        });
        return Err(Failure::classified(msg, status, c.code));
    }
    let message = events.iter().rev().find(|e| {
        kind(e) == "assistant.message"
            && str_at(e, &["data", "content"]).is_some_and(|t| !t.trim().is_empty())
    });
    let result = events.iter().rev().find(|e| kind(e) == "result");
    let exit = result.and_then(|r| u64_at(r, &["exitCode"]));
    match message {
        Some(m) if c.code == Some(0) && exit.unwrap_or(0) == 0 => Ok(Reply {
            text: str_at(m, &["data", "content"]).unwrap_or("").to_string(),
            usage: Usage {
                api_duration_ms: result.and_then(|r| u64_at(r, &["usage", "totalApiDurationMs"])),
                ..Usage::default()
            },
            model: str_at(m, &["data", "model"]).map(str::to_string),
            ..Default::default()
        }),
        _ => Err(unstructured(
            c,
            if events.is_empty() {
                "no-json-events"
            } else {
                "no-assistant-message"
            },
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::fixtures::OK_ANSWER;
    use crate::agents::replays::{check_all, parse_file};
    use crate::agents::ErrorKind;

    #[test]
    fn every_recorded_scenario() {
        use ErrorKind::*;
        check_all(
            "copilot",
            parse,
            |s| match s {
                "ok" => None,
                "401" => Some(NotAuthenticated),
                "429" => Some(RateLimited),
                // "non-streaming response body was not valid JSON": the provider's fault.
                "500" | "malformed" => Some(ServerError),
                "hang" => Some(Timeout),
                other => panic!("unexpected scenario {other}"),
            },
            |r| {
                assert_eq!(r.model.as_deref(), Some("gpt-5.5"));
                assert_eq!(r.usage.api_duration_ms, Some(26));
            },
        );
    }

    #[test]
    fn other_providers_and_wire_apis_parse_the_same() {
        for (file, model) in [
            ("ok-anthropic.stdout", "claude-sonnet-4.5"),
            ("ok-responses.stdout", "gpt-5.5"),
        ] {
            let r = parse_file("copilot", file, parse).unwrap();
            assert_eq!(r.text, OK_ANSWER, "{file}");
            assert_eq!(r.model.as_deref(), Some(model), "{file}");
        }
        let f = parse_file("copilot", "ok-text.stdout", parse).unwrap_err();
        assert_eq!(f.kind, ErrorKind::ParseError);
    }

    #[test]
    fn family_follows_the_model() {
        assert_eq!((SPEC.family)(Some("gpt-5.5")), Family::openai());
        assert_eq!(
            (SPEC.family)(Some("claude-sonnet-4.5")),
            Family::anthropic()
        );
        assert_eq!((SPEC.family)(Some("gemini-3-pro")), Family::google());
    }

    #[test]
    fn read_only_command_line() {
        let a = args(&CallOptions {
            model: Some("gpt-5.5".into()),
            ..Default::default()
        });
        assert_eq!(
            a.join(" "),
            "--output-format json --allow-all-tools --no-auto-update --disable-client-telemetry \
             --available-tools=view,rg,glob --model gpt-5.5"
        );
        for bad in ["--allow-all-paths", "--yolo", "--allow-all-urls"] {
            assert!(!a.iter().any(|w| w == bad), "{bad}");
        }
    }
}
