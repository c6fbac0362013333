//! Waivers: a team's recorded decision that a finding does not apply here, kept in the
//! committed, reviewable file `.gitdebate-waivers` at the top of the work tree.
//!
//! A waiver names a finding by its fingerprint, the one SARIF gives as `partialFingerprints`
//! (the file, the normalised title and a hash of the code around it), never by the per-session
//! `F2`: so a later review's same finding on the same code is covered, and a finding whose code
//! or wording changed is not. It carries who decided (git's identity), when, why, and
//! optionally until when. The file is TOML, one `[[waiver]]` table per waiver, appended to and
//! never rewritten, so each waiver is one reviewable hunk:
//!
//! ```toml
//! [[waiver]]
//! fingerprint = "3f1c…"          # required
//! reason = "test fixture, never deployed"   # required
//! by = "Ada <ada@example.com>"
//! at = "2026-11-26T21:40:00Z"
//! expires = "2027-03-01"        # optional: from that day on it no longer applies
//! finding = "debate-…:F2"       # where it was waived from, for people
//! title = "token compared with =="
//! path = "src/auth.rs"
//! ```
//!
//! A waiver is data the repository carries: it can keep a finding out of the gate's count, so
//! it is read from the reviewed version like the rest of the change, and it is shown in every
//! report with its reason, never applied silently.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};
use serde::{Deserialize, Serialize};
use time::Date;

use crate::error::UsageError;
use crate::git::{Repo, Version};

/// The file's name, at the top of the work tree.
pub const FILE: &str = ".gitdebate-waivers";

/// A waivers file bigger than this is refused as not one we wrote.
const MAX_FILE: u64 = 4 << 20;

/// One waiver.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Waiver {
    /// The finding's stable fingerprint (SARIF's `partialFingerprints`).
    pub fingerprint: String,
    pub reason: String,
    /// `user.name <user.email>` of whoever waived it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub by: String,
    /// When, RFC 3339 in UTC.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub at: String,
    /// `YYYY-MM-DD`: from that day (UTC) on it no longer applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
    /// The finding it was waived from (`<session>:F2`), for people.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub finding: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// The line its `[[waiver]]` starts on in the file (0 when not read from one).
    #[serde(skip)]
    pub line: usize,
}

impl Waiver {
    /// Whether it has expired on `today`.
    pub fn expired(&self, today: Date) -> bool {
        self.expires
            .as_deref()
            .and_then(parse_date)
            .is_some_and(|d| d <= today)
    }

    /// `2027-03-01`, or `never`.
    pub fn expiry(&self) -> &str {
        self.expires.as_deref().unwrap_or("never")
    }

    /// `waived by Ada <ada@example.com> on 2026-11-26: reason (expires 2027-03-01)`.
    pub fn describe(&self) -> String {
        let by = if self.by.is_empty() {
            String::new()
        } else {
            format!(" by {}", self.by)
        };
        let on = self
            .at
            .get(..10)
            .map(|d| format!(" on {d}"))
            .unwrap_or_default();
        let until = self
            .expires
            .as_deref()
            .map(|e| format!(" (expires {e})"))
            .unwrap_or_default();
        format!("waived{by}{on}: {}{until}", self.reason)
    }

    /// The table appended to the file for it.
    pub fn entry(&self) -> String {
        let q = crate::toml_lite::quote;
        let mut s = format!(
            "\n[[waiver]]\nfingerprint = {}\nreason = {}\n",
            q(&self.fingerprint),
            q(&self.reason)
        );
        for (key, value) in [
            ("by", &self.by),
            ("at", &self.at),
            ("finding", &self.finding),
            ("title", &self.title),
            ("path", &self.path),
        ] {
            if !value.is_empty() {
                s.push_str(&format!("{key} = {}\n", q(value)));
            }
        }
        if let Some(e) = &self.expires {
            s.push_str(&format!("expires = {}\n", q(e)));
        }
        s
    }
}

/// `YYYY-MM-DD` as a date.
pub fn parse_date(s: &str) -> Option<Date> {
    let s = s.trim();
    let mut parts = s.split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some()
        || (y.len(), m.len(), d.len()) != (4, 2, 2)
        || !s.bytes().all(|b| b.is_ascii_digit() || b == b'-')
    {
        return None;
    }
    let month = time::Month::try_from(m.parse::<u8>().ok()?).ok()?;
    Date::from_calendar_date(y.parse().ok()?, month, d.parse().ok()?).ok()
}

/// Today, in UTC.
pub fn today() -> Date {
    time::OffsetDateTime::now_utc().date()
}

/// The waivers of `text` (the file `name`); a line that is not one is an error naming the file
/// and the line.
pub fn parse(text: &str, name: &str) -> Result<Vec<Waiver>> {
    parse_lines(text).map_err(|(line, what)| {
        UsageError::new(format!(
            "{name}:{line}: {what}; fix the line (each waiver is a [[waiver]] table of \
             key = \"value\" lines)"
        ))
        .into()
    })
}

