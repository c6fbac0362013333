//! Shapes the reader learned from two blind sets (w22, the everyday mix where the gate must not
//! cry wolf; w23, long structured reviews), one rule each, in answers written for these tests:
//! what each rule reads, and what it leaves alone.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity;

#[test]
fn what_the_change_fixed_is_not_what_it_raises() {
    // A section that says what the change does, wrapped mid-sentence.
    let text = "## Review\n\n**Verdict: approve.**\n\n### What the change does\n\n\
The scheduler stops reading wall-clock time, which froze every queue after an NTP step.\n\n\
### Risk\n\nThe only behaviour that moves is the clock step, which is exactly the bug.\n\n\
Approve.\n";
    assert!(approves(text));
    // "My first worry was …", "closes the injection", "the PR fixes the bug where a job made
    // the" / "scheduler panic": each says what was wrong before, or what was ruled out.
    let worry = "My first worry was that the index build would lock `orders` for the deploy. \
It does not: it is built concurrently.\n\nNothing to fix. Approved.\n";
    assert!(approves(worry));
    let closes = "The change binds parameters in `reports/q.py`, which closes the SQL injection \
from the report.\n\nLGTM, approve.\n";
    assert!(approves(closes));
    let wrapped =
        "I read `cron.go`.\n\nThe PR fixes the critical bug where a leap-day job made the\n\
scheduler panic on other years, because the loop indexed an empty slice.\n\n\
The change is correct. **Approved.**\n";
    assert!(approves(wrapped));
    // A problem said in the present still stands.
    let open = "LGTM overall.\n\nThe new loop can deadlock when two workers take the same lock.\n";
    assert!(!approves(open));
}

#[test]
fn a_labelled_lines_wrapped_rest_is_that_lines() {
    let text = "Read the change.\n\n**Summary:** The PR fixes the crash where an empty list made \
the\nexporter panic on startup, because it indexed the first row.\n\nThe change is correct. \
**Approved.**\n";
    assert!(approves(text));
}

#[test]
fn a_low_risk_rating_rates_the_change_not_a_problem() {
    let heading = "## Walkthrough\n\nMoves the retry into the client.\n\n## Risk\n\n\
Low — pure function, fully covered.\n\n## Verdict\n\nApprove.\n";
    assert!(approves(heading));
    let bold =
        "Reviewed the flag flip.\n\n**Risks**\nMinimal. Under steady load nothing changes;\n\
under bursts it is stricter, which is the point.\n\n**Verdict**\nApproved.\n";
    assert!(approves(bold));
    let inline = "**Overall risk: Low.** Rolling back is the same config flip.\n\nApprove.\n";
    assert!(approves(inline));
    // Rated low, but saying what breaks, it is read on its words.
    let broken = heading.replace(
        "Low — pure function, fully covered.",
        "Low — but two workers can deadlock on the shared lock.",
    );
    assert!(!approves(&broken));
    // A high risk is read on its own words.
    let high = heading.replace(
        "Low — pure function, fully covered.",
        "High — the migration rewrites the table and will lose rows on rollback.",
    );
    assert!(!approves(&high));
}

#[test]
fn a_quiet_items_wrapped_lines_are_quiet_too() {
    let text = "## Walkthrough\n\n1. `cli/backup.py`\n   - New `--no-stream` flag.\n\
2. `tests/test_backup.py`\n   - Uses a fake client; covers success, a failing part,\n     \
and a failing dump.\n\nApprove.\n";
    assert!(approves(text));
}

#[test]
fn a_level_word_that_continues_a_wrapped_sentence_opens_nothing() {
    let text = "### Overview\n\nThe retry loop gets exponential backoff. The motivation is the\n\
P0 incident last quarter where one slow subscriber starved every tenant.\n\n\
### Verdict\n\nApprove.\n";
    assert!(approves(text));
    // A marker that opens the line opens a finding, whatever the line before it.
    let own = "*PR #1187* · `ledger` · multi-currency postings, review done\n\
:red_circle: *Blocker* — `posting.go:211`\nFX rounding posts legs that do not balance.\n";
    assert_eq!(
        seen(&read_cr(own)),
        [(Severity::P0, "posting.go:211".into())]
    );
}

