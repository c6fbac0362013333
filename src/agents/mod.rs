//! Model backends: the agent CLIs and programs that answer a prompt, behind one interface.
//!
//! Everything that talks to a model goes through [`Backend::ask`]: a prompt in, an [`Answer`]
//! (text, usage, timing, the model actually used) or a typed [`BackendError`] out. The six agent
//! CLIs share one adapter ([`agent::AgentBackend`]) driven by a per-CLI [`agent::AgentSpec`] (its
//! command line, environment and output parser, one file each); `exec:` programs and
//! OpenAI-compatible servers have their own files, and [`acp`] speaks the Agent Client Protocol to
//! the agents that have an ACP server (kiro, `acp:<command>`, any agent with `transport = acp`).
//! [`routing`] picks the author and the reviewer.
//!
//! Layers, each using only those below it: [`registry`] and [`routing`] on top; the adapters
//! (one file per CLI, `exec`); the shared [`agent`] layer (with [`agent::host`]: PATH, versions,
//! the environment no child inherits); and the process runner, signals and the read-only check
//! ([`crate::sys`], [`crate::sandbox`]) at the bottom.

pub mod acp;
pub mod agent;
pub mod budget;
pub mod claude;
pub mod codex;
pub mod copilot;
pub mod discovery;
pub mod effort;
pub mod error;
pub mod exec;
#[cfg(test)]
pub mod fixtures;
pub mod gemini;
pub mod gemini_retries;
pub mod openai;
pub mod opencode;
pub mod parse;
pub mod qwen;
pub mod redacting;
pub mod registry;
#[cfg(test)]
pub mod replays;
pub mod reviewers;
pub mod routing;
#[cfg(test)]
mod schema_replay;
#[cfg(test)]
pub mod scripted;

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

use crate::answer::Protocol;

pub use error::{BackendError, ErrorKind, Failure};
// What a call used and how its answer's format was obtained are recorded with every call, so
// their types live with the record (`crate::store::call`).
pub use crate::store::call::{OutputMode, Usage};

/// A model family: the reviewer must come from a different one than the author.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Family(pub String);

impl Family {
    pub fn new(name: &str) -> Family {
        Family(name.trim().to_ascii_lowercase())
    }
    pub fn anthropic() -> Family {
        Family::new("anthropic")
    }
    pub fn openai() -> Family {
        Family::new("openai")
    }
    pub fn google() -> Family {
        Family::new("google")
    }
    pub fn qwen() -> Family {
        Family::new("qwen")
    }
    pub fn unknown() -> Family {
        Family::new("unknown")
    }
    pub fn is_unknown(&self) -> bool {
        self.0 == "unknown"
    }

    /// The family of a model name such as `claude-sonnet-4-5`, `gpt-5.5`, `anthropic/claude-x` or
    /// `openai/gpt-4o` (opencode's `provider/model`), when it can be told.
    pub fn of_model(model: &str) -> Family {
        let m = model.trim().to_ascii_lowercase();
        let (provider, name) = match m.split_once('/') {
            Some((p, n)) => (p, n),
            None => ("", m.as_str()),
        };
        let by_provider = match provider {
            "anthropic" => Some(Family::anthropic()),
            "openai" | "azure" => Some(Family::openai()),
            "google" | "gemini" | "vertex" => Some(Family::google()),
            "qwen" | "alibaba" | "dashscope" => Some(Family::qwen()),
            _ => None,
        };
        if let Some(f) = by_provider {
            return f;
        }
        let starts = |p: &[&str]| p.iter().any(|p| name.starts_with(p));
        if starts(&["claude", "sonnet", "opus", "haiku"]) {
            Family::anthropic()
        } else if starts(&["gpt", "o1", "o3", "o4", "codex", "chatgpt"]) {
            Family::openai()
        } else if starts(&["gemini", "gemma"]) {
            Family::google()
        } else if starts(&["qwen", "qwq"]) {
            Family::qwen()
        } else if starts(&["llama", "meta-llama"]) {
            Family::new("meta")
        } else if starts(&["mistral", "codestral", "devstral", "mixtral"]) {
            Family::new("mistral")
        } else if starts(&["deepseek"]) {
            Family::new("deepseek")
        } else if starts(&["grok"]) {
            Family::new("xai")
        } else {
            Family::unknown()
        }
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// What an output parser extracted from a successful call.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reply {
    pub text: String,
    pub usage: Usage,
    /// The model the CLI says answered (it may route elsewhere than asked).
    pub model: Option<String>,
    /// The schema-enforced object, when the CLI reports one apart from the text (claude's
    /// `structured_output`, qwen's `structured_result`).
    pub structured: Option<Value>,
    /// The CLI reports its object apart from the text and did not: JSON in the text was not
    /// enforced by the CLI.
    pub text_is_not_the_object: bool,
}

/// A CLI's captured output, as a parser sees it.
#[derive(Debug, Clone, Copy)]
pub struct Captured<'a> {
    pub stdout: &'a str,
    pub stderr: &'a str,
    /// The exit code; `None` when a signal ended it.
    pub code: Option<i32>,
}

/// One call.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub prompt: &'a str,
    /// Where the CLI runs: the repository's work tree, so read-only tools can look at files.
    pub cwd: Option<PathBuf>,
    pub timeout: Duration,
    pub idle_timeout: Duration,
    /// Ask for an answer conforming to this protocol's JSON Schema, where the backend can
    /// enforce one (the prompt's own format request stays the fallback).
    pub schema: Option<Protocol>,
    /// Where the CLI runs instead of `cwd` and what it may read (`cwd` stays the repository
    /// whose read-only state is verified).
    pub sandbox: crate::sandbox::confine::Sandbox,
}

