//! A level stated in a sentence ("I'd treat this as a blocker", "a minor point", "this is low
//! priority"): how a finding with no marker still says how much it matters. Only a rating
//! counts — a level word framed as one ([`vocab::PROSE_FRAMES`] before it and nothing after it
//! in its clause, or a severity noun after it), not negated, and the only level the finding
//! states; anything less clear leaves the finding unclassified, which every gate stops on.

use crate::answer::vocab;
use crate::findings::Severity;

/// The one level `text` states in its sentences, if exactly one. (Two blocking levels for one
/// point, "must be fixed before merging … a blocker", are its worst: either stops the gate.)
pub fn severity_in(text: &str) -> Option<Severity> {
    one_level(&ratings(text))
}

fn one_level(levels: &[Severity]) -> Option<Severity> {
    match levels {
        [one] => Some(*one),
        more if more
            .iter()
            .all(|s| matches!(s, Severity::P0 | Severity::P1)) =>
        {
            more.iter().min().copied()
        }
        _ => None,
    }
}

/// Every level `text` states in its sentences, each once.
pub fn ratings(text: &str) -> Vec<Severity> {
    ratings_with(text, false)
}

/// [`severity_in`] for a block of a review written as prose, where a level may also be a
/// clause of its own ("Minor, but visible.", "Nit."). (Not for a lead or a heading: there a
/// lone level word is a section's name, which the markers read.)
pub fn block_severity(text: &str) -> Option<Severity> {
    one_level(&ratings_with(text, true))
}

/// [`ratings`] for a block of a review written as prose (see [`block_severity`]).
pub fn block_ratings(text: &str) -> Vec<Severity> {
    ratings_with(text, true)
}

fn ratings_with(text: &str, lone_clauses: bool) -> Vec<Severity> {
    let prose = without_code(text);
    let mut found: Vec<Severity> = Vec::new();
    // A level tag set off in the sentence (`**P0** — data loss on deploy`, `[P1]`) rates it
    // as plainly as a heading would.
    static TAG: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    for c in
        crate::answer::re(&TAG, r"\*\*\s*[Pp]([0-5])\s*\*\*|\[[Pp]([0-5])\]").captures_iter(&prose)
    {
        let n = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
        let s = match n {
            "0" => Severity::P0,
            "1" => Severity::P1,
            "2" => Severity::P2,
            _ => Severity::P3,
        };
        if !found.contains(&s) {
            found.push(s);
        }
    }
    // (A level alone between parentheses or quotes is a name or a tally: "🎯 3 (Moderate)".)
    if lone_clauses {
        let breaks = |c: char| !matches!(c, '(' | ')' | '"' | '“' | '”') && is_clause_break(c);
        for clause in prose.split(breaks) {
            if let Some(s) = alone(&words(clause)) {
                if !found.contains(&s) {
                    found.push(s);
                }
            }
        }
    }
    // (What the sentence said before the clause: a condition there makes a "would be" in
    // the clause imagined.)
    let mut conditioned = false;
    let mut rest = prose.as_str();
    while !rest.is_empty() {
        let end = rest.find(is_clause_break).map_or(rest.len(), |k| k);
        let clause = &rest[..end];
        let brk = rest[end..].chars().next();
        rest = &rest[end + brk.map_or(0, char::len_utf8)..];
        let words = words(clause);
        for i in 0..words.len() {
            if let Some(s) = rating_at(&words, i) {
                if imagined(&words[..i], conditioned) && cleared_later(rest) {
                    continue;
                }
                if fixed_since(&words[i + 1..], rest) {
                    continue;
                }
                if !found.contains(&s) {
                    found.push(s);
                }
            }
        }
        conditioned |= words.iter().any(|w| vocab::PROSE_CONDITIONS.contains(w));
        // (A sentence ends at a stop before a space or a line's end, not at `lease.go`'s dot.)
        let sentence_ends = matches!(brk, Some('!' | '?' | '\n' | '。' | '！' | '？'))
            || (brk == Some('.') && rest.starts_with([' ', '\n']));
        if sentence_ends {
            conditioned = false;
        }
        if let Some(s) = unspaced_rating(clause) {
            if !found.contains(&s) {
                found.push(s);
            }
        }
    }
    found
}

/// A clause's self-rating in Japanese, Chinese or Korean ([`vocab::PROSE_UNSPACED`]), unless the
/// clause denies it.
fn unspaced_rating(clause: &str) -> Option<Severity> {
    if clause.is_ascii() {
        return None;
    }
    let (phrase, sev) = vocab::PROSE_UNSPACED
        .iter()
        .find(|(p, _)| clause.contains(p))?;
    let at = clause.find(phrase)?;
    // (Denials come after the phrase in Japanese and Korean, before it in Chinese: up to four
    // characters before it, and anything after.)
    let from = clause[..at]
        .char_indices()
        .rev()
        .nth(3)
        .map_or(0, |(i, _)| i);
    let around = &clause[from..];
    let denied = vocab::PROSE_UNSPACED_DENIALS
        .iter()
        .any(|d| around.contains(d));
    (!denied).then_some(*sev)
}

