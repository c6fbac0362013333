//! A finding's title: the bold span or the part before ` — `, a leading or trailing location
//! taken out, a long one cut at its first sentence; and lines that are counts rather than findings.

use super::*;

use crate::pattern::Pattern;

/// The bold span that opens a lead (after list markers and a task box), as the title, and the
/// text after it; `None` when the bold span is only a severity marker.
pub(super) fn bold_span_title(lead: &str) -> Option<(String, String)> {
    static BOLD: OnceLock<Pattern> = OnceLock::new();
    let c = re(
        &BOLD,
        r"^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)?(?:\[[ xX]\]\s+)?\*\*(.+?)\*\*(.*)$",
    )
    .captures(lead)?;
    let inner = markers::read_lead(&c[1]);
    if inner.title.is_empty() {
        return None;
    }
    let (title, _) = split_title(&inner.title, &Roots::default());
    Some((title, c[2].to_string()))
}

/// "General issues: 2 issues found", "Security: 1 blocking issue": a count, not a finding.
pub(super) fn counts_only(normal_title: &str) -> bool {
    static COUNT: OnceLock<Pattern> = OnceLock::new();
    re(
        &COUNT,
        r"^(?:[a-z]+ ){0,3}(?:\d+|no|zero) (?:blocking |new |open |major |minor )?(?:issues?|findings?|problems?|comments?)(?: found| raised| posted)?$",
    )
    .is_match(normal_title)
}

/// `**Counts:** 🔴 0 | 🟠 1 | 🟡 2`, `High: 1, Medium: 3`: a tally of levels, not a finding.
pub(super) fn tally(lead: &str) -> bool {
    let text = plain(lead);
    // (Or up to its last count: a paragraph's next line may follow it, "… · Info: 0 Code
    // Issues".)
    let counted = text
        .rfind(|c: char| c.is_ascii_digit())
        .map(|i| text[..=i].to_string());
    // (Its parts are a level and a count, a few words each: a sentence that ends in a number,
    // "…, which is deprecated in provider v5", is no tally.)
    let short = |c: &str| {
        c.split(['|', ',', '·', ';', '/'])
            .all(|p| p.split_whitespace().count() <= 4)
    };
    tallied(&text) || counted.is_some_and(|c| short(&c) && tallied(&c))
}

fn tallied(text: &str) -> bool {
    let text = match text.split_once(':') {
        Some((label, rest)) if label.split_whitespace().count() <= 3 && !rest.trim().is_empty() => {
            // `High: 1, Medium: 3` has no label: its first "label" is itself a level.
            if vocab::severity_of(label).is_some() {
                text
            } else {
                rest
            }
        }
        _ => text,
    };
    let parts: Vec<&str> = text
        .split(['|', ',', '·', ';', '/'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let words = |p: &str| -> String { p.chars().filter(|c| !c.is_ascii_digit()).collect() };
    // (A count of what has no level, `Suggestions: 0`, `Files: 3`, stands among the levels.)
    let counted = |p: &str| {
        let w = vocab::normalise(&words(p));
        vocab::severity_of(&words(p)).is_some() || vocab::TALLY_NOUNS.contains(&w.as_str())
    };
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| p.chars().any(|c| c.is_ascii_digit()) && counted(p))
        && parts
            .iter()
            .any(|p| vocab::severity_of(&words(p)).is_some())
}

pub(super) struct Extra {
    pub(super) body: String,
    pub(super) action: Option<String>,
}

/// `title — path:line — why — what to do` (the format our own prompt asks for): the title, and
/// the rest as body and action; a trailing location in parentheses is dropped from the title.
pub(super) fn split_title(title: &str, roots: &Roots) -> (String, Extra) {
    static TRAILING_LOC: OnceLock<Pattern> = OnceLock::new();
    static LEADING_LOC: OnceLock<Pattern> = OnceLock::new();
    let parts: Vec<&str> = title
        .split(" — ")
        .flat_map(|p| p.split(" -- "))
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let is_loc = |p: &str| {
        let ls = location::find_all(p, roots);
        ls.len() == 1 && plain(p).split_whitespace().count() <= 3
    };
    // `src/a.rs:61 — what is wrong`: the place first, the title after it.
    let skip = usize::from(parts.len() > 1 && is_loc(parts[0]));
    let mut title = parts.get(skip).map(|s| s.to_string()).unwrap_or_default();
    let rest: Vec<&str> = parts
        .iter()
        .skip(skip + 1)
        .filter(|p| !is_loc(p))
        .copied()
        .collect();
    let extra = match rest.as_slice() {
        [] => Extra {
            body: String::new(),
            action: None,
        },
        [body] => Extra {
            body: plain(body),
            action: None,
        },
        [body @ .., action] => Extra {
            body: body
                .iter()
                .map(|b| plain(b))
                .collect::<Vec<_>>()
                .join(" — "),
            action: Some(plain(action)),
        },
    };
    // `path:29: message` (a compiler-style lead): the place is the finding's location, the
    // message its title.
    if let Some(m) = re(&LEADING_LOC, r"^\s*(`?[^\s`]+`?)\s*:\s+(\S.*)$").captures(&title) {
        // A place (`src/a.rs:29`) or a range alone (`36-41`, CodeRabbit's lead).
        let range = m[1]
            .trim_matches('`')
            .split(['-', '–'])
            .all(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
        if (range || is_loc(&m[1])) && m[2].split_whitespace().count() >= 2 {
            title = m[2].to_string();
        }
    }
    if let Some(m) = re(
        &TRAILING_LOC,
        r"\s*(?:\(([^()]*)\)|\bin\s+(`[^`]+`))\s*[.:]?$",
    )
    .captures(&title)
    {
        let inner = m.get(1).or(m.get(2)).map_or("", |x| x.as_str());
        if is_loc(inner) && m.get(0).is_some_and(|x| x.start() > 0) {
            let at = m.get(0).expect("match").start();
            title.truncate(at);
        }
    }
    (plain(&title), extra)
}

/// A long title cut at its first sentence (or 120 characters), and the whole text for the body.
pub(super) fn shorten(title: &str) -> (String, String) {
    let cut = title
        .char_indices()
        .take(200)
        .find(|(i, c)| matches!(c, '.' | '!' | '?') && title[i + 1..].starts_with(' ') && *i > 20)
        .map(|(i, _)| title[..i].to_string())
        .unwrap_or_else(|| title.chars().take(120).collect::<String>() + "…");
    (cut, title.to_string())
}

#[cfg(test)]
mod tests {
    use super::tally;

    #[test]
    fn a_tally_is_counts_of_levels_even_with_a_line_after_it() {
        assert!(tally("Critical: 0 · High: 1 · Medium: 1 · Low: 1"));
        assert!(tally(
            "Critical: 0 · High: 1 · Medium: 1 · Low: 1 Code Issues"
        ));
        // A sentence that ends in a number is no tally.
        assert!(!tally(
            "The block on line 31 is a critical path, which breaks in provider v5"
        ));
    }
}
