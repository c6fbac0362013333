//! The panel's phases in order: setup, phase 1 (openings in lineup order), phase 2
//! (rounds: each debater in order, then the verifier relay line and the audience's questions),
//! the pre-phase-3 unresolved points, phase 3 (closings in reverse order), phase 4 (the chair's
//! conclusion, the audience's conclusion, the reporter, then the assessor).
//!
//! A failed turn gets a ruling and the rest go on; a failed support role is noted and its part
//! left out; `void` comes only from the chair (a debate that "cannot be fairly concluded"), from a
//! chair that cannot conclude, or from a panel where no debater spoke. Between rounds the
//! audience's questions are gathered while the chair prepares the next round (and the last turn
//! is verified), through [`crate::sys::schedule::bounded`].

use anyhow::Result;

use crate::agents::budget::Budget;
use crate::debate::citations::Citation;
use crate::debate::panel::closing::UNRESOLVED;
use crate::debate::panel::log::{Entry, Log, ROUND_TYPES};
use crate::debate::panel::turns::{Carry, Slot};
use crate::debate::panel::verify::{relay_line, RELAY};
use crate::debate::panel::{Panel, PanelOutcome};
use crate::sys::signals;

const READY: &str = "All agents confirmed ready. Beginning Phase 1";
const PHASE1_DONE: &str = "Phase 1 complete.";

/// The three steps between rounds, run at once where `debate.concurrency` allows.
enum Between {
    Audience,
    Chair,
    Verify,
}

enum BetweenOut {
    Questions(Option<Vec<(String, String)>>),
    GoOn(bool),
    Checked(Vec<(u32, Vec<Citation>)>, Vec<String>),
}

/// Runs the panel to its outcome.
pub fn run(mut p: Panel) -> Result<PanelOutcome> {
    let budget =
        Budget::for_panel(p.settings, p.budget_minutes).map_err(crate::error::UsageError::new)?;
    signals::graceful();
    let resume = std::mem::take(&mut p.resume);
    let mut log = Log {
        session: p.session,
        entries: resume,
    };
    let mut carry = Carry {
        notes: p.roles.warnings.clone(),
        ..Carry::default()
    };
    announce(&p, &mut log)?;
    openings(&p, &mut log, &budget, &mut carry)?;
    let (rounds, questions) = rounds(&p, &mut log, &budget, &mut carry)?;
    p.drain(&mut log, &mut carry, &budget)?;
    let budget_spent = budget.spent();
    if budget_spent && !signals::interrupted() {
        carry.notes.push(format!(
            "[WARN] the time budget ({}) ran out after {rounds} round(s); the panel went to the closings",
            budget.source
        ));
    }
    crate::debate::panel::closing::run(&p, log, carry, rounds, questions, &budget, budget_spent)
}

/// Setup: the session line and the ready announcement with the lineup and where citations are
/// checked (each once, a resumed panel has them).
fn announce(p: &Panel, log: &mut Log) -> Result<()> {
    let names = p.names().join(", ");
    if log.entries.is_empty() {
        log.push(
            "system",
            "chair",
            "setup",
            &format!("Debate session initialised. Chair is ready. Debaters: {names}"),
        )?;
    }
    if log.announced(READY).is_none() {
        let lineup: Vec<String> = p
            .debaters
            .iter()
            .map(|(d, b)| {
                format!(
                    "{} ({}): {}; position: {}",
                    d.name,
                    b.name(),
                    d.persona,
                    d.position
                )
            })
            .collect();
        log.push(
            "system",
            "chair",
            "announcement",
            &format!(
                "{READY}: Opening Statements. Topic: {}\nLineup:\n{}\nRepository citations are \
                 checked against {}, the revision debated.",
                p.topic,
                lineup.join("\n"),
                p.checker.revision()
            ),
        )?;
    }
    Ok(())
}

