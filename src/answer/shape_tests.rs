//! Shapes the reader learned from two blind sets measured together (w18, written so the gate
//! must not cry wolf, and w19, finding-heavy in unexpected shapes), one rule each, in answers
//! written for these tests: what each rule reads, and what it leaves alone.

use super::*;
use crate::findings::Severity;

fn read_cr(text: &str) -> Reading {
    read(text, None, Protocol::Cr, &Roots::default())
}

/// (severity, `path:line` or `-`) of each finding.
fn seen(r: &Reading) -> Vec<(Severity, String)> {
    r.critique
        .findings
        .iter()
        .map(|f| {
            let place = f.location.as_ref().map_or("-".into(), |l| l.display());
            (f.severity, place)
        })
        .collect()
}

fn approves(text: &str) -> bool {
    let r = read_cr(text);
    r.critique.agreement && r.critique.findings.is_empty()
}

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
