//! Layouts the reader learned from a blind set (w7), one rule each, in answers written for these
//! tests: what each rule reads, and what it leaves alone.

use super::*;
use crate::findings::Severity;

pub(super) fn read_cr(text: &str) -> Reading {
    read(text, None, Protocol::Cr, &Roots::default())
}

/// Does the answer agree, with nothing raised?
pub(super) fn approves(text: &str) -> bool {
    let r = read_cr(text);
    r.critique.agreement && r.critique.findings.is_empty()
}

/// (severity, `path:line` or `-`) of each block an unstructured answer is split into.
pub(super) fn raw_levels(text: &str) -> Vec<(Severity, String)> {
    placed(&normalise::raw_blocks(text, &Roots::default()).findings)
}

/// (severity, `path:line` or `-`) of each finding.
pub(super) fn seen(r: &Reading) -> Vec<(Severity, String)> {
    placed(&r.critique.findings)
}

/// (severity, `path:line` or `-`) of each of `findings`.
pub(super) fn placed(findings: &[crate::findings::Finding]) -> Vec<(Severity, String)> {
    findings
        .iter()
        .map(|f| {
            let place = f.location.as_ref().map_or("-".into(), |l| l.display());
            (f.severity, place)
        })
        .collect()
}

#[test]
fn a_lead_in_that_counts_problems_makes_a_summary_list_findings() {
    let text =
        "## Summary\n\nAdds retries to the uploader.\n\nTwo observations from this pass:\n\n\
- **Counter never reset** (`up/retry.go:57`): the attempts stay after a success.\n\
- **Backoff ignores the header** (`up/retry.go:83`): the server's delay is not used.\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Severity::Unclassified, "up/retry.go:57".into()),
            (Severity::Unclassified, "up/retry.go:83".into())
        ]
    );
    // The same list under a plain summary lead-in is what changed, not findings.
    let plain = text.replace("Two observations from this pass:", "What it touches:");
    assert!(read_cr(&plain).critique.findings.is_empty());
}

#[test]
fn a_consider_section_is_the_lowest_level() {
    let text =
        "### Must fix\n\n- `db/prune.go:66` — the dry run still commits the schedule update.\n\n\
### Consider\n\n- `db/prune.go:31` — the flag's help could say the schedule is untouched.\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Severity::P1, "db/prune.go:66".into()),
            (Severity::P3, "db/prune.go:31".into())
        ]
    );
}

#[test]
fn the_reviewers_checklist_is_not_findings() {
    let text = "### Things I specifically checked\n\n1. **Rounding.** Amounts stay `Decimal` until the end.\n\
2. **Concurrency.** The race I was worried about cannot happen: the row is locked.\n\n\
### Verdict\n\n**Approve.** Nothing here is worth a nit.\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", seen(&r));
    assert!(r.critique.agreement);
}

#[test]
fn a_ticked_task_is_done_whatever_its_label_and_an_open_one_with_a_level_is_raised() {
    let text = "Checklist for `api/export.py`:\n\n- [x] **SQL** — bound parameters only.\n- [x] **Errors** — failures return a 500 with a request id only.\n\nNothing to fix.\n\n**Verdict: APPROVE**\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", seen(&r));
    assert!(r.critique.agreement);
    let open = "- [x] **SQL** — bound parameters only.\n\
- [ ] [P2] `api/export.py:40` streams the whole table into memory.\n\
- [x] [P1] `api/export.py:52` — codex ticks the findings it is sure of.\n";
    let r = read_cr(open);
    assert_eq!(
        seen(&r),
        [
            (Severity::P2, "api/export.py:40".into()),
            (Severity::P1, "api/export.py:52".into())
        ]
    );
}

/// (w42) The codex TUI hangs its message under a bullet: its task items are the findings, and
/// the box is no part of their titles.
#[test]
fn an_agents_hung_message_keeps_its_task_findings() {
    let text = concat!(
        "• Review: current changes\n\n  Two things to tidy.\n\n",
        "  - [ ] [P2] Close the response body — pkg/fetch/client.go:88-92\n",
        "        The loop leaks.\n",
        "  - [ ] [P3] Jitter uses the global source — pkg/fetch/backoff.go:17\n",
        "        Inject one.\n"
    );
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Severity::P2, "pkg/fetch/client.go:88-92".into()),
            (Severity::P3, "pkg/fetch/backoff.go:17".into())
        ]
    );
    assert_eq!(r.critique.findings[0].title, "Close the response body");
}

/// (w42) A question asked only to know raises nothing; one that states its consequence does.
#[test]
fn a_question_asked_only_to_know_is_no_finding() {
    let text = "A few questions before I approve:\n\n\
1. `jobs/roll.py` line 19: midnight UTC pushes the last hours of US accounts into the next day?\n\
2. Why `max_workers=32`? Not a problem, just asking; I assume you measured it.\n\
3. Out of curiosity, did you try `asyncio` here?\n\
4. Did you consider `-vf thumbnail`? No change requested — the fixed offset is predictable.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::Unclassified, "jobs/roll.py:19".into())]
    );
    let worried = "Questions:\n\n1. Just curious: does `open()` leak the handle here?\n";
    assert_eq!(seen(&read_cr(worried)).len(), 1);
}

