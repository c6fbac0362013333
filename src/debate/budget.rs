//! A debate's time: how much the turns may use, and the part kept back for the verdict.
//!
//! A topic used to share the review's 20-minute budget and clamp every call to what was left, so
//! with slow CLIs the last turns, and then the synthesis, were sent with a 1-second timeout: the
//! debate ended without a verdict, and the message blamed `--backend-timeout-seconds`. Here the
//! verdict has its own reserve that the turns cannot touch, a turn that would get less than a
//! useful slice of time is not started at all, and every note names the limit that really bit
//! (the flag or the config key, with where its value came from).

use std::time::{Duration, Instant};

use anyhow::Result;

use crate::error::UsageError;
use crate::settings::Settings;

/// A topic's budget when neither `--budget-minutes` nor `debate.topic.budgetMinutes` says:
/// 5 rounds of two slow CLI turns (~4 minutes each, the seed's per-call limit), the summaries
/// of rounds 3-5 and the verdict.
pub const DEFAULT_TOPIC_MINUTES: u64 = 60;

/// The time of one debate.
#[derive(Debug, Clone)]
pub struct Budget {
    /// The whole debate, verdict included.
    pub total: Duration,
    /// Kept for the verdict: the turns end early enough to leave it.
    pub reserve: Duration,
    /// The longest a single call may take (`--backend-timeout-seconds`).
    pub per_call: Duration,
    /// What set `total`, as a user would change it: `--budget-minutes 10`,
    /// `debate.topic.budgetMinutes = 45 (.git/config)`, `debate.topic.budgetMinutes (default 60)`.
    pub source: String,
}

/// How long a call may take, and whether the debate's budget (not the per-call limit) set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slice {
    pub timeout: Duration,
    pub by_budget: bool,
}

impl Budget {
    /// The verdict keeps one call's time, but never more than a quarter of the whole.
    pub fn new(total: Duration, per_call: Duration, source: String) -> Budget {
        Budget {
            total,
            reserve: per_call.min(total / 4),
            per_call,
            source,
        }
    }

    /// The time a turn (or a summary) started now may use; `None` when what is left before the
    /// verdict's reserve is too short to be worth a call (a twentieth of the budget, at most 30 s):
    /// a turn sent with seconds to live only fails, and its failure would read as the model's.
    pub fn for_turn(&self, started: Instant) -> Option<Slice> {
        let left = self
            .total
            .saturating_sub(self.reserve)
            .saturating_sub(started.elapsed());
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
    pub fn for_verdict(&self, started: Instant) -> Slice {
        let left = self
            .total
            .saturating_sub(started.elapsed())
            .max(self.reserve);
        Slice {
            timeout: self.per_call.min(left).max(Duration::from_secs(1)),
            by_budget: left < self.per_call,
        }
    }

    /// "the topic's time budget (--budget-minutes 10, 2m 30s of it kept for the verdict)".
    pub fn describe(&self) -> String {
        format!(
            "the topic's time budget ({}; {} of it kept for the verdict)",
            self.source,
            span(self.reserve)
        )
    }
}

/// A topic's budget: `--budget-minutes`, else `debate.topic.budgetMinutes` (any config layer,
/// `.gitdebate` included: it only bounds time), else [`DEFAULT_TOPIC_MINUTES`]. The review's own
/// `debate.budgetMinutes` and intensity presets do not apply: a debate's turns are longer.
pub fn for_topic(settings: &Settings, flag: Option<u64>) -> Result<Budget> {
    // The key takes fractions (`0.5` is 30 s), as the panel's does; the flag whole minutes.
    let (minutes, source) = match (flag, settings.backend_vars.get("topic.budgetminutes")) {
        (Some(m), _) => (m as f64, format!("--budget-minutes {m}")),
        (None, Some(v)) => match v.parse::<f64>() {
            Ok(m) if m > 0.0 && m <= 1440.0 => (m, format!("debate.topic.budgetMinutes = {v}")),
            _ => {
                return Err(UsageError::new(format!(
                    "bad value for debate.topic.budgetMinutes = {v:?}: expected minutes above 0 \
                     and at most 1440 (fractions allowed)"
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
    ))
}

/// `90 s` → `1m 30s`; below a minute, seconds (or milliseconds, for tests' tiny budgets).
pub fn span(d: Duration) -> String {
    let s = d.as_secs();
    match s {
        0 => format!("{} ms", d.as_millis()),
        1..=9 if d.subsec_millis() >= 100 => format!("{:.1} s", d.as_secs_f64()),
        1..=59 => format!("{s} s"),
        _ if s % 60 == 0 => format!("{}m", s / 60),
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
        let turn = b.for_turn(now).unwrap();
        assert!(turn.by_budget, "450 s left is less than one call's 600 s");
        assert!(turn.timeout <= Duration::from_secs(450));
        // 440 s in: 10 s left before the reserve, under the 30 s floor: no turn.
        let late = now - Duration::from_secs(440);
        assert_eq!(b.for_turn(late), None);
        // Even past the whole budget the verdict gets its reserve.
        let over = now - Duration::from_secs(900);
        assert_eq!(b.for_verdict(over).timeout, Duration::from_secs(150));
    }

    #[test]
    fn a_roomy_budget_leaves_the_per_call_limit_in_charge() {
        let b = budget(3600, 600);
        let t = b.for_turn(Instant::now()).unwrap();
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
}
