//! Qwen Code (`qwen`, family qwen), as the real CLI behaved against a fake model server (its
//! recorded runs are in `tests/fixtures/qwen/`).
//!
//! `-o json` prints one JSON **array** (not JSON lines) of `system`/`init`, `assistant` and
//! `result` messages; the answer is the `result` element's `.result`, usage its `usage` and
//! `duration_api_ms` (for every call of the run: qwen adds a memory-extractor call), the model the
//! `init` element's `model`. `-o stream-json` has the same messages as lines, and is what we run
//! (with `--include-partial-messages`, so the text arrives while it is written and the idle limit
//! measures silence; `--json-schema` works the same, recorded in `stream-schema-ok`).
//!
//! The quirk that matters: an API failure comes back as exit 0, `is_error: false`, with `.result`
//! = `[API Error: …]` (qwen appends that block to whatever text the turn had streamed, and a 429
//! adds advice after the `]`), so that block is a failure here, classified from the text inside
//! (`[API Error: 401 …]` -> not authenticated, "Request timeout after 10s" -> timeout, "Model
//! stream ended without a finish reason" -> server error). qwen's own messages for a Qwen OAuth
//! account out of quota or past its discontinued free tier come the same way without the
//! brackets. `is_error: true` (no auth type selected, exit 1) carries its reason in
//! `error.message`, not `result`. Killed, it prints
//! `{"error":{"type":"FatalCancellationError",…,"code":130}}` on stderr.
//!
//! Retries: it retries 429/500 for 90 s and more; its retry count lives in the user's settings
//! file (`model.generationConfig.maxRetries`, and even 1 took 81 s) and `QWEN_CODE_API_TIMEOUT_MS`
//! would also cut long legitimate answers, so no environment defaults: our timeouts bound the
//! call. The auth type is left to the user's own qwen settings (the recordings' `--auth-type
//! openai` was specific to the fake server; add it with `debate.qwen.args` if needed).

use serde_json::Value;

use crate::agents::agent::{AgentSpec, CallOptions, SchemaFlag};
use crate::agents::error::classify;
use crate::agents::parse::{
    json_lines, str_at, trailing_json_object, u64_at, unstructured, whole_json,
};
use crate::agents::{Captured, ErrorKind, Failure, Family, Reply, Usage};

pub static SPEC: AgentSpec = AgentSpec {
    name: "qwen",
    family: |_| Family::qwen(),
    install: "npm install -g @qwen-code/qwen-code",
    login: "run `qwen auth` to choose a provider, or set OPENAI_API_KEY and add \
            `--auth-type openai` to debate.qwen.args",
    args,
    env_defaults: &[],
    env_remove: &[],
    // Qwen Code sets QWEN_CODE=1 in the shells it starts.
    launched_by: &["QWEN_CODE"],
    schema: Some(SchemaFlag {
        flag: "--json-schema",
        file: false,
        refused: &["instead of calling the structured_output tool"],
    }),
    parse,
    retrying: None,
    streams: true,
    heartbeat: None,
};

/// How qwen writes an API failure into the answer text.
const API_ERROR: &str = "[API Error: ";

/// qwen's own answers for a Qwen OAuth account it will not serve, given as the result text.
const OAUTH_QUOTA: &str = "Qwen OAuth quota exceeded:";
const OAUTH_DISCONTINUED: &str = "Qwen OAuth free tier has been discontinued";

fn args(o: &CallOptions) -> Vec<String> {
    // Streamed with partial messages: `json` prints nothing until the end, so a long answer
    // would look like silence to the idle limit.
    let mut a: Vec<String> = [
        "-o",
        "stream-json",
        "--include-partial-messages",
        "--approval-mode",
        "plan",
    ]
    .map(String::from)
    .to_vec();
    if let Some(m) = &o.model {
        a.extend(["-m".into(), m.clone()]);
    }
    a.extend(o.extra_args.iter().cloned());
    a
}

