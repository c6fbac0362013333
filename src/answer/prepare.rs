//! An answer as the reader should see it: a model's thinking, a paste's chrome
//! ([`crate::answer::pasted`]), a terminal's ([`crate::answer::terminal`]) and a code host's
//! ([`crate::answer::hosts`]) taken out, a raw API response or an agent CLI's JSON output
//! ([`crate::answer::transcript`]) opened to the text inside it, and an emoji legend ("🛑 must
//! fix · ⚠️ should fix") applied to the emoji it defines.
//!
//! Local models print their reasoning before the answer (`<think>…</think>`, Ollama's
//! "Thinking... / ...done thinking."), and an `exec:` wrapper may print the provider's whole JSON
//! response; neither is the review. A legend is the answer's own vocabulary, so it beats the
//! table in `vocab`.

use std::borrow::Cow;
use std::sync::OnceLock;

use serde_json::Value;

use crate::answer::vocab;
use crate::pattern::Pattern;

use crate::answer::{hosts, mail, notification, re, terminal, transcript};

/// The answer with reasoning removed, an API envelope opened and a legend applied.
pub fn prepare(text: &str) -> Cow<'_, str> {
    let text = unwrap_envelope(text)
        .or_else(|| transcript::answer_in(terminal::below_command(text.trim())))
        .or_else(|| terminal::past_command(text.trim()).and_then(transcript::answer_in))
        .map_or(Cow::Borrowed(text), Cow::Owned);
    let text = crate::answer::pasted::unpasted(&without_thinking(&terminal::without_invocation(
        &mail::replies_to_patch(&notification::without_chrome(&text)),
    )));
    let text = terminal::without_runner_chrome(&terminal::without_edit_block_names(
        &terminal::without_aider_chrome(&text),
    ));
    let text = hosts::without_generated_description(&terminal::unhung_messages(
        &terminal::without_tool_logs(&text),
    ));
    let text = fence_excerpts(&without_link_definitions(&hosts::without_bylines(
        &hosts::without_alert_chrome(&hosts::review_states(&prose_undented(&text))),
    )));
    let text = without_level_scales(&hosts::permalinks_under_titles(&hosts::gerrit_places(
        &hosts::mail_hunks(&crate::answer::anchors::files_of_diff_anchors(&text)),
    )));
    Cow::Owned(apply_numeric_legend(&apply_legend(&checklist_items(
        &plain_brackets(&plain_bullets(&text)),
    ))))
}

/// A checklist written as lines that each open with a check's mark (`✅ Strong parameters
/// permit …`, `❌ N+1 query: …`, `➖ i18n: not applicable`), two or more in a row, as a list:
/// each line is one row of the checklist, read on its own (a passed one is no finding, a failed
/// one is), instead of one paragraph.
fn checklist_items(text: &str) -> Cow<'_, str> {
    let lines: Vec<&str> = text.lines().collect();
    let marked = |l: &str| {
        let t = l.trim_start();
        l.len() - t.len() < 4
            && vocab::check_mark(t).is_some()
            && !t.starts_with(['-', '*', '+', '|', '#', '>'])
            && t.chars().filter(|c| c.is_alphanumeric()).count() > 2
    };
    let mut fenced = false;
    let mut rows = vec![false; lines.len()];
    for (i, l) in lines.iter().enumerate() {
        if l.trim_start().starts_with("```") || l.trim_start().starts_with("~~~") {
            fenced = !fenced;
        }
        rows[i] = !fenced && marked(l);
    }
    let listed: Vec<bool> = (0..lines.len())
        .map(|i| rows[i] && ((i > 0 && rows[i - 1]) || rows.get(i + 1) == Some(&true)))
        .collect();
    if !listed.contains(&true) {
        return Cow::Borrowed(text);
    }
    let out: Vec<String> = lines
        .iter()
        .zip(&listed)
        .map(|(l, item)| {
            if *item {
                format!("- {}", l.trim_start())
            } else {
                (*l).to_string()
            }
        })
        .collect();
    Cow::Owned(out.join("\n"))
}

