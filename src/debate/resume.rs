//! Resuming a debate (`git debate resume` of a duel): the logged exchanges are kept and the
//! debate goes on from the next turn with the same sides.
//!
//! A session folder is data, and may not be ours (a repository can ship one): nothing in it may
//! choose a program to run or a folder to run it in. Debates name their lineup only in the
//! session, so a recorded backend is used only when it names no program ([`recorded_backend`]),
//! and the models run in a new export of the revision the session records (an object id is only
//! read, never run).

use std::path::Path;

use anyhow::{Context as _, Result};

use crate::agents::budget::Budget;
use crate::agents::registry::{self, Role};
use crate::debate::{self, record, Duel, Ended};
use crate::settings::Settings;
use crate::store::metadata::Duel as Meta;
use crate::store::{self, Session};

/// Goes on with the duel in `s` (locked by the caller; `meta` is its metadata). `max_rounds`
/// and `budget_minutes` are the flags, when given.
pub fn duel(
    s: Session,
    mut meta: Meta,
    settings: &Settings,
    (repo, base): (Option<&crate::git::Repo>, &Path),
    (max_rounds, budget_minutes): (Option<u32>, Option<f64>),
) -> Result<Ended> {
    let id = s.id.clone();
    if meta.common.status == "completed" {
        crate::usage!("debate {id} is finished; start a new one with `git debate topic`");
    }
    let exchanges: Vec<debate::Exchange> =
        store::folder::log(&s.dir).with_context(|| format!("the debate log of {id} is damaged"))?;
    if let Some(r) = max_rounds {
        meta.rounds = r;
    }
    let proposer = recorded_backend(&id, "proposer", meta.proposer.backend())?;
    let challenger = recorded_backend(&id, "challenger", meta.challenger.backend())?;
    let proposer = registry::build_preferring_acp(&proposer, Some(Role::Author), settings)?;
    let challenger = registry::build_preferring_acp(&challenger, Some(Role::Reviewer), settings)?;
    // Older sessions recorded only the backend, as the orchestrator.
    let judge_name = match (&meta.judge, &meta.orchestrator) {
        (Some(j), _) => recorded_backend(&id, "judge", &j.backend)?,
        (None, Some(o)) => recorded_backend(&id, "orchestrator", o)?,
        (None, None) => crate::usage!("debate {id} does not record its orchestrator"),
    };
    let judge = registry::build_preferring_acp(&judge_name, Some(Role::Author), settings)?;
    let judge_why = meta
        .judge
        .as_ref()
        .map(|j| j.why.clone())
        .filter(|w| !w.is_empty())
        .unwrap_or_else(|| "the judge the debate started with".to_string());
    // The time budget starts afresh, from the flag or the configuration of now.
    let budget = Budget::for_topic(settings, budget_minutes)?;
    // The current work tree, never a folder the session names; the models run in a new export
    // of the revision the session records.
    let workspace = repo
        .and_then(|r| r.workdir().map(Path::to_path_buf))
        .unwrap_or(std::env::current_dir()?);
    let (source, label) = crate::debate::setup::recorded_revision(&meta.debated);
    let (export, sandbox, checker) =
        crate::debate::setup::sandboxed(repo, &source, &label, settings)?;
    crate::errln!("resuming {id} after {} turn(s)", exchanges.len());
    let outcome = Duel {
        session: &s,
        settings,
        topic: meta.topic.clone(),
        proposer,
        challenger,
        judge,
        judge_why,
        rounds: meta.rounds,
        budget,
        workspace,
        context: None,
        templates: Some(store::templates::dir(base)),
        checker,
        sandbox,
        resume: exchanges,
    }
    .run()?;
    drop(export);
    record::finish(s, settings, base, &mut meta, &outcome)
}

/// The backend a debate session records for `role`, if it names no program: a built-in agent
/// (its program comes from the current configuration) or an `openai:` model (its endpoint too).
/// An `exec:` command, or anything else, is refused: a session file must not choose what runs.
pub fn recorded_backend(id: &str, role: &str, name: &str) -> Result<String> {
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
