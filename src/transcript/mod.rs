//! The launching agent's last answer, read from the transcript the agent keeps of its session.
//!
//! `git debate` started by an agent with nothing else to review (or with `--last-message`)
//! reviews what the agent just told the user: a design, a snippet, a plan. Every agent CLI keeps
//! its sessions locally, each in its own place and format; [`AGENTS`] has one row per agent
//! saying where (verified by running each CLI against a fake model server, see
//! `tests/fixtures/transcripts/README.md`) and [`formats`] turns each format into the same few
//! [`Event`]s, from which [`last_answer`] picks the message.
//!
//! Transcripts are untrusted local files, and other projects' conversations sit beside ours. So
//! only the transcript of this project is read (matched by the folder the agent ran in: this
//! folder or one above it inside the repository), never another one as a fallback; links inside
//! the agent's folder are not followed; only the tail of a long transcript is read; and lines
//! that do not parse are skipped.

pub mod formats;
pub mod last_message;
mod locate;
mod opencode;

use std::path::{Path, PathBuf};

pub use formats::Format;
pub use locate::Layout;

/// One agent CLI: where its transcripts live and how they are written.
#[derive(Debug)]
pub struct Agent {
    pub name: &'static str,
    /// The variable that moves the agent's folder, if it has one.
    pub home_var: Option<&'static str>,
    /// The agent's folder under HOME when that variable is not set.
    pub home: &'static str,
    /// The variable holding the running session's id in the commands the agent runs.
    pub session_var: Option<&'static str>,
    pub layout: Layout,
    pub format: Format,
}

/// Every agent whose transcripts can be read. `{slug}` is the project's path with every
/// character other than a letter or digit replaced by `-` (`/src/my_app` → `-src-my-app`).
pub const AGENTS: &[Agent] = &[
    Agent {
        name: "claude",
        home_var: Some("CLAUDE_CONFIG_DIR"),
        home: ".claude",
        session_var: Some("CLAUDE_CODE_SESSION_ID"),
        layout: Layout::Slug {
            dir: "projects",
            inner: "",
        },
        format: Format::Claude,
    },
    Agent {
        name: "codex",
        home_var: Some("CODEX_HOME"),
        home: ".codex",
        session_var: Some("CODEX_THREAD_ID"),
        layout: Layout::Dated { dir: "sessions" },
        format: Format::Codex,
    },
    Agent {
        name: "gemini",
        home_var: None,
        home: ".gemini",
        session_var: None,
        layout: Layout::Marked {
            dir: "tmp",
            marker: ".project_root",
            inner: "chats",
        },
        format: Format::Gemini,
    },
    Agent {
        name: "qwen",
        home_var: None,
        home: ".qwen",
        session_var: None,
        layout: Layout::Slug {
            dir: "projects",
            inner: "chats",
        },
        format: Format::Qwen,
    },
    Agent {
        name: "copilot",
        home_var: Some("COPILOT_HOME"),
        home: ".copilot",
        session_var: Some("COPILOT_AGENT_SESSION_ID"),
        layout: Layout::Sessions {
            dir: "session-state",
            file: "events.jsonl",
            meta: "workspace.yaml",
        },
        format: Format::Copilot,
    },
    Agent {
        name: "opencode",
        home_var: None,
        home: "",
        session_var: None,
        layout: Layout::Command,
        format: Format::OpencodeExport,
    },
];

/// The agent named `name`, if its transcripts can be read.
pub fn agent(name: &str) -> Option<&'static Agent> {
    AGENTS.iter().find(|a| a.name == name)
}

/// What a transcript says, reduced to what matters for finding the last answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Something the user said: a new turn starts.
    Prompt,
    /// Text the agent showed (never its thinking), with the message's id.
    Text { id: String, text: String },
    /// A tool call or a tool's result: text before it only led into the call.
    Tool,
}

/// The message found, and where.
#[derive(Debug, Clone)]
pub struct Message {
    pub agent: &'static str,
    /// The transcript file (for opencode, the session it was exported from).
    pub file: String,
    pub id: String,
    pub text: String,
}

/// How to look: the environment, and the project's folders.
pub struct Lookup<'a> {
    pub var: &'a dyn Fn(&str) -> Option<String>,
    /// The current folder and the folders above it up to the repository's root, nearest first;
    /// an agent that ran in any of them worked on this project.
    pub project: Vec<PathBuf>,
    /// The agent's newest turn is still running (we were started inside it, by a tool call):
    /// its text only leads into that call, so the answer before it is the last one. Used for
    /// the formats that cannot show it themselves ([`Format::writes_calls_late`]).
    pub turn_open: bool,
}

