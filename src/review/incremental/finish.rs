//! The two ends of an incremental review's model call: what the reviewer is told about the
//! carried findings, and what its answer makes of them: an [`Incremental`] record, which the
//! report merges and renders.

use std::path::Path;

use crate::review::incremental::{carry, Plan};
pub use crate::store::incremental::{CarriedItem, Incremental};

/// The reviewer's instructions for the carried findings (our text, outside the fence) and the
/// findings themselves (model text, fenced as data).
pub fn context(plan: &Plan) -> String {
    let mut s = format!(
        "\nThis is an incremental review. The change below is only what changed in this \
         branch's files since an earlier review ({} -> {}); review it as usual.\n",
        short(plan.basis.old_head.as_deref()),
        short(plan.basis.new_head.as_deref())
    );
    if plan.carried.is_empty() {
        return s;
    }
    let mut list = String::new();
    for c in &plan.carried {
        let f = &c.finding;
        let at = match (&c.anchoring, f.location.as_ref()) {
            (carry::Anchoring::Gone { why }, _) => format!(" — {why}"),
            (_, Some(l)) => format!(" — {}", l.display()),
            _ => String::new(),
        };
        list.push_str(&format!(
            "- {} [{}] {}{at}\n",
            f.id,
            f.severity.label(),
            f.title
        ));
        if !f.body.is_empty() {
            list.push_str(&format!("  {}\n", f.body.replace('\n', "\n  ")));
        }
    }
    s.push_str(&format!(
        "The earlier review left these findings open (where they point now, at the new head):\n{}",
        crate::prompts::fence::wrap("CARRIED FINDINGS", &list)
    ));
    s.push_str(
        "Besides your findings on the change, say for each carried finding whether it is fixed, \
         still open or not applicable any more: end with a section `## Carried findings`, one \
         line per finding, `- F<n>: fixed | still open | not applicable — why` (when your \
         answer must be one JSON object, put those lines at the end of its `summary`). Do not \
         list a carried finding again among your findings.\n",
    );
    s
}

fn short(h: Option<&str>) -> String {
    h.map(|h| h.chars().take(12).collect())
        .unwrap_or_else(|| "?".into())
}

/// The plan stored in the session folder `dir`, if it is an incremental review (a plan that
/// cannot be read makes it a plain review, as the report then says nothing incremental).
pub fn load(dir: &Path) -> Option<Plan> {
    crate::store::folder::plan(dir).ok().flatten()
}

/// How the incremental review of the session in `dir` ends (`None` when the session is not
/// incremental): the reviewer's statuses are read from round 1's answers. `unresolved`: the ids
/// of the findings the report holds unresolved.
pub fn finish(dir: &Path, unresolved: &[&str]) -> Option<Incremental> {
    let plan = load(dir)?;
    let answer = crate::store::session_read::read(&dir.join("round-1-critique.md"))
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    Some(outcome(&plan, &answer, unresolved))
}

/// The incremental record of `plan`, given round 1's `answer` and the ids of the findings the
/// report holds unresolved (a carried finding among them was raised again).
pub fn outcome(plan: &Plan, answer: &str, unresolved: &[&str]) -> Incremental {
    let asked: Vec<(String, String)> = plan
        .carried
        .iter()
        .map(|c| (c.finding.id.clone(), c.finding.title.clone()))
        .collect();
    let said = crate::answer::carried::read(answer, &asked);
    let carried = plan
        .carried
        .iter()
        .map(|c| {
            let id = &c.finding.id;
            let again = unresolved.contains(&id.as_str());
            let (status, why) = carry::decide(
                &c.anchoring,
                said.status.get(id).copied(),
                said.ambiguous.contains(id),
                again,
            );
            CarriedItem {
                id: id.clone(),
                severity: c.finding.severity.label().to_string(),
                title: c.finding.title.clone(),
                status: status.label().to_string(),
                why,
                location: c.finding.location.clone(),
                previous_location: c.previous.clone(),
                finding: Some(c.finding.clone()),
            }
        })
        .collect();
    Incremental {
        basis: plan.basis.clone(),
        counts: Default::default(),
        carried,
    }
}
