//! The recorded conversations of the real agents (`tests/fixtures/acp/<cli>.jsonl`, written by
//! `GIT_DEBATE_ACP_TRACE` during `tests/real_acp.rs`), replayed through [`Conversation`]: every
//! line we send must be the one recorded, in answer to the agent's recorded lines, and the
//! answer, model, usage and failure must come out as they did against the real agent.

use serde_json::Value;

use crate::agents::acp::session::{Conversation, Heard, Wanted};
use crate::agents::ErrorKind;
use crate::sys::runner::Talk as _;

const ANSWER: &str = "FAKE-ANSWER: No, add() subtracts; it should return a + b.";

fn lines(name: &str) -> Vec<(bool, String)> {
    let path = format!(
        "{}/tests/fixtures/acp/{name}.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["dir"] == "out", v["line"].as_str().unwrap().to_string())
        })
        .collect()
}

/// A line we sent, without what may change between builds (our version).
fn comparable(bytes: &[u8]) -> Vec<Value> {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut v: Value = serde_json::from_slice(l).unwrap();
            if let Some(info) = v.pointer_mut("/params/clientInfo") {
                info["version"] = Value::Null;
            }
            v
        })
        .collect()
}

/// Replays `name` and returns what the conversation heard.
fn replay(name: &str, model: Option<&str>, status_chunks: bool) -> Heard {
    let recorded = lines(name);
    let mut conv = Conversation::new(Wanted {
        prompt: "Review this change: add() returns a - b. Is it right?\n".into(),
        cwd: "/tmp/repo".into(),
        model: model.map(str::to_string),
        effort: None,
        status_chunks,
    });
    let mut sent = comparable(&conv.open());
    let mut expected = Vec::new();
    for (out, line) in &recorded {
        if *out {
            expected.extend(comparable(line.as_bytes()));
        } else {
            sent.extend(comparable(&conv.hear(line.as_bytes())));
        }
    }
    assert_eq!(sent.len(), expected.len(), "{name}: {sent:#?}");
    for (s, e) in sent.iter().zip(&expected) {
        assert_eq!(s, e, "{name}");
    }
    assert!(conv.done(), "{name}: the conversation did not end");
    let model = conv.settle_model();
    let mut heard = std::mem::take(&mut conv.heard);
    heard.model = model;
    heard
}

#[test]
fn the_real_agents_conversations_replay_exactly() {
    // (fixture, model asked for, model the record ends with, input tokens reported)
    let cases = [
        (
            "claude",
            Some("claude-sonnet-4-5"),
            Some("claude-sonnet-5-5"),
            Some(13213),
        ),
        ("codex", Some("gpt-5.5"), Some("gpt-5.5"), None),
        (
            "gemini",
            Some("gemini-2.5-pro"),
            Some("gemini-2.5-pro"),
            Some(11866),
        ),
        (
            "qwen",
            Some("qwen3-coder-plus"),
            Some("$runtime|openai|qwen3-coder-plus(openai)"),
            Some(20035),
        ),
        ("copilot", None, None, Some(12083)),
        (
            "opencode",
            Some("fakellm/fake-model"),
            Some("fakellm/fake-model"),
            Some(8045),
        ),
    ];
    for (name, asked, model, input) in cases {
        let heard = replay(name, asked, name == "copilot");
        assert!(heard.failure.is_none(), "{name}: {:?}", heard.failure);
        assert_eq!(heard.answer, ANSWER, "{name}");
        assert_eq!(heard.model.as_deref(), model, "{name}");
        assert_eq!(heard.usage.input_tokens, input, "{name}");
        assert!(heard.denied.is_empty(), "{name}: {:?}", heard.denied);
        assert!(heard.agent.is_some(), "{name}");
    }
}

#[test]
fn the_real_agents_401s_replay_as_authentication_failures() {
    for (name, asked, kind) in [
        (
            "claude",
            Some("claude-sonnet-4-5"),
            ErrorKind::NotAuthenticated,
        ),
        ("codex", Some("gpt-5.5"), ErrorKind::NotAuthenticated),
        (
            "gemini",
            Some("gemini-2.5-pro"),
            ErrorKind::NotAuthenticated,
        ),
        (
            "qwen",
            Some("qwen3-coder-plus"),
            ErrorKind::NotAuthenticated,
        ),
        // copilot says it in a message chunk and ends the turn normally.
        ("copilot", None, ErrorKind::NotAuthenticated),
        // opencode's error keeps the provider's words, not the status.
        (
            "opencode",
            Some("fakellm/fake-model"),
            ErrorKind::ServerError,
        ),
    ] {
        let heard = replay(&format!("{name}-401"), asked, name == "copilot");
        let failure = heard
            .failure
            .unwrap_or_else(|| panic!("{name}: no failure"));
        assert_eq!(failure.kind, kind, "{name}: {}", failure.message);
    }
}

#[test]
fn the_first_probes_show_why_models_are_matched_loosely() {
    // Our own recorder sent the configured names as they are: claude-agent-acp refuses a full
    // model id (its list is aliases), qwen a bare one (its list is `$runtime|openai|<m>(openai)`).
    for (name, refusal) in [
        (
            "claude-probe-full-model-id",
            "Invalid value for config option model",
        ),
        ("qwen-probe-bare-model", "not found for authType"),
    ] {
        let refused = lines(name)
            .into_iter()
            .any(|(out, l)| !out && l.contains("\"error\"") && l.contains(refusal));
        assert!(refused, "{name}");
    }
    let session_new = |name: &str| -> Value {
        let (_, l) = lines(name)
            .into_iter()
            .find(|(out, l)| !out && l.contains("\"sessionId\"") && l.contains("\"id\":1"))
            .unwrap();
        serde_json::from_str::<Value>(&l).unwrap()["result"].clone()
    };
    use crate::agents::acp::options::{model_plan, ModelPlan, Setting};
    assert_eq!(
        model_plan(
            &session_new("claude-probe-full-model-id"),
            "claude-sonnet-4-5"
        ),
        ModelPlan::Set {
            setting: Setting::Config {
                id: "model".into(),
                value: "sonnet".into()
            },
            alias: true
        }
    );
    assert_eq!(
        model_plan(&session_new("qwen-probe-bare-model"), "qwen3-coder-plus"),
        ModelPlan::Set {
            setting: Setting::Config {
                id: "model".into(),
                value: "$runtime|openai|qwen3-coder-plus(openai)".into()
            },
            alias: false
        }
    );
}
