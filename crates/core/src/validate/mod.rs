//! Offline checks behind `appdeck validate`: a task report or a version-connect payload is checked
//! before it is sent, so that a mistake is found with its JSON pointer instead of as a terse answer
//! from the service (or none at all).
//!
//! The kind of payload is told from its top-level fields ([`detect_kind`]). Hard failures (the text
//! is not JSON, the kind cannot be told, the `--types` file is unusable) are [`ValidateError`]s;
//! everything else is a [`Finding`], an error or a warning, and all findings are collected rather
//! than stopping at the first. Every message is sanitised: payload text may be hostile.

mod common;
mod connect;
mod duplicates;
mod nulls;
mod report;
mod syntax;

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::api::field::json_type_name;
use crate::sanitize;

pub use common::is_rfc3339;
pub use connect::{PLACEHOLDER_APP_ID, PLACEHOLDER_VERSION};
pub use duplicates::duplicate_keys;
pub use nulls::{connect_nulls, report_nulls};
pub use report::type_schema;
pub use syntax::{Stopped, parse_json, parse_or_finding};

/// What a payload is, told from its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PayloadKind {
    /// A body for `apps.operations.report`.
    Report,
    /// A body for `apps.version.connect`.
    Connect,
}

impl PayloadKind {
    /// The operation that takes this kind.
    pub fn operation(self) -> &'static str {
        match self {
            PayloadKind::Report => "apps.operations.report",
            PayloadKind::Connect => "apps.version.connect",
        }
    }

    /// The command that sends this kind: `appdeck report` in the CLI, `:report` in the TUI.
    pub fn command(self) -> &'static str {
        match self {
            PayloadKind::Report => "report",
            PayloadKind::Connect => "connect",
        }
    }
}

/// Why a payload of kind `found` is refused where one of kind `expected` is sent, in the words
/// of every place that refuses it (`appdeck report` and `connect`, `report --each`, the TUI's
/// connect composer): what it is, who would refuse it, and how to send it instead.
pub fn wrong_kind(found: PayloadKind, expected: PayloadKind) -> String {
    let command = found.command();
    format!(
        "this is a {found}, not a {expected}: {} refuses it; send it with `appdeck {command}` \
         (`:{command}` in the TUI)",
        expected.operation()
    )
}

impl fmt::Display for PayloadKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PayloadKind::Report => "task report",
            PayloadKind::Connect => "version-connect payload",
        })
    }
}

/// How bad a finding is: errors make `appdeck validate` fail, warnings are advice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One problem found in a payload.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub severity: Severity,
    /// JSON pointer of the offending value; `""` means the whole document.
    pub pointer: String,
    pub message: String,
}

impl Finding {
    /// Both parts are sanitised here, once, since pointers carry keys from the payload too.
    fn new(severity: Severity, pointer: &str, message: &str) -> Self {
        Finding {
            severity,
            pointer: sanitize::line(pointer).into_owned(),
            message: sanitize::line(message).into_owned(),
        }
    }

    pub fn error(pointer: &str, message: impl AsRef<str>) -> Self {
        Finding::new(Severity::Error, pointer, message.as_ref())
    }

    pub fn warning(pointer: &str, message: impl AsRef<str>) -> Self {
        Finding::new(Severity::Warning, pointer, message.as_ref())
    }
}

/// Sanitises again when shown: the fields are public, so a finding built by hand (not through
/// [`Finding::error`]) may hold raw payload keys; for one already clean this costs a scan only.
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = sanitize::line(&self.message);
        if self.pointer.is_empty() {
            write!(f, "{}: {message}", self.severity)
        } else {
            let pointer = sanitize::line(&self.pointer);
            write!(f, "{} at {pointer}: {message}", self.severity)
        }
    }
}

/// The outcome of checking a payload that could be read: its kind and every finding, in document order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Validation {
    pub kind: PayloadKind,
    pub findings: Vec<Finding>,
}

impl Validation {
    /// Whether the payload should not be sent as it is (warnings alone do not count).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(|f| f.severity == Severity::Error)
    }

    /// Adds a warning for each key written twice in one object of `text`, the payload as written:
    /// the parsed value kept the last one only, so only the text can tell. `validate` and every
    /// send (`report`, each line of `report --each`, `connect`, and their `--curl`) call this, so
    /// that they word it the same way.
    pub fn note_duplicate_keys(&mut self, text: &str) {
        self.findings.extend(duplicate_key_findings(text));
    }
}

