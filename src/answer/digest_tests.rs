//! Shapes the reader learned from four blind sets (w26, the bots and CLIs on mostly clean
//! changes; w27, the CLIs answering our own prompt; w28, commit-time second opinions; w29,
//! reviews in the team's own language), one rule each, in answers written for these tests: what
//! each rule reads, and what it leaves alone.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity;

#[test]
fn empty_sections_in_other_languages_hold_nothing() {
    for none in ["Ninguno.", "없음.", "无。", "Keine.", "特になし", "Aucun."] {
        let text = format!(
            "## P1 - Must Fix\n\n{none}\n\n## P2 - Should Fix\n\n{none}\n\n## P3 - Nice to Have\n\n\
{none}\n\nLGTM.\n"
        );
        assert!(approves(&text), "{none}");
    }
    // A finding that starts with such a word is still one.
    let text =
        "## P2 - Should Fix\n\n- Keine Prüfung der Länge in `api/upload.py:40` — limit it.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Severity::P2, "api/upload.py:40".into())]
    );
}

#[test]
fn an_approval_paragraph_after_the_last_section_is_the_verdict() {
    let text = "## P1 - Must Fix\n\nNone.\n\n## P2 - Should Fix\n\nNone.\n\n\
## P3 - Nice to Have\n\nNone.\n\nLGTM. The handler now runs inside `recover()`, so one malformed \
job no longer crashes the whole worker, which is what took the service down last week. The \
recovered panic goes to the dead-letter queue with the job id, and `TestPanicGoesToDLQ` checks \
both. I also checked that `recover()` sits inside the per-job goroutine, so it can't swallow a \
panic from the worker's own loop.\n\n```json\n{\"verdict\": \"approve\", \"summary\": \"Per-job panic \
recovery; correct and tested.\", \"findings\": []}\n```\n";
    assert!(approves(text));
    // With a place or a problem in it, the paragraph is still read as a finding.
    let placed =
        "## P3 - Nice to Have\n\nNone.\n\nLGTM. One nit: rename `tmp` in `jobs/run.go:12`.\n";
    assert!(!approves(placed));
    let concern =
        "## P3 - Nice to Have\n\nNone.\n\nLGTM. The retry loop still leaks a timer per job.\n";
    assert!(!approves(concern));
}

#[test]
fn a_bots_details_blocks_are_not_findings() {
    // An emoji before a summary's name.
    let text = "**Actionable comments posted: 0**\n\n<details>\n<summary>🧹 Recent review details\
</summary>\n\n**Review profile**: CHILL\n\n</details>\n\nNo actionable comments were generated.\n";
    assert!(approves(text));
    // A section that counts itself empty holds no finding.
    let empty =
        "### Comments suppressed due to low confidence (0)\n\n- **Review duration:** 41 s\n";
    assert!(read_cr(empty).critique.findings.is_empty());
    // A digest's metadata bullets after a suppressed comment are not comments.
    let digest = "### Comments suppressed due to low confidence (1)\n\n**src/log.ts:58**\n\
* The order is logged whole, billing address included; log its id.\n\n\
- **Files reviewed:** 3/3 changed files\n- **Comments generated:** 2\n";
    assert_eq!(
        seen(&read_cr(digest)),
        [(Severity::Unclassified, "src/log.ts:58".into())]
    );
    // A rating field is no finding; with a place it is no rating of the change.
    assert!(read_cr("- **Review effort level:** Medium\n")
        .critique
        .findings
        .is_empty());
    let rated = "- **Confidence:** high, `db/m.sql:3` drops a column\n";
    assert_eq!(read_cr(rated).critique.findings.len(), 1);
    // An effort estimate: in another language's section, or as the bot's own line.
    let korean = "## 예상 코드 리뷰 노력\n\n3 (Moderate) | 약 25분\n";
    assert!(read_cr(korean).critique.findings.is_empty());
    let line = "🎯 3 (Moderate) | ⏱️ ~25 minutes\n";
    assert!(read_cr(line).critique.findings.is_empty());
}

