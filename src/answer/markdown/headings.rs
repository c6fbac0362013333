//! Headings and what they open: severity sections, summaries, findings sections, files'
//! sections, and headings that are findings themselves (`### [P1] …`, `### Bug: …`).

use super::*;

impl Reader<'_> {
    pub(super) fn heading(&mut self, level: u8, text: &str) {
        self.last_heading = vocab::normalise(&crate::answer::lead::plain(text));
        // Field lines before a markdown heading are a record of their own or nothing: never the
        // next section's (`Impact: High` in a summary does not rate the first issue below it).
        // Before a `<summary>` they are its record's (pr-agent's table rows: `Impact: High`, then
        // the suggestion's details).
        if level < SUMMARY_LEVEL {
            self.flush_record();
            self.pending.clear();
        }
        let was_open = self.open.take();
        self.containers.clear();
        let was_open = self.marker_before_heading(was_open);
        let summary_level = (SUMMARY_LEVEL..BOLD).contains(&level);
        // A `<details>` right after a finding's own details is still about that finding.
        let was_open = was_open.or(self.recent.filter(|_| summary_level));
        if !summary_level {
            self.recent = None;
        }
        let untagged = strip_tags(text);
        let summary = (SUMMARY_LEVEL..BOLD).contains(&level);
        let path = self.file_section_path(&untagged, summary);
        let kind = self.heading_kind(level, text, &untagged, was_open, path.is_some());
        self.open_section(level, kind, path);
    }

    /// Turns a marker-only unit left open before a heading into a severity section, and says
    /// which unit is still open (none if it was turned).
    ///
    /// A marker alone (`[![Action required](…)](…)`, `**High**`) followed by a heading rather
    /// than text is the level of what follows, until the next marker.
    fn marker_before_heading(&mut self, was_open: Option<usize>) -> Option<usize> {
        let mut was_open = was_open;
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
        was_open
    }

    /// The file a heading names when it is only a file (the heading opens that file's section).
    ///
    /// `## File: services/importer/handler.go` (Gemini CLI): a file's section.
    fn file_section_path(&self, untagged: &str, summary: bool) -> Option<Location> {
        let bare = untagged
            .trim()
            .strip_prefix("File:")
            .or_else(|| untagged.trim().strip_prefix("Path:"))
            .unwrap_or(untagged);
        location::path_only_in(bare, self.roots, summary).or_else(|| {
            // A place and only a place (`### Thread 1: cli/prune.py:36 (unresolved)`).
            match location::place_line(bare, self.roots) {
                Some(location::Place::File(l)) if l.start_line.is_some() => Some(l),
                _ => None,
            }
        })
    }

    /// What a heading at `level` would sit in once it closes the sections at its level and
    /// deeper, looked at without closing them (that is left to [`Self::open_section`]).
    fn around_heading(&mut self, level: u8) -> AroundHeading {
        // A heading inside a heading-finding's section is part of that finding's text, unless
        // it starts a new section of its own kind (checked by the caller).
        let (quiet, in_findings) = {
            let saved = self.sections.clone();
            self.close_to(level);
            let c = self.context();
            self.sections = saved;
            (c.quiet, c.findings)
        };
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
        let inside_finding = {
            let saved = self.sections.clone();
            self.close_to(level);
            let f = self.enclosing_finding();
            self.sections = saved;
            f
        };
        AroundHeading {
            quiet,
            in_findings,
            under_severity,
            inside_finding,
        }
    }

    /// What a heading opens: a prompt or a part of the open finding, a severity, findings,
    /// summary or other named section, a finding of its own, or a neutral section.
    /// `path_found`: the heading is only a file ([`Self::file_section_path`]).
    fn heading_kind(
        &mut self,
        level: u8,
        text: &str,
        untagged: &str,
        was_open: Option<usize>,
        path_found: bool,
    ) -> Kind {
        let normal = vocab::normalise(untagged);
        let lead = markers::read_lead(text);
        let starts = |list: &[&str]| section_named(&normal, list);
        let summary = (SUMMARY_LEVEL..BOLD).contains(&level);
        // (A remark after the name does not hide the level it names: `Optional ideas
        // (non-blocking, take or leave)`.)
        let remarked = || {
            let t = untagged.trim_end().strip_suffix(')')?;
            vocab::severity_of(t.rsplit_once(" (")?.0)
        };
        let severity_section = vocab::severity_of(untagged).or_else(remarked);
        let AroundHeading {
            quiet,
            in_findings,
            under_severity,
            inside_finding,
        } = self.around_heading(level);
        let lead_title = vocab::normalise(&plain(&lead.title));
        let grouping = lead_title.is_empty()
            || (self.skeleton
                && level < BOLD
                && super::tagged_heading(&format!(
                    "# {}",
                    text.trim_start_matches('#').trim_start()
                ))
                .is_some())
            || vocab::FINDING_SECTIONS
                .iter()
                .any(|p| lead_title == *p || lead_title.starts_with(&format!("{p} ")));
        let own_place = !location::find_all(text, self.roots).is_empty();
        // (A `<summary>` titled in bold like the open finding's own is its sibling, the next
        // finding: Qodo's focus areas, `<a …><strong>Possible Bug</strong></a>` then
        // `<a …><strong>Config Drift</strong></a>`.)
        let bold = |t: &str| t.contains("<strong>") || t.trim_start().starts_with("**");
        let sibling = |o: usize| {
            let u = &self.units[o];
            u.kind == UnitKind::Heading && bold(&u.lead) && bold(text)
        };
        let part_of_open = was_open.filter(|&o| {
            summary
                && !sibling(o)
                && severity_section.is_none()
                && (lead.severity.is_none() || unit::names_a_fix(&normal))
                && !own_place
                && !starts(vocab::QUIET_SECTIONS)
                && !starts(vocab::DONE_SECTIONS)
                && !starts(vocab::FINDING_SECTIONS)
        });
        // Only a `<details>` prompt has an end; a prompt named by a plain line is just quiet.
        let prompt = was_open
            .filter(|_| summary && starts(vocab::QUIET_SECTIONS) && normal.contains("prompt"));
        // A section that counts itself empty (`Comments suppressed due to low confidence (0)`,
        // `🧹 Nitpick comments (0)`) holds no finding, whatever its name.
        let counted_empty = untagged.trim_end().ends_with("(0)");
        if let Some(o) = prompt {
            Kind::Prompt(o)
        } else if counted_empty && lead.severity.is_none_or(|s| s.1 != Strength::Level) {
            Kind::Quiet
        } else if level < BOLD && vocab::stance_of(untagged).is_some() {
            // `### 🟡 Changes recommended`: the review's verdict as a heading, read with the
            // prose's; its colour is no level (a level in words, `P1 Reject`, is no verdict
            // word alone). What it holds is read on its own words.
            self.out.loose_text.push(untagged.to_string());
            Kind::Neutral(String::new())
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
        } else if severity_section.is_none() && starts(vocab::DONE_SECTIONS) {
            // (A section of what was fixed is a shape: `Fixed Issues (2)` over a scanner's
            // table, the rest of the answer saying nothing new.)
            self.out.structured = true;
            Kind::Done
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
        } else if path_found {
            Kind::Neutral(String::new())
        } else if section_named(&lead_title, vocab::CHECKED_SECTIONS) {
            Kind::Quiet
        } else if lead.severity.is_none() && starts(vocab::FINDING_SECTIONS) {
            self.out.structured = true;
            Kind::Findings
        } else if starts(vocab::RATING_SECTIONS) {
            Kind::Rating
        } else if lead.severity.is_none_or(|s| s.1 != Strength::Level)
            && starts(vocab::QUIET_SECTIONS)
        {
            // (A bot's emoji before a section's name, `🧹 Recent review details`, is its
            // decoration, not a category of findings.)
            Kind::Quiet
        } else if lead.severity.is_none() && !own_place && aspect(&normal) {
            // `🔒 Security`, `🧪 Test Coverage`: what the review looked at, not a finding; what
            // is said under it is read on its own words.
            Kind::Neutral(String::new())
        } else if lead.severity.is_none()
            && !lead.labelled
            && !summary
            && untagged.split_whitespace().count() > 1
            && self.titles_the_answer(untagged)
        {
            // `## Review: src/export/csvWriter.ts`, `## Ревью scripts/backup.sh`: what the answer
            // is about, not a finding.
            Kind::Neutral(String::new())
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
        }
    }

    /// Does the heading only title the answer with its file ([`titled_place`])? Then that file
    /// is what the answer is about.
    fn titles_the_answer(&mut self, untagged: &str) -> bool {
        let about = titled_place(untagged, self.roots);
        let titled = about.is_some();
        if titled {
            self.about = about;
        }
        titled
    }

    /// Is a bold line a section title (a severity, a summary, a findings list, a file) rather
    /// than the title of one finding?
    pub(super) fn heading_like(&self, h: &str) -> bool {
        let normal = vocab::normalise(h);
        let starts = |list: &[&str]| section_named(&normal, list);
        vocab::severity_of(h).is_some()
            || starts(vocab::QUIET_SECTIONS)
            || starts(vocab::DONE_SECTIONS)
            || starts(vocab::FINDING_SECTIONS)
            || starts(vocab::MISSING_SECTIONS)
            || starts(vocab::RECOMMENDATION_SECTIONS)
            || starts(vocab::RATING_SECTIONS)
            || location::path_only(h, self.roots).is_some()
    }
}

