//! What a reviewer raised, as data: findings with a severity, a location and the stage of the
//! reading pipeline that produced them, and the judge's rulings on them ([`crate::answer`] does
//! the reading, [`crate::answer::judge`] the judging).
//!
//! A finding keeps the reviewer's own words (title, body, suggested fix and the evidence text as
//! written) next to what was made of them (a severity from the vocabulary, a parsed location and
//! whether that location exists in the reviewed change), so a report can always show both.

use serde::{Deserialize, Serialize};

/// How serious a finding is. `Unclassified` is a finding whose severity nobody stated: it may be a
/// blocker, so it trips every `--fail-on` level until someone (the judge) classifies it.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
pub enum Severity {
    P0,
    P1,
    P2,
    P3,
    #[serde(rename = "unclassified")]
    Unclassified,
}

impl Severity {
    /// The level used for thresholds: P0 counts as P1; unclassified is 0, at or above every
    /// threshold, because an unknown severity may be a blocker.
    pub fn rank(self) -> u8 {
        match self {
            Severity::Unclassified => 0,
            Severity::P0 | Severity::P1 => 1,
            Severity::P2 => 2,
            Severity::P3 => 3,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Severity::P0 => "P0",
            Severity::P1 => "P1",
            Severity::P2 => "P2",
            Severity::P3 => "P3",
            Severity::Unclassified => "unclassified",
        }
    }

    /// The label for people: `severity unknown` rather than a pretend level.
    pub fn describe(self) -> &'static str {
        match self {
            Severity::Unclassified => "severity unknown",
            s => s.label(),
        }
    }
}

/// Which stage of the reading pipeline produced a finding.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The CLI enforced the protocol's JSON Schema and this is its structured field.
    Schema,
    /// The tolerant reader (a JSON block or markdown in the answer).
    #[default]
    Reader,
    /// A normaliser call restated an unreadable answer, and the finding is grounded in it.
    Normaliser,
    /// The reviewer restated its own answer in the schema (the repair turn), and the finding is
    /// grounded in its first answer.
    Repair,
    /// Nothing could structure it: a block of the raw answer, kept in full.
    Raw,
    /// The answer's verdict objects to the change but names no finding (the objection itself,
    /// kept so a "no" is never read as nothing), or the answer gives neither a verdict nor a
    /// finding (kept so a review that did not happen never passes).
    Verdict,
    /// Added by the judge.
    Judge,
    /// Found by git-debate's own check of the material, not by a model (a possible prompt
    /// injection, [`crate::injection`]).
    Detector,
}

/// Whether a finding's location exists in what was reviewed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum LocationCheck {
    /// The file is in the reviewed change and the line is inside one of its changed hunks (or,
    /// without a line, the file is part of the change).
    Verified,
    /// The file exists in the reviewed revision, but the line is outside the changed hunks (or
    /// the file is not part of the change).
    OutsideChange,
    /// No such file in the reviewed revision, or the line is past its end: kept as the
    /// reviewer's text, never sent to a code host as a position.
    NotFound,
}

/// Where a finding points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Location {
    /// Relative to the repository root with `/` separators; as written when outside it.
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_line: Option<u32>,
    /// An absolute path outside the work tree (kept, never a code-host position).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outside: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<LocationCheck>,
}

impl Location {
    pub fn new(path: &str, start: Option<u32>, end: Option<u32>) -> Location {
        let start = start.filter(|l| *l > 0);
        let end = end.filter(|e| start.is_some_and(|s| *e >= s));
        Location {
            path: path.to_string(),
            start_line: start,
            end_line: end,
            outside: false,
            check: None,
        }
    }

    /// `path`, `path:10` or `path:10-20` (`line 10` when only the line is known).
    pub fn display(&self) -> String {
        if self.path.is_empty() {
            return match (self.start_line, self.end_line) {
                (Some(s), Some(e)) if e > s => format!("line {s}-{e}"),
                (Some(s), _) => format!("line {s}"),
                _ => String::new(),
            };
        }
        match (self.start_line, self.end_line) {
            (Some(s), Some(e)) if e > s => format!("{}:{s}-{e}", self.path),
            (Some(s), _) => format!("{}:{s}", self.path),
            _ => self.path.clone(),
        }
    }

