//! opencode (`opencode run`, any provider), as the real CLI behaved against a fake model server
//! (its recorded runs are in `tests/fixtures/opencode/`).
//!
//! `--format json` prints JSONL events; the answer is the `text` parts of the last step that has
//! any (earlier steps are tool use). `--agent plan` is its read-only agent. Quirks: errors are an
//! `error` event with the HTTP status in `error.data.statusCode`; on a malformed upstream response
//! it loops forever (962 calls in 90 s in the recording), which only our timeout stops; it makes a
//! second (title) request per run. Its family is that of its model, `provider/model`, which comes
//! from `--model`/config or else from the user's opencode configuration. We do not set
//! `OPENCODE_DISABLE_MODELS_FETCH`: real users need the model list to resolve their models. It
//! retries 429/500 for over a minute and 1.18.33 has no setting for that: our timeouts bound it.

use std::path::Path;

use serde_json::Value;

use crate::agents::agent::{AgentSpec, CallOptions};
use crate::agents::parse::{at, f64_at, json_lines, str_at, u64_at, unstructured};
use crate::agents::{Captured, Failure, Family, Reply, Usage};
use crate::pattern::Pattern;

pub static SPEC: AgentSpec = AgentSpec {
    name: "opencode",
    family: |model| {
        model
            .map(str::to_string)
            .or_else(configured_model)
            .map_or_else(Family::unknown, |m| Family::of_model(&m))
    },
    install: "npm install -g opencode-ai",
    login: "run `opencode auth login` for your provider",
    args,
    env_defaults: &[("OPENCODE_DISABLE_AUTOUPDATE", "1")],
    env_remove: &[],
    // opencode sets OPENCODE=1 (and AGENT=1, OPENCODE_PID) in the shells it starts.
    launched_by: &["OPENCODE"],
    schema: None,
    parse,
    retrying: None,
    streams: false,
    heartbeat: None,
};

fn args(o: &CallOptions) -> Vec<String> {
    let mut a: Vec<String> = ["run", "--format", "json", "--agent", "plan"]
        .map(String::from)
        .to_vec();
    if let Some(m) = &o.model {
        a.extend(["-m".into(), m.clone()]);
    }
    if let Some(v) = &o.reasoning {
        a.extend(["--variant".into(), v.clone()]);
    }
    a.extend(o.extra_args.iter().cloned());
    a
}

/// The user's default opencode model (`"model": "provider/model"`), from `OPENCODE_CONFIG_CONTENT`
/// or the global config file.
pub fn configured_model() -> Option<String> {
    if let Ok(content) = std::env::var("OPENCODE_CONFIG_CONTENT") {
        if let Some(m) = model_in(&content) {
            return Some(m);
        }
    }
    let dir = std::env::var_os("XDG_CONFIG_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".config")))?;
    config_model_in(&dir.join("opencode"))
}

/// The model of `opencode.json` or `opencode.jsonc` in `dir`.
pub fn config_model_in(dir: &Path) -> Option<String> {
    ["opencode.json", "opencode.jsonc"]
        .iter()
        .find_map(|f| std::fs::read_to_string(dir.join(f)).ok())
        .and_then(|c| model_in(&c))
}

fn model_in(config: &str) -> Option<String> {
    let v: Value = serde_json::from_str(&strip_jsonc(config)).ok()?;
    v.get("model")?.as_str().map(str::to_string)
}

/// JSONC to JSON: comments outside strings removed, trailing commas before `}`/`]` dropped.
fn strip_jsonc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            out.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_str = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut prev = ' ';
                for n in chars.by_ref() {
                    if prev == '*' && n == '/' {
                        break;
                    }
                    prev = n;
                }
            }
            _ => out.push(c),
        }
    }
    static TRAILING_COMMA: Pattern = Pattern::new(r",(\s*[}\]])");
    TRAILING_COMMA.replace_all(&out, "$1").into_owned()
}

fn kind(v: &Value) -> &str {
    v.get("type").and_then(Value::as_str).unwrap_or("")
}

