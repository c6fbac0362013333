//! The review loop: critique -> judge -> decision, round after round, until a guard stops it.
//!
//! Each round sends the current version of the artifact to the reviewer (cr for code,
//! peer-review for proposals, both concurrently for mixed), reads the findings (an answer that
//! cannot be read whole goes back to the reviewer once, to restate it: [`reading`]), gives them
//! stable ids across rounds, brings back the findings the judge disputed last round and the
//! reviewer did not withdraw ([`disputes`]), asks the author model to judge them, and hears the
//! judge's letter next to the rubric's ([`decision`]). The loop stops on the first of: max
//! rounds, the time budget, two consecutive rounds without new P1/P2 findings, the reviewer's
//! agreement, or decision A, B or E (A does not stop it while a disputed P0/P1 stands and rounds
//! remain). Every step is written to the session folder as it happens, so an interrupted or failed
//! session stays readable.

mod chunked;
mod consensus;
mod decision;
mod disputes;
pub mod hook;
mod lean;
pub mod locations;
pub mod manual;
pub mod matching;
mod reading;
pub mod record;
pub mod resume;
mod round;
pub mod setup;
mod steps;
mod version_check;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use serde::Serialize;

use crate::agents::budget::Budget;
use crate::answer::Protocol;
use crate::change::Artifact;
use crate::settings::Settings;
pub use crate::store::summary::Fallback;
use crate::store::Session;
use crate::{
    agents::{Backend, BackendError, Request},
    sys::signals,
};
pub use chunked::Chunking;
use matching::Ledger;
pub use reading::Restater;
use record::{Call, Round};

/// Where a code patch would apply, to check the author's rewritten version.
#[derive(Debug, Clone)]
pub enum PatchBase {
    /// The work tree (uncommitted and staged scopes).
    WorkTree,
    /// A commit's tree.
    Commit(String),
    /// No repository state to check against (explicit content, file scopes).
    None,
}

/// Everything the loop needs.
pub struct Review<'a> {
    pub session: &'a Session,
    pub settings: &'a Settings,
    pub author: Box<dyn Backend>,
    pub reviewer: Box<dyn Backend>,
    pub artifact: &'a Artifact,
    /// Where the models run (the work tree), and where finding anchors are read.
    pub workspace: PathBuf,
    /// The repository, for checking patches.
    pub repo_dir: Option<PathBuf>,
    pub patch_base: PatchBase,
    /// `<store>/templates`, where users override prompt templates.
    pub templates: Option<PathBuf>,
    /// The artifact has no git context (explicit content, a file).
    pub snippet: bool,
    /// metadata.json as written by the caller; the loop updates it.
    pub metadata: crate::store::metadata::Review,
    /// `--mode manual`: where the user is asked.
    pub terminal: Option<std::sync::Mutex<manual::Terminal>>,
    /// Where a resumed session left off.
    pub resume: Option<Resume>,
    /// A budget shorter than a minute, for tests of the budget guard.
    pub budget_override: Option<Duration>,
    /// Who restates an answer the reader could not read whole (the reviewer by default).
    pub normalizer: Restater,
    /// The reviewed change's files and hunks, to check finding locations against.
    pub locations: Option<locations::LocationIndex>,
    /// Where the models run and what they may read (the export of the reviewed revision);
    /// `no_tools` there applies to the reviewer's calls only.
    pub sandbox: crate::sandbox::confine::Sandbox,
    /// The export each call that can read files runs in, made by the first such call (`None`:
    /// `sandbox` says where every call runs).
    pub exports: Option<&'a crate::sandbox::export::Lazy>,
    /// Review a change too big for one prompt in chunks at once (`None`: one prompt, cut to the
    /// budget).
    pub chunking: Option<Chunking>,
    /// The other reviewers of a review by several (`debate.reviewers`): each reviews the same
    /// version in the same round, and their findings are merged by identity ([`consensus`]).
    pub others: Vec<Box<dyn Backend>>,
    /// Review instead, in order, when the reviewer never answers (the rest of a
    /// `debate.reviewer` list, then `debate.fallbackReviewer`).
    pub fallback: Vec<Box<dyn Backend>>,
    /// An incremental review's plan: the artifact is the delta, and round 1 also asks about the
    /// findings carried from the earlier review.
    pub incremental: Option<crate::review::incremental::Plan>,
}

/// The state of a stopped session, read back from its folder by `git debate resume`.
pub struct Resume {
    pub rounds: Vec<Round>,
    /// The current version's text and number.
    pub text: String,
    pub version: u32,
    pub rebuttal: Option<String>,
    pub summary: Option<String>,
}

