//! What a review records about itself before any model call: the artifact, `metadata.json`
//! (the source, the scope as resolved, the artifact's target, redactions and budget, the chunk
//! plan, the incremental basis) and the first round's prompt, so a dry run shows exactly what
//! would be sent and an interrupted run can be resumed.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::json;

use crate::agents::routing::Route;
use crate::change::{self, Artifact};
use crate::review::incremental::{self, Plan};
use crate::review::record::ChunkRecord;
use crate::review::setup::last_message::Origin;
use crate::review::setup::{since, Source};
use crate::review::Chunking;
use crate::settings::Settings;
use crate::store::{self, Session};

/// What [`begin`] records.
pub struct Begin<'a> {
    /// The session store.
    pub base: &'a Path,
    pub source: &'a Source,
    pub from_message: Option<&'a Origin>,
    pub artifact: &'a Artifact,
    pub settings: &'a Settings,
    /// Where the models run.
    pub workspace: &'a Path,
    pub route: &'a Result<Route>,
    pub chunking: Option<Chunking>,
    pub incremental: since::Pending,
    pub hook_cache: Option<&'a str>,
}

/// The session as recorded.
pub struct Recorded {
    pub session: Session,
    pub artifact_path: PathBuf,
    /// `metadata.json` as written; the loop goes on updating it.
    pub metadata: serde_json::Value,
    pub chunks: Option<ChunkPlan>,
    /// A delta review's plan.
    pub incremental: Option<Plan>,
    /// `<store>/templates`, where users override prompt templates.
    pub templates: PathBuf,
}

/// Claims the session and writes what the review starts from.
pub fn begin(b: Begin) -> Result<Recorded> {
    let session = Session::create(b.base)?;
    let artifact_path = session.write("artifact.md", b.artifact.text.as_bytes())?;
    let mut meta = metadata(
        &session,
        (b.source, b.from_message),
        b.artifact,
        b.settings,
        b.workspace,
        b.route,
    );
    let chunks = b.chunking.and_then(|c| chunk_plan(b.artifact, c));
    if let (Some(c), Some(plan)) = (b.chunking, &chunks) {
        meta["chunking"] = json!({"budget": c.budget, "max_chunks": c.max_chunks});
        meta["chunks"] = serde_json::to_value(&plan.0)?;
        meta["unfit"] = serde_json::to_value(&plan.1)?;
        crate::redact::redact_json(&mut meta);
    }
    let incremental = since::record(&session, &mut meta, b.incremental)?;
    if let Some(key) = b.hook_cache {
        // A hook session: pruned sooner, and kept with its verdict while its tree is staged.
        meta["hook"] = json!({ "cache": key });
    }
    session.write_json("metadata.json", &meta)?;
    let templates = b.base.join("templates");
    let snippet = matches!(b.source, Source::Text(_));
    // The round-1 prompts, so a dry run shows exactly what would be sent.
    let context = incremental
        .as_ref()
        .map(incremental::context)
        .unwrap_or_default();
    let (_, input) = crate::prompts::review::prompts(
        b.artifact,
        &b.artifact.text,
        &context,
        Some(&templates),
        snippet,
    )?;
    session.write("round-1-input.md", input.as_bytes())?;
    Ok(Recorded {
        session,
        artifact_path,
        metadata: meta,
        chunks,
        incremental,
        templates,
    })
}

/// The session's metadata, redacted.
pub fn metadata(
    session: &Session,
    (source, from_message): (&Source, Option<&Origin>),
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

/// The first round's chunks (files per chunk) and what fits in none.
pub type ChunkPlan = (Vec<ChunkRecord>, Vec<change::budget::Note>);

pub fn chunk_plan(a: &Artifact, c: Chunking) -> Option<ChunkPlan> {
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
