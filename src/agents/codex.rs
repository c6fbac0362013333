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
//!
//! Liveness: `--json` prints nothing while the model writes (no `item.started`/`item.updated` for
//! a message, no deltas: in the recording `ok-slow`, 11 s of silence on stdout and stderr during a
//! streamed answer), so stdout alone cannot tell a long answer from a stalled model. codex 0.169
//! runs its turn behind an in-process app server, which traces every notification it passes on
//! (`item/agentMessage/delta` per streamed delta, reasoning and command-output deltas, retries) at
//! level TRACE under the target `codex_app_server::outgoing_message`. That is above the model
//! transport: the recordings are of an HTTP stream (the harness serves no WebSocket), and a
//! WebSocket stream reaches the same app server. The child gets
//! `RUST_LOG=error,codex_app_server::outgoing_message=trace` (`error` is codex's own default
//! level, so what it printed before is unchanged): one line of about 130 bytes on stderr per
//! delta ("… TRACE codex_app_server::outgoing_message: app-server event: item/agentMessage/delta
//! targeted_connections=1", no content). Those lines keep the idle limit away while the model
//! streams and are dropped as they come ([`Heartbeat`]); when the model stalls or never answers
//! they stop, and the idle limit ends the call (recordings `ok-slow-heartbeat`: stderr never
//! silent for more than 1.6 s; `stall-midway-heartbeat` and `hang-heartbeat`: silent on both
//! streams until killed). A user's own `RUST_LOG` is replaced for codex. No other way was found in
//! 0.169: a top-level `-c stream_idle_timeout_ms=…` is reported as an unrecognized setting and
//! ignored, the per-provider one cannot be set on the built-in `openai` provider, and the OTel
//! `codex.sse_event` log lines (target `codex_otel.log_only`) exist only for HTTP streams, not
//! WebSocket messages, and carry the account's e-mail.

use serde_json::Value;

use crate::agents::agent::{AgentSpec, CallOptions, Heartbeat, SchemaFlag};
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
    heartbeat: Some(Heartbeat {
        env: &[("RUST_LOG", HEARTBEAT_LOG)],
        line: is_heartbeat,
    }),
};

/// codex's tracing filter: its default level, plus a line per notification its app server
/// passes on (one per streamed delta).
pub const HEARTBEAT_LOG: &str = "error,codex_app_server::outgoing_message=trace";

/// The target of those lines, as it appears in each.
const HEARTBEAT_TARGET: &str = "codex_app_server::outgoing_message: ";

/// Whether a stderr line is one of codex's heartbeat lines: `<timestamp> TRACE
/// codex_app_server::outgoing_message: app-server event: …` (a span may come before the target).
fn is_heartbeat(line: &[u8]) -> bool {
    let Ok(line) = std::str::from_utf8(line) else {
        return false;
    };
    let mut words = line.split_whitespace();
    words.next();
    words.next() == Some("TRACE") && line.contains(HEARTBEAT_TARGET)
}

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

