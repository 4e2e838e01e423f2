//! Reading request bodies: the checks every operation shares, each failure a 400 whose message
//! names the field (by its JSON pointer when it is nested).

use serde_json::{Map, Value};

use super::error::OpError;
use crate::api::field::json_type_name;
use crate::api::{FieldIssue, Resource};

/// Reads a request body as a JSON object, the only shape the three operations take.
pub(crate) fn parse_object(body: &[u8]) -> Result<Map<String, Value>, OpError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(OpError::bad_request(
            "the request body is empty; send a JSON object",
        ));
    }
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(OpError::bad_request(format!(
            "the request body must be a JSON object, found {}",
            json_type_name(&other)
        ))),
        Err(e) => Err(OpError::bad_request(format!("malformed JSON: {e}"))),
    }
}

/// A required, non-empty string field of a request, named in the error when it is missing.
pub(crate) fn required_string<'a>(
    map: &'a Map<String, Value>,
    key: &str,
) -> Result<&'a str, OpError> {
    match map.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s),
        Some(Value::String(_)) => Err(OpError::bad_request(format!("{key} must not be empty"))),
        None | Some(Value::Null) => Err(OpError::bad_request(format!(
            "{key} is required (a non-empty string)"
        ))),
        Some(other) => Err(OpError::bad_request(format!(
            "{key}: expected a string, found {}",
            json_type_name(other)
        ))),
    }
}

/// Refuses an array element that is not an object. The lenient models would mark the whole array
/// as wrong-typed; this names the element instead.
pub(crate) fn objects_in_array(value: Option<&Value>, pointer: &str) -> Result<(), OpError> {
    let Some(Value::Array(items)) = value else {
        return Ok(());
    };
    match items.iter().position(|item| !item.is_object()) {
        None => Ok(()),
        Some(i) => Err(OpError::bad_request(format!(
            "{pointer}/{i}: expected an object, found {}",
            json_type_name(&items[i])
        ))),
    }
}

/// Refuses a record whose fields have the wrong JSON types, listing each with its pointer.
pub(crate) fn refuse_issues(prefix: &str, issues: &[FieldIssue]) -> Result<(), OpError> {
    if issues.is_empty() {
        return Ok(());
    }
    let listed: Vec<String> = issues.iter().map(|i| format!("{prefix}{i}")).collect();
    Err(OpError::bad_request(listed.join("; ")))
}

/// Refuses a report that gives `null` for a field the spec types as a string, an object or an
/// array, naming each by its JSON pointer: null is none of those, and the service would store and
/// list it back. Leaving the field out is what a report without a value does.
pub(crate) fn refuse_nulls(body: &Map<String, Value>) -> Result<(), OpError> {
    refuse_found(
        &crate::validate::report_nulls(body),
        "a string, an object or an array",
    )
}

/// Refuses a connect that gives `null` for a field of a resource type definition, of one of its
/// actions or of one of its links, naming each: the spec types every one of them (a string, a
/// boolean, an object or an array), and the sandbox would register the null.
pub(crate) fn refuse_connect_nulls(body: &Map<String, Value>) -> Result<(), OpError> {
    refuse_found(
        &crate::validate::connect_nulls(body),
        "a string, a boolean, an object or an array",
    )
}

fn refuse_found(found: &[String], typed_as: &str) -> Result<(), OpError> {
    if found.is_empty() {
        return Ok(());
    }
    Err(OpError::bad_request(format!(
        "{}: null where the spec gives {typed_as}; leave the field out instead",
        found.join(", ")
    )))
}

/// The resource fields the spec gives as ISO 8601 date-times.
const DATE_TIME_FIELDS: [&str; 4] = ["created_at", "updated_at", "deleted_at", "synced_at"];

/// Refuses a resource whose date-time fields are not RFC 3339 date-times, naming the field. RFC
/// 3339 is the ISO 8601 profile the spec's examples use; the other ISO 8601 forms (`+0200`, no
/// offset, the basic `20240501T120000Z`) are refused alike, so a client learns the one form.
pub(crate) fn refuse_non_dates(resource: &Resource, pointer: &str) -> Result<(), OpError> {
    let fields = [
        &resource.created_at,
        &resource.updated_at,
        &resource.deleted_at,
        &resource.synced_at,
    ];
    for (name, field) in DATE_TIME_FIELDS.iter().zip(fields) {
        if let Some(value) = field.get()
            && !is_date_time(value)
        {
            // Exactly as sent: a leading space or a zero-width one is what is wrong with it.
            let shown = crate::sanitize::quoted_exactly(value, 40);
            return Err(OpError::bad_request(format!(
                "{pointer}/{name}: {shown} is not an RFC 3339 date-time such as \"2024-05-01T12:00:00Z\" \
                 (the ISO 8601 form the spec's examples use: a `T`, and `Z` or an offset such as +02:00)"
            )));
        }
    }
    Ok(())
}

/// The rule `appdeck validate` warns by.
fn is_date_time(value: &str) -> bool {
    crate::validate::is_rfc3339(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn date_times_are_rfc_3339_or_refused_by_name() {
        for good in [
            "2024-05-01T12:00:00Z",
            "2024-05-01T12:00:00.123+02:00",
            "2024-05-01t12:00:00z",
        ] {
            assert!(is_date_time(good), "{good}");
        }
        for bad in [
            "not-a-date",
            "",
            "2024-13-01T00:00:00Z",
            "yesterday",
            "2024-05-01T12:00:00+0200",
            "2024-05-01T12:00:00",
            "2024-05-01 12:00:00",
            "2024-05-01 12:00:00Z",
            "20240501T120000Z",
        ] {
            assert!(!is_date_time(bad), "{bad}");
        }
        let resource = Resource {
            synced_at: crate::api::Field::Valid("not-a-date".to_owned()),
            ..Resource::default()
        };
        let error = refuse_non_dates(&resource, "/r").unwrap_err();
        assert!(
            error.message.starts_with("/r/synced_at:"),
            "{}",
            error.message
        );
    }
}
