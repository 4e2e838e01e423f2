use serde_json::{Value, json};

use super::*;
use crate::validate::{PayloadKind, validate_value};

fn resource(properties: Value) -> Value {
    json!({"type": "repo", "id": "r", "properties": properties})
}

/// The inferred `property_json_schema` of type `repo` from these properties objects.
fn schema_of(samples: &[Value]) -> Value {
    let rows: Vec<Value> = samples.iter().cloned().map(resource).collect();
    let types = infer_types(&rows);
    assert_eq!(types.len(), 1);
    types[0]["property_json_schema"].clone()
}

#[test]
fn json_types_are_inferred_and_nulls_make_a_union() {
    let s = schema_of(&[
        json!({"name": "a", "stars": 1, "score": 1, "ok": true, "desc": null}),
        json!({"name": "b", "stars": 2, "score": 2.5, "ok": false, "desc": "text"}),
    ]);
    let p = &s["properties"];
    assert_eq!(p["name"]["type"], "string");
    assert_eq!(p["stars"]["type"], "integer");
    assert_eq!(
        p["score"]["type"], "number",
        "integers and fractions: number"
    );
    assert_eq!(p["ok"]["type"], "boolean");
    assert_eq!(p["desc"]["type"], json!(["string", "null"]));
    assert_eq!(s["type"], "object");
}

#[test]
fn a_field_only_ever_null_is_null() {
    let s = schema_of(&[json!({"gone": null})]);
    assert_eq!(s["properties"]["gone"]["type"], "null");
}

#[test]
fn required_lists_fields_present_in_every_sample() {
    let s = schema_of(&[
        json!({"always": 1, "sometimes": 1, "nullable": null}),
        json!({"always": 2, "nullable": 3}),
    ]);
    assert_eq!(s["required"], json!(["always", "nullable"]));
}

#[test]
fn a_resource_without_properties_makes_nothing_required() {
    let rows = [resource(json!({"a": 1})), json!({"type": "repo"})];
    let types = infer_types(&rows);
    assert!(types[0]["property_json_schema"].get("required").is_none());
    assert_eq!(types[0]["property_json_schema"][SAMPLES_KEYWORD], 2);
}

#[test]
fn nested_objects_are_inferred_recursively() {
    let s = schema_of(&[
        json!({"owner": {"login": "ann", "team": {"id": 1}}}),
        json!({"owner": {"login": "bob", "team": {"id": 2, "name": "x"}}}),
    ]);
    let owner = &s["properties"]["owner"];
    assert_eq!(owner["type"], "object");
    assert_eq!(owner["required"], json!(["login", "team"]));
    let team = &owner["properties"]["team"];
    assert_eq!(team["properties"]["id"]["type"], "integer");
    assert_eq!(team["required"], json!(["id"]));
}

#[test]
fn arrays_of_objects_are_inferred_recursively() {
    let s = schema_of(&[
        json!({"tags": ["a"], "members": [{"id": 1, "role": "x"}, {"id": 2}]}),
        json!({"tags": [], "members": []}),
    ]);
    assert_eq!(s["properties"]["tags"]["items"]["type"], "string");
    let items = &s["properties"]["members"]["items"];
    assert_eq!(items["type"], "object");
    assert_eq!(items["required"], json!(["id"]));
    assert_eq!(items["properties"]["role"]["type"], "string");
}

#[test]
fn date_time_only_when_every_string_parses_as_rfc_3339() {
    let s = schema_of(&[
        json!({"at": "2026-11-20T09:30:00Z", "mixed": "2026-11-20T09:30:00+02:00"}),
        json!({"at": "2026-01-02T03:04:05.123Z", "mixed": "yesterday"}),
    ]);
    assert_eq!(s["properties"]["at"]["format"], "date-time");
    assert!(s["properties"]["mixed"].get("format").is_none());
}

/// `n` samples of a string field cycling over `distinct` values.
fn cycling(n: usize, distinct: usize) -> Vec<Value> {
    (0..n)
        .map(|i| json!({"state": format!("s{}", i % distinct)}))
        .collect()
}

#[test]
fn an_enum_needs_at_most_8_values() {
    let s = schema_of(&cycling(40, 7));
    assert_eq!(
        s["properties"]["state"]["enum"].as_array().unwrap().len(),
        7
    );
    let s = schema_of(&cycling(40, 8));
    assert_eq!(
        s["properties"]["state"]["enum"].as_array().unwrap().len(),
        8
    );
    let s = schema_of(&cycling(40, 9));
    assert!(s["properties"]["state"].get("enum").is_none(), "{s}");
    assert_eq!(s["properties"]["state"]["type"], "string");
}

