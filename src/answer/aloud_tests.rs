//! Answers that reason out loud (blind sets w44 and w45): a worry weighed and cleared, a level
//! imagined under a condition, what the reviewer looked at, risks a JSON answer considered, a
//! SARIF check that passed, a terminal tool's chrome. One rule each, in answers written for
//! these tests: what each rule reads, and what it leaves alone.

use super::layout_tests::{approves, raw_levels, read_cr, seen};
use crate::findings::Severity::*;

#[test]
fn a_risk_named_and_then_covered_raises_nothing() {
    let text = "I read the reader and its test.\n\n\
The risky part of this change is that `fetch_rows()` is now a generator the caller drains \
lazily. If the caller stops early the cursor would stay open. The caller wraps it in \
`closing(...)` and `test_early_exit` checks the cursor is closed. That covers it.\n\n\
Nothing to change; good to merge.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // Named as a concern and never cleared, it is raised.
    let open = "The risky part of this change is that `fetch_rows()` is now a generator the \
caller drains lazily. If the caller stops early the cursor stays open and the pool runs dry.\n";
    assert!(!approves(open));
}

#[test]
fn a_main_concern_that_can_never_happen_is_cleared() {
    let text = "Reviewed `pool.Run`.\n\n\
Stuck senders were my main concern. Each send sits in a `select` with `<-ctx.Done()`, so a \
send can never block forever.\n\n\
Nothing blocking, nothing minor either. Approve.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn a_level_imagined_under_a_condition_and_then_cleared_is_not_given() {
    let text = "The patch makes the singleton lazy with double-checked locking. That is only \
safe if the field is volatile; without it a reader can see a half-built object, and that would \
be a P0. The field is declared volatile at line 19. The publication is safe.\n";
    assert!(
        crate::answer::prose::ratings(text).is_empty(),
        "{:?}",
        crate::answer::prose::ratings(text)
    );
    // A condition about what happens when it ships, with nothing cleared, still rates.
    let warned = "If this ships without the lock, it would be a P0.";
    assert_eq!(crate::answer::prose::ratings(warned), [P0]);
}

#[test]
fn what_the_reviewer_kept_an_eye_on_is_no_concern() {
    let text = "I went through the arena in `src/arena.rs` with an eye on the unsafe block, \
since that is the critical part of the change.\n\n\
1. **Dangling after `reset()`?** `reset` takes `&mut self`, so the borrow checker rejects \
holding a node across it; I tried it and it fails to compile.\n\n\
I don't have anything to raise. Approve.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn a_pull_request_that_changes_something_requests_no_changes() {
    assert!(crate::answer::verdict::objection(
        "This pull request changes the cache to batch writes."
    )
    .is_none());
    assert!(
        crate::answer::verdict::objection("I request changes: the cache never expires.").is_some()
    );
    let text = "## Code Review\n\nThis pull request changes the indexer to batch its flushes. \
The partial batch is flushed in `close()`. I have no feedback to provide.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn a_sarif_result_that_passed_is_no_finding() {
    let text = r#"{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "reviewer"}}, "results": [
 {"ruleId": "race", "level": "error", "message": {"text": "The map is written by the refresher and read by handlers without a lock."},
  "locations": [{"physicalLocation": {"artifactLocation": {"uri": "src/cache.cs"}, "region": {"startLine": 52}}}]},
 {"ruleId": "lock-order", "kind": "pass", "level": "none", "message": {"text": "Both paths take the gates in the same order."},
  "locations": [{"physicalLocation": {"artifactLocation": {"uri": "src/cache.cs"}, "region": {"startLine": 110}}}]}
]}]}"#;
    assert_eq!(seen(&read_cr(text)), [(P1, "src/cache.cs:52".to_string())]);
}

#[test]
fn risks_a_json_answer_considered_are_not_raised() {
    let text = r#"{"verdict": "approve", "summary": "Batches the customer lookup.",
 "considered": [{"concern": "Race between the refresher and readers of the rate cache", "conclusion": "Ruled out: the map is swapped in one assignment."},
  {"concern": "N+1 query in export/orders.py", "conclusion": "Ruled out: one query per chunk."}],
 "issues": []}"#;
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // A JSON rejection with nothing listed still trips the gate.
    let no = r#"{"verdict": "reject", "summary": "The export drops refunds.", "issues": []}"#;
    assert!(!read_cr(no).critique.findings.is_empty());
}

