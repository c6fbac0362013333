//! How similar two files are, measured the way git measures it for rename detection.
//!
//! libgit2's similarity (its own "hashsig") scores files differently from git, so a rename near
//! the 50 % threshold was a rename for one and an add plus a delete for the other, and among
//! several candidates the two picked different sources. git's measure (diffcore-delta) is simple:
//! cut each file into spans that end at a newline or after 64 bytes, hash each span, and count how
//! many bytes of the destination's spans also occur in the source. This module computes exactly
//! that score so our pairs are git's pairs.

/// git's scale for scores: 100 % is 60,000.
pub const MAX_SCORE: u64 = 60_000;
/// The modulus of git's span hash (a prime; it keeps the table small).
const HASH_BASE: u32 = 107_927;
/// A span ends at a newline or after this many bytes.
const MAX_SPAN: u32 = 64;
/// git calls a buffer binary when a NUL byte is among its first this many bytes.
const BINARY_PROBE: usize = 8000;

/// A file's spans: (hash, bytes in spans with that hash), sorted by hash, one entry per hash.
#[derive(Debug, Clone, Default)]
pub struct Signature {
    spans: Vec<(u32, u32)>,
}

impl Signature {
    /// Hashes `content` into spans. In a text file a carriage return before a newline is not
    /// counted, so a CRLF conversion leaves a file similar to itself, as in git.
    pub fn of(content: &[u8]) -> Signature {
        let text = !is_binary(content);
        let mut spans: Vec<(u32, u32)> = Vec::with_capacity(content.len() / 24 + 1);
        let (mut a1, mut a2, mut n) = (0u32, 0u32, 0u32);
        for (i, &c) in content.iter().enumerate() {
            if text && c == b'\r' && content.get(i + 1) == Some(&b'\n') {
                continue;
            }
            let old = a1;
            a1 = (a1 << 7) ^ (a2 >> 25);
            a2 = (a2 << 7) ^ (old >> 25);
            a1 = a1.wrapping_add(u32::from(c));
            n += 1;
            if n < MAX_SPAN && c != b'\n' {
                continue;
            }
            spans.push((span_hash(a1, a2), n));
            (a1, a2, n) = (0, 0, 0);
        }
        if n > 0 {
            spans.push((span_hash(a1, a2), n));
        }
        spans.sort_unstable_by_key(|s| s.0);
        // One entry per hash, its byte counts added up.
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(spans.len());
        for (h, n) in spans {
            match merged.last_mut() {
                Some(last) if last.0 == h => last.1 += n,
                _ => merged.push((h, n)),
            }
        }
        Signature { spans: merged }
    }

    /// Bytes of `dst`'s spans that `self` (the source) has too: for each hash, the smaller count.
    pub fn copied_into(&self, dst: &Signature) -> u64 {
        let (mut i, mut j, mut copied) = (0, 0, 0u64);
        let (s, d) = (&self.spans, &dst.spans);
        while i < s.len() && j < d.len() {
            match s[i].0.cmp(&d[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    copied += u64::from(s[i].1.min(d[j].1));
                    i += 1;
                    j += 1;
                }
            }
        }
        copied
    }
}

fn span_hash(a1: u32, a2: u32) -> u32 {
    a1.wrapping_add(a2.wrapping_mul(0x61)) % HASH_BASE
}

/// git's test for binary content: a NUL byte early on.
pub fn is_binary(content: &[u8]) -> bool {
    content[..content.len().min(BINARY_PROBE)].contains(&0)
}

/// Whether two sizes are too far apart for a score of `minimum` to be possible: git does not
/// even read such files.
pub fn sizes_rule_out(src: u64, dst: u64, minimum: u64) -> bool {
    let (max, min) = (src.max(dst), src.min(dst));
    max * (MAX_SCORE - minimum) < (max - min) * MAX_SCORE
}

/// git's score: the bytes of the destination found in the source, over the larger size.
pub fn score(src: &Signature, src_size: u64, dst: &Signature, dst_size: u64) -> u64 {
    let max = src_size.max(dst_size);
    if dst_size == 0 || max == 0 {
        return 0;
    }
    src.copied_into(dst) * MAX_SCORE / max
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sim(a: &str, b: &str) -> u64 {
        let (sa, sb) = (Signature::of(a.as_bytes()), Signature::of(b.as_bytes()));
        score(&sa, a.len() as u64, &sb, b.len() as u64) * 100 / MAX_SCORE
    }

    #[test]
    fn identical_text_is_fully_similar_and_a_crlf_copy_nearly() {
        let text = "one\ntwo\nthree\nfour\n";
        assert_eq!(sim(text, text), 100);
        // The CRs are not counted as copied, but they make the file bigger.
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(
            sim(text, &crlf),
            100 * text.len() as u64 / crlf.len() as u64
        );
    }

    #[test]
    fn shared_lines_count_by_their_bytes() {
        // Two of four equal-length lines kept: half the bytes.
        assert_eq!(sim("aaa\nbbb\nccc\nddd\n", "aaa\nbbb\nxxx\nyyy\n"), 50);
        assert_eq!(sim("aaa\n", ""), 0);
        assert!(sizes_rule_out(100, 250, MAX_SCORE / 2));
        assert!(!sizes_rule_out(100, 180, MAX_SCORE / 2));
    }

    #[test]
    fn long_lines_are_cut_into_64_byte_spans() {
        let long = "x".repeat(200);
        let sig = Signature::of(long.as_bytes());
        // 64 + 64 + 64 + 8: three equal spans and one short one.
        assert_eq!(sig.spans.len(), 2);
        assert_eq!(sig.spans.iter().map(|s| s.1).sum::<u32>(), 200);
    }
}
