//! Hostile text stays text: the one place where what we print meets the terminal.
//!
//! File names, commit messages and model answers come from people and programs we do not trust.
//! Printed raw, an escape sequence in them can move the cursor over our verdict, hide text,
//! set the clipboard (OSC 52), plant a hyperlink (OSC 8) or retitle the window, and a bidi
//! override can make code read differently from what it is. Everything we print on standard
//! output, standard error or the controlling terminal goes through this module, which shows such
//! characters visibly instead of sending them: a C0 control becomes its Unicode control
//! picture (`ESC` → `␛`), a C1 control or a bidi formatting character becomes a `\u{…}` escape.
//! Newlines and tabs stay where a format allows them; a lone carriage return (which would
//! let later text overwrite earlier text) does not.
//!
//! JSON output keeps the data exact: serde already escapes C0 controls, and [`json`] escapes the
//! rest losslessly as `\uXXXX`. A test keeps every other module from writing to the standard
//! streams directly.

use std::borrow::Cow;
use std::io::{IsTerminal as _, Write as _};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

/// Bidirectional formatting characters that reorder what a reader sees (the "Trojan Source"
/// set): embeddings, overrides, their terminator, and the isolates.
const BIDI: &[char] = &[
    '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}',
    '\u{2069}',
];

/// Where a piece of text is going, which decides what may pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// Text of several lines: `\n`, `\t` and `\r\n` pass.
    Lines,
    /// One line: only `\t` passes; a newline is shown, so nothing can fake a line of ours.
    Line,
    /// Text of several lines that we coloured ourselves from already cleaned data: our SGR
    /// colour sequences (`ESC [ digits ; m`) pass too.
    Colour,
}

/// How one character is shown, or `None` when it passes as it is.
fn shown(c: char, next: Option<char>, keep: Keep) -> Option<Cow<'static, str>> {
    let code = c as u32;
    match c {
        '\t' => None,
        '\n' if keep != Keep::Line => None,
        '\r' if keep != Keep::Line && next == Some('\n') => None,
        _ if code < 0x20 => Some(picture(0x2400 + code)),
        '\u{7f}' => Some(picture(0x2421)),
        _ if (0x80..=0x9f).contains(&code) || BIDI.contains(&c) => {
            Some(Cow::Owned(format!("\\u{{{code:x}}}")))
        }
        _ => None,
    }
}

fn picture(code: u32) -> Cow<'static, str> {
    Cow::Owned(char::from_u32(code).unwrap_or('?').to_string())
}

/// The length of one of our own colour sequences at the start of `s` (`ESC [ 1;31 m`), if any.
fn sgr_len(s: &str) -> Option<usize> {
    let rest = s.strip_prefix("\x1b[")?;
    let n = rest.find(|c: char| !(c.is_ascii_digit() || c == ';'))?;
    rest[n..].starts_with('m').then_some(2 + n + 1)
}

fn clean_with(s: &str, keep: Keep) -> Cow<'_, str> {
    // Newlines and tabs that pass as they are do not call for the slow path: a listing of
    // 10,000 sessions (1.3 MB of plain text) was otherwise copied a character at a time.
    let needs = s.chars().any(|c| {
        let code = c as u32;
        (code < 0x20 && c != '\t' && (c != '\n' || keep == Keep::Line))
            || (0x7f..=0x9f).contains(&code)
            || ((0x202a..=0x2069).contains(&code) && BIDI.contains(&c))
    });
    if !needs {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if keep == Keep::Colour {
            if let Some(n) = sgr_len(rest) {
                out.push_str(&rest[..n]);
                rest = &rest[n..];
                continue;
            }
        }
        let after = &rest[c.len_utf8()..];
        match shown(c, after.chars().next(), keep) {
            Some(r) => out.push_str(&r),
            None => out.push(c),
        }
        rest = after;
    }
    Cow::Owned(out)
}

