//! Shapes the reader learned from four blind sets (w18, written so the gate must not cry wolf;
//! w19, finding-heavy in unexpected shapes; w20, a month of answers to a second-opinion prompt;
//! w21, the hard edges of trust), one rule each, in answers written for these tests: what each
//! rule reads, and what it leaves alone.

use super::layout_tests::{approves, read_cr, seen};
use super::*;
use crate::findings::Severity;

#[test]
fn a_level_after_the_titles_dash_rates_the_finding() {
    let text = "Notes on the export change:\n\n\
**1. Timezone dropped for scheduled runs — High**\n\
Two jobs still build the date from the server clock, so a run at midnight lands on the wrong day.\n\n\
**2. Helper name reads oddly — Low**\n\
`jobs/when.py:8` could be `next_run_at`.\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Severity::P1, "-".into()),
            (Severity::P3, "jobs/when.py:8".into())
        ]
    );
    // Only a level word or two after a dash: a title that goes on is a title.
    let long = text.replace("— High**", "— high traffic paths only**");
    assert_ne!(read_cr(&long).critique.findings[0].severity, Severity::P1);
}

#[test]
fn a_score_out_of_five_is_a_level_and_a_confidence_score_is_not() {
    let text = "### Upload name joined without checks — Severity 5/5\n\
**File:** `store/upload.go`, line 40\n\nA name with `../` is written outside the folder.\n\n\
### Size limit is a bare number — Severity 2/5\n\
**File:** `store/limits.go`, line 9\n\nName the constant.\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Severity::P0, "store/upload.go:40".into()),
            (Severity::P3, "store/limits.go:9".into())
        ]
    );
    assert_eq!(crate::answer::vocab::severity_of("Confidence 5/5"), None);
}

#[test]
fn a_file_field_under_a_heading_finding_is_its_place_not_the_next_ones() {
    let text =
        "### Token compared with `==`\n**Severity:** High\n**File:** `auth/check.rb`, line 22\n\n\
The comparison leaks timing; the body mentions `lib/other.rb` only as an example.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::P1, "auth/check.rb:22".into())]
    );
}

#[test]
fn a_level_fields_name_in_another_language_is_a_severity_field() {
    let text =
        "### 1. Limit sprawdzany po zapisie\n- **Waga:** krytyczna\n- **Plik:** `api/limit.ts`\n\
- **Linia:** 12\n- **Opis:** Zapis następuje przed sprawdzeniem limitu.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::P0, "api/limit.ts:12".into())]
    );
}

#[test]
fn a_level_tag_in_a_sentence_rates_a_paragraph_of_prose() {
    let text =
        "Mostly fine, but `jobs/purge.sql` deletes the rows at line 3 before the copy in the \
next file reads them. **P0** — the copy finds nothing. Swap the two files.\n";
    // Read as prose blocks (the pipeline's path for an answer with no structure).
    let blocks = crate::answer::normalise::raw_blocks(text, &Roots::default());
    assert_eq!(blocks.findings.len(), 1);
    assert_eq!(blocks.findings[0].severity, Severity::P0);
    // Without the tag it states no level.
    let plain = text.replace("**P0** — ", "");
    let blocks = crate::answer::normalise::raw_blocks(&plain, &Roots::default());
    assert_eq!(blocks.findings[0].severity, Severity::Unclassified);
}

#[test]
fn thai_runs_words_together_and_still_approves() {
    assert!(approves("ตรวจสอบการเปลี่ยนแปลงแล้ว\n\nไม่พบปัญหาใด ๆ อนุมัติครับ\n"));
    assert!(!approves("ไม่อนุมัติ: ต้องแก้ไขก่อน\n"));
}

#[test]
fn no_changes_requested_approves_and_changes_requested_does_not() {
    assert!(approves(
        "Read the whole diff.\n\nNo changes requested. Approve.\n"
    ));
    assert!(!approves(
        "Read the whole diff.\n\nChanges requested: the lock is dropped early.\n"
    ));
}