/// The folders an agent started in that count as this project: `cwd`, then each folder above it
/// up to `root` (only `cwd` outside a repository).
pub fn project_dirs(cwd: &Path, root: Option<&Path>) -> Vec<PathBuf> {
    let root = root.map(|r| r.canonicalize().unwrap_or_else(|_| r.to_path_buf()));
    let mut out = Vec::new();
    let mut dir = Some(cwd);
    while let Some(d) = dir {
        out.push(d.to_path_buf());
        match &root {
            Some(r) if d != r.as_path() && d.starts_with(r) => dir = d.parent(),
            _ => break,
        }
    }
    out
}

/// Most of a transcript read from its end: far more than any last answer needs.
pub const TAIL_BYTES: u64 = 8 << 20;

/// The last answer of `agent` in this project's newest transcript, or one line on why there is
/// none, naming where it looked.
pub fn find(agent: &Agent, lookup: &Lookup) -> Result<Message, String> {
    let (file, events) = match agent.layout {
        Layout::Command => opencode::events(lookup)?,
        _ => {
            let folder = folder(agent, lookup)?;
            let session = agent.session_var.and_then(|v| (lookup.var)(v));
            let path = locate::newest(agent, &folder, &lookup.project, session.as_deref())?;
            let events = read_events(agent, &path)?;
            (path.display().to_string(), events)
        }
    };
    match last_answer(
        &events,
        lookup.turn_open && agent.format.writes_calls_late(),
    ) {
        Some((id, text)) => Ok(Message {
            agent: agent.name,
            file,
            id,
            text,
        }),
        None => Err(format!(
            "{file} holds no finished answer from {} yet",
            agent.name
        )),
    }
}

/// The agent's folder: its variable, else under HOME; it must exist.
fn folder(agent: &Agent, lookup: &Lookup) -> Result<PathBuf, String> {
    let path = match agent.home_var.and_then(|v| (lookup.var)(v)) {
        Some(dir) => PathBuf::from(dir),
        None => match (lookup.var)("HOME") {
            Some(home) => Path::new(&home).join(agent.home),
            None => return Err("HOME is not set, so no transcript can be found".into()),
        },
    };
    if !path.is_dir() {
        return Err(format!(
            "no {} transcripts: {} does not exist",
            agent.name,
            path.display()
        ));
    }
    Ok(path)
}

/// The events of one transcript file, from its tail.
fn read_events(agent: &Agent, path: &Path) -> Result<Vec<Event>, String> {
    use crate::sys::file_io::{read_end_no_link, End};
    let (bytes, cut) = read_end_no_link(path, TAIL_BYTES, End::Tail)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if cut {
        // The first line was cut in the middle.
        text = text
            .split_once('\n')
            .map(|(_, r)| r.to_string())
            .unwrap_or_default();
    }
    let parsed = agent.format.events(&text);
    if parsed.records == 0 {
        return Err(format!(
            "{} is not a {} transcript ({} lines could not be read); pass the content to review \
             instead",
            path.display(),
            agent.name,
            parsed.unreadable
        ));
    }
    Ok(parsed.events)
}

/// The agent's last answer: the text it ended its newest finished turn with. Text that led into
/// a tool call is narration ("Let me read main.rs"), not an answer; an open turn (we run inside
/// it) has no answer yet, so the turn before it counts. Several texts in a row are one answer.
pub fn last_answer(events: &[Event], turn_open: bool) -> Option<(String, String)> {
    let mut best: Option<Vec<(&str, &str)>> = None;
    let mut current: Vec<(&str, &str)> = Vec::new();
    for e in events {
        match e {
            Event::Prompt => {
                if !current.is_empty() {
                    best = Some(std::mem::take(&mut current));
                }
            }
            Event::Tool => current.clear(),
            Event::Text { id, text } if !text.trim().is_empty() => current.push((id, text)),
            Event::Text { .. } => {}
        }
    }
    if !turn_open && !current.is_empty() {
        best = Some(current);
    }
    let parts = best?;
    let id = parts.last().map(|(id, _)| id.to_string())?;
    let text: Vec<&str> = parts.iter().map(|(_, t)| t.trim_end()).collect();
    Some((id, text.join("\n\n") + "\n"))
}

#[cfg(test)]
mod tests;
