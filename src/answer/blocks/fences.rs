//! Which lines of an answer are code: the one place fenced blocks are recognised for the
//! passes that only need to skip them (the verdict's prose, ratings in sentences, raw blocks).
//! A fence closes only with its own character, at least as long, and nothing after it — so a
//! ```` ```rust ```` block inside a ```` ````markdown ```` one does not end it.

/// Each line of `text`, and whether it is code (inside a fenced block, or a fence line).
pub fn code_lines(text: &str) -> Vec<(&str, bool)> {
    let mut open: Option<(char, usize)> = None;
    text.lines()
        .map(|line| {
            let t = line.trim_start();
            let ch = t.chars().next().filter(|c| matches!(c, '`' | '~'));
            let n = ch.map_or(0, |c| t.chars().take_while(|x| *x == c).count());
            match open {
                Some((c, len)) => {
                    // Fence characters are ASCII: `n` is a byte offset too.
                    if ch == Some(c) && n >= len && t[n..].trim().is_empty() {
                        open = None;
                    }
                    (line, true)
                }
                None if n >= 3 => {
                    open = ch.map(|c| (c, n));
                    (line, true)
                }
                None => (line, false),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_close_with_their_own_marker() {
        let text = "a\n````markdown\n```rust\nlet x = 1;\n```\nstill code\n````\nb\n~~~\nc\n~~~\nd";
        let prose: Vec<&str> = code_lines(text)
            .into_iter()
            .filter(|(_, code)| !code)
            .map(|(l, _)| l)
            .collect();
        assert_eq!(prose, ["a", "b", "d"]);
    }
}
