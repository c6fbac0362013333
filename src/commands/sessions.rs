//! `git debate sessions`: the stored sessions, newest first.

use anyhow::Result;
use serde_json::json;

use crate::cli::{ListFormat, ReviewArgs, SessionsArgs};
use crate::error::Outcome;
use crate::session;

/// The session store this invocation reads: `--state-dir`, `debate.stateDir`, or the default.
pub fn store_dir(state_dir: Option<&std::path::Path>) -> Result<std::path::PathBuf> {
    let repo = crate::repo::discover()?;
    let args = ReviewArgs {
        state_dir: state_dir.map(Into::into),
        ..Default::default()
    };
    let settings =
        crate::config::Settings::resolve(crate::config::Layers::load(repo.as_ref())?, &args)?;
    let cwd = std::env::current_dir()?;
    Ok(session::base_dir(
        repo.as_ref(),
        settings.state_dir.as_deref(),
        &cwd,
    ))
}

pub fn run(args: &SessionsArgs) -> Result<Outcome> {
    let base = store_dir(args.state_dir.as_deref())?;
    let all = session::list(&base)?;
    let mut out = String::new();
    match args.format {
        ListFormat::Json => {
            let rows: Vec<_> = all
                .iter()
                .map(|s| match &s.metadata {
                    Ok(m) => json!({
                        "id": s.id, "created_at": m.get("created_at"), "target": m.get("target"),
                        "scope": scope_of(m), "status": status(s), "path": s.dir,
                    }),
                    Err(e) => json!({"id": s.id, "status": "corrupt", "error": e, "path": s.dir}),
                })
                .collect();
            out.push_str(&serde_json::to_string_pretty(&rows)?);
            out.push('\n');
        }
        ListFormat::Text if all.is_empty() => {
            crate::errln!("no sessions in {}", base.display());
        }
        ListFormat::Text => {
            for s in &all {
                match &s.metadata {
                    Ok(m) => out.push_str(&format!(
                        "{}  {}  {:<8}  {:<24}  {}\n",
                        s.id,
                        s.field("created_at"),
                        s.field("target"),
                        scope_of(m),
                        status(s)
                    )),
                    Err(e) => out.push_str(&format!("{}  {e}\n", s.id)),
                }
            }
        }
    }
    crate::terminal::out(&out)?;
    Ok(Outcome::Success)
}

/// The stored status, except that a session stored as `running` whose process is gone (killed
/// outright, so it never wrote its end) is `stopped`: `git debate resume` can continue it.
fn status(s: &session::Stored) -> String {
    let stored = s.field("status");
    if stored == "running" && session::lock::holder_gone(&s.dir) == Some(true) {
        return "stopped".into();
    }
    stored
}

/// The scope a session reviewed, as the user would type it (or where explicit content came from).
fn scope_of(m: &serde_json::Value) -> String {
    let scope = &m["scope"];
    if let Some(s) = scope["effective"].as_str().or(scope["given"].as_str()) {
        return s.to_string();
    }
    match m["source"]["origin"].as_str() {
        Some(o) => format!("content ({o})"),
        None => "?".into(),
    }
}