#[test]
fn a_verdict_heading_is_no_finding_and_still_says_no() {
    let text = "### 🟡 Changes recommended\n\nThe refund rounding drifts by a cent per item.\n\n\
**src/refund.ts:42**\n\nRound once on the total instead of per item.\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [(Severity::Unclassified, "src/refund.ts:42".into())]
    );
    // Alone, it still does not approve: one finding of unknown level carries its no.
    let alone = read_cr("### 🟡 Changes recommended\n\nThe refund path changed.\n");
    assert!(!alone.critique.agreement);
    assert_eq!(alone.critique.findings.len(), 1);
    assert!(approves(
        "### ✅ Ready to approve\n\nThe change removes the crash on empty files.\n"
    ));
}

#[test]
fn a_preview_of_the_findings_is_none_of_them() {
    let text = "This closes the redirect hole. I have two suggestions: one about a backslash the \
check lets through, and one about naming.\n\n**auth/redirect.py (line 18):**\n\n![medium](https://x/medium-priority.svg)\n\n\
Reject a `next` with a backslash.\n\n**auth/redirect.py (line 9):**\n\n![low](https://x/low-priority.svg)\n\n\
`ok` could say what it checks.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P2, "auth/redirect.py:18".into()),
            (Severity::P3, "auth/redirect.py:9".into())
        ]
    );
    // A single introduced point is still a finding.
    let one = "One suggestion: the retry in `net/get.go:30` should back off.\n";
    assert_eq!(read_cr(one).critique.findings.len(), 1);
}

#[test]
fn japanese_lines_and_blockers_in_words() {
    let text = "コメントを 2 件残しています。\n\n---\n\n**`app/mailer.rb`** 23 行目\n\n\
`params[:id]` をそのまま使っているため、他社の請求書を再送できます。これはマージ前に必ず修正が必要な\
ブロッカーです。\n\n---\n\n**`app/views/_sum.erb`** 7 行目\n\n表示だけの問題です。\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P0, "app/mailer.rb:23".into()),
            (Severity::Unclassified, "app/views/_sum.erb:7".into())
        ]
    );
    // "无法" ("cannot") is no denial of the blocker beside it.
    let cannot = "- `auth/login.go:12` 这是阻塞性问题导致旧会话无法登出。\n";
    assert_eq!(
        seen(&read_cr(cannot)),
        [(Severity::P0, "auth/login.go:12".into())]
    );
    // "There are no blockers" rates nothing.
    let none =
        "差分を確認しました。ブロッカーはありません。\n\n- `a/b.rb:4` の名前が分かりにくいです。\n";
    assert_eq!(
        seen(&read_cr(none)),
        [(Severity::Unclassified, "a/b.rb:4".into())]
    );
}

#[test]
fn numbered_titles_with_tags_and_a_permalink_under_them() {
    let text = "![Remediation recommended](https://x/review-recommended.png)\n\n\
1\\. New module has no type hints `📘 Rule violation`\n\n> Description\n> `pay/hooks.py` has no \
annotations.\n\n> Code\n>\n> [pay/hooks.py[R12-20]](https://github.com/o/r/blob/main/pay/hooks.py#L12-L20)\n\n\
---\n\n2\\. Amount parsed as float `🐞 Bug`\n\n> Description\n> Use `Decimal` for money.\n\n\
> Code\n>\n> [pay/hooks.py[R66]](https://github.com/o/r/blob/main/pay/hooks.py#L66-L66)\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P2, "pay/hooks.py:12-20".into()),
            (Severity::Unclassified, "pay/hooks.py:66".into())
        ]
    );
    // A numbered sentence with a code span in it is no title.
    let prose = "1. Run `cargo test` first.\n";
    assert!(read_cr(prose).critique.findings.is_empty());
}

