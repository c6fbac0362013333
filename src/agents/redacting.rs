//! Every answer is redacted where it enters: a reviewer that reads files on its own (an agent
//! CLI's tools) can quote a secret back, and an answer is stored (`round-N-critique.md`,
//! `round-N.json`, `summary.json`), printed and sent on in the next prompt (the judge's, the
//! author's). [`registry::build`](crate::agents::registry::build) wraps each backend in [`Redacting`], so
//! nothing downstream ever holds the unredacted text.

use crate::agents::{Answer, Backend, BackendError, Family, Request};

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
        self.0.ask(req).map(redact_answer)
    }
}

/// The answer with its text, structured object, reported model and the paths it changed
/// redacted (a path can carry a secret in its name).
pub fn redact_answer(mut a: Answer) -> Answer {
    let r = crate::redact::redact(&a.text, None);
    if r.count > 0 {
        a.text = r.text;
    }
    if let Some(v) = a.structured.as_mut() {
        crate::redact::redact_json(v);
    }
    if let Some(m) = a.model.as_mut() {
        *m = crate::redact::redact(m, None).text;
    }
    for p in &mut a.tree_changes {
        *p = crate::redact::redact(p, None).text;
    }
    a
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
        let a = redact_answer(a);
        let all = format!("{} {:?} {:?}", a.text, a.structured, a.tree_changes);
        assert!(!all.contains(&key), "{all}");
        assert_eq!(all.matches("[REDACTED:github-token]").count(), 3, "{all}");
    }
}
