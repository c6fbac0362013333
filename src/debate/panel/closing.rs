//! The end of a panel, which always happens (unless the user interrupts): the pre-phase-3
//! unresolved points, phase 3 (closings in reverse lineup order) and phase 4 (the chair's
//! conclusion, the audience's conclusion, the reporter's summary and blog post, then the
//! assessor, who reads what the reporter wrote). Every call here gets its own reserved time.

use anyhow::Result;
use serde::Deserialize;

use crate::agents::budget::Budget;
use crate::answer::json::json_blocks;
use crate::debate::panel::log::{Entry, Log};
use crate::debate::panel::turns::{Carry, Slot};
use crate::debate::panel::{outputs, Panel, PanelOutcome};
use crate::sys::signals;

/// How the chair's announcement of the unresolved points opens: the closing phase has begun
/// once it is logged, and a resumed panel goes straight to the closings.
pub(super) const UNRESOLVED: &str = "Pre-Phase-3 review:";

const PHASE3_DONE: &str = "Phase 3 complete.";

pub(super) fn run(
    p: &Panel,
    mut log: Log,
    mut carry: Carry,
    rounds: u32,
    questions: Vec<(String, String)>,
    budget: &Budget,
    budget_spent: bool,
) -> Result<PanelOutcome> {
    if p.spoken(&log.entries) > 0 && !signals::interrupted() {
        closings(p, &mut log, &mut carry, rounds, &questions, budget)?;
    }
    p.drain(&mut log, &mut carry, budget)?;

    // Phase 4: the conclusion.
    let redactions = log.entries.iter().filter(|e| e.kind == "redaction").count() as u32;
    let (outcome, reason) = if signals::interrupted() {
        ("void".to_string(), "interrupted".to_string())
    } else if p.spoken(&log.entries) == 0 {
        ("void".to_string(), "no debater spoke".to_string())
    } else {
        conclude(p, &log.entries, redactions, budget)
    };
    // An interrupted panel logs no conclusion: `resume` goes on from where it stopped.
    if !signals::interrupted() {
        log.push(
            "system",
            "chair",
            "conclusion",
            &format!("Debate concluded. Outcome: {outcome}. Reason: {reason}"),
        )?;
    }
    let mut report = String::new();
    let mut blog = None;
    if !signals::interrupted() {
        match p.audience_conclusion(&log.entries, &outcome, budget) {
            Some(text) => {
                log.push("system", "audience", "audience_conclusion", &text)?;
            }
            None => carry.notes.push(format!(
                "[WARN] the audience ({}) gave no conclusion",
                p.roles.audience.name()
            )),
        }
        let (r, bp) = outputs::reporter(p, &log.entries, &carry.reporter, &outcome, budget);
        match r {
            Some(r) => report = r,
            None => carry.notes.push(format!(
                "[WARN] the reporter ({}) did not answer; summary.md has the record only",
                p.roles.reporter.name()
            )),
        }
        blog = bp;
        if blog.is_none() {
            carry
                .notes
                .push("[WARN] the reporter wrote no blog post".into());
        }
    }
    let status = if signals::interrupted() {
        "interrupted"
    } else if p.spoken(&log.entries) == 0 {
        "aborted"
    } else {
        "completed"
    };
    let mut o = PanelOutcome {
        status: status.into(),
        outcome,
        reason,
        rounds,
        entries: log.entries,
        redactions,
        notes: carry.notes,
        report,
        blog,
        budget_spent,
        elapsed_ms: 0,
        timings: Vec::new(),
        checked_at: p.checker.revision().to_string(),
    };
    // The reporter's documents exist before the assessor is activated: it reads them.
    outputs::write_reports(p, &o)?;
    if !signals::interrupted() {
        outputs::assess(p, &mut o, budget)?;
    }
    o.elapsed_ms = budget.started.elapsed().as_millis() as u64;
    o.timings = p.timings.lock().expect("timings").clone();
    Ok(o)
}

