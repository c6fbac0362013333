//! `git debate resume [ID]`: continue a review that stopped before it was decided.
//!
//! Everything a round needs is in the session folder: the rounds' records (findings with their
//! ids and rulings), the latest artifact version, the last rebuttal and the context summary.
//! Settings (models, timeouts, formats) come from the current configuration and the flags, and the
//! time budget starts afresh.
//!
//! A session folder is data, and may not be ours (a repository can ship one): nothing in it may
//! choose a program to run or a folder to run it in. The author and reviewer are routed from the
//! current configuration and `--author`/`--reviewer`, as `git debate` routes them (a note says
//! when that differs from the session's record), and the models run in the current work tree.
//! Debates name their lineup only in the session, so there a recorded backend is used only when
//! it names no program ([`recorded_backend`]). The session is locked first, so a second `resume`
//! (or one started while the review still runs) is refused, naming the process that holds it.

use std::path::Path;

use anyhow::{Context, Result};

use crate::agents::registry::{self, Role};
use crate::agents::routing::{self, World};
use crate::change::{self, TextInput};
use crate::cli::{ResumeArgs, ReviewArgs};
use crate::error::Outcome;
use crate::review::record::Round;
use crate::review::{Chunking, PatchBase, Resume, Review};
use crate::settings::{Layers, Settings, TargetSetting};
use crate::store::{self, Session};

