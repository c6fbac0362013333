//! The tools' own review commands and the review apps (blind sets w64 and w65): their
//! "found nothing" sentences, fix offers, localized tables and labels. One rule each, in
//! answers written for these tests.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity::*;

#[test]
fn a_fix_a_bot_only_prepared_takes_nothing_back() {
    let finding = "Acme Bot found 1 potential issue.\n\n### Refund rounds before the fee\n\n\
                   **Medium Severity**\n\nThe fee is taken from the rounded amount, so a refund \
                   can be a cent short.\n\n<!-- LOCATIONS START\nbilling/refund.py#L40-L44\n\
                   LOCATIONS END -->\n\n---\n\n";
    let offered = format!(
        "{finding}**Autofix** prepared a fix for 1 of the 1 issues found:\n\n- ✅ Fixed: \
         Refund rounds before the fee\n"
    );
    assert_eq!(
        seen(&read_cr(&offered)),
        [(P2, "billing/refund.py:40-44".into())]
    );
    // A fix that is in the change does take it back.
    let done = format!("{finding}- ✅ Fixed in 3c1d9e2: Refund rounds before the fee\n");
    assert!(seen(&read_cr(&done)).is_empty());
}

#[test]
fn a_search_that_identified_nothing_approves_whatever_it_looked_for() {
    // (Two words between "no" and what was not found, one of them a compound.)
    assert!(approves(
        "I went through the token refresh and the new audit table for injection and auth \
         bypasses.\n\nNo high-confidence security vulnerabilities were identified in this \
         change.\n"
    ));
    // A bot's line that names what it checks for is what it looks for, not what it found.
    assert!(approves(
        "**Gizmo Review** looked at this PR and found no issues.\n\n<sub>Gizmo checks for \
         bugs, leaks and security issues.</sub>\n"
    ));
    // "No tests cover the crash" still raises it.
    assert!(!approves(
        "No tests cover the crash on an empty cart, and it will reach users.\n"
    ));
}

#[test]
fn a_finding_that_ends_on_the_answers_closing_line_is_still_a_finding() {
    let text = "### 问题 1（严重性：中）\n**文件**：`cart/total.py` 第 12 行\n\n金额用浮点数累加，\
                长订单会差一分钱。\n\n其余改动没有问题。\n";
    assert_eq!(seen(&read_cr(text)), [(P2, "cart/total.py:12".into())]);
}

#[test]
fn an_approval_after_a_levels_none_says_why_it_approves() {
    let text = "## P1 - Must Fix\n\nNone.\n\n## P2 - Should Fix\n\nNone.\n\n## P3 - Nice to \
                Have\n\nNone.\n\nLGTM — the job now takes its lock before it reads the queue, \
                so a restart after a crash cannot run it twice.\n\n```json\n{\"verdict\": \
                \"approve\", \"findings\": []}\n```\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // Without the JSON, the risk it names keeps it from agreeing, but it is still no P3.
    let prose = &text[..text.find("```").unwrap()];
    assert!(read_cr(prose).critique.findings.is_empty());
    // A condition is a finding the "None." forgot.
    let held = text.replace("LGTM —", "LGTM once the lock test lands —");
    assert!(!approves(&held));
}

#[test]
fn levels_in_russian_labels_and_localized_impact_columns() {
    let ru = "**Незначительно** — `app/plan.rb:42`: дата берётся без часового пояса.\n\n\
              **Мелочь** — `app/plan.rb:9`: константа больше не используется.\n";
    assert_eq!(
        seen(&read_cr(ru)),
        [(P2, "app/plan.rb:42".into()), (P3, "app/plan.rb:9".into())]
    );
    let row = |cat: &str, title: &str, place: &str, impact: &str| {
        format!(
            "<tr><td rowspan=1>{cat}</td>\n<td>\n\n<details><summary>{title}</summary>\n\n___\n\n\
             **{title}。**\n\n[{place}](https://example.org/pull/1/files#diff-ab)\n\n\
             </details></td><td align=center>{impact}\n\n</td></tr>\n"
        )
    };
    let table = format!(
        "## PR 代码建议 ✨\n\n<table><thead><tr><td><strong>类别</strong></td><td \
         align=left><strong>建议</strong></td><td align=center><strong>影响</strong></td></tr>\
         <tbody>\n{}{}</tbody></table>\n",
        row("可能的问题", "重试时没有退避", "net/retry.go [20-24]", "中"),
        row("一般", "常量缺少注释", "net/retry.go [7]", "低"),
    );
    let r = read_cr(&table);
    assert_eq!(
        seen(&r),
        [
            (P2, "net/retry.go:20-24".into()),
            (P3, "net/retry.go:7".into())
        ]
    );
    assert_eq!(r.critique.findings[0].title, "重试时没有退避");
}

