//! The breaking-change rule over many schema pairs, each kind of change in each direction.

use serde_json::{Value, json};

use super::*;

/// A payload with one type `repo` whose `property_json_schema` is `properties` and one action
/// `sync` with the given input and output schemas.
fn payload(properties: Value, input: Value, output: Value) -> Value {
    json!({"app_id": "acme", "version": "1.0.0", "resources": [{
        "type": "repo", "display_name": "Repository", "list_supported": true,
        "read_supported": true, "lifecycle_stage": "beta",
        "property_json_schema": properties,
        "actions": [{"name": "sync", "input_json_schema": input, "output_json_schema": output}]
    }]})
}

/// The changes of one input schema (`property_json_schema`) going from `old` to `new`.
fn input(old: Value, new: Value) -> Changes {
    compare(
        &payload(old, json!({}), json!({})),
        &payload(new, json!({}), json!({})),
    )
}

/// The changes of one output schema (the action's `output_json_schema`).
fn output(old: Value, new: Value) -> Changes {
    compare(
        &payload(json!({}), json!({}), old),
        &payload(json!({}), json!({}), new),
    )
}

/// The changes of the action's `input_json_schema`.
fn action_input(old: Value, new: Value) -> Changes {
    compare(
        &payload(json!({}), old, json!({})),
        &payload(json!({}), new, json!({})),
    )
}

/// The one change there is, or a panic listing them.
fn only(changes: &Changes) -> &Change {
    assert_eq!(changes.changes.len(), 1, "{:#?}", changes.changes);
    &changes.changes[0]
}

