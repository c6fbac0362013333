//! Reading what a model said: one pipeline from an answer to findings, where every
//! finding records the stage that produced it.
//!
//! 1. **schema** — the CLI enforced the protocol's JSON Schema: its structured field is the answer;
//! 2. **reader** — otherwise the answer's JSON (the one that validates and is not an echo of the
//!    template) or, failing that, its markdown structure, read by the vocabularies in [`vocab`];
//! 3. **repair** — an answer that is not the schema's JSON and cannot be read whole is restated in
//!    the schema by a model call, the reviewer's own by default; the restatement is checked both
//!    ways against the raw answer ([`restate`]: nothing invented, nothing dropped; the call itself
//!    is the review loop's, and [`normalise`] holds the grounding test);
//! 4. **raw** — what is still left becomes unclassified findings, one per block, in full.
//!
//! Agreement is decided here too, as a verdict of the whole answer ([`verdict`]). Before any of
//! it, [`prepare`] takes out a model's thinking, opens a raw API response and applies the
//! answer's own emoji legend.

mod anchors;
pub mod asides;
pub mod blocks;
pub mod carried;
pub mod confidence;
pub mod conventional;
pub mod dispute;
mod hosts;
pub mod json;
pub mod lead;
pub mod location;
mod mail;
pub mod markdown;
pub mod markers;
pub mod normalise;
mod notification;
mod pasted;
pub mod prepare;
pub mod prose;
mod rerate;
pub mod restate;
pub mod schema;
mod terminal;
pub mod transcript;
pub mod unit;
pub mod unraised;
pub mod verdict;
pub mod vocab;

use std::collections::BTreeSet;

use serde_json::Value;

pub use confidence::{Candidate, Confidence, Doubt};
pub use location::Roots;
pub use schema::Protocol;

use crate::findings::{Critique, Finding, Severity, Source};
use vocab::Stance;

/// A pattern in its own cell (the reader's patterns are constants), compiled the first time a
/// text may match it ([`crate::pattern`]): most answers need few of the reader's patterns.
fn re(
    cell: &'static std::sync::OnceLock<crate::pattern::Pattern>,
    pattern: &str,
) -> &'static crate::pattern::Pattern {
    cell.get_or_init(|| crate::pattern::Pattern::owned(pattern.to_string()))
}

/// [`re`] for a pattern that is built (from vocabularies): built once, and compiled as [`re`]'s.
fn re_built(
    cell: &'static std::sync::OnceLock<crate::pattern::Pattern>,
    build: impl FnOnce() -> String,
) -> &'static crate::pattern::Pattern {
    cell.get_or_init(|| crate::pattern::Pattern::owned(build()))
}

/// What the reader made of an answer.
#[derive(Debug, Clone)]
pub struct Reading {
    pub critique: Critique,
    /// The answer had a recognisable shape (findings, a verdict, severity sections, placeholders).
    /// When it did not, and it is not empty, a restatement is due.
    pub structured: bool,
    /// `Low` when any [`Doubt`] stands: the loop may ask the reviewer to restate its answer.
    pub confidence: Confidence,
    pub doubts: Vec<Doubt>,
    /// The parts of the answer that look like findings, with their byte spans in the answer as
    /// given: what a restatement must not drop.
    pub candidates: Vec<Candidate>,
    /// What the reader says about its own reading (a long answer read only in part).
    pub notes: Vec<String>,
}

/// How much of an answer is read: a longer one is read up to the last line break before this
/// many bytes, and the reading says so. Reading is linear, so this bounds its time.
pub const READ_CAP: usize = 512 << 10;

/// `text` cut to [`READ_CAP`] at a line break, and the note that says so.
pub fn capped(text: &str) -> (&str, Option<String>) {
    if text.len() <= READ_CAP {
        return (text, None);
    }
    let mut end = READ_CAP;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let end = text[..end].rfind('\n').map_or(end, |i| i + 1);
    let note = format!(
        "the answer is {} KiB; only its first {} KiB were read",
        text.len() / 1024,
        end / 1024
    );
    (&text[..end], Some(note))
}

impl Reading {
    fn new(
        critique: Critique,
        structured: bool,
        text: &str,
        cap_note: Option<String>,
        roots: &Roots,
    ) -> Reading {
        let doubts = confidence::doubts(&critique, structured, cap_note.is_some(), text, roots);
        Reading {
            confidence: if doubts.is_empty() {
                Confidence::High
            } else {
                Confidence::Low
            },
            doubts,
            candidates: confidence::candidates(text, roots),
            notes: cap_note.into_iter().collect(),
            critique,
            structured,
        }
    }
}

