//! Findings the author's judge disputed, back with the reviewer who raised them.
//!
//! Severity and existence belong to the reviewer. When the judge rules one of its findings
//! invalid or missing context, or lowers its level for the gate, the finding is not gone: the
//! next round's prompt lists it with the judge's ruling and reason, and asks the reviewer to hold
//! it (with evidence), withdraw it, or lower it. Its answer is read tolerantly
//! ([`crate::answer::dispute`]). A finding it withdraws leaves the record (listed as withdrawn);
//! one it lowers comes back at its new level; one it holds, raises again or says nothing of comes
//! back as it stands, for the judge to rule on again. An answer that approves the change as a
//! whole and holds nothing withdraws them all: it is the reviewer's own word that nothing stands.

use std::collections::BTreeMap;

use crate::answer::dispute::{Replies, Reply};
use crate::answer::judge::{Judged, Rejoinder, Rejoined};
use crate::findings::{Finding, Severity};
use crate::review::record::{Round, Withdrawn};

/// The disputed findings of `last`, which go back to the reviewer in the next round.
pub fn open(last: Option<&Round>) -> Vec<&Judged> {
    last.map(|r| r.findings.iter().filter(|j| j.disputed()).collect())
        .unwrap_or_default()
}

/// `(id, title)` of each open dispute, as the reply reader wants them.
pub fn asked(open: &[&Judged]) -> Vec<(String, String)> {
    open.iter()
        .map(|j| (j.finding.id.clone(), j.finding.title.clone()))
        .collect()
}

/// The judge's ruling on `j`, in words: `invalid: the lock is released`, `valid at P3: …`.
pub fn ruling_words(j: &Judged) -> String {
    let Some(r) = &j.ruling else {
        return "not ruled".into();
    };
    let mut s = j.verdict_label().to_string();
    if let Some(sev) = r.severity.filter(|s| *s != j.finding.severity) {
        s.push_str(&format!(" at {}", sev.describe()));
    }
    if !r.reason.is_empty() {
        s.push_str(&format!(": {}", r.reason));
    }
    s
}

/// The disputes for the reviewer's prompt: the findings, fenced as data, and our request after
/// the fence. Empty when nothing is disputed.
pub fn prompt(open: &[&Judged]) -> String {
    if open.is_empty() {
        return String::new();
    }
    let list: String = open
        .iter()
        .map(|j| {
            let at = j
                .finding
                .where_()
                .map(|w| format!(" ({w})"))
                .unwrap_or_default();
            format!(
                "- {} [{}] {}{at}\n  the author's judge ruled: {}\n",
                j.finding.id,
                j.finding.severity.describe(),
                j.finding.title,
                ruling_words(j).replace('\n', " ")
            )
        })
        .collect();
    format!(
        "\nThe author disputes these findings of yours:\n{}\
         They are your findings: only you can withdraw them or lower their level. For each one, \
         end your answer with a section `## Disputed findings`, one line per finding: \
         `- F<n>: hold — your evidence (path:line, a reproducing input)`, `- F<n>: withdraw — \
         why`, or `- F<n>: lower to P2 — why` (when your answer must be one JSON object, put \
         those lines at the end of its `summary`). A finding you do not answer stands as you \
         raised it. Do not list a disputed finding again among your findings.\n",
        crate::prompts::fence::wrap("DISPUTED FINDINGS", &list)
    )
}

/// How the open disputes ended this round.
#[derive(Debug, Default)]
pub struct Settled {
    /// Findings that come back into this round, with what the reviewer answered.
    pub back: Vec<Finding>,
    pub rejoinders: BTreeMap<String, Rejoinder>,
    pub withdrawn: Vec<Withdrawn>,
    pub notes: Vec<String>,
}