/// The messages: the JSON array of `-o json`, or the lines of `stream-json`.
fn messages(stdout: &str) -> Vec<Value> {
    match whole_json(stdout) {
        Some(Value::Array(items)) => items,
        _ => json_lines(stdout).collect(),
    }
}

fn kind(v: &Value) -> &str {
    v.get("type").and_then(Value::as_str).unwrap_or("")
}

/// The `[API Error: …]` block of a result text: its words without the brackets, and the whole
/// block (marker and any advice after it), which is what is classified (`[API Error: 401 …` has
/// the status after "Error:", and a 429's advice mentions quota). The block is at the start
/// (nothing was streamed before the failure), or closes the text (`]`, or `]` and qwen's
/// rate-limit advice) after text streamed before it.
fn api_error(text: &str) -> Option<(&str, &str)> {
    let closing = |block: &str| -> Option<usize> {
        let close = block.rfind(']')?;
        let after = block[close + 1..].trim();
        (after.is_empty()
            || after.starts_with("Please wait and try again later")
            || after.starts_with("Possible quota limitations"))
        .then_some(close)
    };
    let trimmed = text.trim();
    if let Some(block) = trimmed.strip_prefix(API_ERROR) {
        let words = match closing(block) {
            Some(close) => &block[..close],
            None => block.trim_end_matches(']'),
        };
        return Some((words.trim(), trimmed));
    }
    let at = trimmed.rfind(API_ERROR)?;
    let block = &trimmed[at + API_ERROR.len()..];
    closing(block).map(|close| (block[..close].trim(), &trimmed[at..]))
}

