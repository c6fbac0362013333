//! Shapes the reader learned from a blind set of second opinions in plain prose (w37): chat
//! models, colleagues in chat, email and pull-request comments, agent CLIs that ignored the
//! format. One rule each, in answers written for these tests, with what each rule leaves alone.

use super::layout_tests::{placed, raw_levels};
use crate::answer::location::Roots;
use crate::answer::normalise::{raises_nothing, raw_blocks};
use crate::answer::prose::{block_ratings, block_severity, severity_in};
use crate::answer::verdict;
use crate::findings::Severity::*;

#[test]
fn holding_the_merge_is_a_blocker() {
    assert_eq!(
        block_severity(
            "Every key expires at once. This would bite us in prod, I'd hold the merge."
        ),
        Some(P0)
    );
    assert_eq!(
        block_severity("Please hold off merging until the secret fields are redacted."),
        Some(P0)
    );
    assert_eq!(block_severity("No need to hold the merge for this."), None);
}

#[test]
fn a_level_that_is_a_clause_of_its_own_rates_a_prose_point() {
    assert_eq!(block_severity("Minor, but customers notice."), Some(P2));
    assert_eq!(block_severity("It could use a real name. Nit."), Some(P3));
    assert_eq!(
        block_severity("also tiny nit, the counter is never reset"),
        Some(P3)
    );
    assert_eq!(
        block_severity("Nebenbei, eher kosmetisch: der Docstring ist alt."),
        Some(P3)
    );
    // Not in a lead or a heading (a section's name), not negated, not a tally in parentheses.
    assert_eq!(severity_in("Minor"), None);
    assert_eq!(block_severity("Not minor, this loses data."), None);
    assert!(block_ratings("🎯 3 (Moderate) | ⏱️ ~20 minutes").is_empty());
}

#[test]
fn a_level_given_in_a_sentence_with_more_after_it_or_weighed_first() {
    assert_eq!(
        block_severity("I'd call that a P1 and fix it before merging."),
        Some(P1)
    );
    assert_eq!(
        block_severity("I'd put that at P0, since anyone can post fake events."),
        Some(P0)
    );
    // A level weighed or imagined is not the one given.
    assert_eq!(
        block_severity(
            "I went back and forth on whether it's a P1, but nothing breaks today, so I'd call it P2."
        ),
        Some(P2)
    );
    assert_eq!(
        block_severity(
            "If this were on the request path I'd call it a blocker; here it's a minor issue."
        ),
        Some(P2)
    );
    // Two blocking levels for one point: its worst (either stops the gate).
    assert_eq!(
        block_severity("This must be fixed before merging. For me it's a blocker."),
        Some(P0)
    );
    // "a critical path and …" is not a rating: only levels that mean nothing else go on.
    assert_eq!(
        block_severity("This is critical and held for too long."),
        None
    );
}

#[test]
fn everyday_and_other_languages_words_for_a_level() {
    assert_eq!(
        block_severity("not a big deal but it retries 400s"),
        Some(P2)
    );
    assert_eq!(
        block_severity("ah, e uma coisa bloqueante: o desconto vem depois"),
        Some(P0)
    );
    assert_eq!(
        block_severity("그 외에는 사소한 부분인데, 변수명이 모호합니다"),
        Some(P3)
    );
    assert_eq!(
        block_severity("경미한 문제 하나: 413 대신 400을 돌려줍니다"),
        Some(P2)
    );
    assert_eq!(block_severity("另外一个小问题：测试里用了 sleep"), Some(P2));
    assert_eq!(
        block_severity("多导出了一个没用到的字段，顺手删掉就好，不强求"),
        Some(P3)
    );
}

#[test]
fn a_prose_point_takes_the_file_named_before_it() {
    // A greeting, the reviewer's own limits and a sign-off are no points; "Line 57" is in the
    // file the answer named first; "in the same file" too.
    let text = "Hi Dev,\n\nI only had time for `billing/pdf.py`, so that's all this covers.\n\n\
Line 57: the currency symbol is hard-coded when none is set. Minor, it only hits old invoices.\n\n\
Line 131: `t` could use a real name. Nit.\n\n\
The footer is printed twice in the same file, also minor.\n\nCheers,\nAna\n";
    assert_eq!(
        raw_levels(text),
        [
            (P2, "billing/pdf.py:57".into()),
            (P3, "billing/pdf.py:131".into()),
            (P2, "billing/pdf.py".into())
        ]
    );
}