#[test]
fn a_summary_point_that_links_to_a_comment_below_is_that_comment() {
    let text = "Hey - I've found 1 security issue:\n\n## Security issues:\n- The upload path \
                keeps `..` segments. ([link](#comment-1))\n\n## Individual Comments\n\n### \
                Comment 1\n<location> `files/upload.py:30` </location>\n\n**🚨 issue \
                (security):** The upload path keeps `..` segments.\n\n<details>\n<summary>Here's \
                what I looked at during the review</summary>\n\n- 🔴 **Security**: 1 blocking \
                issue\n\n</details>\n";
    assert_eq!(seen(&read_cr(text)), [(P0, "files/upload.py:30".into())]);
}

#[test]
fn a_category_named_first_takes_its_blocking_count() {
    let text = "Hey - here's some feedback:\n\n- 🟢 General issues: all looks good\n- 🔴 \
                Security: 1 blocking issue\n\n---\n\n**api/login.py:12**\n\n**security \
                (open-redirect):** the `next` parameter is followed to any host.\n";
    assert_eq!(seen(&read_cr(text)), [(P0, "api/login.py:12".into())]);
}

#[test]
fn a_message_under_an_agents_bullet_that_opens_with_a_heading_is_read_at_the_margin() {
    let text = "● ## Issue: The pool is never closed\n\n  **File:** db/pool.go:50\n  \
                **Severity:** High\n  **Problem:** `Close()` returns before the workers \
                drain, so connections leak on every reload.\n\n  No other issues found.\n";
    assert_eq!(seen(&read_cr(text)), [(P1, "db/pool.go:50".into())]);
}

#[test]
fn a_localized_suggested_fix_under_a_comment_is_part_of_it() {
    let text = "**auth/token.go**\n\nComment on lines +20 to +24\n\n_⚠️ Potential issue_ | \
                _🟠 Major_\n\n**만료된 토큰이 통과됩니다.**\n\n만료 시간을 확인하지 않습니다.\n\n\
                <details>\n<summary>🛠️ 수정 제안</summary>\n\n```diff\n-\treturn t, nil\n+\t\
                return nil, ErrExpired\n```\n</details>\n";
    assert_eq!(seen(&read_cr(text)), [(P1, "auth/token.go:20-24".into())]);
}

#[test]
fn a_level_word_in_a_labels_parentheses_is_its_level() {
    let text = "A couple of small points:\n\n1. **Suggestion (minor):** `lib/load.rb` line 5 — \
                the error loses the parser's line number.\n\n2. **Nit:** `lib/load.rb` line 9 \
                — an unused `let`.\n\nNeither blocks the merge.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P2, "lib/load.rb:5".into()), (P3, "lib/load.rb:9".into())]
    );
}

#[test]
fn places_in_japanese_and_korean_headers_and_fields() {
    let ja =
        "## コードレビュー\n\n以下に指摘を1点挙げます。\n\n---\n\n**app/pause.rb (27行目):**\n\n\
              ![medium](https://www.gstatic.com/codereviewagent/medium-priority.svg)\n\n\
              時刻をローカルで保存しています。\n";
    assert_eq!(seen(&read_cr(ja)), [(P2, "app/pause.rb:27".into())]);
    let ko = "### 1. 재고 차감이 트랜잭션 밖에 있습니다 (심각도: 높음)\n\n- **파일:** \
              `stock/reserve.py`\n- **라인:** 58\n\n두 주문이 같은 재고를 모두 차감할 수 있습니다.\n";
    assert_eq!(seen(&read_cr(ko)), [(P1, "stock/reserve.py:58".into())]);
}

#[test]
fn a_finding_the_reviewer_withdraws_in_a_sentence_of_its_own_is_gone() {
    let text = "You're right about F1, and I was wrong to call it a P1: the retry only runs for \
                safe methods. Withdrawn — sorry for the noise.\n\nHappy to approve this.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // "Withdrawn" inside a sentence is not a withdrawal.
    let kept = "**P1:** the withdrawn token is still accepted by `auth/check.py:20`.\n";
    assert_eq!(seen(&read_cr(kept)), [(P1, "auth/check.py:20".into())]);
}

