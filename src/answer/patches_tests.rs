//! Code in answers and the layouts of more review tools (blind sets w50 and w51): quoted
//! tracebacks and diffs beside an approval, aider's and opencode's sessions, Gerrit's votes and
//! comment links, Amazon Q's IDE list, a bot's summary of the change, counted previews and
//! verdicts that rate by number. One rule each, in answers written for these tests: what each
//! rule reads, and what it leaves alone.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity::*;

#[test]
fn a_traceback_quoted_as_the_bug_being_fixed_does_not_withhold_an_approval() {
    let text = "Yes, this is the right fix. The output from the ticket:\n\n\
```\npanic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\n\
main.parse(...)\n\tapp/parse.go:41 +0x1d\n```\n\n\
Short lines are skipped now, and the new test covers an empty file.\n\nLGTM.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // Outside the fence the same words still raise something.
    let said = "The loop in `billing/invoice.py` line 41 will crash with a TypeError when an \
amount is missing.\n\nOtherwise LGTM.\n";
    assert!(!approves(said));
}

#[test]
fn the_problem_a_change_fixes_is_not_raised_by_naming_it() {
    for text in [
        "The stack trace in the description is the crash this PR fixes. I see no problems. Approved.",
        "The log you attached shows the bug itself, and the new guard handles it. Approved.",
        "Dass `Must` bei einem Fehler eine panic auslöst, ist hier genau gewollt. Approved.",
        "That `Must` panics on a broken template is intended here: startup should fail. Approved.",
    ] {
        assert!(approves(text), "{text}: {:?}", seen(&read_cr(text)));
    }
    assert!(!approves(
        "This PR fixes the parser, but the crash in `cli/run.py` line 9 is still there. Approved."
    ));
}

#[test]
fn a_fix_named_for_what_it_fixes_and_a_wrong_type_case_raise_nothing() {
    assert!(approves(
        "Reviewed the leak fix and the crash fix in the uploader; both hold. The tests cover \
the wrong-type case too. Approved."
    ));
    assert!(!approves(
        "The uploader returns the wrong type for empty files. Approved otherwise."
    ));
}

#[test]
fn an_aider_session_keeps_only_the_models_words() {
    let text = "Aider v0.80.0\nModel: some-model with diff edit format\nGit repo: .git with 12 files\n\
Added app/cache.py to the chat.\n\n> /run pytest -q tests/test_cache.py\n\
E   AssertionError: stale entry returned after expiry\n1 failed in 0.04s\n\
Add 0.1k tokens of command output to the chat? (Y)es/(N)o [Yes]: y\n\
Added 3 lines of output to the chat.\n\n\
> Check the change for P0-P3 problems and give line numbers.\n\n\
No problems in the change: the failure above is the bug it fixes, on the old code. I'd approve it.\n\n\
Tokens: 1.1k sent, 80 received.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn an_edit_blocks_file_name_belongs_to_the_edit() {
    let text = "Two things, both low:\n\n\
1. Line 8 (low): the retry count is read as a string.\n\n\
app/retry.py\n```python\n<<<<<<< SEARCH\ntries = os.environ.get(\"TRIES\", 3)\n=======\n\
tries = int(os.environ.get(\"TRIES\", 3))\n>>>>>>> REPLACE\n```\n\n\
2. Line 30 (low): the log line repeats the message.\n\n\
app/retry.py\n```python\n<<<<<<< SEARCH\nlog.info(msg, msg)\n=======\nlog.info(msg)\n>>>>>>> REPLACE\n```\n\n\
I have not applied either edit.\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (P3, "app/retry.py:8".into()),
            (P3, "app/retry.py:30".into())
        ]
    );
}

