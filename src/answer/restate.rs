//! A restatement of an answer in the protocol's schema, checked both ways against the raw answer:
//! nothing invented (every restated finding is grounded in the raw text: its words, files and
//! line numbers are there) and nothing dropped (every unit of the raw answer that looks like a
//! finding is covered by a restated finding).
//!
//! The restatement is a model's, and the raw answer is the reviewer's word. A restated finding
//! that is not grounded is dropped; a unit no restated finding covers is kept as the reader read
//! it (of unknown severity when it states none). A severity stands where the raw answer stated
//! one, or, when the reviewer restates its own answer (the repair turn), where the reviewer now
//! states one: it is the reviewer's word. A restatement never lowers a level the raw answer stated.
//! Another model's restatement keeps no level the raw answer did not state.

use std::collections::HashSet;

use serde_json::Value;

use crate::answer::json;
use crate::answer::location::{self, Roots};
use crate::answer::normalise::{
    every_block, raises_nothing, raw_blocks, states_severity, ungrounded,
};
use crate::answer::vocab::{self, Stance};
use crate::answer::Protocol;
use crate::findings::{Critique, Finding, Location, Severity, Source};

/// Share of the smaller side's content words two texts must share for one to cover the other.
const COVERED_WORDS: f32 = 0.5;

/// Lines apart that still count as the same place.
const NEAR_LINES: u32 = 2;

/// What the check made of a restatement.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The restated findings that are grounded, then the raw units none of them covers.
    pub critique: Critique,
    /// Findings in the restatement.
    pub restated: usize,
    /// Restated findings dropped as not grounded in the raw answer, each with why.
    pub invented: Vec<String>,
    /// Raw units no restated finding covers, kept as read.
    pub uncovered: usize,
    /// Restated findings whose severity the reviewer stated only in its restatement.
    pub levelled: usize,
}

/// Whose restatement it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    /// The reviewer, restating its own answer: its levels are its word.
    Reviewer,
    /// Another model (the author or a named normaliser): its levels count only where the raw
    /// answer stated one.
    Other,
}

/// The units of `raw` that look like findings: what the reader read as findings, and the blocks
/// of the raw answer that state a level, point at a line or raise a concern that none of those
/// covers.
pub fn units(raw: &str, read: &[Finding], roots: &Roots) -> Vec<Finding> {
    let mut out: Vec<Finding> = read.to_vec();
    // (Most answers a reader read well have no such part: ask the blocks unfiltered first, and
    // read the answer as prose blocks only when one of them may be one.)
    if !every_block(raw, roots)
        .iter()
        .any(|b| uncovered_part(b, read, roots))
    {
        return out;
    }
    for b in raw_blocks(raw, roots).findings {
        if uncovered_part(&b, read, roots) {
            out.push(b);
        }
    }
    out
}

/// Does a block of the raw answer look like a finding (a level, a line, a word of concern in its
/// prose) that no finding read covers? A block the reviewer marks fixed or takes back does not.
fn uncovered_part(b: &Finding, read: &[Finding], roots: &Roots) -> bool {
    if read.iter().any(|f| covers(f, b)) {
        return false;
    }
    // Only the block's prose: its code (a JSON answer, a suggested fix) was read as such.
    let prose: Vec<&str> = crate::markdown::fenced_lines(&b.body)
        .into_iter()
        .filter(|(_, code)| !code)
        .map(|(l, _)| l)
        .collect();
    let prose = prose.join("\n");
    if prose.trim().is_empty() {
        return false;
    }
    let looks = crate::answer::prose::severity_in(&prose).is_some()
        || location::find_all(&prose, roots)
            .iter()
            .any(|l| l.start_line.is_some())
        || crate::answer::verdict::raises_concern(&prose);
    // (A block the reviewer marks fixed or takes back, `- [x] [P1] … Resolved.`, was left out
    // by the reader for that reason.)
    let mut lines = prose.lines().map(str::to_string);
    let lead = lines.next().unwrap_or_default();
    let rest: Vec<String> = lines.collect();
    looks
        && !crate::answer::unit::said_fixed(&lead, &rest)
        && !crate::answer::vocab::is_withdrawn(&prose)
}

