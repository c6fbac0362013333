//! The reader against the corpora of reviewer answers in `tests/fixtures/answers/tuned/` (real
//! reviewers' formats written in our own words; see each corpus's README). All of them are
//! in-sample now: each was measured once on arrival, then tuned on.
//!
//! Every expected finding must come back with its severity, file and line, nothing else may, and
//! approval must be exactly right. The scorecard per family is printed (`cargo test answers --
//! --nocapture`), and the test fails below the bars: a blocker must never pass the gate.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use git_debate::{raises_nothing, raw_blocks, Critique, Protocol, Roots};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
struct Seen {
    severity: String,
    file: Option<String>,
    line: Option<u64>,
}

#[derive(Default, Debug)]
struct Score {
    answers: usize,
    expected: usize,
    predicted: usize,
    matched: usize,
    severity_right: usize,
    approval_right: usize,
    blockers: usize,
    blockers_caught: usize,
    /// Matched findings whose file and line are both right.
    located: usize,
    /// Answers that raise no P0/P1 and state every finding's level (approvals included): the
    /// gate at P1 must let them pass.
    clean: usize,
    clean_gated: usize,
    approvals: usize,
    approvals_gated: usize,
}

impl Score {
    fn add(&mut self, s: &Score) {
        self.answers += s.answers;
        self.expected += s.expected;
        self.predicted += s.predicted;
        self.matched += s.matched;
        self.severity_right += s.severity_right;
        self.approval_right += s.approval_right;
        self.blockers += s.blockers;
        self.blockers_caught += s.blockers_caught;
        self.located += s.located;
        self.clean += s.clean;
        self.clean_gated += s.clean_gated;
        self.approvals += s.approvals;
        self.approvals_gated += s.approvals_gated;
    }
}

fn print_row(name: &str, s: &Score) {
    println!(
        "{:<20} {:>4} {:>7.2} {:>9.2} {:>8.2} {:>8.2} {:>8.2} {:>9} {:>9} {:>9}",
        name,
        s.answers,
        ratio(s.matched, s.expected),
        ratio(s.matched, s.predicted),
        ratio(s.severity_right, s.matched),
        ratio(s.located, s.matched),
        ratio(s.approval_right, s.answers),
        format!("{}/{}", s.blockers_caught, s.blockers),
        format!("{}/{}", s.clean_gated, s.clean),
        format!("{}/{}", s.approvals_gated, s.approvals),
    );
}

/// A tuned corpus: `tests/fixtures/answers/tuned/<name>`.
fn tuned(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/answers/tuned")
        .join(name)
}

/// What the pipeline makes of an answer without a model: schema/reader, else raw blocks — or
/// nothing, for an answer that raises nothing (what the normaliser's empty restatement is
/// accepted for; the call itself needs a model and is tested in the review loop).
fn read_answer(text: &str) -> (Vec<Seen>, bool) {
    let roots = Roots {
        roots: vec!["/home/dev/project/".into(), "C:/Users/dev/project/".into()],
    };
    let r = git_debate::read_answer(text, None, Protocol::Cr, &roots);
    let c = if r.structured || text.trim().is_empty() {
        r.critique
    } else if raises_nothing(text, &roots) {
        Critique::empty("normaliser")
    } else {
        raw_blocks(text, &roots)
    };
    let seen = c
        .findings
        .iter()
        .map(|f| Seen {
            severity: f.severity.label().to_string(),
            file: f
                .location
                .as_ref()
                .map(|l| l.path.clone())
                .filter(|p| !p.is_empty()),
            line: f
                .location
                .as_ref()
                .and_then(|l| l.start_line)
                .map(u64::from),
        })
        .collect();
    (seen, c.agreement)
}

fn expected(v: &Value) -> Vec<Seen> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| Seen {
            severity: f["severity"].as_str().unwrap().to_string(),
            file: f["file"].as_str().map(str::to_string),
            line: f["line"].as_u64(),
        })
        .collect()
}

/// What `--fail-on p1` stops: a P0, a P1, or a finding of unknown severity.
fn blocks_gate(sev: &str) -> bool {
    matches!(sev, "P0" | "P1" | "unclassified")
}

fn is_blocker(sev: &str) -> bool {
    matches!(sev, "P0" | "P1")
}

/// When an expected finding and a predicted one may be paired.
type Rule = dyn Fn(&Seen, &Seen) -> bool;

/// Expected findings paired with predicted ones: first by file and line, then by file alone
/// (the line is wrong), then — for findings where one side names no file — in order of
/// appearance. The pairs that agree on file and line are the located ones.
fn pair(want: &[Seen], got: &[Seen]) -> Vec<(usize, usize)> {
    let mut used = vec![false; got.len()];
    let mut paired = vec![false; want.len()];
    let mut pairs = Vec::new();
    let rules: [&Rule; 3] = [
        &|w, g| g.file == w.file && g.line == w.line,
        &|w, g| g.file.is_some() && g.file == w.file,
        &|w, g| g.file.is_none() || w.file.is_none(),
    ];
    for rule in rules {
        let mut from = 0;
        for (i, w) in want.iter().enumerate() {
            if paired[i] {
                continue;
            }
            if let Some(j) = (from..got.len())
                .chain(0..from)
                .find(|j| !used[*j] && rule(w, &got[*j]))
            {
                used[j] = true;
                paired[i] = true;
                pairs.push((i, j));
                from = j;
            }
        }
    }
    pairs.sort();
    pairs
}

/// Scores every fixture under `root`: per family, and all together.
fn scorecard(root: &Path) -> (BTreeMap<String, Score>, Score) {
    let mut families: BTreeMap<String, Score> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut fixtures: Vec<PathBuf> = Vec::new();
    for fam in std::fs::read_dir(root).unwrap() {
        let fam = fam.unwrap().path();
        if fam.is_dir() {
            for f in std::fs::read_dir(&fam).unwrap() {
                let p = f.unwrap().path();
                if p.extension().is_some_and(|e| e == "md") {
                    fixtures.push(p);
                }
            }
        }
    }
    fixtures.sort();
    for path in &fixtures {
        let family = path
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path).unwrap();
        let exp: Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("expected.json")).unwrap(),
        )
        .unwrap();
        let want = expected(&exp);
        let (got, approval) = read_answer(&text);
        let s = families.entry(family.clone()).or_default();
        s.answers += 1;
        s.expected += want.len();
        s.predicted += got.len();
        let pairs = pair(&want, &got);
        s.matched += pairs.len();
        s.severity_right += pairs
            .iter()
            .filter(|(i, j)| want[*i].severity == got[*j].severity)
            .count();
        s.located += pairs
            .iter()
            .filter(|(i, j)| want[*i].file == got[*j].file && want[*i].line == got[*j].line)
            .count();
        let want_approval = exp["approval"].as_bool().unwrap();
        s.approval_right += usize::from(approval == want_approval);
        let gated = got.iter().any(|g| blocks_gate(&g.severity));
        if want.iter().any(|w| is_blocker(&w.severity)) {
            s.blockers += 1;
            s.blockers_caught += usize::from(gated);
        } else if !want.iter().any(|w| w.severity == "unclassified") {
            s.clean += 1;
            s.clean_gated += usize::from(gated);
        }
        if want_approval {
            s.approvals += 1;
            s.approvals_gated += usize::from(gated);
        }
        let wrong_sev: Vec<_> = pairs
            .iter()
            .filter(|(i, j)| want[*i].severity != got[*j].severity)
            .map(|(i, j)| {
                format!(
                    "{:?}: want {} got {}",
                    want[*i].file, want[*i].severity, got[*j].severity
                )
            })
            .collect();
        let misplaced = pairs
            .iter()
            .any(|(i, j)| want[*i].file != got[*j].file || want[*i].line != got[*j].line);
        if pairs.len() != want.len()
            || pairs.len() != got.len()
            || !wrong_sev.is_empty()
            || approval != want_approval
            || misplaced
        {
            misses.push(format!(
                "{family}/{name}: want {want:?}\n    got  {got:?}\n    severity {wrong_sev:?} approval want {want_approval} got {approval}{}",
                if misplaced { " (a place differs)" } else { "" }
            ));
        }
    }
    let mut total = Score::default();
    println!(
        "{:<20} {:>4} {:>7} {:>9} {:>8} {:>8} {:>8} {:>9} {:>9} {:>9}",
        "family",
        "n",
        "recall",
        "precision",
        "severity",
        "located",
        "approval",
        "blocked",
        "falsegate",
        "approvgat"
    );
    for (fam, s) in &families {
        print_row(fam, s);
        total.add(s);
    }
    print_row("all", &total);
    for m in &misses {
        println!("{m}");
    }
    (families, total)
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// What a corpus is held to: overall recall, precision, severity and located, and recall and
/// precision per family (a family has a handful of answers: one miss moves it a lot).
struct Bars {
    recall: f64,
    precision: f64,
    severity: f64,
    located: f64,
    family: f64,
    /// At most a tenth of the clean answers may be gated.
    clean_tenth: bool,
}

