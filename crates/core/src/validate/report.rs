//! Checks of a task report (`apps.operations.report`): the fields the spec requires, the resource
//! it carries, and, with `--types`, that resource's `properties` against its type's schema, which is
//! what the service itself checks once the types are connected.

use serde_json::{Map, Value};

use super::common::{
    TIMESTAMPS, check_links, check_timestamp, child, field_issues, optional_string, present, quote,
    required_string, unknown_fields, wrong_type,
};
use super::{Finding, PayloadKind, ValidateError, detect_kind};
use crate::api::types::Resource;
use crate::schema;

const RESPONSE: &str = "/response";
const RESOURCE: &str = "/response/resource";

/// Fields of the resource that name or identify it, so must not be left empty when given.
const PLACEHOLDERS: &[&str] = &["type", "external_id", "name"];

/// The types of a version-connect payload given with `--types`, by name.
pub(super) struct TypeIndex<'a> {
    types: Vec<TypeEntry<'a>>,
}

struct TypeEntry<'a> {
    name: &'a str,
    /// Position in the `resources` array, to point into the `--types` file.
    index: usize,
    schema: Option<&'a Value>,
}

impl<'a> TypeIndex<'a> {
    /// Reads the types; only a file that cannot be a list of types at all is refused. Its own
    /// mistakes are for `appdeck validate` on that file; here the first definition of a name wins,
    /// and definitions without a name are passed over.
    pub(super) fn from_connect(value: &'a Value) -> Result<Self, ValidateError> {
        match detect_kind(value) {
            Ok(PayloadKind::Connect) => {}
            Ok(PayloadKind::Report) => {
                return Err(ValidateError::Types(
                    "the --types file is a task report; it must be a version-connect payload, \
                     whose `resources` lists the types"
                        .into(),
                ));
            }
            Err(e) => {
                return Err(ValidateError::Types(format!(
                    "the --types file is not a version-connect payload: {e}"
                )));
            }
        }
        let Some(resources) = value.get("resources").and_then(Value::as_array) else {
            return Err(ValidateError::Types(
                "the --types file has no `resources` array listing the types".into(),
            ));
        };
        let mut types: Vec<TypeEntry<'a>> = Vec::new();
        for (index, definition) in resources.iter().enumerate() {
            let Some(name) = definition.get("type").and_then(Value::as_str) else {
                continue;
            };
            if types.iter().all(|t| t.name != name) {
                types.push(TypeEntry {
                    name,
                    index,
                    schema: definition
                        .get("property_json_schema")
                        .filter(|s| !s.is_null()),
                });
            }
        }
        Ok(TypeIndex { types })
    }

    fn find(&self, name: &str) -> Option<&TypeEntry<'a>> {
        self.types.iter().find(|t| t.name == name)
    }

    /// The names for a message, not too many of them.
    fn names(&self) -> String {
        const MAX: usize = 20;
        if self.types.is_empty() {
            return "it declares none".into();
        }
        let mut names: Vec<String> = self.types.iter().take(MAX).map(|t| quote(t.name)).collect();
        if self.types.len() > MAX {
            names.push(format!("and {} more", self.types.len() - MAX));
        }
        format!("its types are {}", names.join(", "))
    }
}

/// The `property_json_schema` of `resource`'s type when `types` (a version-connect payload)
/// defines it as an object, found as `--types` finds a type (the first definition of its name):
/// what the TUI's report composer checks and fills the resource's properties by.
pub fn type_schema<'a>(types: &'a Value, resource: &Value) -> Option<&'a Value> {
    let name = resource.get("type")?.as_str()?;
    let index = TypeIndex::from_connect(types).ok()?;
    index.find(name)?.schema.filter(|schema| schema.is_object())
}

/// Checks a report; `types` are those of `--types`, if given.
pub(super) fn check(
    map: &Map<String, Value>,
    types: Option<&TypeIndex<'_>>,
    out: &mut Vec<Finding>,
) {
    unknown_fields(map, &["response", "task_id", "status", "message"], out);
    if let Some(task_id) = required_string(map, "task_id", "", out)
        && let Some(c) = task_id.chars().find(|c| c.is_control())
    {
        // A pasted newline or escape sequence: the id would most likely never match the task.
        out.push(Finding::warning(
            "/task_id",
            format!(
                "`task_id` holds the control character U+{:04X}; an identifier has none",
                u32::from(c)
            ),
        ));
    }
    let status = check_status(map, out);
    let message = optional_string(map, "message", "", out);
    if status == Some("error") && message.is_none_or(|m| m.trim().is_empty()) {
        out.push(Finding::warning(
            "/message",
            "a report with status \"error\" should say what went wrong in `message`",
        ));
    }
    match map.get("response") {
        None => out.push(Finding::error(
            RESPONSE,
            "`response` is required: an object holding `response_type` and `resource`",
        )),
        Some(Value::Object(response)) => check_response(response, types, out),
        Some(other) => out.push(Finding::error(RESPONSE, wrong_type("an object", other))),
    }
}

