//! Shaping what a command prints for scripts: `--jq`, `--columns` and the delimited formats.

pub mod jq;
pub mod memory;

/// The columns by path and the delimited formats' writer, shared with the TUI's `:export`.
pub use crate::out::{columns, delimited};

use std::io::{IsTerminal, Write};

use super::Failure;

/// Reads `--columns`: paths in place of the default columns (`id,properties.stars`), or, when a
/// word starts with `+` or `-`, the default columns with paths added and columns removed as the
/// TUI's `:columns` takes them, by its parser (`+properties.language,-external_id`).
pub fn chosen_columns(spec: &str) -> Result<Vec<columns::ColumnPath>, String> {
    let words: Vec<&str> = spec
        .split([',', ' '])
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .collect();
    if !words.iter().any(|w| w.starts_with(['+', '-'])) {
        return columns::parse(spec);
    }
    let choice = appdeck_listing::ColumnChoice::default()
        .apply(&words.join(" "))
        .map_err(|e| format!("--columns {spec:?}: {}", e.replace(":columns", "--columns")))?;
    Ok(choice.export_columns())
}

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
