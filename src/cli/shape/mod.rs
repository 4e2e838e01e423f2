//! Shaping what a command prints for scripts: `--jq`, `--columns` and the delimited formats.

pub mod jq;
pub mod memory;

/// The columns by path and the delimited formats' writer, shared with the TUI's `:export`.
pub use crate::out::{columns, delimited};

use std::io::{IsTerminal, Write};

use super::Failure;

/// Compiles `--jq` for stdout, if given (a bad expression is a usage error, exit 2).
pub fn compile_jq(expr: Option<&str>) -> Result<Option<jq::Jq>, Failure> {
    expr.map(|e| jq::Jq::compile(e, std::io::stdout().is_terminal()))
        .transpose()
        .map_err(Failure::Usage)
}

/// Writes `value` through `--jq`: one result a line.
pub fn write_jq(
    jq: &jq::Jq,
    value: &serde_json::Value,
    out: &mut impl Write,
) -> Result<(), Failure> {
    jq.run_value(value, out).map_err(jq_failure)?;
    Ok(out.flush()?)
}

/// A `--jq` failure: an output error stays one, anything else is the expression's (exit 2).
pub fn jq_failure(error: jq::JqError) -> Failure {
    match error {
        jq::JqError::Output(e) => Failure::Output(e),
        other => Failure::Usage(other.to_string()),
    }
}
