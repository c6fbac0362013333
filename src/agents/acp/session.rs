//! One ACP conversation, as the runner's [`Talk`]: `initialize`, `session/new`, the session
//! settings (read-only mode, model, effort), `session/prompt`, and everything the agent sends
//! meanwhile.
//!
//! The agent may ask for permissions and client methods at any time: a tool call that only reads
//! (`read`, `search`, `think`) is allowed once; everything else (edit, delete, move, execute,
//! fetch, other) is rejected and written down, and so is any client method (we advertise no file
//! system and no terminal). Text of `agent_message_chunk` updates is the answer; usage and the
//! model that answered are taken wherever the agent reports them ([`crate::agents::acp::options`]).

use std::collections::VecDeque;

use serde_json::Value;

use crate::agents::acp::options::{self, ModelPlan, ReadOnly, Setting};
use crate::agents::acp::permissions;
use crate::agents::acp::steps::Step;
use crate::agents::acp::wire::{self, Incoming, RpcError};
use crate::agents::{ErrorKind, Failure, Usage};
use crate::choices::Effort;
use crate::sys::runner::Talk;

/// An answer longer than this is cut off by a runaway agent, not a review.
pub const MAX_ANSWER: usize = 8 << 20;

/// ACP's "authentication required" error code.
const AUTH_REQUIRED: i64 = -32000;

/// What the caller wants of the session.
#[derive(Debug, Clone, Default)]
pub struct Wanted {
    pub prompt: String,
    pub cwd: String,
    pub model: Option<String>,
    pub effort: Option<Effort>,
    /// The agent reports its own state in message chunks (copilot: "Info: ... Retrying...",
    /// "Error: Authentication failed ... (HTTP 401)" and then `end_turn`, recorded): such chunks
    /// are not the answer, and an error one fails the call.
    pub status_chunks: bool,
}

/// What the conversation established, read once it is over.
#[derive(Debug, Default)]
pub struct Heard {
    pub answer: String,
    pub usage: Usage,
    /// The model the agent says answered (its reports, or the value it echoed when set).
    pub model: Option<String>,
    /// The agent's `name version`, from `initialize`.
    pub agent: Option<String>,
    pub stop_reason: Option<String>,
    /// What we refused it (permissions, client methods), one line each, sanitised.
    pub denied: Vec<String>,
    /// What the record should say about the session (model not confirmable, no read-only mode).
    pub notes: Vec<String>,
    pub malformed: u64,
    pub notifications: u64,
    pub failure: Option<Failure>,
    /// `session/prompt` returned.
    pub finished: bool,
}

/// The conversation.
pub struct Conversation {
    wanted: Wanted,
    next_id: u64,
    pending: Option<(u64, Step)>,
    queue: VecDeque<Step>,
    session: Option<String>,
    /// The model value we set, to compare with what the agent reports.
    model_set: Option<String>,
    /// Message text without a `messageId`. Where the model's chunks carry one (claude-agent-acp,
    /// opencode), such text is the agent's own notice, not the answer: claude-agent-acp 0.101
    /// appends a billing "**Warning:** ..." that way (recorded).
    untagged: String,
    tagged: bool,
    pub heard: Heard,
}

impl Conversation {
    pub fn new(wanted: Wanted) -> Conversation {
        Conversation {
            wanted,
            next_id: 0,
            pending: None,
            queue: VecDeque::from([Step::Initialize, Step::NewSession]),
            session: None,
            model_set: None,
            untagged: String::new(),
            tagged: false,
            heard: Heard::default(),
        }
    }

    /// Ends the conversation with `failure`. A turn in progress is cancelled (`session/cancel`)
    /// before the agent's input is closed and it is stopped.
    fn fail(&mut self, failure: Failure) -> Vec<u8> {
        if self.heard.failure.is_some() {
            return Vec::new();
        }
        self.heard.failure = Some(failure);
        match (&self.session, self.prompting()) {
            (Some(sid), true) => {
                wire::notification("session/cancel", serde_json::json!({ "sessionId": sid }))
            }
            _ => Vec::new(),
        }
    }

    /// Sends the next queued request.
    fn next(&mut self) -> Vec<u8> {
        let Some(step) = self.queue.pop_front() else {
            return Vec::new();
        };
        let sid = self.session.clone().unwrap_or_default();
        let (method, params) = step.request(&sid, &self.wanted.cwd, &self.wanted.prompt);
        let id = self.next_id;
        self.next_id += 1;
        self.pending = Some((id, step));
        wire::request(id, method, params)
    }

