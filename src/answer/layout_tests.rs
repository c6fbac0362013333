//! Layouts the reader learned from a blind set (w7), one rule each, in answers written for these
//! tests: what each rule reads, and what it leaves alone.

use super::*;
use crate::findings::Severity;

fn read_cr(text: &str) -> Reading {
    read(text, None, Protocol::Cr, &Roots::default())
}

/// (severity, `path:line` or `-`, start of the title) of each finding.
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