/// Bullets that markdown does not know (`▸ Token refresh retried …`, Amazon Q's findings in
/// the IDE; `►`, `▶`, `‣`, `◦`) as markdown's `- `, at the same indentation, so each is an
/// item of its own instead of a line of the paragraph above it. A level word alone on the
/// line right above such a list (`High` over `  ▸ …`) heads it: it gets the colon of a
/// heading, as a lone level word under a comment is that comment's badge instead.
fn plain_bullets(text: &str) -> Cow<'_, str> {
    const BULLETS: &[char] = &['▸', '▹', '►', '▶', '‣', '◦'];
    let bulleted = |l: &str| {
        let t = l.trim_start();
        t.starts_with(BULLETS) && t.chars().nth(1) == Some(' ')
    };
    if !text.lines().any(bulleted) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<&str> = text.lines().collect();
    let level_word = |l: &str| {
        let t = l.trim();
        !t.contains(' ') && vocab::severity_of(t).is_some_and(|s| s.1 == vocab::Strength::Level)
    };
    let out: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if level_word(l) && lines.get(i + 1).is_some_and(|n| bulleted(n)) {
                return format!("{}:", l.trim_end());
            }
            if !bulleted(l) {
                return l.to_string();
            }
            let indent = l.len() - l.trim_start().len();
            let rest = l.trim_start().chars().skip(1).collect::<String>();
            format!("{}-{rest}", &l[..indent])
        })
        .collect();
    Cow::Owned(out.join("\n"))
}

