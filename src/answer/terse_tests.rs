//! Small, fast models that half-follow the format (blind set w61): an incident scale's `Sev2`,
//! JSON written as a JavaScript object literal, a level tag that disagrees with its section, a
//! JSON list that leaves out or cuts short what the prose said, an approval that names the bug
//! the change fixes. One rule each, in answers written for these tests.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity::*;

const TEMPLATE_TAIL: &str = "## P2 - Should Fix\n- none\n\n## P3 - Nice to Have\n- none\n";

/// A review in the schema's JSON, fenced: the verdict and `(severity, title, file, line)` each.
fn schema_json(verdict: &str, findings: &[(&str, &str, &str, u32)]) -> String {
    let items: Vec<serde_json::Value> = findings
        .iter()
        .map(|(sev, title, file, line)| {
            serde_json::json!({"severity": sev, "title": title, "file": file,
                "start_line": line, "end_line": line, "body": "", "action": "Change it."})
        })
        .collect();
    let review = serde_json::json!({"verdict": verdict, "summary": "s", "findings": items});
    format!("```json\n{review}\n```\n")
}

#[test]
fn an_incident_scale_labels_each_item_and_its_json() {
    let prose =
        "## P1 - Must Fix\n- Sev2: `retry()` sleeps on the event loop — src/net/retry.js:30\n";
    let r = read_cr(prose);
    assert_eq!(seen(&r), [(P2, "src/net/retry.js:30".into())]);
    let json =
        "```json\n{\"verdict\": \"revise\", \"findings\": [{\"severity\": \"S1\", \"title\": \
\"Token logged\", \"file\": \"auth/login.py\", \"start_line\": 9, \"body\": \"b\"}]}\n```\n";
    assert_eq!(seen(&read_cr(json)), [(P1, "auth/login.py:9".into())]);
}

#[test]
fn a_json_review_written_as_an_object_literal_is_read_fenced_as_js_or_bare() {
    let literal = "{verdict: 'revise', summary: 'one bug', findings: [\n  // the only one\n  \
{severity: 'P2', title: 'Off-by-one in paging', file: 'api/page.go', start_line: 14, \
end_line: 14, body: 'skips a row'},\n]}";
    let want = [(P2, "api/page.go:14".into())];
    // The whole answer.
    assert_eq!(seen(&read_cr(literal)), want);
    // In a ```js fence, under prose.
    let fenced = format!("Paging is off by one.\n\n```js\n{literal}\n```\n");
    assert_eq!(seen(&read_cr(&fenced)), want);
    // Bare, after prose and with prose after it.
    let bare = format!("Paging is off by one.\n\n{literal}\n\nThat is all from me.\n");
    assert_eq!(seen(&read_cr(&bare)), want);
    // Beside a JSON snippet of a suggested fix, the review in its ```js fence is still read.
    let beside = format!(
        "Pin it:\n\n```json\n{{\"dependencies\": {{\"pg\": \"8.11.3\"}}}}\n```\n\n```js\n{literal}\n```\n"
    );
    assert_eq!(seen(&read_cr(&beside)), want);
    // A JavaScript fence of code is code, not a review.
    let code = "```js\nconst findings = [];\n```\n\nLGTM.\n";
    assert!(approves(code));
}

#[test]
fn an_approval_that_names_the_blocker_it_fixes_raises_nothing() {
    let text = "This is the fix for yesterday's P1 (a double free in `pool.c`). `release` at line \
31 now clears the slot first, and the new test reproduces the old crash on `main` and passes \
here.\n\n## P1 - Must Fix\n- none\n\nLGTM\n\n```json\n{\"verdict\": \"approve\", \"findings\": \
[]}\n```\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // The change repairs one thing and breaks another: the level stands.
    let breaks = text.replace(
        "(a double free in `pool.c`)",
        "(a double free in `pool.c`) but adds a P1 race in `pool.c` at line 40",
    );
    assert!(!approves(&breaks));
    use crate::answer::verdict::raises_concern;
    assert!(!raises_concern(
        "The new test reproduces the deadlock on `main`."
    ));
    assert!(!raises_concern("The original deadlock needed two writers."));
    use crate::answer::prose::severity_in;
    assert_eq!(severity_in("This is the fix for last week's P1."), None);
    assert_eq!(severity_in("It fixes the login but adds a P1."), Some(P1));
}

#[test]
fn a_worry_checked_and_ruled_out_in_its_own_sentence_is_no_finding() {
    let text = "I checked the one thing that worried me: `jobs` is written in `push` and read in \
`drain`, but both paths take `q.mu` (queue/fifo.go:22 and :48) and the slice is never handed out, so \
there’s no race. The new stress test runs both at once.\n\n## P1 - Must \
Fix\n- none\n\nLGTM.\n\n```json\n{\"verdict\":\"approve\",\"findings\":[]}\n```\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // Found, not ruled out, and rated: raised, whatever the JSON says.
    let found = text.replace(
        "so there’s no race",
        "yet `drain` reads it after unlocking, so the two will race. That is a P2",
    );
    assert!(!approves(&found));
}

