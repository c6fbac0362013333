//! OpenAI Codex CLI (`codex exec`, family openai), as recorded in `harness/REAL-CLIS.md`.
//!
//! `--json` prints JSONL events; the answer is the text of the last `item.completed` whose item is
//! an `agent_message`. Quirks handled here: retry notices ("Reconnecting... 2/5 (…)") arrive as
//! `type:"error"` events although the call may still succeed, so only `turn.failed` (or a non-zero
//! exit) is a failure; an `item.completed` of type `error` (e.g. missing model metadata) is a
//! warning, not a failure. Retries: codex bounds them per provider (`request_max_retries`), and
//! the built-in `openai` provider cannot be overridden (codex 0.169 refuses to start with "Built-in
//! providers cannot be overridden"), so we leave them alone; our own timeouts bound the call.

use serde_json::Value;

use super::agent::{AgentSpec, CallOptions};
use super::parse::{json_lines, str_at, u64_at};
use super::{Captured, Failure, Family, Reply, Usage};

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
    parse,
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

fn parse(c: &Captured) -> Result<Reply, Failure> {
    let events: Vec<Value> = json_lines(c.stdout).collect();
    if let Some(failed) = events.iter().rev().find(|e| kind(e) == "turn.failed") {
        let msg = str_at(failed, &["error", "message"]).unwrap_or("turn failed");
        return Err(Failure::classified(msg, None, c.code));
    }
    let answer = events.iter().rev().find_map(|e| {
        (kind(e) == "item.completed" && str_at(e, &["item", "type"]) == Some("agent_message"))
            .then(|| str_at(e, &["item", "text"]))
            .flatten()
    });
    if c.code != Some(0) {
        // Failures before any turn (no prompt, bad config) are plain text on stderr, after
        // warnings about PATH aliases and sandboxes.
        let said = super::parse::last_line(c.stderr).or_else(|| {
            events
                .iter()
                .rev()
                .find(|e| kind(e) == "error")
                .and_then(|e| str_at(e, &["message"]))
        });
        return Err(match said {
            Some(msg) => Failure::classified(msg, None, c.code),
            None => Failure::parse("no-turn-result", c.code),
        });
    }
    let Some(text) = answer else {
        return Err(Failure::parse(
            if events.is_empty() {
                "no-json-events"
            } else {
                "no-agent-message"
            },
            c.code,
        ));
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::parse::fixtures::{check_all, parse_file};
    use crate::backend::ErrorKind;

    #[test]
    fn every_recorded_scenario() {
        use ErrorKind::*;
        check_all(
            "codex",
            parse,
            |s| match s {
                "ok" => None,
                "401" | "401-retries1-idle5s" => Some(NotAuthenticated),
                "429" | "429-retries1-idle5s" => Some(RateLimited),
                "500" | "500-retries1-idle5s" | "malformed" | "malformed-retries1-idle5s" => {
                    Some(ServerError)
                }
                // codex's own stream idle timeout, and ours (the harness killed the hangs).
                "stall-retries1-idle5s" | "hang" | "hang-retries1-idle5s" => Some(Timeout),
                other => panic!("unexpected scenario {other}"),
            },
            |r| {
                assert_eq!(r.usage.input_tokens, Some(9542));
                assert_eq!(r.usage.output_tokens, Some(14));
                assert_eq!(r.usage.cached_input_tokens, Some(0));
            },
        );
    }

    #[test]
    fn retry_notices_before_a_good_turn_are_not_failures() {
        let out = r#"{"type":"thread.started","thread_id":"t"}
{"type":"error","message":"Reconnecting... 1/5 (stream disconnected before completion)"}
{"type":"item.completed","item":{"id":"i","type":"error","message":"Model metadata for `x` not found"}}
{"type":"item.completed","item":{"id":"a","type":"agent_message","text":"first"}}
{"type":"item.completed","item":{"id":"b","type":"agent_message","text":"final answer"}}
{"type":"turn.completed","usage":{"input_tokens":1,"output_tokens":2}}
"#;
        let r = parse(&Captured {
            stdout: out,
            stderr: "",
            code: Some(0),
        })
        .unwrap();
        assert_eq!(r.text, "final answer");
    }

    #[test]
    fn plain_text_output_is_not_mistaken_for_json() {
        let f = parse_file("codex", "ok-plain.stdout", parse).unwrap_err();
        assert_eq!(f.kind, ErrorKind::ParseError);
    }

    #[test]
    fn startup_errors_on_stderr_are_classified_past_the_warnings() {
        let f = parse(&Captured {
            stdout: "",
            stderr: "WARNING: proceeding, even though we could not create PATH aliases\nNo prompt provided via stdin.\n",
            code: Some(1),
        })
        .unwrap_err();
        assert_eq!(f.kind, ErrorKind::Exited(1));
        assert_eq!(f.message, "No prompt provided via stdin.");
    }

    #[test]
    fn read_only_command_line_with_the_prompt_on_stdin() {
        let a = args(&CallOptions {
            model: Some("gpt-5.3-codex".into()),
            reasoning: Some("high".into()),
            extra_args: vec!["--profile".into(), "work".into()],
        });
        assert_eq!(
            a.join(" "),
            "exec --skip-git-repo-check --ephemeral --sandbox read-only --color never \
             -m gpt-5.3-codex -c model_reasoning_effort=\"high\" --json --profile work -"
        );
        for bad in ["--full-auto", "--yolo", "danger-full-access", "bypass"] {
            assert!(!a.iter().any(|w| w.contains(bad)), "{bad}");
        }
    }
}