#[test]
fn once_that_counts_is_no_condition_on_the_approval() {
    assert!(approves(
        "APPROVE — the refresh runs single-flight and the request is retried once after it.\n"
    ));
    assert!(!approves("LGTM once the migration is reversible.\n"));
}

#[test]
fn the_verdict_lines_own_evidence_does_not_withhold_the_approval() {
    assert!(approves(
        "APPROVE — the refresh is single-flight (`http/client.ts:58`) and tested.\n"
    ));
    // A place in a paragraph of its own still points at code the reviewer did not clear.
    assert!(!approves(
        "`http/client.ts:58` assigns the promise after the await.\n\nApprove.\n"
    ));
}

#[test]
fn found_nothing_in_other_languages_clears_the_places_it_cites() {
    let ru = "Проверил `src/lex.c`: проверка границы теперь до чтения (строка 142).\n\n\
Замечаний нет, изменения можно сливать.\n";
    assert!(approves(ru));
    let es = "Revisé `api/pago.py`, línea 30: el reintento ya usa el mismo id.\n\n\
No encontré ningún problema. Aprobado.\n";
    assert!(approves(es));
}

#[test]
fn what_the_change_fixed_is_said_in_the_past_and_not_raised() {
    for text in [
        "The round-trip tests cover the month-boundary case that originally exposed the bug. \
The change looks good to merge.\n",
        "This fixes the rounding in `pay/split.py:20`. That was a real bug, and the new test \
covers it. No issues found. Approve.\n",
        "The new filter is exactly what the FIXME asked for, and the test proves it. Approved.\n",
        "The old loop retried on every 4xx, which was a bug: it hammered the API. The new one \
retries on 429 only. Approve.\n",
    ] {
        assert!(approves(text), "{text}");
    }
    // A bug the change has is still raised.
    assert!(!approves(
        "The new filter drops open carts; that is a bug. Approve after fixing it.\n"
    ));
}

#[test]
fn behaviour_on_a_failure_is_design_not_a_problem() {
    assert!(approves(
        "The service falls back to the cached flags if the remote fetch fails.\n\nLooks great!\n"
    ));
    assert!(!approves(
        "If the list is empty, the export fails.\n\nLooks great otherwise.\n"
    ));
}

#[test]
fn a_reviewers_guide_and_its_file_table_are_not_findings() {
    let text = "## Reviewer's Guide\n\nMoves flag checks into a cached service.\n\n\
#### File-Level Changes\n\n| Change | Details | Files |\n| --- | --- | --- |\n\
| Add the service | <ul><li>Cache flags for a minute</li><li>Fall back to the last flags if the fetch fails</li></ul> | `flags/service.py` |\n\
| Use it | <ul><li>Replace direct calls</li></ul> | `flags/mw.py` |\n\
| Tests | <ul><li>Cover hit, miss and remote failure</li></ul> | `tests/test_flags.py` |\n\n\
---\n\nHey - I've reviewed your changes and they look great!\n";
    assert!(approves(text));
}

#[test]
fn beside_a_block_that_raises_something_an_english_description_is_not_a_finding() {
    let roots = Roots::default();
    let text = "The endpoint streams rows with a server-side cursor and the tests cover the empty \
table.\n\nOne last thing, and it is a blocker: `admin/export.py` at line 12 skips the admin \
check, so any login can download every customer.\n";
    let blocks = crate::answer::normalise::raw_blocks(text, &roots);
    assert_eq!(blocks.findings.len(), 1, "{:?}", blocks.findings);
    assert!(blocks.findings[0].body.contains("blocker"));
    // Alone, the description stays: nothing else says what the answer raises.
    let alone =
        "The endpoint streams rows with a server-side cursor and the tests cover the empty \
table.\n";
    assert_eq!(
        crate::answer::normalise::raw_blocks(alone, &roots)
            .findings
            .len(),
        1
    );
    // In a language whose words of concern we lack, every block stays.
    let cs =
        "Prošel jsem změny v `shop/cart.ts`.\n\n- Řádek 58: `removeItem` filtruje podle jména \
a smaže i jiné velikosti.\n\nDruhý bod: `shop/cart.ts` řádek 73 se nezaokrouhluje, a to je \
blocker.\n";
    assert_eq!(
        crate::answer::normalise::raw_blocks(cs, &roots)
            .findings
            .len(),
        3
    );
}

