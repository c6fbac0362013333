//! XML-shaped answers (`<review><issues><issue severity="major" file="…">…`), which models
//! prompted with XML tags often give back, as the JSON value the review reader already knows:
//! attributes and child elements become keys, a list wrapper (`<issues>` of `<issue>`s) an
//! array, an element with only text a string. Tolerant, not validating: unclosed elements end
//! with their parent, and HTML is left to the markdown reader.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::pattern::Pattern;

/// Tags that make a text HTML, not a review in XML.
const HTML_TAGS: &[&str] = &[
    "html",
    "body",
    "div",
    "p",
    "table",
    "details",
    "summary",
    "h1",
    "h2",
    "h3",
    "h4",
    "ul",
    "ol",
    "li",
    "br",
    "img",
    "a",
    "span",
    "code",
    "pre",
    "strong",
    "em",
    "b",
    "i",
    "sup",
    "sub",
    "hr",
    "blockquote",
    "tr",
    "td",
    "th",
    "thead",
    "tbody",
];

/// How deep elements nest at most; deeper tags are leaves.
const MAX_DEPTH: usize = 64;

#[derive(Default)]
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
    children: Vec<Element>,
    text: String,
}

/// The review in an XML-shaped answer, if the text opens with a non-HTML element.
/// The elements of a text that has words before them (instructions, then `<file>` elements):
/// read from the first element that is closed somewhere, wrapped in one root so that sibling
/// elements are all kept.
pub fn value_within(text: &str) -> Option<Value> {
    static OPEN: Pattern = Pattern::new(r"<([A-Za-z][\w:.-]*)[\s>]");
    let start = OPEN
        .captures_iter(text)
        .find(|c| text.contains(&format!("</{}>", &c[1])))?
        .get(0)?
        .start();
    value(&format!("<elements>{}</elements>", &text[start..]))
}

