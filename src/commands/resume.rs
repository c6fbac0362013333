//! `git debate resume [ID]`: continue a review that stopped before it was decided.
//!
//! Everything a round needs is in the session folder: the rounds' records (findings with their
//! ids and rulings), the latest artifact version, the last rebuttal and the context summary. The
//! author and reviewer are the session's own; settings (models, timeouts, formats) come from the
//! current configuration and the flags, and the time budget starts afresh.

use std::path::Path;

use anyhow::{Context, Result};

use crate::artifact::{self, TextInput};
use crate::backend::registry::{self, Role};
use crate::cli::{ResumeArgs, ReviewArgs};
use crate::config::{Layers, Settings, TargetSetting};
use crate::error::Outcome;
use crate::review::record::Round;
use crate::review::{PatchBase, Resume, Review};
use crate::session::{self, Session};

pub fn run(args: &ResumeArgs) -> Result<Outcome> {
    let repo = crate::repo::discover()?;
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    // Where the session is: only the store location matters before it is found.
    let locate = Settings::resolve(
        Layers::load(repo.as_ref())?,
        &ReviewArgs {
            state_dir: args.state_dir.clone(),
            ..Default::default()
        },
    )?;
    let base = session::base_dir(repo.as_ref(), locate.state_dir.as_deref(), &cwd);
    let stored = session::find(&base, &args.id)?;
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
        Layers::load(repo.as_ref())?,
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
            ..Default::default()
        },
    )?;
    for w in &settings.warnings {
        crate::errln!("{w}");
    }
    if meta["kind"] == "panel" {
        return super::panel::resume(&stored, meta, &settings);
    }
    if meta["kind"] == "topic" {
        return super::topic::resume(&stored, meta, &settings, &base, args.max_rounds);
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
    let rebuttal = rounds.last().filter(|r| r.choice == 'D').and_then(|r| {
        std::fs::read_to_string(dir.join(format!("round-{}-rebuttal.md", r.round))).ok()
    });
    let summary = std::fs::read_to_string(dir.join("context-summary.md")).ok();

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
    let artifact = artifact::from_text(&input, target, u64::MAX);
    let backend = |role: &str| -> Result<String> {
        meta["route"][role]["backend"]
            .as_str()
            .map(str::to_string)
            .with_context(|| format!("session {} does not record its {role}", stored.id))
    };
    let (author_name, reviewer_name) = (backend("author")?, backend("reviewer")?);
    let author = registry::build(&author_name, Some(Role::Author), &settings)?;
    let reviewer = registry::build(&reviewer_name, Some(Role::Reviewer), &settings)?;
    let terminal = (settings.mode == "manual")
        .then(crate::review::manual::Terminal::open)
        .transpose()?;

    let session = Session::open(dir, &stored.id);
    let workspace = meta["workspace"]
        .as_str()
        .map(std::path::PathBuf::from)
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
    resumed.push(session::rfc3339(session::now_utc()).into());
    metadata["resumed_at"] = resumed.into();
    crate::errln!(
        "resuming {} after round {} (author {author_name}, reviewer {reviewer_name})",
        stored.id,
        rounds.len()
    );
    let locations = std::fs::read(session.dir.join("locations.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let outcome = Review {
        session: &session,
        settings: &settings,
        normalizer: super::review::normalizer(&settings, author.name(), reviewer.name())?,
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
        resume: Some(Resume {
            rounds,
            text,
            version,
            rebuttal,
            summary,
        }),
    }
    .run()?;
    super::review::conclude(
        &session,
        &settings,
        &outcome,
        artifact.target,
        &author_name,
        &reviewer_name,
    )
}

/// A decided session is finished; everything else (interrupted, unavailable, crashed, stopped by
/// a budget or by max rounds, a reviewer failing mid-loop) can go on.
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
    std::fs::read_to_string(dir.join(name))
        .with_context(|| format!("cannot read {}", dir.join(name).display()))
}

/// `round-1.json`, `round-2.json`, ... up to the first one missing.
fn read_rounds(dir: &Path) -> Result<Vec<Round>> {
    let mut rounds = Vec::new();
    for n in 1.. {
        let path = dir.join(format!("round-{n}.json"));
        let Ok(bytes) = std::fs::read(&path) else {
            break;
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
