//! The final report of a review, as text (coloured on a terminal), markdown or JSON, and the gate
//! that turns it into an exit code.
//!
//! All three formats are rendered from one [`Report`] value built from the session record, so
//! they cannot disagree. The JSON has a `schema` version; fields are only ever added.

pub mod ci;
pub mod coverage;
mod display;
pub mod emit;
pub mod stored;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use crate::protocol::findings::{Location, Source};
use crate::protocol::judge::Judged;
use crate::review::record::{usage_by_backend, BackendUsage};
use crate::review::Outcome;

pub const SCHEMA: u32 = 1;

/// One finding as reported: its latest state.
#[derive(Debug, Clone, Serialize)]
pub struct Item {
    pub id: String,
    pub severity: &'static str,
    pub title: String,
    /// The reviewer's evidence text, as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// Where it points, and whether that was found in the reviewed change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Which reading stage produced it: schema, reader, normaliser, raw or judge.
    pub source: Source,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub body: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub segment: Option<String>,
    /// valid, invalid, missing-context or not ruled.
    pub judged: &'static str,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// The round it was last raised in.
    pub round: u32,
    pub from_judge: bool,
    /// The code around its location (a hash), for fingerprints that survive moved lines.
    #[serde(skip)]
    anchor: Option<String>,
    #[serde(skip)]
    rank: u8,
    #[serde(skip)]
    stands: bool,
}

impl Item {
    fn of(j: &Judged, round: u32) -> Item {
        Item {
            id: j.finding.id.clone(),
            severity: j.severity().label(),
            title: j.finding.title.clone(),
            evidence: j.finding.evidence.clone(),
            location: j.finding.location.clone(),
            source: j.finding.source,
            body: j.finding.body.clone(),
            action: j.finding.action.clone(),
            segment: j.finding.segment.clone(),
            judged: j.verdict_label(),
            reason: j
                .ruling
                .as_ref()
                .map(|r| r.reason.clone())
                .unwrap_or_default(),
            round,
            from_judge: j.from_judge,
            anchor: j.finding.anchor.clone(),
            rank: j.severity().rank(),
            stands: j.stands(),
        }
    }

    /// `P1`, or `severity unknown` for an unclassified finding.
    pub fn severity_text(&self) -> &'static str {
        if self.severity == "unclassified" {
            "severity unknown"
        } else {
            self.severity
        }
    }

    /// Where it points, for people: `path:line` (with the check when it failed), else the
    /// reviewer's own evidence text.
    pub fn where_(&self) -> Option<String> {
        crate::protocol::findings::where_of(self.location.as_ref(), self.evidence.as_deref())
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct JudgeLine {
    pub round: u32,
    pub choice: char,
    pub decided_by: String,
    pub rubric: char,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judge: Option<char>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub judge_reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Gate {
    pub fail_on: String,
    pub failed: bool,
    /// Unresolved findings at or above the threshold.
    pub blocking: Vec<String>,
}

/// Everything a report says.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub schema: u32,
    /// `false` when the reviewer never answered (exit 3): nothing was reviewed, nothing passed.
    pub evaluated: bool,
    pub session: String,
    pub session_dir: PathBuf,
    pub target: String,
    pub author: String,
    pub reviewer: String,
    pub status: String,
    pub rounds: usize,
    pub converged: bool,
    pub stop_reason: String,
    pub final_decision: String,
    pub final_artifact: PathBuf,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_patch: Option<PathBuf>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub patch_check: Option<String>,
    pub findings: Vec<Item>,
    pub judge_history: Vec<JudgeLine>,
    pub unresolved: Vec<Item>,
    /// Alternatives the reviewer said the artifact failed to consider (last round).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing_alternatives: Vec<String>,
    /// The reviewer's own recommended decision, when its protocol asks for one (last round).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reviewer_recommendation: Option<String>,
    pub notes: Vec<String>,
    pub next_actions: Vec<String>,
    pub usage: BTreeMap<String, BackendUsage>,
    pub duration_ms: u64,
    pub gate: Gate,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// What a chunked review covered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<coverage::Coverage>,
    /// The fallback reviewer reviewed (`reviewer` names it), because the first never answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<crate::review::Fallback>,
    #[serde(skip)]
    pub single_file: Option<String>,
}

/// Inputs a report needs besides the outcome.
pub struct Context<'a> {
    pub session: &'a str,
    pub session_dir: PathBuf,
    pub target: String,
    pub author: String,
    pub reviewer: String,
    pub fail_on: &'a str,
    pub code: bool,
    /// The one file reviewed, when the artifact is one file (SARIF attaches location-less
    /// findings to it).
    pub single_file: Option<String>,
}

