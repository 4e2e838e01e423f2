//! Checks of a version-connect payload (`apps.version.connect`): the app and version, each type
//! definition's name (unique), its JSON Schemas (they must compile, since the service uses them to
//! check what apps later report), its actions (names unique within the type), and its links.
//! `lifecycle_stage` and the `*_supported` capabilities are free-form: only their types are checked.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::Finding;
use super::common::{
    check_links, child, field_issues, item, present, quote, required_string, unknown_fields,
    wrong_type,
};
use crate::api::types::{Action, ResourceType};
use crate::schema;

/// The schemas of a type definition, and of an action.
const TYPE_SCHEMAS: &[&str] = &[
    "property_json_schema",
    "create_input_schema",
    "update_input_schema",
];
const ACTION_SCHEMAS: &[&str] = &["input_json_schema", "output_json_schema"];

/// The `app_id` and `version` a payload starts with when appdeck writes it (`appdeck infer`
/// without `--app-id`/`--version`, the composer's `:connect new`): values no one would send, which
/// [`check`] flags until they are replaced, so that a skeleton is never connected as it is.
pub const PLACEHOLDER_APP_ID: &str = "REPLACE-ME-app-id";
pub const PLACEHOLDER_VERSION: &str = "0.0.0-REPLACE-ME";
/// What marks a value as one of those placeholders, whole or partly edited.
const PLACEHOLDER_MARK: &str = "REPLACE-ME";

pub(super) fn check(map: &Map<String, Value>, out: &mut Vec<Finding>) {
    unknown_fields(map, &["app_id", "version", "resources"], out);
    let app_id = required_string(map, "app_id", "", out);
    placeholder(app_id, "app_id", "your app's id", out);
    let version = required_string(map, "version", "", out);
    placeholder(
        version,
        "version",
        "the version to connect (such as 1.0.0)",
        out,
    );
    match map.get("resources") {
        None => out.push(Finding::error(
            "/resources",
            "`resources` is required: an array of resource type definitions",
        )),
        Some(Value::Array(types)) if types.is_empty() => out.push(Finding::warning(
            "/resources",
            "the version declares no resource types",
        )),
        Some(Value::Array(types)) => check_types(types, out),
        Some(other) => out.push(Finding::error(
            "/resources",
            wrong_type("an array of resource type definitions", other),
        )),
    }
}

/// An error when `value` (the top-level `key`) is still a placeholder: `write` says what goes
/// in its place.
fn placeholder(value: Option<&str>, key: &str, write: &str, out: &mut Vec<Finding>) {
    if value.is_some_and(|v| v.contains(PLACEHOLDER_MARK)) {
        out.push(Finding::error(
            &child("", key),
            format!("`{key}` is a placeholder: replace it with {write}"),
        ));
    }
}

fn check_types(types: &[Value], out: &mut Vec<Finding>) {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (i, raw) in types.iter().enumerate() {
        let at = item("/resources", i);
        let Value::Object(definition) = raw else {
            out.push(Finding::error(
                &at,
                wrong_type("a resource type definition (an object)", raw),
            ));
            continue;
        };
        if let Some(name) = required_string(definition, "type", &at, out) {
            if let Some(first) = seen.get(name) {
                out.push(Finding::error(
                    &child(&at, "type"),
                    format!(
                        "type {} is defined twice: at /resources/{first} and at /resources/{i}",
                        quote(name)
                    ),
                ));
            } else {
                seen.insert(name, i);
            }
        }
        check_definition(definition, &at, out);
    }
}

fn check_definition(definition: &Map<String, Value>, at: &str, out: &mut Vec<Finding>) {
    let model = ResourceType::from_map(definition.clone());
    // These are checked below (or above, for `type`), with clearer messages.
    let mut own = vec!["/type", "/links", "/actions"];
    let schema_pointers: Vec<String> = TYPE_SCHEMAS.iter().map(|k| format!("/{k}")).collect();
    own.extend(schema_pointers.iter().map(String::as_str));
    field_issues(model.field_issues(), at, &own, out);
    for key in TYPE_SCHEMAS {
        let compiles = check_schema(definition.get(*key), &child(at, key), out);
        if *key == "property_json_schema" && compiles {
            check_properties_schema_accepts_objects(definition.get(*key), at, out);
        }
    }
    check_links(definition.get("links"), &child(at, "links"), out);
    let actions_at = child(at, "actions");
    match present(definition, "actions") {
        None => {}
        Some(Value::Array(actions)) => check_actions(actions, &actions_at, out),
        Some(other) => out.push(Finding::error(
            &actions_at,
            wrong_type("an array of action definitions", other),
        )),
    }
}

