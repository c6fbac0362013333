//! List items (findings, their nested details, containers such as `- **High**` or `- src/a.rs:`)
//! and table rows.

use super::*;

impl Reader<'_> {
    pub(super) fn item(&mut self, indent: usize, text: &str) {
        if self.rating_line(text) {
            self.open = None;
            return;
        }
        // `- **Review effort level:** Low`, `- Confidence: high`: a rating of the change, whose
        // value is no level of a finding.
        if unit::labelled(text).is_some_and(|(label, _)| {
            section_named(&vocab::normalise(&label), vocab::RATING_SECTIONS)
        }) && location::find_all(text, self.roots).is_empty()
        {
            self.out.quiet_text.push(text.to_string());
            self.open = None;
            return;
        }
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
                if self.record_field(c, text) {
                    return;
                }
                self.child_unit(c, indent, text);
                return;
            }
        }
        // The list a lead-in announced as problems ("Three things:") is its own findings, not
        // the details of what came before it.
        let announced = self.list.is_none() && self.announced.contains(&(self.lists + 1));
        if let Some(o) = self.open.filter(|_| !announced) {
            let u = &self.units[o];
            let nested = indent > u.indent;
            let belongs = match u.kind {
                UnitKind::Item => nested,
                // Items after a finding paragraph are its details, unless they carry their own
                // severity or the paragraph was only a bold title with nothing to show for it.
                // So are items after a bold title (`**1. Jobs replay after a crash** (`q.ts:88`)`
                // then `- Severity: High`, `- Fix: …`), unless they have bold titles of their
                // own (the bold line was a group's title).
                UnitKind::Paragraph | UnitKind::Range => {
                    let titled_item = bold_titled(text) && !unit::is_field(text);
                    nested
                        || (strong(u) && !own_level(text))
                        // (A field with a level, `- Severity: P0 (critical)`, is the title's.)
                        || (bold_lead(u) && (!own_level(text) || level_field(text)) && !titled_item)
                }
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
                    self.out.missing_alternatives.push(plain(text));
                }
                self.open = None;
            }
            Kind::Recommendation => {
                self.out.recommendation.get_or_insert_with(|| plain(text));
                self.open = None;
            }
            Kind::Finding(u) if !own_level(text) || unit::is_field(text) => {
                self.units[u].lines.push(text.to_string());
                self.open = None;
            }
            Kind::Neutral(title) if unit::is_field(text) && !title.is_empty() => {
                self.promote(title, text);
            }
            // A task list (`- [x] Read the changed files`) is the reviewer's checklist, not its
            // findings, unless an item carries a level (codex's `- [ ] [P3] …`, `- [x] [P1] …`):
            // a ticked one whose level is only a label is done (`- [x] **Errors** — failures
            // return a 500`).
            _ if is_task(text)
                && (is_ticked(text) || markers::read_lead(text).severity.is_none()) =>
            {
                self.out.quiet_text.push(text.to_string());
                self.open = None;
            }
            _ => {
                let list = *self.list.get_or_insert_with(|| {
                    self.lists += 1;
                    self.lists
                });
                let u = self.new_unit(UnitKind::Item, text, indent);
                self.units[u].list = Some(list);
                if self.announced.contains(&list) {
                    self.units[u].in_findings = true;
                    self.units[u].quiet = false;
                } else if self.cleared.contains(&list) {
                    self.units[u].in_findings = false;
                    self.units[u].quiet = true;
                }
                self.mark_container(u);
            }
        }
    }

    /// `- **Severity: Critical**` with `**File:**`, `**Line:**`, `**Issue:**` nested under it (a
    /// local model's record per finding): the level is not a group of findings but one finding,
    /// and the nested fields are its details. Says whether `text` was taken as one.
    fn record_field(&mut self, c: usize, text: &str) -> bool {
        let p = &self.units[c];
        let only_marker = p.read.severity.is_some() && plain(&p.read.title).is_empty();
        let first_child = self.open == Some(c) && (p.children_are_findings || !p.lines.is_empty());
        let record = !p.children_are_findings && !p.lines.is_empty();
        if !(only_marker && p.kind == UnitKind::Item && first_child) {
            return false;
        }
        if !record && !unit::is_field(text) {
            return false;
        }
        self.units[c].children_are_findings = false;
        self.units[c].lines.push(text.to_string());
        true
    }

    pub(super) fn child_unit(&mut self, parent: usize, indent: usize, text: &str) {
        let p = &self.units[parent];
        let sev = p.read.severity.or(p.section_severity);
        let path = container_path(&p.lead, self.roots).or(p.section_path.clone());
        let quiet = p.quiet;
        let done = p.done;
        let u = self.new_unit(UnitKind::Item, text, indent);
        self.units[u].done |= done;
        self.units[u].section_severity = sev;
        self.units[u].section_path = path;
        self.units[u].in_findings = !quiet;
        self.units[u].quiet = quiet;
    }

    /// An item or paragraph that is only a severity or only a path groups what is nested in it.
    pub(super) fn mark_container(&mut self, u: usize) {
        let unit = &self.units[u];
        let only_marker = unit.read.severity.is_some() && plain(&unit.read.title).is_empty();
        let only_path = container_path(&unit.lead, self.roots).is_some();
        if (only_marker && unit.kind == UnitKind::Item) || only_path {
            self.units[u].children_are_findings = true;
            self.units[u].placeholder = false;
            self.containers.push(u);
            self.open = Some(u);
        }
    }

    pub(super) fn row(&mut self, cells: &[String], next_is_separator: bool) {
        // A summary's table (Greptile's "Important Files Changed") is quiet text too: prose
        // read later must not raise its rows again.
        if matches!(self.kind(), Kind::Quiet | Kind::Rating) {
            self.out.quiet_text.push(cells.join(" | "));
        }
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
        let strong_issue = col(vocab::TABLE_ISSUE_COLUMNS);
        let sev = col(vocab::TABLE_SEVERITY_COLUMNS);
        let get = |i: usize| cells.get(i).cloned().unwrap_or_default();
        let status = col(vocab::TABLE_STATUS_COLUMNS);
        // A table of checks (`| Aspect | Status | Notes |`) rates no row, unless a status says
        // a level (`❌ **Critical**` among `✅` rows): that row is a finding.
        let rated_status = status.is_some_and(|i| {
            vocab::severity_of(&plain(&get(i))).is_some_and(|s| s.1 == vocab::Strength::Level)
        });
        if sev.is_none() && strong_issue.is_none() && !rated_status {
            return;
        }
        let issue = strong_issue
            .or(col(vocab::TABLE_TEXT_COLUMNS))
            .or_else(|| unnamed_issue(&header, cells, &col));
        let Some(issue) = issue else {
            return;
        };
        let lead = get(issue);
        if lead.trim().is_empty() || lead.trim().chars().all(|c| c == '-') {
            return;
        }
        // A count in the issue column (`| Critical | 0 |` under `| Severity | Issues |`) is a
        // tally of levels, not a finding.
        if lead.trim().chars().all(|c| c.is_ascii_digit()) {
            self.out.quiet_text.push(cells.join(" | "));
            return;
        }
        // A row whose level is only a pass mark (`| ✅ | a.test.ts | — | Tests added, nice. |`)
        // is what the reviewer checked and liked.
        let passed = |c: &str| {
            let c = c.trim();
            !c.is_empty()
                && c.chars()
                    .all(|ch| matches!(ch, '✅' | '✔' | '✓' | '☑' | '👍' | '\u{fe0f}' | ' '))
        };
        // A row an earlier review raised and this one marks done in its status column
        // (`| 4 | P2 | csv.ts:22 | Formula injection | ✅ Fixed — values are prefixed |`).
        // (A result that is the finding's own text is done the same way: `✅ 5-minute TTL`.)
        // (A level cell that says the row passed, `✅ OK`, or in words that there is no
        // impact, `none`, is one too; a dash only says the row is not rated.)
        let level_passed = |c: &str| {
            let t = plain(c);
            passed(c)
                || done(c)
                || (t.chars().any(char::is_alphabetic) && vocab::is_placeholder(&t))
        };
        // (The latest of several status columns is the rightmost: `| Round 2 status | Round 3
        // |` holding `Fix pushed | ✅ Verified fixed`.)
        let last = cells.iter().rposition(|c| !plain(c).trim().is_empty());
        // (Only a column named as a later round's: a `Notes` cell saying `✅ repro confirmed`
        // closes nothing.)
        let round_column = |l: usize| {
            let h = header.get(l).map_or("", String::as_str);
            col(vocab::TABLE_STATUS_COLUMNS) == Some(l)
                || [
                    "round",
                    "pass",
                    "iteration",
                    "now",
                    "current",
                    "latest",
                    "after",
                ]
                .iter()
                .any(|w| h == *w || h.starts_with(&format!("{w} ")))
        };
        let latest_done = last.is_some_and(|l| {
            l != issue
                && Some(l) != sev
                && status.is_some_and(|s| l > s)
                && round_column(l)
                && done(&get(l))
        });
        if sev.is_some_and(|i| level_passed(&get(i)))
            || status.is_some_and(|i| done(&get(i)))
            || latest_done
        {
            self.out.quiet_text.push(cells.join(" | "));
            return;
        }
        let u = self.new_unit(UnitKind::Row, &lead, 0);
        let mut fields = Vec::new();
        // A level in the result column of a table with no level column (`| Проверка |
        // Результат | Комментарий |` holding `🔴 Критично`).
        let sev = sev
            .or(status.filter(|i| *i != issue && vocab::severity_of(&plain(&get(*i))).is_some()));
        for (name, idx) in [
            ("severity", sev),
            ("category", col(vocab::TABLE_CATEGORY_COLUMNS)),
            ("file", col(vocab::TABLE_FILE_COLUMNS)),
            ("line", col(vocab::TABLE_LINE_COLUMNS)),
            ("fix", col(vocab::TABLE_FIX_COLUMNS)),
        ] {
            if let Some(i) = idx.filter(|i| *i != issue) {
                fields.push((name.to_string(), get(i)));
            }
        }
        // What the other columns of words say (a check's name in one, the comment on it in
        // another) is the finding's body.
        let worded = |h: &String| {
            [vocab::TABLE_ISSUE_COLUMNS, vocab::TABLE_TEXT_COLUMNS]
                .iter()
                .any(|names| {
                    names
                        .iter()
                        .any(|n| h == n || h.starts_with(&format!("{n} ")))
                })
        };
        for (i, h) in header.iter().enumerate() {
            if i != issue && Some(i) != status && worded(h) && !get(i).trim().is_empty() {
                fields.push(("details".to_string(), get(i)));
            }
        }
        self.units[u].fields = fields;
        // (`#` normalises to nothing.)
        let numbered = col(&["no", "nr", "id", "番号", "编号", "編號", "번호"])
            .or_else(|| header.iter().position(String::is_empty))
            .filter(|i| *i != issue);
        self.units[u].number =
            numbered.and_then(|i| get(i).trim().trim_start_matches('#').parse().ok());
        self.open = None;
    }
}

