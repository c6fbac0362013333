//! Severity markers in a finding's lead line, and the title left when they are taken out.
//!
//! Reviewers mark severity in many places: badge images (`![P1 Badge](…)`), priority images
//! (`![high](…/high-priority.svg)`), `<img alt="P1">`, tags (`[P1]`, `(high)`, `[nitpick]`),
//! emphasis (`**High**`, `_🟠 Major_`, `<sup>Medium Severity</sup>`), leading labels (`P1:`,
//! `Critical —`), fields (`Severity: High`) and coloured circles. A candidate counts only when
//! the whole of it is severity vocabulary ([`vocab::severity_of`]); the title is the lead with
//! the markers, images and markup removed.

use std::sync::OnceLock;

use crate::answer::lead::{strip_tags, Lead};
use crate::answer::vocab::{self, Strength, FINDING_LABELS};
use crate::findings::Severity;
use crate::pattern::Pattern;

use crate::answer::{re, re_built};

/// "one nit:", "One minor thing:", "a small issue:", "two concerns:" — a finding introduced in
/// prose; the adjective or noun may name its level.
fn introducer(line: &str) -> Option<(usize, Option<(Severity, Strength)>)> {
    static INTRO: OnceLock<Pattern> = OnceLock::new();
    let c = re(
        &INTRO,
        r"(?i)\b(?:one|a|two|three|some|small|tiny|only|last|another|single)\s+(?:(minor|major|critical|blocking|small|tiny|important|serious|optional|non-blocking)\s+)?(nit|nitpick|blocker|thing|issue|point|concern|problem|bug|suggestion|note|question|observation|idea|remark|tweak)s?(?:\s*,?\s*(?:not blocking|non-blocking|optional))?\s*:",
    )
    .captures(line)?;
    // "The old loop retried on every 4xx, which was a bug: it hammered the API" tells what the
    // change fixed; it introduces nothing.
    static PAST: OnceLock<Pattern> = OnceLock::new();
    let at = c.get(0).expect("match").start();
    if re(&PAST, r"(?i)\b(?:which|that|this|it)\s+(?:was|were)\s*$").is_match(&line[..at]) {
        return None;
    }
    // "I have two suggestions: one about a scheme-relative URL, and one about naming" previews
    // the findings that follow; it is none of them.
    static PREVIEW: OnceLock<Pattern> = OnceLock::new();
    let end = c.get(0).expect("match").end();
    if re(
        &PREVIEW,
        r"(?i)^\s*one (?:about|on|for|regarding|concerning|in|around)\b[^.;]*\band one\b",
    )
    .is_match(&line[end..])
    {
        return None;
    }
    // "#1 is a blocker: the first run wipes the table" rates a point named before it; "Only
    // blocker:" opens one.
    let whole = c.get(0).expect("match").as_str();
    if c.get(2)
        .is_some_and(|n| n.as_str().eq_ignore_ascii_case("blocker"))
        && whole.get(..2).is_some_and(|a| a.eq_ignore_ascii_case("a "))
    {
        return None;
    }
    let word = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
    Some((end, vocab::severity_of(word)))
}

/// A marker candidate: where it is and what it says.
struct Candidate {
    start: usize,
    end: usize,
    text: String,
}

/// Every marker candidate in a lead line, in this order: images, bracket and parenthesis tags,
/// emphasis, fields and leading labels, then the kinds inside any of them.
fn candidates(line: &str) -> Vec<Candidate> {
    let mut out = Vec::new();
    image_candidates(line, &mut out);
    tag_candidates(line, &mut out);
    emphasis_candidates(line, &mut out);
    leading_candidates(line, &mut out);
    kind_candidates(&mut out);
    out
}

/// Adds one candidate to `out`.
fn push(out: &mut Vec<Candidate>, start: usize, end: usize, text: String) {
    out.push(Candidate { start, end, text });
}

