//! What a finding's lead line says (its severity, its title, whether a label introduced it), and
//! the markup clean-ups its title and the rest of a finding's text go through.
//!
//! Two readers make a [`Lead`]: Conventional Comments labels ([`crate::answer::conventional`])
//! and severity markers ([`crate::answer::markers`], which tries the labels first). Both, and the
//! finding readers above them, clean text the same way, so the type and the clean-ups sit below
//! them all.

use std::sync::OnceLock;

use crate::answer::re;
use crate::answer::vocab::Strength;
use crate::findings::Severity;
use crate::pattern::Pattern;

/// What the lead line says about severity, and the title without markers.
#[derive(Debug, Clone, PartialEq)]
pub struct Lead {
    pub severity: Option<(Severity, Strength)>,
    pub title: String,
    /// It opened with a finding label (`Bug:`, `Issue 3:`, `logic:`) or introduced one in prose
    /// ("Looks good, except one nit: …", "One minor thing: …").
    pub labelled: bool,
    /// A comment that by its label raises nothing (Conventional Comments' `praise:`,
    /// `question:`).
    pub remark: bool,
}

/// HTML tags removed, their text kept.
pub fn strip_tags(s: &str) -> String {
    static TAG: OnceLock<Pattern> = OnceLock::new();
    re(&TAG, r"</?[A-Za-z][^>]*>")
        .replace_all(s, "")
        .into_owned()
}

/// Markdown emphasis, code ticks and tags removed. What is quoted as code keeps its underscores
/// and stars (`clients/__init__.py`, `**kwargs`).
pub fn plain(s: &str) -> String {
    without_emphasis(&strip_tags(s))
        .replace('`', "")
        .trim()
        .to_string()
}

/// `**` and `__` removed outside code spans; the code spans, ticks included, kept as written.
pub fn without_emphasis(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    // Odd parts are inside backticks (an unclosed tick quotes nothing).
    let parts: Vec<&str> = s.split('`').collect();
    let closed = parts.len() % 2 == 1;
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push('`');
        }
        if i % 2 == 1 && closed {
            out.push_str(part);
        } else {
            out.push_str(&part.replace("**", "").replace("__", ""));
        }
    }
    out
}