/// A tuned corpus of at least `answers` answers, held to `bars`.
fn held_to(corpus: &str, answers: usize, bars: &Bars) {
    let (families, total) = scorecard(&tuned(corpus));
    assert!(total.answers >= answers, "the corpus shrank");
    assert_bars(&families, &total, bars);
    if bars.clean_tenth {
        assert!(
            total.clean_gated * 10 <= total.clean,
            "clean answers gated: {}/{}",
            total.clean_gated,
            total.clean
        );
    }
}

/// [`held_to`] for a set whose writer labelled some answers otherwise than the labels' own
/// rules (each test says which): no blocker passes, at most `approvals` approvals and `clean`
/// clean answers are gated, and the corpus's totals meet `bars` (families are not held).
fn held_loosely(corpus: &str, (answers, approvals, clean): (usize, usize, usize), bars: &Bars) {
    let (families, total) = scorecard(&tuned(corpus));
    assert!(total.answers >= answers, "the corpus shrank");
    assert!(!families.is_empty());
    assert_eq!(
        total.blockers_caught, total.blockers,
        "a blocker passed the gate"
    );
    assert!(
        total.approvals_gated <= approvals,
        "approvals gated: {}",
        total.approvals_gated
    );
    assert!(
        total.clean_gated <= clean,
        "clean answers gated: {}",
        total.clean_gated
    );
    assert_totals(&total, bars);
}

/// The bars. A blocker is never waved through, an approval never gated and approval never
/// misread; findings, severities and locations are held to the corpus's own bars.
fn assert_bars(families: &BTreeMap<String, Score>, total: &Score, bars: &Bars) {
    assert_eq!(
        total.blockers_caught, total.blockers,
        "a blocker passed the gate"
    );
    assert_eq!(total.approvals_gated, 0, "an approval failed the gate");
    assert_eq!(total.approval_right, total.answers, "approval misread");
    assert_totals(total, bars);
    for (fam, s) in families {
        assert!(ratio(s.matched, s.expected) >= bars.family, "{fam} recall");
        assert!(
            ratio(s.matched, s.predicted) >= bars.family,
            "{fam} precision"
        );
    }
}

/// The corpus's totals against `bars`: recall, precision, severity and location.
fn assert_totals(total: &Score, bars: &Bars) {
    let (recall, precision, severity, located) = (
        ratio(total.matched, total.expected),
        ratio(total.matched, total.predicted),
        ratio(total.severity_right, total.matched),
        ratio(total.located, total.matched),
    );
    assert!(recall >= bars.recall, "recall {recall:.2}");
    assert!(precision >= bars.precision, "precision {precision:.2}");
    assert!(severity >= bars.severity, "severity {severity:.2}");
    assert!(located >= bars.located, "located {located:.2}");
}

// Every corpus below is tuned, in-sample: each was measured once on arrival (the figures are in
// README.md's "How answers are read") and the reader was then changed with its answers in view.
// The bars hold what was reached, so a change for one corpus cannot quietly lose another.

