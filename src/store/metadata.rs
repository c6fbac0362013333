//! `metadata.json`: what a session is (a review, a duel or a panel), what it was started on and
//! with, and how far it got. Written when the session starts and again as it goes, read back by
//! `sessions`, `show`, `resume` and an incremental review's `--since`.
//!
//! Every kind shares [`Common`]; the rest is the kind's own ([`Review`], [`Duel`], [`Panel`]). A
//! review's metadata has no `kind` (it was the only kind once), a debate's says `topic` or
//! `panel`. Only what every release wrote is required; everything added later is optional, so
//! sessions of an earlier release are read as they are. A `version` newer than [`VERSION`] is
//! refused rather than half read.
//!
//! The file is written through a `serde_json::Value` ([`Metadata::to_json`]): without
//! serde_json's `preserve_order` an object's keys come out sorted, as every earlier release wrote
//! them, so the bytes of a session's metadata do not depend on the order fields are declared in.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::change::budget::{Note, Truncation};
use crate::change::markdown::Segment;
use crate::store::call::Fallback;
use crate::store::debate::{Debater, Timing};
use crate::store::round::ChunkRecord;

/// The metadata's file in a session folder.
pub const FILE: &str = "metadata.json";

/// Version of the `metadata.json` layout; bump it when a field changes meaning.
pub const VERSION: u32 = 1;

/// What kind of session a folder holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// `git debate` on a change or a text (the kind a metadata without `kind` is).
    #[default]
    Review,
    /// `git debate topic`: a duel.
    Topic,
    /// `git debate topic` with a panel.
    Panel,
}

/// A session's metadata, by kind.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Metadata {
    Review(Box<Review>),
    Topic(Box<Duel>),
    Panel(Box<Panel>),
}

/// What every kind of session records.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Common {
    pub version: u32,
    #[serde(default)]
    pub id: String,
    /// `running`, `dry-run`, `completed`, `interrupted`, `unavailable`, `failed`, ...
    pub status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updated_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_version: Option<String>,
    /// Where the models ran, for the record (a resumed session runs in the current work tree).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<String>,
    /// `code`, `proposal` or `mixed` for a review; `topic` for a debate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

impl Common {
    /// A new session's part, created and updated now.
    pub fn new(id: &str, status: &str, target: &str, workspace: String) -> Common {
        let now = crate::store::rfc3339(crate::store::now_utc());
        Common {
            version: VERSION,
            id: id.to_string(),
            status: status.to_string(),
            created_at: Some(now.clone()),
            updated_at: Some(now),
            tool_version: Some(env!("CARGO_PKG_VERSION").to_string()),
            workspace: Some(workspace),
            target: Some(target.to_string()),
        }
    }

    /// Sets the status, and the time of this update.
    pub fn update(&mut self, status: &str) {
        self.status = status.to_string();
        self.updated_at = Some(crate::store::rfc3339(crate::store::now_utc()));
    }
}

/// The settings a session ran with, as they were then: the few that `resume` takes over are
/// typed, the rest are kept as written, for the record (their shape is the settings' own, not
/// this file's).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Settings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rounds: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_minutes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend_timeout_seconds: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fail_on: Option<String>,
    #[serde(flatten)]
    pub rest: BTreeMap<String, serde_json::Value>,
}

impl Settings {
    /// The record of `settings` (anything that serializes as the settings do).
    pub fn of(settings: &impl Serialize) -> serde_json::Result<Settings> {
        serde_json::from_value(serde_json::to_value(settings)?)
    }
}

/// One side's backend and why it was chosen.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pick {
    pub backend: String,
    #[serde(default)]
    pub family: String,
    #[serde(default)]
    pub why: String,
}

/// Who reviewed and who authored, as routed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Route {
    pub author: Pick,
    pub reviewer: Pick,
    /// The other reviewers of a review by several.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<Pick>,
    /// The failover chain after the reviewer, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Where a review's text came from.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Source {
    /// `scope` (a git change), `content` (an argument, a file, stdin) or `last-message`.
    pub kind: String,
    /// For content: `argument`, `stdin` or the file's path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    /// For a last message: the agent, its transcript file, the message and why it was taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

