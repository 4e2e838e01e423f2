//! Reading request bodies: the checks every operation shares, each failure a 400 whose message
//! names the field (by its JSON pointer when it is nested).

use serde_json::{Map, Value};

use super::error::OpError;
use crate::api::FieldIssue;
use crate::api::field::json_type_name;

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
