//! Every answer is redacted where it enters: a reviewer that reads files on its own (an agent
//! CLI's tools) can quote a secret back, and an answer is stored (`round-N-critique.md`,
//! `round-N.json`, `summary.json`), printed and sent on in the next prompt (the judge's, the
//! author's). [`registry::build`](crate::agents::registry::build) wraps each backend in [`Redacting`], so
//! nothing downstream ever holds the unredacted text. A redaction is never silent: the answer
//! carries a note with the count (kept in the round's record and its report), and stderr gets one
//! warning line naming who answered.

use crate::agents::{Answer, Backend, BackendError, Family, Request};
use crate::redact::Redacted;

/// The line an answer that had secrets redacted is shown with.
pub const REDACTED_WARNING: &str = "[WARN] Sensitive tokens were redacted from the response.";

/// [`REDACTED_WARNING`] with how many were redacted.
pub fn warning(count: usize) -> String {
    format!(
        "{REDACTED_WARNING} ({count} redaction{})",
        if count == 1 { "" } else { "s" }
    )
}

/// A backend whose answers come back redacted.
pub struct Redacting(pub Box<dyn Backend>);

impl Backend for Redacting {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn family(&self) -> &Family {
        self.0.family()
    }
    fn model(&self) -> Option<&str> {
        self.0.model()
    }
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn transport(&self) -> &'static str {
        self.0.transport()
    }
    fn reads_files(&self, no_tools: bool) -> bool {
        self.0.reads_files(no_tools)
    }
    fn ask(&self, req: &Request) -> Result<Answer, BackendError> {
        let (a, hidden) = redact_answer(self.0.ask(req)?);
        if hidden.count > 0 {
            // Said once an answer: the user learns that the reviewer read (and quoted) a secret,
            // never the secret.
            crate::errln!(
                "[WARN] Sensitive tokens were redacted from {}'s answer ({}: {})",
                crate::ui::terminal::clean_line(self.0.name()),
                hidden.count,
                hidden.kind_list()
            );
        }
        Ok(a)
    }
}

/// The start of the note an answer carries when something was redacted from it, recorded with
/// its call (`round-N.json`) and in the round's notes (the report).
pub const REDACTED_NOTE: &str = "sensitive tokens redacted: ";

/// The answer with its text, structured object, reported model and the paths it changed
/// redacted (a path can carry a secret in its name), and what was hidden: counted once per
/// secret (an answer's structured object repeats its text), and said in a note of the answer.
pub fn redact_answer(mut a: Answer) -> (Answer, Redacted) {
    let text = crate::redact::redact(&a.text, None);
    if text.count > 0 {
        a.text = text.text.clone();
    }
    let structured = a
        .structured
        .as_mut()
        .map(crate::redact::redact_json)
        .unwrap_or_default();
    // The larger of the two, kind by kind: the object and the text are one answer.
    let mut hidden = Redacted::default();
    for (k, n) in text.kinds.iter().chain(&structured.kinds) {
        let e = hidden.kinds.entry(k).or_default();
        *e = (*e).max(*n);
    }
    hidden.count = hidden.kinds.values().sum();
    if let Some(m) = a.model.as_mut() {
        let r = crate::redact::redact(m, None);
        *m = r.text.clone();
        hidden.absorb(&r);
    }
    for p in &mut a.tree_changes {
        let r = crate::redact::redact(p, None);
        *p = r.text.clone();
        hidden.absorb(&r);
    }
    if hidden.count > 0 {
        a.redactions += hidden.count;
        a.notes.push(format!(
            "{REDACTED_NOTE}{} ({})",
            hidden.count,
            hidden.kind_list()
        ));
    }
    (a, hidden)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_structure_and_paths_are_redacted() {
        // Split so this file does not itself look like a leak.
        let key = ["ghp_", "0123456789abcdefghijABCDEFGHIJ012345"].concat();
        let mut a = Answer::plain("x", format!("I read .env: TOKEN={key}"));
        a.structured = Some(serde_json::json!({"findings": [{"title": format!("leak {key}")}]}));
        a.tree_changes = vec![format!("keys/{key}.txt")];
        let (a, hidden) = redact_answer(a);
        let all = format!("{} {:?} {:?}", a.text, a.structured, a.tree_changes);
        assert!(!all.contains(&key), "{all}");
        assert_eq!(all.matches("[REDACTED:github-token]").count(), 3, "{all}");
        // The text and its object are one answer: its secret counts once, its path once more.
        assert_eq!(hidden.count, 2, "{hidden:?}");
        assert_eq!(
            a.notes,
            ["sensitive tokens redacted: 2 (github-token)".to_string()]
        );
    }
}
