//! OpenAI Codex CLI (`codex exec`, family openai), as the real CLI behaved against a fake model
//! server (its recorded runs are in `tests/fixtures/codex/`).
//!
//! `--json` prints JSONL events; the answer is the text of the last `item.completed` whose item is
//! an `agent_message`, and usage is `turn.completed.usage` (no cost, no duration, and no model
//! name: the events never say which model answered). Quirks handled here: retry notices
//! ("Reconnecting... 2/5 (…)", "Reconnecting... waiting for network") arrive as `type:"error"`
//! events although the call may still succeed, so only `turn.failed` (or a non-zero exit) is a
//! failure; an `item.completed` of type `error` (missing model metadata, falling back from
//! WebSockets) is a warning, not a failure. Failures before any turn (empty stdin, a config error)
//! are plain text on stderr, after a `WARNING: proceeding, even though we could not create PATH
//! aliases` line and sometimes tracing lines; a config error spans two lines, so the whole of
//! stderr (warnings dropped) is the message, not its last line.
//!
//! Retries: codex bounds them per provider (`model_providers.<id>.request_max_retries` /
//! `stream_max_retries`), which the recordings could set only because they used a custom provider.
//! The built-in `openai` provider cannot be overridden: codex 0.169 refuses to start with
//! "model_providers contains reserved built-in provider IDs: `openai`. Built-in providers cannot be
//! overridden" (checked with the real binary), and we cannot know the id of a user's own provider.
//! So no `-c` retry overrides: with its defaults codex made 6 calls against a 401 and 30 calls in
//! 25 s against a 500, and with no network at all it keeps "waiting for network" until killed;
//! our wall-clock and idle timeouts bound the call. `-o/--output-last-message` is not used: on
//! failure it leaves an empty file, and the event stream already carries the answer and usage.

use serde_json::Value;

use crate::agents::agent::{AgentSpec, CallOptions, SchemaFlag};
use crate::agents::parse::{json_lines, str_at, u64_at};
use crate::agents::{Captured, Failure, Family, Reply, Usage};

pub static SPEC: AgentSpec = AgentSpec {
    name: "codex",
    family: |_| Family::openai(),
    install: "npm install -g @openai/codex",
    login: "run `codex login`, or set OPENAI_API_KEY",
    args,
    env_defaults: &[],
    env_remove: &[],
    // Set by codex in the shells it starts (its sandbox and thread markers).
    launched_by: &[
        "CODEX_THREAD_ID",
        "CODEX_SANDBOX",
        "CODEX_SANDBOX_NETWORK_DISABLED",
        "CODEX_SANDBOX_ID",
    ],
    schema: Some(SchemaFlag {
        flag: "--output-schema",
        file: true,
        refused: &[],
    }),
    parse,
    retrying: None,
    streams: false,
};

fn args(o: &CallOptions) -> Vec<String> {
    let mut a: Vec<String> = [
        "exec",
        // Works outside a repository too (file: scopes and explicit content).
        "--skip-git-repo-check",
        "--ephemeral",
        "--sandbox",
        "read-only",
        "--color",
        "never",
    ]
    .map(String::from)
    .to_vec();
    if let Some(m) = &o.model {
        a.extend(["-m".into(), m.clone()]);
    }
    if let Some(r) = &o.reasoning {
        a.extend(["-c".into(), format!("model_reasoning_effort=\"{r}\"")]);
    }
    a.push("--json".into());
    a.extend(o.extra_args.iter().cloned());
    // `-`: the prompt is standard input.
    a.push("-".into());
    a
}

fn kind(v: &Value) -> &str {
    v.get("type").and_then(Value::as_str).unwrap_or("")
}

/// The last `type:"error"` event that is a real error, not a "Reconnecting..." retry notice.
fn last_error(events: &[Value]) -> Option<&str> {
    events
        .iter()
        .rev()
        .filter(|e| kind(e) == "error")
        .filter_map(|e| str_at(e, &["message"]))
        .find(|m| !m.trim_start().starts_with("Reconnecting"))
}

/// What codex said on stderr before any event: every line but the warnings (a config error is
/// "Error loading config.toml: …" with its key path on the next line).
fn stderr_reason(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.to_ascii_lowercase().starts_with("warning:"))
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

