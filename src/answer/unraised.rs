//! Findings an answer raises only in prose, where its structure says otherwise: "Approved? No."
//! with nothing listed, a JSON `reject` with an empty list, or a paragraph that rates a bug
//! ("I'd call it high severity") above a JSON block that approves. The more severe reading wins:
//! such an answer never agrees, and what it said becomes findings the gate can see.

use crate::answer::location::{self, Roots};
use crate::answer::{prose, verdict};
use crate::findings::{Finding, Location, Severity, Source};

/// The findings of an answer whose structure raised nothing: each paragraph that says no, or
/// that raises a problem and rates it or points at code; failing that (a bare "no"), one
/// finding of unknown severity carrying the JSON's summary or the sentence that says no.
pub fn findings(
    summary: Option<&str>,
    prose_text: &str,
    said_no: bool,
    json_approves: bool,
    roots: &Roots,
) -> Vec<Finding> {
    let paragraphs: Vec<&str> = prose_text
        .split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    // An answer that says outright it found nothing ("I have no issues to report.", or its JSON
    // approves with an empty list) and approves: a paragraph of what was checked names the
    // files it read; only a level or a line makes one of its worries a finding.
    let found_nothing = !said_no && (json_approves || verdict::found_nothing(prose_text));
    let raises = |p: &str| {
        let lined = || placed(p, roots).is_some_and(|l| l.start_line.is_some());
        // (Under such an approval a check's label names what was checked, not a problem:
        // "**Injection:** ruled out. `q` is bound (`store/search.go:34`)".)
        let concern = if found_nothing {
            verdict::raises_concern(&without_labels(p))
        } else {
            verdict::raises_concern(p)
        };
        (concern
            && (prose::severity_in(p).is_some()
                || (placed(p, roots).is_some() && (!found_nothing || weighs_a_level(p)))
                || lined()))
            // "One medium-severity thing: `a.kt:66` maps…": a level and a line are a
            // finding, whatever words it is told in.
            || (prose::severity_in(p).is_some() && lined())
            // Or a level alone in a clause of its own, about a file: "Small stuff, P3:
            // `values.yaml` line 12 …", "In `Table.tsx` … Low priority."
            // (Not "Low Risk" over a summary of the change: that rates the change.)
            || (prose::block_severity(p).is_some()
                && placed(p, roots).is_some()
                && !risk_rating(p))
            // Or a level and a line of the file named before ("E um detalhe cosmético no
            // mesmo arquivo: … na linha 51").
            || (prose::block_severity(p).is_some_and(|s| s != Severity::Unclassified)
                && location::lines_in(p).is_some()
                && !risk_rating(p))
    };
    // A struck-through or "✅ Addressed" comment is one the reviewer withdrew.
    let said: Vec<&str> = paragraphs
        .iter()
        .copied()
        .filter(|p| !crate::answer::vocab::is_withdrawn(p) && !verdict::ruled_out(p))
        .collect();
    // A paragraph that only says no ("Short answer: not safe to merge yet.") is the verdict on
    // the paragraphs that raise something, not a finding beside them; alone, it is the finding.
    // (Only beside a point that trips the gate as the no would: a blocker, or one without a
    // level. Beside a P3 alone, "not safe to merge" stays a finding, so the gate still sees it.)
    let any_raised = said.iter().any(|p| {
        raises(p)
            && matches!(
                from_paragraph(p, roots).severity,
                Severity::P0 | Severity::P1 | Severity::Unclassified
            )
    });
    let mut out: Vec<Finding> = said
        .iter()
        .filter(|p| {
            let objects = verdict::objection(p).is_some();
            let only_no = p.split_whitespace().count() <= 12 && !verdict::raises_concern(p);
            raises(p) || (objects && !(any_raised && only_no))
        })
        .map(|p| from_paragraph(p, roots))
        .collect();
    if out.is_empty() && said_no {
        let said = summary
            .filter(|s| !s.trim().is_empty())
            .map(str::to_string)
            .or_else(|| verdict::objection(prose_text))
            .unwrap_or_else(|| "The reviewer does not approve the change".to_string());
        let mut f = Finding::new(Severity::Unclassified, &first_sentence(&said));
        f.body = said.trim().to_string();
        f.source = Source::Verdict;
        out.push(f);
    }
    out
}

