//! Each agent's transcript format, read into [`Event`]s: what the user said, what the agent
//! showed, and where tools ran. Thinking, token counts, settings and telemetry are left out.
//!
//! The shapes below were recorded from the real CLIs (`tests/fixtures/transcripts/`). Every
//! reader skips lines it cannot parse and records it does not know, so a newer CLI that adds
//! record types still reads, and a damaged line costs only itself.

use serde_json::Value;

use crate::transcript::Event;

/// How an agent writes its transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// JSON lines: `type` user/assistant, `message.content` a string or blocks (`text`,
    /// `thinking`, `tool_use`, `tool_result`); one API message may span several lines with the
    /// same `message.id`.
    Claude,
    /// JSON lines: `type: response_item` whose `payload` is a `message` (role user, developer or
    /// assistant; `output_text` parts), a `function_call`, its `function_call_output`, or
    /// `reasoning`. Older files have the items without the envelope.
    Codex,
    /// JSON lines: a header, messages (`type` user/gemini/info/error, `content`, `toolCalls`),
    /// and `{"$set": …}` updates; a message is rewritten under the same `id` when its tool
    /// calls finish, and `$set.messages` replaces the whole list.
    Gemini,
    /// JSON lines: `type` user/assistant/tool_result/system, `message.parts` in Gemini's shape
    /// (`text`, `thought`, `functionCall`, `functionResponse`).
    Qwen,
    /// JSON lines of events: `user.message`, `assistant.message` (`content`, `toolRequests`),
    /// `tool.execution_*`, and session bookkeeping.
    Copilot,
    /// One JSON document, as `opencode export` prints it: `messages[]` of `{info: {role, id},
    /// parts: [{type: text|tool|reasoning|step-start|…}]}`.
    OpencodeExport,
}

/// What a transcript held.
#[derive(Debug, Default)]
pub struct Parsed {
    pub events: Vec<Event>,
    /// Lines (or documents) that parsed as JSON objects.
    pub records: usize,
    /// Lines that did not.
    pub unreadable: usize,
}

impl Format {
    /// Whether the agent records a message before the tool calls it makes: while it runs us,
    /// its newest message then looks like a finished answer though its turn is still open.
    /// Gemini rewrites the message with its calls only once they finish. The others show the
    /// pending call (claude, codex, opencode), have not yet written the message (qwen), or have
    /// not yet written the turn at all (copilot writes its events file lazily, so the file may
    /// end at the previous turn: treating that turn as open would skip the right answer).
    pub fn writes_calls_late(self) -> bool {
        self == Format::Gemini
    }

    pub fn events(self, text: &str) -> Parsed {
        match self {
            Format::OpencodeExport => opencode(text),
            Format::Gemini => gemini(text),
            _ => lines(text, |v, out| match self {
                Format::Claude => claude(v, out),
                Format::Codex => codex(v, out),
                Format::Qwen => qwen(v, out),
                _ => copilot(v, out),
            }),
        }
    }
}

/// Each non-empty line as a JSON object, handed to `read`.
fn lines(text: &str, mut read: impl FnMut(&Value, &mut Vec<Event>)) -> Parsed {
    let mut p = Parsed::default();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<Value>(line) {
            Ok(v) if v.is_object() => {
                p.records += 1;
                read(&v, &mut p.events);
            }
            _ => p.unreadable += 1,
        }
    }
    p
}

fn str_of<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn text_event(id: &str, text: &str) -> Event {
    Event::Text {
        id: id.to_string(),
        text: text.to_string(),
    }
}

fn claude(v: &Value, out: &mut Vec<Event>) {
    // Side chains are a subagent's own conversation; meta lines are injected context; API
    // errors are shown as synthetic assistant text that no model wrote.
    let flag = |k: &str| v.get(k).and_then(Value::as_bool).unwrap_or(false);
    if flag("isSidechain") || flag("isMeta") || flag("isApiErrorMessage") {
        return;
    }
    let msg = &v["message"];
    let id = match str_of(msg, "id") {
        "" => str_of(v, "uuid"),
        id => id,
    };
    match (str_of(v, "type"), &msg["content"]) {
        ("user", Value::String(_)) => out.push(Event::Prompt),
        ("user", Value::Array(blocks)) => {
            let tool = blocks.iter().any(|b| str_of(b, "type") == "tool_result");
            out.push(if tool { Event::Tool } else { Event::Prompt });
        }
        ("assistant", Value::Array(blocks)) => {
            for b in blocks {
                match str_of(b, "type") {
                    "text" => out.push(text_event(id, str_of(b, "text"))),
                    "tool_use" | "server_tool_use" => out.push(Event::Tool),
                    _ => {}
                }
            }
        }
        ("assistant", Value::String(s)) => out.push(text_event(id, s)),
        _ => {}
    }
}

