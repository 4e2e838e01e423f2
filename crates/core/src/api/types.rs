//! The service's shapes, as its spec gives them. Reading is lenient (see [`super::field`]): every
//! field optional, unknown fields kept, a wrong-typed field kept verbatim and reported.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::error::ApiError;
use super::field::{Field, FieldIssue, json_type_name, lenient_record};

lenient_record! {
    /// A link of a resource or of a resource type.
    pub struct Link {
        title: String => "title",
        url: String => "url",
        /// `documentation` is one value; the others are not in the spec.
        link_type: String => "type",
    }
}

lenient_record! {
    /// The `links` field of a resource or type: an object holding an array of links.
    pub struct Links {
        links: Vec<Link> => "links",
    }
}

lenient_record! {
    /// A resource, as `resources.list` returns it and a report carries it.
    pub struct Resource {
        display_name: String => "display_name",
        external_id: String => "external_id",
        resource_type: String => "type",
        id: String => "id",
        created_at: String => "created_at",
        created_by: String => "created_by",
        deleted_at: String => "deleted_at",
        external_url: String => "external_url",
        name: String => "name",
        organization_id: String => "organization_id",
        status: String => "status",
        synced_at: String => "synced_at",
        updated_at: String => "updated_at",
        properties: Map<String, Value> => "properties",
        links: Links => "links",
    }
}

impl Resource {
    /// The name a person recognises: `display_name`, else `name`.
    pub fn title(&self) -> Option<&str> {
        self.display_name
            .get()
            .or_else(|| self.name.get())
            .map(String::as_str)
    }

    /// The links that are well-formed objects, in order.
    pub fn link_list(&self) -> &[Link] {
        self.links
            .get()
            .and_then(|l| l.links.get())
            .map(Vec::as_slice)
            .unwrap_or_default()
    }
}

lenient_record! {
    /// An action a resource type offers.
    pub struct Action {
        name: String => "name",
        display_name: String => "display_name",
        description: String => "description",
        input_json_schema: Map<String, Value> => "input_json_schema",
        output_json_schema: Map<String, Value> => "output_json_schema",
    }
}

lenient_record! {
    /// A resource type definition, as an app registers it with `apps.version.connect`.
    pub struct ResourceType {
        type_name: String => "type",
        display_name: String => "display_name",
        description: String => "description",
        list_supported: bool => "list_supported",
        read_supported: bool => "read_supported",
        create_supported: bool => "create_supported",
        update_supported: bool => "update_supported",
        delete_supported: bool => "delete_supported",
        healthcheck_supported: bool => "healthcheck_supported",
        lifecycle_stage: String => "lifecycle_stage",
        property_json_schema: Map<String, Value> => "property_json_schema",
        create_input_schema: Map<String, Value> => "create_input_schema",
        update_input_schema: Map<String, Value> => "update_input_schema",
        links: Links => "links",
        instructions_markdown: String => "instructions_markdown",
        actions: Vec<Action> => "actions",
    }
}

lenient_record! {
    /// The `response` object of a report: what kind of response, and the resource it carries.
    pub struct ReportPayload {
        response_type: String => "response_type",
        resource: Resource => "resource",
    }
}

lenient_record! {
    /// Body of `apps.operations.report`: an app reports the result of a task.
    pub struct ReportRequest {
        response: ReportPayload => "response",
        task_id: String => "task_id",
        /// `ok` or `error`.
        status: String => "status",
        message: String => "message",
    }
}

lenient_record! {
    /// `metadata` of a report's answer.
    pub struct ReportMetadata {
        platform_app_url: String => "platform_app_url",
    }
}

lenient_record! {
    /// The answer to `apps.operations.report`. The connect answer is not in the spec; appdeck reads
    /// it with the same shape, since `status`, `message` and `error` are what it shows of it.
    pub struct ReportResponse {
        status: String => "status",
        message: String => "message",
        metadata: ReportMetadata => "metadata",
        error: String => "error",
    }
}

/// The answer to `apps.version.connect` (its shape is not in the spec).
pub(crate) type ConnectResponse = ReportResponse;

/// Body of `resources.list`. `type` is how appdeck passes the filter (DESIGN.md); `limit` is
/// understood by the sandbox and sent only when asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListRequest {
    #[serde(rename = "type", skip_serializing_if = "Option::is_none", default)]
    pub resource_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub next: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub limit: Option<u32>,
}

