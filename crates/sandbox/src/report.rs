//! `apps.operations.report`: an app reports a task's outcome. `ok` creates or updates the resource
//! the report carries (matched by `id`, else by `type` + `external_id`), once its properties satisfy
//! the type's connected schema; `error` is recorded and changes nothing.
//!
//! The schema check runs outside the store's lock (see [`super::checks`]); the write that follows
//! takes effect only if the type's schema is still the one checked against, so a report is
//! applied atomically as before.

use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::{Map, Value, json};

use super::checks::SchemaChecks;
use super::error::OpError;
use super::registry::{RegisteredType, Registry};
use super::request::{objects_in_array, refuse_issues, refuse_non_dates, refuse_nulls};
use super::store::{RecordedFailure, SandboxStore, Stamp, State, non_empty, now};
use crate::api::{Field, ReportRequest, Resource};
use crate::schema::SchemaViolation;

/// How many schema violations an answer lists before summarising the rest.
const MAX_LISTED_VIOLATIONS: usize = 10;

/// How often a report is checked again when its type is connected anew during the check.
const MAX_CHECK_ATTEMPTS: usize = 3;

/// Applies a report and returns the answer's body. `sent` is the body's text, whose resource is
/// stored as it was written. `origin` (`http://host:port`) is where the sandbox serves, for the
/// answer's `platform_app_url`.
pub(crate) async fn report(
    store: &SandboxStore,
    checks: &SchemaChecks,
    (body, sent): (Map<String, Value>, &str),
    origin: &str,
) -> Result<Value, OpError> {
    let resource_json = body
        .get("response")
        .and_then(|r| r.get("resource"))
        .and_then(|r| r.get("links"))
        .and_then(|l| l.get("links"));
    objects_in_array(resource_json, "/response/resource/links/links")?;
    refuse_nulls(&body)?;

    let request = ReportRequest::from_map(body);
    refuse_issues("", &request.field_issues())?;
    let task_id = match &request.task_id {
        Field::Valid(id) if !id.trim().is_empty() => id.clone(),
        Field::Valid(_) => return Err(OpError::bad_request("task_id must not be empty")),
        _ => return Err(OpError::bad_request("task_id is required (a string)")),
    };
    let Field::Valid(payload) = request.response else {
        return Err(OpError::bad_request(
            "response is required (an object holding the resource)",
        ));
    };
    let resource = match payload.resource {
        Field::Valid(resource) => Some(resource),
        _ => None,
    };
    if let Some(resource) = &resource {
        refuse_non_dates(resource, "/response/resource")?;
    }
    match request.status.get().map(String::as_str) {
        Some("ok") => {
            let resource = resource.ok_or_else(|| {
                OpError::bad_request(
                    "response.resource is required (an object) when status is \"ok\"",
                )
            })?;
            let sent = crate::json_text::span_of(sent, "/response/resource").map(|at| &sent[at]);
            apply(store, checks, (resource, sent), origin).await
        }
        Some("error") => {
            let message = request.message.get().cloned();
            store.write().record_failure(RecordedFailure {
                task_id: task_id.clone(),
                message,
                resource: resource.and_then(|r| serde_json::to_value(r).ok()),
                received_at: now(),
            });
            tracing::debug!(task_id = ?task_id, "recorded a task failure");
            Ok(json!({
                "status": "ok",
                "message": format!("recorded the failure of task {task_id}; no resource was changed"),
            }))
        }
        Some(other) => Err(OpError::bad_request(format!(
            "status must be \"ok\" or \"error\", found {other:?}"
        ))),
        None => Err(OpError::bad_request(
            "status is required (\"ok\" or \"error\")",
        )),
    }
}

/// Creates or updates the resource once its properties satisfy its type's schema. The check
/// runs without the lock; the write then happens only if the type still has the schema that was
/// checked (a connect in between means checking again), so nothing changes between the checks
/// and the write.
async fn apply(
    store: &SandboxStore,
    checks: &SchemaChecks,
    (resource, sent): (Resource, Option<&str>),
    origin: &str,
) -> Result<Value, OpError> {
    let properties = properties_of(&resource);
    let mut resource_type = String::new();
    for _ in 0..MAX_CHECK_ATTEMPTS {
        let checked = {
            let state = store.read();
            let target = find_target(&state, &resource)?;
            resource_type = type_of(&state, &resource, target)?;
            state.registry.latest(&resource_type).cloned()
        };
        if let Some(registered) = &checked {
            let violations = checks
                .violations(Arc::clone(registered), properties.clone())
                .await?;
            if !violations.is_empty() {
                return Err(refusal(&resource_type, &violations));
            }
        }
        let mut state = store.write();
        let target = find_target(&state, &resource)?;
        let now_type = type_of(&state, &resource, target)?;
        let current = state.registry.latest(&now_type);
        if now_type == resource_type && same_registration(current, checked.as_ref()) {
            return Ok(store_resource(
                &mut state,
                target,
                (resource, sent),
                &resource_type,
                origin,
            ));
        }
    }
    Err(OpError::new(
        StatusCode::CONFLICT,
        format!(
            "type {resource_type:?} was connected again while this report was being checked; \
             send the report again"
        ),
    ))
}

/// Whether the type's registration is still the one a check used.
fn same_registration(
    current: Option<&Arc<RegisteredType>>,
    checked: Option<&Arc<RegisteredType>>,
) -> bool {
    match (current, checked) {
        (None, None) => true,
        (Some(current), Some(checked)) => Arc::ptr_eq(current, checked),
        _ => false,
    }
}

