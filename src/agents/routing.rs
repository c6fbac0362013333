//! Who plays which side: the author (the home model: judge, rebuttals, compromises) and the
//! reviewer (a model of another family).
//!
//! The author is `--author`, else config, else the agent that launched us (the variables each
//! agent sets in the shells it starts, then the parent process chain), else the first installed
//! backend. The reviewer is `--reviewer`, else config, else the first installed backend of a
//! different, known family in [`REVIEWER_ORDER`]. The same family on both sides defeats the point
//! of a second opinion, so it is refused unless `--allow-same-family`. Everything here takes its
//! view of the world (environment, processes, what is installed) as arguments, so each detection
//! path is tested without touching the machine.

use anyhow::Result;
use serde::Serialize;

use crate::agents::registry::{Role, AGENTS, REVIEWER_ORDER};
use crate::agents::Family;
use crate::error::{Unavailable, UsageError};
use crate::settings::Settings;

/// One side's backend and why it was chosen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Pick {
    pub backend: String,
    pub family: Family,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Route {
    pub author: Pick,
    pub reviewer: Pick,
    /// The other reviewers of a review by several (`debate.reviewers`), beside `reviewer`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<Pick>,
    /// Who reviews, in order, when the reviewer never answers (`debate.reviewer = a,b`,
    /// `debate.fallbackReviewer`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<String>,
    /// Things worth a line on stderr (unknown families, a forced same family).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl From<&Pick> for crate::store::metadata::Pick {
    fn from(p: &Pick) -> Self {
        crate::store::metadata::Pick {
            backend: p.backend.clone(),
            family: p.family.0.clone(),
            why: p.why.clone(),
        }
    }
}

impl From<&Route> for crate::store::metadata::Route {
    fn from(r: &Route) -> Self {
        crate::store::metadata::Route {
            author: (&r.author).into(),
            reviewer: (&r.reviewer).into(),
            others: r.others.iter().map(Into::into).collect(),
            chain: r.chain.clone(),
            notes: r.notes.clone(),
        }
    }
}

/// A process above us.
#[derive(Debug, Clone, Default)]
pub struct Ancestor {
    pub pid: u32,
    /// The kernel's short name (`/proc/<pid>/comm`).
    pub comm: String,
    pub argv: Vec<String>,
}

/// The machine as routing sees it.
pub struct World<'a> {
    pub var: &'a dyn Fn(&str) -> Option<String>,
    pub ancestors: &'a dyn Fn() -> Vec<Ancestor>,
    pub installed: &'a dyn Fn(&str) -> bool,
    pub family: &'a dyn Fn(&str, Role) -> Family,
}

impl World<'static> {
    /// The real machine.
    pub fn with<T>(settings: &Settings, f: impl FnOnce(&World) -> T) -> T {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let installed = |n: &str| crate::agents::registry::installed(n, settings).is_some();
        let family = |n: &str, role: Role| {
            crate::agents::registry::build(n, Some(role), settings)
                .map(|b| b.family().clone())
                .unwrap_or_else(|_| Family::unknown())
        };
        f(&World {
            var: &var,
            ancestors: &ancestors,
            installed: &installed,
            family: &family,
        })
    }
}

