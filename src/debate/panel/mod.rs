//! The chaired panel: two or more debaters with personas argue a topic through
//! openings, rounds, audience questions and closings; a neutral chair moderates and declares
//! `<name>_wins`, `draw` or `void`; an audience asks questions and gives its conclusion; a
//! reporter keeps running notes and writes the summary (and a blog post); an assessor grades the
//! run after the reporter. Every role is its own call on its own backend ([`Roles`]).
//!
//! A model acting as verifier logged no result at all in a recorded run; here verification is done
//! by the tool after every entry, for every cited source (repository citations checked at HEAD,
//! URLs marked unverifiable offline): a citation that does not exist is redacted by a chair
//! ruling, one that exists but does not hold what is cited is `unreliable` and gets a ruling and
//! a warning. A failed turn gets a ruling and the panel goes on ([`flow`]); the time budget is
//! soft ([`crate::agents::budget`]); every entry goes to `debate-log.jsonl` with the panel-log
//! fields ([`log`]).

mod calls;
mod closing;
pub mod confirm;
mod flow;
mod interrupt;
pub mod lineup;
pub mod log;
pub mod outputs;
pub mod propose;
pub mod resume;
pub mod roles;
pub mod setup;
mod turns;
mod verify;

use std::path::PathBuf;
use std::sync::Mutex;

use serde::Serialize;

use crate::agents::Backend;
use crate::debate::citations::{Checker, Status};
use crate::settings::Settings;
pub use crate::store::debate::{Debater, Timing};
use crate::store::Session;
pub use flow::run;
pub use log::Entry;
pub use outputs::summary;

/// The support roles, each on its own backend: by default one no debater uses, so no debater's
/// model grades its own debate.
pub struct Roles {
    pub chair: Box<dyn Backend>,
    pub audience: Box<dyn Backend>,
    pub reporter: Box<dyn Backend>,
    pub assessor: Box<dyn Backend>,
    /// Judges the sources the tool cannot check (URLs), when one is configured.
    pub verifier: Option<Box<dyn Backend>>,
    /// Why a support role could not be kept off the debaters' backends (`[WARN]` lines).
    pub warnings: Vec<String>,
}

pub struct Panel<'a> {
    pub session: &'a Session,
    pub settings: &'a Settings,
    pub topic: String,
    pub debaters: Vec<(Debater, Box<dyn Backend>)>,
    pub roles: Roles,
    pub min_rounds: u32,
    pub max_rounds: u32,
    /// `--budget-minutes`, when given (fractions allowed).
    pub budget_minutes: Option<f64>,
    pub workspace: PathBuf,
    pub context: Option<String>,
    pub checker: Checker,
    /// Where each call runs (the export of the revision debated) and what it may read.
    pub sandbox: crate::sandbox::confine::Sandbox,
    /// The log of an interrupted panel: finished steps are skipped.
    pub resume: Vec<Entry>,
    /// Every model call, timed, for `metadata.json` (calls may run on two threads at once).
    pub timings: Mutex<Vec<Timing>>,
    /// What the verifier model said of each source it judged, and at which seq: a source is
    /// judged once per debate.
    pub judged: Mutex<std::collections::BTreeMap<String, (Status, String, u32)>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PanelOutcome {
    pub status: String,
    /// `<name>_wins`, `draw` or `void`.
    pub outcome: String,
    pub reason: String,
    pub rounds: u32,
    pub entries: Vec<Entry>,
    pub redactions: u32,
    pub notes: Vec<String>,
    /// What the reporter wrote for `summary.md` (empty when it did not answer).
    pub report: String,
    pub blog: Option<String>,
    /// Whether the budget ran out before the closings.
    pub budget_spent: bool,
    pub elapsed_ms: u64,
    pub timings: Vec<Timing>,
    /// The revision repository citations were checked against.
    pub checked_at: String,
}

impl Panel<'_> {
    /// How many debater entries there are.
    fn spoken(&self, log: &[Entry]) -> usize {
        log.iter()
            .filter(|e| self.debaters.iter().any(|(d, _)| d.name == e.speaker))
            .count()
    }

    fn names(&self) -> Vec<&str> {
        self.debaters.iter().map(|(d, _)| d.name.as_str()).collect()
    }
}