/// Reads one answer: `structured` is the CLI's schema-enforced object when there is one.
pub fn read(text: &str, structured: Option<&Value>, protocol: Protocol, roots: &Roots) -> Reading {
    if let Some(r) = structured.and_then(|v| json::review(v, protocol, roots)) {
        let mut c = from_json(r, "schema");
        for f in &mut c.findings {
            f.source = Source::Schema;
        }
        return Reading::new(c, true, text, None, roots);
    }
    let (raw, cap_note) = capped(text);
    let prepared = prepare::prepare(raw);
    let text = prepared.as_ref();
    let values = json::json_blocks(text);
    let from_json_block = json::best_review(&values, protocol, roots);
    let mut md = markdown::read(text, roots);
    let prose = without_code(text);
    let stated = verdict::stated(&prose);
    let remarks = observations_under_approval(&mut md, &prose, stated);
    // Where the JSON and the prose disagree, the more severe reading wins: a JSON block that
    // raises nothing never hides findings the prose raised with a level.
    let use_json = match &from_json_block {
        Some(j)
            if j.findings.is_empty()
                && md
                    .findings
                    .iter()
                    .any(|f| f.severity != Severity::Unclassified) =>
        {
            false
        }
        Some(j) if j.conforms || j.findings.len() >= md.findings.len() => true,
        Some(_) => false,
        None => false,
    };
    let mut c = if use_json {
        let j = from_json_block.clone().expect("checked");
        json_critique(j, &md, roots)
    } else {
        let stance = from_json_block.as_ref().and_then(|j| j.stance).or(stated);
        Critique {
            findings: std::mem::take(&mut md.findings),
            missing_alternatives: std::mem::take(&mut md.missing_alternatives),
            verdict: from_json_block.as_ref().and_then(|j| j.verdict.clone()),
            recommendation: md.recommendation.take(),
            agreement: stance == Some(Stance::Approve),
            format: "markdown",
        }
    };
    if !use_json {
        restated_for_agents(text, roots, &mut c.findings);
    }
    if !use_json {
        // A JSON list is the reviewer's own enumeration; markdown often says a finding twice
        // (a summary table and its detail section).
        c.findings = merge_duplicates(std::mem::take(&mut c.findings));
    }
    if from_json_block.is_some() {
        for f in &mut c.findings {
            without_review_fence(&mut f.body);
        }
    }
    default_file(text, raw, roots, &mut c.findings);
    full_paths(text, raw, roots, &mut c.findings);
    rate_from_prose(&mut c.findings);
    if !use_json {
        rate_by_number(&prose, &mut c.findings);
        rerate::rerate(&prose, &mut c.findings);
        withdraw_by_number(text, &prose, &mut c.findings);
    }
    if use_json {
        rerate::rerate_up(&prose, &mut c.findings);
        prose_outranks_json(text, roots, &mut c.findings);
    } else {
        recover_missed(text, roots, &mut c.findings);
        rerate::pointed_inline(&mut c.findings);
    }
    let objects = c.verdict.as_deref().and_then(vocab::stance_of) == Some(Stance::Object)
        || stated == Some(Stance::Object);
    // Prose outside any finding that raises a problem ("otherwise fine, but it will crash")
    // keeps an approval word from being the answer's verdict.
    // (Not what the reviewer withdrew: a struck-through comment, one marked addressed.)
    let loose = md
        .loose_text
        .iter()
        .filter(|t| !vocab::is_withdrawn(t) && !verdict::ruled_out(t))
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    // Prose outside any finding that points at a line of code is about a problem there, not
    // part of an approval ("Happy with the rest" after two paragraphs on `pool.rs` line 64).
    let points_at_code = points_at_code(&loose, &prose, roots);
    // (A sentence saying what the reviewer read names the parts it read, concerning or not.)
    let said: Vec<&str> = loose.lines().filter(|l| !asides::scope(l)).collect();
    let loose_concern = !use_json && (verdict::raises_concern(&said.join("\n")) || points_at_code);
    if c.findings.is_empty() {
        c.findings = unraised_findings(
            &c,
            objects,
            from_json_block.as_ref(),
            &prose,
            text,
            raw,
            &md,
            roots,
        );
    }
    c.agreement = c.findings.is_empty()
        && !objects
        && !loose_concern
        && (c.agreement || verdict::approves(&prose));
    // An answer that is all summary (a walkthrough, a changelog) with nothing in it that raises
    // a problem has a shape too: it raised nothing.
    let summary_only = c.findings.is_empty()
        && md.loose_text.iter().all(|t| t.trim().is_empty())
        && !md.quiet_text.is_empty()
        && !verdict::raises_concern(&md.quiet_text.join("\n"));
    let structured = !c.findings.is_empty()
        || md.structured
        || from_json_block.is_some()
        || stated.is_some()
        || c.agreement
        || summary_only;
    let mut reading = Reading::new(c, structured, raw, cap_note, roots);
    reading.notes.extend(remarks);
    reading
}

/// Nothing raised by the structure, but the answer says no ("Approved? No.", a JSON `reject`
/// with an empty list) or approves while its prose rates a bug: what it said is findings, so the
/// gate sees them ([`unraised`]).
#[allow(clippy::too_many_arguments)]
fn unraised_findings(
    c: &Critique,
    objects: bool,
    from_json_block: Option<&json::JsonReview>,
    prose: &str,
    text: &str,
    raw: &str,
    md: &markdown::Markdown,
    roots: &Roots,
) -> Vec<Finding> {
    let said_no = objects || verdict::objection(prose).is_some();
    let approving = c.agreement || verdict::approves(prose);
    if !(said_no || approving) {
        return Vec::new();
    }
    let summary = from_json_block.and_then(|j| j.summary.as_deref());
    // An answer that is one JSON value has no prose: its `considered` risks and `summary` were
    // read as JSON.
    let prose = if one_json_value(text) { "" } else { prose };
    let json_approves =
        from_json_block.is_some_and(|j| j.stance == Some(Stance::Approve) && j.findings.is_empty());
    let mut found: Vec<Finding> = unraised::findings(summary, prose, said_no, json_approves, roots)
        .into_iter()
        .filter(|f| !said_quietly(&f.body, &md.quiet_text))
        .collect();
    // ("… in the same file, line 51": the answer's one file.)
    default_file(text, raw, roots, &mut found);
    found
}

/// Sourcery and others restate the review for coding agents in a fenced markdown block, sometimes
/// with comments the visible part only summarised: its findings that point at a line are added
/// (one said twice is merged later).
fn restated_for_agents(text: &str, roots: &Roots, findings: &mut Vec<Finding>) {
    let visible = findings.len();
    let places: Vec<(String, Option<u32>)> = findings
        .iter()
        .filter_map(|f| f.location.as_ref().map(|l| (l.path.clone(), l.start_line)))
        .collect();
    for block in markdown_fences(text) {
        let inner = markdown::read(&block, roots);
        findings.extend(inner.findings.into_iter().filter(|f| {
            let lined = f.location.as_ref().filter(|l| l.start_line.is_some());
            visible == 0 || lined.is_some_and(|l| !places.contains(&(l.path.clone(), l.start_line)))
        }));
    }
    level_details_from_summary(findings, visible);
}

