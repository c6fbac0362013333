use super::*;

fn kinds(doc: &Doc) -> Vec<&Kind> {
    doc.blocks.iter().map(|b| &b.kind).collect()
}

#[test]
fn headings_paragraphs_lists_and_nesting() {
    let text = "# Review\n\nSome *text*\nand `code`.\n\n- one\n  - nested\n2. x\n";
    let doc = Doc::parse(text);
    let k = kinds(&doc);
    assert_eq!(
        k[0],
        &Kind::Heading {
            level: 1,
            text: "Review".into()
        }
    );
    assert_eq!(
        k[1],
        &Kind::Paragraph {
            text: "Some text\nand code.".into()
        }
    );
    let nested = doc
        .blocks
        .iter()
        .find(|b| {
            b.kind
                == Kind::Paragraph {
                    text: "nested".into(),
                }
        })
        .unwrap();
    // list > item > list > item > paragraph
    assert_eq!(nested.depth, 4);
    let item = nested.parent.unwrap();
    assert_eq!(doc.blocks[item].kind, Kind::Item);
    assert_eq!(&text[doc.blocks[0].span.clone()], "# Review\n");
    assert!(doc
        .blocks
        .iter()
        .any(|b| b.kind == Kind::List { ordered: true }));
}

#[test]
fn every_kind_of_fence_and_indented_code() {
    let text = "a\n\n~~~json\n{\"x\": 1}\n~~~\n\n````markdown\n```rust\nfn f() {}\n```\n````\n\n    indented\n\n> ```diff\n> - a\n> ```\n";
    let doc = Doc::parse(text);
    let code: Vec<&Code> = doc.code().map(|(_, c)| c).collect();
    assert_eq!(code.len(), 4);
    assert_eq!(code[0].fence, Some(('~', 3)));
    assert_eq!(code[0].lang(), "json");
    assert_eq!(code[0].body, "{\"x\": 1}\n");
    assert_eq!(code[1].fence, Some(('`', 4)));
    assert_eq!(code[1].body, "```rust\nfn f() {}\n```\n");
    assert_eq!(code[2].fence, None);
    assert_eq!(code[2].body, "indented\n");
    assert_eq!(code[3].fence, Some(('`', 3)));
    assert_eq!(code[3].body, "- a\n");
    assert_eq!(doc.fenced().count(), 3);
}

#[test]
fn tables_html_quotes_and_rules() {
    let text = "| a | b |\n|---|---|\n| `x\\|y` | 2 |\n\n<div>\nraw\n</div>\n\n> quoted\n\n---\n";
    let doc = Doc::parse(text);
    let table = doc
        .blocks
        .iter()
        .find_map(|b| match &b.kind {
            Kind::Table { rows } => Some(rows.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(table[0], ["a", "b"]);
    assert_eq!(table[1][1], "2");
    assert!(doc
        .blocks
        .iter()
        .any(|b| matches!(&b.kind, Kind::Html { text } if text.contains("raw"))));
    assert!(doc.blocks.iter().any(|b| b.kind == Kind::Quote));
    assert!(doc.blocks.iter().any(|b| b.kind == Kind::Rule));
}

#[test]
fn markdown_inside_html_when_read_mixed() {
    // CommonMark keeps the fence inside the `<details>` HTML block; a reader of the rendered
    // review sees a code block.
    let text = "<details>\n<summary>Fix</summary>\n```suggestion\nlet x = 1;\n```\n</details>\n";
    assert_eq!(Doc::parse(text).code().count(), 0);
    let doc = Doc::parse_mixed(text);
    let (b, c) = doc.code().next().unwrap();
    assert_eq!(c.info, "suggestion");
    assert_eq!(c.body, "let x = 1;\n");
    assert!(text[b.span.clone()].starts_with("```suggestion"));
    let html: Vec<&str> = doc
        .blocks
        .iter()
        .filter_map(|b| match &b.kind {
            Kind::Html { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(html, ["<details>", "<summary>Fix</summary>", "</details>"]);
    // A tag inside code stays code.
    let text = "```html\n<div>\n```\n";
    let doc = Doc::parse_mixed(text);
    assert_eq!(doc.code().next().unwrap().1.body, "<div>\n");
    assert_eq!(doc.blocks.len(), 1);
}

#[test]
fn fenced_lines_in_quotes_and_at_any_length() {
    let text = "a\n````markdown\n```rust\nlet x = 1;\n```\nstill code\n````\nb\n~~~\nc\n~~~\n> ```json\n> {}\n> ```\nd";
    let prose: Vec<&str> = fenced_lines(text)
        .into_iter()
        .filter(|(_, code)| !code)
        .map(|(l, _)| l)
        .collect();
    assert_eq!(prose, ["a", "b", "d"]);
}