#[test]
fn lead_ins_and_points_the_reviewer_settled_are_no_points() {
    let text = "Deux remarques quand même.\n\n\
Dans `src/repo/articles.ts`, ligne 58, le curseur ne départage pas deux dates égales.\n\n\
In the first commit `lib/retry.js` swallowed the error; the second rethrows it, so nothing to do there.\n\n\
Looking at `src/orders.cs`:\n\n\
Line 112 is where the exception escapes, so the reservation is never released.\n";
    assert_eq!(
        raw_levels(text),
        [
            (Unclassified, "src/repo/articles.ts:58".into()),
            (Unclassified, "src/orders.cs:112".into())
        ]
    );
}

#[test]
fn after_the_first_point_a_block_about_a_file_is_a_point() {
    // "nothing reads it anymore" has no word of concern the reader knows; beside a point, a
    // block that names a file is one more.
    let text =
        "The retry loop in `worker/poll.go` line 88 never gives up, so it spins forever.\n\n\
In `importer/cli.py` the `--batch-size` flag is still parsed, but nothing reads it anymore.\n";
    assert_eq!(
        raw_levels(text),
        [
            (Unclassified, "worker/poll.go:88".into()),
            (Unclassified, "importer/cli.py".into())
        ]
    );
    // Before the first point, a block about a file is the reviewer's description.
    let text = "The change moves validation into `api/orders.py`.\n\n\
The retry loop in `worker/poll.go` line 88 never gives up, so it spins forever.\n";
    assert_eq!(
        raw_levels(text),
        [(Unclassified, "worker/poll.go:88".into())]
    );
    // What the reviewer looked at only is no point, unless it raises one there.
    assert_eq!(
        raw_levels("I only looked at `db/pool.py`, and the connection is never closed on error.\n"),
        [(Unclassified, "db/pool.py".into())]
    );
    // What the reviewer did not do is no point, even in words of concern.
    let text =
        "The retry loop in `worker/poll.go` line 88 never gives up, so it spins forever.\n\n\
I didn't run the benchmarks, so I can't say whether the pool leaks under load.\n";
    assert_eq!(
        raw_levels(text),
        [(Unclassified, "worker/poll.go:88".into())]
    );
}

#[test]
fn approvals_in_chat_words() {
    assert!(verdict::approves("passt, kannst mergen 👍"));
    assert!(verdict::approves(
        "Tout est cohérent. Je validerais tel quel."
    ));
    // Levels named to say nothing reached them.
    let text = "I checked the purge job and the dry-run flag in `settings/retention.py`.\n\n\
No P0 or P1, and I couldn't even find a P3-worthy nit. Approve.\n";
    assert!(raises_nothing(text, &Roots::default()));
    // What a check was for is not what it found.
    assert!(!verdict::raises_concern(
        "I checked that path specifically, since a missed flush there would silently drop the tail."
    ));
    assert!(verdict::raises_concern(
        "A missed flush there would silently drop the tail."
    ));
}

#[test]
fn only_blocker_opens_a_point_and_a_blocker_after_a_number_rates_one() {
    use super::layout_tests::{read_cr, seen};
    let text = "Nice refactor overall.\n\nOnly blocker: the new `DELETE` route in \
`server/teams.js` (line 73) does not check who owns the team.\n\nThe rest I'm happy with.\n";
    assert_eq!(seen(&read_cr(text)), [(P0, "server/teams.js:73".into())]);
    let text = "1. `jobs/clean.py:47` — the delete lost its orphan filter.\n\
2. `jobs/clean.py:12` — the comment says 500, the constant is 5000.\n\n\
#1 is a blocker: the first run wipes the table. #2 is a nit.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P0, "jobs/clean.py:47".into()),
            (P3, "jobs/clean.py:12".into())
        ]
    );
}

#[test]
fn what_an_agents_search_printed_is_not_its_answer() {
    use super::layout_tests::read_cr;
    let text = "|  Read     services/catalog/service.ts\n\
|  Grep     TODO\\( (2 matches)\n\
|    services/catalog/legacy/import.ts:17: // TODO(P0): remove with the old importer\n\
|    services/catalog/search/sync.ts:41: // TODO(perf): batch these\n\n\
The diff only touches `listProducts`; it filters archived rows in SQL now, and the test covers it.\n\n\
No issues in the diff. Approve.\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", r.critique.findings);
    assert!(r.critique.agreement);
}

#[test]
fn a_rated_paragraph_at_a_line_before_a_labelled_point_is_kept() {
    use super::layout_tests::{read_cr, seen};
    // "Nit:" makes the answer a structured one; the paragraph before it that places and rates
    // a point of its own is not lost.
    let text = "Short version: fine to go in after a small fix.\n\n\
The parser in `cron/parse.go` now accepts `*/0`: line 142 only checks that the step parses, \
so the job silently never fires. I'd put this at P2, maybe.\n\n\
Nit: the error message a few lines below misspells \"step\".\n";
    let got = seen(&read_cr(text));
    assert!(got.contains(&(P2, "cron/parse.go:142".into())), "{got:?}");
    assert!(got.iter().any(|(s, _)| *s == P3), "{got:?}");
}

