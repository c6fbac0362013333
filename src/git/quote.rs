//! Paths written the way git writes them in a diff, and named without loss.
//!
//! A file name may hold a newline, a tab, a quote or a backslash. Printed raw, a newline splits
//! the `diff --git` line in two and a model (or a patch tool) reads a different file; git instead
//! puts such a path in double quotes with C escapes (other control bytes as three-digit octal),
//! the prefix (`a/`, `b/`) inside the quotes. So do we, byte for byte. Letters outside ASCII stay
//! as they are, as git shows them with `core.quotePath = false`: a model reads `café.md` and
//! cites it back as such, where `"caf\303\251.md"` would be cited as a name no file has.
//!
//! A name whose bytes are not UTF-8 cannot be shown raw in a UTF-8 artifact, and a lossy
//! conversion would make U+FFFD stand for any invalid byte (two files could become one). Such a
//! name is kept in git's default quoted form (`"caf\351.md"`, every byte above 0x7f in octal),
//! exactly as `git diff` prints it, in the file list, the headers, the metadata and locations
//! alike. [`name_of`] is one-to-one (a raw name never starts with a quote; a quoted one always
//! does), and [`path_bytes`] turns a name back into the bytes on disk.

use std::borrow::Cow;

/// The name a change gives the path `bytes` (see the module documentation).
pub fn name_of(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) if !s.starts_with('"') => s.to_string(),
        Ok(s) => quoted("", s.bytes(), false),
        Err(_) => quoted("", bytes.iter().copied(), true),
    }
}

/// The bytes of the path a change calls `name` ([`name_of`] undone).
pub fn path_bytes(name: &str) -> Cow<'_, [u8]> {
    let Some(inner) = name
        .strip_prefix('"')
        .and_then(|n| n.strip_suffix('"'))
        .filter(|_| name.len() >= 2)
    else {
        return Cow::Borrowed(name.as_bytes());
    };
    let mut out = Vec::with_capacity(inner.len());
    let mut bytes = inner.bytes().peekable();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let Some(e) = bytes.next() else {
            out.push(b'\\');
            break;
        };
        out.push(match e {
            b'a' => 7,
            b'b' => 8,
            b't' => b'\t',
            b'n' => b'\n',
            b'v' => 0x0b,
            b'f' => 0x0c,
            b'r' => b'\r',
            b'0'..=b'3' => {
                let mut v = u32::from(e - b'0');
                for _ in 0..2 {
                    if let Some(d) = bytes.next_if(|d| (b'0'..=b'7').contains(d)) {
                        v = v * 8 + u32::from(d - b'0');
                    }
                }
                v as u8
            }
            other => other,
        });
    }
    Cow::Owned(out)
}

/// `prefix` + `path`, quoted as git quotes it when it must be.
pub fn quote_path(prefix: &str, path: &str) -> String {
    // Already in quoted form (see `name_of`): the prefix goes inside the quotes.
    if let Some(rest) = path.strip_prefix('"') {
        return format!("\"{prefix}{rest}");
    }
    if !path.bytes().any(needs_escape) {
        return format!("{prefix}{path}");
    }
    quoted(prefix, path.bytes(), false)
}

fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\' || b == 0x7f
}

/// `"prefix…"` with git's C escapes; `high` also escapes every byte above 0x7f (git's default
/// `core.quotePath`), which a name that is not UTF-8 needs.
fn quoted(prefix: &str, bytes: impl Iterator<Item = u8>, high: bool) -> String {
    let mut out = Vec::with_capacity(prefix.len() + 16);
    out.push(b'"');
    out.extend_from_slice(prefix.as_bytes());
    for b in bytes {
        match b {
            7 => out.extend_from_slice(b"\\a"),
            8 => out.extend_from_slice(b"\\b"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            0x0b => out.extend_from_slice(b"\\v"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b if needs_escape(b) || (high && b > 0x7f) => {
                out.extend_from_slice(format!("\\{b:03o}").as_bytes());
            }
            b => out.push(b),
        }
    }
    out.push(b'"');
    // Only ASCII was added, and raw bytes above 0x7f come from valid UTF-8 (`high` is set
    // otherwise), so this is UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
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

    #[test]
    fn names_that_are_not_utf8_are_quoted_as_git_does_and_never_collapse() {
        let latin1 = name_of(b"caf\xe9.md");
        assert_eq!(latin1, "\"caf\\351.md\"");
        assert_eq!(quote_path("a/", &latin1), "\"a/caf\\351.md\"");
        assert_ne!(name_of(b"caf\xe8.md"), latin1);
        // A UTF-8 name that looks like a quoted one is quoted itself, so the two stay apart.
        let lookalike = name_of(b"\"caf\\351.md\"");
        assert_ne!(lookalike, latin1);
        for bytes in [
            &b"caf\xe9.md"[..],
            b"\"caf\\351.md\"",
            b"plain.rs",
            b"\"",
            b"tab\tand \xff\x00end",
            "caf\u{e9}.md".as_bytes(),
        ] {
            assert_eq!(&*path_bytes(&name_of(bytes)), bytes, "{bytes:?}");
        }
    }
}
