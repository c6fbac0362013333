//! `git debate topic --debater ... ` (or `--panel FILE`): the chaired panel of seed 002.
//!
//! The lineup comes from the flags or a JSON file; what it leaves out (persona, starting
//! position, incentives) the chair proposes from the topic, and that proposal is accepted with
//! `--yes` or confirmed on the terminal, never silently.

use std::io::{BufRead, Write};

use anyhow::{Context, Result};
use serde_json::json;

use crate::backend::registry::{self, Role};
use crate::backend::Backend;
use crate::cli::TopicArgs;
use crate::config::Settings;
use crate::debate::citations::Checker;
use crate::debate::panel::{self, Debater, Panel};
use crate::error::{Outcome, UsageError};
use crate::session::{self, Session};

/// `NAME=BACKEND[:persona]`; `openai:<model>` and `exec:<command>` keep their own colons (give an
/// exec debater its persona in a `--panel` file).
pub fn parse_debater(spec: &str) -> Result<Debater> {
    let bad = |why: &str| -> anyhow::Error {
        UsageError::new(format!(
            "bad --debater {spec:?}: {why}; expected NAME=BACKEND[:persona], e.g. skeptic=codex:a cautious SRE"
        ))
        .into()
    };
    let (name, rest) = spec.split_once('=').ok_or_else(|| bad("no ="))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(bad("the name must be letters, digits and hyphens"));
    }
    let (backend, persona) = if rest.starts_with("exec:") {
        (rest.to_string(), String::new())
    } else if let Some(model_rest) = rest.strip_prefix("openai:") {
        match model_rest.split_once(':') {
            Some((m, p)) => (format!("openai:{m}"), p.to_string()),
            None => (rest.to_string(), String::new()),
        }
    } else {
        match rest.split_once(':') {
            Some((b, p)) => (b.to_string(), p.to_string()),
            None => (rest.to_string(), String::new()),
        }
    };
    if backend.trim().is_empty() {
        return Err(bad("no backend"));
    }
    Ok(Debater {
        name: name.to_string(),
        backend: backend.trim().to_string(),
        persona: persona.trim().to_string(),
        position: String::new(),
        incentives: String::new(),
    })
}

pub fn lineup(args: &TopicArgs) -> Result<Vec<Debater>> {
    let list: Vec<Debater> = match &args.panel {
        Some(path) => {
            // A lineup is a few lines of JSON: 1 MiB is plenty, and a FIFO is refused.
            let text = crate::files::read_regular(path, 1 << 20)
                .map_err(anyhow::Error::from)
                .and_then(|b| Ok(String::from_utf8(b)?))
                .with_context(|| format!("cannot read the panel file {}", path.display()))?;
            serde_json::from_str(&text).map_err(|e| {
                UsageError::new(format!(
                    "bad panel file {}: {e}; expected [{{\"name\", \"backend\", \"persona\", \"position\", \"incentives\"}}]",
                    path.display()
                ))
            })?
        }
        None => args
            .debaters
            .iter()
            .map(|d| parse_debater(d))
            .collect::<Result<_>>()?,
    };
    if list.len() < 2 {
        crate::usage!("a panel needs at least 2 debaters (--debater NAME=BACKEND, repeated)");
    }
    let mut names: Vec<&str> = list.iter().map(|d| d.name.as_str()).collect();
    names.sort();
    names.dedup();
    if names.len() != list.len() {
        crate::usage!("two debaters share a name; give each a different NAME");
    }
    Ok(list)
}

/// What `topic` has already worked out for any debate.
pub struct Setup<'a> {
    pub settings: &'a Settings,
    pub topic: &'a str,
    /// The chair's backend (the author side).
    pub chair: &'a str,
    /// The session store.
    pub base: &'a std::path::Path,
    pub workspace: std::path::PathBuf,
    pub context: Option<String>,
    pub checker: Checker,
}