/// One element of a page: a resource, or an element that is not a JSON object at all.
#[derive(Clone, Debug, PartialEq)]
pub enum PageItem {
    Resource(Box<Resource>),
    Malformed(MalformedItem),
}

/// A page element appdeck could not read as a resource, kept raw so that it can be shown.
#[derive(Clone, Debug)]
pub struct MalformedItem {
    /// The element as JSON; for one the parser could not hold, its text as a string, to show.
    pub raw: Value,
    pub reason: String,
    /// The text of an element the parser could not hold (see [`super::page`]), written back as
    /// it came.
    pub source: Option<Box<RawValue>>,
}

impl PartialEq for MalformedItem {
    fn eq(&self, other: &Self) -> bool {
        self.raw == other.raw
            && self.reason == other.reason
            && self.source.as_deref().map(RawValue::get)
                == other.source.as_deref().map(RawValue::get)
    }
}

impl MalformedItem {
    /// The element as text, as it came.
    pub fn text(&self) -> String {
        match &self.source {
            Some(source) => source.get().to_owned(),
            None => self.raw.to_string(),
        }
    }
}

impl PageItem {
    pub fn from_value(value: Value) -> Self {
        match value {
            Value::Object(map) => PageItem::Resource(Box::new(Resource::from_map(map))),
            other => PageItem::Malformed(MalformedItem {
                reason: format!("expected an object, found {}", json_type_name(&other)),
                raw: other,
                source: None,
            }),
        }
    }

    pub fn resource(&self) -> Option<&Resource> {
        match self {
            PageItem::Resource(r) => Some(r),
            PageItem::Malformed(_) => None,
        }
    }

    /// Why the item is marked: not an object, or fields of the wrong type. Empty when it is sound.
    pub fn problems(&self) -> Vec<String> {
        match self {
            PageItem::Resource(r) => r.field_issues().iter().map(FieldIssue::to_string).collect(),
            PageItem::Malformed(m) => vec![m.reason.clone()],
        }
    }

    /// The item as JSON, exactly as it came (an element the parser could not hold: its text).
    pub fn to_json(&self) -> Value {
        match self {
            PageItem::Resource(r) => serde_json::to_value(r).unwrap_or(Value::Null),
            PageItem::Malformed(m) => m.raw.clone(),
        }
    }
}

impl Serialize for PageItem {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self {
            PageItem::Resource(r) => r.serialize(ser),
            PageItem::Malformed(m) => match &m.source {
                Some(source) => source.serialize(ser),
                None => m.raw.serialize(ser),
            },
        }
    }
}

/// The answer to `resources.list`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ListResponse {
    pub response_type: Field<String>,
    pub resources: Vec<PageItem>,
    /// Cursor of the next page; absent, null or empty means this was the last page.
    pub next: Field<String>,
    pub extra: Map<String, Value>,
}

