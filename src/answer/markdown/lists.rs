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
                    // (An item that opens with its own place, `1. `orders/service.py:88` — …`,
                    // under a bold line that names none, `**Review template — backend**`, is
                    // a finding of a list the bold line titles.)
                    let titled_item = (bold_titled(text) && !unit::is_field(text))
                        || (!strong(u)
                            && !numbered_title(&u.lead)
                            && self.opens_placed(text)
                            && !self.placed(u)
                            && crate::answer::prose::severity_in(&u.lead).is_none());
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
            // (An open box that says what is wrong and where, `- [ ] CSRF: views.py, строка 73 —
            // …`, is a criterion the change fails: a finding.)
            _ if is_task(text)
                && (is_ticked(text)
                    || (markers::read_lead(text).severity.is_none()
                        && !fails_at(text, self.roots))) =>
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
                } else if self.hidden.contains(&list) {
                    self.units[u].quiet = true;
                    self.units[u].done = true;
                }
                self.mark_container(u);
            }
        }
    }

    /// Does an item open with a place at a line (`` `orders/service.py:88` — … ``)?
    fn opens_placed(&self, text: &str) -> bool {
        let lead = plain(text);
        let lead = lead.trim_start();
        location::find_all(lead, self.roots)
            .first()
            .is_some_and(|l| l.start_line.is_some() && lead.starts_with(l.path.as_str()))
    }

    /// Does a unit's lead name a place?
    fn placed(&self, u: &Unit) -> bool {
        !location::find_all(&u.lead, self.roots).is_empty()
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
            self.fixed_table = self.fixed_next;
            self.open = None;
            // (A header names columns; it raises nothing, whatever words it uses: `| Scanner
            // finding | Original severity | Triage |`.)
            self.out.quiet_text.push(cells.join(" | "));
            return;
        }
        let Some(header) = self.table.clone() else {
            return;
        };
        if self.fixed_table {
            self.out.quiet_text.push(cells.join(" | "));
            return;
        }
        let col = |names: &[&str]| column(&header, names);
        let strong_issue = col(vocab::TABLE_ISSUE_COLUMNS);
        let sev = col(vocab::TABLE_SEVERITY_COLUMNS);
        let get = |i: usize| cells.get(i).cloned().unwrap_or_default();
        let status = col(vocab::TABLE_STATUS_COLUMNS);
        // A table of checks (`| Aspect | Status | Notes |`) rates no row, unless a status says
        // a level (`❌ **Critical**` among `✅` rows): that row is a finding.
        // (A traffic light that is green or white passed or is pending: `| Build | 🟢 |`.)
        // (A rubric's score stands for a status: `| Error handling | 4/5 | nit: … |`.)
        let score = col(vocab::TABLE_SCORE_COLUMNS).filter(|_| status.is_none());
        let RowCheck {
            check,
            gauge,
            said,
            pointer,
        } = row_check(cells, status, score);
        let rated_status =
            status.is_some_and(|i| {
                vocab::severity_of(&plain(&get(i))).is_some_and(|s| s.1 == vocab::Strength::Level)
            }) && !matches!(check, Some(vocab::Check::Passed | vocab::Check::Skipped));
        if check == Some(vocab::Check::Failed) && pointer {
            self.out.quiet_text.push(cells.join(" | "));
            return;
        }
        let failed = check == Some(vocab::Check::Failed) && said;
        if sev.is_none() && strong_issue.is_none() && !rated_status && !failed {
            return;
        }
        // (A table of checks names its row in its first column, `| Gate | State | Detail |`:
        // the other columns of words say why.)
        let first = (0..cells.len()).find(|i| {
            Some(*i) != gauge
                && header
                    .get(*i)
                    .is_some_and(|h| !h.is_empty() && !["no", "nr", "id"].contains(&h.as_str()))
        });
        let issue = strong_issue
            .or_else(|| (sev.is_none() && status.is_some()).then_some(first)?)
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
        let columns = Columns { sev, status, issue };
        if row_done(&header, cells, columns, check) {
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
        || triaged_away(t)
}