/// Text of several lines, safe to print: newlines and tabs stay, other controls are shown.
pub fn clean(s: &str) -> Cow<'_, str> {
    clean_with(s, Keep::Lines)
}

/// One line, safe to print: newlines are shown too (`␊`), so a title cannot fake a line.
pub fn clean_line(s: &str) -> Cow<'_, str> {
    clean_with(s, Keep::Line)
}

/// JSON text with C1 controls, DEL and bidi characters escaped as `\uXXXX`: the same data for a
/// parser, inert on a terminal. Outside strings JSON is ASCII, so every such character is inside
/// a string, where the escape is valid.
pub fn json(s: &str) -> Cow<'_, str> {
    let risky = |c: char| (0x7f..=0x9f).contains(&(c as u32)) || BIDI.contains(&c);
    if !s.chars().any(risky) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if risky(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A line that GitHub Actions reads as a workflow command starts with `::` (after blanks):
/// `::error::`, `::add-mask::`, `::stop-commands::`. In a CI log our standard streams are parsed
/// for them, so no line of text we print starts one: its two colons become `∶∶` (U+2236), which
/// reads the same and is not parsed. Only the github format writes commands, through
/// [`out_commands`].
pub fn defuse(s: &str) -> Cow<'_, str> {
    let starts = |l: &str| l.trim_start().starts_with("::");
    if !s.lines().any(starts) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for line in s.split_inclusive('\n') {
        if starts(line) {
            let blanks = line.len() - line.trim_start().len();
            out.push_str(&line[..blanks]);
            out.push_str("\u{2236}\u{2236}");
            out.push_str(&line[blanks + 2..]);
        } else {
            out.push_str(line);
        }
    }
    Cow::Owned(out)
}

/// Writes text on standard output, cleaned.
pub fn out(s: &str) -> std::io::Result<()> {
    std::io::stdout()
        .lock()
        .write_all(defuse(&clean(s)).as_bytes())
}

/// Writes the github format: workflow commands we built, their data already escaped as the
/// toolkit requires (`%`, `\r`, `\n`), so no untrusted text can start a line of its own.
pub fn out_commands(s: &str) -> std::io::Result<()> {
    std::io::stdout().lock().write_all(clean(s).as_bytes())
}

/// Writes a report we coloured on standard output: our colour passes, nothing else does.
pub fn out_coloured(s: &str) -> std::io::Result<()> {
    std::io::stdout()
        .lock()
        .write_all(defuse(&clean_with(s, Keep::Colour)).as_bytes())
}

/// Writes JSON on standard output, escaped by [`json`].
pub fn out_json(s: &str) -> std::io::Result<()> {
    std::io::stdout().lock().write_all(json(s).as_bytes())
}

/// Writes text we generated ourselves from fixed data (shell completion scripts) unchanged.
pub fn out_trusted(bytes: &[u8]) -> std::io::Result<()> {
    std::io::stdout().lock().write_all(bytes)
}

/// Writes text and a newline on standard error, cleaned; a closed standard error is ignored
/// (there is nowhere left to say so).
pub fn err(s: &str) {
    // `-q` keeps what needs action (warnings, errors) and drops what only informs.
    if quiet() && (s.starts_with("note:") || s.starts_with("hint:")) {
        return;
    }
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(defuse(&clean(s)).as_bytes());
    let _ = e.write_all(b"\n");
}

/// Redraws the one-line progress indicator on standard error: the line is cleaned, then our
/// own "return and erase the line" prefix is put in front.
pub fn progress(line: &str) {
    let mut e = std::io::stderr().lock();
    let _ = write!(e, "\r\x1b[2K{}", clean_line(line));
    let _ = e.flush();
}

/// Runs `f` while `line · Ns` (the seconds `f` has taken) ticks on stderr as the progress
/// indicator, then erases it; only on a terminal that can redraw. Used by reviews and panels.
pub fn ticking<T>(line: &str, f: impl FnOnce() -> T) -> T {
    ticking_with(&|| line.to_string(), f)
}

