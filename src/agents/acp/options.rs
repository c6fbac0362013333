//! What an agent offers in its `session/new` result (read-only mode, models, reasoning effort)
//! and what it reports back (usage, the model that answered), in the shapes the real agents use.
//!
//! ACP has two generations of session settings and the agents differ (recorded in
//! `tests/fixtures/acp/`): `configOptions` (opencode, codex-acp, claude-agent-acp, copilot, qwen)
//! set with `session/set_config_option`, by `category` (`mode`, `model`, `thought_level`); and
//! the older `modes`/`models` objects (gemini; qwen and copilot also send them) set with
//! `session/set_mode` / `session/set_model`. Usage comes in `result.usage` (opencode, copilot,
//! claude), in `result._meta.quota` (gemini, claude) or on the last message chunk's `_meta.usage`
//! (qwen); the model that answered in `_meta.quota.model_usage` (gemini, claude) or claude's
//! `usage_update` `_meta`.

use serde_json::Value;

use crate::agents::Usage;
use crate::choices::Effort;

/// One session setting to make before the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Setting {
    /// `session/set_config_option` with `configId` and `value`.
    Config { id: String, value: String },
    /// `session/set_mode` with `modeId`.
    Mode(String),
    /// `session/set_model` with `modelId`.
    Model(String),
}

/// How the wanted model can be set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelPlan {
    /// Set it; `alias` when the agent offers only a short name for it (claude's `sonnet`).
    Set { setting: Setting, alias: bool },
    /// The agent has a model list and the model is not in it.
    NotOffered(Vec<String>),
    /// The agent offers no model selection at all (kiro, copilot's ACP server).
    NoSelection,
}

fn config_options(result: &Value) -> impl Iterator<Item = &Value> {
    result
        .get("configOptions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn by_category<'a>(result: &'a Value, category: &str) -> Option<&'a Value> {
    config_options(result).find(|o| o.get("category").and_then(Value::as_str) == Some(category))
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// The values of a select option.
fn values(option: &Value) -> Vec<(String, String)> {
    option
        .get("options")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|o| {
            let v = str_of(o, "value")?;
            Some((v.to_string(), str_of(o, "name").unwrap_or(v).to_string()))
        })
        .collect()
}

/// Whether a mode id is read-only: codex-acp's `read-only`, `plan` elsewhere (copilot's is a URL
/// ending in `#plan`). Read-only modes first: a plan mode may still offer to edit afterwards.
fn read_only_rank(id: &str) -> Option<u8> {
    let id = id.to_ascii_lowercase();
    if id == "read-only" || id == "readonly" {
        Some(0)
    } else if id == "plan" || id.ends_with("#plan") {
        Some(1)
    } else {
        None
    }
}

/// Where the session stands with a read-only mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadOnly {
    /// Switch to it with this setting.
    Switch(Setting),
    /// The session is already in it (codex-acp starts in `read-only`).
    Already,
    /// The agent offers none.
    Unavailable,
}

/// The agent's read-only mode, from its `session/new` result.
pub fn read_only_mode(result: &Value) -> ReadOnly {
    if let Some(opt) = by_category(result, "mode") {
        let best = values(opt)
            .into_iter()
            .filter_map(|(v, _)| read_only_rank(&v).map(|r| (r, v)))
            .min();
        let id = str_of(opt, "id").unwrap_or("mode").to_string();
        return match best {
            Some((_, v)) if str_of(opt, "currentValue") == Some(v.as_str()) => ReadOnly::Already,
            Some((_, value)) => ReadOnly::Switch(Setting::Config { id, value }),
            None => ReadOnly::Unavailable,
        };
    }
    let Some(modes) = result.get("modes") else {
        return ReadOnly::Unavailable;
    };
    let best = modes
        .get("availableModes")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|m| str_of(m, "id"))
        .filter_map(|id| read_only_rank(id).map(|r| (r, id.to_string())))
        .min();
    match best {
        Some((_, id)) if str_of(modes, "currentModeId") == Some(id.as_str()) => ReadOnly::Already,
        Some((_, id)) => ReadOnly::Switch(Setting::Mode(id)),
        None => ReadOnly::Unavailable,
    }
}

