//! `appdeck validate`: offline checks of a report or connect payload, and the wording of findings
//! shared with `report` and `connect`, which run the same checks before sending.

use std::io::Write;

use super::args::ValidateArgs;
use super::{Failure, input};
use crate::sanitize;
use crate::validate::{self as checks, Finding, Severity, ValidateError, Validation};

/// `types` are the global `--types` files; validate checks a report against one of them.
pub fn run(
    args: &ValidateArgs,
    types: &[std::path::PathBuf],
    out: &mut impl Write,
) -> Result<(), Failure> {
    if types.len() > 1 {
        return Err(Failure::Usage(
            "validate takes one --types file (the connect payload defining the report's type)"
                .to_owned(),
        ));
    }
    let payload = input::read(&args.file)?;
    let types = types.first().map(|p| input::read(p)).transpose()?;
    let validation = checks::validate_text(&payload.text, types.as_ref().map(|t| t.text.as_str()))
        .map_err(|e| {
            let types_name = types.as_ref().map_or("--types", |t| t.name.as_str());
            Failure::Invalid(describe(&e, &payload.name, types_name))
        })?;
    writeln!(out, "kind: {}", validation.kind)?;
    for finding in &validation.findings {
        writeln!(out, "{}", finding_line(finding))?;
    }
    writeln!(out, "{}", summary(&validation))?;
    out.flush()?;
    if validation.has_errors() {
        Err(Failure::Reported(2))
    } else {
        Ok(())
    }
}

/// `error at /pointer: message`, or without `at` for the payload as a whole (already sanitised
/// by the validation module, whose `Display` this is).
pub fn finding_line(finding: &Finding) -> String {
    finding.to_string()
}

/// `valid: no errors, 1 warning` or `invalid: 2 errors, no warnings`.
pub fn summary(validation: &Validation) -> String {
    let count = |wanted: fn(&Severity) -> bool| {
        validation
            .findings
            .iter()
            .filter(|f| wanted(&f.severity))
            .count()
    };
    let errors = count(|s| matches!(s, Severity::Error));
    let warnings = count(|s| matches!(s, Severity::Warning));
    let verdict = if validation.has_errors() {
        "invalid"
    } else {
        "valid"
    };
    format!(
        "{verdict}: {}, {}",
        plural(errors, "error"),
        plural(warnings, "warning")
    )
}

fn plural(n: usize, what: &str) -> String {
    match n {
        0 => format!("no {what}s"),
        1 => format!("1 {what}"),
        n => format!("{n} {what}s"),
    }
}

/// A payload that could not be checked at all: where and why, compiler style for syntax errors.
pub fn describe(error: &ValidateError, name: &str, types_name: &str) -> String {
    match error {
        ValidateError::Syntax {
            line,
            column,
            message,
        } => format!(
            "{name}:{line}:{column}: syntax error: {}",
            sanitize::line(message)
        ),
        ValidateError::Types(message) => {
            format!("{types_name}: {}", sanitize::line(message))
        }
        other => format!("{name}: {}", sanitize::line(&other.to_string())),
    }
}
