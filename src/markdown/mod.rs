//! One CommonMark model of a markdown text, on pulldown-cmark: its blocks in document order with
//! their byte spans — headings (level, text), paragraphs, lists and items with their nesting,
//! code blocks (fenced with ``` or ~~~ of any length and an info string, or indented), tables
//! (rows of cells), HTML blocks, block quotes and rules.
//!
//! It exists so that one parser decides what is code in a markdown text: the artifact's target
//! detection and split ([`crate::change::markdown`]) and the answer reader (which must not read
//! an echoed template in a ```` ``` ```` or `~~~` block as the reviewer's verdict) ask it, and
//! nothing else recognises a fence.
//!
//! Reviewers mix raw HTML into markdown and put markdown inside it (`<details>` then a fenced
//! suggestion with no blank line between): CommonMark reads such a fence as part of the HTML
//! block. [`Doc::parse_mixed`] reads what a reader of the rendered review sees instead: lines
//! that hold only HTML tags are HTML blocks of their own, and the markdown between them is read
//! as markdown. Both parses keep every byte offset of the original text.

mod build;
#[cfg(test)]
mod tests;

use std::ops::Range;

/// A parsed markdown text.
#[derive(Debug, Clone, Default)]
pub struct Doc {
    pub blocks: Vec<Block>,
}

/// One block and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub kind: Kind,
    /// Byte span in the parsed text.
    pub span: Range<usize>,
    /// How many container blocks (lists, items, quotes) it is inside.
    pub depth: usize,
    /// The index of the container it is directly inside.
    pub parent: Option<usize>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    Heading {
        level: u8,
        text: String,
    },
    /// Its text with soft and hard breaks as line breaks, inline code without backticks and
    /// inline HTML as written.
    Paragraph {
        text: String,
    },
    List {
        ordered: bool,
    },
    Item,
    Code(Code),
    /// The header row first.
    Table {
        rows: Vec<Vec<String>>,
    },
    Html {
        text: String,
    },
    Quote,
    Rule,
}

/// A code block: fenced (which fence, its info string) or indented.
#[derive(Debug, Clone, PartialEq)]
pub struct Code {
    /// The fence's character (`` ` `` or `~`) and length; `None` for an indented block.
    pub fence: Option<(char, usize)>,
    /// The info string as written (`rust`, `json title="x"`, `12:15:src/App.tsx`).
    pub info: String,
    /// The content, without the fence lines, quote markers or indentation.
    pub body: String,
    /// Where the content is in the text (from its first line to the end of its last; empty at
    /// the block's start when there is none).
    pub body_span: Range<usize>,
}

impl Code {
    /// The info string's first word, lower-cased: the language.
    pub fn lang(&self) -> String {
        self.info
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase()
    }
}

impl Doc {
    /// CommonMark (with GitHub's tables, strikethrough and task lists).
    pub fn parse(text: &str) -> Doc {
        build::parse(text)
    }

    /// As a reader of a rendered review sees it: as [`Doc::parse`], except that a line holding
    /// only HTML tags is an HTML block of its own and never swallows the markdown after it.
    pub fn parse_mixed(text: &str) -> Doc {
        let Some((masked, mut tag_lines)) = build::mask_tag_lines(text) else {
            return build::parse(text);
        };
        let mut doc = build::parse(&masked);
        // A tag line inside code is code: put it back (what the code block holds is literal,
        // so the structure does not change) and read the text again.
        let in_code = |s: &Range<usize>| {
            doc.code()
                .any(|(b, _)| b.span.start <= s.start && s.end <= b.span.end)
        };
        let (code_tags, tags): (Vec<_>, Vec<_>) = tag_lines.drain(..).partition(in_code);
        if !code_tags.is_empty() {
            doc = build::parse(&build::blank(text, &tags));
        }
        doc.blocks.extend(tags.into_iter().map(|span| Block {
            kind: Kind::Html {
                text: text[span.clone()].to_string(),
            },
            span,
            depth: 0,
            parent: None,
        }));
        doc.sort();
        doc
    }

    /// Blocks in order of their start (the tag lines of [`Doc::parse_mixed`] come in after the
    /// parse), parents renumbered.
    fn sort(&mut self) {
        let mut order: Vec<usize> = (0..self.blocks.len()).collect();
        order.sort_by_key(|&i| self.blocks[i].span.start);
        let mut remap = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            remap[old] = new;
        }
        let mut blocks: Vec<Block> = order.iter().map(|&i| self.blocks[i].clone()).collect();
        for b in &mut blocks {
            b.parent = b.parent.map(|p| remap[p]);
        }
        self.blocks = blocks;
    }

    /// The code blocks, in order.
    pub fn code(&self) -> impl Iterator<Item = (&Block, &Code)> {
        self.blocks.iter().filter_map(|b| match &b.kind {
            Kind::Code(c) => Some((b, c)),
            _ => None,
        })
    }

    /// The fenced code blocks, in order.
    pub fn fenced(&self) -> impl Iterator<Item = (&Block, &Code)> {
        self.code().filter(|(_, c)| c.fence.is_some())
    }

    /// The top-level blocks (inside no list, item or quote).
    pub fn top(&self) -> impl Iterator<Item = &Block> {
        self.blocks.iter().filter(|b| b.depth == 0)
    }
}

/// Each line of `text` (without its line break) and whether it belongs to a fenced code block
/// (its fence lines included), as [`Doc::parse_mixed`] reads it.
pub fn fenced_lines(text: &str) -> Vec<(&str, bool)> {
    let doc = Doc::parse_mixed(text);
    let spans: Vec<Range<usize>> = doc.fenced().map(|(b, _)| b.span.clone()).collect();
    let mut out = Vec::new();
    let mut at = 0;
    let mut k = 0;
    for raw in text.split_inclusive('\n') {
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        while k < spans.len() && spans[k].end <= at {
            k += 1;
        }
        let code = spans.get(k).is_some_and(|s| s.start <= at && at < s.end)
            || spans
                .get(k)
                .is_some_and(|s| at < s.start && s.start < at + line.len().max(1));
        out.push((line, code));
        at += raw.len();
    }
    out
}
