//! Does a value look random? A Shannon-entropy test for values whose name alone does not say
//! "secret" (`key`, `auth`, any value in a credentials file).
//!
//! Generated credentials use most of their alphabet evenly; words, paths, identifiers and version
//! numbers do not. The thresholds follow the ones detect-secrets documents for its high-entropy
//! plugins (about 4.5 bits per character for base64, 3 for hex), lowered a little because our
//! values are short and already sit in a credential-shaped place.

/// Shannon entropy of `s` in bits per character (0 for an empty string).
pub fn shannon(s: &str) -> f64 {
    let bytes = s.as_bytes();
    if bytes.is_empty() {
        return 0.0;
    }
    let mut counts = [0u32; 256];
    for &b in bytes {
        counts[b as usize] += 1;
    }
    let n = bytes.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// Whether `value` looks like a generated credential: long enough, from a token alphabet, with
/// letters and digits, not a path or version, and spread over its alphabet.
pub fn looks_random(value: &str) -> bool {
    let v = value.trim();
    if v.len() < 16 || v.len() > 4096 {
        return false;
    }
    let token_alphabet = v
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"+/=_-.~:".contains(&b));
    let has_digit = v.bytes().any(|b| b.is_ascii_digit());
    let has_alpha = v.bytes().any(|b| b.is_ascii_alphabetic());
    if !token_alphabet {
        return printable_random(v);
    }
    if !has_digit || !has_alpha {
        return false;
    }
    // `=` inside a value (not base64's padding at its end) makes it a pair: a cookie's
    // `__Host-SID=22345`, a parameter's `name=value`.
    if v.trim_end_matches('=').contains('=') {
        return false;
    }
    // A snake_case or kebab-case name (`cli_h2_upgrade_extreme`): lowercase words, most of them
    // letters only. A token's parts are longer (`ghp_…`) or not words (a UUID's hex groups).
    let words: Vec<&str> = v.split(['_', '-']).collect();
    let lower_word = |w: &&str| {
        !w.is_empty()
            && w.len() < 12
            && w.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    };
    let alphabetic = words
        .iter()
        .filter(|w| w.bytes().all(|b| b.is_ascii_lowercase()))
        .count();
    if words.len() >= 3 && words.iter().all(lower_word) && alphabetic * 2 > words.len() {
        return false;
    }
    // Dotted or slashed words (a.b.c, some/path) and version strings are names, not keys.
    let parts = v.split(['.', '/', ':']).filter(|p| !p.is_empty()).count();
    if parts > 3 && v.split(['.', '/', ':']).all(|p| p.len() < 12) {
        return false;
    }
    let hex = v.bytes().all(|b| b.is_ascii_hexdigit());
    let bits = shannon(v);
    if hex {
        bits >= 3.0
    } else {
        bits >= 3.7
    }
}

/// A long value drawn from all printable characters (a WordPress salt, a generated password):
/// upper and lower case, digits and symbols, no spaces, and dense (about 4.5 bits or more).
fn printable_random(v: &str) -> bool {
    let has = |f: fn(&u8) -> bool| v.as_bytes().iter().any(f);
    v.len() >= 32
        && v.bytes().all(|b| b.is_ascii_graphic())
        && has(u8::is_ascii_uppercase)
        && has(u8::is_ascii_lowercase)
        && has(u8::is_ascii_digit)
        && has(u8::is_ascii_punctuation)
        && shannon(v) >= 4.5
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entropy_of_simple_strings() {
        assert_eq!(shannon(""), 0.0);
        assert_eq!(shannon("aaaa"), 0.0);
        assert!((shannon("ab") - 1.0).abs() < 1e-9);
        assert!((shannon("abcd") - 2.0).abs() < 1e-9);
    }

    #[test]
    fn random_values_and_names_are_told_apart() {
        for v in [
            "q8Vd2LkR9sXw4TzB7mNc",
            "0f3a9c1e7b5d2f4a8c6e0b1d3f5a7c9e",
            "dXNlcjpwbGFudGVkLWRvY2tlci1wYXNz",
            "/!,4+3vZRH;e]Y1vHLcT(4!P[C+YG5>MrS0(l3s<<OzE_>1h-vjw2S>v",
        ] {
            assert!(looks_random(v), "{v}: {}", shannon(v));
        }
        for v in [
            "short1",
            "localhost",
            "my_application_name",
            "com.example.app.v2.release",
            "/usr/local/bin/node",
            "1.2.3",
            "aaaaaaaaaaaaaaaaaaaa1",
            "the value with spaces 123",
            "__Secure-SID=12345",
            "cli_h2_upgrade_extreme",
            "IPCZQX01af0fca5c=000010008168c200d25dfc4b",
        ] {
            assert!(!looks_random(v), "{v}: {}", shannon(v));
        }
    }
}
