//! Locations as reviewers write them: `path:10`, `path:10-20`, `path:L10`, `path (10-20)`,
//! `path (line 10)`, `path, line 10`, `path#L10-L20`, blob links, absolute and Windows paths, a
//! `File:` field with a separate `Line:` field, or a path in one place and "line 10" in another.
//!
//! Paths become repository-relative with `/` separators when they are under the work tree; an
//! absolute path elsewhere is kept as written and marked outside (it is never a code-host
//! position). Whether the file and line exist is checked later, against the reviewed change.

use std::sync::OnceLock;

mod place;

pub use place::*;

use crate::answer::vocab::{BARE_FILE_NAMES, CODE_EXTENSIONS, LINE_WORDS};
use crate::pattern::Pattern;

use crate::findings::Location;

/// Where the repository's work tree is, to turn absolute paths into repository paths.
#[derive(Debug, Clone, Default)]
pub struct Roots {
    /// Work-tree roots with `/` separators and a trailing `/` (`/home/dev/project/`).
    pub roots: Vec<String>,
}

impl Roots {
    pub fn new(worktree: Option<&std::path::Path>) -> Roots {
        let mut roots = Vec::new();
        if let Some(w) = worktree {
            let s = w.to_string_lossy().replace('\\', "/");
            roots.push(format!("{}/", s.trim_end_matches('/')));
            if let Ok(c) = w.canonicalize() {
                let c = c.to_string_lossy().replace('\\', "/");
                let c = format!("{}/", c.trim_end_matches('/'));
                if !roots.contains(&c) {
                    roots.push(c);
                }
            }
        }
        Roots { roots }
    }

    /// A path as written → (repository path, outside the work tree).
    pub fn relative(&self, raw: &str) -> (String, bool) {
        let p = raw
            .trim()
            .trim_matches(|c| matches!(c, '`' | '"' | '\'' | '*' | '<' | '>'))
            .replace('\\', "/");
        let p = p.strip_prefix("file://").unwrap_or(&p);
        let p = p.strip_prefix("./").unwrap_or(p).to_string();
        let absolute = p.starts_with('/') || p.starts_with("~/") || is_drive(&p);
        if !absolute {
            return (p, false);
        }
        for r in &self.roots {
            let matched = if is_drive(r) || is_drive(&p) {
                p.to_ascii_lowercase()
                    .strip_prefix(&r.to_ascii_lowercase())
                    .map(|_| &p[r.len()..])
            } else {
                p.strip_prefix(r.as_str())
            };
            if let Some(rest) = matched {
                return (rest.to_string(), false);
            }
        }
        (p, true)
    }
}

fn is_drive(p: &str) -> bool {
    let b = p.as_bytes();
    b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'/'
}

use crate::answer::{re, re_built};

/// A path-like token: optional drive or root, segments, and a file name.
// (A folder may be a route group or a dynamic segment, `app/(auth)/login/page.tsx`,
// `pages/[id]/edit.tsx`: one class for both brackets, so the pattern costs no more to compile.)
const PATH: &str = r"(?:[A-Za-z]:[\\/]|~/|\.{1,2}/|/)?(?:(?:[\w.@+~-]+|[(\[][\w.@+~-]+[)\]])[\\/])*\.?[\w@+~-][\w.@+~-]*";

/// Is `p` (as matched) a file path rather than a word, a version or a method call?
fn plausible_path(p: &str, backticked: bool, with_line: bool) -> bool {
    let p = p.trim_end_matches(['.', ',']);
    if p.is_empty() || p.contains("://") {
        return false;
    }
    let name = p.rsplit(['/', '\\']).next().unwrap_or(p);
    if BARE_FILE_NAMES.contains(&name) {
        return true;
    }
    // A dotfile (`.gitlab-ci.yml`, `.eslintrc.json`) is read by the name after its dot; a dot
    // and an extension alone (`.yml`) is a kind of file, not one, and so is a suffix that
    // names a kind (`.down.sql`, `.test.ts`, `.d.ts`, `.min.js`).
    const KINDS: &[&str] = &[
        "down",
        "up",
        "test",
        "tests",
        "spec",
        "d",
        "min",
        "module",
        "stories",
        "story",
        "config",
        "conf",
        "local",
        "prod",
        "dev",
        "generated",
        "gen",
        "pb",
        "mock",
        "snap",
        "e2e",
        "bundle",
        "chunk",
        "example",
        "sample",
    ];
    let name = match name.strip_prefix('.') {
        Some(inner) if inner.contains('.') => {
            let first = inner.split('.').next().unwrap_or("");
            if KINDS.contains(&first.to_ascii_lowercase().as_str()) {
                return false;
            }
            inner
        }
        Some(_) => return false,
        None => name,
    };
    let has_dir = p.contains('/') || p.contains('\\');
    let Some((stem, ext)) = name.rsplit_once('.') else {
        return false;
    };
    if ext.is_empty() || !ext.chars().next().is_some_and(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    let known = CODE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str());
    if stem.is_empty() && !known {
        return false;
    }
    // `a.b.c` without a directory is a method chain or a domain unless the extension is known.
    known || (has_dir && (backticked || with_line) && ext.len() <= 10)
}

