//! What a code host or a review bot prints around the comments of a review that is pasted or
//! posted: bylines and review states, permalinks and Gerrit's comment links, a bot's description
//! of the change. Each is turned into what the reader reads (a place, a verdict) or taken out.

use std::borrow::Cow;
use std::sync::OnceLock;

use crate::pattern::Pattern;

use crate::answer::{re, vocab};

/// A code host's notification mail of a review comment: `In path:`, then the hunk the comment
/// is on, its header quoted (`> @@ -45,4 +45,6 @@ …`) and its lines after it down to the
/// commented line, which is the hunk's last. The `In` line becomes a place line at that line
/// (counted on the new side from the header's `+c`) and the hunk a fenced diff, so the comment
/// under it is read at its line and the quoted code is the code's words, not the reviewer's.
pub(super) fn mail_hunks(text: &str) -> Cow<'_, str> {
    static IN: OnceLock<Pattern> = OnceLock::new();
    let in_file = re(&IN, r"^In ([\w./-]+\.[\w]+|[\w./-]+/[\w.-]+):\s*$");
    if !text.contains("@@ -") || !text.lines().any(|l| in_file.is_match(l)) {
        return Cow::Borrowed(text);
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len() + 4);
    let mut i = 0;
    while i < lines.len() {
        let path = in_file.captures(lines[i]).map(|c| c[1].to_string());
        let header = lines[i + 1..]
            .iter()
            .position(|l| !l.trim().is_empty())
            .map(|k| i + 1 + k)
            .filter(|&h| {
                let quoted = lines[h].trim_start().strip_prefix('>').map(str::trim_start);
                quoted.and_then(crate::answer::mail::hunk_start).is_some()
            });
        let (Some(path), Some(h)) = (path, header) else {
            out.push(lines[i].to_string());
            i += 1;
            continue;
        };
        let head = lines[h].trim_start()[1..].trim_start();
        let mut next = crate::answer::mail::hunk_start(head).expect("checked");
        let mut last = next;
        let mut hunk = vec![head.to_string()];
        let mut j = h + 1;
        while let Some(l) = lines.get(j) {
            let l = l
                .strip_prefix("> ")
                .or_else(|| l.strip_prefix('>'))
                .unwrap_or(l);
            if l.is_empty() || !l.starts_with([' ', '+', '-', '\\']) {
                break;
            }
            if l.starts_with([' ', '+']) {
                last = next;
                next += 1;
            }
            hunk.push(l.to_string());
            j += 1;
        }
        out.push(format!("`{path}:{last}`"));
        out.push(String::new());
        out.push("```diff".into());
        out.extend(hunk);
        out.push("```".into());
        i = j;
    }
    Cow::Owned(out.join("\n"))
}

