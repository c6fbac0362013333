//! An agent CLI's output passed on whole — what an `exec:` wrapper around `codex exec --json`,
//! `claude -p --output-format stream-json`, `gemini -o json` or plain `codex exec 2>&1` prints —
//! opened to the answer inside it. The built-in adapters parse their own CLI's output; this is
//! for answers that reach the reader still wrapped, where the events around the answer (tool
//! calls, reasoning, usage) would otherwise be read as the review.

use serde_json::Value;

/// How the texts of matching events make the answer.
#[derive(Clone, Copy)]
enum Take {
    /// The last one is the final answer (earlier ones are progress messages).
    Last,
    /// They are pieces of one answer, joined with this separator.
    Join(&'static str),
}

/// One kind of event that carries answer text: the fields it must have (dotted paths; `*` is
/// "present"), where its text is, and how several combine. Earlier rules win.
struct EventText {
    when: &'static [(&'static str, &'static str)],
    text: &'static str,
    take: Take,
}

/// What each CLI's JSON output looks like (recorded in `tests/fixtures/<cli>/`).
const EVENT_TEXTS: &[EventText] = &[
    // claude -p --output-format json|stream-json, qwen -o json|stream-json: the final result
    // (an error's text is not an answer).
    EventText {
        when: &[("type", "result"), ("is_error", "false")],
        text: "result",
        take: Take::Last,
    },
    // codex exec --json: agent messages; the last is the answer.
    EventText {
        when: &[("type", "item.completed"), ("item.type", "agent_message")],
        text: "item.text",
        take: Take::Last,
    },
    // copilot --output-format json: whole assistant messages.
    EventText {
        when: &[("type", "assistant.message")],
        text: "data.content",
        take: Take::Last,
    },
    // opencode run --format json: text parts of the answer.
    EventText {
        when: &[("type", "text")],
        text: "part.text",
        take: Take::Join("\n\n"),
    },
    // gemini -o stream-json: assistant deltas.
    EventText {
        when: &[("type", "message"), ("role", "assistant")],
        text: "content",
        take: Take::Join(""),
    },
    // gemini -o json: one object (`session_id` since late 2025; before it, `response` and
    // `stats` alone).
    EventText {
        when: &[("session_id", "*")],
        text: "response",
        take: Take::Last,
    },
    EventText {
        when: &[("stats", "*")],
        text: "response",
        take: Take::Last,
    },
];

/// A CLI's human transcript (what `2>&1` captures): the banner it opens with, the line that
/// opens the agent's message and the line after its last message.
struct TextTranscript {
    banner: &'static str,
    message: &'static str,
    end: &'static str,
}

/// `codex exec` without `--json`: banner, the prompt echoed under `user`, `thinking` and `exec`
/// blocks, then `codex` and the answer, then `tokens used` (recorded in
/// `tests/fixtures/codex/ok-plain.stderr`).
const TEXT_TRANSCRIPTS: &[TextTranscript] = &[TextTranscript {
    banner: "OpenAI Codex v",
    message: "codex",
    end: "tokens used",
}];

/// The answer inside a CLI's JSON output or transcript, if `text` is one.
pub fn answer_in(text: &str) -> Option<String> {
    from_text_transcript(text).or_else(|| from_events(text))
}

/// The last message in a human transcript.
fn from_text_transcript(text: &str) -> Option<String> {
    let first = untimed(text.lines().find(|l| !l.trim().is_empty())?.trim());
    let t = TEXT_TRANSCRIPTS
        .iter()
        .find(|t| first.starts_with(t.banner))?;
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| untimed(l).trim_end() == t.message)?
        + 1;
    let end = lines[start..]
        .iter()
        .position(|l| {
            let l = untimed(l).trim_end();
            l == t.end || l.strip_prefix(t.end).is_some_and(|r| r.starts_with(':'))
        })
        .map_or(lines.len(), |i| start + i);
    let answer = lines[start..end].join("\n");
    (!answer.trim().is_empty()).then_some(answer)
}

/// A transcript line without the timestamp earlier CLI versions put before each block
/// (`[2026-10-14T09:12:24] codex`, `[2026-10-14T09:12:24] tokens used: 18,406`).
fn untimed(line: &str) -> &str {
    line.strip_prefix('[')
        .and_then(|rest| rest.split_once(']'))
        .filter(|(stamp, _)| {
            stamp.len() >= 10
                && stamp.as_bytes()[..4].iter().all(u8::is_ascii_digit)
                && stamp
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b"-:T.Z+ ".contains(&b))
        })
        .map_or(line, |(_, rest)| rest.trim_start())
}

