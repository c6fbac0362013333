//! Everything a review does before its first model call, as named steps: what to review
//! ([`material`]), whether only the delta since an earlier review is ([`since`]), the artifact and
//! its chunks ([`artifact`]), the one question a person may be asked about the target
//! ([`confirm`]), who plays which side ([`sides`]), what the session records ([`record`]), and
//! the start of the loop ([`launch`]).
//!
//! The steps return data; how a finished, cancelled or dry run is shown to the user is decided
//! above this layer, from the [`Ran`] that comes back. `--dry-run` stops after the record, before
//! any model call.

pub mod artifact;
pub mod confirm;
pub mod content;
pub mod last_message;
pub mod launch;
pub mod material;
pub mod record;
pub mod sides;
pub mod since;

use std::path::PathBuf;

use anyhow::{Context as _, Result};

use crate::change::{Artifact, TextInput};
use crate::choices::Mode;
use crate::git::{Change, Scope};
use crate::review::incremental::Plan;
use crate::settings::Settings;
use crate::store::{self, Session};
use last_message::{LastMessage, Origin};

/// What the command line says to review, beside the settings.
#[derive(Debug, Clone, Default)]
pub struct What {
    /// CONTENT: text, a file's name, or `-` for standard input.
    pub content: Option<String>,
    pub artifact_file: Option<PathBuf>,
    /// Pathspecs after `--`: only the files of the scope they match.
    pub paths: Vec<String>,
    /// `--last-message`: the launching agent's last answer.
    pub last_message: bool,
    /// `--since`: only what changed since an earlier review.
    pub since: Option<String>,
    /// A hook session's verdict-cache key: pruning keeps the session while its tree is staged.
    pub hook_cache: Option<String>,
}

/// What the artifact was built from.
pub enum Source {
    Text(TextInput),
    Change { scope: Scope, change: Change },
}

/// How a review run ended.
pub enum Ran {
    /// Nothing to review; the message says why and what to do instead.
    Nothing(String),
    /// The person at the target question said no.
    Cancelled,
    /// Nothing in the change's files changed since the earlier review; `store` is where that
    /// review's session is.
    Unchanged { plan: Box<Plan>, store: PathBuf },
    /// `--dry-run`: recorded, and no model was called.
    DryRun(Box<DryRun>),
    /// The loop ran.
    Reviewed(Box<Reviewed>),
}

/// What a dry run recorded, to be shown.
pub struct DryRun {
    pub session: Session,
    pub source: Source,
    pub from_message: Option<Origin>,
    pub artifact: Artifact,
    pub artifact_path: PathBuf,
    /// `metadata.json` as written (redacted).
    pub metadata: crate::store::metadata::Review,
    pub chunks: Option<record::ChunkPlan>,
    /// The reviewed version's waivers.
    pub waivers: Vec<crate::waivers::Waiver>,
}

/// A review that ran, to be reported.
pub struct Reviewed {
    pub session: Session,
    pub outcome: crate::review::ReviewOutcome,
    pub target: crate::change::markdown::Target,
    pub author: String,
    pub reviewer: String,
    /// Lines of the material that read as instructions to the reviewer.
    pub injections: Vec<crate::injection::Found>,
    /// What of the repository's review instructions was not sent, and why.
    pub setup_notes: Vec<String>,
    /// The waivers of the reviewed version's `.gitdebate-waivers`.
    pub waivers: Vec<crate::waivers::Waiver>,
    /// The change itself edits `.gitdebate-waivers`, so its waivers may be its own.
    pub waivers_edited: bool,
}

/// Refuses an `--output` that would replace what the review reads (a tracked file, a file of the
/// change, the file under review) unless `--force`: checked once the material is known, before
/// anything is recorded or any model called.
fn guard_output(
    repo: Option<&crate::git::Repo>,
    settings: &Settings,
    source: &Source,
    cwd: &std::path::Path,
) -> Result<()> {
    let root = repo.and_then(|r| r.workdir());
    let reviewed: Vec<PathBuf> = match source {
        Source::Change { change, .. } => root
            .map(|r| change.files.iter().map(|f| r.join(&f.path)).collect())
            .unwrap_or_default(),
        Source::Text(t) => t
            .path_hint
            .iter()
            .flat_map(|h| [Some(cwd.join(h)), root.map(|r| r.join(h))])
            .flatten()
            .collect(),
    };
    crate::git::protect::guard_output(
        repo,
        settings.output.as_deref(),
        settings.force_output,
        cwd,
        &reviewed,
    )
}

/// The version the repository's own files (review instructions, waivers) are read from for
/// `source`: its change's new side; the work tree for content. And the files it is about (old
/// names too; for content, the file it came from, if any).
/// A `--state-dir` inside the work tree holds our own sessions, which show up as untracked
/// files: they are never part of the change reviewed (nor sent to a model).
fn without_our_store(
    repo: Option<&crate::git::Repo>,
    store: &std::path::Path,
    source: &mut Source,
) {
    let (Some(root), Source::Change { change, .. }) = (repo.and_then(|r| r.workdir()), source)
    else {
        return;
    };
    let canon = |p: &std::path::Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    let Ok(rel) = canon(store)
        .strip_prefix(canon(root))
        .map(|r| r.to_path_buf())
    else {
        return;
    };
    let rel = rel.to_string_lossy().replace('\\', "/");
    if rel.is_empty() {
        return;
    }
    let inside = format!("{rel}/");
    change
        .files
        .retain(|f| f.path != rel && !f.path.starts_with(&inside));
}

/// Is the reviewed version a commit (not the index or the work tree)?
fn committed(source: &Source) -> bool {
    matches!(source, Source::Change { change, .. } if change.head.is_some())
}

