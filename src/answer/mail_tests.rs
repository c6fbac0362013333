//! Reviews that arrive as mail (blind set w52): replies under a quoted patch, review tools'
//! mails, and the words such reviews use to approve, clear a worry or drop an issue. One rule
//! each, in answers written for these tests.

use super::layout_tests::{approves, read_cr, seen};
use crate::findings::Severity::*;

#[test]
fn a_nak_under_a_quoted_hunk_is_placed_there_and_a_quoted_bug_on_raises_nothing() {
    let text = "On Tue, Mar 11, 2025, Ana wrote:\n> The old code hit BUG_ON() under load; this \
patch is critical.\n>\n> --- a/drv/rx.c\n> +++ b/drv/rx.c\n> @@ -530,7 +533,9 @@ static int isr(void)\n\
>  \tif (status) {\n> +\t\tspin_unlock(&ring->lock);\n> +\t\tack(ring);\n\n\
This is a blocker: the ack races the poll loop on another CPU.\n\nTomasz\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P0, "drv/rx.c:533-535".into())],
        "{text}"
    );
    // Quoted alone, the same words are the author's: a reply that signs off approves.
    let quoted_only = "On Tue, Mar 11, 2025, Ana wrote:\n> The old code hit BUG_ON() under \
load; this is a critical fix.\n\nLooks good.\n\nReviewed-by: Tomasz W <tw@example.org>\n";
    assert!(approves(quoted_only), "{:?}", seen(&read_cr(quoted_only)));
}

