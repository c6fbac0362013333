//! The panel's documents (the reporter's and the assessor's): `transcript.md` (every entry in seq
//! order, fact-checks, redactions applied), `verifier-report.md` (every check), `summary.md` (the
//! record, the reporter's account and the audience's perspective), `blog-post.md` (always: an
//! article on the topic, or a line saying why there is none) and `assessor-report.md` (with its
//! execution and output improvements), which the assessor writes after
//! reading the reporter's documents. The record parts are built by the tool from the log; only the
//! prose comes from models.

use anyhow::Result;

use crate::agents::budget::Budget;
use crate::debate::panel::calls::Call;
use crate::debate::panel::log::Entry;
use crate::debate::panel::{Debater, Panel, PanelOutcome};
use crate::store::debate::VerificationResult;

/// The reporter's summary text and, when asked, the blog post.
pub(super) fn reporter(
    p: &Panel,
    log: &[Entry],
    notes: &[String],
    outcome: &str,
    budget: &Budget,
) -> (Option<String>, Option<String>) {
    let b = p.roles.reporter.as_ref();
    let notes = crate::prompts::fence::wrap("YOUR RUNNING NOTES", &notes.join("\n"));
    let ask = |step: &str, task: &str| {
        let prompt = format!(
            "You are the reporter of a panel debate: neutral, precise, every claim tied to a \
             [seq N].\n\n{}\n\n{notes}\n\nDebate concluded. Outcome: {outcome}.\n\n{task}",
            p.digest(log)
        );
        let c = Call {
            role: "reporter",
            speaker: "reporter",
            step: step.into(),
            reserved: true,
            progress: p.progress(
                budget,
                "phase 4",
                &format!("reporter ({}): {step}", b.name()),
            ),
        };
        p.call(b, c, &prompt, budget)
            .ok()
            .map(|a| a.text.trim().to_string())
    };
    let summary = ask(
        "summary",
        "Write the body of summary.md in Markdown: for each debater 3 to 5 key arguments with \
         their seqs; notable exchanges, including source-quality rulings; the debate flow round \
         by round; why the outcome follows. Do not repeat the audience's conclusion (it is added \
         verbatim).",
    );
    let blog = ask(
        "blog post",
        "Write blog-post.md: 800 to 1500 words of neutral journalism about the TOPIC (not the \
         debate): a headline, an opening, the strongest arguments on each side (\"proponents \
         argue\", \"critics contend\"), what remains open. Never mention the debate, the \
         debaters, the chair or rounds.",
    );
    (summary, blog)
}

/// Writes `transcript.md`, `verifier-report.md`, `summary.md` and `blog-post.md`.
pub(super) fn write_reports(p: &Panel, o: &PanelOutcome) -> Result<()> {
    let debaters: Vec<Debater> = p.debaters.iter().map(|(d, _)| d.clone()).collect();
    p.session
        .write("transcript.md", transcript(&p.topic, o).as_bytes())?;
    p.session.write(
        "verifier-report.md",
        verifier_report(&p.topic, o).as_bytes(),
    )?;
    p.session.write(
        "summary.md",
        summary(&p.session.id, &p.topic, &debaters, o).as_bytes(),
    )?;
    let blog = match &o.blog {
        Some(b) => format!("{b}\n"),
        None => format!(
            "# {}\n\nNo article: the reporter ({}) did not write one{}.\n",
            p.topic,
            p.roles.reporter.name(),
            if o.status == "interrupted" {
                " (the debate was interrupted)"
            } else {
                ""
            }
        ),
    };
    p.session.write("blog-post.md", blog.as_bytes())?;
    Ok(())
}

