//! How each block of an answer moves the reader: headings and `<details>` open sections, a
//! rule closes summaries, list items, rows, text and code go to the unit or section they belong
//! to, and a blank line may end a `File:`/`Line:`/`Issue:` record.

use super::*;

impl Reader<'_> {
    /// `File: …` / `Line: …` / `Issue: …` / `Severity: …` lines with nothing else around them (a
    /// local model's record per finding): at the blank line that ends them, a finding.
    pub(super) fn flush_record(&mut self) {
        if self.pending.len() < 2 || self.open.is_some() {
            return;
        }
        let lines = std::mem::take(&mut self.pending);
        let titled = lines.iter().find(|l| {
            let lower = l.trim_start_matches(['-', '*', ' ']).to_ascii_lowercase();
            [
                "issue",
                "problem",
                "title",
                "finding",
                "description",
                "summary",
            ]
            .iter()
            .any(|k| lower.trim_start_matches('*').starts_with(k))
        });
        let Some(lead) = titled.map(|l| {
            l.split_once(':')
                .map_or(l.as_str(), |(_, v)| v.trim())
                .trim_start_matches(['*', ' '])
                .to_string()
        }) else {
            self.pending = lines;
            return;
        };
        let u = self.new_unit(UnitKind::Paragraph, &lead, 0);
        self.units[u].lines = lines;
        self.units[u].in_findings = true;
        self.open = None;
    }

    pub(super) fn block(&mut self, b: &Block, next_is_separator: bool) {
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
            Block::Blank => self.flush_record(),
            Block::Heading { level, text } => self.heading(*level, text),
            Block::Summary { text } => {
                // `<summary>✅ Addressed in commits …</summary>` under a comment: it is fixed.
                if vocab::is_withdrawn(text) {
                    if let Some(u) = self.target().or(self.recent) {
                        self.units[u].placeholder = true;
                    }
                }
                self.heading(SUMMARY_LEVEL + self.details_depth, text);
            }
            // Nested `<details>` levels stay below the bold level, however many an answer opens.
            Block::DetailsOpen => {
                self.details_depth = self
                    .details_depth
                    .saturating_add(1)
                    .min(BOLD - SUMMARY_LEVEL - 1);
            }
            Block::DetailsClose => {
                self.close_to(SUMMARY_LEVEL + self.details_depth);
                self.details_depth = self.details_depth.saturating_sub(1);
            }
            Block::Rule => {
                // A rule ends a comment and the summary above it (Copilot, Greptile and the codex
                // connector put their findings after a rule) and a file's heading section (the
                // closing words after the last file are about the review), but not a finding's
                // own section, a level's, or a file's `<details>` block (CodeRabbit separates
                // the comments on one file with rules).
                let in_details = self.details_depth > 0;
                self.open = None;
                self.recent = None;
                self.pending.clear();
                self.containers.clear();
                while self.sections.last().is_some_and(|s| {
                    matches!(s.kind, Kind::Quiet | Kind::Rating)
                        || (s.bold && !matches!(s.kind, Kind::Severity(..)))
                        || (!in_details && s.path.is_some() && matches!(s.kind, Kind::Neutral(_)))
                }) {
                    self.sections.pop();
                }
            }
            Block::Item { indent, text } => self.item(*indent, text),
            Block::Row { cells } => self.row(cells, next_is_separator),
            Block::TableSeparator => {}
            Block::Text { indent, text } => self.text(*indent, text),
            // A line of the diff quoted in a review (`> + pub fn get(…)`) ends the comment
            // before it: what follows is about that line.
            Block::Code { info, .. } if info == crate::answer::blocks::QUOTED_DIFF_INFO => {
                self.open = None;
                self.after_location = true;
            }
            Block::Code { info, body, .. } => {
                if let Some(u) = self.target() {
                    self.units[u].code.push((info.clone(), body.clone()));
                }
            }
            Block::Hidden { text } => {
                if let Some(u) = self.target() {
                    self.units[u].hidden.push(text.clone());
                } else if let Kind::Neutral(title) = self.kind() {
                    // `### Title` then `<!-- **Medium Severity** -->` (Bugbot): the heading was
                    // a finding, its level hidden from the page.
                    let inner = text
                        .trim()
                        .trim_start_matches("<!--")
                        .trim_end_matches("-->")
                        .trim();
                    let lead = markers::read_lead(inner);
                    let marker_only = lead.title.is_empty()
                        && lead.severity.is_some_and(|s| s.1 == Strength::Level);
                    if marker_only && !title.is_empty() && inner.lines().count() == 1 {
                        self.promote(title, inner);
                    }
                }
            }
        }
        if !matches!(b, Block::Row { .. } | Block::TableSeparator) {
            self.table = None;
            self.fixed_table = false;
            // (The lead-in holds across the blank line before its table, and only there.)
            self.fixed_next = match b {
                Block::Text { text, .. } => vocab::announces_fixed(text),
                Block::Blank => self.fixed_next,
                _ => false,
            };
        }
        match b {
            Block::Heading { .. } | Block::Summary { .. } => self.heading_content = false,
            Block::Blank | Block::DetailsOpen | Block::DetailsClose | Block::Hidden { .. } => {}
            _ => self.heading_content = true,
        }
        self.after_blank = matches!(b, Block::Blank);
        if !matches!(b, Block::Text { .. }) {
            self.quiet_paragraph = false;
        }
        self.unfinished = match b {
            Block::Text { text, .. } => {
                let t = text.trim_end();
                t.split_whitespace().count() >= 6
                    && t.ends_with(|c: char| c.is_lowercase() || c == ',')
            }
            _ => false,
        };
    }
}
