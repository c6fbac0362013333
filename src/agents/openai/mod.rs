//! `openai:<model>`: any OpenAI-compatible chat-completions server (OpenAI, Ollama, llama.cpp,
//! vLLM, gateways), without an agent CLI.
//!
//! One non-streaming `POST <base>/chat/completions` per call, with the same guarantees as the CLI
//! backends: a wall-clock timeout for the whole call, an idle timeout per read, a bounded response
//! body, and the same error kinds (an unreachable server is `not-installed`: nothing answers
//! there). The key is sent only when `OPENAI_API_KEY` is set, and never shown.
//!
//! Structured output: a call with a protocol asks for `response_format: {type: "json_schema"}`
//! (strict). Servers differ — OpenAI and vLLM enforce it, some Ollama and llama.cpp builds
//! reject it with a 400, others ignore it and answer in text — so a refusal is retried once
//! without it (and not asked again of this server), and an answer that is not the schema's object
//! is read as text; the record says which happened.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::agents::agent::structured_answer;
use crate::agents::error::{classify, generic_hint};
use crate::agents::parse::{str_at, u64_at};
use crate::agents::{
    Answer, Backend, BackendError, ErrorKind, Failure, Family, OutputMode, Reply, Request, Usage,
};
use crate::answer::Protocol;

/// Larger responses are refused: an answer is far smaller, and a runaway server must not take
/// our memory with it.
const MAX_BODY: u64 = 8 << 20;

pub fn default_base_url() -> &'static str {
    "https://api.openai.com/v1"
}

pub struct OpenAiBackend {
    name: String,
    model: String,
    base_url: String,
    api_key: Option<String>,
    family: Family,
    /// The server refused `response_format: json_schema` once: not asked again.
    schema_refused: AtomicBool,
}

impl OpenAiBackend {
    pub fn new(model: String, base_url: String, api_key: Option<String>, family: Family) -> Self {
        OpenAiBackend {
            name: format!("openai:{model}"),
            base_url: base_url.trim().trim_end_matches('/').to_string(),
            model,
            api_key,
            family,
            schema_refused: AtomicBool::new(false),
        }
    }

    fn url(&self) -> String {
        format!("{}/chat/completions", self.base_url)
    }

    fn hint(&self, kind: ErrorKind, timeout: u64) -> String {
        match kind {
            ErrorKind::NotInstalled => format!(
                "is a server running at {} that serves model {}? set debate.openai.baseUrl or \
                 OPENAI_BASE_URL",
                self.base_url, self.model
            ),
            ErrorKind::NotAuthenticated => {
                format!("set OPENAI_API_KEY to a key {} accepts", self.base_url)
            }
            k => generic_hint(k, timeout),
        }
    }

    /// The call itself: the response (or a failure) and how long it took.
    fn call(&self, req: &Request, schema: Option<Protocol>) -> Result<(Value, Duration), Failure> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(req.timeout))
            .timeout_per_read(Some(req.idle_timeout))
            .http_status_as_error(false)
            .build()
            .into();
        let mut body = json!({
            "model": self.model,
            "messages": [{"role": "user", "content": req.prompt}],
            "stream": false,
        });
        if let Some(p) = schema {
            body["response_format"] = json!({
                "type": "json_schema",
                "json_schema": {"name": p.name(), "strict": true, "schema": p.schema_for_cli()},
            });
        }
        let mut request = agent
            .post(self.url())
            .header("Content-Type", "application/json");
        if let Some(key) = &self.api_key {
            request = request.header("Authorization", format!("Bearer {key}"));
        }
        let started = Instant::now();
        let mut response = request
            .send(body.to_string().as_bytes())
            .map_err(|e| self.transport_failure(e))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .read_to_string()
            .map_err(|e| self.transport_failure(e))?;
        let elapsed = started.elapsed();
        let parsed: Option<Value> = serde_json::from_str(&text).ok();
        if !(200..300).contains(&status) {
            // OpenAI: {"error": {"message": ...}}; Ollama and others: {"error": "..."}.
            let message = parsed
                .as_ref()
                .and_then(|v| {
                    str_at(v, &["error", "message"])
                        .or_else(|| v.get("error").and_then(Value::as_str))
                        .or_else(|| v.get("message").and_then(Value::as_str))
                })
                .map_or_else(
                    || format!("HTTP {status}"),
                    |m| format!("HTTP {status}: {m}"),
                );
            let kind = match status {
                404 => ErrorKind::NotInstalled,
                s => match classify(&message, Some(s), None) {
                    ErrorKind::Exited(_) => ErrorKind::Exited(i32::from(s)),
                    k => k,
                },
            };
            return Err(Failure::new(kind, message));
        }
        match parsed {
            Some(v) if v.get("choices").is_some() => Ok((v, elapsed)),
            _ => Err(Failure::parse("openai-response", Some(i32::from(status)))),
        }
    }

    fn transport_failure(&self, e: ureq::Error) -> Failure {
        match e {
            ureq::Error::Timeout(_) => Failure::new(ErrorKind::Timeout, "no answer in time"),
            ureq::Error::BodyExceedsLimit(_) => Failure::parse("response-over-8-MB", None),
            ureq::Error::HostNotFound | ureq::Error::ConnectionFailed | ureq::Error::BadUri(_) => {
                Failure::new(
                    ErrorKind::NotInstalled,
                    format!("cannot connect to {}", self.base_url),
                )
            }
            // A name that does not resolve comes back as a plain I/O error.
            ureq::Error::Io(io)
                if matches!(
                    io.kind(),
                    std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::NotFound
                ) || io.to_string().contains("lookup address") =>
            {
                Failure::new(
                    ErrorKind::NotInstalled,
                    format!("cannot connect to {}", self.base_url),
                )
            }
            ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::TimedOut => {
                Failure::new(ErrorKind::Timeout, "no answer in time")
            }
            other => Failure::new(ErrorKind::ServerError, other.to_string()),
        }
    }
}

