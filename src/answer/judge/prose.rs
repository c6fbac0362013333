//! Rulings written as prose: table rows (`| F2 | Valid | P2 (was P1) |`, `| ✅ | F1 |`), bold
//! bullets and numbered lines (`- **F1**: Valid — …`), sentences ("F1 is valid.", "I agree with
//! F2, but it's a P3 at most", "F3: not a real problem"), groups and ranges ("F1 and F2 are
//! both valid", "F1–F3"), other languages, and the recommendation in its common forms.

use std::sync::OnceLock;

use super::{words, Judgement, Ruling, Verdict};
use crate::answer::{re, re_built};
use crate::findings::Severity;
use crate::markdown::{fenced_lines, Doc, Kind};
use crate::pattern::Pattern;

/// What the prose says: rulings in order of appearance (a later one on the same id replaces an
/// earlier one), the letter, and which ids it names at all.
pub(super) fn read(text: &str, ids: &[String]) -> Judgement {
    let prose = plain(text);
    let mut j = Judgement::default();
    for rows in tables(text) {
        table(&rows, &mut j);
    }
    sentences(&prose, &mut j);
    if j.rulings.is_empty() && ids.len() == 1 && mentions(&prose).is_empty() {
        single(&prose, &ids[0], &mut j);
    }
    j.recommendation = recommendation(&prose);
    j.readable = !j.rulings.is_empty() || j.recommendation.is_some();
    j
}

/// The ids the prose names (`F1`, `f2`), upper-cased, in order, once each.
pub(super) fn mentions(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in id_re().find_iter(text) {
        let id = m.as_str().to_ascii_uppercase();
        if !out.contains(&id) {
            out.push(id);
        }
    }
    out
}

fn id_re() -> &'static Pattern {
    static ID: OnceLock<Pattern> = OnceLock::new();
    re(&ID, r"(?i)\bF\d{1,3}\b")
}

/// The answer without code blocks and table rows, emphasis markers gone, curly apostrophes
/// straight.
pub(super) fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (line, code) in fenced_lines(text) {
        if code || line.trim_start().starts_with('|') {
            continue;
        }
        out.push_str(&line.replace("**", "").replace("__", "").replace('’', "'"));
        out.push('\n');
    }
    out
}

fn tables(text: &str) -> Vec<Vec<Vec<String>>> {
    Doc::parse_mixed(text)
        .blocks
        .into_iter()
        .filter_map(|b| match b.kind {
            Kind::Table { rows } => Some(rows),
            _ => None,
        })
        .collect()
}

/// One table: a row per finding, its id in one cell, its verdict in another (a word, or an
/// emoji read through the vocabulary), a corrected severity under a severity header.
fn table(rows: &[Vec<String>], j: &mut Judgement) {
    let Some((header, body)) = rows.split_first() else {
        return;
    };
    let severity_col = header.iter().position(|h| {
        let h = h.to_lowercase();
        [
            "sever",
            "level",
            "priority",
            "重大度",
            "严重",
            "심각도",
            "severidad",
        ]
        .iter()
        .any(|w| h.contains(w))
    });
    for row in body {
        let Some(id_col) = row.iter().position(|c| id_re().is_match(c)) else {
            continue;
        };
        let ids = group_ids(&row[id_col]);
        let verdict = row
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != id_col && Some(*i) != severity_col)
            .find_map(|(_, c)| Verdict::parse(c).or_else(|| first_verdict(c).map(|(v, _)| v)));
        let Some(verdict) = verdict else {
            continue;
        };
        let severity = severity_col
            .and_then(|c| row.get(c))
            .and_then(|c| correction(c));
        let reason = row.last().cloned().unwrap_or_default();
        for id in ids {
            push(j, &id, verdict, severity, &reason);
        }
    }
}