/// A level after a bold title: alone (a code-scanning alert as GitHub shows it, `**Uncontrolled
/// data used in path expression** High`), or one tag of a row.
fn after_bold_title(line: &str, out: &mut Vec<Candidate>) {
    static AFTER_BOLD: OnceLock<Pattern> = OnceLock::new();
    if let Some(c) = re(&AFTER_BOLD, r"^\s*\*\*[^*\n]{3,160}\*\*\s+(\w+)\s*$").captures(line) {
        let m = c.get(1).expect("level");
        push(out, m.start(), m.end(), m.as_str().to_string());
    }
    // A row of tags after a bold title, `·` or `•` between them (a static-analysis bot's
    // `**External control of file path** `PTC-W6004` · 🔴 Critical · Security`): each tag is a
    // candidate, so the one that is a level word rates the item and an id or a category does not.
    // A row of several levels is a legend (`**Legend:** 🔴 blocker · 🟠 high · 🔵 low`).
    static TAGS: OnceLock<Pattern> = OnceLock::new();
    if let Some(row) = re(&TAGS, r"^\s*\*\*[^*\n]{3,160}\*\*\s+([^*\n]{1,120})$")
        .captures(line)
        .and_then(|c| c.get(1))
        .filter(|m| m.as_str().contains(['·', '•']))
    {
        let mut at = row.start();
        let mut levels = Vec::new();
        for part in row.as_str().split_inclusive(['·', '•']) {
            let tag = part.trim_end_matches(['·', '•']);
            let lead = tag.len() - tag.trim_start().len();
            if vocab::severity_of(tag.trim()).is_some() {
                levels.push((at + lead, at + tag.trim_end().len(), tag.trim().to_string()));
            }
            at += part.len();
        }
        if let [(start, end, tag)] = levels.as_slice() {
            push(out, *start, *end, tag.clone());
        }
    }
}

/// Image candidates: a markdown image's alt text and file name, an `<img>`'s alt, title and
/// file name.
fn image_candidates(line: &str, out: &mut Vec<Candidate>) {
    static IMAGE: OnceLock<Pattern> = OnceLock::new();
    static IMG: OnceLock<Pattern> = OnceLock::new();
    // `![alt](url)`: the alt text, and a `high-priority.svg` file name.
    for c in re(&IMAGE, r"!\[([^\]]*)\]\(([^)\s]*)[^)]*\)").captures_iter(line) {
        let m = c.get(0).expect("match");
        push(out, m.start(), m.end(), c[1].to_string());
        push(out, m.start(), m.end(), url_stem(&c[2]));
    }
    for c in re(&IMG, r#"(?i)<img\b[^>]*>"#).captures_iter(line) {
        let m = c.get(0).expect("match");
        for attr in ["alt", "title", "src"] {
            if let Some(v) = attribute(m.as_str(), attr) {
                let v = if attr == "src" { url_stem(&v) } else { v };
                push(out, m.start(), m.end(), v);
            }
        }
    }
}

/// Tag candidates: what is in brackets (`[P1]`, `【重大】`) or parentheses (`(high)`).
fn tag_candidates(line: &str, out: &mut Vec<Candidate>) {
    static BRACKET: OnceLock<Pattern> = OnceLock::new();
    static PAREN: OnceLock<Pattern> = OnceLock::new();
    // `[P1]`, and the CJK brackets `【重大】` / `［高］`.
    for c in re(
        &BRACKET,
        r"([\[【［])([^\[\]【】［］]{1,40})([\]】］])(?:[^(]|$)",
    )
    .captures_iter(line)
    {
        let (open, close) = (c.get(1).expect("open"), c.get(3).expect("close"));
        // A team's review prefix (`[must]`, `[want]`, `[imo]`) is a label in brackets.
        let word = vocab::normalise(&c[2]);
        let text = match vocab::LABEL_PHRASES.iter().find(|(w, _)| *w == word) {
            Some((_, s)) => s.label().to_string(),
            None => c[2].to_string(),
        };
        push(out, open.start(), close.end(), text);
    }
    // (Full-width parentheses too: `（严重）`.)
    for c in re(&PAREN, r"[(（]([^()（）]{1,30})[)）]").captures_iter(line) {
        let m = c.get(0).expect("match");
        // `(1 blocking)`, `(2 high, 1 low)`: a tally of findings, not a level.
        if c[1]
            .trim_start()
            .starts_with(|ch: char| ch.is_ascii_digit())
        {
            continue;
        }
        // `Bug (important)`: a label word in parentheses names a level too.
        let word = vocab::normalise(&c[1]);
        let text = match vocab::LABEL_PHRASES.iter().find(|(w, _)| *w == word) {
            Some((_, s)) => s.label().to_string(),
            None => c[1].to_string(),
        };
        push(out, m.start(), m.end(), text);
    }
}

