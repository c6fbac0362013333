//! A reviewer's answer turned into findings, without losing anything it said.
//!
//! Models are asked for a fenced JSON block *and* markdown; the JSON wins when it is valid. The
//! markdown reader accepts what real reviewers write: severity headings and bold pseudo-headings,
//! bullets and numbered items, `P1:` lines, and inline tags such as codex's native
//! `- [P1] title — path:12-20` with no headings at all (the seed parsed that as zero findings and so
//! always kept the original). P0 is accepted and counts as P1 for thresholds. When nothing is
//! recognised and the reviewer did not agree, the whole answer becomes one unclassified finding.

use std::sync::OnceLock;

use regex::Regex;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How serious a finding is. `Unclassified` is a critique we could not sort; it is treated like
/// P2 (it may be serious, and "not understood" must never read as a pass).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Severity {
    P0,
    P1,
    P2,
    P3,
    #[serde(rename = "unclassified")]
    Unclassified,
}

impl Severity {
    pub fn parse(s: &str) -> Option<Severity> {
        match s.trim().to_ascii_uppercase().as_str() {
            "P0" => Some(Severity::P0),
            "P1" => Some(Severity::P1),
            "P2" => Some(Severity::P2),
            "P3" => Some(Severity::P3),
            _ => None,
        }
    }

    /// The level used for thresholds: P0 counts as P1, unclassified as P2.
    pub fn rank(self) -> u8 {
        match self {
            Severity::P0 | Severity::P1 => 1,
            Severity::P2 | Severity::Unclassified => 2,
            Severity::P3 => 3,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Severity::P0 => "P0",
            Severity::P1 => "P1",
            Severity::P2 => "P2",
            Severity::P3 => "P3",
            Severity::Unclassified => "unclassified",
        }
    }
}

/// One thing the reviewer (or the judge) raised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable across rounds (assigned by the loop; empty until then).
    #[serde(default)]
    pub id: String,
    pub severity: Severity,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub body: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// `code` or `proposal` for mixed reviews.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment: Option<String>,
}

impl Finding {
    fn new(severity: Severity, title: &str) -> Finding {
        Finding {
            id: String::new(),
            severity,
            title: title.trim().to_string(),
            evidence: None,
            body: String::new(),
            action: None,
            segment: None,
        }
    }
}

/// A parsed critique.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Critique {
    pub findings: Vec<Finding>,
    pub missing_alternatives: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recommendation: Option<String>,
    /// The reviewer signalled agreement (and raised nothing above P3).
    pub agreement: bool,
    /// Which reader understood it: `json`, `markdown` or `unstructured`.
    pub format: &'static str,
}

/// Longest body kept for an unclassified finding (the raw critique is stored in full anyway).
const MAX_UNSTRUCTURED: usize = 4000;

pub fn parse(text: &str) -> Critique {
    let agreed = says_agreement(text);
    if let Some(c) = from_json(text) {
        return finish(c, agreed);
    }
    let md = from_markdown(text);
    if !md.findings.is_empty() || agreed || md.verdict.is_some() {
        return finish(md, agreed);
    }
    let trimmed = text.trim();
    let mut findings = Vec::new();
    if !trimmed.is_empty() {
        let mut f = Finding::new(
            Severity::Unclassified,
            "Critique not in a recognised format",
        );
        f.body = trimmed.chars().take(MAX_UNSTRUCTURED).collect();
        findings.push(f);
    }
    Critique {
        findings,
        missing_alternatives: Vec::new(),
        verdict: None,
        recommendation: None,
        agreement: false,
        format: "unstructured",
    }
}

fn finish(mut c: Critique, agreed_in_text: bool) -> Critique {
    let serious = c.findings.iter().any(|f| f.severity.rank() <= 2);
    let approve = c
        .verdict
        .as_deref()
        .is_some_and(|v| v.eq_ignore_ascii_case("approve"));
    c.agreement = !serious && (agreed_in_text || approve);
    c
}

