//! The start of the loop: the reviewed revision exported for the models to read, where a patch
//! would apply, where findings may point, both sides and their stand-ins, then the rounds.

use std::path::PathBuf;
use std::sync::Mutex;

use anyhow::Result;

use crate::agents::routing::Route;
use crate::change::Artifact;
use crate::review::locations::{LocationIndex, Revision};
use crate::review::manual::Terminal;
use crate::review::setup::record::Recorded;
use crate::review::setup::sides::{self, Sides};
use crate::review::setup::{Reviewed, Source};
use crate::review::{Chunking, PatchBase, Review};
use crate::sandbox::export;
use crate::settings::Settings;

/// What the loop starts from.
pub struct Launch<'a> {
    pub repo: Option<&'a crate::git::Repo>,
    pub source: &'a Source,
    pub settings: &'a Settings,
    pub artifact: &'a Artifact,
    pub workspace: PathBuf,
    pub route: Route,
    pub sides: Sides,
    pub recorded: Recorded,
    pub chunking: Option<Chunking>,
    pub terminal: Option<Terminal>,
    /// The reviewed version's waivers, and whether the change edits their file.
    pub waivers: (Vec<crate::waivers::Waiver>, bool),
}

/// Runs the review loop on a recorded session.
pub fn review(l: Launch) -> Result<Reviewed> {
    let Launch {
        repo,
        source,
        settings,
        artifact,
        workspace,
        route,
        sides: (author, reviewer),
        recorded,
        chunking,
        terminal,
        waivers: (waivers, waivers_edited),
    } = l;
    let session = recorded.session;
    // Removed when it goes out of scope at the end of this function, also on an error.
    let prepared = export::prepare(
        repo,
        &match source {
            Source::Change { change, .. } => export::Source::of_change(change),
            Source::Text(_) => export::Source::Empty,
        },
        settings,
    )?;
    let locations = locations(source);
    if let Some(idx) = &locations {
        session.write_locations(idx)?;
    }
    let fallback = sides::fallback_chain(settings, author.as_ref(), &route)?;
    let outcome = Review {
        session: &session,
        settings,
        fallback,
        others: sides::others(settings, &route)?,
        normalizer: sides::normalizer(settings, &route.author.backend, &route.reviewer.backend)?,
        author,
        reviewer,
        artifact,
        workspace,
        repo_dir: repo.map(|r| r.path().to_path_buf()),
        patch_base: patch_base(source),
        templates: Some(recorded.templates),
        snippet: matches!(source, Source::Text(_)),
        metadata: recorded.metadata,
        terminal: terminal.map(Mutex::new),
        resume: None,
        budget_override: None,
        locations,
        sandbox: prepared.sandbox.clone(),
        exports: prepared.lazy.as_ref(),
        chunking,
        incremental: recorded.incremental,
    }
    .run()?;
    Ok(Reviewed {
        session,
        outcome,
        target: artifact.target,
        author: route.author.backend,
        reviewer: route.reviewer.backend,
        injections: artifact.injections.clone(),
        setup_notes: artifact.instructions.record.notes.clone(),
        waivers,
        waivers_edited,
    })
}

/// Where the author's rewritten version of a change would apply.
fn patch_base(source: &Source) -> PatchBase {
    match source {
        Source::Change { change, .. } => match &change.head {
            Some(sha) => PatchBase::Commit(sha.clone()),
            None => PatchBase::WorkTree,
        },
        Source::Text(_) => PatchBase::None,
    }
}

/// The files and hunks findings may point into: the change's, or a whole reviewed file's.
fn locations(source: &Source) -> Option<LocationIndex> {
    match source {
        Source::Change { change, .. } => Some(LocationIndex::from_change(
            change,
            match (&change.head, &change.index_tree) {
                (Some(sha), _) => Revision::Commit(sha.clone()),
                (None, Some(tree)) => Revision::Tree(tree.clone()),
                (None, None) => Revision::WorkTree,
            },
        )),
        Source::Text(input) => input
            .path_hint
            .as_deref()
            .filter(|_| input.origin.starts_with("file:"))
            .map(|p| LocationIndex::whole_file(p, &input.text)),
    }
    .map(LocationIndex::with_redacted_paths)
}
