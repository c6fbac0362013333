//! The HTML reviewers mix into markdown, made into lines the block reader knows: tables as
//! records, multi-line `<summary>`s, `<br>`/`<li>`/`<hr>`, `<hN>` headings, entities and
//! GitHub shortcodes.

use super::*;

use crate::pattern::Pattern;

/// GitHub shortcodes (`:warning:`, `:hammer_and_wrench:`) as the emoji they stand for, or
/// gone: their underscores would otherwise read as emphasis.
pub(super) fn shortcodes(line: &str) -> std::borrow::Cow<'_, str> {
    const KNOWN: &[(&str, &str)] = &[
        ("warning", "⚠️"),
        ("hammer_and_wrench", "🛠️"),
        ("bulb", "💡"),
        ("broom", "🧹"),
        ("red_circle", "🔴"),
        ("orange_circle", "🟠"),
        ("yellow_circle", "🟡"),
        ("large_blue_circle", "🔵"),
        ("blue_circle", "🔵"),
        ("green_circle", "🟢"),
        ("white_circle", "⚪"),
    ];
    static CODE: OnceLock<Pattern> = OnceLock::new();
    let code = re(&CODE, r"(^|[\s_*(|]):([a-z0-9_+-]{2,40}):");
    if !line.contains(':') {
        return std::borrow::Cow::Borrowed(line);
    }
    code.replace_all(line, |c: &regex::Captures| {
        // (A table's centred column, `| :---: |`, is no shortcode.)
        if !c[2].chars().any(|ch| ch.is_ascii_alphabetic()) {
            return c[0].to_string();
        }
        let emoji = KNOWN
            .iter()
            .find(|(k, _)| *k == &c[2])
            .map_or("", |(_, e)| e);
        format!("{}{emoji}", &c[1])
    })
}

/// `&nbsp;` and friends, as text.
pub(super) fn entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    s.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&ndash;", "–")
        .replace("&mdash;", "—")
        .replace("&hellip;", "…")
        .replace("&amp;", "&")
}

/// A `<summary>` spread over several lines (pr-agent puts a link title and a paragraph in one)
/// becomes a one-line summary of its first line, followed by the rest as ordinary lines.
pub(super) fn join_summaries(text: &str) -> std::borrow::Cow<'_, str> {
    static SUMMARY: OnceLock<Pattern> = OnceLock::new();
    let summary = re(&SUMMARY, r"(?is)<summary\b[^>]*>(.*?)</summary>");
    static HEADING_TAG: OnceLock<Pattern> = OnceLock::new();
    let heading_tag = re(&HEADING_TAG, r"(?i)</?h[1-6]\b[^>]*>");
    summary.replace_all(text, |c: &regex::Captures| {
        let inner = heading_tag.replace_all(&c[1], "");
        let inner = inner.trim();
        if !inner.contains('\n') {
            return format!("<summary>{inner}</summary>");
        }
        let (first, rest) = inner.split_once('\n').unwrap_or((inner, ""));
        format!("<summary>{}</summary>\n{}\n", first.trim(), rest)
    })
}