/// Every location in `text`, in order of appearance (the first one in a finding's lead line is
/// usually where it points).
pub fn find_all(text: &str, roots: &Roots) -> Vec<Location> {
    static LINKED: OnceLock<Pattern> = OnceLock::new();
    static WITH_LINE: OnceLock<Pattern> = OnceLock::new();
    static BARE: OnceLock<Pattern> = OnceLock::new();
    // Blob links: GitHub `/blob/<ref>/path#L10-L20`, GitLab `/-/blob/<ref>/path#L10-20`.
    let linked = re(
        &LINKED,
        r"https?://[^\s)\]>]+?/(?:-/)?blob/[^/\s]+/([^\s#)\]>?]+)(?:\?[^\s#)\]>]*)?(?:#L(\d+)(?:C\d+)?(?:-L?(\d+))?)?",
    );
    let with_line = re_built(&WITH_LINE, || {
        format!(
            r"(?x)
            (`?)(?P<path>{PATH})`?
            (?:
                \#L(?P<a1>\d+)(?:C\d+)?(?:-L?(?P<a2>\d+))?                # path#L10-L20
              | :L?(?P<b1>\d+)(?::\d+)?(?:\s*[-–—]\s*L?(?P<b2>\d+))?       # path:10-20, path:L10
              | \((?P<c1>\d+)(?:,\d+)?(?:\s*[-–—]\s*(?P<c2>\d+))?\)       # path(10) (MSVC)
              | \s*\(\s*(?:(?i:{LINE_WORDS})\s+|L)?(?P<d1>\d+)(?:\s*[-–—~〜～]\s*L?(?P<d2>\d+))?\s*(?:行目|行|번째\s*줄|줄|행)?\s*\)   # path (10-20), path (line 10), path (27行目)
              | -(?P<j1>\d+)-(?P<j2>\d+)\b                      # path-122-125 (CodeRabbit)
              | ,?\s+(?:at\s+|on\s+|around\s+|near\s+|en\s+(?:la\s+|las\s+)?)?(?:(?i:{LINE_WORDS})|ln|L)\s*(?P<e1>\d+)(?:\s*(?:[-–—]|to|through|a)\s*L?(?P<e2>\d+))?  # path, line 10; path, línea 10
              | \s*第\s*(?P<g1>\d+)\s*(?:[-–~〜～]\s*(?:第\s*)?(?P<g2>\d+)\s*)?行       # path 第 64 行
              | \s+(?P<h1>\d+)\s*(?:[-–~〜～]\s*(?P<h2>\d+)\s*)?行目?                   # path 31〜40行目
              | \s+(?P<i1>\d+)\s*(?:[-–~〜～]\s*(?P<i2>\d+)\s*)?(?:번째\s*)?(?:줄|행|라인)  # path 57번째 줄
              | \s*\[(?:R|(?i:ln|line)\s*)?(?P<f1>\d+)(?:\s*[-–]\s*R?(?P<f2>\d+))?\]  # path [30-36] (pr-agent), path[R41-48] (Qodo), path [Ln 58] (Amazon Q)
            )"
        )
    });
    let bare = re_built(&BARE, || format!(r"(`?)({PATH})(`?)"));

    let mut urls = Spans::default();
    for (a, b) in url_spans(text) {
        urls.insert(a, b);
    }
    let in_url = |at: usize| urls.overlaps(at, at + 1) || text[..at].ends_with('@');
    let mut found: Vec<(usize, Location)> = Vec::new();
    let mut covered = Spans::default();
    for c in linked.captures_iter(text) {
        let m = c.get(0).expect("match");
        let path = percent_decode(&c[1]);
        let start = c.get(2).and_then(|x| x.as_str().parse().ok());
        let end = c.get(3).and_then(|x| x.as_str().parse().ok());
        found.push((m.start(), Location::new(&path, start, end)));
        covered.insert(m.start(), m.end());
    }
    let overlaps = |covered: &Spans, s: usize, e: usize| covered.overlaps(s, e);
    sourcery_tags(text, roots, &mut found, &mut covered);
    for c in with_line.captures_iter(text) {
        let m = c.get(0).expect("match");
        if overlaps(&covered, m.start(), m.end()) {
            continue;
        }
        let path = c.name("path").expect("path").as_str();
        // CodeRabbit names a file as `@path`: the mention sign is not part of it.
        let path = path.trim_end_matches(['.', ',']).trim_start_matches('@');
        if !plausible_path(path, !c[1].is_empty(), true) || in_url(m.start()) {
            continue;
        }
        let num = |a: &str| c.name(a).and_then(|x| x.as_str().parse::<u32>().ok());
        let (start, end) = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]
            .iter()
            .find_map(|k| num(&format!("{k}1")).map(|s| (Some(s), num(&format!("{k}2")))))
            .unwrap_or((None, None));
        let (rel, outside) = roots.relative(path);
        let mut loc = Location::new(&rel, start, end);
        loc.outside = outside;
        found.push((m.start(), loc));
        covered.insert(m.start(), m.end());
    }
    for c in bare.captures_iter(text) {
        let m = c.get(2).expect("path");
        let path = m
            .as_str()
            .trim_end_matches(['.', ','])
            .trim_start_matches('@');
        let ticked = !c[1].is_empty() && !c[3].is_empty();
        if !plausible_path(path, ticked, false)
            || overlaps(&covered, m.start(), m.end())
            || in_url(m.start())
        {
            continue;
        }
        // Without a directory or backticks a known extension is still not enough in prose:
        // "Node.js" and "ASP.NET" are names. Paths in prose have a slash or backticks.
        if !ticked && !path.contains('/') && !path.contains('\\') {
            continue;
        }
        let (rel, outside) = roots.relative(path);
        let mut loc = Location::new(&rel, None, None);
        loc.outside = outside;
        found.push((m.start(), loc));
        covered.insert(m.start(), m.end());
    }
    // A PR-files link names the file only by its hash (`#diff-<sha256>R61-R78`): the line is
    // all it gives; the path may come from elsewhere in the finding.
    static DIFF: OnceLock<Pattern> = OnceLock::new();
    for c in re(&DIFF, r"#diff-[0-9a-f]{16,64}R(\d+)(?:-R(\d+))?").captures_iter(text) {
        let m = c.get(0).expect("match");
        if !overlaps(&covered, m.start(), m.end()) {
            let start = c[1].parse().ok();
            let end = c.get(2).and_then(|x| x.as_str().parse().ok());
            found.push((m.start(), Location::new("", start, end)));
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, l)| l).collect()
}

