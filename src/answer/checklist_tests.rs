//! Rubrics, scorecards and checklists (blind set w60): a failed row is a finding, a passed,
//! skipped or pending one is what was checked, a legend says what the marks mean, a rating of
//! the whole change is no finding's level. One rule each, in answers written for these tests.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity::*;

#[test]
fn a_failed_row_of_a_table_of_checks_is_a_finding_and_a_green_one_is_not() {
    let text = "| Gate | State | Detail |\n|---|---|---|\n\
| Unit tests | 🟢 | 1,204 passed |\n\
| Migration dry-run | 🔴 | `db/V12__drop_tokens.sql:3` drops a table the refund worker still reads |\n\
| Sign-off | ⚪ | pending |\n\
| Lint | FAIL | the new module `app/mod.py:9` imports a name that does not exist |\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (P0, "db/V12__drop_tokens.sql:3".into()),
            (Unclassified, "app/mod.py:9".into())
        ]
    );
    // The row is named by its first column; the others say why.
    assert_eq!(r.critique.findings[0].title, "Migration dry-run");
    // A mark alone with nothing said (a bot's table of its own settings) is no finding, and
    // neither is a row that only points at the finding told below.
    for quiet in [
        "| Option | Status |\n|---|---|\n| Security | ✅ |\n| Documentation | ❌ |\n",
        "| Analyzer | Status | Details |\n|---|---|---|\n| Secrets | ✅ Success | |\n\
| JavaScript | ❌ Failure, 2 new issues | [Review ↗](https://example.com/run/7/js) |\n",
        "| Check | Result | Notes |\n|---|---|---|\n| Auth | ✅ | kept |\n\
| Path traversal | ❌ | see #1 below, same cause as the upload check |\n",
    ] {
        assert!(read_cr(quiet).critique.findings.is_empty(), "{quiet}");
    }
}

#[test]
fn a_not_applicable_row_with_a_dash_for_its_level_is_no_finding() {
    let text =
        "| # | Criterion | Status | Severity | Location | Notes |\n|---|---|---|---|---|---|\n\
| 1 | Signatures | FAIL | High | `hooks/verify.py:23` | compares digests with `==` |\n\
| 2 | Docs | N/A | — | — | internal service |\n\
| 3 | Retries | PASS | — | — | capped at 6 h |\n";
    assert_eq!(seen(&read_cr(text)), [(P1, "hooks/verify.py:23".into())]);
    // An outcome column in Italian is a status column too.
    let it = "| Criterio | Esito | Nota |\n|---|---|---|\n| Test | ✅ | tutti verdi |\n\
| Sicurezza | N/A | nessun nuovo input utente |\n\
| Reattività | ❌ | il `watch` in `web/src/stores/cart.ts:46` non vede le quantità |\n";
    assert_eq!(
        seen(&read_cr(it)),
        [(Unclassified, "web/src/stores/cart.ts:46".into())]
    );
}

#[test]
fn a_rubric_row_scored_below_the_top_is_read_by_its_notes() {
    let text = "| Criterion [weight] | Score | Notes |\n|---|---|---|\n\
| Correctness [high] | 5/5 | matches the old parser on all fixtures |\n\
| Error handling [high] | 4/5 | nit: `sched/parse.py:61` raises a bare `ValueError` |\n\
| Docs [low] | 5/5 | |\n";
    assert_eq!(seen(&read_cr(text)), [(P3, "sched/parse.py:61".into())]);
}

#[test]
fn a_code_review_bots_failed_pre_merge_check_is_its_finding() {
    let check = |status: &str| {
        format!(
            "## Walkthrough\n\nAdds a notifier.\n\n<!-- pre_merge_checks_walkthrough_start -->\n\n\
<details>\n<summary>Pre-merge checks</summary>\n\n### ❌ Failed checks (1)\n\n\
|        Check name        | Status   | Explanation | Resolution |\n\
| :----------------------: | :------- | :---------- | :--------- |\n\
| No credentials in config | {status} | `config/notify.yaml` line 4 commits the whole webhook URL with its secret. | Read it from a secret. |\n\n\
<details>\n<summary>✅ Passed checks (1 passed)</summary>\n\n\
| Check name | Status | Explanation |\n| :---: | :--- | :--- |\n\
| Title check | ✅ Passed | The title says what changed. |\n\n</details>\n</details>\n\n\
<!-- pre_merge_checks_walkthrough_end -->\n\nNo actionable comments were generated in the recent review. 🎉\n"
        )
    };
    assert_eq!(
        seen(&read_cr(&check("❌ Error"))),
        [(P1, "config/notify.yaml:4".into())]
    );
    assert_eq!(
        seen(&read_cr(&check("⚠️ Warning"))),
        [(P2, "config/notify.yaml:4".into())]
    );
}