/// Phase 1: openings, in lineup order; a failure stops no one else.
fn openings(p: &Panel, log: &mut Log, budget: &Budget, carry: &mut Carry) -> Result<()> {
    let mut openers: Vec<String> = Vec::new();
    for (d, b) in &p.debaters {
        if signals::interrupted() || budget.spent() {
            break;
        }
        if let Some(e) = log
            .entries
            .iter()
            .find(|e| e.speaker == d.name && e.kind == "opening_statement")
        {
            openers.push(format!("{}: seq {}", d.name, e.seq));
            continue;
        }
        let mut task = format!(
            "Phase 1 — Opening Statements. {}, please deliver your opening statement.",
            d.name
        );
        if !openers.is_empty() {
            task.push_str(&format!(
                " Prior openers and their seqs: {}.",
                openers.join(", ")
            ));
        }
        let cue = p.cue(d, &log.entries, &p.flags_for(&log.entries, &d.name), &task);
        let slot = Slot {
            phase: "opening",
            round: 0,
            reserved: false,
        };
        if let Some(seq) = p.speak(log, d, b.as_ref(), slot, &cue, budget, carry)? {
            openers.push(format!("{}: seq {seq}", d.name));
        }
    }
    if log.announced(PHASE1_DONE).is_none() && !signals::interrupted() {
        log.push(
            "system",
            "chair",
            "announcement",
            &format!("{PHASE1_DONE} Opening statements delivered. Proceeding to Phase 2."),
        )?;
    }
    Ok(())
}

/// Phase 2: the rounds, each debater in lineup order and then what happens between rounds.
/// Returns the rounds run and the audience's questions still to relay (at the closings).
fn rounds(
    p: &Panel,
    log: &mut Log,
    budget: &Budget,
    carry: &mut Carry,
) -> Result<(u32, Vec<(String, String)>)> {
    let starts = log.round_starts();
    let mut rounds = starts.len() as u32;
    // Resuming: the questions asked after the last round that ended are still to be relayed.
    let mut questions = log
        .entries
        .iter()
        .rfind(|e| e.content.starts_with(RELAY))
        .map(|relay| logged_questions(&log.entries, relay.seq))
        .unwrap_or_default();
    let closing_started = log.announced(UNRESOLVED).is_some();
    for r in 1..=p.max_rounds {
        if signals::interrupted()
            || closing_started
            || p.spoken(&log.entries) == 0
            || budget.spent()
        {
            break;
        }
        if r < rounds {
            continue;
        }
        let round_start = if r == rounds {
            starts[r as usize - 1]
        } else {
            log.push(
                "rebuttal",
                "chair",
                "announcement",
                &format!("Round {r} of {} beginning.", p.max_rounds),
            )?
        };
        rounds = r;
        turns(p, log, (r, round_start), &questions, budget, carry)?;
        if signals::interrupted() {
            break;
        }
        // Resumed after this round had ended: its questions are in the log.
        if let Some(relay) = log
            .entries
            .iter()
            .find(|e| e.seq > round_start && e.content.starts_with(RELAY))
        {
            questions = logged_questions(&log.entries, relay.seq);
            continue;
        }
        let go_on;
        (questions, go_on) = between(p, log, r, budget, carry)?;
        if r >= p.min_rounds && (!go_on || budget.spent()) {
            break;
        }
    }
    Ok((rounds, questions))
}

/// Round `r`'s turns (those not taken yet): each debater's cue carries this round so far, its
/// verifier flags, a new framework, its audience question and how to interrupt.
fn turns(
    p: &Panel,
    log: &mut Log,
    (r, round_start): (u32, u32),
    questions: &[(String, String)],
    budget: &Budget,
    carry: &mut Carry,
) -> Result<()> {
    let mut context: Vec<String> = Vec::new();
    for (d, b) in &p.debaters {
        if signals::interrupted() || budget.spent() {
            break;
        }
        if log.did(&d.name, ROUND_TYPES, round_start) {
            continue;
        }
        let mut notes = vec![format!("Round {r} — Your turn, {}.", d.name)];
        if !context.is_empty() {
            notes.push(format!(
                "Context from this round so far:\n{}",
                context.join("\n")
            ));
        }
        notes.extend(p.flags_for(&log.entries, &d.name));
        notes.extend(
            log.entries
                .iter()
                .filter(|e| {
                    e.seq > round_start
                        && e.content.starts_with("Note: ")
                        && e.content.contains("analytical framework")
                })
                .map(|e| e.content.clone()),
        );
        notes.extend(
            questions
                .iter()
                .filter(|(to, _)| *to == d.name)
                .map(|(_, q)| format!("An audience question for you: {q}")),
        );
        notes.push(crate::debate::panel::interrupt::HOW.to_string());
        let cue = p.cue(d, &log.entries, &notes, TURN_TASK);
        let slot = Slot {
            phase: "rebuttal",
            round: r,
            reserved: false,
        };
        if let Some(seq) = p.speak(log, d, b.as_ref(), slot, &cue, budget, carry)? {
            let first: String = log.entries[seq as usize]
                .content
                .split(['.', '\n'])
                .next()
                .unwrap_or("")
                .chars()
                .take(160)
                .collect();
            context.push(format!("  - {} (seq {seq}): {first}", d.name));
        }
    }
    Ok(())
}

