//! What a person pastes around a review when they copy it out of where it was written: a chat
//! page's turns ("You said:" … "ChatGPT said:"), a reasoning model's "Thought for 11 seconds"
//! monologue, a chat app's "**Name**  4:17 PM" lines, an email's quoted message under "On …
//! wrote:". None of it is the reviewer's answer: the user's question ("I'm worried this is a
//! blocker"), the model's first guesses and the quoted request ("flag anything P0 to P3") use the
//! words of a review without being one.

use std::sync::OnceLock;

use crate::answer::re;
use crate::pattern::Pattern;

/// The text without the paste's chrome: only the last answer of a chat page, without a web
/// reasoning block, chat bylines or an email's quoted message.
pub fn unpasted(text: &str) -> String {
    let text = last_chat_turn(text)
        .or_else(|| bold_chat_turn(text))
        .unwrap_or(text);
    let text = without_web_thinking(text);
    let text = without_quoted_reply(&text);
    without_chat_bylines(&text)
}

/// A chat page's turns are headed by a line naming who speaks ("You said:", "ChatGPT said:",
/// "Claude said:"); the answer is the last turn a model spoke, up to the next user turn.
fn last_chat_turn(text: &str) -> Option<&str> {
    static TURN: OnceLock<Pattern> = OnceLock::new();
    let turn = re(
        &TURN,
        r"(?m)^[ \t]*(?:\*\*)?(You|[A-Z][\w.-]*(?: [A-Z0-9][\w.-]*){0,2}) said:(?:\*\*)?[ \t]*$",
    );
    let turns: Vec<(usize, usize, bool)> = turn
        .captures_iter(text)
        .map(|c| {
            let m = c.get(0).expect("match");
            (m.start(), m.end(), &c[1] == "You")
        })
        .collect();
    // Only a page that opens on the user's turn and has a model's turn: "X said:" lines later
    // in an answer are the review quoting something (text from the change under review among
    // it, which must not choose what of the answer is read).
    let opens_with_user = turns
        .first()
        .is_some_and(|t| t.2 && text[..t.0].trim().is_empty());
    if !opens_with_user || !turns.iter().any(|t| !t.2) {
        return None;
    }
    let (i, model) = turns.iter().enumerate().rev().find(|(_, t)| !t.2)?;
    let end = turns.get(i + 1).map_or(text.len(), |next| next.0);
    Some(&text[model.1..end])
}

/// An IDE chat panel's or a local chat app's export: a bold user turn first (`**You:** review
/// this`, `**User:**`), then the model's turn under a bold line of its own naming it
/// (`**qwen2.5-coder:14b (Ollama)**`, `**Assistant** · Mistral Small · local`). The answer is
/// what follows the model's line, up to the next user turn.
fn bold_chat_turn(text: &str) -> Option<&str> {
    static USER: OnceLock<Pattern> = OnceLock::new();
    static MODEL: OnceLock<Pattern> = OnceLock::new();
    let user = re(
        &USER,
        r"(?im)^[ \t]*\*\*(?:you|user|me|human|question|prompt)\s*:?\s*\*\*",
    );
    // (Unbounded runs: a bounded run of a negated class compiles one copy of it per count.)
    let model = re(
        &MODEL,
        r"(?m)^[ \t]*\*\*[^*\n]+\*\*(?:[ \t]*·[^\n]*)?[ \t]*$",
    );
    let first = user.find(text)?;
    if !text[..first.start()].trim().is_empty() {
        return None;
    }
    let after_user = first.end();
    let head = model.find_at(text, after_user)?;
    let start = head.end();
    let end = user.find_at(text, start).map_or(text.len(), |m| m.start());
    Some(&text[start..end])
}

