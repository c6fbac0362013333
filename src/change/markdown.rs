//! Target detection for free text, and the structural split of a mixed markdown document.
//!
//! The review protocol depends on what is reviewed: code gets a code review, a design gets a peer
//! review, and a design document with code in it gets both. Detection uses the markdown model
//! ([`crate::markdown`]) rather than substring checks, so a "```" inside inline code or a "Design:" in
//! prose does not fool it. The split keeps every byte: segments tile the document in order, so the
//! reviewed parts can be merged back.

use crate::markdown::{self as md, Doc};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    Code,
    Proposal,
    Mixed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SegmentKind {
    Code,
    Proposal,
}

/// One piece of a document: a code block, or prose under a heading path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    pub kind: SegmentKind,
    /// Enclosing headings, outermost first.
    pub heading_path: Vec<String>,
    /// Byte range in the source text.
    pub start: usize,
    pub end: usize,
    /// A code block's info-string language.
    pub lang: Option<String>,
}

/// The chosen target and the evidence for it, for the dry-run summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Detection {
    pub target: Target,
    pub reasons: Vec<String>,
    /// `high` (a source file, a diff, clear markers of both kinds or several proposal
    /// headings), `medium` (partial markers) or `low` (no markers: plain text).
    pub confidence: &'static str,
    /// No code and no proposal markers at all: plain text, reviewed as a proposal by default.
    #[serde(skip)]
    pub plain: bool,
}

const SOURCE_EXTENSIONS: &[&str] = &[
    "rs", "py", "js", "mjs", "cjs", "ts", "tsx", "jsx", "go", "java", "kt", "kts", "c", "h", "cc",
    "cpp", "cxx", "hpp", "cs", "rb", "php", "swift", "scala", "sh", "bash", "zsh", "fish", "sql",
    "lua", "pl", "r", "m", "mm", "dart", "ex", "exs", "erl", "hs", "ml", "clj", "vue", "svelte",
    "toml", "yaml", "yml", "json", "xml", "gradle", "cmake", "tf", "nix", "proto", "css", "scss",
    "html", "zig", "jl", "ps1", "bat",
];
const SOURCE_NAMES: &[&str] = &[
    "Makefile",
    "Dockerfile",
    "Justfile",
    "CMakeLists.txt",
    "Rakefile",
    "Gemfile",
];

/// Words that make a heading a design/proposal section (whole words, case-insensitive).
const PROPOSAL_WORDS: &[&str] = &[
    "design",
    "proposal",
    "propose",
    "proposed",
    "approach",
    "decision",
    "decisions",
    "tradeoff",
    "tradeoffs",
    "trade-off",
    "trade-offs",
    "alternative",
    "alternatives",
    "rationale",
    "motivation",
    "rfc",
    "adr",
    "architecture",
    "plan",
    "rebuttal",
    "response",
    "options",
    "goals",
    "non-goals",
    "requirements",
    "context",
    "consequences",
    "status",
];

/// Prose outside code (bytes) above which a document with headings and code counts as mixed even
/// without a proposal keyword: it is a document that explains code, not a code paste.
const MIXED_PROSE_BYTES: usize = 300;