#[test]
fn a_count_and_level_in_a_clause_of_the_lead_in_rates_the_list() {
    use super::layout_tests::{read_cr, seen};
    let text = "This looks good overall — just two nits, neither needs to block:\n\n\
- `src/slug.ts`, line 9: the regex could use the `u` flag.\n\
- `src/slug.ts`, line 22: `trimDashes` is exported but only used inside.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P3, "src/slug.ts:9".into()), (P3, "src/slug.ts:22".into())]
    );
}

#[test]
fn more_words_for_a_level_said_in_passing() {
    use super::layout_tests::{read_cr, seen};
    assert_eq!(
        block_severity("it's a local tool, so call it P3-ish, but I'd still mask it."),
        Some(P3)
    );
    assert_eq!(
        block_severity("One thing you should fix: the reader is never closed."),
        Some(P2)
    );
    // Chinese labels for a secondary and an optional point.
    let text = "有两点：\n\n1. 次要问题：`web/upload.go` 第 140 行，`defer` 写在错误检查之前。\n\
2. 可选：`web/upload.go` 第 155 行的日志可以带上请求 ID。\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P2, "web/upload.go:140".into()),
            (P3, "web/upload.go:155".into())
        ]
    );
}

#[test]
fn a_worry_explained_away_and_an_idea_not_asked_for_are_no_findings() {
    // The "but … does" explains why the worry does not hold; the paragraph ends clearing it.
    assert!(verdict::ruled_out(
        "My first worry reading the job was a race between two workers. But the claim does a \
`SELECT … FOR UPDATE SKIP LOCKED`, so the second worker gets the next shard. That's fine."
    ));
    assert!(!verdict::ruled_out(
        "My first worry reading the job was a race between two workers. But it does race: both \
write the same shard."
    ));
    let text = "Approve.\n\nThe flag is threaded through `plan()` and `apply()` correctly.\n\n\
The docs page is missing the flag, which will confuse people; that is tracked in #412. Not asking \
for anything here.\n";
    assert!(raises_nothing(text, &Roots::default()));
    // A question the reviewer answers itself ("It does, and … so that case is covered").
    let covered = "Observations:\n\n- `a/Sync.kt` line 58: the `catch` swallows cancellation.\n\
- I wondered whether `setExpedited` needs a foreground notification on Android 11. It does, and \
`getForegroundInfo()` is implemented, so that case is covered.\n";
    assert_eq!(
        super::layout_tests::seen(&super::layout_tests::read_cr(covered)),
        [(Unclassified, "a/Sync.kt:58".into())]
    );
}

#[test]
fn a_resolved_thread_is_withdrawn() {
    use super::layout_tests::read_cr;
    let text = "**Dana Reyes** started a thread on the diff · 1 day ago\n\
- nit: `web/Table.vue` line 12 — the key should be the row id.\n\
  ↳ **Dana Reyes** resolved this thread · 23 hours ago\n\n\
**Dana Reyes** approved this merge request · 23 hours ago\n\nThanks! LGTM now.\n";
    let r = read_cr(text);
    assert!(r.critique.findings.is_empty(), "{:?}", r.critique.findings);
    assert!(r.critique.agreement);
}

#[test]
fn a_lead_in_that_states_a_level_gives_it_to_the_point_after_it() {
    use super::layout_tests::{read_cr, seen};
    // "One place I think must be fixed before merging:" then the point; then a labelled
    // optional one, which makes the answer structured: the first is not lost.
    let text = "看完了，整体没问题。\n\n有一个地方我觉得合并前必须修复：\n\n\
`sync/worker.go` 第 133 行，`ctx` 取消之后循环没有退出。\n\n\
另外一个小建议（可选）：同一个文件第 40 行的日志级别太高。\n";
    let got = seen(&read_cr(text));
    assert!(got.contains(&(P1, "sync/worker.go:133".into())), "{got:?}");
    assert_eq!(
        raw_levels(
            "有一个地方我觉得合并前必须修复：\n\n`sync/worker.go` 第 133 行，循环没有退出。\n"
        ),
        [(P1, "sync/worker.go:133".into())]
    );
}

#[test]
fn a_code_hosts_thread_byline_is_no_part_of_the_comment() {
    use super::layout_tests::read_cr;
    let text = "**Dana Reyes** started a thread on the diff · 1 day ago\n\
`web/Table.vue` line 12\n\
> the key should be the row id, not the index, or rows swap state on sort.\n";
    let r = read_cr(text);
    let titles: Vec<&str> = r
        .critique
        .findings
        .iter()
        .map(|f| f.title.as_str())
        .collect();
    assert!(!titles.iter().any(|t| t.contains("Dana")), "{titles:?}");
}

