//! `apps.operations.report`: an app reports a task's outcome. `ok` creates or updates the resource
//! the report carries (matched by `id`, else by `type` + `external_id`), once its properties satisfy
//! the type's connected schema; `error` is recorded and changes nothing.

use axum::http::StatusCode;
use serde_json::{Map, Value, json};

use super::error::OpError;
use super::registry::Registry;
use super::request::{objects_in_array, refuse_issues};
use super::store::{RecordedFailure, SandboxStore, Stamp, State, non_empty, now};
use crate::api::{Field, ReportRequest, Resource};
use crate::schema::SchemaViolation;

/// How many schema violations an answer lists before summarising the rest.
const MAX_LISTED_VIOLATIONS: usize = 10;

/// Applies a report and returns the answer's body. `origin` (`http://host:port`) is where the
/// sandbox serves, for the answer's `platform_app_url`.
pub(crate) fn report(
    store: &SandboxStore,
    body: Map<String, Value>,
    origin: &str,
) -> Result<Value, OpError> {
    let resource_json = body
        .get("response")
        .and_then(|r| r.get("resource"))
        .and_then(|r| r.get("links"))
        .and_then(|l| l.get("links"));
    objects_in_array(resource_json, "/response/resource/links/links")?;

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
    match request.status.get().map(String::as_str) {
        Some("ok") => {
            let resource = resource.ok_or_else(|| {
                OpError::bad_request(
                    "response.resource is required (an object) when status is \"ok\"",
                )
            })?;
            apply(&mut store.write(), resource, origin)
        }
        Some("error") => {
            let message = request.message.get().cloned();
            store.write().record_failure(RecordedFailure {
                task_id: task_id.clone(),
                message,
                resource: resource.and_then(|r| serde_json::to_value(r).ok()),
                received_at: now(),
            });
            tracing::info!(task_id = ?task_id, "recorded a task failure");
            Ok(json!({
                "status": "ok",
                "message": format!("recorded the failure of task {task_id}; no resource was changed"),
                "error": null,
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

/// Creates or updates the resource, under the store's write lock so that nothing changes
/// between the checks and the write.
fn apply(state: &mut State, resource: Resource, origin: &str) -> Result<Value, OpError> {
    let target = find_target(state, &resource)?;
    let resource_type = match (non_empty(&resource.resource_type), target) {
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
            given.to_owned()
        }
        (Some(given), None) => given.to_owned(),
        (None, Some(seq)) => state
            .rows
            .get(seq)
            .and_then(|row| row.resource_type.clone())
            .unwrap_or_default(),
        (None, None) => {
            return Err(OpError::bad_request(
                "response.resource.type is required to create a resource (or give the id of an existing one)",
            ));
        }
    };
    check_properties(&state.registry, &resource_type, &resource)?;

    let created = target.is_none();
    let stored = state.put(target, resource, Stamp::Report);
    let id = non_empty(&stored.id).unwrap_or_default().to_owned();
    tracing::info!(id = ?id, resource_type = ?resource_type, created, "applied a report");
    Ok(json!({
        "status": "ok",
        "message": format!(
            "{} resource {id} of type {resource_type}",
            if created { "created" } else { "updated" }
        ),
        "metadata": {"platform_app_url": format!("{origin}/app/resources/{}", percent_encode(&id))},
        "error": null,
    }))
}

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

/// Checks the resource's `properties` (an empty object when absent) against its type's schema.
pub(crate) fn check_properties(
    registry: &Registry,
    resource_type: &str,
    resource: &Resource,
) -> Result<(), OpError> {
    let properties = match &resource.properties {
        Field::Valid(map) => Value::Object(map.clone()),
        Field::Absent => Value::Object(Map::new()),
        Field::Null => Value::Null,
        Field::Invalid(value) => value.clone(),
    };
    registry
        .check_properties(resource_type, &properties)
        .map_err(|violations| {
            OpError::unprocessable(format!("{resource_type}: {}", list_violations(&violations)))
        })
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
