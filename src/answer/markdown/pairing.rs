//! A summary table and the sections that detail it (`| 2 | 🟠 High | bulk.py L64 | … |`, later
//! `### 2. Sniffing reads the whole file (High)`): one finding each, not two. The detail's
//! title often words the problem differently from its row, so they are paired by structure —
//! the rows' levels, in order, met again by as many findings after the table — rather than by
//! words.

use super::*;

/// The rows a detail's title cites by number (`3. The slot is given twice (P1)`, `#2 —`,
/// `1, 4, 6 (P3)`), when every number is a row's.
fn cited_rows(title: &str, numbers: &[(u32, usize)]) -> Option<Vec<usize>> {
    static CITED: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let cited = crate::answer::re(
        &CITED,
        r"^\W*#?(\d{1,2})((?:\s*(?:,|、|&|and|und|et|y|e|와|과|和|及び)\s*#?\d{1,2})*)(?:[.):：]|\s|（|$)",
    );
    let c = cited.captures(title.trim_start_matches('#').trim_start())?;
    let all = std::iter::once(c.get(1)?.as_str()).chain(
        c.get(2)
            .map_or("", |m| m.as_str())
            .split(|ch: char| !ch.is_ascii_digit())
            .filter(|n| !n.is_empty()),
    );
    all.map(|n| {
        let n: u32 = n.parse().ok()?;
        numbers.iter().find(|(k, _)| *k == n).map(|(_, r)| *r)
    })
    .collect()
}