/// Picks both sides.
pub fn route(settings: &Settings, world: &World) -> Result<Route> {
    let author = pick_author(settings, world)?;
    let (named, _) = crate::agents::reviewers::wanted(settings)?;
    let reviewer = match named.first() {
        Some(name) => Pick {
            family: (world.family)(name, Role::Reviewer),
            backend: name.clone(),
            why: match settings.origins.get("reviewers") {
                Some(o) if o.starts_with("--") => "--reviewer was given".to_string(),
                Some(o) => format!("debate.reviewers is set in {o}"),
                None => "debate.reviewers is set".to_string(),
            },
        },
        None => pick_reviewer(settings, world, &author)?,
    };
    let (seated, mut notes) = other_reviewers(settings, world, &author, &reviewer)?;
    for p in &seated {
        if p.family == author.family && !author.family.is_unknown() && !settings.allow_same_family {
            return Err(UsageError::new(format!(
                "reviewer {} is a {} model like the author {}, so it is no second opinion;                  name reviewers of other families ({}) or pass --allow-same-family",
                p.backend,
                p.family,
                author.backend,
                others(world, &author.family).join(", ")
            ))
            .into());
        }
    }
    for p in [&author, &reviewer].into_iter().chain(&seated) {
        if p.family.is_unknown() {
            notes.push(format!(
                "note: the model family of {} is unknown; set debate.{}.family so routing can \
                 tell it apart",
                p.backend,
                config_section(&p.backend)
            ));
        }
    }
    if author.family == reviewer.family && !author.family.is_unknown() {
        if !settings.allow_same_family {
            return Err(UsageError::new(format!(
                "author {} and reviewer {} are both {} models, so the review is not a second \
                 opinion; choose --reviewer from another family ({}) or pass --allow-same-family",
                author.backend,
                reviewer.backend,
                author.family,
                others(world, &author.family).join(", ")
            ))
            .into());
        }
        notes.push(format!(
            "note: author and reviewer are both {} models (--allow-same-family)",
            author.family
        ));
    }
    Ok(Route {
        author,
        reviewer,
        others: seated,
        chain: crate::agents::reviewers::chain(settings),
        notes,
    })
}

/// The reviewers after the first (`first`), up to `debate.reviewers`' count: the named ones, then
/// the installed backends in routing order whose known family is neither the author's nor one
/// already seated. Fewer than asked, when fewer families are installed (said in a note).
pub fn other_reviewers(
    settings: &Settings,
    world: &World,
    author: &Pick,
    first: &Pick,
) -> Result<(Vec<Pick>, Vec<String>)> {
    let (named, count) = crate::agents::reviewers::wanted(settings)?;
    let mut seated: Vec<Pick> = vec![first.clone()];
    for name in named.iter().filter(|n| **n != first.backend) {
        seated.push(Pick {
            family: (world.family)(name, Role::Reviewer),
            backend: name.clone(),
            why: "named in debate.reviewers (--reviewer)".into(),
        });
    }
    for name in REVIEWER_ORDER {
        if seated.len() >= count {
            break;
        }
        if name == author.backend
            || seated.iter().any(|p| p.backend == name)
            || !(world.installed)(name)
        {
            continue;
        }
        let family = (world.family)(name, Role::Reviewer);
        let taken = family == author.family || seated.iter().any(|p| p.family == family);
        if family.is_unknown() || taken {
            continue;
        }
        seated.push(Pick {
            backend: name.to_string(),
            why: format!(
                "{count} reviewers asked for: the next installed family other than the author's \
                 ({})",
                author.family
            ),
            family,
        });
    }
    let mut notes = Vec::new();
    if seated.len() < count {
        notes.push(format!(
            "note: {count} reviewers were asked for and {} of other families than the author's \
             are installed; the review runs with {}",
            seated.len(),
            seated.len()
        ));
    }
    seated.remove(0);
    Ok((seated, notes))
}

fn config_section(backend: &str) -> &str {
    if backend.starts_with("exec:") {
        "exec"
    } else if backend.starts_with("openai:") {
        "openai"
    } else {
        backend
    }
}

fn from_settings(settings: &Settings, key: &'static str) -> Option<(String, String)> {
    let value = match key {
        "author" => settings.author.clone()?,
        // The head of a failover chain (`codex,gemini`) reviews; the rest is the chain.
        _ => crate::agents::reviewers::backend_list(settings.reviewer.as_deref()?)
            .into_iter()
            .next()?,
    };
    let why = match settings.origins.get(key) {
        Some(origin) if origin.starts_with("--") => format!("{origin} was given"),
        Some(origin) => format!("debate.{key} is set in {origin}"),
        None => format!("debate.{key} is set"),
    };
    Some((value, why))
}

