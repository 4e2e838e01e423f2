//! jq's `env`, less the token: the README promises the token is never printed, and
//! `list --jq 'env.APPDECK_TOKEN'` printed it (a tester's finding). Every jq program here (`--jq`,
//! `--where`, `:where` and its worker) gets this `env` in place of jaq's.

use std::ffi::OsString;

use jaq_core::ValT as _;
use jaq_core::data;
use jaq_core::native::{Fun, bome, run, v};

use super::Val;
use crate::api::client::Token;
use crate::api::mask::TokenMask;
use crate::config::ENV_TOKEN;

/// The `env` jq programs call: the process's environment without the token (see [`visible`]).
pub(super) fn env() -> Fun<data::JustLut<Val>> {
    run(("env", v(0), |_| {
        let vars = visible(std::env::vars_os());
        bome(Val::from_map(
            vars.into_iter()
                .map(|(name, value)| (Val::from(name), Val::from(value))),
        ))
    }))
}

/// The variables of `vars` a jq program sees: not `APPDECK_TOKEN`, nor any other holding its
/// value or holding it where the token's mask would hide it in an answer (`AUTH_HEADER="Bearer
/// <token>"`, a URL with it escaped; a token under 8 characters only as `Bearer <token>`, as a
/// short word is anyone's), nor one that is not Unicode (jaq's own `env` ended the process on
/// such a variable).
fn visible(vars: impl Iterator<Item = (OsString, OsString)>) -> Vec<(String, String)> {
    let vars: Vec<(String, String)> = vars
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
        .collect();
    let token = (vars.iter())
        .find(|(name, value)| name == ENV_TOKEN && !value.is_empty())
        .map(|(_, value)| value.clone());
    let Some(token) = token else {
        return vars
            .into_iter()
            .filter(|(name, _)| name != ENV_TOKEN)
            .collect();
    };
    let mask = TokenMask::new(&Token::new(token.clone()));
    vars.into_iter()
        .filter(|(name, value)| name != ENV_TOKEN && *value != token && !mask.is_in(value))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_and_its_copies_are_not_in_the_environment_jq_sees() {
        let vars = [
            ("HOME", "/home/u"),
            ("APPDECK_TOKEN", "s3cret-token"),
            ("GH_TOKEN", "s3cret-token"),
            ("EMPTY", ""),
        ]
        .map(|(name, value)| (OsString::from(name), OsString::from(value)));
        assert_eq!(
            visible(vars.into_iter()),
            [
                ("HOME".into(), "/home/u".into()),
                ("EMPTY".into(), "".into())
            ]
        );
    }

    /// Tester 2026-12-03c LOW 13: `BAR="Bearer devtoken123"` was shown, only a variable equal
    /// to the token was left out.
    #[test]
    fn a_variable_holding_the_token_among_other_text_is_left_out() {
        let seen = |token: &str, others: &[(&str, &str)]| -> Vec<String> {
            let vars = [("APPDECK_TOKEN", token)]
                .into_iter()
                .chain(others.iter().copied());
            let vars = vars.map(|(name, value)| (OsString::from(name), OsString::from(value)));
            visible(vars).into_iter().map(|(name, _)| name).collect()
        };
        let others = [
            ("BAR", "Bearer devtoken123"),
            ("URL", "https://h/?t=devtoken123&x=1"),
            ("ESCAPED", "dev%74oken123"),
            ("OTHER", "devtoken12"),
        ];
        assert_eq!(seen("devtoken123", &others), ["OTHER"]);
        // A short token is anyone's word: only `Bearer x` and the token itself are left out.
        let others = [
            ("AUTH", "Bearer x"),
            ("EDITOR", "vi -x"),
            ("ALSO", "x"),
            ("WORD", "Bearer xy"),
        ];
        assert_eq!(seen("x", &others), ["EDITOR", "WORD"]);
    }

    /// jq's `$ENV` is the environment too: jaq's library has none, so no program reaches the
    /// token through it (this fails the day an upgrade brings one in).
    #[test]
    fn env_as_a_variable_is_not_defined() {
        let errors = super::super::Program::compile("$ENV.APPDECK_TOKEN")
            .err()
            .unwrap();
        assert!(
            errors
                .iter()
                .any(|e| e.contains("undefined variable `$ENV`")),
            "{errors:?}"
        );
    }
}
