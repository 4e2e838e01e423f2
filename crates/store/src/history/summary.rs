//! What a listing shows of a send in one line: the request (a report's `task_id`, `status` and
//! resource; a connect's app and version) and the answer (the HTTP status and the answer's
//! `status`, or why no answer came). Read from the recorded JSON leniently: a body that is not
//! what the spec says still gets a summary. Not sanitised: callers neutralise before showing.

use serde_json::Value;

use super::{SendKind, Sent};

/// A send in a few words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// `task-1 · ok · repository res_0001`, or `acme-devtools 1.5.0 · 3 types`.
    pub request: String,
    /// `HTTP 200`, or `no answer`.
    pub http: String,
    /// The answer's `status` (`ok`, `error: why`), or the failure when none came.
    pub answer: String,
}

impl Sent {
    pub fn summary(&self) -> Summary {
        let body: Value = serde_json::from_str(&self.body).unwrap_or(Value::Null);
        let request = match self.kind {
            SendKind::Report => report_summary(&body),
            SendKind::Connect => connect_summary(&body),
        };
        let http = self
            .http_status
            .map_or_else(|| "no answer".to_owned(), |s| format!("HTTP {s}"));
        Summary {
            request,
            http,
            answer: self.answer_summary(),
        }
    }

    /// The answer's `status`, with its `error` (else `message`) when it is not `ok`; the recorded
    /// error when the answer says nothing (or none came).
    fn answer_summary(&self) -> String {
        let answer: Value = self
            .answer
            .as_deref()
            .and_then(|a| serde_json::from_str(a).ok())
            .unwrap_or(Value::Null);
        let status = text(&answer, "status");
        let why = text(&answer, "error").or_else(|| text(&answer, "message"));
        match (status, &self.error) {
            (Some(status), _) if status == "ok" => status,
            (Some(status), error) => match why.or_else(|| error.clone()) {
                Some(why) => format!("{status}: {why}"),
                None => status,
            },
            (None, Some(error)) => error.clone(),
            (None, None) => why.unwrap_or_else(|| "—".to_owned()),
        }
    }
}

fn report_summary(body: &Value) -> String {
    let resource = body.pointer("/response/resource").unwrap_or(&Value::Null);
    let subject = [
        text(resource, "type"),
        text(resource, "id").or_else(|| text(resource, "external_id")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ");
    [
        text(body, "task_id").unwrap_or_else(|| "(no task_id)".to_owned()),
        text(body, "status").unwrap_or_else(|| "(no status)".to_owned()),
    ]
    .into_iter()
    .chain((!subject.is_empty()).then_some(subject))
    .collect::<Vec<_>>()
    .join(" · ")
}

fn connect_summary(body: &Value) -> String {
    let app = [text(body, "app_id"), text(body, "version")]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    let app = if app.is_empty() {
        "(no app_id)".to_owned()
    } else {
        app
    };
    match body
        .get("resources")
        .and_then(Value::as_array)
        .map(Vec::len)
    {
        Some(1) => format!("{app} · 1 type"),
        Some(n) => format!("{app} · {n} types"),
        None => app,
    }
}

/// A field as text: a string as it is, another value as its JSON; `None` when absent or null.
fn text(value: &Value, key: &str) -> Option<String> {
    match value.get(key)? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sent(kind: SendKind, body: Value, answer: Option<Value>, status: Option<u16>) -> Sent {
        Sent {
            sent_at: chrono::Utc::now(),
            base_url: "http://127.0.0.1:9/api/v1".into(),
            kind,
            body: body.to_string(),
            answer: answer.map(|a| a.to_string()),
            http_status: status,
            duration: None,
            error: None,
            resource_before: None,
            resource_after: None,
        }
    }

    #[test]
    fn a_report_is_summed_up_by_task_status_and_resource() {
        let body = json!({"task_id": "t-1", "status": "ok", "response": {"response_type":
            "resource", "resource": {"type": "repository", "id": "res_1", "external_id": "x"}}});
        let s = sent(
            SendKind::Report,
            body,
            Some(json!({"status": "ok"})),
            Some(200),
        )
        .summary();
        assert_eq!(s.request, "t-1 · ok · repository res_1");
        assert_eq!((s.http.as_str(), s.answer.as_str()), ("HTTP 200", "ok"));

        let new = json!({"task_id": "t-2", "status": "error",
            "response": {"resource": {"type": "team", "external_id": "x2"}}});
        let refused = json!({"status": "error", "error": "no such type"});
        let s = sent(SendKind::Report, new, Some(refused), Some(422)).summary();
        assert_eq!(s.request, "t-2 · error · team x2");
        assert_eq!(s.answer, "error: no such type");
    }

    #[test]
    fn a_connect_is_summed_up_by_app_version_and_types() {
        let body = json!({"app_id": "acme", "version": "1.2.0", "resources": [{}, {}]});
        let s = sent(SendKind::Connect, body, None, None).summary();
        assert_eq!(s.request, "acme 1.2.0 · 2 types");
        assert_eq!(s.http, "no answer");
    }

    #[test]
    fn a_failure_without_an_answer_shows_the_error_and_odd_bodies_still_sum_up() {
        let mut s = sent(SendKind::Report, json!([1]), None, None);
        s.error = Some("cannot connect to http://127.0.0.1:9".into());
        let summary = s.summary();
        assert_eq!(summary.request, "(no task_id) · (no status)");
        assert_eq!(summary.answer, "cannot connect to http://127.0.0.1:9");
        s.body = "not json".into();
        assert_eq!(s.summary().request, "(no task_id) · (no status)");
    }
}
