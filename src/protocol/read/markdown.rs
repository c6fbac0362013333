//! The structure of a markdown review: which headings open severity sections, which sections are
//! summaries or praise, and which headings, list items, table rows and paragraphs are findings,
//! with the lines that belong to each.
//!
//! A *unit* is a candidate finding: its lead (a heading, a list item's first line, a table row,
//! a paragraph that opens with a marker or a bold title) plus everything that belongs to it (its
//! indented lines and sub-bullets, following paragraphs, code blocks, hidden comments). A unit
//! becomes a finding when something says it is one: a severity marker, a severity or findings
//! section around it, a location, or a finding label ([`super::unit::finding`]). Summaries,
//! praise and walkthrough tables never do, unless a unit in them carries its own severity.

use super::blocks::{blocks, Block};
use super::location::{self, Roots};
use super::markers;
use super::unit::{self, Unit, UnitKind};
use super::vocab::{self, Strength};
use crate::protocol::findings::{Finding, Location, Severity};

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// A heading that says nothing about findings; its title may still turn out to be one when
    /// field lines (`Severity:`, `File:`) follow it.
    Neutral(String),
    Quiet,
    Findings,
    Severity(Severity, Strength),
    Missing,
    Recommendation,
    /// The section under a heading that is itself a finding (its content is the finding's).
    Finding(usize),
    /// A finding's "Prompt for AI agents" restatement: not its text, but it may say where.
    Prompt(usize),
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
    details_depth: u8,
    after_blank: bool,
    /// The last line was a place line: the next one starts a paragraph.
    after_location: bool,
    /// Something was said since the last heading (a marker line right under a title promotes
    /// the title to a finding only when it comes first).
    heading_content: bool,
    /// The last unit made, for a `<details>` that follows it (its fix, its agent prompt).
    recent: Option<usize>,
    /// `Impact: High` lines of a table record, for the finding the record goes on to give.
    pending: Vec<String>,
    /// The list being read (its items are alike: findings or not), and the next list's number.
    list: Option<usize>,
    lists: usize,
    out: Markdown,
}

pub fn read(text: &str, roots: &Roots) -> Markdown {
    let mut r = Reader {
        roots,
        sections: Vec::new(),
        units: Vec::new(),
        open: None,
        containers: Vec::new(),
        table: None,
        details_depth: 0,
        after_blank: true,
        after_location: false,
        list: None,
        lists: 0,
        pending: Vec::new(),
        heading_content: false,
        recent: None,
        out: Markdown::default(),
    };
    let bs = blocks(text);
    for (i, b) in bs.iter().enumerate() {
        let next_is_sep = matches!(bs.get(i + 1), Some(Block::TableSeparator));
        r.block(b, next_is_sep);
    }
    let mut out = r.out;
    let mut found: Vec<Option<Finding>> = r
        .units
        .iter()
        .map(|u| {
            if u.placeholder {
                out.structured = true;
            }
            (!u.children_are_findings && !u.placeholder)
                .then(|| unit::finding(u, roots))
                .flatten()
        })
        .collect();
    // Items of one list are alike: when some are findings, the others are too (a reviewer's
    // list of problems where not every item names a file or a severity).
    let lists_with_findings: Vec<usize> = r
        .units
        .iter()
        .zip(&found)
        .filter(|(u, f)| f.is_some() && u.list.is_some())
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
    out.findings.extend(found.into_iter().flatten());
    out
}

/// The file an item stands for when it is only a file: `src/a.rs`, `src/a.rs:`,
/// `internal/cache/lru.go - **2**` (a file and its count of comments).
fn container_path(lead: &str, roots: &Roots) -> Option<Location> {
    let lead = unit::plain(lead);
    let lead = lead.trim().trim_end_matches(':');
    let lead = lead
        .rsplit_once(" - ")
        .filter(|(_, n)| n.trim().chars().all(|c| c.is_ascii_digit()))
        .map_or(lead, |(p, _)| p);
    (!lead.contains(' '))
        .then(|| location::path_only(lead, roots))
        .flatten()
}

