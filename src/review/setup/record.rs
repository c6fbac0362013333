//! What a review records about itself before any model call: the artifact, `metadata.json`
//! (the source, the scope as resolved, the artifact's target, redactions and budget, the chunk
//! plan, the incremental basis) and the first round's prompt, so a dry run shows exactly what
//! would be sent and an interrupted run can be resumed.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::agents::routing::Route;
use crate::change::{self, Artifact};
use crate::review::incremental::{self, Plan};
use crate::review::record::ChunkRecord;
use crate::review::setup::last_message::Origin;
use crate::review::setup::{since, Source};
use crate::review::Chunking;
use crate::settings::Settings;
use crate::store::metadata::{self, Commit, File, Metadata, Resolved, Review};
use crate::store::Session;

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
    pub metadata: Review,
    pub chunks: Option<ChunkPlan>,
    /// A delta review's plan.
    pub incremental: Option<Plan>,
    /// `<store>/templates`, where users override prompt templates.
    pub templates: PathBuf,
}

/// Claims the session and writes what the review starts from.
pub fn begin(b: Begin) -> Result<Recorded> {
    let session = Session::create(b.base)?;
    if b.settings.dry_run {
        session.scratch();
    }
    let artifact_path = session.write("artifact.md", b.artifact.text.as_bytes())?;
    if !b.artifact.instructions.text.is_empty() {
        session.write(
            crate::instructions::FILE,
            b.artifact.instructions.text.as_bytes(),
        )?;
    }
    let mut meta = metadata(
        &session,
        (b.source, b.from_message),
        b.artifact,
        b.settings,
        b.workspace,
        b.route,
    )?;
    let chunks = b.chunking.and_then(|c| chunk_plan(b.artifact, c));
    if let (Some(c), Some(plan)) = (b.chunking, &chunks) {
        meta.chunking = Some(metadata::Chunking {
            budget: c.budget,
            max_chunks: c.max_chunks,
        });
        meta.chunks = Some(plan.0.clone());
        meta.unfit = Some(plan.1.clone());
    }
    let incremental = since::record(&session, &mut meta, b.incremental)?;
    if let Some(key) = b.hook_cache {
        // A hook session: pruned sooner, and kept with its verdict while its tree is staged.
        meta.hook = Some(metadata::Hook {
            cache: Some(key.to_string()),
        });
    }
    // File names, commit subjects, chunk files and the given scope can hold secrets too.
    let meta = redacted(meta)?;
    session.write_metadata(&Metadata::Review(Box::new(meta.clone())))?;
    let templates = crate::store::templates::dir(b.base);
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

/// The session's metadata (not yet redacted: [`redacted`]).
pub fn metadata(
    session: &Session,
    (source, from_message): (&Source, Option<&Origin>),
    artifact: &Artifact,
    settings: &Settings,
    workspace: &Path,
    route: &Result<Route>,
) -> Result<Review> {
    let status = if settings.dry_run {
        "dry-run"
    } else {
        "running"
    };
    let target = serde_json::to_value(artifact.target)?
        .as_str()
        .unwrap_or("code")
        .to_string();
    let mut meta = Review {
        common: metadata::Common::new(
            &session.id,
            status,
            &target,
            workspace.display().to_string(),
        ),
        source: metadata::Source::default(),
        target_reasons: artifact.target_reasons.clone(),
        target_confidence: Some(artifact.confidence.to_string()),
        scope: metadata::Scope {
            given: settings.scope.clone(),
            ..Default::default()
        },
        segments: artifact.segments.clone(),
        redactions: metadata::Redactions {
            count: artifact.redactions.count,
            kinds: artifact
                .redactions
                .kinds
                .iter()
                .map(|(k, n)| (k.to_string(), *n))
                .collect(),
        },
        truncation: artifact.truncation.clone(),
        lossy: artifact.lossy,
        injections: artifact.injections.clone(),
        instructions: Some(artifact.instructions.record.clone()),
        artifact_bytes: artifact.text.len(),
        settings: metadata::Settings::of(settings)?,
        route: route.as_ref().ok().map(Into::into),
        route_error: route.as_ref().err().map(|e| e.to_string()),
        ..Default::default()
    };
    match source {
        Source::Text(t) => {
            meta.source = metadata::Source {
                kind: if from_message.is_some() {
                    "last-message"
                } else {
                    "content"
                }
                .into(),
                origin: Some(t.origin.clone()),
                agent: from_message.map(|o| o.agent.clone()),
                file: from_message.map(|o| o.file.clone()),
                message: from_message.map(|o| o.message.clone()),
                why: from_message.map(|o| o.why.to_string()),
            };
        }
        Source::Change { scope, change } => {
            meta.source.kind = "scope".into();
            meta.scope.effective = Some(scope.to_string());
            meta.scope.resolved = Some(Resolved {
                base: change.base.clone(),
                head: change.head.clone(),
                merge_base: change.merge_base.clone(),
                index_tree: change.index_tree.clone(),
                description: change.description.clone(),
            });
            meta.files = change.files.iter().map(file_record).collect();
            meta.commits = change
                .commits
                .iter()
                .map(|c| Commit {
                    sha: c.sha.clone(),
                    subject: c.subject.clone(),
                })
                .collect();
        }
    }
    Ok(meta)
}

/// `meta` with every secret in its text replaced, as everything stored is.
fn redacted(meta: Review) -> Result<Review> {
    let mut value = serde_json::to_value(&meta)?;
    crate::redact::redact_json(&mut value);
    Ok(serde_json::from_value(value)?)
}

/// A changed file as the metadata lists it.
fn file_record(f: &crate::git::FileChange) -> File {
    File {
        path: f.path.clone(),
        old_path: f.old_path.clone(),
        status: serde_json::to_value(f.status)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default(),
        additions: f.additions,
        deletions: f.deletions,
        binary: f.binary,
        too_large: f.too_large,
        lossy: f.lossy,
        submodule: f.submodule.clone(),
    }
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
