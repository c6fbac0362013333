//! The panel's soft time budget (seed 002: `time_budget_minutes`, 30 by default).
//!
//! The budget covers the openings and the rounds. When it runs out the panel goes straight to
//! the closings and the conclusion; those calls (closings, the chair's conclusion, the audience's
//! conclusion, the reporter and the assessor) each get the full per-call timeout, reserved, and
//! are never cut by the budget — the verdict is never the thing that is lost. So a panel may
//! overrun its budget by that last phase, which is what "soft" means here.

use std::time::{Duration, Instant};

use crate::agents::Request;
use crate::settings::Settings;

/// Where the panel is in its budget.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub started: Instant,
    /// For the openings and rounds.
    pub soft: Duration,
    /// Every call's own timeout (`--backend-timeout-seconds`).
    pub per_call: Duration,
    pub idle: Duration,
}

/// Which flag or key set the budget, for messages that name what bit.
pub fn budget_origin(settings: &Settings) -> String {
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

impl Budget {
    /// `--budget-minutes` when given; else `debate.panel.budgetMinutes` (a decimal number of
    /// minutes); else the budget the settings carry (30 for a panel unless configured).
    pub fn new(settings: &Settings, started: Instant) -> Result<Budget, String> {
        let configured = crate::agents::registry::var(settings, "panel", "budgetMinutes");
        let minutes = match configured {
            Some(v) if !flag_set(settings) => match v.trim().parse::<f64>() {
                Ok(m) if m > 0.0 && m.is_finite() => m,
                _ => {
                    return Err(format!(
                        "bad value for debate.panel.budgetMinutes {v:?}: expected a positive number of minutes"
                    ))
                }
            },
            _ => settings.budget_minutes as f64,
        };
        Ok(Budget {
            started,
            soft: Duration::from_secs_f64(minutes * 60.0),
            per_call: Duration::from_secs(settings.backend_timeout_seconds),
            idle: Duration::from_secs(settings.backend_idle_seconds),
        })
    }

    /// Whether the openings and rounds have used their time.
    pub fn spent(&self) -> bool {
        self.started.elapsed() >= self.soft
    }

    /// The same budget with every call held to `cap` (the audience's questions: seed 002 waits
    /// two minutes for them, then goes on).
    pub fn capped(&self, cap: Duration) -> Budget {
        Budget {
            per_call: self.per_call.min(cap),
            ..*self
        }
    }

    /// A call in the openings or rounds: never beyond the budget.
    pub fn debate_call<'p>(&self, workspace: &std::path::Path, prompt: &'p str) -> Request<'p> {
        let left = self.soft.saturating_sub(self.started.elapsed());
        self.request(
            workspace,
            prompt,
            self.per_call.min(left).max(Duration::from_secs(1)),
        )
    }

    /// A call in the closings or the conclusion: its own reserved time, whatever is left.
    pub fn reserved_call<'p>(&self, workspace: &std::path::Path, prompt: &'p str) -> Request<'p> {
        self.request(workspace, prompt, self.per_call)
    }

    fn request<'p>(
        &self,
        workspace: &std::path::Path,
        prompt: &'p str,
        timeout: Duration,
    ) -> Request<'p> {
        Request {
            prompt,
            cwd: Some(workspace.to_path_buf()),
            timeout,
            idle_timeout: self.idle,
            schema: None,
            sandbox: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closings_keep_their_time_when_the_budget_is_spent() {
        let b = Budget {
            started: Instant::now() - Duration::from_secs(120),
            soft: Duration::from_secs(60),
            per_call: Duration::from_secs(600),
            idle: Duration::from_secs(300),
        };
        assert!(b.spent());
        let p = std::path::Path::new("/");
        assert_eq!(b.debate_call(p, "x").timeout, Duration::from_secs(1));
        assert_eq!(b.reserved_call(p, "x").timeout, Duration::from_secs(600));
        let fresh = Budget {
            started: Instant::now(),
            soft: Duration::from_secs(3600),
            ..b
        };
        let asked = fresh.capped(Duration::from_secs(120));
        assert_eq!(asked.debate_call(p, "x").timeout, Duration::from_secs(120));
        assert_eq!(asked.soft, fresh.soft, "only the per-call time is capped");
    }
}