#[test]
fn praise_that_ends_a_title_and_comments_named_by_number() {
    let text = "I found 1 issue and left some high level feedback:\n\n\
- The migration drops `users.email` before the backfill, so emails are lost.\n\
- Moving the queries into one repository reads well and cut the query count, nice.\n";
    assert_eq!(read_cr(text).critique.findings.len(), 1);
    // `### Comment 1` names its finding by number: the first line of words is its title.
    let text = "## Individual Comments\n\n### Comment 1\n<location path=\"api/m.py\" line_range=\"7-9\" />\n\
**issue (security):** Any member can remove the owner.\n";
    let r = read_cr(text);
    assert_eq!(r.critique.findings.len(), 1);
    assert!(
        r.critique.findings[0]
            .title
            .contains("Any member can remove the owner"),
        "{}",
        r.critique.findings[0].title
    );
}

#[test]
fn a_risk_ruled_out_and_a_section_of_non_issues_raise_nothing() {
    let text =
        "LGTM.\n\nOne thing I checked and ruled out: I wondered whether the early return in \
`pool/w.go:54` could leak the sender goroutine. It can't, the channel is buffered. No change \
needed.\n";
    assert!(approves(text));
    let section = "## Summary\n\nAdds a column and a sync trigger.\n\n## Not issues\n\n\
- **Trigger cost** — I checked whether the trigger in `db/m.sql:12` would be a critical problem \
on the write path. It is one row, no lookups.\n- **Locks** — adding a nullable column takes no \
long lock.\n\nLGTM.\n";
    assert!(approves(section));
    // A level given as a tag in such a section still counts (a finding listed there by mistake
    // is not hidden).
    let tagged =
        "## Not issues\n\n- **[P1]** `db/m.sql:12` drops the old column before the copy.\n";
    assert_eq!(read_cr(tagged).critique.findings.len(), 1);
}

#[test]
fn a_json_block_does_not_hide_what_the_prose_raised() {
    let text = "## Must fix\n\n- **Logout race** — `src/session.ts:58` — a late response restores \
the user.\n\n## Should fix\n\n- **Retry without a cap** — `src/client.ts:33` — cap it at 3.\n\n\
## Nice to have\n\n_Nothing._\n\n```json\n{\"verdict\": \"revise\", \"summary\": \"Logout race.\", \
\"findings\": [{\"severity\": \"P1\", \"title\": \"Logout race\", \"file\": \"src/session.ts\", \
\"start_line\": 58, \"end_line\": 60, \"body\": \"A late response restores the user.\", \
\"action\": \"Ignore stale responses.\"}]}\n```\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P1, "src/session.ts:58-60".into()),
            (Severity::P2, "src/client.ts:33".into())
        ]
    );
    // The same finding said in both is read once.
    let same = text.replace(
        "- **Retry without a cap** — `src/client.ts:33` — cap it at 3.",
        "None.",
    );
    assert_eq!(read_cr(&same).critique.findings.len(), 1);
    assert!(approves(
        "## Must fix\n\nNo must-fix issues.\n\nLGTM.\n\n```json\n{\"verdict\": \"approve\", \
\"summary\": \"ok\", \"findings\": []}\n```\n"
    ));
}

#[test]
fn a_bots_empty_suggestions_and_placeholders() {
    let text = "## PR Code Suggestions ✨\n\nNo code suggestions found for the PR.\n";
    assert!(read_cr(text).critique.findings.is_empty());
}

#[test]
fn a_level_heading_in_other_words_that_holds_nothing() {
    for (p1, p3, none) in [
        ("Deve corrigir", "Seria bom ter", "Nenhum."),
        ("Mutlaka düzeltilmeli", "Olsa iyi olur", "Yok."),
        ("必须修复", "锦上添花", "无。"),
    ] {
        let text = format!(
            "## P1 - {p1}\n{none}\n\n## P3 - {p3}\n{none}\n\nLGTM.\n\n```json\n\
{{\"verdict\": \"approve\", \"summary\": \"ok\", \"findings\": []}}\n```\n"
        );
        assert!(approves(&text), "{p1}");
    }
    // With a finding under it, the heading's level is the finding's.
    let text = "## P1 - Deve corrigir\n- `src/a.ts:9` libera a reserva duas vezes.\n";
    assert_eq!(seen(&read_cr(text)), [(Severity::P1, "src/a.ts:9".into())]);
}

