//! Where a unit points and, when nothing else says, how much it matters by pr-agent's score:
//! the two readings of a unit that look beyond its lead.

use super::*;

use crate::pattern::Pattern;

/// pr-agent's `[possible issue, importance: 9]` / `Suggestion importance[1-10]: 7` (localized:
/// `建议重要性[1-10]: 4`): its score as the Impact pr-agent shows for it ([`vocab::IMPORTANCE_LEVELS`]).
pub(super) fn importance(text: &str) -> Option<Severity> {
    static SCORE: OnceLock<Pattern> = OnceLock::new();
    let c = re(
        &SCORE,
        r"(?i)(?:\bimportance|建议重要性|建議重要性|重要性|重要度|중요도)(?:\s*\[1-10\])?\s*[:：]\s*(\d{1,2})\b",
    )
    .captures(text)?;
    let n: u32 = c[1].parse().ok().filter(|n| (1..=10).contains(n))?;
    vocab::IMPORTANCE_LEVELS
        .iter()
        .find(|(min, _)| n >= *min)
        .map(|(_, s)| *s)
}

/// Where a unit points: a place with a line in its lead, then its own range under a file's
/// heading (`` `36-41`: ``), then the place it is filed under (with a line), then a file its
/// lead merely names, then its fields, then a code citation, hidden data and its body, then the
/// file alone. A location with a line but no file (`#diff-…R61`) takes the file from the next
/// source that has one.
pub(super) fn locate(
    u: &Unit,
    roots: &Roots,
    file: Option<&str>,
    line: Option<(u32, Option<u32>)>,
    body: &[String],
) -> Option<Location> {
    let section_with_line = u.section_path.clone().filter(|p| p.start_line.is_some());
    let range = match (location::leading_range(&u.lead), &u.section_path) {
        (Some((s, e)), Some(p)) => Some(Location {
            start_line: Some(s),
            end_line: e,
            ..p.clone()
        }),
        _ => None,
    };
    let mut candidates: Vec<Location> = Vec::new();
    // A place with a line in the lead wins; a file the title merely mentions comes after the
    // place the comment was filed under.
    let (lead_lined, lead_bare): (Vec<Location>, Vec<Location>) =
        location::find_all(&without_comparisons(&u.lead), roots)
            .into_iter()
            .partition(|l| l.start_line.is_some());
    candidates.extend(lead_lined);
    candidates.extend(range);
    candidates.extend(section_with_line);
    // The file a comment is filed under (the nearest place header before it) beats a file its
    // words merely mention ("also asserted in `csv.test.ts`").
    candidates.extend(
        u.section_path
            .clone()
            .filter(|p| !p.path.is_empty() && !p.path.ends_with('/')),
    );
    candidates.extend(lead_bare);
    candidates.extend(file.map(|f| {
        let mut l = Location::new(f, None, None);
        if let Some((s, e)) = line {
            l.start_line = Some(s);
            l.end_line = e.filter(|e| *e >= s);
        }
        l
    }));
    // A code citation's header (```42:47:src/a.ts) says exactly where.
    candidates.extend(
        u.code
            .iter()
            .filter_map(|(info, _)| location::citation(info, roots)),
    );
    candidates.extend(u.hidden.iter().flat_map(|h| location::find_all(h, roots)));
    candidates.extend(body.iter().flat_map(|b| location::find_all(b, roots)));
    candidates.extend(u.section_path.clone());
    let mut loc = candidates.first().cloned()?;
    if loc.path.is_empty() {
        if let Some(named) = candidates.iter().find(|c| !c.path.is_empty()) {
            loc.path.clone_from(&named.path);
            loc.outside = named.outside;
        }
    }
    // The file it is filed under, cited with its line further on (`(`a/schema.py:19`)`).
    if loc.start_line.is_none() {
        let said = std::iter::once(&u.lead).chain(body).chain(&u.hidden);
        if let Some(cited) = said
            .flat_map(|t| location::find_all(t, roots))
            .find(|c| c.path == loc.path && c.start_line.is_some())
        {
            loc.start_line = cited.start_line;
            loc.end_line = cited.end_line;
        }
    }
    if loc.start_line.is_none() {
        let found = line
            .or_else(|| location::lines_in(&u.lead))
            .or_else(|| body.iter().find_map(|b| location::lines_in(b)));
        if let Some((s, e)) = found {
            loc.start_line = Some(s);
            loc.end_line = e.filter(|e| *e >= s);
        }
    }
    Some(loc)
}

/// The lead without the files it names only to compare with ("could use `cursor.Encode`,
/// matching `search.go`", "the same as in `api/users.go`"): such a file is where the right way
/// is, not where the finding is. (When the lead names no other, the answer's own file, or none,
/// is the place.)
fn without_comparisons(lead: &str) -> std::borrow::Cow<'_, str> {
    static COMPARED: std::sync::OnceLock<Pattern> = std::sync::OnceLock::new();
    re(
        &COMPARED,
        r"(?i)\b(?:matching|same as(?: in)?|similar to|consistent with|mirroring|as (?:done |it is done |we do )?in)\s+(?:the (?:one|code|helper|pattern|way) in\s+)?`?[\w./-]+\.\w+(?::\d+)?`?",
    )
    .replace_all(lead, "")
}
