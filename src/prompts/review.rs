//! The reviewer's prompt for a version of the artifact: one under cr or peer-review, or for a
//! mixed document its code and proposal segments under each, with the earlier rounds as context.

use anyhow::Result;

use crate::change::markdown::{SegmentKind, Target};
use crate::change::Artifact;
use crate::prompts::Template;

/// One reviewer prompt: the segment it covers (`code`/`proposal` for mixed) and its text.
pub type Prompt = (Option<&'static str>, String);

/// The reviewer prompts for `text` (one, or two for a mixed artifact) and the same as one
/// document for `round-<n>-input.md`.
pub fn prompts(
    artifact: &Artifact,
    text: &str,
    context: &str,
    templates: Option<&std::path::Path>,
    snippet: bool,
) -> Result<(Vec<Prompt>, String)> {
    // Where the material speaks to the reviewer, said outside the fence.
    let injection_note = crate::injection::prompt_note(&artifact.injections);
    let instructions = crate::prompts::instructions(&artifact.instructions.text);
    let prompts: Vec<Prompt> = parts(artifact, text)
        .iter()
        .map(|(segment, template, text)| {
            let snippet_note = if snippet && *template == Template::Cr {
                "This is code without git history: cite lines as `snippet:<line>`."
            } else {
                ""
            };
            template
                .render(
                    templates,
                    &[
                        ("artifact", text.as_str()),
                        ("context", context),
                        ("snippet_note", snippet_note),
                        ("injection_note", &injection_note),
                        ("instructions", &instructions),
                    ],
                )
                .map(|p| (*segment, p))
        })
        .collect::<Result<_>>()?;
    let input = prompts
        .iter()
        .map(|(seg, p)| match seg {
            Some(s) => format!("<!-- {s} review -->\n{p}\n"),
            None => p.clone(),
        })
        .collect();
    Ok((prompts, input))
}

/// The review parts of the current text: the whole of it under one protocol, or for mixed
/// artifacts its code and proposal segments under cr and peer-review.
fn parts(artifact: &Artifact, text: &str) -> Vec<(Option<&'static str>, Template, String)> {
    match artifact.target {
        Target::Code => vec![(None, Template::Cr, text.to_string())],
        Target::Proposal => vec![(None, Template::PeerReview, text.to_string())],
        Target::Mixed => {
            // Segments index the original text; a revised version is reviewed as a whole
            // under both protocols.
            let segs = if text == artifact.text {
                crate::change::markdown::split(text)
            } else {
                Vec::new()
            };
            let join = |kind: SegmentKind| -> String {
                segs.iter()
                    .filter(|s| s.kind == kind)
                    .map(|s| {
                        let path = s.heading_path.join(" > ");
                        let head = if path.is_empty() {
                            String::new()
                        } else {
                            format!("<!-- {path} -->\n")
                        };
                        format!("{head}{}", &text[s.start..s.end])
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let (code, prose) = if segs.is_empty() {
                (text.to_string(), text.to_string())
            } else {
                (join(SegmentKind::Code), join(SegmentKind::Proposal))
            };
            vec![
                (Some("code"), Template::Cr, code),
                (Some("proposal"), Template::PeerReview, prose),
            ]
        }
    }
}
