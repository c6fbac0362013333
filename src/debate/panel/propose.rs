//! The chair's lineup proposal: from the topic and what the user asked for
//! (a head count, personas, or named debaters), a name, persona, starting position and
//! incentives for every debater, so the panel covers the real sides of the question. What the
//! user gave is kept; the proposal is then shown for confirmation, never silently used.

use anyhow::{Context as _, Result};
use serde::Deserialize;

use crate::agents::budget::Budget;
use crate::agents::Backend;
use crate::answer::json::json_blocks;
use crate::debate::panel::calls::NEUTRALITY;
use crate::debate::panel::lineup::{slug, valid_name, Debater};

/// Fills in what the lineup leaves out; a debater without a name (a head count) gets the
/// chair's slug, or `debater-N`.
pub fn propose(
    debaters: &mut [Debater],
    topic: &str,
    chair: &dyn Backend,
    budget: &Budget,
    (workspace, sandbox): (&std::path::Path, &crate::sandbox::confine::Sandbox),
) -> Result<()> {
    let given: Vec<String> = debaters
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let or = |s: &str| {
                if s.is_empty() {
                    "to propose".to_string()
                } else {
                    s.to_string()
                }
            };
            format!(
                "{}. name: {}; persona: {}",
                i + 1,
                or(&d.name),
                or(&d.persona)
            )
        })
        .collect();
    let prompt = format!(
        "{NEUTRALITY}\n\nYou chair a panel debate on: {topic}\nDebaters:\n{}\n\nPropose for each, \
         in this order, a short memorable slug name (letters, digits, hyphens; keep a given one), \
         a persona (keep a given one), a distinct starting position and incentives, so the panel \
         covers the real sides of the question. Answer with ONE fenced json block: [{{\"name\": \
         \"...\", \"persona\": \"...\", \"position\": \"...\", \"incentives\": \"...\"}}]",
        given.join("\n")
    );
    let mut req = budget.request(budget.reserved(), workspace, &prompt);
    req.sandbox = sandbox.clone();
    let answer = chair
        .ask(&req)
        .context("the chair could not propose the lineup")?;
    // The chair's answer (its JSON, not ours): each proposal read on its own.
    let proposed: Vec<Proposed> = json_blocks(&answer.text)
        .into_iter()
        .rev()
        .find_map(|v| v.as_array().cloned())
        .unwrap_or_default()
        .into_iter()
        .map(|p| serde_json::from_value(p).unwrap_or_default())
        .collect();
    for (i, d) in debaters.iter_mut().enumerate() {
        // By name when the chair kept it, else by position.
        let p = proposed
            .iter()
            .find(|p| !d.name.is_empty() && p.name.as_deref() == Some(d.name.as_str()))
            .or_else(|| proposed.get(i));
        let get = |f: fn(&Proposed) -> &Option<String>| {
            p.and_then(|p| f(p).as_deref())
                .unwrap_or("")
                .trim()
                .to_string()
        };
        for (field, value) in [
            (&mut d.persona, get(|p| &p.persona)),
            (&mut d.position, get(|p| &p.position)),
            (&mut d.incentives, get(|p| &p.incentives)),
        ] {
            if field.is_empty() {
                *field = value;
            }
        }
        if d.name.is_empty() {
            let n = slug(&get(|p| &p.name));
            d.name = if valid_name(&n) { n } else { slug(&d.persona) };
        }
    }
    // Names must be distinct slugs whatever the chair said.
    for i in 0..debaters.len() {
        let clash = debaters[..i].iter().any(|o| o.name == debaters[i].name);
        if clash || !valid_name(&debaters[i].name) {
            debaters[i].name = format!("debater-{}", i + 1);
        }
    }
    Ok(())
}

/// One debater as the chair proposes it.
#[derive(Default, Deserialize)]
struct Proposed {
    name: Option<String>,
    persona: Option<String>,
    position: Option<String>,
    incentives: Option<String>,
}
