//! What an agent CLI or a local model runner prints around its answer in a terminal, taken out
//! so the reader sees the answer alone: the command line that started it, the CLI's session
//! transcript and tool steps with their output (codex, opencode, Claude Code, Kiro, copilot),
//! aider's banner, echoed requests, `/run` output and edit blocks, llama.cpp's and ollama's
//! loader and timing lines.
//!
//! All of it names files, quotes test output and repeats the request's severity scale, so left
//! in it would read as findings; none of it is what the model found.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::answer::vocab;
use crate::pattern::Pattern;

/// What a local model runner prints around the answer (`llama-cli`'s loader and timing lines,
/// `ollama run --verbose`'s statistics, `[end of text]`): lines named in
/// [`vocab::RUNNER_CHROME`], removed when at least two of them are there (one `main: …` line
/// may be the review's own words).
pub(super) fn without_runner_chrome(text: &str) -> String {
    static CHROME: OnceLock<Pattern> = OnceLock::new();
    let chrome = crate::answer::re_built(&CHROME, || {
        format!(r"(?i)^\s*(?:{})\s*[:=]", vocab::RUNNER_CHROME.join("|"))
    });
    let text = text.replace("[end of text]", "");
    if text.lines().filter(|l| chrome.is_match(l)).count() < 2 {
        return text;
    }
    text.lines()
        .filter(|l| !chrome.is_match(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The lines of aider's start-up banner after its `Aider v0.86.1` (the models, the repository,
/// the files added to the chat).
const AIDER_BANNER: &[&str] = &[
    "Main model:",
    "Weak model:",
    "Editor model:",
    "Model:",
    "Git repo:",
    "Repo-map:",
    "Use /help",
    "Cur working dir:",
    "Warning:",
];

/// aider's chrome: its start-up banner, the request echoed under it (`> review this change…`)
/// and the tally after each answer (`Tokens: 4.8k sent, 301 received. Cost: …`). The banner
/// names every file added to the chat, and the request asks for severities and lines: what the
/// tool did and was asked, not what the model found.
pub(super) fn without_aider_chrome(text: &str) -> Cow<'_, str> {
    let footer =
        |l: &str| l.starts_with("Tokens: ") && l.contains(" sent, ") && l.contains(" received");
    let banner = text.trim_start().starts_with("Aider v");
    if !banner && !text.lines().any(footer) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    if banner {
        let banner_line = |l: &str| {
            l.starts_with("Aider v")
                || AIDER_BANNER.iter().any(|p| l.starts_with(p))
                || (l.starts_with("Added ") && l.trim_end().ends_with("to the chat."))
        };
        let blank = |l: &str| l.trim().is_empty();
        while i < lines.len() && (blank(lines[i]) || banner_line(lines[i])) {
            i += 1;
        }
        return Cow::Owned(aider_turns(&lines[i..], footer));
    }
    let kept: Vec<&str> = lines[i..].iter().copied().filter(|l| !footer(l)).collect();
    Cow::Owned(kept.join("\n"))
}

/// aider's edit blocks: the file's name alone on a line, then a fence holding `<<<<<<< SEARCH`
/// … `>>>>>>> REPLACE`. The name belongs to the edit (what it would change), not to the prose
/// around it: left on its own line, it would be the place of whatever paragraph follows the
/// block. It moves into the fence's info string, where a code block names its file.
pub(super) fn without_edit_block_names(text: &str) -> Cow<'_, str> {
    if !text.contains("<<<<<<< SEARCH") {
        return Cow::Borrowed(text);
    }
    let lines: Vec<&str> = text.lines().collect();
    let opens_edit = |at: usize| {
        lines
            .get(at)
            .is_some_and(|l| l.trim_start().starts_with("```"))
            && lines
                .get(at + 1)
                .is_some_and(|l| l.trim_start().starts_with("<<<<<<< SEARCH"))
    };
    let name = |l: &str| {
        let t = l.trim();
        !t.is_empty() && !t.contains(char::is_whitespace) && t.contains('.')
    };
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        if name(lines[i]) && opens_edit(i + 1) {
            out.push(format!("{} {}", lines[i + 1].trim_end(), lines[i].trim()));
            i += 2;
            continue;
        }
        out.push(lines[i].to_string());
        i += 1;
    }
    Cow::Owned(out.join("\n"))
}

