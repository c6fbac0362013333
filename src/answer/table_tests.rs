//! Shapes the reader learned from blind set w40 (long reviews with many findings: summary
//! tables and the sections that detail them, re-reviews with a status column, Qodo's and
//! Greptile's layouts), one rule each, in answers written for these tests: what each rule
//! reads, and what it leaves alone.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity::{self, *};

fn levels(text: &str) -> Vec<Severity> {
    read_cr(text)
        .critique
        .findings
        .iter()
        .map(|f| f.severity)
        .collect()
}

#[test]
fn rows_a_status_column_marks_done_are_not_raised_again() {
    let text =
        "## Earlier findings\n\n| # | Sev | Location | Finding | Status |\n|---|---|---|---|---|\n\
| 1 | P0 | `q.ts:58` | Cross-tenant join | ✅ Fixed — the join checks the tenant |\n\
| 2 | P2 | `csv.ts:22` | Formula injection | Resolved in 2f7b9d4 |\n\n## New findings\n\nNone.\n\n\
**Verdict: approve.**\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
    let open = "| # | Sev | Location | Finding | Status |\n|---|---|---|---|---|\n\
| 1 | P0 | `q.ts:58` | Cross-tenant join | ✅ Fixed |\n\
| 2 | P1 | `w.ts:12` | Public ACL | ❌ Still open |\n| 3 | P2 | `r.ts:7` | Rate limit | Not fixed |\n";
    assert_eq!(
        seen(&read_cr(open)),
        [(P1, "w.ts:12".into()), (P2, "r.ts:7".into())]
    );
}

#[test]
fn sections_that_cite_a_tables_rows_by_number_detail_them() {
    let text = "| # | 重大度 | ファイル | 行 | 内容 |\n|---|---|---|---|---|\n\
| 1 | P3 | `a.rb` | 14 | enum の順序 |\n| 2 | P2 | `j.rb` | 22 | リトライ上限なし |\n\
| 3 | P1 | `p.rb` | 41 | ロックなしで枠を二重に割り当てる |\n\n\
### 3. 同じ枠が 2 人に割り当てられる（P1）\n\n`with_lock` で囲んでください。\n\n\
### 2. リトライ上限なし（P2）\n\n`attempts:` がありません。\n\n\
## 結論\n\nP1 が 1 件（#3）あるため、このままでは承認できません。\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P3, "a.rb:14".into()),
            (P2, "j.rb:22".into()),
            (P1, "p.rb:41".into())
        ]
    );
    // A section that cites no row is a finding of its own.
    let own = "| # | Sev | File | Issue |\n|---|---|---|---|\n| 1 | P2 | `a.go:3` | Slow loop |\n\
| 2 | P3 | `b.go:9` | Typo |\n\n### Another thing (P1)\n\nThe lock in `c.go:40` is never released.\n";
    assert_eq!(levels(own), [P2, P3, P1]);
}

#[test]
fn a_detail_that_repeats_its_rows_words_is_that_row() {
    let text = "| 级别 | 文件 | 行 | 问题 |\n|---|---|---|---|\n\
| P0 | `t.go` | 72 | 扣减与增加不在同一事务中，失败时积分凭空增加 |\n\
| P1 | `h.go` | 35 | 转赠数量允许为负数 |\n| P2 | `r.go` | 48 | 缺少索引 |\n\
| P3 | `h.go` | 60 | 错误信息直接返回数据库错误文本 |\n\n## 详细说明\n\n### P0：扣减与增加不在同一事务中\n\n\
请放进同一个事务。\n\n### P1：数量可以为负数\n\n请校验 `amount > 0`。\n";
    assert_eq!(
        seen(&read_cr(text))[..2],
        [(P0, "t.go:72".into()), (P1, "h.go:35".into())]
    );
    assert_eq!(levels(text), [P0, P1, P2, P3]);
    // At another level, the same words are another finding.
    let other = "| Sev | File | Issue |\n|---|---|---|\n| P2 | `a.go:3` | Retry loop never backs off |\n\
| P3 | `b.go:9` | Typo in the log |\n\n### P0: the retry loop never backs off and takes the database down\n\n\
It runs hot.\n";
    assert_eq!(levels(other), [P2, P3, P0]);
}

#[test]
fn a_summarys_rated_bullet_is_the_finding_it_sums_up() {
    let text = "<h3>Greptile Summary</h3>\n\nReplaces the limiter.\n\n\
- **Critical issue**: the trim uses the wrong bound, so entries are never evicted.\n\n\
<h3>Comments</h3>\n\n**gateway/window.go:88**\n\n**Critical** Eviction bound is inverted; entries \
are never evicted, so every client is throttled.\n";
    assert_eq!(seen(&read_cr(text)), [(P0, "gateway/window.go:88".into())]);
}

