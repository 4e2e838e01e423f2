use super::*;
use serde_json::json;

fn find<'a>(node: &'a Node, path: &[&str]) -> &'a Node {
    let mut node = node;
    for name in path {
        node = node
            .children
            .iter()
            .find(|c| c.name == *name)
            .unwrap_or_else(|| panic!("no {name} under {}: {:#?}", node.name, node.children));
    }
    node
}

fn fact<'a>(node: &'a Node, key: &str) -> Option<&'a str> {
    node.facts
        .iter()
        .find(|f| f.key == key)
        .map(|f| f.value.as_str())
}

#[test]
fn fields_carry_types_requiredness_constraints_and_descriptions() {
    let schema = json!({
        "type": "object",
        "required": ["name"],
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[a-z]+$",
                     "description": "The name."},
            "size": {"type": ["integer", "null"], "minimum": 0, "default": 3},
            "kind": {"enum": ["a", "b", 1]},
            "at": {"type": "string", "format": "date-time"},
            "fixed": {"const": "x"},
            "tags": {"type": "array", "items": {"type": "array", "items": {"type": "string"}},
                     "minItems": 1, "uniqueItems": true},
            "loose": {}
        },
        "additionalProperties": false
    });
    let tree = explain("property_json_schema", &schema);
    let root = &tree.root;
    assert_eq!(root.types, ["object"]);
    assert_eq!(fact(root, "additionalProperties"), Some("false"));
    let name = find(root, &["name"]);
    assert!(name.required);
    assert_eq!(fact(name, "minLength"), Some("1"));
    assert_eq!(fact(name, "maxLength"), Some("64"));
    assert_eq!(fact(name, "pattern"), Some("^[a-z]+$"));
    assert_eq!(name.description.as_deref(), Some("The name."));
    let size = find(root, &["size"]);
    assert!(!size.required);
    assert_eq!(size.type_label(), "integer|null");
    assert_eq!(fact(size, "default"), Some("3"));
    assert_eq!(fact(find(root, &["kind"]), "enum"), Some(r#""a", "b", 1"#));
    assert_eq!(
        find(root, &["kind"]).type_label(),
        "string|integer",
        "told by the values"
    );
    assert_eq!(find(root, &["fixed"]).type_label(), "string");
    assert_eq!(fact(find(root, &["at"]), "format"), Some("date-time"));
    assert_eq!(fact(find(root, &["fixed"]), "const"), Some(r#""x""#));
    let inner = find(root, &["tags", "[]", "[]"]);
    assert_eq!(inner.types, ["string"]);
    assert_eq!(find(root, &["tags"]).role, Role::Property);
    assert_eq!(find(root, &["tags", "[]"]).role, Role::Items);
    assert_eq!(find(root, &["loose"]).type_label(), "any");
}

#[test]
fn local_refs_are_expanded_and_cycles_marked_not_followed() {
    let schema = json!({
        "type": "object",
        "properties": {
            "owner": {"$ref": "#/$defs/person", "description": "Who owns it."},
            "legacy": {"$ref": "#/definitions/old"},
            "tree": {"$ref": "#/$defs/node"},
            "remote": {"$ref": "https://example.com/schema.json"},
            "missing": {"$ref": "#/$defs/nope"}
        },
        "$defs": {
            "person": {"type": "object", "required": ["login"],
                       "properties": {"login": {"type": "string"}},
                       "description": "A person."},
            "node": {"type": "object", "properties": {
                "value": {"type": "integer"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}
            }}
        },
        "definitions": {"old": {"type": "boolean"}}
    });
    let tree = explain("s", &schema);
    let root = &tree.root;
    assert!(
        !root.children.iter().any(|c| c.name == "$defs"),
        "definitions are not fields"
    );
    let owner = find(root, &["owner"]);
    assert_eq!(owner.types, ["object"]);
    assert_eq!(
        owner.description.as_deref(),
        Some("Who owns it."),
        "own text first"
    );
    assert!(find(owner, &["login"]).required);
    assert_eq!(owner.reference.as_ref().unwrap().state, RefState::Resolved);
    assert_eq!(find(root, &["legacy"]).types, ["boolean"]);
    let again = find(root, &["tree", "children", "[]"]);
    let reference = again.reference.as_ref().unwrap();
    assert_eq!(reference.target, "#/$defs/node");
    assert_eq!(reference.state, RefState::Cycle);
    assert!(again.children.is_empty(), "a cycle is not followed");
    assert!(matches!(
        find(root, &["remote"]).reference.as_ref().unwrap().state,
        RefState::Unresolved { .. }
    ));
    assert!(matches!(
        find(root, &["missing"]).reference.as_ref().unwrap().state,
        RefState::Unresolved { .. }
    ));
    let text = render_text(&tree);
    assert!(
        text.contains("[] <object> → #/$defs/node (cycle: not followed)"),
        "{text}"
    );
    assert!(
        text.contains("  owner <object> → #/$defs/person\n"),
        "{text}"
    );
    assert!(text.contains("    login <string>, required\n"), "{text}");
}

#[test]
fn alternatives_show_as_children() {
    let schema = json!({
        "oneOf": [{"type": "string"}, {"type": "object", "properties": {"id": {"type": "integer"}}}],
        "anyOf": [{"minimum": 1}],
        "allOf": [{"$ref": "#/$defs/x"}],
        "not": {"type": "null"},
        "$defs": {"x": {"type": "number"}}
    });
    let tree = explain("s", &schema);
    let names: Vec<&str> = tree.root.children.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["oneOf 1", "oneOf 2", "anyOf 1", "allOf 1", "not"]);
    assert_eq!(tree.root.children[0].role, Role::OneOf);
    assert_eq!(find(&tree.root, &["oneOf 2", "id"]).types, ["integer"]);
    assert_eq!(find(&tree.root, &["allOf 1"]).types, ["number"]);
}

#[test]
fn payload_text_is_neutralised() {
    let schema = json!({
        "type": "object",
        "description": "evil\u{1b}]0;title\u{7}\nsecond line\u{202e}",
        "properties": {"na\u{1b}[2Jme": {"enum": ["\u{9b}x"], "pattern": "\u{1b}[31m"}}
    });
    let tree = explain("s\u{1b}", &schema);
    let text = render_text(&tree);
    assert!(!text.contains('\u{1b}') && !text.contains('\u{9b}') && !text.contains('\u{202e}'));
    assert!(text.contains("na␛[2Jme"), "{text}");
    assert!(
        text.contains("    second line"),
        "descriptions keep their lines: {text}"
    );
    let json = serde_json::to_string(&tree).unwrap();
    assert!(
        !json.contains('\u{9b}') && !json.contains("\\u001b"),
        "{json}"
    );
}

#[test]
fn odd_schemas_do_not_panic() {
    for schema in [
        json!(true),
        json!(false),
        json!(42),
        json!({"type": 7, "properties": [], "required": "x", "items": 3, "oneOf": {}}),
        json!({"$ref": "#"}),
        json!({"$ref": "#/a%2"}),
        json!({"$ref": "#/%ff%fe"}),
    ] {
        let tree = explain("s", &schema);
        let _ = render_text(&tree);
    }
    assert!(explain("s", &json!(false)).root.forbidden);
    let root_ref = explain("s", &json!({"properties": {"again": {"$ref": "#"}}}));
    assert_eq!(
        find(&root_ref.root, &["again"])
            .reference
            .as_ref()
            .unwrap()
            .state,
        RefState::Resolved,
        "a first reference to the root is followed once"
    );
}

#[test]
fn references_cannot_blow_the_tree_up() {
    // Each definition refers to the next one twice: expanding everything would be 2^30 nodes.
    let mut defs = serde_json::Map::new();
    for i in 0..30 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"a": {"$ref": next}, "b": {"$ref": next}}}),
        );
    }
    defs.insert("d30".into(), json!({"type": "string"}));
    let schema = json!({"$ref": "#/$defs/d0", "$defs": defs});
    let tree = explain("s", &schema);
    assert!(tree.truncated);
    assert!(tree.nodes < 3_000, "{}", tree.nodes);
    assert!(render_text(&tree).contains("not expanded"));
}

