//! Gemini CLI (`gemini`, family google), as the real CLI behaved against a fake model server (its
//! recorded runs are in `tests/fixtures/gemini/`).
//!
//! With stdin not a terminal the prompt needs no `-p`; `--skip-trust` is needed or it exits 55 in
//! an untrusted directory (and silently turns `plan` into `default` approval); `--approval-mode
//! plan` keeps it read-only and also skips its router call. The answer is `.response` of one
//! pretty-printed JSON object on stdout (older versions could print "Loaded cached credentials."
//! before it), usage is `stats.models.<model>.tokens` summed over the models the call used. An
//! `error` next to `response` (a stream cut at the token limit, a safety block) is a failure: a
//! cut answer must not pass for a whole one.
//!
//! Errors go to **stderr** (after warnings and a stack trace) as a JSON object `{"session_id",
//! "error": {"type", "message", "code"}}`, with stdout empty and the exit code = `error.code` &
//! 0xFF (401 -> 145, 500 -> 244). `error.message` is sometimes the server's own JSON body as a
//! string; its `code` and `status` are read too. Exit codes it gives before any call: 41 (no or
//! an invalid auth method: not authenticated), 42 (empty stdin), 52 (bad settings file), 55
//! (untrusted directory); those print a line, or a yargs message before the usage text.
//!
//! Retries: it retries 429/500 with model fallback for 90 s and more, and neither a flag nor an
//! environment variable bounds that (the recordings needed `general.maxAttempts: 1` in the
//! settings file **and** an explicit `-m`; we do not touch the user's settings). But it reports
//! each failed attempt on stderr as it happens, so `gemini_retries` reads those lines as they come:
//! past `debate.gemini.maxAttempts` (default 3) the call is stopped and reported as
//! `rate-limited` or `server-error`, and so is a call a limit ended while it was retrying.
//!
//! Output: `-o stream-json`, so the assistant's text arrives as deltas while it is written and the
//! idle limit measures silence, not the length of the answer (`-o json` prints nothing until the
//! end). The plain `json` object is still read, for `debate.gemini.args` that ask for it.

use serde_json::Value;

use crate::agents::agent::{AgentSpec, CallOptions};
use crate::agents::error::classify;
use crate::agents::parse::{at, json_lines, str_at, trailing_json_object, u64_at, whole_json};
use crate::agents::{Captured, ErrorKind, Failure, Family, Reply, Usage};

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
    schema: None,
    parse,
    retrying: Some(crate::agents::gemini_retries::retrying),
    streams: true,
    heartbeat: None,
};

/// gemini's exit code (and `error.code`) for a missing or invalid auth method.
const EXIT_AUTH: i32 = 41;