/// The model's words in an aider session after its banner. aider echoes what the user typed
/// with its `> ` prompt (the request asks for severities and names files), prints a `/run` or
/// `/test` command's output under it, asks whether to add that output to the chat (`Add 0.1k
/// tokens of command output to the chat? (Y)es/(N)o [Yes]: y`) and says what it added: all
/// of that is the session, not the review.
fn aider_turns(lines: &[&str], footer: impl Fn(&str) -> bool) -> String {
    let asks = |l: &str| l.starts_with("Add ") && l.contains(" to the chat? (Y)es/(N)o");
    let added = |l: &str| l.starts_with("Added ") && l.trim_end().ends_with("to the chat.");
    let mut kept = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if let Some(typed) = l.strip_prefix('>') {
            let command = typed.trim_start();
            i += 1;
            // A command's output runs to aider's question about it (when it asks one).
            if command.starts_with("/run") || command.starts_with("/test") {
                if let Some(q) = lines[i..].iter().position(|l| asks(l)) {
                    i += q + 1;
                }
            }
            continue;
        }
        if !(asks(l) || added(l) || footer(l)) {
            kept.push(l);
        }
        i += 1;
    }
    kept.join("\n")
}

/// A terminal agent's transcript around its review: its banner box (`╭ … ╰`) and each tool
/// step (`• Explored`, `⏺ Read(src/a.rs)`) with the lines hung under it (`└ …`, `⎿ …`). They
/// name files and print test output, but they are what the agent did, not what it found.
pub(super) fn without_tool_logs(text: &str) -> String {
    let hung = |l: &str| {
        let t = l.trim_start();
        t.starts_with('└') || t.starts_with('⎿')
    };
    let lines: Vec<&str> = text.lines().collect();
    if !lines.iter().any(|l| {
        hung(l)
            || l.starts_with("|  ")
            || ruled_step(l)
            || session_banner(l)
            || tool_use(l)
            || usage_footer(l)
    }) {
        return text.to_string();
    }
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        // The copilot CLI's closing tally (`Total usage est:`, `Total duration (API):`, `Usage
        // by model:` and the lines indented under it).
        if usage_footer(lines[i]) {
            i += 1;
            while i < lines.len()
                && (lines[i].starts_with("Total ")
                    || lines[i].starts_with("Usage by model:")
                    || lines[i].starts_with(' '))
            {
                i += 1;
            }
            continue;
        }
        // Kiro: `🛠️  Using tool: execute_bash`, its `⋮`/`●`/`↳` lines and the command, to
        // `● Completed in 0.41s` (or `- Completed in …`).
        if tool_use(lines[i]) {
            let end = lines[i..].iter().take(40).position(|l| {
                l.trim_start()
                    .trim_start_matches(|c: char| !c.is_alphanumeric())
                    .starts_with("Completed in")
            });
            if let Some(n) = end {
                i += n + 1;
                continue;
            }
        }
        if ruled_step(lines[i]) || session_banner(lines[i]) {
            i = after_ruled_step(&lines, i + 1);
            continue;
        }
        let t = lines[i].trim_start();
        let step = (t.starts_with('•') || t.starts_with('⏺') || t.starts_with('●'))
            && lines.get(i + 1).is_some_and(|n| hung(n));
        if step {
            i += 1;
            // The hung lines and what is indented under them.
            while i < lines.len() && (hung(lines[i]) || lines[i].starts_with("    ")) {
                i += 1;
            }
            continue;
        }
        // opencode prints each step as `|  Read     path`. (Not a table's padded row, `|
        // Check name     | Status |`, which ends on its pipe.)
        let piped_step = lines[i].starts_with("|  ")
            && !lines[i].trim_end().ends_with('|')
            && t[1..].split_whitespace().next().is_some_and(|w| {
                w.chars().next().is_some_and(char::is_uppercase)
                    && w.chars().skip(1).all(char::is_lowercase)
            })
            && lines[i].contains("     ");
        if !matches!(t.chars().next(), Some('╭' | '│' | '╰')) && !piped_step {
            out.push(lines[i]);
        }
        i += 1;
        // What the step printed, indented under it (`|    a.ts:17: // TODO(P0): …`).
        if piped_step {
            while i < lines.len() && lines[i].starts_with("|    ") {
                i += 1;
            }
            // A command's output at the margin (`|  Bash     go test ./...` then `ok  …` or a
            // pytest report): up to the next step, or the first paragraph of prose.
            if t[1..].trim_start().starts_with("Bash ") {
                i += command_output(&lines[i..]);
            }
        }
    }
    out.join("\n")
}

