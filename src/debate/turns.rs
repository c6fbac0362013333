//! What each side is sent: the four turn prompts with the history they carry, and from
//! round 3 the judge's summary of the rounds before the last (500-800 tokens, concessions quoted
//! word for word), so a five-round debate's prompts stay bounded without losing what was conceded.

use anyhow::Result;

use crate::debate::{citations, title, Duel, Exchange};
use crate::prompts::Template;

/// The most of the judge's summary that is passed on (800 tokens is ~3,200 characters; a judge
/// that writes more than asked is cut, not trusted to stay bounded).
const SUMMARY_CHARS: usize = 8000;
/// The most of the earlier rounds passed on when no summary could be written.
const DIGEST_CHARS: usize = 6000;

impl Duel<'_> {
    /// The prompt for `role` in round `n`: the last opposing turn in full with its checked
    /// citations, earlier turns in full (rounds 1-2) or summarised (from round 3).
    pub(super) fn prompt(
        &self,
        n: u32,
        role: &str,
        ex: &[Exchange],
        summary: Option<&str>,
        context: &str,
    ) -> Result<String> {
        let last = ex.last();
        let (template, history_upto) = match (n, role) {
            (1, "proposer") => (Template::DebateOpening, 0),
            (1, _) => (Template::DebateChallenge, 0),
            (_, "proposer") => (Template::DebateDefense, ex.len().saturating_sub(1)),
            _ => (Template::DebateFollowup, ex.len().saturating_sub(1)),
        };
        let mut history = String::new();
        if history_upto > 0 {
            let from_round = if n >= 3 { n - 1 } else { 1 };
            if let Some(s) = summary.filter(|_| n >= 3) {
                history.push_str(&format!("Summary of rounds 1-{}:\n{s}\n\n", n - 2));
            }
            let earlier: Vec<&Exchange> = ex[..history_upto]
                .iter()
                .filter(|e| e.round >= from_round)
                .collect();
            if !earlier.is_empty() {
                history.push_str("Previous exchanges:\n");
                for e in earlier {
                    history.push_str(&as_history(e));
                }
            }
        }
        if !history.is_empty() {
            history = crate::prompts::fence::wrap("EARLIER ROUNDS", &history);
        }
        let round = n.to_string();
        let previous = (n - 1).to_string();
        let last_text = last
            .map(|e| e.response.trim().to_string())
            .unwrap_or_default();
        let marks = last
            .map(|e| citations::block(&e.citations))
            .unwrap_or_default();
        template.render(
            self.templates.as_deref(),
            &[
                ("topic", self.topic.as_str()),
                ("context", context),
                ("proposer", self.proposer.name()),
                ("round", &round),
                ("previous", &previous),
                ("history", &history),
                ("last", &last_text),
                ("citations", &marks),
            ],
        )
    }

    /// Rounds 1..n-2 summarised by the judge; when it cannot (no time before the verdict's
    /// reserve, or a failed call), the earlier rounds themselves, cut, and a note says so.
    pub(super) fn summarize(&self, ex: &[Exchange], n: u32, notes: &mut Vec<String>) -> String {
        let old: String = ex
            .iter()
            .filter(|e| e.round <= n - 2)
            .map(as_history)
            .collect();
        let digest: String = old.chars().take(DIGEST_CHARS).collect();
        let upto = format!("1-{}", n - 2);
        let fallback = |why: String, notes: &mut Vec<String>| {
            notes.push(format!(
                "[WARN] No summary of rounds {upto} ({why}); round {n} was given those rounds \
                 cut to {DIGEST_CHARS} characters"
            ));
            digest.clone()
        };
        let Some(slice) = self.budget.turn() else {
            return fallback(format!("{} was used up", self.budget.describe()), notes);
        };
        let round = n.to_string();
        let prompt = match Template::DebateSummary.render(
            self.templates.as_deref(),
            &[("rounds", &old), ("round", &round), ("upto", &upto)],
        ) {
            Ok(p) => p,
            Err(e) => return fallback(format!("{e:#}"), notes),
        };
        let req = self.request(&prompt, slice);
        let r = crate::ui::progress::with_progress(
            self.judge.name(),
            (n, self.rounds),
            "summary",
            || self.judge.ask(&req),
        );
        match r {
            Ok(a) if !a.text.trim().is_empty() => {
                let s: String = a.text.trim().chars().take(SUMMARY_CHARS).collect();
                let _ = self
                    .session
                    .write(&format!("context-summary-{n}.md"), s.as_bytes());
                s
            }
            Ok(_) => fallback("the judge's answer was empty".into(), notes),
            Err(e) => fallback(self.why_failed(&e, slice), notes),
        }
    }
}

/// A turn as the duel's context block writes it: `Round N - Proposer (tool):`, the text, and the
/// tool's marks on its citations.
fn as_history(e: &Exchange) -> String {
    format!(
        "Round {} - {} ({}):\n{}\n{}\n",
        e.round,
        title(&e.role),
        e.tool,
        e.response.trim(),
        citations::block(&e.citations)
    )
}

#[cfg(test)]
mod tests {
    use crate::prompts::Template;

    /// The duel's anti-sycophancy rules, each in the prompt of the turn it governs (whitespace
    /// aside): dropping one from a template fails here.
    #[test]
    fn every_anti_sycophancy_rule_of_the_seed_is_in_its_prompt() {
        let universal = "Unsupported claims";
        let rules: &[(Template, &[&str])] = &[
            (
                Template::DebateOpening,
                &[
                    "take a clear position",
                    "Do not hedge excessively",
                    "\"I think\" or \"generally speaking\" without evidence is not acceptable",
                ],
            ),
            (
                Template::DebateChallenge,
                &[
                    "at least one genuine flaw or overlooked consideration before agreeing",
                    "do not call anything a \"great point\"",
                    "Lead with what is WRONG or MISSING",
                    "what RISK remains despite the agreement",
                    "at least one concrete alternative approach",
                    "correctness, security implications and developer experience",
                    "Do not agree with ANY claim unless you can cite specific evidence",
                    "Unsupported agreement is not allowed.",
                    "\"This claim is unsupported.\"",
                ],
            ),
            (
                Template::DebateDefense,
                &[
                    "concede explicitly and explain how your position evolves",
                    "acknowledge it and explain, with evidence, why you still favour",
                    "concession, rebuttal or new argument — must cite specific evidence",
                    "Do not simply restate your original position",
                ],
            ),
            (
                Template::DebateFollowup,
                &[
                    "Default to suspicion, not acceptance",
                    "\"we actually agree\"",
                    "\"This defense is unsupported\"",
                    "\"This dodges the original concern\"",
                    "cannot be walked back later without new evidence",
                    "New weaknesses in the revised position",
                    "Only then acknowledge it, and cite what convinced you",
                    "a bare \"I agree now\" is not",
                    "If you see new problems, raise them.",
                    "Unsupported agreement is not allowed",
                ],
            ),
        ];
        for (t, wants) in rules {
            let text = t.text(None).unwrap();
            let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
            for want in wants.iter().chain([&universal]) {
                assert!(flat.contains(want), "{t:?} lost {want:?}");
            }
        }
    }
}