pub fn build(o: &Outcome, cx: &Context) -> Report {
    // Every finding's latest state, in order of first appearance.
    let mut findings: Vec<Item> = Vec::new();
    for r in &o.rounds {
        for j in &r.findings {
            let item = Item::of(j, r.round);
            match findings
                .iter_mut()
                .find(|i| i.id == item.id && !item.id.is_empty())
            {
                Some(old) => *old = item,
                None => findings.push(item),
            }
        }
    }
    // The reviewer's latest view: what stands in the last completed round.
    let unresolved: Vec<Item> = o
        .rounds
        .last()
        .map(|r| {
            r.findings
                .iter()
                .filter(|j| j.stands())
                .map(|j| Item::of(j, r.round))
                .collect()
        })
        .unwrap_or_default();
    let threshold = match cx.fail_on {
        "p1" => Some(1),
        "p2" => Some(2),
        "p3" => Some(3),
        _ => None,
    };
    let blocking: Vec<String> = threshold
        .map(|t| {
            unresolved
                .iter()
                .filter(|i| i.rank <= t)
                .map(|i| i.id.clone())
                .collect()
        })
        .unwrap_or_default();
    let judge_history = o
        .rounds
        .iter()
        .map(|r| JudgeLine {
            round: r.round,
            choice: r.choice,
            decided_by: r.decided_by.clone(),
            rubric: r.rubric,
            reason: r.rubric_reason.clone(),
            judge: r.judge_choice,
            judge_reason: r.judge_reason.clone(),
        })
        .collect();
    let notes = o
        .rounds
        .iter()
        .flat_map(|r| {
            r.notes
                .iter()
                .map(move |n| format!("round {}: {n}", r.round))
        })
        .collect();
    let mut report = Report {
        schema: SCHEMA,
        evaluated: o.status != "unavailable",
        session: cx.session.to_string(),
        session_dir: cx.session_dir.clone(),
        target: cx.target.clone(),
        author: cx.author.clone(),
        reviewer: o
            .fallback
            .as_ref()
            .map_or_else(|| cx.reviewer.clone(), |f| f.reviewer.clone()),
        status: o.status.clone(),
        rounds: o.rounds.len(),
        converged: o.converged,
        stop_reason: o.stop_reason.clone(),
        final_decision: o.final_decision.clone(),
        final_artifact: o.final_artifact.clone(),
        final_patch: o.final_patch.clone(),
        patch_check: o.patch_check.clone(),
        findings,
        judge_history,
        unresolved,
        missing_alternatives: o
            .rounds
            .last()
            .map(|r| r.missing_alternatives.clone())
            .unwrap_or_default(),
        reviewer_recommendation: o
            .rounds
            .iter()
            .rev()
            .find_map(|r| r.reviewer_recommendation.clone()),
        notes,
        next_actions: Vec::new(),
        usage: usage_by_backend(&o.rounds, &o.extra_calls),
        duration_ms: o.duration_ms,
        gate: Gate {
            fail_on: cx.fail_on.to_string(),
            failed: !blocking.is_empty(),
            blocking,
        },
        error: o.error.as_ref().map(|e| e.to_string()),
        coverage: coverage::Coverage::of(o),
        fallback: o.fallback.clone(),
        single_file: cx.single_file.clone(),
    };
    report.next_actions = next_actions(&report, cx.code);
    report
}