#[test]
fn a_review_tools_mail_frame_sign_off_and_quoted_request_are_not_points() {
    let text = "-----------------------------------------------------------\n\
This is an automatically generated e-mail. To reply, visit:\nhttps://rb.example.org/r/5/#review9\n\
-----------------------------------------------------------\n\nShip it!\n\n\n\
> On March 6th, Mark Osei wrote:\n> > Doesn't this leak the file handle when the write raises?\n\
>\n> On March 6th, Ingrid Solberg wrote:\n>     No, the `with` block closes it.\n\n\
You're right, I missed the `with`. Dropping the issue.\n\n\n- Mark Osei\n\n\n\
On March 6th, Ingrid Solberg wrote:\n> Review request: fixes a critical crash in the export.\n";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn no_issues_at_any_severity_a_first_thought_ruled_out_and_a_scope_sentence_raise_nothing() {
    for text in [
        "I read through the change and the surrounding panic path.\n\nNo issues at any severity.\n\n\
Reviewed-by: C F <cf@example.org>",
        "My first thought was that an old stream could still carry a bad index and crash later, \
but the post-load hook already rejects it.\n\nReviewed-by: C F <cf@example.org>",
    ] {
        assert!(approves(text), "{text}: {:?}", seen(&read_cr(text)));
    }
    // A scope sentence that goes on to what was found is a point.
    assert!(!approves(
        "I read through the change and found a panic on empty input.\n\nOtherwise fine."
    ));
}

#[test]
fn a_comment_indented_under_its_place_is_read_and_indented_code_stays_code() {
    // Azure DevOps's page as the blind set w52 holds it: each comment four spaces in.
    let text = include_str!(
        "../../tests/fixtures/answers/tuned/holdout-w52/azure-devops/approved-with-suggestions-must-fix-thread.md"
    );
    let found = seen(&read_cr(text));
    assert_eq!(
        found.first(),
        Some(&(P1, "src/Ingest/BlobUploader.cs:57".into())),
        "{found:?}"
    );
    // Indented lines that end the way code does are code, whatever words they hold.
    let code = "The guard below is what this change adds:\n\n    if (len == 0) {\n\
        panic(\"critical: empty buffer\");\n    }\n\nLooks good to me.\n";
    let prepared = crate::answer::prepare::prepare(code);
    assert!(prepared.contains("\n    if (len == 0) {\n"), "{prepared}");
}

#[test]
fn a_scope_sentence_is_no_block_of_its_own_an_issue_dropped_is_withdrawn() {
    let text = "I read through the handler and the panic path around it.\n\n\
The unwrap in `src/a.rs` line 12 panics on an empty body.";
    assert_eq!(
        super::layout_tests::raw_levels(text),
        [(Unclassified, "src/a.rs:12".into())]
    );
    let dropped =
        "`src/export/writer.py` line 44: doesn't this leak the file handle when the write \
raises? You're right, the `with` closes it. Dropping the issue.\n\nShip it!";
    assert!(approves(dropped), "{:?}", seen(&read_cr(dropped)));
}

#[test]
fn no_issues_at_any_severity_clears_the_lines_an_approval_cites() {
    let text = "I checked `src/a.rs` line 12: the guard handles the empty case.\n\n\
No issues at any severity. Approved.";
    assert!(approves(text), "{:?}", seen(&read_cr(text)));
}

#[test]
fn a_phabricator_mail_s_footer_sections_are_no_points() {
    let text = "lkoch added a comment.\n\n\
  The retry budget is never reset after a success, so a long-lived worker stops retrying \
after its first ten failures.\n\n\
REPOSITORY\n  rINF Infra\n\nREVISION DETAIL\n  https://phab.example.org/D812\n\n\
BRANCH\n  retry-budget\n\nEMAIL PREFERENCES\n  https://phab.example.org/settings/panel/emailpreferences/\n\n\
To: lkoch, dvance\nCc: infra-reviewers\n";
    assert_eq!(
        super::layout_tests::raw_levels(text),
        [(Unclassified, "-".into())],
        "{text}"
    );
}

#[test]
fn a_gerrit_mail_places_each_comment_under_its_file_and_drops_its_chrome_and_thanks() {
    let text = "Attention is currently required from: Rui Costa.\n\n\
Ilse Berg has posted comments on this change by Rui Costa. ( https://gerrit.example.org/c/queue/+/4471?usp=email )\n\n\
Change subject: queue: retry failed jobs\n\
......................................................................\n\n\n\
Patch Set 3: Code-Review-1\n\n(3 comments)\n\n\
File src/queue/retry.py:\n\n\
https://gerrit.example.org/c/queue/+/4471/comment/9a1c_40/ \n\
PS3, Line 40: delay = base * 2 ** attempt\n\
The delay has no ceiling, so a job that failed forty times waits for centuries.\n\n\
https://gerrit.example.org/c/queue/+/4471/comment/9a1c_12/ \n\
PS2, Line 12: BASE = 0.5\n> Moved it to the settings file.\nThanks!\n\n\n\
File src/queue/worker.py:\n\n\
https://gerrit.example.org/c/queue/+/4471/comment/9a1c_88/ \n\
PS3, Line 88: self.pending.remove(job)\n\
If schedule() raises after this, the job is lost from both lists.\n\n\
-- \nTo view, visit https://gerrit.example.org/c/queue/+/4471?usp=email\n\
To unsubscribe, or for help writing mail filters, visit https://gerrit.example.org/settings?usp=email\n\n\
Gerrit-MessageType: comment\nGerrit-Project: queue\nGerrit-Change-Number: 4471\n\
Gerrit-Owner: Rui Costa <rui@example.org>\nGerrit-HasComments: Yes\n";
    assert_eq!(
        seen(&read_cr(text)),
        [
            (Unclassified, "src/queue/retry.py:40".into()),
            (Unclassified, "src/queue/worker.py:88".into()),
        ],
        "{text}"
    );
}

#[test]
fn a_level_field_that_opens_a_comment_rates_it_however_long_the_comment() {
    let text = "File src/lager/Bestand.java:\n\n\
https://gerrit.example.org/c/lager/+/88/comment/d4_57/ \n\
PS4, Line 57: bestand.setMenge(bestand.getMenge() - menge);\n\
Schweregrad: hoch. Hier fehlt die Sperre bzw. die Versionsprüfung (@Version oder SELECT ... FOR \
UPDATE): zwei parallele Buchungen lesen denselben Bestand, und die zweite überschreibt die erste. \
Am Ende stimmt der Lagerbestand nicht mehr.\n";
    assert_eq!(
        seen(&read_cr(text)),
        [(P1, "src/lager/Bestand.java:57".into())],
        "{text}"
    );
}

#[test]
fn every_comment_of_the_gerrit_mails_in_w52_is_at_its_file_and_line() {
    // Gerrit's mail links each comment (`/comment/b812_27/`), not its file: the file is the
    // `File path:` line above. Read from the set's own mails.
    macro_rules! mail {
        ($name:literal) => {
            (
                include_str!(concat!(
                    "../../tests/fixtures/answers/tuned/holdout-w52/gerrit/",
                    $name,
                    ".md"
                )),
                include_str!(concat!(
                    "../../tests/fixtures/answers/tuned/holdout-w52/gerrit/",
                    $name,
                    ".expected.json"
                )),
            )
        };
    }
    for (text, expected) in [
        mail!("minus1-unrated-comments"),
        mail!("de-muss-behoben-werden"),
        mail!("ko-plus1-minor-nit"),
        mail!("minus2-single-comment"),
        mail!("plus1-with-unresolved-must-fix"),
        mail!("plus2-with-nit"),
    ] {
        let want: serde_json::Value = serde_json::from_str(expected).unwrap();
        let want: Vec<String> = want["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| format!("{}:{}", f["file"].as_str().unwrap_or("-"), f["line"]))
            .collect();
        let got: Vec<String> = read_cr(text)
            .critique
            .findings
            .iter()
            .map(|f| {
                let l = f.location.as_ref();
                format!(
                    "{}:{}",
                    l.map_or("-", |l| l.path.as_str()),
                    l.and_then(|l| l.start_line)
                        .map_or("null".to_string(), |n| n.to_string())
                )
            })
            .collect();
        assert_eq!(got, want, "{text}");
    }
}