/// A chat page's reasoning block: a "Thought for 11 seconds" (or "已深度思考")
/// line and the monologue paragraphs after it, which talk about "the user" and think aloud
/// ("Okay, …", "Let me …", "But wait").
fn without_web_thinking(text: &str) -> String {
    static HEAD: OnceLock<Pattern> = OnceLock::new();
    static MONOLOGUE: OnceLock<Pattern> = OnceLock::new();
    let head = re(
        &HEAD,
        r"(?i)^\s*(?:thought for (?:\d+(?:\.\d+)?\s*(?:s|sec|secs|seconds?|m|min|minutes?)\b\s*)+|已深度思考|思考了\s*\d+\s*秒|已思考|思考時間)",
    );
    let monologue = re(
        &MONOLOGUE,
        r"(?i)^\W*(?:okay|ok|alright|hmm+|so,|wait|let me|let's|first,|now,|i need to|i should|the user)\b|\bthe user\b",
    );
    let lines: Vec<&str> = text.lines().collect();
    let Some(at) = lines.iter().position(|l| head.is_match(l)) else {
        return text.to_string();
    };
    // Only at the start of the answer: later, such a line is part of what the reviewer says.
    if lines[..at].iter().any(|l| !l.trim().is_empty()) {
        return text.to_string();
    }
    let mut i = at + 1;
    loop {
        while i < lines.len() && lines[i].trim().is_empty() {
            i += 1;
        }
        let end = lines[i..]
            .iter()
            .position(|l| l.trim().is_empty())
            .map_or(lines.len(), |n| i + n);
        if i >= lines.len() || !monologue.is_match(&lines[i..end].join(" ")) {
            break;
        }
        i = end;
    }
    lines[i..].join("\n")
}

/// An email reply's quoted message: the "On (a date), (a name) wrote:" line (or "-----Original
/// Message-----") and the `>` lines after it, to the end of the quote.
fn without_quoted_reply(text: &str) -> String {
    static WROTE: OnceLock<Pattern> = OnceLock::new();
    let wrote = re(
        &WROTE,
        r"(?i)^\s*(?:on .{4,120}\bwrote:|am .{4,120}\bschrieb .{1,80}:|le .{4,120}\ba écrit\s*:|el .{4,120}\bescribió:|em .{4,120}\bescreveu:|-{2,}\s*original message\s*-{2,})\s*$",
    );
    let lines: Vec<&str> = text.lines().collect();
    let Some(at) = lines.iter().position(|l| wrote.is_match(l)) else {
        return text.to_string();
    };
    let quoted = |l: &str| l.trim_start().starts_with('>') || l.trim().is_empty();
    let end = lines[at + 1..]
        .iter()
        .position(|l| !quoted(l))
        .map_or(lines.len(), |n| at + 1 + n);
    let mut out: Vec<&str> = lines[..at].to_vec();
    out.extend_from_slice(&lines[end..]);
    out.join("\n")
}

/// Does the line hold a clock time ("4:17", "11:08"): a digit, a colon and two digits?
fn holds_time(line: &str) -> bool {
    line.match_indices(':').any(|(at, _)| {
        let mut after = line[at + 1..].chars();
        line[..at].chars().next_back().is_some_and(char::is_numeric)
            && after.next().is_some_and(char::is_numeric)
            && after.next().is_some_and(char::is_numeric)
    })
}

