//! The lineup: who debates, as what persona, on which backend — and the small language a person
//! uses to ask for one ("3 debaters", "a panel of 4", "a venture capitalist, a labour economist
//! and an SRE") and to change it at the confirmation prompt (accept, edit, add, remove).
//!
//! Everything here is pure: the chair's proposal and the terminal live in [`super::propose`] and
//! [`super::confirm`], so the rules (names are slugs, at least two debaters, families spread
//! across the panel) are tested without a model or a terminal.

use anyhow::Result;

pub use crate::store::debate::Debater;

/// `NAME=BACKEND[:persona]`; `openai:<model>` and `exec:<command>` keep their own colons (give an
/// exec debater its persona in a `--panel` file).
pub fn parse_debater(spec: &str) -> Result<Debater> {
    let bad = |why: &str| -> anyhow::Error {
        crate::error::UsageError::new(format!(
            "bad --debater {spec:?}: {why}; expected NAME=BACKEND[:persona], e.g. skeptic=codex:a cautious SRE"
        ))
        .into()
    };
    let (name, rest) = spec.split_once('=').ok_or_else(|| bad("no ="))?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(bad("the name must be letters, digits and hyphens"));
    }
    let (backend, persona) = if rest.starts_with("exec:") {
        (rest.to_string(), String::new())
    } else if let Some(model_rest) = rest.strip_prefix("openai:") {
        match model_rest.split_once(':') {
            Some((m, p)) => (format!("openai:{m}"), p.to_string()),
            None => (rest.to_string(), String::new()),
        }
    } else {
        match rest.split_once(':') {
            Some((b, p)) => (b.to_string(), p.to_string()),
            None => (rest.to_string(), String::new()),
        }
    };
    if backend.trim().is_empty() {
        return Err(bad("no backend"));
    }
    Ok(Debater {
        name: name.to_string(),
        backend: backend.trim().to_string(),
        persona: persona.trim().to_string(),
        position: String::new(),
        incentives: String::new(),
    })
}

/// The default panel size when only a topic is given (the issue asks for three personas).
pub const DEFAULT_SIZE: usize = 3;
/// More voices than this do not fit one chaired round in a prompt.
pub const MAX_SIZE: usize = 8;

/// What a `--panel` phrase asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Request {
    /// A number of debaters, personas left to the chair.
    Count(usize),
    /// Named personas, one debater each.
    Personas(Vec<String>),
}

/// Number words a head count may use.
const NUMBERS: &[(&str, usize)] = &[
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("pair", 2),
];

/// Reads "3 debaters", "a panel of four", "two voices", or a list of personas ("a venture
/// capitalist, a labour economist and an SRE"); empty means the default size.
pub fn parse_request(text: &str) -> Result<Request, String> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("default") {
        return Ok(Request::Count(DEFAULT_SIZE));
    }
    let lower = t.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let count = words.iter().find_map(|w| {
        w.parse::<usize>()
            .ok()
            .or_else(|| NUMBERS.iter().find(|(n, _)| n == w).map(|(_, v)| *v))
    });
    let listy = t.contains(',') || lower.contains(" and ");
    let n = match count {
        Some(n) if !listy || words.len() <= 4 => n,
        _ if listy => {
            let personas: Vec<String> = t
                .split(',')
                .flat_map(|p| p.split(" and "))
                .map(|p| p.trim().trim_start_matches("and ").trim().to_string())
                .filter(|p| !p.is_empty())
                .collect();
            if personas.len() < 2 {
                return Err(format!("{t:?} names fewer than 2 personas"));
            }
            if personas.len() > MAX_SIZE {
                return Err(format!("{t:?} names more than {MAX_SIZE} personas"));
            }
            return Ok(Request::Personas(personas));
        }
        _ => {
            return Err(format!(
            "{t:?} is neither a lineup file, a head count (\"3 debaters\") nor a list of personas"
        ))
        }
    };
    if !(2..=MAX_SIZE).contains(&n) {
        return Err(format!("a panel has 2 to {MAX_SIZE} debaters, not {n}"));
    }
    Ok(Request::Count(n))
}

/// Whether `name` may be a speaker: letters, digits and hyphens.
pub fn valid_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// A slug from free text ("A Labour Economist" -> "labour-economist"), at most 30 characters.
pub fn slug(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let trimmed = lower
        .trim()
        .trim_start_matches("a ")
        .trim_start_matches("an ")
        .trim_start_matches("the ");
    let mut s = String::new();
    for c in trimmed.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s: String = s.chars().take(30).collect();
    s.trim_end_matches('-').to_string()
}

/// The backends of `n` debaters spread across families: each installed family once before any
/// repeats, those other than the chair's first. `installed` is `(backend, family)` in the order
/// a reviewer is picked.
pub fn spread(n: usize, installed: &[(String, String)], chair_family: &str) -> Vec<String> {
    let mut order: Vec<&(String, String)> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for pass in [false, true] {
        for b in installed {
            if (b.1 == chair_family) == pass && !seen.contains(&b.1.as_str()) {
                seen.push(&b.1);
                order.push(b);
            }
        }
    }
    if order.is_empty() {
        return Vec::new();
    }
    (0..n).map(|i| order[i % order.len()].0.clone()).collect()
}

/// One change typed at the confirmation prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Edit {
    Accept,
    Decline,
    /// Change the n-th debater (1-based): `edit N`.
    Change(usize),
    Add,
    /// Remove the n-th debater (1-based).
    Remove(usize),
}

