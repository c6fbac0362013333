//! Paragraphs: leads that open a finding (a marker, a bold title, a range, a label), lines that
//! only say where the next comment is, and text that belongs to the finding before it.

use super::*;

impl Reader<'_> {
    /// A neutral heading followed by `Severity:`/`File:` lines was a finding after all.
    pub(super) fn promote(&mut self, title: String, field: &str) {
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

    pub(super) fn text(&mut self, indent: usize, text: &str) {
        // The level a lead-in gave, for the paragraph finding right after it.
        let carried = if indent == 0 {
            self.para_level.take()
        } else {
            None
        };
        let before = self.units.len();
        self.text_line(indent, text);
        if let Some(level) = carried {
            if self.units.len() == before + 1 && self.units[before].kind == UnitKind::Paragraph {
                self.unit_levels.push((before, level));
            }
        }
    }

    fn text_line(&mut self, indent: usize, text: &str) {
        // A thread header that says the thread is resolved (GitLab puts it above the comment).
        if text.trim_start().starts_with(['R', 'Р']) && vocab::is_withdrawn(text) {
            let header = vocab::normalise(text);
            if header.starts_with("resolved by") || header.starts_with("решено пользователем")
            {
                self.resolved_thread = Some(text.to_string());
                return;
            }
        }
        // A mark that the comment above was since addressed (`✅ Addressed in commit b7e41a8`
        // after the bot's footer): that comment is withdrawn.
        if vocab::is_withdrawn(text) && text.split_whitespace().count() <= 8 {
            if let Some(u) = self.open.or(self.recent) {
                self.units[u].lines.push(text.to_string());
                return;
            }
        }
        if self.rating_line(text) {
            return;
        }
        self.opening_about(text);
        if self.numbered_diff_line(text) {
            return;
        }
        // "Two nits, both **Priority: low**:" — the level of the list that follows, and only
        // of a list that follows it: any other text at the margin withdraws it.
        if indent == 0 {
            let next = self.lists + 1;
            self.list_levels.retain(|(list, _)| *list != next);
            self.announced.retain(|list| *list != next);
            self.cleared.retain(|list| *list != next);
            self.hidden.retain(|list| *list != next);
        }
        if indent == 0 && text.trim_end().ends_with(':') {
            if let Some(level) = super::stated_level(text) {
                self.list_levels.push((self.lists + 1, level));
                // ("one **critical** problem:": the emphasis is the level's, not a break in
                // the words.)
                if vocab::announces_findings(&crate::answer::lead::without_emphasis(text)) {
                    self.para_level = Some(level);
                }
            }
            // (A count that is set aside in the same breath, "2 findings were below your
            // policy threshold and are not shown", raises none of them.)
            if vocab::hides_list(text) {
                self.hidden.push(self.lists + 1);
            } else if vocab::announces_findings(text) {
                self.announced.push(self.lists + 1);
            } else if vocab::clears_list(text) {
                self.cleared.push(self.lists + 1);
            }
        } else if indent == 0 && vocab::clears_list(text) {
            // ("I kept asking myself questions, and each time the PR already had an answer."
            // says so of the list after it without a colon.)
            self.cleared.push(self.lists + 1);
        }
        let kind = self.kind();
        match kind {
            Kind::Recommendation => {
                self.out.recommendation.get_or_insert_with(|| plain(text));
                return;
            }
            Kind::Missing => return,
            _ => {}
        }
        if self.verdict_line(text) {
            return;
        }
        if (self.quiet_paragraph && !self.after_blank)
            || (indent == 0 && low_risk(&self.last_heading, text))
        {
            self.quiet_paragraph = true;
            self.open = None;
            self.out.quiet_text.push(text.to_string());
            return;
        }
        if self.level_heading_placeholder(text) {
            return;
        }
        let Some(para) = self.starts_paragraph(indent, text) else {
            return;
        };
        let after_place = std::mem::take(&mut self.after_location);
        if after_place && self.comment_on_place(indent, text) {
            return;
        }
        if self.title_for_marker_lead(para, text) || self.level_for_title(para, text) {
            return;
        }
        // A field under a heading that is a finding (`**File:** `a.java`, line 64`) is its
        // detail, not a place for what follows.
        let field_first = unit::is_field(text);
        if para
            && ((field_first && self.detail_of_heading_finding(text))
                || self.place_paragraph(text)
                || self.detail_of_heading_finding(text)
                || self.paragraph_lead(&kind, indent, text))
        {
            return;
        }
        self.rest_of_text(kind, para, indent, text);
    }

    /// The answer's opening sentence, when it names one file and raises nothing ("Revisei a
    /// alteração em `src/…/ReservaService.kt`.", "I reviewed the change to `a.go`."): the file
    /// a lead that gives only a line (`**Sugestão** — linha 102:`) is in.
    fn opening_about(&mut self, text: &str) {
        if !self.units.is_empty() || self.about.is_some() || !self.sections.is_empty() {
            return;
        }
        let places = location::find_all(text, self.roots);
        if let [l] = places.as_slice() {
            if l.start_line.is_none()
                && !l.outside
                && text.trim_end().ends_with(['.', ':'])
                && !crate::answer::verdict::raises_concern(text)
            {
                self.about = Some(l.path.clone());
            }
        }
    }

    /// A line of the diff quoted with its number under a place (a code host's copied thread:
    /// `12 +  desc "Remove old uploads"`): code, not words; its number is the place's line when
    /// the place named none. Says whether it was one.
    fn numbered_diff_line(&mut self, text: &str) -> bool {
        static NUMBERED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
        if !self.after_location || self.units_at_place != Some(self.units.len()) {
            return false;
        }
        let Some(c) = crate::answer::re(&NUMBERED, r"^\s*(\d{1,6}) [ +-] ").captures(text) else {
            return false;
        };
        let Ok(n) = c[1].parse::<u32>() else {
            return false;
        };
        if let Some(top) = self.sections.last_mut().filter(|s| s.place) {
            if let Some(p) = top.path.as_mut().filter(|p| p.start_line.is_none()) {
                *p = Location::new(&p.path, Some(n), None);
            }
        }
        true
    }

    /// Takes a verdict line (`Verdict: needs changes`) after a blank line as loose text, closing
    /// the open unit. Says whether it was one.
    fn verdict_line(&mut self, text: &str) -> bool {
        // `Verdict: needs changes` after the last finding is the answer's verdict (read from
        // the prose as a whole), not that finding's detail.
        // (So is a short closing refusal: "**Not approved** until the line-64 race is fixed.")
        let refusal = || {
            static OPENS: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
            let opens = crate::answer::re(
                &OPENS,
                r"(?i)^\W*(?:not approv|do not merge|don't merge|changes requested|request(?:ing)? changes|not ready to)",
            );
            text.split_whitespace().count() <= 16
                && opens.is_match(text)
                && location::find_all(text, self.roots).is_empty()
        };
        // (And a paragraph that opens on the reviewer's approval and says nothing against it:
        // "LGTM. The change wraps the handler in `recover()`, …" under the last empty section.)
        let approval = || {
            // (It opens with the verdict: a short first sentence that approves.)
            let first = text.split(['.', '!', '?']).next().unwrap_or("");
            first.split_whitespace().count() <= 6
                && crate::answer::verdict::opens_with_approval(first)
                && crate::answer::verdict::opens_with_approval(text)
                && crate::answer::verdict::approves(text)
                && !crate::answer::verdict::raises_concern(text)
                && location::find_all(text, self.roots).is_empty()
                // (A comment's own title, `` `58-60`: **LGTM!** ``, is that comment's.)
                && !opens_unit(text)
        };
        if self.after_blank
            && (crate::answer::verdict::stated(text).is_some()
                || crate::answer::verdict::labelled(text)
                || refusal()
                || approval())
        {
            self.open = None;
            self.out.loose_text.push(text.to_string());
            return true;
        }
        false
    }

    /// Does this line start a paragraph (after a blank line, with nothing open, under a place,
    /// with a strong lead or a file line)? `None`: the line is code quoted under a place line,
    /// to be skipped.
    fn starts_paragraph(&self, indent: usize, text: &str) -> Option<bool> {
        // A line that opens with a level marker (`P1 Badge …`, `[P2] …`) starts a finding even
        // without a blank line before it.
        // So does a compiler-style `path:line: message` line, and a marker before a range
        // (`⚠️ [33]: …` under a file).
        let lead = markers::read_lead(text);
        let ranged = location::leading_range(text).is_some() && lead.severity.is_some();
        let strong_start = (opens_unit(text)
            && (lead.severity.is_some_and(|s| s.1 == Strength::Level) || ranged)
            && !lead.title.is_empty())
            || location::compiler_line(text, self.roots).is_some();
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
            return None;
        }
        Some(
            self.after_blank
                || self.open.is_none()
                || self.after_location
                || strong_start
                || file_line,
        )
    }

    /// "Nenhum." right under `## P1 - Deve corrigir`: the heading was a level's section in words
    /// the reader does not know, and it holds nothing; what follows is read under that level, as
    /// under `## P1 - Must Fix`. Says whether `text` was such a placeholder.
    fn level_heading_placeholder(&mut self, text: &str) -> bool {
        let Some(top) = self.sections.last() else {
            return false;
        };
        let Kind::Finding(u) = top.kind else {
            return false;
        };
        let unit = &self.units[u];
        let level = unit.read.severity.filter(|s| s.1 == Strength::Level);
        let bare = unit.kind == UnitKind::Heading && unit.lines.is_empty() && unit.code.is_empty();
        let (Some(level), true) = (level, bare && vocab::is_placeholder(text)) else {
            return false;
        };
        self.units[u].placeholder = true;
        if let Some(top) = self.sections.last_mut() {
            top.kind = Kind::Severity(level.0, level.1);
        }
        self.out.structured = true;
        self.open = None;
        true
    }

    /// Right under a place, `**Suggestion:** …` / `Issue: …` is the comment on it (a review
    /// thread's body), not a detail of nothing: starts a unit with the field's value. Says
    /// whether it did.
    fn comment_on_place(&mut self, indent: usize, text: &str) -> bool {
        if self.pending.is_empty() && unit::is_field(text) {
            let value = text.split_once(':').map_or(text, |(_, v)| v);
            let value = value.trim_start_matches(['*', '_', ' ']);
            if value.split_whitespace().count() >= 4 && !unit::is_field(value) {
                // `Schweregrad: hoch. Hier fehlt die Sperre …`: the level field's value opens
                // with the level, and the comment follows it.
                let level = unit::is_severity_field(text)
                    .then(|| value.split_once(['.', ',', ';']))
                    .flatten()
                    .and_then(|(word, rest)| {
                        let level =
                            vocab::severity_of(word.trim()).filter(|s| s.1 == Strength::Level)?;
                        Some((level, rest.trim_start()))
                    })
                    .filter(|(_, rest)| !rest.is_empty());
                let lead = level.map_or(value, |(_, rest)| rest);
                let u = self.new_unit(UnitKind::Paragraph, lead, indent);
                if let Some((level, _)) = level {
                    self.units[u].read.severity = Some(level);
                }
                return true;
            }
        }
        false
    }

    /// A marker-only lead (`_⚠️ Potential issue_ | _🟠 Major_`, a priority image) takes the
    /// next paragraph as its title. Says whether it did.
    fn title_for_marker_lead(&mut self, para: bool, text: &str) -> bool {
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
                return true;
            }
        }
        false
    }

    /// A paragraph that is only a level (`_🟡 Minor_`) right after a comment on a range that has
    /// none of its own (`` `14-19`: **Cap the exponential backoff.** ``): that comment's level,
    /// over the section's. (After other paragraphs a level alone is a badge that opens the next
    /// comment.) Says whether it was one.
    fn level_for_title(&mut self, para: bool, text: &str) -> bool {
        let lead = markers::read_lead(text);
        let Some(level) = lead.severity.filter(|s| s.1 == Strength::Level) else {
            return false;
        };
        if !para || !plain(&lead.title).trim().is_empty() {
            return false;
        }
        let Some(o) = self.open.or(self.recent) else {
            return false;
        };
        let u = &self.units[o];
        if u.read.title.is_empty()
            || u.read.severity.is_some()
            || !u.lines.is_empty()
            || u.kind != UnitKind::Range
        {
            return false;
        }
        self.units[o].read.severity = Some(level);
        self.open = Some(o);
        true
    }

    /// A paragraph that is only a place: the place of the finding before it, or a place section
    /// for the comments that follow. Says whether the paragraph was one.
    fn place_paragraph(&mut self, text: &str) -> bool {
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
                // A permalink or a quoted `path:line` alone right under a finding's title line,
                // before any of its words, is that finding's place too (`**1. Title** —
                // severity: medium`, then the link).
                let t = text.trim();
                // (Or with its line after it: `` `a/templates.ts` · L8 ``, `` `a.go` (line 8) ``.)
                let quoted_line = t.starts_with('`') && l.start_line.is_some();
                // So is a `File: path, line 54` field on the very next line (no blank line
                // between: a place that opens the next comment stands apart).
                let field_line = unit::is_field(t) && !self.after_blank && l.start_line.is_some();
                // So is a place behind a pin on the next line (`📍 src/a.tsx:132`).
                let pinned = !self.after_blank
                    && l.start_line.is_some()
                    && t.starts_with(|c: char| !c.is_alphanumeric() && !"`[/.~*_<".contains(c));
                // (A bold title says what the finding is; a bold field such as `**Reviewed
                // commit:**` is not one.)
                let titled = super::lists::bold_titled(&u.lead) && !unit::is_field(&u.lead);
                // (After other fields of the finding too: `Severity: medium`, then `File: …`.)
                let only_fields = u.lines.iter().all(|x| unit::is_field(x));
                let bare_under_title = (t.starts_with("http") || quoted_line || field_line || pinned)
                    && (u.lines.is_empty() || (field_line && only_fields))
                    && u.code.is_empty()
                    // (A heading that is a finding, `### 2. Export files are public`, then
                    // `` `src/worker.ts:112` `` on the next line.)
                    && ((u.kind == UnitKind::Paragraph
                        && (strong(u) || (titled && !t.starts_with("http"))))
                        || u.kind == UnitKind::Heading);
                // (A link that gives the line of the file the finding names without one, as
                // Qodo's "Code" block does under its "Description", is its place too.)
                // (Or one of the files it names, when it names several: "the factor is written
                // in `http.py` and in `scheduler.py`", then the link to `scheduler.py` line 12.)
                // (Or a file its words only mention, with no line: "the constant already
                // exists in `src/http/status.ts`" above Qodo's link to `webhook.ts` line 40.)
                let refines = l.start_line.is_some()
                    && u.section_path.is_none()
                    && named.iter().all(|n| n.start_line.is_none())
                    && (named.iter().any(|n| n.path == l.path)
                        || (link
                            && !location::find_all(&u.lead, self.roots)
                                .iter()
                                .any(|n| n.path != l.path)));
                if (link && (!placed || refines)) || same_file || (bare_under_title && !placed) {
                    self.units[o]
                        .lines
                        .push(format!("Location: `{}`", l.display()));
                    return true;
                }
            }
            self.place(place);
            return true;
        }
        false
    }

    /// A paragraph inside a heading that is a finding (with nothing else open): the finding's
    /// detail, or its title and level when the heading only numbered it. Says whether it was
    /// taken; a paragraph that starts a finding of its own is not.
    fn detail_of_heading_finding(&mut self, text: &str) -> bool {
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
            // (A `**File:** path, line 64` field names the finding's own place; so does the
            // first paragraph under a title that names none: Qodo's bold "**If the pool is
            // closed, `pool.acquire()` in `src/health/readiness.ts` throws…**".)
            // (A table's cells read as its fields, `Impact: Medium`, are no paragraph.)
            let first_under_bare_title = self.units[u].lines.iter().all(|l| unit::is_field(l))
                && self.units[u].code.is_empty()
                && location::find_all(&self.units[u].lead, self.roots).is_empty();
            let elsewhere = opens_unit(text)
                && !unit::is_field(text)
                && !first_under_bare_title
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
                return true;
            }
            if !own && !elsewhere && location::leading_range(text).is_none() {
                self.units[u].lines.push(text.to_string());
                return true;
            }
        }
        false
    }

    /// A paragraph that is a bold or plain section title (then a heading), or that opens a
    /// finding (then a new unit). Says whether it was either.
    fn paragraph_lead(&mut self, kind: &Kind, indent: usize, text: &str) -> bool {
        let under_titled_heading = matches!(kind,
            Kind::Neutral(t) if vocab::normalise(t).split(' ').count() >= 3)
            && self.open.is_none()
            && !self.heading_content;
        let in_finding = self.open.is_some() || self.enclosing_finding().is_some();
        // (After a list of findings, a level alone at the margin titles the next list.)
        let next_group = self.after_blank
            && indent == 0
            && self
                .open
                .is_some_and(|o| self.units[o].kind == UnitKind::Item)
            && level_title(text);
        // (Nor does a label at the margin that names a list of fixed items, or of findings
        // after one: `Fixed:` … `Not fixed:` in a follow-up review.)
        let after_done = self.sections.iter().any(|s| matches!(s.kind, Kind::Done));
        let section_label = self.after_blank
            && indent == 0
            && plain_heading(text).is_some_and(|h| {
                let normal = vocab::normalise(&h);
                section_named(&normal, vocab::DONE_SECTIONS)
                    || after_done && section_named(&normal, vocab::FINDING_SECTIONS)
            });
        let plain = if in_finding && !next_group && !section_label {
            None
        } else {
            plain_heading(text)
        };
        // `**Severity: high**` under a comment's words (Augment puts it after them): that
        // comment's level, not a section for what follows.
        if let Some(u) = self.recent.filter(|_| unit::is_severity_field(text)) {
            let r = &self.units[u];
            let unrated = r.read.severity.is_none()
                && r.section_severity.is_none()
                && !r.quiet
                && !r.lines.iter().any(|l| unit::is_severity_field(l));
            if unrated && !r.read.title.is_empty() {
                self.units[u].lines.push(crate::answer::lead::plain(text));
                return true;
            }
        }
        if let Some(h) = bold_heading(text).or(plain) {
            let marker = vocab::severity_of(&h).is_some();
            if self.heading_like(&h) && !(marker && under_titled_heading) {
                self.heading(BOLD, text);
                return true;
            }
        }
        let marker_line = {
            let l = markers::read_lead(text);
            l.severity.is_some() && l.title.is_empty()
        };
        // (Only a bare word does: a marker, an emoji or emphasis opens a line of its own.)
        let continues = self.unfinished
            && !self.after_blank
            && text.trim_start().starts_with(char::is_alphanumeric)
            && location::compiler_line(text, self.roots).is_none()
            && location::place_line(text, self.roots).is_none();
        let opens = opens_unit(text) && !unit::is_detail(text) && !continues;
        if opens && !(marker_line && under_titled_heading) {
            let u = self.new_unit(UnitKind::Paragraph, text, indent);
            if location::leading_range(text).is_some() {
                self.units[u].kind = UnitKind::Range;
            }
            if tagged_title(text) {
                self.units[u].read.labelled = true;
            }
            // A row of labels after a place (`· line 41 · Critical · Reliability`) is no
            // title: the paragraph after it is.
            let title = &self.units[u].read.title;
            if title.contains('·') && title.split('·').all(|p| p.split_whitespace().count() <= 2)
            {
                self.units[u].read.title = String::new();
            }
            self.containers.clear();
            return true;
        }
        false
    }

    /// Text that neither leads nor places anything: the open unit's line, a level for the
    /// finding before it, a record's field, a finding of its own in a severity, findings or
    /// file section, or summary or loose text.
    fn rest_of_text(&mut self, kind: Kind, para: bool, indent: usize, text: &str) {
        if let Some(u) = self.target() {
            self.units[u].lines.push(text.to_string());
            return;
        }
        // A level alone on its line after a finding (pr-agent's Impact cell): that finding's —
        // unless a place came between them.
        let placed_since = self.units_at_place == Some(self.units.len());
        let level_alone = vocab::severity_of(text).filter(|s| {
            s.1 == Strength::Level && text.trim().chars().all(|c| c.is_alphanumeric() || c == ' ')
        });
        if let (Some(level), true) = (level_alone, placed_since) {
            // The comment on the place opens with its level; its title is the next paragraph.
            let u = self.new_unit(UnitKind::Paragraph, text, indent);
            self.units[u].read.severity = Some(level);
            self.units[u].read.title = String::new();
            return;
        }
        if level_alone.is_some() && !placed_since {
            if let Some(last) = self.units.last_mut() {
                if last.read.severity.is_none() {
                    last.lines.push(format!("Severity: {}", text.trim()));
                    return;
                }
            }
        }
        let Around {
            severity,
            quiet,
            findings,
            path,
            ..
        } = self.context();
        let marker_only = || {
            let l = markers::read_lead(text);
            l.severity.is_some() && l.title.is_empty()
        };
        // The wrapped rest of a placeholder ("Nothing to flag. The tests use real key names,
        // and there's a" / "test for the locale …") says why there is nothing.
        if self.unfinished && !self.after_blank {
            if let Some(u) = self.recent.filter(|&u| self.units[u].placeholder) {
                self.units[u].lines.push(text.to_string());
                return;
            }
        }
        // The wrapped rest of a labelled line (`**Summary:** The PR fixes the bug where a job
        // made the` / `scheduler panic …`) belongs to that line, not to the answer's loose prose.
        if !self.after_blank && text.trim_start().starts_with(char::is_lowercase) {
            if let Some(last) = self.pending.last_mut() {
                last.push(' ');
                last.push_str(text.trim());
                return;
            }
        }
        if unit::is_detail(text) && !matches!(&kind, Kind::Neutral(t) if !t.is_empty()) {
            self.pending.push(text.to_string());
            return;
        }
        match kind {
            // A neutral heading followed by `Severity:`/`File:` lines or a marker line
            // (`**High Severity**`) was a finding after all.
            // (Not a `**Summary:**` line: under the answer's title, `## Review: Fix duplicate
            // charges`, it sums up the change.)
            Kind::Neutral(title)
                if !title.is_empty()
                    && ((unit::is_field(text)
                        && !(unit::sums_up(text) && titles_review(&title)))
                        || (marker_only()
                            && !self.heading_content
                            && vocab::normalise(&title).split(' ').count() >= 3)) =>
            {
                self.promote(title, text);
            }
            // A paragraph after a level's "None." in its section, with no level, place or
            // problem of its own ("The new timeout stays below the redelivery ceiling …"), is
            // the reviewer's prose, not a finding the placeholder forgot. (Nor is a verdict
            // that opens on approval, "LGTM — … so a retry after a crash cannot send it twice",
            // whatever risks it says it checked.)
            _ if para
                && severity.is_some()
                && self
                    .units
                    .last()
                    .is_some_and(|u| u.placeholder && u.section_severity == severity)
                && markers::read_lead(text).severity.is_none()
                && (!crate::answer::verdict::raises_concern(text)
                    || crate::answer::verdict::approval_lead(text))
                && (checked_each(text)
                    || (!location::find_all(text, self.roots)
                        .iter()
                        .any(|l| l.start_line.is_some())
                        && location::lines_in(text).is_none())) =>
            {
                self.out.loose_text.push(text.to_string());
            }
            _ if para && !quiet && (severity.is_some() || findings || path.is_some()) => {
                // A plain paragraph under a severity heading, in a findings section or under a
                // file's heading is a finding of its own.
                let u = self.new_unit(UnitKind::Paragraph, text, indent);
                // ("Nothing to flag. The keyboard tests use real key names.": what follows the
                // placeholder says why, unless it raises something after all.)
                let said_nothing = text.split_once(". ").is_some_and(|(first, rest)| {
                    vocab::is_placeholder(first) && !crate::answer::verdict::raises_concern(rest)
                });
                if vocab::is_placeholder(text) || said_nothing {
                    self.units[u].placeholder = true;
                    self.open = None;
                }
            }
            _ if quiet => self.out.quiet_text.push(text.to_string()),
            // A paragraph on its own that points at a line and raises a problem there ("Edit:
            // one more. `limiter.go:40` never evicts old keys") after findings is one more. (In
            // an answer that is all prose, no paragraph is singled out: the answer as a whole
            // goes to the normaliser.)
            _ if para && !self.units.is_empty() && self.raises_at_a_line(text) => {
                self.new_unit(UnitKind::Paragraph, text, indent);
            }
            _ => self.out.loose_text.push(text.to_string()),
        }
    }

    fn raises_at_a_line(&self, text: &str) -> bool {
        location::find_all(text, self.roots)
            .iter()
            .any(|l| l.start_line.is_some() && !l.path.is_empty())
            && (crate::answer::verdict::raises_concern(text)
                || !crate::answer::prose::ratings(text).is_empty())
            && !crate::answer::verdict::mentions_approval(text)
    }

    /// A line that is only a place (`**src/a.rs:27**`, a permalink, `> Line 33`): the comments
    /// that follow are about it.
    pub(super) fn place(&mut self, place: location::Place) {
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
        self.units_at_place = Some(self.units.len());
    }
}