/// A clause that is a level and nothing more ("Minor", "Also minor", "Nit", "eher kosmetisch"):
/// the level of a word that means nothing else alone.
fn alone(words: &[&str]) -> Option<Severity> {
    let rest: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| !vocab::PROSE_ALONE_WITH.contains(w))
        .collect();
    if rest.is_empty() {
        return None;
    }
    let said = rest.join(" ");
    vocab::PROSE_LEVELS
        .iter()
        .find(|(level, _, needs_noun)| !needs_noun && *level == said)
        .map(|(_, sev, _)| *sev)
}

/// Whether the words before a level end in a repair's verb or a repair's noun and "for", and
/// then a short noun phrase: the level names what is repaired.
fn repairs_what_follows(before: &[&str]) -> bool {
    // (The repair word is one of the last four words: up to three may follow it.)
    (before.len().saturating_sub(4)..before.len()).any(|at| {
        vocab::PROSE_REPAIRS.contains(&before[at])
            || (before[at] == "for"
                && at > 0
                && vocab::PROSE_REPAIR_NOUNS.contains(&before[at - 1]))
    })
}

fn rating_at(words: &[&str], i: usize) -> Option<Severity> {
    // A level weighed or imagined is not given: "whether it's a P1", "If this were on the
    // request path I'd call it a blocker".
    let before = &words[..i];
    if before.contains(&"whether")
        || (before.contains(&"if") && (before.contains(&"were") || before.contains(&"had")))
    {
        return None;
    }
    // "This pull request fixes the critical bug where…", "the fix for last week's P1": what
    // the change repairs, not what the reviewer rates. Up to three words of a noun phrase
    // ("the", "last week's", "an old") may stand between.
    if repairs_what_follows(before) {
        return None;
    }
    let negated = || {
        words[i.saturating_sub(4)..i]
            .iter()
            .any(|w| vocab::PROSE_NEGATIONS.contains(w))
    };
    let self_rated = vocab::PROSE_SELF_RATED
        .iter()
        .find(|(phrase, _)| starts_with(&words[i..], phrase).is_some());
    if let Some((_, sev)) = self_rated {
        return (!negated()).then_some(*sev);
    }
    vocab::PROSE_LEVELS
        .iter()
        .find_map(|(level, sev, needs_noun)| {
            let len = starts_with(&words[i..], level)?;
            let rest = &words[i + len..];
            // "a blocker in my view": whose view it is does not make it a different word.
            let tail = vocab::PROSE_TAILS
                .iter()
                .any(|t| starts_with(rest, t).is_some_and(|n| n == rest.len()));
            let after = if tail { &rest[rest.len()..] } else { rest };
            // "a P1 and fix it before merging": a connective after a level that means nothing
            // else ends what it rates.
            let after = if vocab::PROSE_UNAMBIGUOUS.contains(level)
                && after
                    .first()
                    .is_some_and(|w| vocab::PROSE_CONNECTIVES.contains(w))
            {
                &after[after.len()..]
            } else {
                after
            };
            let noun_after = after
                .first()
                .is_some_and(|w| vocab::PROSE_NOUNS.contains(w));
            let framed = vocab::PROSE_FRAMES
                .iter()
                .any(|f| ends_with(&words[..i], f));
            // "I'd call this high": a rating verb lets even a bare "high" or "low" end the clause.
            let verb_framed = vocab::PROSE_RATING_VERBS
                .iter()
                .any(|f| ends_with(&words[..i], f));
            let rated =
                noun_after || ((verb_framed || (!needs_noun && framed)) && after.is_empty());
            (rated && !negated()).then_some(*sev)
        })
}

/// A level said in the conditional mood after a condition in the same sentence ("That
/// pattern is only safe if the field is volatile; without it …, that would be a P0"): what the
/// level would be, not what it is, once the text goes on to clear it ([`cleared_later`]).
/// ("If this ships, it would be a P0 outage" with nothing cleared stays a rating.)
fn imagined(before: &[&str], conditioned: bool) -> bool {
    let would = before.iter().rev().take(3).any(|w| *w == "would");
    would && (conditioned || before.iter().any(|w| vocab::PROSE_CONDITIONS.contains(w)))
}

