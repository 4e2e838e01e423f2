//! The stateful side: cursors the sandbox issued, what a page may hold, and sequences of reports
//! that must be listed back as sent, each resource exactly once across the pages.

use std::collections::HashMap;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use reqwest::Method;
use serde_json::{Map, Value, json};

use super::generate::{any_string, value_for};
use super::model::{Model, Operation};
use super::mutate::RawBody;
use super::oracle::{check_answer, expected_status};
use super::wire::{Auth, Harness, Request};

/// The fields the service sets when it stores a reported resource, whatever the report says
/// (declared in the model's ReportedResource).
const STAMPED: [&str; 4] = ["id", "created_at", "updated_at", "organization_id"];

/// The demo types, for filters that match something.
pub fn demo_types() -> Vec<String> {
    let connect: Value =
        serde_json::from_str(appdeck_core::catalog::DEMO_CONNECT).expect("demo JSON");
    connect["resources"]
        .as_array()
        .expect("demo types")
        .iter()
        .filter_map(|t| t["type"].as_str().map(str::to_owned))
        .collect()
}

/// Every cursor of a few listings of the demo data, with the filter each belongs to.
pub fn issued_cursors(harness: &Harness, model: &Model) -> Vec<(Option<String>, String)> {
    let mut filters: Vec<Option<String>> = demo_types().into_iter().map(Some).collect();
    filters.push(None);
    let mut out = Vec::new();
    for filter in filters {
        for limit in [1, 7] {
            let pages = list_all(harness, model, filter.as_deref(), limit)
                .unwrap_or_else(|e| panic!("listing the demo data: {e}"));
            for page in pages {
                if let Some(next) = page["next"].as_str() {
                    out.push((filter.clone(), next.to_owned()));
                }
            }
        }
    }
    assert!(out.len() > 20, "the demo data has pages");
    out
}

/// A listing's status by the model's words: a `next` is empty or a cursor issued for the same
/// `type` filter (200), else it is refused (400).
pub fn list_status(cursors: &[(Option<String>, String)], body: &Map<String, Value>) -> u16 {
    let filter = body.get("type").and_then(Value::as_str).map(str::to_owned);
    match body.get("next").and_then(Value::as_str) {
        None | Some("") => 200,
        Some(next) if cursors.iter().any(|(f, c)| c == next && *f == filter) => 200,
        Some(_) => 400,
    }
}

/// A served page holds at most the page size asked for (50 when none is; 500 at most), and only
/// resources of the type it was filtered by.
pub fn check_page(request: &Map<String, Value>, page: &Value) -> Result<(), String> {
    let size = match request.get("limit").and_then(Value::as_u64) {
        Some(limit) => limit.min(500),
        None if request.contains_key("limit") => 500, // past 64 bits: the most allowed
        None => 50,
    } as usize;
    let resources = page["resources"].as_array().cloned().unwrap_or_default();
    if resources.len() > size {
        return Err(format!(
            "{} resources on a page of at most {size}",
            resources.len()
        ));
    }
    if let Some(filter) = request.get("type").and_then(Value::as_str)
        && let Some(other) = resources.iter().find(|r| r["type"] != filter)
    {
        return Err(format!("a listing of type {filter:?} served {other}"));
    }
    Ok(())
}

/// Every page of a listing, each checked against the model, following `next` until it is left
/// out (at most 10,000 pages).
pub fn list_all(
    harness: &Harness,
    model: &Model,
    filter: Option<&str>,
    limit: u32,
) -> Result<Vec<Value>, TestCaseError> {
    let mut pages = Vec::new();
    let mut next: Option<String> = None;
    for _ in 0..10_000 {
        let mut body = json!({ "limit": limit });
        if let Some(filter) = filter {
            body["type"] = json!(filter);
        }
        if let Some(cursor) = &next {
            body["next"] = json!(cursor);
        }
        let exchange = harness.send(&Request::post(Operation::List, &body));
        let page = check_answer(model, &exchange, 200)?;
        let request = body.as_object().expect("an object");
        check_page(request, &page)
            .map_err(|why| TestCaseError::fail(format!("{why}\n{exchange}")))?;
        next = page
            .get("next")
            .map(|n| n.as_str().unwrap_or_default().to_owned());
        pages.push(page);
        if next.is_none() {
            return Ok(pages);
        }
    }
    Err(TestCaseError::fail("paging did not end in 10,000 pages"))
}

/// Reports sent one after the other, then the listing read back in pages.
#[derive(Clone, Debug)]
pub struct Sequence {
    /// Each report's `status` and resource.
    reports: Vec<(String, Value)>,
    limit: u32,
    /// List only this type, or every type.
    filter: Option<String>,
}

