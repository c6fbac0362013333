//! The last two stages for an answer the reader cannot structure: a normaliser call's restated
//! answer, accepted only when it is grounded in what the reviewer wrote, and otherwise the raw
//! answer split into unclassified findings by block, in full.
//!
//! The normaliser is a model too, and often the author's: it may "helpfully" add a finding, pick
//! a mild severity or invent a line. So every restated finding must use the answer's own words
//! (most of its title's content words appear in the raw text), name only files and lines the raw
//! text names, and keep a severity only when the raw text states one somewhere; a restatement
//! that drops everything the answer said is not accepted either.

use std::collections::HashSet;

use crate::answer::asides;
use crate::answer::lead::plain;
use crate::answer::location::{self, Roots};
use crate::answer::unit::clean;
use crate::answer::vocab;
use crate::findings::{Critique, Finding, Severity, Source};
use crate::pattern::Pattern;

/// Share of a restated title's content words that must appear in the raw answer.
const GROUNDED_WORDS: f32 = 0.6;

/// Why a restated finding is not grounded in `raw`, if it is not. Words, file names and line
/// numbers are compared whole ("race" is not in "trace", line 4 is not in "404").
pub(crate) fn ungrounded(f: &Finding, raw: &str) -> Option<String> {
    let raw_words: HashSet<String> = vocab::content_words(raw, 3).into_iter().collect();
    let words = vocab::content_words(&f.title, 3);
    if !words.is_empty() {
        let present = words.iter().filter(|w| raw_words.contains(*w)).count();
        if (present as f32) < GROUNDED_WORDS * words.len() as f32 {
            return Some("a restated finding is not in the answer's own words".into());
        }
    }
    if let Some(l) = &f.location {
        let name = l.path.rsplit('/').next().unwrap_or(&l.path);
        if !names(raw, name) {
            return Some("a restated finding names a file the answer does not".into());
        }
        if let Some(s) = l.start_line {
            let s = s.to_string();
            if !raw.split(|c: char| !c.is_ascii_digit()).any(|n| n == s) {
                return Some("a restated finding names a line the answer does not".into());
            }
        }
    }
    None
}