#[test]
fn the_bug_a_change_fixes_is_not_rated() {
    let fixed =
        "## Pull request summary\n\nThis pull request fixes the critical bug where reports \
went to the old owner.\n\n## Review\n\n**r.go** — line 31\n\n**Severity:** Low\n\nRename `x`.\n";
    assert_eq!(levels(fixed), [P3]);
    // Asked to fix one, the reviewer rates it.
    let asked =
        "Two things:\n\n- `r.go:31`: please fix the critical bug here, the owner is stale.\n\
- `r.go:40`: rename `x`. Nit.\n";
    assert_eq!(levels(asked), [P0, P3]);
    // Nor is the advisory a bump carries the fix for; a comment whose title says there is
    // nothing to do raises nothing.
    let carried = "<details>\n<summary>🔇 Additional comments (1)</summary><blockquote>\n\n\
`22-22`: **Patch bump picks up the redirect fix; nothing else to do.**\n\n1.7.9 carries the \
fix for the high-severity advisory about forwarded credentials.\n\n</blockquote></details>\n";
    assert!(approves(carried));
    assert_eq!(
        crate::answer::prose::severity_in("1.7.9 carries the fix for the high-severity advisory."),
        None
    );
    assert_eq!(
        crate::answer::prose::severity_in("It is a fix for the parser, but a high risk."),
        Some(P1)
    );
}

#[test]
fn no_problems_found_in_spanish_and_portuguese_approves() {
    assert!(approves("No se detectaron problemas importantes.\n"));
    assert!(approves("Não foram encontrados problemas relevantes.\n"));
}

#[test]
fn a_table_that_rates_the_points_above_it_gives_them_their_levels() {
    let text = "**1. Payloads are logged.**\n`hooks/d.py:88` logs the payload with emails.\n\n\
**2. Private addresses are allowed.**\n`api/s.py:42` accepts link-local URLs.\n\n\
| # | Severity | Note |\n|---|---|---|\n| 1 | P2 | redact |\n| 2 | **P1** | SSRF, fix before merge |\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P2, "hooks/d.py:88".into()), (P1, "api/s.py:42".into())]
    );
}

#[test]
fn a_place_alone_under_a_findings_heading_is_its_place() {
    let text = "## P1\n\n### 2. Export files are public\n`src/worker.ts:112`\n\nDrop the ACL.\n\n\
### 3. Backpressure is ignored\n`src/stream.ts:40`\n\nAwait `drain`.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P1, "src/worker.ts:112".into()),
            (P1, "src/stream.ts:40".into())
        ]
    );
}

#[test]
fn a_suggestions_first_paragraph_naming_its_file_is_its_own() {
    let text = "## PR Code Suggestions\n\n<table><tr><td>Possible issue</td>\n<td>\n\n\
<details><summary>Guard the closed pool</summary>\n\n___\n\n**If the pool is closed, \
<code>pool.acquire()</code> in <code>src/ready.ts</code> throws.**\n\n\
[src/ready.ts [27-34]](https://example.org/pull/8/files#diff-r27)\n\n\
</details></td><td align=center>Medium\n\n</td></tr></table>\n";
    assert_eq!(seen(&read_cr(text)), [(P2, "src/ready.ts:27-34".into())]);
}

#[test]
fn a_link_under_a_suggestion_places_it_at_one_of_the_files_it_names() {
    let text =
        "## PR Code Suggestions\n\n<details><summary>Name the magic factor</summary>\n\n___\n\n\
**The factor `0.75` is written in `crawler/http.py` and in `crawler/scheduler.py`.**\n\n\
[crawler/scheduler.py [12-12]](https://example.org/blob/5f0a9d1/crawler/scheduler.py#L12-L12)\n\n\
</details>\n";
    let r = read_cr(text);
    let f = &r.critique.findings;
    assert_eq!(f.len(), 1, "{f:?}");
    let l = f[0].location.as_ref().expect("placed");
    assert_eq!(
        (l.path.as_str(), l.start_line),
        ("crawler/scheduler.py", Some(12))
    );
}