pub(crate) fn next_actions(r: &Report, code: bool) -> Vec<String> {
    let mut out = Vec::new();
    if r.status == "unavailable" {
        out.push(format!(
            "Fix the reviewer ({}) and run again: {}",
            r.reviewer,
            r.error.as_deref().unwrap_or("it did not answer")
        ));
        return out;
    }
    if let Some(line) = r.coverage.as_ref().and_then(|c| c.not_evaluated_line()) {
        out.push(format!("Review again: {line}"));
    }
    if r.status == "failed" || r.status == "interrupted" {
        // Both stopped before the loop was done; the session keeps the last good version.
        out.push(format!(
            "Continue from the last good version: `git debate resume {}`",
            r.session
        ));
    }
    if let Some(p) = &r.final_patch {
        out.push(format!(
            "Review the accepted changes in {} ({}), then `git apply` it",
            p.display(),
            r.patch_check.as_deref().unwrap_or("not checked")
        ));
    }
    if r.final_decision.starts_with("Compromise")
        || (r.final_decision.starts_with("Accept") && r.final_patch.is_none())
    {
        out.push(format!(
            "Compare the final version with the original: {}",
            r.final_artifact.display()
        ));
    }
    for i in r.unresolved.iter().filter(|i| i.rank <= 2) {
        let at = i.where_().map(|e| format!(" ({e})")).unwrap_or_default();
        out.push(format!(
            "Address [{}] {} {}{at}",
            i.id,
            i.severity_text(),
            i.title
        ));
    }
    if out.is_empty() && r.unresolved.is_empty() {
        out.push("Nothing to address from this review".into());
    }
    if code {
        out.push("Run the tests".into());
    }
    out
}

/// Whether text output may use colour: a terminal, and `NO_COLOR` unset.
pub fn use_color(is_terminal: bool) -> bool {
    is_terminal
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && !crate::terminal::dumb_terminal()
}