/// How a review ended.
#[derive(Debug, Clone, Serialize)]
pub struct ReviewOutcome {
    /// `completed`, `unavailable` (the reviewer never answered), `failed` (an author step with no
    /// stand-in failed; see [`steps`]) or `interrupted` (Ctrl-C cut the loop short).
    pub status: String,
    pub stop_reason: String,
    pub converged: bool,
    pub final_decision: String,
    /// The final version's file in the session folder.
    pub final_artifact: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_patch: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_check: Option<String>,
    pub rounds: Vec<Round>,
    /// Calls outside rounds (summaries).
    pub extra_calls: Vec<Call>,
    /// The error that made the review unavailable, or a mid-loop failure.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<BackendError>,
    /// Files of a chunked review whose chunk never got an answer: not evaluated, never passed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_evaluated: Vec<String>,
    /// What a chunked review could not fit in any chunk.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unfit: Vec<crate::change::budget::Note>,
    /// The fallback reviewer reviewed, because the reviewer never answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Fallback>,
    /// In a review by several: who answered in the last round tried (also one that too few
    /// answered to record).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<crate::store::round::Seat>,
    pub duration_ms: u64,
}

/// What stops the loop before a round.
enum Before {
    CutShort,
    Stop(String),
}

/// The loop's state between rounds.
struct State {
    text: String,
    version: u32,
    rebuttal: Option<String>,
    summary: Option<String>,
    rounds: Vec<Round>,
    extra_calls: Vec<Call>,
    ledger: Ledger,
    final_decision: Option<String>,
    stop_reason: Option<String>,
    converged: bool,
    final_patch: Option<(String, Option<String>)>,
    /// An author step failed and stopped the session.
    failed: bool,
    /// Which files a chunked review has covered.
    coverage: chunked::Coverage,
    /// In a review by several: who answered in the last round tried.
    seats: Vec<crate::store::round::Seat>,
    /// Seats the failover chain filled in the first round, and whom it replaced there.
    stood_in: Vec<(usize, Vec<crate::store::call::PassedOver>)>,
}

/// How the rounds ended.
#[derive(Default)]
struct Ended {
    /// The reviewer's failure that stopped the loop.
    error: Option<BackendError>,
    fallback: Option<Fallback>,
    /// Ctrl-C cut something short.
    cut_short: bool,
}