/// Reads one answer to "accept / edit N / add / remove N / quit".
pub fn parse_edit(line: &str) -> Result<Edit, String> {
    let mut parts = line.split_whitespace();
    let word = parts.next().unwrap_or("").to_ascii_lowercase();
    let num = parts.next().and_then(|n| n.parse::<usize>().ok());
    match (word.as_str(), num) {
        ("" | "a" | "accept" | "y" | "yes", _) => Ok(Edit::Accept),
        ("q" | "quit" | "n" | "no", _) => Ok(Edit::Decline),
        ("add" | "+", _) => Ok(Edit::Add),
        ("e" | "edit", Some(n)) => Ok(Edit::Change(n)),
        ("r" | "remove" | "rm" | "-", Some(n)) => Ok(Edit::Remove(n)),
        _ => Err(format!(
            "{:?}: answer accept, edit N, add, remove N or quit",
            line.trim()
        )),
    }
}

/// Removes the n-th debater (1-based), keeping at least two.
pub fn remove(lineup: &mut Vec<Debater>, n: usize) -> Result<(), String> {
    if n == 0 || n > lineup.len() {
        return Err(format!("there is no debater {n}"));
    }
    if lineup.len() <= 2 {
        return Err("a panel needs at least 2 debaters".into());
    }
    lineup.remove(n - 1);
    Ok(())
}

/// Checks a debater added or edited by hand: a slug name not used by another debater.
pub fn check_new(lineup: &[Debater], d: &Debater, replacing: Option<usize>) -> Result<(), String> {
    if !valid_name(&d.name) {
        return Err(format!(
            "{:?}: a name is letters, digits and hyphens",
            d.name
        ));
    }
    if d.backend.trim().is_empty() {
        return Err("a debater needs a backend".into());
    }
    let clash = lineup
        .iter()
        .enumerate()
        .any(|(i, o)| Some(i) != replacing && o.name == d.name);
    if clash {
        return Err(format!("{} is already on the panel", d.name));
    }
    if replacing.is_none() && lineup.len() >= MAX_SIZE {
        return Err(format!("a panel has at most {MAX_SIZE} debaters"));
    }
    Ok(())
}

/// The lineup as shown for confirmation, numbered.
pub fn show(lineup: &[Debater]) -> String {
    lineup
        .iter()
        .enumerate()
        .map(|(i, d)| {
            format!(
                "  {}. {} ({}) — {}\n     Starting position: {}\n     Incentives: {}\n",
                i + 1,
                d.name,
                d.backend,
                d.persona,
                d.position,
                d.incentives
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debater_specs() {
        let d = parse_debater("skeptic=codex:a cautious SRE: hates pagers").unwrap();
        assert_eq!(
            (d.name.as_str(), d.backend.as_str(), d.persona.as_str()),
            ("skeptic", "codex", "a cautious SRE: hates pagers")
        );
        let d = parse_debater("local=openai:llama3.1:a pragmatist").unwrap();
        assert_eq!(
            (d.backend.as_str(), d.persona.as_str()),
            ("openai:llama3.1", "a pragmatist")
        );
        let d = parse_debater("tool=exec:llm -m x").unwrap();
        assert_eq!(d.backend, "exec:llm -m x");
        assert!(parse_debater("bad name=codex").is_err());
        assert!(parse_debater("nobackend").is_err());
    }

    #[test]
    fn head_counts_and_persona_lists() {
        assert_eq!(parse_request("3 debaters"), Ok(Request::Count(3)));
        assert_eq!(parse_request("a panel of four"), Ok(Request::Count(4)));
        assert_eq!(parse_request(""), Ok(Request::Count(DEFAULT_SIZE)));
        assert_eq!(
            parse_request("a venture capitalist, a labour economist and an AI safety researcher"),
            Ok(Request::Personas(vec![
                "a venture capitalist".into(),
                "a labour economist".into(),
                "an AI safety researcher".into()
            ]))
        );
        assert!(parse_request("1 debater").is_err());
        assert!(parse_request("12 debaters").is_err());
        assert!(parse_request("whatever").is_err());
    }

    #[test]
    fn slugs_and_edits() {
        assert_eq!(slug("A Labour Economist!"), "labour-economist");
        assert_eq!(parse_edit(""), Ok(Edit::Accept));
        assert_eq!(parse_edit("edit 2"), Ok(Edit::Change(2)));
        assert_eq!(parse_edit("remove 1"), Ok(Edit::Remove(1)));
        assert_eq!(parse_edit("add"), Ok(Edit::Add));
        assert!(parse_edit("edit").is_err());
        let d = |n: &str| Debater {
            name: n.into(),
            backend: "codex".into(),
            persona: String::new(),
            position: String::new(),
            incentives: String::new(),
        };
        let mut l = vec![d("a"), d("b")];
        assert!(remove(&mut l, 1).is_err(), "two is the minimum");
        assert!(check_new(&l, &d("a"), None).is_err());
        assert!(check_new(&l, &d("a"), Some(0)).is_ok());
        assert!(check_new(&l, &d("bad name"), None).is_err());
        l.push(d("c"));
        remove(&mut l, 2).unwrap();
        assert_eq!(l, vec![d("a"), d("c")]);
    }

    #[test]
    fn families_spread_other_than_the_chair_first() {
        let inst = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        let all = inst(&[
            ("codex", "openai"),
            ("claude", "anthropic"),
            ("gemini", "google"),
        ]);
        assert_eq!(spread(3, &all, "anthropic"), ["codex", "gemini", "claude"]);
        assert_eq!(
            spread(2, &inst(&[("claude", "anthropic")]), "anthropic"),
            ["claude", "claude"]
        );
        assert!(spread(3, &[], "x").is_empty());
    }
}
