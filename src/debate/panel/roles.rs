//! Who plays each role of a panel. The chair is the author a review would have; the audience,
//! the reporter and the assessor are separate calls on their own backends — by flag, else the
//! `[debate "panel"]` section, else the first installed CLI of a family other than the chair's
//! (so the chair does not grade itself), else the chair's own. The verifier is the tool itself,
//! with an optional model (`--verifier`) for the sources it cannot check.

use anyhow::{Context, Result};

use crate::agents::registry::{self, Role};
use crate::agents::Backend;
use crate::debate::panel::Roles;
use crate::settings::Settings;
use crate::store::metadata::{self, Verifier};

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
pub fn build(
    flags: &Flags,
    settings: &Settings,
    chair_name: &str,
) -> Result<(Roles, metadata::Roles)> {
    let chair = registry::build(chair_name, Some(Role::Author), settings)?;
    let inst = installed(settings);
    let family = chair.family().0.clone();
    let pick = |r: &str, flag: Option<&str>| -> Result<(Box<dyn Backend>, metadata::Role)> {
        let name = role(r, flag, settings, &inst, (chair_name, &family));
        let b = registry::build(&name, Some(Role::Reviewer), settings)
            .with_context(|| format!("the panel's {r}"))?;
        let recorded = recorded(b.as_ref());
        Ok((b, recorded))
    };
    let (audience, audience_role) = pick("audience", flags.audience)?;
    let (reporter, reporter_role) = pick("reporter", flags.reporter)?;
    let (assessor, assessor_role) = pick("assessor", flags.assessor)?;
    let verifier = match flags
        .verifier
        .or_else(|| registry::var(settings, "panel", "verifier"))
    {
        Some(n) => Some(
            registry::build(n, Some(Role::Reviewer), settings).context("the panel's verifier")?,
        ),
        None => None,
    };
    let recorded_roles = metadata::Roles {
        audience: Some(audience_role),
        reporter: Some(reporter_role),
        assessor: Some(assessor_role),
        chair: Some(recorded(chair.as_ref())),
        verifier: Some(Verifier {
            backend: "git debate (deterministic)".into(),
            model_check: verifier.as_deref().map(recorded),
        }),
    };
    Ok((
        Roles {
            chair,
            audience,
            reporter,
            assessor,
            verifier,
        },
        recorded_roles,
    ))
}

/// A role's backend as the metadata records it.
pub fn recorded(b: &dyn Backend) -> metadata::Role {
    metadata::Role {
        backend: b.name().to_string(),
        model: b.model().map(String::from),
        family: b.family().0.clone(),
    }
}
