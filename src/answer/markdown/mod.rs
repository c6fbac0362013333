//! The structure of a markdown review: which headings open severity sections, which sections are
//! summaries or praise, and which headings, list items, table rows and paragraphs are findings,
//! with the lines that belong to each.
//!
//! A *unit* is a candidate finding: its lead (a heading, a list item's first line, a table row,
//! a paragraph that opens with a marker or a bold title) plus everything that belongs to it (its
//! indented lines and sub-bullets, following paragraphs, code blocks, hidden comments). A unit
//! becomes a finding when something says it is one: a severity marker, a severity or findings
//! section around it, a location, or a finding label ([`crate::answer::unit::finding`]). Summaries,
//! praise and walkthrough tables never do, unless a unit in them carries its own severity.

mod dispatch;
mod headings;
mod lists;
mod overview;
mod pairing;
mod paragraphs;

use headings::*;
use paragraphs::*;

use crate::answer::blocks::{blocks, Block};

use crate::answer::location::{self, Roots};

use crate::answer::lead::{plain, strip_tags};
use crate::answer::markers;

use crate::answer::unit::{self, Unit, UnitKind};

use crate::answer::vocab::{self, Strength};

use crate::findings::{Finding, Location, Severity};

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// A heading that says nothing about findings; its title may still turn out to be one when
    /// field lines (`Severity:`, `File:`) follow it.
    Neutral(String),
    Quiet,
    /// What the reviewer lists as fixed since an earlier review (`Resolved since last review
    /// (2)`): its items are not raised again, whatever level they still wear.
    Done,
    Findings,
    Severity(Severity, Strength),
    Missing,
    Recommendation,
    /// A rating of the change, not of its problems (CodeRabbit's "Estimated code review
    /// effort: 🎯 3 (Moderate)", a confidence score): nothing in it is a finding.
    Rating,
    /// The section under a heading that is itself a finding (its content is the finding's).
    Finding(usize),
    /// A finding's "Prompt for AI agents" restatement: not its text, but it may say where.
    Prompt(usize),
}

/// What the sections around a point say of it ([`Reader::context`]).
struct Around {
    severity: Option<(Severity, Strength)>,
    quiet: bool,
    findings: bool,
    path: Option<Location>,
    /// Under a section of items fixed since an earlier review ([`Kind::Done`]).
    done: bool,
}

#[derive(Debug, Clone)]
struct Section {
    level: u8,
    kind: Kind,
    path: Option<Location>,
    /// A place line's section (`**src/a.rs:27**`): it introduces one comment, and a second
    /// finding after it is about somewhere else.
    place: bool,
    used: Option<usize>,
    /// Opened by a bold line or a place line.
    bold: bool,
}

/// Section levels: `#`…`######` are 1–6 and `<summary>` titles nest below them by `<details>`
/// depth. A bold line used as a heading (and a place line) has no level of its own: it nests in
/// whatever is open and replaces the bold section before it ([`BOLD`] asks for that).
const SUMMARY_LEVEL: u8 = 8;

const BOLD: u8 = u8::MAX;

/// What the markdown held.
#[derive(Debug, Default)]
pub struct Markdown {
    pub findings: Vec<Finding>,
    pub missing_alternatives: Vec<String>,
    pub recommendation: Option<String>,
    /// A severity section, findings section or placeholder was seen: the answer has the shape
    /// of a review even when it raised nothing.
    pub structured: bool,
    /// Prose that belongs to no finding, outside summary sections (where an approval and any
    /// concern next to it are read).
    pub loose_text: Vec<String>,
    /// Prose of summary and praise sections.
    pub quiet_text: Vec<String>,
    /// For each finding, whether it is one only by its words ([`remark_like`]), and the text
    /// it was read from.
    pub remarks: Vec<(bool, String)>,
}