#[test]
fn a_commands_output_in_an_opencode_session_is_not_the_review() {
    let text = "|  Read     svc/queue.go\n|  Bash     go test ./svc/...\n\n\
--- FAIL: TestDrain (0.01s)\n    queue_test.go:44: drained 2 of 3 jobs\nFAIL\n\n\
The new test fails on this branch because `Drain` returns before the last job is acked.\n\n\
**High** — `svc/queue.go:88`: `Drain` closes the channel before the worker acks, so a job \
in flight is lost on shutdown.\n";
    assert_eq!(seen(&read_cr(text)), [(P1, "svc/queue.go:88".into())]);
    // A heading right after the output is the review's.
    let headed = "|  Bash     rspec\n\n12 examples, 0 failures\n\n### lib/a.rb\n\n\
Line 4: (nit) the constant is not frozen.\n\n### lib/b.rb\n\n\
Line 9: (nit) the method name is misspelled.\n";
    assert_eq!(
        seen(&read_cr(headed)),
        [(P3, "lib/a.rb:4".into()), (P3, "lib/b.rb:9".into())]
    );
    // And prose in a script without capitals.
    let korean =
        "|  Bash     kubectl kustomize deploy\n\n`deploy/app.yaml` 변경을 검토했습니다.\n\n\
지적 사항 없음. 승인합니다.\n";
    assert!(approves(korean), "{:?}", seen(&read_cr(korean)));
}

#[test]
fn a_bots_marked_or_signed_summary_of_the_change_is_not_a_finding() {
    // The summary's bullets name what the change fixes in words that, read as a finding, raise
    // a problem ("released", "drops … on overflow", "heap growth").
    let note = "> [!NOTE]\n> **Fixes a critical memory leak in the socket hub**\n>\n\
> - Unsubscribes handlers when a socket closes, so closed clients are released.\n\
> - Caps each send buffer at 256 messages and drops the oldest on overflow.\n\
> - Adds a soak test that opens and closes 10k sockets and checks heap growth.\n";
    let verdict = "\n---\n\nSomeBot has reviewed your changes and found no new issues!\n\n\
<sub>Comment `@somebot review` to trigger another review on this PR</sub>\n";
    let marked = format!("<!-- BOT_SUMMARY -->\n{note}<!-- /BOT_SUMMARY -->\n{verdict}");
    assert!(approves(&marked), "{:?}", seen(&read_cr(&marked)));
    let signed = format!(
        "{note}>\n> <sup>Written by [SomeBot](https://example.com/bot) for commit 3f9a2c1. \
         Updates on new commits.</sup>\n{verdict}"
    );
    assert!(approves(&signed), "{:?}", seen(&read_cr(&signed)));
    // A comment pair around the review itself keeps what it holds.
    let review = "<!-- tool:review-summary -->\n**1 issue found**\n\n\
P1: `jobs/run.py:12` retries forever on a 404.\n<!-- /tool:review-summary -->\n";
    assert_eq!(seen(&read_cr(review)), [(P1, "jobs/run.py:12".into())]);
}

#[test]
fn a_changelist_and_a_per_file_summary_are_summaries() {
    let changelist =
        "**Changelist by SomeBot**\n\n<table><tr><th>Key Change</th><th>Files Impacted</th></tr>\
<tr><td>\n\n<b>Bug Fix - Critical crash fix in the importer</b>\n\n- Skips empty rows.\n\n</td>\
<td>\n\nimport/rows.py\n\n</td></tr></table>\n\nActionable Suggestions - 0\n";
    assert!(approves(changelist), "{:?}", seen(&read_cr(changelist)));
    let per_file = "## Pull request overview\n\nFixes a path traversal in the download handler.\n\n\
### Reviewed changes\n\nCopilot reviewed 2 out of 2 changed files in this pull request and \
generated no new comments.\n\n<details>\n<summary>Show a summary per file</summary>\n\n\
| File | Description |\n| ---- | ----------- |\n| `srv/download.js` | Rejects paths outside the root |\n\n</details>\n";
    assert!(approves(per_file), "{:?}", seen(&read_cr(per_file)));
}

