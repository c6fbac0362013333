//! How sure the reader is of what it made of an answer, and the parts of the raw answer that
//! look like findings — for the review loop's repair turn, which asks a reviewer to restate an
//! answer the reader doubts, then checks that the restatement dropped none of these parts.
//!
//! A candidate is a paragraph, list item, heading or table that carries a severity marker,
//! names a place in the code, or stands under a heading that opens findings. It is found on
//! the raw answer with the markdown model, so its byte span points into the text the reviewer
//! wrote.

use std::ops::Range;

use crate::answer::location::{self, Roots};
use crate::answer::{markers, vocab};
use crate::findings::{Critique, Severity};
use crate::markdown::{Doc, Kind};

/// `High`: the answer's shape was read and nothing is left in doubt. `Low`: see the doubts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confidence {
    High,
    Low,
}

/// Why the reader is not sure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Doubt {
    /// Neither an approval nor an objection nor any finding: no verdict was found.
    NoVerdict,
    /// This many findings have no severity.
    Unclassified(usize),
    /// The answer had no recognisable shape: the normaliser, then raw blocks, will read it.
    Unstructured,
    /// Prose that names places in the code, with no findings read from it.
    PlacesWithoutStructure,
    /// Only the first part of a very long answer was read.
    Capped,
}

/// Why a part of the answer looks like a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    /// A severity marker (`[P1]`, `**High**`, `🔴`, `【重大】`).
    Marker,
    /// A place in the code (`src/a.rs:12`, a permalink).
    Place,
    /// It stands under a heading that opens findings or a severity level.
    UnderFindingsHeading,
}

/// A part of the raw answer that looks like a finding.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// Its text (a table: its rows, one per line, cells joined by ` | `).
    pub text: String,
    /// Its byte span in the answer as given.
    pub span: Range<usize>,
    pub cues: Vec<Cue>,
}

/// The doubts about a reading of `text` that gave `critique`.
pub fn doubts(
    critique: &Critique,
    structured: bool,
    capped: bool,
    text: &str,
    roots: &Roots,
) -> Vec<Doubt> {
    let mut out = Vec::new();
    if capped {
        out.push(Doubt::Capped);
    }
    if !structured {
        out.push(Doubt::Unstructured);
    }
    let unclassified = critique
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Unclassified)
        .count();
    if unclassified > 0 {
        out.push(Doubt::Unclassified(unclassified));
    }
    if critique.findings.is_empty() && !critique.agreement {
        out.push(Doubt::NoVerdict);
        if location::find_all(text, roots)
            .iter()
            .any(|l| !l.path.is_empty())
        {
            out.push(Doubt::PlacesWithoutStructure);
        }
    }
    out
}

/// The parts of `text` that look like findings, in order.
pub fn candidates(text: &str, roots: &Roots) -> Vec<Candidate> {
    let doc = Doc::parse_mixed(text);
    let mut out = Vec::new();
    // The cue of the heading above: does it open findings or a level?
    let mut under = false;
    for b in &doc.blocks {
        let said = match &b.kind {
            Kind::Heading { text, .. } => {
                under = opens_findings(text);
                text.clone()
            }
            Kind::Paragraph { text } => text.clone(),
            Kind::Table { rows } => rows
                .iter()
                .skip(1)
                .map(|r| r.join(" | "))
                .collect::<Vec<_>>()
                .join("\n"),
            _ => continue,
        };
        let mut cues = Vec::new();
        let lead = said.lines().next().unwrap_or("");
        if markers::read_lead(lead).severity.is_some() {
            cues.push(Cue::Marker);
        }
        if location::find_all(&said, roots)
            .iter()
            .any(|l| !l.path.is_empty())
        {
            cues.push(Cue::Place);
        }
        let in_item = b.parent.is_some_and(|p| doc.blocks[p].kind == Kind::Item);
        if under && (in_item || matches!(b.kind, Kind::Table { .. })) {
            cues.push(Cue::UnderFindingsHeading);
        }
        if !cues.is_empty() {
            out.push(Candidate {
                text: said,
                span: b.span.clone(),
                cues,
            });
        }
    }
    out
}

fn opens_findings(heading: &str) -> bool {
    let n = vocab::normalise(heading);
    vocab::severity_of(heading).is_some()
        || vocab::FINDING_SECTIONS.iter().any(|s| n.starts_with(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_that_look_like_findings_with_their_spans() {
        let text = "## Summary\nA tidy change.\n\n## Issues\n- the loop never ends\n- [P1] src/a.rs:12 off by one\n\nThanks!";
        let c = candidates(text, &Roots::default());
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].text, "the loop never ends");
        assert_eq!(c[0].cues, [Cue::UnderFindingsHeading]);
        assert_eq!(&text[c[0].span.clone()], "the loop never ends");
        assert!(c[1].cues.contains(&Cue::Marker) && c[1].cues.contains(&Cue::Place));
    }
}