#[test]
fn a_suspicion_the_reviewer_cleared_raises_nothing() {
    let de = "Ich hatte zuerst eine Race Condition in `jobs/lease.go` vermutet (Zeile 40: zwei \
Knoten erneuern gleichzeitig). Das ist aber ausgeschlossen: das UPDATE prüft die Version.\n\n\
Keine Befunde. Freigegeben.\n";
    assert!(approves(de));
    let it = "Il dubbio principale era la riga 22 di `src/load.ts`: se la lingua manca, la pagina \
resta bianca? No: il `catch` ripiega su `it-IT`.\n\nNessuna criticità. **Approvato.**\n";
    assert!(approves(it));
    let zh = "## P3 - 锦上添花\n无。\n\n补充说明：一开始我担心第 64 行 `evict()` 在读锁下修改链表。仔细看了，\
命中后会先释放读锁，所以没有问题。\n\nLGTM。\n";
    assert!(approves(zh));
    let first = "## P3 - Nice to have\n\nNone.\n\nAt first I was worried that the cache in \
`lru/c.go` could grow without bound; the eviction at line 40 caps it.\n\nLGTM.\n";
    assert!(approves(first));
    // A worry that turns out founded is raised.
    let founded = "Ich hatte zuerst eine Race Condition in `jobs/lease.go` vermutet (Zeile 40). \
Das schien ausgeschlossen, aber tatsächlich erneuern beide Knoten den Lease.\n\nSonst LGTM.\n";
    assert!(!approves(founded));
}

#[test]
fn blockers_said_in_words_in_other_languages() {
    for (text, level) in [
        ("- `src/orders.ts:96` libera o estoque duas vezes. Deve ser corrigido antes do merge.\n", Severity::P1),
        ("**Muss vor dem Merge behoben werden:** In `src/cors.ts:19` ist jede Herkunft erlaubt.\n", Severity::P1),
        ("**Esto bloquea el merge:** en `src/cleanup.js:42` se borran filas de otros tenants.\n", Severity::P0),
        ("- `src/hook.ts:58` 서명 검증 전에 파싱합니다. **이건 머지 전에 꼭 고쳐야 합니다.**\n", Severity::P1),
    ] {
        let r = read_cr(text);
        assert_eq!(r.critique.findings.len(), 1, "{text}");
        assert_eq!(r.critique.findings[0].severity, level, "{text}");
    }
}

#[test]
fn words_that_are_concerns_only_in_english() {
    // Portuguese and Spanish "todo" is "all"; a TODO left in code is still a concern.
    assert!(approves(
        "Revisei o PR todo.\n\nNenhum problema. **Aprovado** ✅\n"
    ));
    assert!(!approves(
        "LGTM, but the TODO in `a.go:3` should be resolved first.\n"
    ));
    // "No changes needed" says nothing was found, beside a line it checked.
    let text = "I also checked `locales/ja.json` line 88: the placeholder is kept.\n\n\
No changes needed. LGTM, approving.\n";
    assert!(approves(text));
}

#[test]
fn prose_after_a_sections_none_and_an_approval_that_names_its_file() {
    // After "None." under a level, a paragraph with no level, place or problem is prose.
    let text = "## P1 - Must Fix\nNone.\n\n## P3 - Nice to Have\nNone.\n\nThe new timeout stays \
below the queue's redelivery ceiling, and the test pins the value.\n\nLGTM\n";
    assert!(approves(text));
    // One that points at a line is still read.
    let placed =
        "## P3 - Nice to Have\nNone.\n\nThe constant at `cfg/w.toml:4` is unused.\n\nLGTM\n";
    assert!(!approves(placed));
    // "Approve." that names the file it read and the crash the change fixes; "nothing left
    // that could crash" denies one.
    let text = "Approve. The change adds a bounds check before `parts[1]` in `lib/header.go`, \
which is exactly the index-out-of-range panic from the issue. I checked the other callers, so \
there's nothing left here that could crash.\n";
    assert!(approves(text));
    assert!(!approves(
        "Approve. Nothing else checks the length, and `lib/header.go` still panics on one part.\n"
    ));
}

