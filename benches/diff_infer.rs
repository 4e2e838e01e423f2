//! Costs of the pure cores of issue 8: the diff of two connect payloads of 50 types with 100
//! properties each (target: at most 20 ms), and schema inference over 10,000 resources (target:
//! at most 200 ms). Run with `cargo bench --bench diff_infer`; prints medians and maxima.

mod common;
use common::measure;

use std::hint::black_box;

use appdeck_core::{diff, infer};
use serde_json::{Map, Value, json};

const RUNS: usize = 30;

/// 50 types of 100 properties; `bump` changes every tenth property of every type.
fn payload(bump: bool) -> Value {
    let types: Vec<Value> = (0..50)
        .map(|t| {
            let mut properties = Map::new();
            for p in 0..100 {
                let max = if bump && p % 10 == 0 { 50 } else { 100 };
                properties.insert(
                    format!("field_{p}"),
                    json!({"type": ["string", "null"], "maxLength": max, "description": "a field"}),
                );
            }
            json!({
                "type": format!("type_{t}"), "list_supported": true, "read_supported": true,
                "property_json_schema": {"type": "object", "properties": properties,
                    "required": ["field_1", "field_2"]},
                "actions": [{"name": "sync", "input_json_schema": {"type": "object"},
                    "output_json_schema": {"type": "object"}}]
            })
        })
        .collect();
    json!({"app_id": "bench", "version": "1", "resources": types})
}

fn rows(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let kind = ["repository", "deployment", "incident"][i % 3];
            let state = ["open", "closed", "merged"][i % 3];
            let note = if i % 4 == 0 { Value::Null } else { json!("x") };
            json!({
                "id": format!("res_{i}"), "type": kind,
                "properties": {
                    "stars": i, "state": state,
                    "updated": "2026-11-20T09:30:00Z", "note": note,
                    "owner": {"login": format!("user{}", i % 50), "id": i},
                    "tags": ["a", "b"], "members": [{"id": i, "role": "admin"}]
                }
            })
        })
        .collect()
}

fn main() {
    let (old, new) = (payload(false), payload(true));
    let changes = diff::compare(&old, &new);
    println!("diff finds {} changes", changes.changes.len());
    measure(
        "diff 50 types x 100 properties, 500 changes",
        0,
        RUNS,
        || {
            black_box(diff::compare(black_box(&old), black_box(&new)));
        },
    );
    measure("diff 50 types x 100 properties, identical", 0, RUNS, || {
        black_box(diff::compare(black_box(&old), black_box(&old)));
    });
    let rows = rows(10_000);
    measure("infer over 10,000 rows", 0, RUNS, || {
        black_box(infer::infer_types(black_box(&rows)));
    });
}
