//! The judge's answer reader against `tests/fixtures/judge-w3/`: 26 judge answers in the forms
//! real models use instead of the asked JSON (other keys, tables, bold bullets, sentences, id
//! ranges, other languages), written blind with their expected rulings (format in its README).
//!
//! A ruling is right when its verdict is, and its severity correction (or the lack of one)
//! matches; an id outside the round must come back as a note, never as a ruling. The scorecard
//! is printed (`cargo test --test cli judge_answers -- --nocapture`) and held to bars.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use git_debate::{parse_judge_round, Roots, Verdict};
use serde_json::Value;

#[derive(Default, Debug)]
struct Score {
    answers: usize,
    /// Expected rulings, rulings read for an id of the round, and those right in verdict.
    expected: usize,
    predicted: usize,
    verdict_right: usize,
    /// Of the verdicts right, those whose severity correction is right too.
    severity_right: usize,
    unknown_expected: usize,
    unknown_reported: usize,
    recommendation_right: usize,
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/judge-w3")
}

fn verdict_label(v: Verdict) -> &'static str {
    match v {
        Verdict::Valid => "valid",
        Verdict::Invalid => "invalid",
        Verdict::MissingContext => "missing-context",
    }
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

fn scorecard() -> Score {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md") && !p.ends_with("README.md"))
        .collect();
    names.sort();
    let mut s = Score::default();
    let mut misses = Vec::new();
    for path in &names {
        let text = std::fs::read_to_string(path).unwrap();
        let exp: Value = serde_json::from_str(
            &std::fs::read_to_string(path.with_extension("expected.json")).unwrap(),
        )
        .unwrap();
        let ids: Vec<String> = exp["ids"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        let j = parse_judge_round(&text, None, &Roots::default(), &ids);
        let want: BTreeMap<String, Value> = exp["rulings"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        s.answers += 1;
        s.expected += want.len();
        let mut wrong = Vec::new();
        for r in &j.rulings {
            s.predicted += 1;
            let Some(w) = want.get(&r.id) else {
                wrong.push(format!("{} ruled, not expected", r.id));
                continue;
            };
            if w["verdict"].as_str() == Some(verdict_label(r.verdict)) {
                s.verdict_right += 1;
                let sev = r.severity.map(|x| x.label().to_string());
                if w["severity"].as_str().map(str::to_string) == sev {
                    s.severity_right += 1;
                } else {
                    wrong.push(format!(
                        "{} severity {:?} want {}",
                        r.id, sev, w["severity"]
                    ));
                }
            } else {
                wrong.push(format!("{} {:?} want {}", r.id, r.verdict, w["verdict"]));
            }
        }
        for id in want.keys() {
            if !j.rulings.iter().any(|r| &r.id == id) {
                wrong.push(format!("{id} not read"));
            }
        }
        let unknown: Vec<&str> = exp["unknown_ids"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        s.unknown_expected += unknown.len();
        for u in &unknown {
            if j.notes.iter().any(|n| n.contains(&format!("{u} "))) {
                s.unknown_reported += 1;
            } else {
                wrong.push(format!("{u} (not in the round) not noted"));
            }
        }
        let rec = exp["recommendation"]
            .as_str()
            .and_then(|c| c.chars().next());
        if j.recommendation == rec {
            s.recommendation_right += 1;
        } else {
            wrong.push(format!(
                "recommendation {:?} want {rec:?}",
                j.recommendation
            ));
        }
        if !wrong.is_empty() {
            misses.push(format!(
                "{}: {}",
                path.file_stem().unwrap().to_string_lossy(),
                wrong.join("; ")
            ));
        }
    }
    println!(
        "judge-w3: {} answers; rulings recall {:.2} precision {:.2}, severity {:.2}, unknown ids noted {}/{}, recommendation {}/{}",
        s.answers,
        ratio(s.verdict_right, s.expected),
        ratio(s.verdict_right, s.predicted),
        ratio(s.severity_right, s.verdict_right),
        s.unknown_reported,
        s.unknown_expected,
        s.recommendation_right,
        s.answers
    );
    for m in &misses {
        println!("  {m}");
    }
    s
}

#[test]
fn the_judge_reader_on_judge_answers_in_every_common_form() {
    // First measured before any change to the judge reader: rulings recall 0.41, precision
    // 0.90, severity 0.89, unknown ids noted 0/2, recommendation 18/26. Tuned on since
    // (in-sample): the bars hold what was reached.
    let s = scorecard();
    assert!(s.answers >= 26, "the judge corpus shrank");
    assert!(ratio(s.verdict_right, s.expected) >= 0.95, "rulings recall");
    assert!(
        ratio(s.verdict_right, s.predicted) >= 0.95,
        "rulings precision"
    );
    assert!(ratio(s.severity_right, s.verdict_right) >= 0.9, "severity");
    assert_eq!(
        s.unknown_reported, s.unknown_expected,
        "an unknown id unsaid"
    );
    assert!(s.recommendation_right + 1 >= s.answers, "recommendation");
}