/// The assessor reads the transcript, the summary and the blog post, and grades every role.
pub(super) fn assess(p: &Panel, o: &mut PanelOutcome, budget: &Budget) -> Result<()> {
    let read = |f: &str| {
        crate::store::folder::text(&p.session.dir, f)
            .ok()
            .flatten()
            .unwrap_or_default()
    };
    let mut docs = String::new();
    for f in ["transcript.md", "summary.md", "blog-post.md"] {
        let text = read(f);
        if !text.is_empty() {
            docs.push_str(&crate::prompts::fence::wrap(f, &text));
            docs.push('\n');
        }
    }
    let prompt = format!(
        "You are the assessor of a panel debate: you grade how it was run, not who was right.\n\n\
         {docs}\nAssess every role against its duties: the chair (neutrality, rulings, the \
         mandatory steps), each debater (evidence, engagement with all others, persona), the \
         verifier, the audience, the reporter (accuracy of summary.md and blog-post.md against \
         the transcript). Give an overall rating (Excellent, Good, Adequate or Poor) with \
         justification; per role strengths, gaps, suggestions; then a section `### Execution \
         improvements` with 3 to 5 items on how the debate was run (chairing, rules, turn order, \
         verification, timing) and a section `### Output improvements` with 3 to 5 items on the \
         documents (transcript, summary, blog post, reports). Markdown."
    );
    let b = p.roles.assessor.as_ref();
    let c = Call {
        role: "assessor",
        speaker: "assessor",
        step: "assessment".into(),
        reserved: true,
        progress: p.progress(budget, "phase 4", &format!("assessor ({})", b.name())),
    };
    let text = match p.call(b, c, &prompt, budget) {
        Ok(a) => with_improvements(a.text.trim()),
        Err(e) => {
            o.notes.push(format!(
                "[WARN] the assessor ({}) did not answer: {}",
                b.name(),
                crate::debate::hints::for_topic(&e.to_string())
            ));
            format!(
                "The assessment could not be written: the assessor ({}) did not answer ({}).",
                b.name(),
                e.kind.label()
            )
        }
    };
    p.session.write(
        "assessor-report.md",
        format!(
            "# Assessor report\n\nTopic: {}\nAssessor: {}\n\n{text}\n",
            p.topic,
            b.name()
        )
        .as_bytes(),
    )?;
    Ok(())
}

/// The assessor's report with both improvement sections, each said to be missing where the
/// assessor left it out.
fn with_improvements(text: &str) -> String {
    let mut s = text.to_string();
    for head in ["Execution improvements", "Output improvements"] {
        if !s.to_ascii_lowercase().contains(&head.to_ascii_lowercase()) {
            s.push_str(&format!(
                "\n\n### {head}\n\n- (the assessor gave none; 3 to 5 were asked for)"
            ));
        }
    }
    s
}

/// `transcript.md`: every entry in seq order, verification results as fact-checks, redacted
/// entries replaced by a pointer to the ruling.
pub fn transcript(topic: &str, o: &PanelOutcome) -> String {
    let mut s = format!(
        "# Panel debate: {topic}\n\n## Metadata\n\n- Outcome: {} ({})\n- Rounds: {}\n",
        o.outcome, o.reason, o.rounds
    );
    if let (Some(a), Some(b)) = (o.entries.first(), o.entries.last()) {
        s.push_str(&format!(
            "- Start: {}\n- End: {}\n",
            a.timestamp, b.timestamp
        ));
    }
    s.push_str(&navigation(&o.entries));
    let redacted: Vec<(u32, u32)> = o
        .entries
        .iter()
        .filter(|e| e.kind == "redaction")
        .filter_map(|e| Some((e.target_seq?, e.seq)))
        .collect();
    for e in &o.entries {
        if e.kind == "verification_result" {
            s.push_str(&format!(
                "\n#### [FACT-CHECK] seq {}: {}\n",
                e.target_seq.unwrap_or(0),
                e.content
            ));
            continue;
        }
        if e.kind == "audience_conclusion" {
            s.push_str(&format!(
                "\n---\n\n## Audience conclusion [seq {}]\n\n> {}\n\n---\n",
                e.seq,
                e.content.replace('\n', "\n> ")
            ));
            continue;
        }
        let mut head = format!("[seq {}] {} | {} | {}", e.seq, e.phase, e.speaker, e.kind);
        if let Some(t) = e.rebuttal_to_seq {
            head.push_str(&format!(" (to seq {t})"));
        }
        let body = match redacted.iter().find(|(t, _)| *t == e.seq) {
            Some((_, by)) => {
                format!("[REDACTED — a cited source does not exist; see the ruling at seq {by}]")
            }
            None => e.content.clone(),
        };
        s.push_str(&format!("\n### {head}\n_{}_\n\n{body}\n", e.timestamp));
    }
    for (title, kind) in [("Chair Rulings", "ruling"), ("Redactions", "redaction")] {
        s.push_str(&format!("\n## {title}\n\n"));
        let list: Vec<&Entry> = o.entries.iter().filter(|e| e.kind == kind).collect();
        if list.is_empty() {
            s.push_str("None.\n");
        }
        for e in list {
            s.push_str(&format!("- [seq {}] {}\n", e.seq, e.content));
        }
    }
    s
}

