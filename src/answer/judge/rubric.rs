//! The rubric: each finding paired with its ruling, and the fixed rules that turn the judged
//! findings into a recommendation A–E (`references/judge-analysis.md`).

use super::Judgement;
use crate::findings::{Finding, Judged, Verdict};

/// Pairs each finding with its ruling (by id) and appends the judge's own findings as valid.
pub fn apply(findings: &[Finding], judgement: &Judgement) -> Vec<Judged> {
    let mut out: Vec<Judged> = findings
        .iter()
        .map(|f| Judged {
            ruling: judgement
                .rulings
                .iter()
                .find(|r| r.id.eq_ignore_ascii_case(&f.id))
                .cloned(),
            finding: f.clone(),
            from_judge: false,
            rejoinder: None,
        })
        .collect();
    out.extend(judgement.added.iter().map(|f| Judged {
        finding: f.clone(),
        ruling: None,
        from_judge: true,
        rejoinder: None,
    }));
    out
}

/// The rubric: A–E and why, from the judged findings.
pub fn rubric(judged: &[Judged]) -> (char, String) {
    let standing = |rank: u8| {
        judged
            .iter()
            .filter(|j| j.stands() && j.severity().rank() == rank)
            .collect::<Vec<_>>()
    };
    let p1 = standing(1);
    let p2 = standing(2);
    // Severity unknown: it may be a blocker, so it is never accepted (B) or compromised away
    // (C) unread; the reviewer is asked to classify it.
    let unknown = standing(0);
    let unclear = judged
        .iter()
        .filter(|j| {
            j.ruling
                .as_ref()
                .is_some_and(|r| r.verdict == Verdict::MissingContext)
                && j.severity().rank() <= 2
        })
        .count();
    if !p1.is_empty() && unknown.is_empty() {
        let without_action = p1.iter().filter(|j| j.finding.action.is_none()).count();
        if without_action == 0 {
            return (
                'B',
                format!(
                    "{} valid P1 finding(s), each with a concrete action",
                    p1.len()
                ),
            );
        }
        return (
            'D',
            format!(
                "{} valid P1 finding(s), {without_action} without a concrete action: the reviewer \
                 must say what to change",
                p1.len()
            ),
        );
    }
    if !unknown.is_empty() {
        return (
            'D',
            format!(
                "{} finding(s) of unknown severity{}: the reviewer must classify them",
                unknown.len(),
                if p1.is_empty() {
                    String::new()
                } else {
                    format!(" beside {} valid P1 finding(s)", p1.len())
                }
            ),
        );
    }
    if unclear > 0 {
        return (
            'D',
            format!("{unclear} P1/P2 finding(s) need context neither side has shown"),
        );
    }
    if !p2.is_empty() {
        return (
            'C',
            format!("no valid P1; {} valid P2 finding(s) to address", p2.len()),
        );
    }
    let invalid = judged.iter().filter(|j| !j.stands()).count();
    (
        'A',
        if judged.is_empty() {
            "no findings".to_string()
        } else {
            format!("nothing valid above P3 ({invalid} finding(s) ruled out)")
        },
    )
}