/// The last fenced ```json block (or a bare JSON object) with a `findings` list.
fn from_json(text: &str) -> Option<Critique> {
    let v = json_blocks(text)
        .into_iter()
        .rev()
        .find(|v| v.get("findings").is_some_and(Value::is_array))?;
    let findings = v["findings"]
        .as_array()?
        .iter()
        .filter_map(finding_from_json)
        .collect();
    let strings = |key: &str| -> Vec<String> {
        v.get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .filter(|s| !is_none_item(s))
                    .collect()
            })
            .unwrap_or_default()
    };
    let text_of = |key: &str| {
        v.get(key)
            .and_then(Value::as_str)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    Some(Critique {
        findings,
        missing_alternatives: strings("missing_alternatives"),
        verdict: text_of("verdict"),
        recommendation: text_of("recommendation"),
        agreement: false,
        format: "json",
    })
}

pub(crate) fn finding_from_json(v: &Value) -> Option<Finding> {
    let get = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    let title = get("title").or(get("summary")).or(get("body"))?;
    let severity = get("severity")
        .and_then(Severity::parse)
        .unwrap_or(Severity::Unclassified);
    let mut f = Finding::new(severity, title);
    f.evidence = get("evidence")
        .or(get("location"))
        .or(get("file"))
        .map(str::to_string);
    f.body = get("body")
        .or(get("description"))
        .or(get("why"))
        .unwrap_or("")
        .to_string();
    f.action = get("action")
        .or(get("suggestion"))
        .or(get("fix"))
        .map(str::to_string);
    Some(f)
}

/// Every JSON value in fenced ```json (or plain ```) blocks, then the whole text if it is JSON.
pub(crate) fn json_blocks(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    // `Some(collect)` inside a fence; only ```json and bare ``` fences are collected.
    let mut fence: Option<bool> = None;
    let mut block = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            match fence {
                Some(collect) => {
                    if collect {
                        if let Ok(v) = serde_json::from_str::<Value>(&block) {
                            out.push(v);
                        }
                    }
                    block.clear();
                    fence = None;
                }
                None => {
                    let lang = t.trim_start_matches('`').trim().to_ascii_lowercase();
                    fence = Some(lang.is_empty() || lang == "json");
                }
            }
            continue;
        }
        if fence == Some(true) {
            block.push_str(line);
            block.push('\n');
        }
    }
    if let Ok(v) = serde_json::from_str::<Value>(text.trim()) {
        out.push(v);
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Section {
    None,
    Severity(Severity),
    Missing,
    Recommendation,
}

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("valid regex"))
}

/// The severity a heading or tag names: `P1`, "Must fix", "Should improve", "Nice to have"...
fn severity_named(text: &str) -> Option<Severity> {
    static TAG: OnceLock<Regex> = OnceLock::new();
    let lower = text.to_ascii_lowercase();
    if let Some(c) = re(&TAG, r"(?i)\bp([0-3])\b").captures(text) {
        return Severity::parse(&format!("P{}", &c[1]));
    }
    if lower.contains("must fix") || lower.contains("must reconsider") || lower.contains("blocker")
    {
        Some(Severity::P1)
    } else if lower.contains("should fix") || lower.contains("should improve") {
        Some(Severity::P2)
    } else if lower.contains("nice to have") || lower.contains("nice to strengthen") {
        Some(Severity::P3)
    } else {
        None
    }
}

