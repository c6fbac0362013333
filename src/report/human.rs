//! The report for people: text for a terminal (coloured there) and markdown for a pull-request
//! comment (decision, findings, final version, next actions), both rendered from the cleaned
//! copy of the report.

use std::fmt::Write as _;

use crate::report::{Item, JudgeLine, Report, WithdrawnItem};
use crate::review::record::BackendUsage;

/// Whether text output may use colour: `--color`, else a terminal with `NO_COLOR` unset.
pub fn use_color(is_terminal: bool) -> bool {
    crate::ui::terminal::colour(is_terminal)
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
    let waived = if i.waiver.is_some() { " [waived]" } else { "" };
    let mut s = format!(
        "{} [{}] {}{waived}",
        paint(i.severity_text(), sev_color(i.severity.label()), color),
        i.id,
        i.title
    );
    if let Some(e) = i.where_() {
        let _ = write!(s, " — {e}");
    }
    if let Some(v) = &i.votes {
        let _ = write!(s, " [{}]", v.text());
    }
    match &i.dispute {
        Some(d) => {
            let _ = write!(
                s,
                " ({})",
                crate::report::dispute_text(d, i.severity_text())
            );
        }
        None => {
            let _ = write!(s, " ({})", i.judged);
            if !i.reason.is_empty() {
                let _ = write!(s, ": {}", i.reason);
            }
        }
    }
    s
}

/// The findings a waiver covers, and the waivers that expired, in the text report.
fn waived_section(s: &mut String, r: &Report, color: bool) {
    let h = |t: &str| paint(t, "1", color);
    if !r.waived.is_empty() {
        let _ = writeln!(
            s,
            "\n{}",
            h(&format!(
                "Waived: {} (not counted by the gate)",
                r.waived.len()
            ))
        );
        for i in &r.waived {
            let _ = writeln!(s, "  {}", waived_line(i, color));
        }
    }
    for n in &r.waiver_notes {
        let _ = writeln!(s, "note: {n}");
    }
}

/// A waived finding: the finding, then the waiver's who, when, why and until when.
fn waived_line(i: &Item, color: bool) -> String {
    let mut s = format!(
        "{} [{}] {}",
        paint(i.severity_text(), "2", color),
        i.id,
        i.title
    );
    if let Some(e) = i.where_() {
        let _ = write!(s, " — {e}");
    }
    if let Some(w) = &i.waiver {
        let _ = write!(s, " — {}", w.describe());
    }
    s
}

/// A withdrawn finding: what the reviewer raised, the ruling it answered and its words.
fn withdrawn_line(w: &WithdrawnItem) -> String {
    let mut s = format!(
        "{} [{}] {} — withdrawn by the reviewer in round {} after the judge ruled {}",
        w.severity.describe(),
        w.id,
        w.title,
        w.round,
        w.ruling
    );
    if !w.words.is_empty() {
        let _ = write!(s, ": {}", w.words);
    }
    s
}

/// Who reviewed: the author and the reviewer (or the reviewers, with the consensus line), and
/// the failover chain when it was used.
fn who_reviewed(s: &mut String, r: &Report, color: bool) {
    match &r.reviewers {
        Some(v) => {
            let names: Vec<&str> = v.seats.iter().map(|s| s.reviewer.as_str()).collect();
            let _ = writeln!(s, "author {} · reviewers {}", r.author, names.join(", "));
        }
        None => {
            let _ = writeln!(s, "author {} · reviewer {}", r.author, r.reviewer);
        }
    }
    if let Some(f) = &r.fallback {
        let _ = writeln!(
            s,
            "{} {} reviewed because {} did not answer: {}",
            paint("fallback reviewer:", "1;33", color),
            f.reviewer,
            f.instead_of,
            f.because
        );
        for p in &f.also_failed {
            let _ = writeln!(s, "  {} did not answer either: {}", p.reviewer, p.because);
        }
    }
    if let Some(v) = &r.reviewers {
        let _ = writeln!(s, "reviewers: {}", crate::report::votes::line(v));
    }
}

