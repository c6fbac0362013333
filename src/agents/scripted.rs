//! In-process models for unit tests of the loops that call models (reviews, duels): [`Slow`]
//! takes a set time per answer and, like a CLI under our wall-clock limit, fails with a timeout
//! when the request allows less; [`ByPrompt`] answers by what the prompt asks (a review, a repair,
//! a judgement, a compromise) and keeps every prompt. Only the model is scripted; everything
//! around it is the real code.

use std::sync::Mutex;
use std::time::Duration;

use crate::agents::{Answer, Backend, BackendError, ErrorKind, Failure, Family, Request};

pub struct Slow {
    name: &'static str,
    family: Family,
    delay: Duration,
    /// The answers still to give, last first; the final one repeats.
    answers: Mutex<Vec<&'static str>>,
}

impl Slow {
    pub fn new(
        name: &'static str,
        family: Family,
        delay_ms: u64,
        answers: &[&'static str],
    ) -> Box<Slow> {
        Box::new(Slow {
            name,
            family,
            delay: Duration::from_millis(delay_ms),
            answers: Mutex::new(answers.iter().rev().copied().collect()),
        })
    }
}

impl Backend for Slow {
    fn name(&self) -> &str {
        self.name
    }
    fn family(&self) -> &Family {
        &self.family
    }
    fn model(&self) -> Option<&str> {
        None
    }
    fn describe(&self) -> String {
        String::new()
    }
    fn ask(&self, req: &Request) -> Result<Answer, BackendError> {
        std::thread::sleep(self.delay.min(req.timeout));
        if req.timeout < self.delay {
            return Err(BackendError::new(
                self.name,
                Failure::new(ErrorKind::Timeout, "no answer within the wall-clock limit"),
                &|_| String::new(),
            ));
        }
        let mut a = self.answers.lock().unwrap();
        let text = if a.len() > 1 {
            a.pop()
        } else {
            a.last().copied()
        };
        Ok(Answer::plain(self.name, text.unwrap_or("").to_string()))
    }
}

/// A model that answers by what the prompt asks: the first rule whose text the prompt contains
/// gives the next of its answers (the last repeats). Every prompt it gets is kept in the log the
/// constructor returns, so a test can read what each side was told.
pub struct ByPrompt {
    name: &'static str,
    family: Family,
    rules: Mutex<Vec<(&'static str, Vec<String>)>>,
    log: std::sync::Arc<Mutex<Vec<String>>>,
}

/// The prompts a [`ByPrompt`] model got, in order.
pub type PromptLog = std::sync::Arc<Mutex<Vec<String>>>;

impl ByPrompt {
    /// `rules`: (text the prompt contains, answers in turn); a prompt no rule matches is
    /// answered with an empty text.
    pub fn new(
        name: &'static str,
        family: Family,
        rules: &[(&'static str, &[&str])],
    ) -> (Box<ByPrompt>, PromptLog) {
        let log = PromptLog::default();
        let rules = rules
            .iter()
            .map(|(k, a)| (*k, a.iter().rev().map(|s| s.to_string()).collect()))
            .collect();
        (
            Box::new(ByPrompt {
                name,
                family,
                rules: Mutex::new(rules),
                log: log.clone(),
            }),
            log,
        )
    }
}

impl Backend for ByPrompt {
    fn name(&self) -> &str {
        self.name
    }
    fn family(&self) -> &Family {
        &self.family
    }
    fn model(&self) -> Option<&str> {
        None
    }
    fn describe(&self) -> String {
        String::new()
    }
    fn ask(&self, req: &Request) -> Result<Answer, BackendError> {
        self.log.lock().unwrap().push(req.prompt.to_string());
        let mut rules = self.rules.lock().unwrap();
        let text = rules
            .iter_mut()
            .find(|(k, _)| req.prompt.contains(k))
            .and_then(|(_, a)| {
                if a.len() > 1 {
                    a.pop()
                } else {
                    a.last().cloned()
                }
            })
            .unwrap_or_default();
        Ok(Answer::plain(self.name, text))
    }
}