/// Emphasis candidates: markdown (`**High**`, `_🟠 Major_`) and HTML (`<sup>Medium</sup>`).
fn emphasis_candidates(line: &str, out: &mut Vec<Candidate>) {
    static EMPH: OnceLock<Pattern> = OnceLock::new();
    static HTML_EMPH: OnceLock<Pattern> = OnceLock::new();
    for c in re(
        &EMPH,
        r"\*\*([^*]{1,60}?)\*\*|__([^_]{1,60}?)__|(?:^|[^\w*])\*([^*\s][^*]{0,58}?)\*|(?:^|[^\w_])_([^_\s][^_]{0,58}?)_",
    )
    .captures_iter(line)
    {
        let inner = (1..=4).find_map(|i| c.get(i)).expect("one group");
        let m = c.get(0).expect("match");
        let start = m.start() + m.as_str().find(['*', '_']).unwrap_or(0);
        push(out, start, m.end(), inner.as_str().to_string());
    }
    for c in re(
        &HTML_EMPH,
        r"(?i)<(b|strong|sup|sub|em|i|code)>(.{1,80}?)</(?:b|strong|sup|sub|em|i|code)>",
    )
    .captures_iter(line)
    {
        let m = c.get(0).expect("match");
        push(out, m.start(), m.end(), strip_tags(&c[2]));
    }
}

/// Does the text before a level field end with a word that makes the field a rating of the
/// whole change (`Risk level:`, `Confidence level:`, `リスクレベル：`)?
fn rates_the_change(before: &str) -> bool {
    let before = before.trim_end_matches(|c: char| c == '*' || c == '_' || c.is_whitespace());
    let lower = before.to_lowercase();
    vocab::CHANGE_RATING_WORDS.iter().any(|w| {
        lower.strip_suffix(w).is_some_and(|rest| {
            let unspaced = w.chars().last().is_some_and(vocab::unspaced);
            unspaced || !rest.chars().last().is_some_and(char::is_alphanumeric)
        })
    })
}

