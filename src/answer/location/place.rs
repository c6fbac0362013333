//! Strings that are only a place: a line that says where the next comment is, a `<summary>` or
//! heading that is a file, a JSON value, a code citation's `12:15:path`.

use super::*;

use crate::pattern::Pattern;

/// A compiler-style line: `src/net/conn.c:142:9: error: …`, `app/models/order.py:57: …` —
/// the place, and the level word after it if any.
pub fn compiler_line(text: &str, roots: &Roots) -> Option<(Location, Option<String>)> {
    static LINE: OnceLock<Pattern> = OnceLock::new();
    let c = re_built(
        &LINE,
        || format!(
            r"^\s*(?P<path>{PATH}):(?P<s>\d+)(?::\d+)?(?:-(?P<e>\d+))?:\s+(?:(?P<lvl>fatal error|error|warning|note|info|hint)\s*:)?"
        ),
    )
    .captures(text)?;
    let path = c.name("path").expect("path").as_str();
    if !plausible_path(path, true, true) {
        return None;
    }
    let (rel, outside) = roots.relative(path);
    let mut l = Location::new(
        &rel,
        c.name("s").and_then(|x| x.as_str().parse().ok()),
        c.name("e").and_then(|x| x.as_str().parse().ok()),
    );
    l.outside = outside;
    Some((l, c.name("lvl").map(|x| x.as_str().to_string())))
}

/// A code citation's fence info (Cursor): `42:47:src/hooks/useCart.ts`.
pub fn citation(info: &str, roots: &Roots) -> Option<Location> {
    static CITE: OnceLock<Pattern> = OnceLock::new();
    let c = re(&CITE, r"^(\d+):(\d+):(\S+)$").captures(info.trim())?;
    let (rel, outside) = roots.relative(&c[3]);
    let mut l = Location::new(&rel, c[1].parse().ok(), c[2].parse().ok());
    l.outside = outside;
    Some(l)
}

/// A line that is nothing but a place.
#[derive(Debug, Clone, PartialEq)]
pub enum Place {
    /// `src/a.rs`, `**src/a.rs:27**`, a permalink, `` **`src/a.rs`** — line 212 ``.
    File(Location),
    /// `Line 33`, `Lines 58-60`, `Comment on lines +112 to +118`: in the file named before.
    Lines(u32, Option<u32>),
}

