//! One candidate finding of a markdown answer (a [`Unit`]) turned into a [`Finding`]: its
//! severity from the strongest place that states one, its location from the most specific place
//! that gives one, its title, and its body and suggested fix kept together and in full.

mod fields;
mod locate;
mod title;

use fields::*;
pub use fields::{clean, is_detail, is_field, is_severity_field, labelled, names_a_fix, sums_up};
use locate::{importance, locate};
use title::*;

use std::sync::OnceLock;

use crate::answer::location::{self, Roots};

use crate::answer::lead::{plain, strip_tags, Lead};
use crate::answer::markers;

use crate::answer::vocab::{self, Strength};

use crate::findings::{Finding, Location, Severity};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitKind {
    Heading,
    Item,
    Paragraph,
    Row,
    /// A CodeRabbit-style `` `36-41`: `` paragraph under a file's `<summary>`.
    Range,
}

#[derive(Debug, Clone)]
pub struct Unit {
    pub kind: UnitKind,
    pub lead: String,
    pub read: Lead,
    pub indent: usize,
    /// The lines that belong to it (continuations, sub-bullets, following paragraphs).
    pub lines: Vec<String>,
    pub code: Vec<(String, String)>,
    pub hidden: Vec<String>,
    /// Named cells of a table row.
    pub fields: Vec<(String, String)>,
    pub section_severity: Option<(Severity, Strength)>,
    pub section_path: Option<Location>,
    pub quiet: bool,
    /// Listed as fixed since an earlier review (under `Resolved since last review`).
    pub done: bool,
    pub in_findings: bool,
    pub placeholder: bool,
    /// A container item (`- **High**`, `- src/a.rs:`) whose nested items are findings.
    pub children_are_findings: bool,
    /// The list it is an item of.
    pub list: Option<usize>,
    /// A table row's own number (`| 3 | P1 | … |` under a `#` column), which a detail section
    /// after the table cites (`### 3. The slot is given twice`).
    pub number: Option<u32>,
}

use crate::answer::re;

/// The finding's title and body: the lead's title (a bold span of it, a `Title:` field, or
/// the body's first line when the lead is only markers), the rest as body; `None` when there
/// is no title or the title only praises.
fn title_and_body(
    u: &Unit,
    roots: &Roots,
    title_field: Option<String>,
    mut body: Vec<String>,
    action: &mut Vec<String>,
    may_praise: bool,
) -> Option<(String, String)> {
    let (mut title, mut extra) = split_title(&u.read.title, roots);
    // `**Title** (src/a.rs:3), so …`: the bold span is the title, the rest is body.
    if let Some((bold, rest)) = bold_span_title(&u.lead) {
        if extra.body.is_empty()
            && extra.action.is_none()
            && title.starts_with(&bold)
            && title != bold
        {
            let rest = plain(&rest);
            let rest = rest.trim_start_matches(['—', '–', '-', ':', ',', ' ']);
            extra.body = rest.to_string();
            title = bold;
        }
    }
    // `**Severity: critical** (line 52) — the code …`: the place is where, the words after the
    // dash are what.
    // (`**1. Závažnost: kritická** — `a.py`, řádek 29` and the words on the next line: the
    // same.)
    let only_place = (title.starts_with('(')
        && title.ends_with(')')
        && title.chars().any(|c| c.is_ascii_digit())
        && location::lines_in(&title).is_some())
        || location::place_line(&title, roots).is_some();
    if only_place && !extra.body.is_empty() {
        title = std::mem::take(&mut extra.body);
    } else if only_place && !body.is_empty() {
        title.clear();
    } else if vocab::numbered_title(&title) {
        // (Its first line of words: a `<location …/>` tag or a code line says nothing.)
        if let Some(i) = body.iter().position(|b| {
            plain(b).split_whitespace().count() >= 3 && !b.trim_start().starts_with('<')
        }) {
            title = plain(&body.remove(i));
        }
    }
    if title.is_empty() {
        title = title_field.unwrap_or_default();
    }
    let mut body_text = extra.body;
    if let Some(a) = extra.action {
        action.insert(0, a);
    }
    if title.is_empty() {
        // A marker-only lead: the first line of the body is the title, and it may praise
        // (CodeRabbit's `` `8-40`: **Good coverage of the edge cases.** ``).
        if !body.is_empty() {
            title = plain(&body.remove(0));
            let n = vocab::normalise(&title);
            let praises = vocab::PRAISE_TITLES
                .iter()
                .any(|p| n == *p || n.starts_with(&format!("{p} ")));
            if praises && may_praise {
                return None;
            }
        }
    }
    if title.is_empty() {
        return None;
    }
    if title.chars().count() > 200 {
        let (short, rest) = shorten(&title);
        body.insert(0, rest);
        title = short;
    }
    for b in body {
        if !body_text.is_empty() {
            body_text.push('\n');
        }
        body_text.push_str(&b);
    }
    Some((title, body_text))
}