fn parse_lines(text: &str) -> std::result::Result<Vec<Waiver>, (usize, String)> {
    let mut out: Vec<Waiver> = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, raw)) = lines.next() {
        let n = n + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line == "[[waiver]]" {
            out.push(Waiver {
                fingerprint: String::new(),
                reason: String::new(),
                by: String::new(),
                at: String::new(),
                expires: None,
                finding: String::new(),
                title: String::new(),
                path: String::new(),
                line: n,
            });
            continue;
        }
        if line.starts_with('[') {
            return Err((n, format!("only [[waiver]] tables are read, not {line}")));
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err((n, "expected key = value".into()));
        };
        let key = key.trim();
        let Some(w) = out.last_mut() else {
            return Err((n, format!("{key} before any [[waiver]]")));
        };
        let mut value = value.trim().to_string();
        // A multi-line string goes on until it closes.
        for q in ["'''", "\"\"\""] {
            while value.starts_with(q) && (value.len() < 6 || !value[3..].contains(q)) {
                let Some((_, next)) = lines.next() else {
                    return Err((n, format!("{q} string not closed")));
                };
                value.push('\n');
                value.push_str(next);
            }
        }
        let value = strip_comment(&value);
        // A TOML date may stand bare: `expires = 2027-03-01`.
        let text = if key == "expires" && parse_date(value).is_some() {
            value.to_string()
        } else {
            crate::toml_lite::string(value, n).map_err(|e| (n, strip_line(&e.to_string())))?
        };
        match key {
            "fingerprint" => w.fingerprint = text,
            "reason" => w.reason = text,
            "by" => w.by = text,
            "at" => w.at = text,
            "finding" => w.finding = text,
            "title" => w.title = text,
            "path" => w.path = text,
            "expires" => {
                if parse_date(&text).is_none() {
                    return Err((n, format!("expires = {value} is not a date YYYY-MM-DD")));
                }
                w.expires = Some(text);
            }
            other => return Err((n, format!("unknown key {other}"))),
        }
    }
    for w in &out {
        if w.fingerprint.trim().is_empty() {
            return Err((w.line, "this [[waiver]] has no fingerprint".into()));
        }
        if w.reason.trim().is_empty() {
            return Err((w.line, "this [[waiver]] has no reason".into()));
        }
    }
    Ok(out)
}

/// A trailing `# comment` after a closed string.
fn strip_comment(v: &str) -> &str {
    let v = v.trim();
    for q in ['"', '\''] {
        if v.starts_with(q) {
            if let Some(close) = v[1..].rfind(q) {
                let rest = v[close + 2..].trim_start();
                if rest.starts_with('#') {
                    return v[..close + 2].trim_end();
                }
            }
        }
    }
    match v.find(" #") {
        Some(i) if !v.starts_with(['"', '\'']) => v[..i].trim_end(),
        _ => v,
    }
}

/// `line 3: x` as `x` (the caller names the line itself).
fn strip_line(s: &str) -> String {
    match s.split_once(": ") {
        Some((head, rest)) if head.starts_with("line ") => rest.to_string(),
        _ => s.to_string(),
    }
}

/// The waivers the reviewed version `at` carries (none when it has no file).
pub fn read(repo: Option<&Repo>, at: &Version) -> Result<Vec<Waiver>> {
    let Some(bytes) = repo.and_then(|r| crate::git::read_at(r, at, FILE, MAX_FILE)) else {
        return Ok(Vec::new());
    };
    let text = String::from_utf8(bytes)
        .map_err(|_| UsageError::new(format!("{FILE} is not UTF-8 text; fix its encoding")))?;
    let name = match at {
        Version::WorkTree => FILE.to_string(),
        Version::Tree(id) => format!("{FILE} (in {})", &id[..id.len().min(12)]),
    };
    parse(&text, &name)
}

/// One waiver as `git debate waivers` lists it.
#[derive(Debug, Clone, Serialize)]
pub struct Listed {
    /// `active` or `expired`.
    pub state: &'static str,
    /// Its line in the file.
    pub line: usize,
    #[serde(flatten)]
    pub waiver: Waiver,
}

/// The work tree's waivers, each active or expired today.
pub fn listing(repo: &Repo) -> Result<Vec<Listed>> {
    let today = today();
    Ok(read(Some(repo), &Version::WorkTree)?
        .into_iter()
        .map(|w| Listed {
            state: if w.expired(today) {
                "expired"
            } else {
                "active"
            },
            line: w.line,
            waiver: w,
        })
        .collect())
}

