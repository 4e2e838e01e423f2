//! `appdeck diff OLD NEW`: the changes between two connect payloads by the breaking rule of
//! [`crate::diff`], breaking ones first. Exit 0 when nothing breaks, 3 when something does (or
//! may), 2 when an input is unusable.

use std::io::Write;
use std::path::Path;

use serde_json::{Value, json};

use super::args::{DiffArgs, DiffOutput};
use super::validate::{describe, finding_line, summary};
use super::{Failure, input};
use crate::diff::{self, Changes};
use crate::sanitize;
use crate::validate::{self as checks, PayloadKind};

/// The exit status when something breaks.
pub const BREAKING_STATUS: u8 = 3;

pub fn run(args: &DiffArgs, out: &mut impl Write) -> Result<(), Failure> {
    if args.old == Path::new("-") && args.new == Path::new("-") {
        return Err(Failure::Usage(
            "OLD and NEW cannot both be stdin (-)".to_owned(),
        ));
    }
    let old = read_connect(&args.old)?;
    let new = read_connect(&args.new)?;
    let changes = diff::compare(&old, &new);
    match args.output {
        DiffOutput::Text => write_text(&changes, out)?,
        DiffOutput::Json => {
            let body =
                json!({"breaking": changes.has_breaking(), "changes": changes.in_review_order()});
            let text = serde_json::to_string_pretty(&body).map_err(std::io::Error::from)?;
            writeln!(out, "{}", sanitize::json_for_terminal(&text))?;
        }
    }
    out.flush()?;
    if changes.has_breaking() {
        Err(Failure::Reported(BREAKING_STATUS))
    } else {
        Ok(())
    }
}

/// Reads a payload and insists that it is a valid connect payload: comparing anything else would
/// only produce noise. The findings go to stderr.
fn read_connect(path: &Path) -> Result<Value, Failure> {
    let payload = input::read(path)?;
    let invalid =
        |e: checks::ValidateError| Failure::Invalid(describe(&e, &payload.name, "--types"));
    let value = checks::parse_json(&payload.text).map_err(invalid)?;
    let validation = checks::validate_value(&value, None).map_err(invalid)?;
    if validation.kind != PayloadKind::Connect {
        return Err(Failure::Invalid(format!(
            "{}: this is a {}, not a version-connect payload",
            sanitize::line(&payload.name),
            validation.kind
        )));
    }
    if validation.has_errors() {
        for finding in &validation.findings {
            eprintln!("appdeck: {}", finding_line(finding));
        }
        return Err(Failure::Invalid(format!(
            "{}: not compared ({})",
            sanitize::line(&payload.name),
            summary(&validation)
        )));
    }
    Ok(value)
}

/// A summary line, then one line per change: `BREAKING /path (subject): reason`.
pub(super) fn write_text(changes: &Changes, out: &mut impl Write) -> std::io::Result<()> {
    let breaking = changes.breaking().count();
    let other = changes.changes.len() - breaking;
    let verdict = if breaking > 0 {
        "breaking"
    } else {
        "not breaking"
    };
    writeln!(
        out,
        "{verdict}: {breaking} breaking or of unknown effect, {other} not breaking"
    )?;
    for change in changes.in_review_order() {
        writeln!(
            out,
            "{:<8} {} ({}): {}",
            change.impact.label(),
            sanitize::line(&change.path),
            sanitize::line(&change.subject),
            sanitize::line(&change.reason)
        )?;
    }
    Ok(())
}