#[test]
fn aiders_banner_request_and_tally_are_chrome() {
    let banner = "Aider v0.86.1\nMain model: some/model with diff edit format\nGit repo: .git with 40 files\n\
Repo-map: using 1024 tokens, auto refresh\nAdded db/pool.go to the chat.\n\n\
> review this for leaks. severity and line for each problem, or approve.\n\n";
    let text = format!(
        "{banner}The pool releases every connection in a `defer`. Looks good to merge.\n\n\
Tokens: 3.1k sent, 120 received. Cost: $0.01 message, $0.01 session.\n"
    );
    assert!(approves(&text), "{:?}", seen(&read_cr(&text)));
    let prepared = crate::answer::prepare::prepare(&text);
    assert!(!prepared.contains("Main model") && !prepared.contains("Tokens:"));
    // The file the banner added is the file of findings that give only a line.
    let table = format!(
        "{banner}| Уровень | Где | Что |\n|---|---|---|\n\
| **Средне** | строка 142 | `SetMaxIdleConns(0)` закрывает каждое соединение после возврата. |\n"
    );
    assert_eq!(seen(&read_cr(&table)), [(P2, "db/pool.go:142".to_string())]);
}

#[test]
fn a_link_to_the_code_places_a_finding_whose_words_name_another_file() {
    let text = "## PR Code Suggestions\n\n\
<details><summary>Use the named status constant</summary>\n\n___\n\n\
**The literal `204` stands alone; `NO_CONTENT` already exists in `src/http/status.ts`.**\n\n\
[src/pay/webhook.ts [40-40]](https://github.com/o/r/blob/1a2b3c4/src/pay/webhook.ts#L40-L40)\n\n\
</details>\n";
    let r = read_cr(text);
    assert_eq!(
        r.critique.findings[0]
            .location
            .as_ref()
            .map(|l| l.display()),
        Some("src/pay/webhook.ts:40".to_string()),
        "{:?}",
        seen(&r)
    );
}

#[test]
fn a_question_titled_worry_the_item_clears_is_not_raised() {
    let text = "1. **메모리 할당** — `src/buf.rs` 42행\n   클라이언트가 보낸 길이로 한 번에 할당합니다. 상한을 두세요.\n\n\
2. **재사용 시 수명 문제?**\n   이전 슬라이스가 남을 수 있다고 생각했는데, `reset`이 `&mut self`를 받아서 막힙니다. 문제 없습니다.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Unclassified, "src/buf.rs:42".to_string())]
    );
}

#[test]
fn a_small_thing_that_is_blocking_is_a_blocker() {
    let text = "Really nice cleanup, the split makes the scheduler testable.\n\n\
Small thing, though, and it's blocking: `sched/exec.go:143` runs the task without the \
`recover()` the old loop had, so one panic takes the whole process down.\n";
    assert_eq!(raw_levels(text), [(P0, "sched/exec.go:143".to_string())]);
    // What the code does is no rating: "the call is blocking".
    assert!(crate::answer::prose::ratings("The read in `a.go` is blocking.").is_empty());
}

#[test]
fn the_words_that_weigh_and_clear_a_worry() {
    use crate::answer::verdict::ruled_out;
    let p = "The risky part of this change is that `rows()` is lazy. If the caller stops early \
the cursor would stay open. The caller wraps it in `closing()`. That covers it.";
    assert!(ruled_out(p));
    // Named, but nothing clears it.
    assert!(!ruled_out(
        "The risky part of this change is that `rows()` is lazy. The cursor stays open."
    ));
    // German: "I thought at first …, so it fits."
    assert!(ruled_out(
        "Zeile 30: Hier dachte ich zuerst, `$DIR` könnte leer sein. Zeile 5 setzt aber einen \
Default. Passt also."
    ));
}

#[test]
fn items_that_open_with_a_line_comment_on_that_line_of_the_file() {
    let text = "A couple of things in `app/jobs/remind.rb`:\n\n\
- Line 18: the query filters on the paid status, so reminders go to those who already paid.\n\
- Line 33: one job per customer is queued inside the loop.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Unclassified, "app/jobs/remind.rb:18".to_string()),
            (Unclassified, "app/jobs/remind.rb:33".to_string())
        ]
    );
}

#[test]
fn a_main_concern_and_what_can_never_happen() {
    use crate::answer::verdict::ruled_out;
    assert!(ruled_out(
        "Stuck senders were my main concern. Each send sits in a `select` with the context, \
so a send can never block forever."
    ));
    assert!(!ruled_out(
        "Stuck senders were my main concern. A send blocks forever once the reader is gone."
    ));
}

#[test]
fn a_label_row_between_a_comment_title_and_its_body_rates_it() {
    let text = "<details>\n<summary>🧹 Nitpick comments (1)</summary><blockquote>\n\n\
<details>\n<summary>internal/store/btree.go (1)</summary><blockquote>\n\n\
`88-95`: **Node split allocates a fresh key slice.**\n\n\
_🚀 Performance & Scalability_ | _🟡 Minor_ | _⚡ Quick win_\n\n\
`split()` copies half the keys into a new slice; take it from the pool instead.\n\n\
</blockquote></details>\n\n</blockquote></details>\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P2, "internal/store/btree.go:88-95".to_string())]
    );
}
