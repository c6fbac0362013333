//! `git debate show [ID|last]`: print a stored session's artifact and metadata.

use anyhow::Result;
use serde_json::json;

use crate::cli::{ShowArgs, ShowFormat};
use crate::error::Outcome;
use crate::store;

pub fn run(args: &ShowArgs) -> Result<Outcome> {
    let base = crate::commands::sessions::store_dir(args.state_dir.as_deref())?;
    let s = store::find(&base, &args.id)?;
    if let Some(n) = args.round {
        return show_round(&s, n, args.format);
    }
    let report_format = match args.format {
        ShowFormat::Text | ShowFormat::Json => None,
        ShowFormat::Markdown => Some("markdown"),
        ShowFormat::Sarif => Some("sarif"),
        ShowFormat::Rdjson => Some("rdjson"),
        ShowFormat::Github => Some("github"),
    };
    if let Some(format) = report_format {
        let report = crate::report::stored::load(&s.id, &s.dir)
            .map_err(|e| crate::error::UsageError::new(e.to_string()))?;
        crate::report::emit::print(format, &report, None)?;
        return Ok(Outcome::Success);
    }
    let read = |name: &str| store::files::read_to_string(&s.dir.join(name)).ok();
    let summary_md = read("summary.md");
    let summary_json: Option<serde_json::Value> =
        read("summary.json").and_then(|t| serde_json::from_str(&t).ok());
    let artifact = match store::files::read(&s.dir.join("artifact.md")) {
        Ok(b) => Ok(String::from_utf8_lossy(&b).into_owned()),
        Err(e) => Err(format!("artifact.md unreadable: {e}")),
    };
    let mut out = String::new();
    match args.format {
        ShowFormat::Json => {
            let v = json!({
                "id": s.id,
                "path": s.dir,
                "metadata": s.metadata.as_ref().ok(),
                "metadata_error": s.metadata.as_ref().err(),
                "artifact": artifact.as_ref().ok(),
                "artifact_error": artifact.as_ref().err(),
                "summary": summary_json,
            });
            out.push_str(&serde_json::to_string_pretty(&v)?);
            out.push('\n');
        }
        _ => {
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
            // A review shows its summary; a dry run its artifact.
            match (&summary_md, &artifact) {
                (Some(summary), _) => out.push_str(&format!("\n{summary}")),
                (None, Ok(text)) => out.push_str(&format!("\n{text}")),
                (None, Err(e)) => out.push_str(&format!("\nartifact: {e}\n")),
            }
        }
    }
    crate::ui::terminal::out(&out)?;
    // A damaged session is shown as far as it can be, then reported as an error.
    if let Err(e) = s.metadata.as_ref().and(artifact.as_ref().map(|_| ())) {
        anyhow::bail!("session {} is damaged: {e}", s.id);
    }
    Ok(Outcome::Success)
}

/// `show ID --round N`: the round's record, critique and judgement.
fn show_round(s: &store::Stored, n: u32, format: ShowFormat) -> Result<Outcome> {
    if !matches!(format, ShowFormat::Text | ShowFormat::Json) {
        crate::usage!(
            "--round shows one round as text or json; drop --round to re-emit the report"
        );
    }
    let read = |name: String| store::files::read_to_string(&s.dir.join(name)).ok();
    let record: Option<serde_json::Value> =
        read(format!("round-{n}.json")).and_then(|t| serde_json::from_str(&t).ok());
    let critique = read(format!("round-{n}-critique.md"));
    if record.is_none() && critique.is_none() {
        let rounds = s
            .metadata
            .as_ref()
            .ok()
            .and_then(|m| m["rounds"].as_u64())
            .unwrap_or(0);
        crate::usage!(
            "session {} has no round {n} (it has {rounds}); see `git debate show {}`",
            s.id,
            s.id
        );
    }
    let input = read(format!("round-{n}-input.md"));
    let judge = read(format!("round-{n}-judge.md"));
    let mut out = String::new();
    match format {
        ShowFormat::Json => {
            let v = json!({"id": s.id, "round": n, "record": record, "input": input,
                "critique": critique, "judge": judge});
            out.push_str(&serde_json::to_string_pretty(&v)?);
            out.push('\n');
        }
        _ => {
            out.push_str(&format!("# Session {}, round {n}\n\n", s.id));
            if let Some(r) = &record {
                out.push_str(&format!(
                    "choice: {} ({}); rubric: {} ({})\n",
                    r["choice"].as_str().unwrap_or("-"),
                    r["decided_by"].as_str().unwrap_or("-"),
                    r["rubric"].as_str().unwrap_or("-"),
                    r["rubric_reason"].as_str().unwrap_or("")
                ));
            }
            for (title, text) in [("Critique", &critique), ("Judge", &judge)] {
                if let Some(t) = text {
                    out.push_str(&format!("\n## {title}\n\n{}\n", t.trim_end()));
                }
            }
        }
    }
    crate::ui::terminal::out(&out)?;
    Ok(Outcome::Success)
}