/// A prose finding's body ends where the answer's JSON review begins (the last item before a
/// fenced JSON block carries it otherwise): the review was read as the JSON. A JSON snippet
/// that is a suggested fix stays.
fn without_review_fence(body: &mut String) {
    let Some(at) = body.find("```json") else {
        return;
    };
    let fence = &body[at..];
    if fence.contains("\"findings\"") || fence.contains("\"verdict\"") {
        body.truncate(at);
        body.truncate(body.trim_end().len());
    }
}

/// Is the whole answer one JSON value?
fn one_json_value(text: &str) -> bool {
    text.trim_start().starts_with(['{', '[']) && serde_json::from_str::<Value>(text.trim()).is_ok()
}

/// Does loose prose point at a line of code, which an approval does not clear: a place with a
/// line outside the verdict's own line ("APPROVE — the refresh is single-flight
/// (`src/http/client.ts:58`)" cites its evidence; a concern in it is read apart), unless the
/// reviewer says outright it found nothing ("the only other `Lock` call (`ledger/account.go:47`)
/// is a single-lock path … I did not find any bugs").
fn points_at_code(loose: &str, prose: &str, roots: &Roots) -> bool {
    let pointing: Vec<&str> = loose
        .lines()
        .filter(|l| !verdict::opens_with_approval(l))
        .collect();
    let pointing = pointing.join("\n");
    let places = location::find_all(&pointing, roots);
    let points = places.iter().any(|l| l.start_line.is_some())
        || (!places.is_empty() && location::lines_in(&pointing).is_some());
    points && !verdict::found_nothing(prose)
}