#[test]
fn a_thread_reply_that_resolves_the_earlier_points_raises_nothing() {
    let text = "**some-bot** replied in thread on `store/users.py`:\n\n\
> @some-bot is this fixed now?\n\n\
The new commit resolves both earlier suggestions: the query is parameterised and the call \
has a timeout. No further changes are needed on these threads.\n\n\
Actionable Suggestions - 0\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn gerrit_votes_and_comment_links_are_read() {
    let blocker = "Patch Set 2: Code-Review-2\n\n(2 comments)\n\n\
File src/pool.c:\n\n\
https://review.example.org/c/lib/+/1234/2/src/pool.c#51\n\
PS2, Line 51: \tfree(p->buf);\n\
Blocker: the buffer is freed while a reader may still hold it.\n\n\
https://review.example.org/c/lib/+/1234/2/src/pool.c#70\n\
PS2, Line 70: \t/* TODO */\n\
Nit: say what is left to do.\n";
    assert_eq!(
        seen(&read_cr(blocker)),
        [(P0, "src/pool.c:51".into()), (P3, "src/pool.c:70".into())]
    );
    let approved = "Patch Set 3: Code-Review+2\n\n(1 comment)\n\n\
https://review.example.org/c/lib/+/1234/2/src/pool.c#51\n\
PS2, Line 51: \tfree(p->buf);\n\
> The buffer is freed while a reader may still hold it.\n\n\
Fixed in PS3, resolving.\n";
    assert!(approves(approved), "{:?}", seen(&read_cr(approved)));
    assert!(!approves(
        "Patch Set 1: Code-Review-1\n\nPlease split this change.\n"
    ));
}

#[test]
fn a_japanese_nothing_to_comment_note_approves() {
    assert!(approves(
        "レビューが完了しました。コメントすべき点は見つかりませんでした。"
    ));
}

#[test]
fn a_paragraph_that_counts_the_comments_below_is_their_preview() {
    let text = "The change moves the probe out of the lock. I have two suggestions: one \
medium-priority concern about a stale write, and a low-priority naming nit.\n\n\
**svc/registry.go (line 74):**\n\n**Medium:** the write after the probe does not re-check the map.\n\n\
**svc/registry.go (line 51):**\n\n**Low:** `probeCtx` could be named `dialCtx`.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P2, "svc/registry.go:74".into()),
            (P3, "svc/registry.go:51".into())
        ]
    );
    // With fewer comments below than it counts, the preview stays: it may be all that was said.
    let alone = "I have two concerns: the loop never ends on an empty queue, and the lock \
is not released on error.\n";
    assert!(!seen(&read_cr(alone)).is_empty());
}

#[test]
fn a_verdict_rates_findings_it_names_by_number() {
    let text = "A few things:\n\n\
1. `a.sh`, line 3 — no `pipefail`.\n\n\
2. `job.yaml`, line 9 — the job retries a migration that is not idempotent.\n\n\
3. `README.md`, line 4 — the old command is still documented.\n\n\
**Verdict:** #2 must be fixed first; #1 and #3 are nice to have.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P3, "a.sh:3".into()),
            (P1, "job.yaml:9".into()),
            (P3, "README.md:4".into())
        ]
    );
}

#[test]
fn an_ide_list_under_level_words_with_triangle_bullets() {
    let text = "Review completed. I found 2 issues in 2 files.\n\n\
Critical: 0 · High: 1 · Medium: 0 · Low: 1\n\n\
Code Issues\n\n\
High\n  ▸ Retry loop never ends on a revoked token  —  app/api.ts [Ln 58]\n    \
The refresh is retried on every 401.\n\n\
Low\n  ▸ Unused import  —  app/retry.ts [Ln 2]\n    `sleep` is not used.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P1, "app/api.ts:58".into()), (P3, "app/retry.ts:2".into())]
    );
}

