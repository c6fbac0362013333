//! Secrets behind string escapes: `"Found:\nsk-ant-…"`, `"token:\tghp_…"`,
//! `"https:\/\/user:pw@host"`, `"{\"password\":\"…\"}"`.
//!
//! A JSON string (and a C, Go, Rust or JavaScript one) writes a newline as `\n`: the `n` runs
//! into the token after it, so no word boundary is left before `sk-ant-`, and `\/` hides the
//! `//` of a URL. So every line holding such an escape is decoded, all of a text's such lines
//! together into one view, the view is redacted as text, and each replaced part is mapped back
//! onto the escaped original. Whole lines, not the literals between quotes: quotes do not pair up
//! where a literal holds a document (a Rust `r#"{"msg":"…"}"#`), and a JSON document escaped in a
//! string reads as a document once decoded. A replaced part never leaves its line, so the text
//! keeps its lines, and a line keeps every escape the redaction did not touch.

use crate::redact::{run, Ctx, Redacted, MARK};

/// Escapes that hide what follows them from a rule reading the raw text: `/` (a URL's `//`),
/// `"` (a JSON document inside a string), `u` (an encoded character); `n`, `t` and `r` only
/// when a letter or digit follows (`\nsk-ant-…`: the `n` glues onto the token). A `\\` leaves a
/// backslash before what follows, a boundary already, so it is decoded along with the others
/// but never makes a line worth decoding on its own.
const HIDING: &[u8] = b"/\"u";
const GLUING: &[u8] = b"ntr";

/// One piece of a decoded line in the view: `d` (its place in the view) came from `o` (its
/// place in the original); a raw run maps byte for byte, an escape as a whole.
#[derive(Debug, Clone, Copy)]
struct Unit {
    d: usize,
    d_len: usize,
    o: usize,
    o_len: usize,
    raw: bool,
}

/// The decoded view of a text's lines with escapes.
#[derive(Debug, Default)]
struct View {
    text: String,
    /// Each decoded line's units, in order.
    lines: Vec<Vec<Unit>>,
}

/// Redacts what the escapes of `out.text` hide, in place; counts into `out`.
pub(super) fn redact_escaped(out: &mut Redacted, ctx: &Ctx) {
    if !might_hide(&out.text) {
        return;
    }
    let view = decode(&out.text);
    if view.lines.is_empty() {
        return;
    }
    let inner_ctx = ctx.for_escaped();
    let mut inner = Redacted {
        text: view.text.clone(),
        ..Default::default()
    };
    run(&mut inner, &inner_ctx);
    if inner.count == 0 {
        return;
    }
    let Some(spans) = replaced_spans(&view.text, &inner.text) else {
        // The redacted view does not line up with the view (never seen): hide every decoded
        // line whole, rather than let a secret through.
        return hide_lines(out, &view, &inner);
    };
    let mut edits = Vec::new();
    for (start, end, marker) in spans {
        for units in &view.lines {
            if let Some(range) = original_range(units, start, end) {
                edits.push((range.0, range.1, marker.clone()));
            }
        }
    }
    out.text = splice(&out.text, edits);
    out.absorb(&inner);
}

/// An escape somewhere in `text` that hides what follows it (see [`HIDING`], [`GLUING`]).
fn might_hide(text: &str) -> bool {
    let b = text.as_bytes();
    memchr_iter(b'\\', b).any(|i| match b.get(i + 1) {
        Some(c) if HIDING.contains(c) => true,
        Some(c) if GLUING.contains(c) => b.get(i + 2).is_some_and(u8::is_ascii_alphanumeric),
        _ => false,
    })
}

fn memchr_iter(needle: u8, hay: &[u8]) -> impl Iterator<Item = usize> + '_ {
    hay.iter()
        .enumerate()
        .filter(move |(_, &c)| c == needle)
        .map(|(i, _)| i)
}

/// The lines of `text` that hold an escape that hides, decoded into one view, a line a line.
fn decode(text: &str) -> View {
    let mut view = View::default();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        if might_hide(body) {
            decode_line(body, at, &mut view);
        }
        at += line.len();
    }
    view
}

/// Appends `inner` (a line of the text, at `base` in it), decoded, as a line of the view.
fn decode_line(inner: &str, base: usize, view: &mut View) {
    let mut units: Vec<Unit> = Vec::new();
    let b = inner.as_bytes();
    let mut i = 0;
    let mut run_start = 0;
    let push_raw = |units: &mut Vec<Unit>, view: &mut View, from: usize, to: usize| {
        if to > from {
            units.push(Unit {
                d: view.text.len(),
                d_len: to - from,
                o: base + from,
                o_len: to - from,
                raw: true,
            });
            view.text.push_str(&inner[from..to]);
        }
    };
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            i += 1;
            continue;
        }
        let (decoded, len) = escape_at(inner, i);
        push_raw(&mut units, view, run_start, i);
        units.push(Unit {
            d: view.text.len(),
            d_len: decoded.len(),
            o: base + i,
            o_len: len,
            raw: false,
        });
        view.text.push_str(&decoded);
        i += len;
        run_start = i;
    }
    push_raw(&mut units, view, run_start, b.len());
    view.text.push('\n');
    view.lines.push(units);
}

/// The escape at `i` of `s` (a backslash there): what it stands for and how long it is.
fn escape_at(s: &str, i: usize) -> (String, usize) {
    let b = s.as_bytes();
    match b[i + 1] {
        // A carriage return ends a line as a newline does.
        b'n' | b'r' => ("\n".into(), 2),
        b't' => ("\t".into(), 2),
        b'/' => ("/".into(), 2),
        b'"' => ("\"".into(), 2),
        b'\\' => ("\\".into(), 2),
        b'u' => match unicode_at(s, i) {
            Some((c, len)) => (c.to_string(), len),
            None => (s[i..i + 2].to_string(), 2),
        },
        _ => {
            // Any other escape stands for itself (`\d` in a pattern, `\x41`).
            let next = s[i + 1..].chars().next().map_or(1, char::len_utf8);
            (s[i..i + 1 + next].to_string(), 1 + next)
        }
    }
}