/// Does `text` name the file `name` as a whole word (`src/a.rs`, `a.rs:3`), not as part of
/// another (`data.rs` does not name `a.rs`)?
fn names(text: &str, name: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.');
    !name.is_empty()
        && text.match_indices(name).any(|(at, _)| {
            let before = text[..at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            !before.is_some_and(part) && !after.is_some_and(|c| part(c) && c != '.')
        })
}

/// Does an answer raise nothing: no words of a problem, no line of code pointed at? Or, read
/// by paragraph, does it approve in so many words, each paragraph being a verdict, praise, a
/// description, a worry it cleared, or a point it withdrew or says it does not ask for?
pub fn raises_nothing(raw: &str, roots: &Roots) -> bool {
    let (raw, _) = crate::answer::capped(raw);
    let prepared = crate::answer::prepare::prepare(raw);
    let raw = prepared.as_ref();
    if silent(raw, roots) {
        return true;
    }
    // (Not when it rates anything anywhere: "c'est bloquant" in a last paragraph that also
    // says the rest can be merged.)
    let blocks = blocks(raw);
    blocks.len() > 1
        && crate::answer::prose::block_ratings(raw).is_empty()
        && crate::answer::verdict::approves(raw)
        && !crate::answer::verdict::conditional(raw)
        && (0..blocks.len()).all(|i| {
            quiet(&blocks[i], roots) || blocks.get(i + 1).is_some_and(|next| retracts(next))
        })
}

/// The whole-text test of [`raises_nothing`].
fn silent(raw: &str, roots: &Roots) -> bool {
    let places = location::find_all(raw, roots);
    // Prose about files that is not in English (our words of concern are English) and does
    // not approve in words we know: its silence is not known to be nothing (a Turkish table of
    // findings whose columns and levels the reader has no words for).
    // (A line alone counts: the file may be named only in a tool's chrome.)
    let unread = (!places.is_empty() || location::lines_in(raw).is_some())
        && (mostly_non_latin(raw) || foreign_prose(raw))
        && !crate::answer::verdict::approves(raw)
        && !crate::answer::verdict::found_nothing(raw);
    // An answer that asks for changes ("So: revise, mostly for point 1.", "Verdict: request
    // changes") has raised something, whether or not its words of concern are ours.
    let objects = crate::answer::verdict::objection(raw).is_some()
        || crate::answer::verdict::stated(raw) == Some(vocab::Stance::Object);
    !unread
        && !objects
        && !crate::answer::verdict::raises_concern(raw)
        && !crate::answer::verdict::conditional(raw)
        && !crate::answer::verdict::approves_the_rest(raw)
        // A level stated in any language it has words for ("Это блокер") raises something.
        && crate::answer::prose::block_ratings(raw).is_empty()
        && !places.iter().any(|l| l.start_line.is_some())
        && (location::lines_in(raw).is_none() || places.is_empty())
}

/// A paragraph of an approving answer that asks for nothing: silent, a verdict or praise, a
/// worry it cleared, a point it withdrew, an idea it says it is not asking for, or a question
/// asked only to know.
fn quiet(block: &str, roots: &Roots) -> bool {
    let unasked = || {
        static UNASKED: Pattern = Pattern::new(vocab::UNASKED);
        UNASKED.is_match(block) && crate::answer::prose::block_ratings(block).is_empty()
    };
    let just_asking = || {
        static ASKING: Pattern = Pattern::new(vocab::JUST_ASKING);
        ASKING.is_match(block)
            && !crate::answer::verdict::raises_concern(block)
            && crate::answer::prose::block_ratings(block).is_empty()
    };
    retracts(block)
        || crate::answer::verdict::ruled_out(block)
        || just_asking()
        || verdict_only(block, roots)
        || praise_only(block, roots)
        || unasked()
        // Our words of concern are English: a paragraph in another language that points at a
        // file or a line may raise one we cannot read.
        || (silent(block, roots)
            && (english(block)
                || (location::find_all(block, roots).is_empty()
                    && location::lines_in(block).is_none())))
}

/// Does `block` end by withdrawing what it (or the paragraph before it) raised ("So the concern
/// doesn't hold — withdrawn.", "Scratch that.")?
fn retracts(block: &str) -> bool {
    static RETRACTED: Pattern = Pattern::new(
        r"(?i)\b(?:withdrawn|retracted|(?:concern|worry|point|objection|that) (?:does not|doesn't) hold|false alarm|nothing to do (?:there|here))\b",
    );
    let last = block.trim_end().rsplit(". ").next().unwrap_or(block);
    vocab::is_withdrawn(last) || RETRACTED.is_match(last)
}

/// Does `text` suggest a change ("This would be easier to read as a match", "Consider …")? A
/// suggestion is a finding (a nit) even where no word of concern is said.
fn suggests(text: &str) -> bool {
    static SUGGESTS: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(
        &SUGGESTS,
        r"(?i)\b(?:would be (?:easier|better|cleaner|clearer|simpler|safer|nicer)|could (?:use|be|drop|move|go)|consider|might want|i(?:'d| would) (?:suggest|prefer|rename|move|split|use)|suggest|prefer|rather than|worth (?:adding|a test|a comment|renaming|extracting))\b",
    )
    .is_match(text)
}

/// Is `text` written in English: about one word in eight of it one of English's commonest
/// function words, leaving out those other languages spell alike (Czech "a", "to"; German
/// "in", "an"; Polish "on")?
fn english(text: &str) -> bool {
    const COMMON: &[&str] = &[
        "the", "is", "are", "was", "and", "of", "for", "it", "that", "this", "with", "be", "from",
        "not", "but", "which",
    ];
    let words: Vec<String> = text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let common = words
        .iter()
        .filter(|w| COMMON.contains(&w.as_str()))
        .count();
    !words.is_empty() && common * 8 >= words.len()
}

/// Is `text`'s prose (what is left without code blocks, code spans and JSON lines) long enough
/// to tell, and not English? Code and a tool's JSON events say nothing either way.
fn foreign_prose(text: &str) -> bool {
    static CODE_SPAN: Pattern = Pattern::new(r"`[^`\n]*`");
    let mut prose = String::new();
    for (line, code) in crate::markdown::fenced_lines(text) {
        let t = line.trim_start();
        if !code && !t.starts_with('{') && !t.starts_with('[') {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    // Words only: a path, a link or an identifier (`src/util/time.ts`, `parse_row`) is neither.
    let prose = CODE_SPAN.replace_all(&prose, " ");
    let words: Vec<&str> = prose
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphabetic()))
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_alphabetic() || c == '\''))
        .collect();
    words.len() >= 12 && !english(&words.join(" "))
}

