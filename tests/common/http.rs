//! A fake HTTP server on 127.0.0.1 for the tests that talk to a web service (a release download,
//! a code host's API): it records every request and answers with what the test's handler says,
//! so no test reaches the network.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// One request as the server read it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// The path with its query.
    pub path: String,
    /// Header names in lower case.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

/// What the handler answers: a status, a content type and a body.
pub type Answer = (u16, &'static str, Vec<u8>);

pub struct FakeHttp {
    /// `http://127.0.0.1:<port>`, no trailing slash.
    pub url: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl FakeHttp {
    /// Serves every connection on a thread of its own until the test process ends.
    pub fn start(handler: impl Fn(&Request) -> Answer + Send + Sync + 'static) -> FakeHttp {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let seen = requests.clone();
        let handler = Arc::new(handler);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let seen = seen.clone();
                let handler = handler.clone();
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut line = String::new();
                    if reader.read_line(&mut line).is_err() || line.is_empty() {
                        return;
                    }
                    let mut parts = line.split_whitespace();
                    let method = parts.next().unwrap_or("").to_string();
                    let path = parts.next().unwrap_or("").to_string();
                    let mut headers = Vec::new();
                    loop {
                        let mut h = String::new();
                        if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
                            break;
                        }
                        if let Some((k, v)) = h.split_once(':') {
                            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
                        }
                    }
                    let len = headers
                        .iter()
                        .find(|(k, _)| k == "content-length")
                        .and_then(|(_, v)| v.parse::<usize>().ok())
                        .unwrap_or(0);
                    let mut body = vec![0; len];
                    let _ = reader.read_exact(&mut body);
                    let request = Request {
                        method,
                        path,
                        headers,
                        body,
                    };
                    let (status, kind, answer) = handler(&request);
                    seen.lock().unwrap().push(request);
                    let mut stream = stream;
                    let _ = write!(
                        stream,
                        "HTTP/1.1 {status} {}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                        if status < 400 { "OK" } else { "Error" },
                        answer.len()
                    );
                    let _ = stream.write_all(&answer);
                });
            }
        });
        FakeHttp { url, requests }
    }

    /// Every request so far, in the order they were answered.
    pub fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }
}
