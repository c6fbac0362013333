//! A finding's fix as a patch: the unified diff a reviewer may put in its suggested action, split
//! from the prose around it, and — when that diff is one hunk that rewrites lines inside the
//! finding's location — the new text of those lines, which a code host can offer as a one-click
//! change (a GitHub ```` ```suggestion ```` block, an rdjson `suggestions` entry).
//!
//! Only a diff that is exactly that is used: one hunk, its line counts matching its header, a
//! `+++` name (when there is one) that is the finding's file, and at least one removed line after
//! the unchanged lines at its edges are set aside, all inside the lines the finding points at.
//! Anything else stays prose (and the patch is still shown as a diff in the markdown report).

/// A suggested action, split: the words, and the unified diff in it, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    pub prose: String,
    /// The diff's lines (`---`/`+++` headers, `@@` headers and hunk lines), without a fence.
    pub diff: Option<String>,
}

/// New text for lines `start..=end` (1-based, the new version of the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    pub start: u64,
    pub end: u64,
    /// The replacement lines, each without its line break, joined by `\n` (empty: delete them).
    pub text: String,
}

fn is_diff_line(l: &str) -> bool {
    l.starts_with("@@ ")
        || l.starts_with("--- ")
        || l.starts_with("+++ ")
        || l.starts_with("diff --git ")
}

/// Splits `action` into prose and the diff it holds: a fenced ```` ```diff ```` (or ```` ```patch
/// ````) block, or bare lines from the first `---`/`@@` header to the end of the hunks.
pub fn split(action: &str) -> Fix {
    let lines: Vec<&str> = action.lines().collect();
    // A fenced diff.
    if let Some(open) = lines.iter().position(|l| {
        let t = l.trim_start();
        t.starts_with("```diff") || t.starts_with("```patch")
    }) {
        if let Some(len) = lines[open + 1..]
            .iter()
            .position(|l| l.trim_start().starts_with("```"))
        {
            let diff = lines[open + 1..open + 1 + len].join("\n");
            if diff.lines().any(|l| l.starts_with("@@ ")) {
                let mut prose = lines[..open].to_vec();
                prose.extend_from_slice(&lines[open + 2 + len..]);
                return Fix {
                    prose: prose.join("\n").trim().to_string(),
                    diff: Some(diff),
                };
            }
        }
    }
    // Bare diff lines: from the first header to the last line that can belong to a hunk.
    let Some(first) = lines.iter().position(|l| is_diff_line(l)) else {
        return unchanged(action);
    };
    if !lines[first..].iter().any(|l| l.starts_with("@@ ")) {
        return unchanged(action);
    }
    let mut last = first;
    for (k, l) in lines.iter().enumerate().skip(first) {
        let hunk_line = l.starts_with([' ', '+', '-', '\\']) || l.is_empty();
        if is_diff_line(l) || hunk_line {
            last = k;
        } else {
            break;
        }
    }
    while last > first && lines[last].is_empty() {
        last -= 1;
    }
    let mut prose = lines[..first].to_vec();
    prose.extend_from_slice(&lines[last + 1..]);
    Fix {
        prose: prose.join("\n").trim().to_string(),
        diff: Some(lines[first..=last].join("\n")),
    }
}

fn unchanged(action: &str) -> Fix {
    Fix {
        prose: action.trim().to_string(),
        diff: None,
    }
}

/// `@@ -a[,b] +c[,d] @@` → (a, b, c, d).
fn header(line: &str) -> Option<(u64, u64, u64, u64)> {
    let inner = line.strip_prefix("@@ -")?;
    let (ranges, _) = inner.split_once(" @@")?;
    let (old, new) = ranges.split_once(" +")?;
    let side = |s: &str| -> Option<(u64, u64)> {
        let (a, n) = s.split_once(',').unwrap_or((s, "1"));
        Some((a.parse().ok()?, n.parse().ok()?))
    };
    let (a, b) = side(old)?;
    let (c, d) = side(new)?;
    Some((a, b, c, d))
}