pub fn text(r: &Report, color: bool) -> String {
    let r = &r.for_display();
    let mut s = String::new();
    let h = |t: &str| paint(t, "1", color);
    let _ = writeln!(s, "{} {}", h("Debate summary"), r.session);
    let _ = writeln!(
        s,
        "target {} · {} round{} · agreed {} · outcome: {}",
        r.target,
        r.rounds,
        if r.rounds == 1 { "" } else { "s" },
        agreed(r),
        paint(&plain_decision(&r.final_decision), "1", color)
    );
    who_reviewed(&mut s, r, color);
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
    waived_section(&mut s, r, color);
    if !r.withdrawn.is_empty() {
        let _ = writeln!(s, "\n{}", h("Withdrawn"));
        for w in &r.withdrawn {
            let _ = writeln!(s, "  {}", withdrawn_line(w));
        }
    }
    if let Some(inc) = &r.incremental {
        let _ = writeln!(s, "\n{}", h("Incremental"));
        for l in super::incremental::lines(inc) {
            let _ = writeln!(s, "  {l}");
        }
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
    // The session folder once; its files by name under it.
    let _ = writeln!(s, "\nsession: {}", r.session_dir.display());
    let _ = writeln!(s, "  final artifact: {}", file_name(&r.final_artifact));
    if let Some(p) = &r.final_patch {
        let _ = writeln!(
            s,
            "  final patch: {} ({})",
            file_name(p),
            r.patch_check.as_deref().unwrap_or("")
        );
    }
    if r.gate.waived > 0 {
        let _ = writeln!(
            s,
            "{} waived (not counted by the gate; see .gitdebate-waivers)",
            r.gate.waived
        );
    }
    if r.gate.failed {
        let _ = writeln!(
            s,
            "{} {} unresolved finding(s) at or above {}: {}",
            paint("gate failed:", "1;31", color),
            r.gate.blocking.len(),
            r.gate.fail_on.name().to_uppercase(),
            r.gate.blocking.join(", ")
        );
    }
    s
}

/// One line of text from a body that may span lines.
/// Whether the two sides agreed: never "yes" while a P0/P1 is still open, whatever the loop
/// decided (an accepted version that is not applied yet fixes nothing).
fn agreed(r: &Report) -> &'static str {
    let open_blocker = r.unresolved.iter().any(|i| i.rank() <= 1);
    match (r.converged, open_blocker) {
        (true, false) => "yes",
        (true, true) => "not yet (a blocking finding is still open)",
        (false, _) => "no",
    }
}

/// The decision in plain words: the report's JSON keeps the protocol's names ("Accept Opposite",
/// "Keep Original", "Compromise (v2, accepted)", "Stopped (…)"), which say little to a newcomer.
pub(crate) fn plain_decision(d: &str) -> String {
    const WORDS: &[(&str, &str)] = &[
        ("Accept Opposite", "the reviewer's version was taken"),
        ("Keep Original", "the original was kept"),
        ("Compromise", "a compromise was taken"),
        ("Stopped", "stopped with no new version"),
    ];
    WORDS
        .iter()
        .find_map(|(name, words)| d.strip_prefix(name).map(|rest| format!("{words}{rest}")))
        .unwrap_or_else(|| d.to_string())
}

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