/// The review a restatement holds: the CLI's `structured` object, else the best JSON block of
/// `answer_text`.
pub(crate) fn restatement(
    answer_text: &str,
    structured: Option<&Value>,
    protocol: Protocol,
    roots: &Roots,
) -> Result<json::JsonReview, String> {
    structured
        .and_then(|v| json::review(v, protocol, roots))
        .or_else(|| json::best_review(&json::json_blocks(answer_text), protocol, roots))
        .ok_or_else(|| "its answer had no JSON review in it".to_string())
}

/// Checks the restatement in `answer_text` (or the CLI's `structured` object) of `raw`, whose
/// units are `units` (see [`units`]). `Err` when the restatement holds no review at all, or
/// every finding it restates is invented.
pub fn check(
    raw: &str,
    units: &[Finding],
    answer_text: &str,
    structured: Option<&Value>,
    protocol: Protocol,
    roots: &Roots,
    by: By,
) -> Result<Checked, String> {
    let prepared = crate::answer::prepare::prepare(raw);
    let raw = prepared.as_ref();
    let review = restatement(answer_text, structured, protocol, roots)?;
    let restated = review.findings.len();
    if restated > 0 && review.findings.iter().all(|f| ungrounded(f, raw).is_some()) {
        return Err(format!(
            "none of its {restated} finding(s) is in the answer's own words, files and lines"
        ));
    }
    let mut invented = Vec::new();
    let mut kept: Vec<Finding> = Vec::new();
    let mut levelled = 0;
    for mut f in review.findings {
        if let Some(why) = ungrounded(&f, raw) {
            invented.push(format!("\"{}\": {why}", one_line(&f.title)));
            continue;
        }
        let unit = best_unit(&f, units);
        let said = unit
            .map(|u| u.severity)
            .filter(|s| *s != Severity::Unclassified);
        f.severity = match (by, said) {
            (_, Some(s)) => more_severe(s, f.severity),
            (By::Reviewer, None) => {
                levelled += usize::from(f.severity != Severity::Unclassified);
                f.severity
            }
            // Without units to compare with, a level stands only if the answer states one.
            (By::Other, None) if units.is_empty() && states_severity(raw) => f.severity,
            (By::Other, None) => Severity::Unclassified,
        };
        f.source = match by {
            By::Reviewer => Source::Repair,
            By::Other => Source::Normaliser,
        };
        kept.push(f);
    }
    let left: Vec<Finding> = units
        .iter()
        .filter(|u| !kept.iter().any(|f| covers(f, u)))
        .cloned()
        .collect();
    let uncovered = left.len();
    let approves = review.stance == Some(Stance::Approve);
    let mut findings = kept;
    findings.extend(left);
    let agreement = findings.is_empty() && approves && raises_nothing(raw, roots);
    Ok(Checked {
        critique: Critique {
            findings,
            missing_alternatives: review.missing_alternatives,
            verdict: review.verdict,
            recommendation: review.recommendation,
            agreement,
            format: match by {
                By::Reviewer => "repair",
                By::Other => "normaliser",
            },
        },
        restated,
        invented,
        uncovered,
        levelled,
    })
}

/// The unit a restated finding covers best: the same place first, then the most words shared.
fn best_unit<'u>(f: &Finding, units: &'u [Finding]) -> Option<&'u Finding> {
    units
        .iter()
        .filter(|u| covers(f, u))
        .max_by(|a, b| score(f, a).total_cmp(&score(f, b)))
}

fn score(f: &Finding, u: &Finding) -> f32 {
    overlap(&words(f), &words(u)) + if same_place(f, u) { 1.0 } else { 0.0 }
}