impl Source {
    /// A git change.
    pub fn is_scope(&self) -> bool {
        self.kind == "scope"
    }
}

/// The scope of a review: as given, as used, and the commits and trees it resolved to.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Scope {
    #[serde(default)]
    pub given: Option<String>,
    /// As the user would type it (`base:main`); none for content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effective: Option<String>,
    #[serde(default)]
    pub resolved: Option<Resolved>,
}

/// The two sides of a reviewed change.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Resolved {
    #[serde(default)]
    pub base: Option<String>,
    /// The commit reviewed; none for the index or the work tree.
    #[serde(default)]
    pub head: Option<String>,
    #[serde(default)]
    pub merge_base: Option<String>,
    #[serde(default)]
    pub index_tree: Option<String>,
    #[serde(default)]
    pub description: String,
}

/// One file of a reviewed change.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct File {
    pub path: String,
    #[serde(default)]
    pub old_path: Option<String>,
    /// `added`, `deleted`, `modified`, `renamed`, `copied`, `typechange` or `untracked`.
    pub status: String,
    #[serde(default)]
    pub additions: usize,
    #[serde(default)]
    pub deletions: usize,
    #[serde(default)]
    pub binary: bool,
    #[serde(default)]
    pub too_large: bool,
    #[serde(default)]
    pub lossy: bool,
    /// A submodule pointer change: (old commit, new commit).
    #[serde(default)]
    pub submodule: Option<(Option<String>, Option<String>)>,
}

/// One commit of a reviewed change.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Commit {
    pub sha: String,
    pub subject: String,
}

/// The secrets replaced before anything was stored or sent.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Redactions {
    pub count: usize,
    #[serde(default)]
    pub kinds: BTreeMap<String, usize>,
}

/// A chunked review's budget per chunk and most chunks.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Chunking {
    pub budget: usize,
    #[serde(default = "sixteen")]
    pub max_chunks: usize,
}

fn sixteen() -> usize {
    16
}

/// An incremental review's basis, in brief (the whole plan is `incremental.json`).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Incremental {
    #[serde(default)]
    pub mode: String,
    #[serde(default)]
    pub since: String,
    #[serde(default)]
    pub previous_session: Option<String>,
    #[serde(default)]
    pub old_head: Option<String>,
    #[serde(default)]
    pub reason: Option<String>,
    /// The whole change's files (the review's own `files` are only the delta).
    #[serde(default)]
    pub change_files: Option<Vec<String>>,
}

/// A pre-commit hook's session: its verdict-cache key.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Hook {
    #[serde(default)]
    pub cache: Option<String>,
}

/// A review's metadata.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Review {
    #[serde(flatten)]
    pub common: Common,
    pub source: Source,
    #[serde(default)]
    pub target_reasons: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_confidence: Option<String>,
    #[serde(default)]
    pub scope: Scope,
    #[serde(default)]
    pub files: Vec<File>,
    #[serde(default)]
    pub commits: Vec<Commit>,
    #[serde(default)]
    pub segments: Vec<Segment>,
    #[serde(default)]
    pub redactions: Redactions,
    #[serde(default)]
    pub truncation: Truncation,
    #[serde(default)]
    pub lossy: bool,
    /// Lines of the material that read as instructions aimed at the reviewer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub injections: Vec<crate::injection::Found>,
    /// The repository's review instructions sent with the material (their text is
    /// `instructions.md`), or why some were not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<crate::instructions::Record>,
    #[serde(default)]
    pub artifact_bytes: usize,
    #[serde(default)]
    pub settings: Settings,
    #[serde(default)]
    pub route: Option<Route>,
    #[serde(default)]
    pub route_error: Option<String>,
    /// A chunked review: its chunking, first chunks and what fit in none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunking: Option<Chunking>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunks: Option<Vec<ChunkRecord>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unfit: Option<Vec<Note>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub incremental: Option<Incremental>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hook: Option<Hook>,
    /// How far the loop got: rounds recorded, and how it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_decision: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub converged: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Fallback>,
    /// When `resume` went on with it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resumed_at: Vec<String>,
}