fn obj(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

#[track_caller]
fn assert_breaks(changes: &Changes, path_end: &str) {
    let change = only(changes);
    assert_eq!(change.impact, Impact::Breaking, "{change:#?}");
    assert!(change.path.ends_with(path_end), "{change:#?}");
    assert!(changes.has_breaking());
}

#[track_caller]
fn assert_safe(changes: &Changes, path_end: &str) {
    let change = only(changes);
    assert_eq!(change.impact, Impact::NonBreaking, "{change:#?}");
    assert!(change.path.ends_with(path_end), "{change:#?}");
    assert!(!changes.has_breaking());
}

#[test]
fn identical_payloads_have_no_changes() {
    let p = payload(
        obj(json!({"a": {"type": "string"}}), &["a"]),
        json!({}),
        json!({}),
    );
    assert!(compare(&p, &p).is_empty());
}

/// Two versions of a schema whose references double at each level, differing at the last:
/// followed, the comparison never ended. It is one change a person must look at.
#[test]
fn a_schema_too_costly_to_compare_is_one_unknown_change() {
    let old = crate::schema::doubling(20);
    let mut new = old.clone();
    new["$defs"]["a40"]["type"] = json!("string");
    let c = input(old, new);
    let change = only(&c);
    assert_eq!(change.impact, Impact::Unknown, "{change:#?}");
    assert!(
        change.path.ends_with("/property_json_schema"),
        "{change:#?}"
    );
    assert!(
        change.reason.contains("too costly to compare"),
        "{change:#?}"
    );
    assert!(c.has_breaking(), "an unknown change holds the send");
}

// ------------------------------------------------------------------ required

#[test]
fn a_new_required_field_breaks_an_input_not_an_output() {
    let old = obj(json!({"a": {"type": "string"}}), &[]);
    let new = obj(json!({"a": {"type": "string"}}), &["a"]);
    let c = input(old.clone(), new.clone());
    assert_breaks(&c, "/property_json_schema/required");
    assert!(only(&c).reason.contains("`a` is now required"));
    assert_safe(
        &output(old.clone(), new.clone()),
        "/output_json_schema/required",
    );
    assert_breaks(&action_input(old, new), "/input_json_schema/required");
}

#[test]
fn a_field_no_longer_required_breaks_an_output_not_an_input() {
    let old = obj(json!({"a": {"type": "string"}}), &["a"]);
    let new = obj(json!({"a": {"type": "string"}}), &[]);
    assert_safe(&input(old.clone(), new.clone()), "/required");
    let c = output(old, new);
    assert_breaks(&c, "/output_json_schema/required");
    assert!(only(&c).reason.contains("no longer required"));
}

// ------------------------------------------------------------------ type

#[test]
fn a_narrowed_type_breaks_inputs_and_a_widened_one_breaks_outputs() {
    let nullable = json!({"type": ["string", "null"]});
    let string = json!({"type": "string"});
    assert_breaks(&input(nullable.clone(), string.clone()), "/type");
    assert_safe(&output(nullable.clone(), string.clone()), "/type");
    assert_safe(&input(string.clone(), nullable.clone()), "/type");
    let c = output(string, nullable);
    assert_breaks(&c, "/output_json_schema/type");
    assert!(only(&c).reason.contains("null"), "{c:?}");
}

#[test]
fn integer_to_number_widens_and_number_to_integer_narrows() {
    let int = json!({"type": "integer"});
    let num = json!({"type": "number"});
    assert_safe(&input(int.clone(), num.clone()), "/type");
    assert_breaks(&output(int.clone(), num.clone()), "/type");
    assert_breaks(&input(num.clone(), int.clone()), "/type");
    assert_safe(&output(num, int), "/type");
}

#[test]
fn adding_a_type_constraint_narrows_and_removing_it_widens() {
    assert_breaks(&input(json!({}), json!({"type": "object"})), "/type");
    assert_breaks(&output(json!({"type": "object"}), json!({})), "/type");
    assert_safe(&input(json!({"type": "object"}), json!({})), "/type");
}

// ------------------------------------------------------------------ enum and const

#[test]
fn an_enum_value_removed_breaks_inputs_and_one_added_breaks_outputs() {
    let two = json!({"enum": ["public", "private"]});
    let three = json!({"enum": ["public", "private", "internal"]});
    let c = input(three.clone(), two.clone());
    assert_breaks(&c, "/enum");
    assert!(only(&c).reason.contains("\"internal\""));
    assert_safe(&output(three.clone(), two.clone()), "/enum");
    assert_safe(&input(two.clone(), three.clone()), "/enum");
    assert_breaks(&output(two, three), "/enum");
}

#[test]
fn enum_reordered_breaks_nobody_and_const_counts_as_an_enum() {
    let c = input(json!({"enum": ["a", "b"]}), json!({"enum": ["b", "a"]}));
    assert_safe(&c, "/enum");
    assert_breaks(&input(json!({}), json!({"const": "x"})), "/const");
    assert_breaks(
        &output(json!({"const": "x"}), json!({"enum": ["x", "y"]})),
        "/enum",
    );
}

// ------------------------------------------------------------------ bounds

#[test]
fn bounds_tightened_break_inputs_and_loosened_break_outputs() {
    for (key, loose, tight) in [
        ("minimum", 0, 1),
        ("exclusiveMinimum", 0, 5),
        ("minLength", 1, 3),
        ("minItems", 0, 2),
        ("minProperties", 0, 1),
        ("maximum", 100, 10),
        ("exclusiveMaximum", 100, 99),
        ("maxLength", 200, 20),
        ("maxItems", 10, 5),
        ("maxProperties", 10, 5),
    ] {
        let loose = json!({ key: loose });
        let tight = json!({ key: tight });
        let at = format!("/{key}");
        assert_breaks(&input(loose.clone(), tight.clone()), &at);
        assert_safe(&output(loose.clone(), tight.clone()), &at);
        assert_safe(&input(tight.clone(), loose.clone()), &at);
        assert_breaks(&output(tight.clone(), loose.clone()), &at);
        // Adding a bound narrows; removing one widens.
        assert_breaks(&input(json!({}), tight.clone()), &at);
        assert_breaks(&output(tight, json!({})), &at);
    }
}

#[test]
fn a_new_min_length_or_pattern_breaks_an_input() {
    assert_breaks(
        &input(
            json!({"type": "string"}),
            json!({"type": "string", "minLength": 1}),
        ),
        "/minLength",
    );
    let c = input(
        json!({"type": "string"}),
        json!({"type": "string", "pattern": "^[a-z]+$"}),
    );
    assert_breaks(&c, "/pattern");
    assert_safe(
        &input(json!({"pattern": "^[a-z]+$"}), json!({})),
        "/pattern",
    );
}

#[test]
fn a_rewritten_pattern_is_of_unknown_effect_and_counts_as_breaking() {
    let c = output(json!({"pattern": "^a"}), json!({"pattern": "^b"}));
    let change = only(&c);
    assert_eq!(change.impact, Impact::Unknown);
    assert!(c.has_breaking());
}

#[test]
fn format_multiple_of_and_unique_items() {
    assert_breaks(&input(json!({}), json!({"format": "date-time"})), "/format");
    assert_breaks(
        &input(json!({"multipleOf": 2}), json!({"multipleOf": 4})),
        "/multipleOf",
    );
    assert_safe(
        &input(json!({"multipleOf": 4}), json!({"multipleOf": 2})),
        "/multipleOf",
    );
    assert_breaks(
        &input(json!({}), json!({"uniqueItems": true})),
        "/uniqueItems",
    );
    assert_breaks(
        &output(json!({"uniqueItems": true}), json!({})),
        "/uniqueItems",
    );
}

// ------------------------------------------------------------------ objects

#[test]
fn additional_properties_false_added_breaks_an_input() {
    let open = obj(json!({"a": {}}), &[]);
    let mut closed = open.clone();
    closed["additionalProperties"] = json!(false);
    let c = input(open.clone(), closed.clone());
    assert_breaks(&c, "/property_json_schema/additionalProperties");
    assert_breaks(
        &output(closed.clone(), open.clone()),
        "/additionalProperties",
    );
    assert_safe(&output(open, closed), "/additionalProperties");
}

#[test]
fn additional_properties_as_a_schema_is_compared_as_one() {
    let c = input(
        json!({"additionalProperties": {"type": ["string", "integer"]}}),
        json!({"additionalProperties": {"type": "string"}}),
    );
    assert_breaks(&c, "/additionalProperties/type");
}

#[test]
fn nested_property_changes_carry_their_path() {
    let old = obj(
        json!({"owner": obj(json!({"login": {"type": "string"}}), &[])}),
        &[],
    );
    let new = obj(
        json!({"owner": obj(json!({"login": {"type": "string", "maxLength": 39}}), &[])}),
        &[],
    );
    let c = input(old, new);
    assert_breaks(
        &c,
        "/resources/0/property_json_schema/properties/owner/properties/login/maxLength",
    );
}

#[test]
fn pointer_tokens_are_escaped() {
    let c = input(
        obj(json!({"a/b~c": {"type": "string"}}), &[]),
        obj(json!({"a/b~c": {"type": "integer"}}), &[]),
    );
    assert!(
        c.changes[0].path.ends_with("/properties/a~1b~0c/type"),
        "{c:?}"
    );
}

#[test]
fn an_optional_property_added_breaks_nobody_but_a_removed_one_widens() {
    let before = obj(json!({"a": {"type": "string"}}), &[]);
    let after = obj(
        json!({"a": {"type": "string"}, "b": {"type": "integer"}}),
        &[],
    );
    assert_safe(&input(before.clone(), after.clone()), "/properties/b");
    assert_safe(&output(before.clone(), after.clone()), "/properties/b");
    // Removed: anything is accepted there now.
    assert_safe(&input(after.clone(), before.clone()), "/properties/b");
    assert_breaks(&output(after, before), "/properties/b");
}

#[test]
fn a_property_removed_under_additional_properties_false_breaks_an_input() {
    let mut before = obj(json!({"a": {}, "b": {}}), &[]);
    before["additionalProperties"] = json!(false);
    let mut after = obj(json!({"a": {}}), &[]);
    after["additionalProperties"] = json!(false);
    assert_breaks(&input(before.clone(), after.clone()), "/properties/b");
    // and added under it, a field that was rejected is accepted now: an output widens.
    assert_breaks(&output(after, before), "/properties/b");
}

// ------------------------------------------------------------------ arrays

#[test]
fn array_items_are_compared_recursively() {
    let old = json!({"type": "array", "items": obj(json!({"id": {"type": "integer"}}), &[])});
    let new = json!({"type": "array", "items": obj(json!({"id": {"type": "integer"}}), &["id"])});
    assert_breaks(&input(old.clone(), new.clone()), "/items/required");
    assert_breaks(&output(new, old), "/items/required");
    assert_breaks(
        &input(
            json!({"type": "array"}),
            json!({"type": "array", "items": {"type": "string"}}),
        ),
        "/items/type",
    );
}

// ------------------------------------------------------------------ $ref

#[test]
fn refs_are_resolved_before_comparing() {
    let old = json!({
        "type": "object",
        "properties": {"owner": {"$ref": "#/$defs/user"}},
        "$defs": {"user": obj(json!({"login": {"type": "string"}}), &[])}
    });
    let new = json!({
        "type": "object",
        "properties": {"owner": {"$ref": "#/$defs/user"}},
        "$defs": {"user": obj(json!({"login": {"type": "string"}}), &["login"])}
    });
    // The $ref text is the same; the definition behind it changed.
    let c = input(old.clone(), new.clone());
    assert_breaks(&c, "/properties/owner/required");
    assert_safe(&output(old, new), "/required");
}

#[test]
fn a_ref_replaced_by_the_same_schema_inline_is_no_change() {
    let with_ref = json!({
        "properties": {"owner": {"$ref": "#/definitions/user"}},
        "definitions": {"user": {"type": "string"}}
    });
    let inline = json!({"properties": {"owner": {"type": "string"}}});
    assert!(input(with_ref.clone(), inline.clone()).is_empty());
    let c = input(
        with_ref,
        json!({"properties": {"owner": {"type": "integer"}}}),
    );
    let narrowed = c.breaking().next().expect("string is no longer accepted");
    assert!(narrowed.path.ends_with("/properties/owner/type"), "{c:#?}");
    assert!(narrowed.reason.contains("string"), "{c:#?}");
}

#[test]
fn recursive_refs_stop_without_looping() {
    let tree = |leaf: &str| {
        json!({
            "$ref": "#/$defs/node",
            "$defs": {"node": {
                "type": "object",
                "properties": {
                    "value": {"type": leaf},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
                }
            }}
        })
    };
    assert!(input(tree("string"), tree("string")).is_empty());
    let c = input(tree("string"), tree("integer"));
    assert!(
        c.breaking()
            .any(|ch| ch.path.ends_with("/properties/value/type")),
        "{c:#?}"
    );
}

#[test]
fn a_changed_unknown_keyword_is_of_unknown_effect_and_annotations_are_listed() {
    let c = input(
        json!({"not": {"type": "string"}}),
        json!({"not": {"type": "integer"}}),
    );
    assert_eq!(only(&c).impact, Impact::Unknown);
    assert!(c.has_breaking());
    assert_safe(
        &input(json!({"title": "Old"}), json!({"title": "New"})),
        "/title",
    );
}

// ------------------------------------------------------------------ types, actions, capabilities

fn with_types(types: Value) -> Value {
    json!({"app_id": "acme", "version": "1", "resources": types})
}

#[test]
fn a_removed_type_breaks_and_an_added_one_does_not() {
    let one = with_types(json!([{"type": "a"}]));
    let two = with_types(json!([{"type": "a"}, {"type": "b"}]));
    let c = compare(&two, &one);
    assert_breaks(&c, "/resources/1");
    assert!(only(&c).subject.contains("\"b\""));
    assert_safe(&compare(&one, &two), "/resources/1");
}

#[test]
fn types_are_matched_by_name_not_position() {
    let ab = with_types(json!([{"type": "a"}, {"type": "b"}]));
    let ba = with_types(json!([{"type": "b"}, {"type": "a"}]));
    assert!(compare(&ab, &ba).is_empty());
}

#[test]
fn a_removed_action_breaks_and_an_added_one_does_not() {
    let without = with_types(json!([{"type": "a", "actions": []}]));
    let with = with_types(json!([{"type": "a", "actions": [{"name": "go"}]}]));
    assert_breaks(&compare(&with, &without), "/resources/0/actions/0");
    assert_safe(&compare(&without, &with), "/resources/0/actions/0");
}

/// A removed action's path is in the old payload: its type's old index with its old index,
/// even when the types were reordered (the new index pointed at another type's action).
#[test]
fn a_removed_action_of_a_moved_type_points_into_the_old_payload() {
    let old = with_types(json!([
        {"type": "repository", "actions": [{"name": "archive"}]},
        {"type": "deployment", "actions": [{"name": "rollback"}]}
    ]));
    let new = with_types(json!([
        {"type": "deployment", "actions": [{"name": "rollback"}]},
        {"type": "repository", "actions": []}
    ]));
    let c = compare(&old, &new);
    assert_eq!(only(&c).path, "/resources/0/actions/0", "{c:#?}");
    assert_eq!(
        old.pointer(&only(&c).path).unwrap()["name"],
        json!("archive")
    );
}

#[test]
fn a_capability_turned_off_breaks_and_one_turned_on_does_not() {
    let on = with_types(json!([{"type": "a", "create_supported": true}]));
    let off = with_types(json!([{"type": "a", "create_supported": false}]));
    let absent = with_types(json!([{"type": "a"}]));
    assert_breaks(&compare(&on, &off), "/create_supported");
    assert_breaks(&compare(&on, &absent), "/create_supported");
    assert_safe(&compare(&off, &on), "/create_supported");
    assert!(compare(&off, &absent).is_empty(), "absent is false");
}

#[test]
fn lifecycle_and_display_text_are_listed_not_breaking() {
    let old = with_types(
        json!([{"type": "a", "lifecycle_stage": "beta", "display_name": "A",
        "actions": [{"name": "go", "description": "Go"}]}]),
    );
    let new = with_types(
        json!([{"type": "a", "lifecycle_stage": "ga", "display_name": "Ay",
        "actions": [{"name": "go", "description": "Go now"}]}]),
    );
    let c = compare(&old, &new);
    assert_eq!(c.changes.len(), 3, "{c:#?}");
    assert!(!c.has_breaking());
    assert!(
        c.changes
            .iter()
            .any(|ch| ch.path == "/resources/0/lifecycle_stage")
    );
    assert!(
        c.changes
            .iter()
            .any(|ch| ch.path == "/resources/0/actions/0/description")
    );
}

#[test]
fn create_and_update_schemas_are_inputs() {
    for key in ["create_input_schema", "update_input_schema"] {
        let old = with_types(json!([{"type": "a", key: {"type": "object"}}]));
        let new = with_types(json!([{"type": "a", key: obj(json!({}), &["x"])}]));
        assert_breaks(&compare(&old, &new), &format!("/{key}/required"));
    }
}

#[test]
fn review_order_puts_breaking_first() {
    let old = with_types(json!([{"type": "a", "read_supported": true}, {"type": "gone"}]));
    let new = with_types(json!([{"type": "a", "lifecycle_stage": "ga"}, {"type": "new"}]));
    let c = compare(&old, &new);
    let order: Vec<Impact> = c.in_review_order().iter().map(|ch| ch.impact).collect();
    assert_eq!(order.len(), 4, "{c:#?}");
    assert_eq!(&order[..2], &[Impact::Breaking, Impact::Breaking]);
    assert!(order[2..].iter().all(|i| *i == Impact::NonBreaking));
}

#[test]
fn garbage_is_compared_without_panicking() {
    for (a, b) in [
        (json!(null), json!([1])),
        (
            json!({"resources": 5}),
            json!({"resources": [{"type": 3}, 7]}),
        ),
        (
            with_types(json!([{"type": "a", "property_json_schema": 5}])),
            with_types(
                json!([{"type": "a", "property_json_schema": {"type": 7, "required": "x", "enum": 1}}]),
            ),
        ),
    ] {
        let _ = compare(&a, &b);
    }
    let c = compare(
        &with_types(json!([{"type": "a", "property_json_schema": {"type": "string"}}])),
        &with_types(json!([{"type": "a", "property_json_schema": {"type": 7}}])),
    );
    assert_eq!(only(&c).impact, Impact::Unknown);
}
