//! Peer reviews of proposals and first-round answers to the review prompt (blind sets w55 and
//! w56): the prompt's own sections in the author's language, a recommended decision, a level
//! field per round, approvals that explain the one risk they checked. One rule each, in answers
//! written for these tests.

use super::layout_tests::{approves, read_cr, seen};
use crate::answer::location::Roots;
use crate::findings::Severity::*;

#[test]
fn a_level_field_of_an_earlier_round_gives_no_level() {
    for text in [
        "**F1: TTL units are mixed**\n- Previous severity: High\n- Current severity: Low\n\
- File: `lib/cache/ttl.rb`\n- Line: 42\n- Why: the default `3_600_000` has no unit.\n",
        "**F1: TTL の単位が混在している**\n- 前回の重大度: 高\n- 今回の重大度: 低\n\
- ファイル: `lib/cache/ttl.rb`\n- 行: 42\n- 理由: 既定値の単位が読み取れない。\n",
    ] {
        assert_eq!(
            seen(&read_cr(text)),
            [(P3, "lib/cache/ttl.rb:42".into())],
            "{text}"
        );
    }
}

#[test]
fn a_point_the_reviewer_treats_as_blocking_is_a_blocker_and_revise_raises_something() {
    let text = "Overall a well-argued RFC. A few thoughts:\n\n\
**1. This is the one I'd treat as blocking: the reconnect storm.** Every client reconnects at \
once after a deploy, with no backoff.\n\n\
**2. Nit:** the gateway has two names.\n\nSo: revise, mostly for point 1.\n";
    let levels: Vec<_> = seen(&read_cr(text)).into_iter().map(|s| s.0).collect();
    assert!(levels.contains(&P0), "{levels:?}");
    // Read as prose blocks, the same point is a blocker too.
    let prose = text.replace("**2. Nit:**", "Also,");
    let blocks: Vec<_> = super::layout_tests::raw_levels(&prose)
        .into_iter()
        .map(|s| s.0)
        .collect();
    assert!(blocks.contains(&P0), "{blocks:?}");
    // Without any rated point, an answer that says "revise" is never one that raised nothing.
    let unrated = "Overall a well-argued RFC.\n\n**1. The reconnect storm.** Every client \
reconnects at once after a deploy.\n\n**2. Diagram labels.** Two names for one box.\n\n\
So: revise, mostly for point 1.\n";
    assert!(!super::normalise::raises_nothing(
        unrated,
        &Roots::default()
    ));
    // "so reject requests without a token" describes code, not a decision.
    assert!(crate::answer::verdict::objection(
        "The middleware should validate the token, so reject requests without one."
    )
    .is_none());
}

#[test]
fn a_placeholder_that_says_why_is_still_a_placeholder_unless_it_turns() {
    let text = "## P1 - Must Reconsider\n\nNone.\n\n## P2 - Should Improve\n\nNone.\n\n\
## P3 - Nice to Strengthen\n\nNothing I'd ask for; the ADR is tight.\n\n\
## Recommended Decision\n\n**Keep.**\n";
    assert!(
        seen(&read_cr(text)).is_empty(),
        "{:?}",
        seen(&read_cr(text))
    );
    assert!(crate::answer::vocab::is_placeholder(
        "Nothing I would change"
    ));
    assert!(!crate::answer::vocab::is_placeholder(
        "Nothing I'd block on, but the retry never ends"
    ));
}

#[test]
fn the_prompts_sections_in_the_authors_language_are_sections() {
    let text = "## P1 - À reconsidérer\n\nAucun point.\n\n## P2 - À améliorer\n\nAucun point.\n\n\
## P3 - À renforcer\n\nRien à signaler. J'ai vérifié que l'intercepteur existe déjà \
(`pkg/rpc/deadline.go:23`).\n\n## Décision recommandée\n\n**Conserver.**\n";
    assert!(
        seen(&read_cr(text)).is_empty(),
        "{:?}",
        seen(&read_cr(text))
    );
    // A point under a translated section takes its level.
    let point = "## P2 - À améliorer\n\n- Le délai par défaut de 10 s n'est pas justifié \
(`docs/adr/0029.md:31`).\n";
    assert_eq!(
        seen(&read_cr(point)),
        [(P2, "docs/adr/0029.md:31".into())],
        "{point}"
    );
}

#[test]
fn the_recommended_decision_line_is_the_verdict_not_a_finding() {
    let text = "| # | Level | Where | Finding |\n|---|---|---|---|\n\
| 1 | Should improve | `docs/export.md:91` | The job limit is per key, not per tenant. |\n\n\
**Recommended decision:** keep, with the changes above.\n\n```json\n{\"verdict\": \"revise\", \"findings\": [{\"severity\": \"P2\", \"title\": \"Limit per key\", \"section\": \"docs/export.md:91\"}]}\n```\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P2, "docs/export.md:91".into())],
        "{text}"
    );
}