#[test]
fn a_numbered_finding_the_reviewer_takes_back_is_not_raised() {
    let text = "**1. Header written twice on resume (medium)** — `exp/csv.py:64`\nThe header is \
written again in append mode.\n\n**2. Amounts printed with `str()` (medium)** — `exp/csv.py:102`\n\
Two places are lost.\n\n**3. Unused import (low)** — `exp/views.py:3`\n`F` is unused.\n\n\
Edit — on second look, point 2 is fine: the value is quantized two lines earlier.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P2, "exp/csv.py:64".into()),
            (Severity::P3, "exp/views.py:3".into())
        ]
    );
    // In Italian, and by "scratch".
    let it = "1. **Cursore non firmato** — `api/page.py`, riga 19. Gravità: media.\n\
2. **Ordinamento instabile** — `api/orders.py`, riga 57. Gravità: bassa.\n\n\
Ritiro il punto 2: la query ordina già per id.\n";
    assert_eq!(
        seen(&read_cr(it)),
        [(Severity::P2, "api/page.py:19".into())]
    );
    // A number that names no finding of the list takes nothing back.
    let other = text.replace("point 2 is fine", "point 7 is fine");
    assert_eq!(read_cr(&other).critique.findings.len(), 3);
}

#[test]
fn a_place_line_with_a_middle_dot_places_the_title_above_it() {
    let text = "**1. Result not awaited** · _Bug_\n`notify/send.ts` · L33–L40\n\nThe SMS fallback \
never runs.\n\n**2. Empty template string** · _Maintainability_\n`notify/tpl.ts` · L8\n\nA typo in a \
key gives an empty message.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::Unclassified, "notify/send.ts:33-40".into()),
            (Severity::Unclassified, "notify/tpl.ts:8".into())
        ]
    );
}

#[test]
fn findings_in_tags_written_straight_into_the_answer_are_read() {
    let text = "<review>\n  <finding file=\"net/retry.ts\" line=\"14\">\n    The first retry can \
fire after 0 ms.\n  </finding>\n  <finding file=\"net/retry.test.ts\" line=\"5\" severity=\"low\">\n    \
Real timers make the test slow.\n  </finding>\n  <verdict>changes requested</verdict>\n</review>\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::Unclassified, "net/retry.ts:14".into()),
            (Severity::P3, "net/retry.test.ts:5".into())
        ]
    );
}

#[test]
fn a_review_answered_through_a_tool_call_is_read_from_its_arguments() {
    let body = r#"{"object":"chat.completion","choices":[{"message":{"role":"assistant","content":null,"tool_calls":[{"type":"function","function":{"name":"submit_review","arguments":"{\"approve\": false, \"findings\": [{\"severity\": \"critical\", \"path\": \"ledger/sum.scala\", \"line\": 112, \"message\": \"Amounts are summed as Double.\"}]}"}}]}}]}"#;
    assert_eq!(
        seen(&read_cr(body)),
        [(Severity::P0, "ledger/sum.scala:112".into())]
    );
}

#[test]
fn a_lead_in_that_rates_one_problem_rates_the_paragraph_after_it() {
    let text = "Nice cleanup overall.\n\nHowever, there is one **critical** problem:\n\n\
**`auth/store.go`, line 87** — the expiry check is inverted, so live sessions are rejected.\n\n\
Please fix before merging.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::P0, "auth/store.go:87".into())]
    );
    // The level is the next paragraph's only: a lead-in without one leaves it unrated.
    let plain = text.replace("one **critical** problem", "one problem");
    assert_eq!(
        seen(&read_cr(&plain)),
        [(Severity::Unclassified, "auth/store.go:87".into())]
    );
}