/// The listing for people: a count, then each waiver on two lines.
pub fn listing_text(listed: &[Listed]) -> String {
    if listed.is_empty() {
        return format!(
            "no waivers in {FILE}; `git debate waive <session>:F2 --reason \"...\"` adds one\n"
        );
    }
    let expired = listed.iter().filter(|l| l.state == "expired").count();
    let mut s = format!(
        "{FILE}: {} waiver(s), {} active, {expired} expired\n",
        listed.len(),
        listed.len() - expired
    );
    let line = |t: &str| crate::ui::terminal::clean_line(t).into_owned();
    for l in listed {
        let w = &l.waiver;
        let what = if w.title.is_empty() {
            String::new()
        } else {
            format!(" {}", line(&w.title))
        };
        let path = if w.path.is_empty() {
            String::new()
        } else {
            format!(" ({})", line(&w.path))
        };
        let by = if w.by.is_empty() {
            String::new()
        } else {
            format!(" by {}", line(&w.by))
        };
        let on =
            w.at.get(..10)
                .map(|d| format!(" on {d}"))
                .unwrap_or_default();
        s.push_str(&format!(
            "{:<8} {}{what}{path}{by}{on}, until {}: {}\n         fingerprint {} (line {})\n",
            l.state,
            line(&w.finding),
            w.expiry(),
            line(&w.reason),
            line(&w.fingerprint),
            l.line
        ));
    }
    s
}

/// Appends `w` to the work tree's file (made when missing), leaving every other entry as it
/// was; the file as it stands must read, so a broken file is never buried under a new entry.
pub fn append(work_tree: &Path, w: &Waiver) -> Result<PathBuf> {
    use std::io::Write as _;
    let path = work_tree.join(FILE);
    let old = match std::fs::symlink_metadata(&path) {
        Ok(m) if !m.file_type().is_file() => {
            return Err(UsageError::new(format!(
                "{} is not a regular file; replace it with one",
                path.display()
            ))
            .into())
        }
        Ok(_) => crate::sys::file_io::read_regular_no_link(&path, MAX_FILE)
            .map_err(|e| UsageError::new(format!("cannot read {}: {e}", path.display())))?,
        Err(_) => Vec::new(),
    };
    let text = String::from_utf8_lossy(&old);
    parse(&text, &path.display().to_string())?;
    let mut entry = String::new();
    if old.is_empty() {
        entry.push_str(HEADER);
    } else if !text.ends_with('\n') {
        entry.push('\n');
    }
    entry.push_str(&w.entry());
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .and_then(|mut f| f.write_all(entry.as_bytes()))
        .with_context(|| format!("cannot append to {}", path.display()))?;
    Ok(path)
}

/// The first lines of a new file: what it is, for whoever reviews it.
const HEADER: &str = "# Waivers of git-debate findings: each [[waiver]] keeps one finding (by its \
fingerprint) out of the review gate,\n# with who decided, when, why and until when. Written by \
`git debate waive`; review changes to it like code.\n";

#[cfg(test)]
mod tests {
    use super::*;

    fn waiver() -> Waiver {
        Waiver {
            fingerprint: "abc".into(),
            reason: "a \"fixture\"\nnot shipped".into(),
            by: "Ada <ada@example.com>".into(),
            at: "2026-11-26T00:00:00Z".into(),
            expires: Some("2027-03-01".into()),
            finding: "s1:F2".into(),
            title: "t".into(),
            path: "a.rs".into(),
            line: 0,
        }
    }

    #[test]
    fn an_entry_reads_back_as_written() {
        let w = waiver();
        let got = parse(&format!("{HEADER}{}", w.entry()), FILE).unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(
            Waiver {
                line: 0,
                ..got[0].clone()
            },
            w
        );
        assert_eq!(got[0].line, 4);
    }

    #[test]
    fn bare_dates_and_comments_are_toml() {
        let got = parse(
            "[[waiver]]\nfingerprint = 'x' # why\nreason = \"\"\"two\nlines\"\"\"\nexpires = 2027-03-01\n",
            FILE,
        )
        .unwrap();
        assert_eq!(got[0].fingerprint, "x");
        assert_eq!(got[0].reason, "two\nlines");
        assert!(got[0].expired(parse_date("2027-03-01").unwrap()));
        assert!(!got[0].expired(parse_date("2027-02-28").unwrap()));
    }

    #[test]
    fn a_bad_line_names_the_file_and_the_line() {
        for (text, says) in [
            (
                "[[waiver]]\nfingerprint = x\n",
                ":2: expected a quoted string",
            ),
            (
                "[[waiver]]\nreason = \"r\"\n",
                ":1: this [[waiver]] has no fingerprint",
            ),
            (
                "[[waiver]]\nfingerprint = \"f\"\n",
                ":1: this [[waiver]] has no reason",
            ),
            ("reason = \"r\"\n", ":1: reason before any [[waiver]]"),
            ("[waiver]\n", ":1: only [[waiver]] tables"),
            (
                "[[waiver]]\nfingerprint = \"f\"\nreason = \"r\"\nexpires = \"soon\"\n",
                ":4: expires",
            ),
            ("[[waiver]]\ncolour = \"red\"\n", ":2: unknown key colour"),
        ] {
            let e = parse(text, FILE).unwrap_err().to_string();
            assert!(e.contains(&format!("{FILE}{says}")), "{text}: {e}");
            assert!(!e.contains('\n'), "one line: {e}");
        }
    }
}