#[test]
fn a_confidence_scores_reason_that_names_a_file_is_not_another_finding() {
    let text = "<h3>Confidence Score: 2/5</h3>\n\n\
- Not safe to merge: events are lost when the worker fails.\n\
- The dedupe write in `hooks/events.py` needs to move into the worker.\n\n\
---\n\n**hooks/events.py**, line 45\n\n\
<img alt=\"P1\" src=\"https://example.com/p1.svg\"> **Event marked processed before it is handled**\n\n\
The dedupe write runs in the request handler; move it into the worker.\n";
    assert_eq!(seen(&read_cr(text)), [(P1, "hooks/events.py:45".into())]);
}

#[test]
fn a_cli_transcript_under_the_command_that_started_it_is_read_as_the_transcript() {
    let text =
        "$ codex exec --sandbox read-only \"Review the change. Give each problem a priority \
from 0 (blocking) to 3 (nit).\"\n\n\
OpenAI Codex v0.120.0 (research preview)\n--------\nworkdir: /x\nmodel: some-model\n--------\n\n\
user\nReview the change. Give each problem a priority from 0 (blocking) to 3 (nit).\n\n\
codex\n{\"findings\":[{\"title\":\"[P3] Typo in a log line\",\"body\":\"'Recieved' in the log.\",\
\"priority\":3,\"code_location\":{\"absolute_file_path\":\"/x/app/log.py\",\
\"line_range\":{\"start\":12,\"end\":12}}}],\"overall_correctness\":\"patch is correct\"}\n\
tokens used\n9,120\n\n$ cat review.json | jq .\n{\n  \"findings\": [\n    {\n      \
\"title\": \"[P3] Typo in a log line\",\n      \"priority\": 3\n    }\n  ]\n}\n";
    assert_eq!(seen(&read_cr(text)), [(P3, "/x/app/log.py:12".into())]);
}

#[test]
fn a_blocking_summary_point_levels_the_one_comment_that_details_it() {
    let text = "Hi - I've reviewed your changes - here's some feedback:\n\n\
**Blocking issues**:\n\n\
- The search endpoint pastes the `order` parameter into its SQL text.\n\n\
<details>\n<summary>Prompt for AI Agents</summary>\n\n~~~markdown\n\
## Individual Comments\n\n### Comment 1\n\
<location path=\"api/search.py\" line_range=\"40-42\" />\n\
<issue_to_address>\n**issue (security):** `order` comes from the request and goes into the SQL \
text unchecked.\n</issue_to_address>\n~~~\n\n</details>\n\n***\n\n\
<details>\n<summary>SomeBot is free for open source - please share it</summary>\n\n\
- [X](https://example.com/share)\n- [LinkedIn](https://example.com/share2)\n\n</details>\n\n\
<sub>\nHelp me be more useful! React with 👍 or 👎 on each comment.\n</sub>\n";
    assert_eq!(seen(&read_cr(text)), [(P0, "api/search.py:40-42".into())]);
}

#[test]
fn a_veto_vote_objects_and_a_reply_that_closes_the_earlier_points_withdraws_them() {
    assert!(!approves(
        "Patch Set 1: Code-Review-2\n\nLooks good to me otherwise."
    ));
    let closed = "1. `src/a.py` line 12: the retry has no upper bound. The latest push resolves \
both earlier suggestions.\n\nLGTM.";
    assert!(approves(closed), "{:?}", seen(&read_cr(closed)));
}

#[test]
fn no_further_changes_needed_clears_the_line_an_approval_cites() {
    let text = "`src/a.rs` line 12 now checks the length before indexing. No further changes \
are needed. Approved.";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn a_reply_in_a_thread_on_a_file_places_the_comment_under_it() {
    let text = "**dana-r** replied in thread on `svc/cache.go` line 40\n\n\
The eviction runs under the read lock, so two readers can evict the same entry.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Unclassified, "svc/cache.go:40".into())]
    );
}