/// The transcript's quick navigation: where each part starts and ends, by seq.
fn navigation(entries: &[Entry]) -> String {
    let range = |kinds: &[&str]| {
        let seqs: Vec<u32> = entries
            .iter()
            .filter(|e| kinds.contains(&e.kind.as_str()))
            .map(|e| e.seq)
            .collect();
        match (seqs.first(), seqs.last()) {
            (Some(a), Some(b)) => format!("seq {a}–{b}"),
            _ => "none".into(),
        }
    };
    let mut s = String::from("\n## Quick Navigation\n\n| Part | Entries |\n| --- | --- |\n");
    s.push_str(&format!(
        "| Openings | {} |\n",
        range(&["opening_statement"])
    ));
    let starts: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.kind == "announcement" && e.phase == "rebuttal")
        .collect();
    for (i, e) in starts.iter().enumerate() {
        let end = starts
            .get(i + 1)
            .map(|n| n.seq - 1)
            .or_else(|| {
                entries
                    .iter()
                    .find(|x| x.seq > e.seq && x.phase == "closing")
                    .map(|x| x.seq - 1)
            })
            .unwrap_or_else(|| entries.last().map_or(e.seq, |l| l.seq));
        s.push_str(&format!("| Round {} | seq {}–{end} |\n", i + 1, e.seq));
    }
    s.push_str(&format!(
        "| Closings | {} |\n",
        range(&["closing_statement"])
    ));
    s.push_str(&format!("| Chair rulings | {} |\n", range(&["ruling"])));
    s.push_str(&format!("| Redactions | {} |\n", range(&["redaction"])));
    s
}

/// `verifier-report.md`: every check, with the totals.
pub fn verifier_report(topic: &str, o: &PanelOutcome) -> String {
    let mut s = format!("# Verifier report: {topic}\n\n| seq | speaker | source | kind | status | explanation |\n| --- | --- | --- | --- | --- | --- |\n");
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for e in o.entries.iter().filter(|e| e.kind == "verification_result") {
        let v = VerificationResult::of_content(&e.content);
        let seq = e.target_seq.unwrap_or(0);
        let speaker = o
            .entries
            .get(seq as usize)
            .map_or("", |t| t.speaker.as_str());
        let status = v.as_ref().map_or("", |v| v.status.as_str());
        *counts.entry(status.to_string()).or_default() += 1;
        let cell =
            |f: fn(&VerificationResult) -> &str| v.as_ref().map_or("", f).replace('|', "\\|");
        s.push_str(&format!(
            "| {seq} | {speaker} | `{}` | {} | {status} | {} |\n",
            cell(|v| &v.url),
            cell(|v| &v.kind),
            cell(|v| &v.explanation)
        ));
    }
    s.push_str(&withdrawn(o));
    s.push_str("\n## Totals\n\n");
    for st in ["verified", "unreliable", "fabricated", "unverifiable"] {
        s.push_str(&format!(
            "- {st}: {}\n",
            counts.get(st).copied().unwrap_or(0)
        ));
    }
    s.push_str(&format!(
        "\nRepository citations are checked against {}; URLs cannot be checked offline.\n",
        o.checked_at
    ));
    s
}