/// Gerrit's comment: the comment's link (`https://review.example.org/c/kernel/+/51907/1/
/// kernel/sched/fair_share.c#214`) over the line it is on, quoted (`PS1, Line 214: <code>`),
/// then the comment. The two lines become one place line (`**File:** `path:214``) that the
/// comment under it is read with; the quoted code line is the code's words, not the reviewer's.
pub(super) fn gerrit_places(text: &str) -> Cow<'_, str> {
    if !text.contains(", Line ") {
        return Cow::Borrowed(text);
    }
    let link_path = |l: &str| -> Option<String> {
        let l = l.trim();
        if !l.starts_with("http") || l.contains(char::is_whitespace) {
            return None;
        }
        // `/+/<change>/<patch set>/<path>#<line>`
        let (_, rest) = l.split_once("/+/")?;
        let mut parts = rest.splitn(3, '/');
        let change = parts.next()?;
        let set = parts.next()?;
        let path = parts.next()?.split('#').next()?;
        let digits = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
        (digits(change) && digits(set) && !path.is_empty()).then(|| path.to_string())
    };
    let quoted_line = |l: &str| -> Option<u32> {
        let rest = l.trim_start().strip_prefix("PS")?;
        let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
        let rest = rest.strip_prefix(", Line ")?;
        let (n, _) = rest.split_once(':')?;
        n.parse().ok()
    };
    // Gerrit's mail links to the comment (`/+/30311/comment/b812_27/`), not the file: the file
    // is the `File src/queue.ts:` line over the comments on it.
    let comment_link = |l: &str| {
        let l = l.trim();
        l.starts_with("http") && !l.contains(char::is_whitespace) && l.contains("/comment/")
    };
    let file_line = |l: &str| {
        let path = l.strip_prefix("File ")?.trim_end().strip_suffix(':')?;
        (!path.is_empty() && !path.contains(' ')).then(|| path.to_string())
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut changed = false;
    let mut file: Option<String> = None;
    let mut i = 0;
    while i < lines.len() {
        if let Some(path) = file_line(lines[i]) {
            file = Some(path);
        }
        let linked =
            |l: &str| link_path(l).or_else(|| comment_link(l).then(|| file.clone()).flatten());
        let place = linked(lines[i]).zip(lines.get(i + 1).and_then(|l| quoted_line(l)));
        if let Some((path, line)) = place {
            out.push(format!("**File:** `{path}:{line}`"));
            changed = true;
            i += 2;
            // A reply quotes the thread's earlier comment (`> Zero TTL is cached forever
            // here.`) and answers it after a blank line ("Verified fixed in PS4"): one comment.
            let quoted = lines[i..].iter().take_while(|l| l.starts_with('>')).count();
            if quoted > 0 {
                let mut j = i + quoted;
                while j < lines.len() && lines[j].trim().is_empty() {
                    j += 1;
                }
                // ("Done, it comes from config now." answered "Thanks.": nothing is raised.)
                let reply = lines[j..].iter().take_while(|l| !l.trim().is_empty());
                let reply: Vec<&str> = reply.copied().collect();
                if vocab::acknowledgement(&reply.join(" ")) {
                    out.pop();
                    i = j + reply.len();
                    continue;
                }
                out.extend(lines[i..i + quoted].iter().map(|l| l.to_string()));
                i = j;
            }
            continue;
        }
        out.push(lines[i].to_string());
        i += 1;
    }
    if changed {
        Cow::Owned(out.join("\n"))
    } else {
        Cow::Borrowed(text)
    }
}

/// A permalink alone on the line right above a bold title (the Codex connector's review:
/// `https://github.com/o/r/blob/a91f3c4/src/retry.js#L45-L52` then `**![P1 Badge](…) Title**`)
/// is that comment's place: it moves under the title, where a comment's place is read, instead
/// of trailing the comment before it.
pub(super) fn permalinks_under_titles(text: &str) -> String {
    let permalink = |l: &str| {
        let l = l.trim();
        l.starts_with("https://") && l.contains("/blob/") && !l.contains(char::is_whitespace)
    };
    let lines: Vec<&str> = text.lines().collect();
    if !lines.iter().any(|l| permalink(l)) {
        return text.to_string();
    }
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let title = lines
            .get(i + 1)
            .is_some_and(|n| n.trim_start().starts_with("**"));
        if permalink(lines[i]) && title {
            out.push(lines[i + 1]);
            out.push(lines[i]);
            i += 2;
        } else {
            out.push(lines[i]);
            i += 1;
        }
    }
    out.join("\n")
}

