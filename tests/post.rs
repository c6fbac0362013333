//! `git debate post` against a fake GitHub API on 127.0.0.1 (request shapes from GitHub's REST
//! documentation: pull-request reviews and issue comments): one review with line comments and a
//! suggested change, one summary comment edited in place on the next post, the token from the
//! environment only.

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use crate::common::http::{FakeHttp, Request};
use crate::common::TestEnv;

/// A GitHub that keeps the pull request's reviews and issue comments.
fn github() -> FakeHttp {
    let state = Arc::new(Mutex::new((Vec::<Value>::new(), Vec::<Value>::new())));
    FakeHttp::start(move |r: &Request| {
        let mut s = state.lock().unwrap();
        let path = r.path.split('?').next().unwrap_or("");
        let ok = |v: &Value| (200, "application/json", v.to_string().into_bytes());
        match (r.method.as_str(), path) {
            ("GET", "/repos/o/r/pulls/7/reviews") => ok(&json!(s.0)),
            ("POST", "/repos/o/r/pulls/7/reviews") => {
                let mut v = r.json();
                v["id"] = json!(s.0.len() + 1);
                s.0.push(v.clone());
                ok(&v)
            }
            ("GET", "/repos/o/r/issues/7/comments") => ok(&json!(s.1)),
            ("POST", "/repos/o/r/issues/7/comments") => {
                let id = 50 + s.1.len();
                let v = json!({"id": id, "body": r.json()["body"], "html_url": format!("https://github.test/o/r/pull/7#issuecomment-{id}")});
                s.1.push(v.clone());
                (201, "application/json", v.to_string().into_bytes())
            }
            ("PATCH", p) if p.starts_with("/repos/o/r/issues/comments/") => {
                let id: u64 = p.rsplit('/').next().unwrap().parse().unwrap();
                match s.1.iter_mut().find(|c| c["id"] == id) {
                    Some(c) => {
                        c["body"] = r.json()["body"].clone();
                        ok(c)
                    }
                    None => (
                        404,
                        "application/json",
                        br#"{"message":"Not Found"}"#.to_vec(),
                    ),
                }
            }
            _ => (
                404,
                "application/json",
                br#"{"message":"Not Found"}"#.to_vec(),
            ),
        }
    })
}

fn reviewed() -> TestEnv {
    let env = TestEnv::with_repo();
    env.write("a.txt", "one\ntwo\nthree\n");
    env.write("b.txt", "four\n");
    let findings = json!([
        {"severity": "P1", "title": "wrong word", "evidence": "a.txt:2", "body": "Two is shouted.",
         "action": "Say it louder:\n```diff\n--- a/a.txt\n+++ b/a.txt\n@@ -2 +2 @@\n-two\n+TWO\n```"},
        {"severity": "P3", "title": "no tests anywhere"}
    ]);
    env.fake(
        "codex",
        json!({"answer": format!("```json\n{}\n```", json!({"verdict": "revise", "findings": findings}))}),
    );
    env.fake(
        "claude",
        json!({"answer": "```json\n{\"classifications\":[]}\n```"}),
    );
    env.run_full(
        &["--max-rounds", "1", "--format", "json"],
        "",
        &[("GIT_DEBATE_LAUNCHER", Some("claude"))],
    )
    .ok();
    env
}

fn post(env: &TestEnv, server: &FakeHttp, token: Option<&str>) -> crate::common::Run {
    env.run_full(
        &["post", "--repo", "o/r", "--pr", "7"],
        "",
        &[
            ("GITHUB_TOKEN", token),
            ("GITHUB_API_URL", Some(&server.url)),
            ("GITHUB_REPOSITORY", None),
            ("GITHUB_REF", None),
        ],
    )
}

#[test]
fn post_makes_one_review_with_a_suggestion_and_one_summary_it_updates() {
    let env = reviewed();
    let server = github();
    let run = post(&env, &server, Some("t0ken"));
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("summary comment created"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("review posted with 1 line comment(s)"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("t0ken") && !run.stderr.contains("t0ken"));

    let requests = server.requests();
    for r in &requests {
        assert_eq!(r.header("authorization"), Some("Bearer t0ken"), "{r:?}");
        assert_eq!(r.header("accept"), Some("application/vnd.github+json"));
        assert_eq!(r.header("x-github-api-version"), Some("2022-11-28"));
    }
    let review = requests
        .iter()
        .find(|r| r.method == "POST" && r.path == "/repos/o/r/pulls/7/reviews")
        .expect("a review")
        .json();
    assert_eq!(review["event"], "COMMENT");
    let comments = review["comments"].as_array().unwrap();
    assert_eq!(comments.len(), 1, "{review:#}");
    assert_eq!(comments[0]["path"], "a.txt");
    assert_eq!(comments[0]["line"], 2);
    assert_eq!(comments[0]["side"], "RIGHT");
    let body = comments[0]["body"].as_str().unwrap();
    assert!(body.contains("**P1 · [F1] wrong word**"), "{body}");
    assert!(body.contains("Two is shouted."), "{body}");
    assert!(body.contains("```suggestion\nTWO\n```"), "{body}");
    let summary = requests
        .iter()
        .find(|r| r.method == "POST" && r.path == "/repos/o/r/issues/7/comments")
        .expect("a summary comment")
        .json();
    let text = summary["body"].as_str().unwrap();
    assert!(
        text.starts_with("<!-- git-debate:summary -->\n## Debate Summary"),
        "{text}"
    );
    assert!(
        text.contains("no tests anywhere"),
        "every finding is in the summary"
    );

    // Again: the same review is not posted twice, and the summary is edited, not duplicated.
    let again = post(&env, &server, Some("t0ken"));
    assert_eq!(again.code, 0, "{}{}", again.stdout, again.stderr);
    assert!(
        again.stdout.contains("summary comment updated"),
        "{}",
        again.stdout
    );
    assert!(
        again.stdout.contains("already on the pull request"),
        "{}",
        again.stdout
    );
    let requests = server.requests();
    let count = |m: &str, p: &str| {
        requests
            .iter()
            .filter(|r| r.method == m && r.path == p)
            .count()
    };
    assert_eq!(count("POST", "/repos/o/r/pulls/7/reviews"), 1);
    assert_eq!(count("POST", "/repos/o/r/issues/7/comments"), 1);
    assert_eq!(count("PATCH", "/repos/o/r/issues/comments/50"), 1);
}

#[test]
fn post_takes_the_token_from_the_environment_only() {
    let env = reviewed();
    let server = github();
    let run = post(&env, &server, None);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("GITHUB_TOKEN"), "{}", run.stderr);
    assert!(server.requests().is_empty(), "nothing sent without a token");
    // There is no flag for it.
    let flag = env.run(&["post", "--token", "x", "--repo", "o/r", "--pr", "7"]);
    assert_eq!(flag.code, 2);
}
