//! A review sent as a reply to a patch by mail (the Linux, git, PostgreSQL and QEMU lists,
//! sourcehut), or written by a model in that style: the patch is quoted with `> `, and the
//! reviewer's comments sit under the quoted lines they are about.
//!
//! Quoted text is the author's (the patch, its commit message) or an earlier reply's, never
//! this reviewer's words, so none of it is read: a quoted `BUG_ON()` or "critical" in a commit
//! message raises nothing. What the quotes say is where each comment is: a comment under a
//! quoted hunk is about that hunk, from its first line on the new side (the `+c` of its
//! `@@ -a,b +c,d @@`) to the last line quoted above the comment. Each comment becomes a section
//! headed by that place, which the reader reads like a bot's file comment. The mail's header
//! block and the "On …, X wrote:" line are the mail program's, not the review.

use std::borrow::Cow;

/// Header fields of a mail, at the top of an answer pasted whole.
const HEADERS: &[&str] = &[
    "from:",
    "to:",
    "cc:",
    "bcc:",
    "subject:",
    "date:",
    "in-reply-to:",
    "references:",
    "message-id:",
    "reply-to:",
    "sender:",
    "list-id:",
    "x-mailer:",
    "mime-version:",
    "content-type:",
];

/// How a quote is introduced ("On Tue, …, Linh Quach wrote:"), in the languages mail programs
/// print it in.
const ATTRIBUTIONS: &[&str] = &[
    "wrote:",
    "writes:",
    "a écrit :",
    "a écrit:",
    "schrieb:",
    "escribió:",
    "escreveu:",
    "ha scritto:",
    "schreef:",
    "написал:",
    "napisał:",
    "yazdı:",
    "写道：",
    "寫道：",
    "写道:",
    "のメッセージ:",
    "님이 작성:",
];

/// Where the quoted patch stands: the file of the last `+++` line, and in the current hunk its
/// first line on the new side and the new-side line the last quoted line was on.
#[derive(Debug, Default)]
struct Quoted {
    file: Option<String>,
    hunk: Option<u32>,
    /// The next new-side line; `None` once a quote was cut (`[...]`) and lines no longer count.
    next: Option<u32>,
    /// The new-side line of the last quoted line of the hunk, when known.
    last: Option<u32>,
    /// Whether the quote just above the current text held lines of a hunk.
    in_hunk: bool,
}

impl Quoted {
    /// Takes in one quoted line (its `>` removed).
    fn read(&mut self, line: &str) {
        if let Some(path) = line.strip_prefix("+++ ") {
            let path = path.split('\t').next().unwrap_or(path).trim();
            self.file = Some(path.strip_prefix("b/").unwrap_or(path).to_string());
            self.hunk = None;
            self.in_hunk = false;
            return;
        }
        if let Some(c) = hunk_start(line) {
            self.hunk = Some(c);
            self.next = Some(c);
            self.last = None;
            self.in_hunk = true;
            return;
        }
        if self.hunk.is_none() {
            return;
        }
        let t = line.trim();
        if t.starts_with('[') && t.ends_with(']') {
            // `[...]`, `[snip]`: lines left out, so the count is lost until the next hunk.
            self.next = None;
            return;
        }
        if line.starts_with("diff --git ") || line.starts_with("--- ") {
            return;
        }
        match line.chars().next() {
            Some('-') => {}
            Some('+' | ' ') | None => {
                self.last = self.next;
                self.next = self.next.map(|n| n + 1);
            }
            Some(_) => {
                // Tab-indented context that lost its leading space, or prose quoted after the
                // patch: the hunk has ended when it is not code-like.
                if !line.starts_with('\t') {
                    self.in_hunk = false;
                    return;
                }
                self.last = self.next;
                self.next = self.next.map(|n| n + 1);
            }
        }
        self.in_hunk = true;
    }

    /// The place a comment under the quote so far is about.
    fn place(&self) -> Option<String> {
        if !self.in_hunk {
            return None;
        }
        let file = self.file.as_deref()?;
        let start = self.hunk?;
        Some(match self.last {
            Some(end) if end > start => format!("`{file}:{start}-{end}`"),
            _ => format!("`{file}:{start}`"),
        })
    }
}

