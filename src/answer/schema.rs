//! The protocols' JSON Schemas (`references/schemas/`), given to the CLIs that can enforce them,
//! and a validator for the part of JSON Schema they use.
//!
//! The validator exists to tell an answer that *is* the protocol's object from one that only
//! resembles it (an echo of the template, a JSON block the reviewer suggested as a fix). It knows
//! `type` (one or several), `enum`, `required`, `properties`, `additionalProperties: false` and
//! `items` — the keywords OpenAI's strict structured outputs accept, which is why the schemas
//! use nothing else; a test keeps it that way.

use std::sync::OnceLock;

use serde_json::Value;

/// Which protocol an answer belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Cr,
    PeerReview,
    Judge,
}

impl Protocol {
    pub const ALL: [Protocol; 3] = [Protocol::Cr, Protocol::PeerReview, Protocol::Judge];

    /// The schema's name, as a CLI or an OpenAI `json_schema` wants one.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Cr => "git_debate_cr",
            Protocol::PeerReview => "git_debate_peer_review",
            Protocol::Judge => "git_debate_judge",
        }
    }

    pub fn file_name(self) -> &'static str {
        match self {
            Protocol::Cr => "cr.json",
            Protocol::PeerReview => "peer-review.json",
            Protocol::Judge => "judge.json",
        }
    }

    /// The schema text, as shipped.
    pub fn schema_text(self) -> &'static str {
        match self {
            Protocol::Cr => include_str!("../../references/schemas/cr.json"),
            Protocol::PeerReview => include_str!("../../references/schemas/peer-review.json"),
            Protocol::Judge => include_str!("../../references/schemas/judge.json"),
        }
    }

    pub fn schema(self) -> &'static Value {
        static CELLS: [OnceLock<Value>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let i = Protocol::ALL
            .iter()
            .position(|p| *p == self)
            .expect("listed");
        CELLS[i].get_or_init(|| {
            serde_json::from_str(self.schema_text()).expect("the shipped schema is valid JSON")
        })
    }

    /// The schema without `$schema` and `title`: what a CLI or server is handed (some reject
    /// keys they do not know at the top level).
    pub fn schema_for_cli(self) -> Value {
        let mut v = self.schema().clone();
        if let Some(o) = v.as_object_mut() {
            o.remove("$schema");
            o.remove("title");
        }
        v
    }
}

/// Checks `value` against `schema`; the error names the first place that does not conform.
pub fn validate(value: &Value, schema: &Value) -> Result<(), String> {
    check(value, schema, "$")
}

fn type_ok(value: &Value, t: &str) -> bool {
    match t {
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "null" => value.is_null(),
        _ => false,
    }
}

fn check(value: &Value, schema: &Value, at: &str) -> Result<(), String> {
    if let Some(t) = schema.get("type") {
        let ok = match t {
            Value::String(t) => type_ok(value, t),
            Value::Array(ts) => ts
                .iter()
                .filter_map(Value::as_str)
                .any(|t| type_ok(value, t)),
            _ => true,
        };
        if !ok {
            return Err(format!("{at}: expected type {t}"));
        }
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        if !options.contains(value) {
            // The model's value is untrusted and may be long: a short quote of it.
            let shown: String = value.to_string().chars().take(60).collect();
            return Err(format!(
                "{at}: {shown} is not one of {}",
                Value::from(options.clone())
            ));
        }
    }
    if let Some(obj) = value.as_object() {
        let props = schema.get("properties").and_then(Value::as_object);
        for key in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
        {
            if !obj.contains_key(key) {
                return Err(format!("{at}: missing {key}"));
            }
        }
        for (k, v) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(s) => check(v, s, &format!("{at}.{k}"))?,
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    return Err(format!("{at}: unexpected {k}"));
                }
                None => {}
            }
        }
    }
    if let (Some(items), Some(arr)) = (schema.get("items"), value.as_array()) {
        for (i, v) in arr.iter().enumerate() {
            check(v, items, &format!("{at}[{i}]"))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Keywords OpenAI strict mode, claude and qwen all accept; the validator knows each.
    const KNOWN: &[&str] = &[
        "$schema",
        "title",
        "description",
        "type",
        "enum",
        "required",
        "properties",
        "additionalProperties",
        "items",
    ];

    fn keywords(v: &Value, out: &mut Vec<String>, in_properties: bool) {
        if let Some(o) = v.as_object() {
            for (k, x) in o {
                if !in_properties {
                    out.push(k.clone());
                }
                keywords(x, out, k == "properties" && !in_properties);
            }
        }
    }

    #[test]
    fn schemas_use_only_what_strict_mode_and_the_validator_know() {
        for p in Protocol::ALL {
            let mut ks = Vec::new();
            keywords(p.schema(), &mut ks, false);
            for k in ks {
                assert!(KNOWN.contains(&k.as_str()), "{p:?} uses {k}");
            }
            // Strict mode: every object lists all its properties as required and allows no others.
            fn strict(v: &Value, p: Protocol) {
                if let Some(props) = v.get("properties").and_then(Value::as_object) {
                    let req: Vec<&str> = v["required"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter_map(Value::as_str)
                        .collect();
                    for k in props.keys() {
                        assert!(req.contains(&k.as_str()), "{p:?}: {k} not required");
                    }
                    assert_eq!(v["additionalProperties"], json!(false), "{p:?}");
                    for s in props.values() {
                        strict(s, p);
                    }
                }
                if let Some(items) = v.get("items") {
                    strict(items, p);
                }
            }
            strict(p.schema(), p);
        }
    }

    #[test]
    fn validation() {
        let ok = json!({"verdict": "revise", "summary": "s", "findings": [
            {"severity": "P1", "title": "t", "file": "a.rs", "start_line": 3, "end_line": null,
             "body": "b", "action": "a"}]});
        assert_eq!(validate(&ok, Protocol::Cr.schema()), Ok(()));
        let mut bad = ok.clone();
        bad["findings"][0]["severity"] = json!("P0|P1|P2|P3");
        assert!(validate(&bad, Protocol::Cr.schema())
            .unwrap_err()
            .contains("findings[0].severity"));
        let mut missing = ok;
        missing.as_object_mut().unwrap().remove("summary");
        assert!(validate(&missing, Protocol::Cr.schema()).is_err());
    }
}
