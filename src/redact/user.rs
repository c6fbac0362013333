//! The user's own token formats, from the file `debate.redact.rules` names in the user's own
//! configuration (never a committed `.gitdebate`: a cloned repository does not choose which
//! local file we read). They add to the built-in table, which always runs.
//!
//! The file is TOML in the shape gitleaks' configuration uses, read for what a rule needs:
//!
//! ```toml
//! [[rule]]                     # or [[rules]]
//! id = "acme-token"            # the marker's kind: [REDACTED:acme-token]
//! regex = '''acme_[a-z0-9]{32}'''
//! keywords = ["acme_"]         # optional: literals one of which every match holds
//! ```
//!
//! A `secret` capture group, when the pattern has one, is what is replaced; else the whole
//! match. Other keys (`description`, `tags`, ...) are ignored; any other syntax is an error that
//! names its line.

use std::path::Path;
use std::sync::OnceLock;

use anyhow::{bail, Context as _, Result};
use regex::Regex;

use crate::redact::engine::RuleSet;
use crate::redact::rules::{Check, Rule};
use crate::redact::{apply as apply_rules, placeholder, Ctx, Redacted};

/// The rules of the run's rules file, once read.
static USER: OnceLock<RuleSet> = OnceLock::new();
/// That file's text, so what was redacted under it can be told from what was not (the
/// reviewer's export cache keys its entries by it).
static USER_TEXT: OnceLock<String> = OnceLock::new();

/// The text of the rules file in use, empty when there is none.
pub fn rules_text() -> &'static str {
    USER_TEXT.get().map_or("", String::as_str)
}

/// Reads the rules file at `path` (none: nothing to add) for every redaction of this process.
/// A second call keeps the first file's rules.
pub fn use_rules_file(path: Option<&Path>) -> Result<()> {
    let Some(path) = path else {
        return Ok(());
    };
    if USER.get().is_some() {
        return Ok(());
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read debate.redact.rules {}", path.display()))?;
    let rules =
        parse(&text).with_context(|| format!("in debate.redact.rules {}", path.display()))?;
    let _ = USER.set(RuleSet::new(&[&rules]));
    let _ = USER_TEXT.set(text);
    Ok(())
}

/// The user's rules over `out.text`, as token formats.
pub(super) fn apply(out: &mut Redacted, ctx: &Ctx) {
    if let Some(set) = USER.get() {
        let candidates = set.candidates(&out.text, ctx.path);
        apply_rules(out, ctx, set, &candidates, 0, |v| !placeholder(v));
    }
}

/// One `[[rule]]` table as read so far.
#[derive(Default)]
struct Table {
    line: usize,
    id: Option<String>,
    regex: Option<String>,
    keywords: Vec<String>,
}

/// The rules of a rules file; each pattern compiled once here, so a bad one fails the run at its
/// start rather than at the first text.
fn parse(text: &str) -> Result<Vec<Rule>> {
    let mut tables: Vec<Table> = Vec::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line == "[[rule]]" || line == "[[rules]]" {
            tables.push(Table {
                line: n + 1,
                ..Default::default()
            });
            continue;
        }
        if line.starts_with('[') {
            bail!("line {}: only [[rule]] tables are read, not {line}", n + 1);
        }
        let Some((key, value)) = line.split_once('=') else {
            bail!("line {}: expected key = value", n + 1);
        };
        let Some(table) = tables.last_mut() else {
            bail!("line {}: {} before any [[rule]]", n + 1, key.trim());
        };
        let mut value = value.trim().to_string();
        // A multi-line literal (`'''…'''`) or basic (`"""…"""`) string goes on until it closes.
        for q in ["'''", "\"\"\""] {
            while value.starts_with(q) && (value.len() < 6 || !value[3..].contains(q)) {
                let Some((_, next)) = lines.next() else {
                    bail!("line {}: {q} string not closed", n + 1);
                };
                value.push('\n');
                value.push_str(next);
            }
        }
        match key.trim() {
            "id" => table.id = Some(crate::toml_lite::string(&value, n + 1)?),
            "regex" => table.regex = Some(crate::toml_lite::string(&value, n + 1)?),
            "keywords" => table.keywords = crate::toml_lite::strings(&value, n + 1)?,
            _ => {}
        }
    }
    tables.into_iter().map(rule).collect()
}

fn rule(t: Table) -> Result<Rule> {
    let id = t.id.unwrap_or_else(|| "custom".into());
    if id.is_empty()
        || !id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    {
        bail!(
            "rule at line {}: id {id:?} is not a plain name (letters, digits, - _ .)",
            t.line
        );
    }
    let Some(regex) = t.regex else {
        bail!("rule {id} (line {}): no regex", t.line);
    };
    Regex::new(&regex).with_context(|| format!("rule {id} (line {}): bad regex", t.line))?;
    // Read once per process and kept for its life: the tables' `&'static str`s.
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let needles: Vec<&'static str> = t.keywords.into_iter().map(leak).collect();
    Ok(Rule {
        kind: leak(id),
        pattern: leak(regex),
        needles: Box::leak(needles.into_boxed_slice()),
        distinctive: true,
        check: Check::Shape,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gitleaks_shaped_file_is_read() {
        let rules = parse(
            "# ours\n[[rule]]\nid = \"acme-token\"\ndescription = \"ignored\"\nregex = '''acme_(?P<secret>[a-z0-9]{8})'''\nkeywords = [\"acme_\"]\n\n[[rules]]\nid = 'multi'\nregex = '''\nzz[0-9]{4}'''\n",
        )
        .unwrap();
        assert_eq!(rules.len(), 2);
        assert_eq!(rules[0].kind, "acme-token");
        assert_eq!(rules[0].pattern, "acme_(?P<secret>[a-z0-9]{8})");
        assert_eq!(rules[0].needles, ["acme_"]);
        assert_eq!(rules[1].pattern, "zz[0-9]{4}");
    }

    #[test]
    fn a_bad_file_says_where() {
        for (text, says) in [
            ("[[rule]]\nid = \"x\"\nregex = \"(unclosed\"\n", "bad regex"),
            ("[[rule]]\nid = \"x\"\n", "no regex"),
            (
                "[[rule]]\nid = \"a]b\"\nregex = \"x\"\n",
                "not a plain name",
            ),
            ("[allowlist]\n", "line 1"),
            ("id = \"x\"\n", "before any [[rule]]"),
        ] {
            let e = format!("{:#}", parse(text).unwrap_err());
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}