/// The warnings [`Validation::note_duplicate_keys`] adds, for a text checked apart from the
/// payload it is part of (the TUI's report composer checks the resource's text so).
pub fn duplicate_key_findings(text: &str) -> impl Iterator<Item = Finding> {
    duplicates::duplicate_keys(text)
        .into_iter()
        .map(|(object, key)| {
            Finding::warning(
                &object,
                format!(
                    "the key {} appears more than once in this object: only the last one is read, \
                 the others are lost",
                    common::quote(&key)
                ),
            )
        })
}

/// Why a payload could not be checked at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValidateError {
    /// The text is not JSON. Line and column are 1-based; the column counts characters.
    #[error("JSON syntax error at line {line}, column {column}: {message}")]
    Syntax {
        line: usize,
        column: usize,
        message: String,
    },
    /// Valid JSON that the parser cannot hold (nested too deep, a lone surrogate): not a syntax
    /// error, so not called one. The message says where and why.
    #[error("{0}")]
    Unreadable(String),
    /// Neither a task report nor a version-connect payload (or both at once).
    #[error("{0}")]
    UnknownKind(String),
    /// The `--types` file cannot serve as the list of resource types.
    #[error("{0}")]
    Types(String),
}

/// Fields that mark a task report, and a version-connect payload.
const REPORT_MARKERS: &[&str] = &["task_id", "response"];
const CONNECT_MARKERS: &[&str] = &["app_id", "version", "resources"];

/// Tells a task report (`task_id` or `response`) from a version-connect payload (`app_id`,
/// `version` or `resources`). A payload with marks of both, or of neither, is refused rather than
/// guessed at, since checking it as the wrong kind would only produce noise.
pub fn detect_kind(value: &Value) -> Result<PayloadKind, ValidateError> {
    const HOW: &str = "a task report has `task_id` or `response`; \
                       a version-connect payload has `app_id`, `version` or `resources`";
    let Value::Object(map) = value else {
        return Err(ValidateError::UnknownKind(format!(
            "expected a JSON object (a task report or a version-connect payload), found {}",
            json_type_name(value)
        )));
    };
    let present = |markers: &[&str]| -> Vec<String> {
        markers
            .iter()
            .filter(|m| map.contains_key(**m))
            .map(|m| format!("`{m}`"))
            .collect()
    };
    let (report, connect) = (present(REPORT_MARKERS), present(CONNECT_MARKERS));
    match (report.is_empty(), connect.is_empty()) {
        (false, true) => Ok(PayloadKind::Report),
        (true, false) => Ok(PayloadKind::Connect),
        (true, true) => Err(ValidateError::UnknownKind(format!(
            "cannot tell what this payload is: {HOW}, and this object has none of those fields"
        ))),
        (false, false) => Err(ValidateError::UnknownKind(format!(
            "cannot tell what this payload is: it has fields of a task report ({}) and of a \
             version-connect payload ({}); {HOW}, never both",
            report.join(", "),
            connect.join(", ")
        ))),
    }
}

/// Checks a payload already parsed. `types` is a version-connect payload whose types a report's
/// resource is checked against; it is ignored, with a warning, when the payload is itself a
/// version-connect payload (there is nothing in it to check against types).
pub fn validate_value(value: &Value, types: Option<&Value>) -> Result<Validation, ValidateError> {
    let kind = detect_kind(value)?;
    let index = match (kind, types) {
        (PayloadKind::Report, Some(types)) => Some(report::TypeIndex::from_connect(types)?),
        _ => None,
    };
    Ok(check(value, kind, index.as_ref(), types.is_some()))
}

/// Checks a payload sent with a command that names its kind (`appdeck report`, `appdeck
/// connect`, the composers). A payload with the marks of neither kind, or of both, is checked as
/// `expected`, so that the findings list the fields it lacks; one with the marks of the other
/// kind only is told as that kind with one error saying so (its own rules may all pass, and the
/// service would still refuse it), for every caller to refuse the same way.
pub fn validate_as(value: &Value, expected: PayloadKind) -> Result<Validation, ValidateError> {
    let kind = match detect_kind(value) {
        Ok(kind) => kind,
        Err(ValidateError::UnknownKind(_)) if value.is_object() => expected,
        Err(other) => return Err(other),
    };
    if kind != expected {
        return Ok(Validation {
            kind,
            findings: vec![Finding::error("", wrong_kind(kind, expected))],
        });
    }
    Ok(check(value, kind, None, false))
}

/// Parses and checks a payload; `types` is the text of the `--types` file, parsed only when it is
/// used (for a task report).
pub fn validate_text(text: &str, types: Option<&str>) -> Result<Validation, ValidateError> {
    let value = parse_json(text)?;
    let kind = detect_kind(&value)?;
    let types_value = match (kind, types) {
        (PayloadKind::Report, Some(text)) => Some(parse_json(text).map_err(|e| match e {
            ValidateError::Syntax {
                line,
                column,
                message,
            } => ValidateError::Types(format!(
                "the --types file is not valid JSON: syntax error at line {line}, column {column}: {message}"
            )),
            other => other,
        })?),
        _ => None,
    };
    let index = types_value
        .as_ref()
        .map(report::TypeIndex::from_connect)
        .transpose()?;
    let mut validation = check(&value, kind, index.as_ref(), types.is_some());
    validation.note_duplicate_keys(text);
    Ok(validation)
}

