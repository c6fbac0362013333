//! TEMP stub until the real module lands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Redacted {
    pub text: String,
    pub count: usize,
    pub kinds: std::collections::BTreeMap<&'static str, usize>,
}
pub fn redact(text: &str, _path: Option<&str>) -> Redacted {
    Redacted {
        text: text.to_string(),
        ..Default::default()
    }
}
impl Redacted {
    pub fn absorb(&mut self, o: &Redacted) {
        self.count += o.count;
        for (k, v) in &o.kinds {
            *self.kinds.entry(k).or_default() += v;
        }
    }
}