fn parse(c: &Captured) -> Result<Reply, Failure> {
    let events: Vec<Value> = json_lines(c.stdout).collect();
    if let Some(err) = events.iter().rev().find(|e| kind(e) == "error") {
        let data = at(err, &["error", "data"]);
        let msg = data
            .and_then(|d| str_at(d, &["message"]))
            .or_else(|| str_at(err, &["error", "message"]))
            .or_else(|| str_at(err, &["error", "name"]))
            .unwrap_or("opencode failed");
        let status = data
            .and_then(|d| u64_at(d, &["statusCode"]))
            .and_then(|s| u16::try_from(s).ok());
        return Err(Failure::classified(msg, status, c.code));
    }
    // Text of the last step that produced any; usage summed over all steps.
    let mut step_text = String::new();
    let mut answer = None;
    let mut usage = Usage::default();
    for e in &events {
        match kind(e) {
            "step_start" => step_text.clear(),
            "text" => {
                step_text.push_str(str_at(e, &["part", "text"]).unwrap_or(""));
                answer = Some(step_text.clone());
            }
            "step_finish" => usage.add(&Usage {
                input_tokens: u64_at(e, &["part", "tokens", "input"]),
                output_tokens: u64_at(e, &["part", "tokens", "output"]),
                cached_input_tokens: u64_at(e, &["part", "tokens", "cache", "read"]),
                cost_usd: f64_at(e, &["part", "cost"]),
                api_duration_ms: None,
            }),
            _ => {}
        }
    }
    match answer {
        Some(text) if c.code == Some(0) => Ok(Reply {
            text,
            usage,
            model: None,
            ..Default::default()
        }),
        _ => Err(unstructured(
            c,
            if events.is_empty() {
                "no-json-events"
            } else {
                "no-text-event"
            },
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::replays::{check_all, parse_file};
    use crate::agents::ErrorKind;

    #[test]
    fn every_recorded_scenario() {
        use ErrorKind::*;
        check_all(
            "opencode",
            parse,
            |s| match s {
                "ok" => None,
                "401" => Some(NotAuthenticated),
                "429" => Some(RateLimited),
                "500" => Some(ServerError),
                // The endless loop on a malformed response, and the silent server: our timeout.
                "malformed" | "hang" => Some(Timeout),
                other => panic!("unexpected scenario {other}"),
            },
            |r| {
                assert_eq!(r.usage.input_tokens, Some(5658));
                assert_eq!(r.usage.output_tokens, Some(14));
                assert_eq!(r.usage.cost_usd, Some(0.0));
            },
        );
    }

    #[test]
    fn the_answer_is_the_last_step_with_text() {
        let out = r#"{"type":"step_start","part":{}}
{"type":"text","part":{"type":"text","text":"Let me look at the file."}}
{"type":"step_finish","part":{"tokens":{"input":10,"output":5}}}
{"type":"step_start","part":{}}
{"type":"text","part":{"type":"text","text":"Final: "}}
{"type":"text","part":{"type":"text","text":"looks good."}}
{"type":"step_finish","part":{"tokens":{"input":20,"output":7}}}
"#;
        let r = parse(&Captured {
            stdout: out,
            stderr: "",
            code: Some(0),
        })
        .unwrap();
        assert_eq!(r.text, "Final: looks good.");
        assert_eq!(r.usage.input_tokens, Some(30));
    }

    #[test]
    fn default_format_output_is_not_mistaken_for_an_answer() {
        let f = parse_file("opencode", "ok-default.stdout", parse).unwrap_err();
        assert_eq!(f.kind, ErrorKind::ParseError);
    }

    #[test]
    fn family_follows_the_configured_model() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(
            tmp.path().join("opencode.json"),
            "{\n  // my default\n  \"model\": \"anthropic/claude-sonnet-4-5\", /* x */\n  \"share\": \"disabled\",\n}\n",
        )
        .unwrap();
        assert_eq!(
            config_model_in(tmp.path()).as_deref(),
            Some("anthropic/claude-sonnet-4-5")
        );
        assert!(config_model_in(&tmp.path().join("none")).is_none());
        assert_eq!((SPEC.family)(Some("openai/gpt-5")), Family::openai());
        assert_eq!((SPEC.family)(Some("google/gemini-3-pro")), Family::google());
        assert_eq!(
            model_in("{\"url\": \"http://x//y\", \"model\": \"a/b\"}").as_deref(),
            Some("a/b")
        );
    }

    #[test]
    fn read_only_command_line() {
        let a = args(&CallOptions {
            model: Some("anthropic/claude-sonnet-4-5".into()),
            reasoning: Some("high".into()),
            ..Default::default()
        });
        assert_eq!(
            a.join(" "),
            "run --format json --agent plan -m anthropic/claude-sonnet-4-5 --variant high"
        );
    }
}
