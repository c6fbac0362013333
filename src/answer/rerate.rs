//! A reviewer that changes its mind about a level later in its own answer ("Wait — I need to
//! correct the second point … That's not a P3, it's a **P1**", "Downgrading this to **P3**:
//! worth a clamp, not urgent"): the later word is the reviewer's, and it is the one that counts,
//! up or down. Only the reviewer's own answer can re-rate its finding this way; the author's
//! judge cannot (see the disputes).

use crate::answer::re;
use crate::findings::{Finding, Severity};

/// The level a sentence re-rates to: "downgrading this to P3", "bump it to **P1**", "that's not
/// a P3, it's a P1", "upgrade the second point to high".
fn new_level(text: &str) -> Option<Severity> {
    static MOVED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    static NOT_BUT: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let moved = re(
        &MOVED,
        r"(?i)\b(?:downgrad(?:e|ed|ing)|upgrad(?:e|ed|ing)|bump(?:ed|ing)?|lower(?:ed|ing)?|re-?rat(?:e|ed|ing)|escalat(?:e|ed|ing))\s+(?:this|it|that|the (?:\w+ )?(?:point|one|finding|item|issue))?(?: one)?\s*(?:up |down )?to\s+(?:an?\s+)?[*_`\[]{0,3}(p[0-3]|critical|high|medium|low|blocker|nit)\b",
    );
    let not_but = re(
        &NOT_BUT,
        r"(?i)\bnot an?\s+[*_`\[]{0,3}p[0-3]\b[*_`\]]{0,3},?\s+(?:it'?s|it is|but|rather)\s+an?\s+[*_`\[]{0,3}(p[0-3])\b",
    );
    let word = moved
        .captures(text)
        .or_else(|| not_but.captures(text))?
        .get(1)?
        .as_str()
        .to_ascii_lowercase();
    Some(match word.as_str() {
        "p0" | "critical" | "blocker" => Severity::P0,
        "p1" | "high" => Severity::P1,
        "p2" | "medium" => Severity::P2,
        _ => Severity::P3,
    })
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