/// Are most of the letters outside code spans not Latin ones?
fn mostly_non_latin(text: &str) -> bool {
    let mut in_code = false;
    let (mut latin, mut other) = (0usize, 0usize);
    for c in text.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code && c.is_alphabetic() {
            if c.is_ascii() || ('\u{00C0}'..='\u{024F}').contains(&c) {
                latin += 1;
            } else {
                other += 1;
            }
        }
    }
    other > latin
}

/// Does the raw answer state any severity: a marker where reviewers put one (a line's lead, a
/// tag, a `Severity:` field — read as the reader reads them), or a rating in a sentence? A
/// normaliser's levels are believed only then; "the server returns an error" states none.
pub(crate) fn states_severity(raw: &str) -> bool {
    raw.lines().any(|l| {
        crate::answer::markers::read_lead(l)
            .severity
            .is_some_and(|s| s.1 == vocab::Strength::Level)
    }) || !crate::answer::prose::block_ratings(raw).is_empty()
}

/// The raw answer as unclassified findings, one per block (a paragraph or a list, with a code
/// block kept with the text before it, a heading with the text after it), in full.
pub fn raw_blocks(raw: &str, roots: &Roots) -> Critique {
    // Without the model's thinking or the wrapper around the answer, and no more of it than
    // the reader reads (the cap is said in the reading's notes).
    let (raw, _) = crate::answer::capped(raw);
    let prepared = crate::answer::prepare::prepare(raw);
    let raw = prepared.as_ref();
    let merged = blocks(raw);
    let inherited = inherited_files(&merged, roots);
    // A block that only gives a verdict ("Everything else looks good.", "Approve once the
    // migration is reversible.") raises nothing of its own; the raw answer keeps it anyway.
    // Unless the condition is all the answer says ("I'd approve once `down()` is written"): then
    // the condition is the finding. A greeting, a sign-off, a lead-in to the points ("Two
    // remarks:") and what the reviewer did not do ("I didn't run `helm template`") are no
    // points either.
    let mut kept: Vec<&String> = merged
        .iter()
        .enumerate()
        .filter(|(i, b)| !aside(b, i + 1 == merged.len(), roots))
        .map(|(_, b)| b)
        .collect();
    if kept.is_empty() {
        kept = merged
            .iter()
            .filter(|b| crate::answer::verdict::conditional(b))
            .collect();
    }
    // Beside a block that raises something (a concern, a level, a line of code), an English one
    // that raises nothing is the reviewer's description or praise ("The streaming is efficient
    // …"), not a second finding. Alone, or in a language whose words of concern we do not have,
    // every block stays.
    // (After the first point, a block that points at a file or a line is a point in words we
    // have no cue for: "nothing reads it anymore", "the upload will be rejected".)
    if let Some(first) = kept.iter().position(|b| !raises_nothing(b, roots)) {
        let points_at =
            |b: &str| !location::find_all(b, roots).is_empty() || location::lines_in(b).is_some();
        let mut i = 0;
        kept.retain(|b| {
            i += 1;
            let after_first = i - 1 > first;
            !(raises_nothing(b, roots) && english(b) && !suggests(b))
                || (after_first && points_at(b))
        });
    }
    drop_summary_and_sign_off(&mut kept, roots);
    // A paragraph that announces the points after it and their level ("Rien de grave : deux
    // remarques mineures et un pinaillage.", "A couple of small things:") gives them that level
    // when they state none, and is no point of its own.
    let mut announced: Option<Severity> = None;
    let mut findings = Vec::new();
    for (i, b) in kept.iter().enumerate() {
        if i + 1 < kept.len() {
            // ("有一个地方我觉得合并前必须修复：" rates the point after it the same way.)
            let rated_lead_in = || {
                asides::lead_in(b, roots)
                    .then(|| crate::answer::prose::block_severity(b))
                    .flatten()
            };
            if let Some(level) = announcement(b, roots).or_else(rated_lead_in) {
                announced = Some(level);
                continue;
            }
        }
        // "Suggested change: …" after a point is that point's fix, unless it names a file of
        // its own.
        if asides::fix_for_previous(b) && location::find_all(b, roots).is_empty() {
            if let Some(prev) = findings.last_mut() {
                let prev: &mut Finding = prev;
                prev.body = format!("{}\n\n{}", prev.body, b.trim());
                prev.action.get_or_insert_with(|| b.trim().to_string());
                continue;
            }
        }
        let level = crate::answer::prose::block_severity(b)
            .or(announced)
            .unwrap_or(Severity::Unclassified);
        let mut f = block_finding(b, level, roots);
        let at = merged.iter().position(|m| std::ptr::eq(m, *b));
        if let Some(file) = at.and_then(|i| inherited[i].as_deref()) {
            asides::inherit(&mut f, b, file);
        }
        findings.push(f);
    }
    // A block that moves its own level ("I'm lowering the priority of this comment to
    // medium") is at the level it moves to.
    crate::answer::rerate::rerate("", &mut findings);
    Critique {
        findings,
        ..Critique::empty("raw")
    }
}

