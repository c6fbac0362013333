//! The findings an earlier review left open, carried to the new head: where each points now, and
//! the status it ends the new review with.
//!
//! A carried finding is re-anchored by the code around it, not its line number: the hash of the
//! lines around the cited line at the old head ([`crate::review::matching::window_hash`], the same
//! hash round-to-round matching uses) is looked for in the file at the new head, nearest the old
//! line first; failing that, the cited line itself (when it says enough to be told apart). When
//! neither is there the code is gone and the finding is `outdated` — shown, never closed quietly.
//! The reviewer's word (fixed / open / not applicable) is untrusted: silence keeps a finding open
//! (or outdated, when its code is gone), and only an explicit, uncontradicted "fixed" closes one.

use serde::{Deserialize, Serialize};

use crate::answer::vocab::Carried;
use crate::findings::Finding;
use crate::review::matching::{window_hash, window_hash_of};
pub use crate::store::incremental::{Anchoring, Carry};

/// How a carried finding ends the new review.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Still to be addressed: counted by the gate like a new finding.
    Open,
    Fixed,
    /// Its code is gone, or the reviewer says it no longer applies.
    Outdated,
}

impl Status {
    pub fn label(self) -> &'static str {
        match self {
            Status::Open => "carried-open",
            Status::Fixed => "fixed",
            Status::Outdated => "outdated",
        }
    }
}

/// Follows line `line` (from 1) of `old` (the file at the old head) into `new` (the file at the
/// new head, `None` when it is gone).
pub fn reanchor(old: Option<&str>, new: Option<&str>, line: usize) -> Anchoring {
    let Some(new) = new else {
        return Anchoring::Gone {
            why: "its file is gone".into(),
        };
    };
    let Some(old) = old.filter(|o| line >= 1 && line <= o.lines().count()) else {
        return Anchoring::Unplaced;
    };
    let found = |j: usize| {
        if j == line {
            Anchoring::Same { line }
        } else {
            Anchoring::Moved { from: line, to: j }
        }
    };
    let lines: Vec<&str> = new.lines().collect();
    // Nearest the old line first, so the usual case (nothing or little moved) stops at once.
    let nearest = |hit: &dyn Fn(usize) -> bool| {
        (0..=lines.len().max(line))
            .flat_map(|d| [line.checked_sub(d), (d > 0).then_some(line + d)])
            .flatten()
            .find(|&j| j >= 1 && j <= lines.len() && hit(j))
    };
    let hash = window_hash(old, line);
    if let Some(j) = nearest(&|j| hash.is_some() && window_hash_of(&lines, j) == hash) {
        return found(j);
    }
    let squash = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    let cited = squash(old.lines().nth(line - 1).unwrap_or_default());
    // A line such as `}` or `return x;` is everywhere; only one that says enough is followed.
    let telling = cited.chars().filter(|c| c.is_alphanumeric()).count() >= 8;
    let by_line = nearest(&|j| telling && squash(lines[j - 1]) == cited);
    match by_line {
        Some(j) => found(j),
        None => Anchoring::Gone {
            why: "the code it pointed at is gone".into(),
        },
    }
}

/// The status a carried finding ends with, and why. `said`: the reviewer's word about it (none
/// when it said nothing, or said contradictory things: `ambiguous`); `raised_again`: the reviewer
/// raised it again as a finding of this review, and it stands.
pub fn decide(
    anchoring: &Anchoring,
    said: Option<Carried>,
    ambiguous: bool,
    raised_again: bool,
) -> (Status, String) {
    let word = match said {
        Some(Carried::Fixed) => "fixed",
        Some(Carried::Open) => "still open",
        Some(Carried::NotApplicable) => "no longer applicable",
        None => "",
    };
    if raised_again {
        return (Status::Open, "the reviewer raised it again".into());
    }
    if let Anchoring::Gone { why } = anchoring {
        // The code changed and the reviewer, asked, says that was the fix: fixed. Otherwise a
        // finding whose code is gone is outdated, whatever else was said.
        return match said {
            Some(Carried::Fixed) if !ambiguous => (
                Status::Fixed,
                format!("the reviewer says it is fixed ({why})"),
            ),
            _ if word.is_empty() => (Status::Outdated, why.clone()),
            _ => (
                Status::Outdated,
                format!("{why} (the reviewer says: {word})"),
            ),
        };
    }
    match said {
        _ if ambiguous => (
            Status::Open,
            "the reviewer gave it contradictory statuses; it stays open".into(),
        ),
        Some(Carried::Fixed) => (Status::Fixed, "the reviewer says it is fixed".into()),
        Some(Carried::NotApplicable) => (
            Status::Outdated,
            "the reviewer says it no longer applies".into(),
        ),
        Some(Carried::Open) => (Status::Open, "the reviewer says it is still open".into()),
        None => (
            Status::Open,
            "the reviewer said nothing about it; it stays open".into(),
        ),
    }
}