/// A short plain line used as a heading: `Blocking issues:`, `Overall Comments:`, `Here's what I
/// looked at during the review` (a section name, checked by the caller).
fn plain_heading(text: &str) -> Option<String> {
    let t = text.trim();
    let words = t.split_whitespace().count();
    let sentence = t
        .trim_end_matches(':')
        .contains(['.', '!', '?', ';', '`', '(', '_', '*', '<', '[']);
    let name = t.trim_end_matches(':');
    let normal = vocab::normalise(name);
    // Ending in a colon, or naming a summary or findings section outright.
    let titled = t.ends_with(':')
        || section_named(&normal, vocab::QUIET_SECTIONS)
        || section_named(&normal, vocab::FINDING_SECTIONS);
    (words <= 9 && !sentence && titled && !t.starts_with(['-', '#', '>', '|']))
        .then(|| name.to_string())
}

/// A line that is bold and nothing else (`**High priority**`, `**Summary:**`): a heading.
fn bold_heading(text: &str) -> Option<String> {
    let t = text
        .trim()
        .trim_start_matches(|c: char| !c.is_alphanumeric() && !matches!(c, '*' | '_' | '<'))
        .trim_end_matches(':')
        .trim();
    let lower = t.to_ascii_lowercase();
    let inner = if let Some(x) = t.strip_prefix("**").and_then(|x| x.strip_suffix("**")) {
        x
    } else if let Some(x) = t.strip_prefix("__").and_then(|x| x.strip_suffix("__")) {
        x
    } else if lower.starts_with("<strong>") && lower.ends_with("</strong>") {
        &t[8..t.len() - 9]
    } else {
        return None;
    };
    let inner = inner.trim().trim_end_matches(':');
    (!inner.contains("**") && !inner.is_empty() && inner.chars().count() <= 80)
        .then(|| inner.to_string())
}