/// A seat as a duel records it: its pick, or (sessions before picks were recorded) only the
/// backend's name.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Seated {
    Pick(Pick),
    Name(String),
}

impl Seated {
    /// The backend it names.
    pub fn backend(&self) -> &str {
        match self {
            Seated::Pick(p) => &p.backend,
            Seated::Name(n) => n,
        }
    }
}

/// A duel's time budget and where it came from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DuelBudget {
    pub seconds: u64,
    pub reserved_for_verdict_seconds: u64,
    pub source: String,
}

/// A duel's metadata.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Duel {
    #[serde(flatten)]
    pub common: Common,
    /// Always `topic`.
    pub kind: Kind,
    pub topic: String,
    pub proposer: Seated,
    pub challenger: Seated,
    /// The judge's backend (older sessions record only this).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orchestrator: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<Pick>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<DuelBudget>,
    /// The most rounds.
    #[serde(default = "two")]
    pub rounds: u32,
    /// `--scope`, the change it was grounded in.
    #[serde(default)]
    pub scope: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings: Option<Settings>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_completed: Option<u32>,
    /// The revision debated, where its models ran, and what its log came to.
    #[serde(flatten)]
    pub debated: Debated,
    /// The turns whose answers had secrets redacted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secrets_redacted: Option<Vec<RedactedTurn>>,
}

fn two() -> u32 {
    2
}

/// The revision a debate is about, for `resume`: a tree (a commit's, or the index's), or the work
/// tree with the untracked files the change adds; neither (`{}`) for a debate about no change.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revision {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree: Option<WorkTree>,
}

/// The work tree as a debate's revision: the index's paths, plus these untracked ones.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkTree {
    #[serde(default)]
    pub untracked: Vec<String>,
}

/// Where a debate's models ran: the export's path (gone once the debate ends) or the work tree,
/// and the tools they had (`read-only` or `none`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sandbox {
    pub dir: String,
    pub tools: String,
}

/// What a debate (duel or panel) records of its ground and, once it ends, of its log. Every
/// field is optional: sessions of earlier releases record none of them.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Debated {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<Revision>,
    /// The revision citations were checked against, in words (`commit 1a2b3c4`, `the index`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub citations_checked_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sandbox: Option<Sandbox>,
    /// The topic as a folder-safe slug.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// How many entries (a duel's exchanges, a panel's log lines) were logged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entries: Option<usize>,
    /// Cited sources by how their check came out (`verified`, `not-found`, ... for a duel;
    /// `verified`, `fabricated`, ... for a panel).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verification: Option<BTreeMap<String, usize>>,
}

/// A duel's turn whose answer had secrets redacted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedactedTurn {
    pub seq: u32,
    pub role: String,
    pub count: usize,
}

/// A panel's call whose answer had secrets redacted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RedactedCall {
    pub speaker: String,
    pub step: String,
    pub count: usize,
}

/// A panel entry struck by a chair ruling: the ruling's seq, the entry struck and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Struck {
    pub seq: u32,
    pub target_seq: Option<u32>,
    pub content: String,
}

/// A panel role's backend.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Role {
    pub backend: String,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub family: String,
    /// Why it could not be kept off the debaters' backends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<String>,
}

/// The verifier: the tool itself, with a model for what it cannot check when one is set.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Verifier {
    pub backend: String,
    #[serde(default)]
    pub model_check: Option<Role>,
}

/// Who played each support role of a panel, and the chair.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Roles {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reporter: Option<Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assessor: Option<Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chair: Option<Role>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verifier: Option<Verifier>,
}