#[test]
fn a_scanners_table_its_failed_checks_and_its_tally() {
    let tally = "✅ **No issues found**\n\n| Severity | Issues |\n|---|---|\n| Critical | 0 |\n\
| High | 0 |\n| Low | 0 |\n";
    assert!(approves(tally), "{:?}", seen(&read_cr(tally)));
    let checks = "| Check | File | Lines | Result |\n|---|---|---|---|\n\
| CKV_AWS_18 — access logging off | `tf/s3.tf` | 1-14 | ❌ FAILED |\n\
| CKV_AWS_144 — no replication | `tf/s3.tf` | 1-14 | ❌ FAILED |\n\
| CKV_AWS_20 — public ACL | `tf/s3.tf` | 16-20 | ⏭️ SKIPPED — approved in SEC-114 |\n\
| CKV_AWS_19 — encryption | `tf/s3.tf` | 1-14 | PASSED |\n";
    assert_eq!(levels(checks), [Unclassified, Unclassified]);
}

#[test]
fn a_pull_request_summary_is_what_the_change_does() {
    let summary = "## Pull request summary\n\n- `api/orders.go:12`: a new handler for refunds\n\
- `api/routes.go:40`: the route registered\n\n## Review\n\nNo issues found.\n";
    assert!(approves(summary), "{:?}", seen(&read_cr(summary)));
    let review = "## Review notes\n\n- `api/orders.go:12`: a new handler for refunds\n";
    assert_eq!(levels(review).len(), 1);
}

/// (w41, w42) Sourcery's overview rates the comments of each category it counts, and a summary
/// point that sends the reader to a comment below is that comment.
#[test]
fn a_bots_overview_rates_its_categories_and_a_pointer_is_no_finding() {
    let text = "**Overall Comments**:\n- The endpoint compiles request data; see the security \
comment below before this ships.\n\n<details>\n<summary>Here's what I looked at during the \
review</summary>\n\n- 🟡 **General issues**: 1 issue found\n- 🔴 **Security**: 1 blocking issue\n\
- 🟢 **Testing**: all looks good\n\n</details>\n\n## Individual Comments\n\n### Comment 1\n\
<location> `t/render.py:36` </location>\n\n<issue_to_address>\n**issue (security):** The body \
is compiled unsandboxed.\n</issue_to_address>\n\n### Comment 2\n<location> `t/render.py:58` \
</location>\n\n<issue_to_address>\n**issue (bug_risk):** The cache key ignores the locale.\n\
</issue_to_address>\n\n### Comment 3\n<location> `t/filters.py:12` </location>\n\n\
<issue_to_address>\n**nitpick:** Type hints.\n</issue_to_address>\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P0, "t/render.py:36".into()),
            (Unclassified, "t/render.py:58".into()),
            (P3, "t/filters.py:12".into())
        ]
    );
    // Without a blocking count, the comments stay as they were.
    let plain = text
        .replace("- 🔴 **Security**: 1 blocking issue\n", "")
        .replace("- 🟡 **General issues**: 1 issue found\n", "");
    assert_eq!(levels(&plain), [Unclassified, Unclassified, P3]);
}

/// (w43) A detail that cites its row by number is that row's, though its words name another
/// file as a reference.
#[test]
fn a_cited_detail_naming_another_file_in_its_words_is_still_its_rows() {
    let text = "| # | Severity | Location | Issue |\n|---|---|---|---|\n\
| 1 | Low | `config/retry.yaml:4` | The comment says seconds |\n\
| 2 | High | `config/retry.yaml:11` | `max_attempts: 0` turns retries off |\n\n### Details\n\n\
**1. Units in the comment.** Only the comment is wrong.\n\n\
**2. `max_attempts: 0`.** In our loader `0` means no retries (see `src/http/retry.ts:15`).\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P3, "config/retry.yaml:4".into()),
            (P1, "config/retry.yaml:11".into())
        ]
    );
}

/// (w43) Sourcery's `<code_context>` that holds a fenced diff of its own: the fence is the
/// code, and each comment after it is read.
#[test]
fn a_code_context_holding_its_own_fence_is_one_code_block() {
    let comment = |n: u32, line: u32| {
        format!(
            "### Comment {n}\n<location> `w.go:{line}` </location>\n<code_context>\n```diff\n\
+\tlog.Printf(\"x\")\n```\n</code_context>\n\n<issue_to_address>\n**nitpick:** Lower-case \
the message.\n</issue_to_address>\n\n"
        )
    };
    let text = format!(
        "## Individual Comments\n\n{}{}",
        comment(1, 118),
        comment(2, 142)
    );
    assert_eq!(
        seen(&read_cr(&text)),
        [(P3, "w.go:118".into()), (P3, "w.go:142".into())]
    );
}

