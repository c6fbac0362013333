//! Words of the team's own language and conventions (blind sets w44 and w45): levels, places,
//! approvals, review prefixes and level scales in other languages. One rule each, in answers
//! written for these tests: what each rule reads, and what it leaves alone.

use super::layout_tests::{approves, raw_levels, read_cr, seen};
use crate::answer::prose::ratings;
use crate::findings::Severity::*;

#[test]
fn a_level_said_mid_paragraph_in_polish_is_read() {
    assert_eq!(ratings("Dla mnie to P1 i blokuje merge."), [P1]);
    assert_eq!(ratings("To jest P2, ale nie blokuje."), [P2]);
    let text = "Dzięki za zmianę. W `src/Inv.java`, linia 134, `reserve()` bierze read lock i \
potem write lock, więc dwa wątki się zawieszają. Dla mnie to P1 i blokuje merge.\n\n\
Drobiazg (P3): w linii 58 komentarz jest nieaktualny.\n";
    let got = seen(&read_cr(text));
    assert!(
        got.contains(&(P1, "src/Inv.java:134".to_string())),
        "{got:?}"
    );
}

#[test]
fn russian_neuter_and_short_levels_and_five_level_scales_are_levels() {
    for (word, level) in [
        ("Средне", P2),
        ("Низко", P3),
        ("Высокое", P1),
        ("Критическое", P0),
        ("P4", P3),
        ("P5", P3),
    ] {
        assert_eq!(
            crate::answer::vocab::severity_of(word).map(|s| s.0),
            Some(level),
            "{word}"
        );
    }
}

#[test]
fn polish_trifles_and_turkish_minor_rate() {
    let text = "## Drobiazgi (nity)\n\n1. **`mail/q.py`, linia 12** — nieużywany import.\n";
    assert_eq!(seen(&read_cr(text)), [(P3, "mail/q.py:12".to_string())]);
    let tr = "Genel olarak LGTM.\n\nMerge öncesi minör bir nokta: `rl/limiter.py` dosyasında \
66. satırda pencere `time.time()` ile sıfırlanıyor, ama kova `monotonic()` kullanıyor.\n";
    let r = read_cr(tr);
    assert!(!r.critique.agreement);
    assert_eq!(seen(&r), [(P2, "rl/limiter.py:66".to_string())]);
}

#[test]
fn five_level_scales_and_their_legend() {
    let text = "팀 Pn 룰 기준입니다.\n(P1: 꼭 반영 / P2: 적극 고려 / P3: 웬만하면 / P4: 선택 / P5: 사소한 의견)\n\n\
**[P2]** `src/Coupon.kt` 57행\n동시에 몰리면 한도를 넘겨 발급될 수 있습니다.\n\n\
**[P4]** `src/Coupon.kt` 23행\n`logger.info`가 맞아 보입니다.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P2, "src/Coupon.kt:57".to_string()),
            (P3, "src/Coupon.kt:23".to_string())
        ]
    );
}

#[test]
fn a_teams_review_prefixes_in_brackets() {
    let text = "1. **[must]** `src/stack.ts:58`\n   ここは直していただけますか。優先度の高いクーポンが捨てられます。\n\n\
2. **[imo]** `src/stack.ts:12`\n   名前を揃えると読みやすいです。\n\n\
3. **[ask]** `src/types.ts:30`\n   追加した背景を教えてください。問題だと思っているわけではなく、経緯を知りたいだけです。\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P1, "src/stack.ts:58".to_string()),
            (P3, "src/stack.ts:12".to_string())
        ]
    );
}

#[test]
fn approvals_in_the_first_person_and_all_is_well() {
    let it = "Ho provato il branch: ora il file vuoto restituisce un errore chiaro invece di \
andare in crash.\n\nTutto a posto, approvo. Ottimo lavoro\n";
    assert!(approves(it), "{:?}", seen(&read_cr(it)));
    assert!(crate::answer::verdict::approves("一切正常"));
    assert!(crate::answer::verdict::approves("它们看起来很棒！"));
    // A contrast after it in the same sentence withholds it.
    assert!(!crate::answer::verdict::approves(
        "看起来不错，但是重试没有上限。"
    ));
    assert!(!crate::answer::verdict::approves(
        "모두 정상, 하지만 재시도에 상한이 없습니다"
    ));
}

#[test]
fn a_checklist_of_categories_all_well_raises_nothing() {
    let text = "嗨 @dev - 我已经审查了你的更改，它们看起来很棒！\n\n<details>\n<summary>审查时我检查了这些方面</summary>\n\n\
- 🟢 一般问题：一切正常\n- 🟢 安全性：一切正常\n- 🟢 测试：一切正常\n\n</details>\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn a_rated_paragraph_with_a_line_of_the_file_named_before() {
    let text = "O cleanup no `useEffect` ficou correto.\n\n\
Um ponto menor: em `src/hooks/poll.ts`, linha 33, o `catch` engole qualquer erro.\n\n\
E um detalhe cosmético no mesmo arquivo: o `console.log` na linha 51 ficou para trás.\n\n\
Fora isso, aprovo.\n";
    // "Fora isso, aprovo" approves only the rest: no approval, and the paragraphs are read.
    assert!(!read_cr(text).critique.agreement);
    assert_eq!(
        raw_levels(text),
        [
            (P2, "src/hooks/poll.ts:33".to_string()),
            (P3, "src/hooks/poll.ts:51".to_string())
        ]
    );
}

#[test]
fn a_blocking_label_in_russian_with_a_line_of_the_chat_file() {
    let text = "Aider v0.81.3\nMain model: some-model with diff edit format\nAdded pay/refund.py to the chat.\n\n\
Блокирующая проблема: строка 74 — повтор после таймаута вызывает `issue_refund` без ключа идемпотентности.\n\n\
Остальное в порядке.\n";
    assert_eq!(seen(&read_cr(text)), [(P0, "pay/refund.py:74".to_string())]);
    // The chrome's full path completes a bare name the answer uses.
    let bare = "Aider v0.86.1\nAdded src/sched/cron.py to the chat.\n\n\
1. **Zomertijd wordt niet afgehandeld** (ernst: gemiddeld) — `cron.py` regel 40.\n";
    assert_eq!(
        seen(&read_cr(bare)),
        [(P2, "src/sched/cron.py:40".to_string())]
    );
}
