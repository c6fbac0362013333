//! `git debate post [ID|last]`: post a finished review to its GitHub pull request (see
//! [`crate::report::post`]); here only where to post, from the flags and the environment GitHub
//! Actions sets, and the token from `GITHUB_TOKEN` alone, never a flag a process list would show.

use anyhow::Result;

use crate::cli::PostArgs;
use crate::error::{Outcome, UsageError};
use crate::report::post::{post, ReviewPosted, Target};
use crate::store;

/// The API when `GITHUB_API_URL` is unset.
const DEFAULT_API: &str = "https://api.github.com";

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// `refs/pull/7/merge` (or `/head`) → 7.
fn pr_of_ref(r: &str) -> Option<u64> {
    r.strip_prefix("refs/pull/")?
        .split('/')
        .next()?
        .parse()
        .ok()
}

pub fn run(args: &PostArgs) -> Result<Outcome> {
    let base = store::located::dir(args.store.state_dir.as_deref())?;
    let s = store::find(&base, &args.id)?;
    let report =
        crate::report::stored::load(&s.id, &s.dir).map_err(|e| UsageError::new(e.to_string()))?;
    let token = env("GITHUB_TOKEN").ok_or_else(|| {
        UsageError::new(
            "git debate post needs GITHUB_TOKEN (in Actions: `GITHUB_TOKEN: ${{ github.token }}` \
             with `pull-requests: write`)",
        )
    })?;
    let repo = args
        .repo
        .clone()
        .or_else(|| env("GITHUB_REPOSITORY"))
        .ok_or_else(|| {
            UsageError::new("which repository? --repo OWNER/NAME (or GITHUB_REPOSITORY)")
        })?;
    if repo.split('/').filter(|p| !p.is_empty()).count() != 2 || repo.contains(['?', '#', ' ']) {
        return Err(UsageError::new(format!("--repo {repo:?} is not OWNER/NAME")).into());
    }
    let pr = args
        .pr
        .or_else(|| env("GITHUB_REF").as_deref().and_then(pr_of_ref))
        .ok_or_else(|| {
            UsageError::new("which pull request? --pr N (or GITHUB_REF=refs/pull/N/merge)")
        })?;
    let api = env("GITHUB_API_URL").unwrap_or_else(|| DEFAULT_API.to_string());
    if !(api.starts_with("https://") || api.starts_with("http://")) {
        return Err(
            UsageError::new(format!("GITHUB_API_URL {api:?} is not an http(s) URL")).into(),
        );
    }
    let target = Target {
        api,
        token,
        repo,
        pr,
        commit: args.commit.clone(),
    };
    let posted = post(&report, &target)?;
    crate::outln!(
        "git debate: summary comment {} on {}#{}{}",
        if posted.summary_updated {
            "updated"
        } else {
            "created"
        },
        target.repo,
        target.pr,
        if posted.summary_url.is_empty() {
            String::new()
        } else {
            format!(": {}", posted.summary_url)
        }
    );
    match posted.review {
        ReviewPosted::Posted(n) => crate::outln!("git debate: review posted with {n} line comment(s)"),
        ReviewPosted::AlreadyThere => crate::outln!(
            "git debate: the review of session {} is already on the pull request",
            report.session
        ),
        ReviewPosted::NothingOnLines => {
            crate::outln!("git debate: no finding on lines of the change: no review posted");
        }
        ReviewPosted::Refused(why) => crate::errln!(
            "git debate: GitHub refused the line comments ({why}); the summary comment has every finding"
        ),
    }
    Ok(Outcome::Success)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_pull_request_of_a_ref() {
        assert_eq!(super::pr_of_ref("refs/pull/7/merge"), Some(7));
        assert_eq!(super::pr_of_ref("refs/heads/main"), None);
    }
}