/// HTML tables (pr-agent's suggestions, its reviewer guide) as records the block reader knows:
/// with a header row, each data row becomes a rule, one `Header: value` line per short cell
/// (`Impact: High`, `Category: Possible issue`) and then its longest cell as ordinary text;
/// without one, the cells follow each other as paragraphs. `rowspan` cells repeat in the rows
/// they span.
pub(super) fn tables(text: &str) -> std::borrow::Cow<'_, str> {
    static TABLE: OnceLock<Pattern> = OnceLock::new();
    static ROW: OnceLock<Pattern> = OnceLock::new();
    static CELL: OnceLock<Pattern> = OnceLock::new();
    static SPAN: OnceLock<Pattern> = OnceLock::new();
    let table = re(&TABLE, r"(?is)<table\b[^>]*>(.*?)</table>");
    let row = re(&ROW, r"(?is)<tr\b[^>]*>(.*?)(?:</tr>|$)");
    let cell = re(&CELL, r"(?is)<t[dh]\b([^>]*)>(.*?)(?:</t[dh]>|$)");
    let span = re(&SPAN, r#"(?i)rowspan\s*=\s*["']?(\d+)"#);
    table.replace_all(text, |c: &regex::Captures| {
        let inner = &c[1];
        let header_in_thead = inner.to_ascii_lowercase().contains("<thead");
        let mut rows: Vec<Vec<String>> = Vec::new();
        // Cells carried down by rowspan: (column, text, rows left).
        let mut carried: Vec<(usize, String, usize)> = Vec::new();
        for r in row.captures_iter(inner) {
            let mut cells: Vec<String> = Vec::new();
            let mut own = cell.captures_iter(&r[1]).peekable();
            let mut col = 0;
            while own.peek().is_some() || carried.iter().any(|(c, _, n)| *c == col && *n > 0) {
                if let Some(k) = carried.iter_mut().find(|(c, _, n)| *c == col && *n > 0) {
                    cells.push(k.1.clone());
                    k.2 -= 1;
                } else if let Some(x) = own.next() {
                    let text = x[2].trim().to_string();
                    if let Some(n) = span
                        .captures(&x[1])
                        .and_then(|m| m[1].parse::<usize>().ok())
                    {
                        carried.push((col, text.clone(), n.saturating_sub(1)));
                    }
                    cells.push(text);
                }
                col += 1;
            }
            if !cells.is_empty() {
                rows.push(cells);
            }
        }
        static TAGS: OnceLock<Pattern> = OnceLock::new();
        static CODE: OnceLock<Pattern> = OnceLock::new();
        static INLINE: OnceLock<Pattern> = OnceLock::new();
        let plain = |s: &str| -> String {
            // `<code>` keeps its backticks (paths are read from them); inline tags go without
            // a gap ("<code>==</code>;" is "`==`;"), others leave one.
            let t = re(&CODE, r"(?i)</?code\b[^>]*>").replace_all(s, "`");
            let t = re(
                &INLINE,
                r"(?i)</?(?:strong|b|em|i|span|a|kbd|sup|sub)\b[^>]*>",
            )
            .replace_all(&t, "");
            let t = re(&TAGS, r"(?is)<[^>]+>").replace_all(&t, " ");
            t.split_whitespace().collect::<Vec<_>>().join(" ")
        };
        let header = rows.first().filter(|h| {
            header_in_thead || (h.len() > 1 && h.iter().all(|c| plain(c).split(' ').count() <= 4))
        });
        let mut out = String::from("\n");
        // A table of one-line cells is a markdown table (read row by row, by its header); one
        // with paragraphs, code or details in its cells is a series of records.
        let one_line = |x: &String| !x.trim().contains('\n') && !x.contains("<details");
        if header.is_some() && rows.iter().flatten().all(one_line) {
            for (i, r) in rows.iter().enumerate() {
                let cells: Vec<String> = r
                    .iter()
                    .map(|x| entities(&plain(x)).replace('|', "/"))
                    .collect();
                out.push_str(&format!("| {} |\n", cells.join(" | ")));
                if i == 0 {
                    out.push_str(&format!("|{}\n", "---|".repeat(r.len())));
                }
            }
            out.push('\n');
            return out;
        }
        match header {
            Some(h) => {
                let names: Vec<String> = h.iter().map(|x| plain(x)).collect();
                for r in rows.iter().skip(1) {
                    let main = (0..r.len()).max_by_key(|i| r[*i].len()).unwrap_or(0);
                    out.push_str("\n---\n\n");
                    for (i, x) in r.iter().enumerate() {
                        let v = plain(x);
                        if i != main && !v.is_empty() {
                            let name = names.get(i).map_or("Column", String::as_str);
                            out.push_str(&format!("{name}: {v}\n"));
                        }
                    }
                    out.push('\n');
                    out.push_str(&r[main]);
                    out.push_str("\n\n");
                }
            }
            None => {
                for x in rows.iter().flatten() {
                    out.push_str(x);
                    out.push_str("\n\n");
                }
            }
        }
        out
    })
}

/// HTML that structures a review, turned into line breaks and markers the block reader knows.
pub(super) fn flatten_html(line: &str) -> String {
    static BREAKS: OnceLock<Pattern> = OnceLock::new();
    static DETAILS: OnceLock<Pattern> = OnceLock::new();
    static HEADING: OnceLock<Pattern> = OnceLock::new();
    let line = re(&HEADING, r"(?i)<h([1-6])\b[^>]*>(.*?)</h[1-6]>").replace_all(
        line,
        |c: &regex::Captures| {
            let level: usize = c[1].parse().unwrap_or(3);
            format!("\n{} {}\n", "#".repeat(level), &c[2])
        },
    );
    let line = line.as_ref();
    // Inside a markdown table's row a break would split the row and end the table (Sourcery's
    // "File-Level Changes" lists each file's changes as `<ul><li>` in a cell): the cell's items
    // stay on the row, one after another.
    let row = line.trim_start().starts_with('|') && line.trim_end().ends_with('|');
    if row {
        static CELL: OnceLock<Pattern> = OnceLock::new();
        return re(
            &CELL,
            r"(?i)<br\s*/?>|</?(?:ul|ol|p|div)\b[^>]*>|<li\b[^>]*>|</li>",
        )
        .replace_all(line, |c: &regex::Captures| {
            if c[0].to_ascii_lowercase().starts_with("<li") {
                "; ".to_string()
            } else {
                " ".to_string()
            }
        })
        .into_owned();
    }
    let s = re(
        &BREAKS,
        r"(?i)<br\s*/?>|</?(?:table|tbody|thead|tr|td|th|p|div|blockquote|ul|ol)\b[^>]*>|<li\b[^>]*>|</li>|<hr\s*/?>",
    )
    .replace_all(line, |c: &regex::Captures| {
        let tag = c[0].to_ascii_lowercase();
        if tag.starts_with("<li") {
            "\n- ".to_string()
        } else if tag.starts_with("<hr") {
            "\n---\n".to_string()
        } else {
            "\n".to_string()
        }
    });
    re(
        &DETAILS,
        r"(?i)<details\b[^>]*>|</details>|<summary\b[^>]*>.*?</summary>",
    )
    .replace_all(&s, |c: &regex::Captures| format!("\n{}\n", &c[0]))
    .into_owned()
}
