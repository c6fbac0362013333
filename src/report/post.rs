//! `git debate post`: a finished review on its GitHub pull request, where the reviewers of the
//! change read — not only in a job summary or a log.
//!
//! Two things are posted. One pull-request review (event `COMMENT`) with a comment on each
//! unresolved finding whose lines were found in the changed hunks (only those: GitHub refuses a
//! whole review when one comment is off the diff), saying the finding, why and the fix, with a
//! ```` ```suggestion ```` block when the fix is a patch of exactly those lines
//! ([`crate::report::suggestion`]). And one summary comment, the markdown report, found on the
//! next post by a hidden marker and edited, so a pull request has one summary however often it is
//! pushed. The review carries a marker with the session id, so posting a session twice adds no
//! second review. Findings elsewhere are in the summary.

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::findings::LocationCheck;
use crate::report::ci::location;
use crate::report::github_api::{Api, Refused};
use crate::report::suggestion::{split, suggestion};
use crate::report::{Item, Report};

/// The hidden first line of the summary comment, by which the next post finds it.
pub const SUMMARY_MARKER: &str = "<!-- git-debate:summary -->";

/// Where to post: the API, the repository and the pull request.
pub struct Target {
    pub api: String,
    pub token: String,
    /// `owner/name`.
    pub repo: String,
    pub pr: u64,
    /// The commit the comments are on; GitHub takes the pull request's newest without it.
    pub commit: Option<String>,
}

/// What happened to the review.
#[derive(Debug, PartialEq, Eq)]
pub enum ReviewPosted {
    /// Posted, with this many line comments.
    Posted(usize),
    /// This session's review is already on the pull request.
    AlreadyThere,
    /// No finding has lines in the change: the summary says everything.
    NothingOnLines,
    /// GitHub refused the line comments (a line not in its diff): the summary has the findings.
    Refused(String),
}

/// What was posted.
#[derive(Debug)]
pub struct Posted {
    pub review: ReviewPosted,
    /// The summary comment's address, and whether it was edited (not created).
    pub summary_url: String,
    pub summary_updated: bool,
}

/// A line comment of a review (GitHub's "create a review" request: `comments[]`).
#[derive(Debug, Serialize)]
pub struct LineComment {
    pub path: String,
    /// The last line; `start_line` the first, when more than one.
    pub line: u64,
    pub side: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_side: Option<&'static str>,
    pub body: String,
}

/// The "create a review for a pull request" request.
#[derive(Debug, Serialize)]
pub struct ReviewRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub commit_id: Option<String>,
    pub event: &'static str,
    pub body: String,
    pub comments: Vec<LineComment>,
}

/// An issue comment's request body.
#[derive(Serialize)]
struct CommentRequest<'a> {
    body: &'a str,
}

/// What is read of a review or an issue comment GitHub lists or returns.
#[derive(Deserialize)]
struct Answered {
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    body: Option<String>,
    #[serde(default)]
    html_url: Option<String>,
}

fn review_marker(session: &str) -> String {
    format!("<!-- git-debate:review {session} -->")
}

/// The lines of the change a finding may be commented on, and the suggestion for them.
fn lines_of(i: &Item) -> Option<(String, u64, u64, Option<String>)> {
    let l = i.location.as_ref()?;
    if l.check != Some(LocationCheck::Verified) {
        return None;
    }
    let (path, start, end) = location(i)?;
    match i
        .action
        .as_deref()
        .and_then(|a| suggestion(a, &path, start, end))
    {
        // A suggested change replaces exactly the lines its comment is on.
        Some(s) => Some((path, s.start, s.end, Some(s.text))),
        None => Some((path, start, end, None)),
    }
}

