//! Claude Code (`claude`, family anthropic), as the real CLI behaved against a fake model server
//! (its recorded runs are in `tests/fixtures/claude/`).
//!
//! Quirks handled here: errors come back as the same `type:"result"` JSON object with
//! `subtype:"success"` and `is_error:true` (so `is_error` decides, never `subtype`); the HTTP status
//! is in `api_error_status`; it retries even a 401 for minutes unless `CLAUDE_CODE_MAX_RETRIES`
//! bounds it; without `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC` it makes an extra title call; and
//! it refuses to start inside another Claude Code session, so Claude Code's session variables are
//! removed from the child's environment. We run `--output-format stream-json` with partial
//! messages (deltas as the text is written; the `result` line is the `json` mode's object, with
//! `structured_output` under `--json-schema` too, recorded in `stream-schema-ok`).

use serde_json::Value;

use crate::agents::agent::{host, AgentSpec, CallOptions, SchemaFlag};
use crate::agents::parse::{f64_at, json_lines, u64_at, whole_json};
use crate::agents::{Captured, Failure, Family, Reply, Usage};

pub static SPEC: AgentSpec = AgentSpec {
    name: "claude",
    family: |_| Family::anthropic(),
    install: "npm install -g @anthropic-ai/claude-code",
    login: "run `claude` once and log in, or set ANTHROPIC_API_KEY",
    args,
    env_defaults: &[
        ("CLAUDE_CODE_MAX_RETRIES", "2"),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
        ("DISABLE_AUTOUPDATER", "1"),
        ("DISABLE_TELEMETRY", "1"),
    ],
    env_remove: host::CLAUDE_SESSION,
    launched_by: &["CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT"],
    schema: Some(SchemaFlag {
        flag: "--json-schema",
        file: false,
        refused: &[],
    }),
    parse,
    retrying: None,
    streams: true,
    heartbeat: None,
};

fn args(o: &CallOptions) -> Vec<String> {
    let mut a: Vec<String> = [
        "-p",
        // Streamed, with the text's deltas as they come: `json` prints nothing until the end, so
        // a long answer would look like silence to the idle limit. `--verbose` is required.
        "--output-format",
        "stream-json",
        "--verbose",
        "--include-partial-messages",
        // `--tools` is what restricts the tool set (`--allowedTools` only pre-approves).
        "--tools",
        "Read,Grep,Glob",
        "--permission-mode",
        "default",
        "--no-session-persistence",
    ]
    .map(String::from)
    .to_vec();
    if let Some(m) = &o.model {
        a.extend(["--model".into(), m.clone()]);
    }
    a.extend(o.extra_args.iter().cloned());
    a
}

/// The `result` object: the whole of stdout with `--output-format json`, or the last `result`
/// line of `stream-json`.
fn result_object(stdout: &str) -> Option<Value> {
    whole_json(stdout)
        .filter(|v| v.get("type").and_then(Value::as_str) == Some("result"))
        .or_else(|| {
            json_lines(stdout)
                .filter(|v| v.get("type").and_then(Value::as_str) == Some("result"))
                .last()
        })
}