struct Reader<'a> {
    roots: &'a Roots,
    sections: Vec<Section>,
    units: Vec<Unit>,
    /// The unit that following lines belong to.
    open: Option<usize>,
    /// Container items (`- **High**`) whose nested items are findings, innermost last.
    containers: Vec<usize>,
    /// Header of the table being read.
    table: Option<Vec<String>>,
    /// The paragraph just read says the table after it lists what the change fixed ("**1
    /// alert fixed** by this pull request:"), and the table being read is that one.
    fixed_next: bool,
    fixed_table: bool,
    details_depth: u8,
    after_blank: bool,
    /// The last line was a place line: the next one starts a paragraph.
    after_location: bool,
    /// How many units there were when the last place line was read: a level alone on its line
    /// after a place (a web page's `Comment on lines +45 to +52`, code, then `critical`) opens
    /// the comment on that place, not the finding before it.
    units_at_place: Option<usize>,
    /// Levels stated by a lead-in paragraph for the list that follows it, by list number.
    list_levels: Vec<(usize, Severity)>,
    /// A level a lead-in paragraph stated for the one finding after it ("However, there is one
    /// **critical** problem:"), until the next text at the margin; and the units it rated.
    para_level: Option<Severity>,
    unit_levels: Vec<(usize, Severity)>,
    /// Lists a lead-in announced as problems ("Three observations from this pass:"): their
    /// items are findings even in a summary section.
    announced: Vec<usize>,
    /// Lists a lead-in said only look wrong ("here is why each one is fine:"): quiet.
    cleared: Vec<usize>,
    /// Lists a lead-in set aside (a bot's findings below its threshold): none is raised.
    hidden: Vec<usize>,
    /// Something was said since the last heading (a marker line right under a title promotes
    /// the title to a finding only when it comes first).
    heading_content: bool,
    /// The last unit made, for a `<details>` that follows it (its fix, its agent prompt).
    recent: Option<usize>,
    /// `Impact: High` lines of a table record, for the finding the record goes on to give.
    pending: Vec<String>,
    /// The file a heading said the answer is about (`## Review: src/a.ts`): where a finding
    /// that gives only a line (`**Critical (line 12):**`) is.
    about: Option<String>,
    /// The last heading's words: a `## Risk` section's "Low — …" rates the change, not a finding.
    last_heading: String,
    /// The paragraph under way is quiet as a whole (it opened with a low risk rating).
    quiet_paragraph: bool,
    /// The line before stopped mid-sentence (a hard-wrapped paragraph): a level word that
    /// opens this line continues that sentence ("…is the" / "P0 incident from last quarter")
    /// and opens no finding.
    unfinished: bool,
    /// A code host's thread header said the thread below it was resolved (GitLab's "Resolved by
    /// Marta 20 hours ago" above the comment): the line, for the thread's first comment.
    resolved_thread: Option<String>,
    /// The answer keeps the review prompt's skeleton, one `## P1 - …` heading per level (its
    /// names translated or not): those headings are sections, whatever words follow the tag.
    skeleton: bool,
    /// The list being read (its items are alike: findings or not), and the next list's number.
    list: Option<usize>,
    lists: usize,
    out: Markdown,
}

impl<'r> Reader<'r> {
    fn new(text: &str, roots: &'r Roots) -> Self {
        Reader {
            roots,
            sections: Vec::new(),
            units: Vec::new(),
            open: None,
            containers: Vec::new(),
            table: None,
            fixed_next: false,
            fixed_table: false,
            details_depth: 0,
            after_blank: true,
            after_location: false,
            units_at_place: None,
            list_levels: Vec::new(),
            para_level: None,
            unit_levels: Vec::new(),
            announced: Vec::new(),
            cleared: Vec::new(),
            hidden: Vec::new(),
            list: None,
            lists: 0,
            pending: Vec::new(),
            heading_content: false,
            recent: None,
            about: None,
            last_heading: String::new(),
            quiet_paragraph: false,
            unfinished: false,
            resolved_thread: None,
            skeleton: skeleton(text),
            out: Markdown::default(),
        }
    }
}

