//! The time a run may spend on model calls: one clock, one per-call limit, and the rules that say
//! how much of what is left one call may take. The review loop, the topic duel and the panel all
//! use this one type; what differs between them is a policy, chosen where the budget is made.
//!
//! - A review's budget is hard ([`Budget::for_review`]): every call gets the per-call limit cut to
//!   what is left, and the loop starts no round once nothing is.
//! - A duel keeps a reserve for its verdict ([`Budget::for_topic`]). A topic used to share the
//!   review's 20-minute budget and clamp every call to what was left, so with slow CLIs the last
//!   turns, and then the synthesis, were sent with a 1-second timeout: the debate ended without a
//!   verdict, and the message blamed `--backend-timeout-seconds`. Here the verdict has its own
//!   reserve that the turns cannot touch ([`Budget::turn`], [`Budget::verdict`]), a turn that
//!   would get less than a useful slice of time is not started at all, and every note names the
//!   limit that really bit (the flag or the config key, with where its value came from).
//! - A panel's budget is soft ([`Budget::for_panel`]): it covers the openings and the rounds.
//!   When it runs out the panel goes straight to the closings and the conclusion; those calls
//!   each get the full per-call timeout ([`Budget::reserved`]) and are never cut by the budget,
//!   so the verdict is never the thing that is lost. A panel may overrun its budget by that last
//!   phase, which is what "soft" means here.
//!
//! The budget lives with the backends because it is about calls: it makes the [`Request`] a call
//! is sent with, and both engines (review and debate) sit above this layer.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::agents::Request;
use crate::error::UsageError;
use crate::settings::Settings;

/// A topic's budget when neither `--budget-minutes` nor `debate.topic.budgetMinutes` says:
/// 5 rounds of two slow CLI turns (~4 minutes each, the per-call limit of the earlier scripts),
/// the summaries of rounds 3-5 and the verdict.
pub const DEFAULT_TOPIC_MINUTES: u64 = 60;

/// The time of one run.
#[derive(Debug, Clone)]
pub struct Budget {
    /// When the clock started.
    pub started: Instant,
    /// The whole run, the last calls included.
    pub total: Duration,
    /// Kept back from the ordinary calls for the verdict (zero unless the policy keeps one).
    pub reserve: Duration,
    /// The longest a single call may take (`--backend-timeout-seconds`).
    pub per_call: Duration,
    /// How long a call may go without output (`--backend-idle-seconds`).
    pub idle: Duration,
    /// What set `total`, as a user would change it: `--budget-minutes 10`,
    /// `debate.topic.budgetMinutes = 45`, `debate.topic.budgetMinutes, default 60`.
    pub source: String,
}

/// How long a call may take, and whether the budget (not the per-call limit) set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slice {
    pub timeout: Duration,
    pub by_budget: bool,
}

/// No call is sent with less time than this: a zero timeout would fail before it started.
const MIN_CALL: Duration = Duration::from_secs(1);

impl Budget {
    /// A budget of `total` starting now, with no reserve; the idle limit is the per-call one
    /// until [`Budget::with_idle`] says otherwise.
    pub fn new(total: Duration, per_call: Duration, source: String) -> Budget {
        Budget {
            started: Instant::now(),
            total,
            reserve: Duration::ZERO,
            per_call,
            idle: per_call,
            source,
        }
    }

    pub fn with_idle(self, idle: Duration) -> Budget {
        Budget { idle, ..self }
    }

    /// The same budget with its clock started at `started` (a loop that times itself).
    pub fn starting_at(self, started: Instant) -> Budget {
        Budget { started, ..self }
    }

    /// Starts the clock again: a budget made before a run (to be recorded) counts from the run.
    pub fn restart(&mut self) {
        self.started = Instant::now();
    }

    /// The duel's policy: the verdict keeps one call's time, but never more than a quarter of the
    /// whole.
    pub fn keep_for_verdict(self) -> Budget {
        Budget {
            reserve: self.per_call.min(self.total / 4),
            ..self
        }
    }

    /// The same budget with every call held to `cap` (the panel's audience questions are waited
    /// for two minutes, then the panel goes on).
    pub fn capped(&self, cap: Duration) -> Budget {
        Budget {
            per_call: self.per_call.min(cap),
            ..self.clone()
        }
    }

    /// Time left of the whole budget.
    pub fn left(&self) -> Duration {
        self.total.saturating_sub(self.started.elapsed())
    }

    /// Whether the whole budget is used (for a panel: the openings and rounds are over).
    pub fn spent(&self) -> bool {
        self.started.elapsed() >= self.total
    }

    /// An ordinary call: the per-call limit, cut to what is left, never below a second.
    pub fn call(&self) -> Slice {
        let left = self.left();
        Slice {
            timeout: self.per_call.min(left).max(MIN_CALL),
            by_budget: left < self.per_call,
        }
    }

    /// A call the soft policy protects (a panel's closings and conclusion): its own full time,
    /// whatever is left.
    pub fn reserved(&self) -> Slice {
        Slice {
            timeout: self.per_call,
            by_budget: false,
        }
    }

