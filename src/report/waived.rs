//! Waivers applied to a review's report.
//!
//! A finding is waived when a waiver's fingerprint is the finding's SARIF fingerprint
//! ([`crate::report::ci::fingerprint`]: file, normalised title, the code around it) and the
//! waiver has not expired. A waived finding leaves the unresolved list (so neither the gate nor
//! the next actions count it) for a list of its own that every format shows with the waiver's
//! reason; an expired waiver that would have matched is said in the report, and its finding
//! counts. Since the fingerprint holds the code around the finding, a waiver never covers the
//! same finding on changed code, and moved code keeps its fingerprint.

use time::Date;

use crate::report::Report;
use crate::waivers::Waiver;

/// Marks the unresolved findings of `r` that `waivers` cover as waived, counts the gate and
/// the next actions again; `today` decides expiry (`None`: the waivers were already checked).
pub fn apply(r: &mut Report, waivers: &[Waiver], today: Option<Date>, code: bool) {
    if waivers.is_empty() {
        return;
    }
    let mut kept = Vec::new();
    for mut item in std::mem::take(&mut r.unresolved) {
        let print = crate::report::ci::fingerprint(&item);
        let matching: Vec<&Waiver> = waivers.iter().filter(|w| w.fingerprint == print).collect();
        let active = matching
            .iter()
            .find(|w| today.is_none_or(|t| !w.expired(t)));
        match (active, matching.first()) {
            (Some(w), _) => {
                item.waiver = Some((*w).clone());
                r.waived.push(item);
            }
            (None, Some(w)) => {
                r.waiver_notes.push(format!(
                    "the waiver of [{}] {} (by {}, {}) expired on {}; it counts again",
                    item.id,
                    item.title,
                    if w.by.is_empty() { "unknown" } else { &w.by },
                    w.reason,
                    w.expiry()
                ));
                kept.push(item);
            }
            (None, None) => kept.push(item),
        }
    }
    r.unresolved = kept;
    for f in &mut r.findings {
        if let Some(w) = r.waived.iter().find(|w| w.id == f.id) {
            f.waiver = w.waiver.clone();
        }
    }
    r.gate = crate::report::gate(
        &r.unresolved,
        r.gate.fail_on,
        r.gate.trust_judge,
        r.gate.consensus,
    );
    r.gate.waived = r.waived.len();
    r.next_actions = crate::report::next_actions(r, code);
}
