//! What could answer here: every agent CLI we know (installed or not, where, which version, which
//! family, the exact command line we would run), the `exec:`/`openai:` backends in use, and who
//! the routing would put on which side. `git debate backends` shows it; when a review picks an
//! unexpected reviewer, this is where the user looks.

use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::agents::acp::agents::ACP_AGENTS;
use crate::agents::registry::{self, Role, AGENTS};
use crate::agents::routing::{self, Route, World};
use crate::agents::Family;
use crate::settings::Settings;

/// One backend as found.
#[derive(Debug, Serialize)]
pub struct Row {
    pub name: String,
    pub installed: bool,
    pub path: Option<PathBuf>,
    pub version: Option<String>,
    pub family: Family,
    pub model: Option<String>,
    /// `cli`, `acp` or `http`: how it is spoken to.
    pub transport: &'static str,
    pub invocation: String,
    pub role: Vec<&'static str>,
}

/// Every backend, and the routing decision (or why there is none).
pub struct Survey {
    pub rows: Vec<Row>,
    pub route: Result<Route>,
}

/// Looks at every known backend and the ones the routing picks.
pub fn survey(settings: &Settings) -> Result<Survey> {
    let route = World::with(settings, |w| routing::route(settings, w));
    let mut names: Vec<String> = AGENTS.iter().map(|s| s.name.to_string()).collect();
    // The agents that speak only ACP.
    names.extend(
        ACP_AGENTS
            .iter()
            .filter(|a| a.cli.is_none())
            .map(|a| a.name.to_string()),
    );
    if let Ok(r) = &route {
        for p in [&r.author, &r.reviewer] {
            if !names.contains(&p.backend) {
                names.push(p.backend.clone());
            }
        }
    }
    // `--version` of each installed CLI, concurrently: some take seconds on a first run.
    let rows: Vec<Row> = std::thread::scope(|scope| {
        let handles: Vec<_> = names
            .iter()
            .map(|name| scope.spawn(|| row(name, settings, route.as_ref().ok())))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("backend row thread"))
            .collect::<Result<Vec<Row>>>()
    })?;
    Ok(Survey { rows, route })
}

fn row(name: &str, settings: &Settings, route: Option<&Route>) -> Result<Row> {
    let mut role = Vec::new();
    let mut as_role = Role::Reviewer;
    if let Some(r) = route {
        if r.author.backend == name {
            role.push("author");
            as_role = Role::Author;
        }
        if r.reviewer.backend == name {
            role.push("reviewer");
            as_role = Role::Reviewer;
        }
    }
    let backend = registry::build(name, Some(as_role), settings)?;
    let path = registry::installed(name, settings);
    let version = path
        .as_deref()
        .filter(|p| p.is_file() && !name.starts_with("exec:"))
        .and_then(registry::version);
    Ok(Row {
        name: name.to_string(),
        installed: path.is_some(),
        path: path.filter(|p| p.is_file()),
        version,
        family: backend.family().clone(),
        model: backend.model().map(str::to_string),
        transport: backend.transport(),
        invocation: backend.describe(),
        role,
    })
}