fn parse(c: &Captured) -> Result<Reply, Failure> {
    let Some(obj) = result_object(c.stdout) else {
        // Usage errors (empty stdin, bad flags) are plain text on stderr; with a text output
        // format the API error is plain text on stdout.
        let said = [c.stderr.trim(), c.stdout.trim()]
            .into_iter()
            .find(|s| !s.is_empty())
            .unwrap_or("");
        if !said.is_empty() && c.code != Some(0) {
            return Err(Failure::classified(said, None, c.code));
        }
        return Err(Failure::parse("no-result-object", c.code));
    };
    let text = obj.get("result").and_then(Value::as_str).unwrap_or("");
    if obj.get("is_error").and_then(Value::as_bool) == Some(true) {
        let status = u64_at(&obj, &["api_error_status"]).and_then(|s| u16::try_from(s).ok());
        return Err(Failure::classified(text, status, c.code));
    }
    if obj.get("result").is_none() {
        return Err(Failure::parse("result-missing", c.code));
    }
    let usage = Usage {
        input_tokens: u64_at(&obj, &["usage", "input_tokens"]),
        output_tokens: u64_at(&obj, &["usage", "output_tokens"]),
        cached_input_tokens: u64_at(&obj, &["usage", "cache_read_input_tokens"]),
        cost_usd: f64_at(&obj, &["total_cost_usd"]),
        api_duration_ms: u64_at(&obj, &["duration_api_ms"]),
    };
    // `modelUsage` is keyed by the model that answered; the main one wrote the most tokens.
    let model = obj
        .get("modelUsage")
        .and_then(Value::as_object)
        .and_then(|m| {
            m.iter()
                .max_by_key(|(_, v)| u64_at(v, &["outputTokens"]).unwrap_or(0))
                .map(|(k, _)| k.clone())
        });
    Ok(Reply {
        text: text.to_string(),
        usage,
        model,
        // With `--json-schema`: the validated object. Its absence is the only sign that the
        // model answered in text (claude still exits 0).
        structured: obj
            .get("structured_output")
            .filter(|v| v.is_object())
            .cloned(),
        ..Default::default()
    })
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
            "claude",
            parse,
            |s| match s {
                "ok" => None,
                "401-retries1" => Some(NotAuthenticated),
                "429-retries1" => Some(RateLimited),
                // Text output carries no envelope: the text and exit code are all there is.
                "500-retries1" | "malformed-retries1" | "500-text-retries1" => Some(ServerError),
                "hang-timeout5s" => Some(Timeout),
                // Killed by a timeout (ours, in a recorded run).
                "401-default-retries"
                | "hang-retries1"
                | "stall-byteidle5s"
                | "stall-retries1"
                | "stall-timeout5s" => Some(Timeout),
                // The text format is not what we ask for: it must not pass as an answer.
                "ok-text-retries1" => Some(ParseError),
                other => panic!("unexpected scenario {other}"),
            },
            |r| {
                assert_eq!(r.model.as_deref(), Some("claude-sonnet-4-5"));
                assert_eq!(r.usage.input_tokens, Some(8573));
                assert_eq!(r.usage.output_tokens, Some(14));
                assert_eq!(r.usage.cost_usd, Some(0.025929));
            },
        );
    }

    #[test]
    fn stream_json_answer() {
        let r = parse_file("claude", "ok-stream-json.stdout", parse).unwrap();
        assert_eq!(r.text, OK_ANSWER);
        // What we run (recorded with claude 2.1.197): partial messages, then the same result.
        let r = parse_file("claude", "stream-partial-ok.stdout", parse).unwrap();
        assert_eq!(r.text, OK_ANSWER);
        assert_eq!(r.model.as_deref(), Some("claude-sonnet-4-5"));
        assert!(r.usage.input_tokens.is_some() && r.usage.output_tokens == Some(14));
        // `--json-schema` still works when streamed: the object is in the result line.
        let r = parse_file("claude", "stream-schema-ok.stdout", parse).unwrap();
        let v = r.structured.expect("structured_output");
        assert_eq!(v["findings"].as_array().map(Vec::len), Some(2));
    }

    #[test]
    fn is_error_wins_over_subtype_success() {
        let out = r#"{"type":"result","subtype":"success","is_error":true,"api_error_status":429,"result":"API Error: slow down"}"#;
        let f = parse(&Captured {
            stdout: out,
            stderr: "",
            code: Some(1),
        })
        .unwrap_err();
        assert_eq!(f.kind, ErrorKind::RateLimited);
    }

    #[test]
    fn read_only_non_interactive_command_line() {
        let a = args(&CallOptions {
            model: Some("claude-sonnet-4-5".into()),
            ..Default::default()
        });
        assert_eq!(
            a.join(" "),
            "-p --output-format stream-json --verbose --include-partial-messages \
             --tools Read,Grep,Glob --permission-mode default --no-session-persistence \
             --model claude-sonnet-4-5"
        );
        assert!(!a
            .iter()
            .any(|w| w.contains("skip-permissions") || w.contains("bypass")));
    }
}