/// Candidates a line's shape gives: a `Severity: High` field, a leading label (`P1:`), a
/// compiler's level word, a leading `P1` token, and leading circles and warning signs.
fn leading_candidates(line: &str, out: &mut Vec<Candidate>) {
    static FIELD: OnceLock<Pattern> = OnceLock::new();
    static LABEL: OnceLock<Pattern> = OnceLock::new();
    for c in re_built(&FIELD, || {
        format!(
            r"(?i)(?:\b(?:{})|重要度|重大度|严重程度|严重级别|严重等级|嚴重級別|严重性|嚴重性|优先级|優先度|심각도|우선순위|중요도)\s*\**\s*[:=：]\s*\**\s*([\w][\w -]{{0,20}}?)(?:\*|\||,|;|\.|\)|$|\s{{2}}|\s?[—–]|[。，、）])",
            vocab::SEVERITY_FIELD_WORDS
        )
    })
    .captures_iter(line)
    {
        let m = c.get(0).expect("match");
        if rates_the_change(&line[..m.start()]) {
            continue;
        }
        // A dash ends the value only inside a title (`**1. Severity: moderate — wrong unit**`):
        // a field line of its own (`- **Severity:** High — the reason`) is a finding's detail,
        // read with its fields.
        let dashed = m.as_str().trim_end().ends_with(['—', '–']);
        let titled = line[..m.start()].chars().any(char::is_alphanumeric);
        // (Unless a place and the finding follow the dash: `Серьёзность: средняя — строка 44.
        // `time.Sleep` не учитывает …` is a finding's lead, its level first.)
        let after: Vec<&str> = line[m.end()..].split_whitespace().collect();
        // (Chinese writes the dash double and the line as `第 18 行`.)
        // (Or the finding's title comes after the dash and its place after another: `sev: 2 —
        // Unbounded read — upload.go:57 — …`.)
        let placed_later = || {
            line[m.end()..]
                .split(['—', '–'])
                .skip(1)
                .any(|part| {
                    crate::answer::location::find_all(part, &crate::answer::location::Roots::default())
                        .iter()
                        .any(|l| l.start_line.is_some())
                })
        };
        let goes_on = (after.len() >= 3
            && crate::answer::location::lines_in(&after[..3].join(" ")).is_some())
            || placed_later();
        if dashed && !titled && !goes_on {
            continue;
        }
        push(out, m.start(), m.end(), format!("severity {}", &c[1]));
    }
    // A short label before `:` (`：` in CJK), `—` or ` - ` at the start: `P1:`, `High —`, `Nit:`,
    // `🔴 Critical:`, `次要问题：`,
    // and a place in parentheses after it (`**Критично (строка 12):**`), read with the lead.
    if let Some(c) = re(
        &LABEL,
        r"^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)?([^:：—–(]{1,40}?|[^:：—–]{1,40}?)\s*(?:\([^()\n]{1,30}\d\)\s*\**)?\s*(?::|：|—|–|\s-\s)",
    )
    .captures(line)
    {
        let m = c.get(1).expect("label");
        let word = vocab::normalise(m.as_str());
        // `Important:` names a level only as a label.
        let text = match vocab::LABEL_PHRASES.iter().find(|(w, _)| *w == word) {
            Some((_, s)) => s.label().to_string(),
            None => m.as_str().to_string(),
        };
        push(out, m.start(), c.get(0).expect("match").end(), text);
    }
    // A level after a dash at the end of a title: `**1. Locale ignored at call sites — High**`,
    // `### Stale cache key - low`. Only after a dash (`Risk: Low` is a field of a summary) and
    // only a word or two: `— high traffic paths` is a title.
    static TRAILING: OnceLock<Pattern> = OnceLock::new();
    if let Some(c) = re(
        &TRAILING,
        r"\w[^—–]*?\w\W*\s(?:—|–|-)\s*[*_]*\s*(\w+(?: \w+)?)\s*[*_]*\s*:?\s*$",
    )
    .captures(line)
    {
        let m = c.get(1).expect("level");
        let titled = line[..m.start()].split_whitespace().count() >= 3;
        if titled {
            push(out, m.start(), m.end(), m.as_str().to_string());
        }
    }
    after_bold_title(line, out);
    // A score out of five anywhere in the lead (`— Severity 5/5`, `(impact 4/5)`).
    static SCORE: OnceLock<Pattern> = OnceLock::new();
    for c in re(
        &SCORE,
        r"(?i)\b(?:severity|impact|risk|criticality)\s*[:=]?\s*\**\s*[1-5]\s*/\s*5\b",
    )
    .find_iter(line)
    {
        push(out, c.start(), c.end(), c.as_str().to_string());
    }
    // `src/a.c:14:2: error: …`: the compiler's level word after the place.
    static COMPILER: OnceLock<Pattern> = OnceLock::new();
    if let Some(c) = re(
        &COMPILER,
        r"^\s*\S+:\d+(?::\d+)?(?:-\d+)?:\s+(fatal error|error|warning|note|info|hint)\s*:",
    )
    .captures(line)
    {
        let m = c.get(1).expect("level");
        push(
            out,
            m.start(),
            c.get(0).expect("match").end(),
            m.as_str().to_string(),
        );
    }
    // `P1 Badge Title` (a connector badge copied as text), `P2 Title`, `💡 P3 · a.dart:120`.
    static PTOKEN: OnceLock<Pattern> = OnceLock::new();
    if let Some(c) = re(
        &PTOKEN,
        r"^\s*(?:[-*+]\s+)?(?:[^\w\s\[(`<*_]{1,4}\s*)?([Pp][0-3](?:\s+[Bb]adge)?)\s+\S",
    )
    .captures(line)
    {
        let m = c.get(1).expect("token");
        push(out, m.start(), m.end(), m.as_str().to_string());
    }
    // A level word that opens a bold lead before its place: `**nit `src/a.rs:12`**`.
    static BOLD_WORD: OnceLock<Pattern> = OnceLock::new();
    if let Some(c) = re(
        &BOLD_WORD,
        r"^\s*(?:[-*+]\s+)?(?:\*\*|__)([A-Za-z]{2,10})\s+`",
    )
    .captures(line)
    {
        let m = c.get(1).expect("word");
        push(out, m.start(), m.end(), m.as_str().to_string());
    }
    // Leading circles and warning signs.
    let lead: String = line
        .trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '-' | '*' | '+' | '>'))
        .chars()
        .take_while(|c| !c.is_alphanumeric() && !matches!(c, '[' | '(' | '`' | '<' | '!'))
        .collect();
    if !lead.trim().is_empty() {
        let start = line.find(lead.trim()).unwrap_or(0);
        push(out, start, start + lead.trim().len(), lead);
    }
}