/// The paragraph without its bold labels (`**Injection:**`, `**Error handling**:`).
fn without_labels(p: &str) -> String {
    static LABEL: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(&LABEL, r"\*\*[^*\n]{1,40}:\*\*|\*\*[^*\n]{1,40}\*\*\s*:")
        .replace_all(p, "")
        .into_owned()
}

/// Does the paragraph weigh a blocker's level, even as a hypothetical ("This would have been a
/// P1 if `Reset` assigned `nil`, and it does")? Then an approval elsewhere does not clear it.
fn weighs_a_level(p: &str) -> bool {
    static LEVEL: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(&LEVEL, r"(?i)\b(?:p[01]|blocker|must[- ]fix)\b").is_match(p)
}

/// Does the paragraph rate the change's risk ("**Low Risk**", "medium risk: touches the
/// middleware")?
fn risk_rating(p: &str) -> bool {
    static RISK: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(
        &RISK,
        r"(?i)\b(?:very low|low|minimal|medium|moderate|high|elevated)[\s*_-]+risk\b",
    )
    .is_match(p)
}

fn from_paragraph(p: &str, roots: &Roots) -> Finding {
    let severity = prose::severity_in(p)
        .or_else(|| prose::block_severity(p))
        .unwrap_or(Severity::Unclassified);
    let mut f = Finding::new(severity, &first_sentence(p));
    f.body = p.to_string();
    f.location = placed(p, roots);
    f
}

/// The first file the paragraph names, with its line or the line it mentions ("around line 88").
/// (When the paragraph names several files before a bare "at line 44", the line is the file's
/// named last before it: "… moving the probes into `values.yaml` … the block in
/// `templates/deployment.yaml` is now wrapped … at line 44".)
fn placed(p: &str, roots: &Roots) -> Option<Location> {
    let all: Vec<Location> = location::find_all(p, roots)
        .into_iter()
        .filter(|l| !l.path.is_empty() && !l.outside)
        .collect();
    let mut l = all.first()?.clone();
    if l.start_line.is_none() {
        if let Some((s, e)) = location::lines_in(p) {
            let said_at = [format!("line {s}"), format!("Line {s}"), format!("L{s}")]
                .iter()
                .filter_map(|w| p.find(w.as_str()))
                .min();
            let before = said_at.and_then(|at| {
                all.iter()
                    .filter(|c| c.start_line.is_none())
                    .filter_map(|c| p[..at].rfind(c.path.as_str()).map(|i| (i, c)))
                    .max_by_key(|(i, _)| *i)
                    .map(|(_, c)| c.path.clone())
            });
            l = Location::new(before.as_deref().unwrap_or(&l.path), Some(s), e);
        }
    }
    Some(l)
}