/// (fresh-w2, after w42) A place behind a pin on the line under a bold title is that
/// finding's place, and the level field after it its level.
#[test]
fn a_pinned_place_under_a_bold_title_places_it() {
    let text = "**1. Keyboard navigation skips the last day**\n📍 src/DatePicker.tsx:132\n\
Severity: Medium\n`ArrowRight` stops one day short.\n\n**2. Month names are English only**\n\
📍 src/DatePicker.tsx:75\nSeverity: Low\nUse `Intl.DateTimeFormat`.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P2, "src/DatePicker.tsx:132".into()),
            (Severity::P3, "src/DatePicker.tsx:75".into())
        ]
    );
}

#[test]
fn approvals_in_indonesian_korean_and_portuguese() {
    for text in [
        "Tidak ada masalah yang ditemukan. **Disetujui** — siap di-merge.",
        "지적할 부분이 없습니다. **승인합니다.**",
        "# Revisão concluída\n\nNenhum problema foi encontrado com base nas suas configurações.",
    ] {
        let r = read_cr(text);
        assert!(r.critique.findings.is_empty(), "{text}");
        assert!(r.critique.agreement, "{text}");
    }
}

#[test]
fn a_bold_line_place_lets_the_words_after_it_speak() {
    let text = "### `api/cancel.ts`\n\n\
- **Line 40** — ✅ The missing `await` on `refund()` that I flagged last time is fixed.\n\
- **Lines 57-63** — This one must be fixed before merging: a shipped order is restocked.\n\n\
### `api/cancel.test.ts`\n\n- **Line 12** — Nit: the test's name still says twice.\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Severity::P1, "api/cancel.ts:57-63".into()),
            (Severity::P3, "api/cancel.test.ts:12".into())
        ]
    );
}

#[test]
fn a_file_line_right_under_a_title_is_that_findings_place() {
    let text = "## Issues\n\n**1. Level taken from the message text** — Priority: P2\n\
File: `mon/alerts.py`, line 54\n\nAny message with the word pages on-call.\n\n\
**2. `error` shadows the helper** — Priority: P3\nFile: `mon/alerts.py`, line 88\n\n\
The loop variable hides the logging helper.\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Severity::P2, "mon/alerts.py:54".into()),
            (Severity::P3, "mon/alerts.py:88".into())
        ]
    );
}

#[test]
fn a_bots_footer_is_not_a_finding() {
    let text = "### Issues\n\n- `cmd/main.go:23` — exit code on a config error is 0.\n\n\
<small><i>AI Code Review powered by <a href=https://example.com>Acme</a></i></small>\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [(Severity::Unclassified, "cmd/main.go:23".into())]
    );
}

#[test]
fn prose_that_calls_a_finding_a_blocker_in_its_view_outranks_the_json() {
    let text = "The problem is in `auth/refresh.go` around line 74: the token is written without \
the lock. This is a blocker in my view — it is a data race.\n\n\
```json\n{\"verdict\":\"request_changes\",\"findings\":[{\"severity\":\"P2\",\"file\":\"auth/refresh.go\",\
\"line\":74,\"title\":\"token written without the lock\"}]}\n```\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::P0, "auth/refresh.go:74".into())]
    );
    // Negated, it rates nothing.
    assert_eq!(
        crate::answer::prose::severity_in("It does not need to be fixed before merging."),
        None
    );
    assert_eq!(
        crate::answer::prose::severity_in("This one must be fixed before merging."),
        Some(Severity::P1)
    );
}

#[test]
fn a_summary_list_with_levels_pairs_with_its_detailed_comments() {
    let text = "### Issues Found\n\n\
1. **Key collides on re-runs** (Medium) — the key is the date only.\n\
2. **Unused variable** (Low) — `FORMAT` is never read.\n\n---\n\n\
#### infra/stack.ts:48\n\n> **Description:** A second run on one day replaces the file.\n>\n> **Severity:** Medium\n\n\
#### infra/stack.ts:71\n\n> **Description:** `FORMAT` is set but never read.\n>\n> **Severity:** Low\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Severity::P2, "infra/stack.ts:48".into()),
            (Severity::P3, "infra/stack.ts:71".into())
        ]
    );
    assert_eq!(r.critique.findings[0].title, "Key collides on re-runs");
}

// From blind set w8 and the w6 rules it confirmed.

#[test]
fn unrated_observations_under_a_stated_approval_are_counted_not_raised() {
    let text =
        "### Correctness\n\n- Replay is sequential, though a burst of edits may race the timer.\n\
- A 412 is handled as a conflict instead of failing silently.\n\n\
### Verdict\n\n✅ **Approve.** Nothing to change before merge.\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", seen(&r));
    assert!(r.critique.agreement);
    assert!(
        r.notes.iter().any(|n| n.starts_with("2 unrated remark(s)")),
        "{:?}",
        r.notes
    );
    // Without the stated verdict the same items stay findings.
    let unsure = text.replace(
        "✅ **Approve.** Nothing to change before merge.",
        "Have a look.",
    );
    assert_eq!(read_cr(&unsure).critique.findings.len(), 2);
}

