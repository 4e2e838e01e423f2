//! jq's `env`, less the token: the README promises the token is never printed, and
//! `list --jq 'env.APPDECK_TOKEN'` printed it (a tester's finding). Every jq program here (`--jq`,
//! `--where`, `:where` and its worker) gets this `env` in place of jaq's.

use std::ffi::OsString;

use jaq_core::ValT as _;
use jaq_core::data;
use jaq_core::native::{Fun, bome, run, v};

use super::Val;
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
/// value (`export GH_TOKEN=$APPDECK_TOKEN`), nor one that is not Unicode (jaq's own `env`
/// ended the process on such a variable).
fn visible(vars: impl Iterator<Item = (OsString, OsString)>) -> Vec<(String, String)> {
    let vars: Vec<(String, String)> = vars
        .filter_map(|(name, value)| Some((name.into_string().ok()?, value.into_string().ok()?)))
        .collect();
    let token = (vars.iter())
        .find(|(name, value)| name == ENV_TOKEN && !value.is_empty())
        .map(|(_, value)| value.clone());
    vars.into_iter()
        .filter(|(name, value)| name != ENV_TOKEN && Some(value) != token.as_ref())
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
}
