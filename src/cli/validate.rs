//! `appdeck validate`: offline checks of a report or connect payload, and the wording of findings
//! shared with `report` and `connect`, which run the same checks before sending.

use std::io::Write;

use serde_json::{Value, json};

use super::args::{ValidateArgs, ValidateOutput};
use super::{Failure, input};
use crate::sanitize;
use crate::validate::{self as checks, Finding, Severity, ValidateError, Validation};

/// `types` are the `--types` files; validate checks a report against one of them. Each file is
/// checked on its own; the exit status is 2 when any has an error or cannot be checked.
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
    let types = types.first().map(|p| input::read(p)).transpose()?;
    let several = args.files.len() > 1;
    let mut failed = false;
    let mut results = Vec::new();
    for file in &args.files {
        let checked = check_file(file, types.as_ref());
        failed |= !matches!(&checked, Ok((_, v)) if !v.has_errors());
        match args.output {
            ValidateOutput::Json => results.push(as_json(file, &checked)),
            ValidateOutput::Text => match checked {
                Ok((name, validation)) => {
                    if several {
                        writeln!(out, "{name}:")?;
                    }
                    writeln!(out, "kind: {}", validation.kind)?;
                    for finding in &validation.findings {
                        writeln!(out, "{}", finding_line(finding))?;
                    }
                    writeln!(out, "{}", summary(&validation))?;
                }
                // One file only: the error is the command's, as before.
                Err(failure) if !several => return Err(failure),
                Err(failure) => {
                    out.flush()?;
                    eprintln!("appdeck: {failure}");
                }
            },
        }
    }
    if args.output == ValidateOutput::Json {
        let text = serde_json::to_string_pretty(&results).map_err(std::io::Error::from)?;
        writeln!(out, "{}", sanitize::json_for_terminal(&text))?;
    }
    out.flush()?;
    if failed {
        Err(Failure::Reported(2))
    } else {
        Ok(())
    }
}

/// Reads and checks one file: its name as shown, and its findings.
fn check_file(
    file: &std::path::Path,
    types: Option<&input::Input>,
) -> Result<(String, Validation), Failure> {
    let payload = input::read(file)?;
    let validation =
        checks::validate_text(&payload.text, types.map(|t| t.text.as_str())).map_err(|e| {
            let types_name = types.map_or("--types", |t| t.name.as_str());
            Failure::Invalid(describe(&e, &payload.name, types_name))
        })?;
    Ok((payload.name, validation))
}

fn as_json(file: &std::path::Path, checked: &Result<(String, Validation), Failure>) -> Value {
    match checked {
        Ok((name, validation)) => json!({
            "file": name,
            "kind": validation.kind,
            "valid": !validation.has_errors(),
            "findings": validation.findings,
        }),
        Err(failure) => json!({
            "file": file.display().to_string(),
            "valid": false,
            "error": failure.to_string(),
        }),
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