fn push(j: &mut Judgement, id: &str, verdict: Verdict, severity: Option<Severity>, reason: &str) {
    j.rulings.retain(|r| r.id != id);
    j.rulings.push(Ruling {
        id: id.to_string(),
        verdict,
        severity,
        reason: reason.trim().to_string(),
    });
}

/// The ids of a group as written: `F1`, `F1 and F2`, `F1, F2 y F3`, `F1–F3` (a range).
fn group_ids(s: &str) -> Vec<String> {
    static RANGE: OnceLock<Pattern> = OnceLock::new();
    let range = re(
        &RANGE,
        r"(?i)\bF(\d{1,3})\s*(?:[-–—~〜]|to|through|thru|a|까지)\s*F?(\d{1,3})\b",
    );
    let mut out = Vec::new();
    let mut covered = Vec::new();
    for c in range.captures_iter(s) {
        let (a, b): (u32, u32) = (c[1].parse().unwrap_or(0), c[2].parse().unwrap_or(0));
        if a < b && b - a < 50 {
            out.extend((a..=b).map(|n| format!("F{n}")));
            covered.push(c.get(0).expect("match").range());
        }
    }
    for m in id_re().find_iter(s) {
        if !covered.iter().any(|r| r.contains(&m.start())) {
            out.push(m.as_str().to_ascii_uppercase());
        }
    }
    out
}

/// Where a sentence ends: a full stop and a space, a line break, CJK full stops.
fn sentence_end(s: &str) -> usize {
    let mut prev = ' ';
    for (i, c) in s.char_indices() {
        if c == '\n' || c == '。' || c == '！' || c == '？' {
            return i;
        }
        if c.is_whitespace() && matches!(prev, '.' | '!' | '?') {
            return i;
        }
        prev = c;
    }
    s.len()
}

/// Rulings in lines and sentences: each group of ids, then the first verdict phrase after it in
/// its sentence (before the next id), or a phrase that rules on the ids right after it.
fn sentences(prose: &str, j: &mut Judgement) {
    static GROUP: OnceLock<Pattern> = OnceLock::new();
    let group = re(
        &GROUP,
        r"(?i)\bF\d{1,3}\b(?:\s*(?:,|/|&|and|or|y|e|et|und|和|与|及|、|と|및|와|과|[-–—~〜]|to|through)\s*F?\d{1,3}\b)*",
    );
    let groups: Vec<_> = group.find_iter(prose).collect();
    for (k, g) in groups.iter().enumerate() {
        let ids = group_ids(g.as_str());
        let rest = &prose[g.end()..];
        let next = groups.get(k + 1).map_or(prose.len(), |n| n.start()) - g.end();
        let window = &rest[..sentence_end(rest).min(next)];
        let before = prose[..g.start()].to_lowercase();
        let before = before.trim_end();
        let said = words::RULING_BEFORE_ID
            .iter()
            .find(|(p, _)| before.ends_with(p))
            .map(|(_, v)| *v)
            .or_else(|| first_verdict(window).map(|(v, _)| v));
        let Some(verdict) = said else {
            continue;
        };
        let sentence = &rest[..sentence_end(rest)];
        let severity = correction(sentence);
        for id in ids {
            push(j, &id, verdict, severity, sentence);
        }
    }
}

/// A round of one finding: a line that opens with a verdict ("Valid — the lock file …") is its
/// ruling.
fn single(prose: &str, id: &str, j: &mut Judgement) {
    for line in prose.lines() {
        let t = line.trim_start_matches(|c: char| !c.is_alphanumeric() && !"✅❌❓".contains(c));
        if let Some((v, 0)) = first_verdict(t) {
            push(j, &id.to_ascii_uppercase(), v, correction(t), t);
            return;
        }
    }
}