/// A triage that clears a scanner's finding (`False positive`, `Accepted risk`, `Not
/// reachable`): the row is what a tool raised and someone ruled out, not a problem raised here.
fn triaged_away(cell: &str) -> bool {
    let n = vocab::normalise(cell);
    [
        "false positive",
        "false-positive",
        "accepted risk",
        "risk accepted",
        "not reachable",
        "unreachable",
        "not exploitable",
        "not affected",
        "faux positif",
        "falso positivo",
        "falso positivo",
        "fehlalarm",
        "ложное срабатывание",
        "误报",
        "誤検知",
        "오탐",
    ]
    .iter()
    .any(|w| n.starts_with(w))
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

/// The column a header names with one of `names`, whole or as its first or last word.
fn column(header: &[String], names: &[&str]) -> Option<usize> {
    header.iter().position(|h| {
        names
            .iter()
            .any(|n| h == n || h.starts_with(&format!("{n} ")) || h.ends_with(&format!(" {n}")))
    })
}

/// The columns of a findings table that say which row is what.
#[derive(Clone, Copy)]
struct Columns {
    sev: Option<usize>,
    status: Option<usize>,
    issue: usize,
}

/// Does a row say it raises nothing (any more): a pass mark for its level, a status of done or
/// passed, a later round's column that marks it fixed?
fn row_done(header: &[String], cells: &[String], c: Columns, check: Option<vocab::Check>) -> bool {
    let Columns { sev, status, issue } = c;
    let get = |i: usize| cells.get(i).cloned().unwrap_or_default();
    let col = |names: &[&str]| column(header, names);
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
        passed(c) || done(c) || (t.chars().any(char::is_alphabetic) && vocab::is_placeholder(&t))
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
    sev.is_some_and(|i| level_passed(&get(i)))
        || status.is_some_and(|i| done(&get(i)))
        || (matches!(check, Some(vocab::Check::Passed | vocab::Check::Skipped))
            && sev.is_none_or(|i| vocab::severity_of(&plain(&get(i))).is_none()))
        || latest_done
}

/// How a row of a table of checks stands, by its status or its score, and what its other cells
/// say.
struct RowCheck {
    check: Option<vocab::Check>,
    /// The column that says how the row stands.
    gauge: Option<usize>,
    /// Another cell says why in words.
    said: bool,
    /// Another cell only points at the finding told below.
    pointer: bool,
}

/// A row a gate or a checklist failed (`| SAST | ❌ NO-GO | … |`, `| Auth | FAIL | … |`) is a
/// finding, of the level its status says if it says one; one that passed, does not apply or
/// waits (`| Build | 🟢 |`, `| Docs | N/A |`) is not. Neither is a bare mark with nothing said
/// beside it (`| Documentation | ❌ |` in a bot's table of its own settings), a tally beside a
/// link (`| JavaScript | ❌ Failure, 2 new issues | [Review ↗](…) |`: the issues are the comments
/// below), or a row that only points at the finding told below (`| CWE-22 | ❌ | 아래 1번과 같은
/// 원인 |`).
fn row_check(cells: &[String], status: Option<usize>, score: Option<usize>) -> RowCheck {
    let get = |i: usize| cells.get(i).cloned().unwrap_or_default();
    let check = status
        .and_then(|i| vocab::check_of(&plain(&get(i))))
        .or_else(|| score.and_then(|i| scored(&plain(&get(i)))));
    let gauge = status.or(score);
    let others = || {
        cells
            .iter()
            .enumerate()
            .filter(move |(i, _)| Some(*i) != gauge && *i != 0)
            .map(|(_, c)| c)
    };
    RowCheck {
        check,
        gauge,
        said: others().any(|c| says_why(c)),
        pointer: others().any(|c| vocab::points_below(&plain(c))),
    }
}

/// How a rubric's score stands (`5/5` passed, `2 / 5` and `3 out of 5` failed): `None` when
/// the cell holds no score.
fn scored(cell: &str) -> Option<vocab::Check> {
    let t = cell.trim().replace("out of", "/");
    let (got, of) = t.split_once('/')?;
    let got: f32 = got.trim().parse().ok()?;
    let of: f32 = of.split_whitespace().next()?.parse().ok()?;
    (of > 0.0).then_some(if got >= of {
        vocab::Check::Passed
    } else {
        vocab::Check::Failed
    })
}

/// Does a bold title open with its number (`**3. Retries never give up**`)? It is one
/// finding's title, and the items under it its details, wherever they point.
fn numbered_title(lead: &str) -> bool {
    let t = plain(lead);
    let t = t.trim_start();
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && t[digits..].starts_with(['.', ')'])
}

/// Does a cell of a table of checks say why in words (`Docstring coverage is 41.67%, below
/// the 80% threshold`), not only a count, a date or a link?
fn says_why(cell: &str) -> bool {
    static LINK: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let text = crate::answer::re(&LINK, r"\[[^\]]*\]\([^)]*\)").replace_all(cell, "");
    plain(&text)
        .split_whitespace()
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        .count()
        >= 4
}

/// Does an open box of a checklist say what fails, or where (`- [ ] Authorization:
/// `reports/views.py`, line 41 — only `is_authenticated` is checked`)?
fn fails_at(text: &str, roots: &Roots) -> bool {
    crate::answer::location::find_all(text, roots)
        .iter()
        .any(|l| l.start_line.is_some())
        || crate::answer::verdict::raises_concern(text)
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