/// A table rated by level and placed whose columns name no finding (`| # | Area | Result |
/// Severity | Location |`, `| Уровень | Где | Что |`): the row's finding is its longest cell
/// that is no level, place, line, kind, fix or number. (A table with no place is a matrix of
/// risks, `| Risk | Level | Why it's acceptable |`, not of findings.)
fn unnamed_issue(
    header: &[String],
    cells: &[String],
    col: &dyn Fn(&[&str]) -> Option<usize>,
) -> Option<usize> {
    let claimed: Vec<usize> = [
        vocab::TABLE_SEVERITY_COLUMNS,
        vocab::TABLE_FILE_COLUMNS,
        vocab::TABLE_LINE_COLUMNS,
        vocab::TABLE_CATEGORY_COLUMNS,
        vocab::TABLE_FIX_COLUMNS,
    ]
    .iter()
    .filter_map(|names| col(names))
    .collect();
    let placed = [vocab::TABLE_FILE_COLUMNS, vocab::TABLE_LINE_COLUMNS]
        .iter()
        .any(|names| col(names).is_some());
    if !placed {
        return None;
    }
    (0..header.len().min(cells.len()))
        .filter(|i| !claimed.contains(i) && !header[*i].is_empty())
        .max_by_key(|i| plain(&cells[*i]).trim().chars().count())
}