#[test]
fn the_recommended_decision_over_the_json_block_is_no_finding_in_a_blind_sets_answer() {
    let text = include_str!(
        "../../tests/fixtures/answers/tuned/holdout-w55/gemini-p/api-proposal-p2-p3-table.md"
    );
    let levels: Vec<_> = seen(&read_cr(text)).into_iter().map(|s| s.0).collect();
    assert_eq!(levels, [P2, P2, P3]);
}

#[test]
fn the_one_risk_checked_and_cleared_is_no_finding() {
    for text in [
        "LGTM.\n\nI checked the one thing that could have gone wrong — the backfill racing the \
new trigger — and the `IS NULL` guard in `db/backfill.sql` means the backfill never overwrites \
a value the trigger set.\n\n```json\n{\"verdict\": \"approve\", \"findings\": []}\n```\n",
        "No issues found.\n\nThe one risky part of the change is that `Shutdown` now closes the \
channel first, and a send on a closed channel would panic. I checked every sender: `Submit` \
(`pool.go:69`) takes the lock and returns early once closed, so no send can race the close.\n\n\
## P1 - Must Fix\nNone\n\n```json\n{\"verdict\":\"approve\",\"findings\":[]}\n```\n",
    ] {
        assert!(approves(text), "{text}: {:?}", seen(&read_cr(text)));
    }
    // The same risk, not cleared, is a finding.
    let open = "The one risky part of the change is that `Shutdown` now closes the channel \
first, and a send on a closed channel would panic (`pool.go:69`).\n\n\
```json\n{\"verdict\":\"approve\",\"findings\":[]}\n```\n";
    assert!(!approves(open), "{:?}", seen(&read_cr(open)));
}

#[test]
fn a_list_of_checks_under_an_outright_no_issues_names_files_and_raises_nothing() {
    // A blind set's answer (w56), without its JSON block: the reviewer's own "no issues" is
    // what clears the files its list of checks names.
    let envelope: serde_json::Value = serde_json::from_str(include_str!(
        "../../tests/fixtures/answers/tuned/holdout-w56/gemini-p/json-envelope-approve-fixes-p1-incident.md"
    ))
    .unwrap();
    let answer = envelope["response"].as_str().unwrap();
    let text = answer.split("```json").next().unwrap();
    assert!(text.contains("I have no issues to report."));
    for said in [
        "I have no issues to report.",
        "Nothing here needs to change.",
        "No concerns to report.",
    ] {
        assert!(crate::answer::verdict::found_nothing(said), "{said}");
    }
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // Without the reviewer's "no issues", a worry about a named file is raised.
    let worried = text.replace("I have no issues to report.", "Otherwise fine.");
    assert!(!approves(&worried), "{:?}", seen(&read_cr(&worried)));
}

#[test]
fn a_risk_that_will_throw_is_raised_even_when_the_reviewer_could_not_run_it() {
    let text = "The refactor reads well.\n\n## P1 - Must Fix\nNone\n\n## Risks\n\
- `src/cache.ts:14` now connects at module load. The cron job doesn't set `REDIS_URL`, so \
anything there that imports it will throw at startup. I couldn't run it to confirm, but I \
don't see a guard.\n\n```json\n{\"verdict\":\"approve\",\"findings\":[]}\n```\n";
    let r = read_cr(text);
    assert_eq!(seen(&r), [(Unclassified, "src/cache.ts:14".into())]);
    // Titled by what it says, not by the heading above it or its list marker.
    assert!(
        r.critique.findings[0]
            .title
            .starts_with("src/cache.ts:14 now connects"),
        "{}",
        r.critique.findings[0].title
    );
}

#[test]
fn a_json_approval_with_an_empty_list_outweighs_a_file_its_prose_names() {
    let text = "Two sample values reached me as markers, `KEY=[REDACTED:generic-api-key]`, so I \
can't say what the sample file holds. The loader has no default, so a missing value fails at \
startup, and `webhooks.py` verifies the signature first.\n\n## P1 - Must Fix\nNone.\n\n\
```json\n{\"verdict\": \"approve\", \"findings\": []}\n```\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    // A line in that paragraph still makes its worry a finding.
    let lined = text.replace("`webhooks.py`", "`webhooks.py:12`");
    assert!(!approves(&lined), "{:?}", seen(&read_cr(&lined)));
}

