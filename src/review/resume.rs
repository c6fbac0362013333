//! Resuming a review that stopped before it was decided (`git debate resume`).
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
//! The caller locks the session first, so a second `resume` (or one started while the review
//! still runs) is refused, naming the process that holds it.

use std::path::Path;

use anyhow::{Context as _, Result};

use crate::agents::registry::{self, Role};
use crate::agents::routing::{self, World};
use crate::agents::Backend;
use crate::change::{self, TextInput};
use crate::choices::{Mode, TargetSetting};
use crate::review::record::Round;
use crate::review::setup::{sides, Reviewed};
use crate::review::{Chunking, PatchBase, Resume, Review};
use crate::settings::Settings;
use crate::store::metadata::Review as Meta;
use crate::store::{self, Session};

/// Goes on with the review in `session` (locked by the caller; `meta` is its metadata) from the
/// round after the last one recorded.
pub fn run(
    session: Session,
    meta: &Meta,
    settings: &Settings,
    repo: Option<&crate::git::Repo>,
    base: &Path,
) -> Result<Reviewed> {
    let id = &session.id;
    let (state, original) = state(&session.dir, id, settings)?;
    // The kind the session's artifact was read as (never `auto`: that was resolved then).
    let target = meta
        .common
        .target
        .as_deref()
        .and_then(TargetSetting::parse)
        .filter(|t| *t != TargetSetting::Auto)
        .unwrap_or(TargetSetting::Code);
    let input = TextInput {
        text: original,
        origin: "resumed session".into(),
        path_hint: None,
        lossy: false,
    };
    let version = match meta
        .scope
        .resolved
        .as_ref()
        .filter(|_| meta.source.is_scope())
        .and_then(|r| r.head.as_ref().or(r.index_tree.as_ref()))
    {
        Some(id) => crate::git::Version::Tree(id.clone()),
        None => crate::git::Version::WorkTree,
    };
    let mut waivers = crate::waivers::read(repo, &version)?;
    let edited = meta.files.iter().any(|f| f.path == crate::waivers::FILE);
    // As when it started: a committed change's own waivers do not apply to its review.
    let resolved = meta
        .scope
        .resolved
        .as_ref()
        .filter(|_| meta.source.is_scope());
    if let (true, Some(r)) = (edited, resolved.filter(|r| r.head.is_some())) {
        let before = match r.merge_base.as_ref().or(r.base.as_ref()) {
            Some(id) => crate::waivers::read(repo, &crate::git::Version::Tree(id.clone()))?,
            None => Vec::new(),
        };
        waivers.retain(|w| before.contains(w));
    }
    let mut artifact = change::from_text(&input, target, u64::MAX);
    // The instructions the session was started with, as they were sent.
    if let Some(record) = &meta.instructions {
        let text = crate::sys::file_io::read_regular_no_link(
            &session.dir.join(crate::instructions::FILE),
            2 * crate::instructions::MAX_BYTES as u64,
        )
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
        artifact.instructions = crate::instructions::Instructions::of(record.clone(), text);
    }
    let (route, (author_name, author), (reviewer_name, reviewer)) = sides(id, meta, settings)?;
    let terminal = (settings.mode == Mode::Manual)
        .then(crate::review::manual::Terminal::open)
        .transpose()?;
    // The current work tree, never a folder the session names.
    let workspace = match repo.and_then(|r| r.workdir()) {
        Some(w) => w.to_path_buf(),
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let head = meta.scope.resolved.as_ref().and_then(|r| r.head.as_deref());
    let patch_base = match (meta.source.is_scope(), head) {
        (true, Some(sha)) => PatchBase::Commit(sha.to_string()),
        (true, None) => PatchBase::WorkTree,
        _ => PatchBase::None,
    };
    let mut metadata = meta.clone();
    metadata.resumed_at.push(store::rfc3339(store::now_utc()));
    crate::errln!(
        "resuming {id} after round {} (author {author_name}, reviewer {reviewer_name})",
        state.rounds.len()
    );
    // An index that cannot be read is rebuilt by nobody: locations are then not checked.
    let locations = store::folder::locations(&session.dir).ok().flatten();
    let prepared = crate::sandbox::export::prepare(
        repo,
        &crate::sandbox::export::Source::of_metadata(meta),
        settings,
    )?;
    let fallback = sides::fallback_chain(settings, author.as_ref(), &route)?;
    let outcome = Review {
        session: &session,
        settings,
        fallback,
        others: sides::others(settings, &route)?,
        normalizer: sides::normalizer(settings, author.name(), reviewer.name())?,
        locations,
        author,
        reviewer,
        artifact: &artifact,
        workspace,
        repo_dir: repo.map(|r| r.path().to_path_buf()),
        patch_base,
        templates: Some(store::templates::dir(base)),
        snippet: !meta.source.is_scope(),
        metadata,
        terminal: terminal.map(std::sync::Mutex::new),
        budget_override: None,
        incremental: crate::review::incremental::load(&session.dir),
        sandbox: prepared.sandbox.clone(),
        exports: prepared.lazy.as_ref(),
        chunking: meta.chunking.map(|c| Chunking {
            budget: c.budget,
            max_chunks: c.max_chunks,
        }),
        resume: Some(state),
    }
    .run()?;
    Ok(Reviewed {
        session,
        outcome,
        target: artifact.target,
        author: author_name,
        reviewer: reviewer_name,
        injections: meta.injections.clone(),
        setup_notes: meta
            .instructions
            .as_ref()
            .map(|r| r.notes.clone())
            .unwrap_or_default(),
        waivers_edited: edited && resolved.is_some_and(|r| r.head.is_some()),
        waivers,
    })
}

/// Where the stopped review left off, and the original artifact; refused when the rounds it has
/// already reach `--max-rounds`.
fn state(dir: &Path, id: &str, settings: &Settings) -> Result<(Resume, String)> {
    let rounds = read_rounds(dir)?;
    if rounds.len() as u32 >= settings.max_rounds {
        crate::usage!(
            "session {id} already has {} round(s) and --max-rounds is {}; pass --max-rounds {} to \
             continue",
            rounds.len(),
            settings.max_rounds,
            (rounds.len() + 1).min(5)
        );
    }
    let original = read(dir, "artifact.md")?;
    let (text, version) = store::folder::latest_version(dir)?.unwrap_or((original.clone(), 1));
    let rebuttal = rounds
        .last()
        .filter(|r| r.choice == 'D')
        .map(|r| optional(dir, &format!("round-{}-rebuttal.md", r.round)))
        .transpose()?
        .flatten();
    let summary = optional(dir, "context-summary.md")?;
    let resume = Resume {
        rounds,
        text,
        version,
        rebuttal,
        summary,
    };
    Ok((resume, original))
}

/// A side's name as routed, and its backend.
type Side = (String, Box<dyn Backend>);

/// The author and the reviewer, routed from the current configuration and flags (a note says
/// when that differs from the session's record).
fn sides(id: &str, meta: &Meta, settings: &Settings) -> Result<(routing::Route, Side, Side)> {
    let route = World::with(settings, |w| routing::route(settings, w))?;
    for n in &route.notes {
        crate::errln!("{n}");
    }
    let was = meta.route.as_ref();
    for (role, was, now) in [
        ("author", was.map(|r| &r.author), &route.author.backend),
        (
            "reviewer",
            was.map(|r| &r.reviewer),
            &route.reviewer.backend,
        ),
    ] {
        if let Some(was) = was.map(|p| p.backend.as_str()).filter(|w| w != now) {
            crate::errln!(
                "note: session {id} was run with {role} {}; it goes on with {now} from the current \
                 configuration (--{role} picks another)",
                was.escape_debug()
            );
        }
    }
    let (author_name, reviewer_name) =
        (route.author.backend.clone(), route.reviewer.backend.clone());
    let author = registry::build(&author_name, Some(Role::Author), settings)?;
    let reviewer = registry::build(&reviewer_name, Some(Role::Reviewer), settings)?;
    Ok((route, (author_name, author), (reviewer_name, reviewer)))
}

/// A decided session is finished; everything else (interrupted, unavailable, crashed, stopped by
/// a budget or by max rounds, a reviewer failing mid-loop, an author step that failed) can go on.
pub fn check_resumable(id: &str, meta: &Meta) -> Result<()> {
    if meta.common.status == "dry-run" {
        crate::usage!("session {id} is a dry run; start a review with `git debate` instead");
    }
    let decision = meta.final_decision.as_deref().unwrap_or("");
    let finished = meta.converged == Some(true)
        || decision.starts_with("Accept")
        || decision.starts_with("Keep")
        || decision.starts_with("Stopped by user")
        || meta
            .stop_reason
            .as_deref()
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
    optional(dir, name)?
        .with_context(|| format!("cannot read {}: no such file", dir.join(name).display()))
}

/// A file the session may not have; one that is there but unreadable is an error.
fn optional(dir: &Path, name: &str) -> Result<Option<String>> {
    store::folder::text(dir, name)
        .with_context(|| format!("cannot read {}", dir.join(name).display()))
}

/// `round-1.json`, `round-2.json`, ... up to the first one missing; a round that is there but
/// cannot be read stops the resume (its findings would be lost).
fn read_rounds(dir: &Path) -> Result<Vec<Round>> {
    store::folder::rounds(dir).with_context(|| format!("{} is damaged", dir.display()))
}