/// Does a status cell say the finding is done: a check mark first (`✅ Removed`, `✔ Two
/// tenants`), a status word that means fixed ("Fixed in 2f7b9d4", "Resolved"), or a scanner's
/// result that is no failure (`PASSED`, `⏭️ SKIPPED — approved in SEC-114`, "Suppressed")?
fn done(cell: &str) -> bool {
    let t = plain(cell);
    let t = t.trim();
    let first = vocab::normalise(t);
    let first = first.split(' ').next().unwrap_or("");
    t.starts_with(['✅', '✔', '☑', '✓', '⏭'])
        || vocab::is_withdrawn(t)
        || crate::answer::carried::status_word(t) == Some(vocab::Carried::Fixed)
        || [
            "passed",
            "pass",
            "skipped",
            "ignored",
            "suppressed",
            "waived",
            "ok",
        ]
        .contains(&first)
}

/// The file an item stands for when it is only a file: `src/a.rs`, `src/a.rs:`,
/// `internal/cache/lru.go - **2**` (a file and its count of comments).
pub(super) fn container_path(lead: &str, roots: &Roots) -> Option<Location> {
    let lead = plain(lead);
    let lead = lead.trim().trim_end_matches(':');
    let lead = lead
        .rsplit_once(" - ")
        .filter(|(_, n)| n.trim().chars().all(|c| c.is_ascii_digit()))
        .map_or(lead, |(p, _)| p);
    (!lead.contains(' '))
        .then(|| location::path_only(lead, roots))
        .flatten()
}