/// How many of `lines` are a command's output: all up to the next `|  ` step, or up to the
/// first paragraph that opens with a sentence (or markdown: a heading, a bold label, an item).
/// Output lines are not sentences: `ok  example.com/mail 0.2s` (aligned by runs of spaces),
/// `FAILED tests/…`, `E   …`, `1 failed, 3 passed in 0.22s`, `===== FAILURES =====`,
/// `Finished in 0.84 seconds (files took 1.2 seconds to load)`.
fn command_output(lines: &[&str]) -> usize {
    let prose = |l: &str| {
        let t = l.trim_end();
        let first = t.split_whitespace().next().unwrap_or("");
        let markdown = t.starts_with("**")
            || t.trim_start_matches('#').starts_with(' ') && t.starts_with('#')
            || t.starts_with("- ")
            || t.starts_with("* ");
        // (`FAILED …`, `ERROR: …`, `1 failed, 3 passed`, `Traceback (most recent call
        // last):` open lines of output, in any script a sentence may be written in.)
        let shouted = first.chars().filter(|c| c.is_alphabetic()).count() > 1
            && !first.chars().any(char::is_lowercase)
            && first.is_ascii();
        let sentence = !shouted
            && !first.starts_with(|c: char| c.is_ascii_digit())
            && first != "Traceback"
            && t.split(' ').filter(|w| !w.is_empty()).count() >= 3
            && !t.contains("  ")
            && !t.contains("===")
            && t.ends_with(['.', ':', '!', '?', '。', '！', '？']);
        markdown || sentence
    };
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("|  ") {
            break;
        }
        let opens_paragraph = i == 0 || lines[i - 1].trim().is_empty();
        if opens_paragraph && prose(l) {
            break;
        }
        i += 1;
    }
    i
}

/// A terminal agent's message printed under its bullet (the codex TUI: `• Review: current
/// changes`, then the message indented by two spaces): the bullet's line as a paragraph and
/// the message set back to the margin, so its lists are lists of their own and not the
/// bullet's sub-items.
pub(super) fn unhung_messages(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let bullet = |l: &str| l.starts_with("• ") || l.starts_with("⏺ ") || l.starts_with("● ");
    if !lines.iter().any(|l| bullet(l)) {
        return text.to_string();
    }
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        // (Only a bullet's line looks ahead: a long indented text stays linear.)
        if !bullet(lines[i]) {
            out.push(lines[i].to_string());
            i += 1;
            continue;
        }
        let hung = lines[i + 1..]
            .iter()
            .take_while(|l| l.is_empty() || l.starts_with("  "))
            .count();
        let body = &lines[i + 1..i + 1 + hung];
        // (A tool step's output, `└ 38 passing`, is left to the step's own rule.)
        let item = |l: &&str| {
            let t = l.strip_prefix("  ").unwrap_or(l);
            t.starts_with("- ")
                || t.starts_with("* ")
                || t.split_once(". ")
                    .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        };
        // (Or the message opens with a heading, `● ## Issue: …`, over its fields.)
        let heading = lines[i]
            .split_once(' ')
            .is_some_and(|(_, t)| t.trim_start().starts_with('#'));
        let message = (body.iter().any(item) || heading)
            && !body
                .iter()
                .any(|l| l.trim_start().starts_with(['└', '⎿', '$']));
        if !message {
            out.push(lines[i].to_string());
            i += 1;
            continue;
        }
        out.push(lines[i][lines[i].find(' ').map_or(0, |k| k + 1)..].to_string());
        out.push(String::new());
        out.extend(
            body.iter()
                .map(|l| l.strip_prefix("  ").unwrap_or(l).to_string()),
        );
        i += 1 + hung;
    }
    out.join("\n")
}

