//! Precedence and error rules of [`resolve`], on made-up inputs only.

use super::*;

const TWO_PROFILES: &str = r#"
default_profile = "dev"

[profiles.dev]
base_url = "http://dev.example/api/v1"
token = "dev-token"
request_timeout_secs = 5

[profiles.prod]
base_url = "https://prod.example/api/v1"
token_file = "prod.token"
connect_timeout_secs = 2.5
"#;

fn config(text: &str) -> ConfigText {
    ConfigText {
        path: PathBuf::from("/home/u/.config/appdeck/config.toml"),
        text: text.to_owned(),
        shared: false,
    }
}

fn token_value(settings: &Settings) -> Option<&str> {
    match &settings.token.as_ref()?.value {
        TokenSource::Value(t) => Some(t.expose()),
        TokenSource::File(_) => None,
    }
}

#[test]
fn the_default_profile_applies_when_none_is_chosen() {
    let s = resolve(
        &Flags::default(),
        &Env::default(),
        Some(&config(TWO_PROFILES)),
    )
    .unwrap();
    assert_eq!(
        s.profile,
        Some(Sourced::new("dev".to_owned(), Source::ConfigDefault))
    );
    assert_eq!(
        s.base_url,
        Some(Sourced::new(
            "http://dev.example/api/v1".to_owned(),
            Source::Profile("dev".into())
        ))
    );
    assert_eq!(token_value(&s), Some("dev-token"));
    assert_eq!(s.request_timeout.value, Duration::from_secs(5));
    assert_eq!(s.request_timeout.source, Source::Profile("dev".into()));
    assert_eq!(s.connect_timeout.source, Source::Default);
    assert_eq!(s.profile_name(), Some("dev"));
    let none = resolve(&Flags::default(), &Env::default(), None).unwrap();
    assert_eq!(none.profile_name(), None);
}

#[test]
fn flag_beats_env_beats_default_profile() {
    let env = Env {
        profile: Some("prod".into()),
        ..Env::default()
    };
    let s = resolve(&Flags::default(), &env, Some(&config(TWO_PROFILES))).unwrap();
    assert_eq!(s.profile.as_ref().unwrap().value, "prod");
    assert_eq!(s.profile.as_ref().unwrap().source, Source::Env(ENV_PROFILE));
    assert_eq!(s.connect_timeout.value, Duration::from_millis(2500));

    let flags = Flags {
        profile: Some("dev".into()),
        ..Flags::default()
    };
    let s = resolve(&flags, &env, Some(&config(TWO_PROFILES))).unwrap();
    assert_eq!(s.profile.unwrap().source, Source::Flag("--profile"));
}

#[test]
fn flags_and_env_beat_the_profile_value_by_value() {
    let env = Env {
        base_url: Some("http://env.example/api/v1".into()),
        token: Some(Token::new("env-token")),
        ..Env::default()
    };
    let s = resolve(&Flags::default(), &env, Some(&config(TWO_PROFILES))).unwrap();
    assert_eq!(
        s.base_url.as_ref().unwrap().source,
        Source::Env(ENV_BASE_URL)
    );
    assert_eq!(token_value(&s), Some("env-token"));
    // The profile still supplies what the environment does not.
    assert_eq!(s.request_timeout.source, Source::Profile("dev".into()));

    let flags = Flags {
        base_url: Some("http://flag.example/api/v1".into()),
        token_file: Some("/run/secrets/t".into()),
        request_timeout: Some(Duration::from_secs(1)),
        ..Flags::default()
    };
    let s = resolve(&flags, &env, Some(&config(TWO_PROFILES))).unwrap();
    assert_eq!(s.base_url.unwrap().value, "http://flag.example/api/v1");
    assert_eq!(
        s.token.unwrap(),
        Sourced::new(
            TokenSource::File("/run/secrets/t".into()),
            Source::Flag("--token-file")
        )
    );
    assert_eq!(
        s.request_timeout,
        Sourced::new(Duration::from_secs(1), Source::Flag("--timeout"))
    );
}