/// The author side alone (also the chair of a panel debate).
pub fn pick_author(settings: &Settings, world: &World) -> Result<Pick> {
    let pick = |backend: String, why: String| Pick {
        family: (world.family)(&backend, Role::Author),
        backend,
        why,
    };
    if let Some((name, why)) = from_settings(settings, "author") {
        return Ok(pick(name, why));
    }
    if let Some((name, why)) = detect_launcher(world) {
        return Ok(pick(name, why));
    }
    if let Some(spec) = AGENTS.iter().find(|s| (world.installed)(s.name)) {
        return Ok(pick(
            spec.name.to_string(),
            "no agent launched us; the first installed backend".into(),
        ));
    }
    Err(Unavailable(nothing_installed()).into())
}

fn pick_reviewer(settings: &Settings, world: &World, author: &Pick) -> Result<Pick> {
    if let Some((name, why)) = from_settings(settings, "reviewer") {
        return Ok(Pick {
            family: (world.family)(&name, Role::Reviewer),
            backend: name,
            why,
        });
    }
    for name in REVIEWER_ORDER {
        if name == author.backend || !(world.installed)(name) {
            continue;
        }
        let family = (world.family)(name, Role::Reviewer);
        if family.is_unknown() || family == author.family {
            continue;
        }
        return Ok(Pick {
            backend: name.to_string(),
            why: format!(
                "the first installed backend of another family than the author's ({})",
                author.family
            ),
            family,
        });
    }
    let installed: Vec<&str> = REVIEWER_ORDER
        .into_iter()
        .filter(|n| (world.installed)(n))
        .collect();
    if installed.is_empty() {
        return Err(Unavailable(nothing_installed()).into());
    }
    Err(Unavailable(format!(
        "no installed backend of a family other than {} (installed: {}); install one of {}, set \
         debate.reviewer to exec:<command> or openai:<model>, or pass --allow-same-family with \
         --reviewer",
        author.family,
        installed.join(", "),
        others(world, &author.family).join(", ")
    ))
    .into())
}

/// The judge of a topic debate: `given` (`--judge`), else the first installed backend of a
/// family neither side has (a third party's verdict), else the orchestrating author.
pub fn pick_judge(
    settings: &Settings,
    world: &World,
    sides: [&Pick; 2],
    given: Option<&str>,
) -> Result<Pick> {
    if let Some(name) = given {
        return Ok(Pick {
            family: (world.family)(name, Role::Author),
            backend: name.to_string(),
            why: "--judge was given".into(),
        });
    }
    for name in REVIEWER_ORDER {
        if !(world.installed)(name) {
            continue;
        }
        let family = (world.family)(name, Role::Author);
        if family.is_unknown() || sides.iter().any(|s| s.family == family) {
            continue;
        }
        return Ok(Pick {
            backend: name.to_string(),
            why: format!("a third family ({family}), neither side's"),
            family,
        });
    }
    let author = pick_author(settings, world)?;
    Ok(Pick {
        why: "the orchestrating author: no backend of a third family is installed".into(),
        ..author
    })
}

/// Agents whose family differs from `family`, for error messages.
fn others(world: &World, family: &Family) -> Vec<String> {
    REVIEWER_ORDER
        .into_iter()
        .filter(|n| (world.family)(n, Role::Reviewer) != *family)
        .map(str::to_string)
        .collect()
}

fn nothing_installed() -> String {
    let list: Vec<String> = AGENTS
        .iter()
        .map(|s| format!("{} ({})", s.name, s.install))
        .collect();
    format!(
        "no model backend is installed; install one of: {}; or use any program that reads a \
         prompt on stdin with --reviewer 'exec:<command>', or an OpenAI-compatible server with \
         --reviewer openai:<model> (debate.openai.baseUrl)",
        list.join(", ")
    )
}

