//! Reviews that quote the code (blind set w63): quoted hunks, suggestion blocks and the words
//! around them. One rule each, in answers written for these tests.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity::*;

#[test]
fn an_approval_that_quotes_what_it_liked_raises_nothing() {
    let text = "**mhart** approved these changes\n\n> +    with db.atomic():\n> +        \
                db.run(PURGE)\n> +        db.run(MARK)\n\nBoth writes share a transaction \
                now, so a crash between them can't leave the mark behind. LGTM.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn an_inline_comment_that_ends_on_praise_in_another_language_raises_nothing() {
    let comment = |last: &str| {
        format!(
            "Patch Set 2: Code-Review+1\n\nFile src/lock.py:\n\nPS2, Line 30:     with \
             self._guard:\n이 락 덕분에 이전 주석이 사라졌네요. 테스트도 확인했습니다. \
             {last}\n"
        )
    };
    assert!(approves(&comment("좋습니다.")));
    // (The same closing in the other languages of the table.)
    for closing in [
        "很好。",
        "いいですね。",
        "Perfetto.",
        "Très bien.",
        "Muy bien.",
        "Отлично.",
    ] {
        assert!(approves(&comment(closing)), "{closing}");
    }
    // "It would be good to add a test" asks for a change: not a sentence of praise alone.
    let asks = read_cr(&comment("타임아웃 테스트도 추가하면 좋습니다."));
    assert_eq!(seen(&asks), [(Unclassified, "src/lock.py:30".into())]);
}

#[test]
fn the_reviewers_name_over_each_thread_is_a_byline_and_a_hunk_said_fine_is_no_finding() {
    let text = "**kvale** requested changes on May 2\n\n---\n\nsrc/db/init.sql:3\n```diff\n+ALTER \
                TABLE jobs ADD COLUMN lane text;\n```\n**kvale**:\nThis part is fine, the \
                default comes first. Just confirming I read it.\n\n---\n\nsrc/db/init.sql:9\n\
                ```diff\n+CREATE INDEX jobs_lane ON jobs (lane);\n```\n**kvale**:\n**must \
                fix**: this index build blocks writes on a large table; build it concurrently.\n";
    let r = read_cr(text);
    assert_eq!(seen(&r), [(P1, "src/db/init.sql:9".into())]);
    assert!(!r.critique.findings[0].title.contains("kvale"));
    // A hunk said fine and then turned on is a finding.
    let turned = text.replace("Just confirming I read it.", "But the old rows stay empty.");
    assert_eq!(seen(&read_cr(&turned)).len(), 2);
    // A bold word alone that no state line named is a label, not a byline.
    let states = super::hosts::review_states(
        "**kvale** approved these changes\n**kvale**:\n**Backfill**:\n",
    );
    assert_eq!(states, "approved these changes.\n\n**Backfill**:");
}

#[test]
fn a_remark_that_asks_for_no_change_in_this_pr_is_no_finding() {
    let thread = |said: &str| {
        format!(
            "src/keys.ts:20\n```diff\n+  private key(id: string) {{\n```\n\nThis helper is \
             fine, just noting that `get` does not use it yet. {said}\n\n---\n\nsrc/keys.ts:31\n\
             ```diff\n+  return raw;\n```\n\nnit: name it `decoded`.\n"
        )
    };
    let r = read_cr(&thread("Not asking for a change in this PR."));
    assert_eq!(seen(&r), [(P3, "src/keys.ts:31".into())]);
    assert_eq!(seen(&read_cr(&thread("Please switch it over."))).len(), 2);
}

