//! The lineup the chair proposed, put to the person at the terminal: accepted with `--yes`, or
//! confirmed, after editing it if they like (edit a debater, add one, remove one); never a silent
//! default. It talks to the terminal device, since standard input may carry something else.

use anyhow::Result;

use crate::debate::panel::lineup::{self, Debater, Edit};
use crate::ui::ask::Tty;

/// `--yes`, or the person's answers at the lineup prompt.
pub fn lineup(debaters: &mut Vec<Debater>, yes: bool, topic: &str) -> Result<()> {
    if yes {
        crate::errln!("git debate: the lineup:\n{}", lineup::show(debaters));
        return Ok(());
    }
    let mut tty = Tty::open(
        "the chair proposed the lineup and there is no terminal to confirm it on: pass --yes to \
         accept it, or give every debater a persona and position in a --panel file",
    )?;
    let mut shown = format!("The chair proposes this lineup for {topic:?}:\n");
    loop {
        shown.push_str(&lineup::show(debaters));
        let answer = ask(
            &mut tty,
            &format!("{shown}Accept, edit N, add, remove N, or quit? [accept] "),
        )?;
        shown = String::new();
        let edit = match lineup::parse_edit(&answer) {
            Ok(e) => e,
            Err(why) => {
                tty.say(&why)?;
                continue;
            }
        };
        let result = match edit {
            Edit::Accept => return Ok(()),
            Edit::Decline => crate::usage!("lineup declined; give personas and positions with --debater NAME=BACKEND:persona or a --panel file"),
            Edit::Remove(n) => lineup::remove(debaters, n),
            Edit::Change(n) if n == 0 || n > debaters.len() => {
                Err(format!("there is no debater {n}"))
            }
            Edit::Change(n) => edit_one(&mut tty, debaters, Some(n - 1))?,
            Edit::Add => edit_one(&mut tty, debaters, None)?,
        };
        if let Err(why) = result {
            tty.say(&why)?;
        }
    }
}

/// One answer; the end of input is a usage error (the lineup cannot be confirmed).
fn ask(tty: &mut Tty, question: &str) -> Result<String> {
    match tty.ask(question)? {
        Some(answer) => Ok(answer),
        None => {
            crate::usage!("no answer at the lineup prompt; pass --yes to accept the chair's lineup")
        }
    }
}

/// Asks for every field of debater `at` (or of a new one), an empty answer keeping the value
/// shown; the inner error says why the result cannot join the lineup.
fn edit_one(
    tty: &mut Tty,
    debaters: &mut Vec<Debater>,
    at: Option<usize>,
) -> Result<Result<(), String>> {
    let base = at.map(|i| debaters[i].clone()).unwrap_or_else(|| Debater {
        name: String::new(),
        backend: debaters
            .last()
            .map(|d| d.backend.clone())
            .unwrap_or_default(),
        persona: String::new(),
        position: String::new(),
        incentives: String::new(),
    });
    let mut field = |label: &str, now: &str| -> Result<String> {
        let a = ask(tty, &format!("  {label} [{now}]: "))?;
        Ok(if a.is_empty() { now.to_string() } else { a })
    };
    let d = Debater {
        name: field("name", &base.name)?,
        backend: field("backend", &base.backend)?,
        persona: field("persona", &base.persona)?,
        position: field("starting position", &base.position)?,
        incentives: field("incentives", &base.incentives)?,
    };
    Ok(lineup::check_new(debaters, &d, at).map(|()| match at {
        Some(i) => debaters[i] = d,
        None => debaters.push(d),
    }))
}