/// Is all of `text` (a paragraph of prose) something a quiet section already said: a summary's
/// line, a table row, the reviewer's checklist, praise the structure set aside? Each line is
/// compared by its words (markup, pipes and code quotes aside): nearly all of them (four in five)
/// must be in one quiet line. A table's `|---|` line says nothing and a heading over a list names
/// its section.
fn said_quietly(text: &str, quiet_text: &[String]) -> bool {
    // (HTML tags aside: a table cell's `<ul><li>` items are read as one line of the row.)
    static TAG: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let words = |s: &str| -> Vec<String> {
        let s = re(&TAG, r"</?[a-zA-Z][^>]*>").replace_all(s, " ");
        vocab::normalise(&s)
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let quiet: Vec<BTreeSet<String>> = quiet_text
        .iter()
        .map(|q| words(q).into_iter().collect())
        .collect();
    let said: Vec<Vec<String>> = text
        .lines()
        // (A heading, or a bold line that titles the section below it, names it.)
        .filter(|l| {
            let t = l.trim();
            let bold_title = t.starts_with("**") && t.ends_with("**") && t.len() < 80;
            !(t.starts_with('#') || bold_title)
        })
        // (A list's numbering is not what the line says.)
        .map(|l| {
            let mut w = words(l);
            w.retain(|w| !w.chars().all(|c| c.is_ascii_digit()));
            w
        })
        .filter(|w| !w.is_empty())
        .collect();
    !said.is_empty()
        && said.iter().all(|l| {
            quiet.iter().any(|q| {
                let shared = l.iter().filter(|w| q.contains(*w)).count();
                !q.is_empty() && shared * 5 >= l.len() * 4
            })
        })
}

/// An answer that states its approval ("Verdict: approve", a `**Approve.**` line) and whose
/// findings are all findings only by their words ([`markdown::Markdown::remarks`]): those are
/// the observations of a review that raised nothing. They are taken out, and counted in a note.
fn observations_under_approval(
    md: &mut markdown::Markdown,
    prose: &str,
    stated: Option<Stance>,
) -> Option<String> {
    // (Or a short closing paragraph that approves, in any language it knows: "Geen
    // bevindingen. Goedgekeurd.")
    let closing = prose
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .last()
        .unwrap_or("");
    let closes = || closing.split_whitespace().count() <= 12 && verdict::approves(closing);
    let explicit =
        || stated == Some(Stance::Approve) || verdict::opens_with_approval(prose) || closes();
    let all_remarks = !md.findings.is_empty()
        && md.remarks.len() == md.findings.len()
        && md.remarks.iter().all(|r| r.0);
    // (The cheap test first: reading approvals compiles the largest pattern there is.)
    if !(all_remarks
        && explicit()
        && verdict::approves(prose)
        && verdict::objection(prose).is_none())
    {
        return None;
    }
    let n = md.findings.len();
    md.findings.clear();
    // What they said is quiet now: prose read later must not raise it again.
    let said = md
        .remarks
        .drain(..)
        .flat_map(|(_, s)| s.lines().map(str::to_string).collect::<Vec<_>>());
    md.quiet_text.extend(said);
    Some(format!(
        "{n} unrated remark(s) under the reviewer's stated approval were read as observations, not findings"
    ))
}

/// A part of the answer that rates a blocker (`This one is a blocker`, a level in a comment
/// beside a heading), or that rates a point at a line of a file ("`cron/parse.go` … line 142 …
/// I'd put this at P2" before a "Nit:" paragraph), but that no finding read covers: the
/// structure missed it, and the gate must not. It is added as the raw answer says it.
///
/// Only beside findings read, none of them a blocker: an answer with none goes to [`unraised`]
/// and, unread, to the repair turn; one that already stops the gate loses nothing to a
/// duplicate (a summary line that repeats a blocker is not another finding).
fn recover_missed(text: &str, roots: &Roots, findings: &mut Vec<Finding>) {
    let read = findings.len();
    let blocker = |f: &Finding| matches!(f.severity, Severity::P0 | Severity::P1);
    if read == 0 || findings.iter().any(blocker) {
        return;
    }
    let rated_at_a_line = |f: &Finding| {
        f.severity != Severity::Unclassified
            && f.location
                .as_ref()
                .is_some_and(|l| l.start_line.is_some() && !l.path.is_empty())
    };
    let missed: Vec<Finding> = restate::units(text, findings, roots)
        .into_iter()
        .skip(read)
        .filter(|f| blocker(f) || rated_at_a_line(f))
        .collect();
    findings.extend(missed);
}

/// A JSON block under prose that rates the same place higher ("there is one blocker … line
/// 58" above `"severity": "medium"` for line 58): the more severe reading wins, as it does
/// for the verdict. Only a blocker raises a level, and only at the same place.
fn prose_outranks_json(text: &str, roots: &Roots, findings: &mut [Finding]) {
    let prose = without_code(text);
    // (Nothing to do when the prose rates no blocker anywhere, in words or by a label: the
    // blocks below cost the reading of every approval phrase.)
    let rates_blocker = |t: &str| {
        prose::ratings(t)
            .iter()
            .any(|s| matches!(s, Severity::P0 | Severity::P1))
            || t.lines().any(|l| {
                markers::read_lead(l)
                    .severity
                    .is_some_and(|s| s.1 == vocab::Strength::Level && s.0 <= Severity::P1)
            })
    };
    if !rates_blocker(&prose) {
        return;
    }
    let blocks = normalise::raw_blocks(&prose, roots).findings;
    for b in &blocks {
        // Rated in a sentence, or by a label opening the paragraph (`**Bloqueante:** en …`).
        // (When the block's own reading rates it lower, that reading already weighed its first
        // line: an item's own `(P3)` under a `## P1` heading is a P3.)
        let labelled = markers::read_lead(b.body.lines().next().unwrap_or(""))
            .severity
            .filter(|s| s.1 == vocab::Strength::Level)
            .map(|s| {
                if b.severity != Severity::Unclassified && b.severity > s.0 {
                    b.severity
                } else {
                    s.0
                }
            });
        let Some(said) = prose::severity_in(&b.body).or(labelled) else {
            continue;
        };
        if !matches!(said, Severity::P0 | Severity::P1) {
            continue;
        }
        let lower = |f: &Finding| f.severity != Severity::Unclassified && f.severity > said;
        // The paragraph names the finding's file and, among the lines it cites, the finding's
        // own ("the copy on line 22 comes after the drop on line 14").
        let cites = |f: &Finding| {
            f.location.as_ref().is_some_and(|l| {
                b.body.contains(l.path.as_str())
                    && l.start_line.is_some_and(|n| cites_line(&b.body, n))
            })
        };
        // (Only when it cites one finding so: a paragraph that cites two rates neither alone.)
        let cited: Vec<usize> = (0..findings.len())
            .filter(|i| cites(&findings[*i]))
            .collect();
        let cited_one = |i: usize| cited.len() == 1 && cited[0] == i;
        // A finding at the paragraph's very line is the one it is about; one a line or two
        // away (`settings.py:40` and the next finding at `:42`) is then another.
        let at_line = |f: &Finding| {
            let line = |l: &Option<crate::findings::Location>| {
                l.as_ref().map(|l| (l.path.clone(), l.start_line))
            };
            b.location.as_ref().is_some_and(|l| l.start_line.is_some())
                && line(&f.location) == line(&b.location)
        };
        let exact = findings.iter().any(at_line);
        // (Two findings at that very line, "the MIME type comes from the client" and "a FIXME
        // left in", are told apart by their words: the paragraph rates the one it says.)
        let at: Vec<usize> = (0..findings.len())
            .filter(|&i| at_line(&findings[i]))
            .collect();
        let chosen = (at.len() > 1).then(|| {
            at.iter()
                .copied()
                .max_by_key(|&i| shared_words(&findings[i].title, &b.body))
        });
        let mut raised = false;
        for (i, f) in findings.iter_mut().enumerate() {
            let near = restate::same_place(f, b)
                && (!exact || (at_line(f) && chosen.is_none_or(|c| c == Some(i))));
            if lower(f) && (near || cited_one(i)) {
                f.severity = said;
                raised = true;
            }
        }
        // A paragraph that names the file but no line: the finding in that file it is about,
        // the one whose title shares the most words with it (two at least).
        let file = b.location.as_ref().filter(|l| l.start_line.is_none());
        if let (false, Some(file)) = (raised, file) {
            let in_file =
                |f: &&mut Finding| f.location.as_ref().is_some_and(|l| l.path == file.path);
            // The only finding in that file needs no words in common.
            let alone = findings.iter_mut().filter(in_file).count() == 1;
            let best = findings
                .iter_mut()
                .filter(in_file)
                .map(|f| (shared_words(&f.title, &b.body), f))
                .filter(|(shared, _)| alone || *shared >= 2)
                .max_by_key(|(shared, _)| *shared);
            if let Some((_, f)) = best.filter(|(_, f)| lower(f)) {
                f.severity = said;
            }
        }
    }
}

/// The critique a JSON block gives, with the markdown's missing alternatives when it names none
/// and what its summary raises when it lists no findings.
fn json_critique(j: json::JsonReview, md: &markdown::Markdown, roots: &Roots) -> Critique {
    let summary = j.summary.clone();
    let mut c = from_json(j, "json");
    if c.missing_alternatives.is_empty() {
        c.missing_alternatives = md.missing_alternatives.clone();
    }
    if c.findings.is_empty() {
        c.findings = summary_suggestions(summary.as_deref().unwrap_or(""), roots);
        c.agreement &= c.findings.is_empty();
    }
    lines_from_prose(&mut c.findings, &md.findings);
    // The prose's own findings the JSON left out (a `## Should fix` bullet with its level and
    // its line, and no JSON finding at that place or in those words): the more the reviewer
    // raised, the more the gate sees.
    // (Unrated, only when it names a consequence, "If the worker crashes halfway, the rest of
    // the batch is gone" under `## Questions`, beside findings the JSON lists: under a JSON
    // that lists none, such points are what the reviewer checked and found fine.)
    let listed = !c.findings.is_empty();
    let left_out: Vec<Finding> = md
        .findings
        .iter()
        .filter(|f| {
            f.severity != Severity::Unclassified
                || (listed && verdict::raises_concern(&format!("{}\n{}", f.title, f.body)))
        })
        .filter(|f| f.location.as_ref().is_some_and(|l| l.start_line.is_some()))
        .filter(|f| !c.findings.iter().any(|j| same_finding(j, f)))
        .cloned()
        .collect();
    if !left_out.is_empty() {
        c.agreement = false;
        c.findings.extend(left_out);
    }
    c
}

/// A JSON finding that names its file but no line (a JSON cut off before its `start_line`, or
/// one that left it out) takes the line its prose finding gives in that file: the one with the
/// title's words (two at least, and only one such).
fn lines_from_prose(findings: &mut [Finding], prose: &[Finding]) {
    for f in findings.iter_mut() {
        let Some(loc) = f.location.as_mut().filter(|l| l.start_line.is_none()) else {
            continue;
        };
        let in_file: Vec<&Finding> = prose
            .iter()
            .filter(|p| {
                p.location
                    .as_ref()
                    .is_some_and(|l| l.start_line.is_some() && same_file(&l.path, &loc.path))
            })
            .collect();
        let shares = |p: &&&Finding| shared_words(&f.title, &p.title) >= 2;
        let matching: Vec<&&Finding> = in_file.iter().filter(shares).collect();
        if let [p] = matching.as_slice() {
            let l = p.location.as_ref().expect("filtered");
            (loc.start_line, loc.end_line) = (l.start_line, l.end_line);
        }
    }
}

/// Are two readings of the answer (its JSON's and its prose's) the same finding: the same file
/// near the same line (or one of them gives none), or two content words of their titles shared
/// (one, when the JSON's finding has no place)?
fn same_finding(json: &Finding, prose: &Finding) -> bool {
    let near = match (&json.location, &prose.location) {
        (Some(j), Some(p)) => {
            same_file(&j.path, &p.path)
                && match (j.start_line, p.start_line) {
                    (Some(a), Some(b)) => a.abs_diff(b) <= 5,
                    _ => true,
                }
        }
        _ => false,
    };
    let shared = shared_words(&json.title, &prose.title);
    near || shared >= 2 || (json.location.is_none() && shared >= 1)
}

/// How many distinct content words two texts share ("the whole batch … the rest of the batch"
/// shares one word with "batch size", not two).
fn shared_words(a: &str, b: &str) -> usize {
    let a: BTreeSet<String> = vocab::content_words(a, 3).into_iter().collect();
    vocab::content_words(b, 3)
        .into_iter()
        .collect::<BTreeSet<String>>()
        .intersection(&a)
        .count()
}

/// Two names of one file: the same path, or one a shorter tail of the other (the prose names
/// `StockService.kt`, the JSON `src/main/kotlin/…/StockService.kt`).
fn same_file(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    !short.is_empty()
        && (short == long
            || long
                .strip_suffix(short)
                .is_some_and(|rest| rest.ends_with('/')))
}

/// A JSON review that lists no findings but whose summary raises one under a level's label
/// (`"summary": "Safe bump. Optional: pin the image by digest."`): what it said is a finding.
fn summary_suggestions(summary: &str, roots: &Roots) -> Vec<Finding> {
    // A summary names its file in plain words as often as quoted (`in Dockerfile (…)`).
    let place = location::find_all(summary, roots)
        .into_iter()
        .next()
        .or_else(|| {
            summary
                .split(|c: char| !c.is_alphanumeric() && !matches!(c, '.' | '_' | '-' | '/'))
                .map(|w| w.trim_end_matches('.'))
                .find(|w| vocab::BARE_FILE_NAMES.contains(w))
                .map(|w| crate::findings::Location::new(w, None, None))
        });
    summary
        .split(". ")
        .filter_map(|sentence| {
            let lead = markers::read_lead(sentence.trim());
            let (level, strength) = lead.severity?;
            let labelled = sentence
                .trim_start()
                .split_once(':')
                .is_some_and(|(label, _)| {
                    vocab::severity_of(label).is_some_and(|s| s.1 == vocab::Strength::Level)
                });
            (strength == vocab::Strength::Level && labelled && !lead.title.is_empty()).then(|| {
                let mut f = Finding::new(level, &lead.title);
                f.location.clone_from(&place);
                f
            })
        })
        .collect()
}

/// Does `text` cite line `n` ("line 14", "lines 14-20", "`a.py:14`")?
fn cites_line(text: &str, n: u32) -> bool {
    let n = n.to_string();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words
        .windows(2)
        .any(|w| matches!(w[0].to_ascii_lowercase().as_str(), "line" | "lines" | "l") && w[1] == n)
        || text.contains(&format!(":{n}"))
}

/// A finding with no marker that rates itself in a sentence ("I'd treat this as a blocker")
/// takes that level.
pub fn rate_from_prose(findings: &mut [Finding]) {
    for f in findings.iter_mut() {
        if f.severity == Severity::Unclassified {
            let text = format!("{}\n{}", f.title, f.body);
            if let Some(s) = prose::severity_in(&text).or_else(|| lone_level(&text)) {
                f.severity = s;
            }
        }
    }
}

/// A sentence of a finding that is a level word and nothing else ("… one is enough. Minor.",
/// "Blocker."): the level, when only one such sentence says one.
fn lone_level(text: &str) -> Option<Severity> {
    // (A file name in code is no sentence: `<name>.errors.csv` has no sentence "errors".)
    let outside_code: String = text
        .split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { "code" } else { part })
        .collect::<Vec<_>>()
        .join("`");
    // (A stop ends a sentence before a space or the end, not inside `logger.info`.)
    let mut sentences = Vec::new();
    let mut from = 0;
    for (i, c) in outside_code.char_indices() {
        let next = outside_code[i + c.len_utf8()..].chars().next();
        if c == '\n' || (matches!(c, '.' | '!') && next.is_none_or(char::is_whitespace)) {
            sentences.push(&outside_code[from..i]);
            from = i + c.len_utf8();
        }
    }
    sentences.push(&outside_code[from..]);
    let levels: Vec<Severity> = sentences
        .into_iter()
        .map(lead::plain)
        .filter(|s| !s.is_empty() && s.split_whitespace().count() <= 2)
        .filter_map(|s| vocab::severity_of(&s))
        .filter(|s| s.1 == vocab::Strength::Level)
        .map(|s| s.0)
        .collect();
    match levels.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// A verdict that rates the findings by their numbers ("Verdict: 1 is a blocker … 2 is minor",
/// "le point 1 est bloquant"): each numbered finding takes the level said of it, when that is
/// more severe than the level it has (an unclassified finding always takes it). The number must
/// open a clause or follow a word that makes it an item's ("point 1", "#2"): "Python 3 is
/// critical here" rates nothing.
fn rate_by_number(prose: &str, findings: &mut [Finding]) {
    static NUMBERED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let numbered = re(
        &NUMBERED,
        r"(?i)(?:(?:^|[.:;!?—–]\s*)#?\s*|\b(?:points?|items?|findings?|issues?|punto|punkt|ponto)\s+#?|(?:#|\bno\.\s*|n°\s*))(\d{1,2}(?:\s*(?:,|and|&|y|et|und|e)\s*#?\d{1,2})*)\s+(is|est|es|ist|è|é|are|sind|son|sont|são|must|has to|have to|needs? to)\s+([^.;,\n]{1,60})",
    );
    // "The second point is a P1": an ordinal names the item as a number does.
    static ORDINAL: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let ordinals = re(
        &ORDINAL,
        r"(?i)\bthe (first|second|third|fourth|fifth) (?:point|item|finding|issue|one|comment)\b",
    );
    let prose = &*ordinals.replace_all(prose, |c: &regex::Captures| {
        format!("point {}", ordinal(&c[1]).unwrap_or(0))
    });
    // "#2 must be fixed first": what has to change before the merge blocks it.
    static MUST: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let must_fix = re(
        &MUST,
        r"(?i)^be (?:fixed|addressed|resolved|changed|reverted)\b|^(?:fix|change|revert)\b",
    );
    for c in numbered.captures_iter(prose) {
        let verb = c[2].to_ascii_lowercase();
        let obliged = ["must", "has to", "have to", "need to", "needs to"].contains(&verb.as_str());
        let level = if obliged {
            must_fix.is_match(&c[3]).then_some(Severity::P1)
        } else {
            prose::severity_in(&format!("is {}", &c[3]))
                .or_else(|| lone_level(&c[3]))
                // ("… are nice to have": a level said in a few words.)
                .or_else(|| {
                    vocab::severity_of(c[3].trim())
                        .filter(|s| {
                            s.1 == vocab::Strength::Level && c[3].split_whitespace().count() <= 4
                        })
                        .map(|s| s.0)
                })
        };
        let Some(l) = level else {
            continue;
        };
        // "#1 and #3 are nice to have": each number listed.
        let numbers = c[1]
            .split(|ch: char| !ch.is_ascii_digit())
            .filter_map(|n| n.parse::<usize>().ok());
        for n in numbers {
            let Some(f) = n.checked_sub(1).and_then(|i| findings.get_mut(i)) else {
                continue;
            };
            if f.severity == Severity::Unclassified || l < f.severity {
                f.severity = l;
            }
        }
    }
}

/// The number an ordinal names ("second" → 2), up to the fifth.
fn ordinal(word: &str) -> Option<usize> {
    ["first", "second", "third", "fourth", "fifth"]
        .iter()
        .position(|o| word.eq_ignore_ascii_case(o))
        .map(|i| i + 1)
}

/// The reviewer takes back a numbered finding later in its answer ("Actually, scratch point 3:
/// … there is nothing to fix", "Edit — on second look, point 2 is fine", "Ritiro il punto 3"):
/// that finding was not raised. The number must name an item ("point 3", "#3"), and a finding
/// must be the one the answer numbered so: its title on the line that opens with the number.
fn withdraw_by_number(text: &str, prose: &str, findings: &mut Vec<Finding>) {
    static TAKEN_BACK: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let taken_back = re(
        &TAKEN_BACK,
        r"(?i)\b(?:scratch|ignore|disregard|withdraw|retract|strike|forget|drop|ritiro|ritira|retiro|retira|ignora|ignorez|ignoriere|streiche|desconsidere)\s+(?:(?:the|il|el|le|o|den)\s+)?(?:point|item|finding|issue|observation|comment|note|punto|point|ponto|punkt)\s*#?(\d{1,2})\b|\b(?:point|item|finding|issue|observation|comment|note|punto|ponto|punkt)\s*#?(\d{1,2})\s+is\s+(?:fine|ok|okay|moot|not an issue|a non-issue|not a problem|not a real problem|wrong|invalid|withdrawn|retracted|(?:now |already )?(?:addressed|resolved|fixed))\b",
    );
    let numbered_line = |n: usize| {
        text.lines().find(|l| {
            let l = l.trim_start_matches(|c: char| c.is_whitespace() || "#*_-".contains(c));
            l.strip_prefix(&n.to_string())
                .is_some_and(|rest| rest.starts_with(['.', ')']))
        })
    };
    let mut numbers: Vec<usize> = taken_back
        .captures_iter(prose)
        .filter_map(|c| {
            c.get(1)
                .or_else(|| c.get(2))?
                .as_str()
                .parse::<usize>()
                .ok()
        })
        .collect();
    numbers.extend(prose.split("\n\n").filter_map(withdrawn_in_paragraph));
    let mut gone: Vec<usize> = numbers
        .into_iter()
        .filter_map(|n| {
            let line = crate::answer::lead::plain(numbered_line(n)?);
            findings.iter().position(|f| {
                let head: String = crate::answer::lead::plain(&f.title)
                    .chars()
                    .take(24)
                    .collect();
                !head.trim().is_empty() && line.contains(head.trim())
            })
        })
        .collect();
    gone.sort_unstable();
    gone.dedup();
    for i in gone.into_iter().rev() {
        findings.remove(i);
    }
}

/// The one numbered point a paragraph names, when the paragraph takes something back in any
/// of the languages we know ("Щодо пункту 2: … я помилився, відкликаю це зауваження", "As for
/// point 2, I was wrong and retract it").
fn withdrawn_in_paragraph(paragraph: &str) -> Option<usize> {
    static POINT: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    static TAKES_BACK: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let point = re(
        &POINT,
        r"(?i)\b(?:point|item|finding|issue|observation|comment|note|punto|ponto|punkt[u]?|pkt|пункт[а-яіїєё]*|замечани[а-яё]*|зауважен[а-яіїє]*|bod[u]?|kohta|punctul)\s*(?:#|№|no\.?\s*)?(\d{1,2})\b",
    );
    let takes_back = re(
        &TAKES_BACK,
        r"(?i)\b(?:i withdraw|i retract|withdrawing|retracting|i take (?:it|that|this) back|відкликаю|отзываю|снимаю (?:это|его)|wycofuję|ziehe [\w ]{0,20}zurück|je retire|retiro|ritiro|stahuji|trekker|vedän takaisin|retrag)|撤回|取り下げ|철회",
    );
    if !takes_back.is_match(paragraph) {
        return None;
    }
    let mut named = point
        .captures_iter(paragraph)
        .filter_map(|c| c.get(1)?.as_str().parse::<usize>().ok());
    let n = named.next()?;
    // (A paragraph that names two points does not say which one it takes back.)
    named.all(|m| m == n).then_some(n)
}

fn from_json(j: json::JsonReview, format: &'static str) -> Critique {
    Critique {
        agreement: j.findings.is_empty() && j.stance == Some(Stance::Approve),
        findings: j.findings,
        missing_alternatives: j.missing_alternatives,
        verdict: j.verdict,
        recommendation: j.recommendation,
        format,
    }
}

/// The contents of ```markdown / ~~~md fences.
fn markdown_fences(text: &str) -> Vec<String> {
    crate::markdown::Doc::parse_mixed(text)
        .fenced()
        .filter(|(_, c)| matches!(c.lang().as_str(), "markdown" | "md"))
        .map(|(_, c)| c.body.clone())
        .collect()
}

/// An answer about one file ("Here's a review of `src/cart/totals.ts`", a single permalink)
/// whose findings give only a line: that file's lines. When the answer itself names no file, or
/// only bare names, the one its chrome names (aider's "Added db/pool.go to the chat.") is the
/// file it is about.
fn default_file(text: &str, raw: &str, roots: &Roots, findings: &mut [Finding]) {
    if findings.iter().all(|f| f.location.is_some()) {
        return;
    }
    let named = |t: &str| -> Vec<String> {
        location::find_all(t, roots)
            .into_iter()
            .filter(|l| !l.path.is_empty() && !l.outside)
            .map(|l| l.path)
            .collect()
    };
    let mut paths = named(text);
    // (Or gives it by its bare name, `cron.py`, which the chrome's full path completes.)
    if paths.iter().all(|p| !p.contains('/')) {
        paths.extend(named(raw));
    }
    paths.sort();
    paths.dedup();
    // `cron.py` beside `src/scheduler/cron.py` is that file, named short.
    let full = paths.clone();
    paths.retain(|p| {
        !full
            .iter()
            .any(|f| f.len() > p.len() && f.ends_with(&format!("/{p}")))
    });
    let [only] = paths.as_slice() else {
        return;
    };
    for f in findings.iter_mut() {
        // (A `#diff-<hash>R61` line stays without a file: the hash names some other file.)
        if f.location.is_none() {
            let said = format!("{}\n{}", f.title, f.body);
            if let Some((s, e)) = location::lines_in(&said) {
                f.location = Some(crate::findings::Location::new(only, Some(s), e));
            }
        }
    }
}

/// A finding placed by a bare file name (`upload.go:54` in a summary table) where the answer
/// names that file in full once (`server/handlers/upload.go`): the full path.
fn full_paths(text: &str, raw: &str, roots: &Roots, findings: &mut [Finding]) {
    if findings
        .iter()
        .all(|f| f.location.as_ref().is_none_or(|l| l.path.contains('/')))
    {
        return;
    }
    // (The chrome's names too: aider's "Added src/scheduler/cron.py to the chat.")
    let mut named: Vec<String> = location::find_all(text, roots)
        .into_iter()
        .chain(location::find_all(raw, roots))
        .filter(|l| l.path.contains('/') && !l.outside)
        .map(|l| l.path)
        .collect();
    named.sort();
    named.dedup();
    for f in findings.iter_mut() {
        let Some(l) = f
            .location
            .as_mut()
            .filter(|l| !l.path.is_empty() && !l.path.contains('/'))
        else {
            continue;
        };
        let suffix = format!("/{}", l.path);
        let mut full = named.iter().filter(|p| p.ends_with(&suffix));
        if let (Some(one), None) = (full.next(), full.next()) {
            l.path.clone_from(one);
        }
    }
}

/// The answer without fenced code and HTML comments (an echoed template's `"approve"` or a
/// code comment's "LGTM" is not the reviewer's verdict).
fn without_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (line, code) in crate::markdown::fenced_lines(text) {
        if !code {
            out.push_str(line);
            out.push('\n');
        }
    }
    // Comments out too, in one pass (an unclosed one runs to the end).
    let mut s = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(start) = rest.find("<!--") {
        s.push_str(&rest[..start]);
        s.push(' ');
        rest = rest[start..]
            .find("-->")
            .map_or("", |e| &rest[start + e + 3..]);
    }
    s.push_str(rest);
    s
}

