//! Shapes the reader learned from a blind set of second opinions in plain prose (w37): chat
//! models, colleagues in chat, email and pull-request comments, agent CLIs that ignored the
//! format. One rule each, in answers written for these tests, with what each rule leaves alone.

use super::layout_tests::placed;
use crate::answer::location::Roots;
use crate::answer::normalise::{raises_nothing, raw_blocks};
use crate::answer::prose::{block_ratings, block_severity, severity_in};
use crate::answer::verdict;
use crate::findings::Severity::{self, *};

fn levels(text: &str) -> Vec<(Severity, String)> {
    placed(&raw_blocks(text, &Roots::default()).findings)
}

#[test]
fn holding_the_merge_is_a_blocker() {
    assert_eq!(
        block_severity(
            "Every key expires at once. This would bite us in prod, I'd hold the merge."
        ),
        Some(P0)
    );
    assert_eq!(
        block_severity("Please hold off merging until the secret fields are redacted."),
        Some(P0)
    );
    assert_eq!(block_severity("No need to hold the merge for this."), None);
}

#[test]
fn a_level_that_is_a_clause_of_its_own_rates_a_prose_point() {
    assert_eq!(block_severity("Minor, but customers notice."), Some(P2));
    assert_eq!(block_severity("It could use a real name. Nit."), Some(P3));
    assert_eq!(
        block_severity("also tiny nit, the counter is never reset"),
        Some(P3)
    );
    assert_eq!(
        block_severity("Nebenbei, eher kosmetisch: der Docstring ist alt."),
        Some(P3)
    );
    // Not in a lead or a heading (a section's name), not negated, not a tally in parentheses.
    assert_eq!(severity_in("Minor"), None);
    assert_eq!(block_severity("Not minor, this loses data."), None);
    assert!(block_ratings("🎯 3 (Moderate) | ⏱️ ~20 minutes").is_empty());
}

#[test]
fn a_level_given_in_a_sentence_with_more_after_it_or_weighed_first() {
    assert_eq!(
        block_severity("I'd call that a P1 and fix it before merging."),
        Some(P1)
    );
    assert_eq!(
        block_severity("I'd put that at P0, since anyone can post fake events."),
        Some(P0)
    );
    // A level weighed or imagined is not the one given.
    assert_eq!(
        block_severity(
            "I went back and forth on whether it's a P1, but nothing breaks today, so I'd call it P2."
        ),
        Some(P2)
    );
    assert_eq!(
        block_severity(
            "If this were on the request path I'd call it a blocker; here it's a minor issue."
        ),
        Some(P2)
    );
    // Two blocking levels for one point: its worst (either stops the gate).
    assert_eq!(
        block_severity("This must be fixed before merging. For me it's a blocker."),
        Some(P0)
    );
    // "a critical path and …" is not a rating: only levels that mean nothing else go on.
    assert_eq!(
        block_severity("This is critical and held for too long."),
        None
    );
}

#[test]
fn everyday_and_other_languages_words_for_a_level() {
    assert_eq!(
        block_severity("not a big deal but it retries 400s"),
        Some(P2)
    );
    assert_eq!(
        block_severity("ah, e uma coisa bloqueante: o desconto vem depois"),
        Some(P0)
    );
    assert_eq!(
        block_severity("그 외에는 사소한 부분인데, 변수명이 모호합니다"),
        Some(P3)
    );
    assert_eq!(
        block_severity("경미한 문제 하나: 413 대신 400을 돌려줍니다"),
        Some(P2)
    );
    assert_eq!(block_severity("另外一个小问题：测试里用了 sleep"), Some(P2));
    assert_eq!(
        block_severity("多导出了一个没用到的字段，顺手删掉就好，不强求"),
        Some(P3)
    );
}

#[test]
fn a_prose_point_takes_the_file_named_before_it() {
    // A greeting, the reviewer's own limits and a sign-off are no points; "Line 57" is in the
    // file the answer named first; "in the same file" too.
    let text = "Hi Dev,\n\nI only had time for `billing/pdf.py`, so that's all this covers.\n\n\
Line 57: the currency symbol is hard-coded when none is set. Minor, it only hits old invoices.\n\n\
Line 131: `t` could use a real name. Nit.\n\n\
The footer is printed twice in the same file, also minor.\n\nCheers,\nAna\n";
    assert_eq!(
        levels(text),
        [
            (P2, "billing/pdf.py:57".into()),
            (P3, "billing/pdf.py:131".into()),
            (P2, "billing/pdf.py".into())
        ]
    );
}

