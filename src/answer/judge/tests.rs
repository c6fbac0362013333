use super::*;
use crate::findings::{Finding, Severity};

fn finding(id: &str, sev: Severity, action: bool) -> Finding {
    let mut f = Finding::new(sev, &format!("{id} title"));
    f.id = id.into();
    f.action = action.then(|| "do this".to_string());
    f
}

fn parse_text(text: &str) -> Judgement {
    parse_round(text, None, &Roots::default(), &[])
}

#[test]
fn json_rulings_added_findings_and_letter() {
    let j = parse_text("Analysis...\n```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"valid\",\"severity\":\"P2\",\"reason\":\"true\"},{\"id\":\"F2\",\"verdict\":\"invalid\",\"reason\":\"misread\"}],\"added\":[{\"severity\":\"P3\",\"title\":\"also this\"}],\"recommendation\":\"C\",\"reason\":\"partly right\"}\n```");
    assert_eq!(j.rulings.len(), 2);
    assert_eq!(j.rulings[0].severity, Some(Severity::P2));
    assert_eq!(j.rulings[1].verdict, Verdict::Invalid);
    assert_eq!(j.added[0].title, "also this");
    assert_eq!(j.recommendation, Some('C'));
    // A judge that thinks aloud first, then gives its rulings as an object in prose.
    let j = parse_text(
        "<think>F1 looks right; F2 is \"F2: invalid\"?</think>\nMy rulings:\n\
{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"valid\",\"reason\":\"r\"}],\
\"recommendation\":\"D\"}\n",
    );
    assert_eq!(j.rulings.len(), 1);
    assert_eq!(j.recommendation, Some('D'));
}

#[test]
fn plain_lines_when_there_is_no_json() {
    let j = parse_text("- F1: valid — real bug\n- **F2** invalid: the lock is released\n- F3 missing context\n\nRecommendation: **D**");
    let v: Vec<_> = j
        .rulings
        .iter()
        .map(|r| (r.id.as_str(), r.verdict))
        .collect();
    assert_eq!(
        v,
        [
            ("F1", Verdict::Valid),
            ("F2", Verdict::Invalid),
            ("F3", Verdict::MissingContext)
        ]
    );
    assert_eq!(j.recommendation, Some('D'));
}

#[test]
fn the_rubric() {
    let rule = |id: &str, v: Verdict, sev: Option<Severity>| Ruling {
        id: id.into(),
        verdict: v,
        severity: sev,
        reason: String::new(),
    };
    let judge = |fs: Vec<Finding>, rs: Vec<Ruling>| {
        rubric(&apply(
            &fs,
            &Judgement {
                rulings: rs,
                ..Default::default()
            },
        ))
        .0
    };
    // Valid P1 with an action: B; without: D.
    assert_eq!(judge(vec![finding("F1", Severity::P1, true)], vec![]), 'B');
    assert_eq!(judge(vec![finding("F1", Severity::P0, false)], vec![]), 'D');
    // The judge downgrades the P1 to P2: C. Rules it invalid: A.
    assert_eq!(
        judge(
            vec![finding("F1", Severity::P1, true)],
            vec![rule("F1", Verdict::Valid, Some(Severity::P2))]
        ),
        'C'
    );
    assert_eq!(
        judge(
            vec![finding("F1", Severity::P1, true)],
            vec![rule("F1", Verdict::Invalid, None)]
        ),
        'A'
    );
    // Missing context on a P2: D. Only P3: A. Nothing: A.
    assert_eq!(
        judge(
            vec![finding("F1", Severity::P2, true)],
            vec![rule("F1", Verdict::MissingContext, None)]
        ),
        'D'
    );
    assert_eq!(judge(vec![finding("F1", Severity::P3, true)], vec![]), 'A');
    assert_eq!(judge(vec![], vec![]), 'A');
    // Unknown severity is never waved through or compromised away: the reviewer must
    // classify it; once the judge classifies it, its level counts.
    assert_eq!(
        judge(vec![finding("F1", Severity::Unclassified, true)], vec![]),
        'D'
    );
    assert_eq!(
        judge(
            vec![
                finding("F1", Severity::Unclassified, true),
                finding("F2", Severity::P1, true)
            ],
            vec![]
        ),
        'D'
    );
    assert_eq!(
        judge(
            vec![finding("F1", Severity::Unclassified, true)],
            vec![rule("F1", Verdict::Valid, Some(Severity::P3))]
        ),
        'A'
    );
}

fn round(text: &str, ids: &[&str]) -> Judgement {
    let ids: Vec<String> = ids.iter().map(|s| s.to_string()).collect();
    parse_round(text, None, &Roots::default(), &ids)
}

fn verdicts(j: &Judgement) -> Vec<(&str, Verdict, Option<Severity>)> {
    j.rulings
        .iter()
        .map(|r| (r.id.as_str(), r.verdict, r.severity))
        .collect()
}