#[test]
fn praise_that_signs_off_is_not_a_finding() {
    let text = "**Actionable comments posted: 0**\n\n`58-60`: **LGTM!**\n\n\
Returning the error instead of panicking is right; callers handle it.\n\n\
`33-41`: **Refill uses the monotonic clock.**\n\nThe old code produced a negative refill. LGTM!\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", seen(&r));
    // "Otherwise LGTM" signs off after a problem: still a finding.
    let mixed = "### Issues\n\n`12-14`: **Retry never stops.**\n\nIt loops forever on a 500. Otherwise LGTM.\n";
    assert_eq!(read_cr(mixed).critique.findings.len(), 1);
}

#[test]
fn levels_fields_and_line_words_in_more_languages() {
    let tr = "1. **Kritik** — `app/Sync.kt`, satır 88: hata başarı olarak dönüyor.\n\n\
2. **Düşük** — aynı dosya, satır 15: kullanılmayan import.\n";
    assert_eq!(
        seen(&read_cr(tr)),
        [
            (Severity::P0, "app/Sync.kt:88".into()),
            (Severity::P3, "app/Sync.kt:15".into())
        ]
    );
    let ru = "Посмотрел `lib/limiter.py`.\n\n1. Окно не сдвигается (строки 34-41) — важность: средняя.\n\n\
2. Имя вводит в заблуждение (строка 12) — важность: низкая.\n";
    assert_eq!(
        seen(&read_cr(ru)),
        [
            (Severity::P2, "lib/limiter.py:34-41".into()),
            (Severity::P3, "lib/limiter.py:12".into())
        ]
    );
    let th = "1. **ไม่จำกัดขนาดไฟล์** — `api/profile.py` บรรทัด 66 — ความรุนแรง: ปานกลาง\n";
    assert_eq!(
        seen(&read_cr(th)),
        [(Severity::P2, "api/profile.py:66".into())]
    );
}

#[test]
fn a_gemini_response_body_is_read_for_its_text() {
    let body = serde_json::json!({"candidates": [{"content": {"parts": [
        {"text": "thinking…", "thought": true},
        {"text": "1. **Unbounded read** — `api/upload.py` line 66 — severity: medium\n"}
    ], "role": "model"}, "finishReason": "STOP"}], "modelVersion": "gemini-2.5-flash"});
    let r = read_cr(&body.to_string());
    assert_eq!(seen(&r), [(Severity::P2, "api/upload.py:66".into())]);
}

#[test]
fn a_byline_that_names_a_place_gives_the_comment_under_it_that_place() {
    let text = "---\n\n**snyk-io** commented on `server/pdf.js` line 33\n\n\
![high severity](https://example.com/h.png 'high severity') **Server-Side Request Forgery**\n\n\
User input reaches `axios.get` as the URL.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::P1, "server/pdf.js:33".into())]
    );
}

#[test]
fn a_severity_field_after_a_comments_words_is_that_comments_level() {
    let text = "---\n\n**src/sync/merge.ts:140**\n\nA tie on `updatedAt` drops the local edit.\n\n\
**Severity: high**\n\n---\n\n**src/sync/merge.ts:22**\n\nThe deprecation tag names a function that does not exist.\n\n\
**Severity: low**\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P1, "src/sync/merge.ts:140".into()),
            (Severity::P3, "src/sync/merge.ts:22".into())
        ]
    );
}

#[test]
fn a_numbered_diff_line_under_a_file_gives_the_line() {
    let text = "lib/tasks/cleanup.rake\n12 +  desc \"Remove old uploads\"\n\n\
The description could mention the cutoff. This is low priority.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::P3, "lib/tasks/cleanup.rake:12".into())]
    );
}

#[test]
fn a_summary_table_after_its_details_is_the_same_findings() {
    let text = "我看了 `server/handlers/upload.go` 的改动。\n\n**问题 1：路径穿越（严重）**\n\n第 54 行直接拼出保存路径。\n\n\
**问题 2：大小限制（中）**\n\n第 39 行先读进内存。\n\n| 问题 | 等级 | 位置 |\n|---|---|---|\n\
| 路径穿越 | 高 | upload.go:54 |\n| 大小限制 | 中 | upload.go:39 |\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P0, "server/handlers/upload.go:54".into()),
            (Severity::P2, "server/handlers/upload.go:39".into())
        ]
    );
}

#[test]
fn an_aspect_heading_is_a_section_and_a_count_after_a_sentence_announces() {
    let text = "#### 🔴 Critical\n\n**1. Released twice**\n`src/Res.kt:94`\n\nBoth paths restore stock.\n\n\
#### 🧪 Test Coverage\nThe double-release path has no test.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::P0, "src/Res.kt:94".into())]
    );
    let hold = "I'd hold this one for now. Three things:\n\n1. `w/retry.py` line 40 — the delay is linear.\n\
2. `w/retry.py` line 72 — the last failure returns None.\n3. The test pins the wrong default.\n\nRequest changes.\n";
    assert_eq!(read_cr(hold).critique.findings.len(), 3);
}

// From blind set w9.

#[test]
fn code_quoted_in_a_comment_is_never_a_marker() {
    let text = "`21-30`: **LGTM!**\n\nThe `pool.on('error')` handler now logs the error and recreates the client.\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", seen(&r));
    assert_eq!(
        markers::read_lead("Retry `(high)` stays; ship it").severity,
        None,
        "a level inside a code span"
    );
}

