//! The requests of a conversation, in order: `initialize`, `session/new`, the settings, the prompt.

use serde_json::{json, Value};

use crate::agents::acp::options::Setting;

/// The protocol version we speak.
pub const PROTOCOL_VERSION: u64 = 1;

/// One request of ours.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    Initialize,
    NewSession,
    ReadOnly(Setting),
    /// `alias`: the agent offers only a short name for the model asked for.
    Model {
        setting: Setting,
        alias: bool,
    },
    Effort(Setting),
    Prompt,
}

impl Step {
    /// Its method and parameters, in session `sid`, for a session in `cwd` that asks `prompt`.
    pub fn request(&self, sid: &str, cwd: &str, prompt: &str) -> (&'static str, Value) {
        match self {
            Step::Initialize => (
                "initialize",
                json!({
                    "protocolVersion": PROTOCOL_VERSION,
                    // Nothing is offered: the agent reads files with its own (read-only) tools,
                    // and has no way to ask us to write one or run a command.
                    "clientCapabilities": {
                        "fs": {"readTextFile": false, "writeTextFile": false},
                        "terminal": false
                    },
                    "clientInfo": {"name": "git-debate", "version": env!("CARGO_PKG_VERSION")}
                }),
            ),
            Step::NewSession => ("session/new", json!({"cwd": cwd, "mcpServers": []})),
            Step::ReadOnly(s) | Step::Model { setting: s, .. } | Step::Effort(s) => match s {
                Setting::Config { id, value } => (
                    "session/set_config_option",
                    json!({"sessionId": sid, "configId": id, "value": value}),
                ),
                Setting::Mode(m) => ("session/set_mode", json!({"sessionId": sid, "modeId": m})),
                Setting::Model(m) => ("session/set_model", json!({"sessionId": sid, "modelId": m})),
            },
            Step::Prompt => (
                "session/prompt",
                json!({"sessionId": sid, "prompt": [{"type": "text", "text": prompt}]}),
            ),
        }
    }
}