/// The rows a unit's text cites as `#3` (every `#N` in it a row's number).
fn hashed_rows(u: &Unit, numbers: &[(u32, usize)]) -> Option<Vec<usize>> {
    let text = std::iter::once(&u.lead)
        .chain(&u.lines)
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    let mut rows = Vec::new();
    for (i, _) in text.match_indices('#') {
        let digits: String = text[i + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let n: u32 = digits.parse().ok()?;
        let &(_, r) = numbers.iter().find(|(k, _)| *k == n)?;
        if !rows.contains(&r) {
            rows.push(r);
        }
    }
    (!rows.is_empty()).then_some(rows)
}

/// The one row whose problem the detail's title says again at the same level, in the row's
/// words or most of them (`### P0：扣减与增加不在同一事务中` over the row `扣减与增加不在同一事务中，
/// 失败时积分凭空增加`; `### P1：数量可以为负数` over `转赠数量允许为负数`).
fn titled_row(d: usize, rows: &[usize], found: &[Option<Finding>]) -> Option<Vec<usize>> {
    let detail = found[d].as_ref()?;
    let title = vocab::content_words(&detail.title, 3);
    if title.len() < 3 {
        return None;
    }
    let matching: Vec<usize> = rows
        .iter()
        .copied()
        .filter(|&r| {
            found[r].as_ref().is_some_and(|row| {
                let row_pieces = vocab::content_words(&row.title, 3);
                let shared = title.iter().filter(|p| row_pieces.contains(p)).count();
                (row.severity == detail.severity || detail.severity == Severity::Unclassified)
                    && shared * 2 >= title.len()
            })
        })
        .collect();
    (matching.len() == 1).then_some(matching)
}

/// A summary table and sections after it that cite its rows, by number or by the row's words,
/// in any order and not all of them (`### 3. …（P1）`, `### 1, 4, 6（P3）`, a closing "fix #3
/// first", `### P0：` and the row's problem again): each section is the detail of the rows it
/// cites, not a finding of its own.
///
/// `by_title`: cite by the row's words too. Numbers are read before the rows are paired in
/// order (a section that says "3." is row 3's wherever it stands), words after (the rows'
/// order is the stronger sign).
pub(super) fn pair_cited_details(units: &[Unit], found: &mut [Option<Finding>], by_title: bool) {
    let rows: Vec<usize> = (0..units.len())
        .filter(|i| units[*i].kind == UnitKind::Row && found[*i].is_some())
        .collect();
    let numbers: Vec<(u32, usize)> = rows
        .iter()
        .filter_map(|&i| units[i].number.map(|n| (n, i)))
        .collect();
    let Some(&last_row) = rows.last() else {
        return;
    };
    if rows.len() < 2 {
        return;
    }
    for d in last_row + 1..units.len() {
        if units[d].kind == UnitKind::Row || found[d].is_none() {
            continue;
        }
        let by_number = cited_rows(&units[d].lead, &numbers);
        let numbered = by_number.is_some();
        let Some(rows) = by_number.or_else(|| {
            // A closing sentence about a row ("P1 が 1 件（#3）あるため…", "fix #3 first") with
            // no place of its own restates it.
            let unplaced = found[d].as_ref().is_some_and(|f| f.location.is_none());
            unplaced
                .then(|| {
                    hashed_rows(&units[d], &numbers)
                        .or_else(|| by_title.then(|| titled_row(d, &rows, found)).flatten())
                })
                .flatten()
        }) else {
            continue;
        };
        let other_file = |r: usize| {
            let path = |f: &Option<Finding>| {
                f.as_ref()
                    .and_then(|f| f.location.as_ref())
                    .map(|l| l.path.clone())
                    .filter(|p| !p.is_empty())
            };
            matches!((path(&found[r]), path(&found[d])), (Some(a), Some(b)) if a != b)
        };
        // (A section that cites its row by number and names another file only in its words,
        // "see `src/http/retry.ts:15`", still details that row: the file is a reference.)
        let title_named = found[d].as_ref().is_some_and(|f| {
            f.location
                .as_ref()
                .is_some_and(|l| f.title.contains(l.path.rsplit('/').next().unwrap_or("")))
        });
        if rows.iter().any(|&r| other_file(r)) && (!numbered || title_named) {
            continue;
        }
        let detail = found[d].take().expect("checked above");
        if let [r] = rows[..] {
            merge_detail(found[r].as_mut().expect("cited rows are findings"), detail);
            continue;
        }
        // A section on several rows ("1, 4, 6 (P3)") details none of them alone: only its
        // level counts.
        for r in rows {
            let row = found[r].as_mut().expect("cited rows are findings");
            if detail.severity != Severity::Unclassified && detail.severity < row.severity {
                row.severity = detail.severity;
            }
        }
    }
}

/// Merges each detail into its row, when the findings after the table repeat the rows' levels
/// in order and no pair names two different files.
pub(super) fn pair_table_with_details(units: &[Unit], found: &mut [Option<Finding>]) {
    let rows: Vec<usize> = (0..units.len())
        .filter(|i| units[*i].kind == UnitKind::Row && found[*i].is_some())
        .collect();
    let Some(&last_row) = rows.last() else {
        return;
    };
    let after: Vec<usize> = (last_row + 1..units.len())
        .filter(|i| units[*i].kind != UnitKind::Row && found[*i].is_some())
        .collect();
    // A table that sums up at the end has its details before it.
    let before: Vec<usize> = (0..rows[0])
        .filter(|i| units[*i].kind != UnitKind::Row && found[*i].is_some())
        .collect();
    let level = |i: usize| found[i].as_ref().map(|f| f.severity);
    let file = |i: usize| {
        found[i]
            .as_ref()
            .and_then(|f| f.location.as_ref())
            .map(|l| l.path.clone())
            .filter(|p| !p.is_empty())
    };
    // The same line of the same file (`upload.go:54` in the row, `server/…/upload.go` line 54
    // in the detail) pairs them even when the row states another level.
    let line = |i: usize| {
        found[i]
            .as_ref()
            .and_then(|f| f.location.as_ref())
            .and_then(|l| l.start_line)
    };
    let same_line = |r: usize, d: usize| match (file(r), file(d), line(r), line(d)) {
        (Some(a), Some(b), Some(x), Some(y)) => {
            x == y && (a == b || a.ends_with(&format!("/{b}")) || b.ends_with(&format!("/{a}")))
        }
        _ => false,
    };
    // One failed row of a table of checks and its section (`| SQL injection | FAIL | … |`,
    // then `### CWE-89 — SQL injection` at the same line): one finding.
    if let [r] = rows[..] {
        if let Some(d) = after
            .iter()
            .chain(&before)
            .copied()
            .find(|&d| same_line(r, d))
        {
            let detail = found[d].take().expect("paired findings exist");
            merge_detail(found[r].as_mut().expect("paired findings exist"), detail);
        }
        return;
    }
    let fits = |details: &[usize], start: usize| {
        rows.iter().enumerate().all(|(k, &r)| {
            let d = details[start + k];
            (level(r) == level(d)
                && level(r) != Some(Severity::Unclassified)
                && (file(r).is_none() || file(d).is_none() || file(r) == file(d)))
                || same_line(r, d)
                // As many details as rows, in order, and one side without a place: the rows
                // restate them (and place them when they can).
                || (details.len() == rows.len() && (file(d).is_none() || file(r).is_none()))
        })
    };
    let first_fit = |details: &[usize]| {
        (0..(details.len() + 1).saturating_sub(rows.len())).find(|s| fits(details, *s))
    };
    let (details, start) = match first_fit(&after) {
        Some(s) => (after.clone(), s),
        None => match first_fit(&before) {
            Some(s) => (before.clone(), s),
            None => return,
        },
    };
    for (k, &r) in rows.iter().enumerate() {
        let d = details[start + k];
        let detail = found[d].take().expect("paired findings exist");
        let row = found[r].as_mut().expect("paired findings exist");
        merge_detail(row, detail);
    }
}

/// A row and the section that details it, made one finding: the more severe level, the more
/// precise place, the detail's title and the longer body.
fn merge_detail(row: &mut Finding, detail: Finding) {
    // Two levels for one problem: the more severe reading wins.
    if detail.severity != Severity::Unclassified
        && (row.severity == Severity::Unclassified || detail.severity < row.severity)
    {
        row.severity = detail.severity;
    }
    // A full path names the file a bare file name abbreviates.
    let longer = |a: &Option<crate::findings::Location>, b: &Option<crate::findings::Location>| {
        matches!((a, b), (Some(a), Some(b))
            if !b.path.contains('/') && a.path.ends_with(&format!("/{}", b.path)))
    };
    if longer(&detail.location, &row.location) {
        row.location.clone_from(&detail.location);
    }
    let lined =
        |l: &Option<crate::findings::Location>| l.as_ref().is_some_and(|l| l.start_line.is_some());
    if detail.location.is_some()
        && (row.location.is_none() || (lined(&detail.location) && !lined(&row.location)))
    {
        row.location = detail.location;
    }
    if !detail.title.is_empty() {
        row.title = detail.title;
    }
    if detail.body.len() > row.body.len() {
        row.body = detail.body;
    }
    if row.action.is_none() {
        row.action = detail.action;
    }
}

/// A list of titles without a place (Amazon Q's "Issues Found", with or without a level each)
/// followed by exactly as many placed findings (its inline comments) whose levels agree in
/// order: each title is the finding detailed after it, so they are one finding each, with the
/// detail's place and level.
pub(super) fn pair_list_with_details(units: &[Unit], found: &mut [Option<Finding>]) {
    // (A title may name the file but not the line: Amazon Q's "in `list_items.py`".)
    let bare = |i: usize| {
        found[i]
            .as_ref()
            .is_some_and(|f| f.location.as_ref().is_none_or(|l| l.start_line.is_none()))
    };
    let Some(list) = units
        .iter()
        .enumerate()
        .find(|(i, u)| u.kind == UnitKind::Item && u.list.is_some() && bare(*i))
        .and_then(|(_, u)| u.list)
    else {
        return;
    };
    let items: Vec<usize> = (0..units.len())
        .filter(|i| units[*i].list == Some(list) && found[*i].is_some())
        .collect();
    let Some(&last) = items.last() else {
        return;
    };
    if items.len() < 2 || !items.iter().all(|i| bare(*i)) {
        return;
    }
    let placed = |i: usize| found[i].as_ref().is_some_and(|f| f.location.is_some());
    let after: Vec<usize> = (last + 1..units.len())
        .filter(|i| found[*i].is_some())
        .collect();
    let level = |i: usize| found[i].as_ref().map(|f| f.severity);
    let path = |i: usize| {
        found[i]
            .as_ref()
            .and_then(|f| f.location.as_ref())
            .map(|l| l.path.clone())
    };
    let agree = |(item, detail): (&usize, &usize)| {
        (level(*item) == Some(Severity::Unclassified) || level(*item) == level(*detail))
            && (path(*item).is_none() || path(*item) == path(*detail))
    };
    if after.len() != items.len()
        || !after.iter().all(|i| placed(*i))
        || !items.iter().zip(&after).all(agree)
    {
        return;
    }
    for (&item, &detail) in items.iter().zip(&after) {
        let title = found[item].take().expect("paired findings exist").title;
        let d = found[detail].as_mut().expect("paired findings exist");
        if !title.is_empty() {
            d.title = title;
        }
    }
}

/// A summary's rated bullet without a place (Greptile's "**Critical issue**: the trim uses the
/// wrong bound…") over the one placed finding at that level that details it: the same finding,
/// told twice. Paired when they share two words of substance.
pub(super) fn pair_summary_with_details(units: &[Unit], found: &mut [Option<Finding>]) {
    let placed = |f: &Finding| f.location.as_ref().is_some_and(|l| !l.path.is_empty());
    // Each finding's words, read once: a long answer has many bullets to compare.
    let words: Vec<Vec<String>> = found
        .iter()
        .map(|f| {
            f.as_ref().map_or_else(Vec::new, |f| {
                let mut w = vocab::content_words(&f.title, 3);
                w.extend(vocab::content_words(&f.body, 3));
                w
            })
        })
        .collect();
    for s in 0..units.len() {
        let Some(summary) = found[s].as_ref() else {
            continue;
        };
        if !units[s].quiet || placed(summary) || summary.severity == Severity::Unclassified {
            continue;
        }
        let severity = summary.severity;
        let details = (0..units.len())
            .filter(|&d| d != s && !units[d].quiet)
            .filter(|&d| {
                found[d].as_ref().is_some_and(|f| {
                    placed(f)
                        && f.severity == severity
                        && words[s].iter().filter(|p| words[d].contains(p)).count() >= 2
                })
            })
            .count();
        if details == 1 {
            found[s] = None;
        }
    }
}

/// A summary's point that sends the reader to a comment below it ("… builds a template from
/// request data; see the security comment below before this ships", "details in comment 2",
/// Sourcery's "… outside the export directory. ([link](#comment-1))"):
/// that comment's summary, not a finding of its own, when a finding follows it.
pub(super) fn pair_pointer_with_details(units: &[Unit], found: &mut [Option<Finding>]) {
    static POINTER: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let pointer = crate::answer::re(
        &POINTER,
        r"(?i)\bsee (?:the |my )?(?:[\w-]+ )?(?:comment|finding|note|issue|suggestion)s? (?:below|#?\d+)\b|\b(?:details|more) (?:are )?(?:below|in (?:the )?comment #?\d+)\b|\]\(#(?:comment|issue|finding)-?\d+\)",
    );
    for p in 0..units.len() {
        if found[p].is_none() || found[p].as_ref().is_some_and(|f| f.location.is_some()) {
            continue;
        }
        let said = std::iter::once(&units[p].lead).chain(&units[p].lines);
        if !said.into_iter().any(|l| pointer.is_match(l)) {
            continue;
        }
        // (Only when a comment below is at least as severe: a level the pointer states is not
        // lost. An unrated pointer takes the level of what it points at.)
        let level = found[p]
            .as_ref()
            .filter(|f| f.severity != Severity::Unclassified)
            .map_or(u8::MAX, |f| f.severity.rank());
        if found[p + 1..]
            .iter()
            .flatten()
            .any(|f| f.location.is_some() && f.severity.rank() <= level)
        {
            found[p] = None;
        }
    }
}

/// A paragraph that counts the comments to come ("I have two suggestions: one medium-priority
/// concern about a stale read …, and a low-priority naming nit.") previews them: not a finding
/// of its own when at least that many placed findings follow it. (Fewer, and it stays: what it
/// names may be all the reviewer said.)
pub(super) fn pair_preview_with_details(units: &[Unit], found: &mut [Option<Finding>]) {
    static PREVIEW: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let preview = crate::answer::re(
        &PREVIEW,
        r"(?i)\b(?:i have|i've got|i found|i see|there are|here are|i left|i'd raise|just)\s+(two|three|four|five|six|2|3|4|5|6) (?:\w+ )?(?:suggestions|comments|issues|concerns|findings|points|things|nits|notes|remarks)\s*:",
    );
    let count = |w: &str| match w.to_ascii_lowercase().as_str() {
        "two" | "2" => 2,
        "three" | "3" => 3,
        "four" | "4" => 4,
        "five" | "5" => 5,
        _ => 6,
    };
    for p in 0..units.len() {
        let Some(f) = found[p].as_ref() else {
            continue;
        };
        if units[p].kind != UnitKind::Paragraph || f.location.is_some() {
            continue;
        }
        let Some(n) = preview.captures(&units[p].lead).map(|c| count(&c[1])) else {
            continue;
        };
        let placed_after = found[p + 1..]
            .iter()
            .flatten()
            .filter(|f| f.location.is_some())
            .count();
        if placed_after >= n {
            found[p] = None;
        }
    }
}