/// The copilot CLI's closing tally opens with `Total usage est:`.
fn usage_footer(line: &str) -> bool {
    line.starts_with("Total usage est:")
}

/// A tool call announced on a line of its own (Kiro: `🛠️  Using tool: execute_bash (trusted)`).
fn tool_use(line: &str) -> bool {
    line.trim_start()
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .starts_with("Using tool: ")
}

/// A tool step drawn as a rule with its name (goose: `─── shell | developer ───…`).
fn ruled_step(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("───") && t.ends_with('─') && t.contains(" | ")
}

/// A session's opening line (goose: `starting session | provider: openai model: gpt-4.1`).
pub(super) fn session_banner(line: &str) -> bool {
    // (opencode's session line; the gemini CLI's first line when it reuses a login.)
    line.starts_with("starting session | ") || line.trim_end() == "Loaded cached credentials."
}

/// Where the text after a tool step starts: past its `key: value` parameters and indented
/// lines, and past the indented output the tool printed after a blank line.
fn after_ruled_step(lines: &[&str], mut i: usize) -> usize {
    let parameter = |l: &str| {
        l.split_once(": ").is_some_and(|(k, _)| {
            !k.is_empty() && k.chars().all(|c| c.is_ascii_lowercase() || c == '_')
        })
    };
    while i < lines.len() && (parameter(lines[i]) || lines[i].starts_with(' ')) {
        i += 1;
    }
    let mut j = i;
    while j < lines.len() && lines[j].trim().is_empty() {
        j += 1;
    }
    if j < lines.len() && lines[j].starts_with(' ') && !lines[j].starts_with("    ") {
        while j < lines.len() && lines[j].starts_with(' ') {
            j += 1;
        }
        return j;
    }
    i
}

/// A terminal copy's first line, the command that asked for the review (`$ claude -p "Review
/// … Give P0-P3 per finding"`): the request, not the answer, though it names levels.
pub(super) fn without_invocation(text: &str) -> Cow<'_, str> {
    let body = text.trim_start();
    match body.split_once('\n') {
        Some((first, rest))
            if ["$ ", "% ", "❯ "].iter().any(|p| first.starts_with(p))
                && !rest.trim().is_empty()
                // (A transcript of several commands, or JSON under its command, is read whole
                // by the readers of those.)
                && !rest.trim_start().starts_with(['{', '['])
                && !rest.lines().any(|l| l.starts_with("$ ")) =>
        {
            Cow::Owned(rest.to_string())
        }
        _ => Cow::Borrowed(text),
    }
}

/// What a terminal copy shows after its first line, when that line is the command that
/// started it (`$ codex exec … "Review …"` over the CLI's own transcript, and perhaps more
/// commands after it, `$ cat review.json | jq .`): the transcript's reader finds the answer in
/// it.
pub(super) fn past_command(t: &str) -> Option<&str> {
    let (first, rest) = t.split_once('\n')?;
    ["$ ", "% ", "❯ "]
        .iter()
        .any(|p| first.starts_with(p))
        .then_some(rest)
}

/// JSON as a terminal copy shows it, below the command that printed it (`$ gemini -p "…"
/// --output-format json`, `$ git diff | claude -p "…" --output-format json`) or the gemini
/// CLI's login line: the JSON alone.
pub(super) fn below_command(t: &str) -> &str {
    match t.split_once('\n') {
        Some((first, rest))
            if (first.starts_with(['$', '%', '❯']) || session_banner(first))
                && rest.trim().starts_with(['{', '[']) =>
        {
            rest.trim()
        }
        _ => t,
    }
}