#[test]
fn a_risk_the_reviewer_marked_passed_is_not_a_finding() {
    let text = "I looked at the upload handler with these risks in mind:\n\n\
- Path traversal: names go through `secure_filename()`. ✅ Fine.\n\
- Content type: ❌ **High** — line 57 of `up/handler.py` trusts the client's type.\n\
- Cleanup: the temp file is removed in `finally`. ✅ Fine.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::P1, "up/handler.py:57".into())]
    );
    // A check mark that labels a section ("Steps of Reproduction ✅") says nothing passed.
    let steps =
        "**Null dereference on empty cart** — `cart/total.ts:12`\n\nSteps of Reproduction ✅\n\n\
1. Open an empty cart.\n";
    assert_eq!(read_cr(steps).critique.findings.len(), 1);
}

#[test]
fn a_checklist_of_passed_marks_and_the_reviews_own_limits_are_not_findings() {
    let text = "## Review: readiness probe\n\n\
- ✅ `chart/deploy.yaml` — the probe hits `/healthz` on the named port.\n\
- ✅ The handler pings the database with a 2s timeout.\n\
- ⚠️ Not verified: I did not render the chart or deploy it; this was a read-only review.\n\n\
**Result: approve.** No changes required.\n";
    assert!(approves(text));
    // A limit that names a problem is one.
    let broken = text.replace(
        "this was a read-only review",
        "the build is broken on this branch",
    );
    assert!(!approves(&broken));
}

#[test]
fn what_the_reviewer_considered_and_dismissed_or_found_already_handled_is_quiet() {
    let text = "Approve. I don't see anything that needs to change.\n\n\
## Risks I considered and dismissed\n\n- The cache has no size limit; only one page is ever cached.\n\n\
## Not done\n\nI didn't run the instrumented tests.\n\nNo changes requested.\n";
    assert!(approves(text));
    assert!(approves(
        "The one thing I'd look for here, a `read` without `IFS=`, is already handled on line 23.\n\n\
Approve, nothing to change.\n"
    ));
}

#[test]
fn a_bold_no_issues_found_is_no_findings_section() {
    let text =
        "### Agent review\n\n**No issues found.**\n\nReviewed 4 files in this pull request.\n";
    assert!(approves(text));
}

#[test]
fn a_short_closing_approval_in_another_language_makes_remarks_observations() {
    let text = "Ik heb de wijziging bekeken.\n\n\
- De taak draait op het kritieke pad, dus ik heb goed gekeken: de index wordt apart opgebouwd.\n\
- De crash uit het incidentrapport wordt nu in `search/indexer.py` opgevangen.\n\n\
Geen bevindingen. Goedgekeurd.\n";
    assert!(approves(text));
}

#[test]
fn fields_under_a_bold_title_give_it_its_level_and_place() {
    let text = "**1. Header repeated in paged exports**\nSeverity: medium\nFile: `rep/w.go`, line 45\n\
Every call rewrites the header.\n\n**2. Misleading constant**\nSeverity: low\nFile: `rep/w.go`, line 12\n\
It is only the page limit.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P2, "rep/w.go:45".into()),
            (Severity::P3, "rep/w.go:12".into())
        ]
    );
}

#[test]
fn a_line_and_level_in_one_bold_lead_and_a_closing_refusal() {
    let text =
        "### `quota/limiter.go`\n\n- **Line 64 — P1:** the counter is read and written back, \
not incremented.\n- **Line 71 — P3:** the expiry slides on every request.\n\n\
**Not approved** until the race is fixed.\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Severity::P1, "quota/limiter.go:64".into()),
            (Severity::P3, "quota/limiter.go:71".into())
        ]
    );
    assert!(!r.critique.agreement);
}