fn check_actions(actions: &[Value], pointer: &str, out: &mut Vec<Finding>) {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (j, raw) in actions.iter().enumerate() {
        let at = item(pointer, j);
        let Value::Object(action) = raw else {
            out.push(Finding::error(
                &at,
                wrong_type("an action definition (an object)", raw),
            ));
            continue;
        };
        if let Some(name) = required_string(action, "name", &at, out) {
            if let Some(first) = seen.get(name) {
                out.push(Finding::error(
                    &child(&at, "name"),
                    format!(
                        "action {} is defined twice in this type: at {pointer}/{first} and at {pointer}/{j}",
                        quote(name)
                    ),
                ));
            } else {
                seen.insert(name, j);
            }
        }
        field_issues(
            Action::from_map(action.clone()).field_issues(),
            &at,
            &["/name", "/input_json_schema", "/output_json_schema"],
            out,
        );
        for key in ACTION_SCHEMAS {
            check_schema(action.get(*key), &child(&at, key), out);
        }
    }
}

/// A JSON Schema must be an object (the spec types every schema field so; the boolean schemas of
/// JSON Schema are refused by the service's model, so `{}` stands for `true`) and compile under
/// its `$schema` draft (2020-12 when it names none). Returns whether there is a schema and it
/// compiles.
fn check_schema(value: Option<&Value>, pointer: &str, out: &mut Vec<Finding>) -> bool {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return false;
    };
    let problem = match value {
        Value::Object(_) => match schema::compile(value) {
            Ok(_) => return true,
            Err(reason) => format!("the JSON Schema does not compile: {reason}"),
        },
        Value::Bool(b) => format!(
            "expected a JSON Schema object, found the boolean schema `{b}`; the spec types schemas as objects (write {})",
            if *b { "{}" } else { "{\"not\": {}}" }
        ),
        other => wrong_type("a JSON Schema object", other),
    };
    out.push(Finding::error(pointer, problem));
    false
}