fn parse(c: &Captured) -> Result<Reply, Failure> {
    let events: Vec<Value> = json_lines(c.stdout).collect();
    if let Some(failed) = events.iter().rev().find(|e| kind(e) == "turn.failed") {
        let msg = str_at(failed, &["error", "message"])
            .or_else(|| last_error(&events))
            .unwrap_or("turn failed");
        return Err(Failure::classified(msg, None, c.code));
    }
    let answer = events.iter().rev().find_map(|e| {
        (kind(e) == "item.completed" && str_at(e, &["item", "type"]) == Some("agent_message"))
            .then(|| str_at(e, &["item", "text"]))
            .flatten()
    });
    let text = match answer {
        Some(text) if c.code == Some(0) => text,
        _ => {
            // No turn result, or a non-zero exit all the same: a structured error first, then
            // what it said on stderr (only a non-zero exit makes stderr text a failure).
            let said = last_error(&events).map(str::to_string).or_else(|| {
                (c.code != Some(0))
                    .then(|| stderr_reason(c.stderr))
                    .flatten()
            });
            return Err(match said {
                Some(msg) => Failure::classified(msg, None, c.code),
                None if events.is_empty() => Failure::parse("no-json-events", c.code),
                None => Failure::parse("no-agent-message", c.code),
            });
        }
    };
    let usage = events
        .iter()
        .rev()
        .find(|e| kind(e) == "turn.completed")
        .map(|e| Usage {
            input_tokens: u64_at(e, &["usage", "input_tokens"]),
            output_tokens: u64_at(e, &["usage", "output_tokens"]),
            cached_input_tokens: u64_at(e, &["usage", "cached_input_tokens"]),
            ..Usage::default()
        })
        .unwrap_or_default();
    Ok(Reply {
        text: text.to_string(),
        usage,
        // codex's events do not say which model answered.
        model: None,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::fixtures::OK_ANSWER;
    use crate::agents::replays::{check_all, parse_file};
    use crate::agents::ErrorKind;

    fn run(stdout: &str, stderr: &str, code: i32) -> Result<Reply, Failure> {
        crate::agents::replays::parse_text(parse, stdout, stderr, code)
    }

    #[test]
    fn every_recorded_scenario() {
        use ErrorKind::*;
        check_all(
            "codex",
            parse,
            |s| match s {
                "ok" => None,
                // "unexpected status 401 Unauthorized: …" after 5 (or 1) retries.
                "401" | "401-retries1-idle5s" => Some(NotAuthenticated),
                // "exceeded retry limit, last status: 429 Too Many Requests".
                "429" | "429-retries1-idle5s" => Some(RateLimited),
                // A 500 reads "We're currently experiencing high demand…" (the server's own
                // message is not shown); malformed is "stream disconnected before completion".
                "500" | "500-retries1-idle5s" | "malformed" | "malformed-retries1-idle5s" => {
                    Some(ServerError)
                }
                // codex's own stream idle timeout ("idle timeout waiting for SSE").
                "stall-retries1-idle5s" => Some(Timeout),
                // Killed by a timeout (ours, in a recorded run).
                "hang" | "hang-retries1-idle5s" => Some(Timeout),
                other => panic!("unexpected scenario {other}"),
            },
            |r| {
                assert_eq!(r.model, None);
                assert_eq!(r.usage.input_tokens, Some(9542));
                assert_eq!(r.usage.output_tokens, Some(14));
                assert_eq!(r.usage.cached_input_tokens, Some(0));
                assert_eq!(r.usage.cost_usd, None);
                assert_eq!(r.usage.api_duration_ms, None);
            },
        );
    }

    #[test]
    fn turn_failed_message_is_the_error() {
        let f = crate::agents::replays::replay("codex", "401", parse).unwrap_err();
        assert!(
            f.message
                .starts_with("unexpected status 401 Unauthorized: fake_llm simulated 401"),
            "{}",
            f.message
        );
    }

    #[test]
    fn retry_notices_before_a_good_turn_are_not_failures() {
        let out = r#"{"type":"thread.started","thread_id":"t"}
{"type":"turn.started"}
{"type":"error","message":"Reconnecting... 1/5 (stream disconnected before completion: stream closed before response.completed)"}
{"type":"error","message":"Reconnecting... 2/5 (unexpected status 500 Internal Server Error)"}
{"type":"item.completed","item":{"id":"item_0","type":"error","message":"Model metadata for `fake-model` not found. Defaulting to fallback metadata; this can degrade performance and cause issues."}}
{"type":"item.completed","item":{"id":"item_1","type":"agent_message","text":"first thoughts"}}
{"type":"item.completed","item":{"id":"item_2","type":"agent_message","text":"final answer"}}
{"type":"turn.completed","usage":{"input_tokens":120,"cached_input_tokens":100,"output_tokens":7}}
"#;
        let r = run(out, "", 0).unwrap();
        assert_eq!(r.text, "final answer");
        assert_eq!(r.usage.input_tokens, Some(120));
        assert_eq!(r.usage.cached_input_tokens, Some(100));
        assert_eq!(r.usage.output_tokens, Some(7));
    }

    #[test]
    fn a_non_zero_exit_fails_even_after_an_answer() {
        let out = r#"{"type":"item.completed","item":{"id":"a","type":"agent_message","text":"partial"}}
{"type":"error","message":"Reconnecting... 1/5 (stream disconnected before completion: x)"}
{"type":"error","message":"stream disconnected before completion: x"}
"#;
        let f = run(out, "", 1).unwrap_err();
        assert_eq!(f.kind, ErrorKind::ServerError);
        assert_eq!(f.message, "stream disconnected before completion: x");
        // Only retry notices, a silent stderr and a non-zero exit: nothing to say but a parse error.
        let only_notices = r#"{"type":"error","message":"Reconnecting... waiting for network (Connection failed)"}"#;
        assert_eq!(
            run(only_notices, "", 1).unwrap_err().kind,
            ErrorKind::ParseError
        );
    }

    #[test]
    fn other_output_formats_are_not_mistaken_for_an_answer() {
        // Without `--json` stdout is the bare answer; `-o FILE` writes the same. Neither is the
        // format we ask for, and plain text cannot be told apart from an error.
        for file in ["ok-plain.stdout", "ok-last-message.txt"] {
            let out = crate::agents::fixtures::read("codex", file);
            assert!(out.contains(OK_ANSWER));
            let f = parse_file("codex", file, parse).unwrap_err();
            assert_eq!(f.kind, ErrorKind::ParseError, "{file}");
            assert!(!f.message.contains("FAKE-ANSWER"), "{}", f.message);
        }
    }

    #[test]
    fn startup_errors_on_stderr_are_classified_past_the_warnings() {
        let warn =
            "WARNING: proceeding, even though we could not create PATH aliases: Refusing to \
                    create helper binaries under temporary dir \"/tmp\"\n";
        let f = run("", &format!("{warn}No prompt provided via stdin.\n"), 1).unwrap_err();
        assert_eq!(f.kind, ErrorKind::Exited(1));
        assert_eq!(f.message, "No prompt provided via stdin.");
        // What codex 0.169 printed for a `-c` override of the built-in provider: two lines.
        let config = "Error loading config.toml: model_providers contains reserved built-in \
                      provider IDs: `openai`. Built-in providers cannot be overridden.\n\
                      in `model_providers`\n\n";
        let f = run("", &format!("{warn}{config}"), 1).unwrap_err();
        assert_eq!(f.kind, ErrorKind::Exited(1));
        assert!(
            f.message.starts_with("Error loading config.toml"),
            "{}",
            f.message
        );
        assert!(f.message.ends_with("in `model_providers`"), "{}", f.message);
        // Warnings alone with a non-zero exit: nothing to say but a parse error.
        assert_eq!(run("", warn, 1).unwrap_err().kind, ErrorKind::ParseError);
    }

    #[test]
    fn read_only_command_line_with_the_prompt_on_stdin() {
        let a = args(&CallOptions {
            model: Some("gpt-5.3-codex".into()),
            reasoning: Some("high".into()),
            extra_args: vec!["--profile".into(), "work".into()],
            max_attempts: None,
        });
        assert_eq!(
            a.join(" "),
            "exec --skip-git-repo-check --ephemeral --sandbox read-only --color never \
             -m gpt-5.3-codex -c model_reasoning_effort=\"high\" --json --profile work -"
        );
        assert_eq!(a.last().map(String::as_str), Some("-"));
        assert_eq!(
            args(&CallOptions::default()).join(" "),
            "exec --skip-git-repo-check --ephemeral --sandbox read-only --color never --json -"
        );
        let prompt = "Review this change: the function add(a, b) returns a - b.";
        for w in &a {
            assert!(!w.contains(prompt), "{w}");
            for bad in [
                "--full-auto",
                "--yolo",
                "--dangerously",
                "danger-full-access",
                "bypass",
                "workspace-write",
                "approve-for-me",
            ] {
                assert!(!w.contains(bad), "{w}");
            }
        }
    }
}
