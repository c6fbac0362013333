//! JSON-RPC 2.0 as ACP frames it: one JSON object per line on the agent's stdin and stdout.
//!
//! The agent is untrusted output like any model CLI: a line that is not a JSON-RPC message is
//! classified as [`Incoming::Malformed`] (with a short description, never its text) rather than
//! an error, so the conversation decides what such a line costs.

use serde_json::{json, Value};

/// An error object of a response.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    /// `data`, when it is or holds text (`data.details` in qwen's errors).
    pub detail: Option<String>,
}

impl RpcError {
    /// The message and its details, as one line for classification.
    pub fn text(&self) -> String {
        match &self.detail {
            Some(d) if !d.is_empty() => format!("{}: {d}", self.message),
            _ => self.message.clone(),
        }
    }
}

/// One line from the agent.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// The answer to our request `id`.
    Response {
        id: u64,
        result: Result<Value, RpcError>,
    },
    /// The agent asks us something (`session/request_permission`, `fs/write_text_file`, ...).
    Request {
        id: Value,
        method: String,
        params: Value,
    },
    /// `session/update` and other notifications.
    Notification { method: String, params: Value },
    /// Not JSON, or JSON that is no JSON-RPC message.
    Malformed(&'static str),
}

/// Reads one line.
pub fn parse(line: &[u8]) -> Incoming {
    let Ok(v) = serde_json::from_slice::<Value>(line) else {
        return Incoming::Malformed("not JSON");
    };
    let Some(o) = v.as_object() else {
        return Incoming::Malformed("not a JSON object");
    };
    let method = o.get("method").and_then(Value::as_str).map(str::to_string);
    let params = o.get("params").cloned().unwrap_or(Value::Null);
    match (method, o.get("id")) {
        (Some(method), Some(id)) if !id.is_null() => Incoming::Request {
            id: id.clone(),
            method,
            params,
        },
        (Some(method), _) => Incoming::Notification { method, params },
        (None, Some(id)) => {
            let Some(id) = id.as_u64() else {
                return Incoming::Malformed("a response with an id we never sent");
            };
            let result = match (o.get("result"), o.get("error")) {
                (_, Some(e)) if !e.is_null() => Err(error_of(e)),
                (Some(r), _) => Ok(r.clone()),
                _ => return Incoming::Malformed("a response with neither result nor error"),
            };
            Incoming::Response { id, result }
        }
        (None, None) => Incoming::Malformed("neither a request, a notification nor a response"),
    }
}

fn error_of(e: &Value) -> RpcError {
    let data = e.get("data");
    let detail = data
        .and_then(|d| {
            d.as_str()
                .map(str::to_string)
                .or_else(|| d.get("details").and_then(Value::as_str).map(str::to_string))
                .or_else(|| d.get("message").and_then(Value::as_str).map(str::to_string))
        })
        .filter(|d| !d.is_empty());
    RpcError {
        code: e.get("code").and_then(Value::as_i64).unwrap_or(0),
        message: e
            .get("message")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string(),
        detail,
    }
}

fn line(v: Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec(&v).expect("a JSON value serialises");
    bytes.push(b'\n');
    bytes
}

/// Our request `id`.
pub fn request(id: u64, method: &str, params: Value) -> Vec<u8> {
    line(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
}

/// A notification (no answer expected): `session/cancel`.
pub fn notification(method: &str, params: Value) -> Vec<u8> {
    line(json!({"jsonrpc": "2.0", "method": method, "params": params}))
}

/// Our answer to the agent's request `id`.
pub fn result(id: &Value, result: Value) -> Vec<u8> {
    line(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

/// Our refusal of the agent's request `id`.
pub fn error(id: &Value, code: i64, message: &str) -> Vec<u8> {
    line(json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}))
}

/// JSON-RPC's "method not found".
pub const METHOD_NOT_FOUND: i64 = -32601;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_told_apart() {
        assert_eq!(
            parse(br#"{"jsonrpc":"2.0","id":3,"result":{"stopReason":"end_turn"}}"#),
            Incoming::Response {
                id: 3,
                result: Ok(json!({"stopReason": "end_turn"}))
            }
        );
        // qwen's error, recorded: the reason is in data.details.
        let Incoming::Response { result: Err(e), .. } = parse(
            br#"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"Internal error","data":{"details":"Model 'x' not found"}}}"#,
        ) else {
            panic!("an error response")
        };
        assert_eq!(e.text(), "Internal error: Model 'x' not found");
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","id":"p1","method":"session/request_permission","params":{}}"#),
            Incoming::Request { method, .. } if method == "session/request_permission"
        ));
        assert!(matches!(
            parse(br#"{"jsonrpc":"2.0","method":"session/update","params":{"update":{}}}"#),
            Incoming::Notification { .. }
        ));
        for bad in [
            &b"Loading..."[..],
            b"[1,2]",
            b"{\"jsonrpc\":\"2.0\",\"id\":1}",
            b"{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{}}",
            b"{}",
        ] {
            assert!(
                matches!(parse(bad), Incoming::Malformed(_)),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn what_we_send_is_one_line_each() {
        let r = request(0, "initialize", json!({"protocolVersion": 1}));
        assert_eq!(r.iter().filter(|&&b| b == b'\n').count(), 1);
        assert!(r.ends_with(b"\n"));
        let v: Value = serde_json::from_slice(&r).unwrap();
        assert_eq!(v["method"], "initialize");
        assert_eq!(v["jsonrpc"], "2.0");
        let e: Value = serde_json::from_slice(&error(&json!("a"), METHOD_NOT_FOUND, "no")).unwrap();
        assert_eq!(e["id"], "a");
        assert_eq!(e["error"]["code"], -32601);
    }
}
