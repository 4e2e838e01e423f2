//! `appdeck sandbox`: runs the local stand-in for the service until ctrl-c, SIGTERM or SIGHUP.

use std::io::Write;

use super::Failure;
use super::args::SandboxArgs;
use crate::sandbox::{Sandbox, SandboxOptions};
use crate::signals::StopSignals;

pub async fn run(args: SandboxArgs) -> Result<(), Failure> {
    let options = SandboxOptions {
        listen: args.listen,
        tokens: args.tokens,
        seed_demo: !args.empty,
        generate: args.generate,
        fault: args.fault,
    };
    let sandbox = Sandbox::start(options).await.map_err(Failure::Sandbox)?;
    // The one place appdeck prints a token: the sandbox's own throwaway one, which the user needs.
    // Shell syntax, so that `eval` or a paste into another shell configures appdeck.
    {
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "export APPDECK_BASE_URL={}",
            shell_quote(sandbox.base_url())
        )?;
        writeln!(out, "export APPDECK_TOKEN={}", shell_quote(sandbox.token()))?;
        out.flush()?;
    }
    eprintln!(
        "appdeck: sandbox serving {} resources at {}; stop it with ctrl-c",
        sandbox.store().len(),
        sandbox.base_url()
    );
    StopSignals::listen().received().await;
    eprintln!("appdeck: stopping the sandbox");
    sandbox.shutdown().await;
    Ok(())
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
    use super::shell_quote;

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