/// A unit that is surely a finding: a marker, a label, a range or a location in its lead.
/// "Review: Fix duplicate charges", "Code review of PR #412": a heading that titles the
/// answer as a review, under which a `**Summary:**` sums up the change (under a finding's
/// heading, it sums up the finding).
fn titles_review(title: &str) -> bool {
    let t = vocab::normalise(title);
    [
        "review",
        "code review",
        "pr review",
        "diff review",
        "pull request review",
    ]
    .iter()
    .any(|p| t == *p || t.starts_with(&format!("{p} ")))
}

pub(super) fn strong(u: &Unit) -> bool {
    u.read.severity.is_some() || u.read.labelled || u.kind == UnitKind::Range
}

/// Does a line carry its own severity level (so it is a finding, not a detail)?
pub(super) fn own_level(text: &str) -> bool {
    markers::read_lead(text)
        .severity
        .is_some_and(|s| s.1 == Strength::Level)
        && !markers::read_lead(text).title.is_empty()
}

/// A numbered title whose tags close the line, each a symbol and a word in code (Qodo:
/// "3\\. Amount parsed as float `🐞 Bug` `≡ Correctness`"): a finding's title, as a label is.
fn tagged_title(text: &str) -> bool {
    static TAGGED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(
        &TAGGED,
        r"^\d{1,3}\\?[.)]\s+[^`]{3,120}?(?:\s`[^\p{L}\p{N}`\s][^`]{1,40}`)+\s*$",
    )
    .is_match(text.trim())
}