/// The sections around a heading, as [`Reader::around_heading`] finds them.
struct AroundHeading {
    /// In a summary or other quiet section.
    quiet: bool,
    /// In a findings section.
    in_findings: bool,
    /// Under a severity section.
    under_severity: bool,
    /// Inside a heading that is a finding: that finding's unit.
    inside_finding: Option<usize>,
}

/// A short plain line used as a heading: `Blocking issues:`, `Overall Comments:`, `Here's what I
/// looked at during the review` (a section name, checked by the caller).
pub(super) fn plain_heading(text: &str) -> Option<String> {
    // A count after a section's name (`🧹 Nitpick comments (3)`, `Files selected (4)`) is not
    // part of it.
    let t = text.trim();
    let t = match t.rfind(" (") {
        Some(i)
            if t.ends_with(')') && t[i + 2..t.len() - 1].chars().all(|c| c.is_ascii_digit()) =>
        {
            &t[..i]
        }
        _ => t,
    };
    let words = t.split_whitespace().count();
    let sentence = t
        .trim_end_matches(':')
        .contains(['.', '!', '?', ';', '`', '(', '_', '*', '<', '[']);
    let name = t.trim_end_matches(':');
    let normal = vocab::normalise(name);
    // Ending in a colon, or naming a summary or findings section outright.
    let titled = t.ends_with(':')
        || section_named(&normal, vocab::QUIET_SECTIONS)
        || section_named(&normal, vocab::DONE_SECTIONS)
        || section_named(&normal, vocab::FINDING_SECTIONS)
        || level_title(name);
    (words <= 9 && !sentence && titled && !t.starts_with(['-', '#', '>', '|']))
        .then(|| name.to_string())
}

