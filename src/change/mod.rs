//! The artifact: the exact text a reviewer will see, built from a resolved change or from explicit
//! content, with secrets redacted and the size bounded.
//!
//! `artifact.md` in the session is this text byte for byte, so what is stored is what was
//! reviewed. Redaction happens here, before the text exists anywhere else.

pub mod budget;
pub mod chunks;
pub mod markdown;
pub mod read;
pub mod sections;

use serde::Serialize;

use crate::choices::TargetSetting;
use crate::git::{Change, Status};
use crate::redact::{self, Redacted};
pub use budget::Truncation;
pub use markdown::{Segment, SegmentKind, Target};

/// What was built, with everything the summary and metadata report about it.
#[derive(Debug, Clone, Serialize)]
pub struct Artifact {
    pub target: Target,
    /// Why that target: "set by --target", "unified diff", "heading 'Design'", ...
    pub target_reasons: Vec<String>,
    /// How sure the detection is: `high`, `medium` or `low` (see [`markdown::detect`]); an
    /// explicit target or a git change is `high`.
    pub confidence: &'static str,
    #[serde(skip)]
    pub text: String,
    /// Ordered code/proposal segments of a mixed artifact (empty otherwise).
    pub segments: Vec<Segment>,
    pub redactions: RedactionReport,
    pub truncation: Truncation,
    /// Some input was not valid UTF-8 and was converted lossily.
    pub lossy: bool,
    /// Lines that read as instructions aimed at the reviewer (added lines of a change, commit
    /// messages, explicit content): each is reported as a finding and named in the prompt.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub injections: Vec<crate::injection::Found>,
    /// The repository's review instructions sent with it (none until the review gathers them).
    #[serde(skip)]
    pub instructions: crate::instructions::Instructions,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct RedactionReport {
    pub count: usize,
    pub kinds: std::collections::BTreeMap<&'static str, usize>,
}

impl From<&Redacted> for RedactionReport {
    fn from(r: &Redacted) -> Self {
        RedactionReport {
            count: r.count,
            kinds: r.kinds.clone(),
        }
    }
}

/// Explicit content: an argument, a file or standard input.
#[derive(Debug, Clone)]
pub struct TextInput {
    pub text: String,
    /// Where it came from, for the artifact header ("argument", "stdin", a path).
    pub origin: String,
    /// A file name for detection and `.env` redaction.
    pub path_hint: Option<String>,
    pub lossy: bool,
}

impl TextInput {
    /// Bytes that may not be UTF-8, decoded lossily with the loss recorded.
    pub fn from_bytes(bytes: Vec<u8>, origin: String, path_hint: Option<String>) -> TextInput {
        let (text, lossy) = match String::from_utf8(bytes) {
            Ok(s) => (s, false),
            Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
        };
        TextInput {
            text,
            origin,
            path_hint,
            lossy,
        }
    }
}

/// Builds the artifact for explicit content.
pub fn from_text(input: &TextInput, target: TargetSetting, budget: u64) -> Artifact {
    let red = redact::redact(&input.text, input.path_hint.as_deref());
    let mut truncation = Truncation {
        budget_bytes: budget,
        content_bytes: red.text.len(),
        kept_bytes: red.text.len(),
        ..Default::default()
    };
    let mut text = red.text.clone();
    if text.len() as u64 > budget {
        let cut = clip_at_line(&text, budget as usize);
        truncation.kept_bytes = cut;
        truncation.clipped.push(budget::Note::part(
            input.origin.clone(),
            format!(
                "kept the first {cut} of {} bytes to fit the budget",
                text.len()
            ),
        ));
        text.truncate(cut);
        text.push_str(&format!(
            "\n\n[git-debate: the rest of {} ({} bytes) was left out to fit the {budget}-byte budget]\n",
            input.origin,
            red.text.len() - cut
        ));
    }
    let (target, reasons, confidence) = match target {
        TargetSetting::Auto => {
            let d = markdown::detect(&text, input.path_hint.as_deref());
            (d.target, d.reasons, d.confidence)
        }
        other => (
            explicit(other),
            vec!["set by --target / debate.target".to_string()],
            "high",
        ),
    };
    let mut artifact = Artifact {
        target,
        target_reasons: reasons,
        confidence,
        segments: Vec::new(),
        redactions: (&red).into(),
        truncation,
        lossy: input.lossy,
        injections: {
            let name = input.path_hint.as_deref().unwrap_or(&input.origin);
            let mut found = crate::injection::in_lines(name, (1..).zip(text.lines()));
            found.truncate(crate::injection::MAX_FOUND);
            found
        },
        instructions: Default::default(),
        text,
    };
    artifact.split_if_mixed();
    artifact
}

/// Builds the artifact for a resolved change: header, commits, file list, the diff within the
/// budget, and the list of everything that was not sent.
pub fn from_change(change: &Change, scope: &str, target: TargetSetting, budget: u64) -> Artifact {
    let mut change = change.clone();
    let mut total = Redacted::default();
    // A file name can hold a secret (`keys/sk_live_….txt`) and is shown in the file list and the
    // diff headers.
    let mut redact_name = |s: &mut String| {
        let r = redact::redact(s, None);
        if r.count > 0 {
            *s = r.text.clone();
        }
        total.absorb(&r);
    };
    redact_name(&mut change.description);
    for f in &mut change.files {
        redact_name(&mut f.path);
        if let Some(old) = f.old_path.as_mut() {
            redact_name(old);
        }
    }
    for f in &mut change.files {
        for h in &mut f.hunks {
            // Redact a hunk as one text so a private key spanning lines is one block.
            let r = redact::redact(&h.lines.join("\n"), Some(&f.path));
            if r.count > 0 {
                h.lines = r.text.split('\n').map(str::to_string).collect();
            }
            total.absorb(&r);
        }
    }
    for c in &mut change.commits {
        let r = redact::redact(&c.message, None);
        if r.count > 0 {
            c.message = r.text.clone();
            c.subject = c.message.lines().next().unwrap_or("").to_string();
        }
        total.absorb(&r);
    }

    let (keep, truncation) = budget::fit(&change.files, budget);
    let mut s = format!("# Change under review: {scope}\n\n{}\n", change.description);
    if !change.commits.is_empty() {
        s.push_str("\n## Commits\n\n");
        for c in &change.commits {
            s.push_str(&format!("- {} {}\n", &c.sha[..7], c.subject));
            for body in c
                .message
                .lines()
                .skip(1)
                .skip_while(|l| l.trim().is_empty())
            {
                s.push_str(&format!("  {body}\n"));
            }
        }
    }
    s.push_str(&format!(
        "\n## Files ({} changed, +{} -{})\n\n",
        change.files.len(),
        change.additions(),
        change.deletions()
    ));
    for f in &change.files {
        s.push_str(&format!("- {}\n", file_line(f)));
    }
    let diff: String = change
        .files
        .iter()
        .zip(&keep)
        .map(|(f, k)| budget::render_file(f, *k))
        .collect();
    if !diff.is_empty() {
        let fence = fence_for(&diff);
        s.push_str(&format!("\n## Diff\n\n{fence}diff\n{diff}{fence}\n"));
    }
    let notes: Vec<_> = truncation
        .not_sent
        .iter()
        .chain(&truncation.omitted)
        .chain(&truncation.clipped)
        .collect();
    if !notes.is_empty() {
        s.push_str("\n## Not included in full\n\n");
        for n in notes {
            s.push_str(&format!("- {}: {}\n", n.path, n.reason));
        }
    }
    let target = match target {
        TargetSetting::Auto => Target::Code,
        other => explicit(other),
    };
    let mut artifact = Artifact {
        target,
        confidence: "high",
        target_reasons: vec![if target == Target::Code {
            format!("a git change ({scope})")
        } else {
            "set by --target / debate.target".to_string()
        }],
        segments: Vec::new(),
        redactions: (&total).into(),
        truncation,
        lossy: change.files.iter().any(|f| f.lossy),
        injections: injections(&change),
        instructions: Default::default(),
        text: s,
    };
    artifact.split_if_mixed();
    artifact
}

/// The lines of a change that read as instructions to the reviewer: what its commits' messages
/// and its added lines say (removed lines are leaving; context lines were reviewed before).
fn injections(change: &Change) -> Vec<crate::injection::Found> {
    use crate::injection::{added_lines, in_lines, MAX_FOUND};
    let mut found = Vec::new();
    for c in &change.commits {
        let name = format!("commit {}", &c.sha[..c.sha.len().min(7)]);
        found.extend(in_lines(&name, (1..).zip(c.message.lines())));
    }
    for f in change.files.iter().filter(|f| !f.binary) {
        let added: Vec<(u32, &str)> = f
            .hunks
            .iter()
            .flat_map(|h| added_lines(&h.header, &h.lines))
            .collect();
        found.extend(in_lines(&f.path, added));
        if found.len() >= MAX_FOUND {
            break;
        }
    }
    found.truncate(MAX_FOUND);
    found
}

/// `M src/lib.rs (+8 -1)`, `R old -> new`, `A img.png (binary, not sent)`.
pub fn file_line(f: &crate::git::FileChange) -> String {
    let q = |p: &str| crate::git::quote_path("", p);
    let path = match &f.old_path {
        Some(old) if f.status == Status::Renamed || f.status == Status::Copied => {
            format!("{} -> {}", q(old), q(&f.path))
        }
        _ => q(&f.path),
    };
    let mut notes = Vec::new();
    if f.submodule.is_some() {
        notes.push("submodule".to_string());
    } else if f.too_large {
        notes.push("too large, not sent".to_string());
    } else if f.binary {
        notes.push("binary, not sent".to_string());
    } else {
        notes.push(format!("+{} -{}", f.additions, f.deletions));
    }
    if f.status == Status::Untracked {
        notes.push("untracked".into());
    }
    let crlf = |sign: char| {
        f.hunks
            .iter()
            .flat_map(|h| &h.lines)
            .any(|l| l.starts_with(sign) && l.ends_with('\r'))
    };
    match (crlf('-'), crlf('+')) {
        (false, true) => notes.push("CRLF line endings added".into()),
        (true, false) => notes.push("CRLF line endings removed".into()),
        (true, true) => notes.push("CRLF line endings".into()),
        (false, false) => {}
    }
    let (old, new) = f.modes;
    if old != 0 && new != 0 && old != new {
        notes.push(format!("mode {old:o} -> {new:o}"));
    }
    if f.lossy {
        notes.push("not UTF-8, shown lossily".into());
    }
    format!("{} {path} ({})", f.status.letter(), notes.join(", "))
}

impl Artifact {
    /// A mixed artifact carries its segments; one with only one kind of segment is downgraded,
    /// with the reason recorded, since reviewing an empty half would waste a model call.
    fn split_if_mixed(&mut self) {
        if self.target != Target::Mixed {
            return;
        }
        self.segments = markdown::split(&self.text);
        let has = |k| self.segments.iter().any(|s| s.kind == k);
        match (has(SegmentKind::Code), has(SegmentKind::Proposal)) {
            (true, true) => {}
            (true, false) => {
                self.target = Target::Code;
                self.target_reasons
                    .push("mixed, but no prose segment: reviewed as code".into());
                self.segments.clear();
            }
            _ => {
                self.target = Target::Proposal;
                self.target_reasons
                    .push("mixed, but no code segment: reviewed as a proposal".into());
                self.segments.clear();
            }
        }
    }
}

fn explicit(t: TargetSetting) -> Target {
    match t {
        TargetSetting::Code => Target::Code,
        TargetSetting::Proposal => Target::Proposal,
        TargetSetting::Mixed | TargetSetting::Auto => Target::Mixed,
    }
}

/// The longest prefix of at most `max` bytes that ends at a line break (or a char boundary when
/// the first line alone is too long).
fn clip_at_line(text: &str, max: usize) -> usize {
    let mut cut = max.min(text.len());
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    match text[..cut].rfind('\n') {
        Some(nl) if nl > 0 => nl + 1,
        _ => cut,
    }
}

/// A backtick fence longer than any backtick run that starts a line of `body`, so a diff that
/// adds a markdown file cannot close our fence early.
pub(crate) fn fence_for(body: &str) -> String {
    let longest = body
        .lines()
        .map(|l| {
            l.trim_start_matches(['+', '-', ' '])
                .chars()
                .take_while(|&c| c == '`')
                .count()
        })
        .max()
        .unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_ends_at_a_line_and_a_char_boundary() {
        assert_eq!(clip_at_line("ab\ncd\nef", 7), 6);
        assert_eq!(clip_at_line("ééé", 3), 2);
    }

    #[test]
    fn fence_outgrows_backticks_in_the_body() {
        assert_eq!(fence_for("+x\n"), "```");
        assert_eq!(fence_for("+````rust\n"), "`````");
    }
}