impl Review<'_> {
    pub fn run(mut self) -> Result<ReviewOutcome> {
        let started = Instant::now();
        let mut st = self.initial_state();
        signals::graceful();
        self.status("running", None)?;
        let ended = self.all_rounds(&mut st, started)?;
        self.finish(st, ended, started)
    }

    /// The state before the first round to run: the ledger of known findings (carried ones, and
    /// a resumed session's), and where a resumed session left off.
    fn initial_state(&mut self) -> State {
        let resume = self.resume.take();
        let mut ledger = Ledger::default();
        if let Some(plan) = &self.incremental {
            // Carried findings are known before round 1: one raised again keeps its id.
            ledger.reserve(plan.last_id);
            for c in &plan.carried {
                ledger.remember(0, &c.finding, Some(&self.workspace));
            }
        }
        for r in resume.iter().flat_map(|r| r.rounds.iter()) {
            for j in &r.findings {
                ledger.remember(r.round, &j.finding, Some(&self.workspace));
            }
        }
        let (text, version, rebuttal, summary, rounds) = match resume {
            Some(r) => (r.text, r.version, r.rebuttal, r.summary, r.rounds),
            None => (self.artifact.text.clone(), 1, None, None, Vec::new()),
        };
        let mut coverage = chunked::Coverage::of(&rounds);
        if self.chunking.is_some() && rounds.is_empty() {
            // What even all the chunks together could not hold.
            let t = &self.artifact.truncation;
            coverage
                .unfit
                .extend(t.omitted.iter().chain(&t.clipped).cloned());
        }
        State {
            coverage,
            text,
            version,
            rebuttal,
            summary,
            rounds,
            extra_calls: Vec::new(),
            ledger,
            final_decision: None,
            stop_reason: None,
            converged: false,
            final_patch: None,
            failed: false,
            seats: Vec::new(),
            stood_in: Vec::new(),
        }
    }

    /// Runs rounds until a guard, a decision, a failure or Ctrl-C stops the loop.
    fn all_rounds(&mut self, st: &mut State, started: Instant) -> Result<Ended> {
        let mut ended = Ended::default();
        let first = st.rounds.len() as u32 + 1;
        for n in first..=self.settings.max_rounds {
            match self.before_round(n, st, started) {
                Some(Before::CutShort) => {
                    ended.cut_short = true;
                    break;
                }
                Some(Before::Stop(why)) => {
                    st.stop_reason = Some(why);
                    break;
                }
                None => {}
            }
            if let Err(e) = self.round_or_fallback(n, st, started, &mut ended.fallback)? {
                if signals::interrupted() || e.kind == crate::agents::ErrorKind::Interrupted {
                    ended.cut_short = true;
                    break;
                }
                st.stop_reason = Some(self.failed_round(n, st, &e, started));
                ended.error = Some(e);
                break;
            }
            self.status("running", st.rounds.last())?;
            if st.stop_reason.is_some() {
                break;
            }
            if n == self.settings.max_rounds {
                st.stop_reason = Some(format!("max rounds ({n}) reached"));
            }
        }
        Ok(ended)
    }

    /// What stops the loop before round `n` starts: Ctrl-C, a budget used up. From round 3 the
    /// older rounds are summarised first.
    fn before_round(&self, n: u32, st: &mut State, started: Instant) -> Option<Before> {
        if signals::interrupted() {
            return Some(Before::CutShort);
        }
        if self.remaining(started).is_zero() {
            return Some(Before::Stop(format!(
                "budget exceeded ({}) before round {n}",
                minutes(self.budget(started).total)
            )));
        }
        if let Some(reason) = self.spent_budget(st) {
            return Some(Before::Stop(format!("{reason} before round {n}")));
        }
        if n >= 3 {
            self.summarize(st, started);
            // Ctrl-C during the summary: no reviewer is started only to be killed.
            if signals::interrupted() {
                return Some(Before::CutShort);
            }
        }
        None
    }

    /// Round `n`; when the reviewer never answered, the next of the failover chain (if any)
    /// reviews instead, and so on down the chain.
    fn round_or_fallback(
        &mut self,
        n: u32,
        st: &mut State,
        started: Instant,
        fallback: &mut Option<Fallback>,
    ) -> Result<std::result::Result<(), BackendError>> {
        let mut result = self.round(n, st, started)?;
        let mut passed: Vec<crate::store::call::PassedOver> = Vec::new();
        while let Err(e) = &result {
            let never = st.rounds.is_empty()
                && e.kind != crate::agents::ErrorKind::Interrupted
                && !signals::interrupted();
            // With several reviewers the chain has filled the seats it could in the round
            // itself ([`consensus`]).
            if !never || self.fallback.is_empty() || self.is_panel() {
                break;
            }
            let fb = self.fallback.remove(0);
            let was = std::mem::replace(&mut self.reviewer, fb);
            crate::errln!(
                "note: the reviewer {} did not answer ({e}); the fallback reviewer {} reviews instead",
                was.name(),
                self.reviewer.name()
            );
            passed.push(crate::store::call::PassedOver {
                reviewer: was.name().to_string(),
                because: e.to_string(),
            });
            let first = &passed[0];
            *fallback = Some(Fallback {
                reviewer: self.reviewer.name().to_string(),
                instead_of: first.reviewer.clone(),
                because: first.because.clone(),
                also_failed: passed[1..].to_vec(),
            });
            result = self.round(n, st, started)?;
        }
        Ok(result)
    }

    /// Why the loop stopped when the reviewer failed in round `n`.
    fn failed_round(&self, n: u32, st: &State, e: &BackendError, started: Instant) -> String {
        if self.remaining(started).is_zero() {
            format!(
                "budget exceeded ({}) during round {n}: the call was cancelled and round {n} is                  incomplete",
                minutes(self.budget(started).total)
            )
        } else if let Some(few) = consensus::too_few(&st.seats, self.settings.consensus) {
            format!("{few}: {e}")
        } else if st.rounds.is_empty() {
            format!("the reviewer never answered: {e}")
        } else {
            format!(
                "the reviewer failed in round {n} (synthesized from rounds 1-{}): {e}",
                n - 1
            )
        }
    }

    /// Writes the final files and metadata, and the outcome.
    fn finish(&mut self, mut st: State, ended: Ended, started: Instant) -> Result<ReviewOutcome> {
        let status = if ended.cut_short {
            "interrupted"
        } else if st.rounds.is_empty() && ended.error.is_some() {
            "unavailable"
        } else if st.failed {
            "failed"
        } else {
            "completed"
        };
        if ended.cut_short {
            st.stop_reason = Some("interrupted (Ctrl-C)".into());
        }
        let final_artifact = self
            .session
            .write("final-artifact.md", st.text.as_bytes())?;
        let (final_patch, patch_check) = match &st.final_patch {
            Some((patch, check)) => (
                Some(self.session.write("final.patch", patch.as_bytes())?),
                check.clone(),
            ),
            None => (None, None),
        };
        let final_decision =
            st.final_decision
                .clone()
                .unwrap_or_else(|| match st.rounds.last().map(|r| r.choice) {
                    Some('C') => "Compromise".into(),
                    _ => "Stopped".into(),
                });
        let outcome = ReviewOutcome {
            status: status.to_string(),
            stop_reason: st.stop_reason.clone().unwrap_or_else(|| "stopped".into()),
            converged: st.converged,
            final_decision,
            final_artifact,
            final_patch,
            patch_check,
            rounds: st.rounds,
            extra_calls: st.extra_calls,
            error: ended.error,
            not_evaluated: st.coverage.not_evaluated(),
            fallback: ended.fallback,
            seats: std::mem::take(&mut st.seats),
            unfit: st.coverage.unfit.clone(),
            duration_ms: started.elapsed().as_millis() as u64,
        };
        let m = &mut self.metadata;
        m.common.update(status);
        m.stop_reason = Some(outcome.stop_reason.clone());
        m.final_decision = Some(outcome.final_decision.clone());
        m.converged = Some(outcome.converged);
        m.rounds = Some(outcome.rounds.len() as u64);
        if let Some(f) = &outcome.fallback {
            m.fallback = Some(f.clone());
        }
        self.write_metadata()?;
        Ok(outcome)
    }

    /// The token or cost budget that is used up, if one is.
    fn spent_budget(&self, st: &State) -> Option<String> {
        let mut total = crate::agents::Usage::default();
        for u in record::usage_by_backend(&st.rounds, &st.extra_calls).values() {
            total.add(&u.usage);
        }
        let tokens = total.input_tokens.unwrap_or(0) + total.output_tokens.unwrap_or(0);
        if let Some(limit) = self.settings.budget_tokens.filter(|l| tokens >= *l) {
            return Some(format!("token budget ({limit}) used up: {tokens} tokens"));
        }
        let cost = total.cost_usd.unwrap_or(0.0);
        if let Some(limit) = self.settings.budget_usd.filter(|l| cost >= *l) {
            return Some(format!("cost budget (${limit}) used up: ${cost:.4}"));
        }
        None
    }

    /// The wall-clock budget of this run, counted from `started` (`--budget-minutes`; tests
    /// shorten it).
    fn budget(&self, started: Instant) -> Budget {
        Budget::for_review(self.settings, self.budget_override).starting_at(started)
    }

    /// Time left in the session budget.
    fn remaining(&self, started: Instant) -> Duration {
        self.budget(started).left()
    }

    /// A request for one call of `who`, with its tools switched off when `no_tools` (the
    /// reviewer's calls under `--reviewer-tools none`): its timeout is the smaller of the
    /// per-call timeout and the budget, and it runs in the export only if it can read files.
    fn request<'p>(
        &self,
        who: &dyn Backend,
        no_tools: bool,
        prompt: &'p str,
        started: Instant,
        schema: Option<Protocol>,
    ) -> Request<'p> {
        let sandbox = match self.exports {
            Some(lazy) => lazy.sandbox(who.reads_files(no_tools), no_tools),
            None => crate::sandbox::confine::Sandbox {
                no_tools,
                ..self.sandbox.clone()
            },
        };
        Request {
            schema,
            prompt,
            cwd: Some(self.workspace.clone()),
            timeout: self.budget(started).call().timeout,
            idle_timeout: Duration::from_secs(self.settings.backend_idle_seconds),
            sandbox,
        }
    }

    fn status(&mut self, status: &str, last: Option<&Round>) -> Result<()> {
        self.metadata.common.update(status);
        if let Some(r) = last {
            self.metadata.rounds = Some(u64::from(r.round));
        }
        self.write_metadata()
    }

    fn write_metadata(&self) -> Result<()> {
        let m = crate::store::metadata::Metadata::Review(Box::new(self.metadata.clone()));
        self.session.write_metadata(&m)
    }
}

/// The decision that keeps the current version, named for what it is: the original, or the
/// compromise the reviewer has now accepted (so `final-artifact.md` is what the label says).
fn kept(version: u32) -> String {
    if version > 1 {
        format!("Compromise (v{version}, accepted)")
    } else {
        "Keep Original".into()
    }
}

fn interrupted(backend: &str) -> BackendError {
    BackendError::new(
        backend,
        crate::agents::Failure::new(crate::agents::ErrorKind::Interrupted, "interrupted"),
        &|_| String::new(),
    )
}

fn minutes(d: Duration) -> String {
    if d.as_secs().is_multiple_of(60) && d.as_secs() > 0 {
        format!("{} min", d.as_secs() / 60)
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

pub mod incremental;
#[cfg(test)]
mod tests;