pub fn value(text: &str) -> Option<Value> {
    static TAG: Pattern = Pattern::new(r"<(/?)([A-Za-z][\w:.-]*)((?:\s+[^>]*?)?)(/?)>");
    static ATTR: Pattern = Pattern::new(r#"([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')"#);
    let (tag, attr) = (&TAG, &ATTR);
    let t = text.trim_start();
    let first = tag
        .captures(t)
        .filter(|c| c.get(0).is_some_and(|m| m.start() == 0))?;
    if HTML_TAGS.contains(&first[2].to_ascii_lowercase().as_str()) || !first[1].is_empty() {
        return None;
    }
    // Only elements that are closed somewhere are opened (an unclosed `<T>` in prose, say
    // `Vec<T>`, is a leaf), and no deeper than MAX_DEPTH: the tree stays shallow whatever a
    // model writes.
    let closed: HashSet<&str> = tag
        .captures_iter(t)
        .filter(|c| !c[1].is_empty())
        .map(|c| c.get(2).expect("name").as_str())
        .collect();
    let mut stack: Vec<Element> = vec![Element::default()];
    let mut at = 0;
    for c in tag.captures_iter(t) {
        let m = c.get(0).expect("match");
        push_text(stack.last_mut().expect("root"), &t[at..m.start()]);
        at = m.end();
        let name = c[2].to_string();
        if !c[1].is_empty() {
            // A closing tag closes up to its element (unclosed ones inside end with it).
            if let Some(depth) = stack.iter().rposition(|e| e.name == name) {
                while stack.len() > depth.max(1) {
                    let done = stack.pop().expect("non-empty");
                    stack.last_mut().expect("root").children.push(done);
                }
            }
            continue;
        }
        let attrs = attr
            .captures_iter(&c[3])
            .map(|a| {
                let v = a.get(2).or(a.get(3)).map_or("", |x| x.as_str());
                (a[1].to_string(), unescape(v))
            })
            .collect();
        let e = Element {
            name,
            attrs,
            ..Element::default()
        };
        if c[4].is_empty() && closed.contains(&c[2]) && stack.len() <= MAX_DEPTH {
            stack.push(e);
        } else {
            stack.last_mut().expect("root").children.push(e);
        }
    }
    while stack.len() > 1 {
        let done = stack.pop().expect("non-empty");
        stack.last_mut().expect("root").children.push(done);
    }
    let root = stack.pop()?.children.into_iter().next()?;
    let mut top = Map::new();
    top.insert(root.name.clone(), to_value(&root));
    Some(Value::Object(top))
}

fn push_text(e: &mut Element, s: &str) {
    let s = s.trim();
    if !s.is_empty() {
        if !e.text.is_empty() {
            e.text.push(' ');
        }
        e.text.push_str(&unescape(s));
    }
}

fn to_value(e: &Element) -> Value {
    if e.children.is_empty() && e.attrs.is_empty() {
        return Value::String(e.text.clone());
    }
    // A list wrapper: `<issues>` holding only `<issue>`s (one of them is still a list; one
    // `<issues>` in a `<review>` is not).
    let same = e.children.iter().all(|c| c.name == e.children[0].name);
    let list = match e.children.as_slice() {
        [] => false,
        [one] => e.name != one.name && e.name.starts_with(&one.name),
        _ => same,
    };
    if e.attrs.is_empty() && e.text.is_empty() && list {
        return Value::Array(e.children.iter().map(to_value).collect());
    }
    let mut o = Map::new();
    for (k, v) in &e.attrs {
        o.insert(k.clone(), Value::String(v.clone()));
    }
    let mut count: HashMap<&str, usize> = HashMap::new();
    for c in &e.children {
        *count.entry(c.name.as_str()).or_default() += 1;
    }
    for c in &e.children {
        let v = to_value(c);
        let many = count[c.name.as_str()] > 1;
        match o.get_mut(&c.name) {
            Some(Value::Array(a)) if many => a.push(v),
            Some(_) => {}
            None => {
                o.insert(c.name.clone(), if many { Value::Array(vec![v]) } else { v });
            }
        }
    }
    if !e.text.is_empty() {
        o.insert("text".into(), Value::String(e.text.clone()));
    }
    Value::Object(o)
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_in_tags_is_a_value_and_html_is_not() {
        let v = value(
            "<review>\n<summary>ok</summary>\n<issues>\n<issue severity=\"major\" file=\"a.ts\" \
lines=\"3-4\"><title>Stale</title><explanation>uses `a &amp; b`</explanation></issue>\n\
<issue severity=\"nit\" file=\"b.ts\"><title>Name</title></issue>\n</issues>\n\
<verdict>request_changes</verdict>\n</review>",
        )
        .unwrap();
        let issues = &v["review"]["issues"];
        assert_eq!(issues.as_array().unwrap().len(), 2);
        assert_eq!(issues[0]["severity"], "major");
        assert_eq!(issues[0]["explanation"], "uses `a & b`");
        assert_eq!(v["review"]["verdict"], "request_changes");
        let one = value(
            "<review><issues><issue severity=\"major\" file=\"a.rs\" line=\"2\">\
<title>x</title></issue></issues></review>",
        )
        .unwrap();
        assert_eq!(one["review"]["issues"][0]["line"], "2");
        assert_eq!(value("<h2>Review</h2><p>LGTM</p>"), None);
        assert_eq!(value("Here is my review: <b>LGTM</b>"), None);
        // Unclosed tags in prose stay leaves, however many: no deep tree, no slow reading.
        let many = format!("<review>{}</review>", "a Vec<T> and ".repeat(100_000));
        let v = value(&many).unwrap();
        assert!(v["review"].is_object());
        let deep = format!(
            "<review>{}</review>",
            "<x>".repeat(10_000) + &"</x>".repeat(10_000)
        );
        assert!(value(&deep).is_some());
        let wide = format!(
            "<review><summary>s</summary>{}</review>",
            "<issue><title>t</title></issue>".repeat(20_000)
        );
        assert_eq!(
            value(&wide).unwrap()["review"]["issue"]
                .as_array()
                .unwrap()
                .len(),
            20_000
        );
    }
}