/// A line that defines a scale of levels (`(P1: must fix / P2: please consider / P3: …)`, a
/// team's "Pn rule"): three levels or more, each followed by its meaning. It says what the
/// levels mean, not that any finding has one.
fn without_level_scales(text: &str) -> String {
    static DEFINED: OnceLock<Pattern> = OnceLock::new();
    // (`P1: must fix`, or a prompt's `P0 (critical), P1 (high), …`.)
    let defined = re(&DEFINED, r"(?i)\bP[0-5]\s*(?:[:：=]|\([\w -]+\))");
    let scale = |l: &str| {
        let levels: std::collections::BTreeSet<String> = defined
            .find_iter(l)
            .map(|m| m.as_str()[..2].to_ascii_lowercase())
            .collect();
        levels.len() >= 3
    };
    if !text.lines().any(scale) {
        return text.to_string();
    }
    text.lines()
        .filter(|l| !scale(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Square brackets from other blocks (`⟦P1⟧`, full-width `［P1］`) written as the ASCII ones
/// the markers are read in.
fn plain_brackets(text: &str) -> String {
    if !text.contains(['⟦', '⟧', '［', '］']) {
        return text.to_string();
    }
    text.replace(['⟦', '［'], "[").replace(['⟧', '］'], "]")
}

/// Markdown link definitions (`[MAJOR]: https://…/severity-major.png 'Severity: MAJOR'`) are
/// where an answer's images point, never something it says.
fn without_link_definitions(text: &str) -> String {
    static DEF: OnceLock<Pattern> = OnceLock::new();
    let def = re(
        &DEF,
        r#"^\s{0,3}\[[^\]\n]+\]:\s*<?\S+>?(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?\s*$"#,
    );
    if !text.lines().any(|l| def.is_match(l)) {
        return text.to_string();
    }
    text.lines()
        .filter(|l| !def.is_match(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Comments a review tool indents four spaces or more under the place they are about (Azure
/// DevOps and Review Board pages and mails): to markdown an indented block is code, so the
/// words of the comment would go unread. A run of indented lines outside a fence that reads as
/// prose — no line ending the way code does, one sentence of six words or more — is brought
/// back to two spaces. Code stays code: a line ending in `;`, `{`, `}` or `)`, or a run with no
/// sentence in it.
fn prose_undented(text: &str) -> Cow<'_, str> {
    let indented = |l: &str| l.starts_with("    ") && !l.trim().is_empty();
    if !text.lines().any(indented) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<(&str, bool)> = crate::markdown::fenced_lines(text);
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let (l, code) = lines[i];
        if code || !indented(l) {
            out.push(l.to_string());
            i += 1;
            continue;
        }
        let end = (i..lines.len())
            .find(|&j| lines[j].1 || !indented(lines[j].0))
            .unwrap_or(lines.len());
        let run: Vec<&str> = lines[i..end].iter().map(|(l, _)| *l).collect();
        let prose =
            run.iter().all(|l| !code_like(l.trim())) && run.iter().any(|l| sentence(l.trim()));
        for l in run {
            out.push(if prose {
                format!("  {}", l.trim_start())
            } else {
                l.to_string()
            });
        }
        i = end;
    }
    Cow::Owned(out.join("\n"))
}

/// A line that ends the way code does.
fn code_like(l: &str) -> bool {
    l.ends_with([';', '{', '}', ')', '(', ',', '\\'])
        || ["//", "#", "/*", "*/", "$ ", "<"]
            .iter()
            .any(|p| l.starts_with(p))
        || l.contains(" = ")
        || l.contains("=>")
}

/// Six words or more ending as a sentence does.
fn sentence(l: &str) -> bool {
    l.split_whitespace().count() >= 6 && l.ends_with(['.', '!', '?', ':', '。'])
}

/// A copy of a web page quotes the code under a place line without a fence (`Comment on lines
/// +42 to +47`, then the lines, indented): those lines are code, not a finding's words.
fn fence_excerpts(text: &str) -> String {
    static PLACE: OnceLock<Pattern> = OnceLock::new();
    let place = re(
        &PLACE,
        r"(?i)^(?:comment on lines? \+?\d+(?: to \+?\d+)?|[\w./-]+\.[a-z0-9]{1,8})\s*$",
    );
    let lines: Vec<&str> = text.lines().collect();
    if !lines
        .windows(2)
        .any(|w| place.is_match(w[0]) && w[1].starts_with("    "))
    {
        return text.to_string();
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len() + 8);
    let mut fenced = false;
    let mut i = 0;
    while i < lines.len() {
        out.push(lines[i].to_string());
        let t = lines[i].trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
        }
        let excerpt = lines.get(i + 1).is_some_and(|l| l.starts_with("    "));
        if !fenced && place.is_match(lines[i]) && excerpt {
            out.push("```".into());
            i += 1;
            while i < lines.len() && lines[i].starts_with("    ") {
                out.push(lines[i].to_string());
                i += 1;
            }
            out.push("```".into());
            continue;
        }
        i += 1;
    }
    out.join("\n")
}

/// A numeric scale the answer states (`5 = critical, 4 = high, 3 = medium`, or a JSON
/// `{"4": "critical", "3": "high"}`): its numbers as severity values (`"severity": 4`) are
/// replaced by the words, so they read as the answer meant them and not as P-numbers.
fn apply_numeric_legend(text: &str) -> String {
    static PAIR: OnceLock<Pattern> = OnceLock::new();
    static VALUE: OnceLock<Pattern> = OnceLock::new();
    let pair = re(
        &PAIR,
        r#""?(\d{1,2})"?\s*[=:]\s*"?([A-Za-z][A-Za-z ]{1,15}?)"?\s*(?:[,;|·}]|$)"#,
    );
    let mut legend: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let pairs: Vec<(String, String)> = pair
            .captures_iter(line)
            .filter(|c| vocab::severity_of(&c[2]).is_some())
            .map(|c| (c[1].to_string(), c[2].trim().to_string()))
            .collect();
        if pairs.len() >= 2 {
            legend.extend(pairs);
        }
    }
    if legend.is_empty() {
        return text.to_string();
    }
    let value = re(
        &VALUE,
        r#"(?i)("(?:severity|priority|level|importance)"\s*:\s*)(\d{1,2})\b"#,
    );
    value
        .replace_all(text, |c: &regex::Captures| {
            match legend.iter().find(|(n, _)| *n == c[2]) {
                Some((_, w)) => format!("{}\"{w}\"", &c[1]),
                None => c[0].to_string(),
            }
        })
        .into_owned()
}

/// `<think>…</think>`, `<thinking>…</thinking>`, and Ollama's `Thinking...` … `...done
/// thinking.` at the start.
fn without_thinking(text: &str) -> Cow<'_, str> {
    static TAGS: OnceLock<Pattern> = OnceLock::new();
    static OLLAMA: OnceLock<Pattern> = OnceLock::new();
    let t = re(
        &TAGS,
        r"(?is)<(think|thinking|reasoning)>.*?</(?:think|thinking|reasoning)>",
    )
    .replace_all(text, "");
    // (`ollama run` prints it first, under the command line a terminal copy may keep.)
    let out = re(
        &OLLAMA,
        r"(?is)\A\s*(?:[$%❯][^\n]*\n\s*)?Thinking\.\.\..*?\.\.\.done thinking\.",
    )
    .replace(&t, "");
    let out = shown_thinking_out(&out);
    if out.len() == text.len() {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(out)
    }
}

/// A chat app's thinking as a copy of its page shows it: Claude's `<details>` under a
/// "Thought process" summary, Gemini's "Show thinking" over an indented block, Kimi's quoted
/// "**Thinking** · 23 s" block. (A "Thought for 11 seconds" block is the paste reader's.) The
/// thinking weighs worries the answer below it settles; only the answer is the review.
fn shown_thinking_out(text: &str) -> String {
    static DETAILS: OnceLock<Pattern> = OnceLock::new();
    let text = re(
        &DETAILS,
        r"(?is)<details>\s*<summary>\s*(?:thought process|thinking|thoughts|reasoning)\b[^<]*</summary>.*?</details>",
    )
    .replace_all(text, "");
    let thinking_word = |l: &str| {
        let t = l.trim().trim_matches(['*', '_', ' ']);
        let t = t
            .split(['·', '('])
            .next()
            .unwrap_or(t)
            .trim()
            .trim_matches(['*', '_', ' ']);
        ["thinking", "show thinking", "thought process"].contains(&t.to_lowercase().as_str())
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        // `> **Thinking** · 23 s (collapsed)` and the rest of its quote.
        if let Some(quoted) = line.trim_start().strip_prefix('>') {
            if thinking_word(quoted) {
                while i < lines.len() && lines[i].trim_start().starts_with('>') {
                    i += 1;
                }
                continue;
            }
        }
        // "Show thinking" alone on its line, over the thinking indented below it.
        if thinking_word(line) && !line.starts_with([' ', '#']) {
            let mut j = i + 1;
            while j < lines.len()
                && (lines[j].trim().is_empty() || lines[j].starts_with([' ', '\t']))
            {
                j += 1;
            }
            if j > i + 1 && lines[i + 1..j].iter().any(|l| !l.trim().is_empty()) {
                i = j;
                continue;
            }
        }
        out.push(line);
        i += 1;
    }
    let mut joined = out.join("\n");
    if text.ends_with('\n') {
        joined.push('\n');
    }
    joined
}

/// The text inside a provider's JSON response: OpenAI `choices[0].message.content` or the
/// Responses API's `output[].content[]` `output_text` parts, Anthropic
/// `content[].text`, Ollama `message.content` or `response`, Gemini `candidates[0].content.parts`.
fn unwrap_envelope(text: &str) -> Option<String> {
    let t = text.trim();
    // A response body fenced whole: its content.
    let doc = crate::markdown::Doc::parse(t);
    let body = match doc.blocks.as_slice() {
        [b] => match &b.kind {
            crate::markdown::Kind::Code(c) if c.fence.is_some() => Some(c.body.clone()),
            _ => None,
        },
        _ => None,
    };
    let t = body.as_deref().map_or(t, str::trim);
    // A terminal copy keeps the command that printed it (`$ gemini -p "…" --output-format
    // json`) above the JSON.
    let t = terminal::below_command(t);
    if !t.starts_with('{') {
        return None;
    }
    let v: Value = serde_json::from_str(t).ok()?;
    let from_openai = v
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("message"))
        .and_then(|m| m.get("content"))
        .and_then(Value::as_str);
    let from_anthropic = (v.get("type").and_then(Value::as_str) == Some("message"))
        .then(|| v.get("content").and_then(Value::as_array))
        .flatten()
        .map(|parts| {
            parts
                .iter()
                .filter(|p| p.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n")
        });
    let from_ollama = v
        .get("message")
        .and_then(|m| m.get("content"))
        .and_then(Value::as_str)
        .or_else(|| {
            // `/api/generate`: `response` beside `model` and `done`; the gemini and qwen CLIs'
            // `--output-format json`: `response` beside `stats`.
            v.get("done")
                .or_else(|| v.get("stats"))
                .and_then(|_| v.get("response"))
                .and_then(Value::as_str)
        });
    // Gemini's `generateContent`: `candidates[0].content.parts[].text` (thoughts left out).
    let from_gemini = v
        .get("candidates")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("content"))
        .and_then(|c| c.get("parts"))
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter(|p| p.get("thought").and_then(Value::as_bool) != Some(true))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n")
        });
    // OpenAI's Responses API: `output[]` messages whose `content[]` parts are `output_text`
    // (reasoning items left out), or the SDKs' `output_text` convenience field.
    let from_responses = (v.get("object").and_then(Value::as_str) == Some("response"))
        .then(|| {
            let parts: Vec<&str> = v
                .get("output")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|o| o.get("type").and_then(Value::as_str) == Some("message"))
                .filter_map(|o| o.get("content").and_then(Value::as_array))
                .flatten()
                .filter(|p| p.get("type").and_then(Value::as_str) == Some("output_text"))
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect();
            if parts.is_empty() {
                v.get("output_text")
                    .and_then(Value::as_str)
                    .map(str::to_string)
            } else {
                Some(parts.join("\n"))
            }
        })
        .flatten();
    let said = from_openai
        .map(str::to_string)
        .or(from_responses)
        .or(from_anthropic)
        .or(from_ollama.map(str::to_string))
        .or(from_gemini)
        .filter(|t| !t.trim().is_empty());
    // A model made to answer through a tool ("submit_review") puts the review in the call's
    // arguments, with no text or beside it: they are the answer too.
    let called = tool_arguments(&v);
    match (said, called.is_empty()) {
        (Some(t), true) => Some(t),
        (None, false) => Some(called.join("\n\n")),
        (Some(t), false) => Some(format!(
            "{t}\n\n{}",
            called
                .iter()
                .map(|c| format!("```json\n{c}\n```"))
                .collect::<Vec<_>>()
                .join("\n\n")
        )),
        (None, true) => None,
    }
}