/// A bot's description of the pull request, quoted above its review (Ellipsis's `> [!IMPORTANT]`
/// block ending "This description was created by Ellipsis for …", Bugbot's `> [!NOTE]` signed
/// "Written by Cursor Bugbot for commit 91ab3c2"), or fenced by the comments that mark it
/// (`<!-- CURSOR_SUMMARY -->` … `<!-- /CURSOR_SUMMARY -->`): what the change does, said for the
/// author of the pull request, not what the review found.
pub(super) fn without_generated_description(text: &str) -> String {
    let text = without_marked_summaries(text);
    let signed = |l: &str| {
        l.contains("description was created by")
            || (l.contains("Written by ") && l.contains(" for commit "))
    };
    if !text.lines().any(signed) {
        return text.into_owned();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let quoted = |l: &str| l.trim_start().starts_with('>');
        let end = lines[i..]
            .iter()
            .position(|l| !quoted(l))
            .map_or(lines.len(), |n| i + n);
        if end > i && lines[i..end].iter().any(|l| signed(l)) {
            i = end;
            continue;
        }
        out.push(lines[i]);
        i += 1;
    }
    out.join("\n")
}

/// `text` without the regions a bot marks as its summary with a pair of comments
/// (`<!-- CURSOR_SUMMARY -->` … `<!-- /CURSOR_SUMMARY -->`, `<!-- walkthrough_start -->` …
/// `<!-- walkthrough_end -->`). An opening comment without its closing one removes nothing.
fn without_marked_summaries(text: &str) -> Cow<'_, str> {
    let marker = |l: &str| -> Option<(String, bool)> {
        let name = l.trim().strip_prefix("<!--")?.strip_suffix("-->")?.trim();
        let lower = name.to_ascii_lowercase();
        // (Not cubic's `<!-- cubic:review-summary -->`: that one wraps the review itself.)
        if !(lower.contains("summary") || lower.contains("walkthrough"))
            || lower.contains("review")
            || name.contains(' ')
        {
            return None;
        }
        if let Some(n) = lower.strip_prefix('/') {
            return Some((n.to_string(), false));
        }
        if let Some(n) = lower.strip_suffix("_end") {
            return Some((n.to_string(), false));
        }
        Some((
            lower.strip_suffix("_start").unwrap_or(&lower).to_string(),
            true,
        ))
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut cut: Vec<(usize, usize)> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some((name, true)) = marker(l) else {
            continue;
        };
        let close = lines[i + 1..]
            .iter()
            .position(|m| marker(m) == Some((name.clone(), false)));
        if let Some(n) = close {
            cut.push((i, i + 1 + n));
        }
    }
    if cut.is_empty() {
        return Cow::Borrowed(text);
    }
    // (The tables of a region of checks stay, each row read by its status: CodeRabbit's
    // `<!-- pre_merge_checks_walkthrough_start -->` holds the checks that failed, raised nowhere
    // else.)
    let checks = |a: usize| lines[a].to_ascii_lowercase().contains("check");
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(i, l)| {
            !cut.iter().any(|(a, b)| {
                a <= i
                    && i <= b
                    && !(checks(*a) && (l.trim_start().starts_with('|') || l.trim().is_empty()))
            })
        })
        .map(|(_, l)| *l)
        .collect();
    Cow::Owned(kept.join("\n"))
}

