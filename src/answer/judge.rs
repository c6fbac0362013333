//! The judge: the author model rules on every finding, and a fixed rubric turns the rulings into
//! a recommendation A–E.
//!
//! The model's own letter is recorded, but the choice is the rubric's
//! (`references/judge-analysis.md`): the same rulings always give the same decision, and a judge
//! that waves everything through cannot pick B by accident. A finding the judge did not rule on
//! counts as valid: silence is not a dismissal.

use serde::Serialize;
use serde_json::Value;

use crate::answer::vocab::parse_severity;
use crate::answer::{self, Roots};
use crate::findings::{Finding, Source};
pub use crate::findings::{Judged, Ruling, Verdict};

/// A ruling's verdict as a judge may word it.
fn parse_verdict(s: &str) -> Option<Verdict> {
    let s = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
    match s.as_str() {
        "valid" | "accept" | "accepted" | "agree" => Some(Verdict::Valid),
        "invalid" | "reject" | "rejected" | "disagree" => Some(Verdict::Invalid),
        "missing-context" | "missing" | "needs-evidence" | "unclear" => {
            Some(Verdict::MissingContext)
        }
        _ => None,
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
}

/// Reads the judge's answer: the schema-enforced object when the CLI gave one, else its JSON
/// block (the last one with rulings), else `F1: valid — reason` lines.
pub fn parse(text: &str, structured: Option<&Value>, roots: &Roots) -> Judgement {
    let has_rulings = |v: &&Value| v.get("classifications").is_some() || v.get("rulings").is_some();
    if let Some(v) = structured.filter(has_rulings) {
        return from_json(v, roots);
    }
    // The judge may think aloud (`<think>…</think>`) or be wrapped like any answer.
    let prepared = answer::prepare::prepare(text);
    let text = prepared.as_ref();
    let blocks = answer::json::json_blocks(text);
    if let Some(v) = blocks.iter().rev().find(has_rulings) {
        return from_json(v, roots);
    }
    from_lines(text)
}

/// Reads the judge's answer for a round whose findings have `ids`.
pub fn parse_round(
    text: &str,
    structured: Option<&Value>,
    roots: &Roots,
    ids: &[String],
) -> Judgement {
    let _ = ids;
    parse(text, structured, roots)
}

fn from_json(v: &Value, roots: &Roots) -> Judgement {
    let list = v
        .get("classifications")
        .or_else(|| v.get("rulings"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let rulings = list
        .iter()
        .filter_map(|r| {
            Some(Ruling {
                id: r.get("id")?.as_str()?.trim().to_string(),
                verdict: parse_verdict(
                    r.get("verdict")
                        .or_else(|| r.get("classification"))?
                        .as_str()?,
                )?,
                severity: r
                    .get("severity")
                    .and_then(Value::as_str)
                    .and_then(parse_severity),
                reason: r
                    .get("reason")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .trim()
                    .to_string(),
            })
        })
        .collect();
    let added = v
        .get("added")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|x| answer::json::finding(x, None, roots))
                .map(|mut f| {
                    f.source = Source::Judge;
                    f
                })
                .collect()
        })
        .unwrap_or_default();
    Judgement {
        notes: Vec::new(),
        readable: true,
        rulings,
        added,
        recommendation: v
            .get("recommendation")
            .and_then(Value::as_str)
            .and_then(letter),
        reason: v
            .get("reason")
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string(),
    }
}

fn letter(s: &str) -> Option<char> {
    let c = s.trim().trim_matches(['*', '`', '(', ')']).chars().next()?;
    let c = c.to_ascii_uppercase();
    ('A'..='E').contains(&c).then_some(c)
}