/// Sourcery's `<location path="api/jobs.py" line_range="88-97" />`.
fn sourcery_tags(
    text: &str,
    roots: &Roots,
    found: &mut Vec<(usize, Location)>,
    covered: &mut Spans,
) {
    static TAG: OnceLock<Pattern> = OnceLock::new();
    for c in re(
        &TAG,
        r#"<location\s+path="([^"]+)"(?:\s+line_range="(\d+)(?:-(\d+))?")?"#,
    )
    .captures_iter(text)
    {
        let m = c.get(0).expect("match");
        if !covered.overlaps(m.start(), m.end()) {
            let (rel, outside) = roots.relative(&c[1]);
            let mut l = Location::new(
                &rel,
                c.get(2).and_then(|x| x.as_str().parse().ok()),
                c.get(3).and_then(|x| x.as_str().parse().ok()),
            );
            l.outside = outside;
            found.push((m.start(), l));
            covered.insert(m.start(), m.end());
        }
    }
}

/// Disjoint byte spans, asked whether a span overlaps any of them in logarithmic time (an
/// answer may hold hundreds of thousands of places: a scan per place would be quadratic).
#[derive(Default)]
struct Spans(std::collections::BTreeMap<usize, usize>);

impl Spans {
    fn insert(&mut self, start: usize, end: usize) {
        self.0.insert(start, end);
    }