/// The `c` of a hunk header `@@ -a,b +c,d @@`.
pub(super) fn hunk_start(line: &str) -> Option<u32> {
    let rest = line.strip_prefix("@@ -")?;
    let plus = rest.find(" +")?;
    let digits: String = rest[plus + 2..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    rest[plus..].contains(" @@").then_some(())?;
    digits.parse().ok()
}

/// A quoted line's text without its quote marks, and how deep it was quoted; `None` for a line
/// that is not quoted.
fn unquoted(line: &str) -> Option<(usize, &str)> {
    let mut rest = line;
    let mut depth = 0;
    while let Some(r) = rest.strip_prefix('>') {
        depth += 1;
        rest = r.strip_prefix(' ').unwrap_or(r);
        if !rest.starts_with('>') {
            break;
        }
    }
    (depth > 0).then_some((depth, rest))
}

/// Whether `text` is a mail reply: a quote introduced by "On …, X wrote:" (a line of its own,
/// or the quote's first line), or a mail's header block over a quote. A blockquote alone is not
/// enough: review bots quote a hunk, or put a finding in a `> [!CAUTION]` callout, in answers
/// that are not mail, and what they quote there is theirs.
fn is_reply(text: &str) -> bool {
    let lines: Vec<&str> = text.lines().collect();
    let headed = lines.first().is_some_and(|l| is_header(l));
    lines.iter().enumerate().any(|(i, l)| {
        (attribution(l) && next_is_quoted(&lines[i + 1..]))
            || unquoted(l).is_some_and(|(_, q)| attribution(q))
            || (headed && unquoted(l).is_some())
    })
}

/// The reply with its quotes taken out and each comment under a quoted hunk headed by the
/// place it is about; other answers as they are. A signature (below a `-- ` line, or a
/// sign-off `- Name` right before a quote or at the end) goes too: the mail program's or the
/// review tool's footer, not a point.
pub(super) fn replies_to_patch(text: &str) -> Cow<'_, str> {
    if !is_reply(text) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    // The mail's own header block.
    while i < lines.len() && is_header(lines[i]) {
        i += 1;
    }
    let mut out: Vec<String> = Vec::new();
    let mut quoted = Quoted::default();
    let mut after_quote = false;
    let mut in_signature = false;
    let mut link_follows = false;
    for (j, line) in lines.iter().enumerate().skip(i) {
        if line.trim_end() == "--" {
            // A signature runs to the next blank line; a "P.S." after it is the reviewer's again.
            in_signature = true;
            continue;
        }
        if in_signature {
            in_signature = !line.trim().is_empty();
            continue;
        }
        if generated_notice(line) {
            // The link to reply at comes on the next line.
            link_follows = line.trim_end().ends_with("visit:");
            continue;
        }
        if std::mem::take(&mut link_follows) && line.trim().starts_with("http") {
            continue;
        }
        if let Some((depth, q)) = unquoted(line) {
            // Only the patch itself (quoted once) places comments; an earlier reply's quote of
            // it (`> >`) was commented on by someone else.
            if depth == 1 {
                quoted.read(q);
            }
            after_quote = true;
            continue;
        }
        if line.trim().is_empty() {
            blank(&mut out);
            continue;
        }
        let rest = &lines[j + 1..];
        if attribution(line) && next_is_quoted(rest)
            || sign_off(line) && (next_is_quoted(rest) || next_is_attribution(rest))
        {
            continue;
        }
        if after_quote {
            after_quote = false;
            if let Some(place) = quoted.place() {
                blank(&mut out);
                out.push(format!("#### {place}"));
                out.push(String::new());
            }
        }
        out.push((*line).to_string());
    }
    Cow::Owned(out.join("\n").trim_end().to_string())
}

/// `- Mark Osei`: a review tool's sign-off, two or three capitalised words after a dash.
fn sign_off(line: &str) -> bool {
    let Some(name) = line.trim_end().strip_prefix("- ") else {
        return false;
    };
    let words: Vec<&str> = name.split(' ').collect();
    (2..=3).contains(&words.len())
        && words.iter().all(|w| {
            w.chars().next().is_some_and(char::is_uppercase)
                && w.chars().skip(1).all(char::is_lowercase)
        })
}

/// One blank line, however many the quotes left between two paragraphs.
fn blank(out: &mut Vec<String>) {
    if out.last().is_none_or(|l| !l.is_empty()) {
        out.push(String::new());
    }
}

fn is_header(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    HEADERS.iter().any(|h| lower.starts_with(h))
}

fn attribution(line: &str) -> bool {
    let t = line.trim_end();
    ATTRIBUTIONS.iter().any(|a| t.ends_with(a))
}

/// Whether the next line that is not blank introduces a quote, or there is none.
fn next_is_attribution(rest: &[&str]) -> bool {
    rest.iter()
        .find(|l| !l.trim().is_empty())
        .is_none_or(|l| attribution(l))
}