pub fn run(args: &TopicArgs, setup: Setup) -> Result<Outcome> {
    let Setup {
        settings,
        topic,
        chair: chair_name,
        base,
        workspace,
        context,
        checker,
    } = setup;
    if args.min_rounds < 1 || args.max_rounds < args.min_rounds || args.max_rounds > 20 {
        crate::usage!(
            "bad rounds: --min-rounds {} and --max-rounds {} must satisfy 1 <= min <= max <= 20",
            args.min_rounds,
            args.max_rounds
        );
    }
    let mut debaters = lineup(args)?;
    let chair = registry::build(chair_name, Some(Role::Author), settings)?;
    let backends: Vec<Box<dyn Backend>> = debaters
        .iter()
        .map(|d| registry::build(&d.backend, Some(Role::Reviewer), settings))
        .collect::<Result<_>>()?;
    let mut families: Vec<String> = backends.iter().map(|b| b.family().0.clone()).collect();
    families.sort();
    families.dedup();
    if families.len() < 2 {
        crate::errln!("note: every debater is of the {} family; a cross-family panel gives more independent views", families[0]);
    }
    if debaters
        .iter()
        .any(|d| d.persona.is_empty() || d.position.is_empty())
    {
        propose_lineup(&mut debaters, topic, &*chair, settings, &workspace)?;
        confirm(&debaters, args.yes)?;
    }
    let s = Session::create(base)?;
    s.write("artifact.md", format!("# Topic\n\n{topic}\n").as_bytes())?;
    let now = session::rfc3339(session::now_utc());
    let mut meta = json!({
        "version": session::METADATA_VERSION, "id": s.id, "kind": "panel", "status": "running",
        "target": "topic", "topic": topic, "created_at": now, "updated_at": now,
        "tool_version": env!("CARGO_PKG_VERSION"), "workspace": workspace, "chair": chair_name,
        "debaters": debaters, "min_rounds": args.min_rounds, "max_rounds": args.max_rounds,
    });
    s.write_json("metadata.json", &meta)?;
    let outcome = Panel {
        session: &s,
        settings,
        topic: topic.to_string(),
        debaters: debaters.iter().cloned().zip(backends).collect(),
        chair,
        min_rounds: args.min_rounds,
        max_rounds: args.max_rounds,
        workspace,
        context,
        checker,
        resume: Vec::new(),
    }
    .run()?;
    finish(&s, settings, &mut meta, &debaters, &outcome)
}

/// Writes the transcript, summary and report, prints the result and picks the exit code.
fn finish(
    s: &Session,
    settings: &Settings,
    meta: &mut serde_json::Value,
    debaters: &[Debater],
    outcome: &panel::PanelOutcome,
) -> Result<Outcome> {
    let topic = meta["topic"].as_str().unwrap_or("").to_string();
    s.write(
        "transcript.md",
        panel::transcript(&topic, outcome).as_bytes(),
    )?;
    let summary = panel::summary(&s.id, &topic, debaters, outcome);
    s.write("summary.md", summary.as_bytes())?;
    let report = json!({
        "schema": 1, "kind": "panel", "session": s.id, "session_dir": s.dir, "topic": topic,
        "status": outcome.status, "outcome": outcome.outcome, "reason": outcome.reason,
        "rounds": outcome.rounds, "redactions": outcome.redactions, "debaters": debaters,
        "notes": outcome.notes, "entries": outcome.entries,
    });
    s.write_json("summary.json", &report)?;
    meta["status"] = outcome.status.clone().into();
    meta["outcome"] = outcome.outcome.clone().into();
    meta["updated_at"] = session::rfc3339(session::now_utc()).into();
    s.write_json("metadata.json", meta)?;
    super::topic::emit(settings, &report, &summary, s, &outcome.status)
}

/// `git debate resume` of a panel: its log is replayed and the debate goes on from the first
/// step not taken, with the same lineup and chair.
pub fn resume(
    s: Session,
    stored: &session::Stored,
    mut meta: serde_json::Value,
    settings: &Settings,
) -> Result<Outcome> {
    if meta["status"] == "completed" {
        crate::usage!(
            "panel debate {} is finished; start a new one with `git debate topic`",
            stored.id
        );
    }
    let debaters: Vec<Debater> = serde_json::from_value(meta["debaters"].clone())
        .with_context(|| format!("panel {} does not record its lineup", stored.id))?;
    let log: Vec<panel::Entry> = super::topic::read_log(&stored.dir.join("debate-log.jsonl"))?
        .lines()
        .map(serde_json::from_str)
        .collect::<std::result::Result<_, _>>()
        .with_context(|| format!("the debate log of {} is damaged", stored.id))?;
    let chair_name =
        super::resume::recorded_backend(&stored.id, "chair", meta["chair"].as_str().unwrap_or(""))?;
    let chair = registry::build(&chair_name, Some(Role::Author), settings)?;
    let backends: Vec<Box<dyn Backend>> = debaters
        .iter()
        .map(|d| {
            let name = super::resume::recorded_backend(&stored.id, &d.name, &d.backend)?;
            registry::build(&name, Some(Role::Reviewer), settings)
        })
        .collect::<Result<_>>()?;
    let repo = crate::repo::discover()?;
    crate::errln!("resuming {} after {} log entries", stored.id, log.len());
    let outcome = Panel {
        session: &s,
        settings,
        topic: meta["topic"].as_str().unwrap_or("").to_string(),
        debaters: debaters.iter().cloned().zip(backends).collect(),
        chair,
        min_rounds: meta["min_rounds"].as_u64().unwrap_or(3) as u32,
        max_rounds: meta["max_rounds"].as_u64().unwrap_or(8) as u32,
        // The current work tree, never a folder the session names.
        workspace: repo
            .as_ref()
            .and_then(|r| r.workdir().map(std::path::Path::to_path_buf))
            .unwrap_or(std::env::current_dir()?),
        context: None,
        checker: Checker::new(repo.as_ref()),
        resume: log,
    }
    .run()?;
    finish(&s, settings, &mut meta, &debaters, &outcome)
}