/// `status` is the outcome of the task, exactly `ok` or `error`.
fn check_status<'a>(map: &'a Map<String, Value>, out: &mut Vec<Finding>) -> Option<&'a str> {
    let status = required_string(map, "status", "", out)?;
    if matches!(status, "ok" | "error") {
        return Some(status);
    }
    let lower = status.trim().to_lowercase();
    let hint = if matches!(lower.as_str(), "ok" | "error") {
        format!(" (write it as \"{lower}\")")
    } else {
        String::new()
    };
    out.push(Finding::error(
        "/status",
        format!(
            "`status` must be \"ok\" or \"error\", found {}{hint}",
            quote(status)
        ),
    ));
    None
}

fn check_response(
    response: &Map<String, Value>,
    types: Option<&TypeIndex<'_>>,
    out: &mut Vec<Finding>,
) {
    let at = child(RESPONSE, "response_type");
    match present(response, "response_type") {
        None => out.push(Finding::warning(
            &at,
            "`response_type` is missing; the spec gives one in every report's `response`",
        )),
        Some(Value::String(_)) => {}
        Some(other) => out.push(Finding::error(&at, wrong_type("a string", other))),
    }
    match present(response, "resource") {
        None => out.push(Finding::warning(
            RESOURCE,
            "the report carries no `resource`, so there is nothing for the service to record",
        )),
        Some(Value::Object(resource)) => check_resource(resource, types, out),
        Some(other) => out.push(Finding::error(
            RESOURCE,
            wrong_type("a resource object", other),
        )),
    }
}

fn check_resource(
    resource: &Map<String, Value>,
    types: Option<&TypeIndex<'_>>,
    out: &mut Vec<Finding>,
) {
    let model = Resource::from_map(resource.clone());
    // Links are checked item by item below, with clearer messages.
    field_issues(model.field_issues(), RESOURCE, &["/links"], out);
    for key in TIMESTAMPS {
        if let Some(Value::String(value)) = resource.get(*key) {
            check_timestamp(value, &child(RESOURCE, key), out);
        }
    }
    check_links(resource.get("links"), &child(RESOURCE, "links"), out);
    // An empty type, external id or name is a placeholder never filled in (a blank report's):
    // the service can neither file a resource under it nor find one by it.
    for key in PLACEHOLDERS {
        if let Some(Value::String(value)) = resource.get(*key)
            && value.trim().is_empty()
        {
            let at = child(RESOURCE, key);
            out.push(Finding::error(&at, format!("`{key}` must not be empty")));
        }
    }
    if let Some(types) = types {
        check_against_types(resource, types, out);
    }
}