/// Do `lines` hold words of their own: a line of three words or more that is not only a link or
/// an image (Augment's `[![Fix This in Augment](…)](…)` button)?
fn says_something(lines: &[String]) -> bool {
    lines.iter().any(|l| {
        let t = l.trim();
        let link = (t.starts_with('[') || t.starts_with("![")) && t.ends_with(')');
        !link && plain(t).split_whitespace().count() >= 3
    })
}

pub fn read(text: &str, roots: &Roots) -> Markdown {
    let mut r = Reader::new(text, roots);
    let bs = blocks(text);
    for (i, b) in bs.iter().enumerate() {
        let next_is_sep = matches!(bs.get(i + 1), Some(Block::TableSeparator));
        r.block(b, next_is_sep);
    }
    r.flush_record();
    let mut out = r.out;
    // What quiet sections hold, items (and their wrapped lines) included: not raised again.
    for u in r.units.iter().filter(|u| u.quiet) {
        out.quiet_text.push(u.lead.clone());
        out.quiet_text.extend(u.lines.iter().cloned());
    }
    let mut found: Vec<Option<Finding>> = r
        .units
        .iter()
        .map(|u| {
            if u.placeholder {
                out.structured = true;
            }
            // (A container with words of its own under it, `1. `cron.go:88`` with its
            // paragraph, is a finding at that place; a link or an image after it says nothing,
            // and items nested in it are findings of their own.)
            let contained = u.children_are_findings && !says_something(&u.lines);
            (!contained && !u.placeholder)
                .then(|| unit::finding(u, roots))
                .flatten()
        })
        .collect();
    // Items of one list are alike: when some are findings, the others are too (a reviewer's
    // list of problems where not every item names a file or a severity).
    let lists_with_findings: std::collections::HashSet<usize> = r
        .units
        .iter()
        .zip(&found)
        .filter(|(_, f)| f.is_some())
        .filter_map(|(u, _)| u.list)
        .collect();
    for (u, f) in r.units.iter().zip(found.iter_mut()) {
        if f.is_none()
            && !u.placeholder
            && !u.quiet
            && !u.children_are_findings
            && u.list.is_some_and(|l| lists_with_findings.contains(&l))
        {
            let mut alike = u.clone();
            alike.in_findings = true;
            *f = unit::finding(&alike, roots);
        }
    }
    level_from_lead_in(&r.units, &r.list_levels, &mut found);
    overview::level_from_overview(text, &r.units, &mut found);
    for (u, level) in &r.unit_levels {
        if let Some(f) = found.get_mut(*u).and_then(Option::as_mut) {
            if f.severity == Severity::Unclassified {
                f.severity = *level;
            }
        }
    }
    pairing::pair_cited_details(&r.units, &mut found, false);
    pairing::pair_table_with_details(&r.units, &mut found);
    pairing::pair_cited_details(&r.units, &mut found, true);
    pairing::pair_list_with_details(&r.units, &mut found);
    pairing::pair_summary_with_details(&r.units, &mut found);
    pairing::pair_pointer_with_details(&r.units, &mut found);
    pairing::pair_preview_with_details(&r.units, &mut found);
    // What the structure read and found raises nothing (praise, a tally, a withdrawn comment)
    // is quiet too: prose read later must not raise it again.
    for (u, f) in r.units.iter().zip(&found) {
        if f.is_none() && !u.quiet {
            out.quiet_text.push(u.lead.clone());
            out.quiet_text.extend(u.lines.iter().cloned());
        }
    }
    if let Some(about) = &r.about {
        for (u, f) in r.units.iter().zip(found.iter_mut()) {
            let Some(f) = f.as_mut().filter(|f| f.location.is_none()) else {
                continue;
            };
            // (A link's address names its own place.) The line is in the lead, or in a field
            // of the record under it (`- **Line:** 41`).
            let field_line = || {
                u.lines
                    .iter()
                    .filter(|l| unit::is_field(l))
                    .find_map(|l| location::lines_in(&plain(l)))
            };
            let lead_line = location::lines_in(&u.lead).filter(|_| !u.lead.contains("http"));
            if let Some((s, e)) = lead_line.or_else(field_line) {
                f.location = Some(Location::new(about, Some(s), e));
            }
        }
    }
    out.remarks
        .resize(out.findings.len(), (false, String::new()));
    for (u, f) in r.units.iter().zip(found) {
        if let Some(f) = f {
            let said = std::iter::once(&u.lead).chain(&u.lines).cloned();
            out.remarks
                .push((remark_like(u, &f), said.collect::<Vec<_>>().join("\n")));
            out.findings.push(f);
        }
    }
    out
}

