//! The newest models' own default style when asked only to "review this diff" (blind set w54):
//! thinking shown above the answer, tables of checks, empty level sections, a summary line under
//! the answer's title. One rule each, in answers written for these tests.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity::*;

#[test]
fn one_failing_row_of_a_table_of_checks_is_a_finding_at_its_level() {
    let text = "### Checks\n| Aspect | Status | Notes |\n|---|---|---|\n\
| Correctness | ✅ | The swap is atomic |\n\
| Startup | ❌ **Critical** | If the first load fails the map stays null and every lookup throws — `src/flags/Cache.java:47` |\n\
| Tests | ✅ | Expiry is covered |\n\nGreat direction; good to merge once the default is in.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P0, "src/flags/Cache.java:47".into())],
        "{text}"
    );
    // Every row passed: a table of checks is no finding.
    let passed = "| Aspect | Status | Notes |\n|---|---|---|\n| Correctness | ✅ | Fine |\n\
| Tests | ✅ | Covered |\n\nReady to merge.\n";
    assert!(approves(passed), "{:?}", seen(&read_cr(passed)));
}

#[test]
fn empty_level_groups_in_russian_plural_and_a_tally_of_zeros_raise_nothing() {
    for text in [
        "### Замечания\n\n* 🔴 **Критические:** нет\n* 🟠 **Высокие:** нет\n* 🟡 **Средние:** нет\n\n\
### Вердикт\n✅ Можно мержить.\n",
        "Summary: the change adds a `--since` flag.\n\nCritical issues: 0 · Suggestions: 0\n\n\
This is ready to merge.\n",
    ] {
        assert!(approves(text), "{text}: {:?}", seen(&read_cr(text)));
    }
}

#[test]
fn a_group_of_optional_ideas_is_the_lowest_level_even_with_a_remark_after_its_name() {
    let text = "## Review\n\n**Verdict: ✅ Approve**\n\n\
### Optional ideas (non-blocking, take or leave)\n\
1. `cli/prune.py:88` — the listing prints absolute paths; relative ones would be shorter.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P3, "cli/prune.py:88".into())],
        "{text}"
    );
}

#[test]
fn what_i_specifically_checked_is_a_checklist_and_a_summary_line_is_no_finding() {
    for text in [
        "This looks good to me.\n\n**What I specifically checked**\n\
- **Injection:** values are bound parameters. Safe.\n\
- **Pagination:** `offset` is clamped at 0.\n\nIt's fine to merge.\n",
        "## Review: Fix duplicate charges on retry\n\n\
**Summary:** This fixes the critical double-charge bug from last week's incident.\n\n\
**Verdict:** Approve. No changes requested.\n",
    ] {
        assert!(approves(text), "{text}: {:?}", seen(&read_cr(text)));
    }
}

#[test]
fn thinking_a_chat_app_shows_above_its_answer_is_not_the_review() {
    for text in [
        "<details>\n<summary>Thought process: Weighed injection risk.</summary>\n\n\
If the values were interpolated this would be a critical injection. They are bound.\n</details>\n\n\
This looks good to me; I don't have any changes to suggest.\n",
        "Show thinking\n\n  **Checking the key**\n  It might be a critical path traversal at first \
glance, but the name is sanitised.\n\nLooks good to me, nothing to change.\n",
        "> **Thinking** · 23 s (collapsed)\n> Is there a critical stale read? No, the delete runs \
after commit.\n\nLooks good to me, nothing to change.\n",
    ] {
        assert!(approves(text), "{text}: {:?}", seen(&read_cr(text)));
    }
}

#[test]
fn a_summary_line_under_a_finding_s_own_heading_keeps_it_a_finding() {
    let text = "### Race in the cache refresh\n\n\
**Summary:** two writers can both miss the cache and overwrite each other's entry.\n";
    assert_eq!(seen(&read_cr(text)).len(), 1, "{text}");
}

#[test]
fn a_section_of_thoughts_indented_under_its_name_is_the_review() {
    let text = "Thoughts\n  - `src/retry.py:40`: the retry has no cap, a blocker.\n";
    let r = read_cr(text);
    let found = if r.structured {
        seen(&r)
    } else {
        super::layout_tests::raw_levels(text)
    };
    assert!(!found.is_empty(), "{text}");
}
