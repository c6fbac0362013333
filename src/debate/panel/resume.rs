//! Resuming a panel (`git debate resume` of a panel): its log is replayed and the debate goes on
//! from the first step not taken, with the same lineup and chair. Like a duel's, a panel's
//! recorded backends are used only when they name no program
//! ([`crate::debate::resume::recorded_backend`]), and the models run in a new export of the
//! revision the session records.

use anyhow::{Context as _, Result};

use crate::agents::registry::{self, Role};
use crate::agents::Backend;
use crate::debate::panel::setup::finish;
use crate::debate::panel::{self, roles, Panel};
use crate::debate::resume::recorded_backend;
use crate::debate::Ended;
use crate::settings::Settings;
use crate::store::metadata::Panel as Meta;
use crate::store::{self, Session};

/// Goes on with the panel in `s` (locked by the caller; `meta` is its metadata).
pub fn run(
    s: Session,
    mut meta: Meta,
    settings: &Settings,
    repo: Option<&crate::git::Repo>,
) -> Result<Ended> {
    let id = s.id.clone();
    if meta.common.status == "completed" {
        crate::usage!("panel debate {id} is finished; start a new one with `git debate topic`");
    }
    let debaters = meta.debaters.clone();
    let log: Vec<panel::Entry> =
        store::folder::log(&s.dir).with_context(|| format!("the debate log of {id} is damaged"))?;
    let chair_name = recorded_backend(&id, "chair", &meta.chair)?;
    // The roles it recorded, if they name no program (a session file must not choose what runs).
    let recorded = |r: &str| -> Result<Option<String>> {
        meta.roles
            .support(r)
            .map(|role| recorded_backend(&id, r, &role.backend))
            .transpose()
    };
    let (audience, reporter, assessor) = (
        recorded("audience")?,
        recorded("reporter")?,
        recorded("assessor")?,
    );
    let verifier = meta
        .roles
        .verifier
        .as_ref()
        .and_then(|v| v.model_check.as_ref())
        .map(|m| recorded_backend(&id, "verifier", &m.backend))
        .transpose()?;
    let flags = roles::Flags {
        audience: audience.as_deref(),
        reporter: reporter.as_deref(),
        assessor: assessor.as_deref(),
        verifier: verifier.as_deref(),
    };
    let backends: Vec<Box<dyn Backend>> = debaters
        .iter()
        .map(|d| {
            let name = recorded_backend(&id, &d.name, &d.backend)?;
            registry::build_preferring_acp(&name, Some(Role::Reviewer), settings)
        })
        .collect::<Result<_>>()?;
    let seated = crate::debate::panel::setup::seated(&debaters, &backends);
    let (roles, _) = roles::build(&flags, settings, &chair_name, &seated)?;
    let (source, label) = crate::debate::setup::recorded_revision(&meta.debated);
    let (export, sandbox, checker) =
        crate::debate::setup::sandboxed(repo, &source, &label, settings)?;
    crate::errln!("resuming {id} after {} log entries", log.len());
    let outcome = panel::run(Panel {
        session: &s,
        settings,
        topic: meta.topic.clone(),
        debaters: debaters.iter().cloned().zip(backends).collect(),
        roles,
        min_rounds: meta.min_rounds,
        max_rounds: meta.max_rounds,
        budget_minutes: None,
        // The current work tree, never a folder the session names.
        workspace: repo
            .and_then(|r| r.workdir().map(std::path::Path::to_path_buf))
            .unwrap_or(std::env::current_dir()?),
        context: None,
        checker,
        sandbox,
        resume: log,
        timings: Default::default(),
        judged: Default::default(),
    })?;
    drop(export);
    finish(s, &mut meta, &debaters, &outcome)
}