fn parse(c: &Captured) -> Result<Reply, Failure> {
    let msgs = messages(c.stdout);
    let Some(result) = msgs.iter().rev().find(|m| kind(m) == "result") else {
        // Killed or failed before any result: `{"error": {...}}` on stderr, or a plain line.
        if let Some(err) = trailing_json_object(c.stderr) {
            if let Some(msg) = str_at(&err, &["error", "message"]) {
                return Err(Failure::classified(msg, None, c.code));
            }
        }
        return Err(unstructured(c, "no-result-message"));
    };
    let text = result.get("result").and_then(Value::as_str).unwrap_or("");
    if result.get("is_error").and_then(Value::as_bool) == Some(true) {
        let msg = str_at(result, &["error", "message"])
            .filter(|m| !m.trim().is_empty())
            .unwrap_or(text);
        return Err(match api_error(msg) {
            Some((words, block)) => Failure::new(classify(block, None, c.code), words),
            None if msg.trim().is_empty() => Failure::parse("error-without-message", c.code),
            None => Failure::classified(msg, None, c.code),
        });
    }
    if let Some((words, block)) = api_error(text) {
        return Err(Failure::new(classify(block, None, c.code), words));
    }
    let trimmed = text.trim_start();
    if trimmed.starts_with(OAUTH_DISCONTINUED) {
        return Err(Failure::new(ErrorKind::NotAuthenticated, trimmed));
    }
    if trimmed.starts_with(OAUTH_QUOTA) {
        return Err(Failure::new(ErrorKind::RateLimited, trimmed));
    }
    if result.get("result").is_none() {
        return Err(Failure::parse("result-missing", c.code));
    }
    let usage = Usage {
        input_tokens: u64_at(result, &["usage", "input_tokens"]),
        output_tokens: u64_at(result, &["usage", "output_tokens"]),
        cached_input_tokens: u64_at(result, &["usage", "cache_read_input_tokens"]),
        cost_usd: None,
        api_duration_ms: u64_at(result, &["duration_api_ms"]),
    };
    let model = msgs
        .iter()
        .find(|m| kind(m) == "system")
        .and_then(|m| str_at(m, &["model"]))
        .map(str::to_string);
    Ok(Reply {
        text: text.to_string(),
        usage,
        model,
        // With `--json-schema`: the object the `structured_output` tool accepted.
        structured: result
            .get("structured_result")
            .filter(|v| v.is_object())
            .cloned(),
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::fixtures::{read, OK_ANSWER};
    use crate::agents::replays::{check_all, parse_file, replay};

    fn run(stdout: &str, stderr: &str, code: i32) -> Result<Reply, Failure> {
        crate::agents::replays::parse_text(parse, stdout, stderr, code)
    }

    /// A `-o json` array whose result text is `result`, exit 0, `is_error: false`.
    fn with_result(result: &str) -> String {
        serde_json::json!([
            {"type": "system", "subtype": "init", "model": "qwen3-coder-plus"},
            {"type": "result", "subtype": "success", "is_error": false, "result": result,
             "usage": {"input_tokens": 0, "output_tokens": 0}}
        ])
        .to_string()
    }

    #[test]
    fn every_recorded_scenario() {
        use ErrorKind::*;
        check_all(
            "qwen",
            parse,
            |s| match s {
                "ok" => None,
                // All exit 0 with `is_error: false` and "[API Error: …]": failures all the same.
                "401" => Some(NotAuthenticated),
                "500-retries1-timeout5s" => Some(ServerError),
                // "Model stream ended without a finish reason."
                "malformed" => Some(ServerError),
                // qwen's own request timeout ("Request timeout after 10s").
                "hang-retries1-timeout5s" => Some(Timeout),
                // Retrying or silent until a timeout killed them (ours, in a recorded run).
                "429" | "500" | "hang" => Some(Timeout),
                other => panic!("unexpected scenario {other}"),
            },
            |r| {
                assert_eq!(r.model.as_deref(), Some("qwen3-coder-plus"));
                assert_eq!(r.usage.input_tokens, Some(25060));
                assert_eq!(r.usage.output_tokens, Some(18));
                assert_eq!(r.usage.cached_input_tokens, Some(0));
                assert_eq!(r.usage.api_duration_ms, Some(99));
                assert_eq!(r.usage.cost_usd, None);
            },
        );
    }

    #[test]
    fn api_errors_reported_as_success_are_failures() {
        let f = replay("qwen", "401", parse).unwrap_err();
        assert_eq!(f.message, "401 fake_llm simulated 401");
        let f = replay("qwen", "malformed", parse).unwrap_err();
        assert_eq!(f.message, "Model stream ended without a finish reason.");
        let f = replay("qwen", "hang-retries1-timeout5s", parse).unwrap_err();
        assert!(
            f.message.starts_with("Request timeout after 10s."),
            "{}",
            f.message
        );

        // Hand-written: exit 0, `is_error: false`.
        let cases = [
            ("[API Error: 401 Incorrect API key provided]", ErrorKind::NotAuthenticated),
            (
                "[API Error: 429 too many requests]\nPossible quota limitations in place or slow response times detected. Please wait and try again later.",
                ErrorKind::RateLimited,
            ),
            ("[API Error: 503 upstream overloaded]", ErrorKind::ServerError),
            ("[API Error: Connection error. (cause: fetch failed)]", ErrorKind::ServerError),
            // Unclosed, or followed by more text: at the start it is a failure all the same.
            ("[API Error: cut short", ErrorKind::ServerError),
            ("[API Error: 401 bad key] and then [API Error: 500 x] in a quote", ErrorKind::NotAuthenticated),
            // Text streamed before the failure does not hide it.
            ("The change looks[API Error: Model stream ended without a finish reason.]", ErrorKind::ServerError),
            (
                "Qwen OAuth free tier has been discontinued as of 2026-04-15.\n\nTo continue using Qwen Code, try one of these alternatives:",
                ErrorKind::NotAuthenticated,
            ),
            ("Qwen OAuth quota exceeded: try tomorrow", ErrorKind::RateLimited),
        ];
        for (result, want) in cases {
            let f = run(&with_result(result), "", 0).unwrap_err();
            assert_eq!(f.kind, want, "{result}");
            assert!(!f.message.starts_with("[API Error"), "{}", f.message);
        }
        let f = run(
            &with_result(
                "[API Error: 429 too many requests]\nPossible quota limitations in place.",
            ),
            "",
            0,
        )
        .unwrap_err();
        assert_eq!(f.message, "429 too many requests");
    }

    #[test]
    fn an_answer_that_merely_quotes_the_marker_is_an_answer() {
        let text = "The parser treats `[API Error: …]` as a failure; that part is correct.";
        assert_eq!(run(&with_result(text), "", 0).unwrap().text, text);
    }

    #[test]
    fn is_error_true_reads_the_error_message() {
        // What qwen 0.15 printed with no auth configured (exit 1).
        let out = r#"[{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":0,"duration_api_ms":0,"num_turns":0,"usage":{"input_tokens":0,"output_tokens":0},"permission_denials":[],"error":{"message":"No auth type is selected. Please configure an auth type (e.g. via settings or `--auth-type`) before running in non-interactive mode."}}]"#;
        let f = run(out, "", 1).unwrap_err();
        assert_eq!(f.kind, ErrorKind::NotAuthenticated);
        assert!(f.message.starts_with("No auth type is selected."));
        // `is_error` wins even with a result text.
        let out = r#"[{"type":"result","is_error":true,"result":"Reached max session turns"}]"#;
        assert_eq!(run(out, "", 1).unwrap_err().kind, ErrorKind::Exited(1));
        let out = r#"[{"type":"result","is_error":true}]"#;
        assert_eq!(run(out, "", 1).unwrap_err().kind, ErrorKind::ParseError);
    }

    #[test]
    fn killed_before_a_result_reads_the_stderr_object() {
        // As a timeout's kill left it in the recorded run, but exiting by itself (someone
        // else's SIGINT).
        let stderr = read("qwen", "hang.stderr");
        let f = run("", &stderr, 130).unwrap_err();
        assert_eq!(f.message, "Operation cancelled.");
        assert_eq!(f.kind, ErrorKind::Exited(130));
        assert_eq!(run("", "", 1).unwrap_err().kind, ErrorKind::ParseError);
    }

    #[test]
    fn stream_json_gives_the_same_answer_and_text_does_not_parse() {
        let r = parse_file("qwen", "ok-stream-json.stdout", parse).unwrap();
        assert_eq!(r.text, OK_ANSWER);
        assert_eq!(r.model.as_deref(), Some("qwen3-coder-plus"));
        assert_eq!(r.usage.input_tokens, Some(25060));
        assert_eq!(r.usage.api_duration_ms, Some(84));
        // What we run (recorded with qwen 0.15.10): partial messages, and `--json-schema` still
        // gives its object in the result line.
        let r = parse_file("qwen", "stream-partial-ok.stdout", parse).unwrap();
        assert_eq!(r.text, OK_ANSWER);
        assert_eq!(r.model.as_deref(), Some("qwen3-coder-plus"));
        let r = parse_file("qwen", "stream-schema-ok.stdout", parse).unwrap();
        let v = r.structured.expect("structured_result");
        assert_eq!(v["findings"].as_array().map(Vec::len), Some(2));
        let f = parse_file("qwen", "ok-text.stdout", parse).unwrap_err();
        assert_eq!(f.kind, ErrorKind::ParseError);
        assert!(!f.message.contains("FAKE-ANSWER"));
    }

    #[test]
    fn read_only_command_line() {
        let a = args(&CallOptions {
            model: Some("qwen3-coder-plus".into()),
            reasoning: Some("high".into()),
            extra_args: vec!["--auth-type".into(), "openai".into()],
            max_attempts: None,
        });
        assert_eq!(
            a.join(" "),
            "-o stream-json --include-partial-messages --approval-mode plan -m qwen3-coder-plus \
             --auth-type openai"
        );
        assert_eq!(
            args(&CallOptions::default()).join(" "),
            "-o stream-json --include-partial-messages --approval-mode plan"
        );
        let prompt = "Review this change: the function add(a, b) returns a - b.";
        for w in &a {
            assert!(!w.contains(prompt), "{w}");
            assert!(!["-y", "-p", "--prompt", "-i"].contains(&w.as_str()), "{w}");
            for bad in ["yolo", "auto-edit", "--dangerously", "bypass"] {
                assert!(!w.contains(bad), "{w}");
            }
        }
    }
}