/// [`ticking`] with a line that can change while `f` runs (which chunk of a round is running).
pub fn ticking_with<T>(line: &(dyn Fn() -> String + Sync), f: impl FnOnce() -> T) -> T {
    if verbose() {
        // Lines of their own (a log keeps them): the call, then how long it took.
        let started = std::time::Instant::now();
        let first = line();
        err(&first);
        let out = f();
        err(&format!(
            "{} · done in {:.1}s",
            line(),
            started.elapsed().as_secs_f64()
        ));
        return out;
    }
    if !can_redraw() {
        return f();
    }
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let started = std::time::Instant::now();
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                progress(&format!("{} · {}s", line(), started.elapsed().as_secs()));
                std::thread::sleep(std::time::Duration::from_millis(500));
            }
            progress_clear();
        });
        let out = f();
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        out
    })
}

/// A question on stderr, cleaned, with no line end: the answer is typed after it.
pub fn prompt(question: &str) -> std::io::Result<()> {
    let mut e = std::io::stderr().lock();
    e.write_all(clean(question).as_bytes())?;
    e.flush()
}

/// Erases the progress indicator.
pub fn progress_clear() {
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(b"\r\x1b[2K");
    let _ = e.flush();
}

/// What the global flags asked of the output: `-q`, `-v`, `--color` (`None`: auto).
static QUIET: AtomicBool = AtomicBool::new(false);
static VERBOSE: AtomicBool = AtomicBool::new(false);
/// 0: auto, 1: always, 2: never.
static COLOR: AtomicU8 = AtomicU8::new(0);

/// Sets `-q`/`-v` and `--color` for the rest of the process (`color`: `None` is auto).
pub fn set_output(quiet: bool, verbose: bool, color: Option<bool>) {
    QUIET.store(quiet, Ordering::Relaxed);
    VERBOSE.store(verbose, Ordering::Relaxed);
    COLOR.store(
        match color {
            None => 0,
            Some(true) => 1,
            Some(false) => 2,
        },
        Ordering::Relaxed,
    );
}

/// `-q`: only warnings, errors and the report; no notes, hints or progress.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// `-v`: each model call's start and end as lines of their own, also where nothing is redrawn.
pub fn verbose() -> bool {
    VERBOSE.load(Ordering::Relaxed)
}

/// Whether output that goes to a terminal when `is_terminal` may be coloured: `--color always`
/// or `never` decide; `auto` colours a terminal unless `NO_COLOR` is set or `TERM=dumb`.
pub fn colour(is_terminal: bool) -> bool {
    match COLOR.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => {
            is_terminal
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && !dumb_terminal()
        }
    }
}

pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Whether a progress line may be drawn and redrawn on stderr: a terminal that understands
/// carriage returns and erase-line (`TERM=dumb` does not).
pub fn can_redraw() -> bool {
    !quiet() && stderr_is_terminal() && !dumb_terminal()
}

/// `TERM=dumb` (Emacs shells, some CI log viewers): no escape sequences at all.
pub fn dumb_terminal() -> bool {
    std::env::var_os("TERM").is_some_and(|t| t == "dumb")
}

pub fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

/// `println!`, cleaned; a closed standard output (`| head`) is not an error here.
#[macro_export]
macro_rules! outln {
    ($($t:tt)*) => {{
        let _ = $crate::ui::terminal::out(&format!("{}\n", format_args!($($t)*)));
    }};
}