/// A line comment's text: the finding, why, the fix, and the suggested change or the patch.
pub fn comment_body(i: &Item, suggested: Option<&str>) -> String {
    // The words are made inert (no raw HTML, no @mentions: [`crate::report::inert`]); the code
    // block is not, since GitHub shows a fence's text as it is and applies a suggestion verbatim.
    let mut s = format!("**{} · [{}] {}**\n", i.severity_text(), i.id, i.title);
    if !i.body.trim().is_empty() {
        s.push_str(&format!("\n{}\n", i.body.trim()));
    }
    let mut code = String::new();
    if let Some(a) = i.action.as_deref().filter(|a| !a.trim().is_empty()) {
        let fix = split(a);
        if !fix.prose.is_empty() {
            s.push_str(&format!("\n**Fix.** {}\n", fix.prose));
        }
        match (suggested, fix.diff) {
            (Some(text), _) => {
                let f = crate::report::human::fence(text);
                code = format!("\n{f}suggestion\n{text}\n{f}\n");
            }
            (None, Some(d)) => {
                let f = crate::report::human::fence(&d);
                code = format!("\n{f}diff\n{d}\n{f}\n");
            }
            (None, None) => {}
        }
    }
    crate::report::inert::markdown(&s) + &code
}

/// The review's line comments, most severe first (GitHub's request shape: `path`, `line`,
/// `side`, and `start_line`/`start_side` for more than one line).
pub fn comments(r: &Report) -> Vec<LineComment> {
    let mut items: Vec<&Item> = r.unresolved.iter().collect();
    items.sort_by_key(|i| (i.rank(), i.severity));
    items
        .into_iter()
        .filter_map(|i| {
            let (path, start, end, suggested) = lines_of(i)?;
            let many = start < end;
            Some(LineComment {
                path,
                line: end,
                side: "RIGHT",
                start_line: many.then_some(start),
                start_side: many.then_some("RIGHT"),
                body: comment_body(i, suggested.as_deref()),
            })
        })
        .collect()
}

/// The review's request body, or `None` when no finding has lines in the change.
pub fn review(r: &Report, commit: Option<&str>) -> Option<ReviewRequest> {
    let comments = comments(r);
    if comments.is_empty() {
        return None;
    }
    Some(ReviewRequest {
        commit_id: commit.map(str::to_string),
        event: "COMMENT",
        body: format!(
            "{}\n**git debate** (session `{}`): {} of {} unresolved finding(s) on lines of this \
             change, below; the summary comment lists them all.",
            review_marker(&r.session),
            r.session,
            comments.len(),
            r.unresolved.len()
        ),
        comments,
    })
}

/// The summary comment's text: the marker, then the markdown report.
pub fn summary(r: &Report) -> String {
    format!("{SUMMARY_MARKER}\n{}", crate::report::markdown(r))
}

fn has(v: &Answered, marker: &str) -> bool {
    v.body.as_deref().is_some_and(|b| b.contains(marker))
}