/// The chair fills in personas, positions and incentives the lineup left out.
fn propose_lineup(
    debaters: &mut [Debater],
    topic: &str,
    chair: &dyn Backend,
    settings: &Settings,
    workspace: &std::path::Path,
) -> Result<()> {
    let given: Vec<String> = debaters
        .iter()
        .map(|d| {
            format!(
                "- {} (persona: {})",
                d.name,
                if d.persona.is_empty() {
                    "to propose"
                } else {
                    &d.persona
                }
            )
        })
        .collect();
    let prompt = format!(
        "You chair a panel debate on: {topic}\nDebaters:\n{}\n\nPropose for each a persona (keep a \
         given one), a distinct starting position and incentives, so the panel covers the real \
         sides of the question. Answer with ONE fenced json block: [{{\"name\": \"...\", \
         \"persona\": \"...\", \"position\": \"...\", \"incentives\": \"...\"}}]",
        given.join("\n")
    );
    let answer = chair
        .ask(&crate::backend::Request {
            prompt: &prompt,
            cwd: Some(workspace.to_path_buf()),
            timeout: std::time::Duration::from_secs(settings.backend_timeout_seconds),
            idle_timeout: std::time::Duration::from_secs(settings.backend_idle_seconds),
            schema: None,
            sandbox: Default::default(),
        })
        .context("the chair could not propose the lineup")?;
    let proposed = crate::protocol::read::json::json_blocks(&answer.text)
        .into_iter()
        .rev()
        .find_map(|v| v.as_array().cloned())
        .unwrap_or_default();
    for d in debaters.iter_mut() {
        let p = proposed
            .iter()
            .find(|p| p["name"].as_str() == Some(d.name.as_str()));
        let get = |k: &str| {
            p.and_then(|p| p[k].as_str())
                .unwrap_or("")
                .trim()
                .to_string()
        };
        if d.persona.is_empty() {
            d.persona = get("persona");
        }
        if d.position.is_empty() {
            d.position = get("position");
        }
        if d.incentives.is_empty() {
            d.incentives = get("incentives");
        }
    }
    Ok(())
}

/// `--yes`, or a yes on the terminal; never a silent default.
fn confirm(debaters: &[Debater], yes: bool) -> Result<()> {
    let shown: String = debaters
        .iter()
        .map(|d| {
            format!(
                "  {} ({}): {}\n    position: {}\n    incentives: {}\n",
                d.name, d.backend, d.persona, d.position, d.incentives
            )
        })
        .collect();
    if yes {
        crate::errln!("git debate: the lineup:\n{shown}");
        return Ok(());
    }
    let tty = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").map_err(|_| {
        UsageError::new("the chair proposed the lineup and there is no terminal to confirm it on: pass --yes to accept it, or give every debater a persona and position in a --panel file")
    })?;
    let mut out = tty.try_clone()?;
    write!(
        out,
        "The chair proposes this lineup:\n{shown}Accept it? [Y/n] "
    )?;
    out.flush()?;
    let mut line = String::new();
    std::io::BufReader::new(tty).read_line(&mut line)?;
    if matches!(line.trim().to_ascii_lowercase().as_str(), "" | "y" | "yes") {
        Ok(())
    } else {
        crate::usage!("lineup declined; give personas and positions with --debater NAME=BACKEND:persona or a --panel file")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debater_specs() {
        let d = parse_debater("skeptic=codex:a cautious SRE: hates pagers").unwrap();
        assert_eq!(
            (d.name.as_str(), d.backend.as_str(), d.persona.as_str()),
            ("skeptic", "codex", "a cautious SRE: hates pagers")
        );
        let d = parse_debater("local=openai:llama3.1:a pragmatist").unwrap();
        assert_eq!(
            (d.backend.as_str(), d.persona.as_str()),
            ("openai:llama3.1", "a pragmatist")
        );
        let d = parse_debater("tool=exec:llm -m x").unwrap();
        assert_eq!(d.backend, "exec:llm -m x");
        assert!(parse_debater("bad name=codex").is_err());
        assert!(parse_debater("nobackend").is_err());
    }
}