    /// Safe to give a code host as a file and line: inside the repository and checked.
    pub fn is_positional(&self) -> bool {
        !self.outside
            && !self.path.is_empty()
            && matches!(
                self.check,
                Some(LocationCheck::Verified | LocationCheck::OutsideChange)
            )
    }
}

/// One thing the reviewer (or the judge) raised.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// Stable across rounds (assigned by the loop; empty until then).
    #[serde(default)]
    pub id: String,
    pub severity: Severity,
    pub title: String,
    /// The reviewer's own evidence text (a location as written, a section, a behaviour).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub body: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// `code` or `proposal` for mixed reviews.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment: Option<String>,
    /// The chunk (from 1) whose review raised it, in a chunked review.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk: Option<u32>,
    #[serde(default)]
    pub source: Source,
    /// The code around its location (`path#hash`), set by the loop: finding identity across
    /// rounds and stable fingerprints for code hosts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub anchor: Option<String>,
    /// In a review by several reviewers, each reviewer that raised it, at its own level (the
    /// finding's `severity` is the highest of them); empty with one reviewer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub raised_by: Vec<Vote>,
}

/// One reviewer's word on a finding, in a review by several.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Vote {
    /// The backend (`codex`, `gemini`).
    pub reviewer: String,
    /// Its model family (`openai`, `google`).
    pub family: String,
    /// The level it gave.
    pub severity: Severity,
    /// Its own title, when it worded the finding otherwise than the one kept.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
}

/// Who raised a finding, for people: `codex + gemini`, `gemini only`.
pub fn agreement_text(votes: &[Vote]) -> String {
    match votes {
        [one] => format!("{} only", one.reviewer),
        _ => votes
            .iter()
            .map(|v| v.reviewer.as_str())
            .collect::<Vec<_>>()
            .join(" + "),
    }
}

impl Finding {
    /// A line of the material that reads as instructions to the reviewer, as a finding of its
    /// own: P2, so `--fail-on p2` trips on it and nothing lets it pass silently; id `I<n>`, apart
    /// from the reviewer's `F<n>`.
    pub fn injection(n: usize, found: &crate::injection::Found) -> Finding {
        let mut f = Finding::new(Severity::P2, &found.title());
        f.id = format!("I{}", n + 1);
        f.location = Some(Location::new(
            &found.path,
            Some(found.line),
            Some(found.line),
        ));
        f.body = format!(
            "This line {}. A model reviewing the change may take it as an order; whoever added \
             it may be trying to steer the review.",
            found.what
        );
        f.action = Some(
            "Read the line: remove it if it is not meant to be there, or reword it so it does \
             not speak to an AI reviewer."
                .to_string(),
        );
        f.source = Source::Detector;
        f
    }

    pub fn new(severity: Severity, title: &str) -> Finding {
        Finding {
            id: String::new(),
            severity,
            title: title.trim().to_string(),
            evidence: None,
            location: None,
            body: String::new(),
            action: None,
            segment: None,
            chunk: None,
            source: Source::Reader,
            anchor: None,
            raised_by: Vec::new(),
        }
    }

    /// Where it points, for people: the parsed location, else the reviewer's evidence text.
    pub fn where_(&self) -> Option<String> {
        where_of(self.location.as_ref(), self.evidence.as_deref())
    }
}

/// Where a finding points, for people (reports, the judge's prompt): `path:line`, said to be
/// unchecked when it was not found in the reviewed change or lies outside the repository; else
/// the reviewer's own evidence text.
pub fn where_of(location: Option<&Location>, evidence: Option<&str>) -> Option<String> {
    match location {
        Some(l) => Some(match l.check {
            Some(LocationCheck::NotFound) => {
                format!("{} (not found in the reviewed change)", l.display())
            }
            _ if l.outside => format!("{} (outside the repository)", l.display()),
            _ => l.display(),
        }),
        None => evidence.map(str::to_string),
    }
}

/// A judge's verdict on a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Valid,
    Invalid,
    MissingContext,
}

/// The judge's ruling on one finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ruling {
    pub id: String,
    pub verdict: Verdict,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub severity: Option<Severity>,
    #[serde(default)]
    pub reason: String,
}

/// A finding with the judge's ruling on it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judged {
    #[serde(flatten)]
    pub finding: Finding,
    /// `None`: the judge did not rule on it (it counts as valid).
    #[serde(default)]
    pub ruling: Option<Ruling>,
    /// Added by the judge rather than raised by the reviewer.
    #[serde(default)]
    pub from_judge: bool,
    /// A finding the judge disputed in the round before, brought back: what the reviewer
    /// answered to that dispute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rejoinder: Option<Rejoinder>,
}

