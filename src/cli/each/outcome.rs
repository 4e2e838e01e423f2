//! One line of `report --each`: checked as `appdeck report FILE` checks a file, sent unless it
//! fails the checks (or with `--force`), and what came of it, as a result line.

use std::time::Instant;

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::lines::Line;
use crate::api::{Client, Operation};
use crate::cli::send::{check_kind, kind_of};
use crate::cli::validate::summary;
use crate::sanitize;
use crate::store::{SendKind, Sent};
use crate::validate::{self as checks, Severity, ValidateError};

/// How a line ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Sent, and the service took it (2xx, `status` not `error`).
    Accepted,
    /// Sent, and refused, or no answer (or one that could not be read) came.
    Failed,
    /// Not sent: not JSON, or it fails the checks (without `--force`).
    Skipped,
}

/// What came of one line.
#[derive(Debug)]
pub struct Outcome {
    pub line: u64,
    /// Bytes read up to the end of the line.
    pub end: u64,
    pub verdict: Verdict,
    /// The payload's `task_id` as written (its JSON text, compact), when it has one: the parsed
    /// value writes `1E2` back as `1e+2` and `\u202E` as the character.
    pub task_id: Option<String>,
    pub http_status: Option<u16>,
    /// The answer's body, parsed, when it was a JSON object.
    pub answer: Option<Value>,
    /// The same answer's text as it came: what the results print (the parsed value writes
    /// `1E400` back as `1e+400` and `\u202E` as the character).
    pub answer_text: Option<String>,
    /// Why the line was not accepted; for a line sent with `--force`, none of its findings.
    pub error: Option<String>,
    /// What to say on stderr about the line (warnings, a forced send).
    pub notes: Vec<String>,
    /// The send as recorded in the history; `None` when nothing was sent.
    pub sent: Option<Sent>,
}

impl Outcome {
    fn skipped(line: &Line, task_id: Option<String>, error: String, notes: Vec<String>) -> Self {
        Outcome {
            line: line.number,
            end: line.end,
            verdict: Verdict::Skipped,
            task_id,
            http_status: None,
            answer: None,
            answer_text: None,
            error: Some(error),
            notes,
            sent: None,
        }
    }

    /// The answer's `status`, as it came.
    pub fn status(&self) -> Option<&Value> {
        self.answer.as_ref()?.get("status")
    }

    /// The result as compact JSON text: `line`, `task_id`, `http_status`, `status`, `error`,
    /// `answer` (the last four `null` when there is none), in that order. The task id, the
    /// status and the answer are their text as it came.
    pub fn to_json_text(&self) -> String {
        let answer_text = self.answer_text.as_deref().filter(|t| !t.trim().is_empty());
        let status = match answer_text {
            Some(answer) => member(answer, "status").and_then(|s| RawValue::from_string(s).ok()),
            None => (self.status()).and_then(|s| serde_json::value::to_raw_value(s).ok()),
        };
        let answer = match answer_text {
            Some(answer) => crate::json_text::body(answer),
            None => (self.answer.as_ref()).and_then(|a| serde_json::value::to_raw_value(a).ok()),
        };
        let result = ResultJson {
            line: self.line,
            task_id: (self.task_id.clone()).and_then(|t| RawValue::from_string(t).ok()),
            http_status: self.http_status,
            status,
            error: self.error.as_deref(),
            answer,
        };
        // Numbers, strings and texts already JSON: nothing here fails to serialise.
        serde_json::to_string(&result).unwrap_or_default()
    }

    /// The result as one line of text, safe to print: `line 3: task-1: HTTP 200, status ok`,
    /// then the error when there is one. An HTTP error names its status itself (`HTTP 503
    /// Service Unavailable: busy`), and then the status is not said twice.
    pub fn to_text(&self) -> String {
        let mut text = format!("line {}:", self.line);
        let task_id = self.task_id.as_deref().map(|text| {
            // Not a string: as written (`1E2`).
            serde_json::from_str::<String>(text).map_err(|_| text)
        });
        match &task_id {
            None => {}
            // `line 7: : not sent` read as a line with nothing to say.
            Some(Ok(task_id)) if task_id.trim().is_empty() => {
                text.push_str(&format!(" task_id {task_id:?}:"));
            }
            Some(Ok(task_id)) => {
                text.push(' ');
                text.push_str(&sanitize::line(task_id));
                text.push(':');
            }
            Some(Err(written)) => {
                text.push(' ');
                text.push_str(&sanitize::line(written));
                text.push(':');
            }
        }
        let said = match self.verdict {
            Verdict::Skipped => match self.error.as_deref() {
                Some(error) => format!("not sent: {}", sanitize::line(error)),
                None => "not sent".to_owned(),
            },
            _ => {
                let status = self.status().map(shown);
                crate::answer_words::answer_words(
                    self.http_status,
                    status.as_deref(),
                    self.error.as_deref(),
                )
            }
        };
        text.push(' ');
        text.push_str(&said);
        text
    }
}

