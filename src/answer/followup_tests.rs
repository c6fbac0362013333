//! Follow-up reviews and local model runners (blind sets w46 and w47): what a re-review says is
//! fixed, still open or re-raised, a code host's review state, a partial approval, a runner's
//! chrome. One rule each, in answers written for these tests: what each rule reads, and what it
//! leaves alone.

use super::layout_tests::{approves, raw_levels, read_cr, seen};
use crate::answer::{normalise, Roots};
use crate::findings::Severity::*;

#[test]
fn a_review_state_line_is_the_verdict_not_a_findings_title() {
    let text = "**mara-k** requested changes\n\n\
Thanks for the update. Items 1 and 3 look good now.\n\n\
Item 2 is still not fixed, and it's the blocking one: `deploy/roll.sh` line 42 undoes one step \
instead of going back to the last good revision.\n";
    let r = read_cr(text);
    assert_eq!(seen(&r), [(P0, "deploy/roll.sh:42".into())]);
    // The state alone, with nothing read, still does not approve.
    assert!(!approves(
        "**mara-k** requested changes\n\nSee the thread above.\n"
    ));
}

#[test]
fn an_item_that_says_it_is_fixed_after_its_title_is_not_raised() {
    let text = "## Follow-up review\n\nI went back over the points from the first pass:\n\n\
1. **Formula injection in the CSV (critical)** — fixed: cells that start with `=` are now \
prefixed in `export/csv.py`.\n\
2. **Encoding** — fixed, the file is written as UTF-8.\n\
3. Content sniffing on the original name — fixed.\n\n\
Nothing new in the last two commits. Approve.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // "Fixed, but …" is not fixed.
    let open = "1. **Price rounding** — fixed, but `cart/totals.ts` line 58 still adds the fee \
as a float.\n";
    assert!(!approves(open));
    assert_eq!(seen(&read_cr(open)).len(), 1);
}

#[test]
fn a_level_label_that_says_resolved_and_a_closing_resolved_are_not_raised() {
    let text = "Los hallazgos anteriores están resueltos:\n\n\
- **Crítico (resuelto):** la consulta de `informes/q.py` ya usa parámetros.\n\
- **Medio (resuelto):** la caché se invalida al editar.\n\n\
No he encontrado problemas nuevos. **Aprobado.**\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    let text = "I re-checked the open threads against 2b7c4e1:\n\n\
1. **🔴 Critical — signature compared with `===`** (`src/verify.ts`): it now uses \
`timingSafeEqual`. Resolved.\n\
2. **🟡 Minor — no test for an expired timestamp**: the test covers both sides now. Resolved.\n";
    assert!(
        seen(&read_cr(text)).is_empty(),
        "{:?}",
        seen(&read_cr(text))
    );
}

#[test]
fn a_fixed_label_ends_where_a_not_fixed_label_starts() {
    for (fixed, open) in [("Fixed:", "Not fixed:"), ("Исправлено:", "Не исправлено:")]
    {
        let text = format!(
            "Second pass after 5b9d2e0.\n\n{fixed}\n- [P2] extra queries in `list_orders`.\n\
- [P3] a typo in the error message.\n\n{open}\n\n\
- [P1] Cancelling an order does not check the owner — orders/views.py:112-120\n\n\
No new problems found.\n"
        );
        assert_eq!(
            seen(&read_cr(&text)),
            [(P1, "orders/views.py:112-120".into())],
            "{fixed}"
        );
    }
    // Without a blank line under the labels, and in Russian: "Не исправлено" denies, it is
    // not the section of fixed items it names.
    let text = "Intro.\n\nFixed:\n- [P2] extra queries.\n\nНе исправлено:\n- [P1] Cancelling \
does not check the owner.\n";
    assert_eq!(seen(&read_cr(text)), [(P1, "-".into())]);
    // A line that opens with such a word is no label ("Resolved by Dara Okafor 5 hours ago"),
    // nor a count ("1 unresolved thread").
    let text = "1 unresolved thread\n\nlint-bot @lint-bot started a thread on an old version \
of the diff 6 hours ago\nResolved by Dara Okafor 5 hours ago\nsrc/parser/tokens.rs\n\
lint-bot @lint-bot · 6 hours ago\nwarning: `unwrap()` on user input will panic.\nApplied\n\n\
lint-bot @lint-bot started a thread on the diff 6 hours ago\nsrc/parser/tokens.rs\n\
lint-bot @lint-bot · 6 hours ago\nnit: the doc comment on line 12 still says it returns None.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P3, "src/parser/tokens.rs:12".into())]
    );
}

