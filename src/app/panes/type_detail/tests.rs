//! A type's detail: what it shows, its panes, its schema tree, its versions, its links.

use std::sync::Arc;

use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::schema::SchemaTree;
use super::{AboutKind, OpenType, TypeDetail, TypePane};
use crate::app::panes::types::KnownTypes;
use crate::app::panes::types::tests::known;
use crate::catalog::{AppVersion, Catalog, Source};

fn open(known: &Arc<KnownTypes>, name: &str, width: u16) -> TypeDetail {
    let type_index = known
        .catalog
        .types()
        .iter()
        .position(|t| t.name == name)
        .unwrap();
    TypeDetail::open(&OpenType {
        known: known.clone(),
        type_index,
        version: 0,
        width,
    })
}

#[test]
fn the_about_pane_spells_out_what_the_type_is() {
    let d = open(&known(), "repository", 120);
    let text: Vec<String> = d
        .about
        .iter()
        .map(|l| format!("{} {}", l.label, l.text))
        .collect();
    let all = text.join("\n");
    assert!(
        all.contains("description A Git repository hosted on Acme Code"),
        "{all}"
    );
    assert!(all.contains("source demo"));
    assert!(all.contains("versions 1 of 2 (the newest)"));
    assert!(
        all.contains("supported list, read, create, update"),
        "{all}"
    );
    assert!(all.contains("healthcheck"));
    assert!(all.contains("Actions (2)"));
    assert!(all.contains("sync"));
    assert!(all.contains("Fetch the repository's metadata"));
    assert!(
        d.about
            .iter()
            .any(|l| l.kind == AboutKind::Link && l.url.is_some())
    );
    let markdown: Vec<String> = d
        .instructions
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    let markdown = markdown.join("\n");
    assert!(markdown.contains("Repositories"), "{markdown}");
    assert!(
        !markdown.contains("**"),
        "emphasis is rendered, not shown as stars"
    );
    assert!(markdown.contains("visibility"), "the table is there");
    // At 120x40 the about pane and the instructions fit without scrolling.
    let body = crate::app::layout::screen(Rect::new(0, 0, 120, 40)).body;
    assert!(
        d.about.len() <= d.pane_height(TypePane::About, body),
        "{}",
        d.about.len()
    );
    assert!(d.instructions.len() <= d.pane_height(TypePane::Instructions, body));
}

#[test]
fn every_demo_type_fits_at_120x40() {
    let known = known();
    let body = crate::app::layout::screen(Rect::new(0, 0, 120, 40)).body;
    for t in known.catalog.types() {
        let d = open(&known, &t.name, body.width);
        assert!(
            d.about.len() <= d.pane_height(TypePane::About, body),
            "{}",
            t.name
        );
        assert!(
            d.instructions.len() <= d.pane_height(TypePane::Instructions, body),
            "{}",
            t.name
        );
    }
}

#[test]
fn payload_text_is_neutralised() {
    let d = open(&known(), "widget", 80);
    for line in &d.about {
        assert!(
            !line.text.contains('\u{1b}') && !line.text.contains('\u{7}'),
            "{line:?}"
        );
    }
    assert!(d.raw.iter().all(|l| !l.contains('\u{1b}')));
}

#[test]
fn v_shows_the_older_version() {
    let known = known();
    let mut d = open(&known, "repository", 120);
    assert_eq!((d.version, d.versions), (0, 2));
    d = TypeDetail::open(&OpenType {
        known: known.clone(),
        type_index: d.type_index,
        version: 1,
        width: 120,
    });
    assert_eq!(d.definition().unwrap().version.as_deref(), Some("1.0.0"));
    assert!(d.about.iter().any(|l| l.text.contains("2 of 2 (older)")));
}

fn tree(schema: Value) -> SchemaTree {
    SchemaTree::new(&[("property_json_schema".to_owned(), schema)])
}

#[test]
fn the_schema_tree_resolves_refs_marks_cycles_and_shows_alternatives() {
    let t = tree(json!({
        "type": "object",
        "required": ["owner"],
        "properties": {
            "owner": {"$ref": "#/$defs/person"},
            "tags": {"type": "array", "items": {"type": "string", "maxLength": 20}},
            "target": {"oneOf": [{"type": "string"}, {"type": "integer"}]}
        },
        "$defs": {"person": {"type": "object", "properties": {
            "name": {"type": "string"}, "manager": {"$ref": "#/$defs/person"}}}}
    }));
    let lines: Vec<String> = t
        .visible()
        .iter()
        .map(|&i| {
            let n = t.node(i).unwrap();
            format!(
                "{}{} <{}>{}{}",
                "  ".repeat(n.depth),
                n.name,
                n.types,
                if n.required { " required" } else { "" },
                n.reference
            )
        })
        .collect();
    let all = lines.join("\n");
    assert!(
        all.contains("  owner <object> required → #/$defs/person"),
        "{all}"
    );
    assert!(all.contains("    name <string>"), "{all}");
    assert!(
        all.contains("manager <object> → #/$defs/person (cycle: not followed)"),
        "{all}"
    );
    assert!(all.contains("    [] <string>"), "{all}");
    assert!(
        all.contains("    oneOf 1 <string>") && all.contains("oneOf 2 <integer>"),
        "{all}"
    );
}

#[test]
fn collapse_expand_and_parent_in_the_schema_tree() {
    let mut t =
        tree(json!({"properties": {"a": {"properties": {"b": {"type": "string"}}}, "c": {}}}));
    assert_eq!(t.visible().len(), 4, "small trees open fully");
    assert!(t.set_expanded(1, false), "collapse a");
    assert_eq!(t.visible().len(), 3);
    assert!(!t.set_expanded(2, true), "c is a leaf");
    assert!(t.set_expanded(1, true));
    assert_eq!(t.parent_line(2), Some(1));
    assert_eq!(t.parent_line(0), None);
    assert!(t.set_expanded(0, false), "the schema itself collapses");
    assert_eq!(t.visible().len(), 1);
}

#[test]
fn large_schemas_open_with_their_roots_only() {
    let properties: serde_json::Map<String, Value> = (0..500)
        .map(|i| (format!("f{i}"), json!({"properties": {"x": {}}})))
        .collect();
    let t = tree(json!({"properties": properties}));
    assert_eq!(t.len(), 1001);
    assert_eq!(t.visible().len(), 501, "the schema's own fields, collapsed");
}

#[test]
fn a_definition_with_odd_fields_opens() {
    let payload = json!({"app_id": "x", "version": "1", "resources": [
        {"type": "odd", "actions": "nope", "links": {"links": [{"url": "javascript:alert(1)"}, 3]},
         "list_supported": "yes", "instructions_markdown": 7}
    ]});
    let Value::Object(map) = payload else {
        panic!()
    };
    let known = Arc::new(KnownTypes {
        catalog: Catalog::from_versions(vec![AppVersion::from_payload(map, Source::Demo, None)]),
        problems: Vec::new(),
    });
    let d = open(&known, "odd", 80);
    let all: Vec<String> = d
        .about
        .iter()
        .map(|l| format!("{} {}", l.label, l.text))
        .collect();
    let all = all.join("\n");
    assert!(all.contains("invalid list"), "{all}");
    assert!(all.contains("not a list"), "{all}");
    assert!(d.instructions.len() == 1);
}
