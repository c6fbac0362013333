//! Who plays each role of a panel. The chair is the author a review would have; the audience,
//! the reporter and the assessor are separate calls on their own backends — by flag, else the
//! `[debate "panel"]` section, else an installed CLI no debater uses (of no debater's family and
//! not the chair's, where there is one), so no debater's model grades its own debate; when every
//! installed CLI is a debater's, a `[WARN]` line says so, on stderr and in the outputs. The
//! verifier is the tool itself, with an optional model (`--verifier`) for the sources it cannot
//! check.

use anyhow::{Context as _, Result};

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

/// A support role's backend and, when it could not be kept out of the debate, why: its flag,
/// else `debate.panel.<role>`, else the installed CLI that is furthest from the debate — no
/// debater's backend first, then no debater's family, then not the chair's family — else the
/// chair's own. `debaters` are the lineup's `(name, backend, family)`.
fn role(
    role: &str,
    flag: Option<&str>,
    settings: &Settings,
    installed: &[(String, String)],
    chair: (&str, &str),
    debaters: &[(String, String, String)],
) -> (String, Option<String>) {
    let named = flag
        .map(|f| (f.to_string(), "as the flag says"))
        .or_else(|| {
            registry::var(settings, "panel", role)
                .map(|v| (v.to_string(), "as debate.panel.* says"))
        });
    let debating = |backend: &str| -> Vec<&str> {
        debaters
            .iter()
            .filter(|(_, b, _)| b == backend)
            .map(|(n, _, _)| n.as_str())
            .collect()
    };
    if let Some((name, how)) = named {
        let who = debating(&name);
        let warn = (!who.is_empty()).then(|| {
            format!(
                "[WARN] the panel's {role} is {name}, {how}, and {} also debate(s) on it: a \
                 debater's model grades its own debate",
                who.join(", ")
            )
        });
        return (name, warn);
    }
    let best = installed
        .iter()
        .enumerate()
        .min_by_key(|(i, (b, f))| {
            (
                !debating(b).is_empty(),
                debaters.iter().any(|(_, _, df)| df == f),
                f == chair.1,
                *i,
            )
        })
        .map(|(_, (b, _))| b.clone())
        .unwrap_or_else(|| chair.0.to_string());
    let who = debating(&best);
    let warn = (!who.is_empty()).then(|| {
        format!(
            "[WARN] the panel's {role} is {best}, which {} also debate(s) on: every installed \
             CLI is a debater's, so a debater's model grades its own debate; install another \
             CLI or name one with --{role}",
            who.join(", ")
        )
    });
    (best, warn)
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
/// `debaters` are the lineup's `(name, backend, family)`: the support roles stay off them.
pub fn build(
    flags: &Flags,
    settings: &Settings,
    chair_name: &str,
    debaters: &[(String, String, String)],
) -> Result<(Roles, metadata::Roles)> {
    let chair = registry::build_preferring_acp(chair_name, Some(Role::Author), settings)?;
    let inst = installed(settings);
    let family = chair.family().0.clone();
    let mut warnings = Vec::new();
    let mut pick = |r: &str, flag: Option<&str>| -> Result<(Box<dyn Backend>, metadata::Role)> {
        let (name, warn) = role(r, flag, settings, &inst, (chair_name, &family), debaters);
        let b = registry::build_preferring_acp(&name, Some(Role::Reviewer), settings)
            .with_context(|| format!("the panel's {r}"))?;
        let mut recorded = recorded(b.as_ref());
        if let Some(w) = warn {
            crate::errln!("{w}");
            recorded.warning = Some(w.clone());
            warnings.push(w);
        }
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
            registry::build_preferring_acp(n, Some(Role::Reviewer), settings)
                .context("the panel's verifier")?,
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
            warnings,
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
        warning: None,
    }
}