/// Detects the target of free text.
///
/// Rules: a source-file `path_hint` -> code. A unified diff -> code. Otherwise the markdown
/// structure decides: fenced code blocks are code markers; headings containing a design word
/// (Design, Proposal, Approach, Decision, Alternatives, ...) are proposal markers; both -> mixed.
/// Fenced code plus at least one heading and substantial prose (300+ bytes outside code) is mixed
/// too. Text with no markdown structure that mostly looks like source code -> code. Anything else
/// is reviewed as a proposal (a viewpoint in plain text).
pub fn detect(text: &str, path_hint: Option<&str>) -> Detection {
    let mut reasons = Vec::new();
    if let Some(path) = path_hint {
        let name = path.rsplit('/').next().unwrap_or(path);
        let ext = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase());
        if SOURCE_NAMES.contains(&name)
            || ext
                .as_deref()
                .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e))
        {
            return Detection {
                target: Target::Code,
                reasons: vec![format!("source file {name}")],
                confidence: "high",
                plain: false,
            };
        }
    }
    if is_unified_diff(text) {
        return Detection {
            target: Target::Code,
            reasons: vec!["unified diff".into()],
            confidence: "high",
            plain: false,
        };
    }
    let blocks = blocks(text);
    let fenced = blocks
        .iter()
        .filter(|b| matches!(b.kind, Block::Code { fenced: true, .. }))
        .count();
    let headings: Vec<&str> = blocks
        .iter()
        .filter_map(|b| {
            if let Block::Heading(_, t) = &b.kind {
                Some(t.as_str())
            } else {
                None
            }
        })
        .collect();
    let proposal_headings: Vec<&str> = headings
        .iter()
        .copied()
        .filter(|h| has_proposal_word(h))
        .collect();
    let code_bytes: usize = blocks
        .iter()
        .filter(|b| matches!(b.kind, Block::Code { .. }))
        .map(|b| b.end - b.start)
        .sum();
    let prose_bytes = text.trim().len().saturating_sub(code_bytes);

    if fenced > 0 {
        reasons.push(format!(
            "{fenced} fenced code block{}",
            if fenced == 1 { "" } else { "s" }
        ));
    }
    for h in proposal_headings.iter().take(3) {
        reasons.push(format!("heading '{h}'"));
    }
    let (target, confidence) = match (fenced > 0, !proposal_headings.is_empty()) {
        (true, true) => (Target::Mixed, "high"),
        (true, false) if !headings.is_empty() && prose_bytes >= MIXED_PROSE_BYTES => {
            reasons.push(format!("{prose_bytes} bytes of prose under headings"));
            (Target::Mixed, "medium")
        }
        (true, false) => (Target::Code, "medium"),
        (false, true) if proposal_headings.len() >= 2 => (Target::Proposal, "high"),
        (false, true) => (Target::Proposal, "medium"),
        (false, false) if headings.is_empty() && looks_like_source(text) => {
            reasons.push("looks like source code".into());
            (Target::Code, "medium")
        }
        (false, false) => {
            reasons.push("no code or proposal markers: plain text".into());
            (Target::Proposal, "low")
        }
    };
    let plain = target == Target::Proposal && proposal_headings.is_empty();
    Detection {
        target,
        reasons,
        confidence,
        plain,
    }
}

fn is_unified_diff(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().take(2000).collect();
    if lines.iter().any(|l| l.starts_with("diff --git ")) {
        return true;
    }
    lines
        .windows(3)
        .any(|w| w[0].starts_with("--- ") && w[1].starts_with("+++ ") && w[2].starts_with("@@ "))
}

fn has_proposal_word(heading: &str) -> bool {
    heading
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .any(|w| PROPOSAL_WORDS.contains(&w.to_lowercase().as_str()))
}

/// Conservative: most non-blank lines must look like code, and there must be a few of them.
fn looks_like_source(text: &str) -> bool {
    const STARTS: &[&str] = &[
        "fn ", "pub ", "def ", "class ", "import ", "from ", "package ", "let ", "const ", "var ",
        "func ", "#include", "return", "if ", "if(", "for ", "for(", "while ", "use ", "struct ",
        "impl ", "enum ", "//", "/*", "* ", "@", "else", "try", "catch", "public ", "private ",
        "static ", "async ", "export ",
    ];
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.len() < 2 {
        return false;
    }
    let codeish = lines
        .iter()
        .filter(|l| {
            l.ends_with(';')
                || l.ends_with('{')
                || l.ends_with('}')
                || **l == "}"
                || (l.ends_with(':')
                    && (l.starts_with("def ") || l.starts_with("class ") || l.starts_with("if ")))
                || STARTS.iter().any(|s| l.starts_with(s))
        })
        .count();
    codeish * 10 >= lines.len() * 7
}

#[derive(Debug, Clone)]
enum Block {
    Heading(u32, String),
    Code { lang: Option<String>, fenced: bool },
    Other,
}

#[derive(Debug, Clone)]
struct TopBlock {
    kind: Block,
    start: usize,
    end: usize,
}

/// The document's top-level blocks. A code block nested in a list or quote stays part of that
/// block: splitting a list item apart would break the merge-back of its prose.
fn blocks(text: &str) -> Vec<TopBlock> {
    Doc::parse(text)
        .top()
        .map(|b| TopBlock {
            kind: match &b.kind {
                md::Kind::Heading { level, text } => {
                    Block::Heading(*level as u32, text.trim().to_string())
                }
                md::Kind::Code(c) => Block::Code {
                    lang: Some(c.info.split_whitespace().next().unwrap_or("").to_string())
                        .filter(|s| !s.is_empty()),
                    fenced: c.fence.is_some(),
                },
                _ => Block::Other,
            },
            start: b.span.start,
            end: b.span.end,
        })
        .collect()
}