fn from_markdown(text: &str) -> Critique {
    static HEADING: OnceLock<Regex> = OnceLock::new();
    static BOLD_LINE: OnceLock<Regex> = OnceLock::new();
    static ITEM: OnceLock<Regex> = OnceLock::new();
    static INLINE_TAG: OnceLock<Regex> = OnceLock::new();
    static PLINE: OnceLock<Regex> = OnceLock::new();
    let heading = re(&HEADING, r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$");
    let bold_line = re(&BOLD_LINE, r"^\s*(?:\*\*|__)([^*_]+?)(?:\*\*|__)\s*:?\s*$");
    let item = re(&ITEM, r"^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(.*)$");
    let inline_tag = re(
        &INLINE_TAG,
        r"^(?:\*\*|__)?\[?\(?([Pp][0-3])\)?\]?(?:\*\*|__)?\s*[:\-–—]?\s*(.*)$",
    );
    let pline = re(
        &PLINE,
        r"^\s*(?:\*\*)?([Pp][0-3])(?:\*\*)?\s*[:\-–—]\s*(.+)$",
    );

    let mut c = Critique {
        findings: Vec::new(),
        missing_alternatives: Vec::new(),
        verdict: None,
        recommendation: None,
        agreement: false,
        format: "markdown",
    };
    let mut section = Section::None;
    let mut in_fence = false;
    // The finding that continuation lines and sub-bullets attach to.
    let mut open: Option<usize> = None;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            open = None;
            continue;
        }
        if in_fence {
            continue;
        }
        let heading_text = heading
            .captures(line)
            .map(|c| c[1].to_string())
            .or_else(|| bold_line.captures(line).map(|c| c[1].to_string()));
        if let Some(h) = heading_text {
            let lower = h.to_ascii_lowercase();
            section = if let Some(s) = severity_named(&h) {
                Section::Severity(s)
            } else if lower.starts_with("missing") {
                Section::Missing
            } else if lower.contains("recommend") || lower.contains("verdict") {
                Section::Recommendation
            } else {
                Section::None
            };
            open = None;
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        if let Some(m) = item.captures(line) {
            let indent = m[1].len();
            let content = m[2].trim();
            if indent >= 2 {
                if let Some(i) = open {
                    attach(&mut c.findings[i], content);
                    continue;
                }
            }
            let tagged = inline_tag
                .captures(content)
                .filter(|t| !t[2].trim().is_empty())
                .map(|t| (Severity::parse(&t[1]), t[2].to_string()));
            match (tagged, section) {
                (Some((Some(sev), rest)), _) => {
                    c.findings.push(finding_from_line(sev, &rest));
                    open = Some(c.findings.len() - 1);
                }
                (_, Section::Severity(sev)) if !is_none_item(content) => {
                    c.findings.push(finding_from_line(sev, content));
                    open = Some(c.findings.len() - 1);
                }
                (_, Section::Missing) if !is_none_item(content) => {
                    c.missing_alternatives.push(strip_md(content));
                    open = None;
                }
                (_, Section::Recommendation) => {
                    c.recommendation.get_or_insert_with(|| strip_md(content));
                    open = None;
                }
                _ => open = None,
            }
            continue;
        }
        if let Some(p) = pline.captures(line) {
            if let Some(sev) = Severity::parse(&p[1]) {
                c.findings.push(finding_from_line(sev, &p[2]));
                open = Some(c.findings.len() - 1);
                continue;
            }
        }
        match (section, open) {
            (Section::Recommendation, _) => {
                c.recommendation
                    .get_or_insert_with(|| strip_md(line.trim()));
            }
            (_, Some(i)) => attach(&mut c.findings[i], line.trim()),
            _ => {}
        }
    }
    c
}

/// A detail line under a finding: a fix, its evidence, or more of its body.
fn attach(f: &mut Finding, line: &str) {
    let plain = strip_md(line);
    let lower = plain.to_ascii_lowercase();
    for prefix in [
        "fix:",
        "action:",
        "suggested action:",
        "suggestion:",
        "recommendation:",
    ] {
        if let Some(rest) = lower.strip_prefix(prefix) {
            let start = plain.len() - rest.len();
            f.action = Some(plain[start..].trim().to_string());
            return;
        }
    }
    if let Some(rest) = lower.strip_prefix("evidence:") {
        let start = plain.len() - rest.len();
        f.evidence = Some(plain[start..].trim().to_string());
        return;
    }
    if f.evidence.is_none() {
        f.evidence = location_in(&plain);
    }
    if !f.body.is_empty() {
        f.body.push(' ');
    }
    f.body.push_str(&plain);
}

