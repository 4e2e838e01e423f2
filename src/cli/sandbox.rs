//! `appdeck sandbox`: runs the local stand-in for the service until ctrl-c, SIGTERM or SIGHUP.

use std::io::Write;
use std::path::Path;

use super::Failure;
use super::args::SandboxArgs;
use crate::sandbox::{Sandbox, SandboxLimits, SandboxOptions};
use crate::signals::StopSignals;

/// The environment variable giving the sandbox's token, so that no token shows in `ps`.
pub const ENV_SANDBOX_TOKEN: &str = "APPDECK_SANDBOX_TOKEN";

/// `token_file` is the global `--token-file`: for the sandbox, the token it accepts.
pub async fn run(args: SandboxArgs, token_file: Option<&Path>) -> Result<(), Failure> {
    let env_token = match std::env::var(ENV_SANDBOX_TOKEN) {
        Ok(token) => Some(token),
        Err(std::env::VarError::NotPresent) => None,
        Err(std::env::VarError::NotUnicode(_)) => {
            return Err(Failure::Usage(format!(
                "{ENV_SANDBOX_TOKEN} is not valid UTF-8"
            )));
        }
    };
    let tokens = accepted_tokens(args.tokens, token_file, env_token)?;
    let options = SandboxOptions {
        listen: args.listen,
        tokens,
        seed_demo: !args.empty,
        generate: args.generate,
        fault: args.fault,
        limits: SandboxLimits {
            header_timeout: args.header_timeout,
            body_timeout: args.body_timeout,
            max_connections: args.max_connections as usize,
            check_budget: args.check_timeout,
        },
    };
    let sandbox = Sandbox::start(options).await.map_err(Failure::Sandbox)?;
    // The one place appdeck prints a token: the sandbox's own throwaway one, which the user needs.
    // Shell syntax, so that `eval` or a paste into another shell configures appdeck.
    {
        let mut out = crate::cli::stdout::out();
        writeln!(
            out,
            "export APPDECK_BASE_URL={}",
            shell_quote(sandbox.base_url())
        )?;
        writeln!(out, "export APPDECK_TOKEN={}", shell_quote(sandbox.token()))?;
        out.flush()?;
    }
    eprintln!(
        "appdeck: sandbox serving {} at {}; stop it with ctrl-c",
        crate::text::counted(sandbox.store().len(), "resource"),
        sandbox.base_url()
    );
    StopSignals::listen().received().await;
    eprintln!("appdeck: stopping the sandbox");
    sandbox.shutdown().await;
    Ok(())
}

/// The tokens the sandbox accepts: every `--token`, and the token of `--token-file`; when neither
/// is given, `APPDECK_SANDBOX_TOKEN`; none means a random one. A blank `APPDECK_SANDBOX_TOKEN` is
/// refused as `--token ''` is (it was ignored, and a random token served instead of the one meant).
fn accepted_tokens(
    mut flags: Vec<String>,
    token_file: Option<&Path>,
    env_token: Option<String>,
) -> Result<Vec<String>, Failure> {
    if let Some(token) = &env_token {
        super::args::parse_token(token).map_err(|why| {
            Failure::Usage(format!(
                "invalid value '{}' for {ENV_SANDBOX_TOKEN}: {why}",
                crate::sanitize::line(token)
            ))
        })?;
    }
    if let Some(path) = token_file {
        let (token, warning) = crate::config::read_token_file(path)?;
        super::warn(&warning.into_iter().collect::<Vec<_>>());
        flags.push(token.expose().to_owned());
    }
    if flags.is_empty()
        && let Some(token) = env_token
    {
        flags.push(token);
    }
    Ok(flags)
}

/// Quotes a value for a POSIX shell when it holds anything beyond plainly safe characters.
fn shell_quote(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:@%+=,-".contains(c));
    if plain {
        value.to_owned()
    } else {
        format!("'{}'", value.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::{Failure, accepted_tokens, shell_quote};

    #[test]
    fn flags_and_the_token_file_beat_the_environment() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("t");
        std::fs::write(&file, "from-file\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        let env = || Some("from-env".to_owned());
        let tokens = |flags: &[&str], file: Option<&std::path::Path>, env: Option<String>| {
            let flags = flags.iter().map(|t| (*t).to_owned()).collect();
            accepted_tokens(flags, file, env).unwrap()
        };
        assert_eq!(tokens(&[], None, env()), ["from-env"]);
        assert_eq!(tokens(&[], Some(&file), env()), ["from-file"]);
        assert_eq!(tokens(&["flag"], Some(&file), env()), ["flag", "from-file"]);
        assert_eq!(tokens(&["flag"], None, env()), ["flag"]);
        let Err(Failure::Usage(blank)) = accepted_tokens(Vec::new(), None, Some("  ".to_owned()))
        else {
            panic!("a blank APPDECK_SANDBOX_TOKEN is refused");
        };
        assert_eq!(
            blank,
            "invalid value '  ' for APPDECK_SANDBOX_TOKEN: a token must not be empty"
        );
        assert!(accepted_tokens(Vec::new(), Some(&dir.path().join("none")), None).is_err());
    }

    #[test]
    fn values_are_quoted_only_when_needed() {
        assert_eq!(
            shell_quote("http://127.0.0.1:8080/api/v1"),
            "http://127.0.0.1:8080/api/v1"
        );
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's $x"), r"'it'\''s $x'");
        assert_eq!(shell_quote(""), "''");
    }
}
