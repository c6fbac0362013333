//! What a review tool's notification mail prints around a review: Gerrit's header ("Attention
//! is currently required from: …", "X has posted comments on this change …", "Change subject:"
//! over a rule of dots, "(3 comments)") and footer (`Gerrit-Project: …` lines, "To view,
//! visit …"), Phabricator's footer sections (`REPOSITORY`, `REVISION DETAIL`, `BRANCH`, each
//! over an indented value), its "X added a comment." lines and its closing `To:`/`Cc:` lines. None of it is the reviewer's
//! words; read as text, each section became a point of its own and a clean approval failed the
//! gate. Gerrit's `File path:` line stays: it is where the comments under it are.

use std::borrow::Cow;

/// Phabricator's footer sections: the heading, in capitals on a line of its own, over indented
/// values (a name, a link). `INLINE COMMENTS` is not among them: the review is under it.
const PHABRICATOR_SECTIONS: &[&str] = &[
    "REPOSITORY",
    "REVISION DETAIL",
    "CHANGES SINCE LAST ACTION",
    "CHANGES SINCE LAST UPDATE",
    "BRANCH",
    "EMAIL PREFERENCES",
    "AFFECTED FILES",
    "CHANGE DETAILS",
    "USERS",
    "MAILING LISTS",
    "PATCH",
    "ACTIONS",
];

/// Lines of Gerrit's mail that say who, what and how to unsubscribe, by how they start.
const GERRIT_LINES: &[&str] = &[
    "Attention is currently required from:",
    "Change subject:",
    "To view, visit ",
    "To unsubscribe, or for help writing mail filters, visit",
];

/// The text without a notification mail's chrome; other text as it is.
pub(super) fn without_chrome(text: &str) -> Cow<'_, str> {
    let lines: Vec<&str> = text.lines().collect();
    if !lines
        .iter()
        .any(|l| gerrit_chrome(l) || phabricator_section(l) || phabricator_byline(l))
    {
        return Cow::Borrowed(text);
    }
    let mut out: Vec<&str> = Vec::with_capacity(lines.len());
    let mut in_section = false;
    for (i, line) in lines.iter().enumerate() {
        if phabricator_section(line) {
            in_section = true;
            continue;
        }
        if in_section {
            // A section's values are indented; its end is the next line that is not.
            if line.trim().is_empty() || line.starts_with([' ', '\t']) {
                continue;
            }
            in_section = false;
        }
        // (The `-- ` over Gerrit's footer too; a signature of the reviewer's own stays for the
        // mail reader.)
        let over_footer = || {
            line.trim_end() == "--"
                && lines[i + 1..]
                    .iter()
                    .find(|l| !l.trim().is_empty())
                    .is_some_and(|l| gerrit_chrome(l))
        };
        if gerrit_chrome(line) || phabricator_byline(line) || over_footer() {
            continue;
        }
        out.push(line);
    }
    // Phabricator closes with who the mail went to.
    while out
        .last()
        .is_some_and(|l| l.trim().is_empty() || l.starts_with("To: ") || l.starts_with("Cc: "))
    {
        out.pop();
    }
    Cow::Owned(out.join("\n"))
}

/// "lkoch added a comment.", "lkoch added inline comments.": who wrote, not what.
fn phabricator_byline(line: &str) -> bool {
    let t = line.trim_end();
    t.split_once(' ').is_some_and(|(name, rest)| {
        !name.is_empty()
            && !name.contains(':')
            && matches!(rest, "added a comment." | "added inline comments.")
    })
}

fn phabricator_section(line: &str) -> bool {
    PHABRICATOR_SECTIONS.contains(&line.trim_end())
}

fn gerrit_chrome(line: &str) -> bool {
    let t = line.trim();
    let field = t.strip_prefix("Gerrit-").and_then(|r| r.split_once(": "));
    field.is_some_and(|(name, _)| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        || GERRIT_LINES.iter().any(|p| t.starts_with(p))
        || (t.contains(" has posted comments on this change") && t.ends_with(')'))
        || (t.len() >= 10 && t.chars().all(|c| c == '.'))
        || comment_count(t)
}

/// "(1 comment)", "(12 comments)".
fn comment_count(t: &str) -> bool {
    t.strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .and_then(|r| r.split_once(' '))
        .is_some_and(|(n, w)| n.parse::<u32>().is_ok() && (w == "comment" || w == "comments"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gerrit_mail_keeps_the_vote_the_files_and_the_comments() {
        let mail = "Attention is currently required from: Ana Ruiz.\n\n\
Li Wei has posted comments on this change by Ana Ruiz. ( https://r.example.org/c/p/+/12?usp=email )\n\n\
Change subject: cache: bound the table\n\
......................................................................\n\n\n\
Patch Set 2: Code-Review-1\n\n(2 comments)\n\nFile src/cache.c:\n\n\
https://r.example.org/c/p/+/12/comment/ab_3/ \nPS2, Line 40: free(t);\nUsed after this.\n\n\
-- \nTo view, visit https://r.example.org/c/p/+/12?usp=email\n\
To unsubscribe, or for help writing mail filters, visit https://r.example.org/settings?usp=email\n\n\
Gerrit-MessageType: comment\nGerrit-Change-Number: 12\nGerrit-Owner: Ana Ruiz <ana@example.org>\n";
        let kept = without_chrome(mail);
        let words: Vec<&str> = kept.lines().filter(|l| !l.trim().is_empty()).collect();
        assert_eq!(
            words,
            [
                "Patch Set 2: Code-Review-1",
                "File src/cache.c:",
                "https://r.example.org/c/p/+/12/comment/ab_3/ ",
                "PS2, Line 40: free(t);",
                "Used after this.",
            ]
        );
    }

    #[test]
    fn phabricator_s_footer_goes_and_its_inline_comments_stay() {
        let mail = "ana accepted this revision.\n\nINLINE COMMENTS\n\n> src/a.php:12\n\
> +  $x = 1;\nThis overflows.\n\nREPOSITORY\n  rPLAT Platform\n\n\
REVISION DETAIL\n  https://phab.example.org/D1\n\nBRANCH\n  fix\n\nTo: ana, li\nCc: team\n";
        assert_eq!(
            without_chrome(mail),
            "ana accepted this revision.\n\nINLINE COMMENTS\n\n> src/a.php:12\n> +  $x = 1;\n\
This overflows."
        );
    }

    #[test]
    fn text_without_chrome_is_left_alone() {
        let text = "REPOSITORY layout: fine.\nTo: be fixed later.\n(2 comments)?\n";
        assert!(matches!(without_chrome(text), Cow::Borrowed(_)));
    }
}