/// A finding only by its words: no level, no line, not in a findings section, no label, an
/// item or paragraph. Under an answer that states an approval, such items are the reviewer's
/// observations ("Replay is strictly sequential, so there is no race").
fn remark_like(u: &Unit, f: &Finding) -> bool {
    f.severity == Severity::Unclassified
        && !u.in_findings
        && !u.read.labelled
        && matches!(u.kind, UnitKind::Item | UnitKind::Paragraph)
        && f.location.as_ref().is_none_or(|l| l.start_line.is_none())
}

/// A paragraph that introduces the list after it and states one level for all of it ("Two nits,
/// both **Priority: low**:", "Zwei Kleinigkeiten, beide **Priorität: niedrig**:"): the items
/// that state none take it.
fn level_from_lead_in(units: &[Unit], levels: &[(usize, Severity)], found: &mut [Option<Finding>]) {
    for (u, f) in units.iter().zip(found.iter_mut()) {
        let level = levels
            .iter()
            .find(|(list, _)| u.list == Some(*list))
            .map(|(_, l)| *l);
        if let (Some(level), Some(f)) = (level, f.as_mut()) {
            if f.severity == Severity::Unclassified {
                f.severity = level;
            }
        }
    }
}

/// "Two nits:", "A few minor issues:", "3 low-priority items:": a count of things of one level.
fn counted_level(lead: &str) -> Option<Severity> {
    // The sentence that introduces the list ("Small diff, looks correct. Two nits:"), or a
    // clause of it ("This looks good overall — just two nits, neither needs to block:").
    let last = lead
        .trim_end()
        .trim_end_matches(':')
        .rsplit(['.', '!', '?'])
        .next()
        .unwrap_or(lead);
    last.split(['—', '–', ',', ';'])
        .find_map(counted_clause_level)
}

/// The level a clause counts ("two nits", "just one minor thing").
fn counted_clause_level(clause: &str) -> Option<Severity> {
    let normal = vocab::normalise(clause);
    let normal = normal
        .trim()
        .trim_start_matches("just ")
        .trim_start_matches("only ");
    let words: Vec<&str> = normal.split(' ').collect();
    let counted = words.first().is_some_and(|w| {
        w.chars().all(|c| c.is_ascii_digit())
            || [
                "one", "two", "three", "four", "five", "a", "some", "several",
            ]
            .contains(w)
    });
    if !counted || words.len() > 4 {
        return None;
    }
    words[1..].iter().rev().find_map(|w| {
        let one = w.strip_suffix('s').unwrap_or(w);
        vocab::severity_of(one)
            .or_else(|| vocab::severity_of(w))
            .filter(|s| s.1 == Strength::Level)
            .map(|s| s.0)
    })
}

/// The one level a lead-in states: in a bold span (`**Priority: low**`), else in its words.
pub(super) fn stated_level(lead: &str) -> Option<Severity> {
    let bold: Vec<Severity> = lead
        .split("**")
        .skip(1)
        .step_by(2)
        .filter_map(|span| {
            let value = span.rsplit_once(':').map_or(span, |(_, v)| v);
            vocab::severity_of(value.trim()).or_else(|| vocab::field_severity(value.trim()))
        })
        .filter(|s| s.1 == Strength::Level)
        .map(|s| s.0)
        .collect();
    match bold.as_slice() {
        [one] => Some(*one),
        [] => crate::answer::prose::severity_in(lead.trim_end_matches(':'))
            .or_else(|| counted_level(lead)),
        _ => None,
    }
}