fn from_lines(text: &str) -> Judgement {
    let ruling =
        regex::Regex::new(r"(?i)\b(F\d+)\b\W{0,4}(valid|invalid|missing[ -]context)\b\W*(.*)$")
            .expect("valid regex");
    let recommend = regex::Regex::new(r"(?i)recommend(?:ation|ed)?\W{0,6}(?:option\s+)?([A-E])\b")
        .expect("valid regex");
    let mut j = Judgement::default();
    for line in text.lines() {
        if let Some(c) = ruling.captures(line) {
            j.readable = true;
            if let Some(verdict) = parse_verdict(&c[2]) {
                j.rulings.push(Ruling {
                    id: c[1].to_ascii_uppercase(),
                    verdict,
                    severity: None,
                    reason: c[3].trim().to_string(),
                });
            }
        }
        if j.recommendation.is_none() {
            if let Some(c) = recommend.captures(line) {
                j.recommendation = letter(&c[1]);
                j.readable |= j.recommendation.is_some();
            }
        }
    }
    j
}

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
        })
        .collect();
    out.extend(judgement.added.iter().map(|f| Judged {
        finding: f.clone(),
        ruling: None,
        from_judge: true,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::Severity;

    fn finding(id: &str, sev: Severity, action: bool) -> Finding {
        let mut f = Finding::new(sev, &format!("{id} title"));
        f.id = id.into();
        f.action = action.then(|| "do this".to_string());
        f
    }

    fn parse_text(text: &str) -> Judgement {
        parse(text, None, &Roots::default())
    }

    #[test]
    fn json_rulings_added_findings_and_letter() {
        let j = parse_text("Analysis...\n```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"valid\",\"severity\":\"P2\",\"reason\":\"true\"},{\"id\":\"F2\",\"verdict\":\"invalid\",\"reason\":\"misread\"}],\"added\":[{\"severity\":\"P3\",\"title\":\"also this\"}],\"recommendation\":\"C\",\"reason\":\"partly right\"}\n```");
        assert_eq!(j.rulings.len(), 2);
        assert_eq!(j.rulings[0].severity, Some(Severity::P2));
        assert_eq!(j.rulings[1].verdict, Verdict::Invalid);
        assert_eq!(j.added[0].title, "also this");
        assert_eq!(j.recommendation, Some('C'));
        // A judge that thinks aloud first, then gives its rulings as an object in prose.
        let j = parse_text(
            "<think>F1 looks right; F2 is \"F2: invalid\"?</think>\nMy rulings:\n\
{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"valid\",\"reason\":\"r\"}],\
\"recommendation\":\"D\"}\n",
        );
        assert_eq!(j.rulings.len(), 1);
        assert_eq!(j.recommendation, Some('D'));
    }

    #[test]
    fn plain_lines_when_there_is_no_json() {
        let j = parse_text("- F1: valid — real bug\n- **F2** invalid: the lock is released\n- F3 missing context\n\nRecommendation: **D**");
        let v: Vec<_> = j
            .rulings
            .iter()
            .map(|r| (r.id.as_str(), r.verdict))
            .collect();
        assert_eq!(
            v,
            [
                ("F1", Verdict::Valid),
                ("F2", Verdict::Invalid),
                ("F3", Verdict::MissingContext)
            ]
        );
        assert_eq!(j.recommendation, Some('D'));
    }

    #[test]
    fn the_rubric() {
        let rule = |id: &str, v: Verdict, sev: Option<Severity>| Ruling {
            id: id.into(),
            verdict: v,
            severity: sev,
            reason: String::new(),
        };
        let judge = |fs: Vec<Finding>, rs: Vec<Ruling>| {
            rubric(&apply(
                &fs,
                &Judgement {
                    rulings: rs,
                    ..Default::default()
                },
            ))
            .0
        };
        // Valid P1 with an action: B; without: D.
        assert_eq!(judge(vec![finding("F1", Severity::P1, true)], vec![]), 'B');
        assert_eq!(judge(vec![finding("F1", Severity::P0, false)], vec![]), 'D');
        // The judge downgrades the P1 to P2: C. Rules it invalid: A.
        assert_eq!(
            judge(
                vec![finding("F1", Severity::P1, true)],
                vec![rule("F1", Verdict::Valid, Some(Severity::P2))]
            ),
            'C'
        );
        assert_eq!(
            judge(
                vec![finding("F1", Severity::P1, true)],
                vec![rule("F1", Verdict::Invalid, None)]
            ),
            'A'
        );
        // Missing context on a P2: D. Only P3: A. Nothing: A.
        assert_eq!(
            judge(
                vec![finding("F1", Severity::P2, true)],
                vec![rule("F1", Verdict::MissingContext, None)]
            ),
            'D'
        );
        assert_eq!(judge(vec![finding("F1", Severity::P3, true)], vec![]), 'A');
        assert_eq!(judge(vec![], vec![]), 'A');
        // Unknown severity is never waved through or compromised away: the reviewer must
        // classify it; once the judge classifies it, its level counts.
        assert_eq!(
            judge(vec![finding("F1", Severity::Unclassified, true)], vec![]),
            'D'
        );
        assert_eq!(
            judge(
                vec![
                    finding("F1", Severity::Unclassified, true),
                    finding("F2", Severity::P1, true)
                ],
                vec![]
            ),
            'D'
        );
        assert_eq!(
            judge(
                vec![finding("F1", Severity::Unclassified, true)],
                vec![rule("F1", Verdict::Valid, Some(Severity::P3))]
            ),
            'A'
        );
    }
}
