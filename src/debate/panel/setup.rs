//! The start of a panel (`git debate topic --debater ...` or `--panel FILE`): the chair, the
//! lineup, the support roles, the session record, the run and what it records at the end.
//!
//! The lineup comes from the flags or a JSON file; what it leaves out (persona, starting
//! position, incentives) the chair proposes from the topic, and that proposal is accepted with
//! `--yes` or confirmed on the terminal, never silently ([`super::confirm`]).

use std::collections::BTreeMap;

use anyhow::{Context as _, Result};

use crate::agents::budget::Budget;
use crate::agents::registry::{self, Role};
use crate::agents::routing::{self, World};
use crate::agents::Backend;
use crate::cli::TopicArgs;
use crate::debate::panel::{self, confirm, lineup, roles, Debater, Panel};
use crate::debate::setup::Ground;
use crate::debate::Ended;
use crate::error::UsageError;
use crate::settings::Settings;
use crate::store::debate::VerificationResult;
use crate::store::metadata::{self, Kind, Metadata, Panel as Meta, RedactedCall, Struck, Timings};
use crate::store::summary::{DebateSummary, PanelSummary, SCHEMA};
use crate::store::Session;

/// A panel's settings: a panel's time budget is 30 minutes unless one is given.
pub fn settings(mut settings: Settings, flag: Option<f64>) -> Settings {
    if flag.is_none() && !settings.sources.contains_key("budgetMinutes") {
        settings.budget_minutes = 30;
    }
    settings
}

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
            let text = crate::sys::file_io::read_regular(path, 1 << 20)
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

/// Runs a panel on `ground`, with `settings` as [`settings`] made them.
pub fn run(args: &TopicArgs, ground: Ground, settings: &Settings) -> Result<Ended> {
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
    // The chair is the author a review would have; it needs no opposite.
    let chair_name = &World::with(settings, |w| routing::pick_author(settings, w))?.backend;
    let (min_rounds, max_rounds) = rounds(args, settings)?;
    let inst = roles::installed(settings);
    let chair = registry::build_preferring_acp(chair_name, Some(Role::Author), settings)?;
    let mut debaters = lineup(args, &inst, &chair.family().0)?;
    if debaters
        .iter()
        .any(|d| d.name.is_empty() || d.persona.is_empty() || d.position.is_empty())
    {
        let budget =
            Budget::for_panel(settings, args.budget.budget_minutes).map_err(UsageError::new)?;
        panel::propose::propose(
            &mut debaters,
            &topic,
            chair.as_ref(),
            &budget,
            (&workspace, &sandbox),
        )?;
        confirm::lineup(&mut debaters, args.yes, &topic)?;
    }
    let backends: Vec<Box<dyn Backend>> = debaters
        .iter()
        .map(|d| registry::build_preferring_acp(&d.backend, Some(Role::Reviewer), settings))
        .collect::<Result<_>>()?;
    // The support roles are chosen once the lineup is final: they stay off its backends.
    let flags = roles::Flags {
        audience: args.audience.as_deref(),
        reporter: args.reporter.as_deref(),
        assessor: args.assessor.as_deref(),
        verifier: args.verifier.as_deref(),
    };
    let (roles, roles_meta) =
        roles::build(&flags, settings, chair_name, &seated(&debaters, &backends))?;
    let mut families: Vec<String> = backends.iter().map(|b| b.family().0.clone()).collect();
    families.sort();
    families.dedup();
    if families.len() < 2 {
        crate::errln!("note: every debater is of the {} family; a cross-family panel gives more independent views", families[0]);
    }
    let lineup_meta: Vec<metadata::Seat> = debaters
        .iter()
        .zip(&backends)
        .map(|(d, b)| metadata::Seat {
            debater: d.clone(),
            model: b.model().map(String::from),
            family: b.family().0.clone(),
        })
        .collect();
    let s = Session::create(&base)?;
    s.write("artifact.md", format!("# Topic\n\n{topic}\n").as_bytes())?;
    let mut meta = Meta {
        common: metadata::Common::new(&s.id, "running", "topic", workspace.display().to_string()),
        kind: Kind::Panel,
        topic: topic.clone(),
        chair: chair_name.clone(),
        debaters: debaters.clone(),
        lineup: lineup_meta,
        roles: roles_meta,
        min_rounds,
        max_rounds,
        blog: args.blog,
        outcome: None,
        reason: None,
        rounds_run: None,
        budget_spent: None,
        timings: None,
        debated: crate::debate::setup::debated(revision, &checker, &sandbox),
        redactions: None,
        secrets_redacted: None,
    };
    s.write_metadata(&Metadata::Panel(Box::new(meta.clone())))?;
    let outcome = panel::run(Panel {
        session: &s,
        settings,
        topic: topic.clone(),
        debaters: debaters.iter().cloned().zip(backends).collect(),
        roles,
        min_rounds,
        max_rounds,
        budget_minutes: args.budget.budget_minutes,
        workspace,
        context,
        checker,
        sandbox,
        resume: Vec::new(),
        timings: Default::default(),
        judged: Default::default(),
    })?;
    drop(export);
    finish(s, &mut meta, &debaters, &outcome)
}