#[test]
fn a_long_chain_of_references_stops_at_the_depth_limit() {
    let mut defs = serde_json::Map::new();
    for i in 0..500 {
        defs.insert(
            format!("d{i}"),
            json!({"type": "object", "properties": {"next": {"$ref": format!("#/$defs/d{}", i + 1)}}}),
        );
    }
    let schema = json!({"$ref": "#/$defs/d0", "$defs": defs});
    let tree = explain("s", &schema);
    assert!(tree.truncated);
    let deepest = tree.root.walk().into_iter().map(|(d, _)| d).max().unwrap();
    assert!(deepest <= MAX_DEPTH + 1, "{deepest}");
}

#[test]
fn a_long_chain_of_references_on_one_node_is_bounded() {
    // d0 is d1 is d2 ... : every step stays on the same node, so only the chain length bounds it.
    let mut defs = serde_json::Map::new();
    for i in 0..20_000 {
        defs.insert(
            format!("d{i}"),
            json!({"$ref": format!("#/$defs/d{}", i + 1)}),
        );
    }
    defs.insert("d20000".into(), json!({"type": "string"}));
    let tree = explain("s", &json!({"$ref": "#/$defs/d0", "$defs": defs}));
    assert!(tree.truncated);
    assert_eq!(
        tree.root.reference.as_ref().unwrap().state,
        RefState::NotExpanded
    );
}