/// Does the restated finding `f` cover the unit `u`: the same file and a line near it, or most of
/// the smaller one's content words in the other?
pub fn covers(f: &Finding, u: &Finding) -> bool {
    // Words alone do not cover a unit that points at other lines than the finding: a finding
    // read from a list item often carries the paragraphs after it in its body, and one of
    // those may be a point of its own ("… `refund_service.ts` line 88 … a P1, fix it before
    // merging" after a P3 about `refund_worker.ts:102`).
    let lined = |x: &Finding| x.location.as_ref().is_some_and(|l| l.start_line.is_some());
    let far_apart = lined(f) && lined(u);
    same_place(f, u) || (overlap(&words(f), &words(u)) >= COVERED_WORDS && !far_apart)
}

/// Both point at the same lines of one file (give or take [`NEAR_LINES`]).
pub(crate) fn same_place(a: &Finding, b: &Finding) -> bool {
    let lined = |l: &Option<Location>| {
        l.as_ref().and_then(|l| {
            l.start_line
                .map(|s| (l.path.clone(), s, l.end_line.unwrap_or(s)))
        })
    };
    match (lined(&a.location), lined(&b.location)) {
        (Some((pa, sa, ea)), Some((pb, sb, eb))) => {
            let file = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
            (pa == pb || (!pa.is_empty() && file(&pa) == file(&pb)))
                && sa <= eb + NEAR_LINES
                && sb <= ea + NEAR_LINES
        }
        _ => false,
    }
}

fn words(f: &Finding) -> HashSet<String> {
    vocab::content_words(&format!("{} {}", f.title, f.body), 3)
        .into_iter()
        .collect()
}

/// The share of the smaller set's words that are in the other.
fn overlap(a: &HashSet<String>, b: &HashSet<String>) -> f32 {
    let smaller = a.len().min(b.len());
    if smaller == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f32 / smaller as f32
}

/// The more severe of two levels for the gate (a stated level over none).
fn more_severe(a: Severity, b: Severity) -> Severity {
    match (a, b) {
        (Severity::Unclassified, x) | (x, Severity::Unclassified) => x,
        (a, b) => a.min(b),
    }
}

