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

use super::agent::structured_answer;
use super::error::{classify, generic_hint};
use super::parse::{str_at, u64_at};
use super::{
    Answer, Backend, BackendError, ErrorKind, Failure, Family, OutputMode, Reply, Request, Usage,
};
use crate::protocol::read::Protocol;

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
    ["http 400", "http 422", "http 501"]
        .iter()
        .any(|s| m.starts_with(s))
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
        let (result, refused) = match wanted {
            Some(p) => match self.call(req, Some(p)) {
                Err(f) if refuses_schema(&f) => {
                    self.schema_refused.store(true, Ordering::Relaxed);
                    (self.call(req, None), Some(f.message))
                }
                r => (r, None),
            },
            None => (self.call(req, None), None),
        };
        let (v, elapsed) = result.map_err(err)?;
        if super::signals::interrupted() {
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
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpListener;
    use std::sync::mpsc;

    /// A one-shot HTTP server: answers the first request with `status` and `body` (or never, with
    /// `None`), and hands back the request it got (head and body).
    fn serve(status: u16, body: Option<String>) -> (String, mpsc::Receiver<(String, String)>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = String::new();
            let mut len = 0usize;
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap();
                }
                head.push_str(&line);
                if line == "\r\n" || line.is_empty() {
                    break;
                }
            }
            let mut req_body = vec![0; len];
            reader.read_exact(&mut req_body).unwrap();
            tx.send((head, String::from_utf8(req_body).unwrap()))
                .unwrap();
            let Some(body) = body else {
                std::thread::sleep(Duration::from_secs(30));
                return;
            };
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        });
        (url, rx)
    }

    fn backend(url: &str, key: Option<&str>) -> OpenAiBackend {
        OpenAiBackend::new(
            "llama3.1".into(),
            format!("{url}/"),
            key.map(str::to_string),
            Family::of_model("llama3.1"),
        )
    }

    fn ask(b: &OpenAiBackend, timeout: u64) -> Result<Answer, BackendError> {
        b.ask(&Request {
            prompt: "Review this: SECRET-PROMPT",
            cwd: None,
            timeout: Duration::from_secs(timeout),
            idle_timeout: Duration::from_secs(timeout),
            schema: None,
        })
    }

    /// A server that answers one request per entry of `replies`, in order, and hands back the
    /// request bodies.
    fn serve_each(replies: Vec<(u16, String)>) -> (String, mpsc::Receiver<Value>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for (status, body) in replies {
                let (stream, _) = listener.accept().unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut len = 0usize;
                loop {
                    let mut line = String::new();
                    reader.read_line(&mut line).unwrap();
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap();
                    }
                    if line == "\r\n" || line.is_empty() {
                        break;
                    }
                }
                let mut req = vec![0; len];
                reader.read_exact(&mut req).unwrap();
                tx.send(serde_json::from_slice(&req).unwrap()).unwrap();
                let mut stream = stream;
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        (url, rx)
    }

    fn ask_cr(b: &OpenAiBackend) -> Result<Answer, BackendError> {
        b.ask(&Request {
            prompt: "Review this",
            cwd: None,
            timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(10),
            schema: Some(Protocol::Cr),
        })
    }

    fn completion(content: &str) -> String {
        json!({"choices": [{"message": {"content": content}}]}).to_string()
    }

    const CONFORMING: &str = r#"{"verdict":"approve","summary":"fine","findings":[]}"#;

    #[test]
    fn the_schema_is_asked_as_response_format_and_its_object_read() {
        let (url, rx) = serve_each(vec![(200, completion(CONFORMING))]);
        let a = ask_cr(&backend(&url, None)).unwrap();
        assert_eq!(a.output.mode, "schema");
        assert_eq!(a.structured.unwrap()["verdict"], "approve");
        let body = rx.recv().unwrap();
        let rf = &body["response_format"];
        assert_eq!(rf["type"], "json_schema");
        assert_eq!(rf["json_schema"]["strict"], true);
        assert_eq!(rf["json_schema"]["name"], "git_debate_cr");
        assert!(rf["json_schema"]["schema"]["properties"]["findings"].is_object());
        assert!(rf["json_schema"]["schema"].get("$schema").is_none());
    }

    #[test]
    fn a_server_that_refuses_response_format_is_asked_again_without_it_and_not_again() {
        // llama.cpp and older Ollama builds answer 400 to an unknown response_format.
        let refusal =
            json!({"error": {"message": "response_format type json_schema is not supported"}})
                .to_string();
        let (url, rx) = serve_each(vec![
            (400, refusal),
            (200, completion("## P2\n- a finding")),
            (200, completion("second call")),
        ]);
        let b = backend(&url, None);
        let a = ask_cr(&b).unwrap();
        assert_eq!(a.output.mode, "prompt");
        assert!(a.output.fell_back);
        assert!(a
            .output
            .note
            .as_deref()
            .unwrap()
            .contains("refused response_format"));
        assert!(a.structured.is_none());
        assert!(rx.recv().unwrap().get("response_format").is_some());
        assert!(rx.recv().unwrap().get("response_format").is_none());
        // Remembered for this server: the next call does not ask again.
        let again = ask_cr(&b).unwrap();
        assert_eq!(again.text, "second call");
        assert!(rx.recv().unwrap().get("response_format").is_none());
    }

    #[test]
    fn a_server_that_ignores_response_format_is_read_as_text() {
        let (url, _rx) = serve_each(vec![(200, completion("LGTM, no findings."))]);
        let a = ask_cr(&backend(&url, None)).unwrap();
        assert_eq!(a.output.mode, "prompt");
        assert!(!a.output.fell_back);
        assert!(a.structured.is_none());
        assert_eq!(a.text, "LGTM, no findings.");
    }

    #[test]
    fn a_completion_with_usage_and_model() {
        let (url, rx) = serve(
            200,
            Some(
                json!({"model": "llama3.1:8b", "choices": [{"message": {"role": "assistant", "content": "Looks right."}}],
                    "usage": {"prompt_tokens": 12, "completion_tokens": 3, "prompt_tokens_details": {"cached_tokens": 2}}})
                .to_string(),
            ),
        );
        let a = ask(&backend(&url, Some("sk-test")), 10).unwrap();
        assert_eq!(a.text, "Looks right.");
        assert_eq!(a.model.as_deref(), Some("llama3.1:8b"));
        assert_eq!(a.usage.input_tokens, Some(12));
        assert_eq!(a.usage.output_tokens, Some(3));
        assert_eq!(a.usage.cached_input_tokens, Some(2));
        let (head, body) = rx.recv().unwrap();
        assert!(
            head.starts_with("POST /v1/chat/completions HTTP/1.1"),
            "{head}"
        );
        assert!(
            head.contains("authorization: Bearer sk-test")
                || head.contains("Authorization: Bearer sk-test"),
            "{head}"
        );
        assert!(!head.contains("SECRET-PROMPT"));
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["model"], "llama3.1");
        assert_eq!(body["stream"], false);
        assert_eq!(body["messages"][0]["content"], "Review this: SECRET-PROMPT");
    }

    #[test]
    fn no_key_no_authorization_header_and_content_parts_join() {
        let (url, rx) = serve(
            200,
            Some(json!({"choices": [{"message": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}}]}).to_string()),
        );
        let b = backend(&url, None);
        assert!(!b.describe().contains("OPENAI_API_KEY"));
        let a = ask(&b, 10).unwrap();
        assert_eq!(a.text, "ab");
        assert_eq!(a.model.as_deref(), Some("llama3.1"));
        let (head, _) = rx.recv().unwrap();
        assert!(
            !head.to_ascii_lowercase().contains("authorization"),
            "{head}"
        );
    }

    #[test]
    fn http_errors_are_classified_with_the_servers_message() {
        for (status, body, kind) in [
            (
                401,
                json!({"error": {"message": "Incorrect API key provided"}}),
                ErrorKind::NotAuthenticated,
            ),
            (
                429,
                json!({"error": {"message": "Rate limit reached"}}),
                ErrorKind::RateLimited,
            ),
            (
                500,
                json!({"error": {"message": "boom"}}),
                ErrorKind::ServerError,
            ),
            (
                404,
                json!({"error": "model 'llama3.1' not found"}),
                ErrorKind::NotInstalled,
            ),
        ] {
            let (url, _rx) = serve(status, Some(body.to_string()));
            let e = ask(&backend(&url, None), 10).unwrap_err();
            assert_eq!(e.kind, kind, "{status}: {e}");
            assert!(e.message.starts_with(&format!("HTTP {status}: ")), "{e}");
            assert!(e.to_string().starts_with("openai:llama3.1 failed"), "{e}");
        }
    }

    #[test]
    fn malformed_and_empty_responses() {
        let (url, _rx) = serve(200, Some("<html>oops SHOULD-NOT-LEAK</html>".into()));
        let e = ask(&backend(&url, None), 10).unwrap_err();
        assert_eq!(e.kind, ErrorKind::ParseError);
        assert!(!e.to_string().contains("SHOULD-NOT-LEAK"), "{e}");
        let (url, _rx) = serve(
            200,
            Some(json!({"choices": [{"message": {"content": ""}}]}).to_string()),
        );
        assert_eq!(
            ask(&backend(&url, None), 10).unwrap_err().kind,
            ErrorKind::EmptyAnswer
        );
    }

    #[test]
    fn a_silent_server_times_out() {
        let (url, _rx) = serve(200, None);
        let started = Instant::now();
        let e = ask(&backend(&url, None), 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Timeout, "{e}");
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn nothing_listening_is_not_installed_and_names_the_url() {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let url = format!("http://127.0.0.1:{port}/v1");
        let e = ask(&backend(&url, None), 5).unwrap_err();
        assert_eq!(e.kind, ErrorKind::NotInstalled, "{e}");
        assert!(e.to_string().contains(&url), "{e}");
    }

    #[test]
    fn a_huge_body_is_refused() {
        let huge = format!(
            "{{\"choices\": [{{\"message\": {{\"content\": \"{}\"}}}}]}}",
            "x".repeat(9 << 20)
        );
        let (url, _rx) = serve(200, Some(huge));
        let e = ask(&backend(&url, None), 20).unwrap_err();
        assert_eq!(e.kind, ErrorKind::ParseError, "{e}");
    }
}
