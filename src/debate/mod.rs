//! Topic debates: a proposer and a challenger of different model families argue a question for a
//! few rounds, and a judge (a third family where one is installed) gives the verdict.
//!
//! More than an exchange of answers: every repository citation is checked at HEAD and the
//! marks travel with the transcript ([`citations`]); the debate has its own time budget and the
//! verdict its own reserve of it ([`crate::agents::budget`]), so a slow round never costs the verdict; every
//! failure follows the duel's error table (proposer fails in round 1: abort; challenger fails in
//! round 1: the proposer's uncontested position, shown with the warning; later: synthesise from
//! the completed rounds). From round 3 the rounds before the last are replaced by the judge's
//! summary ([`turns`]), so prompts stay bounded.

pub mod citations;
pub mod hints;
pub mod panel;
pub mod record;
pub mod render;
pub mod resume;
pub mod setup;
pub mod sides;
pub mod synthesis;
mod turns;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use serde::Serialize;

use crate::agents::budget::{self, Budget, Slice};
use crate::settings::Settings;
pub use crate::store::debate::{Exchange, Seat, Verdict};
use crate::store::{self, Session};
use crate::{
    agents::{Backend, BackendError, ErrorKind, Request},
    sys::signals,
};
use citations::Checker;

pub use render::{state_record, summary_markdown, transcript};

/// How a debate ended.
#[derive(Debug, Clone, Serialize)]
pub struct DebateOutcome {
    /// `completed`, `uncontested` (the challenger never answered), `aborted` or `interrupted`.
    pub status: String,
    pub rounds_completed: u32,
    pub exchanges: Vec<Exchange>,
    pub verdict: Option<Verdict>,
    /// The `[WARN]` / `[ERROR]` lines for the user.
    pub notes: Vec<String>,
    pub duration_ms: u64,
    pub proposer: Seat,
    pub challenger: Seat,
    pub judge: Seat,
    /// The revision citations were checked against.
    pub checked_at: String,
}

/// A debate (duel or panel) that has ended and been recorded: what is printed of it.
pub struct Ended {
    pub session: Session,
    /// `summary.json` as written.
    pub report: crate::store::summary::DebateSummary,
    /// `summary.md`, or the panel's summary.
    pub summary: String,
    /// `completed`, `uncontested`, `aborted`, `interrupted`, ...
    pub status: String,
}

pub struct Duel<'a> {
    pub session: &'a Session,
    pub settings: &'a Settings,
    pub topic: String,
    pub proposer: Box<dyn Backend>,
    pub challenger: Box<dyn Backend>,
    /// Writes the summaries and the verdict.
    pub judge: Box<dyn Backend>,
    /// Why that judge, said in the output.
    pub judge_why: String,
    pub rounds: u32,
    pub budget: Budget,
    pub workspace: PathBuf,
    /// A change the debate is grounded in (`--scope`), as shared context.
    pub context: Option<String>,
    pub templates: Option<PathBuf>,
    pub checker: Checker,
    /// Where each call runs (the export of the revision debated) and what it may read.
    pub sandbox: crate::sandbox::confine::Sandbox,
    /// Turns already taken (a resumed debate goes on from the next one).
    pub resume: Vec<Exchange>,
}

/// Why the rounds stopped early.
enum Stop {
    Interrupted,
    /// The proposer failed in round 1.
    Aborted,
    /// A failure or the budget; the note is already written.
    Cut,
}

/// What a debate run carries from turn to turn.
#[derive(Default)]
struct Progress {
    ex: Vec<Exchange>,
    notes: Vec<String>,
    timeouts_only: bool,
    failed: bool,
    /// The judge's summary of the rounds before the last, and the round it was written for.
    summary: Option<(u32, String)>,
    rounds_completed: u32,
    stop: Option<Stop>,
}