/// The agent that launched us: `GIT_DEBATE_LAUNCHER` when set (an agent name, or `none` to turn
/// detection off, e.g. in wrappers and tests), else its environment markers, else the process
/// chain.
pub fn detect_launcher(world: &World) -> Option<(String, String)> {
    if let Some(v) = (world.var)("GIT_DEBATE_LAUNCHER") {
        return crate::agents::registry::agent(v.trim()).map(|s| {
            (
                s.name.to_string(),
                format!("launched by {} (GIT_DEBATE_LAUNCHER is set)", s.name),
            )
        });
    }
    for spec in AGENTS {
        if let Some(var) = spec.launched_by.iter().find(|v| (world.var)(v).is_some()) {
            return Some((
                spec.name.to_string(),
                format!("launched by {} ({var} is set)", spec.name),
            ));
        }
    }
    for a in (world.ancestors)() {
        if let Some(name) = agent_of_process(&a) {
            return Some((
                name.to_string(),
                format!("launched by {name} (parent process {})", a.pid),
            ));
        }
    }
    None
}

/// Whether we run inside a turn of the agent `name`: its shell markers are set, or it is one of
/// our parent processes. (`GIT_DEBATE_LAUNCHER` alone says who, not that it is running us.)
pub fn inside(world: &World, name: &str) -> bool {
    crate::agents::registry::agent(name).is_some_and(|s| {
        s.launched_by.iter().any(|v| (world.var)(v).is_some())
            || (world.ancestors)()
                .iter()
                .any(|a| agent_of_process(a) == Some(s.name))
    })
}

/// Which agent a process is: its executable or script name (node CLIs run as `node …/bin/gemini`
/// or `node …/@google/gemini-cli/…`), else its kernel name.
fn agent_of_process(a: &Ancestor) -> Option<&'static str> {
    const PACKAGES: [(&str, &str); 6] = [
        ("@anthropic-ai/claude-code", "claude"),
        ("@openai/codex", "codex"),
        ("@google/gemini-cli", "gemini"),
        ("@qwen-code/", "qwen"),
        ("@github/copilot", "copilot"),
        ("opencode-ai", "opencode"),
    ];
    let base = |s: &str| s.rsplit('/').next().unwrap_or(s).to_string();
    let by_name = |n: &str| {
        let n = n.strip_suffix(".exe").unwrap_or(n);
        AGENTS.iter().find(|s| s.name == n).map(|s| s.name)
    };
    for word in a.argv.iter().take(2) {
        if let Some(name) = by_name(&base(word)) {
            return Some(name);
        }
        if let Some((_, name)) = PACKAGES.iter().find(|(p, _)| word.contains(p)) {
            return Some(name);
        }
    }
    by_name(a.comm.trim())
}

/// The processes above us, nearest first, read from `/proc` (empty where there is none).
pub fn ancestors() -> Vec<Ancestor> {
    let mut out = Vec::new();
    let mut pid = std::os::unix::process::parent_id();
    while pid > 1 && out.len() < 32 {
        let dir = format!("/proc/{pid}");
        let Ok(stat) = std::fs::read_to_string(format!("{dir}/stat")) else {
            break;
        };
        let comm = std::fs::read_to_string(format!("{dir}/comm")).unwrap_or_default();
        let argv = std::fs::read(format!("{dir}/cmdline"))
            .unwrap_or_default()
            .split(|b| *b == 0)
            .filter(|w| !w.is_empty())
            .map(|w| String::from_utf8_lossy(w).into_owned())
            .collect();
        out.push(Ancestor {
            pid,
            comm: comm.trim().to_string(),
            argv,
        });
        // `pid (comm) state ppid ...`: comm may hold spaces and parentheses, so parse after the
        // last `)`.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse().ok());
        match ppid {
            Some(p) if p != pid => pid = p,
            _ => break,
        }
    }
    out
}

#[cfg(test)]
#[path = "routing_tests.rs"]
mod tests;