/// `title — evidence — why — what to do` as reviewers write it on one line.
fn finding_from_line(severity: Severity, line: &str) -> Finding {
    let plain = strip_md(line);
    let parts: Vec<&str> = plain
        .split(" — ")
        .flat_map(|p| p.split(" -- "))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let mut f = Finding::new(severity, parts.first().copied().unwrap_or(&plain));
    f.evidence = location_in(&plain);
    let rest: Vec<&str> = parts
        .iter()
        .skip(1)
        .filter(|p| location_in(p).as_deref() != Some(**p))
        .copied()
        .collect();
    match rest.as_slice() {
        [] => {}
        [body] => f.body = body.to_string(),
        [body @ .., action] => {
            f.body = body.join(" — ");
            f.action = Some(action.to_string());
        }
    }
    if f.title.len() > 200 {
        f.body = std::mem::take(&mut f.title);
        f.title = f.body.chars().take(120).collect::<String>() + "…";
    }
    f
}

/// The first `path:line` or `path:start-end` in `text`.
pub fn location_in(text: &str) -> Option<String> {
    static LOC: OnceLock<Regex> = OnceLock::new();
    re(
        &LOC,
        r"(?:^|[\s(\[`])((?:[\w.-]+/)*[\w.-]+\.[A-Za-z0-9]+:\d+(?:[-–]\d+)?)",
    )
    .captures(text)
    .map(|c| c[1].replace('–', "-"))
}

fn strip_md(s: &str) -> String {
    s.replace("**", "")
        .replace("__", "")
        .replace('`', "")
        .trim()
        .to_string()
}

/// "none", "no issues", "n/a": a placeholder, not a finding.
fn is_none_item(s: &str) -> bool {
    let t = strip_md(s)
        .trim_end_matches('.')
        .trim()
        .to_ascii_lowercase();
    matches!(
        t.as_str(),
        "none" | "n/a" | "na" | "no issues" | "nothing" | "-"
    ) || t.starts_with("none identified")
        || t.starts_with("none found")
        || t.starts_with("no issues found")
        || t.starts_with("no findings")
}