#[test]
fn a_hebrew_prose_blocker_and_fields_are_read() {
    let text = "**הבעיה העיקרית:** ב-`auth/tokens.ts`, שורה 37, הטוקן נוצר עם `Math.random()`. זו בעיה חוסמת — אין למזג.\n\n\
**מסקנה:** לא לאשר עד שהבעיה תתוקן.\n";
    let r = read_cr(text);
    assert!(!r.critique.agreement);
    assert!(
        r.critique
            .findings
            .iter()
            .any(|f| f.severity == Severity::P0),
        "{:?}",
        seen(&r)
    );
    let cs = "1. **Řádek 73** v `src/Report.php` — součet zahrnuje stornované položky. Závažnost: střední.\n";
    assert_eq!(
        seen(&read_cr(cs)),
        [(Severity::P2, "src/Report.php:73".into())]
    );
}

#[test]
fn a_zero_count_is_no_finding_and_a_passed_gate_approves() {
    assert!(vocab::is_placeholder("0 new issues"));
    assert!(!vocab::is_placeholder("0 checks cover the retry path"));
    let text = "## Up to standards ✅\n<details><summary><strong>🟢 Issues</strong>  <code>0 issues</code></summary>\n\n\
> **Results:**\n> `0` new issues\n>\n</details>\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", seen(&r));
    assert!(r.critique.agreement);
}

#[test]
fn an_unread_answer_about_files_in_another_script_is_not_taken_as_silence() {
    // Greek prose naming a file, with no approval in words the vocabularies know.
    let text = "Στο `auth/tokens.ts` το διακριτικό δημιουργείται με προβλέψιμο τρόπο και πρέπει να αλλάξει.\n";
    assert!(!normalise::raises_nothing(text, &Roots::default()));
    // The same language approving, in words it knows, raises nothing.
    assert!(normalise::raises_nothing(
        "Έλεγξα το `auth/tokens.ts`. Εγκρίνεται.",
        &Roots::default()
    ));
}

// From blind set w10.

#[test]
fn what_a_review_checked_for_is_not_what_it_found() {
    let text = "## Code review\n\nNo issues found. Checked 6 changed files for logic errors, security issues, \
broken edge cases and regressions, including the new retry path and its error handling.\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", seen(&r));
    assert!(r.critique.agreement);
    // A problem it did find still stops the approval.
    let found = "No issues found, but the retry loop never stops on a 500.\n";
    assert!(!read_cr(found).critique.agreement);
}

#[test]
fn a_checklist_section_in_dutch_is_quiet() {
    let text = "**Wat ik heb gecontroleerd**\n\n- *Race condition.* Beide paden vergrendelen dezelfde rij.\n\
- *Tests.* 64 geslaagd, 0 mislukt.\n\n**Oordeel**\n\nGeen opmerkingen. Goedgekeurd.\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", seen(&r));
    assert!(r.critique.agreement);
}

#[test]
fn underscores_of_a_quoted_or_bare_path_are_kept() {
    let quoted = "### Issues\n\n**Stale re-export** (Low)\n**File:** `clients/__init__.py`, line 1\n\nThe name is gone.\n";
    assert_eq!(
        seen(&read_cr(quoted)),
        [(Severity::P3, "clients/__init__.py:1".into())]
    );
    let bare =
        "### Issues\n\n- **Stale re-export** (Low)\n  - File: clients/__init__.py\n  - Line: 1\n";
    assert_eq!(
        seen(&read_cr(bare)),
        [(Severity::P3, "clients/__init__.py:1".into())]
    );
}

// From blind set w11.

#[test]
fn optional_follow_ups_after_an_approval_are_the_lowest_level() {
    let text = "Approve. The clamp is correct.\n\nA couple of optional follow-ups, not blocking:\n\n\
1. `ui/Bar.tsx:23` — the clamp could live in the hook.\n2. `ui/Bar.test.tsx:40` — add a case for `NaN`.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P3, "ui/Bar.tsx:23".into()),
            (Severity::P3, "ui/Bar.test.tsx:40".into())
        ]
    );
}

#[test]
fn a_severity_field_that_goes_on_into_its_sentence_is_read() {
    let text = "1. **Arrotondamento doppio** — `fatture/calcolo.py`, riga 74\n   Gravità: media. `round()` viene applicato due volte.\n\n\
2. **Lien cassé** — `docs/install.md`, ligne 51\n   Sévérité : faible. Le lien pointe ailleurs.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P2, "fatture/calcolo.py:74".into()),
            (Severity::P3, "docs/install.md:51".into())
        ]
    );
}

#[test]
fn a_prose_blocker_that_cites_one_findings_line_outranks_the_json() {
    let text = "`db/m1.py` drops the column before the copy (the insert on line 22 comes after the drop on \
line 14). This is a blocker — irreversible data loss.\n\n```json\n{\"verdict\":\"request_changes\",\"findings\":[\
{\"severity\":\"P2\",\"title\":\"drop before copy\",\"file\":\"db/m1.py\",\"start_line\":14},\
{\"severity\":\"P3\",\"title\":\"lossy downgrade\",\"file\":\"db/m1.py\",\"start_line\":31}]}\n```\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P0, "db/m1.py:14".into()),
            (Severity::P3, "db/m1.py:31".into())
        ]
    );
}

