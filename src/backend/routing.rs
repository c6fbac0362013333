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

use super::registry::{Role, AGENTS, REVIEWER_ORDER};
use super::Family;
use crate::config::Settings;
use crate::error::{Unavailable, UsageError};

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
    /// Things worth a line on stderr (unknown families, a forced same family).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
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
        let installed = |n: &str| super::registry::installed(n, settings).is_some();
        let family = |n: &str, role: Role| {
            super::registry::build(n, Some(role), settings)
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
    let reviewer = pick_reviewer(settings, world, &author)?;
    let mut notes = Vec::new();
    for p in [&author, &reviewer] {
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
        notes,
    })
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
        _ => settings.reviewer.clone()?,
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
        return super::registry::agent(v.trim()).map(|s| {
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
    super::registry::agent(name).is_some_and(|s| {
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
mod tests {
    use super::*;
    use crate::cli::ReviewArgs;
    use crate::config::Layers;

    fn settings(args: ReviewArgs) -> Settings {
        Settings::resolve(Layers::default(), &args).unwrap()
    }

    fn family(name: &str, _: Role) -> Family {
        match name {
            "claude" => Family::anthropic(),
            "codex" | "copilot" => Family::openai(),
            "gemini" => Family::google(),
            "qwen" => Family::qwen(),
            n if n.starts_with("openai:") => Family::of_model(&n[7..]),
            _ => Family::unknown(),
        }
    }

    fn with_world<T>(
        vars: &[(&str, &str)],
        parents: Vec<Ancestor>,
        installed: &[&str],
        f: impl FnOnce(&World) -> T,
    ) -> T {
        let var = |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        };
        let anc = move || parents.clone();
        let inst = |n: &str| installed.contains(&n);
        f(&World {
            var: &var,
            ancestors: &anc,
            installed: &inst,
            family: &family,
        })
    }

    #[test]
    fn the_judge_is_a_third_family_else_the_orchestrating_author() {
        let s = settings(ReviewArgs::default());
        let side = |b: &str, f: Family| Pick {
            backend: b.into(),
            family: f,
            why: String::new(),
        };
        let (p, c) = (
            side("claude", Family::anthropic()),
            side("codex", Family::openai()),
        );
        let judge = |installed: &[&str], given: Option<&str>| {
            with_world(
                &[("GIT_DEBATE_LAUNCHER", "claude")],
                vec![],
                installed,
                |w| pick_judge(&s, w, [&p, &c], given).unwrap(),
            )
        };
        let j = judge(&["claude", "codex", "copilot", "gemini"], None);
        assert_eq!(j.backend, "gemini");
        assert!(j.why.contains("third family (google)"), "{}", j.why);
        // copilot is openai's, like the challenger: no third family.
        let j = judge(&["claude", "codex", "copilot"], None);
        assert_eq!(j.backend, "claude");
        assert!(j.why.contains("orchestrating author"), "{}", j.why);
        let j = judge(&["claude", "codex", "gemini"], Some("codex"));
        assert_eq!(
            (j.backend.as_str(), j.why.as_str()),
            ("codex", "--judge was given")
        );
    }

    #[test]
    fn launcher_from_environment_markers() {
        for (var, agent) in [
            ("CLAUDECODE", "claude"),
            ("CODEX_THREAD_ID", "codex"),
            ("GEMINI_CLI", "gemini"),
            ("QWEN_CODE", "qwen"),
            ("COPILOT_CLI", "copilot"),
            ("OPENCODE", "opencode"),
        ] {
            let got = with_world(&[(var, "1")], vec![], &[], detect_launcher).unwrap();
            assert_eq!(got.0, agent, "{var}");
            assert!(got.1.contains(var), "{}", got.1);
        }
    }

    #[test]
    fn launcher_from_the_process_chain() {
        let chain = vec![
            Ancestor {
                pid: 10,
                comm: "git".into(),
                argv: vec!["git".into(), "debate".into()],
            },
            Ancestor {
                pid: 9,
                comm: "bash".into(),
                argv: vec!["/bin/bash".into()],
            },
            Ancestor {
                pid: 8,
                comm: "node".into(),
                argv: vec![
                    "node".into(),
                    "/usr/lib/node_modules/@google/gemini-cli/dist/index.js".into(),
                ],
            },
        ];
        let got = with_world(&[], chain, &[], detect_launcher).unwrap();
        assert_eq!(got.0, "gemini");
        assert!(got.1.contains("parent process 8"), "{}", got.1);

        let native = vec![Ancestor {
            pid: 5,
            comm: "codex".into(),
            argv: vec!["/opt/codex/bin/codex".into(), "exec".into()],
        }];
        assert_eq!(
            with_world(&[], native, &[], detect_launcher).unwrap().0,
            "codex"
        );
        assert!(with_world(&[], vec![], &[], detect_launcher).is_none());
    }

    #[test]
    fn the_launcher_variable_overrides_or_disables_detection() {
        let chain = || {
            vec![Ancestor {
                pid: 5,
                comm: "claude".into(),
                argv: vec!["claude".into()],
            }]
        };
        let off = with_world(
            &[("GIT_DEBATE_LAUNCHER", "none"), ("CLAUDECODE", "1")],
            chain(),
            &[],
            detect_launcher,
        );
        assert!(off.is_none());
        let forced = with_world(
            &[("GIT_DEBATE_LAUNCHER", "qwen")],
            chain(),
            &[],
            detect_launcher,
        )
        .unwrap();
        assert_eq!(forced.0, "qwen");
    }

    #[test]
    fn reviewer_is_the_first_installed_other_family() {
        let s = settings(ReviewArgs::default());
        let r = with_world(&[("CLAUDECODE", "1")], vec![], &["claude", "gemini"], |w| {
            route(&s, w)
        })
        .unwrap();
        assert_eq!(
            (r.author.backend.as_str(), r.reviewer.backend.as_str()),
            ("claude", "gemini")
        );
        // codex comes first in the order when installed.
        let r = with_world(
            &[("CLAUDECODE", "1")],
            vec![],
            &["claude", "gemini", "codex"],
            |w| route(&s, w),
        )
        .unwrap();
        assert_eq!(r.reviewer.backend, "codex");
        // Launched by codex: copilot (openai by default here) is skipped as the same family.
        let r = with_world(
            &[("CODEX_SANDBOX", "seatbelt")],
            vec![],
            &["codex", "copilot", "qwen"],
            |w| route(&s, w),
        )
        .unwrap();
        assert_eq!(r.reviewer.backend, "qwen");
    }

    #[test]
    fn no_launcher_means_the_first_installed_author() {
        let s = settings(ReviewArgs::default());
        let r = with_world(&[], vec![], &["gemini", "codex"], |w| route(&s, w)).unwrap();
        assert_eq!(r.author.backend, "codex");
        assert_eq!(r.reviewer.backend, "gemini");
        assert!(r.author.why.contains("first installed"));
    }

    #[test]
    fn explicit_choices_win_and_same_family_is_refused() {
        let s = settings(ReviewArgs {
            author: Some("codex".into()),
            reviewer: Some("copilot".into()),
            ..Default::default()
        });
        let err = with_world(&[("CLAUDECODE", "1")], vec![], &["claude"], |w| {
            route(&s, w)
        })
        .unwrap_err();
        let msg = err.to_string();
        assert!(err.is::<UsageError>(), "{msg}");
        assert!(
            msg.contains("both openai") && msg.contains("--allow-same-family"),
            "{msg}"
        );

        let s = settings(ReviewArgs {
            author: Some("codex".into()),
            reviewer: Some("copilot".into()),
            allow_same_family: true,
            ..Default::default()
        });
        let r = with_world(&[], vec![], &[], |w| route(&s, w)).unwrap();
        assert_eq!(r.author.why, "--author was given");
        assert!(r.notes.iter().any(|n| n.contains("both openai")));
    }

    #[test]
    fn nothing_installed_says_what_to_install() {
        let s = settings(ReviewArgs::default());
        let err = with_world(&[], vec![], &[], |w| route(&s, w)).unwrap_err();
        assert!(err.is::<Unavailable>());
        let msg = err.to_string();
        assert!(
            msg.contains("npm install -g @anthropic-ai/claude-code"),
            "{msg}"
        );
        assert!(msg.contains("exec:") && msg.contains("openai:"), "{msg}");

        // Only one family installed: says so, and how to get out.
        let err = with_world(&[], vec![], &["claude"], |w| route(&s, w)).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains("other than anthropic") && msg.contains("installed: claude"),
            "{msg}"
        );
    }

    #[test]
    fn unknown_families_are_noted_and_never_auto_picked() {
        let s = settings(ReviewArgs {
            reviewer: Some("exec:my-model".into()),
            ..Default::default()
        });
        let r = with_world(&[("CLAUDECODE", "1")], vec![], &["claude"], |w| {
            route(&s, w)
        })
        .unwrap();
        assert_eq!(r.reviewer.backend, "exec:my-model");
        assert!(r.notes[0].contains("debate.exec.family"), "{:?}", r.notes);
    }
}