    /// The time a duel's turn (or a summary) started now may use; `None` when what is left
    /// before the verdict's reserve is too short to be worth a call (a twentieth of the budget,
    /// at most 30 s): a turn sent with seconds to live only fails, and its failure would read as
    /// the model's.
    pub fn turn(&self) -> Option<Slice> {
        let left = self
            .total
            .saturating_sub(self.reserve)
            .saturating_sub(self.started.elapsed());
        let floor = (self.total / 20).min(Duration::from_secs(30));
        if left < floor || left.is_zero() {
            return None;
        }
        Some(Slice {
            timeout: self.per_call.min(left),
            by_budget: left < self.per_call,
        })
    }

    /// The verdict's time: whatever is left of the budget, and never less than the reserve.
    pub fn verdict(&self) -> Slice {
        let left = self.left().max(self.reserve);
        Slice {
            timeout: self.per_call.min(left).max(MIN_CALL),
            by_budget: left < self.per_call,
        }
    }

    /// A plain request (no schema, no sandbox) for `prompt`, run in `cwd`, with `slice`'s time.
    pub fn request<'p>(&self, slice: Slice, cwd: &Path, prompt: &'p str) -> Request<'p> {
        Request {
            prompt,
            cwd: Some(cwd.to_path_buf()),
            timeout: slice.timeout,
            idle_timeout: self.idle,
            schema: None,
            sandbox: Default::default(),
        }
    }

    /// "the topic's time budget (--budget-minutes 10; 2m 30s of it kept for the verdict)".
    pub fn describe(&self) -> String {
        format!(
            "the topic's time budget ({}; {} of it kept for the verdict)",
            self.source,
            span(self.reserve)
        )
    }

    /// A review's budget: `--budget-minutes` (or its key and presets), unless `shorter` replaces
    /// it (tests of the budget guard need less than a minute).
    pub fn for_review(settings: &Settings, shorter: Option<Duration>) -> Budget {
        let total = shorter.unwrap_or(Duration::from_secs(settings.budget_minutes * 60));
        Budget::new(
            total,
            Duration::from_secs(settings.backend_timeout_seconds),
            "--budget-minutes".into(),
        )
        .with_idle(Duration::from_secs(settings.backend_idle_seconds))
    }

    /// A topic's budget: `--budget-minutes`, else `debate.topic.budgetMinutes` (any config layer,
    /// `.gitdebate` included: it only bounds time), else [`DEFAULT_TOPIC_MINUTES`], with the
    /// verdict's reserve kept. The review's own `debate.budgetMinutes` and intensity presets do
    /// not apply: a debate's turns are longer.
    pub fn for_topic(settings: &Settings, flag: Option<f64>) -> Result<Budget> {
        // The flag and the key take fractions (`0.5` is 30 s), as the panel's do.
        let (minutes, source) = match (flag, settings.backend_vars.get("topic.budgetminutes")) {
            (Some(m), _) => (check_minutes(m)?, format!("--budget-minutes {m}")),
            (None, Some(v)) => match v.parse::<f64>() {
                Ok(m) if m > 0.0 && m <= 1440.0 => (m, format!("debate.topic.budgetMinutes = {v}")),
                _ => {
                    return Err(UsageError::new(format!(
                        "bad value for debate.topic.budgetMinutes = {v:?}: expected minutes above \
                         0 and at most 1440 (fractions allowed)"
                    ))
                    .into())
                }
            },
            (None, None) => (
                DEFAULT_TOPIC_MINUTES as f64,
                format!("debate.topic.budgetMinutes, default {DEFAULT_TOPIC_MINUTES}"),
            ),
        };
        Ok(Budget::new(
            Duration::from_secs_f64(minutes * 60.0),
            Duration::from_secs(settings.backend_timeout_seconds),
            source,
        )
        .with_idle(Duration::from_secs(settings.backend_idle_seconds))
        .keep_for_verdict())
    }

    /// A panel's soft budget: `--budget-minutes` when given; else `debate.panel.budgetMinutes` (a
    /// decimal number of minutes); else the budget the settings carry (30 for a panel unless
    /// configured). Its `source` names the flag or key that set it, for the note that says it ran
    /// out.
    pub fn for_panel(settings: &Settings, flag: Option<f64>) -> Result<Budget, String> {
        let configured = crate::agents::registry::var(settings, "panel", "budgetMinutes");
        let minutes = match (flag, configured) {
            (Some(m), _) => check_minutes(m).map_err(|e| e.to_string())?,
            (None, Some(v)) if !flag_set(settings) => match v.trim().parse::<f64>() {
                Ok(m) if m > 0.0 && m.is_finite() => m,
                _ => {
                    return Err(format!(
                        "bad value for debate.panel.budgetMinutes {v:?}: expected a positive number of minutes"
                    ))
                }
            },
            (None, _) => settings.budget_minutes as f64,
        };
        let source = match flag {
            Some(m) => format!("--budget-minutes {m}"),
            None => panel_source(settings),
        };
        Ok(Budget::new(
            Duration::from_secs_f64(minutes * 60.0),
            Duration::from_secs(settings.backend_timeout_seconds),
            source,
        )
        .with_idle(Duration::from_secs(settings.backend_idle_seconds)))
    }
}