#[test]
fn json_with_other_keys_and_keyed_by_id() {
    let j = round(
        "```json\n{\"rulings\":[{\"finding\":\"F1\",\"ruling\":\"invalid\"},{\"finding\":\"f2\",\"ruling\":\"VALID\",\"new_severity\":\"P1\"}],\"decision\":\"d\"}\n```",
        &["F1", "F2"],
    );
    assert_eq!(
        verdicts(&j),
        [
            ("F1", Verdict::Invalid, None),
            ("F2", Verdict::Valid, Some(Severity::P1))
        ]
    );
    assert_eq!(j.recommendation, Some('D'));
    let j = round(
        "{\"F1\": {\"status\": \"needs-context\"}, \"F2\": \"invalid\", \"recommendation\": \"A\"}",
        &["F1", "F2"],
    );
    assert_eq!(
        verdicts(&j),
        [
            ("F1", Verdict::MissingContext, None),
            ("F2", Verdict::Invalid, None)
        ]
    );
    // Cut off by the token limit: the rulings written before the cut.
    let j = round(
        "```json\n{\"classifications\": [{\"id\": \"F1\", \"verdict\": \"valid\", \"severity\": null, \"reason\": \"yes\"}, {\"id\": \"F2\", \"verdict\": \"invalid\", \"reason\": \"the lo",
        &["F1", "F2"],
    );
    assert_eq!(
        verdicts(&j),
        [("F1", Verdict::Valid, None), ("F2", Verdict::Invalid, None)]
    );
}

#[test]
fn tables_bullets_and_sentences() {
    let j = round(
        "| Finding | Verdict | Severity | Reason |\n|---|---|---|---|\n| F1 | Valid | — | r |\n| F2 | Valid | P2 (was P1) | r |\n\nRecommendation: **C** (compromise)",
        &["F1", "F2"],
    );
    assert_eq!(
        verdicts(&j),
        [
            ("F1", Verdict::Valid, None),
            ("F2", Verdict::Valid, Some(Severity::P2))
        ]
    );
    assert_eq!(j.recommendation, Some('C'));
    let j = round(
        "F1 is valid. The serializer changed.\n\nI agree with F2, but it's a P3 at most.\n\nF3: not a real problem.\n\nF4 and F5 are both invalid.\n\nI recommend option (B).",
        &["F1", "F2", "F3", "F4", "F5"],
    );
    assert_eq!(
        verdicts(&j),
        [
            ("F1", Verdict::Valid, None),
            ("F2", Verdict::Valid, Some(Severity::P3)),
            ("F3", Verdict::Invalid, None),
            ("F4", Verdict::Invalid, None),
            ("F5", Verdict::Invalid, None)
        ]
    );
    assert_eq!(j.recommendation, Some('B'));
    // A range, a restated level, a change of mind, a letter in words only.
    let j = round(
        "I can't rule on F1–F3 without the full file.\n- F4: valid (P1 as reported).\n- F5: invalid.\n\nOn re-reading, F5 is valid after all. I'd stop the debate here.",
        &["F1", "F2", "F3", "F4", "F5"],
    );
    assert_eq!(
        verdicts(&j),
        [
            ("F1", Verdict::MissingContext, None),
            ("F2", Verdict::MissingContext, None),
            ("F3", Verdict::MissingContext, None),
            ("F4", Verdict::Valid, None),
            ("F5", Verdict::Valid, None)
        ]
    );
    assert_eq!(j.recommendation, Some('E'));
}

#[test]
fn other_languages_and_a_single_finding() {
    let j = round(
        "- **F1：妥当（valid）** — x\n- **F2：無効** — y\n\n**推奨：C**",
        &["F1", "F2"],
    );
    assert_eq!(
        verdicts(&j),
        [("F1", Verdict::Valid, None), ("F2", Verdict::Invalid, None)]
    );
    assert_eq!(j.recommendation, Some('C'));
    let j = round(
        "F1: 유효하지만 심각도는 P3로 낮춥니다.\nF2: 缺少上下文。\nF3: inválido.\n\n권고: **D**",
        &["F1", "F2", "F3"],
    );
    assert_eq!(
        verdicts(&j),
        [
            ("F1", Verdict::Valid, Some(Severity::P3)),
            ("F2", Verdict::MissingContext, None),
            ("F3", Verdict::Invalid, None)
        ]
    );
    assert_eq!(j.recommendation, Some('D'));
    let j = round(
        "Valid — the lock file is removed too early.\n\nRecommendation: B",
        &["F1"],
    );
    assert_eq!(verdicts(&j), [("F1", Verdict::Valid, None)]);
}

#[test]
fn what_cannot_be_applied_comes_back_as_a_note() {
    // A ruling on an id outside the round is a note, not a ruling.
    let j = round(
        "- F1: valid\n- F4: valid, the seed script too",
        &["F1", "F2"],
    );
    assert_eq!(verdicts(&j), [("F1", Verdict::Valid, None)]);
    assert!(j.notes.iter().any(|n| n.starts_with("F4 is not a finding")));
    // A verdict that cannot be read, and an id named without a ruling.
    let j = round(
        "{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"partly\"}]}\n\nF2 needs a closer look.",
        &["F1", "F2"],
    );
    assert!(j.rulings.is_empty());
    assert!(j
        .notes
        .iter()
        .any(|n| n.contains("F1") && n.contains("could not be read")));
    assert!(j.notes.iter().any(|n| n.starts_with("F2 is named")));
    // A template echoed before the answer is not the answer.
    let j = round(
        "```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"valid|invalid|missing-context\"}],\"recommendation\":\"A|B|C|D|E\"}\n```\n```json\n{\"classifications\":[{\"id\":\"F1\",\"verdict\":\"invalid\"}],\"recommendation\":\"E\"}\n```",
        &["F1"],
    );
    assert_eq!(verdicts(&j), [("F1", Verdict::Invalid, None)]);
    assert_eq!(j.recommendation, Some('E'));
}
