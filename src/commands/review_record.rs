//! What a review records about itself before any model call: `metadata.json` (the source, the
//! scope as resolved, the artifact's target, redactions and budget, the chunk plan) and the
//! dry-run summary that shows the same to a person.

use std::path::Path;

use anyhow::Result;
use serde_json::json;

use crate::agents::routing::Route;
use crate::change::{self, Artifact};
use crate::commands::last_message;
use crate::commands::review::Source;
use crate::review::record::ChunkRecord;
use crate::review::Chunking;
use crate::settings::Settings;
use crate::store::{self, Session};

/// The session's metadata, redacted.
pub(super) fn metadata(
    session: &Session,
    (source, from_message): (&Source, Option<&last_message::Origin>),
    artifact: &Artifact,
    settings: &Settings,
    workspace: &Path,
    route: &Result<Route>,
) -> serde_json::Value {
    let now = store::rfc3339(store::now_utc());
    let (source_json, scope_json, files, commits) = match source {
        Source::Text(t) => (
            match from_message {
                Some(o) => json!({
                    "kind": "last-message", "origin": t.origin, "agent": o.agent,
                    "file": o.file, "message": o.message, "why": o.why,
                }),
                None => json!({"kind": "content", "origin": t.origin}),
            },
            json!({"given": settings.scope, "resolved": null}),
            json!([]),
            json!([]),
        ),
        Source::Change { scope, change } => (
            json!({"kind": "scope"}),
            json!({
                "given": settings.scope,
                "effective": scope.to_string(),
                "resolved": {
                    "base": change.base, "head": change.head, "merge_base": change.merge_base,
                    "index_tree": change.index_tree, "description": change.description,
                },
            }),
            serde_json::Value::Array(
                change
                    .files
                    .iter()
                    .map(|f| {
                        json!({
                            "path": f.path, "old_path": f.old_path, "status": f.status,
                            "additions": f.additions, "deletions": f.deletions, "binary": f.binary,
                            "too_large": f.too_large, "lossy": f.lossy, "submodule": f.submodule,
                        })
                    })
                    .collect(),
            ),
            serde_json::Value::Array(
                change
                    .commits
                    .iter()
                    .map(|c| json!({"sha": c.sha, "subject": c.subject}))
                    .collect(),
            ),
        ),
    };
    // File names, commit subjects and the given scope can hold secrets too.
    let mut meta = json!({
        "version": store::METADATA_VERSION,
        "id": session.id,
        "status": if settings.dry_run { "dry-run" } else { "running" },
        "created_at": now,
        "updated_at": now,
        "tool_version": env!("CARGO_PKG_VERSION"),
        "workspace": workspace.display().to_string(),
        "target": artifact.target,
        "target_reasons": artifact.target_reasons,
        "target_confidence": artifact.confidence,
        "source": source_json,
        "scope": scope_json,
        "files": files,
        "commits": commits,
        "segments": artifact.segments,
        "redactions": artifact.redactions,
        "truncation": artifact.truncation,
        "lossy": artifact.lossy,
        "artifact_bytes": artifact.text.len(),
        "settings": settings,
        "route": route.as_ref().ok(),
        "route_error": route.as_ref().err().map(|e| e.to_string()),
    });
    crate::redact::redact_json(&mut meta);
    meta
}

/// Whether a change is reviewed in chunks: `--chunk`, or (by default) when it does not fit.
pub(super) fn wants_chunks(settings: &Settings, a: &Artifact) -> bool {
    a.target == change::Target::Code
        && match settings.chunk.as_str() {
            "always" => true,
            "never" => false,
            _ => a.truncation.cut_anything(),
        }
}

/// The first round's chunks (files per chunk) and what fits in none.
pub(super) type ChunkPlan = (Vec<ChunkRecord>, Vec<change::budget::Note>);

pub(super) fn chunk_plan(a: &Artifact, c: Chunking) -> Option<ChunkPlan> {
    let doc = change::sections::DiffDoc::parse(&a.text)?;
    let all: Vec<usize> = (0..doc.sections.len()).collect();
    let plan = change::chunks::plan(&doc, &all, c.budget, c.max_chunks);
    let chunks = plan
        .chunks
        .iter()
        .enumerate()
        .map(|(k, ch)| ChunkRecord {
            chunk: k as u32 + 1,
            files: change::chunks::files(&doc, ch),
            reviewed: false,
            error: None,
        })
        .collect();
    let mut unfit = plan.unfit;
    unfit.extend(
        a.truncation
            .omitted
            .iter()
            .chain(&a.truncation.clipped)
            .cloned(),
    );
    Some((chunks, unfit))
}