/// `eprintln!`, cleaned.
#[macro_export]
macro_rules! errln {
    ($($t:tt)*) => {
        $crate::ui::terminal::err(&format!($($t)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an attacker would put in a file name, a commit message or an answer.
    const HOSTILE: &str =
        "a\x1b[2J\x1b]8;;http://evil\x07link\x1b]8;;\x07\x1b]52;c;cm0gLXJmIH4=\x07\
                           \u{9b}31m\u{202e}txt.exe\u{2066}\rover\x00\x7f";

    #[test]
    fn no_printed_line_starts_a_workflow_command() {
        let s = "title\n::error::pwned\n  ::add-mask::x\nkeep :: here\n::";
        assert_eq!(
            defuse(s),
            "title\n\u{2236}\u{2236}error::pwned\n  \u{2236}\u{2236}add-mask::x\nkeep :: here\n\u{2236}\u{2236}"
        );
        assert!(matches!(defuse("a :: b\nc"), Cow::Borrowed(_)));
    }

    #[test]
    fn every_control_is_shown_not_sent() {
        let c = clean(HOSTILE);
        for bad in [
            '\x1b', '\x07', '\u{9b}', '\u{202e}', '\u{2066}', '\r', '\0', '\x7f',
        ] {
            assert!(!c.contains(bad), "{bad:?} in {c:?}");
        }
        assert!(c.starts_with("a␛[2J␛]8;;http://evil␇link"), "{c}");
        assert!(
            c.contains("\\u{9b}31m\\u{202e}txt.exe\\u{2066}␍over␀␡"),
            "{c}"
        );
    }

    #[test]
    fn newlines_and_tabs_pass_where_the_format_allows_them() {
        assert_eq!(
            clean("plain\ttext\nline two\r\n"),
            "plain\ttext\nline two\r\n"
        );
        assert_eq!(clean("x\ry"), "x␍y");
        assert_eq!(clean_line("title\n::error::x\tz"), "title␊::error::x\tz");
        assert_eq!(clean_line("a\r\nb"), "a␍␊b");
        assert!(matches!(clean_line("naïve 日本 ✓"), Cow::Borrowed(_)));
    }

    #[test]
    fn only_our_own_colour_passes_in_coloured_text() {
        let ours = "\x1b[1;31mP1\x1b[0m title";
        assert_eq!(clean_with(ours, Keep::Colour), ours);
        // Anything that is not exactly a colour sequence is still shown.
        assert_eq!(
            clean_with("\x1b]52;c;eA==\x07 \x1b[2J \x1b[", Keep::Colour),
            "␛]52;c;eA==␇ ␛[2J ␛["
        );
    }

    #[test]
    fn json_stays_the_same_data() {
        let v = serde_json::json!({"title": HOSTILE});
        let text = serde_json::to_string(&v).unwrap();
        let safe = json(&text);
        for bad in ['\x1b', '\u{9b}', '\u{202e}', '\x7f'] {
            assert!(!safe.contains(bad), "{bad:?} in {safe}");
        }
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, v);
    }

    /// Every write to the standard streams goes through this module, so none can skip the
    /// cleaning. Tests and the fake agent (not our output to the user) are exempt.
    #[test]
    fn nothing_else_writes_to_the_standard_streams() {
        let banned = [
            "println!(",
            "eprintln!(",
            "print!(",
            "eprint!(",
            "io::stdout()",
            "io::stderr()",
        ];
        let mut offenders = Vec::new();
        let mut dirs = vec![std::path::PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src"
        ))];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                if path.is_dir() {
                    if name != "bin" {
                        dirs.push(path);
                    }
                    continue;
                }
                if !name.ends_with(".rs") || name == "terminal.rs" || name.ends_with("tests.rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                // Unit tests at the end of a file may print what they like.
                let code = text.split("#[cfg(test)]").next().unwrap_or("");
                for (n, line) in code.lines().enumerate() {
                    if line.trim_start().starts_with("//") {
                        continue;
                    }
                    if banned.iter().any(|b| line.contains(b)) {
                        offenders.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                    }
                }
            }
        }
        assert!(
            offenders.is_empty(),
            "write through crate::terminal (outln!, errln!, terminal::out) instead:\n{}",
            offenders.join("\n")
        );
    }
}
