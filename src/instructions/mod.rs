//! The repository's own review instructions: what its maintainers wrote for AI agents and
//! reviewers (`AGENTS.md`, `CLAUDE.md`, `.github/copilot-instructions.md`,
//! `.github/instructions/*.instructions.md`, `debate.instructions` and `[debate "path:<glob>"]`
//! sections), the parts that apply to the files of the change, gathered for the prompts.
//!
//! They come from the repository, so they are untrusted text, like the change: they are read
//! from the reviewed version (a commit's tree for `commit:`, never whatever is on disk), passed
//! through the same redaction as the artifact, their lines that read as orders to the model
//! (the injection detector's) withheld, capped in size, and sent inside a fenced block that says
//! they may steer what the reviewer looks at and nothing else. Nothing in them is ever run, and
//! nothing in them reaches the gate: they are never findings, never settings.

pub mod glob;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::git::{Repo, Version};
use crate::settings::{InstructionsFile, Layer, Layers, PathInstructions, Settings};

/// The session file that keeps the instructions as sent (for `resume`).
pub const FILE: &str = "instructions.md";

/// At most this many bytes of instructions are sent; what does not fit is cut and said.
pub const MAX_BYTES: usize = 16 * 1024;
/// A file bigger than this is not read at all.
const MAX_FILE: u64 = 256 * 1024;
/// At most this many folders' own `AGENTS.md`/`CLAUDE.md` are read below the top.
const MAX_FOLDERS: usize = 32;

/// At most this many withheld lines of one source are named in the notes.
const MAX_NAMED: usize = 5;

/// The files every agent tool reads, at the top and in each folder (a folder's applies to the
/// files below it).
const AGENT_FILES: &[&str] = &["AGENTS.md", "CLAUDE.md"];
/// Copilot's repository-wide file.
const COPILOT_FILE: &str = ".github/copilot-instructions.md";
/// Copilot's path-scoped files: `<name>.instructions.md` with an `applyTo:` list of globs.
const COPILOT_FOLDER: &str = ".github/instructions";
const COPILOT_SUFFIX: &str = ".instructions.md";

/// One source of instructions that was sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sent {
    /// A file of the repository, `<glob> rules` for a path section, or `debate.instructions`'s
    /// file.
    pub name: String,
    /// Bytes sent of it.
    pub bytes: usize,
    /// It was cut to fit [`MAX_BYTES`].
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
}