/// The panel's rounds: `--min-rounds`/`--max-rounds`, else `debate.panel.minRounds` /
/// `debate.panel.maxRounds`, else 3 and 8.
fn rounds(args: &TopicArgs, settings: &Settings) -> Result<(u32, u32)> {
    let key = |name: &str, flag: Option<u32>, default: u32| -> Result<u32> {
        if let Some(n) = flag {
            return Ok(n);
        }
        match registry::var(settings, "panel", name) {
            Some(v) => v.trim().parse().map_err(|_| {
                UsageError::new(format!(
                    "bad value for debate.panel.{name} {v:?}: expected a whole number of rounds"
                ))
                .into()
            }),
            None => Ok(default),
        }
    };
    let min = key("minRounds", args.min_rounds, 3)?;
    let max = key("maxRounds", args.max_rounds, 8.max(min).min(20))?;
    if min < 1 || max < min || max > 20 {
        crate::usage!(
            "bad rounds: a panel's minimum {min} and maximum {max} (--min-rounds / --max-rounds, \
             debate.panel.minRounds / maxRounds) must satisfy 1 <= min <= max <= 20"
        );
    }
    Ok((min, max))
}

/// The lineup as the support roles are kept off it: `(name, backend, family)`.
pub fn seated(
    debaters: &[Debater],
    backends: &[Box<dyn Backend>],
) -> Vec<(String, String, String)> {
    debaters
        .iter()
        .zip(backends)
        .map(|(d, b)| (d.name.clone(), b.name().to_string(), b.family().0.clone()))
        .collect()
}

/// Records the outcome (the documents are written by the panel).
pub fn finish(
    s: Session,
    meta: &mut Meta,
    debaters: &[Debater],
    outcome: &panel::PanelOutcome,
) -> Result<Ended> {
    let topic = meta.topic.clone();
    let summary = panel::summary(&s.id, &topic, debaters, outcome);
    let report = PanelSummary {
        schema: SCHEMA,
        kind: Kind::Panel,
        session: s.id.clone(),
        session_dir: s.dir.clone(),
        topic,
        status: outcome.status.clone(),
        outcome: outcome.outcome.clone(),
        reason: outcome.reason.clone(),
        rounds: outcome.rounds,
        redactions: outcome.redactions,
        debaters: debaters.to_vec(),
        budget_spent: outcome.budget_spent,
        notes: outcome.notes.clone(),
        entries: outcome.entries.clone(),
    };
    s.write_summary(&report)?;
    meta.common.update(&outcome.status);
    meta.outcome = Some(outcome.outcome.clone());
    meta.reason = Some(outcome.reason.clone());
    meta.rounds_run = Some(outcome.rounds);
    meta.budget_spent = Some(outcome.budget_spent);
    meta.timings = Some(Timings {
        elapsed_ms: outcome.elapsed_ms,
        calls: outcome.timings.clone(),
    });
    meta.debated.slug = Some(crate::debate::slug(&meta.topic));
    meta.debated.entries = Some(outcome.entries.len());
    meta.redactions = Some(
        outcome
            .entries
            .iter()
            .filter(|e| e.kind == "redaction")
            .map(|e| Struck {
                seq: e.seq,
                target_seq: e.target_seq,
                content: e.content.clone(),
            })
            .collect(),
    );
    let mut verification: BTreeMap<String, usize> =
        ["verified", "unreliable", "fabricated", "unverifiable"]
            .into_iter()
            .map(|st| (st.to_string(), 0))
            .collect();
    for r in outcome
        .entries
        .iter()
        .filter(|e| e.kind == "verification_result")
        .filter_map(|e| VerificationResult::of_content(&e.content))
    {
        if let Some(n) = verification.get_mut(&r.status) {
            *n += 1;
        }
    }
    meta.debated.verification = Some(verification);
    meta.secrets_redacted = Some(
        outcome
            .timings
            .iter()
            .filter(|t| t.redactions > 0)
            .map(|t| RedactedCall {
                speaker: t.speaker.clone(),
                step: t.step.clone(),
                count: t.redactions,
            })
            .collect(),
    );
    s.write_metadata(&Metadata::Panel(Box::new(meta.clone())))?;
    Ok(Ended {
        status: outcome.status.clone(),
        session: s,
        report: DebateSummary::Panel(Box::new(report)),
        summary,
    })
}