fn one_line(s: &str) -> String {
    let s: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 80 {
        s.chars().take(80).collect::<String>() + "…"
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The units found the long way: every block of the answer read as prose.
    fn units_read_as_prose(raw: &str, read: &[Finding]) -> Vec<Finding> {
        let roots = Roots::default();
        let mut out = read.to_vec();
        out.extend(
            raw_blocks(raw, &roots)
                .findings
                .into_iter()
                .filter(|b| uncovered_part(b, read, &roots)),
        );
        out
    }

    #[test]
    fn the_cheap_look_at_the_blocks_finds_the_units_the_long_way_finds() {
        let roots = Roots::default();
        let answers = [
            RAW,
            "## P3 - Nice to Have\n- name the helper — lib.rs:2 — it reads badly — rename it\n\n\
```json\n{\"verdict\": \"approve\", \"findings\": [{\"severity\": \"P3\", \"title\": \"name the \
helper\", \"file\": \"lib.rs\", \"start_line\": 2}]}\n```\n",
            "## P1 - Must Fix\nNone.\n\nAlso, `src/pay.rs` line 40 drops the refund on a retry: P1.\n\n\
```json\n{\"verdict\": \"approve\", \"findings\": []}\n```\n",
            "Looks good to me. Thanks for the tests!\n",
        ];
        for raw in answers {
            let read = crate::answer::read(raw, None, crate::answer::Protocol::Cr, &roots)
                .critique
                .findings;
            let titles = |v: Vec<Finding>| v.into_iter().map(|f| f.title).collect::<Vec<_>>();
            // (With nothing read, every part that looks like a finding is one it missed.)
            for read in [read, Vec::new()] {
                assert_eq!(
                    titles(units(raw, &read, &roots)),
                    titles(units_read_as_prose(raw, &read)),
                    "{raw}"
                );
            }
        }
        assert!(!units(answers[2], &[], &roots).is_empty());
    }

    const RAW: &str = "The migration in db/0042.py will wipe the users table on rollback: \
`downgrade()` calls `drop_table('users')` at line 18. This is a blocker.\n\nSeparately, the \
retry loop in worker.py never gives up when the queue keeps failing.\n";

    fn restated(verdict: &str, findings: Value) -> String {
        format!(
            "```json\n{}\n```",
            serde_json::json!({"verdict": verdict, "summary": "s", "findings": findings})
        )
    }

    fn units_of(raw: &str) -> Vec<Finding> {
        let read = crate::answer::read(raw, None, Protocol::Cr, &Roots::default());
        units(raw, &read.critique.findings, &Roots::default())
    }

    fn check_as(by: By, answer: &str) -> Checked {
        check(
            RAW,
            &units_of(RAW),
            answer,
            None,
            Protocol::Cr,
            &Roots::default(),
            by,
        )
        .unwrap()
    }

    #[test]
    fn an_approval_of_a_blocker_answer_leaves_the_blocker_standing() {
        let c = check_as(By::Other, &restated("approve", serde_json::json!([])));
        assert!(!c.critique.agreement);
        assert_eq!(c.uncovered, 2, "{:?}", c.critique.findings);
        assert!(c
            .critique
            .findings
            .iter()
            .any(|f| f.body.contains("users table") && f.severity.rank() <= 1));
    }

    #[test]
    fn a_dropped_concern_is_kept_and_an_invented_one_dropped() {
        let c = check_as(
            By::Other,
            &restated(
                "revise",
                serde_json::json!([
                    {"severity": "P3", "title": "Migration will wipe the users table",
                     "file": "db/0042.py", "start_line": 18, "end_line": null,
                     "body": "downgrade drops the table", "action": ""},
                    {"severity": "P1", "title": "SQL injection through the search endpoint",
                     "file": null, "start_line": null, "end_line": null, "body": "", "action": ""}
                ]),
            ),
        );
        assert_eq!(c.restated, 2);
        assert_eq!(c.invented.len(), 1, "{:?}", c.invented);
        assert_eq!(c.uncovered, 1, "{:?}", c.critique.findings);
        // The raw answer called it a blocker: the restatement's P3 does not lower it.
        assert_eq!(c.critique.findings[0].severity, Severity::P0);
        assert!(c.critique.findings[1].body.contains("retry loop"));
    }

    #[test]
    fn the_reviewers_own_levels_count_where_the_raw_answer_stated_none() {
        let answer = restated(
            "reject",
            serde_json::json!([
                {"severity": "P0", "title": "Migration will wipe the users table",
                 "file": "db/0042.py", "start_line": 18, "end_line": null, "body": "", "action": ""},
                {"severity": "P2", "title": "Retry loop never gives up", "file": "worker.py",
                 "start_line": null, "end_line": null, "body": "the queue keeps failing",
                 "action": "cap the retries"}
            ]),
        );
        let c = check_as(By::Reviewer, &answer);
        assert_eq!(c.uncovered, 0, "{:?}", c.critique.findings);
        assert!(c.invented.is_empty());
        let levels: Vec<Severity> = c.critique.findings.iter().map(|f| f.severity).collect();
        assert_eq!(levels, [Severity::P0, Severity::P2]);
        assert_eq!(c.levelled, 1);
        assert!(c
            .critique
            .findings
            .iter()
            .all(|f| f.source == Source::Repair));
        // Another model's P2 for the loop is not the reviewer's word.
        let c = check_as(By::Other, &answer);
        assert_eq!(c.critique.findings[1].severity, Severity::Unclassified);
    }

    #[test]
    fn an_answer_that_raises_nothing_may_be_restated_as_an_approval() {
        let raw = "The change moves the loader to pydantic settings and adds tests.";
        let units = units_of(raw);
        let c = check(
            raw,
            &units,
            &restated("approve", serde_json::json!([])),
            None,
            Protocol::Cr,
            &Roots::default(),
            By::Reviewer,
        )
        .unwrap();
        assert!(c.critique.agreement && c.critique.findings.is_empty());
    }
}
