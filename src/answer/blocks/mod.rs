//! An answer's markdown (and the HTML reviewers mix into it) as a flat list of block lines:
//! headings, `<summary>` titles, list items, table rows, paragraphs' lines, fenced code, hidden
//! comments. The structure reader ([`crate::answer::markdown`]) walks this list.
//!
//! Real reviews nest markdown inside HTML (`<details><summary>…</summary><blockquote>`), put
//! several paragraphs in one table cell with `<br>`, quote whole comments with `>`, and hide
//! machine data in `<!-- … -->`. Those are flattened here, so the reader sees one shape.

use std::sync::OnceLock;

mod html;

use html::*;

#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    Blank,
    Heading {
        level: u8,
        text: String,
    },
    /// `<summary>text</summary>`: the title of a `<details>` section.
    Summary {
        text: String,
    },
    DetailsOpen,
    DetailsClose,
    Rule,
    Item {
        indent: usize,
        text: String,
    },
    Row {
        cells: Vec<String>,
    },
    TableSeparator,
    Text {
        indent: usize,
        text: String,
    },
    Code {
        info: String,
        body: String,
        indent: usize,
    },
    /// The content of an HTML comment (not shown to readers, but it may carry locations).
    Hidden {
        text: String,
    },
}

use crate::answer::re;
use crate::pattern::Pattern;

/// `>` quoting removed (a quoted review is still a review).
fn unquote(line: &str) -> &str {
    let mut l = line;
    loop {
        let t = l.trim_start();
        match t.strip_prefix('>') {
            Some(rest) if !rest.starts_with('=') => l = rest.strip_prefix(' ').unwrap_or(rest),
            _ => return l,
        }
    }
}

/// The info string of a line of the diff quoted in a review (`> + let x = 1;`): what the
/// comment after it is about.
pub const QUOTED_DIFF_INFO: &str = "quoted-diff";

/// Each `<code_context>…</code_context>` as a fenced block: its tags become the fence, or, when
/// it holds a fence of its own (`` ```diff ``), they are dropped and that fence stands.
fn code_contexts(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut rest = text;
    while let Some(open) = rest.find("<code_context>") {
        out.push_str(&rest[..open]);
        let inner_start = open + "<code_context>".len();
        let close = rest[inner_start..].find("</code_context>");
        let inner = close.map_or(&rest[inner_start..], |c| {
            &rest[inner_start..inner_start + c]
        });
        let fenced = inner
            .lines()
            .any(|l| l.trim_start().starts_with("```") || l.trim_start().starts_with("~~~"));
        let fence = if fenced { "\n" } else { "\n```\n" };
        out.push_str(fence);
        out.push_str(inner);
        out.push_str(fence);
        rest = close.map_or("", |c| &rest[inner_start + c + "</code_context>".len()..]);
    }
    out.push_str(rest);
    out
}