/// qwen lists `$runtime|openai|qwen3-coder-plus(openai)`: the model is between the last `|` and
/// the `(`.
fn bare(value: &str) -> &str {
    let tail = value.rsplit('|').next().unwrap_or(value);
    tail.split_once('(').map_or(tail, |(m, _)| m)
}

/// The offered value meaning `wanted`: the same id, the same bare name, or (an alias list like
/// claude-agent-acp's `default`, `opus`, `sonnet`, `haiku`) the alias that is a word of it.
fn pick(offered: &[(String, String)], wanted: &str) -> Option<(String, bool)> {
    let w = wanted.to_ascii_lowercase();
    if let Some((v, _)) = offered.iter().find(|(v, n)| {
        v.eq_ignore_ascii_case(wanted)
            || bare(v).eq_ignore_ascii_case(wanted)
            || n.eq_ignore_ascii_case(wanted)
    }) {
        return Some((v.clone(), false));
    }
    let words: Vec<&str> = w.split(['-', '/', '.', ':', '_']).collect();
    offered
        .iter()
        .find(|(v, _)| {
            let v = v.to_ascii_lowercase();
            !["default", "auto"].contains(&v.as_str()) && words.contains(&v.as_str())
        })
        .map(|(v, _)| (v.clone(), true))
}

/// How to set `wanted`.
pub fn model_plan(result: &Value, wanted: &str) -> ModelPlan {
    if let Some(opt) = by_category(result, "model") {
        let offered = values(opt);
        let id = str_of(opt, "id").unwrap_or("model").to_string();
        return match pick(&offered, wanted) {
            Some((value, alias)) => ModelPlan::Set {
                setting: Setting::Config { id, value },
                alias,
            },
            None => ModelPlan::NotOffered(offered.into_iter().map(|(v, _)| v).collect()),
        };
    }
    let Some(models) = result.get("models") else {
        return ModelPlan::NoSelection;
    };
    let offered: Vec<(String, String)> = models
        .get("availableModels")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|m| {
            let id = str_of(m, "modelId")?;
            Some((id.to_string(), str_of(m, "name").unwrap_or(id).to_string()))
        })
        .collect();
    // gemini lists a few models but takes any (recorded: an unlisted gemini-2.5-flash answered);
    // the answer's reported model is what confirms it.
    let (value, alias) = pick(&offered, wanted).unwrap_or((wanted.to_string(), false));
    ModelPlan::Set {
        setting: Setting::Model(value),
        alias,
    }
}

/// The reasoning-effort setting for `effort`, when the agent has a `thought_level` option
/// (codex-acp's `reasoning_effort`, claude-agent-acp's `effort`).
pub fn effort_setting(result: &Value, effort: Effort) -> Option<Setting> {
    let opt = by_category(result, "thought_level")?;
    let offered: Vec<String> = values(opt).into_iter().map(|(v, _)| v).collect();
    let wanted: &[&str] = match effort {
        Effort::Low => &["low", "minimal"],
        Effort::Medium => &["medium"],
        Effort::High => &["high"],
        Effort::Max => &["max", "xhigh", "high"],
    };
    let value = wanted
        .iter()
        .find_map(|w| offered.iter().find(|v| v.eq_ignore_ascii_case(w)))?;
    Some(Setting::Config {
        id: str_of(opt, "id")?.to_string(),
        value: value.clone(),
    })
}

/// The current value of config option `id` in a `configOptions` list (a `set_config_option`
/// result or a `config_option_update`).
pub fn current_value(holder: &Value, id: &str) -> Option<String> {
    config_options(holder)
        .find(|o| str_of(o, "id") == Some(id))
        .and_then(|o| str_of(o, "currentValue"))
        .map(str::to_string)
}

