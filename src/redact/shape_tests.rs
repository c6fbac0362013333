//! A redaction never changes a diff's shape: a hunk keeps its number of lines and every line its
//! diff marker (`+`, `-`, ` `), whatever the rules find in it. A rule that read past a line's end
//! once took the next line's `+` for the first character of a password.

use super::*;

/// `\n`, `\t`, `\\` decoded, as the fixtures write them.
fn unescape(s: &str) -> String {
    s.replace("\\n", "\n")
        .replace("\\t", "\t")
        .replace("\\\\", "\\")
}

/// `(path, text)` of every row of the planted corpora and the look-alikes.
fn rows() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for tsv in [
        include_str!("../../tests/fixtures/secrets/corpus.tsv"),
        include_str!("../../tests/fixtures/secrets/blind.tsv"),
        include_str!("../../tests/fixtures/secrets/wave3.tsv"),
        include_str!("../../tests/fixtures/secrets/wave3-clean.tsv"),
    ] {
        for l in tsv
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let c: Vec<&str> = l.split('\t').collect();
            let (path, text) = match c.len() {
                5 => {
                    let s = c[3].replace("%%", "");
                    (
                        c[1].replace("{S}", &s),
                        c[4].replace("%%", "").replace("{S}", &s),
                    )
                }
                _ => (c[0].to_string(), c[2].to_string()),
            };
            out.push((path, unescape(&text)));
        }
    }
    out
}

/// `text` as a hunk: each line behind a diff marker, `+`, ` ` and `-` in turn.
fn as_hunk(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| format!("{}{l}", ['+', ' ', '-'][i % 3]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The shape of a hunk: its lines' first characters.
fn shape(hunk: &str) -> Vec<Option<char>> {
    hunk.split('\n').map(|l| l.chars().next()).collect()
}

fn assert_same_shape(path: Option<&str>, hunk: &str) {
    let r = redact(hunk, path);
    assert_eq!(
        shape(&r.text),
        shape(hunk),
        "{path:?}: the redaction changed the hunk's lines:\n{hunk}\n->\n{}",
        r.text
    );
}

#[test]
fn every_corpus_row_as_a_hunk_keeps_its_lines_and_markers() {
    let rows = rows();
    assert!(rows.len() > 450, "{}", rows.len());
    for (path, text) in &rows {
        assert_same_shape(Some(path), &as_hunk(text));
        assert_same_shape(None, &as_hunk(text));
    }
}

#[test]
fn no_rule_reads_past_a_line_end() {
    for (path, hunk) in [
        // Prose that ends a line with the word before a value, the value on the next line.
        (
            Some("docs/curl.1.md"),
            "+The password is\n+hunter2secret for now",
        ),
        (
            Some("docs/curl.1.md"),
            "+Set the password for the proxy. The password was\n+-x used",
        ),
        (None, "+password:\n+s3cr3t!x"),
        (None, "+passphrase\n+~4!YH~zkZ33"),
        (None, " Bearer\n+abcdefghijklmnop1234"),
        (None, "+Basic\n+dXNlcjpwYXNz1234"),
        (
            Some("a.sh"),
            "+docker login -u ci -p\n+secret99x registry.io",
        ),
        (Some("a.sh"), "+mysqldump -u root -p\n+pw123456 db"),
        (Some(".netrc"), "+machine h\n+login u\n+password\n+s3cr3tpw"),
        (Some("app.yaml"), "+password:\n+  - s3cr3t!x"),
        // A key split over lines continues only behind a quote or a backslash.
        (
            Some("a.py"),
            "+TOKEN = 'ghp_ZYWGp4g0xBZbU5x'\n+next_line_value_1234",
        ),
    ] {
        assert_same_shape(path, hunk);
        let r = redact(hunk, path);
        for line in hunk.lines().skip(1) {
            let body = &line[1..];
            // The next line's own words are never taken for the value of the line before.
            if !body.trim().is_empty() && !r.text.contains(body) {
                assert!(
                    r.text.contains(&format!("{}[REDACTED:", &line[..1])),
                    "{hunk} -> {}",
                    r.text
                );
            }
        }
    }
}

#[test]
fn a_private_key_across_diff_lines_keeps_each_line() {
    let hunk = "+key: |\n+  -----BEGIN RSA PRIVATE KEY-----\n+  MIIEowIBAAKCAQEA1x2y3z4\n-  MIIEold0ldOLD0ld0ldOLD\n+  -----END RSA PRIVATE KEY-----\n context";
    let r = redact(hunk, Some("deploy/values.yaml"));
    assert_eq!(shape(&r.text), shape(hunk), "{}", r.text);
    assert_eq!(r.kinds.get("private-key"), Some(&1), "{:?}", r.kinds);
    assert!(!r.text.contains("MIIE"), "{}", r.text);
    assert!(r.text.ends_with("\n context"), "{}", r.text);
    assert_eq!(
        r.text
            .lines()
            .filter(|l| l.contains("[REDACTED:private-key]"))
            .count(),
        4,
        "{}",
        r.text
    );
}