/// A review's state line on a code host (`**dmitri-s** requested changes`, `octocat approved
/// these changes`): the name is not a finding's title, the state is the review's verdict, so
/// only the state stays (`requested changes.`). The same name, bold and alone over each of the
/// review's threads (`**hsato**:`), is its byline: a blank line. (Only a name a state line gave:
/// `**Security**:` alone is a label.)
pub(super) fn review_states(text: &str) -> String {
    static STATE: OnceLock<Pattern> = OnceLock::new();
    let state = re(
        &STATE,
        r"(?im)^[ \t]*(?:\*\*)?@?([A-Za-z0-9_.-]+)(?:\[bot\])?(?:\*\*)?[ \t]+(requested changes|approved these changes|approved this (?:pull|merge) request)\b[^\n]*$",
    );
    let names: Vec<String> = state
        .captures_iter(text)
        .map(|c| c[1].to_string())
        .collect();
    let text = state.replace_all(text, "$2.");
    if names.is_empty() {
        return text.into_owned();
    }
    let byline = |l: &str| {
        let t = l.trim().trim_end_matches([':', '：']).trim_end();
        t.strip_prefix("**")
            .and_then(|t| t.strip_suffix("**"))
            .map(|t| t.trim_start_matches('@'))
            .is_some_and(|name| names.iter().any(|n| n == name))
    };
    text.lines()
        .map(|l| if byline(l) { "" } else { l })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The chrome of a code-scanning alert as GitHub posts it on a line (`## Check failure`, `##
/// Check warning`, `## Check notice`, `**Code scanning / CodeQL**`, quoted or not): the alert's
/// kind and its tool, not a section of the review. As a heading it would end the comment that
/// the place line above it opened.
/// (The check's line in the pull request's conversation, `**Check warning on line 17** in
/// `web/redirect.ts``, is the alert's place.)
pub(super) fn without_alert_chrome(text: &str) -> Cow<'_, str> {
    static CHROME: OnceLock<Pattern> = OnceLock::new();
    static CHECK_LINE: OnceLock<Pattern> = OnceLock::new();
    let text = re(
        &CHECK_LINE,
        r"(?im)^([ \t>]*)\*\*Check (?:failure|warning|notice) on lines? (\d+)(?:\s*[-–]\s*(\d+))?\*\* in `([^`\n]+)`[ \t]*$",
    )
    .replace_all(text, |c: &regex::Captures| match c.get(3) {
        Some(end) => format!("{}`{}:{}-{}`", &c[1], &c[4], &c[2], end.as_str()),
        None => format!("{}`{}:{}`", &c[1], &c[4], &c[2]),
    });
    let chrome = re(
        &CHROME,
        r"(?im)^((?:[ \t]*>)*)[ \t]*(?:#{1,6}[ \t]+Check (?:failure|warning|notice)|\*\*Code scanning / [^*\n]{1,40}\*\*|Code scanning / [A-Za-z][\w .-]{0,40})[ \t]*$",
    );
    match chrome.replace_all(&text, "$1") {
        Cow::Borrowed(_) => text,
        Cow::Owned(o) => Cow::Owned(o),
    }
}

