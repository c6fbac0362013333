//! A summary table and the sections that detail it (`| 2 | 🟠 High | bulk.py L64 | … |`, later
//! `### 2. Sniffing reads the whole file (High)`): one finding each, not two. The detail's
//! title often words the problem differently from its row, so they are paired by structure —
//! the rows' levels, in order, met again by as many findings after the table — rather than by
//! words.

use super::*;

/// Merges each detail into its row, when the findings after the table repeat the rows' levels
/// in order and no pair names two different files.
pub(super) fn pair_table_with_details(units: &[Unit], found: &mut [Option<Finding>]) {
    let rows: Vec<usize> = (0..units.len())
        .filter(|i| units[*i].kind == UnitKind::Row && found[*i].is_some())
        .collect();
    let Some(&last_row) = rows.last() else {
        return;
    };
    if rows.len() < 2 {
        return;
    }
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
        // Two levels for one problem: the more severe reading wins.
        if detail.severity != Severity::Unclassified
            && (row.severity == Severity::Unclassified || detail.severity < row.severity)
        {
            row.severity = detail.severity;
        }
        // A full path names the file a bare file name abbreviates.
        let longer = |a: &Option<crate::findings::Location>,
                      b: &Option<crate::findings::Location>| {
            matches!((a, b), (Some(a), Some(b))
                if !b.path.contains('/') && a.path.ends_with(&format!("/{}", b.path)))
        };
        if longer(&detail.location, &row.location) {
            row.location.clone_from(&detail.location);
        }
        let row_lined = row
            .location
            .as_ref()
            .is_some_and(|l| l.start_line.is_some());
        let detail_lined = detail
            .location
            .as_ref()
            .is_some_and(|l| l.start_line.is_some());
        if detail.location.is_some() && (row.location.is_none() || (detail_lined && !row_lined)) {
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
