//! The round's letter in auto mode: the judge's letter heard next to the rubric's.
//!
//! The rubric ([`crate::answer::judge::rubric`]) reads the rulings; the judge also recommends a
//! letter. Which wins:
//!
//! | judge's letter | final |
//! | --- | --- |
//! | E (stop) or D (rebut and continue) | the judge's, whatever the rubric says |
//! | C (compromise) | the judge's: a compromise is never turned into B |
//! | B (accept the reviewer's version) | the judge's, unless the rubric says D (a P1 without an action, a finding of unknown severity or missing context: the reviewer must speak first) |
//! | A (keep) | the rubric's: the rubric may raise the stakes (never A with a valid P1 standing) |
//! | none, or unreadable | the rubric's |
//!
//! Then, whoever chose it, A does not stop the loop while a P0/P1 finding the judge disputed
//! stands and rounds remain: it becomes D, and the disputed findings go back to the reviewer,
//! who alone withdraws them.

/// The final letter, whose it is (`judge`, `rubric` or `disputes`), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub letter: char,
    pub from: &'static str,
    pub reason: String,
}

/// The letter of a round: the rubric's `(letter, reason)`, the judge's letter if it gave one,
/// how many P0/P1 findings the judge disputed, and whether a round remains after this one.
pub fn choose(
    rubric: (char, &str),
    judge: Option<char>,
    disputed_blockers: usize,
    rounds_left: bool,
) -> Choice {
    let (r, why) = rubric;
    let heard = match judge {
        Some(l @ ('B' | 'C' | 'D' | 'E')) if !(l == 'B' && r == 'D') => Choice {
            letter: l,
            from: "judge",
            reason: if l == r {
                format!("the judge and the rubric agree ({why})")
            } else {
                format!("the judge's {l} is honoured (the rubric said {r}: {why})")
            },
        },
        Some('B') => Choice {
            letter: 'D',
            from: "rubric",
            reason: format!("the rubric's D before the judge's B: {why}"),
        },
        Some('A') if r == 'A' => Choice {
            letter: 'A',
            from: "judge",
            reason: format!("the judge and the rubric agree ({why})"),
        },
        Some('A') => Choice {
            letter: r,
            from: "rubric",
            reason: format!("the rubric raises the judge's A to {r}: {why}"),
        },
        _ => Choice {
            letter: r,
            from: "rubric",
            reason: why.to_string(),
        },
    };
    if heard.letter == 'A' && disputed_blockers > 0 && rounds_left {
        return Choice {
            letter: 'D',
            from: "disputes",
            reason: format!(
                "{disputed_blockers} P0/P1 finding(s) the judge disputed go back to the reviewer, \
                 who alone withdraws them (instead of A: {})",
                heard.reason
            ),
        };
    }
    heard
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(rubric: char, judge: Option<char>) -> char {
        choose((rubric, "why"), judge, 0, true).letter
    }

    #[test]
    fn the_judge_is_heard_and_the_rubric_raises_the_stakes() {
        // E and D are honoured whatever the rubric says; C is never turned into B.
        for r in ['A', 'B', 'C', 'D'] {
            assert_eq!(letter(r, Some('E')), 'E');
            assert_eq!(letter(r, Some('D')), 'D');
            assert_eq!(letter(r, Some('C')), 'C');
        }
        // B waits while the rubric needs the reviewer to speak (D).
        assert_eq!(letter('A', Some('B')), 'B');
        assert_eq!(letter('C', Some('B')), 'B');
        assert_eq!(letter('D', Some('B')), 'D');
        // A stands only where the rubric says A.
        assert_eq!(letter('B', Some('A')), 'B');
        assert_eq!(letter('C', Some('A')), 'C');
        assert_eq!(letter('A', Some('A')), 'A');
        assert_eq!(letter('C', None), 'C');
        let c = choose(('B', "a valid P1"), Some('C'), 0, true);
        assert_eq!((c.letter, c.from), ('C', "judge"));
        assert!(c.reason.contains("the rubric said B"), "{}", c.reason);
    }

    #[test]
    fn a_disputed_blocker_keeps_the_loop_going_while_rounds_remain() {
        let c = choose(('A', "nothing valid"), Some('A'), 2, true);
        assert_eq!((c.letter, c.from), ('D', "disputes"));
        assert_eq!(choose(('A', "x"), Some('A'), 2, false).letter, 'A');
        // The judge's E still stops.
        assert_eq!(choose(('A', "x"), Some('E'), 2, true).letter, 'E');
    }
}
