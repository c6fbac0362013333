//! The globs that say which files an instruction applies to (`applyTo:` in
//! `.github/instructions/*.instructions.md`, `[debate "path:<glob>"]`), and the front matter
//! those files carry them in.
//!
//! The syntax is the one those tools document: `**` is any number of folders (none too), `*`
//! and `?` stay within one name, `{a,b}` is either; a glob without a `/` matches a file's name
//! in any folder, as in `.gitignore`. A list is comma separated.

use regex::Regex;

/// One glob, compiled.
#[derive(Debug, Clone)]
pub struct Glob {
    re: Regex,
}

impl Glob {
    /// `None` for a glob that cannot be read (an unclosed `{`).
    pub fn new(glob: &str) -> Option<Glob> {
        let glob = glob.trim().trim_start_matches("./").trim_start_matches('/');
        if glob.is_empty() {
            return None;
        }
        let anywhere = !glob.contains('/');
        let mut re = String::from(if anywhere { "^(?:.*/)?" } else { "^" });
        let chars: Vec<char> = glob.chars().collect();
        let mut i = 0;
        let mut braces = 0;
        while i < chars.len() {
            match chars[i] {
                '*' if chars.get(i + 1) == Some(&'*') => {
                    // `**/` is any folders, none too; a trailing `**` is anything below.
                    if chars.get(i + 2) == Some(&'/') {
                        re.push_str("(?:.*/)?");
                        i += 3;
                    } else {
                        re.push_str(".*");
                        i += 2;
                    }
                    continue;
                }
                '*' => re.push_str("[^/]*"),
                '?' => re.push_str("[^/]"),
                '{' => {
                    braces += 1;
                    re.push_str("(?:");
                }
                '}' if braces > 0 => {
                    braces -= 1;
                    re.push(')');
                }
                ',' if braces > 0 => re.push('|'),
                c => re.push_str(&regex::escape(&c.to_string())),
            }
            i += 1;
        }
        if braces > 0 {
            return None;
        }
        // A folder's glob (`src/db`) covers what is in it.
        re.push_str("(?:/.*)?$");
        Regex::new(&re).ok().map(|re| Glob { re })
    }

    pub fn matches(&self, path: &str) -> bool {
        self.re.is_match(path)
    }
}

/// A comma-separated list of globs (commas inside `{}` belong to the glob).
pub fn list(globs: &str) -> Vec<Glob> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in globs.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.extend(Glob::new(&globs[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    out.extend(Glob::new(&globs[start..]));
    out
}

/// A file's `---` front matter split off: its `applyTo` value (quotes removed), and the body.
pub fn front_matter(text: &str) -> (Option<String>, &str) {
    let Some(rest) = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
    else {
        return (None, text);
    };
    let Some(end) = rest
        .find("\n---\n")
        .map(|e| (e, e + 5))
        .or_else(|| rest.find("\n---\r\n").map(|e| (e, e + 6)))
        .or_else(|| rest.strip_suffix("\n---").map(|r| (r.len(), rest.len())))
    else {
        return (None, text);
    };
    let apply_to = rest[..end.0].lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == "applyTo").then(|| {
            let v = v.trim();
            v.trim_matches(|c| c == '"' || c == '\'').to_string()
        })
    });
    (apply_to, &rest[end.1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(glob: &str, path: &str) -> bool {
        Glob::new(glob).unwrap().matches(path)
    }

    #[test]
    fn globs_match_as_the_tools_document() {
        assert!(m("src/db/**", "src/db/pool.rs"));
        assert!(m("src/db/**", "src/db/a/b.rs"));
        assert!(!m("src/db/**", "src/dbx/a.rs"));
        assert!(m("**/*.ts", "a.ts"));
        assert!(m("**/*.ts", "web/x/a.ts"));
        assert!(!m("**/*.ts", "a.tsx"));
        assert!(m("*.py", "tools/x.py"));
        assert!(!m("src/*.rs", "src/a/b.rs"));
        assert!(m("src/*.{rs,toml}", "src/Cargo.toml"));
        assert!(m("src/db", "src/db/x.rs"));
        assert!(m("**", "anything/at/all"));
        assert!(Glob::new("src/{a").is_none());
    }

    #[test]
    fn lists_split_on_commas_outside_braces() {
        let l = list("**/*.ts, **/*.{js,jsx}");
        assert_eq!(l.len(), 2);
        assert!(l[1].matches("x/y.jsx"));
    }

    #[test]
    fn front_matter_gives_apply_to_and_the_body() {
        let (a, body) = front_matter("---\napplyTo: \"src/**,lib/**\"\n---\nUse X.\n");
        assert_eq!(a.as_deref(), Some("src/**,lib/**"));
        assert_eq!(body, "Use X.\n");
        let (a, body) = front_matter("No front matter.\n");
        assert_eq!((a, body), (None, "No front matter.\n"));
    }
}