fn count(v: &Value, keys: &[&str]) -> Option<u64> {
    keys.iter().find_map(|k| v.get(*k).and_then(Value::as_u64))
}

fn usage_from(v: &Value) -> Option<Usage> {
    let u = Usage {
        input_tokens: count(v, &["inputTokens", "input_tokens"]),
        output_tokens: count(v, &["outputTokens", "output_tokens"]),
        cached_input_tokens: count(
            v,
            &[
                "cachedReadTokens",
                "cachedInputTokens",
                "cached_input_tokens",
            ],
        )
        .filter(|n| *n > 0),
        ..Usage::default()
    };
    (u.input_tokens.is_some() || u.output_tokens.is_some()).then_some(u)
}

/// Usage in a `session/prompt` result: `usage` (the protocol's field), else `_meta.quota`.
pub fn prompt_usage(result: &Value) -> Option<Usage> {
    result
        .get("usage")
        .and_then(usage_from)
        .or_else(|| usage_from(result.pointer("/_meta/quota/token_count")?))
}

/// Usage on a `session/update` (qwen puts it on its last message chunk).
pub fn update_usage(update: &Value) -> Option<Usage> {
    usage_from(update.pointer("/_meta/usage")?)
}

/// Cost on a `usage_update` (claude-agent-acp: `cost.amount` in USD).
pub fn update_cost(update: &Value) -> Option<f64> {
    let cost = update.get("cost")?;
    (str_of(cost, "currency").unwrap_or("USD") == "USD")
        .then(|| cost.get("amount").and_then(Value::as_f64))
        .flatten()
}

/// The model a `session/prompt` result says answered (`_meta.quota.model_usage`).
pub fn prompt_model(result: &Value) -> Option<String> {
    result
        .pointer("/_meta/quota/model_usage")
        .and_then(Value::as_array)
        .and_then(|a| a.iter().rev().find_map(|m| str_of(m, "model")))
        .map(str::to_string)
}