pub(super) fn chunk_summary(
    chunks: &[ChunkRecord],
    unfit: &[change::budget::Note],
    at_once: usize,
) -> String {
    let mut s = format!(
        "chunks:     {} reviewed at once ({at_once} at a time)\n",
        chunks.len()
    );
    for c in chunks {
        let shown: Vec<&str> = c.files.iter().take(4).map(String::as_str).collect();
        let more = c.files.len().saturating_sub(shown.len());
        let more = if more > 0 {
            format!(", +{more} more")
        } else {
            String::new()
        };
        s.push_str(&format!(
            "  chunk {}: {} files ({}{more})\n",
            c.chunk,
            c.files.len(),
            shown.join(", ")
        ));
    }
    for n in unfit {
        s.push_str(&format!("did not fit: {}: {}\n", n.path, n.reason));
    }
    s
}

/// The dry-run report: what would be reviewed, and where it was stored.
pub(super) fn summary(
    session: &Session,
    (source, from_message): (&Source, Option<&last_message::Origin>),
    a: &Artifact,
    artifact_path: &Path,
) -> String {
    let mut s = String::from("git debate: dry run, no model was called\n");
    s.push_str(&format!("session:    {}\n", session.id));
    s.push_str(&format!(
        "target:     {} ({}; {} confidence)\n",
        serde_json::to_value(a.target)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default(),
        a.target_reasons.join("; "),
        a.confidence
    ));
    match source {
        Source::Text(t) => {
            s.push_str(&format!(
                "source:     {} ({} bytes)\n",
                t.origin,
                t.text.len()
            ));
            if let Some(o) = from_message {
                s.push_str(&format!("from:       {} (message {})\n", o.file, o.message));
            }
        }
        Source::Change { scope, change } => {
            s.push_str(&format!("scope:      {scope}: {}\n", change.description));
            if !change.commits.is_empty() {
                s.push_str(&format!("commits:    {}\n", change.commits.len()));
            }
            s.push_str(&format!(
                "files:      {} changed, +{} -{}\n",
                change.files.len(),
                change.additions(),
                change.deletions()
            ));
            for f in &change.files {
                s.push_str(&format!("  {}\n", change::file_line(f)));
            }
        }
    }
    if !a.segments.is_empty() {
        s.push_str(&format!("segments:   {}\n", a.segments.len()));
        for seg in &a.segments {
            let kind = if seg.kind == change::SegmentKind::Code {
                "code"
            } else {
                "proposal"
            };
            let path = if seg.heading_path.is_empty() {
                "(top)".to_string()
            } else {
                seg.heading_path.join(" > ")
            };
            s.push_str(&format!(
                "  {kind:<8} {path} ({} bytes)\n",
                seg.end - seg.start
            ));
        }
    }
    if a.redactions.count == 0 {
        s.push_str("redactions: none\n");
    } else {
        let kinds: Vec<String> = a
            .redactions
            .kinds
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        s.push_str(&format!(
            "redactions: {} secret(s) replaced before storing ({})\n",
            a.redactions.count,
            kinds.join(", ")
        ));
    }
    if a.lossy {
        s.push_str("encoding:   some text was not UTF-8 and is shown lossily\n");
    }
    let t = &a.truncation;
    if t.cut_anything() {
        s.push_str(&format!(
            "truncation: kept {} of {} bytes (budget {}):\n",
            t.kept_bytes, t.content_bytes, t.budget_bytes
        ));
        for n in t.omitted.iter().chain(&t.clipped) {
            s.push_str(&format!("  {}: {}\n", n.path, n.reason));
        }
    } else {
        s.push_str(&format!(
            "truncation: none ({} of {} bytes budget)\n",
            t.kept_bytes, t.budget_bytes
        ));
    }
    for n in &t.not_sent {
        s.push_str(&format!("not sent:   {}: {}\n", n.path, n.reason));
    }
    s.push_str(&format!("artifact:   {}\n", artifact_path.display()));
    s
}