#[test]
fn approvals_that_use_worrying_words_about_what_is_fine() {
    for text in [
        "- The `// TODO` comment is gone: the handler checks the type now.\n\
- Security-wise this is an improvement: SVG uploads are rejected.\n\nNothing to fix. Approve ✅\n",
        "This adds a regression test for quoted newlines and fixes the fixture path. I have no feedback to provide.\n",
        "The fix bounds the loop, which is exactly what produced that panic. No issues found. Approve.\n",
        "Hey there - I've reviewed your changes and they look great!\n",
    ] {
        let r = read_cr(text);
        assert!(r.critique.findings.is_empty(), "{text}: {:?}", seen(&r));
        assert!(r.critique.agreement, "{text}");
    }
}

#[test]
fn a_json_approval_whose_summary_raises_an_optional_point_is_not_an_approval() {
    let text = r#"{"verdict": "approve", "summary": "Safe bump of the base image in Dockerfile. Optional: pin the image by digest so rebuilds are reproducible.", "findings": []}"#;
    let r = read_cr(text);
    assert_eq!(seen(&r), [(Severity::P3, "Dockerfile".into())]);
    assert!(!r.critique.agreement);
    let plain = r#"{"verdict": "approve", "summary": "Safe bump: both are patch releases.", "findings": []}"#;
    let r = read_cr(plain);
    assert!(r.critique.findings.is_empty() && r.critique.agreement);
}

/// (w12) What the change repairs is not a problem the review raises; a clause that turns after
/// the repair still raises one.
#[test]
fn what_the_change_repairs_is_not_raised() {
    let r = read_cr(
        "The README change only fixes the install command (`pipx install`) and a broken link to \
         the changelog. Both are correct. No issues — approve.\n",
    );
    assert!(r.critique.agreement, "{:?}", r.critique.findings);
    assert!(verdict::raises_concern(
        "This fixes the timeout but introduces a race on the cache."
    ));
    assert!(verdict::raises_concern(
        "The patch fixes the test; the handler still crashes on an empty body."
    ));
}

/// (w12) "Here is my review of <file>:" says where the list under it is: its "Line 19:" items
/// are findings on that file.
#[test]
fn a_review_lead_in_that_names_a_file_places_its_list() {
    let r = read_cr(
        "Here is my review of app/jobs/cleanup.py:\n\n1. Line 19: the cutoff is computed once \
         at import time, so a long-running worker keeps using the start date.\n2. Line 42: \
         `delete()` runs without a batch limit.\n",
    );
    assert_eq!(
        seen(&r),
        [
            (Severity::Unclassified, "app/jobs/cleanup.py:19".into()),
            (Severity::Unclassified, "app/jobs/cleanup.py:42".into())
        ]
    );
    // A lead-in that says more than where is not a place. (The answer names a second file,
    // so no file is the answer's one file either.)
    let r = read_cr(
        "Here is what the change to app/jobs/cleanup.py does, beside app/jobs/base.py:\n\n1. \
         Line 19: computes the cutoff.\n2. Line 42: deletes in one statement.\n",
    );
    assert!(r.critique.findings.iter().all(|f| f.location.is_none()));
}