fn args(o: &CallOptions) -> Vec<String> {
    let mut a: Vec<String> = [
        "--skip-trust",
        "-o",
        "stream-json",
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

fn parse(c: &Captured) -> Result<Reply, Failure> {
    let answer = whole_json(c.stdout)
        .or_else(|| trailing_json_object(c.stdout))
        .filter(|v| v.get("response").is_some());
    if let Some(obj) = answer {
        if let Some(err) = obj.get("error") {
            return Err(failure(err, c.code));
        }
        let text = obj.get("response").and_then(Value::as_str).unwrap_or("");
        return Ok(Reply {
            text: text.to_string(),
            usage: usage(&obj),
            model: main_model(&obj),
            ..Default::default()
        });
    }
    if let Some(reply) = stream_json(c) {
        return reply;
    }
    let envelope = [c.stderr, c.stdout]
        .into_iter()
        .find_map(|t| trailing_json_object(t).filter(|v| v.get("error").is_some()));
    if let Some(env) = envelope {
        return Err(failure(&env["error"], c.code));
    }
    // Startup failures (no auth, bad settings, empty input, bad flags) print a line, no JSON.
    match stderr_reason(c.stderr) {
        Some(said) if c.code != Some(0) => {
            let kind = if c.code == Some(EXIT_AUTH) {
                ErrorKind::NotAuthenticated
            } else {
                classify(&said, None, c.code)
            };
            Err(Failure::new(kind, said))
        }
        _ => Err(Failure::parse("no-response-object", c.code)),
    }
}

/// The failure an `error` object (`{"type", "message", "code"}`) describes.
fn failure(err: &Value, code: Option<i32>) -> Failure {
    let message = str_at(err, &["message"]).unwrap_or("gemini failed");
    // `message` is sometimes the server's own JSON body: `{"error":{"code":401,"message":…,
    // "status":"UNAUTHENTICATED"}}`.
    let inner = whole_json(message);
    let inner_err = inner.as_ref().and_then(|v| v.get("error"));
    let own_code = u64_at(err, &["code"]);
    let status = own_code
        .filter(|s| (100..=599).contains(s))
        .or_else(|| inner_err.and_then(|e| u64_at(e, &["code"])))
        .filter(|s| (100..=599).contains(s))
        .and_then(|s| u16::try_from(s).ok());
    let text = inner_err
        .and_then(|e| str_at(e, &["message"]))
        .unwrap_or(message);
    let kind = if own_code == Some(EXIT_AUTH as u64) {
        ErrorKind::NotAuthenticated
    } else {
        let said = match inner_err.and_then(|e| str_at(e, &["status"])) {
            Some(s) => format!("{text} ({s})"),
            None => text.to_string(),
        };
        classify(&said, status, code)
    };
    Failure::new(kind, text)
}

/// `-o stream-json` (from the user's extra arguments): assistant `message` deltas, then a `result`
/// event with `status` and `stats`. `None` when stdout is not that format.
fn stream_json(c: &Captured) -> Option<Result<Reply, Failure>> {
    let events: Vec<Value> = json_lines(c.stdout).collect();
    let kind = |v: &Value| v.get("type").and_then(Value::as_str).map(str::to_string);
    let result = events
        .iter()
        .rev()
        .find(|e| kind(e).as_deref() == Some("result"))?;
    if str_at(result, &["status"]) != Some("success") {
        return Some(Err(match result.get("error") {
            Some(err) => failure(err, c.code),
            None => Failure::parse("stream-result-not-success", c.code),
        }));
    }
    let text: String = events
        .iter()
        .filter(|e| {
            kind(e).as_deref() == Some("message") && str_at(e, &["role"]) == Some("assistant")
        })
        .filter_map(|e| str_at(e, &["content"]))
        .collect();
    let stats = result.get("stats");
    let n = |k: &str| stats.and_then(|s| u64_at(s, &[k]));
    let model = stats
        .and_then(|s| s.get("models"))
        .and_then(Value::as_object)
        .and_then(|m| {
            m.iter()
                .max_by_key(|(_, v)| u64_at(v, &["total_tokens"]).unwrap_or(0))
                .map(|(k, _)| k.clone())
        });
    Some(Ok(Reply {
        text,
        usage: Usage {
            input_tokens: n("input_tokens"),
            output_tokens: n("output_tokens"),
            cached_input_tokens: n("cached"),
            cost_usd: None,
            // `duration_ms` is the whole run, not time spent on the API.
            api_duration_ms: None,
        },
        model,
        ..Default::default()
    }))
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

/// The model in the `main` role, else the one that used the most tokens.
fn main_model(obj: &Value) -> Option<String> {
    let models = at(obj, &["stats", "models"])?.as_object()?;
    models
        .iter()
        .find(|(_, m)| at(m, &["roles", "main"]).is_some())
        .or_else(|| {
            models
                .iter()
                .max_by_key(|(_, m)| u64_at(m, &["tokens", "total"]).unwrap_or(0))
        })
        .map(|(k, _)| k.clone())
}

/// What gemini said on stderr when it stopped before any JSON: the last run of message lines,
/// without warnings, startup metrics, stack frames or object dumps, and before any usage text (a
/// bad flag prints "Unknown argument: x" and then the help). A bad settings file takes two lines
/// ("Error in …/settings.json: …" and "Please fix the configuration file(s) and try again.").
fn stderr_reason(stderr: &str) -> Option<String> {
    const NOISE: [&str; 6] = [
        "warning",
        "[startup]",
        "ripgrep is not available",
        "approval mode overridden",
        "loaded cached credentials",
        "[user] policy file error",
    ];
    let meaningful = |l: &str| {
        let lower = l.trim().to_ascii_lowercase();
        !lower.is_empty()
            && !l.starts_with(char::is_whitespace)
            && !lower.starts_with(['{', '}'])
            && !NOISE.iter().any(|n| lower.starts_with(n))
    };
    let lines: Vec<&str> = stderr
        .lines()
        .take_while(|l| !l.starts_with("Usage: "))
        .collect();
    let mut run: Vec<&str> = lines
        .iter()
        .rev()
        .skip_while(|l| !meaningful(l))
        .take_while(|l| meaningful(l))
        .map(|l| l.trim())
        .collect();
    run.reverse();
    (!run.is_empty()).then(|| run.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::fixtures::{read, OK_ANSWER};
    use crate::agents::replays::{check_all, parse_file, replay};

    fn run(stdout: &str, stderr: &str, code: i32) -> Result<Reply, Failure> {
        crate::agents::replays::parse_text(parse, stdout, stderr, code)
    }

    #[test]
    fn every_recorded_scenario() {
        use ErrorKind::*;
        check_all(
            "gemini",
            parse,
            |s| match s {
                "ok" => None,
                // Exit 145, `error.code` 401 and the server's body as the message.
                "401" => Some(NotAuthenticated),
                // With `-m` and one attempt: exit 244, `error.code` 500.
                "500-model-attempts1" => Some(ServerError),
                // Exit 1, "Incomplete JSON segment at the end".
                "malformed" => Some(ServerError),
                // Retrying with backoff for 90 s until a timeout killed them: the retry lines
                // on stderr say why (we would have stopped them after maxAttempts).
                "429" | "429-attempts1" => Some(RateLimited),
                "500" | "500-attempts1" => Some(ServerError),
                // Silent: killed by a timeout (ours, in a recorded run).
                "hang" | "stall-model-attempts1" => Some(Timeout),
                other => panic!("unexpected scenario {other}"),
            },
            |r| {
                assert_eq!(
                    r.model.as_deref(),
                    Some("gemini-3.1-pro-preview-customtools")
                );
                assert_eq!(r.usage.input_tokens, Some(10507));
                assert_eq!(r.usage.output_tokens, Some(14));
                assert_eq!(r.usage.cached_input_tokens, Some(0));
                assert_eq!(r.usage.api_duration_ms, Some(55));
                assert_eq!(r.usage.cost_usd, None);
            },
        );
    }

    #[test]
    fn the_servers_message_is_unwrapped_from_the_error_object() {
        let f = replay("gemini", "401", parse).unwrap_err();
        assert_eq!(f.message, "fake_llm simulated 401");
        let f = replay("gemini", "500-model-attempts1", parse).unwrap_err();
        assert_eq!(f.message, "fake_llm simulated 500");
        // No HTTP status in `error.code`: the embedded body's code, then its status word.
        let env = |msg: &str| {
            format!(
                "Error when talking to Gemini API\n    at x (y.js:1:2)\n{{\n  \"session_id\": \"s\",\n  \
                 \"error\": {{\n    \"type\": \"Error\",\n    \"message\": {},\n    \"code\": 1\n  }}\n}}\n",
                serde_json::to_string(msg).unwrap()
            )
        };
        let body = r#"{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}"#;
        let f = run("", &env(body), 173).unwrap_err();
        assert_eq!(
            (f.kind, f.message.as_str()),
            (ErrorKind::RateLimited, "slow down")
        );
        let body = r#"{"error":{"message":"nope","status":"UNAUTHENTICATED"}}"#;
        assert_eq!(
            run("", &env(body), 1).unwrap_err().kind,
            ErrorKind::NotAuthenticated
        );
    }

    #[test]
    fn no_auth_method_is_not_authenticated() {
        // Exit 41 with the error object on stderr (seen with a fresh HOME and no key).
        let stderr = "{\n  \"session_id\": \"s\",\n  \"error\": {\n    \"type\": \"Error\",\n    \
                      \"message\": \"Invalid auth method selected.\",\n    \"code\": 41\n  }\n}\n";
        let f = run("", stderr, 41).unwrap_err();
        assert_eq!(f.kind, ErrorKind::NotAuthenticated);
        assert_eq!(f.message, "Invalid auth method selected.");
        // Exit 41 with only a line.
        let f = run("", "Warning: x\nSomething about credentials\n", 41).unwrap_err();
        assert_eq!(f.kind, ErrorKind::NotAuthenticated);
    }

    #[test]
    fn startup_failures_without_json_are_classified() {
        let stderr = read("gemini", "badsettings-exit52.stderr");
        let f = run("", &stderr, 52).unwrap_err();
        assert_eq!(f.kind, ErrorKind::Exited(52));
        assert!(
            f.message.contains("settings.json: Expected double-quoted"),
            "{}",
            f.message
        );
        assert!(f
            .message
            .ends_with("Please fix the configuration file(s) and try again."));

        // As gemini 0.61 printed them (checked with the real binary).
        let noise = "Warning: 256-color support not detected.\nRipgrep is not available. Falling back to GrepTool.\n";
        let f = run(
            "",
            &format!("{noise}No input provided via stdin. Input can be provided by piping data into gemini or using the --prompt option.\n"),
            42,
        )
        .unwrap_err();
        assert_eq!(f.kind, ErrorKind::Exited(42));
        assert!(
            f.message.starts_with("No input provided via stdin."),
            "{}",
            f.message
        );

        let untrusted = "Approval mode overridden to \"default\" because the current folder is not trusted.\n\
                         \u{1b}[31mGemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`\u{1b}[0m\n";
        let f = run("", untrusted, 55).unwrap_err();
        assert_eq!(f.kind, ErrorKind::Exited(55));
        assert!(f.message.contains("not running in a trusted directory"));

        let bad_flag = "Unknown argument: bogus\nUsage: gemini [options] [command]\n\nOptions:\n  -h, --help  Show help  [boolean]\n";
        let f = run("", bad_flag, 1).unwrap_err();
        assert_eq!(
            (f.kind, f.message.as_str()),
            (ErrorKind::Exited(1), "Unknown argument: bogus")
        );

        let crash = "Critical failure reading project registry: Error: ENOTDIR\n}\n\
                     An unexpected critical error occurred:Error: ENOTDIR: not a directory\n    at async open (node:internal/fs/promises:637:25)\n";
        let f = run("", crash, 1).unwrap_err();
        assert_eq!(
            f.message,
            "An unexpected critical error occurred:Error: ENOTDIR: not a directory"
        );

        // Nothing but noise: a parse error, never the raw output.
        let f = run("", noise, 1).unwrap_err();
        assert_eq!(f.kind, ErrorKind::ParseError);
    }

    #[test]
    fn a_banner_before_the_object_is_skipped() {
        let out = format!(
            "Loaded cached credentials.\n{}",
            read("gemini", "ok.stdout")
        );
        let r = run(&out, "", 0).unwrap();
        assert_eq!(r.text, OK_ANSWER);
        assert_eq!(r.usage.input_tokens, Some(10507));
    }

    #[test]
    fn an_error_next_to_the_response_is_a_failure() {
        let out = r#"{
  "session_id": "s",
  "response": "The change looks",
  "stats": {},
  "error": {"type": "INVALID_STREAM", "message": "Model response was truncated because it exceeded the token limit."}
}"#;
        let f = run(out, "", 0).unwrap_err();
        assert_eq!(f.kind, ErrorKind::ServerError);
        assert!(f.message.starts_with("Model response was truncated"));
    }

    #[test]
    fn router_and_main_models_are_summed_and_main_wins() {
        let out = r#"{"response": "ok", "stats": {"models": {
  "gemini-3.5-flash-lite": {"api": {"totalLatencyMs": 10}, "tokens": {"prompt": 900, "candidates": 50, "total": 950, "cached": 0}, "roles": {"utility_router": {}}},
  "gemini-3.8-flash": {"api": {"totalLatencyMs": 40}, "tokens": {"prompt": 100, "candidates": 5, "total": 105, "cached": 60}, "roles": {"main": {}}}
}}}"#;
        let r = run(out, "", 0).unwrap();
        assert_eq!(r.model.as_deref(), Some("gemini-3.8-flash"));
        assert_eq!(r.usage.input_tokens, Some(1000));
        assert_eq!(r.usage.output_tokens, Some(55));
        assert_eq!(r.usage.cached_input_tokens, Some(60));
        assert_eq!(r.usage.api_duration_ms, Some(50));
        // Without roles: the model that used the most tokens.
        let out = out.replace("\"main\"", "\"other\"");
        assert_eq!(
            run(&out, "", 0).unwrap().model.as_deref(),
            Some("gemini-3.5-flash-lite")
        );
    }

    #[test]
    fn stream_json_gives_the_same_answer_and_text_does_not_parse() {
        // `-o stream-json`, what we ask for: deltas concatenated.
        let r = parse_file("gemini", "ok-stream-json.stdout", parse).unwrap();
        assert_eq!(r.text, OK_ANSWER);
        assert_eq!(
            r.model.as_deref(),
            Some("gemini-3.1-pro-preview-customtools")
        );
        assert_eq!(r.usage.input_tokens, Some(10507));
        assert_eq!(r.usage.output_tokens, Some(14));
        let failed = r#"{"type":"init","session_id":"s","model":"auto"}
{"type":"result","status":"error","error":{"type":"Error","message":"{\"error\":{\"code\":401,\"message\":\"bad key\",\"status\":\"UNAUTHENTICATED\"}}"},"stats":{}}
"#;
        let f = run(failed, "", 145).unwrap_err();
        assert_eq!(
            (f.kind, f.message.as_str()),
            (ErrorKind::NotAuthenticated, "bad key")
        );
        // Plain text cannot be told apart from anything else.
        let f = parse_file("gemini", "ok-text.stdout", parse).unwrap_err();
        assert_eq!(f.kind, ErrorKind::ParseError);
        assert!(!f.message.contains("FAKE-ANSWER"));
    }

    #[test]
    fn read_only_command_line() {
        let a = args(&CallOptions {
            model: Some("gemini-2.5-pro".into()),
            reasoning: Some("high".into()),
            extra_args: vec!["--include-directories".into(), "../lib".into()],
            max_attempts: None,
        });
        assert_eq!(
            a.join(" "),
            "--skip-trust -o stream-json --approval-mode plan -m gemini-2.5-pro \
             --include-directories ../lib"
        );
        assert_eq!(
            args(&CallOptions::default()).join(" "),
            "--skip-trust -o stream-json --approval-mode plan"
        );
        let prompt = "Review this change: the function add(a, b) returns a - b.";
        for w in &a {
            assert!(!w.contains(prompt), "{w}");
            assert!(!["-y", "-p", "--prompt", "-i"].contains(&w.as_str()), "{w}");
            for bad in ["yolo", "auto_edit", "auto-edit", "--dangerously", "bypass"] {
                assert!(!w.contains(bad), "{w}");
            }
        }
    }
}