/// A `--budget-minutes` value: minutes above 0 and at most a day, fractions allowed.
fn check_minutes(m: f64) -> Result<f64> {
    if m.is_finite() && m > 0.0 && m <= 1440.0 {
        Ok(m)
    } else {
        Err(UsageError::new(format!(
            "bad value for --budget-minutes {m}: expected minutes above 0 and at most 1440 \
             (fractions allowed, e.g. 0.5)"
        ))
        .into())
    }
}

/// Which flag or key set a panel's budget, for messages that name what bit.
fn panel_source(settings: &Settings) -> String {
    let panel_key = crate::agents::registry::var(settings, "panel", "budgetMinutes").is_some();
    if flag_set(settings) {
        "--budget-minutes".into()
    } else if panel_key {
        "debate.panel.budgetMinutes".into()
    } else if settings.sources.contains_key("budgetMinutes") {
        "debate.budgetMinutes".into()
    } else {
        format!(
            "the default {} minutes; raise it with --budget-minutes",
            settings.budget_minutes
        )
    }
}

fn flag_set(settings: &Settings) -> bool {
    settings
        .sources
        .get("budgetMinutes")
        .is_some_and(|l| *l == crate::settings::Layer::Flag)
}

/// `90 s` → `1m 30s`; below a minute, seconds (or milliseconds, for tests' tiny budgets).
pub fn span(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0 => format!("{} ms", d.as_millis()),
        1..=9 if d.subsec_millis() >= 100 => format!("{:.1} s", d.as_secs_f64()),
        1..=59 => format!("{s} s"),
        _ if s.is_multiple_of(60) => format!("{}m", s / 60),
        _ => format!("{}m {}s", s / 60, s % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(total_s: u64, per_call_s: u64) -> Budget {
        Budget::new(
            Duration::from_secs(total_s),
            Duration::from_secs(per_call_s),
            "--budget-minutes 1".into(),
        )
        .keep_for_verdict()
    }

    #[test]
    fn the_verdict_keeps_one_call_or_a_quarter() {
        assert_eq!(budget(3600, 600).reserve, Duration::from_secs(600));
        assert_eq!(budget(600, 600).reserve, Duration::from_secs(150));
    }

    #[test]
    fn turns_stop_before_the_reserve_and_the_verdict_still_gets_it() {
        let b = budget(600, 600);
        let now = Instant::now();
        let turn = b.clone().starting_at(now).turn().unwrap();
        assert!(turn.by_budget, "450 s left is less than one call's 600 s");
        assert!(turn.timeout <= Duration::from_secs(450));
        // 440 s in: 10 s left before the reserve, under the 30 s floor: no turn.
        let late = now - Duration::from_secs(440);
        assert_eq!(b.clone().starting_at(late).turn(), None);
        // Even past the whole budget the verdict gets its reserve.
        let over = now - Duration::from_secs(900);
        assert_eq!(
            b.starting_at(over).verdict().timeout,
            Duration::from_secs(150)
        );
    }

    #[test]
    fn a_roomy_budget_leaves_the_per_call_limit_in_charge() {
        let b = budget(3600, 600);
        let t = b.turn().unwrap();
        assert_eq!(t.timeout, Duration::from_secs(600));
        assert!(!t.by_budget);
    }

    #[test]
    fn spans_read_naturally() {
        assert_eq!(span(Duration::from_secs(150)), "2m 30s");
        assert_eq!(span(Duration::from_secs(600)), "10m");
        assert_eq!(span(Duration::from_secs(9)), "9 s");
        assert_eq!(span(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(span(Duration::from_millis(120)), "120 ms");
    }

    #[test]
    fn closings_keep_their_time_when_the_budget_is_spent() {
        let b = Budget::new(
            Duration::from_secs(60),
            Duration::from_secs(600),
            String::new(),
        )
        .with_idle(Duration::from_secs(300))
        .starting_at(Instant::now() - Duration::from_secs(120));
        assert!(b.spent());
        let p = std::path::Path::new("/");
        assert_eq!(b.request(b.call(), p, "x").timeout, Duration::from_secs(1));
        assert_eq!(
            b.request(b.reserved(), p, "x").timeout,
            Duration::from_secs(600)
        );
        let fresh = Budget {
            started: Instant::now(),
            total: Duration::from_secs(3600),
            ..b
        };
        let asked = fresh.capped(Duration::from_secs(120));
        assert_eq!(
            asked.request(asked.call(), p, "x").timeout,
            Duration::from_secs(120)
        );
        assert_eq!(asked.total, fresh.total, "only the per-call time is capped");
    }
}
