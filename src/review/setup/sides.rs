//! Who plays which side of a review: the author and the reviewer as routed, who restates an
//! answer that could not be read whole, the other reviewers of a review by several, and the
//! failover chain. A resumed review builds its
//! sides the same way.

use anyhow::Result;

use crate::agents::registry::{self, Role};
use crate::agents::routing::{self, Route, World};
use crate::agents::Backend;
use crate::review::reading::Restater;
use crate::settings::Settings;

/// The author and the reviewer, built.
pub type Sides = (Box<dyn Backend>, Box<dyn Backend>);

/// The routing decision and, for a real run, both sides built. A dry run records the decision
/// (or why there is none) and goes on; a real run cannot start without both sides, and checks
/// their names before any call.
pub fn choose(settings: &Settings) -> Result<(Result<Route>, Option<Sides>)> {
    let route = World::with(settings, |w| routing::route(settings, w));
    let sides = match (&route, settings.dry_run) {
        (_, true) => None,
        (Err(_), false) => return Err(route.expect_err("an error")),
        (Ok(r), false) => {
            for n in &r.notes {
                crate::errln!("{n}");
            }
            Some((
                registry::build(&r.author.backend, Some(Role::Author), settings)?,
                registry::build(&r.reviewer.backend, Some(Role::Reviewer), settings)?,
            ))
        }
    };
    Ok((route, sides))
}

/// Who restates an answer the reader could not read whole: the reviewer itself (the default:
/// the repair turn), or, when `debate.normalizer` names one, the author or another backend.
pub fn normalizer(settings: &Settings, author: &str, reviewer: &str) -> Result<Restater> {
    Ok(match settings.normalizer.as_deref().map(str::trim) {
        None | Some("") | Some("reviewer") => Restater::Reviewer,
        Some(name) if name == reviewer => Restater::Reviewer,
        Some("author") => Restater::Author,
        Some(name) if name == author => Restater::Author,
        Some(name) => Restater::Backend(registry::build(name, None, settings)?),
    })
}

/// The failover chain (the rest of a `debate.reviewer` list, then `debate.fallbackReviewer`),
/// built and checked before any call: each of another family than the author's (unless
/// `--allow-same-family`), and none the reviewer itself.
pub fn fallback_chain(
    settings: &Settings,
    author: &dyn Backend,
    route: &Route,
) -> Result<Vec<Box<dyn Backend>>> {
    let reviewer = route.reviewer.backend.as_str();
    let mut out = Vec::new();
    for name in route
        .chain
        .iter()
        .map(|n| n.trim())
        .filter(|n| !n.is_empty())
    {
        if name == reviewer {
            crate::usage!(
                "the failover chain names the reviewer {name} again (debate.reviewer, \
                 debate.fallbackReviewer); name each backend once"
            );
        }
        let fb = registry::build(name, Some(Role::Reviewer), settings)?;
        if fb.family() == author.family()
            && !fb.family().is_unknown()
            && !settings.allow_same_family
        {
            crate::usage!(
                "fallback reviewer {name} is a {} model like the author {}, so it would give no \
                 second opinion; name a backend of another family, or pass --allow-same-family",
                fb.family(),
                author.name()
            );
        }
        out.push(fb);
    }
    Ok(out)
}

/// The other reviewers of a review by several, built before any call.
pub fn others(settings: &Settings, route: &Route) -> Result<Vec<Box<dyn Backend>>> {
    route
        .others
        .iter()
        .map(|p| registry::build(&p.backend, Some(Role::Reviewer), settings))
        .collect()
}