    /// Plans the settings from the `session/new` result.
    fn plan(&mut self, result: &Value) -> Result<(), Failure> {
        match options::read_only_mode(result) {
            ReadOnly::Switch(s) => self.queue.push_back(Step::ReadOnly(s)),
            ReadOnly::Already => {}
            ReadOnly::Unavailable => self.heard.notes.push(
                "the agent offers no read-only mode: only permissions to read are granted".into(),
            ),
        }
        if let Some(model) = self.wanted.model.clone() {
            match options::model_plan(result, &model) {
                ModelPlan::Set { setting, alias } => {
                    self.queue.push_back(Step::Model { setting, alias });
                }
                ModelPlan::NotOffered(offered) => {
                    return Err(Failure::new(
                        ErrorKind::Exited(1),
                        format!(
                            "the agent does not offer model {model:?} (it offers: {})",
                            offered.join(", ")
                        ),
                    ))
                }
                ModelPlan::NoSelection => self.heard.notes.push(format!(
                    "model {model} was asked for, but the agent offers no model selection over \
                     ACP: it answers with its own model"
                )),
            }
        }
        if let Some(effort) = self.wanted.effort {
            match options::effort_setting(result, effort) {
                Some(s) => self.queue.push_back(Step::Effort(s)),
                None => self.heard.notes.push(format!(
                    "effort {} was asked for, but the agent offers no reasoning-effort setting",
                    effort.name()
                )),
            }
        }
        self.queue.push_back(Step::Prompt);
        Ok(())
    }

    fn on_response(&mut self, id: u64, result: Result<Value, RpcError>) -> Vec<u8> {
        let Some((want, step)) = self.pending.take() else {
            return self.note_malformed();
        };
        if want != id {
            self.pending = Some((want, step));
            return self.note_malformed();
        }
        let result = match result {
            Ok(r) => r,
            Err(e) => return self.refused(&step, &e),
        };
        match step {
            Step::Initialize => {
                let info = result.get("agentInfo");
                let s = |k| info.and_then(|i| i.get(k)).and_then(Value::as_str);
                if let Some(name) = s("name") {
                    self.heard.agent = Some(
                        format!("{name} {}", s("version").unwrap_or(""))
                            .trim()
                            .into(),
                    );
                }
            }
            Step::NewSession => {
                let Some(sid) = result.get("sessionId").and_then(Value::as_str) else {
                    return self.fail(Failure::parse("acp-session-without-id", None));
                };
                self.session = Some(sid.to_string());
                if let Err(f) = self.plan(&result) {
                    return self.fail(f);
                }
            }
            Step::ReadOnly(_) | Step::Effort(_) => {}
            Step::Model { setting, alias } => {
                let value = match &setting {
                    Setting::Config { id, value } => {
                        // The agent echoes its options: the value it now has is the proof.
                        if let Some(now) = options::current_value(&result, id) {
                            if &now != value {
                                return self.fail(Failure::new(
                                    ErrorKind::Exited(1),
                                    format!(
                                        "the agent kept model {now:?} when asked for {value:?}"
                                    ),
                                ));
                            }
                            self.heard.model = Some(now);
                        }
                        value.clone()
                    }
                    Setting::Model(m) | Setting::Mode(m) => m.clone(),
                };
                if alias {
                    let wanted = self.wanted.model.as_deref().unwrap_or_default();
                    self.heard.notes.push(format!(
                        "model {wanted} was asked for; the agent offers aliases only and was set \
                         to {value:?}"
                    ));
                }
                self.model_set = Some(value);
            }
            Step::Prompt => {
                self.heard.finished = true;
                let untagged = std::mem::take(&mut self.untagged);
                if !self.tagged {
                    self.heard.answer = untagged;
                } else if !untagged.trim().is_empty() {
                    self.heard.notes.push(format!(
                        "{} characters the agent sent outside the model's messages (its own \
                         notices) were left out of the answer",
                        untagged.chars().count()
                    ));
                }
                self.heard.stop_reason = result
                    .get("stopReason")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                if let Some(u) = options::prompt_usage(&result) {
                    let cost = self.heard.usage.cost_usd;
                    self.heard.usage = Usage {
                        cost_usd: cost,
                        ..u
                    };
                }
                if let Some(m) = options::prompt_model(&result) {
                    self.heard.model = Some(m);
                }
                return Vec::new();
            }
        }
        self.next()
    }

    /// The agent answered a request of ours with an error.
    fn refused(&mut self, step: &Step, e: &RpcError) -> Vec<u8> {
        let what = match step {
            Step::Initialize => "initialize",
            Step::NewSession => "session/new",
            Step::ReadOnly(_) => "switching to read-only mode",
            Step::Model { .. } => "setting the model",
            Step::Effort(_) => "setting the reasoning effort",
            Step::Prompt => "the prompt",
        };
        if matches!(step, Step::Effort(_)) {
            // A refused effort does not make the answer wrong: say so and go on.
            self.heard.notes.push(format!(
                "the agent refused the reasoning effort: {}",
                e.text()
            ));
            return self.next();
        }
        let kind = if e.code == AUTH_REQUIRED {
            ErrorKind::NotAuthenticated
        } else {
            crate::agents::error::classify(&e.text(), None, None)
        };
        self.fail(Failure::new(
            kind,
            format!("the agent refused {what} ({}): {}", e.code, e.text()),
        ))
    }

