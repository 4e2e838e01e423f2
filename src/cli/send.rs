//! `appdeck report` and `appdeck connect`: the payload is checked offline first and is not sent
//! when it is broken (exit 2), so the service only ever sees payloads that make sense.

use std::io::Write;

use super::args::{AnswerOutput, GlobalArgs, SendArgs};
use super::validate::{describe, finding_line, summary};
use super::{Failure, input};
use crate::api::{Field, Operation, ReportResponse};
use crate::sanitize;
use crate::validate::{self as checks, PayloadKind};

pub async fn run(
    global: &GlobalArgs,
    args: &SendArgs,
    operation: Operation,
) -> Result<(), Failure> {
    let payload = input::read(&args.file)?;
    let invalid =
        |e: checks::ValidateError| Failure::Invalid(describe(&e, &payload.name, "--types"));
    let value = checks::parse_json(&payload.text).map_err(invalid)?;
    let validation = checks::validate_value(&value, None).map_err(invalid)?;
    check_kind(&validation.kind, operation, &payload.name)?;
    for finding in &validation.findings {
        eprintln!("appdeck: {}", finding_line(finding));
    }
    if args.curl {
        // Printed even with findings: people test how the service reacts to a broken payload.
        let (settings, _) = super::client_settings(global)?;
        let line = crate::api::curl::command(&settings.base_url, operation, &value);
        let mut out = std::io::stdout().lock();
        writeln!(out, "{}", sanitize::json_for_terminal(&line))?;
        out.flush()?;
        return Ok(());
    }
    if validation.has_errors() {
        return Err(Failure::Invalid(format!(
            "{}: not sent ({})",
            payload.name,
            summary(&validation)
        )));
    }

    let client = super::connect(global)?;
    let answer = client.send(operation, &value).await?;
    let mut out = std::io::stdout().lock();
    match args.output {
        AnswerOutput::Json => {
            let json = serde_json::to_string_pretty(&answer.raw).map_err(std::io::Error::from)?;
            writeln!(out, "{}", sanitize::json_for_terminal(&json))?;
        }
        AnswerOutput::Text => {
            for line in answer_lines(&answer.response) {
                writeln!(out, "{line}")?;
            }
        }
    }
    out.flush()?;
    // The answer is printed first, even a refusal, so that what the service said is on stdout.
    match answer.rejection() {
        Some(refusal) => Err(Failure::Api(refusal)),
        None => Ok(()),
    }
}

/// A report sent to `connect` (or the reverse) would only be refused by the service.
fn check_kind(kind: &PayloadKind, operation: Operation, name: &str) -> Result<(), Failure> {
    let command = match (kind, operation) {
        (PayloadKind::Report, Operation::OperationsReport)
        | (PayloadKind::Connect, Operation::VersionConnect) => return Ok(()),
        (PayloadKind::Report, _) => "report",
        (PayloadKind::Connect, _) => "connect",
    };
    Err(Failure::Invalid(format!(
        "{name} is a {command} payload: send it with `appdeck {command}`"
    )))
}

/// `status`, `message`, `platform_app_url` and `error` as `key: value` lines, those present only.
fn answer_lines(response: &ReportResponse) -> Vec<String> {
    let url = response
        .metadata
        .get()
        .map_or(&Field::Absent, |m| &m.platform_app_url);
    [
        ("status", &response.status),
        ("message", &response.message),
        ("platform_app_url", url),
        ("error", &response.error),
    ]
    .into_iter()
    .filter_map(|(key, field)| shown(field).map(|v| format!("{key}: {v}")))
    .collect()
}

/// A field's value safe for one line; a value of an unexpected type is shown as its JSON.
fn shown(field: &Field<String>) -> Option<String> {
    match field {
        Field::Valid(s) => Some(sanitize::line(s).into_owned()),
        Field::Invalid(v) => Some(sanitize::line(&v.to_string()).into_owned()),
        Field::Absent | Field::Null => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn response(value: Value) -> ReportResponse {
        ReportResponse::from_map(value.as_object().cloned().unwrap_or_default())
    }

    #[test]
    fn the_answer_is_shown_as_key_value_lines() {
        let r = response(json!({
            "status": "ok", "message": "saved\u{1b}[2J",
            "metadata": {"platform_app_url": "https://x/r/1"}, "error": null
        }));
        assert_eq!(
            answer_lines(&r),
            vec![
                "status: ok",
                "message: saved␛[2J",
                "platform_app_url: https://x/r/1"
            ]
        );
    }

    #[test]
    fn a_payload_of_the_other_kind_is_refused() {
        assert!(check_kind(&PayloadKind::Report, Operation::OperationsReport, "r").is_ok());
        let err = check_kind(&PayloadKind::Connect, Operation::OperationsReport, "c.json")
            .unwrap_err()
            .to_string();
        assert!(err.contains("appdeck connect"), "{err}");
    }
}