/// The pre-phase-3 unresolved points and phase 3, the closings in reverse lineup order (each
/// told the points, its audience question and the prior closers).
fn closings(
    p: &Panel,
    log: &mut Log,
    carry: &mut Carry,
    rounds: u32,
    questions: &[(String, String)],
    budget: &Budget,
) -> Result<()> {
    let points = match log.announced(UNRESOLVED) {
        Some(e) => e.content.clone(),
        None => {
            let task = "Before the closing statements: list 1 to 3 substantive unresolved \
                        points of this debate (arguments raised but never directly engaged, \
                        or contested claims no debater decisively countered), one per line \
                        as `N. point — [seq N]`. No preamble.";
            let points = p
                .chair("unresolved points", task, &log.entries, budget, true)
                .unwrap_or_else(|| "1. The points still disputed in the rounds.".into());
            let text = format!(
                "{UNRESOLVED} The following points remain unresolved entering the closing round:\n{points}\nDebaters are encouraged to address these in their closing statements."
            );
            // Interrupted while the chair thought: asked again on resume, not recorded.
            if !signals::interrupted() {
                log.push("system", "chair", "announcement", &text)?;
            }
            text
        }
    };
    let mut closers: Vec<String> = Vec::new();
    for (d, b) in p.debaters.iter().rev() {
        if signals::interrupted() {
            break;
        }
        if let Some(e) = log
            .entries
            .iter()
            .find(|e| e.speaker == d.name && e.kind == "closing_statement")
        {
            closers.push(format!("{}: seq {}", d.name, e.seq));
            continue;
        }
        let mut task = format!(
            "Phase 3 — Closing Statements. {}, please deliver your closing statement. No new \
             claims or statistics. Unresolved points entering Phase 3:\n{points}",
            d.name
        );
        for (_, q) in questions.iter().filter(|(to, _)| *to == d.name) {
            task.push_str(&format!("\nAn audience question for you: {q}"));
        }
        if !closers.is_empty() {
            task.push_str(&format!(
                "\nPrior closers and their seqs: {}.",
                closers.join(", ")
            ));
        }
        let cue = p.cue(d, &log.entries, &p.flags_for(&log.entries, &d.name), &task);
        let slot = Slot {
            phase: "closing",
            round: rounds,
            reserved: true,
        };
        if let Some(seq) = p.speak(log, d, b.as_ref(), slot, &cue, budget, carry)? {
            closers.push(format!("{}: seq {seq}", d.name));
        }
    }
    if !signals::interrupted() && log.announced(PHASE3_DONE).is_none() {
        log.push(
            "system",
            "chair",
            "announcement",
            &format!("{PHASE3_DONE} Closing statements delivered. Proceeding to Phase 4."),
        )?;
    }
    Ok(())
}

/// The chair's outcome: `<name>_wins`, `draw` or `void`, with the reason.
fn conclude(p: &Panel, log: &[Entry], redactions: u32, budget: &Budget) -> (String, String) {
    let names = p.names();
    let task = format!(
        "Phase 4 — Conclusion. Redactions for fabricated citations: {redactions}. Evaluate each \
         debater independently: quality and quantity of sourced arguments, rebuttals against ALL \
         other debaters, verification results (a fabricated source is a severe penalty), \
         adherence to the rules, persona and incentive consistency; then compare them \
         holistically. The outcome is one of {}, \"draw\" (closely balanced) or \"void\" (the \
         debate cannot be fairly concluded, e.g. several debaters fabricated sources). Answer \
         with ONE fenced json block: {{\"outcome\": \"...\", \"reason\": \"...\"}}",
        names
            .iter()
            .map(|n| format!("\"{n}_wins\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let Some(text) = p.chair("conclusion", &task, log, budget, true) else {
        return (
            "void".into(),
            "the chair could not conclude (no answer)".into(),
        );
    };
    // The chair's answer (its JSON, not ours): the last block that names an outcome.
    let said = json_blocks(&text)
        .into_iter()
        .rev()
        .find(|v| v.get("outcome").is_some())
        .and_then(|v| serde_json::from_value::<Conclusion>(v).ok())
        .unwrap_or_default();
    let outcome = said.outcome.unwrap_or_default().trim().to_string();
    let valid = outcome == "draw"
        || outcome == "void"
        || names.iter().any(|n| outcome == format!("{n}_wins"));
    let reason = said.reason.unwrap_or_else(|| text.trim().to_string());
    if valid {
        (outcome, reason)
    } else {
        (
            "void".into(),
            format!("the chair's outcome {outcome:?} is not one of the allowed values; {reason}"),
        )
    }
}

/// The chair's conclusion, as its answer gives it.
#[derive(Default, Deserialize)]
struct Conclusion {
    outcome: Option<String>,
    reason: Option<String>,
}
