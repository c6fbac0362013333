//! Failure hints in a topic debate's own words. Backend failures and routing errors are written
//! for the review (`pick another --reviewer`, `--max-rounds`); in a debate the flags are
//! `--proposer`/`--challenger`, `--judge`, `--debater` and the panel's role flags, and `--rounds`.

use crate::error::{BackendError, Unavailable, UsageError};

/// `text` with the review's flags replaced by the topic's.
pub fn for_topic(text: &str) -> String {
    [
        (
            "pick another --reviewer",
            "pick another backend (--proposer, --challenger, --judge; in a panel --debater, \
             --audience, --reporter, --assessor)",
        ),
        (
            "choose --reviewer from another family",
            "choose --challenger from another family",
        ),
        (
            "--allow-same-family with --reviewer",
            "--allow-same-family with --challenger",
        ),
        ("set debate.reviewer to", "pass --challenger"),
        ("--reviewer 'exec:", "--challenger 'exec:"),
        ("--reviewer openai:", "--challenger openai:"),
        ("lower --max-rounds", "lower --rounds"),
    ]
    .iter()
    .fold(text.to_string(), |t, (from, to)| t.replace(from, to))
}

/// An error of a topic command, its words in the topic's flags, its kind (and so its exit code)
/// kept.
pub fn in_topic_words(err: anyhow::Error) -> anyhow::Error {
    if let Some(b) = err.chain().find_map(|c| c.downcast_ref::<BackendError>()) {
        let mut b = b.clone();
        b.hint = for_topic(&b.hint);
        // The contexts around it are kept, outermost last.
        let outer: Vec<String> = err
            .chain()
            .take_while(|c| !c.is::<BackendError>())
            .map(|c| c.to_string())
            .collect();
        return outer
            .into_iter()
            .rev()
            .fold(anyhow::Error::from(b), |e, c| e.context(c));
    }
    let mut msg = err.to_string();
    for cause in err.chain().skip(1) {
        msg.push_str(": ");
        msg.push_str(&cause.to_string());
    }
    let rewritten = for_topic(&msg);
    if rewritten == msg {
        return err;
    }
    if err.chain().any(|c| c.is::<UsageError>()) {
        UsageError::new(rewritten).into()
    } else if err.chain().any(|c| c.is::<Unavailable>()) {
        Unavailable(rewritten).into()
    } else {
        err
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn review_flags_become_the_topic_s() {
        let t = super::for_topic("wait and retry, or pick another --reviewer");
        assert!(
            t.contains("--challenger") && !t.contains("--reviewer"),
            "{t}"
        );
    }
}