/// Lines that only say who wrote what follows (`qodo-merge-pro[bot] · review thread`,
/// `@coderabbitai[bot] commented on this pull request.`, `**bot** commented`): a pasted
/// thread's bylines are not part of any finding.
pub(super) fn without_bylines(text: &str) -> String {
    static BYLINE: OnceLock<Pattern> = OnceLock::new();
    let byline = re(
        &BYLINE,
        r"(?i)^\s*(?:\*\*)?@?[A-Za-z0-9_.-]+(?:\[bot\])?(?:\*\*)?\s+(?:·\s+(?:review thread|comment|review)\b.*|commented(?: on this pull request)?\.?|left a comment\.?)\s*$",
    );
    // (Names are ASCII, as code hosts allow: a bounded run of any Unicode word character costs a
    // compilation of milliseconds on every answer.)
    // A copy of GitHub's web page puts each byline on lines of its own: `@name`, `name bot`,
    // (GitLab's: `**Dana Reyes** started a thread on the diff · 1 day ago`),
    // `**name[bot]**:`,
    // `name bot reviewed 2 hours ago`, `5 hours ago`, `Copilot AI  Oct 7, 2025`, `@name Reply...`. (Not "requested
    // changes" or "approved these changes": those are the review's verdict.)
    static WEB: OnceLock<Pattern> = OnceLock::new();
    let web = re(
        &WEB,
        r"(?i)^\s*(?:@[A-Za-z0-9_.-]+(?:\[bot\])?|(?:\*\*)?@?[A-Za-z0-9_.-]+\[bot\](?:\*\*)?\s*:?|[A-Za-z0-9_.-]+(?:\[bot\])? bot|[A-Za-z0-9_.-]+(?:\[bot\]| bot)+ (?:reviewed|commented)(?: \d+ [a-z]+ ago| yesterday| just now)?|[A-Za-z0-9_.-]+ (?:reviewed|commented) (?:\d+ [a-z]+ ago|yesterday|just now)|\d+ (?:second|minute|hour|day|week|month|year)s? ago|[A-Za-z0-9_.-]+(?:(?: AI| bot|\[bot\])[ \t]+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}(?:, \d{4})?|[ \t]{2,}(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}(?:, \d{4})?|[ \t]+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]* \d{1,2}, \d{4})|(?:@[A-Za-z0-9_.-]+\s+)?Reply(?:\.\.\.|…)|[A-Za-z0-9_ .-]{1,40}@[A-Za-z0-9_.-]+(?: started a thread on the diff| commented| replied)?\s*·\s*(?:\d+ [a-z]+ ago|yesterday|just now)|(?:\*\*)?[A-Z][A-Za-z.'-]*(?: [A-Z][A-Za-z.'-]*){0,3}(?:\*\*)? (?:started a thread on the diff|commented on the diff|approved this merge request)\s*·\s*(?:\d+ [a-z]+ ago|yesterday|just now))\s*$",
    );
    // A byline that says where (`**snyk-io** commented on `a.js` line 33`, `**kody-ai bot** ·
    // `a.ts` line 27`): the place stays, on a line of its own, for the comment under it.
    static PLACED: OnceLock<Pattern> = OnceLock::new();
    let placed = re(
        &PLACED,
        r"(?i)^\s*(?:\*\*@?[A-Za-z0-9_.\- ]{1,30}?(?:\[bot\])?\*\*|@?[A-Za-z0-9_.-]+(?:\[bot\]| bot))\s+(?:·|commented on|reviewed)\s+(.*[\w`]/?[\w.-]*\.\w+.*)$",
    );
    // The same in any language: a bold name, then a handle or "· <when>" ("**GitLab Duo**
    // @GitLabDuo · kommentiert", "**Lucía Ferrer** comentó en el diff · hace 3 horas"). (A
    // bold level before a dot, `**High** · Security`, has neither.)
    static ANY_LANGUAGE: OnceLock<Pattern> = OnceLock::new();
    let any_language = re(
        &ANY_LANGUAGE,
        r"(?i)^\s*\*\*[^*\n]{1,40}\*\*\s+(?:@[A-Za-z0-9_.-]+\s*·[^`\n]{0,40}|[^`\n·]{0,40}·\s*(?:\d+\s+\S+\s+ago|hace\s+\d+\s+\S+|vor\s+\d+\s+\S+|il y a\s+\d+\s+\S+|há\s+\d+\s+\S+|\d+\s+\S+\s+fa|\d+\s*\S{0,3}前|\d+\s*\S{0,3}\s?전|yesterday|ayer|gestern|hier|ontem|ieri))\s*$",
    );
    let is_byline = |l: &str| byline.is_match(l) || web.is_match(l) || any_language.is_match(l);
    if !text.lines().any(|l| {
        byline.is_match(l)
            || placed.is_match(l)
            || any_language.is_match(l)
            || web.is_match(l) && !l.trim().starts_with('@')
    }) {
        return text.to_string();
    }
    // Each byline leaves a blank line: it separated what was before it from what follows.
    // (A reply's byline in a thread, `**Name** @handle · 3 hours ago` after the sentence that
    // ends the comment it answers, ends that comment: what follows is another one. After a
    // place line, `Comment on lines +41 to +58`, it is the byline of the comment on it.)
    let mut last = "";
    text.lines()
        .map(|l| {
            let ended = last.trim_end().ends_with(['.', '!', '?', '。', '！', '？']);
            if !l.trim().is_empty() {
                last = l;
            }
            if ended && any_language.is_match(l) {
                "---".to_string()
            } else if is_byline(l) {
                String::new()
            } else if let Some(c) = placed.captures(l) {
                c[1].to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