/// Does a paragraph open a finding: a marker first, a bold title, a `36-41`: range, a label?
pub(super) fn opens_unit(text: &str) -> bool {
    let t = text.trim_start();
    if location::leading_range(t).is_some()
        || location::compiler_line(t, &location::Roots::default()).is_some()
    {
        return true;
    }
    let lead = markers::read_lead(t);
    if lead.labelled {
        return true;
    }
    if lead.severity.is_some() {
        // The marker must open the line, not sit in its prose; or the line opens with the
        // place it rates (`**`deploy.yaml`** · line 41 · **Critical** · Reliability`).
        let line = plain(&strip_tags(t));
        let head: String = plain(&lead.title).chars().take(12).collect();
        let placed_first = location::find_all(t, &location::Roots::default())
            .first()
            .is_some_and(|l| !l.path.is_empty() && line.starts_with(l.path.as_str()));
        // Or a bold title is followed by its level alone (a code-scanning alert: "**Uncontrolled
        // data used in path expression** High").
        let bold_then_level = t
            .strip_prefix("**")
            .and_then(|r| r.split_once("**"))
            .is_some_and(|(_, after)| after.split_whitespace().count() == 1);
        return head.is_empty()
            || line.find(&head).is_none_or(|at| at > 0)
            || placed_first
            || bold_then_level;
    }
    if tagged_title(t) {
        return true;
    }
    let lower = t.to_ascii_lowercase();
    t.starts_with("**")
        || t.starts_with("__")
        || lower.starts_with("<strong>")
        || lower.starts_with("<b>")
        || (lower.starts_with("<a ") && lower.contains("<strong>"))
}