pub fn run(args: &ResumeArgs) -> Result<Outcome> {
    let repo = crate::git::repo::discover()?;
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    // Where the session is: only the store location matters before it is found.
    let locate = Settings::resolve(
        Layers::load(repo.as_ref().map(crate::git::Repo::dirs))?,
        &ReviewArgs {
            state_dir: args.state_dir.clone(),
            ..Default::default()
        },
    )?;
    let base = store::base_dir(repo.as_ref(), locate.state_dir.as_deref(), &cwd);
    let found = store::find(&base, &args.id)?;
    // Locked before anything is read, then read again: what we continue is what the holder left.
    let session = Session::open(&found.dir, &found.id)?;
    let stored = found.reload();
    let meta = stored
        .metadata
        .clone()
        .map_err(|e| anyhow::anyhow!("session {} cannot be resumed: {e}", stored.id))?;
    let debate = meta["kind"] == "topic" || meta["kind"] == "panel";
    if !debate {
        check_resumable(&stored.id, &meta)?;
    }
    // The session's own limits and gate, unless a flag changes them.
    let was = &meta["settings"];
    let settings = Settings::resolve(
        Layers::load(repo.as_ref().map(crate::git::Repo::dirs))?,
        &ReviewArgs {
            max_rounds: args
                .max_rounds
                .or(was["max_rounds"].as_u64().map(|n| n as u32)),
            budget_minutes: args.budget_minutes.or(was["budget_minutes"].as_u64()),
            backend_timeout_seconds: args
                .backend_timeout_seconds
                .or(was["backend_timeout_seconds"].as_u64()),
            mode: args.mode,
            format: args.format,
            output: args.output.clone(),
            fail_on: args.fail_on.or_else(|| {
                was["fail_on"]
                    .as_str()
                    .and_then(|f| clap::ValueEnum::from_str(f, true).ok())
            }),
            state_dir: args.state_dir.clone(),
            author: args.author.clone(),
            reviewer: args.reviewer.clone(),
            ..Default::default()
        },
    )?;
    for w in &settings.warnings {
        crate::errln!("{w}");
    }
    if meta["kind"] == "panel" {
        return crate::commands::panel::resume(session, &stored, meta, &settings);
    }
    if meta["kind"] == "topic" {
        return crate::commands::topic::resume(
            session,
            &stored,
            meta,
            &settings,
            &base,
            (args.max_rounds, args.budget_minutes),
        );
    }
    let dir = &stored.dir;

    let rounds = read_rounds(dir)?;
    if rounds.len() as u32 >= settings.max_rounds {
        crate::usage!(
            "session {} already has {} round(s) and --max-rounds is {}; pass --max-rounds {} to \
             continue",
            stored.id,
            rounds.len(),
            settings.max_rounds,
            (rounds.len() + 1).min(5)
        );
    }
    let original = read(dir, "artifact.md")?;
    let (text, version) = latest_version(dir)?.unwrap_or((original.clone(), 1));
    let rebuttal = rounds
        .last()
        .filter(|r| r.choice == 'D')
        .map(|r| optional(dir, &format!("round-{}-rebuttal.md", r.round)))
        .transpose()?
        .flatten();
    let summary = optional(dir, "context-summary.md")?;

    let target = match meta["target"].as_str() {
        Some("proposal") => TargetSetting::Proposal,
        Some("mixed") => TargetSetting::Mixed,
        _ => TargetSetting::Code,
    };
    let input = TextInput {
        text: original,
        origin: "resumed session".into(),
        path_hint: None,
        lossy: false,
    };
    let artifact = change::from_text(&input, target, u64::MAX);
    let route = World::with(&settings, |w| routing::route(&settings, w))?;
    for n in &route.notes {
        crate::errln!("{n}");
    }
    for (role, now) in [
        ("author", &route.author.backend),
        ("reviewer", &route.reviewer.backend),
    ] {
        if let Some(was) = meta["route"][role]["backend"].as_str().filter(|w| w != now) {
            crate::errln!(
                "note: session {} was run with {role} {}; it goes on with {now} from the current \
                 configuration (--{role} picks another)",
                stored.id,
                was.escape_debug()
            );
        }
    }
    let (author_name, reviewer_name) = (route.author.backend, route.reviewer.backend);
    let author = registry::build(&author_name, Some(Role::Author), &settings)?;
    let reviewer = registry::build(&reviewer_name, Some(Role::Reviewer), &settings)?;
    let terminal = (settings.mode == "manual")
        .then(crate::review::manual::Terminal::open)
        .transpose()?;

    // The current work tree, never a folder the session names.
    let workspace = repo
        .as_ref()
        .and_then(|r| r.workdir().map(Path::to_path_buf))
        .unwrap_or(cwd);
    let patch_base = match (
        meta["source"]["kind"].as_str(),
        meta["scope"]["resolved"]["head"].as_str(),
    ) {
        (Some("scope"), Some(sha)) => PatchBase::Commit(sha.to_string()),
        (Some("scope"), None) => PatchBase::WorkTree,
        _ => PatchBase::None,
    };
    let mut metadata = meta.clone();
    let resumed = metadata["resumed_at"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut resumed = resumed;
    resumed.push(store::rfc3339(store::now_utc()).into());
    metadata["resumed_at"] = resumed.into();
    crate::errln!(
        "resuming {} after round {} (author {author_name}, reviewer {reviewer_name})",
        stored.id,
        rounds.len()
    );
    let locations = store::files::read(&session.dir.join("locations.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let (_export, sandbox) = crate::sandbox::export::prepare(
        repo.as_ref(),
        &crate::sandbox::export::Source::of_metadata(&meta),
        &settings,
    )?;
    let fallback =
        crate::commands::review::fallback_reviewer(&settings, author.as_ref(), reviewer.name())?;
    let outcome = Review {
        session: &session,
        settings: &settings,
        fallback,
        normalizer: crate::commands::review::normalizer(&settings, author.name(), reviewer.name())?,
        locations,
        author,
        reviewer,
        artifact: &artifact,
        workspace,
        repo_dir: repo.as_ref().map(|r| r.path().to_path_buf()),
        patch_base,
        templates: Some(base.join("templates")),
        snippet: meta["source"]["kind"].as_str() != Some("scope"),
        metadata,
        terminal: terminal.map(std::sync::Mutex::new),
        budget_override: None,
        incremental: crate::review::incremental::load(&session.dir),
        sandbox,
        chunking: meta["chunking"]["budget"].as_u64().map(|b| Chunking {
            budget: b as usize,
            max_chunks: meta["chunking"]["max_chunks"].as_u64().unwrap_or(16) as usize,
        }),
        resume: Some(Resume {
            rounds,
            text,
            version,
            rebuttal,
            summary,
        }),
    }
    .run()?;
    crate::commands::review::conclude(
        &session,
        &settings,
        &outcome,
        artifact.target,
        &author_name,
        &reviewer_name,
    )
}

/// A decided session is finished; everything else (interrupted, unavailable, crashed, stopped by
/// a budget or by max rounds, a reviewer failing mid-loop, an author step that failed) can go on.
fn check_resumable(id: &str, meta: &serde_json::Value) -> Result<()> {
    let status = meta["status"].as_str().unwrap_or("");
    if status == "dry-run" {
        crate::usage!("session {id} is a dry run; start a review with `git debate` instead");
    }
    let decision = meta["final_decision"].as_str().unwrap_or("");
    let finished = meta["converged"].as_bool() == Some(true)
        || decision.starts_with("Accept")
        || decision.starts_with("Keep")
        || decision.starts_with("Stopped by user")
        || meta["stop_reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("decision E"));
    if finished {
        crate::usage!(
            "session {id} is finished ({}); start a new review with `git debate`",
            if decision.is_empty() {
                "decided"
            } else {
                decision
            }
        );
    }
    Ok(())
}

fn read(dir: &Path, name: &str) -> Result<String> {
    store::files::read_to_string(&dir.join(name))
        .with_context(|| format!("cannot read {}", dir.join(name).display()))
}

/// A file the session may not have; one that is there but unreadable is an error.
fn optional(dir: &Path, name: &str) -> Result<Option<String>> {
    match store::files::read_to_string(&dir.join(name)) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", dir.join(name).display())),
    }
}

/// The backend a debate session records for `role`, if it names no program: a built-in agent
/// (its program comes from the current configuration) or an `openai:` model (its endpoint too).
/// An `exec:` command, or anything else, is refused: a session file must not choose what runs.
pub(crate) fn recorded_backend(id: &str, role: &str, name: &str) -> Result<String> {
    let name = name.trim();
    if registry::agent(name).is_some()
        || name
            .strip_prefix("openai:")
            .is_some_and(|m| !m.trim().is_empty())
    {
        return Ok(name.to_string());
    }
    crate::usage!(
        "session {id} names {} as its {role}; resume runs no program named in a session file \
         (only built-in agents and openai: models); start a new debate instead",
        name.escape_debug()
    )
}

/// `round-1.json`, `round-2.json`, ... up to the first one missing.
fn read_rounds(dir: &Path) -> Result<Vec<Round>> {
    let mut rounds = Vec::new();
    for n in 1.. {
        let path = dir.join(format!("round-{n}.json"));
        let bytes = match store::files::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        rounds.push(
            serde_json::from_slice(&bytes)
                .with_context(|| format!("{} is damaged", path.display()))?,
        );
    }
    Ok(rounds)
}

/// The highest `artifact-v<n>.md`, if any.
fn latest_version(dir: &Path) -> Result<Option<(String, u32)>> {
    let mut best: Option<u32> = None;
    for e in std::fs::read_dir(dir)? {
        let name = e?.file_name().to_string_lossy().into_owned();
        if let Some(n) = name
            .strip_prefix("artifact-v")
            .and_then(|r| r.strip_suffix(".md"))
            .and_then(|n| n.parse().ok())
        {
            best = best.max(Some(n));
        }
    }
    best.map(|n| Ok((read(dir, &format!("artifact-v{n}.md"))?, n)))
        .transpose()
}
