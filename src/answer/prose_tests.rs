//! Shapes the reader learned from blind sets of answers in plain prose and conversation (w31,
//! w33) and from a global team's reviews (w34), one rule each, in answers written for these
//! tests: what each rule reads, and what it leaves alone. An answer without structure is read
//! as the review loop reads it when no repair is at hand: nothing, when it raises nothing;
//! otherwise its paragraphs.

use super::layout_tests::{raw_levels, read_cr, seen};
use crate::answer::location::Roots;
use crate::answer::normalise::raises_nothing;
use crate::findings::Severity;

fn nothing(text: &str) -> bool {
    raises_nothing(text, &Roots::default())
}

#[test]
fn a_worry_raised_inside_a_paragraph_and_cleared_there_is_no_finding() {
    let cleared = "The new `tenantCache()` in `src/cache/tenant.ts` keeps one map per tenant. \
My first thought was that two requests could race and leak one tenant's entry to another. But \
every key is prefixed with the tenant id. Not worth guarding against here.\n\nNothing to change. \
LGTM.\n";
    let r = read_cr(cleared);
    assert!(r.critique.agreement, "{:?}", seen(&r));
    assert!(r.critique.findings.is_empty());
    // Confirmed instead of cleared, it is raised.
    let confirmed = cleared.replace(
        "Not worth guarding against here.",
        "The prefix is only added on insert, so a lookup will leak the entry.",
    );
    assert!(!read_cr(&confirmed).critique.agreement);
    // Cleared, then a new problem after the clearing: raised.
    let then = cleared.replace(
        "Not worth guarding against here.",
        "Not worth guarding against here. The eviction timer will leak memory, though.",
    );
    assert!(!read_cr(&then).critique.agreement);
}

#[test]
fn an_approving_answer_is_read_paragraph_by_paragraph() {
    // A worry with a line, withdrawn in the next paragraph; an idea not asked for; a verdict.
    let text = "I went through the export change.\n\n\
At first glance `reports/sql.ts` line 31 pastes the sort column into the query, which would be \
an injection hole.\n\n\
Reading on, the column is looked up in a fixed map two lines earlier and anything else is \
refused, so the concern doesn't hold — withdrawn.\n\n\
One idea for later, and I'm explicitly not asking for it in this PR: the retry loop could \
leak connections when the API is down.\n\nNothing to change. LGTM.\n";
    assert!(nothing(text));
    // Not withdrawn, the worry stands.
    let kept = text.replace(
        "so the concern doesn't hold — withdrawn.",
        "but the map is built from the request too.",
    );
    assert!(!nothing(&kept));
    // Asked for, the idea is a finding.
    let asked = text.replace(
        "One idea for later, and I'm explicitly not asking for it in this PR:",
        "Please change this before merging:",
    );
    assert!(!nothing(&asked));
    // Without an approval in so many words, paragraphs are not read away.
    assert!(!nothing(
        &text.replace("Nothing to change. LGTM.", "That's all.")
    ));
    // A level stated anywhere is never read away, withdrawn or not.
    let rated = text.replace("an injection hole", "a blocker");
    assert!(!nothing(&rated));
    // A paragraph in a language our words of concern do not cover, pointing at a file or a
    // line, is not read away either (Portuguese: "the loop copies the whole list every time").
    for other in [
        "Em `reports/csv.ts` o laço copia a lista inteira a cada vez.",
        "Na linha 12, o laço copia a lista inteira a cada vez.",
    ] {
        assert!(!nothing(
            &text.replace("I went through the export change.", other)
        ));
    }
}

#[test]
fn a_thing_done_once_is_no_condition_on_the_approval() {
    use crate::answer::verdict::conditional;
    assert!(!conditional(
        "Looks fine to me: the flag is read once at startup. Ship it."
    ));
    assert!(conditional(
        "Looks fine once the flag is read from the config file."
    ));
    assert!(nothing(
        "Looks fine to me: the flag is read once at startup and the default is unchanged. \
Nothing to change, ship it.\n"
    ));
}

