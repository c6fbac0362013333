//! Who sits where in a duel: the proposer and the challenger route like a review's author and
//! reviewer (and must differ, in backend and, unless allowed, in family), and the judge is a
//! third family where one is installed. The same-family check is made here, in the debate's own
//! words, not the review's.

use anyhow::Result;

use crate::agents::registry::{self, Role};
use crate::agents::routing::{self, Pick, Route, World};
use crate::agents::Backend;
use crate::cli::TopicArgs;
use crate::settings::Settings;

/// The duel's seats, routed and built.
pub struct Seats {
    /// The proposer as the author, the challenger as the reviewer.
    pub route: Route,
    pub judge: Pick,
    pub proposer: Box<dyn Backend>,
    pub challenger: Box<dyn Backend>,
    pub judge_backend: Box<dyn Backend>,
}

/// Routes and builds the seats: `sides` are the settings with `--proposer`/`--challenger` as the
/// author and reviewer.
pub fn seat(args: &TopicArgs, settings: &Settings, sides: &Settings) -> Result<Seats> {
    let (route, judge) = World::with(sides, |w| -> Result<_> {
        let route = routing::route(sides, w)?;
        let judge = routing::pick_judge(
            settings,
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
    let proposer = registry::build_preferring_acp(&p.backend, Some(Role::Author), sides)?;
    let challenger = registry::build_preferring_acp(&c.backend, Some(Role::Reviewer), sides)?;
    let judge_backend =
        registry::build_preferring_acp(&judge.backend, Some(Role::Author), settings)?;
    Ok(Seats {
        route,
        judge,
        proposer,
        challenger,
        judge_backend,
    })
}
