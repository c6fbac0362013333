//! A reviewer's answer in a later round (blind set w53): what still stands after the author
//! replied. Findings held, withdrawn, verified fixed or moved to another level, in the forms
//! the CLIs, bots and people use. One rule each, in answers written for these tests.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity::*;

#[test]
fn an_id_labelled_status_that_says_fixed_or_withdrawn_closes_the_finding() {
    for text in [
        "Round 3.\n\n- **F1 (blocking):** fixed in a7d3e21. I checked that `down()` restores the column.\n\
- **F2:** withdrawn, you're right that the index already exists.\n\nAll resolved, approving.\n",
        "Segunda ronda.\n\n- **H1 (crítico): la consulta no filtraba por `tenant_id`.** Corregido. \
El test nuevo cruza dos inquilinos.\n- **H2 (medio): la caché no se invalidaba.** Retirado: el \
evento ya borra la clave.\n\n**Aprobado.**\n",
        "Segunda rodada:\n\n- **A1 (alta)** — arredondamento feito com `Float`: corrigido, agora usa \
`BigDecimal`.\n- **A2 (média)** — você está certo. Retiro o apontamento.\n\nAprovado.\n",
        "第二轮复审：\n\n**F1（严重）并发下令牌桶可能超发** — 已修复。新增的并发测试也覆盖到了。\n\n\
**F3 日志级别** — 撤回，`Debug` 级别在这里是合适的。\n\n结论：没有问题，可以合并。\n",
        "Terzo giro.\n\n- **F2:** ritiro l'osservazione, hai ragione.\n\nTutto risolto, approvo.\n",
    ] {
        assert!(approves(text), "{text}: {:?}", seen(&read_cr(text)));
    }
    // "Fixed, but …" is still open.
    let text = "Round 3.\n\n- **F1 (blocking):** fixed, but the down migration still drops the \
column's data.\n- **F2:** withdrawn, you're right.\n";
    assert_eq!(seen(&read_cr(text)), [(P0, "-".into())], "{text}");
}

#[test]
fn an_item_that_only_says_fixed_or_a_json_status_of_withdrawn_is_no_finding() {
    let text =
        "1. Про `config/loader.go`, строка 48 — остаётся в силе, понижаю до minor: опечатка \
в TIMEOUT молча даёт 0.\n2. Исправлено, проверил тестом.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P2, "config/loader.go:48".into())],
        "{text}"
    );
    let json = "```json\n{\"verdict\": \"approve\", \"findings\": [\
{\"id\": \"F1\", \"severity\": \"P0\", \"status\": \"fixed\", \"note\": \"Nonce per message now.\"},\
{\"id\": \"F2\", \"severity\": \"P1\", \"status\": \"withdrawn\", \"note\": \"Rotation is handled by the alias.\"}\
]}\n```\n\nAll closed; approve.\n";
    assert!(approves(json), "{:?}", seen(&read_cr(json)));
}

#[test]
fn the_latest_of_several_status_columns_decides_and_a_ticked_resolved_item_stays_closed() {
    let table = "| # | Finding | Round 2 status | Round 3 |\n|---|---|---|---|\n\
| 1 | 🔴 Critical — signature compared with `==` | Fix pushed | ✅ Verified fixed |\n\
| 2 | 🟡 Medium — raw payload logged | Disputed | ✅ Withdrawn: it is redacted first |\n\n\
Nothing outstanding. Approving.\n";
    assert!(approves(table), "{:?}", seen(&read_cr(table)));
    // (Lines joined, not continued: a continued string would lose the codex TUI's indents.)
    let ticked = [
        "• Full review comments:",
        "",
        "  - [x] [P1] Counter renamed without keeping the old series — telemetry/metrics.go:33-41",
        "    Fixed in 8b3e0d2: the old name is emitted for one more release. Resolved.",
        "",
        "  - [ ] [P2] Dashboard still queries the old name — deploy/ingest.json:212-218",
        "    The panel goes blank once the alias is dropped.",
    ]
    .join("\n");
    let ticked = ticked.as_str();
    let levels: Vec<_> = seen(&read_cr(ticked)).into_iter().map(|(s, _)| s).collect();
    assert_eq!(levels, [P2], "{ticked}");
}

#[test]
fn a_level_moved_in_the_reviewer_s_own_words_counts_in_any_language() {
    for (text, level) in [
        ("- **F1** — 심각도 하향: 높음 → 보통. `src/DatePicker.tsx` 57행의 파싱 문제는 그대로 남아 \
있습니다.\n", P2),
        ("1. Про `config/loader.go`, строка 48 — остаётся в силе, но согласен, что это не блокер, \
понижаю до minor.\n", P2),
        ("**F2 `pkg/config.go` 第 12 行：默认速率写死为 100** — 保留，但这不是阻塞问题，降为低优先级。\n", P3),
        ("**F1 `lib/ttl.rb` 42 行目：単位が混在している** — 実害はないので、重大度は低に引き下げます。\n", P3),
        ("- **F2** (`src/cupon.py`, línea 12) — sigue abierto, pero lo bajo a baja: el redondeo no \
afecta a los totales.\n", P3),
        ("Thanks. The race can't happen today, so I'm lowering the priority of this comment to \
medium: `RegisterPlugin` in `plugin/registry.go` (line 58) is exported. This is a blocker for \
later callers.\n", P2),
    ] {
        let r = read_cr(text);
        let found = if r.structured {
            seen(&r)
        } else {
            super::layout_tests::raw_levels(text)
        };
        let levels: Vec<_> = found.into_iter().map(|(s, _)| s).collect();
        assert_eq!(levels, [level], "{text}");
    }
}

#[test]
fn what_only_looks_closed_stays_open() {
    // A notes column that ticks something, an author who conceded, a status "not withdrawn".
    let table = "| # | Finding | Severity | Status | Notes |\n|---|---|---|---|---|\n\
| 1 | SQL built from the search box | P0 | Open | ✅ repro confirmed |\n\
| 2 | Token kept in the log | P1 | Author conceded, fix pending | |\n\
| 3 | Retry without a cap | P1 | Not withdrawn — still stands | |\n";
    let levels: Vec<_> = seen(&read_cr(table)).into_iter().map(|(s, _)| s).collect();
    assert_eq!(levels, [P0, P1, P1], "{table}");
}