/// Does `text` rate the change's risk as low ("Low — pure function, fully covered." under a
/// `## Risk` heading, "**Overall risk: Low.** Rollout is a config flip")? That is how safe the
/// change is to ship, not a problem of level "low". (A high risk is read on its own words.)
fn low_risk(heading: &str, text: &str) -> bool {
    static RATED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    static LOW: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let rated = crate::answer::re(
        &RATED,
        r"(?i)^\W*(?:overall |rollout |merge |deploy(?:ment)? |change |residual |release )?risk(?: level| assessment| rating)?\W{0,4}(?:is\W+)?(?:very )?(?:low|minimal|negligible|none|small)\b",
    );
    let low = crate::answer::re(
        &LOW,
        r"(?i)^\W*(?:very )?(?:low|minimal|negligible|none|small)\b(?:\W*$|\W*[.—–:;-])",
    );
    // (`## Risk`, `## Risks after the fix`, `**Overall risk**`.)
    let under_risk = heading.split(' ').count() <= 5
        && (heading.starts_with("risk")
            || [
                "overall risk",
                "rollout risk",
                "residual risk",
                "merge risk",
            ]
            .contains(&heading));
    // (Rated low, but saying what breaks, it is read on its words: "Low — but the down
    // migration drops every posting.")
    (rated.is_match(text) || (under_risk && low.is_match(text)))
        && !crate::answer::verdict::raises_concern(text)
}

/// Does the paragraph list the places the reviewer checked and found fine ("I checked each:
/// `a.ts:31`, `b.ts:88`, …")? Its lines are where it looked, not findings.
fn checked_each(text: &str) -> bool {
    static CHECKED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(
        &CHECKED,
        r"(?i)\bi (?:checked|verified|went through|looked at|read) (?:each|all|every one|them all|each of them|all of them)(?: of them)?\b",
    )
    .is_match(text)
}
