//! `git debate topic --debater ... ` (or `--panel FILE`): the chaired panel of seed 002.
//!
//! The lineup comes from the flags or a JSON file; what it leaves out (persona, starting
//! position, incentives) the chair proposes from the topic, and that proposal is accepted with
//! `--yes` or confirmed on the terminal, never silently.

use std::io::{BufRead, Write};

use anyhow::{Context, Result};
use serde_json::json;

use crate::agents::registry::{self, Role};
use crate::agents::Backend;
use crate::cli::TopicArgs;
use crate::debate::citations::Checker;
use crate::debate::panel::{self, lineup, roles, Debater, Panel};
use crate::error::{Outcome, UsageError};
use crate::settings::Settings;
use crate::store::{self, Session};

/// The lineup asked for: `--debater` flags, a `--panel` file, or a `--panel` phrase (a head
/// count or personas, backends spread across the installed families). Unnamed debaters get
/// their names from the chair's proposal.
pub fn lineup(
    args: &TopicArgs,
    installed: &[(String, String)],
    chair_family: &str,
) -> Result<Vec<Debater>> {
    let list: Vec<Debater> = match &args.panel {
        Some(spec) if std::path::Path::new(spec).is_file() || spec.ends_with(".json") => {
            let path = std::path::Path::new(spec);
            // A lineup is a few lines of JSON: 1 MiB is plenty, and a FIFO is refused.
            let text = crate::sys::files::read_regular(path, 1 << 20)
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
        Some(phrase) => {
            let asked = lineup::parse_request(phrase).map_err(|why| {
                UsageError::new(format!(
                    "bad --panel: {why}; give a lineup file, a head count (\"3 debaters\") or personas (\"an economist, a union organiser and a CFO\")"
                ))
            })?;
            let personas = match asked {
                lineup::Request::Count(n) => vec![String::new(); n],
                lineup::Request::Personas(p) => p,
            };
            let backends = lineup::spread(personas.len(), installed, chair_family);
            if backends.is_empty() {
                crate::usage!("no agent CLI is installed to debate on; install one (see `git debate backends`) or give --debater NAME=BACKEND");
            }
            personas
                .into_iter()
                .zip(backends)
                .map(|(persona, backend)| Debater {
                    name: if persona.is_empty() {
                        String::new()
                    } else {
                        lineup::slug(&persona)
                    },
                    backend,
                    persona,
                    position: String::new(),
                    incentives: String::new(),
                })
                .collect()
        }
        None => args
            .debaters
            .iter()
            .map(|d| lineup::parse_debater(d))
            .collect::<Result<_>>()?,
    };
    if list.len() < 2 {
        crate::usage!("a panel needs at least 2 debaters (--debater NAME=BACKEND, repeated)");
    }
    let mut names: Vec<&str> = list
        .iter()
        .map(|d| d.name.as_str())
        .filter(|n| !n.is_empty())
        .collect();
    let named = names.len();
    names.sort();
    names.dedup();
    if names.len() != named {
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
    let inst = roles::installed(settings);
    let chair_family = registry::build(chair_name, Some(Role::Author), settings)?
        .family()
        .0
        .clone();
    let mut debaters = lineup(args, &inst, &chair_family)?;
    let flags = roles::Flags {
        audience: args.audience.as_deref(),
        reporter: args.reporter.as_deref(),
        assessor: args.assessor.as_deref(),
        verifier: args.verifier.as_deref(),
    };
    let (roles, roles_meta) = roles::build(&flags, settings, chair_name)?;
    if debaters
        .iter()
        .any(|d| d.name.is_empty() || d.persona.is_empty() || d.position.is_empty())
    {
        let budget = panel::budget::Budget::new(settings, std::time::Instant::now())
            .map_err(UsageError::new)?;
        panel::propose::propose(
            &mut debaters,
            topic,
            roles.chair.as_ref(),
            &budget,
            &workspace,
        )?;
        confirm(&mut debaters, args.yes, topic)?;
    }
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
    let lineup_meta: Vec<serde_json::Value> = debaters
        .iter()
        .zip(&backends)
        .map(|(d, b)| json!({"name": d.name, "backend": d.backend, "model": b.model(), "family": b.family().0, "persona": d.persona, "position": d.position, "incentives": d.incentives}))
        .collect();
    let s = Session::create(base)?;
    s.write("artifact.md", format!("# Topic\n\n{topic}\n").as_bytes())?;
    let now = store::rfc3339(store::now_utc());
    let mut meta = json!({
        "version": store::METADATA_VERSION, "id": s.id, "kind": "panel", "status": "running",
        "target": "topic", "topic": topic, "created_at": now, "updated_at": now,
        "tool_version": env!("CARGO_PKG_VERSION"), "workspace": workspace, "chair": chair_name,
        "debaters": debaters, "lineup": lineup_meta, "roles": roles_meta,
        "min_rounds": args.min_rounds, "max_rounds": args.max_rounds, "blog": args.blog,
    });
    s.write_json("metadata.json", &meta)?;
    let outcome = panel::run(Panel {
        session: &s,
        settings,
        topic: topic.to_string(),
        debaters: debaters.iter().cloned().zip(backends).collect(),
        roles,
        min_rounds: args.min_rounds,
        max_rounds: args.max_rounds,
        workspace,
        context,
        checker,
        blog: args.blog,
        resume: Vec::new(),
        timings: Default::default(),
        judged: Default::default(),
    })?;
    finish(&s, settings, &mut meta, &debaters, &outcome)
}

/// Records the outcome (the documents are written by the panel), prints the result and picks
/// the exit code.
fn finish(
    s: &Session,
    settings: &Settings,
    meta: &mut serde_json::Value,
    debaters: &[Debater],
    outcome: &panel::PanelOutcome,
) -> Result<Outcome> {
    let topic = meta["topic"].as_str().unwrap_or("").to_string();
    let summary = panel::summary(&s.id, &topic, debaters, outcome);
    let report = json!({
        "schema": 1, "kind": "panel", "session": s.id, "session_dir": s.dir, "topic": topic,
        "status": outcome.status, "outcome": outcome.outcome, "reason": outcome.reason,
        "rounds": outcome.rounds, "redactions": outcome.redactions, "debaters": debaters,
        "budget_spent": outcome.budget_spent, "notes": outcome.notes, "entries": outcome.entries,
    });
    s.write_json("summary.json", &report)?;
    meta["status"] = outcome.status.clone().into();
    meta["outcome"] = outcome.outcome.clone().into();
    meta["reason"] = outcome.reason.clone().into();
    meta["rounds_run"] = outcome.rounds.into();
    meta["budget_spent"] = outcome.budget_spent.into();
    meta["timings"] = json!({"elapsed_ms": outcome.elapsed_ms, "calls": outcome.timings});
    meta["updated_at"] = store::rfc3339(store::now_utc()).into();
    s.write_json("metadata.json", meta)?;
    crate::commands::topic::emit(settings, &report, &summary, s, &outcome.status)
}

/// `git debate resume` of a panel: its log is replayed and the debate goes on from the first
/// step not taken, with the same lineup and chair.
pub fn resume(
    s: Session,
    stored: &store::Stored,
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
    let log: Vec<panel::Entry> =
        crate::commands::topic::read_log(&stored.dir.join("debate-log.jsonl"))?
            .lines()
            .map(serde_json::from_str)
            .collect::<std::result::Result<_, _>>()
            .with_context(|| format!("the debate log of {} is damaged", stored.id))?;
    let chair_name = crate::commands::resume::recorded_backend(
        &stored.id,
        "chair",
        meta["chair"].as_str().unwrap_or(""),
    )?;
    // The roles it recorded, if they name no program (a session file must not choose what runs).
    let recorded = |r: &str| -> Result<Option<String>> {
        meta["roles"][r]["backend"]
            .as_str()
            .map(|n| crate::commands::resume::recorded_backend(&stored.id, r, n))
            .transpose()
    };
    let (audience, reporter, assessor) = (
        recorded("audience")?,
        recorded("reporter")?,
        recorded("assessor")?,
    );
    let verifier = meta["roles"]["verifier"]["model_check"]["backend"]
        .as_str()
        .map(|n| crate::commands::resume::recorded_backend(&stored.id, "verifier", n))
        .transpose()?;
    let flags = roles::Flags {
        audience: audience.as_deref(),
        reporter: reporter.as_deref(),
        assessor: assessor.as_deref(),
        verifier: verifier.as_deref(),
    };
    let (roles, _) = roles::build(&flags, settings, &chair_name)?;
    let backends: Vec<Box<dyn Backend>> = debaters
        .iter()
        .map(|d| {
            let name = crate::commands::resume::recorded_backend(&stored.id, &d.name, &d.backend)?;
            registry::build(&name, Some(Role::Reviewer), settings)
        })
        .collect::<Result<_>>()?;
    let repo = crate::git::repo::discover()?;
    crate::errln!("resuming {} after {} log entries", stored.id, log.len());
    let outcome = panel::run(Panel {
        session: &s,
        settings,
        topic: meta["topic"].as_str().unwrap_or("").to_string(),
        debaters: debaters.iter().cloned().zip(backends).collect(),
        roles,
        min_rounds: meta["min_rounds"].as_u64().unwrap_or(3) as u32,
        max_rounds: meta["max_rounds"].as_u64().unwrap_or(8) as u32,
        // The current work tree, never a folder the session names.
        workspace: repo
            .as_ref()
            .and_then(|r| r.workdir().map(std::path::Path::to_path_buf))
            .unwrap_or(std::env::current_dir()?),
        context: None,
        checker: Checker::new(repo.as_ref().and_then(crate::git::Repo::libgit2)),
        blog: meta["blog"].as_bool().unwrap_or(false),
        resume: log,
        timings: Default::default(),
        judged: Default::default(),
    })?;
    finish(&s, settings, &mut meta, &debaters, &outcome)
}

/// `--yes`, or the person at the terminal accepts the lineup, after editing it if they like
/// (edit a debater, add one, remove one); never a silent default.
fn confirm(debaters: &mut Vec<Debater>, yes: bool, topic: &str) -> Result<()> {
    if yes {
        crate::errln!("git debate: the lineup:\n{}", lineup::show(debaters));
        return Ok(());
    }
    let tty = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").map_err(|_| {
        UsageError::new("the chair proposed the lineup and there is no terminal to confirm it on: pass --yes to accept it, or give every debater a persona and position in a --panel file")
    })?;
    let mut out = tty.try_clone()?;
    let mut input = std::io::BufReader::new(tty);
    // What is typed here is shown back through the terminal; the model's words are cleaned.
    let mut ask = |out: &mut std::fs::File, q: &str| -> Result<String> {
        write!(out, "{}", crate::ui::terminal::clean(q))?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            crate::usage!(
                "no answer at the lineup prompt; pass --yes to accept the chair's lineup"
            );
        }
        Ok(line.trim().to_string())
    };
    let mut shown = format!("The chair proposes this lineup for {topic:?}:\n");
    loop {
        shown.push_str(&lineup::show(debaters));
        let answer = ask(
            &mut out,
            &format!("{shown}Accept, edit N, add, remove N, or quit? [accept] "),
        )?;
        shown = String::new();
        let edit = match lineup::parse_edit(&answer) {
            Ok(e) => e,
            Err(why) => {
                writeln!(out, "{why}")?;
                continue;
            }
        };
        let field = |out: &mut std::fs::File,
                     ask: &mut dyn FnMut(&mut std::fs::File, &str) -> Result<String>,
                     label: &str,
                     now: &str|
         -> Result<String> {
            let a = ask(out, &format!("  {label} [{now}]: "))?;
            Ok(if a.is_empty() { now.to_string() } else { a })
        };
        let result = match edit {
            lineup::Edit::Accept => return Ok(()),
            lineup::Edit::Decline => crate::usage!("lineup declined; give personas and positions with --debater NAME=BACKEND:persona or a --panel file"),
            lineup::Edit::Remove(n) => lineup::remove(debaters, n),
            lineup::Edit::Edit(n) if n == 0 || n > debaters.len() => {
                Err(format!("there is no debater {n}"))
            }
            lineup::Edit::Edit(_) | lineup::Edit::Add => {
                let at = if let lineup::Edit::Edit(n) = edit { Some(n - 1) } else { None };
                let base = at.map(|i| debaters[i].clone()).unwrap_or_else(|| Debater {
                    name: String::new(),
                    backend: debaters.last().map(|d| d.backend.clone()).unwrap_or_default(),
                    persona: String::new(),
                    position: String::new(),
                    incentives: String::new(),
                });
                let d = Debater {
                    name: field(&mut out, &mut ask, "name", &base.name)?,
                    backend: field(&mut out, &mut ask, "backend", &base.backend)?,
                    persona: field(&mut out, &mut ask, "persona", &base.persona)?,
                    position: field(&mut out, &mut ask, "starting position", &base.position)?,
                    incentives: field(&mut out, &mut ask, "incentives", &base.incentives)?,
                };
                lineup::check_new(debaters, &d, at).map(|()| match at {
                    Some(i) => debaters[i] = d,
                    None => debaters.push(d),
                })
            }
        };
        if let Err(why) = result {
            writeln!(out, "{why}")?;
        }
    }
}