#[test]
fn a_relative_token_file_is_relative_to_the_config_file_and_tilde_to_home() {
    let flags = Flags {
        profile: Some("prod".into()),
        ..Flags::default()
    };
    let s = resolve(&flags, &Env::default(), Some(&config(TWO_PROFILES))).unwrap();
    assert_eq!(
        s.token.unwrap().value,
        TokenSource::File("/home/u/.config/appdeck/prod.token".into())
    );

    let text = "[profiles.a]\ntoken_file = \"~/secrets/appdeck\"";
    let env = Env {
        profile: Some("a".into()),
        home: Some("/home/u".into()),
        ..Env::default()
    };
    let s = resolve(&Flags::default(), &env, Some(&config(text))).unwrap();
    assert_eq!(
        s.token.unwrap().value,
        TokenSource::File("/home/u/secrets/appdeck".into())
    );
}

#[test]
fn an_unknown_profile_lists_the_known_ones() {
    let flags = Flags {
        profile: Some("staging".into()),
        ..Flags::default()
    };
    let err = resolve(&flags, &Env::default(), Some(&config(TWO_PROFILES))).unwrap_err();
    let message = err.to_string();
    assert!(message.contains("\"staging\""), "{message}");
    assert!(message.contains("--profile"), "{message}");
    assert!(message.contains("dev, prod"), "{message}");

    let err = resolve(&flags, &Env::default(), None).unwrap_err();
    assert!(err.to_string().contains("no config file"), "{err}");

    let bad_default = "default_profile = \"gone\"\n[profiles.dev]\n";
    let err = resolve(
        &Flags::default(),
        &Env::default(),
        Some(&config(bad_default)),
    )
    .unwrap_err();
    assert!(err.to_string().contains("default_profile"), "{err}");
}

#[test]
fn nothing_configured_says_what_to_set() {
    let s = resolve(&Flags::default(), &Env::default(), None).unwrap();
    assert!(s.base_url.is_none() && s.token.is_none() && s.profile.is_none());
    assert_eq!(s.request_timeout.value, Duration::from_secs(30));
    assert_eq!(s.connect_timeout.value, Duration::from_secs(10));
    let err = s.client_settings().unwrap_err().to_string();
    assert!(
        err.contains("--base-url") && err.contains(ENV_BASE_URL),
        "{err}"
    );

    let env = Env {
        base_url: Some("http://x/api/v1".into()),
        ..Env::default()
    };
    let s = resolve(&Flags::default(), &env, None).unwrap();
    let err = s.client_settings().unwrap_err().to_string();
    assert!(
        err.contains(ENV_TOKEN) && err.contains("--token-file"),
        "{err}"
    );
}

#[test]
fn a_shared_config_file_with_a_token_is_warned_about() {
    let mut c = config(TWO_PROFILES);
    c.shared = true;
    let s = resolve(&Flags::default(), &Env::default(), Some(&c)).unwrap();
    assert_eq!(s.warnings.len(), 1);
    assert!(s.warnings[0].contains("chmod 600"));

    let mut c = config("[profiles.a]\ntoken_file = \"/t\"\n");
    c.shared = true;
    let s = resolve(&Flags::default(), &Env::default(), Some(&c)).unwrap();
    assert!(s.warnings.is_empty());
}

#[test]
fn profile_mistakes_are_reported() {
    let both = "[profiles.a]\ntoken = \"x\"\ntoken_file = \"/t\"\n";
    let flags = Flags {
        profile: Some("a".into()),
        ..Flags::default()
    };
    assert!(matches!(
        resolve(&flags, &Env::default(), Some(&config(both))),
        Err(ConfigError::TokenTwice(_))
    ));

    let zero = "[profiles.a]\nrequest_timeout_secs = 0\n";
    let err = resolve(&flags, &Env::default(), Some(&config(zero))).unwrap_err();
    assert!(err.to_string().contains("request_timeout_secs"), "{err}");

    let typo = "[profiles.a]\nbaseurl = \"http://x\"\n";
    let s = resolve(&flags, &Env::default(), Some(&config(typo))).unwrap();
    assert!(s.warnings[0].contains("baseurl"), "{:?}", s.warnings);

    let broken = "[profiles.a\n";
    let err = resolve(&flags, &Env::default(), Some(&config(broken))).unwrap_err();
    assert!(err.to_string().contains("config.toml:1:"), "{err}");
}