/// One result for scripts (see [`Outcome::to_json_text`]): appdeck's fields written by
/// serde_json, the line's and the answer's texts spliced in as they came.
#[derive(Serialize)]
struct ResultJson<'a> {
    line: u64,
    task_id: Option<Box<RawValue>>,
    http_status: Option<u16>,
    status: Option<Box<RawValue>>,
    error: Option<&'a str>,
    answer: Option<Box<RawValue>>,
}

/// The text of `key`'s member of the JSON object `text`, compact (the last, of a key written
/// twice, as the parsed value holds it).
fn member(text: &str, key: &str) -> Option<String> {
    let members = crate::json_text::members(text);
    let (_, value) = members.into_iter().rev().find(|(k, _)| k == key)?;
    Some(crate::json_text::compact(value))
}

/// A JSON value for one line of text: a string as its text, anything else as JSON.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => sanitize::line(s).into_owned(),
        other => sanitize::line(&other.to_string()).into_owned(),
    }
}

/// Checks `line`, sends it unless it fails (or `force`), and says what came of it.
pub async fn check_and_send(client: Client, line: Line, force: bool) -> Outcome {
    let text = match &line.text {
        Ok(text) => text,
        Err(why) => return Outcome::skipped(&line, None, why.clone(), Vec::new()),
    };
    let value = match checks::parse_json(text) {
        Ok(value) => value,
        Err(e) => return Outcome::skipped(&line, None, not_json(&e), Vec::new()),
    };
    let task_id = member(text, "task_id");
    let (problem, mut notes) = check(&value, text);
    if let Some(problem) = problem {
        if !force {
            return Outcome::skipped(&line, task_id, problem, notes);
        }
        notes.push(format!("sent all the same (--force): {problem}"));
    }
    let operation = Operation::OperationsReport;
    let (sent_at, started) = (chrono::Utc::now(), Instant::now());
    // The line's text as sent and recorded (its numbers as written), not the parsed value.
    let Some(body) = crate::json_text::body(text) else {
        return Outcome::skipped(&line, task_id, "not JSON".to_owned(), notes);
    };
    let (http_status, outcome) = client.send_with_status(operation, &body).await;
    let sent = Sent::from_outcome(
        client.base_url(),
        SendKind::Report,
        body.get(),
        sent_at,
        http_status,
        Some(started.elapsed()),
        outcome.as_ref(),
    );
    let (verdict, answer, error) = match outcome {
        Ok(answer) => match answer.rejection() {
            None => {
                notes.extend(answer.unclear_status(Operation::OperationsReport));
                (Verdict::Accepted, Some(answer), None)
            }
            Some(refusal) => (Verdict::Failed, Some(answer), Some(refusal.to_string())),
        },
        Err(error) => (Verdict::Failed, None, Some(error.to_string())),
    };
    let (answer, answer_text) = answer.map(|a| (a.raw, a.text)).unzip();
    Outcome {
        line: line.number,
        end: line.end,
        verdict,
        task_id,
        http_status,
        answer,
        answer_text,
        error,
        notes,
        sent: Some(sent),
    }
}

/// The checks of `appdeck report FILE`: why the payload should not be sent (its errors), and its
/// warnings, each a line. `text` is the line as written, `value` what it parses to.
fn check(value: &Value, text: &str) -> (Option<String>, Vec<String>) {
    let operation = Operation::OperationsReport;
    let validation = match checks::validate_as(value, kind_of(operation)) {
        Ok(mut validation) => {
            validation.note_duplicate_keys(text);
            validation
        }
        Err(e) => {
            return (
                Some(sanitize::line(&e.to_string()).into_owned()),
                Vec::new(),
            );
        }
    };
    let warnings = validation
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Warning)
        .map(ToString::to_string)
        .collect();
    if let Err(wrong_kind) = check_kind(&validation.kind, operation, "the line") {
        return (Some(wrong_kind.to_string()), warnings);
    }
    if !validation.has_errors() {
        return (None, warnings);
    }
    let errors: Vec<String> = validation
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    (
        Some(format!("{}: {}", summary(&validation), errors.join("; "))),
        warnings,
    )
}