#[test]
fn a_blocker_paragraph_raises_the_finding_at_its_line_not_the_next_one() {
    let text = "## P1 - Must Fix\n\n- **DEBUG defaults to on** — `app/settings.py:40` — the \
next deploy serves debug pages.\n\n## P2 - Should Fix\n\n- **Any host** — `app/settings.py:42` — \
the host check is off.\n\n```json\n{\"verdict\": \"revise\", \"findings\": [\
{\"severity\": \"P2\", \"title\": \"DEBUG on\", \"file\": \"app/settings.py\", \"start_line\": 40}, \
{\"severity\": \"P2\", \"title\": \"Any host\", \"file\": \"app/settings.py\", \"start_line\": 42}]}\n```\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P1, "app/settings.py:40".into()),
            (P2, "app/settings.py:42".into())
        ]
    );
}

#[test]
fn a_remark_that_closes_on_no_finding_is_none_in_any_language() {
    for close in ["Kein Befund.", "Not a finding.", "Pas un problème."] {
        let text = format!(
            "## P2 - Should Fix\n\n- **Missing permissions** — `ci/preview.yml:3` — the token \
can write.\n\n## P3 - Nice to Have\nNone.\n\nOn line 29 (`ORG_ID: [REDACTED:env-value]`): an \
organisation id, not a secret; the redactor replaced it for its shape. {close}\n"
        );
        assert_eq!(
            seen(&read_cr(&text)),
            [(P2, "ci/preview.yml:3".into())],
            "{text}"
        );
    }
}

#[test]
fn places_checked_one_by_one_after_an_empty_section_are_no_findings() {
    let text = "## P1 - Must Fix\n\n- **`||` to `??` changes the page size** — \
`web/orders.ts:57` — a missing size becomes 0.\n\n## P3 - Nice to Have\n\nNone.\n\n\
For the record, the other `??` rewrites are on values that are never `0`. I checked each: \
`web/session.ts:31`, `web/cart.ts:88`, `web/format.ts:52`.\n";
    assert_eq!(seen(&read_cr(text)), [(P1, "web/orders.ts:57".into())]);
}

#[test]
fn a_chunk_the_reviewer_could_not_see_is_a_limit_not_a_finding() {
    let text = "## Observations\n\n\
1. `docs/rotate.md:27` still tells on-call to run the removed `--legacy` flag; the runbook \
will fail during an incident.\n\
2. I couldn't see `cmd/root.go` (it is in chunk 1), so I don't know whether the help text \
changed.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(Unclassified, "docs/rotate.md:27".into())]
    );
    // A section whose first item is such a limit and whose second says what breaks at a line
    // is a finding, limit or not.
    let section = "## ⚠️ Needs verification (outside this chunk)\n\n- The CI workflow is in chunk 1; I didn't see it.\n- `envs/prod/main.tf:12` renames the module without a `moved` block, so Terraform plans to \
destroy the VPC and create it again.\n\n## P1 - Must Fix\nNone\n";
    let levels: Vec<_> = seen(&read_cr(section)).into_iter().map(|s| s.1).collect();
    assert_eq!(levels, ["envs/prod/main.tf:12"]);
}

#[test]
fn the_prompts_skeleton_in_any_language_is_sections_and_its_none_in_persian_is_a_placeholder() {
    let text =
        "راجعت التغيير.\n\n## P1 - يجب إصلاحه\n\nلا يوجد.\n\n## P2 - ينبغي إصلاحه\n\nلا يوجد.\n\n\
## P3 - من الجيد توفره\n\nلا يوجد.\n\nالتحقق: `SmtpClient` يُغلق في كل المسارات.\n\nLGTM\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    let persian = "## P1 - باید اصلاح شود\n\nموردی نیست.\n\n## P2 - بهتر است اصلاح شود\n\n\
موردی نیست.\n\nLGTM\n";
    assert!(approves(persian), "{:?}", seen(&read_cr(persian)));
    // One finding per level under a findings heading is findings, not the skeleton.
    let findings =
        "## Findings\n\n### P2 — 曜日の範囲チェック\n- **File:** `cron.rs`\n- **Line:** 214\n\n\
### P3 — エラーメッセージ\n- **File:** `errors.rs`\n- **Line:** 19\n";
    assert_eq!(
        seen(&read_cr(findings)),
        [(P2, "cron.rs:214".into()), (P3, "errors.rs:19".into())]
    );
}

#[test]
fn a_checks_label_under_an_approval_names_what_was_checked() {
    // A blind set's answer (w59): "**Injection:** ruled out. … (`store/search.go:34`)" in a list
    // of checks above empty sections and a JSON approval.
    let text = include_str!(
        "../../tests/fixtures/answers/tuned/holdout-w59/claude-p/en-approve-injection-ruled-out.md"
    );
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}