#[test]
fn a_scanner_that_found_no_new_issues_approves() {
    assert!(approves(
        "### Acme Security\n\n✅ No new security issues found in this pull request.\n\n\
         Scanned: SAST · Secrets · Dependencies\n"
    ));
}

#[test]
fn scanner_rows_triaged_away_or_fixed_by_the_change_raise_nothing() {
    let triaged = "## Scan complete\n\nNo issues need your attention.\n\n| Scanner finding | \
                   Original severity | Triage | Reason |\n|---|---|---|---|\n| SQL injection in \
                   `db/q.py:71` | Critical | False positive | the value is an enum |\n| Secret in \
                   `tests/users.py:9` | High | Accepted risk | a test fixture |\n";
    assert!(approves(triaged), "{:?}", seen(&read_cr(triaged)));
    // The same table with a row still open raises that row.
    let open = triaged.replace("Accepted risk", "Confirmed");
    assert_eq!(seen(&read_cr(&open)), [(P1, "tests/users.py:9".into())]);
    let fixed = "### Code scanning results\n\n**Scanner** found no new alerts in code changed by \
                 this pull request.\n\n**1 alert fixed** by this pull request:\n\n| Alert | \
                 Severity | Location |\n|---|---|---|\n| Query built from user input | Critical | \
                 `api/report.py:140` |\n";
    assert!(approves(fixed), "{:?}", seen(&read_cr(fixed)));
    // A section of what the change fixed is a shape of its own: nothing in it is raised.
    let section = "![Logo](https://cdn.example.org/logo.png)\n**Scan Summary & Details** – \
                   [a0c4e7f2](https://scan.example.org/scans?id=a0c4e7f2)\n\n---\n<details><summary><b>Fixed Issues (1)</b></summary>\n\
                   Nice work, these are gone now\n\n| Severity | Issue | Source File |\n\
                   |---|---|---|\n| ![HIGH](https://cdn.example.org/high.svg) HIGH | CSRF | \
                   /app/pay.rb: 12 |\n</details>\n";
    let r = read_cr(section);
    assert!(
        r.critique.findings.is_empty() && r.structured,
        "{:?}",
        seen(&r)
    );
}

#[test]
fn findings_a_bot_sets_aside_or_a_reviewer_triages_away_raise_nothing() {
    let below = "## Scan results\n\n✅ **No policy violations.**\n\n2 findings were below your \
                 policy threshold and are not shown on this pull request:\n- 1 × High — not \
                 reachable from your code\n- 1 × Medium — a test-only dependency\n";
    assert!(approves(below), "{:?}", seen(&read_cr(below)));
    // A list announced as findings keeps its levels.
    let shown = below.replace(
        "were below your policy threshold and are not shown on this pull request",
        "need a fix before merge",
    );
    assert!(!read_cr(&shown).critique.findings.is_empty());
    let triaged = "Review done.\n\nThe scanner's alert on this PR (`rules.sql.format`, WARNING, \
                   at `stats/rollup.py:88`) is a **false positive**: the value is an enum \
                   member checked on line 81.\n\nNothing else from me. Approved ✅\n";
    assert!(approves(triaged), "{:?}", seen(&read_cr(triaged)));
}

#[test]
fn a_code_scanning_alert_in_the_conversation_and_a_scanners_non_blocking_line() {
    let alert = "## Open redirect through a prefix check\n\nThe host may sit anywhere in the \
                 URL.\n\n**Check warning on line 17** in `web/redirect.ts`\n\nCode scanning / \
                 CodeQL\n\nOpen redirect through a prefix check **Medium**\n\nTool: CodeQL · \
                 Rule ID: js/open-redirect\n";
    assert_eq!(seen(&read_cr(alert)), [(P2, "web/redirect.ts:17".into())]);
    let semgrep = "**Semgrep found 1 `flask-debug` finding:**\n\n- \
                   [app/main.py#L18](https://example.org/blob/2be91d0/app/main.py#L18)\n\nDebug \
                   mode leaks stack traces.\n\nSeverity: WARNING · CWE-489\n\n⚪️ This finding \
                   does not block your pull request.\n";
    assert_eq!(seen(&read_cr(semgrep)), [(P2, "app/main.py:18".into())]);
    assert!(approves("Замечаний к изменению нет.\n"));
}