impl ListResponse {
    /// Reads a page. Only a body that is not an object, or whose `resources` is not an array,
    /// fails: odd items are kept and marked instead.
    pub fn from_value(value: Value) -> Result<Self, String> {
        let Value::Object(mut map) = value else {
            return Err(format!(
                "expected a JSON object, found {}",
                json_type_name(&value)
            ));
        };
        let resources = match map.shift_remove("resources") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items.into_iter().map(PageItem::from_value).collect(),
            Some(other) => {
                return Err(format!(
                    "`resources` should be an array, found {}",
                    json_type_name(&other)
                ));
            }
        };
        Ok(Self::from_map(map, resources))
    }

    /// A page from its fields other than `resources`, and its items.
    pub(crate) fn from_map(mut map: Map<String, Value>, resources: Vec<PageItem>) -> Self {
        ListResponse {
            response_type: Field::take(&mut map, "response_type"),
            next: Field::take(&mut map, "next"),
            resources,
            extra: map,
        }
    }

    /// The cursor to send for the following page, if there is one.
    pub fn next_cursor(&self) -> Option<&str> {
        self.next
            .get()
            .map(String::as_str)
            .filter(|c| !c.is_empty())
    }

    /// A `next` that is neither a string nor null is a server fault: reading it as "no more
    /// pages" would end a listing silently half-way.
    pub fn next_fault(&self) -> Option<ApiError> {
        match &self.next {
            Field::Invalid(value) => Some(ApiError::Decode {
                problem: format!(
                    "`next` should be a string cursor, found {}",
                    json_type_name(value)
                ),
                excerpt: crate::sanitize::excerpt(value.to_string().as_bytes(), 40),
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn resource_round_trip_keeps_unknown_and_wrong_typed_fields() {
        let raw = json!({
            "id": "r1", "type": "repo", "display_name": 42, "future_field": {"a": [1, 2]},
            "properties": {"stars": 3}, "links": {"links": [{"title": "Docs", "url": "https://x", "type": "documentation"}]},
            "deleted_at": null
        });
        let resource: Resource = serde_json::from_value(raw.clone()).unwrap();
        assert_eq!(resource.id.get().map(String::as_str), Some("r1"));
        assert_eq!(resource.display_name, Field::Invalid(json!(42)));
        assert_eq!(resource.deleted_at, Field::Null);
        assert_eq!(resource.link_list().len(), 1);
        assert_eq!(
            resource.extra.get("future_field"),
            Some(&json!({"a": [1, 2]}))
        );
        assert_eq!(serde_json::to_value(&resource).unwrap(), raw);
        let issues = resource.field_issues();
        assert_eq!(issues.len(), 1);
        assert_eq!(
            issues[0].to_string(),
            "/display_name: expected a string, found a number"
        );
    }

    #[test]
    fn nested_issues_carry_their_pointer() {
        let resource: Resource =
            serde_json::from_value(json!({"links": {"links": [{"url": 7}]}})).unwrap();
        let issues = resource.field_issues();
        assert_eq!(issues[0].pointer, "/links/links/0/url");
    }

    #[test]
    fn a_bad_item_in_an_array_is_named_by_its_index() {
        let resource: Resource =
            serde_json::from_value(json!({"links": {"links": [{"url": "https://a"}, "oops"]}}))
                .unwrap();
        let issues = resource.field_issues();
        assert_eq!(issues.len(), 1);
        assert_eq!(
            issues[0].to_string(),
            "/links/links/1: expected an object, found a string"
        );
    }

    #[test]
    fn a_malformed_item_does_not_fail_the_page() {
        let page = ListResponse::from_value(json!({
            "response_type": "list", "resources": [{"id": "a"}, "oops", null], "next": ""
        }))
        .unwrap();
        assert_eq!(page.resources.len(), 3);
        assert!(page.resources[0].problems().is_empty());
        assert_eq!(
            page.resources[1].problems(),
            vec!["expected an object, found a string"]
        );
        assert_eq!(page.next_cursor(), None);
    }

    #[test]
    fn a_next_of_the_wrong_type_is_a_fault_not_the_end() {
        let page = ListResponse::from_value(json!({"resources": [], "next": 42})).unwrap();
        assert_eq!(page.next_cursor(), None);
        assert!(matches!(page.next_fault(), Some(ApiError::Decode { .. })));
        let page = ListResponse::from_value(json!({"resources": [], "next": null})).unwrap();
        assert!(page.next_fault().is_none());
    }

    #[test]
    fn a_page_without_a_resources_array_is_an_error() {
        assert!(ListResponse::from_value(json!({"resources": {}})).is_err());
        assert!(ListResponse::from_value(json!([1])).is_err());
    }

    #[test]
    fn type_definition_reads_all_sixteen_fields() {
        let raw = json!({
            "type": "repo", "display_name": "Repo", "description": "d", "list_supported": true,
            "read_supported": true, "create_supported": false, "update_supported": false,
            "delete_supported": false, "healthcheck_supported": true, "lifecycle_stage": "beta",
            "property_json_schema": {"type": "object"}, "create_input_schema": {}, "update_input_schema": {},
            "links": {"links": []}, "instructions_markdown": "# hi",
            "actions": [{"name": "sync", "display_name": "Sync", "description": "", "input_json_schema": {}, "output_json_schema": {}}]
        });
        let ty: ResourceType = serde_json::from_value(raw.clone()).unwrap();
        assert!(ty.extra.is_empty());
        assert!(ty.field_issues().is_empty());
        assert_eq!(ty.actions.get().unwrap()[0].name.get().unwrap(), "sync");
        assert_eq!(serde_json::to_value(&ty).unwrap(), raw);
    }
}
