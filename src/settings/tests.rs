//! Unit tests of resolving: typed values, their JSON spelling, and bad words in config.

use super::*;

fn layers(pairs: &[(&str, &str)]) -> Layers {
    let mut l = Layers::default();
    for (k, v) in pairs {
        l.push(k, v.to_string(), Layer::Local, "/repo/.git/config".into());
    }
    l
}

#[test]
fn defaults_are_spelt_in_json_as_sessions_record_them() {
    let s = Settings::resolve(Layers::default(), &Overrides::default()).unwrap();
    let v = serde_json::to_value(&s).unwrap();
    for (key, word) in [
        ("target", "auto"),
        ("intensity", "standard"),
        ("mode", "auto"),
        ("format", "text"),
        ("fail_on", "never"),
        ("chunk", "auto"),
        ("reviewer_workspace", "export"),
        ("reviewer_tools", "default"),
    ] {
        assert_eq!(v[key], word, "{key}");
    }
    assert!(v["effort"].is_null());
}

#[test]
fn config_words_are_read_in_any_case_and_flags_win() {
    let l = layers(&[("debate.mode", "Manual"), ("debate.format", "json")]);
    let flags = Overrides {
        format: Some(Format::Sarif),
        effort: Some(Effort::High),
        ..Default::default()
    };
    let s = Settings::resolve(l, &flags).unwrap();
    assert_eq!(s.mode, Mode::Manual);
    assert_eq!(s.format, Format::Sarif);
    assert_eq!(s.effort, Some(Effort::High));
    assert_eq!(s.sources["format"], Layer::Flag);
    assert_eq!(s.origins["format"], "--format");
}

#[test]
fn a_bad_word_names_the_key_its_file_and_the_words_allowed() {
    for (key, bad, allowed) in [
        ("debate.mode", "sometimes", "auto, manual"),
        ("debate.failOn", "p4", "p1, p2, p3, never"),
        ("debate.reviewerTools", "all", "default, none"),
    ] {
        let err = Settings::resolve(layers(&[(key, bad)]), &Overrides::default()).unwrap_err();
        let msg = err.to_string();
        assert!(err.is::<UsageError>(), "{msg}");
        assert!(
            msg.contains(key) && msg.contains("/repo/.git/config") && msg.contains(allowed),
            "{msg}"
        );
    }
}

#[test]
fn a_section_boolean_is_an_error_when_it_is_not_one() {
    let s = Settings::resolve(
        layers(&[("debate.hook.strict", "yes")]),
        &Overrides::default(),
    )
    .unwrap();
    assert_eq!(s.var_bool("hook.strict").unwrap(), Some(true));
    assert_eq!(s.var_bool("hook.other").unwrap(), None);
    let s = Settings::resolve(
        layers(&[("debate.hook.strict", "maybe")]),
        &Overrides::default(),
    )
    .unwrap();
    let err = s.var_bool("hook.strict").unwrap_err();
    assert!(err.to_string().contains("debate.hook.strict"), "{err}");
}
