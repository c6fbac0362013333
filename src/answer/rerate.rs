//! A reviewer that changes its mind about a level later in its own answer ("Wait — I need to
//! correct the second point … That's not a P3, it's a **P1**", "Downgrading this to **P3**:
//! worth a clamp, not urgent"): the later word is the reviewer's, and it is the one that counts,
//! up or down. Only the reviewer's own answer can re-rate its finding this way; the author's
//! judge cannot (see the disputes).

use crate::answer::re;
use crate::findings::{Finding, Severity};

/// How a reviewer moves a level, in the languages it writes: each pattern's first group holds
/// the new level's words ("downgrading this to **P3**", "lowering the priority of this comment
/// to medium", "высокая → средняя", "понижаю до minor", "降为低优先级", "低（引き下げ）",
/// "보통으로 낮춥니다", "lo bajo a menor").
const MOVES: &[&str] = &[
    r"(?i)\b(?:downgrad(?:e|ed|ing)|upgrad(?:e|ed|ing)|bump(?:ed|ing)?|lower(?:ed|ing)?|re-?rat(?:e|ed|ing)|escalat(?:e|ed|ing)|reduc(?:e|ed|ing)|rais(?:e|ed|ing))\s+(?:(?:the )?(?:priority|severity|level) (?:of )?)?(?:this|it|that|the (?:\w+ )?(?:point|one|finding|item|issue|comment))?(?: (?:one|comment|finding|point))?\s*(?:up |down )?to\s+(?:an?\s+)?[*_`\[]{0,3}([\p{L}\d-]+(?:[ -][\p{L}-]+){0,2})",
    // A level and the one it moves to: `высокая → средняя`, `High -> Medium`.
    r"(?i)[\p{L}\d-]+\s*(?:→|->|⇒|=>)\s*[*_`]{0,2}([\p{L}\d-]+(?: [\p{L}-]+)?)",
    r"(?i)\b(?:понижа\w*|снижа\w*|повыша\w*|понижен\w*|снижен\w*|повышен\w*)\s+(?:\S+\s+){0,3}?до\s+[*_`]{0,2}([\p{L}\d-]+(?: [\p{L}-]+)?)",
    r"(?i)\b(?:baj[oaé]|rebaj[oaé]|bajamos|baixo|rebaixo|baixei|rebaixei|abbasso|declasso|r[ée]trograd\w*|herabgestuft|runtergestuft)\s+(?:\S+\s+){0,3}?(?:a|para|en|à|au|auf)\s+[*_`]{0,2}([\p{L}\d-]+(?: [\p{L}-]+)?)",
    r"(?:降为|降级为|降到|下调为|下调到|调整为|调为|改为|升为|升级为|提升为|上调为)\s*([^，。；、,.;\s（(]{1,8})",
    // (After "重大度は": the level is the word right before に, not the field's name.)
    r"([^\s、。（(：:はを]{1,6})\s*(?:に|[（(])\s*(?:引き下げ|引き上げ|格下げ|格上げ|下げ)",
    r"([^\s]{1,6}?)(?:으로|로)\s*(?:하향|상향|낮춥|낮추|낮춰|올립|올려|조정)",
];

/// The level a sentence re-rates to: "downgrading this to P3", "bump it to **P1**", "that's not
/// a P3, it's a P1", "upgrade the second point to high", and [`MOVES`] in other words.
fn new_level(text: &str) -> Option<Severity> {
    static MOVED: std::sync::OnceLock<Vec<crate::pattern::Pattern>> = std::sync::OnceLock::new();
    static NOT_BUT: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let not_but = re(
        &NOT_BUT,
        r"(?i)\bnot an?\s+[*_`\[]{0,3}p[0-3]\b[*_`\]]{0,3},?\s+(?:it'?s|it is|but|rather)\s+an?\s+[*_`\[]{0,3}(p[0-3])\b",
    );
    if let Some(c) = not_but.captures(text) {
        return level_of(&c[1]);
    }
    let moved = MOVED.get_or_init(|| {
        MOVES
            .iter()
            .map(|p| crate::pattern::Pattern::new(p))
            .collect()
    });
    moved
        .iter()
        .flat_map(|p| p.captures_iter(text))
        .find_map(|c| level_of(c.get(1)?.as_str()))
}