pub fn blocks(text: &str) -> Vec<Block> {
    static HEADING: OnceLock<Pattern> = OnceLock::new();
    static ITEM: OnceLock<Pattern> = OnceLock::new();
    static SEP: OnceLock<Pattern> = OnceLock::new();
    static RULE: OnceLock<Pattern> = OnceLock::new();
    static SUMMARY: OnceLock<Pattern> = OnceLock::new();
    let heading = re(&HEADING, r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$");
    let item = re(&ITEM, r"^(\s*)(?:[-*+•]|\d{1,3}[.)])\s+(.*)$");
    let sep = re(&SEP, r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$");
    let rule = re(
        &RULE,
        r"^\s{0,3}(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$",
    );
    let summary = re(&SUMMARY, r"(?is)^\s*<summary\b[^>]*>(.*?)</summary>\s*$");

    let mut out = Vec::new();
    let mut comment: Option<String> = None;
    let tabled = tables(text);
    // Sourcery quotes code in `<code_context>` tags: a code block like any other.
    let tabled = if tabled.contains("<code_context>") {
        std::borrow::Cow::Owned(code_contexts(&tabled))
    } else {
        tabled
    };
    let joined = join_summaries(&tabled);
    // The fenced blocks, as the markdown model reads them (the one place fences are known).
    let doc = crate::markdown::Doc::parse_mixed(&joined);
    let mut fenced = doc.fenced().peekable();
    static QUOTED_DIFF: OnceLock<Pattern> = OnceLock::new();
    // `> +      this.$emit(…)`: a quoted line of the diff under its place, code (not a list item).
    let quoted_diff = re(&QUOTED_DIFF, r"^\s*>\s?(?:\+|-\s{2,}|-[^\s\d])");
    let mut at = 0;
    let mut skip_to = 0;
    for raw in joined.split_inclusive('\n') {
        let start = at;
        at += raw.len();
        let raw = raw.trim_end_matches(['\n', '\r']);
        if start < skip_to {
            continue;
        }
        while fenced.peek().is_some_and(|(b, _)| b.span.end <= start) {
            fenced.next();
        }
        let line = unquote(raw);
        if comment.is_none() {
            if let Some((b, c)) = fenced.next_if(|(b, _)| b.span.start < start + raw.len().max(1)) {
                // Lower case for languages; a citation (`12:15:src/App.tsx`) keeps its path's
                // case.
                let info = if c.info.contains(':') {
                    c.info.clone()
                } else {
                    c.info.to_ascii_lowercase()
                };
                out.push(Block::Code {
                    info,
                    body: c.body.clone(),
                    indent: line.len() - line.trim_start().len(),
                });
                skip_to = b.span.end;
                continue;
            }
        }
        if comment.is_none() && quoted_diff.is_match(raw) {
            out.push(Block::Code {
                info: QUOTED_DIFF_INFO.into(),
                body: format!("{line}\n"),
                indent: 0,
            });
            continue;
        }
        if let Some(c) = &mut comment {
            match line.find("-->") {
                Some(end) => {
                    c.push_str(&line[..end]);
                    out.push(Block::Hidden {
                        text: std::mem::take(c),
                    });
                    comment = None;
                }
                None => {
                    c.push_str(line);
                    c.push('\n');
                }
            }
            continue;
        }
        // Comments: whole-line or inline; what is outside them stays.
        let mut rest = line.to_string();
        while let Some(start) = rest.find("<!--") {
            let after = &rest[start + 4..];
            match after.find("-->") {
                Some(end) => {
                    out.push(Block::Hidden {
                        text: after[..end].to_string(),
                    });
                    rest = format!("{}{}", &rest[..start], &after[end + 3..]);
                }
                None => {
                    comment = Some(format!("{after}\n"));
                    rest.truncate(start);
                    break;
                }
            }
        }
        if rest.trim().is_empty() && rest.len() != line.len() {
            continue;
        }
        for part in flatten_html(&entities(&shortcodes(&rest))).split('\n') {
            push_line(part, &mut out, heading, item, sep, rule, summary);
        }
    }
    if let Some(c) = comment {
        out.push(Block::Hidden { text: c });
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn push_line(
    line: &str,
    out: &mut Vec<Block>,
    heading: &Pattern,
    item: &Pattern,
    sep: &Pattern,
    rule: &Pattern,
    summary: &Pattern,
) {
    let t = line.trim();
    if t.is_empty() {
        if out.last() != Some(&Block::Blank) {
            out.push(Block::Blank);
        }
        return;
    }
    // GitHub alert markers (`> [!CAUTION]`) only style the quote around them.
    if t.starts_with("[!") && t.ends_with(']') && !t.contains(' ') {
        return;
    }
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("<details") {
        out.push(Block::DetailsOpen);
        return;
    }
    if lower == "</details>" {
        out.push(Block::DetailsClose);
        return;
    }
    if let Some(c) = summary.captures(t) {
        let text = c[1].trim().trim_start_matches('#').trim().to_string();
        out.push(Block::Summary { text });
        return;
    }
    if let Some(c) = heading.captures(line) {
        out.push(Block::Heading {
            level: c[1].len() as u8,
            text: c[2].to_string(),
        });
        return;
    }
    if rule.is_match(line) {
        // `---` under a paragraph line is a setext heading.
        if t.starts_with('-') || t.starts_with('=') {
            if let Some(Block::Text { text, .. }) = out.last().cloned() {
                out.pop();
                out.push(Block::Heading { level: 2, text });
                return;
            }
        }
        out.push(Block::Rule);
        return;
    }
    if t.chars().all(|c| c == '=') && t.len() >= 3 {
        if let Some(Block::Text { text, .. }) = out.last().cloned() {
            out.pop();
            out.push(Block::Heading { level: 1, text });
        }
        return;
    }
    if t.starts_with('|') || (t.contains(" | ") && t.matches('|').count() >= 2 && sep.is_match(t)) {
        if sep.is_match(t) {
            out.push(Block::TableSeparator);
        } else {
            let inner = t.trim_start_matches('|').trim_end_matches('|');
            out.push(Block::Row {
                cells: split_cells(inner),
            });
        }
        return;
    }
    if let Some(c) = item.captures(line) {
        out.push(Block::Item {
            indent: c[1].chars().count(),
            text: c[2].to_string(),
        });
        return;
    }
    // A tab is four columns (copied pages indent code with tabs).
    let indent: usize = line
        .chars()
        .take_while(|c| c.is_whitespace())
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum();
    // Indented four or more after a blank line, outside a list: a code block (a copied page's
    // diff context), kept with what it belongs to.
    // (After a list item, indented text is the item's next paragraph.)
    let after_item = out
        .iter()
        .rev()
        .find(|b| !matches!(b, Block::Blank))
        .is_some_and(|b| matches!(b, Block::Item { .. }));
    if indent >= 4
        && !after_item
        && matches!(out.last(), Some(Block::Blank | Block::Code { .. }) | None)
    {
        out.push(Block::Code {
            info: String::new(),
            body: format!("{t}\n"),
            indent,
        });
        return;
    }
    if indent >= 4 {
        if let Some(Block::Code { body, .. }) = out.last_mut() {
            body.push_str(t);
            body.push('\n');
            return;
        }
    }
    out.push(Block::Text {
        indent,
        text: t.to_string(),
    });
}

/// Table cells, keeping `|` inside backticks and escaped `\|`.
fn split_cells(row: &str) -> Vec<String> {
    let mut cells = Vec::new();
    let mut cur = String::new();
    let mut in_code = false;
    let mut prev = '\0';
    for c in row.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                cur.push(c);
            }
            '|' if !in_code && prev != '\\' => {
                cells.push(std::mem::take(&mut cur).trim().to_string());
            }
            _ => cur.push(c),
        }
        prev = c;
    }
    cells.push(cur.trim().to_string());
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_and_markdown_flatten_to_blocks() {
        let b = blocks(
            "## Review\n<details><summary>src/a.ts (1)</summary><blockquote>\n\n`3-4`: **Fix it**\n\n</blockquote></details>\n<!-- hidden\nsrc/b.rs#L1 -->\n> - quoted item\n| a | b |\n|---|---|\n| `x|y` | 2 |\n```diff\n- a\n```\n",
        );
        assert!(b.contains(&Block::Heading {
            level: 2,
            text: "Review".into()
        }));
        assert!(b.contains(&Block::DetailsOpen));
        assert!(b.contains(&Block::Summary {
            text: "src/a.ts (1)".into()
        }));
        assert!(b.contains(&Block::Text {
            indent: 0,
            text: "`3-4`: **Fix it**".into()
        }));
        assert!(b.contains(&Block::DetailsClose));
        assert!(b.contains(&Block::Hidden {
            text: " hidden\nsrc/b.rs#L1 ".into()
        }));
        assert!(b.contains(&Block::Item {
            indent: 0,
            text: "quoted item".into()
        }));
        assert!(b.contains(&Block::Row {
            cells: vec!["`x|y`".into(), "2".into()]
        }));
        assert!(b.contains(&Block::Code {
            info: "diff".into(),
            body: "- a\n".into(),
            indent: 0
        }));
    }
}