/// A summary's rated point without a place (Sourcery's "**Blocking issues**: - The export
/// endpoint splices the `sort` parameter into the SQL …") over the one placed comment without a
/// level that details it in the agent prompt's fence (`issue (security): sort comes from the
/// query string …` at `reports/export.py:88`): one finding, at the comment's place, with the
/// summary's level. Paired when they share at least two words of substance and no other
/// such comment does. `visible`: the findings before it are the visible part's, those after it
/// the fence's.
fn level_details_from_summary(findings: &mut Vec<Finding>, visible: usize) {
    let words = |f: &Finding| {
        let mut w: BTreeSet<String> = vocab::content_words(&f.title, 3).into_iter().collect();
        w.extend(vocab::content_words(&f.body, 3));
        w
    };
    let placed = |f: &Finding| f.location.as_ref().is_some_and(|l| l.start_line.is_some());
    let mut s = 0;
    let mut visible = visible;
    while s < visible {
        let summary = &findings[s];
        if placed(summary) || summary.severity == Severity::Unclassified {
            s += 1;
            continue;
        }
        let ws = words(summary);
        let details: Vec<usize> = (visible..findings.len())
            .filter(|&d| {
                let f = &findings[d];
                placed(f)
                    && f.severity == Severity::Unclassified
                    && words(f).intersection(&ws).count() >= 2
            })
            .collect();
        if let [d] = details[..] {
            findings[d].severity = findings[s].severity;
            findings.remove(s);
            visible -= 1;
        } else {
            s += 1;
        }
    }
}