/// A kind with its category among the candidates (`nitpick (typo)`): the kind alone is a
/// candidate too, added after all the others.
fn kind_candidates(out: &mut Vec<Candidate>) {
    // `nitpick (typo):` — Sourcery's kind with its category: the kind alone is a candidate too.
    static KIND: OnceLock<Pattern> = OnceLock::new();
    let kind = re(
        &KIND,
        r"^\s*([A-Za-z][\w ]{0,20}?)\s*\([\w\s-]{1,30}\)\s*:?\s*$",
    );
    let kinds: Vec<Candidate> = out
        .iter()
        .filter_map(|c| {
            kind.captures(&c.text).map(|k| Candidate {
                start: c.start,
                end: c.end,
                text: k[1].to_string(),
            })
        })
        .collect();
    out.extend(kinds);
}

fn url_stem(url: &str) -> String {
    let file = url
        .split(['?', '#'])
        .next()
        .unwrap_or("")
        .rsplit('/')
        .next()
        .unwrap_or("");
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    // shields.io badges: `/badge/P1-orange` → "P1".
    if url.contains("/badge/") {
        return stem.split('-').next().unwrap_or("").to_string();
    }
    stem.replace(['-', '_'], " ")
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let at = lower.find(&format!("{name}="))? + name.len() + 1;
    let rest = &tag[at..];
    let (quote, rest) = match rest.chars().next()? {
        q @ ('"' | '\'') => (q, &rest[1..]),
        _ => (' ', rest),
    };
    let end = rest.find([quote, '>']).unwrap_or(rest.len());
    Some(rest[..end].to_string())
}

/// A line of labels only: `_🎯 Functional Correctness_ | _🟠 Major_ | _⚡ Quick win_`,
/// `_:bulb: Codebase verification_` (after an optional `` `36-41`: `` range). CodeRabbit puts
/// the title in the next paragraph.
pub fn labels_only(line: &str) -> bool {
    static RANGE: OnceLock<Pattern> = OnceLock::new();
    static SPAN: OnceLock<Pattern> = OnceLock::new();
    let rest = re(&RANGE, r"^\s*`\d+(?:\s*[-–]\s*\d+)?`\s*:\s*").replace(line, "");
    let rest = rest.trim();
    if rest.is_empty()
        || rest.starts_with("**")
        || !(rest.starts_with('_') || rest.starts_with('*'))
    {
        return false;
    }
    let spans = re(&SPAN, r"(?:\*[^*]+\*|_[^_]+_)").replace_all(rest, "");
    spans.chars().all(|c| c.is_whitespace() || c == '|')
}

/// Reads a lead line: its severity marker (the strongest, then the first) and its title.
pub fn read_lead(line: &str) -> Lead {
    // A task's box (`[ ] [P2] Close the body`) is the list's, not the title's.
    let trimmed = line.trim_start();
    if let Some(rest) = ["[ ] ", "[x] ", "[X] "]
        .iter()
        .find_map(|b| trimmed.strip_prefix(b))
    {
        return read_lead(rest);
    }
    // `**Line 40** — Nit: …`, `**L12-14**: ✅ …`: a bold place opens the line, and what it
    // says comes after it (the place itself is read from the whole line).
    if let Some(end) = place_label(line) {
        return read_lead(&line[end..]);
    }
    if let Some(lead) = crate::answer::conventional::lead(line) {
        return lead;
    }
    if let Some(severity) = marker_row(line) {
        return Lead {
            severity: Some(severity),
            title: String::new(),
            labelled: false,
            remark: false,
        };
    }
    if let Some((end, severity)) = introducer(line) {
        let (title, _) = clean_title(&line[end..]);
        let rest = read_lead_markers(&line[end..]);
        return Lead {
            severity: severity.or(rest.severity),
            title: if rest.title.is_empty() {
                title
            } else {
                rest.title
            },
            labelled: true,
            remark: false,
        };
    }
    read_lead_markers(line)
}