#[test]
fn an_items_own_level_beats_its_sections_and_the_json_does_not_count_it_twice() {
    let text = format!(
        "## P1 - Must Fix\n- The retry loop logs the whole payload at INFO — Sender.kt:40 — \
noisy; DEBUG would do. (P3)\n\n{TEMPLATE_TAIL}\n{}",
        schema_json(
            "approve",
            &[("P3", "Chatty logging", "app/src/main/kotlin/Sender.kt", 40)]
        )
    );
    assert_eq!(
        seen(&read_cr(&text)),
        [(P3, "app/src/main/kotlin/Sender.kt:40".into())]
    );
}

#[test]
fn a_question_that_names_a_loss_beside_a_json_list_is_kept() {
    let text = "## P3 - Nice to Have\n- `TIMEOUT` could live in settings — svc/conf.py:3\n\n\
## Questions\n- `flush()` now commits before the loop (svc/writer.py:70). If the process dies \
halfway, the rest of the rows are lost and nothing writes them again. Intended?\n\n"
        .to_string()
        + &schema_json("approve", &[("P3", "TIMEOUT hard-coded", "svc/conf.py", 3)]);
    let r = read_cr(&text);
    assert_eq!(
        seen(&r),
        [
            (P3, "svc/conf.py:3".into()),
            (Unclassified, "svc/writer.py:70".into())
        ]
    );
    // Its body is its own words, not the JSON after it.
    assert!(
        !r.critique.findings[1].body.contains("```"),
        "{:?}",
        r.critique.findings[1].body
    );
    // Under a JSON that lists nothing, an unrated point is what the reviewer checked.
    let none = "What I checked:\n- `flush()` commits before the loop (svc/writer.py:70). I \
wondered whether a crash halfway would lose rows. It can't: the caller retries the whole \
batch.\n\nLGTM.\n\n"
        .to_string()
        + &schema_json("approve", &[]);
    assert!(approves(&none), "{:?}", seen(&read_cr(&none)));
}

#[test]
fn data_said_to_be_gone_is_a_harm_and_a_bug_said_to_be_gone_is_fixed() {
    use crate::answer::verdict::raises_concern;
    assert!(raises_concern(
        "If the worker crashes halfway, the rest of the batch is gone."
    ));
    assert!(!raises_concern("The crash is gone on this branch."));
}

#[test]
fn a_json_finding_is_not_the_prose_one_for_a_word_said_twice() {
    // "batch" twice in the prose item is one word shared with the JSON's title, not two.
    let text = "## P3 - Nice to Have\n- `BATCH_MAX` hard-coded — jobs/conf.py:5\n\n## Notes\n- \
The whole batch is acked up front (jobs/run.py:9): a crash drops the rest of the batch.\n\n"
        .to_string()
        + &schema_json(
            "revise",
            &[("P3", "BATCH_MAX hard-coded", "jobs/conf.py", 5)],
        );
    let text = &text;
    assert_eq!(seen(&read_cr(text)).len(), 2, "{:?}", seen(&read_cr(text)));
}

#[test]
fn a_short_severity_field_opens_an_item_whose_place_comes_later() {
    let text = "## Findings\n- sev: 2 — Unbounded body read — srv/upload.go:57 — `io.ReadAll` \
buffers it all first.\n";
    let r = read_cr(text);
    assert_eq!(seen(&r), [(P2, "srv/upload.go:57".into())]);
    assert_eq!(r.critique.findings[0].title, "Unbounded body read");
    // A field line of its own keeps its dash as the reason's.
    let field = "### Unbounded body read\n- **Severity:** medium — it buffers it all\n- \
**File:** srv/upload.go:57\n";
    assert_eq!(
        read_cr(field).critique.findings[0].title,
        "Unbounded body read"
    );
}

#[test]
fn a_json_cut_off_before_a_line_takes_the_line_its_prose_gives() {
    let text = "## Notes\n- Cache key ignores tenant — web/keys.py:31 — shared across tenants.\n- \
`TTL` is read at import time (web/keys.py:12), so tests cannot override it.\n\n```json\n\
{\"verdict\": \"revise\", \"findings\": [{\"title\": \"Cache key ignores tenant\", \"file\": \
\"web/keys.py\", \"start_line\": 31}, {\"title\": \"TTL read at import time\", \"file\": \
\"web/keys.py\", \"start_line\": 12";
    let r = read_cr(text);
    let places: Vec<String> = seen(&r).into_iter().map(|(_, p)| p).collect();
    assert_eq!(places, ["web/keys.py:31", "web/keys.py:12"]);
}

#[test]
fn a_file_named_only_to_compare_with_is_not_the_findings_place() {
    let alone = "## Findings\n1. `pad()` could use `strutil.Pad` instead of a loop, matching \
`report/table.go` (P3)\n";
    assert_eq!(seen(&read_cr(alone)), [(P3, "-".into())]);
    let beside = "## Findings\n1. `pad()` in `cli/print.go` could use `strutil.Pad`, the same as \
in `report/table.go` (P3)\n";
    assert_eq!(seen(&read_cr(beside)), [(P3, "cli/print.go".into())]);
    let own = "## Findings\n1. `report/table.go:12` pads by hand; `strutil.Pad` does it (P3)\n";
    assert_eq!(seen(&read_cr(own)), [(P3, "report/table.go:12".into())]);
}