/// Does the text after an imagined level clear it ("It is volatile … The publication is
/// safe.")?
fn cleared_later(rest: &str) -> bool {
    static CLEARED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(&CLEARED, vocab::CLEARED).is_match(rest)
}

/// Does the sentence say the rated issue is fixed now ("The earlier high-severity issue (the
/// lock file) is fixed: …")? A follow-up review's account of the last round, not a rating.
/// `after` is the clause's words after the level, `rest` the text after the clause.
fn fixed_since(after: &[&str], rest: &str) -> bool {
    static FIXED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let fixed = crate::answer::re(
        &FIXED,
        r"(?i)\b(?:is|was|are|were|has been|have been)\s+(?:now\s+|already\s+)?(?:fixed|resolved|addressed)\b",
    );
    let sentence_end = rest
        .find(['!', '?', '\n'])
        .into_iter()
        .chain(rest.find(". "))
        .min()
        .unwrap_or(rest.len());
    let said = format!("{} {}", after.join(" "), &rest[..sentence_end]);
    // ("Hold off merging until one thing is fixed" asks for the fix.)
    static ASKED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let asked = crate::answer::re(
        &ASKED,
        r"(?i)\b(?:until|till|once|when|if|unless)\s+(?:\S+\s+){0,3}$",
    );
    fixed
        .find_iter(&said)
        .any(|m| !asked.is_match(&said[..m.start()]))
}

/// How many words of `words` the phrase covers, if it starts them.
fn starts_with(words: &[&str], phrase: &str) -> Option<usize> {
    let p: Vec<&str> = phrase.split(' ').collect();
    (words.len() >= p.len() && words[..p.len()] == p[..]).then_some(p.len())
}

fn ends_with(words: &[&str], phrase: &str) -> bool {
    let p: Vec<&str> = phrase.split(' ').collect();
    words.len() >= p.len() && words[words.len() - p.len()..] == p[..]
}

/// Clauses end at sentence and clause punctuation and at dashes; a rating is read within one.
fn is_clause_break(c: char) -> bool {
    matches!(
        c,
        '.' | ','
            | ';'
            | ':'
            | '!'
            | '?'
            | '('
            | ')'
            | '—'
            | '–'
            | '\n'
            | '"'
            | '“'
            | '”'
            | '。'
            | '、'
            | '，'
            | '；'
            | '！'
            | '？'
    )
}

/// The words of a lower-cased clause; apostrophes and hyphens split ("it's" → "it s",
/// "non-blocking" → "non blocking").
fn words(clause: &str) -> Vec<&str> {
    clause
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The text without code (fenced blocks, inline spans), lower-cased: a level word in code is
/// an identifier, not a rating.
fn without_code(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (line, code) in crate::markdown::fenced_lines(text) {
        if code {
            out.push('\n');
            continue;
        }
        let mut in_span = false;
        for c in line.chars() {
            if c == '`' {
                in_span = !in_span;
                out.push(' ');
            } else if !in_span {
                out.extend(c.to_lowercase());
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use Severity::*;

    #[test]
    fn ratings_in_sentences_are_read() {
        assert_eq!(
            severity_in("I'd treat this as a blocker, as it's the first thing users see."),
            Some(P0)
        );
        assert_eq!(severity_in("I'd class that as moderate."), Some(P2));
        assert_eq!(
            severity_in("Finally, a minor point — pick one spelling."),
            Some(P2)
        );
        assert_eq!(severity_in("This is low priority; fix it later."), Some(P3));
        assert_eq!(severity_in("That's a major issue for callers."), Some(P1));
        assert_eq!(
            severity_in("Memory grows forever. I'd call this high."),
            Some(P1)
        );
    }

    #[test]
    fn level_words_that_are_not_ratings_are_not_read() {
        // Not framed as a rating, a noun that is not a severity's, negated, in code.
        assert_eq!(severity_in("The critical section is too long."), None);
        assert_eq!(severity_in("This needs a major version bump."), None);
        assert_eq!(severity_in("Under high load the pool runs dry."), None);
        assert_eq!(severity_in("It's not a blocker, just odd."), None);
        assert_eq!(severity_in("There are no major issues here."), None);
        assert_eq!(
            severity_in("Rename `is_minor` so it reads as trivial_flag."),
            None
        );
        assert_eq!(
            severity_in("```\nlog.level = critical\n```\nThe level is wrong."),
            None
        );
    }

    #[test]
    fn two_different_levels_leave_it_unclassified() {
        assert_eq!(
            severity_in("Part of this is a blocker. The rest is a minor point."),
            None
        );
        assert_eq!(
            severity_in("A blocker. Really, a blocker."),
            Some(P0),
            "the same level twice is one level"
        );
    }
}