/// Posts `r` (see the module documentation).
pub fn post(r: &Report, t: &Target) -> Result<Posted> {
    let r = &r.for_display();
    let api = Api::new(&t.api, &t.token);
    let (repo, pr) = (&t.repo, t.pr);

    let text = summary(r);
    let body = CommentRequest { body: &text };
    let existing = api
        .list::<Answered>(&format!("/repos/{repo}/issues/{pr}/comments"))?
        .into_iter()
        .find(|c| has(c, SUMMARY_MARKER));
    let (answer, summary_updated): (Answered, bool) = match existing.and_then(|c| c.id) {
        Some(id) => (
            api.call(
                "PATCH",
                &format!("/repos/{repo}/issues/comments/{id}"),
                Some(&body),
            )?,
            true,
        ),
        None => (
            api.call(
                "POST",
                &format!("/repos/{repo}/issues/{pr}/comments"),
                Some(&body),
            )?,
            false,
        ),
    };
    let summary_url = answer.html_url.unwrap_or_default();

    let review = match review(r, t.commit.as_deref()) {
        None => ReviewPosted::NothingOnLines,
        Some(payload) => {
            let path = format!("/repos/{repo}/pulls/{pr}/reviews");
            let marker = review_marker(&r.session);
            if api.list::<Answered>(&path)?.iter().any(|v| has(v, &marker)) {
                ReviewPosted::AlreadyThere
            } else {
                let n = payload.comments.len();
                match api.call::<Answered>("POST", &path, Some(&payload)) {
                    Ok(_) => ReviewPosted::Posted(n),
                    Err(e) => match e.downcast_ref::<Refused>() {
                        Some(refused) if refused.status == 422 => {
                            ReviewPosted::Refused(refused.to_string())
                        }
                        _ => return Err(e),
                    },
                }
            }
        }
    };
    Ok(Posted {
        review,
        summary_url,
        summary_updated,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn values<T: Serialize>(t: T) -> Value {
        serde_json::to_value(t).unwrap()
    }

    #[test]
    fn line_comments_only_in_the_change_with_a_suggestion_for_a_patch_of_their_lines() {
        let r = crate::report::sample::report(
            json!([
                {"severity": "P3", "title": "nit", "location": {"path": "a.rs", "start_line": 9, "check": "verified"}},
                {"severity": "P1", "title": "wrong sum", "body": "It subtracts.",
                 "location": {"path": "a.rs", "start_line": 2, "end_line": 4, "check": "verified"},
                 "action": "Add instead.\n```diff\n@@ -3 +3 @@\n-a - b\n+a + b\n```"},
                {"severity": "P2", "title": "old code", "location": {"path": "b.rs", "start_line": 1, "check": "outside-change"}},
                {"severity": "P2", "title": "nowhere"},
            ]),
            None,
        );
        let c = values(comments(&r));
        assert_eq!(
            c.as_array().unwrap().len(),
            2,
            "only lines in the changed hunks: {c:#}"
        );
        // Most severe first; the suggestion's one line, not the finding's three.
        assert_eq!(c[0]["path"], "a.rs");
        assert_eq!(
            (c[0]["line"].as_u64(), c[0].get("start_line")),
            (Some(3), None)
        );
        assert_eq!(c[0]["side"], "RIGHT");
        let body = c[0]["body"].as_str().unwrap();
        assert!(body.starts_with("**P1 · [F2] wrong sum**"), "{body}");
        assert!(body.contains("It subtracts."), "{body}");
        assert!(body.contains("**Fix.** Add instead."), "{body}");
        assert!(body.contains("\n```suggestion\na + b\n```\n"), "{body}");
        // Model text pings nobody and runs no HTML; the suggested code stays as it is.
        let loud = crate::report::sample::report(
            json!([{"severity": "P2", "title": "ask @octocat <img src=x>",
                "location": {"path": "a.rs", "start_line": 1, "check": "verified"},
                "action": "@@ -1 +1 @@\n-a<b\n+a <= b"}]),
            None,
        );
        let body = comment_body(&loud.unresolved[0], Some("a <= b"));
        assert!(
            !body.contains(" @octocat") && !body.contains("<img"),
            "{body}"
        );
        assert!(body.contains("```suggestion\na <= b\n```"), "{body}");
        assert_eq!(c[1]["line"], 9);
        let v = values(review(&r, Some("abc")).unwrap());
        assert_eq!(v["event"], "COMMENT");
        assert_eq!(v["commit_id"], "abc");
        assert!(v["body"]
            .as_str()
            .unwrap()
            .starts_with("<!-- git-debate:review s1 -->"));
    }

    #[test]
    fn a_range_without_a_suggestion_is_a_multi_line_comment_with_the_patch() {
        let r = crate::report::sample::report(
            json!([{"severity": "P2", "title": "t",
                "location": {"path": "a.rs", "start_line": 2, "end_line": 4, "check": "verified"},
                "action": "```diff\n@@ -7 +7 @@\n-x\n+y\n```"}]),
            None,
        );
        let c = values(comments(&r));
        assert_eq!(
            (c[0]["start_line"].as_u64(), c[0]["line"].as_u64()),
            (Some(2), Some(4))
        );
        assert_eq!(c[0]["start_side"], "RIGHT");
        let body = c[0]["body"].as_str().unwrap();
        assert!(!body.contains("```suggestion"), "{body}");
        assert!(body.contains("```diff\n@@ -7 +7 @@"), "{body}");
        assert!(summary(&r).starts_with(SUMMARY_MARKER));
        assert!(review(&crate::report::sample::report(json!([]), None), None).is_none());
    }
}