/// The Withdrawn Claims table: every source struck (fabricated, redacted) or that its author was
/// asked to withdraw or replace (unreliable), with the ruling; "none" when there is none.
fn withdrawn(o: &PanelOutcome) -> String {
    let mut s = String::from("\n## Withdrawn Claims\n\n");
    let mut rows = Vec::new();
    for e in o.entries.iter().filter(|e| e.kind == "verification_result") {
        let v = VerificationResult::of_content(&e.content);
        let status = v.as_ref().map_or("", |v| v.status.as_str());
        if status != "fabricated" && status != "unreliable" {
            continue;
        }
        let seq = e.target_seq.unwrap_or(0);
        let speaker = o
            .entries
            .get(seq as usize)
            .map_or("", |t| t.speaker.as_str());
        let ruling = o
            .entries
            .iter()
            .filter(|r| r.seq > e.seq && r.target_seq == Some(seq))
            .find(|r| {
                (status == "fabricated" && r.kind == "redaction")
                    || (status == "unreliable" && r.kind == "ruling")
            });
        let outcome = match (status, ruling) {
            ("fabricated", Some(r)) => format!("struck from the record (redaction, seq {})", r.seq),
            ("fabricated", None) => "struck from the record".to_string(),
            (_, Some(r)) => format!("asked to withdraw or replace (ruling, seq {})", r.seq),
            _ => "asked to withdraw or replace".to_string(),
        };
        let cell =
            |f: fn(&VerificationResult) -> &str| v.as_ref().map_or("", f).replace('|', "\\|");
        rows.push(format!(
            "| {seq} | {speaker} | `{}` | {status}: {} | {outcome} |\n",
            cell(|v| &v.url),
            cell(|v| &v.explanation)
        ));
    }
    rows.dedup();
    if rows.is_empty() {
        s.push_str("none\n");
    } else {
        s.push_str(
            "| seq | speaker | source | why | withdrawn by |\n| --- | --- | --- | --- | --- |\n",
        );
        s.extend(rows);
    }
    s
}

/// `summary.md` of a panel: the record, the reporter's account, the audience's perspective.
pub fn summary(id: &str, topic: &str, debaters: &[Debater], o: &PanelOutcome) -> String {
    let mut s = format!("## Panel Debate Summary\n\nSession: {id}\nTopic: {topic}\nStatus: {}\nRounds: {}\n\n### Debaters\n", o.status, o.rounds);
    for d in debaters {
        let entries = o.entries.iter().filter(|e| e.speaker == d.name).count();
        s.push_str(&format!(
            "- {} ({}): {} — position: {} ({entries} entries)\n",
            d.name, d.backend, d.persona, d.position
        ));
    }
    let count = |st: &str| {
        o.entries
            .iter()
            .filter(|e| e.kind == "verification_result")
            .filter(|e| e.content.contains(&format!("\"status\":\"{st}\"")))
            .count()
    };
    s.push_str(&format!(
        "\n### Verification\n- {} verified, {} fabricated (redacted), {} unreliable (ruled on), {} unverifiable offline\n",
        count("verified"),
        count("fabricated"),
        count("unreliable"),
        count("unverifiable")
    ));
    s.push_str(&format!("\n### Outcome\n- {}\n- {}\n", o.outcome, o.reason));
    if !o.report.is_empty() {
        s.push_str(&format!("\n### Reporter's account\n\n{}\n", o.report));
    }
    if let Some(a) = o.entries.iter().find(|e| e.kind == "audience_conclusion") {
        s.push_str(&format!(
            "\n### Audience Perspective [seq {}]\n\n> {}\n",
            a.seq,
            a.content.replace('\n', "\n> ")
        ));
    }
    for n in &o.notes {
        s.push_str(&format!("\n{n}\n"));
    }
    s
}