#[test]
fn a_paragraph_that_announces_a_count_and_a_level_rates_the_points_after_it() {
    let text = "Two minor points.\n\n\
In `billing/pdf.py` the loop on line 40 builds the same font object for every page.\n\n\
In `billing/mail.py` on line 12 the subject line is not translated.\n";
    assert_eq!(
        raw_levels(text),
        [
            (Severity::P2, "billing/pdf.py:40".into()),
            (Severity::P2, "billing/mail.py:12".into())
        ]
    );
    // A point with a level of its own keeps it.
    let text = text.replace("the subject line", "a nit: the subject line");
    assert_eq!(raw_levels(&text)[1].0, Severity::P3);
    // Without a count it is a point of its own, not an announcement.
    let text = "Minor point.\n\nIn `billing/pdf.py` line 40 the font is built per page.\n";
    assert_eq!(raw_levels(text).len(), 2);
}

#[test]
fn block_the_merge_and_only_mergeable_once_fixed_rate_a_blocker() {
    use crate::answer::prose::ratings;
    assert_eq!(
        ratings("This one is a real bug and should block the merge."),
        [Severity::P0]
    );
    assert!(ratings("None of this should block the merge.").is_empty());
    assert_eq!(ratings("这个问题必须修复后才能合并。"), [Severity::P1]);
    assert_eq!(
        ratings("ここは直してからマージしてください。"),
        [Severity::P1]
    );
}

#[test]
fn prose_about_files_in_a_language_without_our_words_is_not_known_to_be_nothing() {
    // Turkish: "in src/odeme/iade.ts the refund amount is compared with the payment without the
    // earlier refunds taken off; partial refunds in a row can exceed what was paid".
    assert!(!nothing(
        "`src/odeme/iade.ts` dosyasında iade tutarı, aynı siparişe daha önce yapılmış iadeler \
düşülmeden ödeme tutarıyla karşılaştırılıyor; art arda kısmi iadelerde toplam, ödenen tutarı \
aşabilir.\n"
    ));
    // Said to hold nothing, in words we know ("nothing to point out"), it is nothing.
    assert!(nothing(
        "En `src/odeme/iade.ts` no tengo nada que señalar: el cambio es pequeño, está bien \
probado y los nombres son claros.\n"
    ));
    // In English, or in code, paths and a tool's JSON events, it is read as before.
    assert!(nothing(
        "I read `src/odeme/iade.ts`; the rename is consistent and the tests cover it.\n"
    ));
    assert!(nothing(
        "{\"type\": \"status\", \"phase\": \"analyzing\", \"message\": \"Looking at \
src/odeme/iade.ts\", \"reviewType\": \"uncommitted\", \"base\": \"develop\", \"head\": \
\"HEAD\", \"fileCount\": 1}\n{\"type\": \"complete\", \"status\": \"review_completed\", \
\"outcome\": \"done\", \"findings\": 0}\n"
    ));
}

#[test]
fn findings_tables_headed_in_more_languages_and_rows_marked_passed() {
    // Polish, Dutch, Turkish and Vietnamese headers; the last row's level is a pass mark.
    for header in [
        "| Waga | Plik | Linia | Opis |",
        "| Ernst | Bestand | Regel | Beschrijving |",
        "| Önem | Dosya | Satır | Açıklama |",
        "| Mức độ | Tệp | Dòng | Mô tả |",
    ] {
        let text = format!(
            "{header}\n|---|---|---|---|\n| P1 | `api/refund.ts` | 63 | Refunds can exceed the \
payment. |\n| ✅ | `api/refund.test.ts` | — | Tests added. |\n"
        );
        assert_eq!(
            seen(&read_cr(&text)),
            [(Severity::P1, "api/refund.ts:63".into())],
            "{header}"
        );
    }
}

#[test]
fn worries_cleared_in_other_words_are_no_findings() {
    // Each: a worry about `src/jobs/queue.ts`, then why it does not hold.
    for (worry, clearing) in [
        (
            "I wondered whether two workers could race on the same job and run it twice.",
            "But the claim is a single conditional update, so a job is never duplicated.",
        ),
        (
            "One thing gave me pause at first: a double close would throw on the second call.",
            "The second call returns the stored promise. No concern there.",
        ),
        (
            "The obvious question is whether the map can grow without a cap and leak memory.",
            "Old entries expire on read and a sweep clears the rest, so it won't grow unbounded.",
        ),
        (
            "The part I wanted to be sure of was the shift, which could overflow past 63.",
            "The attempt is clamped to 16 first. Also fine.",
        ),
    ] {
        let text = format!(
            "Took a look at the queue change.\n\nIn `src/jobs/queue.ts`: {worry} {clearing}\n\n\
Nothing to change. LGTM.\n"
        );
        let r = read_cr(&text);
        assert!(r.critique.agreement, "{worry} {:?}", seen(&r));
    }
}