/// Settles the open disputes of round `n - 1` with the reviewer's `replies` and this round's
/// `findings` (ids already assigned: one raised again keeps its id). `agreement`: the answer
/// approves the change as a whole.
pub fn settle(
    n: u32,
    open: &[&Judged],
    replies: &Replies,
    findings: &[Finding],
    agreement: bool,
) -> Settled {
    let mut out = Settled::default();
    let holds_any = replies.said.values().any(|(r, _)| r.holds());
    for j in open {
        let f = &j.finding;
        let ruling = ruling_words(j);
        let rejoinder = |reply: Rejoined, words: String, from: Option<Severity>| Rejoinder {
            reply,
            round: n - 1,
            ruling: ruling.clone(),
            words,
            from,
        };
        if findings.iter().any(|g| g.id == f.id) {
            // Raised again: held, in this round's words.
            out.rejoinders.insert(
                f.id.clone(),
                rejoinder(Rejoined::Held, "raised it again".into(), None),
            );
            continue;
        }
        let said = replies.said.get(&f.id);
        if replies.ambiguous.contains(&f.id) {
            out.notes.push(format!(
                "{}: the reviewer's replies to the dispute contradict each other; it stands",
                f.id
            ));
        }
        match said {
            Some((Reply::Withdraw, words)) => out.withdrawn.push(Withdrawn {
                id: f.id.clone(),
                severity: f.severity,
                title: f.title.clone(),
                ruling,
                words: words.clone(),
            }),
            None if agreement && !holds_any && !replies.ambiguous.contains(&f.id) => {
                out.withdrawn.push(Withdrawn {
                    id: f.id.clone(),
                    severity: f.severity,
                    title: f.title.clone(),
                    ruling,
                    words: "the reviewer approved the change as a whole".into(),
                });
            }
            // Lowered, or held at a level of the reviewer's own: it stands at that level (the
            // reviewer owns its severity), held when that is above the one it was raised at.
            Some((Reply::Lower(s) | Reply::HoldAt(s), words)) if *s != f.severity => {
                let raised = matches!(said, Some((Reply::HoldAt(_), _))) && *s < f.severity;
                let reply = if raised {
                    Rejoined::Held
                } else {
                    Rejoined::Lowered
                };
                let mut back = f.clone();
                back.severity = *s;
                out.rejoinders.insert(
                    f.id.clone(),
                    rejoinder(reply, words.clone(), Some(f.severity)),
                );
                out.back.push(back);
            }
            Some((_, words)) => {
                out.rejoinders
                    .insert(f.id.clone(), rejoinder(Rejoined::Held, words.clone(), None));
                out.back.push(f.clone());
            }
            None => {
                out.rejoinders.insert(
                    f.id.clone(),
                    rejoinder(Rejoined::Silent, String::new(), None),
                );
                out.back.push(f.clone());
            }
        }
    }
    for w in &out.withdrawn {
        out.notes.push(format!(
            "{}: the reviewer withdrew it after the judge's ruling ({}){}",
            w.id,
            w.ruling,
            if w.words.is_empty() {
                String::new()
            } else {
                format!(": {}", w.words)
            }
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::judge::{Ruling, Verdict};

    fn disputed(id: &str, sev: Severity, verdict: Verdict) -> Judged {
        let mut f = Finding::new(sev, &format!("{id} title"));
        f.id = id.into();
        Judged {
            finding: f,
            ruling: Some(Ruling {
                id: id.into(),
                verdict,
                severity: None,
                reason: "not reachable".into(),
            }),
            from_judge: false,
            rejoinder: None,
        }
    }

    #[test]
    fn each_reply_settles_its_finding_and_silence_holds() {
        let all = [
            disputed("F1", Severity::P1, Verdict::Invalid),
            disputed("F2", Severity::P0, Verdict::MissingContext),
            disputed("F3", Severity::P1, Verdict::Invalid),
            disputed("F4", Severity::P1, Verdict::Invalid),
        ];
        let open: Vec<&Judged> = all.iter().collect();
        let replies = crate::answer::dispute::read(
            "## Disputed findings\n- F1: withdraw — the author is right\n- F2: lower to P2 — \
             only admins\n",
            None,
            &asked(&open),
        );
        let mut again = Finding::new(Severity::P1, "F4 reworded");
        again.id = "F4".into();
        let s = settle(2, &open, &replies, &[again], false);
        assert_eq!(s.withdrawn.len(), 1);
        assert_eq!(s.withdrawn[0].id, "F1");
        assert_eq!(s.withdrawn[0].ruling, "invalid: not reachable");
        let back: Vec<(&str, Severity)> =
            s.back.iter().map(|f| (f.id.as_str(), f.severity)).collect();
        assert_eq!(back, [("F2", Severity::P2), ("F3", Severity::P1)]);
        assert_eq!(s.rejoinders["F2"].reply, Rejoined::Lowered);
        assert_eq!(s.rejoinders["F2"].from, Some(Severity::P0));
        assert_eq!(s.rejoinders["F3"].reply, Rejoined::Silent);
        assert_eq!(s.rejoinders["F4"].reply, Rejoined::Held);
        assert!(prompt(&open).contains("F1 [P1] F1 title"));
    }

    #[test]
    fn a_hold_at_a_higher_level_stands_at_it_and_one_lower_is_lowered() {
        let all = [
            disputed("F1", Severity::P2, Verdict::MissingContext),
            disputed("F2", Severity::P1, Verdict::Invalid),
            disputed("F3", Severity::P1, Verdict::Invalid),
        ];
        let open: Vec<&Judged> = all.iter().collect();
        let replies = crate::answer::dispute::read(
            "F1 stands, P0: the share link reaches other tenants now.\nF2 holds at P3, a \
             nit now.\nF3 stands, P1.\n",
            None,
            &asked(&open),
        );
        let s = settle(2, &open, &replies, &[], false);
        let back: Vec<(&str, Severity)> =
            s.back.iter().map(|f| (f.id.as_str(), f.severity)).collect();
        assert_eq!(
            back,
            [
                ("F1", Severity::P0),
                ("F2", Severity::P3),
                ("F3", Severity::P1)
            ]
        );
        assert_eq!(s.rejoinders["F1"].reply, Rejoined::Held);
        assert_eq!(s.rejoinders["F1"].from, Some(Severity::P2));
        assert_eq!(s.rejoinders["F2"].reply, Rejoined::Lowered);
        assert_eq!(s.rejoinders["F3"].from, None);
    }

    #[test]
    fn an_approval_withdraws_what_it_does_not_hold() {
        let all = [
            disputed("F1", Severity::P1, Verdict::Invalid),
            disputed("F2", Severity::P1, Verdict::Invalid),
        ];
        let open: Vec<&Judged> = all.iter().collect();
        let none = Replies::default();
        let s = settle(2, &open, &none, &[], true);
        assert_eq!(s.withdrawn.len(), 2);
        let held = crate::answer::dispute::read("F2: hold — still there", None, &asked(&open));
        let s = settle(2, &open, &held, &[], true);
        assert!(s.withdrawn.is_empty());
        assert_eq!(s.back.len(), 2);
    }
}