/// A resource's `properties` is always an object, so a `property_json_schema` that allows no
/// object would refuse every resource of the type: almost surely a mistake, but legal, hence a
/// warning.
fn check_properties_schema_accepts_objects(
    schema: Option<&Value>,
    at: &str,
    out: &mut Vec<Finding>,
) {
    let pointer = child(at, "property_json_schema");
    let declared = match schema {
        Some(Value::Object(schema)) => schema.get("type"),
        _ => return,
    };
    let allows_object = match declared {
        None => true,
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        // Not reached for a schema that compiles.
        Some(_) => true,
    };
    if !allows_object {
        out.push(Finding::warning(
            &child(&pointer, "type"),
            "a resource's `properties` is always an object, and this schema's `type` does not \
             allow one, so it refuses every resource of this type",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{PayloadKind, Severity, validate_value};
    use serde_json::json;

    fn findings(payload: Value) -> Vec<String> {
        let v = validate_value(&payload, None).unwrap();
        assert_eq!(v.kind, PayloadKind::Connect);
        v.findings.iter().map(ToString::to_string).collect()
    }

    fn good() -> Value {
        json!({"app_id": "acme", "version": "1.0.0", "resources": [
            {"type": "repo", "display_name": "Repository", "list_supported": true,
             "lifecycle_stage": "anything-goes",
             "property_json_schema": {"type": "object", "properties": {"stars": {"type": "integer"}}},
             "create_input_schema": {},
             "links": {"links": [{"title": "Docs", "url": "https://docs.example", "type": "documentation"}]},
             "actions": [
                {"name": "archive", "input_json_schema": {"type": "object"}, "output_json_schema": {}},
                {"name": "sync"}
             ]},
            {"type": "team", "property_json_schema": {
                "$schema": "http://json-schema.org/draft-07/schema#", "type": ["object", "null"]}}
        ]})
    }

    #[test]
    fn a_good_payload_has_no_findings() {
        assert_eq!(findings(good()), Vec::<String>::new());
    }

    #[test]
    fn app_id_version_and_resources_are_required() {
        assert_eq!(
            findings(json!({"app_id": "", "version": 2})),
            [
                "error at /app_id: `app_id` must not be empty",
                "error at /version: expected a string, found a number",
                "error at /resources: `resources` is required: an array of resource type definitions",
            ]
        );
        assert_eq!(
            findings(json!({"app_id": "a", "version": "1", "resources": {}})),
            [
                "error at /resources: expected an array of resource type definitions, found an object"
            ]
        );
        assert_eq!(
            findings(json!({"app_id": "a", "version": "1", "resources": []})),
            ["warning at /resources: the version declares no resource types"]
        );
    }

    /// What `appdeck infer` and `:connect new` write until told otherwise is never sent as it is.
    #[test]
    fn the_placeholder_app_id_and_version_are_errors_until_replaced() {
        let mut payload = good();
        payload["app_id"] = json!(PLACEHOLDER_APP_ID);
        payload["version"] = json!(PLACEHOLDER_VERSION);
        assert_eq!(
            findings(payload.clone()),
            [
                "error at /app_id: `app_id` is a placeholder: replace it with your app's id",
                "error at /version: `version` is a placeholder: replace it with the version to \
                 connect (such as 1.0.0)",
            ]
        );
        // Half edited is still a placeholder; replaced, it is not.
        payload["app_id"] = json!("acme-REPLACE-ME-app-id");
        payload["version"] = json!("1.0.0");
        assert_eq!(
            findings(payload),
            ["error at /app_id: `app_id` is a placeholder: replace it with your app's id"]
        );
    }

    #[test]
    fn type_names_are_required_and_unique() {
        let payload = json!({"app_id": "a", "version": "1", "resources": [
            {"type": "repo"}, "repo", {"display_name": "x"}, {"type": "repo"}
        ]});
        assert_eq!(
            findings(payload),
            [
                "error at /resources/1: expected a resource type definition (an object), found a string",
                "error at /resources/2/type: `type` is required",
                "error at /resources/3/type: type \"repo\" is defined twice: at /resources/0 and at /resources/3",
            ]
        );
    }

    #[test]
    fn action_names_are_required_and_unique_within_a_type() {
        let mut payload = good();
        payload["resources"][0]["actions"] =
            json!([{"name": "sync"}, {"description": "no name"}, {"name": "sync"}, 4]);
        // The same name in another type is fine.
        payload["resources"][1]["actions"] = json!([{"name": "sync"}]);
        assert_eq!(
            findings(payload.clone()),
            [
                "error at /resources/0/actions/1/name: `name` is required",
                "error at /resources/0/actions/2/name: action \"sync\" is defined twice in this type: at /resources/0/actions/0 and at /resources/0/actions/2",
                "error at /resources/0/actions/3: expected an action definition (an object), found a number",
            ]
        );
        payload["resources"][0]["actions"] = json!({"sync": {}});
        assert_eq!(
            findings(payload),
            [
                "error at /resources/0/actions: expected an array of action definitions, found an object"
            ]
        );
    }

    #[test]
    fn every_schema_must_compile() {
        let mut payload = good();
        payload["resources"][0]["update_input_schema"] = json!({"type": "no-such-type"});
        payload["resources"][0]["actions"][0]["input_json_schema"] = json!({"minimum": "zero"});
        payload["resources"][1]["property_json_schema"] = json!({"type": "no-such-type"});
        payload["resources"][0]["actions"][1]["output_json_schema"] = json!("object");
        let v = validate_value(&payload, None).unwrap();
        let pointers: Vec<_> = v.findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/resources/0/update_input_schema",
                "/resources/0/actions/0/input_json_schema",
                "/resources/0/actions/1/output_json_schema",
                "/resources/1/property_json_schema",
            ]
        );
        // Only errors: no advice about a schema that does not compile at all.
        assert!(v.findings.iter().all(|f| f.severity == Severity::Error));
        assert!(
            v.findings[0]
                .message
                .starts_with("the JSON Schema does not compile: ")
        );
        assert_eq!(
            v.findings[2].message,
            "expected a JSON Schema object, found a string"
        );
    }

    #[test]
    fn the_declared_draft_is_used() {
        // `exclusiveMinimum: true` is draft 4 syntax: valid there, a compile error in 2020-12.
        let mut payload = good();
        payload["resources"][0]["property_json_schema"] = json!({"$schema": "http://json-schema.org/draft-04/schema#", "minimum": 0, "exclusiveMinimum": true});
        assert!(findings(payload.clone()).is_empty());
        payload["resources"][0]["property_json_schema"] =
            json!({"minimum": 0, "exclusiveMinimum": true});
        assert_eq!(findings(payload).len(), 1);
    }

    #[test]
    fn hostile_schemas_do_not_crash() {
        for schema in [
            json!({"$ref": "#"}),
            json!({"$ref": "https://example.invalid/schema.json"}),
            json!({"$defs": {"a": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}),
            json!({"pattern": "(("}),
            json!({"$schema": "https://example.invalid/unknown-draft"}),
        ] {
            let mut payload = good();
            payload["resources"][0]["property_json_schema"] = schema;
            let _ = validate_value(&payload, None).unwrap();
        }
    }

    #[test]
    fn a_properties_schema_that_refuses_objects_is_a_warning() {
        let mut payload = good();
        payload["resources"][0]["property_json_schema"] = json!({"type": "string"});
        let v = validate_value(&payload, None).unwrap();
        let pointers: Vec<_> = v.findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(pointers, ["/resources/0/property_json_schema/type"]);
        assert!(!v.has_errors());
    }

    #[test]
    fn boolean_schemas_are_errors_since_the_spec_types_schemas_as_objects() {
        let mut payload = good();
        payload["resources"][1]["property_json_schema"] = json!(false);
        payload["resources"][0]["actions"][0]["output_json_schema"] = json!(true);
        let found = findings(payload);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].starts_with("error at /resources/0/actions/0/output_json_schema"));
        assert!(found[0].contains("(write {})"), "{found:?}");
        assert!(found[1].starts_with("error at /resources/1/property_json_schema"));
    }

    #[test]
    fn a_properties_schema_whose_type_allows_no_object_is_warned_about() {
        let warned = |declared: Value| {
            let mut payload = good();
            payload["resources"][0]["property_json_schema"] = json!({ "type": declared });
            findings(payload)
        };
        let warning = "warning at /resources/0/property_json_schema/type: a resource's \
                       `properties` is always an object, and this schema's `type` does not allow \
                       one, so it refuses every resource of this type";
        assert_eq!(warned(json!("string")), [warning]);
        assert_eq!(warned(json!(["string", "null"])), [warning]);
        assert!(warned(json!("object")).is_empty());
        assert!(warned(json!(["null", "object"])).is_empty());
    }

    #[test]
    fn wrong_typed_fields_and_links() {
        let mut payload = good();
        payload["resources"][0]["list_supported"] = json!("yes");
        payload["resources"][0]["lifecycle_stage"] = json!(3);
        payload["resources"][0]["actions"][0]["description"] = json!({});
        payload["resources"][1]["links"] =
            json!({"links": [{"url": "mailto:x@example.com"}, null]});
        assert_eq!(
            findings(payload),
            [
                "error at /resources/0/list_supported: expected a boolean, found a string",
                "error at /resources/0/lifecycle_stage: expected a string, found a number",
                "error at /resources/0/actions/0/description: expected a string, found an object",
                "warning at /resources/1/links/links/0/url: \"mailto:x@example.com\" is not an http or https URL with a host; appdeck opens only those",
                "error at /resources/1/links/links/1: expected a link object, found null",
            ]
        );
    }
}