#[test]
fn an_approval_of_the_rest_does_not_approve_the_answer() {
    let text = "I compared the new commit with my earlier comments.\n\n\
- The empty-cart crash is fixed.\n\
- The loading state on the checkout button is still missing (`cart/Button.tsx`); a second \
click submits the order twice.\n\n\
The rest looks fine.\n";
    let r = read_cr(text);
    assert!(!r.critique.agreement, "{:?}", seen(&r));
    // Nor is it read as raising nothing: its points are read as unclassified blocks.
    assert!(!normalise::raises_nothing(text, &Roots::default()));
    assert!(!approves(
        "Praise for the tests. Apart from that, ready to go.\n"
    ));
    // Not at the sentence's start, "the rest" is what was read.
    assert!(approves("I read the rest of the diff as well: LGTM.\n"));
}

#[test]
fn a_lead_in_that_says_all_landed_clears_its_list() {
    let text = "Yes, all three landed:\n\n\
1. The goroutine leak in `watch()` — the ticker is stopped in the `defer`.\n\
2. The nil map write in `Registry.Add` — the map is made in `NewRegistry`.\n\n\
I read the rest of the diff again and found nothing else. Good to merge.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn a_worry_that_made_the_reviewer_wonder_and_then_cleared_is_not_raised() {
    let text = "The three items from before are done.\n\n\
One thing I looked at twice: the retry in `refunds/service.py` around line 73 made me wonder \
whether a timeout and a retry could refund a charge twice. It can't — the retry reuses the \
idempotency key. So no issue there.\n\nNothing else to flag. Approve.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn a_permalink_above_a_badge_title_is_that_comments_place() {
    let text = "### 💡 Codex Review\n\n\
<details> <summary>ℹ️ About Codex in GitHub</summary>\n\nReviews are triggered when you\n\n\
- Open a pull request for review\n- Comment \"@codex review\".\n\n</details>\n\n\
https://github.com/o/r/blob/a91f3c4/src/queue/retry.js#L45-L52\n\
**<sub><sub>![P1 Badge](https://img.shields.io/badge/P1-orange?style=flat)</sub></sub>  Retry skips the last attempt**\n\n\
`attempt` starts at 1, so a job with `maxAttempts: 3` runs twice.\n\n\
https://github.com/o/r/blob/a91f3c4/src/queue/retry.js#L70-L71\n\
**<sub><sub>![P2 Badge](https://img.shields.io/badge/P2-yellow?style=flat)</sub></sub>  Log prints ms as s**\n\n\
`delay` is in milliseconds.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P1, "src/queue/retry.js:45-52".into()),
            (P2, "src/queue/retry.js:70-71".into())
        ]
    );
}

#[test]
fn a_local_runners_chrome_and_echoed_scale_are_not_the_answer() {
    let text = "main: load the model\nllama_context: n_ctx = 16384\nsystem_info: n_threads = 8\n\
generate: n_ctx = 16384, n_batch = 2048\n\n\
You review a C patch. Rate each problem P0 (critical), P1 (high), P2 (medium) or P3 (nit).\n\n\
The critical path is untouched; the assert at `src/pool.c` line 88 always holds.\n\n\
I found no problems. LGTM. [end of text]\n\n\
llama_perf_context_print: total time = 12301.18 ms\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    let prepared = crate::answer::prepare::prepare(text);
    assert!(!prepared.contains("llama_context") && !prepared.contains("end of text"));
    let text = "$ git diff | ollama run qwen3 \"Review this diff, P0-P3.\"\nThinking...\n\
First worry: a data race in `lru.go`. The sweeper takes the lock. No race.\n...done thinking.\n\n\
No issues found — approve.\n\ntotal duration: 38.4s\nload duration: 52ms\neval count: 731 token(s)\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // One line that looks like a runner's is the review's own: it stays.
    let text = "main: `src/main.c` line 9 leaks the socket on every retry. [P1]\n";
    assert_eq!(raw_levels(text), [(P1, "src/main.c:9".into())]);
}

#[test]
fn a_rated_issue_the_sentence_says_is_fixed_is_no_rating() {
    let text = "The earlier high-severity issue (the lock file left after a failed run) is \
fixed: `migrate.sh` removes it in a trap.\n";
    assert!(crate::answer::prose::ratings(text).is_empty());
    // Still open, it rates.
    let open = "The earlier high-severity issue (the lock file left after a failed run) is \
not fixed: `migrate.sh` still leaves it.\n";
    assert!(!crate::answer::prose::ratings(open).is_empty());
    // A fix asked for is not a fix made.
    let asked = "Please hold off merging until one thing is fixed: the config is logged.\n";
    assert!(!crate::answer::prose::ratings(asked).is_empty());
}