/// The resource's type must be one of `types`, and its `properties` must satisfy that type's
/// `property_json_schema`. Absent (or null) properties are checked as `{}`, so that a schema that
/// requires some still says which.
fn check_against_types(
    resource: &Map<String, Value>,
    types: &TypeIndex<'_>,
    out: &mut Vec<Finding>,
) {
    let at_type = child(RESOURCE, "type");
    let at_properties = child(RESOURCE, "properties");
    let name = match present(resource, "type") {
        // Already reported as empty.
        Some(Value::String(name)) if name.trim().is_empty() => return,
        Some(Value::String(name)) => name,
        None => {
            out.push(Finding::error(
                &at_type,
                format!(
                    "`type` is required to check the resource against the --types file; {}",
                    types.names()
                ),
            ));
            return;
        }
        // Already reported as a field of the wrong type.
        Some(_) => return,
    };
    let Some(entry) = types.find(name) else {
        out.push(Finding::error(
            &at_type,
            format!(
                "{} is not a type of the --types file; {}",
                quote(name),
                types.names()
            ),
        ));
        return;
    };
    let Some(schema) = entry.schema else {
        return;
    };
    // Objects only, as `appdeck validate` on the --types file itself says (the spec types schemas
    // as objects, and the service refuses boolean ones): a schema the service would refuse is no
    // basis for passing a report.
    let compiled = match schema {
        Value::Object(_) => match schema::too_costly(schema, "check") {
            Some(why) => Err(why),
            None => schema::compile(schema),
        },
        Value::Bool(b) => Err(format!(
            "expected a JSON Schema object, found the boolean schema `{b}` (the spec types \
             schemas as objects)"
        )),
        other => Err(wrong_type("a JSON Schema object", other)),
    };
    let compiled = match compiled {
        Ok(compiled) => compiled,
        Err(reason) => {
            out.push(Finding::error(
                &at_properties,
                format!(
                    "not checked: the property_json_schema of type {} in the --types file \
                     (/resources/{}/property_json_schema) is unusable: {reason}",
                    quote(name),
                    entry.index
                ),
            ));
            return;
        }
    };
    let empty = Value::Object(Map::new());
    let properties = match present(resource, "properties") {
        None => &empty,
        Some(value @ Value::Object(_)) => value,
        // Already reported as a field of the wrong type.
        Some(_) => return,
    };
    for violation in compiled.violations(properties) {
        out.push(Finding::error(
            &format!("{at_properties}{}", violation.pointer),
            violation.message,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate::{Severity, validate_value};
    use serde_json::json;

    fn findings(report: Value, types: Option<Value>) -> Vec<String> {
        validate_value(&report, types.as_ref())
            .unwrap()
            .findings
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn good() -> Value {
        json!({
            "task_id": "t-1", "status": "ok", "message": "done",
            "response": {"response_type": "resource", "resource": {
                "type": "repo", "name": "appdeck", "created_at": "2024-05-01T12:00:00Z",
                "properties": {"stars": 3},
                "links": {"links": [{"title": "Home", "url": "https://example.com", "type": "documentation"}]}
            }}
        })
    }

    /// A schema whose references double at each level is refused with its reason, at once:
    /// checked, it never ended (on the UI thread, for a small report).
    #[test]
    fn a_schema_too_costly_to_check_is_a_finding_not_a_hang() {
        let mut report = good();
        report["response"]["resource"]["type"] = json!("bomb");
        let types = json!({"app_id": "a", "version": "1", "resources": [
            {"type": "bomb", "property_json_schema": crate::schema::doubling(20)}]});
        let found = findings(report, Some(types));
        assert!(
            found
                .iter()
                .any(|f| f.contains("is unusable: too costly to check")),
            "{found:?}"
        );
    }

    #[test]
    fn a_resource_type_schema_is_its_first_definitions_when_that_is_an_object() {
        let types = json!({"app_id": "a", "version": "1", "resources": [
            {"type": "repo", "property_json_schema": {"required": ["stars"]}},
            {"type": "repo", "property_json_schema": {"required": ["other"]}},
            {"type": "flag", "property_json_schema": true},
            {"type": "bare"}
        ]});
        let schema = |resource: Value| type_schema(&types, &resource).cloned();
        assert_eq!(
            schema(json!({"type": "repo"})),
            Some(json!({"required": ["stars"]}))
        );
        assert_eq!(schema(json!({"type": "flag"})), None, "not an object");
        assert_eq!(schema(json!({"type": "bare"})), None);
        assert_eq!(schema(json!({"type": "nobody"})), None);
        assert_eq!(schema(json!({"name": "no type"})), None);
    }

    #[test]
    fn the_types_named_in_a_message_stop_at_20() {
        let payload = |count: usize| {
            let resources: Vec<Value> = (0..count)
                .map(|i| json!({"type": format!("t{i}")}))
                .collect();
            json!({"app_id": "a", "version": "1", "resources": resources})
        };
        let twenty = payload(20);
        let names = TypeIndex::from_connect(&twenty).unwrap().names();
        assert!(names.ends_with("\"t19\""), "all 20 named: {names}");
        let twenty_one = payload(21);
        let names = TypeIndex::from_connect(&twenty_one).unwrap().names();
        assert!(names.ends_with("\"t19\", and 1 more"), "{names}");
        assert!(!names.contains("\"t20\""), "{names}");
    }

    fn types() -> Value {
        json!({"app_id": "a", "version": "1", "resources": [
            {"type": "repo", "property_json_schema": {
                "type": "object",
                "properties": {"stars": {"type": "integer", "minimum": 0}, "a/b": {"type": "string"}},
                "required": ["stars"]
            }},
            {"type": "team"},
            {"type": "repo", "property_json_schema": false}
        ]})
    }

    #[test]
    fn a_good_report_has_no_findings() {
        assert_eq!(findings(good(), None), Vec::<String>::new());
        assert_eq!(findings(good(), Some(types())), Vec::<String>::new());
    }

    #[test]
    fn required_fields() {
        let shown = findings(json!({"task_id": ""}), None);
        assert_eq!(
            shown,
            [
                "error at /task_id: `task_id` must not be empty",
                "error at /status: `status` is required",
                "error at /response: `response` is required: an object holding `response_type` and `resource`",
            ]
        );
        let shown = findings(json!({"task_id": 5, "status": "ok", "response": []}), None);
        assert_eq!(
            shown,
            [
                "error at /task_id: expected a string, found a number",
                "error at /response: expected an object, found an array",
            ]
        );
    }

    #[test]
    fn an_empty_type_external_id_or_name_is_a_placeholder_not_filled_in() {
        let mut report = good();
        let resource = &mut report["response"]["resource"];
        resource["type"] = json!("");
        resource["external_id"] = json!(" ");
        resource["name"] = json!("");
        assert_eq!(
            findings(report.clone(), Some(types())),
            [
                "error at /response/resource/type: `type` must not be empty",
                "error at /response/resource/external_id: `external_id` must not be empty",
                "error at /response/resource/name: `name` must not be empty",
            ]
        );
        // Left out, they are not placeholders: which resource fields are required is not said.
        for key in PLACEHOLDERS {
            report["response"]["resource"]
                .as_object_mut()
                .map(|r| r.remove(*key));
        }
        assert_eq!(findings(report, None), Vec::<String>::new());
    }

    #[test]
    fn status_is_ok_or_error_exactly() {
        let mut report = good();
        report["status"] = json!("OK");
        assert_eq!(
            findings(report.clone(), None),
            [
                "error at /status: `status` must be \"ok\" or \"error\", found \"OK\" (write it as \"ok\")"
            ]
        );
        report["status"] = json!("done");
        assert_eq!(
            findings(report, None),
            ["error at /status: `status` must be \"ok\" or \"error\", found \"done\""]
        );
    }

    #[test]
    fn an_error_report_should_say_why() {
        let mut report = good();
        report["status"] = json!("error");
        report.as_object_mut().unwrap().remove("message");
        assert_eq!(
            findings(report.clone(), None),
            [
                "warning at /message: a report with status \"error\" should say what went wrong in `message`"
            ]
        );
        report["message"] = json!(12);
        assert_eq!(
            findings(report, None),
            [
                "error at /message: expected a string, found a number",
                "warning at /message: a report with status \"error\" should say what went wrong in `message`",
            ]
        );
    }

    #[test]
    fn response_type_and_resource() {
        let report = json!({"task_id": "t", "status": "ok", "response": {}});
        assert_eq!(
            findings(report, None),
            [
                "warning at /response/response_type: `response_type` is missing; the spec gives one in every report's `response`",
                "warning at /response/resource: the report carries no `resource`, so there is nothing for the service to record",
            ]
        );
        let report = json!({"task_id": "t", "status": "ok", "response": {"response_type": 1, "resource": "r"}});
        assert_eq!(
            findings(report, None),
            [
                "error at /response/response_type: expected a string, found a number",
                "error at /response/resource: expected a resource object, found a string",
            ]
        );
    }

    #[test]
    fn wrong_typed_resource_fields_carry_the_full_pointer() {
        let mut report = good();
        let resource = &mut report["response"]["resource"];
        resource["display_name"] = json!(42);
        resource["properties"] = json!([1]);
        resource["links"] = json!({"links": [{"url": "https://x.example"}, "oops"]});
        assert_eq!(
            findings(report, None),
            [
                "error at /response/resource/display_name: expected a string, found a number",
                "error at /response/resource/properties: expected an object, found an array",
                "error at /response/resource/links/links/1: expected a link object, found a string",
            ]
        );
    }

    #[test]
    fn odd_timestamps_and_links_are_warnings() {
        let mut report = good();
        let resource = &mut report["response"]["resource"];
        resource["updated_at"] = json!("last tuesday");
        resource["links"]["links"][0]["url"] = json!("file:///etc/passwd");
        let v = validate_value(&report, None).unwrap();
        assert!(!v.has_errors());
        let pointers: Vec<_> = v.findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/response/resource/updated_at",
                "/response/resource/links/links/0/url"
            ]
        );
        assert!(v.findings.iter().all(|f| f.severity == Severity::Warning));
    }

    #[test]
    fn properties_are_checked_against_the_type_schema() {
        let mut report = good();
        report["response"]["resource"]["properties"] = json!({"stars": -1, "a/b": 3});
        let v = validate_value(&report, Some(&types())).unwrap();
        let pointers: Vec<_> = v.findings.iter().map(|f| f.pointer.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/response/resource/properties/stars",
                "/response/resource/properties/a~1b"
            ]
        );
        assert!(
            v.findings[0].message.contains("minimum of 0"),
            "{:?}",
            v.findings
        );
        assert!(v.has_errors());
    }

    #[test]
    fn absent_properties_are_checked_as_empty() {
        let mut report = good();
        report["response"]["resource"]
            .as_object_mut()
            .unwrap()
            .remove("properties");
        let v = validate_value(&report, Some(&types())).unwrap();
        assert_eq!(v.findings.len(), 1);
        assert_eq!(v.findings[0].pointer, "/response/resource/properties");
        assert!(v.findings[0].message.contains("stars"));
    }

    #[test]
    fn the_type_must_be_known() {
        let mut report = good();
        report["response"]["resource"]["type"] = json!("nope");
        assert_eq!(
            findings(report.clone(), Some(types())),
            [
                "error at /response/resource/type: \"nope\" is not a type of the --types file; its types are \"repo\", \"team\""
            ]
        );
        report["response"]["resource"]
            .as_object_mut()
            .unwrap()
            .remove("type");
        assert_eq!(
            findings(report.clone(), Some(types())),
            [
                "error at /response/resource/type: `type` is required to check the resource against the --types file; its types are \"repo\", \"team\""
            ]
        );
        report["response"]["resource"]["type"] = json!(["repo"]);
        assert_eq!(
            findings(report, Some(types())),
            ["error at /response/resource/type: expected a string, found an array"]
        );
    }

    #[test]
    fn a_type_without_schema_accepts_any_properties() {
        let mut report = good();
        report["response"]["resource"]["type"] = json!("team");
        report["response"]["resource"]["properties"] = json!({"anything": [1, {"x": null}]});
        assert!(findings(report, Some(types())).is_empty());
    }

    #[test]
    fn an_unusable_type_schema_is_an_error_not_a_crash() {
        let types = json!({"resources": [
            {"type": "repo", "property_json_schema": {"type": "no-such-type"}},
            {"type": "team", "property_json_schema": "object"}
        ]});
        let v = validate_value(&good(), Some(&types)).unwrap();
        assert_eq!(v.findings.len(), 1);
        assert_eq!(v.findings[0].pointer, "/response/resource/properties");
        assert!(
            v.findings[0]
                .message
                .contains("/resources/0/property_json_schema"),
            "{}",
            v.findings[0]
        );
        let mut report = good();
        report["response"]["resource"]["type"] = json!("team");
        let v = validate_value(&report, Some(&types)).unwrap();
        assert!(
            v.findings[0].message.contains("found a string"),
            "{}",
            v.findings[0]
        );
    }

    #[test]
    fn a_boolean_type_schema_is_unusable_as_connect_checks_say() {
        for schema in [json!(true), json!(false)] {
            let types = json!({"resources": [{"type": "repo", "property_json_schema": schema}]});
            let v = validate_value(&good(), Some(&types)).unwrap();
            assert_eq!(v.findings.len(), 1, "{:?}", v.findings);
            let finding = &v.findings[0];
            assert_eq!(finding.severity, Severity::Error);
            assert_eq!(finding.pointer, "/response/resource/properties");
            assert!(
                finding.message.starts_with("not checked: ")
                    && finding.message.contains(
                        "is unusable: expected a JSON Schema object, found the boolean schema"
                    )
                    && finding.message.contains(&format!("`{schema}`")),
                "{finding}"
            );
        }
    }

    #[test]
    fn many_type_names_are_cut_short() {
        let resources: Vec<Value> = (0..25).map(|i| json!({"type": format!("t{i}")})).collect();
        let types = json!({"resources": resources});
        let mut report = good();
        report["response"]["resource"]["type"] = json!("zzz");
        let shown = findings(report, Some(types));
        assert!(shown[0].ends_with("\"t19\", and 5 more"), "{}", shown[0]);
    }
}