/// Did the server refuse the `response_format` (rather than fail for another reason)?
fn refuses_schema(f: &Failure) -> bool {
    let m = f.message.to_ascii_lowercase();
    let about_format = [
        "response_format",
        "json_schema",
        "schema",
        "structured",
        "format",
    ]
    .iter()
    .any(|w| m.contains(w));
    // A 400 for another reason ("maximum context length exceeded") is not a refusal.
    m.starts_with("http 501")
        || (["http 400", "http 422"].iter().any(|s| m.starts_with(s)) && about_format)
        || m.contains("response_format")
        || m.contains("json_schema")
}

/// `choices[0].message.content`, a string or a list of text parts.
fn answer_text(v: &Value) -> Option<String> {
    let content = v.get("choices")?.get(0)?.get("message")?.get("content")?;
    match content {
        Value::String(s) => Some(s.clone()),
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join(""),
        ),
        Value::Null => Some(String::new()),
        _ => None,
    }
}

impl Backend for OpenAiBackend {
    fn name(&self) -> &str {
        &self.name
    }
    fn family(&self) -> &Family {
        &self.family
    }
    fn model(&self) -> Option<&str> {
        Some(&self.model)
    }
    fn transport(&self) -> &'static str {
        "http"
    }
    fn reads_files(&self, _no_tools: bool) -> bool {
        // A chat API: the prompt is all it sees.
        false
    }
    fn describe(&self) -> String {
        let auth = if self.api_key.is_some() {
            " (with OPENAI_API_KEY)"
        } else {
            ""
        };
        format!("POST {} model={}{auth}", self.url(), self.model)
    }

    fn ask(&self, req: &Request) -> Result<Answer, BackendError> {
        let err =
            |f: Failure| BackendError::new(&self.name, f, &|k| self.hint(k, req.timeout.as_secs()));
        let wanted = req
            .schema
            .filter(|_| !self.schema_refused.load(Ordering::Relaxed));
        let started = std::time::Instant::now();
        let (result, refused) = match wanted {
            Some(p) => match self.call(req, Some(p)) {
                Err(f) if refuses_schema(&f) => {
                    let again = self.call(&req.after(started.elapsed()), None);
                    // Remembered only when the call without it worked: the refusal was the
                    // schema's, not the request's.
                    if again.is_ok() {
                        self.schema_refused.store(true, Ordering::Relaxed);
                    }
                    (again, Some(f.message))
                }
                r => (r, None),
            },
            None => (self.call(req, None), None),
        };
        let (v, elapsed) = result.map_err(err)?;
        if crate::sys::signals::interrupted() {
            return Err(err(Failure::new(ErrorKind::Interrupted, "interrupted")));
        }
        let text =
            answer_text(&v).ok_or_else(|| err(Failure::parse("openai-choices", Some(200))))?;
        if text.trim().is_empty() {
            return Err(err(Failure::new(
                ErrorKind::EmptyAnswer,
                "the server returned no text",
            )));
        }
        let (structured, output) = match refused {
            Some(why) => (
                None,
                OutputMode::fallback(format!(
                    "{} refused response_format json_schema ({why}): the format is asked for in \
                     the prompt only",
                    self.base_url
                )),
            ),
            None => {
                let reply = Reply {
                    text: text.clone(),
                    ..Reply::default()
                };
                let (s, mut o) = structured_answer(&reply, wanted, &self.name);
                if let (Some(_), "schema") = (wanted, o.mode.as_str()) {
                    o.note = Some("response_format json_schema".into());
                }
                (s, o)
            }
        };
        Ok(Answer {
            backend: self.name.clone(),
            text,
            structured,
            output,
            usage: Usage {
                input_tokens: u64_at(&v, &["usage", "prompt_tokens"]),
                output_tokens: u64_at(&v, &["usage", "completion_tokens"]),
                cached_input_tokens: u64_at(
                    &v,
                    &["usage", "prompt_tokens_details", "cached_tokens"],
                ),
                cost_usd: None,
                api_duration_ms: None,
            },
            model: str_at(&v, &["model"])
                .map(str::to_string)
                .or_else(|| Some(self.model.clone())),
            duration_ms: elapsed.as_millis() as u64,
            cli_version: None,
            tree_changes: Vec::new(),
            notes: Vec::new(),
            transport: "http",
            redactions: 0,
        })
    }
}

#[cfg(test)]
mod tests;