impl Reader<'_> {
    fn kind(&self) -> Kind {
        self.sections
            .last()
            .map_or(Kind::Neutral(String::new()), |s| s.kind.clone())
    }

    /// Severity, quiet, in-a-findings-section and file path from the sections around here.
    fn context(&self) -> (Option<(Severity, Strength)>, bool, bool, Option<Location>) {
        let mut severity = None;
        let mut quiet = None;
        let mut findings = false;
        let mut path = None;
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
                Kind::Quiet | Kind::Missing | Kind::Recommendation => {
                    quiet.get_or_insert(true);
                }
                _ => {}
            }
        }
        (severity, quiet.unwrap_or(false), findings, path)
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
        let (severity, quiet, findings, path) = self.context();
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
            in_findings: findings,
            placeholder: vocab::is_placeholder(lead),
            children_are_findings: false,
            list: None,
        });
        let i = self.units.len() - 1;
        self.recent = Some(i);
        self.units[i].lines.append(&mut self.pending);
        if markers::labels_only(lead) {
            // `` `54-61`: _🎯 Correctness_ | _🟠 Major_ ``: the title is the next paragraph.
            self.units[i].read.title.clear();
        }
        self.open = Some(i);
        i
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

    fn block(&mut self, b: &Block, next_is_separator: bool) {
        // A list ends at a heading, a rule or a paragraph back at the margin.
        match b {
            Block::Heading { .. }
            | Block::Summary { .. }
            | Block::Rule
            | Block::DetailsOpen
            | Block::DetailsClose
            | Block::Row { .. } => self.list = None,
            Block::Text { indent: 0, .. } if self.after_blank => self.list = None,
            _ => {}
        }
        match b {
            Block::Code { body, .. } if self.prompt().is_some() => {
                let u = self.prompt().expect("checked");
                self.units[u].hidden.push(body.clone());
            }
            Block::Text { text, .. } | Block::Item { text, .. } if self.prompt().is_some() => {
                let u = self.prompt().expect("checked");
                self.units[u].hidden.push(text.clone());
            }
            Block::Blank => {}
            Block::Heading { level, text } => self.heading(*level, text),
            Block::Summary { text } => self.heading(SUMMARY_LEVEL + self.details_depth, text),
            Block::DetailsOpen => self.details_depth += 1,
            Block::DetailsClose => {
                self.close_to(SUMMARY_LEVEL + self.details_depth);
                self.details_depth = self.details_depth.saturating_sub(1);
            }
            Block::Rule => {
                // A rule ends a comment and the summary above it (Copilot, Greptile and the codex
                // connector put their findings after a rule), but not a finding's own section.
                self.open = None;
                self.recent = None;
                self.pending.clear();
                self.containers.clear();
                while self.sections.last().is_some_and(|s| {
                    s.kind == Kind::Quiet || (s.bold && !matches!(s.kind, Kind::Severity(..)))
                }) {
                    self.sections.pop();
                }
            }
            Block::Item { indent, text } => self.item(*indent, text),
            Block::Row { cells } => self.row(cells, next_is_separator),
            Block::TableSeparator => {}
            Block::Text { indent, text } => self.text(*indent, text),
            Block::Code { info, body, .. } => {
                if let Some(u) = self.target() {
                    self.units[u].code.push((info.clone(), body.clone()));
                }
            }
            Block::Hidden { text } => {
                if let Some(u) = self.target() {
                    self.units[u].hidden.push(text.clone());
                }
            }
        }
        if !matches!(b, Block::Row { .. } | Block::TableSeparator) {
            self.table = None;
        }
        match b {
            Block::Heading { .. } | Block::Summary { .. } => self.heading_content = false,
            Block::Blank | Block::DetailsOpen | Block::DetailsClose | Block::Hidden { .. } => {}
            _ => self.heading_content = true,
        }
        self.after_blank = matches!(b, Block::Blank);
    }

    fn heading(&mut self, level: u8, text: &str) {
        let mut was_open = self.open.take();
        self.containers.clear();
        // A marker alone (`[![Action required](…)](…)`, `**High**`) followed by a heading rather
        // than text is the level of what follows, until the next marker.
        if let Some(o) = was_open {
            let u = &self.units[o];
            if u.kind == UnitKind::Paragraph
                && u.read.title.is_empty()
                && u.lines.is_empty()
                && u.code.is_empty()
                && u.read.severity.is_some_and(|s| s.1 == Strength::Level)
            {
                let sev = u.read.severity.expect("checked");
                self.units[o].placeholder = true;
                self.open_section(BOLD, Kind::Severity(sev.0, sev.1), None);
                self.out.structured = true;
                was_open = None;
                self.recent = None;
            }
        }
        let summary_level = (SUMMARY_LEVEL..BOLD).contains(&level);
        // A `<details>` right after a finding's own details is still about that finding.
        let was_open = was_open.or(self.recent.filter(|_| summary_level));
        if !summary_level {
            self.recent = None;
        }
        let plain = markers::strip_tags(text);
        let normal = vocab::normalise(&plain);
        let lead = markers::read_lead(text);
        let starts = |list: &[&str]| section_named(&normal, list);
        let summary = (SUMMARY_LEVEL..BOLD).contains(&level);
        // `## File: services/importer/handler.go` (Gemini CLI): a file's section.
        let bare = plain
            .trim()
            .strip_prefix("File:")
            .or_else(|| plain.trim().strip_prefix("Path:"))
            .unwrap_or(&plain);
        let path = location::path_only_in(bare, self.roots, summary);
        // A heading inside a heading-finding's section is part of that finding's text, unless
        // it starts a new section of its own kind (checked below).
        let (_, quiet, in_findings, _) = {
            let saved = self.sections.clone();
            self.close_to(level);
            let c = self.context();
            self.sections = saved;
            c
        };
        let severity_section = vocab::severity_of(&plain);
        let under_severity = {
            let saved = self.sections.clone();
            self.close_to(level);
            let any = self
                .sections
                .iter()
                .any(|s| matches!(s.kind, Kind::Severity(..)));
            self.sections = saved;
            any
        };
        let lead_title = vocab::normalise(&unit::plain(&lead.title));
        let grouping = lead_title.is_empty()
            || vocab::FINDING_SECTIONS
                .iter()
                .any(|p| lead_title == *p || lead_title.starts_with(&format!("{p} ")));
        let inside_finding = {
            let saved = self.sections.clone();
            self.close_to(level);
            let f = self.enclosing_finding();
            self.sections = saved;
            f
        };
        let own_place = !location::find_all(text, self.roots).is_empty();
        let part_of_open = was_open.filter(|_| {
            summary
                && severity_section.is_none()
                && lead.severity.is_none()
                && !own_place
                && !starts(vocab::QUIET_SECTIONS)
                && !starts(vocab::FINDING_SECTIONS)
        });
        // Only a `<details>` prompt has an end; a prompt named by a plain line is just quiet.
        let prompt = was_open
            .filter(|_| summary && starts(vocab::QUIET_SECTIONS) && normal.contains("prompt"));
        let kind = if let Some(o) = prompt {
            Kind::Prompt(o)
        } else if let Some(o) = part_of_open {
            // `<details>` right after a finding (its proposed fix, a committable suggestion,
            // its importance) is part of it.
            Kind::Finding(o)
        } else if inside_finding.is_some()
            && severity_section.is_none()
            && lead.severity.is_none_or(|s| s.1 != Strength::Level)
            && !own_place
        {
            // `<summary>Suggestion importance[1-10]: 8</summary>`, `Proposed fix`: part of the
            // finding it sits in.
            Kind::Neutral(String::new())
        } else if let Some(sev) =
            severity_section.or(lead.severity.filter(|s| grouping && s.1 == Strength::Level))
        {
            self.out.structured = true;
            Kind::Severity(sev.0, sev.1)
        } else if lead.severity.is_some() && grouping {
            // `⚠️ Outside diff range comments`: a category, not a level.
            self.out.structured = true;
            Kind::Findings
        } else if starts(vocab::MISSING_SECTIONS) {
            Kind::Missing
        } else if lead.severity.is_none() && starts(vocab::RECOMMENDATION_SECTIONS) {
            Kind::Recommendation
        } else if path.is_some() {
            Kind::Neutral(String::new())
        } else if lead.severity.is_none() && starts(vocab::FINDING_SECTIONS) {
            self.out.structured = true;
            Kind::Findings
        } else if lead.severity.is_none() && starts(vocab::QUIET_SECTIONS) {
            Kind::Quiet
        } else if lead.severity.is_some()
            || lead.labelled
            || !location::find_all(text, self.roots).is_empty()
            || ((in_findings || under_severity) && !quiet)
        {
            self.close_to(level);
            let u = self.new_unit(UnitKind::Heading, text, 0);
            self.open = None;
            Kind::Finding(u)
        } else {
            Kind::Neutral(text.to_string())
        };
        self.open_section(level, kind, path);
    }

    fn item(&mut self, indent: usize, text: &str) {
        // Nested under a container: a finding that inherits the container's severity or path.
        while let Some(&c) = self.containers.last() {
            if self.units[c].indent >= indent {
                self.containers.pop();
            } else {
                break;
            }
        }
        if let Some(&c) = self.containers.last() {
            if self
                .open
                .is_none_or(|o| o == c || self.units[o].indent >= indent)
            {
                self.child_unit(c, indent, text);
                return;
            }
        }
        if let Some(o) = self.open {
            let u = &self.units[o];
            let nested = indent > u.indent;
            let belongs = match u.kind {
                UnitKind::Item => nested,
                // Items after a finding paragraph are its details, unless they carry their own
                // severity or the paragraph was only a bold title with nothing to show for it.
                UnitKind::Paragraph | UnitKind::Range => nested || (strong(u) && !own_level(text)),
                _ => false,
            };
            if belongs {
                self.units[o].lines.push(text.to_string());
                return;
            }
        }
        match self.kind() {
            Kind::Missing => {
                if !vocab::is_placeholder(text) {
                    self.out.missing_alternatives.push(unit::plain(text));
                }
                self.open = None;
            }
            Kind::Recommendation => {
                self.out
                    .recommendation
                    .get_or_insert_with(|| unit::plain(text));
                self.open = None;
            }
            Kind::Finding(u) if !own_level(text) || unit::is_field(text) => {
                self.units[u].lines.push(text.to_string());
                self.open = None;
            }
            Kind::Neutral(title) if unit::is_field(text) && !title.is_empty() => {
                self.promote(title, text)
            }
            // A task list (`- [x] Read the changed files`) is the reviewer's checklist, not its
            // findings, unless an item carries a level (codex's `- [ ] [P3] …`).
            _ if is_task(text) && markers::read_lead(text).severity.is_none() => {
                self.open = None;
            }
            _ => {
                let list = *self.list.get_or_insert_with(|| {
                    self.lists += 1;
                    self.lists
                });
                let u = self.new_unit(UnitKind::Item, text, indent);
                self.units[u].list = Some(list);
                self.mark_container(u);
            }
        }
    }

    /// A neutral heading followed by `Severity:`/`File:` lines was a finding after all.
    fn promote(&mut self, title: String, field: &str) {
        let level = self.sections.last().map_or(1, |s| s.level);
        let path = self.sections.last().and_then(|s| s.path.clone());
        self.sections.pop();
        let u = self.new_unit(UnitKind::Heading, &title, 0);
        self.units[u].lines.push(field.to_string());
        self.open = None;
        let bold = self.sections.last().is_some_and(|s| s.bold);
        self.sections.push(Section {
            level,
            kind: Kind::Finding(u),
            path,
            place: false,
            used: None,
            bold,
        });
    }

    fn child_unit(&mut self, parent: usize, indent: usize, text: &str) {
        let p = &self.units[parent];
        let sev = p.read.severity.or(p.section_severity);
        let path = container_path(&p.lead, self.roots).or(p.section_path.clone());
        let quiet = p.quiet;
        let u = self.new_unit(UnitKind::Item, text, indent);
        self.units[u].section_severity = sev;
        self.units[u].section_path = path;
        self.units[u].in_findings = !quiet;
        self.units[u].quiet = quiet;
    }

    /// An item or paragraph that is only a severity or only a path groups what is nested in it.
    fn mark_container(&mut self, u: usize) {
        let unit = &self.units[u];
        let only_marker = unit.read.severity.is_some() && unit::plain(&unit.read.title).is_empty();
        let only_path = container_path(&unit.lead, self.roots).is_some();
        if (only_marker && unit.kind == UnitKind::Item) || only_path {
            self.units[u].children_are_findings = true;
            self.units[u].placeholder = false;
            self.containers.push(u);
            self.open = Some(u);
        }
    }

    fn row(&mut self, cells: &[String], next_is_separator: bool) {
        if next_is_separator {
            self.table = Some(cells.iter().map(|c| vocab::normalise(c)).collect());
            self.open = None;
            return;
        }
        let Some(header) = self.table.clone() else {
            return;
        };
        let col = |names: &[&str]| {
            header.iter().position(|h| {
                names.iter().any(|n| {
                    h == n || h.starts_with(&format!("{n} ")) || h.ends_with(&format!(" {n}"))
                })
            })
        };
        let strong_issue = col(&[
            "issue",
            "issues",
            "finding",
            "problem",
            "concern",
            "bug",
            "title",
            "comment",
            "suggestion",
        ]);
        let issue = strong_issue.or(col(&["description", "details", "summary", "what"]));
        let sev = col(&[
            "severity",
            "priority",
            "level",
            "impact",
            "importance",
            "sev",
        ]);
        if sev.is_none() && strong_issue.is_none() {
            return;
        }
        let Some(issue) = issue else {
            return;
        };
        let get = |i: usize| cells.get(i).cloned().unwrap_or_default();
        let lead = get(issue);
        if lead.trim().is_empty() || lead.trim().chars().all(|c| c == '-') {
            return;
        }
        let u = self.new_unit(UnitKind::Row, &lead, 0);
        let mut fields = Vec::new();
        for (name, idx) in [
            ("severity", sev),
            ("category", col(&["category", "type", "kind"])),
            (
                "file",
                col(&["file", "path", "location", "where", "filename"]),
            ),
            ("line", col(&["line", "lines"])),
            (
                "fix",
                col(&[
                    "fix",
                    "action",
                    "recommendation",
                    "suggested fix",
                    "remediation",
                ]),
            ),
        ] {
            if let Some(i) = idx.filter(|i| *i != issue) {
                fields.push((name.to_string(), get(i)));
            }
        }
        self.units[u].fields = fields;
        self.open = None;
    }

    fn text(&mut self, indent: usize, text: &str) {
        let kind = self.kind();
        match kind {
            Kind::Recommendation => {
                self.out
                    .recommendation
                    .get_or_insert_with(|| unit::plain(text));
                return;
            }
            Kind::Missing => return,
            _ => {}
        }
        // A line that opens with a level marker (`P1 Badge …`, `[P2] …`) starts a finding even
        // without a blank line before it.
        let strong_start = opens_unit(text)
            && markers::read_lead(text)
                .severity
                .is_some_and(|s| s.1 == Strength::Level)
            && !markers::read_lead(text).title.is_empty();
        // A line that is only a file (a copied page's `src/index/mod.rs` above a comment)
        // starts what follows even inside a paragraph.
        let in_item = self
            .open
            .is_some_and(|o| self.units[o].kind == UnitKind::Item);
        let file_line = !self.after_blank
            && indent == 0
            && !in_item
            && matches!(
                location::place_line(text, self.roots),
                Some(location::Place::File(_))
            )
            && !text.trim_start().starts_with('[');
        if indent >= 4 && self.after_location {
            // The code a copied page quotes under its place line.
            return;
        }
        let para = self.after_blank
            || self.open.is_none()
            || self.after_location
            || strong_start
            || file_line;
        self.after_location = false;
        // A marker-only lead (`_⚠️ Potential issue_ | _🟠 Major_`, a priority image) takes the
        // next paragraph as its title.
        if let Some(o) = self.open {
            let u = &self.units[o];
            if para
                && u.read.title.is_empty()
                && !u.children_are_findings
                && u.lines.is_empty()
                && matches!(u.kind, UnitKind::Paragraph | UnitKind::Range)
            {
                let keep = u.read.severity;
                let lead = format!("{} {}", u.lead, text);
                let title = markers::read_lead(text);
                self.units[o].read.title = title.title;
                self.units[o].read.severity = keep.or(title.severity);
                self.units[o].lead = lead;
                return;
            }
        }
        if para {
            if let Some(place) = location::place_line(text, self.roots) {
                // Right after a finding that says nowhere where it is (pr-agent's title, then
                // its `[path [30-36]](…)` link), the place is that finding's.
                // Or a permalink under a list item that named the file without a line (claude
                // code's review: `1. … in src/flush.rs` then the blob link).
                let link = text.trim_start().trim_start_matches('`').starts_with('[');
                if let (Some(o), location::Place::File(l)) = (self.target(), &place) {
                    let u = &self.units[o];
                    let named: Vec<Location> = location::find_all(&u.lead, self.roots)
                        .into_iter()
                        .chain(
                            u.lines
                                .iter()
                                .flat_map(|x| location::find_all(x, self.roots)),
                        )
                        .collect();
                    let placed = u.section_path.is_some() || !named.is_empty();
                    let same_file = u.kind == UnitKind::Item
                        && text.trim_start().starts_with("http")
                        && l.start_line.is_some()
                        && named.iter().all(|n| n.start_line.is_none())
                        && (named.is_empty() || named.iter().any(|n| n.path == l.path));
                    if (link && !placed) || same_file {
                        self.units[o]
                            .lines
                            .push(format!("Location: {}", l.display()));
                        return;
                    }
                }
                self.place(place);
                return;
            }
            let inside = self
                .open
                .is_none()
                .then(|| self.enclosing_finding())
                .flatten();
            if let Some(u) = inside {
                // Inside a heading that is a finding, only a lead with its own level, its own
                // place or a range starts another finding; bold titles, label lines and marker
                // lines are its details.
                let lead = markers::read_lead(text);
                let own = lead.severity.is_some_and(|s| s.1 == Strength::Level)
                    && !lead.title.is_empty()
                    && !markers::labels_only(text)
                    && !unit::is_field(text);
                let elsewhere = opens_unit(text)
                    && location::find_all(text, self.roots)
                        .first()
                        .is_some_and(|l| {
                            location::find_all(&self.units[u].lead, self.roots).first() != Some(l)
                        });
                // `### Comment 4` then `**nitpick (typo):** "recieve" …`: the heading was only a
                // number; that lead is its title and level.
                if own
                    && generic_title(&self.units[u].read.title)
                    && self.units[u].read.severity.is_none()
                {
                    self.units[u].read.severity = lead.severity;
                    self.units[u].read.title = lead.title;
                    self.units[u].lines.push(text.to_string());
                    return;
                }
                if !own && !elsewhere && location::leading_range(text).is_none() {
                    self.units[u].lines.push(text.to_string());
                    return;
                }
            }
            let under_titled_heading = matches!(&kind,
                Kind::Neutral(t) if vocab::normalise(t).split(' ').count() >= 3)
                && self.open.is_none()
                && !self.heading_content;
            let in_finding = self.open.is_some() || self.enclosing_finding().is_some();
            let plain = if in_finding {
                None
            } else {
                plain_heading(text)
            };
            if let Some(h) = bold_heading(text).or(plain) {
                let marker = vocab::severity_of(&h).is_some();
                if self.heading_like(&h) && !(marker && under_titled_heading) {
                    self.heading(BOLD, text);
                    return;
                }
            }
            let marker_line = {
                let l = markers::read_lead(text);
                l.severity.is_some() && l.title.is_empty()
            };
            if !unit::is_field(text) && opens_unit(text) && !(marker_line && under_titled_heading) {
                let u = self.new_unit(UnitKind::Paragraph, text, indent);
                if location::leading_range(text).is_some() {
                    self.units[u].kind = UnitKind::Range;
                }
                self.containers.clear();
                return;
            }
        }
        if let Some(u) = self.target() {
            self.units[u].lines.push(text.to_string());
            return;
        }
        // A level alone on its line after a finding (pr-agent's Impact cell): that finding's.
        if vocab::severity_of(text).is_some_and(|s| s.1 == Strength::Level)
            && text.trim().chars().all(|c| c.is_alphanumeric() || c == ' ')
        {
            if let Some(last) = self.units.last_mut() {
                if last.read.severity.is_none() {
                    last.lines.push(format!("Severity: {}", text.trim()));
                    return;
                }
            }
        }
        let (severity, quiet, findings, path) = self.context();
        let marker_only = || {
            let l = markers::read_lead(text);
            l.severity.is_some() && l.title.is_empty()
        };
        if unit::is_field(text) && !matches!(&kind, Kind::Neutral(t) if !t.is_empty()) {
            self.pending.push(text.to_string());
            return;
        }
        match kind {
            // A neutral heading followed by `Severity:`/`File:` lines or a marker line
            // (`**High Severity**`) was a finding after all.
            Kind::Neutral(title)
                if !title.is_empty()
                    && (unit::is_field(text)
                        || (marker_only()
                            && !self.heading_content
                            && vocab::normalise(&title).split(' ').count() >= 3)) =>
            {
                self.promote(title, text)
            }
            _ if para && !quiet && (severity.is_some() || findings || path.is_some()) => {
                // A plain paragraph under a severity heading, in a findings section or under a
                // file's heading is a finding of its own.
                let u = self.new_unit(UnitKind::Paragraph, text, indent);
                if vocab::is_placeholder(text) {
                    self.units[u].placeholder = true;
                    self.open = None;
                }
            }
            _ if quiet => self.out.quiet_text.push(text.to_string()),
            _ => self.out.loose_text.push(text.to_string()),
        }
    }

    /// A line that is only a place (`**src/a.rs:27**`, a permalink, `> Line 33`): the comments
    /// that follow are about it.
    fn place(&mut self, place: location::Place) {
        self.open = None;
        self.containers.clear();
        let loc = match place {
            location::Place::File(l) => l,
            location::Place::Lines(s, e) => {
                let path = self
                    .sections
                    .iter()
                    .rev()
                    .find_map(|s| s.path.as_ref().map(|p| p.path.clone()))
                    .unwrap_or_default();
                Location::new(&path, Some(s), e)
            }
        };
        self.open_section(BOLD, Kind::Neutral(String::new()), Some(loc));
        if let Some(top) = self.sections.last_mut() {
            top.place = true;
        }
        // The next line, even in the same paragraph, starts what is said about the place.
        self.after_location = true;
    }

    /// Is a bold line a section title (a severity, a summary, a findings list, a file) rather
    /// than the title of one finding?
    fn heading_like(&self, h: &str) -> bool {
        let normal = vocab::normalise(h);
        let starts = |list: &[&str]| section_named(&normal, list);
        vocab::severity_of(h).is_some()
            || starts(vocab::QUIET_SECTIONS)
            || starts(vocab::FINDING_SECTIONS)
            || starts(vocab::MISSING_SECTIONS)
            || starts(vocab::RECOMMENDATION_SECTIONS)
            || location::path_only(h, self.roots).is_some()
    }
}

