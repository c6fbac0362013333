//! `git debate backends`: what could answer here, and who would play which side.
//!
//! A table of every agent CLI (installed or not, path, version, family, the exact command line we
//! would run) plus the `exec:`/`openai:` backends in use, and the routing decision with its
//! reason. When a review picks an unexpected reviewer, this is where the user looks.

use std::io::Write;

use anyhow::Result;

use crate::agents::discovery::{self, Survey};
use crate::cli::{BackendsArgs, ListFormat};
use crate::error::Outcome;
use crate::settings::{Overrides, Settings};

pub fn run(args: &BackendsArgs) -> Result<Outcome> {
    let repo = crate::git::repo::discover()?;
    let settings = Settings::load(
        repo.as_ref().map(crate::git::Repo::dirs),
        &Overrides::from(args),
    )?;
    let survey = discovery::survey(&settings)?;
    let mut out = Vec::new();
    match args.format {
        ListFormat::Json => {
            let v = Json {
                backends: &survey.rows,
                route: survey.route.as_ref().ok(),
                route_error: survey.route.as_ref().err().map(|e| e.to_string()),
            };
            out.extend(crate::store::sorted_json(&v)?);
            crate::ui::terminal::out_json(&String::from_utf8_lossy(&out))?;
        }
        ListFormat::Text => {
            write_text(&mut out, &survey)?;
            crate::ui::terminal::out(&String::from_utf8_lossy(&out))?;
        }
    }
    Ok(Outcome::Success)
}

/// `backends --format json` (every object's keys sorted, as it has always been printed).
#[derive(serde::Serialize)]
struct Json<'a> {
    backends: &'a [discovery::Row],
    route: Option<&'a crate::agents::routing::Route>,
    route_error: Option<String>,
}

fn write_text(out: &mut impl Write, survey: &Survey) -> Result<()> {
    let rows = &survey.rows;
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
    match &survey.route {
        Ok(r) => {
            writeln!(out, "author:   {} ({})", r.author.backend, r.author.why)?;
            writeln!(out, "reviewer: {} ({})", r.reviewer.backend, r.reviewer.why)?;
            for o in &r.others {
                writeln!(out, "reviewer: {} ({})", o.backend, o.why)?;
            }
            if !r.chain.is_empty() {
                writeln!(out, "failover: {}", r.chain.join(", then "))?;
            }
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