#[test]
fn an_item_that_closes_on_its_all_clear_is_a_check_that_passed() {
    let text = "### Risks\n\n- **Ordering within a batch**: events for one product can cross \
partitions. I checked: the stream is keyed by product. Fine.\n\
- **Backfill load**: the fallback is rate limited. Not a problem.\n\n\
### Potential issues I ruled out\n\n- **Memory growth**: the list is virtualised.\n\n\
Approve.\n";
    assert!(approves(text));
    let open = "### Risks\n\n- **Ordering within a batch**: events for one product can arrive out \
of order and the projection applies them blindly.\n";
    assert_eq!(read_cr(open).critique.findings.len(), 1);
    // A problem rated low in its last sentence is still a finding.
    let low =
        "### Risks\n\n- **Two workers**: they can deadlock on the shared lock. Not a problem.\n";
    assert_eq!(read_cr(low).critique.findings.len(), 1);
}

#[test]
fn a_numbered_point_taken_back_in_a_later_paragraph_is_gone_in_other_words_too() {
    let text = "1. **Restart on every change.** `tasks/main.yml:34` restarts instead of \
reloading.\n\n2. **Passwords in the log.** `tasks/users.yml:12` lacks `no_log`.\n\n\
## Update\n\nOn a second look the block sets `no_log`. Observation 2 is withdrawn.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::Unclassified, "tasks/main.yml:34".into())]
    );
    let ukrainian = "1. **Зовнішні сутності.** `src/Feed.php:88` не вимикає їх.\n\n\
2. **Ціна з комою.** `src/Price.php:14` не розбирає `1 299,50`.\n\n\
## Доповнення\n\nЩодо пункту 2: я помилився, відкликаю це зауваження.\n";
    assert_eq!(
        seen(&read_cr(ukrainian)),
        [(Severity::Unclassified, "src/Feed.php:88".into())]
    );
    // A paragraph that names two points does not say which one it takes back.
    let two = ukrainian.replace("Щодо пункту 2:", "Щодо пунктів 1 і пункту 2:");
    assert_eq!(read_cr(&two).critique.findings.len(), 2);
}

#[test]
fn an_item_taken_back_in_its_own_words_is_gone() {
    for back in [
        "On a second look the import is the synchronous one. I take this one back.",
        "Already fixed: the second commit switched to `find -delete`, so ignore it.",
        "Beru zpět: pozice je v pořádku.",
        "Tämä on jo\n   korjattu toisessa commitissa.",
    ] {
        let text = format!(
            "1. `src/q.ts:64` — the counter is reset inside the loop.\n\n\
2. `src/q.ts:90` — `flush()` is not awaited.\n   {back}\n"
        );
        assert_eq!(
            seen(&read_cr(&text)),
            [(Severity::Unclassified, "src/q.ts:64".into())],
            "{back}"
        );
    }
}

#[test]
fn nothing_to_flag_under_a_file_says_why_there_is_nothing() {
    let text =
        "### `web/DatePicker.tsx`\n\n- `web/DatePicker.tsx:112` — the week start ignores the \
locale.\n\n### `web/DatePicker.test.tsx`\n\nNothing to flag. The keyboard tests use real key \
names, and there's a\ntest for the Saturday-first locale, which was broken before.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::Unclassified, "web/DatePicker.tsx:112".into())]
    );
}

#[test]
fn the_items_under_a_file_are_all_that_files_with_the_line_they_cite() {
    let text = "### Per-file notes\n\n**`exporter/schema.py`**\n\
- `actor_id` is 32-bit; ids are past 2^31, so those rows fail (`exporter/schema.py:19`).\n\n\
**`exporter/writer.py`**\n- ~~The handle leaks on error.~~ Already fixed: nothing to do here.\n\
- Row groups flush every 10,000 rows, which can hold hundreds of MB (line 58).\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::Unclassified, "exporter/schema.py:19".into()),
            (Severity::Unclassified, "exporter/writer.py:58".into())
        ]
    );
    // An item that names a file of its own is that file's.
    let other = "`scheduler/cron.py`:\n\n* `next_run()` on line 52 uses local time.\n\
* The new parameter isn't documented in `docs/scheduler.md`.\n";
    let places: Vec<String> = seen(&read_cr(other)).into_iter().map(|s| s.1).collect();
    assert_eq!(places, ["scheduler/cron.py:52", "docs/scheduler.md"]);
}