/// The reviewer's answer to the judge's dispute of one of its findings, kept with the finding
/// it brings back into the next round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Rejoinder {
    pub reply: Rejoined,
    /// The round whose ruling it answers.
    pub round: u32,
    /// That ruling, in words (`invalid: the lock is released`).
    pub ruling: String,
    /// The reviewer's own words.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub words: String,
    /// The level the finding was raised at, when the reviewer lowered it or held it at another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Severity>,
}

/// How the reviewer answered a dispute it did not withdraw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rejoined {
    /// It said the finding stands, or raised it again.
    Held,
    /// It said nothing of it: the finding stands as raised.
    Silent,
    /// It lowered the finding's level itself.
    Lowered,
}

impl Rejoined {
    pub fn label(self) -> &'static str {
        match self {
            Rejoined::Held => "held",
            Rejoined::Silent => "did not answer",
            Rejoined::Lowered => "lowered",
        }
    }
}

/// Does the judge's level `judge` lower the reviewer's `reviewer` for the gate? An unknown
/// severity fails every level, as P0 and P1 do, so only a P2 or P3 lowers it; P0 to P1 is no
/// lowering (both fail every level).
pub fn lowers(reviewer: Severity, judge: Severity) -> bool {
    judge != Severity::Unclassified && judge.rank() > reviewer.rank().max(1)
}

impl Judged {
    /// The severity after the judge's correction.
    pub fn severity(&self) -> Severity {
        self.ruling
            .as_ref()
            .and_then(|r| r.severity)
            .unwrap_or(self.finding.severity)
    }

    /// Valid, or not ruled on.
    pub fn stands(&self) -> bool {
        self.ruling
            .as_ref()
            .is_none_or(|r| r.verdict == Verdict::Valid)
    }

    /// The judge disputes the reviewer's finding: it ruled it invalid or missing context, or
    /// lowered its level for the gate. Severity and existence are the reviewer's, so a disputed
    /// finding goes back to the reviewer; the judge's own findings are never disputed.
    pub fn disputed(&self) -> bool {
        !self.from_judge
            && self.ruling.as_ref().is_some_and(|r| {
                r.verdict != Verdict::Valid
                    || r.severity.is_some_and(|s| lowers(self.finding.severity, s))
            })
    }

    /// The level the reviewer gave it, or the judge's when the judge ruled it valid at a level
    /// the gate counts at least as high (the author may concede more than was asked).
    pub fn reviewer_severity(&self) -> Severity {
        match self.ruling.as_ref() {
            Some(Ruling {
                verdict: Verdict::Valid,
                severity: Some(s),
                ..
            }) if !lowers(self.finding.severity, *s) => *s,
            _ => self.finding.severity,
        }
    }

    /// The level the gate counts it at, or `None` when it does not count: the reviewer's finding
    /// counts at the reviewer's level whatever the judge ruled (the reviewer withdraws its own
    /// findings, which then leave the record), unless `trust_judge` lets the judge's ruling decide.
    /// A finding the judge added counts as the judge ruled it.
    pub fn counted(&self, trust_judge: bool) -> Option<Severity> {
        if self.from_judge || trust_judge {
            return self.stands().then(|| self.severity());
        }
        Some(self.reviewer_severity())
    }

    pub fn verdict_label(&self) -> &'static str {
        match self.ruling.as_ref().map(|r| r.verdict) {
            Some(Verdict::Valid) => "valid",
            Some(Verdict::Invalid) => "invalid",
            Some(Verdict::MissingContext) => "missing-context",
            None => "not ruled",
        }
    }
}

/// A reviewer's answer, read.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Critique {
    pub findings: Vec<Finding>,
    pub missing_alternatives: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recommendation: Option<String>,
    /// The answer as a whole approves, and nothing in it was read as a finding.
    pub agreement: bool,
    /// How it was read: `schema`, `json`, `markdown`, `repair`, `normaliser` or `raw`.
    pub format: &'static str,
}

impl Critique {
    pub fn empty(format: &'static str) -> Critique {
        Critique {
            findings: Vec::new(),
            missing_alternatives: Vec::new(),
            verdict: None,
            recommendation: None,
            agreement: false,
            format,
        }
    }
}
