//! OpenAI-compatible HTTP backend (being written; see helper branch).

use super::{Answer, Backend, BackendError, ErrorKind, Failure, Family, Request};

pub struct OpenAiBackend {
    name: String,
    model: String,
    family: Family,
}

pub fn default_base_url() -> &'static str {
    "https://api.openai.com/v1"
}

impl OpenAiBackend {
    pub fn new(model: String, _base: String, _key: Option<String>, family: Family) -> Self {
        OpenAiBackend {
            name: format!("openai:{model}"),
            model,
            family,
        }
    }
}

impl Backend for OpenAiBackend {
    fn name(&self) -> &str {
        &self.name
    }
    fn family(&self) -> &Family {
        &self.family
    }
    fn model(&self) -> Option<&str> {
        Some(&self.model)
    }
    fn describe(&self) -> String {
        String::new()
    }
    fn ask(&self, _req: &Request) -> Result<Answer, BackendError> {
        Err(BackendError::new(
            &self.name,
            Failure::new(ErrorKind::NotInstalled, "not yet"),
            &|_| String::new(),
        ))
    }
}
