//! Where a payload gives `null` for a field the spec types (a string, a boolean, an object or an
//! array): null is none of those. The service (and the sandbox) refuses such a payload with 400,
//! so `validate` and the composers' checks flag each, by its JSON pointer, before it is sent.

use serde_json::{Map, Value};

use crate::api::{Action, Link, Links, Resource, ResourceType};

/// The pointers of the nulls in a report's typed fields: its own, its response's and its
/// resource's (links included).
pub fn report_nulls(body: &Map<String, Value>) -> Vec<String> {
    let mut found = Vec::new();
    nulls_in(
        body,
        &["task_id", "status", "message", "response"],
        "",
        &mut found,
    );
    if let Some(Value::Object(response)) = body.get("response") {
        nulls_in(
            response,
            &["response_type", "resource"],
            "/response",
            &mut found,
        );
        if let Some(Value::Object(resource)) = response.get("resource") {
            let at = "/response/resource";
            nulls_in(resource, Resource::KNOWN_FIELDS, at, &mut found);
            link_nulls(resource, at, &mut found);
        }
    }
    found
}

/// The pointers of the nulls in the typed fields of a connect's resource type definitions, of
/// their actions and of their links.
pub fn connect_nulls(body: &Map<String, Value>) -> Vec<String> {
    let mut found = Vec::new();
    let definitions = body.get("resources").and_then(Value::as_array);
    for (i, definition) in definitions.into_iter().flatten().enumerate() {
        let Value::Object(definition) = definition else {
            continue;
        };
        let at = format!("/resources/{i}");
        nulls_in(definition, ResourceType::KNOWN_FIELDS, &at, &mut found);
        link_nulls(definition, &at, &mut found);
        let actions = definition.get("actions").and_then(Value::as_array);
        for (j, action) in actions.into_iter().flatten().enumerate() {
            if let Value::Object(action) = action {
                let at = format!("{at}/actions/{j}");
                nulls_in(action, Action::KNOWN_FIELDS, &at, &mut found);
            }
        }
    }
    found
}

/// The nulls in the `links` object of a resource or a type, and in each of its links.
fn link_nulls(owner: &Map<String, Value>, at: &str, found: &mut Vec<String>) {
    let Some(Value::Object(links)) = owner.get("links") else {
        return;
    };
    nulls_in(links, Links::KNOWN_FIELDS, &format!("{at}/links"), found);
    if let Some(Value::Array(items)) = links.get("links") {
        for (i, link) in items.iter().enumerate() {
            if let Value::Object(link) = link {
                let at = format!("{at}/links/links/{i}");
                nulls_in(link, Link::KNOWN_FIELDS, &at, found);
            }
        }
    }
}

fn nulls_in(map: &Map<String, Value>, fields: &[&str], prefix: &str, found: &mut Vec<String>) {
    for field in fields {
        if map.get(*field).is_some_and(Value::is_null) {
            found.push(format!("{prefix}/{field}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::validate::{Severity, validate_value};

    fn errors(payload: serde_json::Value) -> Vec<String> {
        let validation = validate_value(&payload, None).expect("a payload");
        (validation.findings.iter())
            .filter(|f| f.severity == Severity::Error)
            .map(ToString::to_string)
            .collect()
    }

    /// The sandbox refuses these with 400 (tests/sandbox_model found it); `validate` and the
    /// composers, which check with the same rules, said "valid" and let them be sent.
    #[test]
    fn a_null_in_a_typed_field_is_an_error_once() {
        let report = json!({"task_id": "t1", "status": "ok", "message": null, "response": {
            "response_type": "resource", "resource": {"id": "r1", "type": "repo",
            "display_name": null, "links": {"links": [{"url": "https://x.example", "title": null}]},
            "properties": {"free": null}}}});
        let found = errors(report);
        let at = |pointer: &str| found.iter().filter(|f| f.contains(pointer)).count();
        assert_eq!(at("at /message:"), 1, "{found:?}");
        assert_eq!(at("at /response/resource/display_name:"), 1, "{found:?}");
        assert_eq!(
            at("at /response/resource/links/links/0/title:"),
            1,
            "{found:?}"
        );
        assert_eq!(
            found.len(),
            3,
            "properties are the type's to say: {found:?}"
        );

        let required = errors(json!({"task_id": null, "status": "ok",
            "response": {"response_type": "resource", "resource": {"id": "r1", "type": "repo"}}}));
        assert_eq!(
            required.len(),
            1,
            "one error for a required field: {required:?}"
        );

        let connect = json!({"app_id": "acme", "version": "1.0.0", "resources": [
            {"type": "repo", "display_name": null, "list_supported": null,
             "actions": [{"name": "a", "display_name": null}]}]});
        let found = errors(connect);
        for pointer in [
            "/resources/0/display_name:",
            "/resources/0/list_supported:",
            "/resources/0/actions/0/display_name:",
        ] {
            assert!(
                found.iter().any(|f| f.contains(pointer)),
                "{pointer} in {found:?}"
            );
        }
    }
}
