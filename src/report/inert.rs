//! Markdown that cannot act: the report's markdown (`--format markdown`, `summary.md` and the
//! GitHub job summary) quotes model answers, file names and commit messages, and GitHub renders
//! raw HTML in them (an `<img>` that loads a tracker, a `<details>` that hides the rest, an
//! unclosed `<!--` that swallows the report) and turns `@name` into a notification to that person
//! or team. Here, outside inline code spans, `<` becomes `&lt;` and each `@mention` is put in an
//! inline code span, where GitHub shows it as text and notifies nobody.
//!
//! Only a code span closed on the same line is left as it is (inside one, markdown shows the
//! characters as they are); an unclosed backtick, like a fenced block that a model may never
//! close, is escaped like the rest.

/// `markdown` with raw HTML and mentions made inert.
pub fn markdown(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() + 16);
    for (i, line) in markdown.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        inert_line(line, &mut out);
    }
    out
}

fn inert_line(line: &str, out: &mut String) {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'`' if i == 0 || b[i - 1] != b'\\' => {
                let run = b[i..].iter().take_while(|c| **c == b'`').count();
                match closing(&line[i + run..], run) {
                    Some(end) => {
                        let stop = i + run + end + run;
                        out.push_str(&line[i..stop]);
                        i = stop;
                    }
                    None => {
                        out.push_str(&line[i..i + run]);
                        i += run;
                    }
                }
            }
            b'<' => {
                out.push_str("&lt;");
                i += 1;
            }
            b'@' if mention_start(b, i) => {
                let len = mention_len(&b[i + 1..]);
                out.push('`');
                out.push_str(&line[i..i + 1 + len]);
                out.push('`');
                i += 1 + len;
            }
            _ => {
                let c = line[i..].chars().next().expect("in bounds");
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
}

/// Where a run of exactly `run` backticks starts in `rest` (the end of a code span), if any.
fn closing(rest: &str, run: usize) -> Option<usize> {
    let b = rest.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'`' {
            let n = b[i..].iter().take_while(|c| **c == b'`').count();
            if n == run {
                return Some(i);
            }
            i += n;
        } else {
            i += 1;
        }
    }
    None
}

/// `@` that GitHub would read as a mention: not inside a word (`a@b.c` is an address) and
/// followed by a name.
fn mention_start(b: &[u8], i: usize) -> bool {
    let after = b.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric());
    let before = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    after && before
}

/// The length of a user or team name after `@`: `name`, `org/team`.
fn mention_len(b: &[u8]) -> usize {
    let name = |s: &[u8]| {
        s.iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'-' || **c == b'_')
            .count()
    };
    let first = name(b);
    if b.get(first) == Some(&b'/') {
        let team = name(&b[first + 1..]);
        if team > 0 {
            return first + 1 + team;
        }
    }
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_and_mentions_are_inert_outside_code_spans() {
        assert_eq!(
            markdown("- P1 <img src=x onerror=alert(1)> ping @octo-org/team and @alice."),
            "- P1 &lt;img src=x onerror=alert(1)> ping `@octo-org/team` and `@alice`."
        );
        assert_eq!(markdown("mail a@b.example"), "mail a@b.example");
        assert_eq!(
            markdown("keep `<b>@x</b>` as code"),
            "keep `<b>@x</b>` as code"
        );
        // An unclosed backtick or an escaped one opens no code span.
        assert_eq!(markdown("x ` <!-- y"), "x ` &lt;!-- y");
        assert_eq!(markdown("\\`<b>\\`"), "\\`&lt;b>\\`");
        assert_eq!(markdown("```\n<script>\n```"), "```\n&lt;script>\n```");
    }
}