/// The type of the resource a report is about: the one it gives (which may not change a stored
/// row's type), else the stored row's.
fn type_of(state: &State, resource: &Resource, target: Option<u64>) -> Result<String, OpError> {
    match (non_empty(&resource.resource_type), target) {
        (Some(given), Some(seq)) => {
            let stored = state
                .rows
                .get(seq)
                .and_then(|row| row.resource_type.as_deref());
            if let Some(stored) = stored.filter(|stored| *stored != given) {
                let id = state
                    .rows
                    .get(seq)
                    .map(|row| row.id.as_str())
                    .unwrap_or_default();
                return Err(OpError::new(
                    StatusCode::CONFLICT,
                    format!(
                        "resource {id} is of type {stored:?}; a report cannot change it to {given:?}"
                    ),
                ));
            }
            Ok(given.to_owned())
        }
        (Some(given), None) => Ok(given.to_owned()),
        (None, Some(seq)) => Ok(state
            .rows
            .get(seq)
            .and_then(|row| row.resource_type.clone())
            .unwrap_or_default()),
        (None, None) => Err(OpError::bad_request(
            "response.resource.type is required to create a resource (or give the id of an existing one)",
        )),
    }
}

/// Writes the checked resource and words the answer.
fn store_resource(
    state: &mut State,
    target: Option<u64>,
    (resource, sent): (Resource, Option<&str>),
    resource_type: &str,
    origin: &str,
) -> Value {
    let created = target.is_none();
    let stored = state.put_sent(target, resource, Stamp::Report, sent);
    let id = non_empty(&stored.id).unwrap_or_default().to_owned();
    tracing::debug!(id = ?id, resource_type = ?resource_type, created, "applied a report");
    json!({
        "status": "ok",
        "message": format!(
            "{} resource {id} of type {resource_type}",
            if created { "created" } else { "updated" }
        ),
        "metadata": {"platform_app_url": platform_app_url(origin, &id)},
    })
}

/// Where the sandbox shows a resource in a browser (served by `handlers::resource_page`).
pub(crate) fn platform_app_url(origin: &str, id: &str) -> String {
    format!("{origin}{RESOURCE_PAGE_PREFIX}{}", percent_encode(id))
}

/// The path under which `platform_app_url` points, followed by the percent-encoded id.
pub(crate) const RESOURCE_PAGE_PREFIX: &str = "/app/resources/";

/// The row a report updates: by `id` (which must exist), else by `type` + `external_id`; `None`
/// creates. A report may not take over another row's `type` + `external_id`.
fn find_target(state: &State, resource: &Resource) -> Result<Option<u64>, OpError> {
    let key = non_empty(&resource.resource_type).zip(non_empty(&resource.external_id));
    let by_key = key.and_then(|(t, e)| state.rows.seq_of_key(t, e));
    let Some(id) = non_empty(&resource.id) else {
        return Ok(by_key);
    };
    let Some(seq) = state.rows.seq_of_id(id) else {
        return Err(OpError::new(
            StatusCode::NOT_FOUND,
            format!("no resource has id {id:?}; leave id out to create one"),
        ));
    };
    if let (Some(other), Some((t, e))) = (by_key.filter(|other| *other != seq), key) {
        let holder = state
            .rows
            .get(other)
            .map(|row| row.id.as_str())
            .unwrap_or_default();
        return Err(OpError::new(
            StatusCode::CONFLICT,
            format!("type {t:?} with external_id {e:?} already belongs to resource {holder}"),
        ));
    }
    Ok(Some(seq))
}

/// A resource's `properties` as the schema sees them: an empty object when absent.
fn properties_of(resource: &Resource) -> Value {
    match &resource.properties {
        Field::Valid(map) => Value::Object(map.clone()),
        Field::Absent => Value::Object(Map::new()),
        Field::Null => Value::Null,
        Field::Invalid(value) => value.clone(),
    }
}

/// Checks the resource's `properties` against its type's schema, on the caller's thread (for
/// loading demo data; reports go through [`SchemaChecks`]).
pub(crate) fn check_properties(
    registry: &Registry,
    resource_type: &str,
    resource: &Resource,
) -> Result<(), OpError> {
    registry
        .check_properties(resource_type, &properties_of(resource))
        .map_err(|violations| refusal(resource_type, &violations))
}

fn refusal(resource_type: &str, violations: &[SchemaViolation]) -> OpError {
    OpError::unprocessable(format!("{resource_type}: {}", list_violations(violations)))
}

fn list_violations(violations: &[SchemaViolation]) -> String {
    let mut listed: Vec<String> = violations
        .iter()
        .take(MAX_LISTED_VIOLATIONS)
        .map(ToString::to_string)
        .collect();
    if violations.len() > MAX_LISTED_VIOLATIONS {
        listed.push(format!(
            "and {} more",
            violations.len() - MAX_LISTED_VIOLATIONS
        ));
    }
    listed.join("; ")
}

/// Percent-encodes an id for a URL path segment (imported ids may hold any character).
fn percent_encode(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len());
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_safe_in_a_url() {
        assert_eq!(percent_encode("res_12"), "res_12");
        assert_eq!(percent_encode("a/b c?é"), "a%2Fb%20c%3F%C3%A9");
    }
}