    /// Of disjoint spans, the one that starts last before `end` ends last: only it can reach
    /// into `start..end`.
    fn overlaps(&self, start: usize, end: usize) -> bool {
        let nearest = self.0.range(..end).next_back();
        #[cfg(test)]
        SPANS_EXAMINED.with(|n| n.set(n.get() + usize::from(nearest.is_some())));
        nearest.is_some_and(|(_, &e)| e > start)
    }
}

#[cfg(test)]
thread_local! {
    /// How many spans the overlap checks looked at: the work that was quadratic in the number
    /// of places when each check scanned every span found before.
    static SPANS_EXAMINED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Where `text` has URLs (a link target is not a file of this repository), found once;
/// `file://` ones are local paths.
fn url_spans(text: &str) -> Vec<(usize, usize)> {
    static URL: OnceLock<Pattern> = OnceLock::new();
    re(&URL, r#"[^\s(<"'\[\])>]*://[^\s(<"'\[\])>]*"#)
        .find_iter(text)
        .filter(|m| !m.as_str().starts_with("file://"))
        .map(|m| (m.start(), m.end()))
        .collect()
}

/// A line number written apart from the path: "line 10", "lines 10-20", "L10-L20", "Line: 42".
pub fn lines_in(text: &str) -> Option<(u32, Option<u32>)> {
    static LINE: OnceLock<Pattern> = OnceLock::new();
    let c = re_built(
        &LINE,
        || format!(
            r"(?i)(?:\b(?:{LINE_WORDS})\b\s*:?\s*|\bL|第\s*)\+?(\d+)(?:\s*(?:[-–—~〜～]|to|through)\s*[L+]?(\d+))?(?-u:\b)"
        ),
    )
    .captures(text)
    .or_else(|| {
        // Japanese, Chinese and Korean put the line word after the number ("23 行目",
        // "57번째 줄", "31〜40行目"), and Turkish after an ordinal ("66. satırda").
        static AFTER: OnceLock<Pattern> = OnceLock::new();
        re(
            &AFTER,
            r"(?:^|[^\d.:/])(\d{1,6})\s*(?:[-–~〜～]\s*(\d{1,6})\s*)?(?:行目|行|번째\s*줄|줄|행|\.\s*satır)",
        )
        .captures(text)
    })?;
    let start = c[1].parse().ok()?;
    Some((start, c.get(2).and_then(|m| m.as_str().parse().ok())))
}

/// A range written alone: `` `36-41`: `` (CodeRabbit) or `` `12`: ``.
pub fn leading_range(text: &str) -> Option<(u32, Option<u32>)> {
    static RANGE: OnceLock<Pattern> = OnceLock::new();
    // `` `36-41`: `` (CodeRabbit) or `[14-16]:` after a marker (`🛑 [14-16]: …`).
    let c = re(
        &RANGE,
        r"^(?:[^\w`\[]{0,12}|\s*\[[^\]\d]{1,20}\]\s*)(?:\*\*)?(?:`(\d+)(?:\s*[-–]\s*(\d+))?`|\[(\d+)(?:\s*[-–]\s*(\d+))?\])(?:\*\*)?\s*:",
    )
    .captures(text);
    let Some(c) = c else {
        // The same range with its backticks lost (a review's plain-text e-mail copy):
        // `64-70: …` at the start of the line, both ends given.
        static BARE: OnceLock<Pattern> = OnceLock::new();
        let c = re(&BARE, r"^\s*(\d+)[-–](\d+):\s").captures(text)?;
        return Some((c[1].parse().ok()?, c[2].parse().ok()));
    };
    let (a, b) = if c.get(1).is_some() { (1, 2) } else { (3, 4) };
    Some((
        c[a].parse().ok()?,
        c.get(b).and_then(|m| m.as_str().parse().ok()),
    ))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |j: usize| bytes.get(j).and_then(|b| (*b as char).to_digit(16));
        if bytes[i] == b'%' {
            if let (Some(h), Some(l)) = (hex(i + 1), hex(i + 2)) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_words_of_other_languages() {
        let roots = Roots::default();
        let Some(Place::File(l)) = place_line("**pagos/cliente.py** (línea 64)", &roots) else {
            panic!("not a place line");
        };
        assert_eq!(l.start_line, Some(64));
        for (text, line) in [
            ("`src/conta.rs`, linha 12", 12),
            ("src/kasse.rs (Zeile 3)", 3),
            ("`src/panier.py`, ligne 57", 57),
        ] {
            let l = find_all(text, &roots).into_iter().next().unwrap();
            assert_eq!(l.start_line, Some(line), "{text}");
        }
    }

    fn one(text: &str) -> Option<String> {
        let roots = Roots {
            roots: vec!["/home/dev/project/".into(), "C:/Users/dev/project/".into()],
        };
        find_all(text, &roots).into_iter().next().map(|l| {
            format!(
                "{}{}",
                l.display(),
                if l.outside { " (outside)" } else { "" }
            )
        })
    }

    #[test]
    fn dotfiles_are_files_and_an_extension_alone_is_not() {
        assert_eq!(
            one("the `.gitlab-ci.yml` change").as_deref(),
            Some(".gitlab-ci.yml")
        );
        assert_eq!(
            one("`.eslintrc.json` line 4").as_deref(),
            Some(".eslintrc.json:4")
        );
        assert_eq!(one("in `.env`, line 3").as_deref(), Some(".env:3"));
        assert_eq!(
            one("`deploy/.env.example`").as_deref(),
            Some("deploy/.env.example")
        );
        assert_eq!(one("every `.yml` file"), None);
        assert_eq!(one("no matching `.down.sql` file"), None);
        assert_eq!(one("the `.test.ts` files"), None);
        assert_eq!(one("a `.local` domain"), None);
    }

    #[test]
    fn finding_places_is_linear_in_their_number() {
        let work = |n: usize| {
            let text: String = (0..n)
                .map(|i| {
                    format!(
                        "see src/mod_{}/f.rs:{} and https://x.io/{i} then ",
                        i % 7,
                        i
                    )
                })
                .collect();
            SPANS_EXAMINED.with(|c| c.set(0));
            assert_eq!(find_all(&text, &Roots::default()).len(), n);
            SPANS_EXAMINED.with(|c| c.get())
        };
        let (small, large) = (work(2000), work(4000));
        // Twice the places, about twice the work (a scan per place would be four times).
        assert!(large <= small * 2 + 100, "{small} -> {large}");
    }

    #[test]
    fn forms() {
        for (text, want) in [
            ("see src/a.rs:10", "src/a.rs:10"),
            ("in `src/a.rs:10-20`", "src/a.rs:10-20"),
            ("src/a.rs:L10-L12 panics", "src/a.rs:10-12"),
            ("src/a.rs (10-20) is wrong", "src/a.rs:10-20"),
            ("src/a.rs (line 7)", "src/a.rs:7"),
            ("in src/a.rs, line 7", "src/a.rs:7"),
            ("src/a.rs#L3-L9", "src/a.rs:3-9"),
            ("main.c(40,3): warning", "main.c:40"),
            (
                "[x](https://github.com/acme/w/blob/0a1b2c3/src/lib.rs#L10-L20)",
                "src/lib.rs:10-20",
            ),
            ("/home/dev/project/src/x.py:5", "src/x.py:5"),
            (r"C:\Users\dev\project\src\main.rs:12", "src/main.rs:12"),
            (
                "/usr/include/stdio.h:40",
                "/usr/include/stdio.h:40 (outside)",
            ),
            ("the file `config.rs`", "config.rs"),
            ("under src/net/", "src/net/"),
            ("in ./lib/util.ts line 4", "lib/util.ts:4"),
            (
                "`src/sync/cola.ts`, líneas 88-95: x",
                "src/sync/cola.ts:88-95",
            ),
            ("`server/admin.go` 第 64 行：x", "server/admin.go:64"),
            ("`app/w.rb` 31〜40行目", "app/w.rb:31-40"),
            ("**app/w.rb (27行目):**", "app/w.rb:27"),
            ("`src/refund.py` 57번째 줄 — x", "src/refund.py:57"),
            (
                "src/upload/handler.ts-122-125",
                "src/upload/handler.ts:122-125",
            ),
            ("In `@src/a.ts` around lines 7 - 8, x", "src/a.ts:7-8"),
            (
                "[web/src/api/client.ts [30-36]](https://x/pull/1/files)",
                "web/src/api/client.ts:30-36",
            ),
            ("file:///home/dev/project/cmd/main.go:52", "cmd/main.go:52"),
            (
                "`[src/sync/merge.ts[R41-48]](https://x/pull/1/files#diff-ab)`",
                "src/sync/merge.ts:41-48",
            ),
            (
                "<location path=\"api/jobs.py\" line_range=\"88-97\" />",
                "api/jobs.py:88-97",
            ),
            (
                "<a href='https://x/pull/2/files#diff-aa5eb45c1e5a7e1d260ad22fR61-R78'>",
                "line 61-78",
            ),
        ] {
            if want == "src/net/" {
                assert_eq!(one(text), None, "{text}");
                continue;
            }
            assert_eq!(one(text).as_deref(), Some(want), "{text}");
        }
        for prose in [
            "uses Node.js and ASP.NET",
            "call `self.cache.get` first",
            "version 2.0.0 and v1.2.3",
            "see https://example.com/docs/page.html",
            "e.g. this",
        ] {
            assert_eq!(one(prose), None, "{prose}");
        }
    }

    #[test]
    fn odd_text_never_panics_and_urls_are_not_paths() {
        let roots = Roots::default();
        // A non-breaking space before a path, a broken percent escape in a link.
        assert_eq!(
            one("Crash in\u{a0}`src/a.rs:10` panics"),
            Some("src/a.rs:10".into())
        );
        let link = "https://github.com/o/r/blob/main/%aé.rs#L1 and /blob/main/%zz.rs#L2";
        let _ = find_all(link, &roots);
        assert_eq!(
            one("https://github.com/o/r/blob/main/src/a%20b.rs#L3"),
            Some("src/a b.rs:3".into())
        );
        // A file name inside a URL is not a file here.
        assert_eq!(one("see https://example.com/docs/setup.md for more"), None);
        // A long line without spaces is read (once per candidate, not once per word).
        assert!(find_all(&"a;".repeat(20_000), &roots).is_empty());
    }

    #[test]
    fn separate_lines_and_ranges() {
        assert_eq!(lines_in("on line 42 the"), Some((42, None)));
        assert_eq!(lines_in("Lines: 10-12"), Some((10, Some(12))));
        assert_eq!(lines_in("L7-L9"), Some((7, Some(9))));
        assert_eq!(lines_in("timeline 4"), None);
        assert_eq!(
            lines_in("Comment on lines +112 to +118"),
            Some((112, Some(118)))
        );
        assert_eq!(leading_range("`36-41`: **Title**"), Some((36, Some(41))));
        let roots = Roots::default();
        assert_eq!(
            path_only("src/app/routes.ts (2)", &roots).map(|l| l.display()),
            Some("src/app/routes.ts".into())
        );
        assert_eq!(path_only("Nitpick comments (2)", &roots), None);
        for (line, want) in [
            (
                "**web/src/hooks/useCsvExport.ts:27**",
                Some("web/src/hooks/useCsvExport.ts:27"),
            ),
            (
                "**`src/parser/lexer.rs`** — line 212",
                Some("src/parser/lexer.rs:212"),
            ),
            (
                "https://github.com/a/b/blob/4f2a/internal/x.go#L88-L94",
                Some("internal/x.go:88-94"),
            ),
            ("tidepool/ingest/batch.py", Some("tidepool/ingest/batch.py")),
            ("`36-41`: **Title**", None),
            ("The fix in src/a.rs is wrong", None),
        ] {
            let got = place_line(line, &roots).map(|p| match p {
                Place::File(l) => l.display(),
                Place::Lines(s, _) => format!("line {s}"),
            });
            assert_eq!(got.as_deref(), want, "{line}");
        }
        assert_eq!(
            place_line("Comment on lines +112 to +118", &roots),
            Some(Place::Lines(112, Some(118)))
        );
        assert_eq!(place_line("Line 33", &roots), Some(Place::Lines(33, None)));
    }
}