#[test]
fn sources_a_promise_and_a_fix_for_the_point_before_are_no_points() {
    let cited = "One low-priority issue in `net/retry.py` at line 66: an unparsable header falls \
back silently; log a warning.\n\nSources\n[1] RFC 9110, section 10.2.3 — Retry-After\n\
[2] `net/retry.py` on the main branch, line 60\n";
    assert_eq!(raw_levels(cited), [(P3, "net/retry.py:66".into())]);
    let promise = "Tem um problema bloqueante em `cron.py`, linha 112: usa a hora local.\n\n\
Fora isso, os testes novos ficaram ótimos. Me avisa quando atualizar que eu aprovo.\n";
    assert_eq!(raw_levels(promise), [(P0, "cron.py:112".into())]);
    let fix = "In `sync/worker.go` at line 212 `attempt` is reset on every partial batch, so \
the loop never backs off. This is critical.\n\nSuggested change: reset `attempt` only after a \
full batch.\n";
    let r = raw_blocks(fix, &Roots::default());
    assert_eq!(placed(&r.findings), [(P0, "sync/worker.go:212".into())]);
    assert!(r.findings[0].body.contains("only after a full batch"));
    // A source list under a point is a list of sources only when every line cites one; a fix
    // that names another file is a point of its own.
    let listed = "Sources\n- the retry loop in `a.go` at line 3 spins forever\n";
    assert_eq!(raw_levels(listed).len(), 1);
    let elsewhere = "In `a.go` at line 3 the loop spins forever. This is critical.\n\n\
Suggested change: also cap retries in `b.go`.\n";
    assert_eq!(raw_levels(elsewhere).len(), 2);
}

#[test]
fn inflected_german_levels_and_a_french_minor_detail_rate_their_points() {
    let german = "Kritisch: In `src/a.kt`, Zeile 143, wirft `x!!` eine NullPointerException.\n\n\
Niedrige Priorität: Die Abfrage in `src/b.kt` um Zeile 52 lädt alles eager.\n";
    let r = crate::answer::read(german, None, crate::answer::Protocol::Cr, &Roots::default());
    assert_eq!(
        placed(&r.critique.findings),
        [(P0, "src/a.kt:143".into()), (P3, "src/b.kt:52".into())]
    );
    let french = "Un point bloquant : dans `c/l.py`, ligne 27, le chemin sort du répertoire.\n\n\
Un détail mineur : le message de la ligne 40 du même fichier est en anglais.\n";
    assert_eq!(
        raw_levels(french),
        [(P0, "c/l.py:27".into()), (P2, "c/l.py:40".into())]
    );
}

#[test]
fn a_priority_field_before_a_doubled_dash_rates_the_item() {
    let text = "看了一下 `helm/values-prod.yaml` 的改动。两点：\n\
1. 优先级：中 —— 第 18 行 `memory` 改成了 512Mi，高峰期可能被 OOMKill。\n\
2. 优先级：低 —— 第 42 行注释里还是旧的域名。\n";
    let r = crate::answer::read(text, None, crate::answer::Protocol::Cr, &Roots::default());
    assert_eq!(
        placed(&r.critique.findings),
        [
            (P2, "helm/values-prod.yaml:18".into()),
            (P3, "helm/values-prod.yaml:42".into())
        ]
    );
    // The same in English.
    let english = "1. Priority: medium —— line 18 of `values.yaml` lowers the limit.\n";
    let r = crate::answer::read(
        english,
        None,
        crate::answer::Protocol::Cr,
        &Roots::default(),
    );
    assert_eq!(
        placed(&r.critique.findings),
        [(P2, "values.yaml:18".into())]
    );
}

#[test]
fn here_are_my_observations_opens_the_points() {
    let text = "Here are my observations on the `.gitlab-ci.yml` change. I didn't assign \
severities.\n\n- **`deploy:prod` job (line 88):** any tag push now deploys to production without \
anyone pressing the button.\n";
    assert_eq!(
        raw_levels(text),
        [(Unclassified, ".gitlab-ci.yml:88".into())]
    );
}

#[test]
fn a_problem_that_must_be_fixed_said_in_chinese_is_p1() {
    let text = "整体思路没问题。\n\n有一个必须修复的问题：`pkg/billing/charge.go` 第 77 行，调用方的 `ctx` \
被换成了 `context.Background()`，超时和取消都失效了。\n";
    assert_eq!(raw_levels(text), [(P1, "pkg/billing/charge.go:77".into())]);
}