#[test]
fn a_legend_says_what_the_marks_mean_and_is_no_finding() {
    // A labelled legend of one pair a line (a compliance guide's): green passed, red failed
    // with no level, white waits on a person.
    let text = "## Compliance\n\n<table><tbody>\n\
<tr><td colspan='2'><strong>Security</strong></td></tr>\n\
<tr><td>🟢</td><td><strong>No security concerns identified</strong><br>Nothing found.</td></tr>\n\
<tr><td colspan='2'><strong>Custom rules</strong></td></tr>\n\
<tr><td rowspan=1>🔴</td><td><details><summary><strong>Error handling</strong></summary><br>\n\
<b>Status:</b> <br><b>Unhandled failure</b>: <code>jobs/refresh.ts</code> awaits the provider \
without a catch, so a 5xx leaves stale rates live.<br>\n\
<a href=\"https://example.com/acme/fx/blob/0123456789abcdef0123456789abcdef01234567/jobs/refresh.ts#L40-L44\">\
<strong>Referred Code</strong></a><br>\n</details></td></tr>\n</tbody></table>\n\
<details><summary>Compliance status legend</summary>\n🟢 - Fully Compliant<br>\n\
🏷️ - Compliance label<br>\n🟡 - Partial Compliant<br>\n🔴 - Not Compliant<br>\n\
⚪ - Requires Further Human Verification<br>\n</details>\n";
    let r = read_cr(text);
    assert_eq!(seen(&r), [(Unclassified, "jobs/refresh.ts:40-44".into())]);
    // A legend line of its own is said to no one; an unlabelled line of pairs (a comment's own
    // badges) stays.
    let prepared = crate::answer::prepare::prepare("Legend: 🟢 ok · 🔴 blocking\n\nText.\n");
    assert!(!prepared.contains("Legend"), "{prepared}");
    let badges = crate::answer::prepare::prepare("⚠️ Potential issue | 🟡 Minor\n\nText.\n");
    assert!(badges.contains("Potential issue"), "{badges}");
}

#[test]
fn lines_that_open_with_a_checks_mark_are_a_checklist() {
    let text = "Review checklist:\n\n\
✅ Strong parameters permit the new attributes\n\
❌ N+1 query: `app/views/users/index.html.erb` line 27 loads the preference inside the loop\n\
❌ The new column has no default, so `app/mailers/digest.rb:14` treats old rows as daily\n\
➖ i18n: not applicable, no new strings\n\nTwo items to address.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Unclassified, "app/views/users/index.html.erb:27".into()),
            (Unclassified, "app/mailers/digest.rb:14".into())
        ]
    );
    // A check mark after the row's label passes it too.
    let labelled = "Security checklist:\n\n- Authn: ✔ unchanged\n- Authz: ✔ scopes kept\n\
- CWE-209: ✗ **Medium** — `authproxy/errors.go:27` returns the IdP's error to the client.\n";
    assert_eq!(
        seen(&read_cr(labelled)),
        [(P2, "authproxy/errors.go:27".into())]
    );
}

#[test]
fn an_open_box_that_says_where_it_fails_is_a_finding() {
    let text = "Чек-лист безопасности\n\n- [x] Аутентификация не изменилась\n\
- [ ] Авторизация: `reports/views.py`, строка 41 — проверяется только вход\n\
- [x] SQL-инъекции: только ORM\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Unclassified, "reports/views.py:41".into())]
    );
    // An agent's plan, ticked or not, stays its plan.
    let plan = "- [x] Read the changed files\n- [ ] Run the test suite\n\nLGTM.\n";
    assert!(approves(plan), "{plan}");
}

#[test]
fn items_that_open_with_their_own_place_under_a_bold_line_are_findings() {
    let text = "**Review of the orders change**\n\n\
1. `orders/service.py:88` — the locked branch returns `None`, served as an empty 200.\n\
2. `orders/api.py:14` — the retry header is never set.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Unclassified, "orders/service.py:88".into()),
            (Unclassified, "orders/api.py:14".into())
        ]
    );
    // A numbered bold title is one finding, and a place in its first item is its place.
    let titled = "**3. Retries never give up**\n- `src/queue.ts` L130: no attempt limit.\n\
- **Severity:** Medium\n";
    assert_eq!(seen(&read_cr(titled)), [(P2, "src/queue.ts:130".into())]);
}

#[test]
fn one_failed_row_and_its_section_at_the_same_line_are_one_finding() {
    let text = "| Check | CWE | Result | Severity | Where |\n|---|---|---|---|---|\n\
| SQL injection | CWE-89 | FAIL | Critical | `routes/customers.js:66` |\n\
| XSS | CWE-79 | PASS | — | escaped template |\n\n## Details\n\n\
### CWE-89 — SQL injection (Critical)\n\n`routes/customers.js:66` interpolates the query \
string into a `LIKE` clause. Bind it instead.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P0, "routes/customers.js:66".into())]
    );
}

#[test]
fn a_rating_of_the_whole_change_is_no_findings_level() {
    let text = "Risk level: high — this is session handling, so a mistake would matter. \
Confidence: high — I traced both callers in `accounts/views.py`.\n\n## P1 - Must Fix\nNone.\n\n\
LGTM.\n\n```json\n{\"verdict\": \"approve\", \"summary\": \"fine\", \"findings\": []}\n```\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // A release gate's result is its verdict.
    assert!(approves(
        "| Gate | State |\n|---|---|\n| Build | ✅ |\n| Tests | ✅ 2,041 passed |\n\n\
**Result: READY** ✅\n"
    ));
}

#[test]
fn a_route_group_or_a_dynamic_segment_is_part_of_the_path() {
    for (text, place) in [
        (
            "- P1: open redirect in `app/(auth)/login/actions.ts:29`.\n",
            "app/(auth)/login/actions.ts:29",
        ),
        (
            "- P2: `pages/[id]/edit.tsx:7` re-renders on every keystroke.\n",
            "pages/[id]/edit.tsx:7",
        ),
    ] {
        assert_eq!(seen(&read_cr(text))[0].1, place, "{text}");
    }
}