/// The level the first words of `said` name (`medium rather than …`, `低优先级`, `minor.`).
fn level_of(said: &str) -> Option<Severity> {
    let words: Vec<&str> = said.split_whitespace().collect();
    // (Chinese and Japanese write no spaces: `低优先级`, a level and its noun.)
    let level = |p: &str| {
        crate::answer::vocab::severity_of(p)
            .filter(|s| s.1 == crate::answer::vocab::Strength::Level)
            .map(|s| s.0)
    };
    if words.len() == 1 && !said.is_ascii() {
        let chars: Vec<char> = said.chars().collect();
        if let Some(l) = (1..=chars.len().min(8))
            .rev()
            .find_map(|n| level(&chars[..n].iter().collect::<String>()))
        {
            return Some(l);
        }
    }
    (1..=words.len().min(3)).rev().find_map(|n| {
        let phrase = words[..n].join(" ");
        let phrase = phrase.trim_matches(|c: char| !c.is_alphanumeric());
        crate::answer::vocab::severity_of(phrase)
            .filter(|s| s.1 == crate::answer::vocab::Strength::Level)
            .map(|s| s.0)
    })
}

/// A comment on the whole change that sends the reader to an inline comment for the details is
/// that comment said again, not a second finding. A Gerrit patch-set comment ("-2 until the
/// length guard is back. This is a blocker for me; details inline.") gives its level to the one
/// inline comment, when that is the only placed finding and has no level of its own; an overall
/// remark that names no level ("The cache is keyed by path only … (see inline comment)") goes
/// when it shares its words with one placed finding.
pub fn pointed_inline(findings: &mut Vec<Finding>) {
    static POINTER: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let pointer = re(
        &POINTER,
        r"(?i)\b(?:details|more|reasons?|explanation|see|comments?)\s+(?:are\s+|is\s+)?(?:inline|below)\b|\bsee (?:the |my |an? )?inline comments?\b",
    );
    let pointers: Vec<usize> = (0..findings.len())
        .filter(|&i| {
            let f = &findings[i];
            f.location.is_none()
                && f.severity != Severity::Unclassified
                && pointer.is_match(&format!("{}\n{}", f.title, f.body))
        })
        .collect();
    let targets: Vec<usize> = (0..findings.len())
        .filter(|&i| {
            findings[i].location.is_some() && findings[i].severity == Severity::Unclassified
        })
        .collect();
    let placed = findings.iter().filter(|f| f.location.is_some()).count();
    if let ([from], [to], 1) = (pointers.as_slice(), targets.as_slice(), placed) {
        findings[*to].severity = findings[*from].severity;
        findings.remove(*from);
        return;
    }
    let said = |f: &Finding| format!("{}\n{}", f.title, f.body);
    // (The placed finding it shares the most words with, four or more, and more than with any
    // other: a remark on the whole change shares a few words with every comment on it.)
    let repeated = |f: &Finding| {
        let mut shared: Vec<usize> = findings
            .iter()
            .filter(|g| g.location.is_some())
            .map(|g| super::shared_words(&said(f), &said(g)))
            .collect();
        shared.sort_unstable_by(|a, b| b.cmp(a));
        shared
            .first()
            .is_some_and(|&best| best >= 4 && shared.get(1) < Some(&best))
    };
    let repeats: Vec<usize> = (0..findings.len())
        .filter(|&i| {
            let f = &findings[i];
            f.location.is_none()
                && f.severity == Severity::Unclassified
                && pointer.is_match(&said(f))
                && repeated(f)
        })
        .collect();
    for i in repeats.into_iter().rev() {
        findings.remove(i);
    }
}

/// Re-rates each finding its own words re-rate, and the one finding a later paragraph of
/// `prose` re-rates by naming it: by its order ("the second point", "point 2") or by its line
/// ("the early return on line 88"), when exactly one finding is so named.
pub fn rerate(prose: &str, findings: &mut [Finding]) {
    rerate_when(prose, findings, |_, _| true);
}