/// The finding with its location moved to where `anchoring` found its code.
pub fn moved(mut f: Finding, anchoring: &Anchoring, path: &str) -> Finding {
    if let (Anchoring::Moved { from, to }, Some(loc)) = (anchoring, f.location.as_mut()) {
        let shift = *to as i64 - *from as i64;
        let at = |n: u32| (n as i64 + shift).max(1) as u32;
        loc.start_line = loc.start_line.map(at);
        loc.end_line = loc.end_line.map(at);
    }
    if let Some(loc) = f.location.as_mut() {
        loc.path = path.to_string();
        loc.check = None;
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::Location;

    const OLD: &str =
        "fn a() {}\nfn parse(s: &str) -> u32 {\n    s.parse().unwrap()\n}\nfn b() {}\n";

    #[test]
    fn code_that_stayed_or_moved_is_followed_and_gone_code_is_outdated() {
        assert_eq!(
            reanchor(Some(OLD), Some(OLD), 3),
            Anchoring::Same { line: 3 }
        );
        let shifted = format!("// one\n// two\n{OLD}");
        assert_eq!(
            reanchor(Some(OLD), Some(&shifted), 3),
            Anchoring::Moved { from: 3, to: 5 }
        );
        // The lines around it changed, the cited line did not.
        let around = "use x;\nfn parse(s: &str) -> Result<u32, E> {\n    s.parse().unwrap()\n    // todo\n}\n";
        assert_eq!(
            reanchor(Some(OLD), Some(around), 3),
            Anchoring::Same { line: 3 }
        );
        let fixed =
            "fn a() {}\nfn parse(s: &str) -> Option<u32> {\n    s.parse().ok()\n}\nfn b() {}\n";
        assert!(matches!(
            reanchor(Some(OLD), Some(fixed), 3),
            Anchoring::Gone { .. }
        ));
        assert!(matches!(
            reanchor(Some(OLD), None, 3),
            Anchoring::Gone { .. }
        ));
        assert_eq!(reanchor(Some(OLD), Some(OLD), 99), Anchoring::Unplaced);
        // `}` is everywhere: not followed by itself.
        let other = "fn c() {\n}\n";
        assert!(matches!(
            reanchor(Some(OLD), Some(other), 4),
            Anchoring::Gone { .. }
        ));
    }

    #[test]
    fn the_reviewers_word_and_the_code_decide_and_silence_never_closes_a_finding() {
        let here = Anchoring::Same { line: 3 };
        let gone = Anchoring::Gone {
            why: "the code it pointed at is gone".into(),
        };
        assert_eq!(
            decide(&here, Some(Carried::Fixed), false, false).0,
            Status::Fixed
        );
        assert_eq!(
            decide(&here, Some(Carried::Open), false, false).0,
            Status::Open
        );
        assert_eq!(
            decide(&here, Some(Carried::NotApplicable), false, false).0,
            Status::Outdated
        );
        let (st, why) = decide(&here, None, false, false);
        assert_eq!(st, Status::Open);
        assert!(why.contains("said nothing"), "{why}");
        assert_eq!(decide(&here, None, true, false).0, Status::Open);
        // Gone code is outdated unless the reviewer says that was the fix.
        let (st, why) = decide(&gone, None, false, false);
        assert_eq!(st, Status::Outdated);
        assert!(why.contains("gone"), "{why}");
        let (st, why) = decide(&gone, Some(Carried::Open), false, false);
        assert_eq!(st, Status::Outdated);
        assert!(why.contains("still open"), "{why}");
        assert_eq!(
            decide(&gone, Some(Carried::Fixed), false, false).0,
            Status::Fixed
        );
        assert_eq!(
            decide(&gone, Some(Carried::Fixed), true, false).0,
            Status::Outdated
        );
        // Raised again: open, whatever it said.
        assert_eq!(
            decide(&here, Some(Carried::Fixed), false, true).0,
            Status::Open
        );
    }

    #[test]
    fn a_moved_finding_points_at_its_new_lines() {
        let mut f = Finding::new(crate::findings::Severity::P1, "unwrap panics");
        f.location = Some(Location::new("a.rs", Some(3), Some(4)));
        let f = moved(f, &Anchoring::Moved { from: 3, to: 7 }, "b.rs");
        let l = f.location.unwrap();
        assert_eq!(
            (l.path.as_str(), l.start_line, l.end_line),
            ("b.rs", Some(7), Some(8))
        );
    }
}
