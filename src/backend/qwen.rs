//! Qwen Code (`qwen`, family qwen), as recorded in `harness/REAL-CLIS.md`.
//!
//! `-o json` prints one JSON **array** (not JSON lines) of `system`, `assistant` and `result`
//! messages; the answer is the `result` element's `.result`. The quirk that matters: an API
//! failure comes back as exit 0, `is_error: false`, with `.result` starting `[API Error: …]`, so
//! that prefix is a failure here, classified from the text inside. It retries 429/500 for minutes;
//! its retry setting lives in the user's settings file, so our timeouts bound the call. The auth
//! type is left to the user's own qwen settings (the recordings' `--auth-type openai` was specific
//! to the fake server; add it with `debate.qwen.args` if needed).

use serde_json::Value;

use super::agent::{AgentSpec, CallOptions};
use super::parse::{json_lines, str_at, u64_at, whole_json};
use super::{Captured, Failure, Family, Reply, Usage};

pub static SPEC: AgentSpec = AgentSpec {
    name: "qwen",
    family: |_| Family::qwen(),
    install: "npm install -g @qwen-code/qwen-code",
    login:
        "run `qwen` once and sign in, or set OPENAI_API_KEY and OPENAI_BASE_URL for its OpenAI auth",
    args,
    env_defaults: &[],
    env_remove: &[],
    // Qwen Code sets QWEN_CODE=1 in the shells it starts.
    launched_by: &["QWEN_CODE"],
    parse,
};

fn args(o: &CallOptions) -> Vec<String> {
    let mut a: Vec<String> = ["-o", "json", "--approval-mode", "plan"]
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

fn parse(c: &Captured) -> Result<Reply, Failure> {
    let msgs = messages(c.stdout);
    let Some(result) = msgs.iter().rev().find(|m| kind(m) == "result") else {
        // Killed or failed before any result: `{"error": {...}}` on stderr, or a plain line.
        if let Some(err) = super::parse::trailing_json_object(c.stderr) {
            if let Some(msg) = str_at(&err, &["error", "message"]) {
                return Err(Failure::classified(msg, None, c.code));
            }
        }
        return Err(super::parse::unstructured(c, "no-result-message"));
    };
    let text = result.get("result").and_then(Value::as_str).unwrap_or("");
    let api_error = text.trim_start().strip_prefix("[API Error");
    if result.get("is_error").and_then(Value::as_bool) == Some(true) || api_error.is_some() {
        let inner = api_error
            .map(|rest| rest.trim_start_matches(':').trim().trim_end_matches(']'))
            .unwrap_or(text);
        // Classified from the whole text: "[API Error: 401 …" carries the status after "Error:".
        let kind = super::error::classify(text, None, c.code);
        return Err(Failure::new(kind, inner));
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::parse::fixtures::{check_all, parse_file, replay, OK_ANSWER};
    use crate::backend::ErrorKind;

    #[test]
    fn every_recorded_scenario() {
        use ErrorKind::*;
        check_all(
            "qwen",
            parse,
            |s| match s {
                "ok" => None,
                // Exit 0 with "[API Error: 401 …]": a failure all the same.
                "401" => Some(NotAuthenticated),
                "500-retries1-timeout5s" | "malformed" => Some(ServerError),
                "hang-retries1-timeout5s" => Some(Timeout),
                // Retrying or silent until the harness killed them.
                "429" | "500" | "hang" => Some(Timeout),
                other => panic!("unexpected scenario {other}"),
            },
            |r| {
                assert_eq!(r.model.as_deref(), Some("qwen3-coder-plus"));
                assert_eq!(r.usage.input_tokens, Some(25060));
                assert_eq!(r.usage.output_tokens, Some(18));
                assert_eq!(r.usage.api_duration_ms, Some(99));
            },
        );
    }

    #[test]
    fn api_errors_reported_as_success_are_failures() {
        let f = replay("qwen", "401", parse).unwrap_err();
        assert_eq!(f.message, "401 fake_llm simulated 401");
    }

    #[test]
    fn stream_json_gives_the_same_answer_and_text_does_not_parse() {
        let r = parse_file("qwen", "ok-stream-json.stdout", parse).unwrap();
        assert_eq!(r.text, OK_ANSWER);
        let f = parse_file("qwen", "ok-text.stdout", parse).unwrap_err();
        assert_eq!(f.kind, ErrorKind::ParseError);
    }

    #[test]
    fn read_only_command_line() {
        let a = args(&CallOptions {
            model: Some("qwen3-coder-plus".into()),
            ..Default::default()
        });
        assert_eq!(
            a.join(" "),
            "-o json --approval-mode plan -m qwen3-coder-plus"
        );
        assert!(!a.iter().any(|w| w == "--yolo" || w == "yolo" || w == "-y"));
    }
}