/// A paragraph that opens with a bold title.
fn bold_lead(u: &Unit) -> bool {
    bold_titled(&u.lead)
}

/// Text (an item's, after its marker or number) that opens with a bold span.
pub(super) fn bold_titled(text: &str) -> bool {
    let t = text.trim_start();
    let t = ["- ", "* ", "+ "]
        .iter()
        .find_map(|m| t.strip_prefix(m))
        .unwrap_or(t)
        .trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let t = match t[digits..].strip_prefix(['.', ')']) {
        Some(rest) if digits > 0 => rest.trim_start(),
        _ => t,
    };
    t.starts_with("**") || t.starts_with("__")
}

pub(super) fn is_task(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with("[ ]") || t.starts_with("[x]") || t.starts_with("[X]")
}

fn is_ticked(text: &str) -> bool {
    let t = text.trim_start();
    let rest = t
        .strip_prefix("[x]")
        .or_else(|| t.strip_prefix("[X]"))
        .map(str::trim_start);
    rest.is_some_and(|r| !r.starts_with('['))
}

/// A field that only states a level (`- Severity: P0 (critical)`): the level of the bold title
/// above it, not a finding with a level of its own.
fn level_field(text: &str) -> bool {
    let t = plain(text);
    let t = t.trim_start_matches(|c: char| c.is_whitespace() || "-*+".contains(c));
    unit::is_severity_field(t)
        && t.split_once(':').is_some_and(|(_, v)| {
            v.split_whitespace().count() <= 3 && !v.contains(['`', '/', '—', '–'])
        })
}
