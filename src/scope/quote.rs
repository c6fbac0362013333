//! Paths written the way git writes them in a diff.
//!
//! A file name may hold a newline, a tab, a quote or a backslash. Printed raw, a newline splits
//! the `diff --git` line in two and a model (or a patch tool) reads a different file; git instead
//! puts such a path in double quotes with C escapes (other control bytes as three-digit octal),
//! the prefix (`a/`, `b/`) inside the quotes. So do we, byte for byte. Letters outside ASCII stay
//! as they are, as git shows them with `core.quotePath = false`: a model reads `café.md` and
//! cites it back as such, where `"caf\303\251.md"` would be cited as a name no file has.

/// `prefix` + `path`, quoted as git quotes it when it must be.
pub fn quote_path(prefix: &str, path: &str) -> String {
    let needs = |b: u8| b < 0x20 || b == b'"' || b == b'\\' || b == 0x7f;
    if !path.bytes().any(needs) {
        return format!("{prefix}{path}");
    }
    let mut out = String::with_capacity(path.len() + prefix.len() + 8);
    out.push('"');
    out.push_str(prefix);
    for c in path.chars() {
        match c {
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{b}' => out.push_str("\\v"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_ascii() && needs(c as u8) => out.push_str(&format!("\\{:03o}", c as u8)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_stay_plain_and_others_are_quoted_like_git() {
        assert_eq!(quote_path("a/", "src/lib.rs"), "a/src/lib.rs");
        assert_eq!(quote_path("b/", "new\nline.txt"), "\"b/new\\nline.txt\"");
        assert_eq!(quote_path("", "tab\there"), "\"tab\\there\"");
        assert_eq!(quote_path("a/", "caf\u{e9}.md"), "a/caf\u{e9}.md");
        assert_eq!(quote_path("a/", "caf\u{e9}\n.md"), "\"a/caf\u{e9}\\n.md\"");
        assert_eq!(quote_path("", "bell\u{7}esc\u{1b}"), "\"bell\\aesc\\033\"");
        assert_eq!(quote_path("", "say \"hi\"\\"), "\"say \\\"hi\\\"\\\\\"");
        assert_eq!(quote_path("", "del\u{7f}"), "\"del\\177\"");
    }
}