impl Roles {
    /// The support role `name` (`audience`, `reporter` or `assessor`).
    pub fn support(&self, name: &str) -> Option<&Role> {
        match name {
            "audience" => self.audience.as_ref(),
            "reporter" => self.reporter.as_ref(),
            "assessor" => self.assessor.as_ref(),
            _ => None,
        }
    }
}

/// One panellist with the model and family it ran on.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Seat {
    #[serde(flatten)]
    pub debater: Debater,
    #[serde(default)]
    pub model: Option<String>,
    #[serde(default)]
    pub family: String,
}

/// A panel's calls, timed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Timings {
    pub elapsed_ms: u64,
    #[serde(default)]
    pub calls: Vec<Timing>,
}

/// A panel's metadata.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Panel {
    #[serde(flatten)]
    pub common: Common,
    /// Always `panel`.
    pub kind: Kind,
    pub topic: String,
    pub chair: String,
    pub debaters: Vec<Debater>,
    #[serde(default)]
    pub lineup: Vec<Seat>,
    #[serde(default)]
    pub roles: Roles,
    #[serde(default = "three")]
    pub min_rounds: u32,
    #[serde(default = "eight")]
    pub max_rounds: u32,
    #[serde(default)]
    pub blog: bool,
    /// How it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_run: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_spent: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timings: Option<Timings>,
    /// The revision debated, where its models ran, and what its log came to.
    #[serde(flatten)]
    pub debated: Debated,
    /// The entries struck by a chair ruling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redactions: Option<Vec<Struck>>,
    /// The calls whose answers had secrets redacted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secrets_redacted: Option<Vec<RedactedCall>>,
}

fn three() -> u32 {
    3
}

fn eight() -> u32 {
    8
}

/// The fields every metadata is read by first: which kind it is, and whether we know its layout.
#[derive(Deserialize)]
struct Probe {
    version: u32,
    #[serde(default)]
    kind: Kind,
}

/// Why a `metadata.json` is not read.
#[derive(Debug)]
pub enum Unknown {
    /// Not JSON, or not a metadata's shape.
    Json(serde_json::Error),
    /// A later release's layout (its `version`).
    Newer(u32),
}

impl From<serde_json::Error> for Unknown {
    fn from(e: serde_json::Error) -> Unknown {
        Unknown::Json(e)
    }
}

impl std::fmt::Display for Unknown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unknown::Json(e) => write!(f, "{e}"),
            Unknown::Newer(v) => write!(
                f,
                "version {v} is newer than this git-debate reads (version {VERSION}); the \
                 release that wrote it reads it"
            ),
        }
    }
}

impl Metadata {
    /// Reads a `metadata.json` from its bytes: the kind and version first, then the kind's
    /// layout, so a missing or mistyped field is named with its line.
    pub fn parse(bytes: &[u8]) -> Result<Metadata, Unknown> {
        let probe: Probe = serde_json::from_slice(bytes)?;
        if probe.version > VERSION {
            return Err(Unknown::Newer(probe.version));
        }
        Ok(match probe.kind {
            Kind::Review => Metadata::Review(Box::new(serde_json::from_slice(bytes)?)),
            Kind::Topic => Metadata::Topic(Box::new(serde_json::from_slice(bytes)?)),
            Kind::Panel => Metadata::Panel(Box::new(serde_json::from_slice(bytes)?)),
        })
    }

    /// The file's bytes: pretty JSON with sorted keys (see the module's doc) and a final newline.
    pub fn to_json(&self) -> serde_json::Result<Vec<u8>> {
        crate::store::sorted_json(self)
    }

    pub fn common(&self) -> &Common {
        match self {
            Metadata::Review(m) => &m.common,
            Metadata::Topic(m) => &m.common,
            Metadata::Panel(m) => &m.common,
        }
    }

    /// How far a session got, in rounds: a review's rounds recorded (0 for a debate).
    pub fn rounds(&self) -> u64 {
        match self {
            Metadata::Review(m) => m.rounds.unwrap_or(0),
            _ => 0,
        }
    }
}