/// (w43) Qodo's focus areas: each `<summary>` titled in bold is a finding of its own, not a
/// part of the one before it.
#[test]
fn qodos_focus_areas_are_one_finding_each() {
    let area = |title: &str, place: &str| {
        format!(
            "<details><summary><a href='https://example.org/pull/8/files'><strong>{title}</strong>\
</a>\n\nIn {place} the value is wrong, so it silently differs.\n</summary>\n\n```toml\nx = 0\n```\n\n\
</details>\n\n"
        )
    };
    let text = format!(
        "## PR Reviewer Guide 🔍\n\n⚡ **Recommended focus areas for review**\n\n{}{}",
        area("Possible Bug", "`config/a.toml` (line 14)"),
        area("Config Drift", "`config/b.toml` (line 9)")
    );
    assert_eq!(
        seen(&read_cr(&text)),
        [
            (Unclassified, "config/a.toml:14".into()),
            (Unclassified, "config/b.toml:9".into())
        ]
    );
}

/// (w42) A bold "points found" line in Portuguese names the list under it, as "**Findings**"
/// does: each item is a finding.
#[test]
fn points_found_in_other_languages_open_a_list_of_findings() {
    let text = "**Pontos encontrados**\n\n1. Cliente HTTP sem timeout — `cmd/main.go`, linha 33\n\
   Severidade: média\n   O cliente não define `Timeout`.\n\n\
2. Mensagem de log em dois idiomas — `cmd/main.go`, linha 90\n   Severidade: baixa\n\n\
Nada que impeça o merge.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P2, "cmd/main.go:33".into()), (P3, "cmd/main.go:90".into())]
    );
}

#[test]
fn a_table_rated_by_level_finds_its_finding_in_the_longest_other_cell() {
    // No column is named for the finding: the result column holds it, and rows whose result
    // or level is a pass mark are checks.
    let text = "| # | Area | Result | Severity | Location |\n|---|---|---|---|---|\n\
| 1 | TTL | ✅ five minutes, bounded | — | — |\n\
| 2 | Cache key | 🔴 Built from the dashboard id only; the tenant is missing | P0 | `dash/cache.py:38` |\n\
| 3 | Naming | `_k` could say what it builds | P3 | `dash/cache.py:12` |\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P0, "dash/cache.py:38".to_string()),
            (P3, "dash/cache.py:12".to_string())
        ]
    );
    // A level cell that says the row passed (`✅ OK`) is a check too.
    let fr = "| # | Sévérité | Emplacement | Constat |\n|---|---|---|---|\n\
| 1 | ✅ OK | `Dockerfile` | Build multi-étapes |\n\
| 2 | 🔵 Faible | `k8s/deploy.yaml:12` | `imagePullPolicy: Always` est superflu |\n";
    assert_eq!(seen(&read_cr(fr)), [(P3, "k8s/deploy.yaml:12".to_string())]);
}

#[test]
fn a_breaking_changes_table_raises_the_rows_with_an_impact() {
    // `none` in the level column is no finding; a level opening an explanation is the level.
    let text = "| Breaking change | Used here? | Where | Impact |\n|---|---|---|---|\n\
| Node 18 dropped | No | CI runs Node 20 | none |\n\
| Default exports removed | Yes | `web/lib/dates.ts:3` | **Critical**: the import no longer resolves, so the build fails |\n\
| Time zones moved out | Yes | `web/lib/sched.ts:18` | **Medium**: two copies get installed |\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (P0, "web/lib/dates.ts:3".to_string()),
            (P2, "web/lib/sched.ts:18".to_string())
        ]
    );
}

#[test]
fn a_check_table_takes_its_level_from_the_result_column() {
    // No level column: the result cell gives it; the comment is the body, and its line is a
    // line of the one file the answer names.
    let text =
        "Проверил `scripts/rotate.sh`.\n\n| Проверка | Результат | Комментарий |\n|---|---|---|\n\
| `set -euo pipefail` | ✅ ок | есть в начале |\n\
| Удаление архивов | 🔴 Критично | строка 23: пустой `$OLD` удаляет весь каталог |\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P0, "scripts/rotate.sh:23".to_string())]
    );
}

#[test]
fn a_matrix_of_risks_with_no_place_raises_nothing() {
    // Rated by level, but no column places a row: the risks the reviewer weighed, not findings.
    let text = "## Risks\n\n| Risk | Level | Why it's acceptable |\n|---|---|---|\n\
| A query uses the raw manager and shows deleted rows | Low | `test_no_leaks` walks every endpoint |\n\
| Migration on a large table | Low | Nullable column, no default, no rewrite |\n\n\
LGTM, approve.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}