/// (w13) A provider's Responses API body is opened to its `output_text`; a JSON object that is
/// neither (`status: completed`, no list, no verdict) is not taken for a review that raised
/// nothing.
#[test]
fn response_bodies_are_opened_and_unknown_json_fails_closed() {
    let inner = r#"{\"verdict\": \"request_changes\", \"findings\": [{\"severity\": \"high\", \"title\": \"Path traversal\", \"file\": \"src/files.py\", \"start_line\": 29}]}"#;
    let body = format!(
        r#"{{"object": "response", "status": "completed", "output": [{{"type": "reasoning", "summary": []}}, {{"type": "message", "content": [{{"type": "output_text", "text": "{inner}"}}]}}]}}"#
    );
    assert_eq!(
        seen(&read_cr(&body)),
        [(Severity::P1, "src/files.py:29".into())]
    );
    let unknown = body.replace(r#""object": "response""#, r#""object": "other""#);
    let r = read_cr(&unknown);
    assert!(!r.structured && !r.critique.agreement, "{:?}", r.critique);
}

/// (w13) What a sentence denies or says is gone is not raised: a contracted "not", "nothing
/// in …", "instead of", "fails fast", "tests for the off-by-one", "which was the actual cause";
/// a missing action still is.
#[test]
fn denied_and_designed_words_are_not_concerns() {
    for text in [
        "Existing rows won't start failing validation on save.",
        "Nothing in the diff needs to change.",
        "A saturated pool now fails fast instead of hanging the handler.",
        "Adds regression tests for the off-by-one.",
        "The handler no longer blocks, which was the actual cause of the outage.",
        "It orders the locks by id, which removes the AB/BA deadlock between transfers.",
    ] {
        assert!(!verdict::raises_concern(text), "{text}");
    }
    for text in [
        "The handler doesn't handle errors from the pool, so it crashes.",
        "Nothing is checked here, except that the buffer leaks on retry.",
        "The old segment is closed without a sync, so records can be lost.",
    ] {
        assert!(verdict::raises_concern(text), "{text}");
    }
}

/// (w13) An approval whose contrast is only a limit of the review ("though I did not run the
/// benchmarks") stands; one whose contrast is about the code does not.
#[test]
fn an_approval_with_the_reviews_own_limits_stands() {
    let r =
        read_cr("LGTM, though I did not run the benchmarks, so I can't confirm the speed-up.\n");
    assert!(r.critique.agreement);
    let r = read_cr("LGTM, though the retry path is odd.\n");
    assert!(!r.critique.agreement);
    let r = read_cr("LGTM, though I did not run it, and it will crash on an empty list.\n");
    assert!(!r.critique.agreement);
}

/// (w13) A reviewer that says it found nothing may name a line on the way ("the only other
/// `Lock` call (`ledger/account.go:47`) is a single-lock path").
#[test]
fn a_place_named_beside_found_nothing_is_not_a_finding() {
    let r = read_cr(
        "The only other `Lock` call (`ledger/account.go:47`) is a single-lock path. Tests \
         pass. I did not find any discrete, actionable bugs introduced by this change.\n",
    );
    assert!(r.critique.findings.is_empty() && r.critique.agreement);
    let r =
        read_cr("The `Lock` call at `ledger/account.go:47` is taken twice. Happy with the rest.\n");
    assert!(!r.critique.agreement);
}

/// (w13) Agent chrome: an older CLI's timestamped transcript, a session banner and tool steps
/// drawn as rules, are what the agent did, not what it found.
#[test]
fn timestamped_transcripts_and_ruled_tool_steps_are_chrome() {
    let codex = "[2026-10-14T09:12:03] OpenAI Codex v0.46.0 (research preview)\n--------\n\
workdir: /w\n--------\n[2026-10-14T09:12:09] thinking\n\n**Checking the lock order**\n\n\
[2026-10-14T09:12:11] exec bash -lc 'rg -n Lock' in /w\nledger/transfer.go:29:\tfirst.Lock()\n\
[2026-10-14T09:12:24] codex\n\nNo issues found.\n[2026-10-14T09:12:24] tokens used: 18,406\n";
    let r = read_cr(codex);
    assert!(
        r.critique.findings.is_empty() && r.critique.agreement,
        "{:?}",
        seen(&r)
    );
    let goose =
        "starting session | provider: openai model: gpt-4.1\n    logging to /tmp/s.jsonl\n\n\
─── shell | developer ──────────────────────────\ncommand: git diff --stat\n\n \
deploy/values.yaml | 6 +++---\n 1 file changed\n\n─── text_editor | developer ───────\n\
path: ~/p/deploy/values.yaml\ncommand: view\n\nThe probe delay matches the cold start. No \
problems found. Approved.\n";
    let r = read_cr(goose);
    assert!(
        r.critique.findings.is_empty() && r.critique.agreement,
        "{:?}",
        seen(&r)
    );
}

/// (w13) A heading that only titles the answer with its file (`## Ревью scripts/backup.sh`)
/// is not a finding; a lead that gives only a line under it (`**Критично (строка 12):**`)
/// is in that file, at its level.
#[test]
fn a_titled_file_heading_places_line_only_leads() {
    let r = read_cr(
        "## Ревью `scripts/backup.sh`\n\n**Критично (строка 12):** `rm -rf \"$DIR/$P\"*` \
         удаляет весь каталог.\n\n**Низкий приоритет (строка 30):** имя архива неудобно \
         сортировать.\n",
    );
    assert_eq!(
        seen(&r),
        [
            (Severity::P0, "scripts/backup.sh:12".into()),
            (Severity::P3, "scripts/backup.sh:30".into())
        ]
    );
    let r = read_cr(
        "## Review: `src/a.ts`\n\nDie Änderung ist gut. Keine Beanstandungen — **Freigabe**.\n",
    );
    assert!(r.critique.findings.is_empty() && r.critique.agreement);
}

/// (w42) A heading that opens with a word for a review titles the answer whatever it says
/// about the file; the numbered sections under it are its findings.
#[test]
fn a_review_heading_with_more_words_titles_the_answer() {
    let text = "## Review: pagination in `src/routes/orders.ts`\n\nClean overall. Two points:\n\n\
### 1. The first page is unreachable\n\n- **Severity:** medium\n- **Line:** 41\n\n\
Page 1 skips the first 20 orders.\n\n### 2. Log message without context\n\n\
- **Severity:** low\n- **Line:** 77\n\nThe zod issues are dropped.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P2, "src/routes/orders.ts:41".into()),
            (Severity::P3, "src/routes/orders.ts:77".into())
        ]
    );
}

/// (w13) An opening sentence that names one file and raises nothing says where a lead that
/// gives only a line is; "opcional" is the lowest level.
#[test]
fn an_opening_sentence_names_the_file_of_line_only_leads() {
    let r = read_cr(
        "Revisei a alteração em `src/estoque/Reserva.kt`.\n\n**Sugestão (opcional)** — linha \
         102: o `catch` engole a exceção.\n",
    );
    assert_eq!(
        seen(&r),
        [(Severity::P3, "src/estoque/Reserva.kt:102".into())]
    );
}