#[test]
fn an_idea_said_not_to_be_for_this_change_in_german_is_no_finding() {
    let text = "Ich habe den Diff gelesen; die Tests decken beide Fälle ab.\n\n\
Optional und ausdrücklich nicht für diesen PR: die Präfixe in `storage/keys.py` Zeile 12 \
könnten irgendwann ein Enum werden, sonst drohen Tippfehler.\n\nLGTM.\n";
    assert!(nothing(text));
    assert!(!nothing(&text.replace(
        "Optional und ausdrücklich nicht für diesen PR:",
        "Bitte noch ändern:"
    )));
}

#[test]
fn minor_points_and_low_priorities_in_other_languages_rate_with_their_noun() {
    use crate::answer::prose::ratings;
    for (text, level) in [
        ("J'ai deux remarques mineures sur l'export.", Severity::P2),
        (
            "Es un problema menor, pero conviene cambiarlo.",
            Severity::P2,
        ),
        ("È un problema minore nel parser.", Severity::P2),
        ("São dois pontos menores no formulário.", Severity::P2),
        (
            "Das sollte behoben werden, bevor es jemand kopiert.",
            Severity::P2,
        ),
        ("Lo dejo como baja prioridad.", Severity::P3),
        ("Per me è a bassa priorità.", Severity::P3),
        ("Et pour pinailler, le nom est trompeur.", Severity::P3),
    ] {
        assert_eq!(ratings(text), [level], "{text}");
    }
    // The adjective alone, without its noun, is another word ("less than zero").
    assert!(ratings("El índice es menor que cero y el código entra en pánico.").is_empty());
    // A German "Kleinigkeit" opens a point of its own after a must-fix one.
    let text = "**Muss vor dem Merge behoben werden:** In `api/cors.ts`, Zeile 19, wird der \
Origin ungeprüft zurückgegeben.\n\nKleinigkeit (optional): Zeile 7 importiert `lodash` ganz.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P1, "api/cors.ts:19".into()),
            (Severity::P3, "api/cors.ts:7".into())
        ]
    );
}

#[test]
fn beside_rated_points_an_opening_summary_and_a_short_sign_off_are_no_points() {
    // Spanish: "I looked at the diff; the batching is well done." / a minor detail in a file at a
    // line / "That's all."
    let text = "Revisé el diff. En general el envío por lotes está bien hecho y los tests nuevos \
cubren el caso vacío.\n\n\
Hay un detalle menor en `cmd/export/csv.go`, cerca de la línea 66: falta llamar a `Flush()` antes \
de cerrar el archivo.\n\nNada más.\n";
    assert_eq!(
        raw_levels(text),
        [(Severity::P2, "cmd/export/csv.go:66".into())]
    );
    // Where no point gives a level, every paragraph stays (we cannot tell a summary from a point
    // in words we do not read).
    let unrated = text.replace("Hay un detalle menor en", "En");
    assert_eq!(raw_levels(&unrated).len(), 3);
}

#[test]
fn a_level_called_after_its_thing_and_a_chinese_ok_to_merge() {
    use crate::answer::prose::ratings;
    assert_eq!(
        ratings("One thing I'd call medium: the timer is never cleared."),
        [Severity::P2]
    );
    assert_eq!(ratings("I would call it low."), [Severity::P3]);
    // "Nothing that needs changing, it can be merged" approves; "it cannot be merged" does not.
    for verdict in ["没有需要改的地方。", "测试也过了，可以合。"] {
        let ok = format!("看完了 `scheduler/cron.py` 的改动。\n\n{verdict}\n");
        assert!(read_cr(&ok).critique.agreement, "{verdict}");
        assert!(nothing(&ok), "{verdict}");
    }
    let not_ok = "看完了，`scheduler/cron.py` 还有问题。\n\n现在不可以合。\n";
    assert!(!read_cr(not_ok).critique.agreement);
}