/// One finding said twice in one answer (a summary table and a detailed section, a heading
/// and its restatement) becomes one, keeping the most of what was said.
fn merge_duplicates(findings: Vec<Finding>) -> Vec<Finding> {
    // Each kept finding with its title's words, computed once (a merge keeps the title).
    let mut out: Vec<(Finding, BTreeSet<String>)> = Vec::new();
    for f in findings {
        let words = title_words(&f.title);
        match out.iter_mut().find(|(g, gw)| same(g, gw, &f, &words)) {
            Some((g, _)) => {
                if g.severity == Severity::Unclassified {
                    g.severity = f.severity;
                }
                let unplaced = g.location.as_ref().is_none_or(|l| l.start_line.is_none());
                if unplaced && f.location.is_some() {
                    g.location = f.location;
                }
                if f.body.len() > g.body.len() {
                    g.body = f.body;
                }
                if g.action.is_none() {
                    g.action = f.action;
                }
            }
            None => out.push((f, words)),
        }
    }
    out.into_iter().map(|(f, _)| f).collect()
}

/// A title's opening rule id: capitals, digits, `_` or `-`, with a digit in it (`CKV_AWS_18`,
/// `SNYK-CC-TF-1`, `SC2086`, `E501`).
fn rule_id(title: &str) -> Option<&str> {
    let first = title.split_whitespace().next()?;
    let first = first.trim_end_matches([':', ',']);
    let shaped = first.len() >= 3
        && first.starts_with(|c: char| c.is_ascii_uppercase())
        && first.chars().any(|c| c.is_ascii_digit())
        && first
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '-');
    shaped.then_some(first)
}