/// The arguments of the tool calls in a provider's response, as JSON text: OpenAI's
/// `tool_calls[].function.arguments` (a string) and the Responses API's `function_call` items,
/// Anthropic's `tool_use` blocks' `input`, Gemini's `functionCall.args`.
fn tool_arguments(v: &Value) -> Vec<String> {
    let as_text = |a: &Value| match a {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let openai = v
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("message"))
        .and_then(|m| m.get("tool_calls"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|c| c.get("function")?.get("arguments"));
    let responses = v
        .get("output")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|o| o.get("type").and_then(Value::as_str) == Some("function_call"))
        .filter_map(|o| o.get("arguments"));
    let anthropic = v
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|p| p.get("type").and_then(Value::as_str) == Some("tool_use"))
        .filter_map(|p| p.get("input"));
    let gemini = v
        .get("candidates")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("content"))
        .and_then(|c| c.get("parts"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|p| p.get("functionCall")?.get("args"));
    openai
        .chain(responses)
        .chain(anthropic)
        .chain(gemini)
        .map(as_text)
        .filter(|t| !t.trim().is_empty())
        .collect()
}

/// A legend line (`Legend: 🛑 must fix · ⚠️ should fix · 💡 optional`, or a line of several
/// `🔴 Critical / 🟠 High` pairs), or the lines under a legend's label one pair each (Qodo's
/// `<summary>Compliance status legend</summary>` then `🟢 - Fully Compliant<br>`), defines what
/// its emoji mean in this answer: every other occurrence is replaced by the words, in
/// brackets, so the markers read them (a level, or how a check stands: `[ok]`, `[Not
/// Compliant]`). A labelled legend that holds nothing but its pairs is said to no one: it goes.
fn apply_legend(text: &str) -> String {
    static PAIR: OnceLock<Pattern> = OnceLock::new();
    let pair = re(
        &PAIR,
        r"(\p{Extended_Pictographic}\u{FE0F}?|\([^\w\s()]{1,2}\))\s*[:=–—-]?\s*([A-Za-z][A-Za-z -]{1,40}?)\s*(?:[·|,/;]|$)",
    );
    let mut legend: Vec<(String, String)> = Vec::new();
    let mut legend_lines = Vec::new();
    let mut said = Vec::new();
    let mut under_label = false;
    for (i, line) in text.lines().enumerate() {
        let line = line
            .replace("<br>", "")
            .replace("<br/>", "")
            .replace("<br />", "");
        // (A pair whose words are neither a level nor a check's state, `🏷️ - Compliance
        // label`, is still part of the legend.)
        let all = pair.captures_iter(&line).count();
        let pairs: Vec<(String, String)> = pair
            .captures_iter(&line)
            .filter_map(|c| Some((c[1].to_string(), meaning(&c[2])?)))
            .collect();
        let lower = line.trim_start().to_lowercase();
        let named =
            lower.starts_with("legend") || lower.starts_with("key:") || lower.contains("markers:");
        let found = !pairs.is_empty() || (under_label && all > 0);
        if pairs.len() >= 2 || ((named || under_label) && found) {
            legend.extend(pairs);
            legend_lines.push(i);
            // (Nothing but the label and the pairs: `Legend: 🟢 ok · 🔴 blocking`.)
            let rest = vocab::normalise(&pair.replace_all(&line, ""));
            // (Only a labelled one: a line of pairs alone may be a comment's own badges,
            // CodeRabbit's `⚠️ Potential issue | 🟡 Minor`.)
            if (named || under_label)
                && (rest.is_empty() || vocab::LEGEND_LABELS.contains(&rest.as_str()))
            {
                said.push(i);
            }
        } else if !line.trim().is_empty() {
            under_label = false;
        }
        // (A label of its own, `<summary>Compliance status legend</summary>`, opens a legend
        // of one pair a line.)
        if lower.contains("legend") && !found {
            under_label = true;
        }
    }
    if legend.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.lines().enumerate() {
        if said.contains(&i) {
            out.push('\n');
            continue;
        }
        let mut l = line.to_string();
        if !legend_lines.contains(&i) {
            for (mark, words) in &legend {
                if mark.starts_with('(') {
                    // A mark of punctuation (`(~) should fix`) only where it opens a line: in
                    // the middle of one, "(.)" is anyone's text.
                    let t = l.trim_start();
                    if let Some(rest) = t.strip_prefix(mark.as_str()) {
                        l = format!("[{words}]{rest}");
                    }
                } else {
                    l = l.replace(mark.as_str(), &format!("[{words}]"));
                }
            }
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// What a legend's definition says a mark means: a level ([`level_words`]), or how a check
/// stands (`ok`, `Fully Compliant`, `Not Compliant`, `pending`).
fn meaning(definition: &str) -> Option<String> {
    level_words(definition).or_else(|| {
        vocab::check_of(definition)
            .is_some()
            .then(|| definition.trim().to_string())
    })
}

/// The words of a legend's definition that name a level: all of them ("should fix"), or the
/// longest opening that does ("must fix before merge" is "must fix", "should fix in this PR"
/// is "should fix").
fn level_words(definition: &str) -> Option<String> {
    let words: Vec<&str> = definition.split_whitespace().collect();
    (1..=words.len().min(4))
        .rev()
        .map(|n| words[..n].join(" "))
        .find(|w| vocab::severity_of(w).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_web_page_copy_loses_its_bylines_link_definitions_and_unfenced_code() {
        let page = "src/a.ts\nComment on lines +4 to +5\n    let x = open(d.id)\n    done()\n\
                    @bot\nbot bot\n2 hours ago\nP2: the handle leaks.\n@dev\tReply...\n\n\
                    [MAJOR]: https://example.com/major.png 'Severity: MAJOR'\n";
        let out = prepare(page);
        assert!(
            out.contains("```\n    let x = open(d.id)\n    done()\n```"),
            "{out}"
        );
        for gone in ["@bot", "bot bot", "hours ago", "Reply", "[MAJOR]:"] {
            assert!(!out.contains(gone), "{gone}: {out}");
        }
        assert!(out.contains("P2: the handle leaks."));
        // Inside a fence, and a line that only mentions a name, nothing changes.
        let yaml = "```yaml\n- file: |\n    src/a.py\n    issue: x\n```\n@alice said it";
        assert_eq!(prepare(yaml), yaml);
    }

    #[test]
    fn thinking_envelopes_and_legends() {
        assert_eq!(prepare("<think>hmm, the loop</think>\nLGTM").trim(), "LGTM");
        assert_eq!(
            prepare("Thinking...\nfirst this\n...done thinking.\n\nLGTM").trim(),
            "LGTM"
        );
        let openai = r###"{"choices":[{"message":{"role":"assistant","content":"## P1\n- x"}}]}"###;
        assert_eq!(prepare(openai).trim(), "## P1\n- x");
        let anthropic = r#"{"type":"message","content":[{"type":"text","text":"LGTM"}]}"#;
        assert_eq!(prepare(anthropic).trim(), "LGTM");
        // The gemini CLI's JSON output, with the command that printed it above it.
        let cli = "$ gemini -p \"review\" --output-format json\n{\"response\": \"## P1\\n- x\", \"stats\": {}}";
        assert_eq!(prepare(cli).trim(), "## P1\n- x");
        let banner = "Loaded cached credentials.\n{\"response\": \"LGTM\", \"stats\": {}}";
        let claude = "$ git diff --cached | claude -p \"review\" --output-format json\n\
{\"type\": \"result\", \"is_error\": false, \"result\": \"## P1 x\"}";
        assert_eq!(prepare(claude).trim(), "## P1 x");
        assert_eq!(prepare(banner).trim(), "LGTM");
        // Without `stats` beside it, a `response` key is anybody's.
        let other = r#"{"response": "LGTM", "id": 3}"#;
        assert_eq!(prepare(other), other);
        // A review answered through a tool call: its arguments.
        let tool = r#"{"choices":[{"message":{"content":null,"tool_calls":[{"function":{"name":"submit_review","arguments":"{\"approve\": false}"}}]}}]}"#;
        assert_eq!(prepare(tool).trim(), r#"{"approve": false}"#);
        let tool_use = r#"{"type":"message","content":[{"type":"text","text":"Two problems."},{"type":"tool_use","name":"review","input":{"findings":[]}}]}"#;
        assert!(prepare(tool_use).contains("Two problems.\n\n```json\n{\"findings\":[]}\n```"));
        let legend = "Legend: 🛑 must fix · ⚠️ should fix · 💡 optional\n\n🛑 [14]: key is wrong";
        assert!(prepare(legend).contains("[must fix] [14]: key is wrong"));
        // A definition that goes on after its level words, and a "Key:" line.
        let legend =
            "Key: 🔴 = must fix before merge · 💭 = optional / nit\n\n💭 **Name** — `a.go:3`";
        assert!(
            prepare(legend).contains("[optional] **Name**"),
            "{}",
            prepare(legend)
        );
        let legend = "Legend: 🔴 = must fix before merge · 🟡 = should fix soon\n\n🔴 `a.kt:73` — drops edits";
        assert!(prepare(legend).contains("[must fix] `a.kt:73`"));
        // Marks of punctuation, at the start of a line only.
        let marks = "Markers: (!) must fix · (~) should fix · (.) nit\n\n(~) a.sql:19 — no index\n\nSee f(.) here.";
        let out = prepare(marks);
        assert!(out.contains("[should fix] a.sql:19"), "{out}");
        assert!(out.contains("See f(.) here."), "{out}");
        // A code host's byline in another language; a bold level before a dot is no byline.
        for byline in [
            "**GitLab Duo** @GitLabDuo · kommentiert",
            "**Lucía Ferrer** comentó en el diff · hace 3 horas",
        ] {
            assert!(
                !prepare(&format!("{byline}\nSchweregrad: mittel")).contains("**"),
                "{byline}"
            );
        }
        assert!(prepare("**High** · Security · Reliability\nx").contains("**High**"));
        let thread = "qodo-merge-pro[bot] · review thread\nsrc/a.js:27\n**Suggestion:** x";
        assert!(!prepare(thread).contains("qodo"));
        assert!(prepare("The bot commented on this line.").contains("commented"));
        // A numeric scale stated in prose, applied to JSON severities.
        let scale = "Scale: 5 = critical, 4 = high, 3 = medium, 2 = low.\n{\"severity\": 4}";
        assert!(prepare(scale).contains("\"severity\": \"high\""));
        // Not a legend: one emoji in prose.
        assert_eq!(prepare("🔴 the build is red").trim(), "🔴 the build is red");
    }

    #[test]
    fn a_message_hung_under_an_agents_bullet_is_set_back_to_the_margin() {
        let tui = "• Review: current changes\n\n  Two things.\n\n  - [ ] [P2] Close the body — a.go:88\n        Why it matters.\n";
        let out = prepare(tui);
        assert!(out.starts_with("Review: current changes\n"), "{out}");
        assert!(
            out.contains("\n- [ ] [P2] Close the body — a.go:88\n      Why"),
            "{out}"
        );
        // A bullet with nothing hung under it is a list item as before.
        assert_eq!(prepare("• one\n• two\n"), "• one\n• two");
    }
}