fn codex(v: &Value, out: &mut Vec<Event>) {
    let item = match (str_of(v, "type"), v.get("payload")) {
        // Before 0.148 the user's words were only an event, not an item.
        ("event_msg", Some(p)) if str_of(p, "type") == "user_message" => {
            out.push(Event::Prompt);
            return;
        }
        ("response_item", Some(p)) => p,
        // Older rollouts wrote the items bare.
        ("message" | "function_call" | "function_call_output", _) => v,
        _ => return,
    };
    match str_of(item, "type") {
        "message" => match str_of(item, "role") {
            "user" => out.push(Event::Prompt),
            "assistant" => {
                let id = str_of(item, "id");
                for part in item["content"].as_array().into_iter().flatten() {
                    if str_of(part, "type") == "output_text" {
                        out.push(text_event(id, str_of(part, "text")));
                    }
                }
            }
            _ => {}
        },
        "reasoning" => {}
        // Every call and every output: function, custom and shell calls, web searches.
        t if t.ends_with("_call") || t.ends_with("_output") => out.push(Event::Tool),
        _ => {}
    }
}

fn qwen(v: &Value, out: &mut Vec<Event>) {
    let parts = v["message"]["parts"].as_array();
    match str_of(v, "type") {
        "user" => {
            let tool = parts
                .into_iter()
                .flatten()
                .any(|p| p.get("functionResponse").is_some());
            out.push(if tool { Event::Tool } else { Event::Prompt });
        }
        "tool_result" => out.push(Event::Tool),
        "assistant" => {
            let id = str_of(v, "uuid");
            for p in parts.into_iter().flatten() {
                if p.get("functionCall").is_some() {
                    out.push(Event::Tool);
                } else if !p.get("thought").and_then(Value::as_bool).unwrap_or(false) {
                    if let Some(t) = p.get("text").and_then(Value::as_str) {
                        out.push(text_event(id, t));
                    }
                }
            }
        }
        _ => {}
    }
}

fn copilot(v: &Value, out: &mut Vec<Event>) {
    let data = &v["data"];
    match str_of(v, "type") {
        "user.message" => out.push(Event::Prompt),
        "assistant.message" => {
            out.push(text_event(
                str_of(data, "messageId"),
                str_of(data, "content"),
            ));
            if data["toolRequests"]
                .as_array()
                .is_some_and(|t| !t.is_empty())
            {
                out.push(Event::Tool);
            }
        }
        t if t.starts_with("tool.") => out.push(Event::Tool),
        _ => {}
    }
}

/// Gemini rewrites: a message is recorded again under its id as it changes, and `$set.messages`
/// replaces the list; so the list is rebuilt first and read afterwards.
fn gemini(text: &str) -> Parsed {
    let mut messages: Vec<Value> = Vec::new();
    let mut p = lines(text, |v, _| {
        if let Some(list) = v.get("$set").and_then(|s| s.get("messages")) {
            messages = list.as_array().cloned().unwrap_or_default();
        } else if v.get("type").is_some() {
            let id = str_of(v, "id");
            match messages
                .iter_mut()
                .find(|m| !id.is_empty() && str_of(m, "id") == id)
            {
                Some(m) => *m = v.clone(),
                None => messages.push(v.clone()),
            }
        }
    });
    for m in &messages {
        let content = &m["content"];
        match str_of(m, "type") {
            "user" => {
                let tool = content
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|p| p.get("functionResponse").is_some());
                p.events
                    .push(if tool { Event::Tool } else { Event::Prompt });
            }
            "gemini" => {
                let id = str_of(m, "id");
                match content {
                    Value::String(s) => p.events.push(text_event(id, s)),
                    Value::Array(parts) => {
                        for part in parts {
                            if let Some(t) = part.get("text").and_then(Value::as_str) {
                                p.events.push(text_event(id, t));
                            }
                        }
                    }
                    _ => {}
                }
                if m["toolCalls"].as_array().is_some_and(|t| !t.is_empty()) {
                    p.events.push(Event::Tool);
                }
            }
            _ => {}
        }
    }
    p
}

fn opencode(text: &str) -> Parsed {
    let mut p = Parsed::default();
    let Ok(doc) = serde_json::from_str::<Value>(text.trim()) else {
        p.unreadable = 1;
        return p;
    };
    let Some(messages) = doc["messages"].as_array() else {
        return p;
    };
    p.records = 1;
    for m in messages {
        let info = &m["info"];
        let parts = m["parts"].as_array().into_iter().flatten();
        match str_of(info, "role") {
            "user" => p.events.push(Event::Prompt),
            "assistant" => {
                let id = str_of(info, "id");
                for part in parts {
                    match str_of(part, "type") {
                        // Synthetic text is opencode's own note, not the model's words.
                        "text" if !part["synthetic"].as_bool().unwrap_or(false) => {
                            p.events.push(text_event(id, str_of(part, "text")));
                        }
                        "tool" => p.events.push(Event::Tool),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    p
}
