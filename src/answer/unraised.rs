//! Findings an answer raises only in prose, where its structure says otherwise: "Approved? No."
//! with nothing listed, a JSON `reject` with an empty list, or a paragraph that rates a bug
//! ("I'd call it high severity") above a JSON block that approves. The more severe reading wins:
//! such an answer never agrees, and what it said becomes findings the gate can see.

use crate::answer::location::{self, Roots};
use crate::answer::{prose, verdict};
use crate::findings::{Finding, Location, Severity, Source};

/// The findings of an answer whose structure raised nothing: each paragraph that says no, or
/// that raises a problem and rates it or points at code; failing that (a bare "no"), one
/// finding of unknown severity carrying the JSON's summary or the sentence that says no.
pub fn findings(
    summary: Option<&str>,
    prose_text: &str,
    said_no: bool,
    roots: &Roots,
) -> Vec<Finding> {
    let paragraphs: Vec<&str> = prose_text
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let mut out: Vec<Finding> = paragraphs
        .iter()
        // A struck-through or "✅ Addressed" comment is one the reviewer withdrew.
        .filter(|p| !crate::answer::vocab::is_withdrawn(p) && !verdict::ruled_out(p))
        .filter(|p| {
            let lined = || placed(p, roots).is_some_and(|l| l.start_line.is_some());
            verdict::objection(p).is_some()
                || (verdict::raises_concern(p)
                    && (prose::severity_in(p).is_some() || placed(p, roots).is_some()))
                // "One medium-severity thing: `a.kt:66` maps…": a level and a line are a
                // finding, whatever words it is told in.
                || (prose::severity_in(p).is_some() && lined())
        })
        .map(|p| from_paragraph(p, roots))
        .collect();
    if out.is_empty() && said_no {
        let said = summary
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string)
            .or_else(|| verdict::objection(prose_text))
            .unwrap_or_else(|| "The reviewer does not approve the change".to_string());
        let mut f = Finding::new(Severity::Unclassified, &first_sentence(&said));
        f.body = said.trim().to_string();
        f.source = Source::Verdict;
        out.push(f);
    }
    out
}

fn from_paragraph(p: &str, roots: &Roots) -> Finding {
    let severity = prose::severity_in(p).unwrap_or(Severity::Unclassified);
    let mut f = Finding::new(severity, &first_sentence(p));
    f.body = p.to_string();
    f.location = placed(p, roots);
    f
}

/// The first file the paragraph names, with its line or the line it mentions ("around line 88").
fn placed(p: &str, roots: &Roots) -> Option<Location> {
    let mut l = location::find_all(p, roots)
        .into_iter()
        .find(|l| !l.path.is_empty() && !l.outside)?;
    if l.start_line.is_none() {
        if let Some((s, e)) = location::lines_in(p) {
            l = Location::new(&l.path, Some(s), e);
        }
    }
    Some(l)
}

fn first_sentence(text: &str) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    let end = line
        .char_indices()
        .find(|(i, c)| matches!(c, '.' | '!' | '?') && line[i + 1..].starts_with(' '))
        .map_or(line.len(), |(i, _)| i + 1);
    line[..end].chars().take(160).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_no_or_a_rated_paragraph_is_a_finding() {
        let roots = Roots::default();
        let f = findings(None, "Approved? No. It drops data.", true, &roots);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Unclassified);
        let f = findings(Some("The migration is unsafe."), "", true, &roots);
        assert_eq!(f[0].title, "The migration is unsafe.");
        let text = "A clean refactor.\n\nOne thing I can't let through, and I'd call it high severity: in `src/p.go` around line 88 the cursor decode error is dropped, so clients loop forever.\n\nEverything else looks fine.";
        let f = findings(None, text, false, &roots);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::P1);
        assert_eq!(f[0].location.as_ref().unwrap().display(), "src/p.go:88");
        // Praise raises nothing.
        assert!(findings(None, "A clean refactor, well tested.", false, &roots).is_empty());
    }
}
