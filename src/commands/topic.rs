//! `git debate topic "QUESTION"`: a proposer/challenger debate between models of different
//! families, grounded in the repository (and optionally in a change), judged by the author model.

use anyhow::{Context, Result};
use serde_json::json;

use crate::agents::registry::{self, Role};
use crate::agents::routing::{self, World};
use crate::cli::{ReviewArgs, TopicArgs};
use crate::debate::{self, citations::Checker, Duel};
use crate::error::Outcome;
use crate::git::{self, Scope};
use crate::settings::{Layers, Settings};
use crate::store::{self, Session};

pub fn run(args: &TopicArgs) -> Result<Outcome> {
    if !(1..=5).contains(&args.rounds) {
        crate::usage!("bad value for --rounds {}: expected 1 to 5", args.rounds);
    }
    if args.topic.trim().is_empty() {
        crate::usage!("the topic is empty: say what to debate, e.g. git debate topic \"should we cache this?\"");
    }
    let repo = crate::git::repo::discover()?;
    let base_args = ReviewArgs {
        effort: args.effort,
        backend_timeout_seconds: args.backend_timeout_seconds,
        budget_minutes: args.budget_minutes,
        format: args.format,
        output: args.output.clone(),
        state_dir: args.state_dir.clone(),
        ..Default::default()
    };
    let layers = || Layers::load(repo.as_ref().map(crate::git::Repo::dirs));
    let mut settings = Settings::resolve(layers()?, &base_args)?;
    settings
        .context_lines
        .get_or_insert_with(|| crate::git::context_lines(repo.as_ref()));
    for w in &settings.warnings {
        crate::errln!("{w}");
    }
    if let Some(p) = &settings.output {
        crate::report::output::check(p)?;
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let context = shared_context(args, repo.as_ref(), &settings)?;
    let topic = crate::redact::redact(args.topic.trim(), None).text;
    let base = store::base_dir(repo.as_ref(), settings.state_dir.as_deref(), &cwd);
    let workspace = repo
        .as_ref()
        .and_then(|r| r.workdir().map(|p| p.to_path_buf()))
        .unwrap_or_else(|| cwd.clone());
    let checker = || Checker::new(repo.as_ref().and_then(crate::git::Repo::libgit2));
    if !args.debaters.is_empty() || args.panel.is_some() {
        // Seed 002's time budget is 30 minutes unless one is given.
        let mut settings = settings;
        if args.budget_minutes.is_none() && !settings.sources.contains_key("budgetMinutes") {
            settings.budget_minutes = 30;
        }
        // The chair is the author a review would have; it needs no opposite.
        let chair = World::with(&settings, |w| routing::pick_author(&settings, w))?.backend;
        return crate::commands::panel::run(
            args,
            crate::commands::panel::Setup {
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
    // The sides: proposer and challenger route like author and reviewer. The same family is
    // checked here, in the debate's own words.
    let sides = Settings::resolve(
        layers()?,
        &ReviewArgs {
            author: args.proposer.clone(),
            reviewer: args.challenger.clone(),
            model_author: args.model_proposer.clone(),
            model_reviewer: args.model_challenger.clone(),
            allow_same_family: true,
            ..base_args.clone()
        },
    )?;
    let (route, judge) = World::with(&sides, |w| -> Result<_> {
        let route = routing::route(&sides, w)?;
        let judge = routing::pick_judge(
            &settings,
            w,
            [&route.author, &route.reviewer],
            args.judge.as_deref(),
        )?;
        Ok((route, judge))
    })?;
    for n in route
        .notes
        .iter()
        .filter(|n| !n.contains("--allow-same-family"))
    {
        crate::errln!("{n}");
    }
    let (p, c) = (&route.author, &route.reviewer);
    if p.backend == c.backend {
        crate::usage!(
            "the proposer and the challenger are both {}; they must differ (--proposer / --challenger)",
            p.backend
        );
    }
    if p.family == c.family && !p.family.is_unknown() {
        if !args.allow_same_family {
            crate::usage!(
                "the proposer {} and the challenger {} are both {} models, so the debate is not \
                 between two perspectives; choose --challenger from another family or pass \
                 --allow-same-family",
                p.backend,
                c.backend,
                p.family
            );
        }
        crate::errln!(
            "note: the proposer and the challenger are both {} models (--allow-same-family)",
            p.family
        );
    }
    let proposer = registry::build(&p.backend, Some(Role::Author), &sides)?;
    let challenger = registry::build(&c.backend, Some(Role::Reviewer), &sides)?;
    let judge_backend = registry::build(&judge.backend, Some(Role::Author), &settings)?;
    let budget = debate::budget::for_topic(&settings, args.budget_minutes)?;

    let s = Session::create(&base)?;
    s.write("artifact.md", format!("# Topic\n\n{topic}\n").as_bytes())?;
    let now = store::rfc3339(store::now_utc());
    let mut meta = json!({
        "version": store::METADATA_VERSION, "id": s.id, "kind": "topic", "status": "running",
        "target": "topic", "topic": topic, "created_at": now, "updated_at": now,
        "tool_version": env!("CARGO_PKG_VERSION"), "workspace": workspace,
        "proposer": route.author, "challenger": route.reviewer,
        "orchestrator": judge.backend, "judge": judge,
        "budget": {"seconds": budget.total.as_secs(), "reserved_for_verdict_seconds":
            budget.reserve.as_secs(), "source": budget.source},
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
        judge: judge_backend,
        judge_why: judge.why.clone(),
        rounds: args.rounds,
        budget,
        workspace,
        context,
        templates: Some(base.join("templates")),
        checker,
        resume: Vec::new(),
    }
    .run()?;
    conclude(&s, &settings, &base, &mut meta, &outcome)
}

/// Writes the transcript, summary, report and `last-debate.json`, prints the result and picks
/// the exit code. Shared with `resume`.
fn conclude(
    s: &Session,
    settings: &Settings,
    base: &std::path::Path,
    meta: &mut serde_json::Value,
    outcome: &debate::Outcome,
) -> Result<Outcome> {
    let topic = meta["topic"].as_str().unwrap_or("").to_string();
    let rounds = meta["rounds"].as_u64().unwrap_or(2) as u32;
    s.write(
        "transcript.md",
        debate::transcript(&topic, &outcome.exchanges, &outcome.notes).as_bytes(),
    )?;
    let summary = debate::summary_markdown(&s.id, &topic, outcome, rounds);
    s.write("summary.md", summary.as_bytes())?;
    let report = json!({
        "schema": 1, "kind": "topic", "session": s.id, "session_dir": s.dir, "topic": topic,
        "status": outcome.status, "rounds_completed": outcome.rounds_completed,
        "max_rounds": rounds, "proposer": outcome.proposer, "challenger": outcome.challenger,
        "judge": outcome.judge, "verdict": outcome.verdict,
        "notes": outcome.notes, "exchanges": outcome.exchanges,
        "duration_ms": outcome.duration_ms,
    });
    s.write_json("summary.json", &report)?;
    let state = debate::state_record(&s.id, &topic, outcome, rounds, settings.effort.as_deref());
    store::write_atomic(
        &base.join("last-debate.json"),
        serde_json::to_string_pretty(&state)?.as_bytes(),
    )?;
    meta["status"] = outcome.status.clone().into();
    meta["rounds_completed"] = outcome.rounds_completed.into();
    meta["updated_at"] = store::rfc3339(store::now_utc()).into();
    s.write_json("metadata.json", meta)?;
    emit(settings, &report, &summary, s, &outcome.status)
}

/// Prints a debate's result (the JSON report, or the summary) and picks the exit code: aborted
/// debates are "not evaluated" (3). Shared with panels.
pub(crate) fn emit(
    settings: &Settings,
    report: &serde_json::Value,
    summary: &str,
    s: &Session,
    status: &str,
) -> Result<Outcome> {
    let json = settings.format == "json";
    let text = if json {
        crate::ui::terminal::json(&(serde_json::to_string_pretty(report)? + "\n")).into_owned()
    } else {
        crate::ui::terminal::clean(&format!("{summary}\nsession: {}\n", s.dir.display()))
            .into_owned()
    };
    match &settings.output {
        Some(p) => crate::report::output::write(p, text.as_bytes())?,
        None => crate::ui::terminal::out_trusted(text.as_bytes())?,
    }
    Ok(match status {
        "interrupted" => Outcome::Interrupted,
        // Nothing was debated: the challenger (like a reviewer) never answered.
        "aborted" | "uncontested" => Outcome::Unavailable,
        _ => Outcome::Success,
    })
}

/// `git debate resume` of a duel: the logged exchanges are kept and the debate goes on from the
/// next turn with the same sides.
pub fn resume(
    s: Session,
    stored: &store::Stored,
    mut meta: serde_json::Value,
    settings: &Settings,
    base: &std::path::Path,
    (max_rounds, budget_minutes): (Option<u32>, Option<u64>),
) -> Result<Outcome> {
    if meta["status"] == "completed" {
        crate::usage!(
            "debate {} is finished; start a new one with `git debate topic`",
            stored.id
        );
    }
    let exchanges: Vec<debate::Exchange> = read_log(&stored.dir.join("debate-log.jsonl"))?
        .lines()
        .map(serde_json::from_str)
        .collect::<std::result::Result<_, _>>()
        .with_context(|| format!("the debate log of {} is damaged", stored.id))?;
    if let Some(r) = max_rounds {
        meta["rounds"] = r.into();
    }
    let rounds = meta["rounds"].as_u64().unwrap_or(2) as u32;
    let name = |k: &str| -> Result<String> {
        let recorded = meta[k]["backend"]
            .as_str()
            .or_else(|| meta[k].as_str())
            .with_context(|| format!("debate {} does not record its {k}", stored.id))?;
        crate::commands::resume::recorded_backend(&stored.id, k, recorded)
    };
    let proposer = registry::build(&name("proposer")?, Some(Role::Author), settings)?;
    let challenger = registry::build(&name("challenger")?, Some(Role::Reviewer), settings)?;
    // Older sessions recorded only the backend, as the orchestrator.
    let judge_name = match meta["judge"]["backend"].as_str() {
        Some(j) => crate::commands::resume::recorded_backend(&stored.id, "judge", j)?,
        None => name("orchestrator")?,
    };
    let judge = registry::build(&judge_name, Some(Role::Author), settings)?;
    let judge_why = meta["judge"]["why"]
        .as_str()
        .unwrap_or("the judge the debate started with")
        .to_string();
    // The time budget starts afresh, from the flag or the configuration of now.
    let budget = debate::budget::for_topic(settings, budget_minutes)?;
    let repo = crate::git::repo::discover()?;
    // The current work tree, never a folder the session names.
    let workspace = repo
        .as_ref()
        .and_then(|r| r.workdir().map(std::path::Path::to_path_buf))
        .unwrap_or(std::env::current_dir()?);
    crate::errln!("resuming {} after {} turn(s)", stored.id, exchanges.len());
    let outcome = Duel {
        session: &s,
        settings,
        topic: meta["topic"].as_str().unwrap_or("").to_string(),
        proposer,
        challenger,
        judge,
        judge_why,
        rounds,
        budget,
        workspace,
        context: None,
        templates: Some(base.join("templates")),
        checker: Checker::new(repo.as_ref().and_then(crate::git::Repo::libgit2)),
        resume: exchanges,
    }
    .run()?;
    conclude(&s, settings, base, &mut meta, &outcome)
}

/// A debate log (JSON lines), read as a session file; a missing log is an empty one.
pub(crate) fn read_log(path: &std::path::Path) -> Result<String> {
    match store::files::read_to_string(path) {
        Ok(t) => Ok(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// `--scope`: the change both sides (or the whole panel) are given as shared context.
fn shared_context(
    args: &TopicArgs,
    repo: Option<&crate::git::Repo>,
    settings: &Settings,
) -> Result<Option<String>> {
    match (&args.scope, repo) {
        (None, _) => Ok(None),
        (Some(_), None) => crate::usage!("--scope needs a git repository"),
        (Some(s), Some(r)) => {
            let scope = Scope::parse(s)?;
            if let Scope::File(p) = &scope {
                // A file is read whole (bounded, regular files only), like `--scope file:`.
                let cwd = std::env::current_dir().context("cannot read the current directory")?;
                let cap = crate::sys::files::review_cap(settings.max_artifact_bytes);
                let input = crate::commands::content::read_file_scope(Some(r), p, &cwd, cap)?;
                return Ok(Some(input.text));
            }
            let change = git::resolve(r, &scope, settings.context_lines)?;
            let a = crate::change::from_change(
                &change,
                &scope.to_string(),
                crate::settings::TargetSetting::Code,
                settings.max_artifact_bytes,
            );
            Ok(Some(a.text))
        }
    }
}