/// Resources generated from the model's ReportedResource, without `id` (the service assigns it),
/// of one of a few types, some sharing an `external_id` (so that a later report updates an
/// earlier resource); most reports `ok`, some `error` (which change nothing).
pub fn report_sequences(model: &Model) -> impl Strategy<Value = Sequence> {
    let resource = value_for(model, model.schema("/components/schemas/ReportedResource"));
    let non_blank = any_string().prop_filter("a type name", |s| !s.trim().is_empty());
    let types = prop::collection::vec(non_blank, 3);
    let external_ids = prop::collection::vec(any_string(), 2);
    let report = (
        resource,
        0..3usize,
        prop::option::of(0..2usize),
        prop_oneof![5 => Just("ok"), 1 => Just("error")],
    );
    (
        types,
        external_ids,
        prop::collection::vec(report, 1..8),
        1u32..=7,
        prop::option::of(0..3usize),
    )
        .prop_map(|(types, external_ids, reports, limit, filter)| {
            let reports = reports
                .into_iter()
                .map(|(mut resource, type_at, external_at, status)| {
                    let map = resource.as_object_mut().expect("a resource is an object");
                    map.shift_remove("id");
                    map.insert("type".into(), Value::String(types[type_at].clone()));
                    match external_at {
                        Some(i) => map.insert("external_id".into(), json!(external_ids[i])),
                        None => map.shift_remove("external_id"),
                    };
                    (status.to_owned(), resource)
                })
                .collect();
            Sequence {
                reports,
                limit,
                filter: filter.map(|i| types[i].clone()),
            }
        })
}

/// Sends the reports to an empty sandbox, then lists: every resource an accepted `ok` report
/// created or updated is listed exactly once, as the last report about it sent it (apart from the
/// fields the service stamps), with its numbers' text and its keys' order.
pub fn check_sequence(model: &Model, sequence: &Sequence) -> Result<(), TestCaseError> {
    let harness = Harness::empty();
    let store = harness.store();
    let mut expected: Vec<(String, Value)> = Vec::new();
    for (status, resource) in &sequence.reports {
        let body = json!({
            "task_id": "task-1",
            "status": status,
            "response": {"response_type": "resource", "resource": resource},
        });
        let raw = RawBody::Json(body.clone());
        let status_expected = expected_status(
            model,
            Operation::Report,
            &Method::POST,
            &Auth::Good,
            &raw,
            |_| 200,
        );
        let exchange = harness.send(&Request::post(Operation::Report, &body));
        let answer = check_answer(model, &exchange, status_expected)?;
        if exchange.status != 200 || status != "ok" {
            continue;
        }
        let url = answer["metadata"]["platform_app_url"]
            .as_str()
            .unwrap_or_default();
        let id = url.rsplit('/').next().unwrap_or_default().to_owned();
        if store.get(&id).is_none() {
            return Err(TestCaseError::fail(format!(
                "the answer's platform_app_url names no stored resource\n{exchange}"
            )));
        }
        match expected.iter_mut().find(|(known, _)| *known == id) {
            Some((_, sent)) => *sent = resource.clone(),
            None => expected.push((id, resource.clone())),
        }
    }
    let filter = sequence.filter.as_deref();
    let pages = list_all(&harness, model, filter, sequence.limit)?;
    let listed: Vec<&Value> = pages
        .iter()
        .flat_map(|page| page["resources"].as_array().into_iter().flatten())
        .collect();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for resource in &listed {
        *seen
            .entry(resource["id"].as_str().unwrap_or_default())
            .or_default() += 1;
    }
    let context = || {
        format!(
            "pages of {} (type {filter:?}): {}",
            sequence.limit,
            Value::from(pages.clone())
        )
    };
    if let Some((id, n)) = seen.iter().find(|(_, n)| **n != 1) {
        return Err(TestCaseError::fail(format!(
            "{id} listed {n} times\n{}",
            context()
        )));
    }
    for (id, sent) in &expected {
        if filter.is_some_and(|f| sent["type"] != f) {
            continue;
        }
        let Some(stored) = listed.iter().find(|r| r["id"] == id.as_str()) else {
            return Err(TestCaseError::fail(format!(
                "{id} is not listed\n{}",
                context()
            )));
        };
        let (sent_text, listed_text) = (without_stamps(sent), without_stamps(stored));
        if sent_text != listed_text {
            return Err(TestCaseError::fail(format!(
                "{id} is not listed as sent\n  sent:   {sent_text}\n  listed: {listed_text}"
            )));
        }
    }
    let wanted = expected
        .iter()
        .filter(|(_, sent)| filter.is_none_or(|f| sent["type"] == f))
        .count();
    if listed.len() != wanted {
        return Err(TestCaseError::fail(format!(
            "{} resources listed, {wanted} reported\n{}",
            listed.len(),
            context()
        )));
    }
    Ok(())
}

/// The resource's JSON text without the fields the service stamps: numbers as their text, keys
/// in their order.
fn without_stamps(resource: &Value) -> String {
    let mut resource = resource.clone();
    if let Some(map) = resource.as_object_mut() {
        for key in STAMPED {
            map.shift_remove(key);
        }
    }
    resource.to_string()
}