/// The old side of a reviewed change (the merge-base for `base:` and three-dot ranges), when it
/// has one.
fn old_side(source: &Source) -> Option<String> {
    match source {
        Source::Change { change, .. } => change.merge_base.clone().or(change.base.clone()),
        Source::Text(_) => None,
    }
}

fn version(source: &Source) -> (crate::git::Version, Vec<String>) {
    match source {
        Source::Change { change, .. } => (
            crate::git::Version::of_change(change),
            change
                .files
                .iter()
                .flat_map(|f| std::iter::once(&f.path).chain(f.old_path.as_ref()))
                .cloned()
                .collect(),
        ),
        Source::Text(t) => (
            crate::git::Version::WorkTree,
            t.path_hint.iter().cloned().collect::<Vec<_>>(),
        ),
    }
}

/// Runs a review of what `what` and `settings` name, in `repo` (opened by the caller, so one
/// handle and its object cache serve the whole review); `messages` reads the launching agent's
/// last message when that is what is reviewed.
pub fn run(
    repo: Option<crate::git::Repo>,
    what: &What,
    settings: &Settings,
    messages: &dyn LastMessage,
) -> Result<Ran> {
    let mut settings = settings.clone();
    // Unless ours is set, git's `diff.context` (as the record shows).
    settings
        .context_lines
        .get_or_insert_with(|| crate::git::context_lines(repo.as_ref()));
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let (mut source, from_message) =
        match material::find(repo.as_ref(), what, &settings, &cwd, messages)? {
            material::Found::Source(source, origin) => (*source, origin),
            material::Found::Nothing(why) => return Ok(Ran::Nothing(why)),
        };
    guard_output(repo.as_ref(), &settings, &source, &cwd)?;
    let base = store::base_dir(repo.as_ref(), settings.state_dir.as_deref(), &cwd);
    without_our_store(repo.as_ref(), &base, &mut source);
    // `--since` (or debate.incremental for base: scopes): only the delta is reviewed.
    let incremental = match since::prepare(what, &settings, &mut source, repo.as_ref(), &base)? {
        since::Next::Review(plan) => plan,
        since::Next::Unchanged(plan) => return Ok(Ran::Unchanged { plan, store: base }),
    };
    let (mut artifact, chunking) = artifact::build(&source, from_message.as_ref(), &settings);
    let (at, paths) = version(&source);
    artifact.instructions = crate::instructions::gather(repo.as_ref(), &at, &paths, &settings);
    // A waivers file that cannot be read stops the review before anything is spent.
    let waivers_edited = paths.iter().any(|p| p == crate::waivers::FILE);
    let mut waivers = crate::waivers::read(repo.as_ref(), &at)?;
    if waivers_edited && committed(&source) {
        // A waiver is the team's word, given before the change: one a committed change adds
        // (or edits) never silences a finding of that same change, or a branch could pass its
        // own gate in CI. (Uncommitted work is the reviewer's own, at its own terminal.)
        let before = match old_side(&source) {
            Some(id) => crate::waivers::read(repo.as_ref(), &crate::git::Version::Tree(id))?,
            None => Vec::new(),
        };
        waivers.retain(|w| before.contains(w));
    }
    // Said in the report only where it changed what applies.
    let waivers_edited = waivers_edited && committed(&source);
    // Low confidence or a mixed document: a person at a terminal is asked.
    if let Source::Text(input) = &source {
        match confirm::target(artifact, input, &settings)? {
            confirm::Answer::Review(a) => artifact = *a,
            confirm::Answer::Cancel => return Ok(Ran::Cancelled),
        }
    }
    // A design is read and argued about at length: a call limit made for code cuts it short.
    if artifact.target != crate::change::Target::Code && settings.backend_timeout_seconds < 120 {
        crate::errln!(
            "warning: --backend-timeout-seconds {} is short for a {} review (its calls often \
             take minutes); 300 or more is safer",
            settings.backend_timeout_seconds,
            if artifact.target == crate::change::Target::Mixed {
                "mixed"
            } else {
                "proposal"
            }
        );
    }
    // In CI nobody can answer: manual mode (e.g. from a global config) becomes auto.
    if settings.mode == Mode::Manual && !settings.dry_run && crate::ui::ask::in_ci() {
        crate::errln!("note: CI detected and no terminal: --mode manual runs as --mode auto");
        settings.mode = Mode::Auto;
    }
    // Manual mode must be able to ask before anything is spent.
    let terminal = (settings.mode == Mode::Manual && !settings.dry_run)
        .then(crate::review::manual::Terminal::open)
        .transpose()?;
    let (route, sides) = sides::choose(&settings)?;
    let workspace = repo
        .as_ref()
        .and_then(|r| r.workdir().map(std::path::Path::to_path_buf))
        .unwrap_or_else(|| cwd.clone());
    let recorded = record::begin(record::Begin {
        base: &base,
        source: &source,
        from_message: from_message.as_ref(),
        artifact: &artifact,
        settings: &settings,
        workspace: &workspace,
        route: &route,
        chunking,
        incremental,
        hook_cache: what.hook_cache.as_deref(),
    })?;
    let Some((author, reviewer)) = sides else {
        return Ok(Ran::DryRun(Box::new(DryRun {
            session: recorded.session,
            source,
            from_message,
            artifact,
            artifact_path: recorded.artifact_path,
            metadata: recorded.metadata,
            chunks: recorded.chunks,
            waivers,
        })));
    };
    let reviewed = launch::review(launch::Launch {
        repo: repo.as_ref(),
        source: &source,
        settings: &settings,
        artifact: &artifact,
        workspace,
        route: route?,
        sides: (author, reviewer),
        recorded,
        chunking,
        terminal,
        waivers: (waivers, waivers_edited),
    })?;
    Ok(Ran::Reviewed(Box::new(reviewed)))
}
