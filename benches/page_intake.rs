//! What a page of 500 resources costs the TUI's list, and where: the answer is read on the
//! executor's task (the envelope, each item's span in the body, what the list shows of each), and the
//! UI thread keeps each row (its columns, and its text as it came in the bodies). The UI thread's
//! share is what holding `G` through a long listing pays between frames.
//! Run with `cargo bench --bench page_intake`.

mod common;
use common::measure;

use appdeck_core::api::{RawPage, ReadPage};
use appdeck_listing::Bodies;
use appdeck_listing::Rows;
use serde_json::{Value, json};

const PAGE: usize = 500;

/// A resource of the demo's kinds.
fn resource(i: usize) -> Value {
    json!({
        "id": format!("res_{i:07}"),
        "type": "repository",
        "display_name": format!("Resource {i} — ünïcødé"),
        "status": "active",
        "external_id": format!("ext-{i}"),
        "updated_at": "2026-01-01T12:30:00Z",
        "properties": {"stars": i, "tags": ["a", "b"], "owner": {"name": "Zoë", "team": "platform"}},
    })
}

fn main() {
    let page = json!({"resources": (0..PAGE).map(resource).collect::<Vec<_>>(), "next": "c"});
    let compact = serde_json::to_vec(&page).unwrap();
    let spaced = serde_json::to_vec_pretty(&page).unwrap();
    for (body, how) in [(&compact, "compact"), (&spaced, "pretty-printed")] {
        measure(
            &format!("read a page of {PAGE}, {how} (task)"),
            5,
            100,
            || {
                let raw = RawPage::read(body.clone()).expect("a page");
                std::hint::black_box(ReadPage::from(raw));
            },
        );
        let read = ReadPage::from(RawPage::read(body.clone()).expect("a page"));
        let bodies = Bodies::default();
        let mut rows = Rows::default();
        measure(
            &format!("keep its {PAGE} rows, {how} (UI thread)"),
            5,
            100,
            || {
                for (item, text) in read.items_and_texts() {
                    rows.push_facts(item, &text, &bodies);
                }
                std::hint::black_box(&rows);
            },
        );
    }
}
