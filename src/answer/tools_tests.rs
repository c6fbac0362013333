//! Reviews that carry tool output (blind set w62): a code-scanning alert as GitHub posts it on a
//! line, its chrome no section and its level after its bold title. One rule each, in answers
//! written for these tests.

use super::layout_tests::{read_cr, seen};
use crate::findings::Severity::*;

#[test]
fn a_code_scanning_alert_keeps_the_place_it_was_posted_at_and_its_level() {
    let alert = "**api/export.py**\n\nComment on line +27\n\n> ## Check failure\n>\n> **Code \
scanning / Semgrep OSS**\n>\n> **Formatted SQL query built from request data** High\n>\n> The \
query string includes `request.args`.\n";
    let r = read_cr(alert);
    assert_eq!(seen(&r), [(P1, "api/export.py:27".into())]);
    assert_eq!(
        r.critique.findings[0].title,
        "Formatted SQL query built from request data"
    );
    // A warning and a notice, unquoted.
    let lower = alert
        .replace("> ## Check failure", "## Check notice")
        .replace("** High", "** Note");
    assert_eq!(seen(&read_cr(&lower)), [(P3, "api/export.py:27".into())]);
}

#[test]
fn a_level_alone_after_a_bold_title_rates_it() {
    let text =
        "**Session cookie without the Secure flag** Medium\n\nSet on every login response.\n";
    assert_eq!(seen(&read_cr(text)), [(P2, "-".into())]);
    // Words after the bold title are its sentence, not a level.
    let lead = crate::answer::markers::read_lead("**Session cookie** is set on login");
    assert_eq!(lead.severity, None);
}

#[test]
fn a_row_of_tags_after_a_bold_title_rates_it_by_its_level_tag() {
    let text = "**app/files.py**, line 12\n\n> **Path built from request data** `PY-S0101` · 🔴 \
                Critical · Security\n>\n> The name is joined onto the root unchecked.\n";
    assert_eq!(seen(&read_cr(text)), [(P0, "app/files.py:12".into())]);
    // An id and a category alone rate nothing; a row of several levels is a legend.
    let unrated = text.replace("🔴 Critical · ", "");
    assert_eq!(seen(&read_cr(&unrated))[0].0, Unclassified);
    let lead = crate::answer::markers::read_lead("**Legend:** 🔴 blocker · 🟠 high · 🔵 low");
    assert_eq!(lead.severity, None);
}