/// A line that names a level in words and nothing else (`Should change`, `Nice to have` over a
/// list). (One word alone, `critical` under a comment's byline, is that comment's badge.)
pub(super) fn level_title(text: &str) -> bool {
    let t = text.trim().trim_end_matches(':');
    (2..=4).contains(&t.split_whitespace().count())
        && t.chars()
            .all(|c| c.is_alphabetic() || matches!(c, ' ' | '-' | '\''))
        && vocab::severity_of(t).is_some_and(|s| s.1 == vocab::Strength::Level)
}

/// A line that is bold and nothing else (`**High priority**`, `**Summary:**`): a heading.
pub(super) fn bold_heading(text: &str) -> Option<String> {
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

/// Does a heading name one of `list`'s sections: the phrase as whole words, with a few more
/// words around it at most ("PR Code Suggestions ✨", "Comments suppressed due to low
/// confidence (2)", "Critical issues found")?
pub(super) fn section_named(normal: &str, list: &[&str]) -> bool {
    if named(normal, list) {
        return true;
    }
    // An adverb after "I" does not rename a section: "What I specifically checked", "Things
    // we carefully verified". (Elsewhere it may: "Possibly linked issues" is no list of issues.)
    let words: Vec<&str> = normal.split(' ').collect();
    let plain: Vec<&str> = words
        .iter()
        .enumerate()
        .filter(|(i, w)| {
            let after_i = *i > 0 && matches!(words[i - 1], "i" | "we");
            !(after_i && w.len() > 5 && w.ends_with("ly"))
        })
        .map(|(_, w)| *w)
        .collect();
    plain.len() < words.len() && named(&plain.join(" "), list)
}

fn named(normal: &str, list: &[&str]) -> bool {
    let padded = format!(" {normal} ");
    let words = normal
        .split(' ')
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit()))
        .count();
    list.iter().any(|p| {
        if let Some(whole) = p.strip_suffix('$') {
            return normal == whole;
        }
        let n = p.split(' ').count();
        // ("No issues found." says there is no such section: its text is not findings.)
        // (Nor does "Not issues" / "Non-issues": what it lists was found to be none.)
        let denied = [
            "no ", "zero ", "none ", "nothing ", "not ", "non ", "не ", "nicht ", "não ", "nie ",
            "niet ",
        ]
        .iter()
        .any(|d| normal.starts_with(d));
        normal == *p
            || (normal.starts_with(&format!("{p} ")) && words <= n + 5)
            || (padded.contains(&format!(" {p} ")) && words <= n + 1 && !denied)
    })
}