/// What a unit's detail lines, table cells, code and hidden comments say.
#[derive(Default)]
struct Details {
    field_severity: Option<(Severity, Strength)>,
    category: Option<(Severity, Strength)>,
    file: Option<String>,
    line: Option<(u32, Option<u32>)>,
    action: Vec<String>,
    evidence: Option<String>,
    title_field: Option<String>,
    body: Vec<String>,
    detail_marker: Option<(Severity, Strength)>,
}

/// Reads a unit's fields (`Severity:`, `File:`, `Fix:`…), its other lines as body, its code
/// (a fix, or evidence) and a level hidden in a comment.
/// The place a `File:` field's value names. As written first when it has no markup: stripping
/// markup would take the underscores of a bare `pkg/__init__.py`.
fn field_place(v: &str, roots: &Roots) -> Option<Location> {
    let bare = !v.contains('`') && !v.contains("**");
    let as_written = || location::find_all(v, roots).into_iter().next();
    let quoted = || {
        location::find_all(&format!("`{}`", plain(v)), roots)
            .into_iter()
            .next()
    };
    if bare {
        as_written().or_else(quoted)
    } else {
        quoted().or_else(as_written)
    }
}

/// The level a severity field's value `v` states (`text` is the whole field line): the value
/// up to the next field or its first sentence (`Severity: HIGH | Confidence: 0.81`, `Gravità:
/// media. round() viene …`), or a label opening an explanation (`**Critical**: the import no
/// longer resolves`).
fn field_level(text: &str, v: &str) -> Option<(Severity, Strength)> {
    // (A remark in brackets after the level is not part of it: `Low (lowered)`, `低（引き下げ）`.)
    let v = v
        .split(['|', ';', ',', '·', '—', '–', '(', '（'])
        .next()
        .unwrap_or("")
        .trim();
    let first_sentence = v.split(". ").next().unwrap_or("").trim_end_matches('.');
    vocab::field_severity(v)
        .or_else(|| {
            (first_sentence.split_whitespace().count() <= 3)
                .then(|| vocab::field_severity(first_sentence))
                .flatten()
        })
        .or_else(|| {
            markers::read_lead(text.split_once(':').map_or("", |(_, v)| v).trim())
                .severity
                .filter(|s| s.1 == Strength::Level)
        })
}