/// Every block of `raw` as [`raw_blocks`] would make it a finding, before it drops any as no
/// point (a verdict, praise, a lead-in, a summary): what [`raw_blocks`] returns is among these.
/// Cheap next to it: no test of what a block says, so none of the many patterns those tests
/// compile.
pub fn every_block(raw: &str, roots: &Roots) -> Vec<Finding> {
    let (raw, _) = crate::answer::capped(raw);
    let prepared = crate::answer::prepare::prepare(raw);
    let merged = blocks(prepared.as_ref());
    let inherited = inherited_files(&merged, roots);
    merged
        .iter()
        .zip(&inherited)
        .map(|(b, file)| {
            let mut f = block_finding(b, Severity::Unclassified, roots);
            if let Some(file) = file.as_deref() {
                asides::inherit(&mut f, b, file);
            }
            f
        })
        .collect()
}

/// Is the block no point: a verdict or praise alone, a retraction, courtesy, what the review
/// did not do, a list of sources, a promise of the next step, or (not last) a lead-in to the
/// points after it?
fn aside(b: &str, last: bool, roots: &Roots) -> bool {
    verdict_only(b, roots)
        || praise_only(b, roots)
        || retracts(b)
        || asides::courtesy(b)
        || asides::scope(b)
        || asides::own_limits(b, roots)
        || asides::sources(b)
        || asides::follow_up(b, roots)
        || (!last && asides::lead_in(b, roots) && crate::answer::prose::block_ratings(b).is_empty())
}

/// For each block, the file named last in the blocks before it (a prose review names a file
/// once, then says "line 121", "in the same file").
fn inherited_files(blocks: &[String], roots: &Roots) -> Vec<Option<String>> {
    let mut last: Option<String> = None;
    blocks
        .iter()
        .map(|b| {
            let here = last.clone();
            if let Some(l) = location::find_all(b, roots).into_iter().last() {
                last = Some(l.path);
            }
            here
        })
        .collect()
}

/// Beside points that give a place and a level, in any language, the opening paragraph and a
/// short closing line that give neither ("Le eché un vistazo al diff…", "Nada más.") are the
/// reviewer's summary and sign-off, not points of their own.
fn drop_summary_and_sign_off(kept: &mut Vec<&String>, roots: &Roots) {
    let unmarked = |b: &str| {
        location::find_all(b, roots).is_empty()
            && location::lines_in(b).is_none()
            && crate::answer::prose::block_ratings(b).is_empty()
            && announcement(b, roots).is_none()
    };
    let rated_and_placed = |b: &str| {
        !crate::answer::prose::block_ratings(b).is_empty()
            && !location::find_all(b, roots).is_empty()
    };
    if kept.iter().any(|b| rated_and_placed(b)) {
        let first = kept.first().map(|b| b.as_ptr());
        kept.retain(|b| {
            let opener_or_sign_off = Some(b.as_ptr()) == first || b.trim().chars().count() < 40;
            !(opener_or_sign_off && unmarked(b))
        });
    }
}