fn from_events(text: &str) -> Option<String> {
    let events = events(text)?;
    EVENT_TEXTS.iter().find_map(|rule| {
        let texts: Vec<&str> = events
            .iter()
            .filter(|e| rule.when.iter().all(|(path, want)| matches(e, path, want)))
            .filter_map(|e| at(e, rule.text).and_then(Value::as_str))
            .filter(|t| !t.trim().is_empty())
            .collect();
        match rule.take {
            _ if texts.is_empty() => None,
            Take::Last => texts.last().map(|t| t.to_string()),
            Take::Join(sep) => Some(texts.join(sep)),
        }
    })
}

/// The events: one JSON object, a JSON array of objects (qwen `-o json`), or JSON lines. Lines
/// that are not JSON (a wrapper's banner) are skipped; at least one must be.
fn events(text: &str) -> Option<Vec<Value>> {
    let t = text.trim();
    if !t.starts_with('{') && !t.starts_with('[') {
        return None;
    }
    match serde_json::from_str::<Value>(t) {
        Ok(Value::Array(items)) => Some(items),
        Ok(v @ Value::Object(_)) => Some(vec![v]),
        Ok(_) => None,
        Err(_) => {
            let lines: Vec<Value> = t
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with('{'))
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .collect();
            (!lines.is_empty()).then_some(lines)
        }
    }
}

fn at<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(v, |v, key| v.get(key))
}

fn matches(v: &Value, path: &str, want: &str) -> bool {
    match at(v, path) {
        None => false,
        Some(_) if want == "*" => true,
        Some(Value::String(s)) => s == want,
        Some(Value::Bool(b)) => (want == "true") == *b,
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorded(cli: &str, name: &str) -> String {
        let path = format!(
            "{}/tests/fixtures/{cli}/{name}.stdout",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn a_bracketed_line_of_wide_letters_is_no_timestamp_and_no_crash() {
        // (Ten bytes, the fourth inside a Korean letter: slicing by bytes would panic.)
        assert_eq!(untimed("[중요도: 낮음] 재시도"), "[중요도: 낮음] 재시도");
        assert_eq!(untimed("[2026-10-14T09:12:24] codex"), "codex");
    }

    #[test]
    fn every_clis_recorded_output_opens_to_its_answer() {
        let answer = "FAKE-ANSWER: No, add() subtracts; it should return a + b.";
        for (cli, name) in [
            ("claude", "ok"),
            ("claude", "ok-stream-json"),
            ("codex", "ok"),
            ("gemini", "ok"),
            ("opencode", "ok"),
            ("copilot", "ok"),
            ("qwen", "ok"),
        ] {
            let got = answer_in(&recorded(cli, name));
            assert_eq!(got.as_deref().map(str::trim), Some(answer), "{cli}/{name}");
        }
        // codex without --json, stderr and stdout captured together.
        let path = format!(
            "{}/tests/fixtures/codex/ok-plain.stderr",
            env!("CARGO_MANIFEST_DIR")
        );
        let both = std::fs::read_to_string(path).unwrap() + &recorded("codex", "ok-plain");
        assert_eq!(answer_in(&both).as_deref().map(str::trim), Some(answer));
    }

    #[test]
    fn errors_progress_and_other_json_are_not_answers() {
        // claude reports an API error as a result with is_error.
        let error =
            r#"{"type":"result","subtype":"success","is_error":true,"result":"API Error: 500"}"#;
        assert_eq!(answer_in(error), None);
        // codex: the last agent message is the answer, reasoning is not.
        let codex =
            "{\"type\":\"item.completed\",\"item\":{\"type\":\"reasoning\",\"text\":\"hmm\"}}\n\
{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"looking\"}}\n\
{\"type\":\"item.completed\",\"item\":{\"type\":\"agent_message\",\"text\":\"LGTM\"}}\n";
        assert_eq!(answer_in(codex).as_deref(), Some("LGTM"));
        // An older gemini -o json: `response` and `stats`, no session id.
        let gemini = r#"{"response":"| Impact | Issue |","stats":{"models":{}}}"#;
        assert_eq!(answer_in(gemini).as_deref(), Some("| Impact | Issue |"));
        // A review in JSON is not a transcript.
        assert_eq!(answer_in(r#"{"verdict":"approve","findings":[]}"#), None);
        assert_eq!(answer_in("## P1\n- x"), None);
    }
}