fn paint(s: &str, code: &str, color: bool) -> String {
    if color {
        format!("\x1b[{code}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

fn sev_color(sev: &str) -> &'static str {
    match sev {
        "P0" | "P1" | "unclassified" => "1;31",
        "P2" => "33",
        _ => "2",
    }
}

fn item_line(i: &Item, color: bool) -> String {
    let mut s = format!(
        "{} [{}] {}",
        paint(i.severity_text(), sev_color(i.severity), color),
        i.id,
        i.title
    );
    if let Some(e) = i.where_() {
        let _ = write!(s, " — {e}");
    }
    let _ = write!(s, " ({})", i.judged);
    if !i.reason.is_empty() {
        let _ = write!(s, ": {}", i.reason);
    }
    s
}

pub fn text(r: &Report, color: bool) -> String {
    let r = &r.for_display();
    let mut s = String::new();
    let h = |t: &str| paint(t, "1", color);
    let _ = writeln!(s, "{} {}", h("Debate summary"), r.session);
    let _ = writeln!(
        s,
        "target {} · {} round{} · converged {} · decision {}",
        r.target,
        r.rounds,
        if r.rounds == 1 { "" } else { "s" },
        if r.converged { "yes" } else { "no" },
        paint(&r.final_decision, "1", color)
    );
    let _ = writeln!(s, "author {} · reviewer {}", r.author, r.reviewer);
    if let Some(f) = &r.fallback {
        let _ = writeln!(
            s,
            "{} {} reviewed because {} did not answer: {}",
            paint("fallback reviewer:", "1;33", color),
            f.reviewer,
            f.instead_of,
            f.because
        );
    }
    let _ = writeln!(s, "stopped: {}", r.stop_reason);
    if let Some(e) = &r.error {
        let _ = writeln!(s, "{} {e}", paint("error:", "1;31", color));
    }
    if !r.findings.is_empty() {
        let _ = writeln!(s, "\n{}", h("Findings"));
        for i in &r.findings {
            let _ = writeln!(s, "  {}", item_line(i, color));
            // Why it matters and what to do, one line each (the full text is in summary.json).
            if !i.body.is_empty() {
                let _ = writeln!(s, "      why: {}", one_line(&i.body));
            }
            if let Some(a) = &i.action {
                let _ = writeln!(s, "      fix: {}", one_line(a));
            }
        }
    }
    alternatives(&mut s, r, "\n", "  ", &h("Missing alternatives"));
    if !r.judge_history.is_empty() {
        let _ = writeln!(s, "\n{}", h("Judge recommendations"));
        for j in &r.judge_history {
            let _ = writeln!(s, "  round {}: {}", j.round, judge_line(j));
        }
    }
    let _ = writeln!(s, "\n{}", h("Unresolved"));
    if r.unresolved.is_empty() {
        let _ = writeln!(s, "  none");
    }
    for i in &r.unresolved {
        let _ = writeln!(s, "  {}", item_line(i, color));
    }
    for n in &r.notes {
        let _ = writeln!(s, "note: {n}");
    }
    if let Some(c) = &r.coverage {
        let _ = writeln!(s, "\n{}", h("Coverage"));
        for l in c.lines() {
            let _ = writeln!(s, "  {l}");
        }
    }
    let _ = writeln!(s, "\n{}", h("Next actions"));
    for (k, a) in r.next_actions.iter().enumerate() {
        let _ = writeln!(s, "  {}. [ ] {a}", k + 1);
    }
    if !r.usage.is_empty() {
        let _ = writeln!(s, "\n{}", h("Usage"));
        for (b, u) in &r.usage {
            let _ = writeln!(s, "  {b}: {}", usage_text(u));
        }
    }
    if let Some(t) = totals(r) {
        let _ = writeln!(s, "  total: {t}");
    }
    let _ = writeln!(s, "\nfinal artifact: {}", r.final_artifact.display());
    if let Some(p) = &r.final_patch {
        let _ = writeln!(
            s,
            "final patch: {} ({})",
            p.display(),
            r.patch_check.as_deref().unwrap_or("")
        );
    }
    let _ = writeln!(s, "session: {}", r.session_dir.display());
    if r.gate.failed {
        let _ = writeln!(
            s,
            "{} {} unresolved finding(s) at or above {}: {}",
            paint("gate failed:", "1;31", color),
            r.gate.blocking.len(),
            r.gate.fail_on.to_uppercase(),
            r.gate.blocking.join(", ")
        );
    }
    s
}

/// One line of text from a body that may span lines.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The reviewer's missing alternatives and recommended decision, when it gave them.
fn alternatives(s: &mut String, r: &Report, before: &str, bullet: &str, heading: &str) {
    if r.missing_alternatives.is_empty() && r.reviewer_recommendation.is_none() {
        return;
    }
    let _ = writeln!(s, "{before}{heading}");
    for a in &r.missing_alternatives {
        let _ = writeln!(s, "{bullet}{}", one_line(a));
    }
    if let Some(rec) = &r.reviewer_recommendation {
        let _ = writeln!(s, "{bullet}the reviewer recommends: {}", one_line(rec));
    }
}

/// Calls, tokens, cost and model time over every backend, and the wall time of the run.
fn totals(r: &Report) -> Option<String> {
    if r.usage.len() < 2 {
        return None;
    }
    let mut total = BackendUsage::default();
    for u in r.usage.values() {
        total.calls += u.calls;
        total.failed_calls += u.failed_calls;
        total.duration_ms += u.duration_ms;
        total.usage.add(&u.usage);
    }
    Some(format!(
        "{}; {:.1} s wall time",
        usage_text(&total),
        r.duration_ms as f64 / 1000.0
    ))
}

fn judge_line(j: &JudgeLine) -> String {
    let mut s = format!("{} ({}; {})", j.choice, j.decided_by, j.reason);
    if j.decided_by == "user" && j.choice != j.rubric {
        let _ = write!(s, "; the rubric recommended {}", j.rubric);
    }
    if let Some(l) = j.judge.filter(|l| *l != j.rubric) {
        let _ = write!(s, "; the judge recommended {l}");
        if !j.judge_reason.is_empty() {
            let _ = write!(s, ": {}", j.judge_reason);
        }
    }
    s
}

fn usage_text(u: &BackendUsage) -> String {
    let mut parts = vec![format!(
        "{} call{}",
        u.calls,
        if u.calls == 1 { "" } else { "s" }
    )];
    if u.failed_calls > 0 {
        parts.push(format!("{} failed", u.failed_calls));
    }
    parts.extend(u.usage.describe());
    parts.push(format!("{:.1} s", u.duration_ms as f64 / 1000.0));
    parts.join(", ")
}

/// The seed's final output contract, as markdown.
pub fn markdown(r: &Report) -> String {
    let r = &r.for_display();
    let mut s = String::from("## Debate Summary\n\n");
    let _ = writeln!(s, "Session: {}", r.session);
    let _ = writeln!(s, "Target: {}", r.target);
    let _ = writeln!(s, "Rounds: {}", r.rounds);
    let _ = writeln!(s, "Converged: {}", if r.converged { "yes" } else { "no" });
    let _ = writeln!(s, "Status: {} ({})", r.status, r.stop_reason);
    if let Some(f) = &r.fallback {
        let _ = writeln!(
            s,
            "Reviewer: {} (the fallback reviewer: {} did not answer)",
            f.reviewer, f.instead_of
        );
    }
    let _ = writeln!(s, "\n### Final Decision\n- {}", r.final_decision);
    // A pull-request comment must not show local paths: files are named within the session.
    let _ = writeln!(
        s,
        "\n### Final Artifact\n- `{}` in session `{}`",
        file_name(&r.final_artifact),
        r.session
    );
    if let Some(p) = &r.final_patch {
        let _ = writeln!(
            s,
            "- patch: `{}` ({})",
            file_name(p),
            r.patch_check.as_deref().unwrap_or("")
        );
    }
    let _ = writeln!(s, "\n### Key Findings");
    for (label, ranks) in [
        ("Severity unknown", [0u8, 0]),
        ("P1", [1, 1]),
        ("P2", [2, 2]),
        ("P3", [3, 3]),
    ] {
        let items: Vec<String> = r
            .findings
            .iter()
            .filter(|i| i.rank >= ranks[0] && i.rank <= ranks[1] && i.stands)
            .map(|i| item_line(i, false))
            .collect();
        if label == "Severity unknown" && items.is_empty() {
            continue;
        }
        let _ = writeln!(
            s,
            "- {label}: {}",
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join("; ")
            }
        );
    }
    let _ = writeln!(s, "\n### Judge Recommendation History");
    for j in &r.judge_history {
        let _ = writeln!(s, "- Round {}: {}", j.round, judge_line(j));
    }
    let _ = writeln!(s, "\n### Unresolved");
    if r.unresolved.is_empty() {
        let _ = writeln!(s, "- none");
    }
    for i in &r.unresolved {
        let _ = writeln!(s, "- {}", item_line(i, false));
    }
    if let Some(c) = &r.coverage {
        let _ = writeln!(s, "\n### Coverage");
        for l in c.lines() {
            let _ = writeln!(s, "- {l}");
        }
    }
    alternatives(&mut s, r, "\n", "- ", "### Missing Alternatives");
    let _ = writeln!(s, "\n### Next Actions");
    // Session files by name: the session folder is a path on this machine only.
    let dir = format!("{}/", r.session_dir.display());
    for (k, a) in r.next_actions.iter().enumerate() {
        let _ = writeln!(s, "{}. [ ] {}", k + 1, a.replace(&dir, ""));
    }
    if !r.usage.is_empty() {
        let _ = writeln!(s, "\n### Usage");
        for (b, u) in &r.usage {
            let _ = writeln!(s, "- {b}: {}", usage_text(u));
        }
        if let Some(t) = totals(r) {
            let _ = writeln!(s, "- total: {t}");
        }
    }
    s
}

fn file_name(p: &std::path::Path) -> String {
    p.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        assert!(!use_color(false));
        assert_eq!(paint("x", "1", false), "x");
        assert_eq!(paint("x", "1", true), "\x1b[1mx\x1b[0m");
    }
}
