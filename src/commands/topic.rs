//! `git debate topic "QUESTION"`: a proposer/challenger debate between models of different
//! families, grounded in the repository (and optionally in a change), judged by the author model.

use std::io::Write;

use anyhow::{Context, Result};
use serde_json::json;

use crate::backend::registry::{self, Role};
use crate::backend::routing::{self, World};
use crate::cli::{ReviewArgs, TopicArgs};
use crate::config::{Layers, Settings};
use crate::debate::{self, citations::Checker, Duel};
use crate::error::Outcome;
use crate::scope::{self, Scope};
use crate::session::{self, Session};

pub fn run(args: &TopicArgs) -> Result<Outcome> {
    if !(1..=5).contains(&args.rounds) {
        crate::usage!("bad value for --rounds {}: expected 1 to 5", args.rounds);
    }
    if args.topic.trim().is_empty() {
        crate::usage!("the topic is empty: say what to debate, e.g. git debate topic \"should we cache this?\"");
    }
    let repo = crate::repo::discover()?;
    let base_args = ReviewArgs {
        effort: args.effort,
        backend_timeout_seconds: args.backend_timeout_seconds,
        budget_minutes: args.budget_minutes,
        format: args.format,
        output: args.output.clone(),
        state_dir: args.state_dir.clone(),
        ..Default::default()
    };
    let layers = || Layers::load(repo.as_ref());
    let settings = Settings::resolve(layers()?, &base_args)?;
    for w in &settings.warnings {
        eprintln!("{w}");
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let context = shared_context(args, repo.as_ref(), &settings)?;
    let topic = crate::redact::redact(args.topic.trim(), None).text;
    let base = session::base_dir(repo.as_ref(), settings.state_dir.as_deref(), &cwd);
    let workspace = repo
        .as_ref()
        .and_then(|r| r.workdir().map(|p| p.to_path_buf()))
        .unwrap_or_else(|| cwd.clone());
    let checker = || {
        Checker::new(
            repo.as_ref()
                .and_then(|r| git2::Repository::open(r.path()).ok()),
        )
    };
    if !args.debaters.is_empty() || args.panel.is_some() {
        // Seed 002's time budget is 30 minutes unless one is given.
        let mut settings = settings;
        if args.budget_minutes.is_none() && !settings.sources.contains_key("budgetMinutes") {
            settings.budget_minutes = 30;
        }
        // The chair is the author a review would have; it needs no opposite.
        let chair = World::with(&settings, |w| routing::pick_author(&settings, w))?.backend;
        return super::panel::run(
            args,
            super::panel::Setup {
                settings: &settings,
                topic: &topic,
                chair: &chair,
                base: &base,
                workspace,
                context,
                checker: checker(),
            },
        );
    }
    // The sides: proposer and challenger route like author and reviewer; the orchestrator (the
    // judge) is the author a review would have.
    let sides = Settings::resolve(
        layers()?,
        &ReviewArgs {
            author: args.proposer.clone(),
            reviewer: args.challenger.clone(),
            model_author: args.model_proposer.clone(),
            model_reviewer: args.model_challenger.clone(),
            ..base_args.clone()
        },
    )?;
    let route = World::with(&sides, |w| routing::route(&sides, w))?;
    for n in &route.notes {
        eprintln!("{n}");
    }
    if route.author.backend == route.reviewer.backend {
        crate::usage!(
            "the proposer and the challenger are both {}; they must differ (--proposer / --challenger)",
            route.author.backend
        );
    }
    let orchestrator_name = World::with(&settings, |w| routing::route(&settings, w))
        .map(|r| r.author.backend)
        .unwrap_or_else(|_| route.author.backend.clone());
    let proposer = registry::build(&route.author.backend, Some(Role::Author), &sides)?;
    let challenger = registry::build(&route.reviewer.backend, Some(Role::Reviewer), &sides)?;
    let orchestrator = registry::build(&orchestrator_name, Some(Role::Author), &settings)?;

    let s = Session::create(&base)?;
    s.write("artifact.md", format!("# Topic\n\n{topic}\n").as_bytes())?;
    let now = session::rfc3339(session::now_utc());
    let mut meta = json!({
        "version": session::METADATA_VERSION, "id": s.id, "kind": "topic", "status": "running",
        "target": "topic", "topic": topic, "created_at": now, "updated_at": now,
        "tool_version": env!("CARGO_PKG_VERSION"), "workspace": workspace,
        "proposer": route.author, "challenger": route.reviewer, "orchestrator": orchestrator_name,
        "rounds": args.rounds, "scope": args.scope, "settings": settings,
    });
    s.write_json("metadata.json", &meta)?;
    let checker = checker();
    let outcome = Duel {
        session: &s,
        settings: &settings,
        topic: topic.clone(),
        proposer,
        challenger,
        orchestrator,
        rounds: args.rounds,
        workspace,
        context,
        templates: Some(base.join("templates")),
        checker,
    }
    .run()?;

    s.write(
        "transcript.md",
        debate::transcript(&topic, &outcome.exchanges, &outcome.notes).as_bytes(),
    )?;
    let summary = debate::summary_markdown(&s.id, &topic, &outcome, args.rounds);
    s.write("summary.md", summary.as_bytes())?;
    let report = json!({
        "schema": 1, "kind": "topic", "session": s.id, "session_dir": s.dir, "topic": topic,
        "status": outcome.status, "rounds_completed": outcome.rounds_completed,
        "max_rounds": args.rounds, "proposer": route.author.backend,
        "challenger": route.reviewer.backend, "orchestrator": orchestrator_name,
        "verdict": outcome.verdict, "notes": outcome.notes, "exchanges": outcome.exchanges,
        "duration_ms": outcome.duration_ms,
    });
    s.write_json("summary.json", &report)?;
    let model_of = |role: &str| {
        outcome
            .exchanges
            .iter()
            .find(|e| e.role == role)
            .and_then(|e| e.model.clone())
    };
    let (pm, cm) = (model_of("proposer"), model_of("challenger"));
    let state = debate::state_record(
        &s.id,
        &topic,
        &outcome,
        args.rounds,
        settings.effort.as_deref(),
        [
            (&route.author.backend, pm.as_deref()),
            (&route.reviewer.backend, cm.as_deref()),
        ],
    );
    session::write_atomic(
        &base.join("last-debate.json"),
        serde_json::to_string_pretty(&state)?.as_bytes(),
    )?;
    meta["status"] = outcome.status.clone().into();
    meta["rounds_completed"] = outcome.rounds_completed.into();
    meta["updated_at"] = session::rfc3339(session::now_utc()).into();
    s.write_json("metadata.json", &meta)?;

    let text = match settings.format.as_str() {
        "json" => serde_json::to_string_pretty(&report)? + "\n",
        _ => format!("{summary}\nsession: {}\n", s.dir.display()),
    };
    match &settings.output {
        Some(p) => session::write_atomic(p, text.as_bytes())?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(match outcome.status.as_str() {
        "interrupted" => Outcome::Interrupted,
        "aborted" => Outcome::Unavailable,
        _ => Outcome::Success,
    })
}

/// `--scope`: the change both sides (or the whole panel) are given as shared context.
fn shared_context(
    args: &TopicArgs,
    repo: Option<&git2::Repository>,
    settings: &Settings,
) -> Result<Option<String>> {
    match (&args.scope, repo) {
        (None, _) => Ok(None),
        (Some(_), None) => crate::usage!("--scope needs a git repository"),
        (Some(s), Some(r)) => {
            let scope = Scope::parse(s)?;
            let change = scope::resolve(r, &scope, settings.context_lines)?;
            let a = crate::artifact::from_change(
                &change,
                &scope.to_string(),
                crate::config::TargetSetting::Code,
                settings.max_artifact_bytes,
            );
            Ok(Some(a.text))
        }
    }
}