/// The first verdict phrase in `s` and where it starts; of two at one place the longer
/// ("not a real problem" over "not").
fn first_verdict(s: &str) -> Option<(Verdict, usize)> {
    let lower = s.to_lowercase();
    let mut best: Option<(usize, usize, Verdict)> = None;
    for (w, v) in words::RULING_WORDS {
        let mut from = 0;
        while let Some(p) = lower[from..].find(w) {
            let at = from + p;
            if stands_alone(&lower, at, w.len()) {
                let better = best.is_none_or(|(b, len, _)| at < b || (at == b && w.len() > len));
                if better {
                    best = Some((at, w.len(), *v));
                }
                break;
            }
            from = at + w.len();
        }
    }
    best.map(|(at, _, v)| (v, at))
}

/// A phrase stands as a word when no ASCII letter or digit touches it (CJK and Hangul phrases
/// run into the words around them: 유효하지만).
fn stands_alone(s: &str, at: usize, len: usize) -> bool {
    let touching =
        |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || "áéíóúñ".contains(c));
    !touching(s[..at].chars().next_back()) && !touching(s[at + len..].chars().next())
}

/// A severity the judge sets: the first `P0`–`P3` in `s` that is not the old level ("was P1",
/// "no P1", "from P1") or a restatement ("P1 as reported").
pub(super) fn correction(s: &str) -> Option<Severity> {
    static LEVEL: OnceLock<Pattern> = OnceLock::new();
    // ASCII word edges: `P3로` is P3 in Korean.
    let level = re(&LEVEL, r"(?-u:\b)[Pp]([0-3])(?-u:\b)");
    let lower = s.to_lowercase();
    for c in level.captures_iter(s) {
        let m = c.get(0).expect("match");
        let before = lower[..m.start()].trim_end();
        let after = lower[m.end()..].trim_start();
        let old = [
            "was",
            "no",
            "not",
            "from",
            "instead of",
            "rather than",
            "of",
        ]
        .iter()
        .any(|w| before.ends_with(w) && stands_alone(before, before.len() - w.len(), w.len()));
        let restated = [
            "as reported",
            "as given",
            "as filed",
            "as stated",
            "as the reviewer",
        ]
        .iter()
        .any(|w| after.starts_with(w));
        if !old && !restated {
            return crate::answer::vocab::parse_severity(&format!("P{}", &c[1]));
        }
    }
    None
}

/// The letter: after a recommending word ("Recommendation: **C**", "I recommend option (B)",
/// "推奨：C"), or in brackets in a line that recommends ("I'd go with the reviewer's version
/// (B)"); failing that, the words of exactly one option ("I'd stop the debate here": E).
fn recommendation(prose: &str) -> Option<char> {
    static AFTER: OnceLock<Pattern> = OnceLock::new();
    static BRACKETED: OnceLock<Pattern> = OnceLock::new();
    let words = words::RECOMMENDATION_WORDS
        .iter()
        .map(|w| regex::escape(w))
        .collect::<Vec<_>>()
        .join("|");
    let after = re_built(&AFTER, || {
        format!(
            r"(?i:{words})[\s:：*_\-—–(（\[]{{0,8}}(?i:option\s*)?[(（\[]?([A-E])(?:[^A-Za-z0-9]|$)"
        )
    });
    let bracketed = re(&BRACKETED, r"[(（]([A-E])[)）]");
    let mut found = None;
    for line in prose.lines() {
        if let Some(c) = after.captures(line) {
            found = c[1].chars().next();
        } else {
            let lower = line.to_lowercase();
            if words::RECOMMENDATION_WORDS
                .iter()
                .any(|w| lower.contains(w))
            {
                if let Some(c) = bracketed.captures(line) {
                    found = c[1].chars().next();
                }
            }
        }
        if found.is_some() {
            return found;
        }
    }
    let lower = prose.to_lowercase();
    let mut named: Vec<char> = words::RECOMMENDATION_PHRASES
        .iter()
        .filter(|(p, _)| lower.contains(p))
        .map(|(_, c)| *c)
        .collect();
    named.sort_unstable();
    named.dedup();
    match named.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}