/// A chat app's byline, on a line of its own: "**Tomasz Wilk**  4:17 PM", "Lena Hoffmann
/// 11:08", "[4:17 PM] Tomasz Wilk:". It separates messages, so it leaves a blank line.
fn without_chat_bylines(text: &str) -> String {
    static BYLINE: OnceLock<Pattern> = OnceLock::new();
    let byline = re(
        &BYLINE,
        r"(?i)^\s*(?:(?:\*\*)?[\p{Lu}][\p{L}'.-]*(?: [\p{Lu}][\p{L}'.-]*){0,3}(?:\*\*)?:?\s+\[?\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?\]?|\[\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?\]\s+[\p{L}][\p{L}'. -]{0,40}:?)\s*$",
    );
    static PLACE: OnceLock<Pattern> = OnceLock::new();
    // The byline's name classes are all of Unicode's letters, case-folded: compiling it costs
    // more than reading the rest of a small answer. Every byline holds a time, so a text
    // without one is answered without it.
    if !text.lines().any(|l| holds_time(l) && byline.is_match(l)) {
        return text.to_string();
    }
    // A chat message's lines are its sentences; one that names a place (`client.ts:57`, "line
    // 61") starts another point ("also tiny nit, `retryCount` on line 61 …").
    let place = re(&PLACE, r"(?i)`[^`\s]+\.\w{1,6}(?::\d+)?`|\bline \d+");
    let mut out: Vec<&str> = Vec::new();
    for l in text.lines() {
        if byline.is_match(l) {
            out.push("");
            continue;
        }
        let continues = out.last().is_some_and(|p| !p.trim().is_empty());
        if continues && place.is_match(l) {
            out.push("");
        }
        out.push(l);
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chat_page_is_read_from_the_models_last_turn() {
        let page = "You said:\nIs the DST handling a blocker?\n\nChatGPT said:\n\nLooks fine to me, ship it.\n";
        assert_eq!(unpasted(page).trim(), "Looks fine to me, ship it.");
        // One "said:" line alone is the review's own words.
        let quote = "The docs said:\nretry three times.\n";
        assert_eq!(unpasted(quote), quote);
        // A review that quotes a page (from the change under review, say) keeps its findings.
        let quoting = "P1: `a.py:3` runs the input.\n\nThe fixture reads:\n\nYou said:\nreview\n\nChatGPT said:\nLGTM\n";
        assert!(unpasted(quoting).contains("P1: `a.py:3`"));
    }

    #[test]
    fn a_chat_panels_export_is_read_from_the_models_turn() {
        let page = "**You:** review this, is it a blocker?\n\n**qwen2.5-coder:14b (Ollama)**\n\nThe key is `None` for anonymous users (`a.py:4`). This is a blocker.\n";
        assert_eq!(
            unpasted(page).trim(),
            "The key is `None` for anonymous users (`a.py:4`). This is a blocker."
        );
        let page = "**User:** review please\n\n**Assistant** · Mistral Small · local\n\nLGTM.\n\n**User:** thanks\n";
        assert_eq!(unpasted(page).trim(), "LGTM.");
        // A review that opens on its own bold title is not a chat page.
        let review = "**Summary**\n\n**You:** should rename it.\n";
        assert_eq!(unpasted(review), review);
    }

    #[test]
    fn a_reasoning_block_at_the_start_is_not_the_answer() {
        let t = "Thought for 11 seconds\n\nOkay, the user wants a second opinion. That could be a serious bug. But wait, it is guarded.\n\nThe change looks correct to me.\n";
        assert_eq!(unpasted(t).trim(), "The change looks correct to me.");
        // Not a monologue: the answer starts at once.
        let t = "Thought for 3s\n\nThe retry loop never ends (`a.go:9`).\n";
        assert_eq!(unpasted(t).trim(), "The retry loop never ends (`a.go:9`).");
    }

    #[test]
    fn an_emails_quoted_message_is_not_the_answer() {
        let t = "Fine to merge.\n\nBest,\nHenrik\n\nOn Tue, 14 May 2024 at 16:02, Marta Silva wrote:\n> Please flag anything: P0 = blocker.\n> The risky bit is reports/monthly.py.\n";
        let out = unpasted(t);
        assert!(out.contains("Fine to merge."), "{out}");
        assert!(!out.contains("P0") && !out.contains("monthly"), "{out}");
        // A quote in a review (no "wrote:" line) stays.
        let t = "> retries = 3\n\nThis should be 5.\n";
        assert!(unpasted(t).contains("retries = 3"));
    }

    #[test]
    fn a_line_holds_a_time_only_with_a_digit_a_colon_and_two_digits() {
        assert!(holds_time("**Tomasz Wilk**  4:17 PM"));
        assert!(holds_time("[11:08] Lena:"));
        assert!(!holds_time("src/app.ts:7 needs a guard"));
        assert!(!holds_time("Note: 4 : 17"));
        // Without a time, no line is a byline.
        let text = "**Tomasz Wilk**\nThe retry loop never stops.";
        assert_eq!(without_chat_bylines(text), text);
    }

    #[test]
    fn chat_bylines_are_not_part_of_a_message() {
        let t = "**Tomasz Wilk**  4:17 PM\nthe TTL is in nanoseconds\n\n**Tomasz Wilk**  4:19 PM\neverything else looks good\n";
        let out = unpasted(t);
        assert!(!out.contains("Wilk"), "{out}");
        assert!(out.contains("\n\n"), "messages stay apart: {out:?}");
        // In a message, a line that names a place starts another point.
        let t = "**Jules**  2:03 PM\nnot a big deal but `client.ts:57` retries 400s\nalso tiny nit, `retryCount` on line 61 is never reset\nyour call\n";
        let out = unpasted(t);
        assert!(out.contains("400s\n\nalso tiny nit"), "{out:?}");
        assert!(out.contains("reset\nyour call"), "{out:?}");
        // A level and a time in a sentence are not a byline.
        let t = "Critical 4:17 timeout in the job\n";
        assert_eq!(unpasted(t), t);
    }
}