#[test]
fn timeouts_must_be_sensible() {
    assert_eq!(seconds(1.5), Some(Duration::from_millis(1500)));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e12] {
        assert_eq!(seconds(bad), None, "{bad}");
    }
}

#[test]
fn the_log_lives_in_a_state_or_data_directory() {
    if let Some(path) = log_path() {
        assert!(path.ends_with("appdeck.log"));
    }
}

#[test]
fn a_profiles_types_are_relative_to_the_config_file() {
    let text = "[profiles.a]\ntypes = [\"types/app.json\", \"/abs/other.json\", \"~/x.json\"]";
    let env = Env {
        profile: Some("a".into()),
        home: Some("/home/u".into()),
        ..Env::default()
    };
    let s = resolve(&Flags::default(), &env, Some(&config(text))).unwrap();
    assert_eq!(
        s.types,
        vec![
            PathBuf::from("/home/u/.config/appdeck/types/app.json"),
            PathBuf::from("/abs/other.json"),
            PathBuf::from("/home/u/x.json"),
        ]
    );
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    let s = resolve(&Flags::default(), &Env::default(), Some(&config(text))).unwrap();
    assert!(s.types.is_empty(), "no profile selected, no types");
}

#[test]
fn the_store_is_in_the_data_dir_or_where_the_environment_says() {
    let env = Env {
        data_dir: Some("/tmp/elsewhere".into()),
        ..Env::default()
    };
    let path = store_path(&env).unwrap();
    assert_eq!(path.value, PathBuf::from("/tmp/elsewhere/appdeck.db"));
    assert_eq!(path.source, Source::Env(ENV_DATA_DIR));
    if let Some(default) = store_path(&Env::default()) {
        assert!(default.value.ends_with("appdeck.db"));
        assert_eq!(default.source, Source::Default);
    }
}

#[test]
fn read_only_comes_from_the_profile_or_the_flag_and_names_the_profile() {
    let text = r#"
[profiles.prod]
base_url = "https://prod.example/api/v1"
token = "t"
read_only = true

[profiles.dev]
base_url = "http://dev.example/api/v1"
token = "t"
"#;
    let choose = |name: &str, read_only: bool| {
        let flags = Flags {
            profile: Some(name.to_owned()),
            read_only,
            ..Flags::default()
        };
        resolve(&flags, &Env::default(), Some(&config(text))).unwrap()
    };
    let prod = choose("prod", false);
    assert_eq!(
        prod.read_only,
        Sourced::new(true, Source::Profile("prod".into()))
    );
    let refusal = prod.write_refusal().expect("prod refuses writes");
    assert_eq!(refusal, ReadOnly::Profile("prod".into()));
    assert_eq!(refusal.to_string(), "profile \"prod\" is read-only");
    assert!(
        prod.warnings.is_empty(),
        "read_only is a known key: {:?}",
        prod.warnings
    );

    let dev = choose("dev", false);
    assert_eq!(dev.read_only, Sourced::new(false, Source::Default));
    assert_eq!(dev.write_refusal(), None);

    let flagged = choose("dev", true);
    assert_eq!(flagged.read_only.source, Source::Flag("--read-only"));
    assert_eq!(
        flagged.write_refusal().unwrap().to_string(),
        "profile \"dev\" is read-only (--read-only)"
    );
    let none = resolve(
        &Flags {
            read_only: true,
            ..Flags::default()
        },
        &Env::default(),
        None,
    )
    .unwrap();
    assert_eq!(
        none.write_refusal(),
        Some(ReadOnly::Flag(None)),
        "--read-only needs no profile"
    );
}