#[test]
fn a_bold_section_title_is_part_of_the_quiet_section_it_names() {
    let text = "This PR is the fix for last week's incident, and it does what it says.\n\n\
**What changed**\n- `ingest/batch.go`: `flush()` now returns early on an empty batch. That read \
was the panic in the incident logs.\n\nNo issues found. Approve.\n";
    assert!(approves(text));
}

#[test]
fn an_ordinal_in_the_verdict_rates_the_finding_and_a_one_line_sign_off_is_praise() {
    let text = "Here is what I found.\n\n\
- `db/0019_split.sql`, line 14: the backfill runs in one transaction over the whole table.\n\
- `db/0019_split.sql`, line 22: the column is dropped while old servers still read it.\n\
- `app/user.rb`, line 9: `full_name` is now a method, so existing callers keep working. Good.\n\n\
Verdict: request changes. The second point is a P1.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::Unclassified, "db/0019_split.sql:14".into()),
            (Severity::P1, "db/0019_split.sql:22".into())
        ]
    );
}

#[test]
fn a_chinese_level_field_named_by_its_grade() {
    let text =
        "**问题 1 — 严重级别：致命**\n位置：`cache/lru.go` 第 88 行\n`Get` 在读锁下修改链表。\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::P0, "cache/lru.go:88".into())]
    );
}

#[test]
fn an_item_the_reviewer_takes_back_in_its_own_words_is_not_raised() {
    for taken_back in [
        "I thought `parse()` on line 20 missed `*/15`, but it does handle it. Ignore this one.",
        "I first thought the rule on line 20 also expired `current/`, but its filter scopes it, so that one is fine.",
        "`a.py:20` read the header with `next(reader)`; this is already fixed by the second commit, so there is nothing to do here.",
        "`a.py:20` — zapytanie nie ma indeksu. Poprawka: wycofuję ten punkt.",
        "`a.py:20` 경로 조작이 걱정됐는데 다시 보니 괜찮습니다. 이 지적은 철회합니다.",
    ] {
        let text = format!(
            "Review:\n\n* `a.py:52` uses local time where the schedules are UTC.\n* {taken_back}\n"
        );
        assert_eq!(
            seen(&read_cr(&text)),
            [(Severity::Unclassified, "a.py:52".into())],
            "{taken_back}"
        );
    }
}

#[test]
fn a_list_under_review_notes_is_findings() {
    let text = "Review notes:\n\n1. `lib/memo.ex` line 31 — `:ets.insert/2` on a protected table \
raises `ArgumentError`.\n2. `test/memo_test.exs` — no test calls `put/2` from another process.\n\n\
(No severity levels, as requested.)\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::Unclassified, "lib/memo.ex:31".into()),
            (Severity::Unclassified, "test/memo_test.exs".into())
        ]
    );
}

#[test]
fn a_place_row_with_a_level_opens_a_finding_titled_by_the_paragraph_after_it() {
    let text = "### Review — Changes requested\n\n**1 finding** · 3 files reviewed\n\n---\n\n\
**`infra/deploy.yaml`** · line 41 · **Critical** · Reliability\n\n\
The liveness probe now queries the database, so a failover restarts every pod.\n";
    let r = read_cr(text);
    assert_eq!(seen(&r), [(Severity::P0, "infra/deploy.yaml:41".into())]);
    assert!(r.critique.findings[0]
        .title
        .starts_with("The liveness probe"));
}

#[test]
fn a_mark_that_the_comment_was_addressed_after_the_bots_footer_withdraws_it() {
    let text = "**Discount applied twice when tax is computed.**\n\n`billing/tax.rb` line 41: \
`tax_base` subtracts the discount again.\n\n<!-- auto-generated comment -->\n\n\
✅ Addressed in commit b7e41a8\n";
    assert!(read_cr(text).critique.findings.is_empty());
    // Under another heading, the mark is about something else: the finding stands.
    let apart = text.replace("\n\n✅ Addressed", "\n\n## Earlier threads\n\n✅ Addressed");
    assert_eq!(read_cr(&apart).critique.findings.len(), 1);
}
