//! What any topic debate starts from (the question, the change it may be grounded in, the store,
//! the work tree the models run in, the citation checker), and the duel's own start: its sides,
//! its session record and its run.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::agents::budget::Budget;
use crate::cli::TopicArgs;
use crate::debate::citations::Checker;
use crate::debate::{record, sides, Duel, Ended};
use crate::git::{self, Scope};
use crate::settings::{Overrides, Settings};
use crate::store::metadata::{self, Duel as Meta, DuelBudget, Kind, Metadata, Seated};
use crate::store::{self, Session};

/// What every debate is given, duel or panel.
pub struct Ground {
    /// The question, redacted.
    pub topic: String,
    /// `--scope`: the change both sides (or the whole panel) are given as shared context.
    pub context: Option<String>,
    /// The session store.
    pub base: PathBuf,
    /// The current work tree, where the models run.
    pub workspace: PathBuf,
    pub checker: Checker,
}

/// A debate's settings: [`Settings::for_run`] in `repo`, and unless ours is set, git's
/// `diff.context` for a `--scope` change (as the record shows).
pub fn settings(repo: Option<&crate::git::Repo>, overrides: &Overrides) -> Result<Settings> {
    let mut settings = Settings::for_run(repo.map(crate::git::Repo::dirs), overrides)?;
    settings
        .context_lines
        .get_or_insert_with(|| git::context_lines(repo));
    Ok(settings)
}

/// The flags no debate can run with, refused before anything is read.
pub fn check(args: &TopicArgs) -> Result<()> {
    if !(1..=5).contains(&args.rounds) {
        crate::usage!("bad value for --rounds {}: expected 1 to 5", args.rounds);
    }
    if args.topic.trim().is_empty() {
        crate::usage!("the topic is empty: say what to debate, e.g. git debate topic \"should we cache this?\"");
    }
    Ok(())
}

impl Ground {
    pub fn new(
        args: &TopicArgs,
        repo: Option<&crate::git::Repo>,
        settings: &Settings,
    ) -> Result<Ground> {
        let cwd = std::env::current_dir().context("cannot read the current directory")?;
        let context = shared_context(args, repo, settings)?;
        let topic = crate::redact::redact(args.topic.trim(), None).text;
        let base = store::base_dir(repo, settings.state_dir.as_deref(), &cwd);
        let workspace = repo
            .and_then(|r| r.workdir().map(|p| p.to_path_buf()))
            .unwrap_or_else(|| cwd.clone());
        Ok(Ground {
            topic,
            context,
            base,
            workspace,
            checker: Checker::new(repo.and_then(crate::git::Repo::libgit2)),
        })
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
                let input = crate::change::read::file_scope(Some(r), p, &cwd, cap)?;
                return Ok(Some(input.text));
            }
            let change = git::resolve(r, &scope, settings.context_lines)?;
            let a = crate::change::from_change(
                &change,
                &scope.to_string(),
                crate::choices::TargetSetting::Code,
                settings.max_artifact_bytes,
            );
            Ok(Some(a.text))
        }
    }
}

/// Runs a duel: `sides` are the settings the proposer and the challenger are routed with.
pub fn duel(
    args: &TopicArgs,
    ground: Ground,
    settings: &Settings,
    sides: &Settings,
) -> Result<Ended> {
    let seats = sides::seat(args, settings, sides)?;
    let budget = Budget::for_topic(settings, args.budget.budget_minutes)?;
    let Ground {
        topic,
        context,
        base,
        workspace,
        checker,
    } = ground;
    let s = Session::create(&base)?;
    s.write("artifact.md", format!("# Topic\n\n{topic}\n").as_bytes())?;
    let mut meta = Meta {
        common: metadata::Common::new(&s.id, "running", "topic", workspace.display().to_string()),
        kind: Kind::Topic,
        topic: topic.clone(),
        proposer: Seated::Pick((&seats.route.author).into()),
        challenger: Seated::Pick((&seats.route.reviewer).into()),
        orchestrator: Some(seats.judge.backend.clone()),
        judge: Some((&seats.judge).into()),
        budget: Some(DuelBudget {
            seconds: budget.total.as_secs(),
            reserved_for_verdict_seconds: budget.reserve.as_secs(),
            source: budget.source.clone(),
        }),
        rounds: args.rounds,
        scope: args.scope.clone(),
        settings: Some(metadata::Settings::of(settings)?),
        rounds_completed: None,
    };
    s.write_metadata(&Metadata::Topic(Box::new(meta.clone())))?;
    let outcome = Duel {
        session: &s,
        settings,
        topic: topic.clone(),
        proposer: seats.proposer,
        challenger: seats.challenger,
        judge: seats.judge_backend,
        judge_why: seats.judge.why.clone(),
        rounds: args.rounds,
        budget,
        workspace,
        context,
        templates: Some(store::templates::dir(&base)),
        checker,
        resume: Vec::new(),
    }
    .run()?;
    record::finish(s, settings, &base, &mut meta, &outcome)
}