#[test]
fn a_findings_table_in_traditional_chinese() {
    let text = "## 審查意見\n\n| # | 嚴重程度 | 檔案 | 行 | 說明 |\n|---|---|---|---|---|\n\
| 1 | 一般 | `web/up.ts` | 27 | 失敗時沒有清掉狀態。 |\n| 2 | 建議 | `web/btn.tsx` | 14 | 標籤寫死成英文。 |\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Severity::P2, "web/up.ts:27".into()),
            (Severity::P3, "web/btn.tsx:14".into())
        ]
    );
}

#[test]
fn items_listed_as_fixed_since_the_last_review_are_not_raised_again() {
    // They keep the level badge they had when they were raised.
    let resolved = "### Approval recommended\n\nBoth earlier problems are fixed.\n\n<details>\n\
<summary><strong>Resolved since last review (2)</strong></summary>\n\n\
- <img alt=\"High severity\" src=\"high.png\"> [Retries can charge a card twice](#r1)\n\
- 🟠 **Medium** [The idempotency key changes between retries](#r2)\n</details>\n";
    assert!(approves(resolved));
    for heading in ["## Already fixed", "### 已解决", "### Behoben"] {
        let text = format!("{heading}\n\n- **P1** `pay.ts:40` retries without a cap\n");
        let r = read_cr(&text);
        assert!(r.critique.findings.is_empty(), "{heading}: {:?}", seen(&r));
    }
    // Under a section of open findings, the same item is raised.
    let open = "### Still open\n\n- **P1** `pay.ts:40` retries without a cap\n";
    assert_eq!(seen(&read_cr(open)), [(Severity::P1, "pay.ts:40".into())]);
    // And a finding after the fixed section, under its own heading, is raised.
    let after = "### Resolved since last review (1)\n\n- **High** `pay.ts:40` retries without a \
cap\n\n### New findings\n\n- **High** `pay.ts:52` the refund path double-counts\n";
    assert_eq!(seen(&read_cr(after)), [(Severity::P1, "pay.ts:52".into())]);
}

#[test]
fn a_records_body_and_fix_fields_in_other_languages_are_its_own() {
    for (heading, file, sev, body, fix) in [
        (
            "### Achados",
            "Arquivo",
            "Severidade",
            "Descrição",
            "Correção",
        ),
        (
            "### Befunde",
            "Datei",
            "Schweregrad",
            "Beschreibung",
            "Vorschlag",
        ),
        (
            "### Problèmes",
            "Fichier",
            "Sévérité",
            "Problème",
            "Correctif",
        ),
        (
            "### Risultati",
            "File",
            "Gravità",
            "Descrizione",
            "Soluzione",
        ),
    ] {
        let text = format!(
            "{heading}\n\n**1. Lembrete no fuso errado**\n- **{file}:** `agenda/l.py:27`\n\
- **{sev}:** P2\n- **{body}:** `now()` sem fuso.\n- **{fix}:** use `localtime()`.\n"
        );
        assert_eq!(
            seen(&read_cr(&text)),
            [(Severity::P2, "agenda/l.py:27".into())],
            "{heading}"
        );
    }
}

#[test]
fn a_title_that_opens_with_an_aspect_is_a_findings_title() {
    let title = "### Security header dropped for HEAD requests\n\n<!-- **Medium Severity** -->\n\n\
<!-- DESCRIPTION START -->\n`writeHeaders` runs only on GET, so HEAD lacks the header.\n\
<!-- DESCRIPTION END -->\n\n<!-- LOCATIONS START\nweb/h.go#L44-L51\nLOCATIONS END -->\n";
    assert_eq!(
        seen(&read_cr(title)),
        [(Severity::P2, "web/h.go:44-51".into())]
    );
    // The aspect alone, or with a word or two, is what the review looked at.
    for heading in [
        "### 🔒 Security",
        "### Security considerations",
        "### Test coverage notes",
    ] {
        let text = format!("{heading}\n\nTokens are compared in constant time; tests cover it.\n");
        assert!(read_cr(&text).critique.findings.is_empty(), "{heading}");
    }
}