fn details(u: &Unit, roots: &Roots) -> Details {
    let mut field_severity = None;
    let mut category = None;
    let mut file: Option<String> = None;
    let mut line: Option<(u32, Option<u32>)> = None;
    let mut action: Vec<String> = Vec::new();
    let mut evidence = None;
    let mut title_field = None;
    let mut body: Vec<String> = Vec::new();
    let mut detail_marker = None;
    let mut last_was_action = false;
    let table_fields = u.fields.iter().map(|(k, v)| (format!("{k}: {v}"), true));
    let detail_lines = u.lines.iter().map(|l| (l.clone(), false));
    for (text, from_table) in table_fields.chain(detail_lines) {
        match field(&text) {
            Some((Field::Severity, v)) => {
                let level = field_level(&text, &v);
                match level {
                    Some(s) => field_severity = field_severity.or(Some(s)),
                    None if !from_table => body.push(text.clone()),
                    None => {}
                }
                last_was_action = false;
            }
            // An earlier round's level is history, not this round's level nor its words.
            Some((Field::EarlierSeverity, _)) => last_was_action = false,
            Some((Field::Category, v)) => {
                category = category.or(vocab::severity_of(&v));
                last_was_action = false;
            }
            Some((Field::File, v)) if !v.is_empty() => {
                if let Some(l) = field_place(&v, roots) {
                    file.get_or_insert(l.path.clone());
                    if let Some(s) = l.start_line {
                        line.get_or_insert((s, l.end_line));
                    }
                } else if let Some(l) = location::lines_in(&plain(&v)).filter(|_| from_table) {
                    // A place column giving only a line (`| строка 142 |`, `| line 88 |`): said
                    // in the body too, where the answer's one file finds it.
                    line.get_or_insert(l);
                    body.push(plain(&v));
                } else if !from_table {
                    body.push(text.clone());
                }
                last_was_action = false;
            }
            Some((Field::Line, v)) => {
                if let Some(l) = location::lines_in(&format!("line {}", plain(&v))) {
                    line.get_or_insert(l);
                }
                last_was_action = false;
            }
            Some((Field::Action, v)) => {
                if !v.is_empty() && !vocab::is_placeholder(&v) {
                    action.push(plain(&v));
                }
                last_was_action = true;
            }
            Some((Field::Evidence, v)) => {
                evidence = Some(plain(&v));
                body.push(text.clone());
                last_was_action = false;
            }
            Some((Field::Title, v)) => {
                title_field.get_or_insert(plain(&v));
                last_was_action = false;
            }
            Some((Field::Body, v)) => {
                body.push(v);
                last_was_action = false;
            }
            _ if from_table => {}
            _ => {
                let lead = markers::read_lead(&text);
                if (lead.title.is_empty() || markers::labels_only(&text)) && lead.severity.is_some()
                {
                    // A marker alone on its line (`**Medium Severity**`) under a finding.
                    detail_marker = detail_marker.or(lead.severity);
                } else if last_was_action && text.starts_with(char::is_whitespace) {
                    action.push(text.trim().to_string());
                } else {
                    body.push(text.clone());
                    last_was_action = false;
                }
            }
        }
    }
    for (info, code) in &u.code {
        let fenced = format!("```{info}\n{code}```");
        let is_fix = ["suggestion", "diff", "patch"]
            .iter()
            .any(|k| info.starts_with(k));
        if is_fix || (last_was_action && action.len() <= 1) {
            action.push(fenced);
        } else {
            body.push(fenced);
        }
    }
    // A level hidden in a comment (`<!-- **High Severity** -->`, Bugbot's older format).
    for h in u.hidden.iter().filter(|h| h.lines().count() <= 2) {
        let lead = markers::read_lead(h.trim());
        if lead.title.is_empty() && lead.severity.is_some() {
            detail_marker = detail_marker.or(lead.severity);
        }
    }

    Details {
        field_severity,
        category,
        file,
        line,
        action,
        evidence,
        title_field,
        body,
        detail_marker,
    }
}

/// The finding a unit is, or `None` when nothing says it is one.
/// A comment whose last sentence is praise and nothing else ("… was missing before. LGTM!"):
/// it tells what is now right (CodeRabbit's additional comments), whatever problem it names as
/// gone. "Otherwise LGTM" is not praise alone.
fn signed_off(u: &Unit) -> bool {
    // (An item of one line signs off in its lead: "… so existing callers keep working. Good.")
    let Some(last) = u
        .lines
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty())
        .or(Some(&u.lead).filter(|l| !l.trim().is_empty()))
    else {
        return false;
    };
    let last = plain(last);
    let sentence = last
        .trim_end_matches(['.', '!', ' '])
        .rsplit(['.', '!', '?'])
        .next()
        .unwrap_or("");
    let normal = vocab::normalise(sentence);
    !normal.is_empty() && vocab::PRAISE_TITLES.contains(&normal.as_str())
}

