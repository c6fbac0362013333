//! Who plays each role of a panel. The chair is the author a review would have; the audience,
//! the reporter and the assessor are separate calls on their own backends — by flag, else the
//! `[debate "panel"]` section, else the first installed CLI of a family other than the chair's
//! (so the chair does not grade itself), else the chair's own. The verifier is the tool itself,
//! with an optional model (`--verifier`) for the sources it cannot check.

use anyhow::{Context, Result};
use serde_json::{json, Value};

use crate::agents::registry::{self, Role};
use crate::agents::Backend;
use crate::debate::panel::Roles;
use crate::settings::Settings;

/// The installed agent CLIs with their families, in the order a reviewer is picked.
pub fn installed(settings: &Settings) -> Vec<(String, String)> {
    registry::REVIEWER_ORDER
        .iter()
        .filter(|n| registry::installed(n, settings).is_some())
        .filter_map(|n| {
            let b = registry::build(n, Some(Role::Reviewer), settings).ok()?;
            Some((n.to_string(), b.family().0.clone()))
        })
        .collect()
}

/// A support role's backend: its flag, else `debate.panel.<role>`, else the first installed
/// CLI of a family other than the chair's, else the chair's own.
fn role(
    role: &str,
    flag: Option<&str>,
    settings: &Settings,
    installed: &[(String, String)],
    chair: (&str, &str),
) -> String {
    flag.map(str::to_string)
        .or_else(|| registry::var(settings, "panel", role).map(str::to_string))
        .or_else(|| {
            installed
                .iter()
                .find(|(_, f)| f != chair.1)
                .map(|(n, _)| n.clone())
        })
        .unwrap_or_else(|| chair.0.to_string())
}

/// The role flags given (`--audience`, `--reporter`, `--assessor`).
#[derive(Debug, Default)]
pub struct Flags<'a> {
    pub audience: Option<&'a str>,
    pub reporter: Option<&'a str>,
    pub assessor: Option<&'a str>,
    /// A model that also judges the sources the tool cannot check (none by default).
    pub verifier: Option<&'a str>,
}

/// The chair and the support roles, built, and how each was chosen for `metadata.json`.
pub fn build(flags: &Flags, settings: &Settings, chair_name: &str) -> Result<(Roles, Value)> {
    let chair = registry::build(chair_name, Some(Role::Author), settings)?;
    let inst = installed(settings);
    let family = chair.family().0.clone();
    let mut names = serde_json::Map::new();
    let mut pick = |r: &str, flag: Option<&str>| -> Result<Box<dyn Backend>> {
        let name = role(r, flag, settings, &inst, (chair_name, &family));
        let b = registry::build(&name, Some(Role::Reviewer), settings)
            .with_context(|| format!("the panel's {r}"))?;
        names.insert(
            r.into(),
            json!({"backend": b.name(), "model": b.model(), "family": b.family().0}),
        );
        Ok(b)
    };
    let audience = pick("audience", flags.audience)?;
    let reporter = pick("reporter", flags.reporter)?;
    let assessor = pick("assessor", flags.assessor)?;
    names.insert(
        "chair".into(),
        json!({"backend": chair.name(), "model": chair.model(), "family": family}),
    );
    let verifier = match flags
        .verifier
        .or_else(|| registry::var(settings, "panel", "verifier"))
    {
        Some(n) => Some(
            registry::build(n, Some(Role::Reviewer), settings).context("the panel's verifier")?,
        ),
        None => None,
    };
    names.insert(
        "verifier".into(),
        json!({"backend": "git debate (deterministic)", "model_check": verifier.as_ref().map(|b| json!({"backend": b.name(), "model": b.model(), "family": b.family().0}))}),
    );
    Ok((
        Roles {
            chair,
            audience,
            reporter,
            assessor,
            verifier,
        },
        Value::Object(names),
    ))
}