/// (w14) A verdict that rates the findings by number ("1 is a blocker … 2 is minor", "le point
/// 1 est bloquant") gives them those levels; a lone level sentence ("… Minor.") rates its
/// finding; "neither is a merge blocker" rates nothing.
#[test]
fn a_verdict_that_rates_findings_by_number() {
    let r = read_cr(
        "**1. `src/p.ts:66`** — the credit is divided by the new plan's days.\n\n**2. \
         `src/p.ts:12`** — `roundCents` is written twice.\n\nVerdict: 1 is a blocker — don't \
         merge until it's fixed. 2 is minor.\n",
    );
    assert_eq!(
        seen(&r),
        [
            (Severity::P0, "src/p.ts:66".into()),
            (Severity::P2, "src/p.ts:12".into())
        ]
    );
    let r = read_cr(
        "1. **`src/a.ts`, ligne 58** — les champs ne sont plus échappés.\n\n2. **`src/b.ts`, \
         ligne 12** — deux exports pour la même fonction. Mineur.\n\nVerdict : le point 1 est \
         bloquant.\n",
    );
    assert_eq!(
        seen(&r),
        [
            (Severity::P0, "src/a.ts:58".into()),
            (Severity::P2, "src/b.ts:12".into())
        ]
    );
    let r = read_cr(
        "- Severity: low — `charts/hpa.yaml` line 9: `autoscaling/v2beta2` is gone in 1.26.\n\n\
         Neither is a merge blocker.\n",
    );
    assert_eq!(seen(&r), [(Severity::P3, "charts/hpa.yaml:9".into())]);
}

/// (w14) A level field that goes on to say what is wrong (`**Gravidade: crítica** (linha 52)
/// — …`) opens a finding; a field alone stays a detail.
#[test]
fn a_level_field_with_words_after_it_is_a_finding() {
    let r = read_cr(
        "Revisão de `src/auth/Reset.kt`:\n\n**Gravidade: crítica** (linha 52) — o código é \
         gerado com um `Random` previsível.\n\n**Severity: low** (line 88) — the log line lacks \
         the user id.\n",
    );
    assert_eq!(
        seen(&r),
        [
            (Severity::P0, "src/auth/Reset.kt:52".into()),
            (Severity::P3, "src/auth/Reset.kt:88".into())
        ]
    );
    assert!(r.critique.findings[0].title.starts_with("o código"));
}

/// (w15) What the reviewer checked and found handled ("Risks I looked at", "Risks
/// considered") is not raised; nor a bot's list of the files it skipped, whatever emoji it
/// wears; nor a passed check's green circle; nor a worry the reviewer says was unfounded.
#[test]
fn what_was_checked_and_found_handled_is_quiet() {
    let r = read_cr(
        "### Risks I looked at\n\n1. **TLS backend.** The feature list keeps rustls.\n2. \
         **MSRV.** `rust-toolchain.toml` pins 1.79. Fine.\n\n### Verdict\n\nNothing to change: \
         approve.\n",
    );
    assert!(
        r.critique.findings.is_empty() && r.critique.agreement,
        "{:?}",
        seen(&r)
    );
    let r = read_cr(
        "No actionable comments were generated.\n\n<details>\n<summary>⛔ Files ignored due to \
         path filters (1)</summary>\n\n* `pnpm-lock.yaml` is excluded by `!**/pnpm-lock.yaml`\n\n\
         </details>\n",
    );
    assert!(
        r.critique.findings.is_empty() && r.critique.agreement,
        "{:?}",
        seen(&r)
    );
    let r = read_cr(
        "### Up to standards ✅\n\n🟢 **Issues** — 0 new issues\n🟢 **Coverage** — diff \
         coverage 92% (≥ 80%)\n",
    );
    assert!(r.critique.findings.is_empty(), "{:?}", seen(&r));
    let r = read_cr(
        "I was worried about replica lag on 4.1M updates, but at 5,000 rows per batch it stays \
         under two seconds.\n\nApprove — nothing to change.\n",
    );
    assert!(r.critique.agreement);
    // A risks section that is the findings is still read.
    let r = read_cr(
        "### Risks\n\n1. **TLS backend.** It falls back to OpenSSL and breaks the Alpine build.\n",
    );
    assert_eq!(r.critique.findings.len(), 1);
}

/// (w15) A level hidden in an HTML comment under a heading (`<!-- **Medium Severity** -->`)
/// makes the heading a finding at that level; levels and verdicts in Finnish, Norwegian,
/// Danish, Catalan, Malay and Slovak.
#[test]
fn hidden_levels_and_more_languages() {
    let r = read_cr(
        "### Backoff delay never resets\n\n<!-- **Medium Severity** -->\n\nThe attempt counter \
         is never reset.\n\n<!-- LOCATIONS START\nsrc/net/backoff.ts#L44-L51\nLOCATIONS END -->\n",
    );
    assert_eq!(
        seen(&r),
        [(Severity::P2, "src/net/backoff.ts:44-51".into())]
    );
    for (text, sev) in [
        (
            "### 1. Vakavuus: kriittinen — NOT NULL ilman oletusarvoa\n`db/m.sql`, rivi 3:\n",
            Severity::P0,
        ),
        (
            "1. **Alvorlighetsgrad: middels** — `s.sh` linje 17: `find` mangler `-type f`.\n",
            Severity::P2,
        ),
        (
            "1. **Severitat: alta** — `server/cors.js`, línia 14: reflecteix qualsevol origen.\n",
            Severity::P1,
        ),
        (
            "1. **Keterukan: tinggi** (baris 118) — `pg.go` tidak memanggil `tx.Rollback()`.\n",
            Severity::P1,
        ),
    ] {
        let r = read_cr(text);
        assert_eq!(
            r.critique
                .findings
                .iter()
                .map(|f| f.severity)
                .collect::<Vec<_>>(),
            [sev],
            "{text}"
        );
    }
    for text in [
        "Indekset oprettes med `CONCURRENTLY`.\n\nIngen fejl fundet. Godkendt til merge.\n",
        "Základný obraz je pripnutý.\n\nNenašiel som žiadne problémy. Schvaľujem.\n",
    ] {
        assert!(read_cr(text).critique.agreement, "{text}");
    }
}