fn title_words(title: &str) -> BTreeSet<String> {
    vocab::content_words(title, 2).into_iter().collect()
}

fn same(a: &Finding, wa: &BTreeSet<String>, b: &Finding, wb: &BTreeSet<String>) -> bool {
    // Two levels stated for one place are two findings ("should fix" and "optional" on line
    // 78); a summary row and its detail state the same level, or one of them none.
    let unclassified = |f: &Finding| f.severity == Severity::Unclassified;
    if !unclassified(a) && !unclassified(b) && a.severity != b.severity {
        return false;
    }
    if wa.is_empty() || wb.is_empty() {
        return false;
    }
    // Two scanner rules at one place (`CKV_AWS_18 — …`, `CKV_AWS_144 — …`) are two findings,
    // however alike their wording.
    if let (Some(x), Some(y)) = (rule_id(&a.title), rule_id(&b.title)) {
        if x != y {
            return false;
        }
    }
    let common = wa.intersection(wb).count() as f32;
    let jaccard = common / wa.union(wb).count() as f32;
    let (same_place, exact_place, both_placed) = match (&a.location, &b.location) {
        (Some(x), Some(y)) => {
            let lined = x.start_line.is_some() && y.start_line.is_some();
            let same_path = x.path == y.path;
            (
                same_path && (x.start_line == y.start_line || !lined),
                same_path && lined && x.start_line == y.start_line,
                true,
            )
        }
        _ => (false, false, false),
    };
    let different_place = both_placed && !same_place;
    // The same exact place and a shared word: a summary table row and its detailed section.
    (exact_place && common >= 1.0)
        || (same_place && jaccard >= 0.5)
        || (!different_place && jaccard >= 0.85)
}

#[cfg(test)]
mod aloud_tests;
#[cfg(test)]
mod apps_tests;
#[cfg(test)]
mod chat_tests;
#[cfg(test)]
mod checklist_tests;
#[cfg(test)]
mod defaults_tests;
#[cfg(test)]
mod digest_tests;
#[cfg(test)]
mod followup_tests;
pub mod judge;
#[cfg(test)]
mod layout_tests;
#[cfg(test)]
mod locale_tests;
#[cfg(test)]
mod long_tests;
#[cfg(test)]
mod mail_tests;
#[cfg(test)]
mod patches_tests;
#[cfg(test)]
mod proposals_tests;
#[cfg(test)]
mod prose_tests;
#[cfg(test)]
mod quotes_tests;
#[cfg(test)]
mod rounds_tests;
#[cfg(test)]
mod shape_tests;
#[cfg(test)]
mod table_tests;
#[cfg(test)]
mod terse_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tools_tests;