/// What codex said on stderr before any event: every line but the warnings and heartbeat lines
/// (a config error is "Error loading config.toml: …" with its key path on the next line).
fn stderr_reason(stderr: &str) -> Option<String> {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.to_ascii_lowercase().starts_with("warning:"))
        .filter(|l| !is_heartbeat(l.as_bytes()))
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
                // A slow streamed answer, with and without the heartbeat lines on stderr.
                "ok-slow" | "ok-slow-heartbeat" => None,
                // Its tracing lines on stderr change nothing in how a failure reads.
                "401-heartbeat" => Some(NotAuthenticated),
                // codex's own stream idle timeout ("idle timeout waiting for SSE").
                "stall-retries1-idle5s" => Some(Timeout),
                // Killed by a timeout (ours, in a recorded run): the model never answered, or
                // stalled in the middle of its answer.
                "hang" | "hang-retries1-idle5s" | "hang-heartbeat" | "stall-midway-heartbeat" => {
                    Some(Timeout)
                }
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

    /// The recorded runs made with the heartbeat filter in `RUST_LOG`.
    const TRACED: [&str; 4] = [
        "ok-slow-heartbeat",
        "stall-midway-heartbeat",
        "hang-heartbeat",
        "401-heartbeat",
    ];

    #[test]
    fn heartbeat_lines_are_told_from_everything_else_codex_prints() {
        for scenario in TRACED {
            let meta = crate::agents::fixtures::read("codex", &format!("{scenario}.meta.json"));
            assert!(meta.contains(HEARTBEAT_LOG), "{scenario}: {meta}");
            let stderr = crate::agents::fixtures::read("codex", &format!("{scenario}.stderr"));
            assert!(stderr.lines().count() >= 5, "{scenario}");
            for line in stderr.split_inclusive('\n') {
                assert!(is_heartbeat(line.as_bytes()), "{scenario}: {line}");
            }
        }
        // With all of codex's tracing on, some of them come after a span (copied from such a
        // run of codex 0.169).
        let in_span = "2026-11-27T00:39:31.320892Z TRACE app_server.request{otel.kind=\"server\" \
                       otel.name=\"thread/start\" rpc.method=\"thread/start\"}:\
                       app_server.thread_start.notify_started{otel.name=\"app_server.thread_start.\
                       notify_started\"}: codex_app_server::outgoing_message: app-server event: \
                       thread/started targeted_connections=0\n";
        assert!(is_heartbeat(in_span.as_bytes()));
        // Everything else it printed in the recordings stays, and so do its errors.
        for scenario in crate::agents::fixtures::scenarios("codex") {
            if TRACED.contains(&scenario.as_str()) {
                continue;
            }
            let stderr = crate::agents::fixtures::read("codex", &format!("{scenario}.stderr"));
            for line in stderr.split_inclusive('\n') {
                assert!(!is_heartbeat(line.as_bytes()), "{scenario}: {line}");
            }
        }
        for line in [
            "2026-11-27T00:39:31.393388Z  WARN codex_core_plugins::manager: failed to sync \
             curated plugins repo\n",
            "2026-11-27T00:39:31.393388Z ERROR codex_app_server::outgoing_message: failed to send \
             server notification to client\n",
            "Error loading config.toml: in `model_providers`\n",
            "",
        ] {
            assert!(!is_heartbeat(line.as_bytes()), "{line}");
        }
        assert!(!is_heartbeat(
            b"\xff TRACE codex_app_server::outgoing_message: \n"
        ));
    }

    #[test]
    fn the_runner_drops_the_recorded_heartbeat_lines_and_keeps_the_rest() {
        use crate::sys::runner::{Call, Ending, Invocation};
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/codex");
        let script = "cat ok-slow-heartbeat.stderr >&2; cat ok.stderr >&2; \
                      printf 'last words' >&2; cat ok-slow-heartbeat.stdout";
        let f = Call::spawn(&Invocation {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            env: vec![],
            env_remove: vec![],
            cwd: Some(dir.clone()),
            stdin: vec![],
            timeout: std::time::Duration::from_secs(30),
            idle_timeout: std::time::Duration::from_secs(30),
            watch: None,
            heartbeat: SPEC.heartbeat.map(|h| h.line),
        })
        .unwrap()
        .wait()
        .unwrap();
        assert!(matches!(f.ending, Ending::Exited(s) if s.success()));
        let kept = String::from_utf8(f.stderr).unwrap();
        let warning = std::fs::read_to_string(dir.join("ok.stderr")).unwrap();
        assert_eq!(kept, format!("{warning}last words"));
        assert_eq!(f.dropped, 0);
        let out = String::from_utf8(f.stdout).unwrap();
        let r = run(&out, &kept, 0).unwrap();
        assert_eq!(r.text, OK_ANSWER);
    }

    #[test]
    fn heartbeat_lines_are_not_the_message_of_a_failure() {
        // Lines it printed with the heartbeat filter (recorded), then a plain-text error.
        let beats = crate::agents::fixtures::read("codex", "hang-heartbeat.stderr");
        let f = run("", &format!("{beats}No prompt provided via stdin.\n"), 1).unwrap_err();
        assert_eq!(f.kind, ErrorKind::Exited(1));
        assert_eq!(f.message, "No prompt provided via stdin.");
        // Heartbeat lines alone with a non-zero exit: nothing to say but a parse error.
        assert_eq!(run("", &beats, 1).unwrap_err().kind, ErrorKind::ParseError);
    }

    #[test]
    fn the_heartbeat_filter_is_set_whatever_the_user_set_and_the_idle_limit_applies() {
        assert!(SPEC.idle_limited());
        let beat = SPEC.heartbeat.expect("codex has a heartbeat");
        assert_eq!(beat.env, &[("RUST_LOG", HEARTBEAT_LOG)]);
        // codex's default level is `error`: what it printed before is still printed.
        assert!(HEARTBEAT_LOG.starts_with("error,"));
        assert!(HEARTBEAT_LOG.contains(HEARTBEAT_TARGET.trim_end_matches(": ")));
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