/// [`rerate`] for findings a JSON block listed: the prose may raise one ("finding 2 is really a
/// P1"), not lower it, since where the two readings disagree the more severe one counts.
pub fn rerate_up(prose: &str, findings: &mut [Finding]) {
    rerate_when(prose, findings, |now, said| said < now);
}

fn rerate_when(prose: &str, findings: &mut [Finding], takes: impl Fn(Severity, Severity) -> bool) {
    for f in findings.iter_mut() {
        if let Some(level) = new_level(&f.body).filter(|l| takes(f.severity, *l)) {
            f.severity = level;
        }
    }
    for paragraph in prose.split("\n\n") {
        let Some(level) = new_level(paragraph) else {
            continue;
        };
        if let Some(i) = named(paragraph, findings).filter(|i| takes(findings[*i].severity, level))
        {
            findings[i].severity = level;
        }
    }
}

/// The one finding `paragraph` names, by order or by line.
fn named(paragraph: &str, findings: &[Finding]) -> Option<usize> {
    static ORDER: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    static LINE: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let order = re(
        &ORDER,
        r"(?i)\b(?:the (first|second|third|fourth|fifth) (?:point|item|finding|issue|one|comment)|(?:point|item|finding|issue) #?([1-9]))\b",
    );
    let mut by_order = order.captures_iter(paragraph).filter_map(|c| {
        if let Some(n) = c.get(2) {
            return n.as_str().parse::<usize>().ok();
        }
        super::ordinal(&c[1])
    });
    if let (Some(n), None) = (by_order.next(), by_order.next()) {
        return (n <= findings.len()).then(|| n - 1);
    }
    let line = re(&LINE, r"(?i)\bline (\d{1,6})\b");
    let lines: Vec<u32> = line
        .captures_iter(paragraph)
        .filter_map(|c| c[1].parse().ok())
        .collect();
    let mut hits = findings.iter().enumerate().filter(|(_, f)| {
        f.location
            .as_ref()
            .and_then(|l| l.start_line)
            .is_some_and(|n| lines.contains(&n))
    });
    match (hits.next(), hits.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::Location;

    fn finding(sev: Severity, line: u32, body: &str) -> Finding {
        let mut f = Finding::new(sev, "t");
        f.location = Some(Location::new("a.go", Some(line), None));
        f.body = body.to_string();
        f
    }

    #[test]
    fn the_reviewers_later_word_on_a_level_counts_up_and_down() {
        let mut fs = vec![
            finding(Severity::P3, 33, "naming"),
            finding(Severity::P3, 88, "redundant return"),
        ];
        let prose = "Review.\n\nWait — I need to correct the second point. The early return on \
line 88 holds the lock. That's not a P3, it's a **P1**.";
        rerate(prose, &mut fs);
        assert_eq!(fs[0].severity, Severity::P3);
        assert_eq!(fs[1].severity, Severity::P1);
        // In the finding's own words, and down.
        let mut own = vec![finding(
            Severity::P1,
            29,
            "Overflows past 33.\n\nThe policy clamps it. Downgrading this to **P3**: not urgent.",
        )];
        rerate("", &mut own);
        assert_eq!(own[0].severity, Severity::P3);
        // A paragraph that names no finding, or two, re-rates nothing.
        let mut two = vec![finding(Severity::P3, 10, ""), finding(Severity::P3, 20, "")];
        rerate(
            "Lines 10 and 20: line 10 and line 20 are not a P3, it's a P1.",
            &mut two,
        );
        assert!(two.iter().all(|f| f.severity == Severity::P3));
        // Talk of levels that moves none: "a P1 elsewhere" is no re-rating.
        assert_eq!(new_level("This would be a P1 if the flag were on."), None);
    }

    #[test]
    fn after_a_json_block_the_prose_only_raises() {
        let prose = "Wait — the second point is worse than I said: not a P3, it's a **P1**.\n\n\
On reflection the first one is minor: downgrading it to P3.";
        let mut fs = vec![
            finding(Severity::P2, 33, "naming"),
            finding(Severity::P3, 88, "redundant return"),
        ];
        rerate_up(prose, &mut fs);
        assert_eq!(fs[1].severity, Severity::P1);
        // (The first one stays: a JSON finding is not lowered by prose.)
        assert_eq!(fs[0].severity, Severity::P2);
    }
}