/// "LGTM", "no concerns", "looks good"... unless negated ("not approved", "doesn't look good").
pub fn says_agreement(text: &str) -> bool {
    static PHRASE: OnceLock<Regex> = OnceLock::new();
    static NEGATION: OnceLock<Regex> = OnceLock::new();
    let phrase = re(
        &PHRASE,
        r"(?i)\b(lgtm|looks good(?: to me)?|no (?:further |significant |major |remaining )?(?:concerns|issues found|issues|findings)|nothing to (?:fix|change|add)|ship it|approved?)\b",
    );
    let negation = re(
        &NEGATION,
        r"(?i)(\bnot|n't|\bnever|\bhardly|\bwithout|\bcannot|\bno longer|\bfar from)\W+(?:\w+\W+){0,2}$",
    );
    phrase.find_iter(text).any(|m| {
        let before = &text[..m.start()];
        let sentence_start = before.rfind(['.', '!', '?', '\n']).map_or(0, |i| i + 1);
        !negation.is_match(&before[sentence_start..])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sevs(c: &Critique) -> Vec<Severity> {
        c.findings.iter().map(|f| f.severity).collect()
    }

    #[test]
    fn the_json_block_wins() {
        let text = "## P1 - Must Fix\n- something else\n\n```json\n{\"verdict\":\"revise\",\"findings\":[{\"severity\":\"P1\",\"title\":\"Off by one\",\"evidence\":\"src/a.rs:12\",\"body\":\"loop skips last\",\"action\":\"use ..=\"},{\"severity\":\"P3\",\"title\":\"naming\"}],\"missing_alternatives\":[\"none\"],\"recommendation\":\"revise\"}\n```\n";
        let c = parse(text);
        assert_eq!(c.format, "json");
        assert_eq!(sevs(&c), [Severity::P1, Severity::P3]);
        assert_eq!(c.findings[0].evidence.as_deref(), Some("src/a.rs:12"));
        assert_eq!(c.findings[0].action.as_deref(), Some("use ..="));
        assert!(c.missing_alternatives.is_empty());
        assert!(!c.agreement);
    }

    #[test]
    fn severity_headings_bullets_numbers_and_details() {
        let text = "# Review\n\nSummary bullets are not findings:\n- the change adds a cache\n\n## P0\n- **SQL injection** in `db/query.rs:40` — user input concatenated — use bind parameters\n\n## P2 - Should Fix\n1. Missing timeout on HTTP call (net/client.rs:88)\n   - Fix: set a 10 s timeout\n2. None\n\n**P3 - Nice to Have**\n* Rename `x`\n\n## Missing Alternatives\n- Use a queue\n\n## Recommended Decision\nRevise\n";
        let c = parse(text);
        assert_eq!(c.format, "markdown");
        assert_eq!(sevs(&c), [Severity::P0, Severity::P2, Severity::P3]);
        assert_eq!(c.findings[0].title, "SQL injection in db/query.rs:40");
        assert_eq!(c.findings[0].evidence.as_deref(), Some("db/query.rs:40"));
        assert_eq!(c.findings[0].action.as_deref(), Some("use bind parameters"));
        assert_eq!(c.findings[1].evidence.as_deref(), Some("net/client.rs:88"));
        assert_eq!(c.findings[1].action.as_deref(), Some("set a 10 s timeout"));
        assert_eq!(c.missing_alternatives, ["Use a queue"]);
        assert_eq!(c.recommendation.as_deref(), Some("Revise"));
    }

    #[test]
    fn codex_native_review_style_is_not_zero_findings() {
        let text = "The change introduces a regression in error handling.\n\nFull review comments:\n\n- [P1] Propagate the parse error instead of unwrapping — src/config.rs:120-128\n  Unwrapping here panics on a malformed config file, which users will hit.\n\n- [P2] Avoid cloning the whole map per request — src/server.rs:54-60\n  This allocates on every call.\n";
        let c = parse(text);
        assert_eq!(sevs(&c), [Severity::P1, Severity::P2]);
        assert_eq!(
            c.findings[0].evidence.as_deref(),
            Some("src/config.rs:120-128")
        );
        assert!(c.findings[0].body.contains("panics on a malformed config"));
        assert!(!c.agreement);
    }

    #[test]
    fn p_lines_and_bold_tags() {
        let c = parse("P1: data race on counter (src/lib.rs:9)\n**P2**: missing docs\n");
        assert_eq!(sevs(&c), [Severity::P1, Severity::P2]);
    }

    #[test]
    fn code_in_a_critique_is_not_read_as_findings() {
        let c = parse("## P2\n- prefer iterators\n```rust\n- not a bullet\n## P1\n```\n");
        assert_eq!(sevs(&c), [Severity::P2]);
    }

    #[test]
    fn agreement_and_its_negations() {
        assert!(parse("LGTM, nice work.").agreement);
        assert!(parse("I have no concerns with this change.").agreement);
        assert!(parse("```json\n{\"verdict\":\"approve\",\"findings\":[]}\n```").agreement);
        assert!(!parse("This is not approved until the race is fixed.").agreement);
        assert!(!parse("It doesn't look good: the cache is never invalidated.").agreement);
        assert!(!parse("Far from LGTM.").agreement);
        // Agreement with a serious finding is not agreement.
        assert!(!parse("Mostly LGTM.\n\n## P1\n- leaks the key — a.rs:3").agreement);
        // Only nits: still agreement.
        assert!(parse("LGTM.\n\n## P3\n- typo in comment").agreement);
    }

    #[test]
    fn unrecognised_text_is_kept_as_one_unclassified_finding() {
        let c = parse("I think the approach is risky because the lock is held across await.");
        assert_eq!(c.format, "unstructured");
        assert_eq!(sevs(&c), [Severity::Unclassified]);
        assert!(c.findings[0].body.contains("lock is held across await"));
        assert_eq!(Severity::Unclassified.rank(), 2);
        assert!(parse("   ").findings.is_empty());
    }
}
