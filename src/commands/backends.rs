//! `git debate backends`: what could answer here, and who would play which side.
//!
//! A table of every agent CLI (installed or not, path, version, family, the exact command line we
//! would run) plus the `exec:`/`openai:` backends in use, and the routing decision with its
//! reason. When a review picks an unexpected reviewer, this is where the user looks.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::agents::acp::agents::ACP_AGENTS;
use crate::agents::registry::{self, Role, AGENTS};
use crate::agents::routing::{self, Route, World};
use crate::agents::Family;
use crate::cli::{BackendsArgs, ListFormat, ReviewArgs};
use crate::error::Outcome;
use crate::settings::{Layers, Settings};

#[derive(Debug, Serialize)]
struct Row {
    name: String,
    installed: bool,
    path: Option<PathBuf>,
    version: Option<String>,
    family: Family,
    model: Option<String>,
    /// `cli`, `acp` or `http`: how it is spoken to.
    transport: &'static str,
    invocation: String,
    role: Vec<&'static str>,
}

pub fn run(args: &BackendsArgs) -> Result<Outcome> {
    let repo = crate::git::repo::discover()?;
    let settings = Settings::resolve(
        Layers::load(repo.as_ref().map(crate::git::Repo::dirs))?,
        &ReviewArgs {
            author: args.author.clone(),
            reviewer: args.reviewer.clone(),
            effort: args.effort,
            ..Default::default()
        },
    )?;
    for w in &settings.warnings {
        crate::errln!("{w}");
    }
    let route = World::with(&settings, |w| routing::route(&settings, w));
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
            .map(|name| scope.spawn(|| row(name, &settings, route.as_ref().ok())))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("backend row thread"))
            .collect::<Result<Vec<Row>>>()
    })?;
    let mut out = Vec::new();
    match args.format {
        ListFormat::Json => {
            let v = serde_json::json!({
                "backends": rows,
                "route": route.as_ref().ok(),
                "route_error": route.as_ref().err().map(|e| e.to_string()),
            });
            serde_json::to_writer_pretty(&mut out, &v)?;
            writeln!(out)?;
            crate::ui::terminal::out_json(&String::from_utf8_lossy(&out))?;
        }
        ListFormat::Text => {
            write_text(&mut out, &rows, &route)?;
            crate::ui::terminal::out(&String::from_utf8_lossy(&out))?;
        }
    }
    Ok(Outcome::Success)
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

fn write_text(out: &mut impl Write, rows: &[Row], route: &Result<Route>) -> Result<()> {
    let w = rows.iter().map(|r| r.name.len()).max().unwrap_or(7).max(7);
    writeln!(
        out,
        "{:<w$}  {:<9}  {:<10}  {:<9}  {:<9}  ROLE",
        "BACKEND", "INSTALLED", "VERSION", "FAMILY", "TRANSPORT"
    )?;
    for r in rows {
        writeln!(
            out,
            "{:<w$}  {:<9}  {:<10}  {:<9}  {:<9}  {}",
            r.name,
            if r.installed { "yes" } else { "no" },
            r.version.as_deref().unwrap_or("-"),
            r.family.0,
            r.transport,
            if r.role.is_empty() {
                "-".to_string()
            } else {
                r.role.join("+")
            },
        )?;
    }
    writeln!(out)?;
    match route {
        Ok(r) => {
            writeln!(out, "author:   {} ({})", r.author.backend, r.author.why)?;
            writeln!(out, "reviewer: {} ({})", r.reviewer.backend, r.reviewer.why)?;
            for n in &r.notes {
                writeln!(out, "{n}")?;
            }
        }
        Err(e) => writeln!(out, "routing: {e}")?,
    }
    writeln!(
        out,
        "\nhow each is run (the prompt goes on standard input):"
    )?;
    for r in rows {
        let at = r
            .path
            .as_ref()
            .map_or(String::new(), |p| format!(" [{}]", p.display()));
        writeln!(out, "  {}{at}: {}", r.name, r.invocation)?;
    }
    Ok(())
}