fn first_sentence(text: &str) -> String {
    // (The first line that says something: not the heading the paragraph sits under, nor its
    // list marker — "## Risks" / "- `src/cache.ts:14` now connects at load" — nor "1.".)
    static MARKER: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let marker = crate::answer::re(&MARKER, r"^(?:[-*+•]|\d{1,3}[.)])\s+");
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    let line = marker.find(line).map_or(line, |m| &line[m.end()..]);
    let end = line
        .char_indices()
        .find(|(i, c)| matches!(c, '.' | '!' | '?') && line[i + 1..].starts_with(' '))
        .map_or(line.len(), |(i, _)| i + 1);
    line[..end].chars().take(160).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_is_titled_by_what_it_says_not_its_heading_or_list_marker() {
        assert_eq!(
            first_sentence("## Risks\n- `a.ts:14` connects at load. Cron will throw."),
            "`a.ts:14` connects at load."
        );
        assert_eq!(
            first_sentence("1.  **Correctness:** the timer is cleared. Fine."),
            "**Correctness:** the timer is cleared."
        );
    }

    #[test]
    fn a_bare_no_beside_a_raised_point_is_its_verdict() {
        let roots = Roots::default();
        let text =
            "Short answer: not safe to merge yet.\n\nLine 19 of `ci/c.py` calls `yaml.load` \
without a Loader, which can build arbitrary objects. I'd put this at P1.";
        let f = findings(None, text, true, false, &roots);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::P1);
        // A no that says why is a point of its own.
        let why = "Not safe to merge: the migration drops the users table and nothing restores \
it.\n\nLine 19 of `ci/c.py` calls `yaml.load` without a Loader. I'd put this at P1.";
        assert_eq!(findings(None, why, true, false, &roots).len(), 2);
        // Beside a minor point only, the no stays a finding the gate sees.
        let minor = "Short answer: not safe to merge yet.\n\nLine 19 of `ci/c.py` has a typo in \
the log message. I'd put this at P3.";
        assert_eq!(findings(None, minor, true, false, &roots).len(), 2);
        // Alone, the no is the finding.
        assert_eq!(
            findings(
                None,
                "Short answer: not safe to merge yet.",
                true,
                false,
                &roots
            )
            .len(),
            1
        );
    }

    #[test]
    fn a_bare_line_is_in_the_file_named_just_before_it() {
        let roots = Roots::default();
        let text = "The probes moved into `values.yaml`; the block in \
`charts/api/templates/deployment.yaml` is now wrapped in a condition at line 44, so prod pods \
report Ready too early — that is a P1.\n\nSmall stuff, P3: `charts/api/values.yaml` line 12 \
still has the old comment.\n\nRequest changes.";
        let f = findings(None, text, true, false, &roots);
        let seen: Vec<(Severity, String)> = f
            .iter()
            .map(|f| {
                (
                    f.severity,
                    f.location.as_ref().map_or("-".into(), |l| l.display()),
                )
            })
            .collect();
        assert_eq!(
            seen,
            [
                (
                    Severity::P1,
                    "charts/api/templates/deployment.yaml:44".into()
                ),
                (Severity::P3, "charts/api/values.yaml:12".into())
            ]
        );
    }

    #[test]
    fn a_risk_rating_over_a_summary_raises_nothing() {
        let roots = Roots::default();
        let note = "> **Low Risk**\n> Tooling-only change.\n>\n> - replaces `.eslintrc.cjs` with \
`eslint.config.js`\n\nBugbot reviewed your changes and found no bugs!";
        assert!(findings(None, note, false, false, &roots).is_empty());
    }

    #[test]
    fn a_lone_level_raises_a_paragraph_about_a_file() {
        let roots = Roots::default();
        let low = "The refactor is fine overall.\n\nIn `src/Table.tsx` the `aria-sort` attribute \
sits on the button. Low priority.\n\nOtherwise looks good.";
        let f = findings(None, low, false, false, &roots);
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].severity, Severity::P3);
    }

    #[test]
    fn a_no_or_a_rated_paragraph_is_a_finding() {
        let roots = Roots::default();
        let f = findings(None, "Approved? No. It drops data.", true, false, &roots);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Unclassified);
        let f = findings(Some("The migration is unsafe."), "", true, false, &roots);
        assert_eq!(f[0].title, "The migration is unsafe.");
        let text = "A clean refactor.\n\nOne thing I can't let through, and I'd call it high severity: in `src/p.go` around line 88 the cursor decode error is dropped, so clients loop forever.\n\nEverything else looks fine.";
        let f = findings(None, text, false, false, &roots);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::P1);
        assert_eq!(f[0].location.as_ref().unwrap().display(), "src/p.go:88");
        // Praise raises nothing.
        assert!(findings(None, "A clean refactor, well tested.", false, false, &roots).is_empty());
    }
}