#[test]
fn a_comment_on_lines_after_a_copied_overview_is_a_finding_and_its_byline_no_title() {
    let page = "Copilot AI reviewed Oct 7, 2025\n\n## Pull Request Overview\n\nAdds a flag.\n\n\
                ### Reviewed Changes\n\nCopilot reviewed 2 out of 2 changed files in this pull \
                request and generated 1 comment.\n\nsrc/cli.rs\nComment on lines +40 to +41\n\n\
                \x20       let n = args.next().unwrap();\n\nCopilot AI  Oct 7, 2025\n\n`unwrap()` \
                panics when no argument is given; CI runs it that way.\n";
    let r = read_cr(page);
    assert_eq!(seen(&r), [(Unclassified, "src/cli.rs:40-41".into())]);
    assert!(r.critique.findings[0].title.starts_with("unwrap() panics"));
    // The overview alone raises nothing.
    let overview = &page[..page.find("src/cli.rs").unwrap()];
    assert!(read_cr(overview).critique.findings.is_empty());
}

#[test]
fn a_level_on_the_whole_change_that_points_at_its_one_inline_comment_rates_that_comment() {
    let mail = |pointer: &str| {
        format!(
            "Patch Set 3: Code-Review-2\n\n(2 comments)\n\nPatchset:\n\nPS3: \n-2 until the bound \
             check is back. This is a blocker for me; {pointer}\n\n\nFile src/ring.c:\n\n\
             https://review.example.org/c/ring/+/7/comment/ab12_cd34/ \nPS3, Line 40: \t\
             memcpy(dst, src, n);\nWith the check gone, a long frame writes past dst.\n"
        )
    };
    assert_eq!(
        seen(&read_cr(&mail("details inline."))),
        [(P0, "src/ring.c:40".into())]
    );
    // Without the pointer, the two comments are two findings.
    assert_eq!(
        seen(&read_cr(&mail("the fuzzer should run in CI."))).len(),
        2
    );
}
#[test]
fn a_numbered_place_with_its_quote_and_words_indented_under_it_is_a_finding() {
    let text = "Notes only, no levels.\n\n1. `jobs/cron.go:88`\n\n   ```go\n   next := \
                s.Next(time.Now())\n   ```\n\n   Local time here, but the schedules are stored in \
                UTC.\n\n2. `jobs/cron.go:112`\n   Every restart runs new jobs at once. Intended?\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Unclassified, "jobs/cron.go:88".into()),
            (Unclassified, "jobs/cron.go:112".into())
        ]
    );
    assert!(r.critique.findings[0].title.starts_with("Local time here"));
    // A place that groups the items nested in it is still their group, not one more finding.
    let grouped = "- `jobs/cron.go`\n  Two things in this file.\n  - line 88: local time, stored UTC.\n  - line 112: runs at \
                   once after a restart.\n";
    assert_eq!(read_cr(grouped).critique.findings.len(), 2);
    // Nor is one with only a link after it (a bot's "other locations" and its button).
    let other = "**jobs/cron.go:88**\n\nLocal time here, stored UTC.\n\n**Severity: low**\n\n\
                 <details open>\n<summary>Other Locations</summary>\n\n- `jobs/cron.go:120`\n\
                 </details>\n\n[![Fix This in Bot](https://bot.example/fix.svg)](https://bot.\
                 example/fix)\n";
    assert_eq!(seen(&read_cr(other)), [(P3, "jobs/cron.go:88".into())]);
}

#[test]
fn a_notification_mail_places_its_comment_at_the_last_line_of_the_quoted_hunk() {
    let mail = "@ana commented on this pull request.\n\nIn docs/setup.md:\n\n> @@ -10,4 +10,6 @@ \
                Install\n \n ## Checks\n-Old line.\n+\n+Set `STRICT=1` to stop on a FATAL error.\n\
                \nnit: say which exit code it stops with.\n\n—\nReply to this email directly, \
                view it on GitHub.\n";
    let r = read_cr(mail);
    assert_eq!(seen(&r), [(P3, "docs/setup.md:13".into())]);
    // The quoted code's words are not the reviewer's: a hunk with no comment raises nothing.
    let quiet = &mail[..mail.find("nit:").unwrap()];
    assert!(read_cr(quiet).critique.findings.is_empty());
}