/// What was gathered, as the session records it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// `--no-instructions` or `debate.readInstructions = false`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub off: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sent: Vec<Sent>,
    /// What was not sent and why: lines withheld, sources left out for size, a file not found.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Record {
    /// `AGENTS.md (1.2 KB), src/db/** rules (56 B)`, `none` or `off (...)`.
    pub fn line(&self) -> String {
        if self.off {
            return "off (--no-instructions or debate.readInstructions = false)".into();
        }
        if self.sent.is_empty() {
            return "none".into();
        }
        self.sent
            .iter()
            .map(|s| {
                let cut = if s.cut { ", cut" } else { "" };
                format!("{} ({}{cut})", s.name, size(s.bytes))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// `56 B`, `1.2 KB`.
fn size(bytes: usize) -> String {
    if bytes < 1024 {
        format!("{bytes} B")
    } else {
        format!("{:.1} KB", bytes as f64 / 1024.0)
    }
}

/// The instructions for one review: the record and the text sent (empty when none).
#[derive(Debug, Clone, Default)]
pub struct Instructions {
    pub record: Record,
    pub text: String,
}

impl Instructions {
    /// Instructions read back from a session (`resume`).
    pub fn of(record: Record, text: String) -> Instructions {
        Instructions { record, text }
    }
}

/// One source before it is cleaned and capped.
struct Part {
    name: String,
    text: String,
}

/// The instructions that apply to `paths` (the change's files; none for content without a
/// repository file), read from `at` in `repo`, as `settings` allow.
pub fn gather(
    repo: Option<&Repo>,
    at: &Version,
    paths: &[String],
    settings: &Settings,
) -> Instructions {
    if !settings.read_instructions {
        return Instructions {
            record: Record {
                off: true,
                ..Default::default()
            },
            text: String::new(),
        };
    }
    let mut notes = Vec::new();
    let mut parts = configured(repo, at, paths, settings, &mut notes);
    if let Some(repo) = repo {
        parts.extend(committed(repo, at, paths));
    }
    let mut out = compose(parts);
    notes.append(&mut out.record.notes);
    out.record.notes = notes;
    out
}

/// `debate.instructions` and the path sections as the reviewed version has them: the user's own
/// as set, and for a version in a tree, what that tree's `.gitdebate` says instead of the work
/// tree's.
fn as_reviewed(
    repo: Option<&Repo>,
    at: &Version,
    settings: &Settings,
) -> (Option<InstructionsFile>, Vec<PathInstructions>) {
    let (Some(repo), Version::Tree(id)) = (repo, at) else {
        return (
            settings.instructions.clone(),
            settings.path_instructions.clone(),
        );
    };
    let mut sections: Vec<PathInstructions> = settings
        .path_instructions
        .iter()
        .filter(|p| p.user_controlled)
        .cloned()
        .collect();
    let mut file = settings.instructions.clone().filter(|f| f.user_controlled);
    if let Some(layers) = committed_config(repo, at) {
        let origin = format!(".gitdebate (in {})", &id[..id.len().min(12)]);
        for mut p in crate::settings::path_instructions(&layers) {
            p.origin.clone_from(&origin);
            sections.push(p);
        }
        if file.is_none() {
            file = layers.get("debate.instructions").map(|v| InstructionsFile {
                path: v.value.trim().to_string(),
                user_controlled: false,
            });
        }
    }
    (file, sections)
}

/// The `debate.*` values of the `.gitdebate` the version `at` carries.
fn committed_config(repo: &Repo, at: &Version) -> Option<Layers> {
    let bytes = crate::git::read_at(repo, at, ".gitdebate", MAX_FILE)?;
    // libgit2 reads configuration from files only.
    let mut tmp = tempfile::NamedTempFile::new().ok()?;
    std::io::Write::write_all(&mut tmp, &bytes).ok()?;
    Layers::of_file(tmp.path(), Layer::Repo).ok()
}

/// `debate.instructions` and the path sections that match.
fn configured(
    repo: Option<&Repo>,
    at: &Version,
    paths: &[String],
    settings: &Settings,
    notes: &mut Vec<String>,
) -> Vec<Part> {
    let mut parts = Vec::new();
    let (file, sections) = as_reviewed(repo, at, settings);
    if let Some(file) = &file {
        let path = file.path.trim();
        let local = path.starts_with('/') || path.starts_with("~/");
        let bytes = if local && file.user_controlled {
            crate::sys::file_io::read_regular(&crate::settings::expand_home(path), MAX_FILE).ok()
        } else if crate::settings::keys::in_repository(path) {
            let rel = path.trim_start_matches("./");
            repo.and_then(|r| crate::git::read_at(r, at, rel, MAX_FILE))
        } else {
            None
        };
        match bytes {
            Some(b) => parts.push(Part {
                name: path.to_string(),
                text: String::from_utf8_lossy(&b).into_owned(),
            }),
            None => notes.push(format!(
                "debate.instructions: {path} was not read (no regular file of at most {} in \
                 the reviewed version, or outside the repository)",
                size(MAX_FILE as usize)
            )),
        }
    }
    for p in &sections {
        let globs = glob::list(&p.glob);
        if globs.is_empty() {
            notes.push(format!(
                "[debate \"path:{}\"] in {} is not a glob that can be read; it was left out",
                p.glob, p.origin
            ));
            continue;
        }
        if paths.iter().any(|f| globs.iter().any(|g| g.matches(f))) {
            parts.push(Part {
                name: format!("{} rules", p.glob),
                text: p.text.clone(),
            });
        }
    }
    parts
}

/// The files the repository carries for agents and reviewers that apply to `paths`.
fn committed(repo: &Repo, at: &Version, paths: &[String]) -> Vec<Part> {
    let read = |name: &str| {
        crate::git::read_at(repo, at, name, MAX_FILE).map(|b| Part {
            name: name.to_string(),
            text: String::from_utf8_lossy(&b).into_owned(),
        })
    };
    let mut parts: Vec<Part> = AGENT_FILES.iter().filter_map(|f| read(f)).collect();
    parts.extend(read(COPILOT_FILE));
    for name in crate::git::files_under(repo, at, COPILOT_FOLDER) {
        if !name.ends_with(COPILOT_SUFFIX) {
            continue;
        }
        let Some(part) = read(&name) else { continue };
        let (apply_to, body) = glob::front_matter(&part.text);
        // Without `applyTo`, Copilot does not apply the file by itself; neither do we.
        let globs = apply_to.as_deref().map(glob::list).unwrap_or_default();
        if paths.iter().any(|f| globs.iter().any(|g| g.matches(f))) {
            parts.push(Part {
                name,
                text: body.to_string(),
            });
        }
    }
    // A folder's own file applies to the files below it.
    let folders: BTreeSet<String> = paths
        .iter()
        .flat_map(|p| {
            let mut up = Vec::new();
            let mut at = p.as_str();
            while let Some((parent, _)) = at.rsplit_once('/') {
                up.push(parent.to_string());
                at = parent;
            }
            up
        })
        .collect();
    for folder in folders.iter().take(MAX_FOLDERS) {
        for f in AGENT_FILES {
            parts.extend(read(&format!("{folder}/{f}")));
        }
    }
    parts
}

/// The parts redacted, their suspicious lines withheld, joined under headings within
/// [`MAX_BYTES`].
fn compose(parts: Vec<Part>) -> Instructions {
    let mut out = Instructions::default();
    for part in parts {
        let text = clean(&part, &mut out.record.notes);
        if text.trim().is_empty() {
            continue;
        }
        let head = format!("## {}\n", part.name);
        let room = MAX_BYTES.saturating_sub(out.text.len() + head.len());
        if room < 64 {
            out.record.notes.push(format!(
                "instructions: {} left out: past the {} cap",
                part.name,
                size(MAX_BYTES)
            ));
            continue;
        }
        let (body, cut) = if text.len() > room {
            let keep = clip(&text, room.saturating_sub(96));
            out.record.notes.push(format!(
                "instructions: {} cut to fit the {} cap ({} of {} bytes sent)",
                part.name,
                size(MAX_BYTES),
                keep.len(),
                text.len()
            ));
            (
                format!(
                    "{keep}\n[git-debate: the rest of {} was cut to fit the size cap]\n",
                    part.name
                ),
                true,
            )
        } else {
            (text, false)
        };
        out.text.push_str(&head);
        out.text.push_str(body.trim_end());
        out.text.push_str("\n\n");
        out.record.sent.push(Sent {
            name: part.name,
            bytes: body.len(),
            cut,
        });
    }
    out
}

/// The longest start of `text` of at most `max` bytes that ends at a line's end (or, for one
/// long line, at a character's).
fn clip(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind('\n') {
        Some(nl) if nl > 0 => &text[..nl],
        _ => &text[..end],
    }
}

/// A part's text redacted, with each line the injection detector flags replaced by a note.
fn clean(part: &Part, notes: &mut Vec<String>) -> String {
    let text = crate::redact::redact(&part.text, Some(&part.name)).text;
    let found = crate::injection::in_lines(&part.name, (1..).zip(text.lines()));
    if found.is_empty() {
        return text;
    }
    let withheld: BTreeSet<u32> = found.iter().map(|f| f.line).collect();
    // Each withheld line is named, up to a few: a file of nothing else is not a flood of notes.
    for f in found.iter().take(MAX_NAMED) {
        notes.push(format!(
            "instructions: {}:{} was not sent: it {}",
            f.path, f.line, f.what
        ));
    }
    if found.len() > MAX_NAMED {
        notes.push(format!(
            "instructions: {} more lines of {} were not sent for the same reason",
            found.len() - MAX_NAMED,
            part.name
        ));
    }
    (1..)
        .zip(text.lines())
        .map(|(n, l)| {
            if withheld.contains(&n) {
                format!("[git-debate: line {n} withheld: it reads as orders to the model]")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