/// One raw block as an unclassified-unless-rated finding: its first line the title, the block
/// the body, its first place (with the line it mentions) the location.
fn block_finding(b: &str, level: Severity, roots: &Roots) -> Finding {
    let first = b.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let mut title: String = plain(first.trim_start_matches(['#', ' ', '-', '*']));
    if title.chars().count() > 120 {
        title = title.chars().take(120).collect::<String>() + "…";
    }
    let mut f = Finding::new(level, &clean(&title));
    f.body = clean(b);
    f.location = location::find_all(b, roots).into_iter().next();
    if let Some(l) = &mut f.location {
        if l.start_line.is_none() {
            if let Some((s, e)) = location::lines_in(b) {
                l.start_line = Some(s);
                l.end_line = e.filter(|e| *e >= s);
            }
        }
    }
    f.source = Source::Raw;
    f
}

/// The level a short paragraph announces for a count of points after it, if it is such an
/// announcement: a count, a level, no place.
fn announcement(block: &str, roots: &Roots) -> Option<Severity> {
    static COUNT: Pattern = Pattern::new(
        r"(?i)\b(?:two|three|four|five|a couple|a few|several|deux|trois|quatre|quelques|zwei|drei|vier|ein paar|einige|dos|tres|cuatro|dois|duas|três|quatro|algun[oa]s|alguns|algumas|due|tre|quattro|alcun[ie])\b|两|兩|三个|三個|几个|幾個|二つ|三つ|[2-9]つ|[2-9]点|いくつか|두 |세 |몇 ",
    );
    if block.chars().count() > 300
        || !COUNT.is_match(block)
        || !location::find_all(block, roots).is_empty()
        || location::lines_in(block).is_some()
    {
        return None;
    }
    crate::answer::prose::block_ratings(block).first().copied()
}