impl<'a> Request<'a> {
    /// The directory the CLI process starts in.
    pub fn run_dir(&self) -> Option<PathBuf> {
        self.sandbox.dir.clone().or_else(|| self.cwd.clone())
    }

    /// The same request with what is left of its time after `spent`: a second try (without the
    /// schema) must not get the whole timeout again, or a call could run for twice the budget.
    pub fn after(&self, spent: Duration) -> Request<'a> {
        let left = |t: Duration| t.saturating_sub(spent).max(Duration::from_secs(1));
        Request {
            prompt: self.prompt,
            cwd: self.cwd.clone(),
            timeout: left(self.timeout),
            idle_timeout: self.idle_timeout.min(left(self.timeout)),
            schema: self.schema,
            sandbox: self.sandbox.clone(),
        }
    }
}

/// A successful call.
#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    pub backend: String,
    pub text: String,
    pub usage: Usage,
    /// The model that answered, from the CLI's own output when it says; else the one we asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    pub duration_ms: u64,
    /// The CLI's version (`--version`), so a record says which build answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cli_version: Option<String>,
    /// What the call changed in the repository although it should not have (empty when nothing).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tree_changes: Vec<String>,
    /// The schema-enforced object, when the backend enforced the schema.
    #[serde(skip)]
    pub structured: Option<Value>,
    pub output: OutputMode,
    /// What the transport has to say about the call for the record: requests it refused the
    /// agent (ACP permissions), a model it could not confirm.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// How the backend was spoken to: `cli`, `acp` or `http` (see [`Backend::transport`]).
    pub transport: &'static str,
    /// Secrets redacted from the answer where it entered ([`redacting`]).
    #[serde(skip_serializing_if = "is_zero")]
    pub redactions: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Answer {
    /// An answer read from text alone (no schema asked for or none enforced).
    pub fn plain(backend: &str, text: String) -> Answer {
        Answer {
            backend: backend.to_string(),
            text,
            usage: Usage::default(),
            model: None,
            duration_ms: 0,
            cli_version: None,
            tree_changes: Vec::new(),
            structured: None,
            output: OutputMode::prompt(None),
            notes: Vec::new(),
            transport: "cli",
            redactions: 0,
        }
    }
}

/// Anything that answers a prompt.
pub trait Backend: Send + Sync {
    /// The name users write: `claude`, `exec:ollama run x`, `openai:llama3`.
    fn name(&self) -> &str;
    fn family(&self) -> &Family;
    /// The model it will ask for, if we choose one.
    fn model(&self) -> Option<&str>;
    /// How it is run, for `git debate backends` and the session record (no prompt, no secrets).
    fn describe(&self) -> String;
    /// How it is spoken to: `cli` (a command line, the prompt on stdin), `acp` (the Agent Client
    /// Protocol over stdio), `http`.
    fn transport(&self) -> &'static str {
        "cli"
    }
    /// Whether a call can read files where it runs, its tools switched off when `no_tools`:
    /// only then does it need the export of the reviewed revision (see
    /// [`crate::sandbox::export::Lazy`]). Unknown programs can (`exec:`), an HTTP API cannot.
    fn reads_files(&self, no_tools: bool) -> bool {
        let _ = no_tools;
        true
    }
    fn ask(&self, req: &Request) -> Result<Answer, BackendError>;
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_second_try_gets_only_the_time_left() {
        let req = Request {
            prompt: "p",
            cwd: None,
            timeout: Duration::from_secs(600),
            idle_timeout: Duration::from_secs(300),
            schema: None,
            sandbox: Default::default(),
        };
        let again = req.after(Duration::from_secs(450));
        assert_eq!(again.timeout, Duration::from_secs(150));
        assert_eq!(again.idle_timeout, Duration::from_secs(150));
        assert_eq!(
            req.after(Duration::from_secs(900)).timeout,
            Duration::from_secs(1)
        );
    }

    use super::*;

    #[test]
    fn usage_sums_what_was_reported() {
        let mut total = Usage::default();
        total.add(&Usage {
            input_tokens: Some(100),
            output_tokens: Some(10),
            cost_usd: Some(0.5),
            ..Usage::default()
        });
        // copilot reports only API time: tokens stay as reported by the others.
        total.add(&Usage {
            api_duration_ms: Some(30),
            ..Usage::default()
        });
        total.add(&Usage {
            input_tokens: Some(1),
            output_tokens: Some(2),
            ..Usage::default()
        });
        assert_eq!(total.input_tokens, Some(101));
        assert_eq!(total.output_tokens, Some(12));
        assert_eq!(total.cost_usd, Some(0.5));
        assert_eq!(total.api_duration_ms, Some(30));
        assert_eq!(total.cached_input_tokens, None);
    }

    #[test]
    fn families_of_model_names() {
        for (model, family) in [
            ("claude-sonnet-4-5", "anthropic"),
            ("anthropic/claude-opus-4", "anthropic"),
            ("gpt-5.5", "openai"),
            ("openai/gpt-4o", "openai"),
            ("o3-mini", "openai"),
            ("gemini-3-flash-preview", "google"),
            ("qwen2.5-coder:7b", "qwen"),
            ("llama3.1", "meta"),
            ("deepseek-coder", "deepseek"),
            ("mystery", "unknown"),
        ] {
            assert_eq!(Family::of_model(model).0, family, "{model}");
        }
    }
}
