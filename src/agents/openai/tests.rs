//! The OpenAI-compatible backend against one-shot local HTTP servers: answers, usage, errors,
//! timeouts, and `response_format` asked, refused and ignored.

use super::*;
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpListener;
use std::sync::mpsc;

/// A one-shot HTTP server: answers the first request with `status` and `body` (or never, with
/// `None`), and hands back the request it got (head and body).
fn serve(status: u16, body: Option<String>) -> (String, mpsc::Receiver<(String, String)>) {
    serve_with(vec![(status, body)])
}

/// A server that answers one request per entry of `replies`, in order, and hands back the
/// request bodies.
fn serve_each(replies: Vec<(u16, String)>) -> (String, mpsc::Receiver<Value>) {
    let (url, raw) = serve_with(replies.into_iter().map(|(s, b)| (s, Some(b))).collect());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for (_, body) in raw {
            if tx.send(serde_json::from_str(&body).unwrap()).is_err() {
                return;
            }
        }
    });
    (url, rx)
}

/// Answers one request per reply (a `None` reply never answers), handing back each request's
/// head and body.
fn serve_with(replies: Vec<(u16, Option<String>)>) -> (String, mpsc::Receiver<(String, String)>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for (status, body) in replies {
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
            let _ = tx.send((head, String::from_utf8(req_body).unwrap()));
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
        }
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
        sandbox: Default::default(),
    })
}

fn ask_cr(b: &OpenAiBackend) -> Result<Answer, BackendError> {
    b.ask(&Request {
        prompt: "Review this",
        cwd: None,
        timeout: Duration::from_secs(10),
        idle_timeout: Duration::from_secs(10),
        schema: Some(Protocol::Cr),
        sandbox: Default::default(),
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
fn a_400_for_another_reason_is_not_a_refusal_of_the_schema() {
    let too_long =
        json!({"error": {"message": "maximum context length is 8192 tokens"}}).to_string();
    let (url, rx) = serve_each(vec![(400, too_long), (200, completion(CONFORMING))]);
    let b = backend(&url, None);
    assert!(ask_cr(&b).is_err());
    assert!(rx.recv().unwrap().get("response_format").is_some());
    // Not remembered as a refusal: the next call still asks for the schema.
    let a = ask_cr(&b).unwrap();
    assert_eq!(a.output.mode, "schema");
    assert!(rx.recv().unwrap().get("response_format").is_some());
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
