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
    // "It would be good to add a test" asks for a change: not a sentence of praise alone.
    let asks = read_cr(&comment("타임아웃 테스트도 추가하면 좋습니다."));
    assert_eq!(seen(&asks), [(Unclassified, "src/lock.py:30".into())]);
}