#[test]
fn lead_ins_and_points_the_reviewer_settled_are_no_points() {
    let text = "Deux remarques quand même.\n\n\
Dans `src/repo/articles.ts`, ligne 58, le curseur ne départage pas deux dates égales.\n\n\
In the first commit `lib/retry.js` swallowed the error; the second rethrows it, so nothing to do there.\n\n\
Looking at `src/orders.cs`:\n\n\
Line 112 is where the exception escapes, so the reservation is never released.\n";
    assert_eq!(
        levels(text),
        [
            (Unclassified, "src/repo/articles.ts:58".into()),
            (Unclassified, "src/orders.cs:112".into())
        ]
    );
}

#[test]
fn after_the_first_point_a_block_about_a_file_is_a_point() {
    // "nothing reads it anymore" has no word of concern the reader knows; beside a point, a
    // block that names a file is one more.
    let text =
        "The retry loop in `worker/poll.go` line 88 never gives up, so it spins forever.\n\n\
In `importer/cli.py` the `--batch-size` flag is still parsed, but nothing reads it anymore.\n";
    assert_eq!(
        levels(text),
        [
            (Unclassified, "worker/poll.go:88".into()),
            (Unclassified, "importer/cli.py".into())
        ]
    );
    // Before the first point, a block about a file is the reviewer's description.
    let text = "The change moves validation into `api/orders.py`.\n\n\
The retry loop in `worker/poll.go` line 88 never gives up, so it spins forever.\n";
    assert_eq!(levels(text), [(Unclassified, "worker/poll.go:88".into())]);
    // What the reviewer did not do is no point, even in words of concern.
    let text =
        "The retry loop in `worker/poll.go` line 88 never gives up, so it spins forever.\n\n\
I didn't run the benchmarks, so I can't say whether the pool leaks under load.\n";
    assert_eq!(levels(text), [(Unclassified, "worker/poll.go:88".into())]);
}

#[test]
fn approvals_in_chat_words() {
    assert!(verdict::approves("passt, kannst mergen 👍"));
    assert!(verdict::approves(
        "Tout est cohérent. Je validerais tel quel."
    ));
    // Levels named to say nothing reached them.
    let text = "I checked the purge job and the dry-run flag in `settings/retention.py`.\n\n\
No P0 or P1, and I couldn't even find a P3-worthy nit. Approve.\n";
    assert!(raises_nothing(text, &Roots::default()));
    // What a check was for is not what it found.
    assert!(!verdict::raises_concern(
        "I checked that path specifically, since a missed flush there would silently drop the tail."
    ));
    assert!(verdict::raises_concern(
        "A missed flush there would silently drop the tail."
    ));
}

#[test]
fn only_blocker_opens_a_point_and_a_blocker_after_a_number_rates_one() {
    use super::layout_tests::{read_cr, seen};
    let text = "Nice refactor overall.\n\nOnly blocker: the new `DELETE` route in \
`server/teams.js` (line 73) does not check who owns the team.\n\nThe rest I'm happy with.\n";
    assert_eq!(seen(&read_cr(text)), [(P0, "server/teams.js:73".into())]);
    let text = "1. `jobs/clean.py:47` — the delete lost its orphan filter.\n\
2. `jobs/clean.py:12` — the comment says 500, the constant is 5000.\n\n\
#1 is a blocker: the first run wipes the table. #2 is a nit.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P0, "jobs/clean.py:47".into()),
            (P3, "jobs/clean.py:12".into())
        ]
    );
}

#[test]
fn what_an_agents_search_printed_is_not_its_answer() {
    use super::layout_tests::read_cr;
    let text = "|  Read     services/catalog/service.ts\n\
|  Grep     TODO\\( (2 matches)\n\
|    services/catalog/legacy/import.ts:17: // TODO(P0): remove with the old importer\n\
|    services/catalog/search/sync.ts:41: // TODO(perf): batch these\n\n\
The diff only touches `listProducts`; it filters archived rows in SQL now, and the test covers it.\n\n\
No issues in the diff. Approve.\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", r.critique.findings);
    assert!(r.critique.agreement);
}
