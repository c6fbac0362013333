//! A debater's turn: the cue the chair gives (its turn context: this round so far, the
//! verifier's flags, a new framework, an audience question, prior openers or closers), the call,
//! and what runs beside it — the verification of the entries before it and the reporter's
//! running notes on them, through [`crate::sys::schedule::beside`] (`debate.concurrency` 1 runs them
//! one after the other). A turn that fails gets a chair ruling; the panel goes on.

use anyhow::Result;

use crate::agents::budget::Budget;
use crate::agents::Backend;
use crate::debate::citations;
use crate::debate::panel::calls::Call;
use crate::debate::panel::interrupt;
use crate::debate::panel::log::{read_turn, Entry, Extra, Log};
use crate::debate::panel::verify::Pending;
use crate::debate::panel::{Debater, Panel};

/// Characters kept of another debater's turn from before the latest round.
const OLDER_CHARS: usize = 600;

/// Where a turn falls.
pub struct Slot<'s> {
    /// `opening`, `rebuttal` or `closing`.
    pub phase: &'s str,
    pub round: u32,
    pub reserved: bool,
}

/// What is carried from turn to turn.
#[derive(Default)]
pub struct Carry {
    pub pending: Vec<Pending>,
    pub notes: Vec<String>,
    /// The reporter's running notes, in seq order.
    pub reporter: Vec<String>,
}