    /// The prompt was sent and its turn has not ended.
    fn prompting(&self) -> bool {
        matches!(self.pending, Some((_, Step::Prompt)))
    }

    fn note_malformed(&mut self) -> Vec<u8> {
        self.heard.malformed += 1;
        Vec::new()
    }

    /// A `session/update`; what to send back (a cancel, when it ends the call).
    fn on_update(&mut self, params: &Value) -> Vec<u8> {
        self.heard.notifications += 1;
        let sid = params.get("sessionId").and_then(Value::as_str);
        if sid.is_some() && sid != self.session.as_deref() {
            return Vec::new();
        }
        let Some(update) = params.get("update") else {
            return Vec::new();
        };
        match update.get("sessionUpdate").and_then(Value::as_str) {
            // Only what it says in answer to the prompt: gemini 0.61 announces a mode switch with
            // an agent_message_chunk "[MODE_UPDATE] plan" (recorded) before any prompt.
            Some("agent_message_chunk") if self.prompting() => {
                if let Some(t) = update.pointer("/content/text").and_then(Value::as_str) {
                    if self.wanted.status_chunks && t.starts_with("Info: ") {
                        return Vec::new();
                    }
                    if self.wanted.status_chunks && t.starts_with("Error: ") {
                        let said = t.trim_start_matches("Error: ");
                        return self.fail(Failure::classified(said, None, None));
                    }
                    if self.heard.answer.len() + self.untagged.len() + t.len() > MAX_ANSWER {
                        return self.fail(Failure::new(
                            ErrorKind::ParseError,
                            format!("PARSE_ERROR:answer-over-{}-MB:acp", MAX_ANSWER >> 20),
                        ));
                    }
                    if update.get("messageId").and_then(Value::as_str).is_some() {
                        self.tagged = true;
                        self.heard.answer.push_str(t);
                    } else {
                        self.untagged.push_str(t);
                    }
                }
            }
            Some("usage_update") => {
                if let Some(c) = options::update_cost(update) {
                    self.heard.usage.cost_usd = Some(c);
                }
            }
            _ => {}
        }
        if let Some(u) = options::update_usage(update) {
            let cost = self.heard.usage.cost_usd;
            self.heard.usage = Usage {
                cost_usd: cost,
                ..u
            };
        }
        if let Some(m) = options::update_model(update) {
            self.heard.model = Some(m);
        }
        Vec::new()
    }

    /// The agent asks something of us: answered by [`permissions::answer`], refusals noted.
    fn on_request(&mut self, id: &Value, method: &str, params: &Value) -> Vec<u8> {
        let (reply, refused) = permissions::answer(id, method, params);
        if let Some(what) = refused {
            self.deny(what);
        }
        reply
    }

    fn deny(&mut self, what: String) {
        // Bounded: a flood of requests must not grow the record without end.
        if self.heard.denied.len() < 100 {
            self.heard
                .denied
                .push(crate::agents::error::sanitize(&what));
        }
    }

    /// The model the record should carry, and a note when it is not the one asked for or the
    /// agent never said.
    pub fn settle_model(&mut self) -> Option<String> {
        let Some(wanted) = self.wanted.model.clone() else {
            // Nothing asked for: the agent's default, named when it says.
            return self.heard.model.clone();
        };
        match (&self.heard.model, &self.model_set) {
            (Some(m), Some(set)) if m != set && m != &wanted => self.heard.notes.push(format!(
                "model {wanted} was asked for (set as {set:?}); the agent reports {m}"
            )),
            (None, Some(set)) => self.heard.notes.push(format!(
                "model {wanted} was asked for and the agent accepted {set:?}, but did not report \
                 which model answered"
            )),
            // The agent took no model setting (copilot's ACP server has none): its own
            // configuration chose the model, and the one asked for is not it.
            (None, None) => return None,
            _ => {}
        }
        self.heard.model.clone().or(Some(wanted))
    }
}

impl Talk for Conversation {
    fn open(&mut self) -> Vec<u8> {
        self.next()
    }

    fn hear(&mut self, line: &[u8]) -> Vec<u8> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Vec::new();
        }
        match wire::parse(line) {
            Incoming::Response { id, result } => self.on_response(id, result),
            Incoming::Request { id, method, params } => self.on_request(&id, &method, &params),
            Incoming::Notification { method, params } => {
                if method == "session/update" {
                    return self.on_update(&params);
                }
                self.heard.notifications += 1;
                Vec::new()
            }
            Incoming::Malformed(_) => self.note_malformed(),
        }
    }

    fn done(&self) -> bool {
        self.heard.finished || self.heard.failure.is_some()
    }
}