#[test]
fn a_bold_lead_of_line_level_and_title_parted_by_dots() {
    let text = "### `migrations/0042.sql`\n\n- **L71–L78 · P0 · data loss on rollback.** The down \
section drops both tables.\n- **L33 · P2 · long lock.** The copy runs in one statement.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P0, "migrations/0042.sql:71-78".into()),
            (Severity::P2, "migrations/0042.sql:33".into())
        ]
    );
}

#[test]
fn a_level_alone_after_a_range_comment_is_that_comments() {
    let text = "<details>\n<summary>🧹 Nitpick comments (2)</summary><blockquote>\n\n\
`14-19`: **Cap the backoff.**\n\n_🟡 Minor_\n\nThe delay has no ceiling.\n\n---\n\n\
`33-33`: **Prefer `Number.isFinite`.**\n\nThe global one coerces strings.\n\n\
</blockquote></details>\n";
    let r = read_cr(text);
    let levels: Vec<Severity> = r.critique.findings.iter().map(|f| f.severity).collect();
    assert_eq!(levels, [Severity::P2, Severity::P3]);
}

#[test]
fn a_bold_titles_level_field_is_its_level() {
    let text = "Review.\n\n**1. Path traversal when saving**\n- Severity: P0 (critical)\n\
- File: `server/upload.js`\n- Line: 29\n\nThe join accepts `../` in names.\n\n\
**2. Size checked after reading**\n- Severitate: P2 (medie)\n- Fișier: `server/upload.js`\n\
- Linie: 41\n\nThe limit belongs in the parser.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P0, "server/upload.js:29".into()),
            (Severity::P2, "server/upload.js:41".into())
        ]
    );
    // A field with a place after the level is a finding's lead of its own.
    let own = "**Review**\n\n1. **Severity: Critical** — `pay/hook.py`, line 31\n   \
A missing signature is accepted.\n";
    assert_eq!(
        seen(&read_cr(own)),
        [(Severity::P0, "pay/hook.py:31".into())]
    );
}

#[test]
fn levels_in_other_brackets_and_after_an_emoji() {
    let text = "## Findings\n\n### ⟦P1⟧ `state` is never compared — `src/cb.ts:27`\n\n\
Login CSRF.\n\n<details>\n<summary>💡 P3 · src/cb.ts:64 — email order assumed</summary>\n\n\
Pick the primary one.\n\n</details>\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P1, "src/cb.ts:27".into()),
            (Severity::P3, "src/cb.ts:64".into())
        ]
    );
}

#[test]
fn a_bots_description_of_the_change_is_not_its_review() {
    let text = "> [!IMPORTANT]\n> Fixes an open redirect in `auth/views.py`.\n>\n\
>   - **Security**:\n>     - `login_view` rejects a `next` URL on another host.\n>\n\
> <sup>This description was created by a bot for 7d2e9a1.</sup>\n\n---\n\n\
> [!IMPORTANT]\n> Looks good to me! 👍\n";
    assert!(approves(text));
}

#[test]
fn must_fix_and_small_things_headings_in_other_languages() {
    let text = "### Обов'язково виправити\n\n- `billing/hook.py:34` — перевірку підпису \
вимкнено на staging.\n\n### Дрібниці\n\n- `billing/hook.py:112` — застарілий докстрінг.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P1, "billing/hook.py:34".into()),
            (Severity::P3, "billing/hook.py:112".into())
        ]
    );
}

// From two more blind sets: w24 (second opinions from the big CLIs, half-following the
// format) and w25 (review text as people paste it from a code host, a chat or a terminal).