/// Does a heading name one of `list`'s sections: the phrase as whole words, with a few more
/// words around it at most ("PR Code Suggestions ✨", "Comments suppressed due to low
/// confidence (2)", "Critical issues found")?
fn section_named(normal: &str, list: &[&str]) -> bool {
    let padded = format!(" {normal} ");
    let words = normal
        .split(' ')
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .count();
    list.iter().any(|p| {
        let n = p.split(' ').count();
        normal == *p
            || (normal.starts_with(&format!("{p} ")) && words <= n + 5)
            || (padded.contains(&format!(" {p} ")) && words <= n + 1)
    })
}

/// "Comment 4", "Issue 2", "Finding #3": a heading that only numbers a finding.
fn generic_title(title: &str) -> bool {
    let n = vocab::normalise(title);
    let words: Vec<&str> = n.split(' ').collect();
    matches!(words.as_slice(), [w, d] if ["comment", "issue", "finding", "suggestion", "note", "problem", "bug", "item"].contains(w) && d.chars().all(|c| c.is_ascii_digit()))
}

fn is_task(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("[ ]") || t.starts_with("[x]") || t.starts_with("[X]")
}

/// A unit that is surely a finding: a marker, a label, a range or a location in its lead.
fn strong(u: &Unit) -> bool {
    u.read.severity.is_some() || u.read.labelled || u.kind == UnitKind::Range
}

/// Does a line carry its own severity level (so it is a finding, not a detail)?
fn own_level(text: &str) -> bool {
    markers::read_lead(text)
        .severity
        .is_some_and(|s| s.1 == Strength::Level)
        && !markers::read_lead(text).title.is_empty()
}

/// Does a paragraph open a finding: a marker first, a bold title, a `36-41`: range, a label?
fn opens_unit(text: &str) -> bool {
    let t = text.trim_start();
    if location::leading_range(t).is_some() {
        return true;
    }
    let lead = markers::read_lead(t);
    if lead.labelled {
        return true;
    }
    if lead.severity.is_some() {
        // The marker must open the line, not sit in its prose.
        let plain = unit::plain(&markers::strip_tags(t));
        let head: String = unit::plain(&lead.title).chars().take(12).collect();
        return head.is_empty() || plain.find(&head).is_none_or(|at| at > 0);
    }
    let lower = t.to_ascii_lowercase();
    t.starts_with("**")
        || t.starts_with("__")
        || lower.starts_with("<strong>")
        || lower.starts_with("<b>")
        || (lower.starts_with("<a ") && lower.contains("<strong>"))
}
