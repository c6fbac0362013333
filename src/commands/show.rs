//! `git debate show [ID|last]`: print a stored session's artifact and metadata.

use anyhow::Result;
use serde_json::json;

use crate::choices::Format;
use crate::cli::{ShowArgs, ShowFormat};
use crate::error::Outcome;
use crate::store;

pub fn run(args: &ShowArgs) -> Result<Outcome> {
    let base = store::located::dir(args.store.state_dir.as_deref())?;
    let s = store::find(&base, &args.id)?;
    if let Some(n) = args.round {
        return show_round(&s, n, args.format);
    }
    let report_format = match args.format {
        ShowFormat::Text | ShowFormat::Json => None,
        ShowFormat::Markdown => Some(Format::Markdown),
        ShowFormat::Sarif => Some(Format::Sarif),
        ShowFormat::Rdjson => Some(Format::Rdjson),
        ShowFormat::Github => Some(Format::Github),
    };
    if let Some(format) = report_format {
        let report = crate::report::stored::load(&s.id, &s.dir)
            .map_err(|e| crate::error::UsageError::new(e.to_string()))?;
        crate::report::emit::print(format, &report, None)?;
        return Ok(Outcome::Success);
    }
    let c = s.contents();
    let mut out = String::new();
    match args.format {
        ShowFormat::Json => {
            let v = json!({
                "id": s.id,
                "path": s.dir,
                "metadata": s.metadata.as_ref().ok(),
                "metadata_error": s.metadata.as_ref().err(),
                "artifact": c.artifact.as_ref().ok(),
                "artifact_error": c.artifact.as_ref().err(),
                "summary": c.summary_json,
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
            match (&c.summary_md, &c.artifact) {
                (Some(summary), _) => out.push_str(&format!("\n{summary}")),
                (None, Ok(text)) => out.push_str(&format!("\n{text}")),
                (None, Err(e)) => out.push_str(&format!("\nartifact: {e}\n")),
            }
        }
    }
    crate::ui::terminal::out(&out)?;
    // A damaged session is shown as far as it can be, then reported as an error.
    if let Err(e) = s.metadata.as_ref().and(c.artifact.as_ref().map(|_| ())) {
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
    let r = s.round(n);
    if r.record.is_none() && r.critique.is_none() {
        crate::usage!(
            "session {} has no round {n} (it has {}); see `git debate show {}`",
            s.id,
            s.rounds(),
            s.id
        );
    }
    let mut out = String::new();
    match format {
        ShowFormat::Json => {
            let v = json!({"id": s.id, "round": n, "record": r.record, "input": r.input,
                "critique": r.critique, "judge": r.judge});
            out.push_str(&serde_json::to_string_pretty(&v)?);
            out.push('\n');
        }
        _ => {
            out.push_str(&format!("# Session {}, round {n}\n\n", s.id));
            if let Some(r) = &r.record {
                out.push_str(&format!(
                    "choice: {} ({}); rubric: {} ({})\n",
                    r["choice"].as_str().unwrap_or("-"),
                    r["decided_by"].as_str().unwrap_or("-"),
                    r["rubric"].as_str().unwrap_or("-"),
                    r["rubric_reason"].as_str().unwrap_or("")
                ));
            }
            for (title, text) in [("Critique", &r.critique), ("Judge", &r.judge)] {
                if let Some(t) = text {
                    out.push_str(&format!("\n## {title}\n\n{}\n", t.trim_end()));
                }
            }
        }
    }
    crate::ui::terminal::out(&out)?;
    Ok(Outcome::Success)
}