#[test]
fn level_words_the_prompt_did_not_ask_for() {
    let text = "Overall fine; sorted into two groups:\n\nShould change\n\
- `web/Picker.vue:118` — the watcher emits again and loops.\n\nNice to have\n\
- `web/Picker.vue:27` — the label is hard-coded English.\n\n\
**FYI** — `web/picker_test.ts:38`\nThe fixture date is in the future.\n\n\
**nit `src\\queue\\consumer.rs:12`** — `Arc` is unused.\n";
    let levels: Vec<Severity> = read_cr(text)
        .critique
        .findings
        .iter()
        .map(|f| f.severity)
        .collect();
    assert_eq!(
        levels,
        [Severity::P2, Severity::P3, Severity::P3, Severity::P3]
    );
    // One word alone under a comment's byline is that comment's badge, not a section.
    let badge = "a.kt\nComment on lines +45 to +52\n@bot\ncritical\n\nThe balance check races.\n";
    assert_eq!(read_cr(badge).critique.findings[0].severity, Severity::P0);
}

#[test]
fn a_tally_in_parentheses_rates_nothing() {
    let text = "| Level | File | Line | Issue |\n|---|---|---|---|\n\
| 🔴 blocking | `app/Export.php` | 58 | not scoped to the tenant |\n\
| 🟡 minor | `app/Job.php` | 104 | temp file left behind |\n\n\
### Details\n\n**Export.php:58** — the query drops the tenant scope.\n\n\
**Job.php:104** — a failed job leaves its CSV behind.\n\n### Verdict\n\
❌ Changes requested (1 blocking).\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P0, "app/Export.php:58".into()),
            (Severity::P2, "app/Job.php:104".into())
        ]
    );
}

#[test]
fn a_thread_marked_resolved_takes_its_comment_back() {
    // GitHub: the state line after the thread.
    let github = "src/tax.py\nComment on line +17\n@bot\n⚠️ Potential issue | 🟠 Major\n\n\
Rates as float literals feed the Decimal maths.\n\n@dev\nSame commit, 4e1b9c2.\n\n\
dev marked this conversation as resolved.\n";
    assert!(read_cr(github).critique.findings.is_empty());
    // GitLab: the header above it.
    let gitlab = "Bot started a thread on an old version of the diff 1 day ago\n\
Resolved by Marta Kowalczyk 20 hours ago\ncharts/values.yaml\n\n\
With a single replica and the new disruption budget, node drains block forever.\n";
    assert!(read_cr(gitlab).critique.findings.is_empty());
    // Without the state line, the comment stands.
    let open = github.replace("dev marked this conversation as resolved.\n", "");
    assert_eq!(read_cr(&open).critique.findings.len(), 1);
    // A quoted reply that checks the fix, in another language.
    let czech = "faktury/isdoc.py:58\n**Závažnost: vysoká** — datum splatnosti je ve špatném \
formátu.\n\n> bot: Ověřeno. ✅ Vyřešeno.\n";
    assert!(read_cr(czech).critique.findings.is_empty());
}

#[test]
fn a_numbered_point_the_reviewer_says_is_addressed_is_gone() {
    let text = "1. `migrations/0042.py:12` — the column is NOT NULL with no default.\n\n\
2. `accounts/models.py:88` — `datetime.now()` is naive.\n\n\
Checked 6c0d3e8: point 2 is addressed. Point 1 is still open.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::Unclassified, "migrations/0042.py:12".into())]
    );
}

#[test]
fn a_list_the_lead_in_says_only_looks_wrong_is_not_findings() {
    let text = "**Verdict: approve.** Several things look risky at first glance, so here is why \
each one is fine:\n\n1. **The f-string SQL in `q.py:88`.** Only a hard-coded table name is \
interpolated.\n2. **`except Exception: pass` in `export.py:130`.** It wraps only the metrics \
call.\n\nApprove.\n";
    assert!(approves(text));
    // A lead-in that announces problems makes them findings.
    let raised = text.replace(
        "Several things look risky at first glance, so here is why each one is fine:",
        "Two things I found:",
    );
    assert_eq!(read_cr(&raised).critique.findings.len(), 2);
}
