//! The model built from pulldown-cmark's events, and the tag-line mask of
//! [`super::Doc::parse_mixed`].

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use super::{Block, Code, Doc, Kind};

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
}

/// What is being collected for the block at the top of the stack.
enum Open {
    /// A container (list, item, quote): blocks inside it name it as parent.
    Container(usize),
    /// A leaf whose text is gathered: its index.
    Text(usize),
    /// The text of a tight list item, which pulldown-cmark gives without a paragraph: a
    /// paragraph of the model all the same, ended by the next block or the item's end.
    Tight(usize),
    Table {
        index: usize,
        rows: Vec<Vec<String>>,
    },
    /// Anything else (emphasis, links…): text goes to the leaf below it.
    Inline,
}

pub(super) fn parse(text: &str) -> Doc {
    let mut blocks: Vec<Block> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    let mut depth = 0usize;
    for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
        match event {
            Event::Start(tag) => {
                let fence = fence_at(text, range.start);
                start(tag, range, fence, &mut blocks, &mut stack, &mut depth);
            }
            Event::End(end) => finish(end, &mut blocks, &mut stack, &mut depth),
            Event::Text(t) | Event::Code(t) | Event::InlineHtml(t) | Event::Html(t) => {
                push_text(&t, range, &mut blocks, &mut stack, depth);
            }
            Event::SoftBreak | Event::HardBreak => {
                push_text("\n", range, &mut blocks, &mut stack, depth);
            }
            Event::Rule => blocks.push(Block {
                kind: Kind::Rule,
                span: range,
                depth,
                parent: parent(&stack),
            }),
            _ => {}
        }
    }
    Doc { blocks }
}

fn parent(stack: &[Open]) -> Option<usize> {
    stack.iter().rev().find_map(|o| match o {
        Open::Container(i) => Some(*i),
        _ => None,
    })
}

fn start(
    tag: Tag<'_>,
    range: Range<usize>,
    fence: Option<(char, usize)>,
    blocks: &mut Vec<Block>,
    stack: &mut Vec<Open>,
    depth: &mut usize,
) {
    if !matches!(stack.last(), Some(Open::Inline)) || is_block(&tag) {
        end_tight(stack);
    }
    let kind = match tag {
        Tag::Heading { level, .. } => Kind::Heading {
            level: level as u8,
            text: String::new(),
        },
        Tag::Paragraph if !in_table_or_leaf(stack) => Kind::Paragraph {
            text: String::new(),
        },
        Tag::List(first) => Kind::List {
            ordered: first.is_some(),
        },
        Tag::Item => Kind::Item,
        Tag::BlockQuote(_) => Kind::Quote,
        Tag::CodeBlock(kind) => Kind::Code(Code {
            fence: match &kind {
                CodeBlockKind::Fenced(_) => fence,
                CodeBlockKind::Indented => None,
            },
            info: match &kind {
                CodeBlockKind::Fenced(info) => info.trim().to_string(),
                CodeBlockKind::Indented => String::new(),
            },
            body: String::new(),
            body_span: range.start..range.start,
        }),
        Tag::HtmlBlock => Kind::Html {
            text: String::new(),
        },
        Tag::Table(_) => Kind::Table { rows: Vec::new() },
        Tag::TableRow | Tag::TableHead => {
            if let Some(Open::Table { rows, .. }) = stack.last_mut() {
                rows.push(Vec::new());
            }
            return;
        }
        Tag::TableCell => {
            if let Some(Open::Table { rows, .. }) = stack.last_mut() {
                if let Some(r) = rows.last_mut() {
                    r.push(String::new());
                }
            }
            return;
        }
        _ => {
            stack.push(Open::Inline);
            return;
        }
    };
    let container = matches!(kind, Kind::List { .. } | Kind::Item | Kind::Quote);
    let table = matches!(kind, Kind::Table { .. });
    blocks.push(Block {
        kind,
        span: range,
        depth: *depth,
        parent: parent(stack),
    });
    let index = blocks.len() - 1;
    stack.push(if container {
        *depth += 1;
        Open::Container(index)
    } else if table {
        Open::Table {
            index,
            rows: Vec::new(),
        }
    } else {
        Open::Text(index)
    });
}

fn is_block(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Heading { .. }
            | Tag::Paragraph
            | Tag::List(_)
            | Tag::Item
            | Tag::BlockQuote(_)
            | Tag::CodeBlock(_)
            | Tag::HtmlBlock
            | Tag::Table(_)
    )
}

/// A tight item's text ends where a block starts or the item ends.
fn end_tight(stack: &mut Vec<Open>) {
    if matches!(stack.last(), Some(Open::Tight(_))) {
        stack.pop();
    }
}