impl Duel<'_> {
    pub fn run(mut self) -> Result<DebateOutcome> {
        let started = Instant::now();
        self.budget.restart();
        signals::graceful();
        let ex: Vec<Exchange> = std::mem::take(&mut self.resume);
        let done = ex.len();
        let mut p = Progress {
            ex,
            timeouts_only: true,
            ..Progress::default()
        };
        let context = self
            .context
            .as_deref()
            .map(|c| {
                format!(
                    "\n{}",
                    crate::prompts::fence::wrap("SHARED CONTEXT: the change under discussion", c)
                )
            })
            .unwrap_or_default();
        'rounds: for n in 1..=self.rounds {
            for (turn, role) in ["proposer", "challenger"].into_iter().enumerate() {
                if ((n - 1) * 2) as usize + turn < done {
                    continue;
                }
                if let Some(stop) = self.turn(n, role, &context, &mut p)? {
                    p.stop = Some(stop);
                    break 'rounds;
                }
            }
            p.rounds_completed = n;
        }
        Ok(self.conclude(p, started))
    }

    /// One turn of `role` in round `n`, logged; `Some` when the rounds stop here.
    fn turn(&self, n: u32, role: &str, context: &str, p: &mut Progress) -> Result<Option<Stop>> {
        if signals::interrupted() {
            return Ok(Some(Stop::Interrupted));
        }
        if n >= 3 && p.summary.as_ref().is_none_or(|(r, _)| *r != n) {
            let s = self.summarize(&p.ex, n, &mut p.notes);
            p.summary = Some((n, s));
        }
        let Some(slice) = self.budget.turn() else {
            let why = format!(
                "its turn was not started: {} was used up",
                self.budget.describe()
            );
            p.timeouts_only = false;
            p.failed = true;
            return Ok(Some(self.failure(n, role, &why, &mut p.notes)));
        };
        let history = p.summary.as_ref().map(|(_, s)| s.as_str());
        let prompt = self.prompt(n, role, &p.ex, history, context)?;
        let backend = if role == "proposer" {
            &self.proposer
        } else {
            &self.challenger
        };
        let req = self.request(&prompt, slice);
        let t = Instant::now();
        let r = crate::ui::progress::with_progress(backend.name(), (n, self.rounds), role, || {
            backend.ask(&req)
        });
        match r {
            Ok(a) => {
                let entry = self.exchange(p, (n, role), backend.as_ref(), a, t);
                self.log(&entry)?;
                p.ex.push(entry);
                Ok(None)
            }
            Err(e) if e.kind == ErrorKind::Interrupted || signals::interrupted() => {
                Ok(Some(Stop::Interrupted))
            }
            Err(e) => {
                p.timeouts_only &= e.kind == ErrorKind::Timeout;
                p.failed = true;
                let why = self.why_failed(&e, slice);
                Ok(Some(self.failure(n, role, &why, &mut p.notes)))
            }
        }
    }

    /// A turn's answer as its log entry, its citations checked; a redacted answer ends with
    /// the warning and is noted.
    fn exchange(
        &self,
        p: &mut Progress,
        (n, role): (u32, &str),
        backend: &dyn Backend,
        a: crate::agents::Answer,
        t: Instant,
    ) -> Exchange {
        let mut response = a.text;
        if a.redactions > 0 {
            let warn = crate::agents::redacting::warning(a.redactions);
            p.notes
                .push(format!("{warn} — the {role}'s answer in round {n}"));
            response = format!("{}\n\n{warn}", response.trim_end());
        }
        Exchange {
            seq: p.ex.len() as u32 + 1,
            round: n,
            role: role.to_string(),
            tool: backend.name().to_string(),
            // What the backend says answered (a CLI names the model asked for when it reports
            // none; an ACP agent that takes no model setting names none).
            model: a.model.clone(),
            citations: self.checker.check(&response),
            citations_checked_at: self.checker.revision().to_string(),
            transport: a.transport.to_string(),
            redactions: a.redactions,
            response,
            duration_ms: t.elapsed().as_millis() as u64,
            usage: a.usage,
            timestamp: store::rfc3339(store::now_utc()),
        }
    }

    /// The outcome of the rounds: the `[ERROR]` lines of a debate with no exchange, the verdict when there was a
    /// contest, the status and the seats.
    fn conclude(&self, mut p: Progress, started: Instant) -> DebateOutcome {
        if p.ex.is_empty() && p.failed {
            p.notes.push(if p.timeouts_only {
                "[ERROR] Debate failed: all tool invocations timed out.".into()
            } else {
                "[ERROR] Debate failed: no successful exchanges were recorded.".into()
            });
        }
        let interrupted = matches!(p.stop, Some(Stop::Interrupted)) || signals::interrupted();
        let contested = p.ex.iter().any(|e| e.role == "challenger");
        let (verdict, judge_model) = if contested && !interrupted {
            self.synthesize(&p.ex, &mut p.notes)
        } else {
            (None, None)
        };
        let status = if interrupted {
            "interrupted"
        } else if matches!(p.stop, Some(Stop::Aborted)) || p.ex.is_empty() {
            "aborted"
        } else if !contested {
            "uncontested"
        } else {
            "completed"
        };
        let ex = &p.ex;
        let seat = |b: &dyn Backend, role: &str| Seat {
            tool: b.name().to_string(),
            model: match ex.iter().find(|e| e.role == role) {
                Some(e) => e.model.clone(),
                None => b.model().map(Into::into),
            },
            why: None,
            transport: Some(b.transport().to_string()),
        };
        DebateOutcome {
            status: status.into(),
            rounds_completed: p.rounds_completed,
            proposer: seat(self.proposer.as_ref(), "proposer"),
            challenger: seat(self.challenger.as_ref(), "challenger"),
            judge: Seat {
                tool: self.judge.name().to_string(),
                model: judge_model.or_else(|| self.judge.model().map(Into::into)),
                why: Some(self.judge_why.clone()),
                transport: Some(self.judge.transport().to_string()),
            },
            exchanges: p.ex,
            verdict,
            notes: p.notes,
            duration_ms: started.elapsed().as_millis() as u64,
            checked_at: self.checker.revision().to_string(),
        }
    }

    /// The duel's error table, for `role` failing in round `n` because of `why`.
    fn failure(&self, n: u32, role: &str, why: &str, notes: &mut Vec<String>) -> Stop {
        match (n, role) {
            (1, "proposer") => {
                notes.push(format!(
                    "[ERROR] Debate aborted: the proposer failed in round 1: {why}"
                ));
                Stop::Aborted
            }
            (1, _) => {
                notes.push(format!(
                    "[WARN] Challenger failed. Showing proposer's uncontested position. ({why})"
                ));
                Stop::Cut
            }
            _ => {
                notes.push(format!(
                    "[WARN] Round {n} is incomplete: the {role} failed ({why}); synthesized from \
                     the completed rounds"
                ));
                Stop::Cut
            }
        }
    }

    /// A failure in words that name the limit that bit: a wall-clock timeout the budget set is
    /// the budget's doing, not `--backend-timeout-seconds`'.
    fn why_failed(&self, e: &BackendError, slice: Slice) -> String {
        let idle = e.message.contains("idle limit");
        match (e.kind == ErrorKind::Timeout && !idle, slice.by_budget) {
            (true, true) => format!(
                "no answer within {}, the time left of {}",
                budget::span(slice.timeout),
                self.budget.describe()
            ),
            (true, false) => format!(
                "{}: no answer within {}, the per-call limit (--backend-timeout-seconds {}); \
                 the topic's budget had room",
                e.backend,
                budget::span(slice.timeout),
                slice.timeout.as_secs()
            ),
            _ => hints::for_topic(&e.to_string()),
        }
    }

    fn request<'p>(&self, prompt: &'p str, slice: Slice) -> Request<'p> {
        Request {
            prompt,
            cwd: Some(self.workspace.clone()),
            timeout: slice.timeout,
            idle_timeout: Duration::from_secs(self.settings.backend_idle_seconds),
            schema: None,
            sandbox: self.sandbox.clone(),
        }
    }

    fn log(&self, e: &Exchange) -> Result<()> {
        self.session.append_to_log(e)
    }
}

/// The topic as a folder-safe slug: lower case, every run of other characters one `-`, at most
/// 50 characters (what a panel's output folder is named after).
pub fn slug(topic: &str) -> String {
    let mut s = String::new();
    for c in topic.to_lowercase().chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') {
            s.push('-');
        }
    }
    s.chars().take(50).collect()
}

/// "Proposer" / "Challenger", as the transcript and the prompts write a role.
pub(crate) fn title(role: &str) -> &'static str {
    if role == "proposer" {
        "Proposer"
    } else {
        "Challenger"
    }
}
#[cfg(test)]
mod tests;
