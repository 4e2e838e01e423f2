//! `appdeck validate`: offline checks of a report or connect payload, and the wording of findings
//! shared with `report` and `connect`, which run the same checks before sending.

use std::io::Write;

use serde_json::{Value, json};

use super::args::{ValidateArgs, ValidateOutput};
use super::{Failure, input};
use crate::sanitize;
use crate::validate::{self as checks, Finding, PayloadKind, Severity, ValidateError, Validation};

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
    if args.files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
        return Err(Failure::Usage(
            "- (stdin) is given more than once: stdin can be read once only".to_owned(),
        ));
    }
    let types = types.first().map(|p| input::read(p)).transpose()?;
    let several = args.files.len() > 1;
    let mut failed = false;
    let mut results = Vec::new();
    for file in &args.files {
        let checked = check_file(file, types.as_ref());
        failed |= checked.has_errors();
        match args.output {
            ValidateOutput::Json => results.push(checked.to_json()),
            // One file only: the error is the command's, as before.
            ValidateOutput::Text if !several && checked.failure.is_some() => {
                if let Some(failure) = checked.failure {
                    return Err(failure);
                }
            }
            ValidateOutput::Text => write_text(&checked, several, out)?,
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

/// One file's block: its name (when there are several), kind, findings and verdict; why it could
/// not be checked goes to stderr too, as the error of a command.
fn write_text(checked: &Checked, several: bool, out: &mut impl Write) -> Result<(), Failure> {
    if several {
        writeln!(out, "{}:", checked.name)?;
    }
    match checked.kind {
        Some(kind) => writeln!(out, "kind: {kind}")?,
        None => writeln!(out, "kind: unknown")?,
    }
    for finding in &checked.findings {
        writeln!(out, "{}", finding_line(finding))?;
    }
    writeln!(out, "{}", summary_of(&checked.findings))?;
    if let Some(failure) = &checked.failure {
        out.flush()?;
        eprintln!("appdeck: {failure}");
    }
    Ok(())
}

/// What came of one file: checked, or why it could not be (then its kind is unknown, and the
/// reason is its one finding, so that every result has the same shape).
struct Checked {
    /// The file as shown: its path as given, or `stdin`.
    name: String,
    /// `None` when it cannot be told.
    kind: Option<PayloadKind>,
    findings: Vec<Finding>,
    /// Why the file could not be checked at all (unreadable, not JSON, of no known kind).
    failure: Option<Failure>,
}

impl Checked {
    fn has_errors(&self) -> bool {
        self.failure.is_some() || self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// `{"file", "kind", "valid", "findings"}`, whatever came of the file; `kind` is `null`
    /// when it cannot be told.
    fn to_json(&self) -> Value {
        json!({
            "file": self.name,
            "kind": self.kind,
            "valid": !self.has_errors(),
            "findings": self.findings,
        })
    }
}

/// Reads and checks one file.
fn check_file(file: &std::path::Path, types: Option<&input::Input>) -> Checked {
    let name = if file.as_os_str() == "-" {
        "stdin".to_owned()
    } else {
        file.display().to_string()
    };
    let checked = input::read(file).and_then(|payload| {
        checks::validate_text(&payload.text, types.map(|t| t.text.as_str())).map_err(|e| {
            let types_name = types.map_or("--types", |t| t.name.as_str());
            Failure::Invalid(describe(&e, &payload.name, types_name))
        })
    });
    match checked {
        Ok(validation) => Checked {
            name,
            kind: Some(validation.kind),
            findings: validation.findings,
            failure: None,
        },
        Err(failure) => Checked {
            name,
            kind: None,
            findings: vec![Finding::error("", failure.to_string())],
            failure: Some(failure),
        },
    }
}

/// `error at /pointer: message`, or without `at` for the payload as a whole (already sanitised
/// by the validation module, whose `Display` this is).
pub fn finding_line(finding: &Finding) -> String {
    finding.to_string()
}

/// `valid: no errors, 1 warning` or `invalid: 2 errors, no warnings`.
pub fn summary(validation: &Validation) -> String {
    summary_of(&validation.findings)
}

fn summary_of(findings: &[Finding]) -> String {
    let count =
        |wanted: fn(&Severity) -> bool| findings.iter().filter(|f| wanted(&f.severity)).count();
    let errors = count(|s| matches!(s, Severity::Error));
    let warnings = count(|s| matches!(s, Severity::Warning));
    let verdict = if errors > 0 { "invalid" } else { "valid" };
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
