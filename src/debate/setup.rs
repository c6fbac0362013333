//! What any topic debate starts from (the question, the change it may be grounded in, the store,
//! the private export the models run in, the citation checker), and the duel's own start: its
//! sides, its session record and its run.
//!
//! Debaters run where reviewers run: in a redacted export of the revision being debated
//! ([`crate::sandbox::export`]), never in the repository itself, where `.env` and `.git` are
//! readable. Without `--scope`, or outside a repository, that is an empty private directory.

use std::path::PathBuf;

use anyhow::{Context as _, Result};

use crate::agents::budget::Budget;
use crate::cli::TopicArgs;
use crate::debate::citations::Checker;
use crate::debate::{record, sides, Duel, Ended};
use crate::git::{self, Scope};
use crate::sandbox::confine::Sandbox;
use crate::sandbox::export::{Export, Source};
use crate::settings::{Overrides, Settings};
use crate::store::metadata::{
    self, Debated, Duel as Meta, DuelBudget, Kind, Metadata, Revision, Seated, WorkTree,
};
use crate::store::{self, Session};

/// What every debate is given, duel or panel.
pub struct Ground {
    /// The question, redacted.
    pub topic: String,
    /// `--scope`: the change both sides (or the whole panel) are given as shared context.
    pub context: Option<String>,
    /// The session store.
    pub base: PathBuf,
    /// The repository's work tree (else the current directory): checked before and after every
    /// call for changes; the models run in the sandbox's export, not here.
    pub workspace: PathBuf,
    pub checker: Checker,
    /// The revision debated, for `metadata.json` and `resume`: a tree, the work tree, or none.
    pub revision: Revision,
    /// Where and how every call runs.
    pub sandbox: Sandbox,
    /// The export the sandbox names; removed when dropped (at the end of the debate).
    pub export: Option<Export>,
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
    if let Some(m) = args
        .budget
        .budget_minutes
        .filter(|m| !(m.is_finite() && *m > 0.0 && *m <= 1440.0))
    {
        crate::usage!(
            "bad value for --budget-minutes {m}: expected minutes above 0 and at most 1440 \
             (fractions allowed, e.g. 0.5)"
        );
    }
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
        let (context, source, label) = match shared_context(args, repo, settings)? {
            Some((c, s, l)) => (Some(c), s, l),
            None => (None, Source::Empty, String::new()),
        };
        let topic = crate::redact::redact(args.topic.trim(), None).text;
        let base = store::base_dir(repo, settings.state_dir.as_deref(), &cwd);
        let workspace = repo
            .and_then(|r| r.workdir().map(|p| p.to_path_buf()))
            .unwrap_or_else(|| cwd.clone());
        let (export, sandbox, checker) = sandboxed(repo, &source, &label, settings)?;
        Ok(Ground {
            topic,
            context,
            base,
            workspace,
            checker,
            revision: revision_record(&source),
            sandbox,
            export,
        })
    }
}

/// The export of `source` the models run in, its confinement, and the checker of citations at
/// the same revision.
pub fn sandboxed(
    repo: Option<&crate::git::Repo>,
    source: &Source,
    label: &str,
    settings: &Settings,
) -> Result<(Option<Export>, Sandbox, Checker)> {
    let (export, sandbox) = crate::sandbox::export::prepare_now(repo, source, settings)?;
    let checker = Checker::at(repo.and_then(crate::git::Repo::libgit2), source, label);
    Ok((export, sandbox, checker))
}

/// The revision debated as `metadata.json` keeps it.
fn revision_record(source: &Source) -> Revision {
    match source {
        Source::Tree(id) => Revision {
            tree: Some(id.clone()),
            worktree: None,
        },
        Source::WorkTree { untracked } => Revision {
            tree: None,
            worktree: Some(WorkTree {
                untracked: untracked.clone(),
            }),
        },
        Source::Empty => Revision::default(),
    }
}

/// The revision a session's metadata records (for `resume`) and the words citations were checked
/// at; a tree id is only read, and a session from before revisions were recorded is checked at
/// HEAD in an empty directory.
pub fn recorded_revision(debated: &Debated) -> (Source, String) {
    let r = debated.revision.clone().unwrap_or_default();
    if let Some(id) = r.tree.filter(|id| git2::Oid::from_str(id).is_ok()) {
        let label = debated
            .citations_checked_at
            .clone()
            .unwrap_or_else(|| "the revision debated".to_string());
        return (Source::Tree(id), label);
    }
    if let Some(w) = r.worktree {
        return (
            Source::WorkTree {
                untracked: w.untracked,
            },
            String::new(),
        );
    }
    (Source::Empty, String::new())
}

/// What a debate's metadata records of its ground when it starts: the revision, the words its
/// citations are checked at, and where its models run.
pub fn debated(revision: Revision, checker: &Checker, sandbox: &Sandbox) -> Debated {
    Debated {
        revision: Some(revision),
        citations_checked_at: Some(checker.revision().to_string()),
        sandbox: Some(sandbox_record(sandbox)),
        ..Debated::default()
    }
}

/// `--scope`: the change both sides (or the whole panel) are given as shared context, the
/// revision it leads to (what the models run in and citations are checked against) and that
/// revision in words.
fn shared_context(
    args: &TopicArgs,
    repo: Option<&crate::git::Repo>,
    settings: &Settings,
) -> Result<Option<(String, Source, String)>> {
    match (&args.scope, repo) {
        (None, _) => Ok(None),
        (Some(_), None) => crate::usage!("--scope needs a git repository"),
        (Some(s), Some(r)) => {
            let scope = Scope::parse(s)?;
            if let Scope::File(p) = &scope {
                // A file is read whole (bounded, regular files only), like `--scope file:`.
                let cwd = std::env::current_dir().context("cannot read the current directory")?;
                let cap = crate::sys::file_io::review_cap(settings.max_artifact_bytes);
                let input = crate::change::read::file_scope(Some(r), p, &cwd, cap)?;
                return Ok(Some((input.text, Source::Empty, String::new())));
            }
            let change = git::resolve(r, &scope, settings.context_lines)?;
            let a = crate::change::from_change(
                &change,
                &scope.to_string(),
                crate::choices::TargetSetting::Code,
                settings.max_artifact_bytes,
            );
            let label = match (&change.head, &change.index_tree) {
                (Some(sha), _) => format!("commit {}", &sha[..sha.len().min(12)]),
                (None, Some(_)) => "the index".to_string(),
                (None, None) => "the work tree".to_string(),
            };
            Ok(Some((a.text, Source::of_change(&change), label)))
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
        revision,
        sandbox,
        export,
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
        debated: debated(revision, &checker, &sandbox),
        secrets_redacted: None,
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
        sandbox,
        resume: Vec::new(),
    }
    .run()?;
    drop(export);
    record::finish(s, settings, &base, &mut meta, &outcome)
}

/// Where the models ran, for `metadata.json`: the export's path (it is gone once the debate
/// ends) or the work tree.
pub fn sandbox_record(sandbox: &Sandbox) -> metadata::Sandbox {
    metadata::Sandbox {
        dir: sandbox.dir.as_ref().map_or(
            "the work tree (debate.reviewerWorkspace = worktree)".to_string(),
            |d| d.display().to_string(),
        ),
        tools: if sandbox.no_tools {
            "none"
        } else {
            "read-only"
        }
        .to_string(),
    }
}