/// The end of a bold line place that opens `line` and a separator after it (`**Line 40** — `,
/// `**Lines 57-63**: `, `` **`L12`** - ``), when text follows.
fn place_label(line: &str) -> Option<usize> {
    static LABEL: OnceLock<Pattern> = OnceLock::new();
    // (Or the bold goes on past the dash: `**Line 64 — P1:** the counter …`, `**L71–L78 · P0 ·
    // data loss.**`.)
    let m = re(
        &LABEL,
        r"(?i)^\s*\*\*`?(?:lines?|l)\s*\d+(?:\s*(?:-|–|to)\s*(?:l\s*)?\d+)?`?(?:\*\*\s*(?:—|–|-|:|·)|\s*(?:—|–|·)\s*\**)\s*(\S)",
    )
    .captures(line)?;
    Some(m.get(1)?.start())
}

/// A line of markers only, split by `|` or `·` (`⚠️ Potential issue | 🟠 Major`, as a copy of
/// the web page prints CodeRabbit's label row): the strongest, then most severe, of them.
fn marker_row(line: &str) -> Option<(Severity, Strength)> {
    let parts: Vec<&str> = line.split(['|', '·']).map(str::trim).collect();
    if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
        return None;
    }
    let levels: Vec<Option<(Severity, Strength)>> = parts
        .iter()
        .map(|p| vocab::severity_of(p.trim_matches(['_', '*'])))
        .collect();
    // A row of labels each set in italics or bold (`_🚀 Performance & Scalability_ | _🟡 Minor_
    // | _⚡ Quick win_`) is a label row even where a label is a kind or an effort we have no
    // word for; a bare row must be all markers.
    let labels = parts.iter().all(|p| {
        let framed = |m: &str| p.len() > 2 * m.len() && p.starts_with(m) && p.ends_with(m);
        framed("_") || framed("*")
    });
    if !labels && levels.iter().any(Option::is_none) {
        return None;
    }
    levels
        .into_iter()
        .flatten()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
}

fn read_lead_markers(line: &str) -> Lead {
    // What is quoted as code (`pool.on('error')`) is never a marker.
    let cands = candidates(&without_code_spans(line));
    let mut best: Option<((Severity, Strength), usize)> = None;
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for c in &cands {
        if let Some(hit) = vocab::severity_of(&c.text) {
            spans.push((c.start, c.end));
            let better = match best {
                None => true,
                Some((b, at)) => hit.1 > b.1 || (hit.1 == b.1 && c.start < at),
            };
            if better {
                best = Some((hit, c.start));
            }
        }
    }
    let mut title = String::with_capacity(line.len());
    let mut at = 0;
    spans.sort();
    for (s, e) in spans {
        if s >= at {
            title.push_str(&line[at..s]);
            title.push(' ');
            at = e;
        } else if e > at {
            at = e;
        }
    }
    title.push_str(&line[at.min(line.len())..]);
    let (title, labelled) = clean_title(&title);
    Lead {
        severity: best.map(|(s, _)| s),
        title,
        labelled,
        remark: false,
    }
}