/// `🔒 Security`, `Test coverage notes`, `Performance and scalability`: what the review looked
/// at, in at most two words more than the aspect's name. A longer heading that opens with one
/// says what is wrong there ("Security header dropped for HEAD requests"): a finding's title.
fn aspect(normal: &str) -> bool {
    let words = normal.split(' ').count();
    section_named(normal, vocab::ASPECT_SECTIONS)
        && vocab::ASPECT_SECTIONS
            .iter()
            .any(|p| normal.contains(p) && words <= p.split(' ').count() + 2)
}

/// "Comment 4", "Issue 2", "Finding #3": a heading that only numbers a finding.
pub(super) fn generic_title(title: &str) -> bool {
    vocab::numbered_title(title)
}

/// A heading that is a file without a line and at most one word besides (`Review:
/// src/export/csvWriter.ts`, `Ревью scripts/backup.sh`), or any words after a word for a review
/// (`Review: Paginierung in src/routes/orders.ts`): that file's path.
fn titled_place(untagged: &str, roots: &Roots) -> Option<String> {
    if let Some(location::Place::File(l)) = location::place_line(untagged, roots) {
        return l.start_line.is_none().then_some(l.path);
    }
    let places = location::find_all(untagged, roots);
    let [l] = places.as_slice() else {
        return None;
    };
    let normal = vocab::normalise(untagged);
    let review = vocab::REVIEW_TITLES
        .iter()
        .any(|t| normal.strip_prefix(t).is_some_and(|r| r.starts_with(' ')));
    if review && l.start_line.is_none() {
        return Some(l.path.clone());
    }
    let words: Vec<&str> = untagged
        .split_whitespace()
        .filter(|w| !w.contains(l.path.as_str()))
        .collect();
    let titled = l.start_line.is_none()
        && words.len() == 1
        && words[0]
            .trim_matches(|c: char| !c.is_alphabetic())
            .chars()
            .count()
            >= 3
        && vocab::severity_of(words[0]).is_none()
        && !crate::answer::verdict::raises_concern(words[0]);
    titled.then(|| l.path.clone())
}
