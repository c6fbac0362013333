//! A pull request's "Files changed" links name a file only by a hash of its path
//! (`…/files#diff-<hash>R120-R126`): the line is in the link, the file is not. A review bot
//! that links several comments into one file names the file beside one of them ("In
//! `ingest/batcher.py`, …") and not beside the others. The same hash is the same file, so the
//! file said beside one link is the file of every link with that hash.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::answer::location::{self, Roots};
use crate::answer::re;
use crate::pattern::Pattern;

/// How far after a link its file may be named (a summary's sentence under it).
const WINDOW: usize = 600;

/// `text` with the file of each hash-only link written after the link's line (`` (`path`) ``),
/// where another link with the same hash had its file named beside it and this one has none.
pub(super) fn files_of_diff_anchors(text: &str) -> std::borrow::Cow<'_, str> {
    static ANCHOR: OnceLock<Pattern> = OnceLock::new();
    let anchor = re(&ANCHOR, r"#diff-([0-9a-f]{16,64})R\d+");
    let links: Vec<(usize, usize, &str)> = anchor
        .captures_iter(text)
        .map(|c| {
            let m = c.get(0).expect("match");
            (m.start(), m.end(), c.get(1).expect("hash").as_str())
        })
        .collect();
    if links.len() < 2 {
        return std::borrow::Cow::Borrowed(text);
    }
    // What each link's window names: the text after it, up to the next link.
    let named: Vec<Option<String>> = links
        .iter()
        .enumerate()
        .map(|(i, &(_, end, _))| {
            let stop = links
                .get(i + 1)
                .map_or(text.len(), |l| l.0)
                .min(end + WINDOW);
            let mut stop = stop.max(end);
            while !text.is_char_boundary(stop) {
                stop -= 1;
            }
            location::find_all(&text[end..stop], &Roots::default())
                .into_iter()
                .find(|l| !l.path.is_empty())
                .map(|l| l.path)
        })
        .collect();
    let mut files: HashMap<&str, &str> = HashMap::new();
    for ((_, _, hash), path) in links.iter().zip(&named) {
        if let Some(p) = path {
            files.entry(hash).or_insert(p);
        }
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for ((_, end, hash), path) in links.iter().zip(&named) {
        let Some(file) = files.get(hash).filter(|_| path.is_none()) else {
            continue;
        };
        let eol = text[*end..].find('\n').map_or(text.len(), |n| end + n);
        if eol < at {
            continue;
        }
        out.push_str(&text[at..eol]);
        out.push_str(&format!(" (`{file}`)"));
        at = eol;
    }
    if at == 0 {
        return std::borrow::Cow::Borrowed(text);
    }
    out.push_str(&text[at..]);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_takes_the_file_named_beside_another_link_with_its_hash() {
        let h = "5c0e2ab9d41f7a63";
        let text = format!(
            "<summary><a href='https://x.org/pull/4/files#diff-{h}R88-R97'>Bug</a>\n\nIn \
             `ingest/batch.py`, the flush is late.\n</summary>\n\n<summary><a \
             href='https://x.org/pull/4/files#diff-{h}R120-R126'>Missing flush</a>\n\n\
             `close()` drops the buffer.\n</summary>\n"
        );
        let out = files_of_diff_anchors(&text);
        assert!(
            out.contains("R120-R126'>Missing flush</a> (`ingest/batch.py`)\n"),
            "{out}"
        );
        assert_eq!(out.matches("ingest/batch.py").count(), 2);
        // Another hash is another file: nothing is said of it.
        let other = text.replacen(&format!("{h}R120"), "99990000aaaabbbbR120", 1);
        assert_eq!(files_of_diff_anchors(&other), other);
    }
}
