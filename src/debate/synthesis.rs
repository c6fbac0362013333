//! The verdict: the judge reads the transcript (with the tool's citation marks) and must pick a
//! side. A verdict that names none is asked again once; if the second names none either, it is
//! kept and marked undecided, never turned into a winner by us. The judge's answer is untrusted
//! text: read with the tolerant JSON reader, every field optional, the prose as a fallback.

use serde_json::Value;

use crate::debate::{transcript, Duel, Exchange, Verdict};
use crate::prompts::Template;

impl Duel<'_> {
    /// The verdict and the model that gave it; `None` (with a note) when the judge failed.
    pub(super) fn synthesize(
        &self,
        ex: &[Exchange],
        notes: &mut Vec<String>,
    ) -> (Option<Verdict>, Option<String>) {
        let transcript = transcript(&self.topic, ex, &[]);
        let sides = (self.proposer.name(), self.challenger.name());
        let Ok(prompt) = Template::DebateSynthesis.render(
            self.templates.as_deref(),
            &[
                ("topic", self.topic.as_str()),
                ("proposer", sides.0),
                ("challenger", sides.1),
                ("transcript", &transcript),
            ],
        ) else {
            notes.push("[WARN] The synthesis template could not be read; no verdict.".into());
            return (None, None);
        };
        let rounds = ex.last().map_or(1, |e| e.round);
        let ask = |prompt: &str| {
            let slice = self.budget.verdict();
            let req = self.request(prompt, slice);
            crate::ui::progress::with_progress(
                self.judge.name(),
                (rounds, self.rounds),
                "verdict",
                || self.judge.ask(&req),
            )
            .map_err(|e| self.why_failed(&e, slice))
        };
        let first = match ask(&prompt) {
            Ok(a) => a,
            Err(why) => {
                notes.push(format!(
                    "[WARN] The synthesis failed ({why}); the transcript stands without a verdict."
                ));
                return (None, None);
            }
        };
        let _ = self.session.write("synthesis.md", first.text.as_bytes());
        let mut verdict = parse_verdict(&first.text, sides);
        if verdict.winner.is_some() {
            return (Some(verdict), first.model);
        }
        // The verdict must pick a side. Once more, with the first answer quoted.
        let again = Template::DebateRepick
            .render(
                self.templates.as_deref(),
                &[("previous", first.text.trim())],
            )
            .map(|r| format!("{prompt}\n\n{r}"));
        let second = again.map_err(|e| format!("{e:#}")).and_then(|p| ask(&p));
        verdict.asked = 2;
        match second {
            Ok(a) => {
                let _ = self.session.write("synthesis.md", a.text.as_bytes());
                let _ = self
                    .session
                    .write("synthesis-undecided.md", first.text.as_bytes());
                let v = parse_verdict(&a.text, sides);
                if v.winner.is_some() {
                    return (Some(Verdict { asked: 2, ..v }), a.model);
                }
                notes.push(
                    "[WARN] The judge named no side, even when asked again; the verdict is \
                     marked undecided."
                        .into(),
                );
                (Some(Verdict { asked: 2, ..v }), a.model)
            }
            Err(why) => {
                notes.push(format!(
                    "[WARN] The judge named no side, and asking again failed ({why}); the \
                     verdict is marked undecided."
                ));
                (Some(verdict), first.model)
            }
        }
    }
}