#[test]
fn read_only_must_be_a_boolean() {
    let text = "[profiles.prod]\nread_only = \"yes\"\n";
    let err = resolve(
        &Flags {
            profile: Some("prod".into()),
            ..Flags::default()
        },
        &Env::default(),
        Some(&config(text)),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("config.toml:2:"), "{err}");
    assert!(err.contains("bool"), "{err}");
}

#[test]
fn retries_come_from_the_profile_within_bounds() {
    let text = "[profiles.flaky]\nretries = 7\n[profiles.off]\nretries = 0\n\
                [profiles.plain]\n[profiles.wrong]\nretries = -1\n";
    let choose = |name: &str| {
        let flags = Flags {
            profile: Some(name.to_owned()),
            ..Flags::default()
        };
        resolve(&flags, &Env::default(), Some(&config(text)))
    };
    let flaky = choose("flaky").unwrap();
    assert_eq!(
        flaky.retries,
        Sourced::new(7, Source::Profile("flaky".into()))
    );
    assert!(
        flaky.warnings.is_empty(),
        "a known key: {:?}",
        flaky.warnings
    );
    assert_eq!(choose("off").unwrap().retries.value, 0);
    assert_eq!(
        choose("plain").unwrap().retries,
        Sourced::new(
            crate::api::retry::RetryPolicy::DEFAULT_RETRIES,
            Source::Default
        )
    );
    let err = choose("wrong").unwrap_err().to_string();
    assert!(
        err.contains("`retries` must be a whole number from 0 to 100"),
        "{err}"
    );
}

#[test]
fn keeping_listings_is_on_unless_the_profile_turns_it_off() {
    let text = "[profiles.private]\nkeep_listings = false\n[profiles.plain]\n";
    let choose = |name: &str| {
        let flags = Flags {
            profile: Some(name.to_owned()),
            ..Flags::default()
        };
        resolve(&flags, &Env::default(), Some(&config(text))).unwrap()
    };
    let private = choose("private");
    assert_eq!(
        private.keep_listings,
        Sourced::new(false, Source::Profile("private".into()))
    );
    assert!(private.warnings.is_empty(), "{:?}", private.warnings);
    assert_eq!(
        choose("plain").keep_listings,
        Sourced::new(true, Source::Default)
    );
}

/// An unknown key is reported with the file and its line wherever it is: at the top, in the
/// profile in use or in another one. A profile's key written at the top (`read_only`, which
/// the README documents as a profile key) says where it belongs instead of being dropped.
#[test]
fn unknown_keys_at_every_level_are_located() {
    let text = "read_only = true\ndefualt_profile = \"a\"\ntheme = \"dark\"\n\n[profiles.a]\nbase_url = \"http://x/api/v1\"\nreadonly = true\n\n[profiles.b]\ntokn = \"x\"\ndefault_profile = \"a\"\n";
    let flags = Flags {
        profile: Some("a".into()),
        ..Flags::default()
    };
    let s = resolve(&flags, &Env::default(), Some(&config(text))).unwrap();
    let at = |line: usize, key: &str| {
        let prefix = format!("/home/u/.config/appdeck/config.toml:{line}: ");
        s.warnings
            .iter()
            .find(|w| w.starts_with(&prefix) && w.contains(&format!("`{key}`")))
            .unwrap_or_else(|| panic!("no warning for {key} at line {line}: {:?}", s.warnings))
    };
    assert!(at(1, "read_only").contains("[profiles.NAME]"));
    assert!(at(2, "defualt_profile").contains("unknown key"));
    assert!(at(7, "readonly").contains("unknown key"));
    assert!(at(10, "tokn").contains("unknown key"));
    assert!(at(11, "default_profile").contains("top of the file"));
    assert_eq!(s.warnings.len(), 5, "{:?}", s.warnings);
    assert!(!s.read_only.value);
}