fn check(
    value: &Value,
    kind: PayloadKind,
    types: Option<&report::TypeIndex<'_>>,
    types_given: bool,
) -> Validation {
    let mut findings = Vec::new();
    let Value::Object(map) = value else {
        // detect_kind has refused anything else already.
        return Validation { kind, findings };
    };
    match kind {
        PayloadKind::Report => report::check(map, types, &mut findings),
        PayloadKind::Connect => {
            if types_given {
                findings.push(Finding::warning(
                    "",
                    "--types is ignored: it gives the types a task report's resource is checked \
                     against, and this is a version-connect payload",
                ));
            }
            connect::check(map, &mut findings);
        }
    }
    let nulls = match kind {
        PayloadKind::Report => report_nulls(map),
        PayloadKind::Connect => connect_nulls(map),
    };
    for pointer in nulls {
        // A required field given null has its error already ("expected a string, found null").
        if !findings.iter().any(|f| f.pointer == pointer) {
            findings.push(Finding::error(
                &pointer,
                "null where the spec gives a value (the service refuses it): leave the field out",
            ));
        }
    }
    Validation { kind, findings }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Issue 20 item 14: a key written twice in a report was read silently as the last one.
    #[test]
    fn a_key_written_twice_is_a_warning_at_its_object() {
        let report = r#"{"task_id": "t", "status": "error", "message": "broke",
            "response": {"response_type": "resource",
                "resource": {"type": "a", "external_id": "1", "name": "x", "name": "y"}},
            "status": "ok"}"#;
        let v = validate_text(report, None).unwrap();
        let repeated: Vec<&Finding> = v
            .findings
            .iter()
            .filter(|f| f.message.contains("more than once"))
            .collect();
        assert_eq!(repeated.len(), 2, "{:?}", v.findings);
        assert_eq!(repeated[0].pointer, "/response/resource");
        assert!(repeated[0].message.contains("\"name\""), "{repeated:?}");
        assert_eq!(repeated[1].pointer, "");
        assert!(repeated[1].message.contains("\"status\""), "{repeated:?}");
        assert!(repeated.iter().all(|f| f.severity == Severity::Warning));
    }

    #[test]
    fn kind_is_told_from_the_fields() {
        assert_eq!(
            detect_kind(&json!({"task_id": "t"})),
            Ok(PayloadKind::Report)
        );
        assert_eq!(
            detect_kind(&json!({"response": {}})),
            Ok(PayloadKind::Report)
        );
        assert_eq!(
            detect_kind(&json!({"resources": []})),
            Ok(PayloadKind::Connect)
        );
        assert_eq!(
            detect_kind(&json!({"version": "1"})),
            Ok(PayloadKind::Connect)
        );
    }

    #[test]
    fn ambiguous_or_foreign_payloads_are_refused_with_the_rule() {
        let Err(ValidateError::UnknownKind(both)) =
            detect_kind(&json!({"task_id": "t", "app_id": "a"}))
        else {
            panic!("both kinds should be refused")
        };
        assert!(both.contains("`task_id`") && both.contains("`app_id`"));
        let Err(ValidateError::UnknownKind(neither)) = detect_kind(&json!({"status": "ok"})) else {
            panic!("no marker should be refused")
        };
        assert!(neither.contains("task_id") && neither.contains("app_id"));
        let Err(ValidateError::UnknownKind(array)) = detect_kind(&json!([1])) else {
            panic!("an array should be refused")
        };
        assert!(array.contains("found an array"));
    }

    #[test]
    fn a_payload_of_a_named_kind_lists_the_fields_it_lacks() {
        let report = validate_as(&json!({}), PayloadKind::Report).unwrap();
        assert_eq!(report.kind, PayloadKind::Report);
        let pointers: Vec<&str> = report.findings.iter().map(|f| f.pointer.as_str()).collect();
        assert!(
            pointers.contains(&"/task_id") && pointers.contains(&"/response"),
            "{pointers:?}"
        );
        let connect = validate_as(&json!({"status": "ok"}), PayloadKind::Connect).unwrap();
        let pointers: Vec<&str> = connect
            .findings
            .iter()
            .map(|f| f.pointer.as_str())
            .collect();
        assert!(
            pointers.contains(&"/app_id") && pointers.contains(&"/resources"),
            "{pointers:?}"
        );
        // Marks of the other kind only: told as that kind, for the caller to refuse.
        let other = validate_as(&json!({"app_id": "a"}), PayloadKind::Report).unwrap();
        assert_eq!(other.kind, PayloadKind::Connect);
        assert!(other.has_errors(), "{other:?}");
        assert!(validate_as(&json!([]), PayloadKind::Report).is_err());
    }

    /// One wording for a payload of the other kind, which the CLI and the TUI take from here.
    #[test]
    fn a_payload_of_the_other_kind_is_told_how_to_be_sent() {
        let other = validate_as(&json!({"app_id": "a"}), PayloadKind::Report).unwrap();
        let messages: Vec<&str> = other.findings.iter().map(|f| f.message.as_str()).collect();
        let said = wrong_kind(PayloadKind::Connect, PayloadKind::Report);
        assert_eq!(messages, [said.as_str()]);
        assert_eq!(
            said,
            "this is a version-connect payload, not a task report: apps.operations.report \
             refuses it; send it with `appdeck connect` (`:connect` in the TUI)"
        );
        assert_eq!(
            wrong_kind(PayloadKind::Report, PayloadKind::Connect),
            "this is a task report, not a version-connect payload: apps.version.connect \
             refuses it; send it with `appdeck report` (`:report` in the TUI)"
        );
    }

    #[test]
    fn findings_display_with_and_without_a_pointer() {
        assert_eq!(
            Finding::error("/a/b", "bad").to_string(),
            "error at /a/b: bad"
        );
        assert_eq!(Finding::warning("", "meh").to_string(), "warning: meh");
        assert_eq!(PayloadKind::Report.to_string(), "task report");
        assert_eq!(PayloadKind::Connect.to_string(), "version-connect payload");
    }

    #[test]
    fn findings_are_sanitised() {
        let f = Finding::error("/properties/a\u{1b}[2J", "x\u{1b}]0;t\u{7}");
        assert_eq!(f.pointer, "/properties/a␛[2J");
        assert_eq!(f.message, "x␛]0;t␇");
    }

    #[test]
    fn a_finding_built_by_hand_is_sanitised_when_shown() {
        let f = Finding {
            severity: Severity::Error,
            pointer: "/properties/\u{1b}]0;t\u{7}\u{202e}".to_owned(),
            message: "bad\u{9b}2J".to_owned(),
        };
        assert_eq!(f.to_string(), "error at /properties/␛]0;t␇�: bad�2J");
    }

    #[test]
    fn only_errors_count_as_errors() {
        let mut v = Validation {
            kind: PayloadKind::Report,
            findings: vec![Finding::warning("", "w")],
        };
        assert!(!v.has_errors());
        v.findings.push(Finding::error("", "e"));
        assert!(v.has_errors());
    }

    #[test]
    fn types_are_ignored_with_a_warning_for_a_connect_payload() {
        let connect = json!({"app_id": "a", "version": "1", "resources": []});
        let v = validate_value(&connect, Some(&json!({"task_id": "x"}))).unwrap();
        assert_eq!(v.kind, PayloadKind::Connect);
        assert!(
            v.findings.iter().any(
                |f| f.severity == Severity::Warning && f.message.contains("--types is ignored")
            )
        );
        // Not even parsed, since it is not used.
        let v = validate_text(&connect.to_string(), Some("{not json")).unwrap();
        assert!(v.findings[0].message.contains("--types is ignored"));
    }

    #[test]
    fn an_unusable_types_file_is_a_types_error() {
        let report = r#"{"task_id": "t", "status": "ok", "response": {"resource": {"type": "x"}}}"#;
        let Err(ValidateError::Types(m)) =
            validate_text(report, Some("{\n  \"app_id\": 1,\n  oops"))
        else {
            panic!("syntax error in --types")
        };
        assert!(
            m.contains("--types") && m.contains("line 3, column 3"),
            "{m}"
        );
        let Err(ValidateError::Types(m)) = validate_text(report, Some(report)) else {
            panic!("a report as --types")
        };
        assert!(m.contains("task report"), "{m}");
        let Err(ValidateError::Types(m)) = validate_value(
            &serde_json::from_str(report).unwrap(),
            Some(&json!({"app_id": "a", "resources": {}})),
        ) else {
            panic!("resources not an array")
        };
        assert!(m.contains("`resources`"), "{m}");
    }

    #[test]
    fn syntax_errors_of_the_payload_come_first() {
        assert!(matches!(
            validate_text("{", None),
            Err(ValidateError::Syntax { line: 1, .. })
        ));
        assert!(matches!(
            validate_text("{}", None),
            Err(ValidateError::UnknownKind(_))
        ));
    }
}
