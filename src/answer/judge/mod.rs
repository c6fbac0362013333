//! The judge: the author model rules on every finding, and a fixed rubric turns the rulings into
//! a recommendation A–E.
//!
//! The model's own letter is recorded, but the choice is the rubric's
//! (`references/judge-analysis.md`): the same rulings always give the same decision, and a judge
//! that waves everything through cannot pick B by accident. A finding the judge did not rule on
//! counts as valid: silence is not a dismissal.
//!
//! Judges seldom answer in the asked JSON alone: they use other keys, tables, bold bullets,
//! sentences ("F1 is valid.", "I agree with F2"), id ranges and other languages. All of these
//! are read ([`json`], [`prose`], the words in [`words::RULING_WORDS`]); what is read but cannot
//! be used — a ruling on an id outside the round, a verdict that could not be read — is
//! returned as a note, never dropped unsaid.

use serde::Serialize;
use serde_json::Value;

mod json;
mod prose;
mod rubric;
#[cfg(test)]
mod tests;
pub mod words;

pub use rubric::{apply, rubric};

use crate::answer::{self, Roots};
use crate::findings::Finding;
pub use crate::findings::{Judged, Rejoinder, Rejoined, Ruling, Verdict};

impl Verdict {
    /// A verdict word or phrase ([`words::RULING_WORDS`]) as the whole of `s`.
    pub fn parse(s: &str) -> Option<Verdict> {
        let n = s.trim().to_lowercase().replace('_', "-");
        let n = n.trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace());
        words::RULING_WORDS
            .iter()
            .find(|(w, _)| w.replace('_', "-") == n || w.replace(' ', "-") == n)
            .map(|(_, v)| *v)
    }

    pub fn label(self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::Invalid => "invalid",
            Verdict::MissingContext => "missing-context",
        }
    }
}

/// What the judge said.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Judgement {
    pub rulings: Vec<Ruling>,
    /// Findings the judge added (the reviewer missed them).
    pub added: Vec<Finding>,
    /// The judge's own letter, if it gave one.
    pub recommendation: Option<char>,
    pub reason: String,
    /// Something in the answer could be read as rulings or a recommendation.
    pub readable: bool,
    /// What was read but not used: a ruling on an id outside the round, a ruling whose verdict
    /// could not be read.
    pub notes: Vec<String>,
    /// The ids outside the round the judge ruled on (their rulings are not applied).
    pub outside: Vec<String>,
}

/// Reads the judge's answer for a round whose findings have `ids` (empty: any id): the
/// schema-enforced object when the CLI gave one, else its JSON (the last block with rulings, in any
/// of the common key sets), else its tables, lines and sentences. A ruling on
/// an id outside the round, or one whose verdict could not be read, is kept out of the rulings
/// and returned in `notes`; so is an id the answer names without a readable ruling.
pub fn parse_round(
    text: &str,
    structured: Option<&Value>,
    roots: &Roots,
    ids: &[String],
) -> Judgement {
    let mut j = match structured.and_then(|v| json::judgement(v, roots)) {
        Some(j) => j,
        None => {
            // The judge may think aloud (`<think>…</think>`) or be wrapped like any answer.
            let prepared = answer::prepare::prepare(text);
            read_text(prepared.as_ref(), roots, ids)
        }
    };
    keep_round(&mut j, ids);
    j
}

/// JSON first; the prose fills in ids the JSON does not rule on (a block cut off by the token
/// limit), and gives the letter when the JSON has none.
fn read_text(text: &str, roots: &Roots, ids: &[String]) -> Judgement {
    let from_json = json::from_blocks(text, roots);
    let from_prose = prose::read(text, ids);
    let mut j = match from_json {
        None => from_prose,
        Some(mut j) => {
            for r in from_prose.rulings {
                if !j.rulings.iter().any(|x| x.id.eq_ignore_ascii_case(&r.id)) {
                    j.rulings.push(r);
                }
            }
            j.recommendation = j.recommendation.or(from_prose.recommendation);
            j.notes.extend(from_prose.notes);
            j
        }
    };
    for id in prose::mentions(&prose::plain(text)) {
        if j.rulings.iter().any(|r| r.id.eq_ignore_ascii_case(&id)) {
            continue;
        }
        let in_round = ids.is_empty() || ids.iter().any(|i| i.eq_ignore_ascii_case(&id));
        j.notes.push(if in_round {
            format!("{id} is named but no ruling on it could be read; it counts as valid")
        } else {
            format!("{id} is not a finding of this round: the judge named it, nothing was applied")
        });
    }
    j
}

/// Ids normalised (`f1` is F1), the last ruling on an id standing (a judge that changes its
/// mind), and rulings on ids outside the round moved to notes.
fn keep_round(j: &mut Judgement, ids: &[String]) {
    let mut kept: Vec<Ruling> = Vec::new();
    for mut r in std::mem::take(&mut j.rulings) {
        r.id = r.id.trim().to_ascii_uppercase();
        if !ids.is_empty() && !ids.iter().any(|i| i.eq_ignore_ascii_case(&r.id)) {
            j.outside.push(r.id.clone());
            j.notes.push(format!(
                "{} is not a finding of this round: the judge's ruling on it ({}) was not applied",
                r.id,
                r.verdict.label()
            ));
            continue;
        }
        kept.retain(|k| k.id != r.id);
        kept.push(r);
    }
    if !ids.is_empty() {
        kept.sort_by_key(|r| ids.iter().position(|i| i.eq_ignore_ascii_case(&r.id)));
    }
    j.readable |= !kept.is_empty();
    j.rulings = kept;
}

/// A recommendation letter A–E as written (`C`, `**c**`, `(B)`, `D — rebut`).
fn letter(s: &str) -> Option<char> {
    let t = s.trim().trim_start_matches(['*', '`', '(', '[', ' ', '"']);
    let mut chars = t.chars();
    let c = chars.next()?.to_ascii_uppercase();
    let next = chars.next();
    let alone = next.is_none_or(|n| !n.is_alphanumeric());
    (('A'..='E').contains(&c) && alone).then_some(c)
}