impl Reader<'_> {
    fn kind(&self) -> Kind {
        self.sections
            .last()
            .map_or(Kind::Neutral(String::new()), |s| s.kind.clone())
    }

    /// Severity, quiet, in-a-findings-section and file path from the sections around here.
    fn context(&self) -> Around {
        let mut severity = None;
        let mut quiet = None;
        let mut findings = false;
        let mut path = None;
        let mut done = false;
        for s in self.sections.iter().rev() {
            if path.is_none() {
                path.clone_from(&s.path);
            }
            match &s.kind {
                Kind::Severity(sev, st) => {
                    severity.get_or_insert((*sev, *st));
                    quiet.get_or_insert(false);
                }
                Kind::Findings => {
                    findings = quiet != Some(true);
                    quiet.get_or_insert(false);
                }
                Kind::Done => {
                    // (A level nested under it is the level the item had when it was raised.)
                    done = quiet.is_none() || severity.is_some();
                    quiet.get_or_insert(true);
                }
                Kind::Quiet | Kind::Missing | Kind::Recommendation | Kind::Rating => {
                    quiet.get_or_insert(true);
                }
                // A comment on lines (`Comment on lines +88 to +90` under its file) is a review
                // comment wherever it sits: a copied page's "Reviewed Changes" overview runs on
                // into the comments that follow it.
                Kind::Neutral(_)
                    if s.place && s.path.as_ref().is_some_and(|p| p.start_line.is_some()) =>
                {
                    quiet.get_or_insert(false);
                }
                _ => {}
            }
        }
        Around {
            severity,
            quiet: quiet.unwrap_or(false),
            findings,
            path,
            done,
        }
    }

    fn open_section(&mut self, level: u8, kind: Kind, path: Option<Location>) {
        let bold = level == BOLD;
        let level = self.level_for(level);
        self.close_to(level);
        self.sections.push(Section {
            level,
            kind,
            path,
            place: false,
            used: None,
            bold,
        });
    }

    /// The level a section opens at: its own, or for [`BOLD`] one below the innermost
    /// non-bold section (a bold heading replaces the bold heading before it).
    fn level_for(&mut self, level: u8) -> u8 {
        if level != BOLD {
            return level;
        }
        while self.sections.last().is_some_and(|s| s.bold) {
            self.sections.pop();
        }
        self.sections
            .last()
            .map_or(1, |s| s.level.saturating_add(1))
            .max(7)
    }

    fn close_to(&mut self, level: u8) {
        while self.sections.last().is_some_and(|s| s.level >= level) {
            self.sections.pop();
        }
    }

    fn new_unit(&mut self, kind: UnitKind, lead: &str, indent: usize) -> usize {
        let marked = markers::read_lead(lead).severity.is_some();
        let mut take_place = false;
        if let Some(top) = self.sections.last() {
            if top.place {
                match top.used {
                    // Unmarked text under a place (a copied page's bylines and code) and then
                    // a marked comment: the marked one is what the place introduced.
                    Some(u)
                        if marked
                            && self.units[u].read.severity.is_none()
                            && self.units[u].kind == UnitKind::Paragraph =>
                    {
                        self.units[u].placeholder = true;
                        take_place = true;
                    }
                    // Ranges under a file (`📁 src/a.ts` then `🛑 [14-16]: …`) all belong to it.
                    Some(_) if location::leading_range(lead).is_some() => {}
                    // So do the items of a list under a file (`**`a.py`**` then `- …`, `- …`),
                    // unless one names a file of its own.
                    Some(u)
                        if kind == UnitKind::Item
                            && self.units[u].kind == UnitKind::Item
                            && location::find_all(lead, self.roots)
                                .iter()
                                .all(|l| top.path.as_ref().is_some_and(|p| p.path == l.path)) => {}
                    Some(_) => {
                        self.sections.pop();
                    }
                    None => take_place = true,
                }
            }
        }
        let next = self.units.len();
        if take_place {
            if let Some(top) = self.sections.last_mut() {
                top.used = Some(next);
            }
        }
        let Around {
            severity,
            quiet,
            findings,
            path,
            done,
        } = self.context();
        self.units.push(Unit {
            kind,
            lead: lead.to_string(),
            read: markers::read_lead(lead),
            indent,
            lines: Vec::new(),
            code: Vec::new(),
            hidden: Vec::new(),
            fields: Vec::new(),
            section_severity: severity,
            section_path: path,
            quiet,
            done,
            in_findings: findings,
            placeholder: vocab::is_placeholder(lead),
            children_are_findings: false,
            list: None,
            number: None,
        });
        let i = self.units.len() - 1;
        self.recent = Some(i);
        self.units[i].lines.append(&mut self.pending);
        self.units[i].lines.extend(self.resolved_thread.take());
        if markers::labels_only(lead) {
            // `` `54-61`: _🎯 Correctness_ | _🟠 Major_ ``: the title is the next paragraph.
            self.units[i].read.title.clear();
        }
        self.open = Some(i);
        i
    }

    /// Is `text` a line of the rating section we are in ("🎯 3 (Moderate) | ⏱️ ~20 minutes"),
    /// to be skipped? A line that points at a line of code is not: it ends the rating
    /// (Greptile's findings after its confidence score), and is read as what follows it. (A
    /// file named alone, "The dedupe write in `events.py` needs to move", explains the score
    /// by a finding the comments below detail.)
    fn rating_line(&mut self, text: &str) -> bool {
        if self.kind() != Kind::Rating {
            return false;
        }
        let places = location::find_all(text, self.roots);
        if !places.iter().any(|l| l.start_line.is_some()) {
            return true;
        }
        while self.sections.last().is_some_and(|s| s.kind == Kind::Rating) {
            self.sections.pop();
        }
        false
    }

    /// Where detail lines go now: the open unit, else the finding whose heading we are under.
    fn target(&self) -> Option<usize> {
        self.open.or(self.enclosing_finding())
    }

    /// The finding whose agent prompt we are in.
    fn prompt(&self) -> Option<usize> {
        match self.kind() {
            Kind::Prompt(u) => Some(u),
            _ => None,
        }
    }

    /// The heading-finding we are inside, through neutral sub-sections (`<summary>Proposed
    /// fix</summary>`), but not through a quiet one (`Prompt for AI Agents`).
    fn enclosing_finding(&self) -> Option<usize> {
        for s in self.sections.iter().rev() {
            match s.kind {
                Kind::Finding(u) => return Some(u),
                Kind::Neutral(_) => continue,
                _ => return None,
            }
        }
        None
    }
}

/// A heading that opens with a level tag and a dash: `## P2 - Should Fix`, `## P2 - ควรแก้ไข`.
fn tagged_heading(line: &str) -> Option<char> {
    static TAGGED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let c =
        crate::answer::re(&TAGGED, r"^#{1,4}\s*\**\s*[Pp]([0-3])\s*[-–—:]\s*\S").captures(line)?;
    c[1].chars().next()
}

/// Does the answer keep the prompt's skeleton: at the answer's top heading depth, headings
/// tagged with at least two different levels, each once and in order? (Findings titled
/// `### P2 — …` under a `## Findings` heading are one level deeper than the answer's sections.)
fn skeleton(text: &str) -> bool {
    let depth = |l: &str| l.chars().take_while(|c| *c == '#').count();
    let headings: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with('#') && l[depth(l)..].starts_with(' '))
        .collect();
    let Some(top) = headings.iter().map(|l| depth(l)).min() else {
        return false;
    };
    let tags: Vec<char> = headings
        .iter()
        .filter(|l| depth(l) == top)
        .filter_map(|l| tagged_heading(l))
        .collect();
    tags.len() >= 2 && tags.windows(2).all(|w| w[0] < w[1])
}