/// The suggestion a finding's `action` makes for `path` lines `start..=end`, if its diff is one
/// hunk that rewrites lines inside them (see the module documentation).
pub fn suggestion(action: &str, path: &str, start: u64, end: u64) -> Option<Suggestion> {
    let diff = split(action).diff?;
    let lines: Vec<&str> = diff.lines().collect();
    if let Some(name) = lines.iter().find_map(|l| l.strip_prefix("+++ ")) {
        let name = name.split('\t').next().unwrap_or(name).trim();
        let name = name.strip_prefix("b/").unwrap_or(name);
        if name != path {
            return None;
        }
    }
    let headers: Vec<usize> = (0..lines.len())
        .filter(|k| lines[*k].starts_with("@@ "))
        .collect();
    let [at] = headers.as_slice() else {
        return None;
    };
    let (old_start, old_len, _, new_len) = header(lines[*at])?;
    let body: Vec<&str> = lines[at + 1..]
        .iter()
        .copied()
        .filter(|l| !l.starts_with('\\'))
        .collect();
    // Each line as (kind, text); a blank line is an unchanged empty line, as some tools write it.
    let parsed: Vec<(char, &str)> = body
        .iter()
        .map(|l| match l.chars().next() {
            None => Some((' ', "")),
            Some(c @ (' ' | '+' | '-')) => Some((c, &l[1..])),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let old_count = parsed.iter().filter(|(k, _)| *k != '+').count() as u64;
    let new_count = parsed.iter().filter(|(k, _)| *k != '-').count() as u64;
    if old_count != old_len || new_count != new_len {
        return None;
    }
    // Set aside the unchanged lines at both edges.
    let lead = parsed.iter().take_while(|(k, _)| *k == ' ').count();
    let trail = parsed[lead..]
        .iter()
        .rev()
        .take_while(|(k, _)| *k == ' ')
        .count();
    let core = &parsed[lead..parsed.len() - trail];
    let removed = core.iter().filter(|(k, _)| *k != '+').count() as u64;
    if removed == 0 || old_start == 0 {
        return None;
    }
    let first = old_start + lead as u64;
    let last = first + removed - 1;
    if first < start || last > end {
        return None;
    }
    let text = core
        .iter()
        .filter(|(k, _)| *k != '-')
        .map(|(_, t)| *t)
        .collect::<Vec<_>>()
        .join("\n");
    Some(Suggestion {
        start: first,
        end: last,
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENCED: &str = "Add instead of subtracting:\n\n```diff\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -1,3 +1,3 @@\n pub fn add(a: i32, b: i32) -> i32 {\n-    a - b\n+    a + b\n }\n```\n\nThen run the tests.";

    #[test]
    fn a_fenced_diff_is_split_from_the_prose() {
        let fix = split(FENCED);
        assert_eq!(
            fix.prose,
            "Add instead of subtracting:\n\n\nThen run the tests."
        );
        assert!(fix.diff.unwrap().starts_with("--- a/src/lib.rs\n"));
        let plain = split("return a + b");
        assert_eq!(plain.prose, "return a + b");
        assert_eq!(plain.diff, None);
    }

    #[test]
    fn a_bare_diff_is_found_too() {
        let fix = split("Change it:\n@@ -2 +2 @@\n-a - b\n+a + b\nThat is all.");
        assert_eq!(fix.diff.as_deref(), Some("@@ -2 +2 @@\n-a - b\n+a + b"));
        assert_eq!(fix.prose, "Change it:\nThat is all.");
    }

    #[test]
    fn one_hunk_inside_the_location_is_a_suggestion_of_its_changed_lines() {
        let s = suggestion(FENCED, "src/lib.rs", 2, 2).unwrap();
        assert_eq!(
            s,
            Suggestion {
                start: 2,
                end: 2,
                text: "    a + b".into()
            }
        );
        // Two lines for one, and a deletion.
        let two = "@@ -3,2 +3,1 @@\n-x\n-y\n+xy";
        assert_eq!(suggestion(two, "f", 3, 4).unwrap().text, "xy");
        let gone = "@@ -5,1 +5,0 @@\n-dead";
        let s = suggestion(gone, "f", 5, 5).unwrap();
        assert_eq!((s.start, s.end, s.text.as_str()), (5, 5, ""));
    }

    #[test]
    fn anything_else_is_no_suggestion() {
        // Another file, lines outside the finding, two hunks, counts that do not add up, only
        // an insertion, no diff at all.
        assert_eq!(suggestion(FENCED, "src/other.rs", 2, 2), None);
        assert_eq!(suggestion(FENCED, "src/lib.rs", 5, 9), None);
        let two = "@@ -1 +1 @@\n-a\n+b\n@@ -9 +9 @@\n-c\n+d";
        assert_eq!(suggestion(two, "f", 1, 9), None);
        assert_eq!(suggestion("@@ -1,2 +1,2 @@\n-a\n+b", "f", 1, 2), None);
        assert_eq!(suggestion("@@ -1,1 +1,2 @@\n a\n+b", "f", 1, 2), None);
        assert_eq!(suggestion("use a + b", "f", 1, 1), None);
    }
}