#[test]
fn no_changes_needed_in_german_approves() {
    use crate::answer::verdict::approves;
    assert!(approves("Keine Änderungen nötig."));
    assert!(approves("Keine Probleme gefunden, freigegeben."));
    assert!(!approves("So noch nicht freigegeben."));
    // An email that checked a worry and needs nothing changed.
    let text = "Ich habe mir den Lager-Sync in `services/inventory/sync.go` angeschaut; der \
Batch-Insert läuft in einer Transaktion.\n\nKeine Änderungen nötig.\n";
    assert!(read_cr(text).critique.agreement);
}

#[test]
fn a_file_table_with_list_cells_in_a_reviewers_guide_is_said_quietly() {
    // The cells' `<ul><li>` items name failures the tests cover; the table is the guide's.
    let text = "## Reviewer's Guide\n\nUses the shared retry helper for uploads.\n\n\
### File-Level Changes\n\n| Change | Details | Files |\n| --- | --- | --- |\n\
| Test the give-up path | <ul><li>Fake storage that always fails</li><li>Assert the error after \
the last attempt</li></ul> | `labels/upload_test.go` |\n\n---\n\n\
Hey @sam - I've reviewed your changes and they look great!\n";
    let r = read_cr(text);
    assert!(r.critique.agreement, "{:?}", seen(&r));
}

#[test]
fn a_hypothetical_and_the_level_it_would_have_had_are_no_finding() {
    use crate::answer::prose::ratings;
    assert!(
        ratings("This would have been a P1 if `Reset` assigned `nil`, but it doesn't.").is_empty()
    );
    assert_eq!(
        ratings("This is a P1: `Reset` assigns `nil`."),
        [Severity::P1]
    );
    let text = "Let me think about the one place this could go wrong.\n\n\
`Printer.cache` is written on every `Render` call. If anything ever sets it back to `nil`, the \
next write panics. `NewPrinter` in `labels/printer.go` makes the map and `Reset()` clears it \
rather than assigning `nil`. This would have been a P1 if `Reset` assigned `nil`, but it \
doesn't.\n\nLGTM.\n\n```json\n{\"verdict\": \"approve\", \"summary\": \"Correct.\", \
\"findings\": []}\n```\n";
    let r = read_cr(text);
    assert!(r.critique.agreement, "{:?}", seen(&r));
    // When it does, the worry stands.
    let does = text.replace("but it doesn't.", "and it does.");
    assert!(!read_cr(&does).critique.agreement);
}

#[test]
fn a_blocker_in_a_paragraph_after_the_last_listed_point_is_its_own() {
    // The paragraph after the last item is read into that item's body; its place and level are
    // its own, and the gate sees them.
    let text = "## P1 - Must Fix\n\nNone\n\n## P3 - Nice to Have\n\n\
- Log wording — `billing/worker.ts:102` — \"queued\" and \"enqueued\" are mixed — pick one.\n\n\
One more thing: in `billing/service.ts` line 88 the refund is marked done before the job is \
queued, so a retry refunds the order twice. This one is a P1.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P3, "billing/worker.ts:102".into()),
            (Severity::P1, "billing/service.ts:88".into())
        ]
    );
}

#[test]
fn worries_cleared_in_portuguese_and_vietnamese() {
    // "I had a doubt about … line 52 … but the test covers it. So it is right." / "At first I
    // thought … line 15 would break the snapshot, but you normalise it on line 18. Fine."
    for text in [
        "Fiquei com uma dúvida no `services/frete.ts`, linha 52: somar parcelas arredondadas \
podia perder um centavo. Mas o teste cobre o caso de três parcelas. Então está certo.\n\n\
Aprovado ✅\n",
        "Chỗ `utils/tien_te.ts` dòng 15 lúc đầu mình tưởng sẽ làm snapshot test fail. Nhưng bạn \
đã chuẩn hoá ở dòng 18 rồi. Ổn.\n\nLGTM 👍\n",
    ] {
        assert!(nothing(text), "{text}");
    }
}