/// All a unit says: its lead and its lines.
fn said(u: &Unit) -> String {
    std::iter::once(u.lead.as_str())
        .chain(u.lines.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A risk the reviewer checked and marked passed (`- Path traversal: … stored under a UUID
/// directory. ✅ Fine.`): its check mark and no mark of a problem beside it.
fn passed_check(u: &Unit) -> bool {
    let said = said(u);
    static PASSED: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    // (The mark with a word that says so: "Steps of Reproduction ✅" is a section's label.)
    let passed = re(
        &PASSED,
        r"(?i)✅\s*\**(?:fine|ok|okay|good|looks good|pass(?:es|ed)?|handled|safe|correct|covered|no issues?)\b|\b(?:fine|ok|okay|good|pass(?:es|ed)?|handled|safe|correct|covered)\W{0,3}✅",
    );
    // (Or the mark opens the item: `- ✅ `values.yaml` exposes the probe settings …`.)
    // (Or a mark that the row does not apply or waits on someone: `➖ i18n: not applicable`,
    // `⚪ on-call sign-off`.)
    // (Or after the row's label: `- Authz: ✔ route-level scopes kept`.)
    let fine = |t: &str| {
        matches!(
            crate::answer::vocab::check_mark(t),
            Some(crate::answer::vocab::Check::Passed | crate::answer::vocab::Check::Skipped)
        )
    };
    let lead = plain(&u.lead);
    let opens = fine(&lead)
        || lead
            .split_once([':', '：'])
            .is_some_and(|(label, rest)| label.chars().count() <= 60 && fine(rest));
    // (Or it closes on a sentence that says so: "… so per-product order holds. Fine.")
    static CLOSES: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    let closes = re(
        &CLOSES,
        r"(?i)(?:^|[.;:!]\s+)(?:(?:that(?:'s| is)|this is|it(?:'s| is) )?(?:fine|ok|okay|good|correct|safe|all good)|not a (?:problem|concern|bug|blocker|finding)|no (?:issue|problem|concern|action needed|finding)|kein (?:befund|problem|handlungsbedarf)|pas un problème|aucun problème|no es un problema|ningún problema|nessun problema|non è un problema|nenhum problema|não é um problema|не проблема|проблемы нет|no (?:change|action|fix)(?:es|s)? (?:is |are )?(?:needed|required)|nothing to (?:change|fix|do))\W{0,3}$",
    );
    // (Or it opens by saying it is a risk the reviewer ruled out.)
    // (Or, a question in its title, its words raise a worry and clear it: "**Lifetime issue on
    // reuse?** I thought … but `reset` takes `&mut self`. No problem.")
    let asked = plain(&u.lead).trim_end().ends_with(['?', '？']);
    let ruled_out = crate::answer::verdict::ruled_out(&plain(&u.lead))
        || (asked && crate::answer::verdict::ruled_out(&plain(&said.replace('\n', " "))));
    // (Not when the item says what goes wrong first: "… two workers deadlock. Not a blocker." is
    // a finding the reviewer rates low, not a check that passed.)
    let closes =
        || closes.is_match(said.trim_end()) && !crate::answer::verdict::raises_concern(&said);
    // (Or a comment on quoted code opens by saying that code is fine: "This part is fine, the
    // backfill order is right. Just confirming I read it.", with no turn after it.)
    static PART_FINE: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    static TURN: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    let part_fine = || {
        re(
            &PART_FINE,
            r"(?i)^\W*(?:this|that|the)\s+(?:part|hunk|bit|change|block|section|line|one)\s+(?:is|looks|seems)\s+(?:fine|good|correct|right|ok|okay|safe)\b",
        )
        .is_match(&lead)
            && !crate::answer::verdict::raises_concern(&said)
            && !re(&TURN, vocab::FIXED_BUT).is_match(&said)
    };
    (passed.is_match(&said) || opens || closes() || ruled_out || part_fine())
        && !['❌', '⚠', '🔴', '🟠', '🟡', '🛑', '❗']
            .iter()
            .any(|m| said.contains(*m))
        && u.read.severity.is_none()
}

/// Does the unit praise: its title (`normal_title`, normalised) opens or ends on praise, approves,
/// or its text ends on a sentence of praise alone?
fn praises(u: &Unit, normal_title: &str) -> bool {
    vocab::PRAISE_TITLES
        .iter()
        .any(|p| normal_title == *p || normal_title.starts_with(&format!("{p} ")))
        || vocab::PRAISE_ENDINGS
            .iter()
            .any(|p| normal_title == *p || normal_title.ends_with(&format!(" {p}")))
        || crate::answer::verdict::approves(&plain(&u.read.title))
        || praise_sentence(&said(u))
}

/// Does the unit's text end on a sentence of praise alone ([`vocab::PRAISE_SENTENCES`])?
fn praise_sentence(text: &str) -> bool {
    let last = plain(text)
        .trim_end()
        .trim_end_matches(['.', '!', '。', '！', ' '])
        .rsplit(['.', '!', '。', '！', '?', '？'])
        .next()
        .map(vocab::normalise)
        .unwrap_or_default();
    vocab::PRAISE_SENTENCES.contains(&last.as_str())
}

/// A limit of the review, not a problem of the change (`⚠️ Not verified: I did not render the
/// chart with helm template`): what the reviewer did not run, with no word of a problem.
fn review_limit(u: &Unit) -> bool {
    static LIMIT: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    let said = said(u);
    re(
        &LIMIT,
        r"(?i)\bi (?:did not|didn't|have not|haven't|could not|couldn't|was not able to|wasn't able to|cannot|can't) (?:\w+ )?(?:run|render|build|test|deploy|execute|benchmark|verify|reproduce|profile|measure|try|load[- ]test|see|access|open|inspect)\b",
    )
    .is_match(&said)
        && !crate::answer::verdict::raises_concern(&said)
        // (Not a unit that also points at a line: a section whose first item is a limit and
        // whose second says what breaks at `envs/prod/main.tf:12`.)
        && !location::find_all(&said, &Roots::default())
            .iter()
            .any(|l| l.start_line.is_some())
        && !u
            .read
            .severity
            .is_some_and(|s| s.1 == Strength::Level && !said.contains('⚠'))
}

/// A question asked only to know (`Why 32 workers? Not a problem, just asking.`, "out of
/// curiosity"), with no word of a problem and no level: the reviewer says it raises nothing.
fn just_asking(u: &Unit) -> bool {
    static ASKING: crate::pattern::Pattern = crate::pattern::Pattern::new(vocab::JUST_ASKING);
    let said = said(u);
    ASKING.is_match(&said)
        && !crate::answer::verdict::raises_concern(&said)
        && u.read.severity.is_none()
}

/// Is the unit a bot's footer: its first words a footer's ([`vocab::is_bot_footer`]), the rest
/// its share links and closing tags (`- [X](https://…)`, `</sub>`)?
fn footer(u: &Unit) -> bool {
    let chrome = |t: &str| {
        let t = t.trim().trim_start_matches("- ").trim();
        t.is_empty()
            || (t.starts_with('[') && t.ends_with(')') && t.contains("]("))
            || t.starts_with("</")
    };
    let said: Vec<String> = std::iter::once(&u.lead)
        .chain(&u.lines)
        .map(|l| plain(l))
        .filter(|l| !l.trim().is_empty())
        .collect();
    said.first()
        .is_some_and(|first| vocab::is_bot_footer(first))
        && said[1..].iter().all(|l| chrome(l))
}

/// A unit that raises nothing whatever it says: a placeholder, a bot's footer, a comment fixed
/// since or taken back, a passed check, a limit of the review, a question asked only to know.
fn not_raised(u: &Unit) -> bool {
    u.placeholder
        || footer(u)
        || u.done
        || withdrawn(u)
        || marked_fixed(u)
        || passed_check(u)
        || review_limit(u)
        || just_asking(u)
}

/// Did the reviewer take the unit back, or its thread say it was resolved?
fn withdrawn(u: &Unit) -> bool {
    static OFFERED: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    let marked = vocab::is_withdrawn(&u.lead)
        || u.lines.iter().any(|l| vocab::is_withdrawn(l))
        // (A hard-wrapped line can split the words: "Tämä on jo" / "korjattu toisessa commitissa".)
        || vocab::is_withdrawn(&said(u).replace('\n', " "));
    marked && !re(&OFFERED, vocab::FIX_OFFERED).is_match(&said(u))
}

/// Does the comment say, in its own words, that it is fixed: after its title (`**Encoding** —
/// fixed, the file is UTF-8 now`, `- Content-type sniffing — fixed.`, `**F1 (blocking):**
/// fixed in a7d3e21.`, `**A1 (alta)** — arredondamento com Float: corrigido`, `**H3: variable tmp2.**
/// Corregido.`, an item that only says so: `3. Исправлено, проверил тестом.`), in its label
/// (`**Crítico (resuelto):**`) or as its last sentence (`… before comparing. Resolved.`)?
/// A "fixed, but …" or "fixed only partly" is not.
fn marked_fixed(u: &Unit) -> bool {
    said_fixed(&u.lead, &u.lines)
}

/// [`marked_fixed`] for a comment given as its first line and the lines after it (a raw
/// block of an answer, a ticked `- [x] [P1] …` among them).
pub fn said_fixed(lead: &str, lines: &[String]) -> bool {
    static AFTER_TITLE: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    static IN_LABEL: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    static LAST: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    static BUT: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    let words = || vocab::FIXED_WORDS.join("|");
    let after_title = crate::answer::re_built(&AFTER_TITLE, || {
        format!(
            r"(?i)^\W*(?:\d{{1,3}}[.)]\s*)?(?:\*\*[^*\n]+\*\*\s*(?:—|–|--?)\s*)?(?:(?:\*\*[^*\n]+\*\*|[^—–:\n]{{3,}}?)\s*(?:—|–|--?|:)|\*\*[^*\n]+[:：.!?]\*\*)?\s*(?:\*\*)?(?:now |already |all |both )?(?:{})(?:\*\*)?(?:[ \t]+(?:in|by|with|via|since)[ \t]+[^\s,.;:]+)?[ \t]*(?:[.,;:!。，；：！]|$)",
            words()
        )
    });
    let in_label = crate::answer::re_built(&IN_LABEL, || {
        format!(r"(?i)^\W*\*\*[^*\n]*\((?:{})\)[^*\n]*\*\*", words())
    });
    let last = crate::answer::re_built(&LAST, || {
        format!(r"(?i)(?:^|[.!?]\s+)(?:{})[.!]?\s*$", words())
    });
    let but = crate::answer::re(&BUT, vocab::FIXED_BUT);
    let sentence_after = |text: &str, at: usize| {
        let rest = &text[at..];
        rest[..rest.find(['.', '!', '?', '\n']).unwrap_or(rest.len())].to_string()
    };
    if let Some(m) = after_title.find(lead) {
        return !but.is_match(&sentence_after(lead, m.end()));
    }
    if let Some(m) = in_label.find(lead) {
        return !but.is_match(&sentence_after(lead, m.end()));
    }
    // Any paragraph of the comment may end so: the thread's reply often follows it.
    std::iter::once(lead)
        .chain(lines.iter().map(String::as_str))
        .any(|l| last.is_match(l.trim_end()))
}

/// A comment labelled low that its own words take back and rate again (`nit: the request is
/// logged with its cookie` … "actually no, not a nit. P1 — that log is searchable"): the
/// level it gives after "not a nit".
fn rerated(u: &Unit) -> Option<(Severity, Strength)> {
    static NOT_A_NIT: OnceLock<crate::pattern::Pattern> = OnceLock::new();
    let not_a_nit = re(
        &NOT_A_NIT,
        r"(?i)\bnot (?:a |just a |really a )?(?:nit|nitpick|minor (?:one|point|thing|issue))\b",
    );
    let low = u.read.severity.is_some_and(|s| s.0 >= Severity::P2);
    let said = said(u);
    let m = not_a_nit.find(&said).filter(|_| low)?;
    // The level opens the next sentence (`P1 — …`) or is said in it ("this is a blocker").
    let rest = said[m.end()..].trim_start_matches(|c: char| c == '.' || c.is_whitespace());
    let level = markers::read_lead(rest)
        .severity
        .map(|s| s.0)
        .or_else(|| crate::answer::prose::severity_in(rest))?;
    (level < Severity::P2).then_some((level, Strength::Level))
}

pub fn finding(u: &Unit, roots: &Roots) -> Option<Finding> {
    if not_raised(u) {
        return None;
    }
    let Details {
        field_severity,
        category,
        file,
        line,
        mut action,
        evidence,
        title_field,
        body,
        detail_marker,
    } = details(u, roots);

    // Severity: the unit's own level, then a field, then its section's level, then categories.
    let lead_sev = rerated(u).or(u.read.severity);
    let level = |s: Option<(Severity, Strength)>| s.filter(|s| s.1 == Strength::Level);
    let severity = level(lead_sev)
        .or(level(field_severity))
        .or(level(detail_marker))
        .or(level(u.section_severity))
        .or(lead_sev)
        .or(field_severity)
        .or(category)
        .or(u.section_severity)
        .map(|s| s.0)
        .or_else(|| {
            let all = std::iter::once(&u.lead).chain(&u.lines);
            all.filter_map(|t| importance(t)).next()
        });

    let loc = locate(u, roots, file.as_deref(), line, &body);

    // A place written as `path:line` in the lead or a code citation: a comment on that line.
    let lined_in_lead = std::iter::once(&u.lead)
        .chain(u.lines.first())
        .flat_map(|t| location::find_all(t, roots))
        .any(|l| l.start_line.is_some() && !l.path.is_empty())
        || u.code
            .iter()
            .any(|(info, _)| location::citation(info, roots).is_some());
    let text = format!("{}\n{}", u.lead, body.join("\n"));
    let concern = crate::answer::verdict::raises_concern(&text);
    let own_level = level(lead_sev)
        .or(level(field_severity))
        .or(level(detail_marker))
        .is_some();
    let qualifies = severity.is_some()
        || u.in_findings
        || u.read.labelled
        || matches!(u.kind, UnitKind::Heading | UnitKind::Range | UnitKind::Row)
        || concern
        || lined_in_lead
        || (u.kind == UnitKind::Item && line_labelled(&u.lead))
        || (loc.is_some() && u.section_path.is_some());
    // In a quiet section a green or white circle marks a check that passed (`🟢 **Coverage** —
    // 92 %` under Codacy's "Up to standards"), not a low finding.
    let passed_check = u.quiet
        && (u.lead.contains('🟢') || u.lead.contains('⚪'))
        && lead_sev.is_some_and(|s| s.0 == Severity::P3);
    if !qualifies || (u.quiet && (!own_level || passed_check)) {
        return None;
    }
    if vocab::is_placeholder(&u.read.title) && !u.read.title.is_empty() {
        return None;
    }
    // `**Results:**` over `0 new issues` (and a `[View in Codacy](…)` link): a label whose every
    // line is a placeholder.
    let label = plain(&u.lead).trim_end().ends_with(':') && u.read.title.split(' ').count() <= 3;
    let link_only = |l: &str| {
        let t = l.trim();
        t.starts_with('[') && t.ends_with(')') && t.contains("](")
    };
    let said: Vec<&String> = u.lines.iter().filter(|l| !link_only(l)).collect();
    if label && !said.is_empty() && said.iter().all(|l| vocab::is_placeholder(&plain(l))) {
        return None;
    }
    // "![MAJOR] 1 major", "2 high": a tally of findings said elsewhere, not one of them.
    if u.code.is_empty() && vocab::is_tally(&u.read.title) {
        return None;
    }
    // "Here are some suggestions:": a lead-in to what follows, not a finding.
    if u.kind == UnitKind::Paragraph
        && u.lead.trim_end().ends_with(':')
        && u.lines.is_empty()
        && u.code.is_empty()
        && !own_level
        && loc.is_none()
    {
        return None;
    }
    let normal_title = vocab::normalise(&u.read.title);
    // A range before the words (`` `8-40`: **LGTM!** ``) is where, not what.
    let normal_title = normal_title
        .trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ')
        .to_string();
    let praise = praises(u, &normal_title);
    // "Security: all looks good" (a category's rating), "LGTM!": praise, even with a marker.
    let rated = crate::answer::verdict::approves(&plain(&u.read.title));
    // `praise:` / `question:` (Conventional Comments) raise nothing, unless the words do.
    let remark = u.read.remark && !concern;
    // A title that is praise and nothing else (`**LGTM!**`) praises, whatever its body explains.
    let praise_alone = vocab::PRAISE_TITLES.contains(&normal_title.as_str());
    if (praise && !own_level && !concern)
        || (praise_alone && !own_level)
        || (signed_off(u) && !own_level)
        || remark
        || (rated && !concern)
        || counts_only(&normal_title)
        || tally(&u.lead)
    {
        return None;
    }

    let (title, body_text) = title_and_body(
        u,
        roots,
        title_field,
        body,
        &mut action,
        !own_level && !concern,
    )?;
    let mut f = Finding::new(severity.unwrap_or(Severity::Unclassified), &clean(&title));
    f.location = loc;
    f.evidence = evidence.map(|e| clean(&e));
    f.body = clean(&body_text);
    keep_lead_line(&mut f, u);
    f.action = (!action.is_empty()).then(|| clean(&action.join("\n")));
    Some(f)
}

/// Does an item open with a line as its label (`- Line 18: the query …`, `- Zeile 14: …`,
/// `- строка 23: …`)? It comments on that line of the file under review.
fn line_labelled(lead: &str) -> bool {
    let t = plain(lead);
    let t = t.trim_start_matches(|c: char| c.is_whitespace() || "-*+".contains(c));
    t.split_once(':').is_some_and(|(label, _)| {
        label.split_whitespace().count() <= 3 && location::lines_in(label).is_some()
    })
}

/// A line the lead gave with no file (`Блокирующая проблема: строка 74 — …`) and that the
/// title dropped: the lead stays in the body, where the answer's one file finds it.
fn keep_lead_line(f: &mut Finding, u: &Unit) {
    let said = format!("{}\n{}", f.title, f.body);
    if f.location.is_some() || location::lines_in(&said).is_some() {
        return;
    }
    let lead = clean(&plain(&u.lead));
    if location::lines_in(&lead).is_some() {
        f.body = format!("{lead}\n{}", f.body).trim().to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields() {
        assert_eq!(
            field("- **Severity:** High").map(|f| f.0),
            Some(Field::Severity)
        );
        assert_eq!(
            field("**File**: src/a.rs").map(|f| f.1),
            Some("src/a.rs".into())
        );
        assert_eq!(
            field("Suggested fix: bound it").map(|f| f.0),
            Some(Field::Action)
        );
        assert_eq!(field("The fix is easy: do it"), None);
        assert!(!is_field("Race: two callers"));
    }

    #[test]
    fn titles() {
        let roots = Roots::default();
        let (t, e) = split_title("Off by one — src/a.rs:3 — skips the last — use ..=", &roots);
        assert_eq!(t, "Off by one");
        assert_eq!(e.body, "skips the last");
        assert_eq!(e.action.as_deref(), Some("use ..="));
        assert_eq!(
            split_title("Race in refill (`src/cache.rs:40`)", &roots).0,
            "Race in refill"
        );
        assert_eq!(split_title("Leak in `src/a.rs:3`", &roots).0, "Leak");
        assert_eq!(
            split_title("`src/a.rs:29`: the shift overflows", &roots).0,
            "the shift overflows"
        );
        assert_eq!(
            split_title("`src/a.rs:61` — evicts too early", &roots).0,
            "evicts too early"
        );
        assert_eq!(
            split_title("36-41: Prefer pathlib over os.path", &roots).0,
            "Prefer pathlib over os.path"
        );
        assert!(tally("**Counts:** [Critical] 0 | [High] 1 | [Medium] 2"));
        assert!(tally("High: 1, Medium: 3"));
        assert!(!tally("High: the pool leaks, 2 connections per request"));
        // A title that is only about a file keeps it.
        assert_eq!(split_title("Note: src/a.rs", &roots).0, "Note: src/a.rs");
    }
}