/// The answer's blocks: its paragraphs, a heading with the paragraph under it, a code block
/// with the text before it.
fn blocks(raw: &str) -> Vec<String> {
    let mut blocks: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut heading_pending = String::new();
    for (line, fence) in crate::markdown::fenced_lines(raw) {
        let t = line.trim_start();
        if !fence && t.is_empty() {
            if !cur.trim().is_empty() {
                blocks.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if !fence && t.starts_with('#') && cur.trim().is_empty() {
            heading_pending.push_str(line);
            heading_pending.push('\n');
            continue;
        }
        if !heading_pending.is_empty() {
            cur.push_str(&std::mem::take(&mut heading_pending));
        }
        cur.push_str(line);
        cur.push('\n');
    }
    if !cur.trim().is_empty() {
        blocks.push(cur);
    }
    if !heading_pending.trim().is_empty() {
        blocks.push(heading_pending);
    }
    // A code block alone belongs with the text before it.
    let mut merged: Vec<String> = Vec::new();
    for b in blocks {
        let code_only = crate::markdown::fenced_lines(&b)
            .iter()
            .find(|(l, _)| !l.trim().is_empty())
            .is_some_and(|(_, code)| *code);
        match merged.last_mut() {
            Some(prev) if code_only => {
                prev.push('\n');
                prev.push_str(&b);
            }
            _ => merged.push(b),
        }
    }
    merged
}

/// A block that only praises ("Nice work overall. The new tests are thorough.").
fn praise_only(block: &str, roots: &Roots) -> bool {
    static PRAISE: Pattern = Pattern::new(
        r"(?i)\b(nice|great|good|thorough|clean|clear|well|happy|thanks|thank you|solid|excellent|neat|easier)\b",
    );
    // "This would be easier to read as a match", "the naming isn't clear": a suggestion or a
    // negation next to the kind word is criticism.
    static CRITIQUE: Pattern = Pattern::new(
        r"(?i)\b(would|could|should|might|consider|instead|rather|not|n't|isn|too|but)\b",
    );
    PRAISE.is_match(block)
        && !CRITIQUE.is_match(block)
        && !crate::answer::verdict::raises_concern(block)
        && !location::find_all(block, roots)
            .iter()
            .any(|l| l.start_line.is_some())
        && location::lines_in(block).is_none()
}

/// Every sentence of `block` is an approval or verdict sentence, with no concern and no place.
fn verdict_only(block: &str, roots: &Roots) -> bool {
    // Sentences end at `. `, `! `, `? ` or a line break (not at the dot of `README.md`).
    let sentences: Vec<&str> = block
        .split(". ")
        .flat_map(|s| s.split("! "))
        .flat_map(|s| s.split("? "))
        .flat_map(|s| s.split('\n'))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    !sentences.is_empty()
        && !location::find_all(block, roots)
            .iter()
            .any(|l| l.start_line.is_some())
        && !crate::answer::verdict::raises_concern(block)
        && sentences
            .iter()
            .all(|s| crate::answer::verdict::mentions_approval(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::{json, Protocol};
    use serde_json::Value;

    /// A restatement's findings, if every one is grounded in `raw` (the one-way check the review
    /// loop's two-way [`crate::answer::restate::check`] builds on); `Err` says why not.
    fn grounded(
        raw: &str,
        answer_text: &str,
        structured: Option<&Value>,
        protocol: Protocol,
        roots: &Roots,
    ) -> Result<Critique, String> {
        let prepared = crate::answer::prepare::prepare(raw);
        let raw = prepared.as_ref();
        // (Parsed here, not through `restate`, which builds on this module.)
        let review = structured
            .and_then(|v| json::review(v, protocol, roots))
            .or_else(|| json::best_review(&json::json_blocks(answer_text), protocol, roots))
            .ok_or_else(|| "its answer had no JSON review in it".to_string())?;
        if review.findings.is_empty() {
            // "Nothing was raised" is believed only of an answer that raises nothing in words
            // either: no problem language, no line of code pointed at.
            if raises_nothing(raw, roots) {
                return Ok(Critique::empty("normaliser"));
            }
            return Err(
                "it restated the answer with no findings, but the answer raises something".into(),
            );
        }
        let keep_severity = states_severity(raw);
        let mut findings = Vec::new();
        for mut f in review.findings {
            if let Some(why) = ungrounded(&f, raw) {
                return Err(why);
            }
            if !keep_severity {
                f.severity = Severity::Unclassified;
            }
            f.source = Source::Normaliser;
            findings.push(f);
        }
        Ok(Critique {
            findings,
            missing_alternatives: review.missing_alternatives,
            verdict: review.verdict,
            recommendation: review.recommendation,
            agreement: false,
            format: "normaliser",
        })
    }

    const RAW: &str = "Overall the structure is fine, but the new parser in src/parse.rs will \
crash on empty input at line 42 because it indexes the first byte.\n\nAlso the retry loop never \
gives up when the server keeps failing.\n";

    fn restated(findings: serde_json::Value) -> String {
        format!(
            "```json\n{}\n```",
            serde_json::json!({"verdict": "revise", "summary": "s", "findings": findings})
        )
    }

    #[test]
    fn a_faithful_restatement_is_accepted_without_an_invented_severity() {
        let answer = restated(serde_json::json!([
            {"severity": "P2", "title": "Parser will crash on empty input", "file": "src/parse.rs",
             "start_line": 42, "end_line": null, "body": "indexes the first byte", "action": ""},
            {"severity": "P3", "title": "Retry loop never gives up", "file": null,
             "start_line": null, "end_line": null, "body": "", "action": ""}
        ]));
        let c = grounded(RAW, &answer, None, Protocol::Cr, &Roots::default()).unwrap();
        assert_eq!(c.findings.len(), 2);
        // The raw answer stated no severity: the normaliser's guesses are not kept.
        assert!(c
            .findings
            .iter()
            .all(|f| f.severity == Severity::Unclassified));
        assert!(c.findings.iter().all(|f| f.source == Source::Normaliser));
        assert_eq!(
            c.findings[0].location.as_ref().unwrap().start_line,
            Some(42)
        );
    }

    #[test]
    fn invented_findings_files_lines_and_empty_restatements_are_refused() {
        let invented = restated(serde_json::json!([{"severity": "P1",
            "title": "SQL injection through the search endpoint", "file": null, "start_line": null,
            "end_line": null, "body": "", "action": ""}]));
        assert!(grounded(RAW, &invented, None, Protocol::Cr, &Roots::default()).is_err());
        let wrong_line = restated(serde_json::json!([{"severity": "P1",
            "title": "Parser will crash on empty input", "file": "src/parse.rs", "start_line": 77,
            "end_line": null, "body": "", "action": ""}]));
        assert!(
            grounded(RAW, &wrong_line, None, Protocol::Cr, &Roots::default())
                .unwrap_err()
                .contains("a line the answer does not")
        );
        let empty = restated(serde_json::json!([]));
        assert!(grounded(RAW, &empty, None, Protocol::Cr, &Roots::default()).is_err());
        // An answer that raises nothing may be restated as nothing.
        let summary = "The change moves the loader to pydantic settings and adds tests.";
        let c = grounded(summary, &empty, None, Protocol::Cr, &Roots::default()).unwrap();
        assert!(c.findings.is_empty());
    }

    #[test]
    fn raw_blocks_keep_everything() {
        let c = raw_blocks(
            "# Thoughts\nFirst point.\n\nSecond point:\n```rust\nlet x = 1;\n\nlet y = 2;\n```\n",
            &Roots::default(),
        );
        assert_eq!(c.findings.len(), 2);
        assert_eq!(c.findings[0].title, "Thoughts");
        assert!(c.findings[0].body.contains("First point."));
        assert!(c.findings[1].body.contains("let y = 2;"));
        assert!(c
            .findings
            .iter()
            .all(|f| f.severity == Severity::Unclassified && f.source == Source::Raw));
    }

    #[test]
    fn a_level_a_block_states_in_a_sentence_is_kept() {
        let raw = "The cache in src/theme.ts is read before it is loaded at line 88; I'd treat \
this as a blocker.\n\nThe helper name mixes spellings, a minor point.\n";
        let c = raw_blocks(raw, &Roots::default());
        let levels: Vec<Severity> = c.findings.iter().map(|f| f.severity).collect();
        assert_eq!(levels, [Severity::P0, Severity::P2]);
        // The raw answer rates its points in words, so the normaliser's levels stand.
        let answer = restated(serde_json::json!([
            {"severity": "P0", "title": "Cache read before it is loaded", "file": "src/theme.ts",
             "start_line": 88, "end_line": null, "body": "", "action": ""}
        ]));
        let c = grounded(raw, &answer, None, Protocol::Cr, &Roots::default()).unwrap();
        assert_eq!(c.findings[0].severity, Severity::P0);
    }

    #[test]
    fn an_answer_that_is_only_a_condition_keeps_it() {
        let raw = "I'd approve this once `db/0042.py` is reversible: `downgrade()` is just \
`pass`. Everything else looks good.\n";
        assert!(!raises_nothing(raw, &Roots::default()));
        let c = raw_blocks(raw, &Roots::default());
        assert_eq!(c.findings.len(), 1);
        assert_eq!(c.findings[0].location.as_ref().unwrap().path, "db/0042.py");
        // Beside a block that raises the problem, the condition alone is a verdict.
        let raw = "Approve once the migration is reversible.\n\n`db/0042.py` drops the table \
with no down step.\n";
        assert_eq!(raw_blocks(raw, &Roots::default()).findings.len(), 1);
    }

    #[test]
    fn grounding_compares_whole_words_numbers_and_stated_levels() {
        let raw = "The handler in src/api.rs returns an error page for 404 responses \
instead of the JSON body the client expects.\n";
        let restated = |sev: &str, line: u32| {
            restated(
                serde_json::json!([{"severity": sev, "title": "Handler returns an error \
page instead of the JSON body", "file": "src/api.rs", "start_line": line, "end_line": null,
                "body": "", "action": ""}]),
            )
        };
        // "an error" is not a level: the normaliser's P0 is not kept.
        let c = grounded(
            raw,
            &restated("P0", 404),
            None,
            Protocol::Cr,
            &Roots::default(),
        )
        .unwrap();
        assert_eq!(c.findings[0].severity, Severity::Unclassified);
        // Line 4 is not in "404".
        let e = grounded(
            raw,
            &restated("P2", 4),
            None,
            Protocol::Cr,
            &Roots::default(),
        );
        assert!(e.unwrap_err().contains("a line the answer does not"));
        // A file is named whole: "i.rs" is not in "src/api.rs".
        let other = restated("P2", 404).replace("src/api.rs", "i.rs");
        assert!(grounded(raw, &other, None, Protocol::Cr, &Roots::default()).is_err());
    }

    #[test]
    fn raw_blocks_leave_out_the_models_thinking_and_keep_criticism() {
        let raw = "<think>maybe the loop is fine</think>\nThe loop in src/a.rs never ends when \
the queue is empty.\n\nThis would be easier to read as a match.\n\nNice work overall.\n";
        let c = raw_blocks(raw, &Roots::default());
        let titles: Vec<&str> = c.findings.iter().map(|f| f.title.as_str()).collect();
        assert_eq!(titles.len(), 2, "{titles:?}");
        assert!(titles[0].starts_with("The loop"));
        assert!(titles[1].starts_with("This would be easier"));
    }
}