/// A paragraph inside a table cell or a heading is not a block of its own.
fn in_table_or_leaf(stack: &[Open]) -> bool {
    matches!(stack.last(), Some(Open::Table { .. } | Open::Text(_)))
}

fn finish(end: TagEnd, blocks: &mut [Block], stack: &mut Vec<Open>, depth: &mut usize) {
    match end {
        TagEnd::TableRow | TagEnd::TableHead | TagEnd::TableCell => return,
        _ => {}
    }
    if !matches!(stack.last(), Some(Open::Inline)) {
        end_tight(stack);
    }
    match stack.pop() {
        Some(Open::Container(_)) => *depth = depth.saturating_sub(1),
        Some(Open::Table { index, rows }) => {
            if let Kind::Table { rows: r } = &mut blocks[index].kind {
                *r = rows;
            }
        }
        _ => {}
    }
}

fn push_text(
    t: &str,
    range: Range<usize>,
    blocks: &mut Vec<Block>,
    stack: &mut Vec<Open>,
    depth: usize,
) {
    for o in stack.iter_mut().rev() {
        match o {
            Open::Inline => continue,
            Open::Text(i) | Open::Tight(i) => {
                let b = &mut blocks[*i];
                b.span.end = b.span.end.max(range.end);
                match &mut b.kind {
                    Kind::Heading { text, .. } | Kind::Paragraph { text } | Kind::Html { text } => {
                        text.push_str(t);
                    }
                    Kind::Code(c) => {
                        if c.body.is_empty() {
                            c.body_span.start = range.start;
                        }
                        c.body_span.end = range.end;
                        c.body.push_str(t);
                    }
                    _ => {}
                }
                return;
            }
            Open::Table { rows, .. } => {
                if let Some(cell) = rows.last_mut().and_then(|r| r.last_mut()) {
                    cell.push_str(t);
                }
                return;
            }
            Open::Container(_) => break,
        }
    }
    // Text straight in an item: a tight item's paragraph begins (inline tags opened before the
    // text stay below it and close inside it).
    let at = stack
        .iter()
        .rposition(|o| matches!(o, Open::Container(_)))
        .map_or(0, |p| p + 1);
    let index = blocks.len();
    blocks.push(Block {
        kind: Kind::Paragraph {
            text: t.to_string(),
        },
        span: range,
        depth,
        parent: parent(stack),
    });
    stack.insert(at, Open::Tight(index));
}

/// The fence of the code block pulldown-cmark found at `start` of `text`: its character and
/// length, as written (this reads a fence, it does not decide where one is).
fn fence_at(text: &str, start: usize) -> Option<(char, usize)> {
    let t = text.get(start..)?.trim_start_matches([' ', '\t', '>']);
    let ch = t.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let n = t.chars().take_while(|c| *c == ch).count();
    (n >= 3).then_some((ch, n))
}

/// `text` with every line that holds only HTML tags (`<details>`, `</blockquote></details>`,
/// `<summary>…</summary>`) blanked to spaces of the same length, and those lines' spans; `None`
/// when there is no such line.
pub(super) fn mask_tag_lines(text: &str) -> Option<(String, Vec<Range<usize>>)> {
    let mut spans = Vec::new();
    let mut at = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.trim_end_matches(['\n', '\r']);
        if only_tags(line) {
            spans.push(at..at + line.len());
        }
        at += raw.len();
    }
    if spans.is_empty() {
        return None;
    }
    Some((blank(text, &spans), spans))
}

/// `text` with the bytes of `spans` (whole lines) replaced by spaces.
pub(super) fn blank(text: &str, spans: &[Range<usize>]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for s in spans {
        for b in &mut bytes[s.clone()] {
            *b = b' ';
        }
    }
    // Only whole lines, so only whole UTF-8 sequences, became ASCII spaces.
    String::from_utf8(bytes).expect("valid UTF-8")
}

/// A line of HTML tags only, with at most a short text between a tag pair
/// (`<summary>Nitpick comments (2)</summary>`).
fn only_tags(t: &str) -> bool {
    let t = t.trim();
    if !t.starts_with('<') || !t.ends_with('>') || t.starts_with("<!--") || t.starts_with("<http") {
        return false;
    }
    let second = t.as_bytes().get(1).copied().unwrap_or(b' ');
    if !(second.is_ascii_alphabetic() || second == b'/') {
        return false;
    }
    // `<summary>…</summary>` and `<b>…</b>` lines: a tag first and a closing tag last.
    t.rfind("</").is_some_and(|p| p > 0) || !t[1..].contains('<') || t.matches('<').count() > 1
}