/// Why a line is not JSON, by column (the line is the result's).
fn not_json(error: &ValidateError) -> String {
    match error {
        ValidateError::Syntax {
            column, message, ..
        } => format!("not JSON: column {column}: {}", sanitize::line(message)),
        other => sanitize::line(&other.to_string()).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn outcome(verdict: Verdict, http_status: Option<u16>, answer: Option<Value>) -> Outcome {
        Outcome {
            line: 7,
            end: 0,
            verdict,
            task_id: Some(r#""t\u001b[2J""#.to_owned()),
            http_status,
            answer_text: answer.as_ref().map(Value::to_string),
            answer,
            error: None,
            notes: Vec::new(),
            sent: None,
        }
    }

    #[test]
    fn a_result_reads_as_one_safe_line_and_as_json_in_a_fixed_order() {
        let ok = outcome(Verdict::Accepted, Some(200), Some(json!({"status": "ok"})));
        assert_eq!(ok.to_text(), "line 7: t␛[2J: HTTP 200, status ok");
        assert_eq!(
            ok.to_json_text(),
            r#"{"line":7,"task_id":"t\u001b[2J","http_status":200,"status":"ok","error":null,"answer":{"status":"ok"}}"#
        );
        // Not sent: every member but the line and the task id is null.
        let mut refused = outcome(Verdict::Skipped, None, None);
        refused.task_id = Some("1E2".into());
        refused.error = Some("invalid".into());
        assert_eq!(
            refused.to_json_text(),
            r#"{"line":7,"task_id":1E2,"http_status":null,"status":null,"error":"invalid","answer":null}"#
        );
        assert_eq!(refused.to_text(), "line 7: 1E2: not sent: invalid");
        let mut exact = outcome(Verdict::Accepted, Some(200), Some(json!({"status": "ok"})));
        exact.answer_text = Some(r#"{"status": "ok", "n": 1E400}"#.into());
        assert!(
            exact
                .to_json_text()
                .ends_with(r#""error":null,"answer":{"status":"ok","n":1E400}}"#),
            "{}",
            exact.to_json_text()
        );
        let mut skipped = outcome(Verdict::Skipped, None, None);
        skipped.error = Some("invalid\nhere".into());
        assert_eq!(skipped.to_text(), "line 7: t␛[2J: not sent: invalid␊here");
        // Issue 35 item 9: an empty task_id is named, not a blank between two colons.
        skipped.task_id = Some(r#""""#.into());
        assert_eq!(
            skipped.to_text(),
            "line 7: task_id \"\": not sent: invalid␊here"
        );
        let mut lost = outcome(Verdict::Failed, None, None);
        lost.task_id = None;
        lost.error = Some("cannot connect".into());
        assert_eq!(lost.to_text(), "line 7: no answer: cannot connect");
        let mut busy = outcome(Verdict::Failed, Some(503), None);
        busy.error = Some("HTTP 503 Service Unavailable: busy".into());
        assert_eq!(
            busy.to_text(),
            "line 7: t␛[2J: HTTP 503 Service Unavailable: busy",
            "the status said once"
        );
        let mut unreadable = outcome(Verdict::Failed, Some(200), None);
        unreadable.error = Some("unreadable answer: not JSON".into());
        assert_eq!(
            unreadable.to_text(),
            "line 7: t␛[2J: HTTP 200: unreadable answer: not JSON"
        );
    }

    /// What appdeck writes of the service's words (the error) is escaped by serde_json, a quote,
    /// a backslash and a control character included; the answer is spliced in as it came.
    #[test]
    fn a_results_error_is_escaped_and_its_answer_kept_as_it_came() {
        let mut refused = outcome(Verdict::Failed, Some(400), Some(json!({"status": "error"})));
        refused.answer_text =
            Some(r#"{"status": "error", "z": -0, "n": 1e400, "more": [1.50]}"#.into());
        refused.error = Some("no resource \"a\\b\u{1}\"".into());
        let text = refused.to_json_text();
        assert_eq!(
            text,
            r#"{"line":7,"task_id":"t\u001b[2J","http_status":400,"status":"error","error":"no resource \"a\\b\u0001\"","answer":{"status":"error","z":-0,"n":1e400,"more":[1.50]}}"#
        );
        let read: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(read["error"], "no resource \"a\\b\u{1}\"");
    }

    #[test]
    fn the_checks_are_those_of_a_single_report() {
        let (problem, _) = check(&json!({"task_id": "t"}), "{}");
        let problem = problem.unwrap();
        assert!(problem.starts_with("invalid: "), "{problem}");
        let (problem, _) = check(
            &json!({"app_id": "a", "version": "1", "resources": []}),
            "{}",
        );
        assert!(problem.unwrap().contains("appdeck connect"));
        let text = include_str!("../../../assets/examples/report.json");
        let example: Value = serde_json::from_str(text).unwrap();
        assert_eq!(check(&example, text), (None, Vec::new()));
    }
}