#[test]
fn free_text_seen_often_is_no_enum() {
    let sentences = [
        "Deploys the service to the staging cluster.",
        "Nightly build of the main branch",
    ];
    let states = ["In review", "done"];
    let samples: Vec<Value> = (0..31)
        .map(|i| json!({"description": sentences[i % 2], "state": states[i % 2]}))
        .collect();
    let s = schema_of(&samples);
    assert!(s["properties"]["description"].get("enum").is_none(), "{s}");
    assert_eq!(s["properties"]["description"]["type"], "string");
    assert_eq!(
        s["properties"]["state"]["enum"],
        json!(["In review", "done"]),
        "a choice of two words is still one"
    );
}

#[test]
fn an_enum_needs_at_least_20_samples() {
    let s = schema_of(&cycling(19, 3));
    assert!(s["properties"]["state"].get("enum").is_none(), "{s}");
    let s = schema_of(&cycling(20, 3));
    assert_eq!(s["properties"]["state"]["enum"], json!(["s0", "s1", "s2"]));
}

#[test]
fn an_enum_of_a_nullable_field_allows_null() {
    let mut samples = cycling(20, 2);
    samples.push(json!({"state": null}));
    let s = schema_of(&samples);
    assert_eq!(s["properties"]["state"]["enum"], json!(["s0", "s1", null]));
    // A field that is also a number gets no enum: it would refuse the numbers.
    let mut samples = cycling(20, 2);
    samples.push(json!({"state": 5}));
    assert!(
        schema_of(&samples)["properties"]["state"]
            .get("enum")
            .is_none()
    );
}

#[test]
fn definitions_default_to_list_and_read_and_count_their_samples() {
    let rows = vec![
        resource(json!({"a": 1})),
        json!({"type": "pull_request", "properties": {}}),
        resource(json!({"a": 2})),
        json!({"no": "type"}),
    ];
    let mut inference = Inference::new();
    for row in &rows {
        inference.add_value(row);
    }
    assert_eq!(inference.samples(), 4);
    assert_eq!(inference.untyped(), 1);
    let types = inference.type_definitions();
    assert_eq!(types.len(), 2);
    let repo = &types[0];
    assert_eq!(repo["type"], "repo");
    assert_eq!(repo["list_supported"], true);
    assert_eq!(repo["read_supported"], true);
    for flag in [
        "create_supported",
        "update_supported",
        "delete_supported",
        "healthcheck_supported",
    ] {
        assert_eq!(repo[flag], false, "{flag}");
    }
    assert!(
        repo["description"]
            .as_str()
            .unwrap()
            .contains("2 sampled resources")
    );
    assert_eq!(repo["property_json_schema"][SAMPLES_KEYWORD], 2);
    assert_eq!(types[1]["display_name"], "Pull request");
}

#[test]
fn the_model_and_raw_json_give_the_same_inference() {
    let raw = [
        resource(json!({"a": 1, "b": "x"})),
        resource(json!({"a": null})),
        json!({"type": "repo", "properties": "not an object"}),
    ];
    let mut from_model = Inference::new();
    for row in &raw {
        from_model.add_resource(&serde_json::from_value::<Resource>(row.clone()).unwrap());
    }
    assert_eq!(from_model.type_definitions(), infer_types(&raw));
}

#[test]
fn the_payload_passes_validate_and_accepts_its_samples() {
    let rows: Vec<Value> = (0..30)
        .map(|i| {
            resource(json!({
                "name": format!("n{i}"), "state": if i % 2 == 0 { "open" } else { "closed" },
                "at": "2026-11-20T09:30:00Z", "owner": {"login": "x", "id": i},
                "items": [{"k": i}], "maybe": if i % 3 == 0 { Value::Null } else { json!(1.5) }
            }))
        })
        .collect();
    let mut inference = Inference::new();
    rows.iter().for_each(|r| inference.add_value(r));
    let payload = inference.connect_payload("APP-ID", "0.0.0");
    let validation = validate_value(&payload, None).unwrap();
    assert_eq!(validation.kind, PayloadKind::Connect);
    assert!(validation.findings.is_empty(), "{:?}", validation.findings);
    let schema = crate::schema::compile(&payload["resources"][0]["property_json_schema"]).unwrap();
    for row in &rows {
        assert!(schema.violations(&row["properties"]).is_empty(), "{row}");
    }
}