/// A review tool's mail frame: rules of dashes and "This is an automatically generated e-mail.
/// To reply, visit: <link>" (Review Board).
fn generated_notice(line: &str) -> bool {
    let t = line.trim();
    (t.len() >= 10 && t.chars().all(|c| c == '-'))
        || t.starts_with("This is an automatically generated e-mail")
        || t.starts_with("This is an automatically generated email")
}

/// Whether the next line that is not blank is quoted.
fn next_is_quoted(rest: &[&str]) -> bool {
    rest.iter()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| unquoted(l).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPLY: &str = "From: A <a@example.org>\nSubject: Re: [PATCH] x\n\n\
On Tue, Mar 11, 2025, B wrote:\n> Refill the ring from the poll loop.\n> BUG_ON() was critical here.\n\
>\n> --- a/drv/rx.c\n> +++ b/drv/rx.c\n> @@ -412,6 +412,8 @@ static int poll(void)\n\
>  \tint done = 0;\n> +\n> +\trefill(ring);\n\nnit: double blank line.\n\n\
> @@ -530,7 +533,9 @@ static irqreturn_t isr(int irq)\n>  \tif (status) {\n> -\t\trefill(ring);\n\
> +\t\tspin_unlock(&ring->lock);\n> +\t\tack(ring);\n\nNAK.\n\nThe ack races the poll loop.\n\n\
Patch 1/3 looks fine.\n";

    #[test]
    fn each_comment_is_headed_by_the_quoted_lines_above_it_and_no_quote_is_kept() {
        let out = replies_to_patch(REPLY);
        let want = "\n#### `drv/rx.c:412-414`\n\nnit: double blank line.\n\n\
#### `drv/rx.c:533-535`\n\nNAK.\n\nThe ack races the poll loop.\n\nPatch 1/3 looks fine.";
        assert_eq!(out, want);
    }

    #[test]
    fn a_cut_quote_keeps_the_hunk_and_prose_quotes_place_nothing() {
        let cut =
            "On Mon, A wrote:\n> +++ b/a.c\n> @@ -10,3 +12,4 @@\n> +x\n> [...]\n> +y\n\nWhy?\n";
        assert_eq!(replies_to_patch(cut), "\n#### `a.c:12`\n\nWhy?");
        // A quoted commit message and no patch: nothing to place, the answer as it is.
        let prose = "> This fixes the crash.\n\nLooks good.\n";
        assert!(matches!(replies_to_patch(prose), Cow::Borrowed(_)));
        // Nor is a bot's answer that quotes a hunk beside a callout: no one wrote to it.
        let bot = "> @@ -3,2 +3,3 @@\n> +x\n\n> [!CAUTION]\n> **Critical:** the lock is never released.\n";
        assert!(matches!(replies_to_patch(bot), Cow::Borrowed(_)));
        // A quote of an earlier reply's quote of the patch places nothing.
        let nested = "On Mon, A wrote:\n> +++ b/a.c\n> @@ -1,2 +1,3 @@\n> +x\n\nFirst.\n\n> > @@ -9,1 +9,2 @@\n> > +y\n> No.\n\nAgreed.\n";
        let out = replies_to_patch(nested);
        assert_eq!(out.matches("####").count(), 1, "{out}");
    }

    #[test]
    fn a_reply_without_a_patch_loses_its_quotes_frame_signature_and_sign_off() {
        let reply = "-----------------------------------------------------------\n\
This is an automatically generated e-mail. To reply, visit:\nhttps://rb.example.org/r/5/#review9\n\
-----------------------------------------------------------\n\nShip it!\n\n\
> On March 6th, Mark wrote:\n> > Doesn't this leak the handle?\n>\n> No, the `with` closes it.\n\n\
You're right. Dropping the issue.\n\n- Mark Osei\n\n\nOn March 6th, Ingrid Solberg wrote:\n\
> Review request for reports: BUG_ON() is critical.\n";
        assert_eq!(
            replies_to_patch(reply),
            "\nShip it!\n\nYou're right. Dropping the issue."
        );
        // A signature ends at its blank line: a postscript is the reviewer's again.
        let signed = "On Mon, A wrote:\n> x\n\nReviewed-by: B <b@example.org>\n\n-- \nB\nAcme\n\n\
P.S. Hold off: this deadlocks.\n";
        assert_eq!(
            replies_to_patch(signed),
            "\nReviewed-by: B <b@example.org>\n\nP.S. Hold off: this deadlocks."
        );
    }
}