/// `\uXXXX` at `i`, or a surrogate pair `\uD83D\uDE00`: the character and the escape's length.
fn unicode_at(s: &str, i: usize) -> Option<(char, usize)> {
    let hex = |at: usize| -> Option<u32> {
        let h = s.get(at + 2..at + 6)?;
        u32::from_str_radix(h, 16).ok()
    };
    let hi = hex(i)?;
    if (0xD800..0xDC00).contains(&hi) && s.get(i + 6..i + 8) == Some("\\u") {
        let lo = hex(i + 6)?;
        let c = 0x10000 + ((hi - 0xD800) << 10) + (lo.checked_sub(0xDC00)? & 0x3FF);
        return char::from_u32(c).map(|c| (c, 12));
    }
    char::from_u32(hi).map(|c| (c, 6))
}

/// The spans of `before` that `after` replaced by markers, with each span's marker: `after` is
/// `before` with spans replaced, so the text between its markers is found in `before`, in order.
/// `None` when it is not.
fn replaced_spans(before: &str, after: &str) -> Option<Vec<(usize, usize, String)>> {
    let mut pieces = Vec::new();
    let mut markers = Vec::new();
    let mut rest = after;
    while let Some(at) = rest.find(MARK) {
        let close = rest[at..].find(']')? + at + 1;
        pieces.push(&rest[..at]);
        markers.push(rest[at..close].to_string());
        rest = &rest[close..];
    }
    pieces.push(rest);
    let first = pieces[0];
    if !before.starts_with(first) {
        return None;
    }
    let mut pos = first.len();
    let mut spans = Vec::new();
    for (k, piece) in pieces.iter().enumerate().skip(1) {
        // A replaced span is never empty: its piece starts at least one character on.
        let from = pos + before[pos..].chars().next()?.len_utf8();
        let at = if k + 1 == pieces.len() {
            let at = before.len().checked_sub(piece.len())?;
            (at >= from && before.ends_with(piece)).then_some(at)?
        } else {
            before[from..].find(piece)? + from
        };
        spans.push((pos, at, markers[k - 1].clone()));
        pos = at + piece.len();
    }
    Some(spans)
}

/// The part of the original that the view's span `start..end` covers within one decoded line.
fn original_range(units: &[Unit], start: usize, end: usize) -> Option<(usize, usize)> {
    let first = units.first()?;
    let last = units.last()?;
    let (lo, hi) = (start.max(first.d), end.min(last.d + last.d_len));
    if lo >= hi {
        return None;
    }
    let at = |x: usize, closing: bool| -> usize {
        let u = units
            .iter()
            .find(|u| x < u.d + u.d_len || (closing && x == u.d + u.d_len))
            .unwrap_or(last);
        match (u.raw, closing) {
            (true, _) => u.o + (x - u.d).min(u.o_len),
            (false, false) => u.o,
            (false, true) => u.o + u.o_len,
        }
    };
    Some((at(lo, false), at(hi, true)))
}

/// `text` with each `(start, end, marker)` range replaced (ranges sorted; an overlapping one is
/// merged into the one before it).
fn splice(text: &str, mut edits: Vec<(usize, usize, String)>) -> String {
    edits.sort_by_key(|e| (e.0, e.1));
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for (start, end, marker) in edits {
        if start < pos {
            continue;
        }
        out.push_str(&text[pos..start]);
        out.push_str(&marker);
        pos = end;
    }
    out.push_str(&text[pos..]);
    out
}

/// Every decoded line hidden whole, under the first kind the view's redaction found.
fn hide_lines(out: &mut Redacted, view: &View, inner: &Redacted) {
    let kind = inner.kinds.keys().next().copied().unwrap_or("secret");
    let edits = view
        .lines
        .iter()
        .filter_map(|units| Some((units.first()?.o, units.last()?, kind)))
        .map(|(o, last, kind)| (o, last.o + last.o_len, crate::redact::marker(kind)))
        .collect();
    out.text = splice(&out.text, edits);
    out.absorb(inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_line_up_between_markers() {
        let s = replaced_spans("a secret here", "a [REDACTED:x] here").unwrap();
        assert_eq!(s, vec![(2, 8, "[REDACTED:x]".to_string())]);
        let s = replaced_spans("k1\nk2\n", "[REDACTED:p]\n[REDACTED:p]\n").unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].0, s[0].1, s[1].0, s[1].1), (0, 2, 3, 5));
        assert!(replaced_spans("abc", "xyz").is_none());
    }

    #[test]
    fn escapes_decode_and_map_back() {
        let text = "{\"a\":\"x\\ny\",\"b\":\"https:\\/\\/u:p@h\"}\nplain\n\"\\u0041\"";
        let v = decode(text);
        assert_eq!(v.text, "{\"a\":\"x\ny\",\"b\":\"https://u:p@h\"}\n\"A\"\n");
        assert_eq!(v.lines.len(), 2);
        // `y` (after the `\n`) maps back to itself, the URL to its escaped form.
        let line = &v.lines[0];
        assert_eq!(original_range(line, 8, 9), Some((9, 10)));
        let (s, e) = original_range(line, 16, 29).unwrap();
        assert_eq!(&text[s..e], r"https:\/\/u:p@h");
    }
}