/// `line` with the text of its code spans blanked out byte for byte, so positions still match.
fn without_code_spans(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_code = false;
    for c in line.chars() {
        if c == '`' {
            in_code = !in_code;
            out.push(c);
        } else if in_code {
            out.extend(std::iter::repeat_n('x', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    // An unclosed quote quotes nothing.
    if in_code {
        return line.to_string();
    }
    out
}

/// Markup, images, numbering and a leading finding label removed.
fn clean_title(s: &str) -> (String, bool) {
    static IMAGE: OnceLock<Pattern> = OnceLock::new();
    static NUMBER: OnceLock<Pattern> = OnceLock::new();
    static LABEL: OnceLock<Pattern> = OnceLock::new();
    static LINK: OnceLock<Pattern> = OnceLock::new();
    let s = re(&IMAGE, r"!\[[^\]]*\]\([^)]*\)").replace_all(s, " ");
    // `[text](url)` reads as its text (an image's link leaves nothing).
    let s = re(&LINK, r"\[([^\]]*)\]\([^)\s]*\)").replace_all(&s, "$1");
    let s = crate::answer::lead::without_emphasis(&strip_tags(&s));
    let s = s
        .trim()
        .trim_start_matches(|c: char| {
            !c.is_alphanumeric() && !matches!(c, '`' | '[' | '(' | '"' | '\'' | '.' | '/' | '~')
        })
        .to_string();
    let s = re(&NUMBER, r"^(?:#?\d{1,3}[.)]|\(\d{1,3}\))\s+").replace(&s, "");
    let mut labelled = false;
    let s = match re(
        &LABEL,
        // (A hyphen only with a space before it: "Security-wise …" is no label.)
        r"(?i)^(bug|issue|finding|problem|concern|defect|logic|security|correctness)(?:\s*#?\d{1,3})?(?:\s*[:—–]|\s+-)\s*",
    )
    .find(&s)
    {
        Some(m) if FINDING_LABELS.iter().any(|l| m.as_str().to_ascii_lowercase().starts_with(l)) => {
            labelled = true;
            s[m.end()..].to_string()
        }
        _ => s.into_owned(),
    };
    let s = s
        .trim()
        .trim_matches(|c: char| {
            c.is_whitespace() || matches!(c, ':' | '|' | '—' | '–' | '-' | '*' | '_' | ',' | ';')
        })
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (s, labelled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Severity::*;

    #[test]
    fn a_row_of_markers_is_one_marker() {
        let l = read_lead("⚠️ Potential issue | 🟠 Major");
        assert_eq!((l.severity.map(|s| s.0), l.title.as_str()), (Some(P1), ""));
        assert!(marker_row("Fix the | pipe handling").is_none());
    }

    fn sev(line: &str) -> Option<Severity> {
        read_lead(line).severity.map(|s| s.0)
    }

    #[test]
    fn markers_in_their_places() {
        for (line, want, title) in [
            ("[P1] Propagate the error — src/a.rs:3", Some(P1), "Propagate the error — src/a.rs:3"),
            ("**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange?style=flat)</sub></sub>  Guard the index**", Some(P1), "Guard the index"),
            ("![medium](https://www.gstatic.com/codereviewagent/medium-priority.svg)", Some(P2), ""),
            ("_⚠️ Potential issue_ | _🟠 Major_", Some(P1), ""),
            ("**Medium Severity**", Some(P2), ""),
            ("P2: missing timeout", Some(P2), "missing timeout"),
            ("**High**: token logged", Some(P1), "token logged"),
            ("🔴 Critical — SQL built by concatenation", Some(P0), "SQL built by concatenation"),
            ("[nitpick] Rename `x`", Some(P3), "Rename `x`"),
            ("Unbounded retry (severity: high)", Some(P1), "Unbounded retry"),
            ("<img alt=\"P2\" src=\"x.svg\"> Leaky cache", Some(P2), "Leaky cache"),
            ("Bug: the counter wraps", None, "the counter wraps"),
            ("1. **Race in refill** (`src/cache.rs:40`)", None, "Race in refill (`src/cache.rs:40`)"),
            ("Potential blocker in the auth flow", None, "Potential blocker in the auth flow"),
            ("This is a critical path: keep it fast", None, "This is a critical path: keep it fast"),
        ] {
            let lead = read_lead(line);
            assert_eq!(lead.severity.map(|s| s.0), want, "{line}");
            assert_eq!(lead.title, title, "{line}");
        }
        assert!(read_lead("Bug: x").labelled);
        assert_eq!(sev("Important: the probe calls the wrong port"), Some(P1));
        assert_eq!(sev("‼️ **IMPORTANT**"), None);
        assert!(labels_only(
            "`54-61`: _🎯 Functional Correctness_ | _🟠 Major_ | _⚡ Quick win_"
        ));
        assert!(labels_only("_:bulb: Codebase verification_"));
        assert!(!labels_only("`12`: **Name the queue size.**"));
        let nit = read_lead("Looks good, except one nit: `tmp2` could be renamed");
        assert_eq!((nit.severity.map(|s| s.0), nit.labelled), (Some(P3), true));
        assert_eq!(nit.title, "`tmp2` could be renamed");
        assert_eq!(sev("One minor thing: the output prints NaN"), Some(P2));
        assert_eq!(sev("P1 Badge Keep the newest reading"), Some(P1));
        assert_eq!(
            read_lead("P1 Badge Keep the newest reading").title,
            "Keep the newest reading"
        );
        assert_eq!(sev("- **Severity**: Low"), Some(P3));
    }

    #[test]
    fn a_row_of_italic_labels_with_kinds_we_do_not_know() {
        let l = read_lead("_🚀 Performance & Scalability_ | _🟡 Minor_ | _⚡ Quick win_");
        assert_eq!(l.severity.map(|s| s.0), Some(P2));
        // Bare words that are not all markers are a sentence, not a label row.
        assert!(marker_row("Performance | Minor").is_none());
    }
}