/// Reads a synthesis: its JSON block, else the prose. `sides` are the proposer's and the
/// challenger's tool names, which a judge may name instead of the roles (the state
/// record names the winner by tool too).
pub fn parse_verdict(text: &str, sides: (&str, &str)) -> Verdict {
    let block = crate::answer::json::json_blocks(text)
        .into_iter()
        .rev()
        .find(|v| v.get("winner").is_some() || v.get("reasoning").is_some());
    let Some(v) = block else {
        return Verdict {
            winner: winner_in_prose(text, sides),
            reasoning: text.trim().to_string(),
            asked: 1,
            ..Default::default()
        };
    };
    let text_of = |v: &Value, k: &str| {
        v.get(k)
            .map(|x| match x {
                Value::String(s) => s.trim().to_string(),
                Value::Null => String::new(),
                other => other.to_string(),
            })
            .unwrap_or_default()
    };
    let items = |k: &str, each: &dyn Fn(&Value) -> String| -> Vec<String> {
        v.get(k)
            .and_then(Value::as_array)
            .map(|a| a.iter().map(each).filter(|s| !s.is_empty()).collect())
            .unwrap_or_default()
    };
    let plain = |x: &Value| match x {
        Value::String(s) => s.trim().to_string(),
        Value::Object(_) => text_of(x, "point"),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    let agreement = |x: &Value| match (text_of(x, "point"), text_of(x, "evidence")) {
        (p, e) if !p.is_empty() && !e.is_empty() => format!("{p} (evidence: {e})"),
        (p, _) if !p.is_empty() => format!("{p} (evidence: none given)"),
        _ => plain(x),
    };
    let disagreement = |x: &Value| {
        let (p, pro, con) = (
            text_of(x, "point"),
            text_of(x, "proposer"),
            text_of(x, "challenger"),
        );
        if p.is_empty() {
            return plain(x);
        }
        let mut s = p;
        if !pro.is_empty() || !con.is_empty() {
            s.push_str(&format!(
                ": {} argues {pro}, {} argues {con}",
                sides.0, sides.1
            ));
        }
        s
    };
    Verdict {
        winner: side_named(&text_of(&v, "winner"), sides),
        reasoning: text_of(&v, "reasoning"),
        quality: v.get("quality").cloned().unwrap_or(Value::Null),
        agreements: items("agreements", &agreement),
        disagreements: items("disagreements", &disagreement),
        unresolved: items("unresolved", &plain),
        recommendation: text_of(&v, "recommendation"),
        asked: 1,
    }
}

/// The side a `winner` value names: exactly one of the roles or the tools. `proposer|challenger`
/// copied from the prompt, `both`, `tie` or `neither` name none.
fn side_named(value: &str, sides: (&str, &str)) -> Option<String> {
    let v = value.to_ascii_lowercase();
    let names = |role: &str, tool: &str| v.contains(role) || mentions(&v, tool);
    match (names("proposer", sides.0), names("challenger", sides.1)) {
        (true, false) => Some("proposer".into()),
        (false, true) => Some("challenger".into()),
        _ => None,
    }
}

/// Whether lowercase `text` names `tool` as a word of its own (`Claude (Opus)` names claude;
/// `claudette` does not).
fn mentions(text: &str, tool: &str) -> bool {
    let tool = tool.to_ascii_lowercase();
    if tool.is_empty() {
        return false;
    }
    let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
    text.match_indices(&tool).any(|(i, _)| {
        !word(text[..i].chars().next_back()) && !word(text[i + tool.len()..].chars().next())
    })
}

/// "The proposer wins", "Winner: challenger", "codex had the stronger argument": a side named
/// once, and the other not.
fn winner_in_prose(text: &str, sides: (&str, &str)) -> Option<String> {
    // Markdown emphasis aside: `**Winner:** Challenger` reads as `winner: challenger`.
    let lower: String = text
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !matches!(c, '*' | '_'))
        .collect();
    let says = |role: &str, tool: &str| {
        let mut who = vec![role.to_string()];
        if !tool.is_empty() {
            who.push(tool.to_ascii_lowercase());
        }
        who.iter().any(|w| {
            lower.contains(&format!("{w} wins"))
                || lower.contains(&format!("winner: {w}"))
                || lower.contains(&format!("winner**: {w}"))
                || lower.contains(&format!("{w} had the stronger argument"))
        })
    };
    match (says("proposer", sides.0), says("challenger", sides.1)) {
        (true, false) => Some("proposer".into()),
        (false, true) => Some("challenger".into()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIDES: (&str, &str) = ("claude", "codex");

    #[test]
    fn verdicts_from_json_or_prose() {
        let v = parse_verdict("Verdict.\n```json\n{\"winner\":\"Challenger\",\"reasoning\":\"better evidence\",\"agreements\":[\"a\"],\"recommendation\":\"keep Redis\"}\n```", SIDES);
        assert_eq!(v.winner.as_deref(), Some("challenger"));
        assert_eq!(v.agreements, ["a"]);
        let v = parse_verdict("The proposer wins on evidence.", SIDES);
        assert_eq!(v.winner.as_deref(), Some("proposer"));
        let v = parse_verdict(
            "codex had the stronger argument because it measured.",
            SIDES,
        );
        assert_eq!(v.winner.as_deref(), Some("challenger"));
        assert!(parse_verdict("Both made fair points.", SIDES)
            .winner
            .is_none());
    }

    #[test]
    fn a_winner_is_one_side_by_role_or_tool_never_the_template_s_placeholder() {
        let w = |s: &str| parse_verdict(&format!("{{\"winner\": \"{s}\"}}"), SIDES).winner;
        assert_eq!(w("claude").as_deref(), Some("proposer"));
        assert_eq!(w("Codex").as_deref(), Some("challenger"));
        assert_eq!(w("the challenger (codex)").as_deref(), Some("challenger"));
        assert_eq!(w("Claude (Opus 4.5)").as_deref(), Some("proposer"));
        assert_eq!(w("claudette"), None);
        assert_eq!(w("claude and codex"), None);
        assert_eq!(w("proposer|challenger"), None);
        assert_eq!(w("tie"), None);
        assert_eq!(w("both"), None);
    }

    #[test]
    fn agreements_keep_their_evidence_and_disagreements_both_sides() {
        let v = parse_verdict(
            r#"```json
{"winner": "proposer", "agreements": [{"point": "overflow is a bug", "evidence": "src/lib.rs:2"}, {"point": "tests are thin"}, "plain"],
 "disagreements": [{"point": "saturate or check", "proposer": "saturate", "challenger": "checked_add"}],
 "unresolved": ["speed", 3]}
```"#,
            SIDES,
        );
        assert_eq!(
            v.agreements,
            [
                "overflow is a bug (evidence: src/lib.rs:2)",
                "tests are thin (evidence: none given)",
                "plain"
            ]
        );
        assert_eq!(
            v.disagreements,
            ["saturate or check: claude argues saturate, codex argues checked_add"]
        );
        assert_eq!(v.unresolved, ["speed", "3"]);
    }
}