#[test]
fn pr_agents_latest_suggestions_line_titles_its_table() {
    let text = "## PR Code Suggestions ✨\n\nLatest suggestions up to 3d8c1b7\n\n\
<table><thead><tr><td><strong>Category</strong></td><td><strong>Suggestion</strong></td>\
<td><strong>Impact</strong></td></tr><tbody>\n\
<tr><td>Possible issue</td>\n<td>\n\n<details><summary>Release the lock when the batch is \
empty</summary>\n\n___\n\n**The early return never releases the advisory lock.**\n\n\
[workers/claim.py [61-70]](https://github.com/o/r/blob/3d8c1b7/workers/claim.py#L61-L70)\n\n\
</details></td><td align=center>High\n\n</td></tr></tbody></table>\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P1, "workers/claim.py:61-70".into())]
    );
}

#[test]
fn a_low_label_the_comment_takes_back_is_rated_again() {
    let text = "nit: `auth/login.go:63` logs the whole request with the session cookie\n\n\
actually no, not a nit. P1 — that log goes to the shared index everyone can search\n";
    assert_eq!(seen(&read_cr(text)), [(P1, "auth/login.go:63".into())]);
    // A nit that stays a nit.
    let text = "nit: `auth/login.go:63` has a stray space\n";
    assert_eq!(seen(&read_cr(text)), [(P3, "auth/login.go:63".into())]);
}

#[test]
fn a_one_sentence_blocker_is_rated_by_do_not_merge() {
    let text = "This removes the role guard from `handlers/refunds.go:73`, so any signed-in \
user can issue refunds. Do not merge.\n";
    assert_eq!(raw_levels(text), [(P0, "handlers/refunds.go:73".into())]);
}

#[test]
fn questions_the_reviewer_answers_itself_raise_nothing() {
    // Each question heading is answered "Fine.", under the command that asked for the review.
    let text =
        "$ claude -p \"Review the diff. Give P0-P3 per finding; say Approve if nothing.\"\n\n\
I went through the change by asking the questions I'd ask in a review.\n\n\
**What happens if the flag is flipped mid-request?**\n\
The snapshot is taken once (`api/handler.go:31`) and passed down. Fine.\n\n\
**What happens if the client cancels?**\n\
The writer checks `ctx.Err()` between chunks (`api/writer.go:58`). Fine.\n\n\
No findings. **Approve.**\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // A lead-in that says the change already answered them, with or without a colon.
    let text = "I kept asking myself questions, and each time the PR already had an answer.\n\n\
- *What about replayed webhooks?* — The signature covers the timestamp (`shop/hooks.py`, line 33).\n\
- *Is `paid_at` nullable?* — Yes, and the list view renders it.\n\nApprove.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    let text =
        "Me surgieron dos preguntas; las dejo con la respuesta que encontré en el código:\n\n\
- **¿Se escapan los textos?** Sí: pasan por `escape()`, en la línea 62 de `src/pdf/plantilla.py`.\n\
- **¿Por qué va incrustada la fuente?** Para que las tildes salgan bien.\n\n\
No encontré ningún problema. **Aprobado.**\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn a_worry_cleared_in_its_own_sentence_is_not_raised() {
    let text = "I checked the one thing that could go badly wrong here — a retry charging the \
customer twice — and it can't: `src/billing/charge.ts` builds the key from the order id only \
(line 19).\n\nThe rest looks correct.\n\n**Verdict: approve.**\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    let paragraph = text.split("\n\n").next().unwrap();
    assert!(crate::answer::verdict::ruled_out(paragraph));
    // Cleared, then a new concern in the same sentence: raised.
    let raised = "I checked the one thing that could go badly wrong here, a double charge, and \
it can't, but the new code leaks the connection on every retry.";
    assert!(!crate::answer::verdict::ruled_out(raised));
}

#[test]
fn terse_approvals_approve() {
    for text in [
        "✅\n",
        ":shipit:\n\nthanks for splitting the commits\n",
        "Passt, kann so rein 👍\n\nVon meinem iPhone gesendet\n",
        "LGTMです！修正ありがとうございます\n",
        "blockers: none\nnits: none\n\n🚢\n",
    ] {
        assert!(approves(text), "{text:?}");
    }
    // An emoji inside a sentence, or beside a finding, is no verdict.
    assert!(!approves("The 🚀 rocket in the banner is misaligned.\n"));
    assert!(!approves(
        "👍\n\nBut `a.py:3` runs the input as code. P0.\n"
    ));
}
