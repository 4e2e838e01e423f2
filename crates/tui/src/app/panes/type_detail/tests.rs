//! A type's detail: what it shows, its panes, its schema tree, its versions, its links.

use crate::app::Delivery;
use std::sync::Arc;

use ratatui::layout::Rect;
use serde_json::{Value, json};

use super::about::AboutLine;
use super::schema::SchemaTree;
use super::{AboutKind, OpenType, TypeDetail, TypePart};
use crate::app::KnownTypes;
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
        d.about.len() <= d.pane_height(TypePart::About, body),
        "{}",
        d.about.len()
    );
    assert!(d.instructions.len() <= d.pane_height(TypePart::Instructions, body));
}

#[test]
fn every_demo_type_fits_at_120x40() {
    let known = known();
    let body = crate::app::layout::screen(Rect::new(0, 0, 120, 40)).body;
    for t in known.catalog.types() {
        let d = open(&known, &t.name, body.width);
        assert!(
            d.about.len() <= d.pane_height(TypePart::About, body),
            "{}",
            t.name
        );
        assert!(
            d.instructions.len() <= d.pane_height(TypePart::Instructions, body),
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

/// Keys on a type's detail, driven through `App::update` as the event loop does.
mod keys {
    use crossterm::event::KeyCode;

    use super::*;
    use crate::app::harness::{key, press};
    use crate::app::panes::types::tests::detail;
    use crate::app::{Action, App, Command, Notice, RequestId, Session};

    /// A 120x40 app showing the type `name` of `known`, opened from the types view.
    fn showing(known: Arc<KnownTypes>, name: &str, height: u16) -> App {
        let (mut app, _) = App::new(Session::default(), Rect::new(0, 0, 120, height), None);
        app.update(Action::reply(RequestId(999), Delivery::Types(known)));
        key(&mut app, '2');
        key(&mut app, '/');
        app.update(Action::InsertText(name.to_owned()));
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Enter);
        assert_eq!(detail(&app).definition().unwrap().name, name);
        app
    }

    fn info(app: &App) -> String {
        match &app.notice {
            Some(Notice::Info(text) | Notice::Error(text)) => text.clone(),
            None => String::new(),
        }
    }

    #[test]
    fn movement_moves_the_focused_panes_cursor_and_tab_cycles_the_panes() {
        let mut app = showing(known(), "repository", 40);
        key(&mut app, 'j');
        key(&mut app, 'j');
        assert_eq!(detail(&app).cursor(TypePart::About).selected, 2);
        press(&mut app, KeyCode::Tab);
        assert_eq!(detail(&app).focus, TypePart::Instructions);
        key(&mut app, 'j');
        assert_eq!(detail(&app).cursor(TypePart::Instructions).selected, 1);
        assert_eq!(detail(&app).cursor(TypePart::About).selected, 2);
        press(&mut app, KeyCode::BackTab);
        press(&mut app, KeyCode::BackTab);
        assert_eq!(detail(&app).focus, TypePart::Raw);
    }

    #[test]
    fn l_h_and_enter_expand_collapse_and_h_goes_to_the_parent_in_the_schema_tree() {
        let mut app = showing(known(), "repository", 40);
        let shown = |app: &App| detail(app).schemas.visible().len();
        let all = shown(&app);
        assert!(all > 3, "the repository's schema opens whole: {all}");
        // In the about pane these keys are not the tree's.
        key(&mut app, 'l');
        key(&mut app, 'h');
        press(&mut app, KeyCode::Enter);
        assert_eq!(shown(&app), all);

        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Tab);
        assert_eq!(detail(&app).focus, TypePart::Schemas);
        key(&mut app, 'l');
        assert_eq!(shown(&app), all, "l on an open node keeps it open");
        key(&mut app, 'h');
        let collapsed = shown(&app);
        assert!(collapsed < all, "h collapses the first schema");
        key(&mut app, 'h');
        assert_eq!(shown(&app), collapsed, "h on a closed node keeps it closed");
        key(&mut app, 'l');
        assert_eq!(shown(&app), all);
        press(&mut app, KeyCode::Enter);
        assert_eq!(shown(&app), collapsed, "Enter toggles");
        press(&mut app, KeyCode::Enter);
        assert_eq!(shown(&app), all);

        // `h` on a leaf goes to its parent.
        let leaf = detail(&app)
            .schemas
            .visible()
            .iter()
            .position(|&i| {
                let node = detail(&app).schemas.node(i).unwrap();
                node.depth == 2
            })
            .expect("a property of the schema");
        for _ in 0..leaf {
            key(&mut app, 'j');
        }
        key(&mut app, 'h');
        let parent = detail(&app).schemas.parent_line(leaf).unwrap();
        assert_eq!(detail(&app).cursor(TypePart::Schemas).selected, parent);
        assert_eq!(shown(&app), all, "nothing collapsed");
    }

    #[test]
    fn enter_on_a_link_of_the_about_pane_opens_it() {
        let mut app = showing(known(), "repository", 40);
        let line = detail(&app)
            .about
            .iter()
            .position(|l| l.url.is_some())
            .expect("a link");
        for _ in 0..line {
            key(&mut app, 'j');
        }
        let url = detail(&app).about[line].url.clone().unwrap();
        assert_eq!(
            press(&mut app, KeyCode::Enter),
            [Command::OpenUrl(
                reqwest::Url::parse(&url).unwrap().to_string()
            )]
        );
    }

    #[test]
    fn y_copies_a_wrapped_value_whole_and_nothing_on_a_heading() {
        let mut app = showing(known(), "repository", 40);
        let at = |app: &App, wanted: &dyn Fn(&AboutLine) -> bool| {
            detail(app).about.iter().position(wanted).expect("the line")
        };
        let go_to = |app: &mut App, line: usize| {
            key(app, 'g');
            for _ in 0..line {
                key(app, 'j');
            }
        };
        let heading = at(&app, &|l| l.kind == AboutKind::Section);
        go_to(&mut app, heading);
        assert_eq!(key(&mut app, 'y'), [], "no empty clipboard");
        assert_eq!(info(&app), "no value to copy here");

        // The description wraps at 120 columns: its second line copies all of it.
        let second = at(&app, &|l| l.kind == AboutKind::Text && l.label.is_empty());
        let whole = detail(&app).about[second].copy.clone().unwrap();
        assert!(
            whole.len() > detail(&app).about[second].text.len(),
            "a wrapped line"
        );
        go_to(&mut app, second);
        assert_eq!(key(&mut app, 'y'), [Command::Copy(whole)]);
    }

    #[test]
    fn v_cycles_through_the_versions_and_says_when_there_is_one() {
        let version = |v: &str| {
            let payload = json!({"app_id": "acme", "version": v, "resources": [
                {"type": "thing", "display_name": format!("Thing {v}")}]});
            let Value::Object(map) = payload else {
                panic!()
            };
            AppVersion::from_payload(map, Source::File(format!("{v}.json").into()), None)
        };
        let known = Arc::new(KnownTypes {
            catalog: Catalog::from_versions(vec![version("1"), version("2"), version("3")]),
            problems: Vec::new(),
        });
        let mut app = showing(known, "thing", 40);
        assert_eq!((detail(&app).version, detail(&app).versions), (0, 3));
        let mut seen = Vec::new();
        for _ in 0..3 {
            key(&mut app, 'v');
            seen.push(detail(&app).version);
        }
        assert_eq!(seen, [1, 2, 0]);
        assert_eq!(info(&app), "version 1 of 3 (the newest)");

        let mut app = showing(super::known(), "widget", 40);
        key(&mut app, 'v');
        assert_eq!(info(&app), "only one version of this type is known");
        assert_eq!(detail(&app).version, 0);
    }

    #[test]
    fn a_smaller_terminal_keeps_each_panes_cursor_in_view() {
        let mut app = showing(known(), "repository", 40);
        press(&mut app, KeyCode::Tab);
        press(&mut app, KeyCode::Tab);
        key(&mut app, 'G');
        let selected = detail(&app).cursor(TypePart::Schemas).selected;
        app.update(Action::Resize {
            width: 120,
            height: 12,
        });
        let body = crate::app::layout::screen(app.size).body;
        let d = detail(&app);
        let height = d.pane_height(TypePart::Schemas, body);
        assert!(height < selected, "{height} lines shown");
        d.cursor(TypePart::Schemas).assert_shows(selected, height);
    }

    #[test]
    fn a_click_focuses_the_pane_under_it_and_selects_the_line_clicked() {
        let mut app = showing(known(), "repository", 40);
        let click = |app: &mut App, pane: TypePart, line: u16| {
            let body = crate::app::layout::screen(app.size).body;
            let rows = detail(app).areas(body).rows(pane);
            app.update(Action::Click {
                column: rows.x + 1,
                row: rows.y + line,
            });
            usize::from(rows.height)
        };
        click(&mut app, TypePart::Instructions, 2);
        assert_eq!(detail(&app).focus, TypePart::Instructions);
        assert_eq!(detail(&app).cursor(TypePart::Instructions).selected, 2);
        // Just below the last line: nothing else is selected.
        let len = detail(&app).pane_len(TypePart::Instructions);
        let height = click(&mut app, TypePart::Instructions, len as u16);
        assert!(len < height, "{len} lines in {height}");
        assert_eq!(detail(&app).cursor(TypePart::Instructions).selected, 2);

        // Scrolled: the line under the click, counted from the first line shown.
        app.update(Action::Resize {
            width: 120,
            height: 16,
        });
        click(&mut app, TypePart::About, 0);
        assert_eq!(detail(&app).focus, TypePart::About);
        key(&mut app, 'G');
        let offset = detail(&app).cursor(TypePart::About).offset;
        assert!(offset > 1, "{offset}");
        click(&mut app, TypePart::About, 2);
        assert_eq!(detail(&app).cursor(TypePart::About).selected, offset + 2);
    }
}