/// A round's letters: the final one and whose it is, the rubric's and the judge's.
fn judge_line(j: &JudgeLine) -> String {
    let mut s = match (j.decided_by.as_str(), j.from.as_str()) {
        ("auto", from) if !from.is_empty() => {
            format!("{} ({}'s; {})", j.choice, from, j.why)
        }
        _ => format!("{} ({}; {})", j.choice, j.decided_by, j.reason),
    };
    let _ = write!(s, " — rubric {}", j.rubric);
    match j.judge {
        Some(l) => {
            let _ = write!(s, ", judge {l}");
            if !j.judge_reason.is_empty() {
                let _ = write!(s, ": {}", j.judge_reason);
            }
        }
        None => s.push_str(", judge gave no letter"),
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

/// The final summary (decision, findings, final version, next actions) as markdown, with quoted HTML and mentions made inert.
pub fn markdown(r: &Report) -> String {
    crate::report::inert::markdown(&markdown_of(r))
}

/// Who reviewed, in markdown: the failover chain when it was used, and the reviewers of a review
/// by several with the consensus rule.
fn markdown_reviewers(s: &mut String, r: &Report) {
    if let Some(f) = &r.fallback {
        let _ = writeln!(
            s,
            "Reviewer: {} (the fallback reviewer: {} did not answer)",
            f.reviewer, f.instead_of
        );
        for p in &f.also_failed {
            let _ = writeln!(s, "Also tried: {} ({})", p.reviewer, p.because);
        }
    }
    if let Some(v) = &r.reviewers {
        let _ = writeln!(s, "Reviewers: {}", crate::report::votes::line(v));
    }
}

/// The unresolved findings in markdown, most severe first, each with its votes when several
/// reviewed.
fn markdown_unresolved(s: &mut String, r: &Report) {
    let _ = writeln!(s, "\n### Unresolved");
    if r.unresolved.is_empty() {
        let _ = writeln!(s, "- none");
    }
    let mut unresolved: Vec<&Item> = r.unresolved.iter().collect();
    unresolved.sort_by_key(|i| (i.rank(), i.severity));
    for i in unresolved {
        let at = i.where_().map(|w| format!(" — `{w}`")).unwrap_or_default();
        let votes = i
            .votes
            .as_ref()
            .map(|v| format!(" ({})", v.text()))
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "- {} [{}] {}{at}{votes}",
            i.severity_text(),
            i.id,
            i.title
        );
    }
}

/// The markdown report before [`crate::report::inert`] makes quoted HTML and mentions inert.
fn markdown_of(r: &Report) -> String {
    let r = &r.for_display();
    let mut s = String::from("## Debate Summary\n\n");
    let _ = writeln!(s, "Session: {}", r.session);
    let _ = writeln!(s, "Target: {}", r.target);
    let _ = writeln!(s, "Rounds: {}", r.rounds);
    let _ = writeln!(s, "Agreed: {}", agreed(r));
    let _ = writeln!(s, "Status: {} ({})", r.status, r.stop_reason);
    markdown_reviewers(&mut s, r);
    let _ = writeln!(
        s,
        "\n### Final Decision\n- {} (`{}`)",
        plain_decision(&r.final_decision),
        r.final_decision
    );
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
    let mut standing: Vec<&Item> = r.findings.iter().filter(|i| i.stands()).collect();
    standing.sort_by_key(|i| (i.rank(), i.severity));
    if standing.is_empty() {
        let _ = writeln!(s, "- none");
    }
    for i in standing {
        finding_block(&mut s, i);
    }
    let _ = writeln!(s, "\n### Judge Recommendation History");
    for j in &r.judge_history {
        let _ = writeln!(s, "- Round {}: {}", j.round, judge_line(j));
    }
    markdown_unresolved(&mut s, r);
    if !r.waived.is_empty() || !r.waiver_notes.is_empty() {
        let _ = writeln!(
            s,
            "\n### Waived\n\n{} waived (not counted by the gate; see `.gitdebate-waivers`)",
            r.waived.len()
        );
        for i in &r.waived {
            let at = i.where_().map(|w| format!(" — `{w}`")).unwrap_or_default();
            let why = i
                .waiver
                .as_ref()
                .map(|w| format!(" — {}", w.describe()))
                .unwrap_or_default();
            let _ = writeln!(s, "- {} [{}] {}{at}{why}", i.severity_text(), i.id, i.title);
        }
        for n in &r.waiver_notes {
            let _ = writeln!(s, "- {n}");
        }
    }
    if !r.withdrawn.is_empty() {
        let _ = writeln!(s, "\n### Withdrawn");
        for w in &r.withdrawn {
            let _ = writeln!(s, "- {}", withdrawn_line(w));
        }
    }
    if let Some(inc) = &r.incremental {
        let _ = writeln!(s, "\n### Incremental");
        for l in super::incremental::lines(inc) {
            let _ = writeln!(s, "- {l}");
        }
    }
    if let Some(c) = &r.coverage {
        let _ = writeln!(s, "\n### Coverage");
        for l in c.lines() {
            let _ = writeln!(s, "- {l}");
        }
    }
    alternatives(&mut s, r, "\n", "- ", "### Missing Alternatives");
    if !r.notes.is_empty() {
        let _ = writeln!(s, "\n### Notes");
        for n in &r.notes {
            let _ = writeln!(s, "- {n}");
        }
    }
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

/// One finding as a markdown block: its severity once with its id and title, where it points
/// and how the judge ruled, then why (its body), the fix (its action) and the fix's patch as a
/// diff.
pub(crate) fn finding_block(s: &mut String, i: &Item) {
    let _ = writeln!(s, "\n#### {} · [{}] {}\n", i.severity_text(), i.id, i.title);
    let mut about = Vec::new();
    if let Some(w) = i.where_() {
        about.push(format!("`{w}`"));
    }
    if let Some(v) = &i.votes {
        about.push(v.text());
    }
    about.push(match &i.dispute {
        Some(d) => crate::report::dispute_text(d, i.severity_text()),
        None if i.reason.is_empty() => i.judged.clone(),
        None => format!("{}: {}", i.judged, i.reason),
    });
    if let Some(w) = &i.waiver {
        about.push(w.describe());
    }
    let _ = writeln!(s, "{}", about.join(" · "));
    if !i.body.trim().is_empty() {
        let _ = writeln!(s, "\n**Why.** {}", i.body.trim());
    }
    if let Some(a) = i.action.as_deref().filter(|a| !a.trim().is_empty()) {
        let fix = crate::report::suggestion::split(a);
        if !fix.prose.is_empty() {
            let _ = writeln!(s, "\n**Fix.** {}", fix.prose);
        }
        if let Some(d) = fix.diff {
            let f = fence(&d);
            let _ = writeln!(s, "\n**Patch.**\n\n{f}diff\n{d}\n{f}");
        }
    }
}

/// A code fence longer than any run of backticks in `text`, so the text cannot close it.
pub(crate) fn fence(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
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
    fn decisions_read_in_plain_words() {
        for (name, words) in [
            ("Accept Opposite", "the reviewer's version was taken"),
            (
                "Accept Opposite (materialization skipped)",
                "the reviewer's version was taken (materialization skipped)",
            ),
            (
                "Compromise (v2, accepted)",
                "a compromise was taken (v2, accepted)",
            ),
            ("Keep Original", "the original was kept"),
            (
                "Stopped (judge failed in round 2)",
                "stopped with no new version (judge failed in round 2)",
            ),
            ("something new", "something new"),
        ] {
            assert_eq!(plain_decision(name), words);
        }
    }

    #[test]
    fn colour_only_on_a_terminal_without_no_color() {
        assert!(!use_color(false));
        assert_eq!(paint("x", "1", false), "x");
        assert_eq!(paint("x", "1", true), "\x1b[1mx\x1b[0m");
    }

    #[test]
    fn markdown_gives_each_finding_its_block_most_severe_first() {
        let r = crate::report::sample::report(
            serde_json::json!([
                {"severity": "P3", "title": "style nit"},
                {"severity": "P1", "title": "wrong sum",
                 "location": {"path": "a.rs", "start_line": 2, "check": "verified"},
                 "body": "It subtracts.", "reason": "the test shows it",
                 "action": "Add instead:\n```diff\n@@ -2 +2 @@\n-a - b\n+a + b\n```"},
            ]),
            None,
        );
        let md = markdown(&r);
        let key = &md[md.find("### Key Findings").unwrap()..md.find("### Judge").unwrap()];
        let p1 = key.find("#### P1 · [F2] wrong sum").expect(key);
        let p3 = key.find("#### P3 · [F1] style nit").expect(key);
        assert!(p1 < p3, "most severe first:\n{key}");
        // The severity once per finding, and the finding's why, fix and patch in its block.
        assert_eq!(key.matches("P1").count(), 1, "{key}");
        let block = &key[p1..p3];
        for part in [
            "`a.rs:2` · valid: the test shows it",
            "**Why.** It subtracts.",
            "**Fix.** Add instead:",
            "**Patch.**\n\n```diff\n@@ -2 +2 @@\n-a - b\n+a + b\n```",
        ] {
            assert!(block.contains(part), "{part} missing:\n{block}");
        }
        // A fence longer than any run of backticks inside it.
        assert_eq!(fence("a ``` b"), "````");
        assert_eq!(fence("plain"), "```");
    }
}
