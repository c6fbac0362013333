//! An in-process model for unit tests of the loops that call models (reviews, duels): it takes a
//! set time per answer and, like a CLI under our wall-clock limit, fails with a timeout when the
//! request allows less. Only the model is scripted; everything around it is the real code.

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