/// (w16) "I don't see anything that needs to change" denies; a question that says it is not a
/// problem raises none; a level field whose dash is followed by a place leads a finding (and
/// one whose dash is followed by a reason stays a detail of the finding above it); cubic's
/// tagged findings are read without a fence too.
#[test]
fn denials_questions_and_level_fields_before_a_place() {
    let r = read_cr(
        "The tests cover CJK input.\n\nI don't see anything that needs to change. Approve.\n",
    );
    assert!(r.critique.agreement);
    let r = read_cr(
        "The parser refactor looks correct.\n\nQuestion, not a problem: is there a reason \
         `parse_dow` accepts both 0 and 7?\n\nNo changes needed from my side. Approve.\n",
    );
    assert!(
        r.critique.findings.is_empty() && r.critique.agreement,
        "{:?}",
        seen(&r)
    );
    let r = read_cr(
        "Изменения в `worker/retry.go`:\n\n1. Серьёзность: средняя — строка 44. `time.Sleep` не \
         учитывает отмену контекста.\n\nБлокирующих проблем нет.\n",
    );
    assert_eq!(seen(&r), [(Severity::P2, "worker/retry.go:44".into())]);
    let r = read_cr(
        "**1. Jobs replay after a crash** (`src/q.ts:88`)\n- `markDone()` runs late.\n- \
         **Severity:** High — the endpoint is not idempotent.\n",
    );
    assert_eq!(seen(&r), [(Severity::P1, "src/q.ts:88".into())]);
    let r = read_cr(
        "**1 issue found**\n\n<file name=\"src/db/pool.ts\">\n<violation number=\"1\" \
         location=\"src/db/pool.ts:19\">\nP2: `max` is `NaN` when unset.</violation>\n</file>\n",
    );
    assert_eq!(seen(&r), [(Severity::P2, "src/db/pool.ts:19".into())]);
}

/// (w16) One `<violation>` in one `<file>` (no list for XML to make) is still that finding.
#[test]
fn one_tagged_violation_is_one_finding() {
    let r = read_cr(
        "**1 issue found**\n\n```text\n<file name=\"src/db/pool.ts\">\n<violation number=\"1\" \
         location=\"src/db/pool.ts:19\">\nP1: the pool size is `NaN` when unset.</violation>\n\
         </file>\n```\n",
    );
    assert_eq!(seen(&r), [(Severity::P1, "src/db/pool.ts:19".into())]);
}

/// (w17) A counted lead-in states its list's level ("Small diff, looks correct. Two nits:");
/// "I don't see anything that needs changing" approves; the case the reviewer "was most worried
/// about" and found tested raises nothing.
#[test]
fn counted_lead_ins_and_quiet_approvals() {
    let r = read_cr(
        "Small diff, looks correct. Two nits:\n\n- `scripts/seed.ts` line 17: a `console.log` \
         left over.\n- `scripts/seed.ts` line 30: name the seed.\n\nNeither is worth blocking on.\n",
    );
    assert_eq!(
        seen(&r),
        [
            (Severity::P3, "scripts/seed.ts:17".into()),
            (Severity::P3, "scripts/seed.ts:30".into())
        ]
    );
    let r = read_cr(
        "The new target runs the documented steps. I don't see anything that needs changing, so \
         I won't propose any edits.\n",
    );
    assert!(r.critique.agreement);
    let r = read_cr(
        "The test covers the shift overflow at attempt 63, which was the case I was most worried \
         about, and it passes.\n\nNothing here needs changing. Approve.\n",
    );
    assert!(r.critique.findings.is_empty() && r.critique.agreement);
}

/// What the narrowing rules must leave alone: a failing test is a problem, a version number is
/// no finding's number, and a denial that turns ("nothing else, but …") still raises.
#[test]
fn narrowing_rules_leave_real_problems_alone() {
    assert!(verdict::raises_concern(
        "The tests for the parser crash on Windows."
    ));
    assert!(!verdict::raises_concern(
        "Adds regression tests for the off-by-one."
    ));
    assert!(verdict::raises_concern(
        "Nothing else changes, but the handler leaks the socket."
    ));
    let r = read_cr(
        "1. `src/a.py:3` — the `retry` loop never sleeps.\n2. `src/a.py:9` — the log line has a \
         typo.\n\nThe service runs on Python 3 is critical to keep in mind.\n",
    );
    assert!(
        r.critique
            .findings
            .iter()
            .all(|f| f.severity == Severity::Unclassified),
        "{:?}",
        seen(&r)
    );
}