/// What a debater may log in a round, and how it says which.
const TURN_TASK: &str = "You may make a `new_point`, a `rebuttal` (name the entry you answer) or \
a `conjecture`. Begin your answer with one line `TYPE: new_point`, `TYPE: rebuttal to [seq N]` or \
`TYPE: conjecture`; if you introduce a named analytical framework not referenced before in this \
debate, add a line `FRAMEWORK: name — one-line description`. Then your argument; refer to entries \
by [seq N].";

/// After round `r`: the last turn is verified, the audience asks, the chair prepares the next
/// round (at once where `debate.concurrency` allows); then the relay line and the questions are
/// logged. Past the budget no one is asked anything more before the closings. Returns the
/// questions to relay and whether the chair would go on.
fn between(
    p: &Panel,
    log: &mut Log,
    r: u32,
    budget: &Budget,
    carry: &mut Carry,
) -> Result<(Vec<(String, String)>, bool)> {
    let spent = budget.spent();
    let mut jobs = Vec::new();
    if !spent {
        jobs.push(Between::Audience);
    }
    if r >= p.min_rounds && r < p.max_rounds && !spent {
        jobs.push(Between::Chair);
    }
    jobs.push(Between::Verify);
    let pending = std::mem::take(&mut carry.pending);
    let snapshot = log.entries.clone();
    let out = crate::sys::schedule::bounded(p.settings.concurrency, jobs, |_, job| match job {
        Between::Audience => BetweenOut::Questions(p.audience_questions(&snapshot, r, budget)),
        Between::Chair => BetweenOut::GoOn(p.go_on(&snapshot, r, budget)),
        Between::Verify => {
            let (checked, notes) = p.behind(&pending, budget);
            BetweenOut::Checked(checked, notes)
        }
    });
    let mut go_on = true;
    let mut questions = Vec::new();
    for o in out {
        match o {
            BetweenOut::Questions(Some(q)) => questions = q,
            BetweenOut::Questions(None) => {
                carry.notes.push(format!(
                    "[WARN] the audience ({}) did not answer after round {r}",
                    p.roles.audience.name()
                ));
                log.push(
                    "system",
                    "chair",
                    "ruling",
                    &format!(
                        "Ruling: the audience did not answer after round {r}; no questions are \
                         relayed."
                    ),
                )?;
            }
            BetweenOut::GoOn(g) => go_on = g,
            BetweenOut::Checked(checked, notes) => {
                carry.reporter.extend(notes);
                p.log_checked(log, checked)?;
            }
        }
    }
    let relay_from = log
        .entries
        .iter()
        .rev()
        .find(|e| e.content.starts_with(RELAY))
        .map_or(0, |e| e.seq);
    log.push(
        "system",
        "chair",
        "announcement",
        &relay_line(&log.entries, relay_from),
    )?;
    for (to, q) in &questions {
        log.push(
            "rebuttal",
            "chair",
            "audience_question",
            &format!("Q: {to}: {q}"),
        )?;
    }
    Ok((questions, go_on))
}

/// The audience questions logged after `from` (a round's relay line).
fn logged_questions(log: &[Entry], from: u32) -> Vec<(String, String)> {
    log.iter()
        .filter(|e| e.kind == "audience_question" && e.seq > from)
        .filter_map(|e| {
            let (to, q) = e.content.strip_prefix("Q: ")?.split_once(": ")?;
            Some((to.to_string(), q.to_string()))
        })
        .collect()
}