/// Is `text` a line that only says where the next comment is? (Code hosts' copied pages, the
/// codex connector's permalink above its badge, Copilot's `**path:line**`, Greptile's.)
/// `lib.rs:2`, `lib.rs:2-4` → `lib.rs`: a place's path without its line.
fn without_line(t: &str) -> &str {
    match t.split_once(':') {
        Some((p, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit() || c == '-') => p,
        // CodeRabbit's `path-122-125`.
        _ => dashed_range(t).map_or(t, |(p, _, _)| p),
    }
}

/// `src/a.ts-122-125` (CodeRabbit's header for a comment): the path and the range.
pub(super) fn dashed_range(t: &str) -> Option<(&str, u32, u32)> {
    let (rest, end) = t.rsplit_once('-')?;
    let (path, start) = rest.rsplit_once('-')?;
    let (start, end) = (start.parse().ok()?, end.parse().ok()?);
    (path.contains('.') && !path.ends_with('.')).then_some((path, start, end))
}

pub fn place_line(text: &str, roots: &Roots) -> Option<Place> {
    const GLUE: &[&str] = &[
        "comment",
        "comments",
        "on",
        "at",
        "in",
        "line",
        "lines",
        "file",
        "to",
        "through",
        "of",
        "línea",
        "líneas",
        "linea",
        "lineas",
        "linha",
        "linhas",
        "ligne",
        "lignes",
        "zeile",
        "zeilen",
        "regel",
        "regels",
        "riga",
        "righe",
        "linia",
        "linie",
        "строка",
        "строки",
        "satır",
        "baris",
        "dòng",
        "see",
        "outside",
        "diff",
        "range",
        // "Here is my review of app/jobs/cleanup.py:" says where the list below it is.
        "here",
        "here's",
        "is",
        "my",
        "review",
        "notes",
        "feedback",
        "for",
        // A code host's copied conversation: "Thread 1: cli/prune.py:36 (unresolved)".
        "thread",
        "unresolved",
        // Japanese, Chinese and Korean line words, after the number ("23 行目", "57번째 줄").
        "行目",
        "번째",
        "줄",
        "행",
    ];
    // A folder or pin emoji before the path (`📁 src/a.ts`, `📍 src/a.ts:3`) is decoration.
    // (Emphasis goes, but not the underscores of a quoted `__init__.py`.)
    let plain = crate::answer::lead::without_emphasis(text).replace('`', "");
    let plain = plain
        .trim()
        .trim_start_matches(|c: char| {
            !c.is_alphanumeric() && !matches!(c, '/' | '.' | '~' | '[' | '<' | '_')
        })
        .trim_end_matches(':')
        .to_string();
    let words: Vec<&str> = plain.split_whitespace().collect();
    if words.is_empty() || words.len() > 8 {
        return None;
    }
    let residue = words.iter().any(|w| {
        let t = w.trim_matches(|c: char| {
            matches!(
                c,
                ',' | ':' | '(' | ')' | '[' | ']' | '.' | '—' | '–' | '-' | '·' | '•' | '|'
            )
        });
        let lower = t.to_ascii_lowercase();
        // (A number with its line word, `27行目`, `9행`.)
        let cjk_line = ["行目", "行", "줄", "행"].iter().any(|w| {
            t.strip_suffix(w).is_some_and(|n| {
                !n.is_empty()
                    && n.chars()
                        .all(|c| c.is_ascii_digit() || "-–~〜～".contains(c))
            })
        });
        !(t.is_empty()
            || cjk_line
            || GLUE.contains(&lower.as_str())
            || t.contains('/')
            || t.contains('\\')
            || t.contains('#')
            || t.trim_start_matches(['+', 'L', 'l'])
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '-' | '–' | ':' | ',' | 'L' | '+'))
            || plausible_path(without_line(t), true, false))
    });
    if residue {
        return None;
    }
    if let Some(mut l) = find_all(text, roots)
        .into_iter()
        .find(|l| !l.path.is_empty())
    {
        if l.start_line.is_none() {
            if let Some((s, e)) = lines_in(&plain) {
                l.start_line = Some(s);
                l.end_line = e.filter(|e| *e >= s);
            }
        }
        return Some(Place::File(l));
    }
    lines_in(&plain).map(|(s, e)| Place::Lines(s, e))
}

/// A string that is only a path (a JSON `file` value, a `<summary>`, a table cell), with
/// an optional line suffix. In a `<summary>` (CodeRabbit) `path (2)` counts comments; in a
/// heading (Gemini's fallback review) `path (14)` is a line: `counted` says which.
pub fn path_only(text: &str, roots: &Roots) -> Option<Location> {
    path_only_in(text, roots, true)
}

pub fn path_only_in(text: &str, roots: &Roots, counted: bool) -> Option<Location> {
    let t = text
        .trim()
        .trim_matches(|c| matches!(c, '`' | '*' | '_' | '"' | '\''))
        .trim();
    // "src/a.ts (2)": CodeRabbit's count of comments on the file.
    let t = if counted { strip_count(t) } else { t };
    static SUFFIXED: OnceLock<Pattern> = OnceLock::new();
    // `path`, `path:10-20`, `path (164-165)`, `path, lines 3-4`: nothing but a place.
    let only_place = !t.contains(char::is_whitespace)
        || re_built(
            &SUFFIXED,
            || format!(
                r"(?i)^\S+(?:\s*\((?:(?:{LINE_WORDS})\s*)?\d+(?:\s*[-–]\s*\d+)?\)|,?\s+(?:{LINE_WORDS})\s+\d+(?:\s*[-–]\s*\d+)?)$"
            ),
        )
        .is_match(t);
    if t.is_empty() || !only_place {
        return None;
    }
    find_all(&format!("`{t}`"), roots).into_iter().next()
}

pub(super) fn strip_count(t: &str) -> &str {
    static COUNT: OnceLock<Pattern> = OnceLock::new();
    match re(&COUNT, r"\s*\(\d+\)\s*$").find(t) {
        Some(m) => &t[..m.start()],
        None => t,
    }
}