#[test]
fn an_overall_remark_that_sends_the_reader_to_its_inline_comment_is_that_comment() {
    let text = "### Overall Comments\n- The token cache in `Session.load` is keyed by user only, \
                so a revoked token keeps working until restart (see inline comment).\n\n\
                ## Individual Comments\n\n### Comment 1\n<location> `app/session.py:42` \
                </location>\n\n**issue (bug_risk):** A revoked token keeps working.\n\nThe cache \
                key ignores the revocation list, so a token revoked while the server runs stays \
                valid until restart.\n\n### Comment 2\n<location> `app/session.py:51` \
                </location>\n\n**nitpick:** This warning runs on every load.\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [
            (Unclassified, "app/session.py:42".into()),
            (P3, "app/session.py:51".into())
        ]
    );
    // Without the pointer, the overall remark stands as said.
    let said = text.replace(" (see inline comment)", "");
    assert_eq!(read_cr(&said).critique.findings.len(), 3);
    // Nor when two inline comments say it as much: which one it repeats is not known.
    let twice = text.replace(
        "**nitpick:** This warning runs on every load.",
        "**issue:** The token cache keeps a revoked token working until restart on replicas.",
    );
    assert_eq!(read_cr(&twice).critique.findings.len(), 3);
}

#[test]
fn a_blocker_in_the_prose_rates_only_the_json_finding_it_names_at_a_shared_line() {
    let text = "## P1 - Must Fix\n\n- **The MIME type comes from the client** — `web/up.ts:27` — \
                the header the browser sends is trusted, so a renamed HTML file is served as an \
                image.\n\n## P3 - Nice to Have\n\n- **FIXME comment left in** — `web/up.ts:27` — \
                remove it.\n\n```json\n{\"verdict\": \"revise\", \"summary\": \"s\", \"findings\": \
                [{\"severity\": \"P2\", \"title\": \"The MIME type comes from the client\", \
                \"file\": \"web/up.ts\", \"start_line\": 27, \"end_line\": 27, \"body\": \"b\", \
                \"action\": \"a\"}, {\"severity\": \"P3\", \"title\": \"FIXME comment left in\", \
                \"file\": \"web/up.ts\", \"start_line\": 27, \"end_line\": 27, \"body\": \"b\", \
                \"action\": \"a\"}]}\n```\n";
    let r = read_cr(text);
    assert_eq!(
        seen(&r),
        [(P1, "web/up.ts:27".into()), (P3, "web/up.ts:27".into())]
    );
}

#[test]
fn a_reply_in_a_thread_under_its_own_byline_is_a_comment_of_its_own() {
    let thread = "**Ana Ruiz** @aruiz started a thread on the diff 3 hours ago\n\nbin/ship.sh\n\n\
                  ```\n 17  17    V=$(git describe)\n     18 +  echo \"ERROR: $V\" >&2\n```\n\n\
                  Nit: line 18 prints progress as an error.\n\n**Ana Ruiz** @aruiz · 3 hours \
                  ago\n\nOne more: in `bin/ship.sh`, line 31, `rm -rf out/*` needs a `--`. This \
                  is minor.\n";
    assert_eq!(
        seen(&read_cr(thread)),
        [(P3, "bin/ship.sh:18".into()), (P2, "bin/ship.sh:31".into())]
    );
}

#[test]
fn a_name_and_a_date_is_a_byline_only_as_a_code_host_prints_one() {
    let out = super::hosts::without_bylines("Copilot AI  Oct 7, 2025\nrenovate  Mar 2\nnote\n");
    assert_eq!(out.trim(), "note");
    // A line of the answer's own that happens to be a word and a date stays.
    let kept = super::hosts::without_bylines("Released May 5\nThe cache is off.\n");
    assert!(kept.contains("Released May 5"), "{kept}");
}