/// The model a `session/update` names: claude's `usage_update` `_meta`, or the model option of
/// a `config_option_update`.
pub fn update_model(update: &Value) -> Option<String> {
    if let Some(m) = update
        .pointer("/_meta/_claude~1model")
        .and_then(Value::as_str)
    {
        return Some(m.to_string());
    }
    config_options(update)
        .find(|o| str_of(o, "category") == Some("model"))
        .and_then(|o| str_of(o, "currentValue"))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn select(id: &str, category: &str, current: &str, values: &[&str]) -> Value {
        let options: Vec<Value> = values
            .iter()
            .map(|v| json!({"value": v, "name": v}))
            .collect();
        json!({"id": id, "category": category, "type": "select", "currentValue": current, "options": options})
    }

    #[test]
    fn the_read_only_mode_is_found_in_either_generation() {
        let config = |current: &str, values: &[&str]| json!({"configOptions": [select("mode", "mode", current, values)]});
        // read-only beats plan; a session already in it needs nothing.
        assert_eq!(
            read_only_mode(&config("auto", &["auto", "plan", "read-only"])),
            ReadOnly::Switch(Setting::Config {
                id: "mode".into(),
                value: "read-only".into()
            })
        );
        assert_eq!(
            read_only_mode(&config("read-only", &["read-only", "auto"])),
            ReadOnly::Already
        );
        let copilot = "https://agentclientprotocol.com/protocol/session-modes#plan";
        assert_eq!(
            read_only_mode(&config("x#agent", &["x#agent", copilot])),
            ReadOnly::Switch(Setting::Config {
                id: "mode".into(),
                value: copilot.into()
            })
        );
        assert_eq!(
            read_only_mode(&config("build", &["build", "yolo"])),
            ReadOnly::Unavailable
        );
        let legacy = json!({"modes": {"currentModeId": "default", "availableModes": [{"id": "default"}, {"id": "plan"}]}});
        assert_eq!(
            read_only_mode(&legacy),
            ReadOnly::Switch(Setting::Mode("plan".into()))
        );
        assert_eq!(read_only_mode(&json!({})), ReadOnly::Unavailable);
    }

    #[test]
    fn models_are_matched_by_id_bare_name_or_alias() {
        let r = json!({"configOptions": [select("model", "model", "a", &["opencode/big-pickle", "fakellm/fake-model"])]});
        assert!(matches!(
            model_plan(&r, "fakellm/fake-model"),
            ModelPlan::Set { alias: false, .. }
        ));
        assert_eq!(
            model_plan(&r, "gpt-9"),
            ModelPlan::NotOffered(vec![
                "opencode/big-pickle".into(),
                "fakellm/fake-model".into()
            ])
        );
        // "default" is never taken for an alias.
        let aliases = json!({"configOptions": [select("model", "model", "default", &["default", "opus", "haiku"])]});
        assert!(matches!(
            model_plan(&aliases, "claude-default-x"),
            ModelPlan::NotOffered(_)
        ));
        assert!(matches!(
            model_plan(&aliases, "claude-opus-4-6"),
            ModelPlan::Set { alias: true, .. }
        ));
        // Legacy lists take any id (gemini does); nothing at all is no selection.
        let legacy =
            json!({"models": {"currentModelId": "auto", "availableModels": [{"modelId": "auto"}]}});
        assert_eq!(
            model_plan(&legacy, "gemini-2.5-flash"),
            ModelPlan::Set {
                setting: Setting::Model("gemini-2.5-flash".into()),
                alias: false
            }
        );
        assert_eq!(model_plan(&json!({}), "m"), ModelPlan::NoSelection);
    }

    #[test]
    fn effort_maps_to_the_offered_levels() {
        let codex = json!({"configOptions": [select("reasoning_effort", "thought_level", "medium", &["low", "medium", "high", "xhigh"])]});
        let value = |r: &Value, e| match effort_setting(r, e) {
            Some(Setting::Config { value, .. }) => Some(value),
            _ => None,
        };
        assert_eq!(value(&codex, Effort::Max).as_deref(), Some("xhigh"));
        assert_eq!(value(&codex, Effort::Low).as_deref(), Some("low"));
        let claude = json!({"configOptions": [select("effort", "thought_level", "default", &["default", "low", "medium", "high", "xhigh", "max"])]});
        assert_eq!(value(&claude, Effort::Max).as_deref(), Some("max"));
        assert_eq!(value(&json!({}), Effort::High), None);
    }

    #[test]
    fn usage_and_models_are_read_where_each_agent_puts_them() {
        let opencode = json!({"stopReason": "end_turn", "usage": {"inputTokens": 7688, "outputTokens": 7, "totalTokens": 7695}});
        assert_eq!(prompt_usage(&opencode).unwrap().input_tokens, Some(7688));
        let gemini = json!({"_meta": {"quota": {"token_count": {"input_tokens": 12102, "output_tokens": 7},
            "model_usage": [{"model": "gemini-2.5-flash"}]}}});
        assert_eq!(prompt_usage(&gemini).unwrap().output_tokens, Some(7));
        assert_eq!(prompt_model(&gemini).as_deref(), Some("gemini-2.5-flash"));
        let qwen = json!({"sessionUpdate": "agent_message_chunk", "_meta": {"usage": {"inputTokens": 19502, "outputTokens": 7, "cachedReadTokens": 5}}});
        assert_eq!(update_usage(&qwen).unwrap().cached_input_tokens, Some(5));
        let claude = json!({"sessionUpdate": "usage_update", "cost": {"amount": 0.05, "currency": "USD"}, "_meta": {"_claude/model": "claude-opus-5-5"}});
        assert_eq!(update_cost(&claude), Some(0.05));
        assert_eq!(update_model(&claude).as_deref(), Some("claude-opus-5-5"));
        assert_eq!(prompt_usage(&json!({"stopReason": "end_turn"})), None);
    }
}