impl Panel<'_> {
    /// A debater's cue: persona, topic, rules, the log so far (fenced), then the chair's notes
    /// and the task.
    pub(super) fn cue(&self, d: &Debater, log: &[Entry], notes: &[String], task: &str) -> String {
        let mut s = format!(
            "You are {}, a debater on a panel chaired by a neutral moderator. Persona: {}. \
             Starting position: {}. Incentives: {}. Stay in character.\nTopic: {}\n\nRules: back \
             every factual claim with evidence you can cite (a path or `path:line` in this \
             repository, a code pattern in backticks, a URL); the tool checks every citation: one \
             that does not exist is redacted and counts against you, one that does not hold what \
             you cite is ruled unreliable. Concede facts when wrong. Do not modify any file.\n",
            d.name, d.persona, d.position, d.incentives, self.topic
        );
        if let Some(c) = &self.context {
            s.push('\n');
            s.push_str(&crate::prompts::fence::wrap("SHARED CONTEXT", c));
        }
        // Openings, the latest round and the debater's own words in full; older turns of others
        // cut, so a long panel's prompts stay bounded.
        let recent = log
            .iter()
            .rposition(|e| e.kind == "announcement" && e.phase == "rebuttal")
            .unwrap_or(0);
        let mut so_far = String::new();
        for (i, e) in log.iter().enumerate() {
            if e.kind == "verification_result" {
                continue;
            }
            let full = i >= recent || e.kind == "opening_statement" || e.speaker == d.name;
            let text = e.content.trim();
            let body = match (
                crate::debate::panel::log::struck(log, e.seq),
                text.char_indices().nth(OLDER_CHARS),
            ) {
                (Some(notice), _) => notice,
                (None, Some((cut, _))) if !full => format!("{} …", &text[..cut]),
                _ => text.to_string(),
            };
            so_far.push_str(&format!(
                "[seq {}] {} | {} | {}\n{body}\n\n",
                e.seq, e.phase, e.speaker, e.kind
            ));
        }
        s.push('\n');
        s.push_str(&crate::prompts::fence::wrap("THE DEBATE SO FAR", &so_far));
        s.push('\n');
        for n in notes {
            s.push_str(n);
            s.push('\n');
        }
        s.push_str(&format!("\n{task}\n"));
        s
    }

    /// One debater turn, logged; the entries before it are verified (and noted by the reporter)
    /// beside it. In a round the debater may first interrupt (a source challenge or a
    /// clarification request, [`super::interrupt`]): the turn is paused, the chair rules, and
    /// the debater is asked again. `Some(seq)` of the entry, `None` when the debater failed
    /// (ruled on, noted).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn speak(
        &self,
        log: &mut Log,
        d: &Debater,
        b: &dyn Backend,
        slot: Slot,
        cue: &str,
        budget: &Budget,
        carry: &mut Carry,
    ) -> Result<Option<u32>> {
        let unchecked = std::mem::take(&mut carry.pending);
        let (result, (checked, notes)) = crate::sys::schedule::beside(
            self.settings.concurrency,
            || self.call(b, self.turn_call(d, b, &slot, budget, ""), cue, budget),
            || self.behind(&unchecked, budget),
        );
        self.log_checked(log, checked)?;
        carry.reporter.extend(notes);
        let result = match result {
            Ok(a) if slot.phase == "rebuttal" => match interrupt::read(&a.text) {
                Some(i) => {
                    let ruling = self.interrupt(log, d, i, budget)?;
                    let resumed = format!(
                        "{cue}\nYour turn resumes, {}. {ruling}\nNow deliver your turn; no \
                         further interruption is taken this turn.\n",
                        d.name
                    );
                    let call = self.turn_call(d, b, &slot, budget, " (resumed)");
                    self.call(b, call, &resumed, budget).map(|mut a| {
                        a.text = interrupt::strip(&a.text);
                        a
                    })
                }
                None => Ok(a),
            },
            r => r,
        };
        match result {
            Ok(a) => self
                .record_turn(log, d, &slot, a.text.trim(), carry)
                .map(Some),
            // Ctrl-C: no ruling; a resumed panel gives this debater the turn again.
            Err(_) if crate::sys::signals::interrupted() => Ok(None),
            Err(e) => {
                self.forfeit(log, d, b, &slot, &e, budget, carry)?;
                Ok(None)
            }
        }
    }

    /// What a debater's call is, for the record and the progress line.
    fn turn_call<'c>(
        &self,
        d: &'c Debater,
        b: &dyn Backend,
        slot: &Slot,
        budget: &Budget,
        suffix: &str,
    ) -> Call<'c> {
        let at = match slot.phase {
            "opening" => "phase 1 openings".to_string(),
            "closing" => "phase 3 closings".to_string(),
            _ => format!("round {}/{}", slot.round, self.max_rounds),
        };
        let who = format!("{} ({}) speaking", d.name, b.name());
        Call {
            role: "debater",
            speaker: &d.name,
            step: match slot.phase {
                "rebuttal" => format!("round {}{suffix}", slot.round),
                p => format!("{p}{suffix}"),
            },
            reserved: slot.reserved,
            progress: self.progress(budget, &at, &who),
        }
    }

    /// Logs a debater's answer as its entry (a round answer's header says which kind; a new
    /// analytical framework gets the chair's note), to be verified beside the next turn.
    fn record_turn(
        &self,
        log: &mut Log,
        d: &Debater,
        slot: &Slot,
        raw: &str,
        carry: &mut Carry,
    ) -> Result<u32> {
        let (kind, content, extra, framework) = if slot.phase == "rebuttal" {
            let others: Vec<u32> = log
                .entries
                .iter()
                .filter(|e| e.speaker != d.name && self.names().contains(&e.speaker.as_str()))
                .map(|e| e.seq)
                .collect();
            let t = read_turn(raw, &others);
            let extra = Extra {
                sources: Some(citations::unchecked(&t.content)),
                rebuttal_to: t.rebuttal_to,
                target: None,
            };
            (t.kind, t.content, extra, t.framework)
        } else {
            let extra = Extra {
                sources: Some(citations::unchecked(raw)),
                ..Extra::default()
            };
            let kind = if slot.phase == "opening" {
                "opening_statement"
            } else {
                "closing_statement"
            };
            (kind.to_string(), raw.to_string(), extra, None)
        };
        let seq = log.push_with(slot.phase, &d.name, &kind, &content, extra)?;
        if let Some(f) = framework {
            log.push(
                "system",
                "chair",
                "announcement",
                &format!(
                    "Note: {} introduced the following analytical framework at seq {seq}: {f}. \
                     You may address it in your turn.",
                    d.name
                ),
            )?;
        }
        carry.pending.push(log.entries[seq as usize].clone());
        Ok(seq)
    }

    /// A turn that failed: a chair ruling, a note, and the panel goes on.
    #[allow(clippy::too_many_arguments)]
    fn forfeit(
        &self,
        log: &mut Log,
        d: &Debater,
        b: &dyn Backend,
        slot: &Slot,
        e: &crate::agents::BackendError,
        budget: &Budget,
        carry: &mut Carry,
    ) -> Result<()> {
        carry.notes.push(format!(
            "[WARN] {} ({}) failed in the {}: {}",
            d.name,
            b.name(),
            slot.phase,
            crate::debate::hints::for_topic(&e.to_string())
        ));
        let why = if budget.spent() && !slot.reserved {
            format!("{}; the time budget ran out", e.kind.label())
        } else {
            e.kind.label()
        };
        log.push(
            "system",
            "chair",
            "ruling",
            &format!(
                "Ruling: {} did not deliver a turn in the {} ({why}); the turn is forfeited and \
                 the debate goes on.",
                d.name, slot.phase
            ),
        )?;
        Ok(())
    }

    /// What runs behind a turn: the verification of the entries before it, then the reporter's
    /// notes on them.
    pub(super) fn behind(
        &self,
        entries: &[Pending],
        budget: &Budget,
    ) -> (Vec<(u32, Vec<citations::Citation>)>, Vec<String>) {
        let checked = self.verify(entries, budget);
        // Past the budget the running notes are skipped (the reporter still reads the whole log
        // at the end): a call cut to a second would only fail.
        let notes = if budget.spent() {
            Vec::new()
        } else {
            entries
                .iter()
                .filter_map(|e| self.reporter_note(e, budget))
                .collect()
        };
        (checked, notes)
    }

    /// Verifies and notes every entry not done yet (at the end of a phase).
    pub(super) fn drain(&self, log: &mut Log, carry: &mut Carry, budget: &Budget) -> Result<()> {
        let (checked, notes) = self.behind(&std::mem::take(&mut carry.pending), budget);
        carry.reporter.extend(notes);
        self.log_checked(log, checked)
    }
}