/// Splits markdown into ordered segments that tile `text` exactly (see the module doc).
pub fn split(text: &str) -> Vec<Segment> {
    let mut segs: Vec<Segment> = Vec::new();
    let mut path: Vec<(u32, String)> = Vec::new();
    let mut cur_start = 0usize;
    let names = |p: &[(u32, String)]| p.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>();
    let close =
        |segs: &mut Vec<Segment>, start: usize, end: usize, kind, path: Vec<String>, lang| {
            if end > start {
                segs.push(Segment {
                    kind,
                    heading_path: path,
                    start,
                    end,
                    lang,
                });
            }
        };
    for b in blocks(text) {
        if b.start < cur_start {
            continue;
        }
        match b.kind {
            Block::Heading(level, title) => {
                close(
                    &mut segs,
                    cur_start,
                    b.start,
                    SegmentKind::Proposal,
                    names(&path),
                    None,
                );
                while path.last().is_some_and(|(l, _)| *l >= level) {
                    path.pop();
                }
                path.push((level, title));
                cur_start = b.start;
            }
            Block::Code { lang, .. } => {
                close(
                    &mut segs,
                    cur_start,
                    b.start,
                    SegmentKind::Proposal,
                    names(&path),
                    None,
                );
                let mut end = b.end.min(text.len());
                // Own the block's line break, so the prose after starts on its own line.
                if text[..end].ends_with('\n') {
                    // pulldown-cmark's range already ends with the line break.
                } else if text[end..].starts_with("\r\n") {
                    end += 2;
                } else if text[end..].starts_with('\n') {
                    end += 1;
                }
                close(
                    &mut segs,
                    b.start,
                    end,
                    SegmentKind::Code,
                    names(&path),
                    lang,
                );
                cur_start = end;
            }
            Block::Other => {}
        }
    }
    close(
        &mut segs,
        cur_start,
        text.len(),
        SegmentKind::Proposal,
        names(&path),
        None,
    );
    absorb_blank_segments(text, segs)
}

