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
    let level = |i: usize| found[i].as_ref().map(|f| f.severity);
    let file = |i: usize| {
        found[i]
            .as_ref()
            .and_then(|f| f.location.as_ref())
            .map(|l| l.path.clone())
            .filter(|p| !p.is_empty())
    };
    let fits = |start: usize| {
        rows.iter().enumerate().all(|(k, &r)| {
            let d = after[start + k];
            level(r) == level(d)
                && level(r) != Some(Severity::Unclassified)
                && (file(r).is_none() || file(d).is_none() || file(r) == file(d))
        })
    };
    let Some(start) = (0..(after.len() + 1).saturating_sub(rows.len())).find(|s| fits(*s)) else {
        return;
    };
    for (k, &r) in rows.iter().enumerate() {
        let d = after[start + k];
        let detail = found[d].take().expect("paired findings exist");
        let row = found[r].as_mut().expect("paired findings exist");
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
