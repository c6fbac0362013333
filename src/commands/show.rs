//! `git debate show [ID|last]`: print a stored session's artifact and metadata.

use anyhow::Result;
use serde_json::json;

use crate::cli::{ListFormat, ShowArgs};
use crate::error::Outcome;
use crate::session;

pub fn run(args: &ShowArgs) -> Result<Outcome> {
    let base = super::sessions::store_dir(args.state_dir.as_deref())?;
    let s = session::find(&base, &args.id)?;
    let artifact = match std::fs::read(s.dir.join("artifact.md")) {
        Ok(b) => Ok(String::from_utf8_lossy(&b).into_owned()),
        Err(e) => Err(format!("artifact.md unreadable: {e}")),
    };
    let mut out = String::new();
    match args.format {
        ListFormat::Json => {
            let v = json!({
                "id": s.id,
                "path": s.dir,
                "metadata": s.metadata.as_ref().ok(),
                "metadata_error": s.metadata.as_ref().err(),
                "artifact": artifact.as_ref().ok(),
                "artifact_error": artifact.as_ref().err(),
            });
            out.push_str(&serde_json::to_string_pretty(&v)?);
            out.push('\n');
        }
        ListFormat::Text => {
            out.push_str(&format!("# Session {}\n\n", s.id));
            match &s.metadata {
                Ok(m) => {
                    for key in ["status", "created_at", "target"] {
                        out.push_str(&format!("{key}: {}\n", s.field(key)));
                    }
                    if let Some(desc) = m["scope"]["resolved"]["description"].as_str() {
                        out.push_str(&format!("scope: {desc}\n"));
                    }
                    out.push_str(&format!("redactions: {}\n", m["redactions"]["count"]));
                    out.push_str(&format!("path: {}\n", s.dir.display()));
                }
                Err(e) => out.push_str(&format!("metadata: {e}\n")),
            }
            match &artifact {
                Ok(text) => out.push_str(&format!("\n{text}")),
                Err(e) => out.push_str(&format!("\nartifact: {e}\n")),
            }
        }
    }
    use std::io::Write;
    std::io::stdout().write_all(out.as_bytes())?;
    // A damaged session is shown as far as it can be, then reported as an error.
    if let Err(e) = s.metadata.as_ref().and(artifact.as_ref().map(|_| ())) {
        anyhow::bail!("session {} is damaged: {e}", s.id);
    }
    Ok(Outcome::Success)
}