/// A whitespace-only prose segment (the gap between two code blocks) joins a prose neighbour
/// (else the code before it), so nobody reviews an empty proposal and a replaced code block keeps
/// the blank lines around it.
fn absorb_blank_segments(text: &str, segs: Vec<Segment>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    // Start of blank text not yet given to a segment.
    let mut pending: Option<usize> = None;
    for mut s in segs {
        let blank = s.kind == SegmentKind::Proposal && text[s.start..s.end].trim().is_empty();
        if blank {
            match out.last_mut() {
                Some(prev) if prev.kind == SegmentKind::Proposal => prev.end = s.end,
                _ => pending = Some(pending.unwrap_or(s.start)),
            }
            continue;
        }
        if let Some(start) = pending.take() {
            match out.last_mut() {
                Some(prev) if s.kind == SegmentKind::Code => prev.end = s.start,
                _ => s.start = start,
            }
        }
        match out.last_mut() {
            Some(prev)
                if prev.kind == SegmentKind::Proposal
                    && s.kind == SegmentKind::Proposal
                    && prev.heading_path == s.heading_path =>
            {
                prev.end = s.end;
            }
            _ => out.push(s),
        }
    }
    if let Some(start) = pending {
        match out.last_mut() {
            Some(prev) => prev.end = text.len(),
            // The whole text was blank.
            None => out.push(Segment {
                kind: SegmentKind::Proposal,
                heading_path: Vec::new(),
                start,
                end: text.len(),
                lang: None,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reassembles a document, replacing the segments whose replacement is `Some`.
    pub fn merge(text: &str, segments: &[Segment], replacements: &[Option<String>]) -> String {
        let mut out = String::with_capacity(text.len());
        for (i, s) in segments.iter().enumerate() {
            match replacements.get(i).and_then(|r| r.as_deref()) {
                Some(new) => out.push_str(new),
                None => out.push_str(&text[s.start..s.end]),
            }
        }
        out
    }

    fn assert_tiles(text: &str) -> Vec<Segment> {
        let segs = split(text);
        let mut at = 0;
        for s in &segs {
            assert_eq!(s.start, at, "gap or overlap in {text:?}: {segs:?}");
            assert!(s.end > s.start);
            at = s.end;
        }
        assert_eq!(at, text.len(), "{text:?}: {segs:?}");
        assert_eq!(merge(text, &segs, &[]), text);
        segs
    }

    const DOC: &str = "# Title\n\nIntro.\n\n## Design\n\nUse a queue.\n\n```rust\nfn main() {}\n```\n\n### Storage\n\nRows.\n\n```sql\nSELECT 1;\n```\n\n## Alternatives\n\nNone.\n";

    #[test]
    fn detection_rules() {
        let t = |text: &str, hint: Option<&str>| detect(text, hint).target;
        assert_eq!(t("fn main() {}\n", Some("src/main.rs")), Target::Code);
        assert_eq!(t("diff --git a/x b/x\n", None), Target::Code);
        assert_eq!(
            t("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", None),
            Target::Code
        );
        assert_eq!(t("Fix:\n\n```\nx = 1\n```\n", None), Target::Code);
        assert_eq!(
            t("# Plan\n\n## Decision\n\nDo it.\n", None),
            Target::Proposal
        );
        assert_eq!(t(DOC, None), Target::Mixed);
        assert_eq!(t("Should we use Postgres?", None), Target::Proposal);
        assert_eq!(
            t("use std::io;\nfn main() {\n    let x = 1;\n}\n", None),
            Target::Code
        );
        assert_eq!(
            t("# Notes\n\nsee docs\n", Some("notes.md")),
            Target::Proposal
        );
    }

    #[test]
    fn near_misses() {
        // Backticks in inline code are not a fence; "Design:" in prose is not a heading;
        // "Redesign" is not the word "design".
        assert_eq!(detect("Use `a```b` here.", None).target, Target::Proposal);
        assert_eq!(
            detect("Design: we use a queue.\n", None).reasons,
            vec!["no code or proposal markers: plain text"]
        );
        assert!(!has_proposal_word("Redesigned widgets"));
        assert!(has_proposal_word("Trade-offs"));
        assert!(!looks_like_source("We met today.\nIt went well.\n"));
    }

    #[test]
    fn split_keeps_heading_paths_and_order() {
        let segs = assert_tiles(DOC);
        let code: Vec<_> = segs
            .iter()
            .filter(|s| s.kind == SegmentKind::Code)
            .collect();
        assert_eq!(code.len(), 2);
        assert_eq!(code[0].heading_path, ["Title", "Design"]);
        assert_eq!(code[0].lang.as_deref(), Some("rust"));
        assert_eq!(code[1].heading_path, ["Title", "Design", "Storage"]);
        assert!(DOC[code[1].start..code[1].end].starts_with("```sql"));
        let last = segs.last().unwrap();
        assert_eq!(last.heading_path, ["Title", "Alternatives"]);
    }

    #[test]
    fn merge_replaces_only_the_given_segment() {
        let segs = split(DOC);
        let i = segs
            .iter()
            .position(|s| s.kind == SegmentKind::Code)
            .unwrap();
        let mut reps = vec![None; segs.len()];
        reps[i] = Some("```rust\nfn main() { run(); }\n```\n".to_string());
        let merged = merge(DOC, &segs, &reps);
        assert!(merged.contains("run();"));
        assert_eq!(merged.replace("fn main() { run(); }", "fn main() {}"), DOC);
    }

    #[test]
    fn odd_inputs_tile_and_never_panic() {
        for text in [
            "",
            "   \n\n",
            "```",
            "~~~\ncode",
            "text\n```rust\nunclosed",
            "# only\n## headings\n",
            "Title\n=====\n\nSetext.\n\nSub\n---\n\n    indented code\n",
            "a\r\n```\r\nx\r\n```\r\nb\r\n",
            "<div>\nhtml\n</div>\n\n```\nx\n```\n",
            "- item\n\n  ```\n  nested\n  ```\n- two\n",
            "> quote\n> ```\n> x\n> ```\n",
            "é ü 中文\n\n```\nß\n```\n",
            "`",
        ] {
            if text.is_empty() {
                assert!(split(text).is_empty());
            } else {
                assert_tiles(text);
            }
            let _ = detect(text, None);
        }
    }
}
