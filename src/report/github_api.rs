//! The few calls of GitHub's REST API that `git debate post` makes, over HTTP(S) with a bearer
//! token: JSON in, JSON out, an error that says the method, the path, the status and GitHub's
//! message. Kept apart from what is posted ([`crate::report::post`]) so the payloads can be built
//! and tested without a server, and the server faked without the payloads.

use std::time::Duration;

use anyhow::{bail, Context as _, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// Largest answer read (a page of 100 comments is far below it).
const MAX_BODY: u64 = 16 * 1024 * 1024;

/// Items per page when listing.
pub const PAGE: usize = 100;

/// Pages read at most when listing (10,000 comments).
const MAX_PAGES: usize = 100;

pub struct Api {
    base: String,
    token: String,
    agent: ureq::Agent,
}

/// A call GitHub answered with an error status.
#[derive(Debug)]
pub struct Refused {
    pub status: u16,
    pub message: String,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HTTP {}: {}", self.status, self.message)
    }
}

impl std::error::Error for Refused {}

impl Api {
    /// `base` is the API's root (`https://api.github.com`, or GitHub Enterprise's `/api/v3`).
    pub fn new(base: &str, token: &str) -> Api {
        let agent = ureq::Agent::config_builder()
            .timeout_global(Some(Duration::from_secs(60)))
            .http_status_as_error(false)
            .build()
            .into();
        Api {
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
            agent,
        }
    }

    /// One call; `body` is sent as JSON, the answer read as `T`. An error status is a
    /// [`Refused`] in the chain.
    pub fn call<T: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<&impl Serialize>,
    ) -> Result<T> {
        let url = format!("{}{path}", self.base);
        let auth = format!("Bearer {}", self.token);
        let headers = [
            ("Accept", "application/vnd.github+json"),
            ("X-GitHub-Api-Version", "2022-11-28"),
            ("User-Agent", "git-debate"),
            ("Authorization", auth.as_str()),
        ];
        let sent = match (method, body) {
            ("GET", _) => {
                let mut r = self.agent.get(&url);
                for (k, v) in headers {
                    r = r.header(k, v);
                }
                r.call()
            }
            (m, b) => {
                let mut r = match m {
                    "POST" => self.agent.post(&url),
                    "PATCH" => self.agent.patch(&url),
                    "PUT" => self.agent.put(&url),
                    other => bail!("no {other} calls to GitHub"),
                };
                for (k, v) in headers {
                    r = r.header(k, v);
                }
                let text = match b {
                    Some(b) => serde_json::to_string(b)?,
                    None => String::new(),
                };
                r.header("Content-Type", "application/json")
                    .send(text.as_bytes())
            }
        };
        let mut response =
            sent.with_context(|| format!("{method} {path}: no answer from GitHub"))?;
        let status = response.status().as_u16();
        let text = response
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .read_to_string()
            .with_context(|| format!("{method} {path}: the answer could not be read"))?;
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if !(200..300).contains(&status) {
            let message = value
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("no message")
                .to_string();
            return Err(anyhow::Error::new(Refused { status, message })
                .context(format!("GitHub refused {method} {path}")));
        }
        serde_json::from_value(value)
            .with_context(|| format!("{method} {path}: not the answer GitHub documents"))
    }

    /// Every item of a listing, page by page (`per_page=100`) until a short page.
    pub fn list<T: DeserializeOwned>(&self, path: &str) -> Result<Vec<T>> {
        let mut all = Vec::new();
        for page in 1..=MAX_PAGES {
            let items: Vec<T> = self.call(
                "GET",
                &format!("{path}?per_page={PAGE}&page={page}"),
                None::<&()>,
            )?;
            let n = items.len();
            all.extend(items);
            if n < PAGE {
                break;
            }
        }
        Ok(all)
    }
}
