//! What the agent may do: its requests to us, answered so that a review stays read-only.
//!
//! A `session/request_permission` for a tool call that only reads (`read`, `search`, `think`) is
//! allowed once; any other kind (edit, delete, move, execute, fetch, switch_mode, other, or none)
//! is rejected with the agent's own reject option, or cancelled when it offers none. Every other
//! method (`fs/write_text_file`, `terminal/create`, ...) is "method not found": we advertised no
//! file system and no terminal. Each refusal is returned in words for the record.

use serde_json::{json, Value};

use crate::agents::acp::wire;

/// Tool-call kinds a read-only reviewer may be allowed.
pub const READ_KINDS: &[&str] = &["read", "search", "think"];

/// Our reply to the agent's request, and what we refused it (`None` when allowed).
pub fn answer(id: &Value, method: &str, params: &Value) -> (Vec<u8>, Option<String>) {
    if method != "session/request_permission" {
        return (
            wire::error(id, wire::METHOD_NOT_FOUND, "not offered by this client"),
            Some(format!("refused the agent's {method} request")),
        );
    }
    let call = params.get("toolCall").cloned().unwrap_or(Value::Null);
    let kind = call.get("kind").and_then(Value::as_str).unwrap_or("other");
    let title = call.get("title").and_then(Value::as_str).unwrap_or("");
    let options: Vec<(&str, &str)> = params
        .get("options")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|o| {
            Some((
                o.get("optionId").and_then(Value::as_str)?,
                o.get("kind").and_then(Value::as_str).unwrap_or(""),
            ))
        })
        .collect();
    let find = |k: &str| options.iter().find(|(_, ok)| *ok == k).map(|(id, _)| *id);
    if let Some(allow) = find("allow_once").filter(|_| READ_KINDS.contains(&kind)) {
        let outcome = json!({"outcome": {"outcome": "selected", "optionId": allow}});
        return (wire::result(id, outcome), None);
    }
    let outcome = match find("reject_once").or_else(|| find("reject_always")) {
        Some(reject) => json!({"outcome": "selected", "optionId": reject}),
        None => json!({"outcome": "cancelled"}),
    };
    (
        wire::result(id, json!({ "outcome": outcome })),
        Some(format!(
            "refused permission for a {kind} tool call: {title}"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(kind: Option<&str>, options: Value) -> (Value, Option<String>) {
        let mut call = json!({"toolCallId": "c1", "title": "Edit lib.rs"});
        if let Some(k) = kind {
            call["kind"] = json!(k);
        }
        let (bytes, refused) = answer(
            &json!(7),
            "session/request_permission",
            &json!({"sessionId": "s", "toolCall": call, "options": options}),
        );
        (serde_json::from_slice(&bytes).unwrap(), refused)
    }

    fn all_options() -> Value {
        json!([
            {"optionId": "yes-always", "kind": "allow_always"},
            {"optionId": "yes", "kind": "allow_once"},
            {"optionId": "no", "kind": "reject_once"}
        ])
    }

    #[test]
    fn reads_are_allowed_once_and_never_always() {
        for kind in READ_KINDS {
            let (v, refused) = reply(Some(kind), all_options());
            assert_eq!(v["id"], 7);
            assert_eq!(v["result"]["outcome"]["optionId"], "yes", "{kind}");
            assert!(refused.is_none());
        }
    }

    #[test]
    fn everything_else_is_rejected_and_said() {
        for kind in [
            Some("edit"),
            Some("delete"),
            Some("move"),
            Some("execute"),
            Some("fetch"),
            Some("switch_mode"),
            Some("other"),
            None,
        ] {
            let (v, refused) = reply(kind, all_options());
            assert_eq!(
                v["result"]["outcome"],
                json!({"outcome": "selected", "optionId": "no"}),
                "{kind:?}"
            );
            let said = refused.unwrap();
            assert!(
                said.contains(kind.unwrap_or("other")) && said.contains("Edit lib.rs"),
                "{said}"
            );
        }
        // With only allow options, or a read the agent offers no allow_once for: cancelled.
        let (v, _) = reply(
            Some("edit"),
            json!([{"optionId": "y", "kind": "allow_once"}]),
        );
        assert_eq!(v["result"]["outcome"], json!({"outcome": "cancelled"}));
        let (v, refused) = reply(
            Some("read"),
            json!([{"optionId": "y", "kind": "allow_always"}]),
        );
        assert_eq!(v["result"]["outcome"], json!({"outcome": "cancelled"}));
        assert!(refused.is_some());
        // An always-reject is used when there is no reject-once.
        let (v, _) = reply(
            Some("edit"),
            json!([{"optionId": "never", "kind": "reject_always"}]),
        );
        assert_eq!(v["result"]["outcome"]["optionId"], "never");
    }

    #[test]
    fn client_methods_are_not_offered() {
        for method in ["fs/write_text_file", "fs/read_text_file", "terminal/create"] {
            let (bytes, refused) = answer(&json!("r1"), method, &json!({}));
            let v: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(v["id"], "r1");
            assert_eq!(v["error"]["code"], wire::METHOD_NOT_FOUND);
            assert!(refused.unwrap().contains(method));
        }
    }
}