/// `tuned/base`: the corpus the reader was built on.
#[test]
fn tuned_base_corpus() {
    let (families, total) = scorecard(&tuned("base"));
    assert!(
        total.answers >= 40 && families.len() >= 8,
        "the corpus shrank"
    );
    assert_bars(
        &families,
        &total,
        &Bars {
            recall: 0.97,
            precision: 0.97,
            severity: 0.98,
            located: 0.97,
            family: 0.75,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w2`: written apart from the reader (wave 2), tuned on since.
#[test]
fn tuned_holdout_w2_corpus() {
    held_to(
        "holdout-w2",
        30,
        &Bars {
            recall: 0.97,
            precision: 0.93,
            severity: 0.94,
            located: 0.94,
            family: 0.6,
            clean_tenth: false,
        },
    );
}

/// `tuned/fresh-w2`: terminal and API answers (wave 2), tuned on since.
#[test]
fn tuned_fresh_w2_corpus() {
    held_to(
        "fresh-w2",
        25,
        &Bars {
            recall: 0.98,
            precision: 0.90,
            severity: 0.98,
            located: 0.98,
            family: 0.5,
            clean_tenth: false,
        },
    );
}

/// `tuned/blind-w2`: written blind (wave 2), tuned on since. Its pasted web pages and e-mails
/// stay weak per family, hence the low family bar.
#[test]
fn tuned_blind_w2_corpus() {
    held_to(
        "blind-w2",
        30,
        &Bars {
            recall: 0.94,
            precision: 0.80,
            severity: 0.89,
            located: 0.95,
            family: 0.1,
            clean_tenth: false,
        },
    );
}

/// `tuned/dev-w3`: written blind (wave 3, 67 answers, 20 families, four languages besides
/// English) and measured once before any change for it: recall 0.80, precision 0.78, severity
/// 0.84, located 0.86, approval 0.88, blockers caught 18/23, clean answers falsely gated 8/35,
/// approvals gated 2/17. Tuned on since. Besides the bars, at most a tenth of its clean answers
/// may be gated.
#[test]
fn tuned_dev_w3_corpus() {
    held_to(
        "dev-w3",
        60,
        &Bars {
            recall: 0.95,
            precision: 0.88,
            severity: 0.92,
            located: 0.88,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w3`: written blind (wave 3, 59 answers, 19 families, seven languages besides
/// English) and measured once, with the reader alone, before any change for it: recall 0.84,
/// precision 0.82, severity 0.77, located 0.86, approval 0.95, blockers caught 16/20, clean
/// answers falsely gated 4/29, approvals gated 1/16. Tuned on since.
#[test]
fn tuned_holdout_w3_corpus() {
    held_to(
        "holdout-w3",
        59,
        &Bars {
            recall: 0.95,
            precision: 0.95,
            severity: 0.93,
            located: 0.91,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w4`: written blind (66 answers, 19 families, seven languages besides English)
/// and measured once, with the reader alone, before any change for it: recall 0.98, precision
/// 0.91, severity 0.91, located 0.93, approval 0.92, blockers caught 18/19, clean answers falsely
/// gated 5/35, approvals gated 1/16. Tuned on since. (The one clean answer still gated says "not
/// ready to merge" without a reason: an objection with nothing listed fails closed by design.)
#[test]
fn tuned_holdout_w4_corpus() {
    held_to(
        "holdout-w4",
        66,
        &Bars {
            recall: 0.97,
            precision: 0.91,
            severity: 0.97,
            located: 0.92,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w5`: written blind (64 answers, 22 families incl. the CodeRabbit CLI, Cline,
/// Roo and Continue, a Slack paste; seven languages besides English) and measured once, with the
/// reader alone, before any change for it: recall 0.92, precision 0.73, severity 0.86, located
/// 0.92, approval 0.92, blockers caught 20/21, clean answers falsely gated 8/37, approvals gated
/// 1/14. Tuned on since. Families at 0.5: the CodeRabbit CLI's agent lines (partly guessed by the
/// writer) and an Amazon Q status note still over-read.
#[test]
fn tuned_holdout_w5_corpus() {
    held_to(
        "holdout-w5",
        64,
        &Bars {
            recall: 0.92,
            precision: 0.87,
            severity: 0.88,
            located: 0.91,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w42`: written blind (63 answers, 18 families: application code under review
/// for security and correctness, from the bots, five CLIs, chat models, people and raw JSON
/// answers; 10 in seven other languages) and measured once, with the reader alone, after it was
/// tuned on w3 to w41: recall 0.95, precision 0.93, severity 0.96, located 0.95, approval 0.95,
/// blockers caught 20/20, clean answers falsely gated 4/35, approvals gated 3/21. Tuned on since.
/// (Its Sourcery answer rates a yellow "General issues" comment P2, which the reader leaves
/// unrated as two other writers did.)
#[test]
fn tuned_holdout_w42_corpus() {
    held_to(
        "holdout-w42",
        63,
        &Bars {
            recall: 0.98,
            precision: 0.98,
            severity: 0.97,
            located: 0.95,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w43`: written blind (62 answers, 15 families: the small-change stream —
/// dependency bumps, docs, renames, test-only changes, one-line fixes; 10 in six other
/// languages) at the same time as w42 and measured once, with the reader alone, after it was
/// tuned on w3 to w41: recall 0.94, precision 0.94, severity 0.93, located 0.96, approval 0.97,
/// blockers caught 19/19, clean answers falsely gated 2/36, approvals gated 1/21. Tuned on
/// since.
#[test]
fn tuned_holdout_w43_corpus() {
    held_to(
        "holdout-w43",
        62,
        &Bars {
            recall: 0.97,
            precision: 0.97,
            severity: 0.97,
            located: 0.95,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w44`: written blind (63 answers, 17 families: thinking out loud before
/// approving — reviews of performance, concurrency and refactoring changes that weigh a risk at
/// length and then say it is real or handled; 10 in ten other languages) and measured once,
/// with the reader alone, after it was tuned on w3 to w43: recall 0.98, precision 0.81,
/// severity 0.94, located 0.97, approval 0.92, blockers caught 18/19, clean answers falsely
/// gated 7/36, approvals gated 5/21. Tuned on since.
#[test]
fn tuned_holdout_w44_corpus() {
    held_to(
        "holdout-w44",
        63,
        &Bars {
            recall: 0.98,
            precision: 0.98,
            severity: 0.98,
            located: 0.98,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w45`: written blind (62 answers, 14 families: the multilingual team — 33
/// answers in thirteen other languages, localized bots, local level words and team prefixes)
/// at the same time as w44 and measured once, with the reader alone, after it was tuned on w3
/// to w43: recall 0.97, precision 0.84, severity 0.91, located 1.00, approval 0.95, blockers
/// caught 19/19, clean answers falsely gated 3/35, approvals gated 1/21. Tuned on since.
#[test]
fn tuned_holdout_w45_corpus() {
    held_to(
        "holdout-w45",
        62,
        &Bars {
            recall: 0.98,
            precision: 0.98,
            severity: 0.98,
            located: 0.98,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w41`: written blind (64 answers, 19 families: reviews of infrastructure,
/// configuration and data changes — Terraform, Kubernetes and Helm, CI workflows, SQL
/// migrations, IaC scanners' comments; 12 in nine other languages) and measured once, with the
/// reader alone, after it was tuned on w3 to w40: recall 0.87, precision 0.87, severity 0.93,
/// located 1.00, approval 0.97, blockers caught 20/20, clean answers falsely gated 2/36,
/// approvals gated 1/21. Tuned on since.
#[test]
fn tuned_holdout_w41_corpus() {
    held_to(
        "holdout-w41",
        64,
        &Bars {
            recall: 0.96,
            precision: 0.93,
            severity: 0.97,
            located: 0.99,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w40`: written blind (63 answers, 17 families: long reviews with many findings,
/// 233 in all, from the review bots and five CLIs on pull requests of 5–30 files: summary tables
/// and their detail sections, re-reviews listing what was fixed; 10 in seven other languages)
/// and measured once, with the reader alone, after it was tuned on w3 to w39: recall 0.98,
/// precision 0.85, severity 0.92, located 0.99, approval 0.92, blockers caught 20/20, clean
/// answers falsely gated 7/36, approvals gated 4/21. Tuned on since
/// (`src/answer/table_tests.rs`).
#[test]
fn tuned_holdout_w40_corpus() {
    held_to(
        "holdout-w40",
        63,
        &Bars {
            recall: 0.99,
            precision: 0.97,
            severity: 0.99,
            located: 0.98,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w39`: written blind (60 answers, 21 families: review feedback written when
/// nobody asked for a format, from chat windows and IDE panels, agent CLIs that talked, code-host
/// threads, chat apps and a mailing list; 18 in ten other languages) and measured once, with
/// the reader alone, after it was tuned on w3 to w38: recall 0.96, precision 0.68, severity
/// 0.75, located 0.90, approval 0.92, blockers caught 19/19, clean answers falsely gated 9/34,
/// approvals gated 3/21. Tuned on since (`src/answer/chat_tests.rs`).
#[test]
fn tuned_holdout_w39_corpus() {
    held_loosely(
        "holdout-w39",
        (60, 0, 1),
        &Bars {
            recall: 0.97,
            precision: 0.84,
            severity: 0.95,
            located: 0.89,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w38`: written blind (64 answers, 17 families: a pull-request queue replayed,
/// the review bots as they print today and the CLIs answering a review prompt; 13 in five
/// other languages) and measured once, with the reader alone, after it was tuned on w3 to w36:
/// recall 0.98, precision 0.91, severity 0.97, located 0.97, approval 0.97, blockers caught
/// 19/19, clean answers falsely gated 3/37, approvals gated 2/22.
#[test]
fn tuned_holdout_w38_corpus() {
    held_loosely(
        "holdout-w38",
        (64, 0, 1),
        &Bars {
            recall: 0.97,
            precision: 0.96,
            severity: 0.96,
            located: 0.96,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w37`: written blind (62 answers, 14 families: second opinions in plain prose
/// from chat models, colleagues in chat, email and pull-request comments, and agent CLIs that
/// ignored the format; 22 in seven other languages) and measured once, with the reader alone,
/// after it was tuned on w3 to w36: recall 0.85, precision 0.62, severity 0.47, located 0.79,
/// approval 0.87, blockers caught 16/19, clean answers falsely gated 15/36, approvals gated
/// 5/22. Tuned on since (pastes' chrome, holding the merge, levels alone in a clause, places
/// carried to the points after them; `src/answer/chat_tests.rs`).
#[test]
fn tuned_holdout_w37_corpus() {
    held_loosely(
        "holdout-w37",
        (62, 1, 2),
        &Bars {
            recall: 0.96,
            precision: 0.78,
            severity: 0.96,
            located: 0.96,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w36`: written blind (61 answers, 19 families: the re-test, hard for the gate
/// both ways, 20 blockers mostly hidden, 21 approvals that look alarming; 13 in seven other
/// languages) and measured once, with the reader alone, after it was tuned on w3 to w35: recall
/// 0.98, precision 0.95, severity 0.96, located 0.99, approval 0.97, blockers caught 18/20,
/// clean answers falsely gated 0/37, approvals gated 0/21. Tuned on since (a paragraph after the
/// last listed point that places and rates a blocker of its own is not covered by that point's
/// words).
#[test]
fn tuned_holdout_w36_corpus() {
    held_loosely(
        "holdout-w36",
        (61, 0, 0),
        &Bars {
            recall: 0.99,
            precision: 0.94,
            severity: 0.95,
            located: 0.98,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w35`: written blind (60 answers, 26 families: a month of second opinions at
/// commit time and before merging, CLIs, bots, chat models and people; 15 in ten other
/// languages) and measured once, with the reader alone, after it was tuned on w3 to w34:
/// recall 1.00, precision 0.89, severity 0.92, located 0.95, approval 0.93, blockers caught
/// 18/18, clean answers falsely gated 3/34, approvals gated 3/22 (a counterfactual "would have
/// been a P1 if …, but it doesn't", a German email, Sourcery's table of the change's files).
#[test]
fn tuned_holdout_w35_corpus() {
    held_loosely(
        "holdout-w35",
        (60, 0, 0),
        &Bars {
            recall: 0.99,
            precision: 0.95,
            severity: 0.91,
            located: 0.94,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w34`: written blind (62 answers, 15 families: a global team, 47 answers in
/// fifteen languages other than English) and measured once, with the reader alone, after it was
/// tuned on w3 to w29 and partly on w31 and w33: recall 0.94, precision 0.79, severity 0.86,
/// located 0.80, approval 0.94, blockers caught 18/19, clean answers falsely gated 5/35,
/// approvals gated 4/21. Tuned on since (a Turkish findings table, prose about files in a
/// language without our words). Held loosely: the reader still takes some answers in languages
/// it has few words for as unread, which fails closed.
#[test]
fn tuned_holdout_w34_corpus() {
    held_loosely(
        "holdout-w34",
        (62, 1, 2),
        &Bars {
            recall: 0.96,
            precision: 0.86,
            severity: 0.85,
            located: 0.89,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w33`: written blind (60 answers, 9 families: second opinions in conversation,
/// 33 in prose, 27 half-following the format; 15 in nine other languages) and measured once,
/// with the reader alone, after it was tuned on w3 to w29 and partly on w31: recall 0.94,
/// precision 0.66, severity 0.71, located 0.86, approval 0.88, blockers caught 16/18, clean
/// answers falsely gated 11/33, approvals gated 4/20. Tuned on since ("should block the merge",
/// "必须修复后才能合并", worries cleared in more words). Held loosely: prose is where the reader
/// is weakest (the review loop's repair turn stands behind it).
#[test]
fn tuned_holdout_w33_corpus() {
    held_loosely(
        "holdout-w33",
        (60, 2, 6),
        &Bars {
            recall: 0.96,
            precision: 0.70,
            severity: 0.83,
            located: 0.98,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w32`: written blind (60 answers, 15 families: big reviews of big changes, 237
/// findings, up to 22 in one answer) and measured once, with the reader alone, before any change
/// for it: recall 0.92, precision 0.89, severity 0.96, located 0.98, approval 0.97, blockers
/// caught 18/18, clean answers falsely gated 2/29, approvals gated 0/15: every bar met on first
/// sight.
#[test]
fn tuned_holdout_w32_corpus() {
    held_loosely(
        "holdout-w32",
        (60, 0, 2),
        &Bars {
            recall: 0.91,
            precision: 0.88,
            severity: 0.95,
            located: 0.97,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w31`: written blind (60 answers, 8 families: reviews in plain prose, half in
/// seven other languages) and measured once, with the reader alone, before any change for it:
/// recall 0.89, precision 0.51, severity 0.59, located 0.72, approval 0.88, blockers caught
/// 18/18, clean answers falsely gated 16/34, approvals gated 7/20. Tuned on since (a worry
/// raised anywhere in a paragraph and cleared there, an approving answer read paragraph by
/// paragraph, a count and a level announced for the points after it, "read once at startup").
/// Held loosely: prose is where the reader is weakest.
#[test]
fn tuned_holdout_w31_corpus() {
    held_loosely(
        "holdout-w31",
        (60, 1, 9),
        &Bars {
            recall: 0.88,
            precision: 0.67,
            severity: 0.67,
            located: 0.89,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w30`: written blind (60 answers, 17 families: an outside tester's replay in
/// realistic proportions, 21 with a blocker, 20 approvals; 12 in Chinese, Japanese, Korean and
/// Spanish) and measured once, with the reader alone, before any change for it: recall 0.96,
/// precision 0.94, severity 0.94, located 0.98, approval 0.98, blockers caught 21/21, clean
/// answers falsely gated 1/35, approvals gated 0/20: every bar met on first sight.
#[test]
fn tuned_holdout_w30_corpus() {
    held_loosely(
        "holdout-w30",
        (60, 0, 1),
        &Bars {
            recall: 0.95,
            precision: 0.93,
            severity: 0.93,
            located: 0.97,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w29`: written blind (60 answers, 19 families: reviews written in the team's
/// own language, 57 not in English, fourteen languages; localized bots, local words for levels,
/// approval, "none" and lines, blockers said only in words) and measured once, with the reader
/// alone, before any change for it: recall 0.95, precision 0.69, severity 0.79, located 0.93,
/// approval 0.83, blockers caught 20/20, clean answers falsely gated 12/36, approvals gated
/// 10/20. Tuned on since (a level heading in other words that holds "Nenhum.", a worry or
/// suspicion the reviewer cleared, "must be fixed before merge" and "blocks the merge" in eight
/// languages, "mineur" / "menor" / "minore" as minor, "todo" that is Portuguese for "all", a
/// findings table headed in Traditional Chinese). Its
/// aider family (two answers whose places are split across lines) stays under the usual bar.
#[test]
fn tuned_holdout_w29_corpus() {
    held_to(
        "holdout-w29",
        60,
        &Bars {
            recall: 0.97,
            precision: 0.87,
            severity: 0.89,
            located: 0.94,
            family: 0.3,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w28`: written blind (60 answers, 18 families: second opinions at commit time
/// and at the merge gate on small changes, 24 approvals; nine languages besides English) and
/// measured once, with the reader alone, before any change for it: recall 1.00, precision 0.96,
/// severity 1.00, located 1.00, approval 0.97, blockers caught 18/18, clean answers falsely gated
/// 1/42, approvals gated 1/24. Tuned on since (prose after a level's "None.", "nothing left
/// here that could crash", "which is exactly the … panic").
#[test]
fn tuned_holdout_w28_corpus() {
    held_to(
        "holdout-w28",
        60,
        &Bars {
            recall: 0.99,
            precision: 0.97,
            severity: 0.99,
            located: 0.99,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w27`: written blind (60 answers: the six CLIs we drive and raw API bodies
/// answering our own review prompt, half-following its format: renamed sections, tables, a JSON
/// block that disagrees with the prose or is cut off; five languages besides English) and
/// measured once, with the reader alone, before any change for it: recall 0.99, precision 0.97,
/// severity 1.00, located 1.00, approval 0.97, blockers caught 20/20, clean answers falsely gated
/// 2/39, approvals gated 2/17. Tuned on since (a risk the reviewer "checked and ruled out", a
/// "Not issues" section, "No must-fix issues.", a prose finding its JSON block left out).
#[test]
fn tuned_holdout_w27_corpus() {
    held_to(
        "holdout-w27",
        60,
        &Bars {
            recall: 0.99,
            precision: 0.98,
            severity: 0.99,
            located: 0.99,
            family: 0.9,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w26`: written blind (60 answers, 18 families: the review bots and CLIs as they
/// print today, most of them on changes that are fine; seven languages besides English) and
/// measured once, with the reader alone, before any change for it: recall 0.99, precision 0.73,
/// severity 0.96, located 0.96, approval 0.87, blockers caught 20/20, clean answers falsely gated
/// 7/34, approvals gated 6/22. Tuned on since (empty sections in other languages, an approval
/// paragraph after them, Copilot's digest and verdict headings, sections that count themselves
/// empty, rating fields, CodeRabbit's effort line in Korean, a preview of the findings, Japanese
/// line words and blockers in words, Qodo's tagged titles and permalinks, praise that ends a
/// title, Sourcery's numbered comments). Held to less than the other sets on two answers: "Approve
/// once CI is green", which the writer counted as an approval and the labels' own rules count as
/// a condition (the reader agrees with the rules), and a Qodo walkthrough whose file table's
/// items ("Add …", "Call it from …") the reader still takes for findings.
#[test]
fn tuned_holdout_w26_corpus() {
    held_loosely(
        "holdout-w26",
        (60, 2, 2),
        &Bars {
            recall: 0.99,
            precision: 0.92,
            severity: 0.95,
            located: 0.99,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w25`: written blind (60 answers; review text as people paste it: a pull
/// request's page, a merge request's threads, a chat message and its thread, an email, a
/// terminal's scrollback, re-reviews after new pushes; ten languages besides English) and
/// measured once, with the reader alone, before any change for it: recall 1.00, precision 0.67,
/// severity 0.85, located 0.90, approval 0.87, blockers caught 12/12, clean answers falsely
/// gated 13/38, approvals gated 7/22. Tuned on since (a thread marked resolved, on GitHub after
/// it and on GitLab above it; "✅ Vyřešeno"; "point 2 is addressed"). Held to less than the other
/// sets on purpose: a human's "Fixed in 2a6d9f4" and a bot's "both findings are resolved" are
/// claims the reader does not take as withdrawing what was raised (the set's writer counted
/// them as resolved), so three pastes that end that way still gate.
#[test]
fn tuned_holdout_w25_corpus() {
    held_loosely(
        "holdout-w25",
        (60, 3, 7),
        &Bars {
            recall: 0.99,
            precision: 0.66,
            severity: 0.87,
            located: 0.88,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w24`: written blind (60 answers; second opinions from the big CLIs,
/// half-following the format: JSON then prose that adds or softens, levels in words the prompt
/// did not ask for, a reviewer changing its mind; twelve languages besides English) and measured
/// once, with the reader alone, before any change for it: recall 0.97, precision 0.91, severity
/// 0.88, located 0.97, approval 0.97, blockers caught 11/12 (a P3 the reviewer later upgraded to
/// a P1), clean answers falsely gated 4/38, approvals gated 1/22. Tuned on since (a level the
/// reviewer changes later in its answer, "Should change" / "Nice to have" over a list, "FYI",
/// `**nit `path`**`, a tally in parentheses, a Romanian approval).
#[test]
fn tuned_holdout_w24_corpus() {
    held_to(
        "holdout-w24",
        60,
        &Bars {
            recall: 0.96,
            precision: 0.91,
            severity: 0.96,
            located: 0.96,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w23`: written blind (60 answers; long, structured reviews: walkthroughs,
/// summary tables repeating the details, "What I checked", questions for the author, risk
/// tables, follow-ups; eleven languages besides English) and measured once, with the reader
/// alone, before any change for it: recall 0.97, precision 0.82, severity 0.93, located 0.93,
/// approval 0.87, blockers caught 14/14, clean answers falsely gated 6/36, approvals gated 2/20.
/// Tuned on since (a low risk rating, a quiet item's wrapped lines, a level word that continues
/// a wrapped sentence, an item that closes on "Fine.", `**L71–L78 · P0 · …**`, `⟦P1⟧`, a level
/// field under a bold title, a point taken back in another language).
#[test]
fn tuned_holdout_w23_corpus() {
    held_to(
        "holdout-w23",
        60,
        &Bars {
            recall: 0.97,
            precision: 0.97,
            severity: 0.97,
            located: 0.92,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w22`: written blind (60 answers; the everyday mix where the gate must not cry
/// wolf: 24 approvals, long ones among them; thirteen languages besides English, among them
/// Hindi, Arabic, Thai, Greek, Finnish, Romanian) and measured once, with the reader alone,
/// before any change for it: recall 1.00, precision 0.77, severity 0.92, located 0.96, approval
/// 0.90, blockers caught 10/10, clean answers falsely gated 6/42, approvals gated 6/24. Tuned on
/// since (what the change does, "my first worry was", "closes the injection", hard-wrapped
/// sentences, a bot's description of the change, a level alone after a range comment, items
/// taken back in their own words).
#[test]
fn tuned_holdout_w22_corpus() {
    held_to(
        "holdout-w22",
        60,
        &Bars {
            recall: 0.99,
            precision: 0.97,
            severity: 0.97,
            located: 0.95,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w21`: written blind (60 answers; the hard edges of trust: alarming words in
/// clean approvals, blockers said subtly, findings withdrawn or already fixed; twelve languages
/// besides English) and measured once, with the reader alone, before any change for it: recall
/// 0.97, precision 0.77, severity 0.90, located 0.94, approval 0.97, blockers caught 18/18, clean
/// answers falsely gated 4/32, approvals gated 2/18. Tuned on since (an item the reviewer takes
/// back in its own words, a closing approval in another language, a place row with a level, a
/// mark that the comment was addressed after the bot's footer, "Review notes").
#[test]
fn tuned_holdout_w21_corpus() {
    held_to(
        "holdout-w21",
        60,
        &Bars {
            recall: 0.99,
            precision: 0.87,
            severity: 0.95,
            located: 0.95,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w20`: written blind (60 answers; a month of real use of a second-opinion
/// prompt, 75 % CLI answers; fourteen languages besides English) and measured once, with the
/// reader alone, before any change for it: recall 1.00, precision 0.84, severity 0.91, located
/// 0.96, approval 0.93, blockers caught 16/16, clean answers falsely gated 6/36, approvals gated
/// 4/20. Tuned on since (a checklist of passed marks, the review's own limits, risks considered
/// and dismissed, "already handled", a bold "No issues found.", fields before the place, a
/// legend of punctuation marks, an ordinal in the verdict).
#[test]
fn tuned_holdout_w20_corpus() {
    held_to(
        "holdout-w20",
        60,
        &Bars {
            recall: 0.99,
            precision: 0.94,
            severity: 0.96,
            located: 0.95,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w19`: written blind (60 answers, 25 families; finding-heavy, in shapes the
/// reader had not met: a level after the title's dash, legends, scores out of five, several
/// places for one finding, findings withdrawn later in the answer; thirteen languages besides
/// English) and measured once, with the reader alone, before any change for it: recall 0.92,
/// precision 0.88, severity 0.88, located 0.97, approval 0.95, blockers caught 15/16, clean
/// answers falsely gated 6/34, approvals gated 3/16. Tuned on since (a level after a dash, a
/// score out of five, a legend's definition that goes on, a numbered finding taken back, a
/// review in a tool call's arguments, tagged findings, a `· L8` place line).
#[test]
fn tuned_holdout_w19_corpus() {
    held_to(
        "holdout-w19",
        60,
        &Bars {
            recall: 0.99,
            precision: 0.94,
            severity: 0.96,
            located: 0.98,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w18`: written blind (60 answers, 25 families; written so the gate must not cry
/// wolf: 24 approvals in many shapes, blockers after praise or in the last paragraph; twelve
/// languages besides English) and measured once, with the reader alone, before any change for
/// it: recall 1.00, precision 0.64, severity 0.96, located 0.89, approval 0.90, blockers caught
/// 14/14, clean answers falsely gated 6/36, approvals gated 6/24. Tuned on since (what a change
/// fixed said in the past tense, Thai written without spaces, "No changes requested", a "once"
/// that counts, the verdict line's own evidence, a reviewer's guide table, a level tag in prose).
#[test]
fn tuned_holdout_w18_corpus() {
    held_to(
        "holdout-w18",
        60,
        &Bars {
            recall: 0.99,
            precision: 0.80,
            severity: 0.98,
            located: 0.90,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w17`: written blind (60 answers, 26 families; 46 in English, 70 % CLI answers;
/// fourteen languages besides English) and measured once, with the reader alone, before any
/// change for it: recall 1.00, precision 0.91, severity 0.98, located 0.92, approval 0.97,
/// blockers caught 16/16, clean answers falsely gated 2/36, approvals gated 1/20. Tuned on since
/// (a worry the reviewer says was the case it checked, "I don't see anything that needs
/// changing", a counted lead-in's level: "Two nits:").
#[test]
fn tuned_holdout_w17_corpus() {
    held_to(
        "holdout-w17",
        60,
        &Bars {
            recall: 0.99,
            precision: 0.92,
            severity: 0.99,
            located: 0.91,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w16`: written blind (60 answers, 26 families; a normal week, 48 in English, 70 %
/// CLI answers; an answer cut off mid-sentence, a question to the author, strengths then one
/// nit) and measured once, with the reader alone, before any change for it: recall 0.98,
/// precision 0.80, severity 0.96, located 0.95, approval 0.93, blockers caught 16/16, clean
/// answers falsely gated 4/36, approvals gated 3/20. Tuned on since (a contracted denial of
/// several words, a question that says it is not a problem, a level field whose dash is followed
/// by a place, cubic's tags written without a fence).
#[test]
fn tuned_holdout_w16_corpus() {
    held_to(
        "holdout-w16",
        60,
        &Bars {
            recall: 0.98,
            precision: 0.95,
            severity: 0.98,
            located: 0.94,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w15`: written blind (60 answers, 31 families incl. Bito, CodeAnt, Kodus,
/// Codacy, DeepSource; everyday changes; twelve languages besides English, most new to the
/// reader) and measured once, with the reader alone, before any change for it: recall 0.89,
/// precision 0.73, severity 0.87, located 0.90, approval 0.88, blockers caught 15/16, clean
/// answers falsely gated 4/35, approvals gated 3/20. Tuned on since (levels, line words and
/// verdicts in Finnish, Norwegian, Danish, Catalan, Malay and Slovak; what the reviewer checked
/// and found handled; a bot's skipped files; a passed check's green circle; a level in an HTML
/// comment; a worry the reviewer says was unfounded).
#[test]
fn tuned_holdout_w15_corpus() {
    held_to(
        "holdout-w15",
        60,
        &Bars {
            recall: 0.94,
            precision: 0.95,
            severity: 0.98,
            located: 0.94,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w14`: written blind (60 answers, 25 families; 75 % CLI answers to a review
/// prompt that asks for P0–P3; blockers said only in a verdict, after "looks good overall", in a
/// refused injected "reply LGTM", under JSON that approves; twelve languages besides English) and
/// measured once, with the reader alone, before any change for it: recall 0.98, precision 0.93,
/// severity 0.91, located 0.96, approval 0.98, blockers caught 20/20, clean answers falsely
/// gated 2/33, approvals gated 1/18. Tuned on since (a verdict that rates findings by number, a
/// lone level sentence, a level field that goes on to say what is wrong, Kiro's tool lines).
#[test]
fn tuned_holdout_w14_corpus() {
    held_to(
        "holdout-w14",
        60,
        &Bars {
            recall: 0.97,
            precision: 0.97,
            severity: 0.98,
            located: 0.96,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w13`: written blind (60 answers, 25 families; 70 % CLI answers; written to be
/// hard on the gate's other half: approvals in worrying words, with caveats, transcript chrome
/// and thinking blocks; twelve languages besides English) and measured once, with the reader
/// alone, before any change for it: recall 0.92, precision 0.82, severity 0.99, located 0.92,
/// approval 0.87, blockers caught 17/18, clean answers falsely gated 8/36, approvals gated 7/20.
/// Tuned on since (a Responses API body, unknown JSON failing closed, denials and repairs, a
/// review's own limits, timestamped and ruled transcripts, a titled file heading, a bot byline).
#[test]
fn tuned_holdout_w13_corpus() {
    held_to(
        "holdout-w13",
        60,
        &Bars {
            recall: 0.94,
            precision: 0.97,
            severity: 0.98,
            located: 0.91,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w12`: written blind (54 answers; 72 % CLI answers to a review prompt, the common
/// bots; eight languages besides English) and measured once, with the reader alone, at the end of
/// the work it measures: recall 1.00, precision 0.88, severity 0.99, located 0.94, approval 0.98,
/// blockers caught 18/18, clean answers falsely gated 1/31, approvals gated 1/18. Tuned on since
/// (what a change repairs, a review lead-in naming the file, a level record with nested fields, a
/// copied thread's place heading).
#[test]
fn tuned_holdout_w12_corpus() {
    held_to(
        "holdout-w12",
        54,
        &Bars {
            recall: 0.98,
            precision: 0.97,
            severity: 0.97,
            located: 0.97,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w11`: written blind (73 answers, 20 families; small changes as the pre-commit
/// hook and the pre-merge gate see them, 75 % CLI answers to a review prompt; nine languages
/// besides English) and measured once, with the reader alone, before any change for it: recall
/// 0.98, precision 0.88, severity 0.87, located 0.97, approval 0.93, blockers caught 19/20, clean
/// answers falsely gated 7/49, approvals gated 3/24. Tuned on since.
#[test]
fn tuned_holdout_w11_corpus() {
    held_to(
        "holdout-w11",
        73,
        &Bars {
            recall: 0.97,
            precision: 0.93,
            severity: 0.95,
            located: 0.96,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w10`: written blind (69 answers, 24 families; 62 % the CLIs git-debate drives
/// answering a review prompt, 38 % the common review bots; eleven languages besides English) and
/// measured once, with the reader alone, before any change for it: recall 0.97, precision 0.92,
/// severity 0.93, located 0.96, approval 0.97, blockers caught 25/25, clean answers falsely gated
/// 2/40, approvals gated 2/19. Tuned on since.
#[test]
fn tuned_holdout_w10_corpus() {
    held_to(
        "holdout-w10",
        69,
        &Bars {
            recall: 0.98,
            precision: 0.94,
            severity: 0.92,
            located: 0.95,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w9`: written blind (69 answers, 35 families incl. Goose, Kiro, Crush, Amp, Devin
/// Review and LlamaPReview; twelve languages besides English incl. Hebrew, Persian and Greek) and
/// measured once, with the reader alone, before any change for it: recall 0.90, precision 0.92,
/// severity 0.95, located 0.91, approval 0.93, blockers caught 23/25, clean answers falsely gated
/// 2/40, approvals gated 1/18. Tuned on since.
#[test]
fn tuned_holdout_w9_corpus() {
    held_to(
        "holdout-w9",
        69,
        &Bars {
            recall: 0.96,
            precision: 0.92,
            severity: 0.96,
            located: 0.86,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w8`: written blind (67 answers, 32 families incl. Augment, Macroscope, Qodana,
/// the CodeRabbit CLI, Ollama models and raw API bodies; thirteen languages besides English) and
/// measured once, with the reader alone, before any change for it: recall 0.88, precision 0.91,
/// severity 0.89, located 0.95, approval 0.93, blockers caught 23/24, clean answers falsely gated
/// 1/38, approvals gated 1/18. Tuned on since.
#[test]
fn tuned_holdout_w8_corpus() {
    held_to(
        "holdout-w8",
        67,
        &Bars {
            recall: 0.98,
            precision: 0.97,
            severity: 0.96,
            located: 0.96,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w7`: written blind (62 answers, 24 families; about half what the CLIs git-debate
/// drives print back to a review prompt, half review bots incl. Kodus; ten languages besides
/// English) and measured once, with the reader alone, before any change for it: recall 1.00,
/// precision 0.78, severity 0.90, located 0.92, approval 0.92, blockers caught 21/22, clean
/// answers falsely gated 4/34, approvals gated 2/17. Tuned on since.
#[test]
fn tuned_holdout_w7_corpus() {
    held_to(
        "holdout-w7",
        62,
        &Bars {
            recall: 0.98,
            precision: 0.97,
            severity: 0.97,
            located: 0.92,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w6`: written blind (64 answers, 28 families incl. Snyk, DeepSource, Codacy and
/// cursor-agent; eleven languages besides English) and measured once, with the reader alone,
/// before any change for it: recall 0.94, precision 0.74, severity 0.81, located 0.88, approval
/// 0.84, blockers caught 18/21, clean answers falsely gated 10/35, approvals gated 7/16. Tuned on
/// since.
#[test]
fn tuned_holdout_w6_corpus() {
    held_to(
        "holdout-w6",
        64,
        &Bars {
            recall: 0.96,
            precision: 0.86,
            severity: 0.82,
            located: 0.85,
            family: 0.5,
            clean_tenth: true,
        },
    );
}

/// `SCORE=<folder under tests/fixtures> cargo test --test cli answers::score -- --nocapture`:
/// the scorecard of any corpus, without bars (for measuring a new corpus once, before any change).
#[test]
fn score() {
    let Ok(which) = std::env::var("SCORE") else {
        return;
    };
    scorecard(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(which),
    );
}

/// `DUMP=<corpus>/family/name cargo test --test cli answers::dump -- --nocapture` (a corpus
/// under `tests/fixtures/answers/tuned/`): what the reader made of one fixture, finding by
/// finding (for working on the reader).
#[test]
fn dump() {
    let Ok(which) = std::env::var("DUMP") else {
        return;
    };
    // An absolute path is read as it is (a trimmed copy of a fixture, while working on one).
    let text = if which.starts_with('/') {
        std::fs::read_to_string(&which).unwrap()
    } else {
        let (corpus, which) = which.split_once('/').expect("corpus/family/name");
        std::fs::read_to_string(tuned(corpus).join(format!("{which}.md"))).unwrap()
    };
    let roots = Roots {
        roots: vec!["/home/dev/project/".into(), "C:/Users/dev/project/".into()],
    };
    let r = git_debate::read_answer(&text, None, Protocol::Cr, &roots);
    println!(
        "structured {} agreement {}",
        r.structured, r.critique.agreement
    );
    // What the scorecard scores: an unstructured answer goes to the normaliser's raw blocks.
    let c = if r.structured || text.trim().is_empty() {
        r.critique
    } else if raises_nothing(&text, &roots) {
        println!("unstructured: raises nothing");
        Critique::empty("normaliser")
    } else {
        println!("unstructured: raw blocks");
        raw_blocks(&text, &roots)
    };
    for f in &c.findings {
        println!(
            "- {} {:?} @ {:?}\n    body: {:.100}\n    action: {:.80?}",
            f.severity.label(),
            f.title,
            f.location.as_ref().map(|l| l.display()),
            f.body.replace('\n', " / "),
            f.action
        );
    }
}

/// `tuned/holdout-w46`: written blind (63 answers, 15 families: follow-up reviews after a push,
/// which track the earlier round's findings as fixed, still open, partly fixed or re-raised) at
/// the same time as w47 and measured once, with the reader alone, after it was tuned on w3 to
/// w45: recall 0.95, precision 0.66, severity 0.95, located 1.00, approval 0.89, blockers caught
/// 19/20, clean answers falsely gated 9/35, approvals gated 6/20. Partly tuned on since: the
/// bars are where that left it (0.98 / 0.87 / 0.97 / 1.00, 2 clean answers and 1 approval
/// gated), to be raised as the rest is read.
#[test]
fn tuned_holdout_w46_corpus() {
    held_loosely(
        "holdout-w46",
        (63, 1, 2),
        &Bars {
            recall: 0.97,
            precision: 0.86,
            severity: 0.96,
            located: 0.99,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w47`: written blind (64 answers, 14 families: local and open-weight models
/// answering through ollama, llama.cpp, LM Studio, vLLM and their kin, with reasoning traces,
/// uneven markdown, runner chrome and quoted logs) at the same time as w46 and measured once,
/// with the reader alone, after it was tuned on w3 to w45: recall 0.87, precision 0.79,
/// severity 0.91, located 0.99, approval 0.92, blockers caught 19/20, clean answers falsely
/// gated 9/36, approvals gated 5/21. Partly tuned on since: the bars are where that left it
/// (0.94 / 0.84 / 0.92 / 0.97, 6 clean answers and 2 approvals gated).
#[test]
fn tuned_holdout_w47_corpus() {
    held_loosely(
        "holdout-w47",
        (64, 2, 6),
        &Bars {
            recall: 0.93,
            precision: 0.83,
            severity: 0.91,
            located: 0.96,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w48`: written blind (62 answers, 17 families: questions and suggestions —
/// mentoring-style reviews, conventional-comments labels, questions the reviewer answers itself
/// and questions that state a bug) at the same time as w49 and measured once, with the reader
/// alone, after it was tuned on w3 to w45 and partly on w46–w47: recall 0.99, precision 0.74,
/// severity 0.88, located 0.99, approval 0.92, blockers caught 19/19, clean answers falsely
/// gated 8/36, approvals gated 5/21. Partly tuned on since: the bars are where that left it
/// (0.99 / 0.82 / 0.88 / 0.99, 4 clean answers and 1 approval gated).
#[test]
fn tuned_holdout_w48_corpus() {
    held_loosely(
        "holdout-w48",
        (62, 1, 4),
        &Bars {
            recall: 0.98,
            precision: 0.81,
            severity: 0.87,
            located: 0.98,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w49`: written blind (63 answers, 17 families: terse reviews — one-line
/// approvals and blockers, `nit:` lines, bot status lines, emoji verdicts, replies from a phone)
/// at the same time as w48 and measured once, with the reader alone, after it was tuned on w3
/// to w45 and partly on w46–w47: recall 0.98, precision 1.00, severity 0.91, located 1.00,
/// approval 0.92, blockers caught 19/20 (a `nit:` its reviewer rated P1 on the next line),
/// clean answers falsely gated 1/36, approvals gated 0/22. Tuned on since.
#[test]
fn tuned_holdout_w49_corpus() {
    held_to(
        "holdout-w49",
        63,
        &Bars {
            recall: 0.97,
            precision: 0.98,
            severity: 0.97,
            located: 0.98,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w50`: written blind (60 answers, 15 families: the families an outside tester
/// would pick — Sourcery, cubic, Bito, Ellipsis, Qodo, Copilot, CodeRabbit, Greptile, Bugbot,
/// Gemini Code Assist, Amazon Q, GitLab Duo, the Claude and codex CLIs, chat models; 8 in
/// Chinese, Japanese, Korean and Spanish) at the same time as w51 and measured once, with the
/// reader alone, after it was tuned on w3 to w49: recall 0.98, precision 0.89, severity 0.93,
/// located 0.96, approval 0.92, blockers caught 19/19, clean answers falsely gated 5/34,
/// approvals gated 4/21. Tuned on since.
#[test]
fn tuned_holdout_w50_corpus() {
    held_to(
        "holdout-w50",
        60,
        &Bars {
            recall: 0.98,
            precision: 0.98,
            severity: 0.98,
            located: 0.98,
            family: 0.75,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w51`: written blind (64 answers, 17 families: fixes as patches — suggestion
/// blocks, diffs, pasted traces and test output in findings and in approvals) at the same time
/// as w50 and measured once, with the reader alone, after it was tuned on w3 to w49: recall
/// 1.00, precision 0.85, severity 0.95, located 0.94, approval 0.91, blockers caught 20/20,
/// clean answers falsely gated 6/37, approvals gated 5/22. Tuned on since.
#[test]
fn tuned_holdout_w51_corpus() {
    held_to(
        "holdout-w51",
        64,
        &Bars {
            recall: 0.98,
            precision: 0.97,
            severity: 0.98,
            located: 0.97,
            family: 0.6,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w52`: written blind (64 answers, 13 families: review outside GitHub's web
/// page — mailing-list replies under a quoted patch with trailers and NAKs, Gerrit, Phabricator,
/// Review Board, Azure DevOps, Bitbucket and GitLab threads; 8 in eight other languages) and
/// measured once, with the reader alone, after it was tuned on w3 to w51: recall 0.84,
/// precision 0.58, severity 0.63, located 0.49, approval 0.77, blockers caught 17/20, clean
/// answers falsely gated 13/36, approvals gated 10/21. Tuned on for one session since, and not
/// yet to the other sets' bars: every blocker gated, at most 5 approvals and 9 clean answers
/// gated. (Its writer placed a comment under a quoted hunk on the hunk's first line; the reader
/// gives the range down to the last quoted line, which starts there.)
#[test]
fn tuned_holdout_w52_corpus() {
    held_loosely(
        "holdout-w52",
        (64, 5, 9),
        &Bars {
            recall: 0.93,
            precision: 0.79,
            severity: 0.70,
            located: 0.67,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w53`: written blind (62 answers, 15 families: later rounds of a review
/// debate — findings held, withdrawn, conceded lower, verified fixed or still broken, in id
/// tables, JSON status blocks and prose; 10 in ten other languages) at the same time as w54 and
/// measured once, with the reader alone, after it was tuned on w3 to w52: recall 1.00,
/// precision 0.56, severity 0.80, located 0.98, approval 0.89, blockers caught 19/19, clean
/// answers falsely gated 14/36, approvals gated 5/22. Tuned on since: no approval gated, at most
/// 2 clean answers.
#[test]
fn tuned_holdout_w53_corpus() {
    held_loosely(
        "holdout-w53",
        (62, 0, 2),
        &Bars {
            recall: 0.98,
            precision: 0.76,
            severity: 0.88,
            located: 0.97,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w54`: written blind (62 answers, 14 families: the newest models' own default
/// style, asked only to "review this diff" — emoji heading hierarchies, empty level sections,
/// tables of checks, strengths sections, thinking shown above the answer; 10 in nine other
/// languages) and measured once, with the reader alone, after it was tuned on w3 to w52: recall
/// 0.94, precision 0.80, severity 0.87, located 0.94, approval 0.85, blockers caught 18/19 (a
/// `❌ **Critical**` row among ✅ checks passed), clean answers falsely gated 9/36, approvals
/// gated 5/22. Tuned on since: every blocker gated, at most 1 approval and 4 clean answers.
#[test]
fn tuned_holdout_w54_corpus() {
    held_loosely(
        "holdout-w54",
        (62, 1, 4),
        &Bars {
            recall: 0.94,
            precision: 0.86,
            severity: 0.88,
            located: 0.93,
            family: 0.0,
            clean_tenth: false,
        },
    );
}

/// `tuned/holdout-w55`: written blind (62 answers, 9 families: peer reviews of proposals and
/// design documents under git-debate's own peer-review prompt — translated section names,
/// missing alternatives, a recommended decision, a JSON block that disagrees with the prose; 10
/// in nine other languages) at the same time as w56 and measured once, with the reader alone,
/// after it was tuned on w3 to w54: recall 0.94, precision 0.90, severity 0.85, located 0.94,
/// approval 0.95, blockers caught 18/19 ("the one I'd treat as blocking" passed), clean answers
/// falsely gated 4/36, approvals gated 2/22. Tuned on since: no clean answer or approval gated.
#[test]
fn tuned_holdout_w55_corpus() {
    held_loosely(
        "holdout-w55",
        (62, 0, 0),
        &Bars {
            recall: 0.94,
            precision: 0.97,
            severity: 0.82,
            located: 0.91,
            family: 0.0,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w56`: written blind (62 answers: the six CLIs' first-round answers to
/// git-debate's code-review prompt, as final text and as machine-mode envelopes and event
/// streams; 10 in ten other languages) and measured once, with the reader alone, after it was
/// tuned on w3 to w54: recall 0.96, precision 0.96, severity 0.97, located 0.97, approval 0.94,
/// blockers caught 19/19, clean answers falsely gated 3/36, approvals gated 3/22 (lists of what
/// was checked beside an outright "no issues"). Tuned on since: none gated.
#[test]
fn tuned_holdout_w56_corpus() {
    held_loosely(
        "holdout-w56",
        (62, 0, 0),
        &Bars {
            recall: 0.96,
            precision: 0.98,
            severity: 0.96,
            located: 0.96,
            family: 0.0,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w57`: written blind (62 answers, 7 families: reviews through git-debate's own
/// protections — secrets shown as `[REDACTED:<kind>]` markers, a read-only sandbox; 10 in ten
/// other languages) and measured once, with the reader alone, after it was tuned on w3 to w56:
/// recall 0.99, precision 0.95, severity 0.97, located 1.00, approval 0.97, blockers caught
/// 19/19, clean answers falsely gated 2/36, approvals gated 2/22 (prose explaining a marker
/// above a JSON approval). Tuned on since: none gated.
#[test]
fn tuned_holdout_w57_corpus() {
    held_loosely(
        "holdout-w57",
        (62, 0, 0),
        &Bars {
            recall: 0.98,
            precision: 0.98,
            severity: 0.98,
            located: 0.99,
            family: 0.0,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w58`: written blind (62 answers, 7 families: reviews of one chunk of a big
/// change — framework upgrades, monorepo renames, regenerated clients, lint sweeps — with what the
/// reviewer could not see, file-by-file status tables and long lists of files checked; 10 in ten
/// other languages) and measured once, with the reader alone, after it was tuned on w3 to w57:
/// recall 0.98, precision 0.94, severity 0.97, located 1.00, approval 1.00, blockers caught
/// 19/19, no clean answer and no approval gated. Tuned on since (precision 0.97).
#[test]
fn tuned_holdout_w58_corpus() {
    held_loosely(
        "holdout-w58",
        (62, 0, 0),
        &Bars {
            recall: 0.97,
            precision: 0.96,
            severity: 0.96,
            located: 0.99,
            family: 0.0,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w59`: written blind (62 answers, 7 families; 50 wholly in one of sixteen less
/// common languages, the prompt's skeleton kept, translated or dropped) and measured once, with
/// the reader alone, after it was tuned on w3 to w58: recall 0.92, precision 0.90, severity 0.90,
/// located 1.00, approval 0.94, blockers caught 19/19, clean answers falsely gated 2/36,
/// approvals gated 2/22. Tuned on since: none gated.
#[test]
fn tuned_holdout_w59_corpus() {
    held_loosely(
        "holdout-w59",
        (62, 0, 0),
        &Bars {
            recall: 0.91,
            precision: 0.96,
            severity: 0.89,
            located: 0.99,
            family: 0.0,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w60`: written blind (62 answers, 14 families; rubrics, scorecards and
/// checklists: PASS/FAIL tables, traffic lights, scores out of 5, ticked and open boxes,
/// legends, release gates, compliance guides, pre-merge checks) and measured once, with the
/// reader alone, after it was tuned on w3 to w59: recall 0.90, precision 0.58, severity 0.91,
/// located 0.94, approval 0.94, blockers caught 18/19, clean answers falsely gated 6/36,
/// approvals gated 1/22. Tuned on since: none gated.
#[test]
fn tuned_holdout_w60_corpus() {
    held_loosely(
        "holdout-w60",
        (62, 0, 0),
        &Bars {
            recall: 0.97,
            precision: 0.97,
            severity: 0.97,
            located: 0.99,
            family: 0.0,
            clean_tenth: true,
        },
    );
}

/// `tuned/holdout-w61`: written blind (62 answers, 7 families; small, fast models that
/// half-follow the format: malformed or cut-off JSON, `S1`/`Sev1` levels, sections out of order)
/// and measured once, with the reader alone, after it was tuned on w3 to w60: recall 0.96,
/// precision 0.94, severity 0.92, located 0.96, approval 0.97, blockers caught 19/19, clean
/// answers falsely gated 4/36, approvals gated 2/22. Tuned on since: none gated.
#[test]
fn tuned_holdout_w61_corpus() {
    held_loosely(
        "holdout-w61",
        (62, 0, 0),
        &Bars {
            recall: 0.98,
            precision: 0.98,
            severity: 0.98,
            located: 0.99,
            family: 0.0,
            clean_tenth: true,
        },
    );
}
