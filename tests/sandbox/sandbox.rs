//! The sandbox over real HTTP on loopback, driven by appdeck's own client (and by reqwest directly
//! where the raw status and body matter).

use crate::common;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use appdeck_core::api::{
    ApiError, Client, ClientSettings, Field, ListRequest, Operation, PageItem, Pager, Reply,
    Resource, Token,
};
use appdeck_core::catalog::DEMO_CONNECT;
use appdeck_core::schema::{self, CompiledSchema};
use appdeck_sandbox::{Fault, Sandbox, SandboxOptions};
use serde_json::{Value, json};

/// Generous bound for anything awaited in these tests: reached only when something is broken.
const PATIENCE: Duration = Duration::from_secs(10);

async fn start(options: SandboxOptions) -> Sandbox {
    Sandbox::start(options).await.expect("the sandbox starts")
}

fn empty() -> SandboxOptions {
    SandboxOptions {
        seed_demo: false,
        ..SandboxOptions::default()
    }
}

fn with_fault(fault: Fault) -> SandboxOptions {
    SandboxOptions {
        fault: Some(fault),
        ..SandboxOptions::default()
    }
}

fn client(sandbox: &Sandbox) -> Client {
    client_with_timeout(sandbox, ClientSettings::DEFAULT_REQUEST_TIMEOUT)
}

fn client_with_timeout(sandbox: &Sandbox, timeout: Duration) -> Client {
    let mut settings = ClientSettings::new(sandbox.base_url(), Token::new(sandbox.token()));
    settings.request_timeout = timeout;
    Client::new(&settings).expect("a client for the sandbox")
}

/// A plain reqwest client; appdeck's client installs the TLS provider reqwest needs.
fn raw_client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::new()
}

/// Posts raw bytes and returns the status and the body, which must be JSON.
async fn post_raw(
    sandbox: &Sandbox,
    operation: &str,
    authorization: Option<String>,
    body: impl Into<reqwest::Body>,
) -> (u16, Value) {
    let mut request = raw_client()
        .post(format!("{}/{operation}", sandbox.base_url()))
        .header("content-type", "application/json")
        .body(body);
    if let Some(value) = authorization {
        request = request.header("authorization", value);
    }
    let response = request.send().await.expect("the sandbox answers");
    let status = response.status().as_u16();
    let text = response.text().await.expect("a body");
    let body = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, body)
}

fn bearer(sandbox: &Sandbox) -> Option<String> {
    Some(format!("Bearer {}", sandbox.token()))
}

/// Asserts the sandbox's error shape and returns the message.
fn error_message(body: &Value) -> &str {
    assert_eq!(body["status"], "error", "{body}");
    body["error"].as_str().expect("an error message")
}

/// Every resource of a listing, following the cursors with appdeck's pager.
async fn list_all(client: &Client, resource_type: Option<&str>, limit: u32) -> Vec<Resource> {
    let mut pager = Pager::new(resource_type.map(str::to_owned), Some(limit));
    let mut out = Vec::new();
    while let Some(page) = pager.next_page(client).await {
        let page = page.expect("a page");
        assert!(page.resources.len() <= limit as usize);
        for item in page.resources {
            match item {
                PageItem::Resource(resource) => out.push(*resource),
                PageItem::Malformed(m) => panic!("malformed item: {:?}", m.raw),
            }
        }
    }
    out
}

fn id_of(resource: &Resource) -> String {
    resource.id.get().cloned().expect("an id")
}

/// The demo types' property schemas, compiled.
fn demo_schemas() -> HashMap<String, CompiledSchema> {
    let connect: Value = serde_json::from_str(DEMO_CONNECT).unwrap();
    connect["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let name = t["type"].as_str().unwrap().to_owned();
            (name, schema::compile(&t["property_json_schema"]).unwrap())
        })
        .collect()
}

fn assert_satisfies_schemas(resources: &[Resource], schemas: &HashMap<String, CompiledSchema>) {
    for resource in resources {
        let resource_type = resource.resource_type.get().expect("a type");
        let schema = &schemas[resource_type.as_str()];
        let properties = Value::Object(resource.properties.get().cloned().unwrap_or_default());
        let violations = schema.violations(&properties);
        assert!(violations.is_empty(), "{}: {violations:?}", id_of(resource));
    }
}

fn report_of(resource: Value) -> Value {
    json!({"task_id": "task-1", "status": "ok", "response": {"response_type": "resource", "resource": resource}})
}

#[tokio::test]
async fn pages_follow_the_limit_and_the_type_filter() {
    let sandbox = start(SandboxOptions::default()).await;
    let client = client(&sandbox);

    let first = client.list_page(&ListRequest::default()).await.unwrap();
    assert_eq!(first.response_type.get().unwrap(), "resources");
    assert_eq!(first.resources.len(), 50, "the default limit");
    assert!(first.next_cursor().is_some());

    let everything = list_all(&client, None, 500).await;
    assert_eq!(everything.len(), sandbox.store().len());
    let ids: HashSet<String> = everything.iter().map(id_of).collect();
    assert_eq!(ids.len(), everything.len(), "no resource twice");

    let incidents = list_all(&client, Some("incident"), 7).await;
    let expected = everything
        .iter()
        .filter(|r| r.resource_type.get().is_some_and(|t| t == "incident"))
        .map(id_of)
        .collect::<Vec<_>>();
    assert!(!expected.is_empty());
    assert_eq!(
        incidents.iter().map(id_of).collect::<Vec<_>>(),
        expected,
        "the incidents, in insertion order"
    );

    let clamped = client
        .list_page(&ListRequest {
            limit: Some(100_000),
            ..ListRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(clamped.resources.len(), everything.len().min(500));
    // Past 64 bits is more still, not an error (found by sandbox_model).
    let (status, huge) = post_raw(
        &sandbox,
        "resources.list",
        bearer(&sandbox),
        r#"{"limit": 12345678901234567890123}"#,
    )
    .await;
    assert_eq!(status, 200, "{huge}");
    assert_eq!(
        huge["resources"].as_array().map(Vec::len),
        Some(everything.len().min(500))
    );
    let none = list_all(&client, Some("no-such-type"), 10).await;
    assert!(none.is_empty());
    sandbox.shutdown().await;
}

#[tokio::test]
async fn requests_without_a_valid_token_get_401_with_a_json_body() {
    let sandbox = start(empty()).await;
    for authorization in [
        None,
        Some("Bearer not-the-token".to_owned()),
        Some(format!("Basic {}", sandbox.token())),
    ] {
        let (status, body) = post_raw(&sandbox, "resources.list", authorization, "{}").await;
        assert_eq!(status, 401);
        assert!(!error_message(&body).is_empty());
    }
    let mut settings = ClientSettings::new(sandbox.base_url(), Token::new("wrong"));
    settings.request_timeout = PATIENCE;
    let wrong = Client::new(&settings).unwrap();
    let error = wrong.report(&json!({})).await.unwrap_err();
    assert!(
        matches!(error, ApiError::Http { status: 401, .. }),
        "{error:?}"
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn given_tokens_are_all_accepted_and_none_means_a_random_one() {
    let sandbox = start(SandboxOptions {
        tokens: vec!["first-token".into(), "second-token".into()],
        ..empty()
    })
    .await;
    assert_eq!(sandbox.token(), "first-token");
    for token in ["first-token", "second-token"] {
        let auth = Some(format!("Bearer {token}"));
        let (status, _) = post_raw(&sandbox, "resources.list", auth, "{}").await;
        assert_eq!(status, 200);
    }
    sandbox.shutdown().await;

    let random = start(empty()).await;
    assert_eq!(random.token().len(), 32);
    assert!(
        random
            .token()
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    );
    random.shutdown().await;
}

#[tokio::test]
async fn a_body_over_1_mib_gets_413_with_a_json_body() {
    let sandbox = start(empty()).await;
    let padding = "x".repeat(1024 * 1024);
    let body = json!({"task_id": "t", "status": "ok", "message": padding}).to_string();
    let (status, answer) =
        post_raw(&sandbox, "apps.operations.report", bearer(&sandbox), body).await;
    assert_eq!(status, 413);
    assert!(error_message(&answer).contains("1 MiB"));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn malformed_requests_get_400_naming_the_problem() {
    let sandbox = start(SandboxOptions::default()).await;
    let cases: [(&str, &str, &str); 11] = [
        ("resources.list", "{\"type\": ", "malformed JSON"),
        // null is not the string the spec gives `next` (found by sandbox_model).
        ("resources.list", r#"{"next": null}"#, "/next: null"),
        (
            "resources.list",
            r#"{"type": null, "limit": null}"#,
            "/type, /limit: null",
        ),
        ("resources.list", "[1, 2]", "JSON object"),
        ("resources.list", "", "empty"),
        ("resources.list", r#"{"next": "bm90IGEgY3Vyc29y"}"#, "next"),
        ("resources.list", r#"{"limit": 0}"#, "limit"),
        ("resources.list", r#"{"type": 5}"#, "type"),
        (
            "apps.operations.report",
            r#"{"status": "ok", "response": {"resource": {"type": "x"}}}"#,
            "task_id",
        ),
        (
            "apps.operations.report",
            r#"{"task_id": "t", "status": "ok", "response": {"resource": {"type": "x", "display_name": 42}}}"#,
            "/response/resource/display_name",
        ),
        (
            "apps.version.connect",
            r#"{"app_id": "a", "version": "1", "resources": [{"type": "t"}, {"display_name": "no type"}]}"#,
            "/resources/1/type",
        ),
    ];
    for (operation, body, named) in cases {
        let (status, answer) = post_raw(&sandbox, operation, bearer(&sandbox), body).await;
        assert_eq!(status, 400, "{operation} {body}: {answer}");
        let message = error_message(&answer);
        assert!(message.contains(named), "{message:?} should name {named:?}");
    }
    assert_eq!(sandbox.store().len(), 300, "nothing changed");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn unknown_paths_get_404_and_other_methods_405() {
    let sandbox = start(empty()).await;
    let (status, body) = post_raw(&sandbox, "resources.delete", bearer(&sandbox), "{}").await;
    assert_eq!(status, 404);
    assert!(error_message(&body).contains("resources.delete"));

    let response = raw_client()
        .get(format!("{}/resources.list", sandbox.base_url()))
        .bearer_auth(sandbox.token())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 405);
    let body: Value = response.json().await.unwrap();
    assert!(error_message(&body).contains("POST"));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_report_creates_then_updates_by_id_and_by_external_id() {
    let sandbox = start(empty()).await;
    let client = client(&sandbox);
    let store = sandbox.store();

    let created = client
        .report(&report_of(json!({
            "type": "widget", "external_id": "w-1", "display_name": "Wïdget ①",
            "properties": {"size": 3}, "x_custom": {"kept": true}
        })))
        .await
        .unwrap();
    assert!(created.message.get().unwrap().contains("created"));
    let url = created
        .metadata
        .get()
        .unwrap()
        .platform_app_url
        .get()
        .unwrap();
    let origin = sandbox.base_url().trim_end_matches("/api/v1");
    assert!(
        url.starts_with(&format!("{origin}/app/resources/")),
        "{url}"
    );
    let id = url.rsplit('/').next().unwrap().to_owned();

    let listed = list_all(&client, None, 10).await;
    assert_eq!(listed.len(), 1);
    let stored = &listed[0];
    assert_eq!(id_of(stored), id);
    assert_eq!(stored.organization_id.get().unwrap(), "org_sandbox");
    assert_eq!(stored.extra["x_custom"], json!({"kept": true}));
    let created_at = stored.created_at.get().cloned().unwrap();
    assert!(chrono::DateTime::parse_from_rfc3339(&created_at).is_ok());
    assert!(stored.updated_at.get().is_some());

    let by_id = client
        .report(&report_of(
            json!({"id": id, "display_name": "Renamed", "external_id": "w-1"}),
        ))
        .await
        .unwrap();
    assert!(by_id.message.get().unwrap().contains("updated"));
    let after_id = store.get(&id).unwrap();
    assert_eq!(after_id.display_name.get().unwrap(), "Renamed");
    assert_eq!(
        after_id.resource_type.get().unwrap(),
        "widget",
        "the type is kept"
    );
    assert_eq!(after_id.created_at.get(), Some(&created_at));

    let by_key = client
        .report(&report_of(
            json!({"type": "widget", "external_id": "w-1", "status": "retired"}),
        ))
        .await
        .unwrap();
    assert!(by_key.message.get().unwrap().contains(&id));
    assert_eq!(store.len(), 1);
    assert_eq!(store.get(&id).unwrap().status.get().unwrap(), "retired");

    let retyped = client
        .report(&report_of(json!({"id": id, "type": "gadget"})))
        .await
        .unwrap_err();
    assert!(
        matches!(retyped, ApiError::Http { status: 409, .. }),
        "{retyped:?}"
    );
    let unknown = client
        .report(&report_of(json!({"id": "res_999", "type": "widget"})))
        .await
        .unwrap_err();
    assert!(
        matches!(unknown, ApiError::Http { status: 404, .. }),
        "{unknown:?}"
    );
    assert_eq!(store.len(), 1);
    sandbox.shutdown().await;
}

/// The README says the sandbox never sends `null` for a field the spec types: its answers to a
/// report (applied, or a failure recorded) leave `error` out rather than send it null.
#[tokio::test]
async fn a_report_is_answered_without_a_null() {
    fn has_null(value: &Value) -> bool {
        match value {
            Value::Null => true,
            Value::Array(items) => items.iter().any(has_null),
            Value::Object(map) => map.values().any(has_null),
            _ => false,
        }
    }
    let sandbox = start(SandboxOptions::default()).await;
    let failure = json!({
        "task_id": "task-43", "status": "error", "message": "timed out",
        "response": {"response_type": "resource", "resource": {"id": "res_1"}}
    });
    let applied = report_of(json!({
        "type": "widget", "external_id": "w-null", "display_name": "no nulls",
        "properties": {"size": 3}
    }));
    for report in [failure, applied] {
        let answer = client(&sandbox)
            .send(Operation::OperationsReport, &report)
            .await
            .unwrap();
        assert_eq!(answer.raw["status"], "ok", "{}", answer.raw);
        assert!(!has_null(&answer.raw), "{}", answer.raw);
    }
    sandbox.shutdown().await;
}

#[tokio::test]
async fn an_error_report_is_recorded_and_changes_nothing() {
    let sandbox = start(SandboxOptions::default()).await;
    let store = sandbox.store();
    let before = store.get("res_1").unwrap();
    let answer = client(&sandbox)
        .report(&json!({
            "task_id": "task-42", "status": "error", "message": "upstream timed out",
            "response": {"response_type": "resource", "resource": {"id": "res_1", "display_name": "changed?"}}
        }))
        .await
        .unwrap();
    assert_eq!(answer.status.get().unwrap(), "ok");
    assert!(answer.message.get().unwrap().contains("task-42"));
    assert_eq!(store.get("res_1").unwrap(), before);
    assert_eq!(store.len(), 300);
    let failures = store.failures();
    assert_eq!(failures.len(), 1);
    assert_eq!(failures[0].task_id, "task-42");
    assert_eq!(failures[0].message.as_deref(), Some("upstream timed out"));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_connected_schema_checks_the_properties_of_reports() {
    let sandbox = start(empty()).await;
    let client = client(&sandbox);
    let payload = json!({
        "app_id": "gizmo-app", "version": "2.0.0",
        "resources": [{
            "type": "gizmo",
            "property_json_schema": {
                "type": "object", "required": ["size"],
                "properties": {"size": {"type": "integer", "minimum": 1}, "tags": {"type": "array", "items": {"type": "string"}}}
            },
            "actions": [{"name": "poke", "input_json_schema": {"type": "object"}}]
        }]
    });
    let answer = client.connect(&payload).await.unwrap();
    assert_eq!(
        answer.message.get().unwrap(),
        "registered 1 resource types for gizmo-app 2.0.0"
    );

    let refused = client
        .report(&report_of(
            json!({"type": "gizmo", "external_id": "g", "properties": {"size": 0, "tags": [1]}}),
        ))
        .await
        .unwrap_err();
    let ApiError::Http {
        status: 422,
        message,
        ..
    } = &refused
    else {
        panic!("expected a 422, got {refused:?}");
    };
    assert!(message.starts_with("gizmo: "), "{message}");
    assert!(
        message.contains("/size: ") && message.contains("/tags/0: "),
        "{message}"
    );
    assert!(
        sandbox.store().is_empty(),
        "a refused report changes nothing"
    );

    client
        .report(&report_of(
            json!({"type": "gizmo", "external_id": "g", "properties": {"size": 2}}),
        ))
        .await
        .unwrap();
    assert_eq!(sandbox.store().len(), 1);

    let broken = json!({"app_id": "gizmo-app", "version": "2.0.1", "resources": [
        {"type": "ok"},
        {"type": "bad", "actions": [{"name": "a", "output_json_schema": {"type": "not-a-type"}}]}
    ]});
    let error = client.connect(&broken).await.unwrap_err();
    let ApiError::Http {
        status: 422,
        message,
        ..
    } = &error
    else {
        panic!("expected a 422, got {error:?}");
    };
    assert!(
        message.contains("/resources/1/actions/0/output_json_schema"),
        "{message}"
    );

    let duplicate =
        json!({"app_id": "a", "version": "1", "resources": [{"type": "t"}, {"type": "t"}]});
    let error = client.connect(&duplicate).await.unwrap_err();
    assert!(
        matches!(error, ApiError::Http { status: 400, .. }),
        "{error:?}"
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn every_demo_resource_satisfies_its_type_and_shows_the_hard_cases() {
    let sandbox = start(SandboxOptions::default()).await;
    let resources = list_all(&client(&sandbox), None, 500).await;
    assert!(
        (250..=350).contains(&resources.len()),
        "{}",
        resources.len()
    );
    assert_satisfies_schemas(&resources, &demo_schemas());

    for resource in &resources {
        let json = serde_json::to_value(resource).unwrap();
        // `deleted_at` only on a deleted resource: absent is how the others say they are not.
        for field in Resource::KNOWN_FIELDS
            .iter()
            .filter(|f| **f != "deleted_at")
        {
            assert!(
                json.get(field).is_some(),
                "{} lacks {field}",
                id_of(resource)
            );
        }
        assert!(resource.field_issues().is_empty(), "{}", id_of(resource));
    }
    let escapes = resources
        .iter()
        .filter(|r| r.display_name.get().is_some_and(|n| n.contains('\u{1b}')))
        .count();
    assert_eq!(escapes, 1, "exactly one display name with escape sequences");
    let text = serde_json::to_string(&resources).unwrap();
    for sample in ["é", "データ", "東京", "🚀", "العربي", "עברית"] {
        assert!(text.contains(sample), "no {sample:?} in the demo data");
    }
    assert!(resources.iter().filter(|r| !r.extra.is_empty()).count() >= 5);
    assert!(resources.iter().all(|r| !r.link_list().is_empty()));
    assert!(!matches!(resources[0].deleted_at, Field::Null));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn generated_resources_satisfy_their_types_too() {
    let sandbox = start(SandboxOptions {
        generate: 1200,
        ..empty()
    })
    .await;
    assert_eq!(sandbox.store().len(), 1200);
    let resources = list_all(&client(&sandbox), None, 500).await;
    assert_eq!(resources.len(), 1200);
    assert_satisfies_schemas(&resources, &demo_schemas());
    let external: HashSet<_> = resources
        .iter()
        .map(|r| r.external_id.get().cloned())
        .collect();
    assert_eq!(external.len(), 1200);
    sandbox.shutdown().await;
}

/// The issue's proof: a listing that runs while other tasks insert and update returns every
/// resource that existed before it started exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paging_while_others_insert_returns_each_preexisting_resource_once() {
    let sandbox = start(SandboxOptions {
        generate: 1000,
        ..empty()
    })
    .await;
    let store = sandbox.store();
    let client = client(&sandbox);
    let preexisting: Vec<String> = list_all(&client, None, 500)
        .await
        .iter()
        .map(id_of)
        .collect();
    assert_eq!(preexisting.len(), 1000);

    let (progress, mut progressed) = tokio::sync::watch::channel(0u64);
    let progress = Arc::new(progress);
    let done = Arc::new(AtomicBool::new(false));
    let mut writers = Vec::new();
    // Over HTTP: new resources of a type without a schema.
    writers.push(tokio::spawn({
        let (client, progress, done) = (client.clone(), progress.clone(), done.clone());
        async move {
            for n in 0..150 {
                let resource = json!({"type": "note", "external_id": format!("note-{n}")});
                client.report(&report_of(resource)).await.expect("a report");
                progress.send_modify(|count| *count += 1);
            }
            done.store(true, Ordering::SeqCst);
        }
    }));
    // Directly in the store: updates of pre-existing rows (which keep their place) and inserts.
    writers.push(tokio::spawn({
        let (store, progress, ids) = (store.clone(), progress.clone(), preexisting.clone());
        async move {
            for n in 0..150 {
                let id = &ids[(n * 7) % ids.len()];
                let mut resource = store.get(id).expect("a pre-existing row");
                resource.display_name = Field::Valid(format!("updated {n}"));
                store.insert(resource);
                store.insert(Resource {
                    resource_type: Field::Valid("memo".into()),
                    ..Resource::default()
                });
                progress.send_modify(|count| *count += 1);
                tokio::task::yield_now().await;
            }
        }
    }));

    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut pager = Pager::new(None, Some(37));
    let mut pages = 0;
    while let Some(page) = pager.next_page(&client).await {
        for item in page.expect("a page").resources {
            let resource = item.resource().expect("a resource").clone();
            *seen.entry(id_of(&resource)).or_default() += 1;
        }
        pages += 1;
        // Make sure writes land between pages for as long as the writers run.
        if !done.load(Ordering::SeqCst) {
            let _ = tokio::time::timeout(PATIENCE, progressed.changed()).await;
        }
    }
    for writer in writers {
        writer.await.expect("the writer finishes");
    }
    assert!(pages >= 1000 / 37);
    for id in &preexisting {
        assert_eq!(seen.get(id), Some(&1), "{id} should be listed exactly once");
    }
    assert!(
        seen.values().all(|count| *count == 1),
        "no row listed twice"
    );
    assert_eq!(store.len(), 1000 + 150 + 150);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_body_that_is_not_json_is_a_decode_error() {
    let sandbox = start(with_fault(Fault::NotJson)).await;
    let error = client(&sandbox)
        .list_page(&ListRequest::default())
        .await
        .unwrap_err();
    assert!(matches!(error, ApiError::Decode { .. }), "{error:?}");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_repeated_cursor_stops_the_pager() {
    let sandbox = start(with_fault(Fault::RepeatCursor)).await;
    let client = client(&sandbox);
    let mut pager = Pager::new(None, Some(10));
    assert!(pager.next_page(&client).await.unwrap().is_ok());
    // The page that hands out the used cursor is still good: its rows come, then the fault.
    let second = pager.next_page(&client).await.unwrap().unwrap();
    assert_eq!(second.resources.len(), 10);
    let error = pager.next_page(&client).await.unwrap().unwrap_err();
    assert!(matches!(error, ApiError::RepeatedCursor(_)), "{error:?}");
    assert!(
        pager.next_page(&client).await.is_none(),
        "the listing is over"
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_malformed_item_is_marked_and_the_rest_of_the_page_kept() {
    let sandbox = start(with_fault(Fault::MalformedItem)).await;
    let page = client(&sandbox)
        .list_page(&ListRequest {
            limit: Some(10),
            ..ListRequest::default()
        })
        .await
        .unwrap();
    assert_eq!(page.resources.len(), 11);
    let malformed = page
        .resources
        .iter()
        .filter(|item| matches!(item, PageItem::Malformed(_)))
        .count();
    assert_eq!(malformed, 1);
    assert!(page.next_cursor().is_some());
    sandbox.shutdown().await;
}

#[tokio::test]
async fn an_error_status_is_an_http_error() {
    let sandbox = start(with_fault(Fault::Status(503))).await;
    let error = client(&sandbox)
        .list_page(&ListRequest::default())
        .await
        .unwrap_err();
    let ApiError::Http {
        status: 503,
        message,
        ..
    } = &error
    else {
        panic!("expected a 503, got {error:?}");
    };
    assert!(message.contains("injected fault"), "{message}");
    sandbox.shutdown().await;
}

/// `Client::exchange`, the TUI's one way to call any operation: the answer is read as that
/// operation's reply, with the HTTP status (of an error status too) and the time taken.
/// The TUI's list reads its pages through `exchange`: each item comes as the bytes the service
/// sent, as `list` reads them, however the service lays its JSON out (the `spaced` fault).
#[tokio::test]
async fn an_exchange_keeps_a_pages_items_as_they_came() {
    let sandbox = start(with_fault(Fault::Spaced)).await;
    let appdeck = client(&sandbox);
    let request = ListRequest::default();
    let listed = appdeck
        .exchange(Operation::ResourcesList, &json!(request))
        .await;
    let Ok(Reply::Page(page)) = listed.result else {
        panic!("expected a page, got {listed:?}");
    };
    let raw = appdeck.list_page_raw(&request).await.unwrap();
    assert!(page.len() > 10, "{}", page.len());
    assert!(
        page.raw.raw_items().eq(raw.raw_items()),
        "the same bytes as list's"
    );
    let first = String::from_utf8_lossy(page.raw.raw_items().next().unwrap()).into_owned();
    assert!(
        first.starts_with("{\n      \""),
        "spaced out as it came: {first}"
    );
    let texts: Vec<_> = page
        .items_and_texts()
        .map(|(_, text)| text.into_owned())
        .collect();
    assert_eq!(texts[0], first);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn an_exchange_reads_each_operation_and_keeps_the_status() {
    let sandbox = start(empty()).await;
    let appdeck = client(&sandbox);
    let report = report_of(json!({"type": "widget", "external_id": "w-9", "display_name": "W"}));
    let answered = appdeck.exchange(Operation::OperationsReport, &report).await;
    assert_eq!(answered.status, Some(200));
    assert!(answered.elapsed > Duration::ZERO);
    let Ok(Reply::Answer(answer)) = &answered.result else {
        panic!("expected an answer, got {answered:?}");
    };
    assert!(answer.rejection().is_none(), "{answer:?}");
    let listed = appdeck
        .exchange(Operation::ResourcesList, &json!({"type": "widget"}))
        .await;
    let Ok(Reply::Page(page)) = &listed.result else {
        panic!("expected a page, got {listed:?}");
    };
    assert_eq!(page.len(), 1, "the reported widget is listed");
    // A refusal is still an answer (the caller shows it), with its status.
    let refused = appdeck
        .exchange(Operation::VersionConnect, &json!({"app_id": ""}))
        .await;
    assert!(refused.status.is_some(), "{refused:?}");
    sandbox.shutdown().await;

    let failing = start(with_fault(Fault::Status(503))).await;
    let failed = client(&failing)
        .exchange(Operation::ResourcesList, &json!({}))
        .await;
    assert_eq!(failed.status, Some(503));
    assert!(matches!(
        failed.result,
        Err(ApiError::Http { status: 503, .. })
    ));
    failing.shutdown().await;
}

/// A slow server times the client out.
#[tokio::test]
async fn a_slow_server_times_the_client_out() {
    let sandbox = start(with_fault(Fault::Slow(Duration::from_secs(60)))).await;
    let impatient = client_with_timeout(&sandbox, Duration::from_millis(300));
    let error = impatient
        .list_page(&ListRequest::default())
        .await
        .unwrap_err();
    assert!(matches!(error, ApiError::Timeout(_)), "{error:?}");
    sandbox.shutdown().await;
}

#[tokio::test]
async fn tokens_never_show_in_debug_output() {
    let options = SandboxOptions {
        tokens: vec!["very-secret-token".into()],
        ..empty()
    };
    assert!(!format!("{options:?}").contains("very-secret"));
    let sandbox = start(options).await;
    assert!(!format!("{sandbox:?}").contains("very-secret"));
    sandbox.shutdown().await;
}

#[tokio::test]
async fn started_early_it_answers_only_once_the_data_is_loaded() {
    let options = SandboxOptions {
        generate: 20_000,
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::start_early(options).await.expect("listening");
    // Sent at once, while the data may still be loading: the answer waits for all of it.
    let page = client(&sandbox)
        .list_page(&ListRequest {
            limit: Some(500),
            ..ListRequest::default()
        })
        .await
        .expect("a page");
    assert_eq!(page.resources.len(), 500);
    assert_eq!(sandbox.store().len(), 20_300);
    sandbox.loaded().await.expect("loaded without error");
    sandbox.shutdown().await;
}

// ---------------------------------------------------------------- issue 20 item 15: nulls, dates

/// Every page of `resources.list`, as the raw JSON the sandbox sent.
async fn raw_pages(sandbox: &Sandbox) -> Vec<Value> {
    let mut pages = Vec::new();
    let mut next: Option<String> = None;
    loop {
        let mut body = json!({"limit": 100});
        if let Some(cursor) = &next {
            body["next"] = json!(cursor);
        }
        let (status, page) =
            post_raw(sandbox, "resources.list", bearer(sandbox), body.to_string()).await;
        assert_eq!(status, 200, "{page}");
        next = page.get("next").and_then(Value::as_str).map(str::to_owned);
        pages.push(page);
        if next.is_none() {
            return pages;
        }
    }
}

const SPEC_RESOURCE_FIELDS: [&str; 15] = [
    "display_name",
    "external_id",
    "type",
    "id",
    "created_at",
    "created_by",
    "deleted_at",
    "external_url",
    "name",
    "organization_id",
    "status",
    "synced_at",
    "updated_at",
    "properties",
    "links",
];

#[tokio::test]
async fn absent_fields_and_the_end_of_paging_are_left_out_not_null() {
    let sandbox = start(SandboxOptions::default()).await;
    let pages = raw_pages(&sandbox).await;
    let last = pages.last().unwrap();
    assert!(
        last.get("next").is_none(),
        "the last page leaves next out: {last}"
    );
    for resource in pages
        .iter()
        .flat_map(|p| p["resources"].as_array().unwrap())
    {
        for field in SPEC_RESOURCE_FIELDS {
            assert!(
                !resource.get(field).is_some_and(Value::is_null),
                "{field}: {resource}"
            );
        }
    }
    sandbox.shutdown().await;
}

#[tokio::test]
async fn the_nulls_fault_serves_null_fields_and_a_null_next() {
    let sandbox = start(with_fault(Fault::Nulls)).await;
    let pages = raw_pages(&sandbox).await;
    assert!(pages.len() > 1);
    assert_eq!(pages.last().unwrap()["next"], Value::Null, "present, null");
    let first = &pages[0]["resources"][0];
    assert_eq!(first["deleted_at"], Value::Null, "{first}");
    assert_eq!(first["id"], "res_1", "the fields it has are kept: {first}");
    // appdeck's own client reads such pages to the end.
    assert_eq!(list_all(&client(&sandbox), None, 500).await.len(), 300);
    sandbox.shutdown().await;
}

#[tokio::test]
async fn a_report_with_null_in_a_typed_field_is_refused_naming_each() {
    let sandbox = start(empty()).await;
    let body = report_of(json!({
        "type": "widget", "external_id": "w-1", "display_name": null, "properties": null,
        "links": {"links": [{"title": null, "url": "https://x"}]}
    }));
    let (status, answer) = post_raw(
        &sandbox,
        "apps.operations.report",
        bearer(&sandbox),
        body.to_string(),
    )
    .await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        error_message(&answer),
        "/response/resource/display_name, /response/resource/properties, \
         /response/resource/links/links/0/title: null where the spec gives a string, an object or \
         an array; leave the field out instead"
    );
    assert!(sandbox.store().is_empty(), "nothing stored");
    // `message` may be left out, not given as null; an unknown field may be null (kept as sent).
    let body = json!({"task_id": "t", "status": "ok", "message": null,
        "response": {"response_type": "resource", "resource": {"type": "w", "external_id": "1"}}});
    let (status, answer) = post_raw(
        &sandbox,
        "apps.operations.report",
        bearer(&sandbox),
        body.to_string(),
    )
    .await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        error_message(&answer).starts_with("/message: null"),
        "{answer}"
    );
    let body = report_of(json!({"type": "w", "external_id": "1", "x_note": null}));
    let (status, answer) = post_raw(
        &sandbox,
        "apps.operations.report",
        bearer(&sandbox),
        body.to_string(),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    sandbox.shutdown().await;
}

/// Found by sandbox_model: a connect registered the nulls a report is refused for.
#[tokio::test]
async fn a_connect_with_null_in_a_typed_field_is_refused_naming_each() {
    let sandbox = start(empty()).await;
    let body = json!({"app_id": "a", "version": "1", "resources": [
        {"type": "ok"},
        {"type": "t", "display_name": null, "list_supported": null, "x_note": null,
         "links": {"links": [{"title": null, "url": "https://x"}]},
         "actions": [{"name": "go", "input_json_schema": null}]}
    ]});
    let (status, answer) = post_raw(
        &sandbox,
        "apps.version.connect",
        bearer(&sandbox),
        body.to_string(),
    )
    .await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        error_message(&answer),
        "/resources/1/display_name, /resources/1/list_supported, /resources/1/links/links/0/title, \
         /resources/1/actions/0/input_json_schema: null where the spec gives a string, a boolean, \
         an object or an array; leave the field out instead"
    );
    assert!(
        sandbox.store().resource_type("ok").is_none(),
        "nothing registered"
    );
    sandbox.shutdown().await;
}

#[tokio::test]
async fn date_times_are_rfc_3339_and_the_refusal_says_so() {
    let sandbox = start(empty()).await;
    // Each refused value, and how the refusal quotes it: as sent, JSON-escaped (it was trimmed,
    // so a refusal of a leading space quoted a valid date-time, and written as Rust, `\u{200b}`).
    let bad = [
        ("2024-05-01 12:00:00", r#""2024-05-01 12:00:00""#),
        ("2024-05-01T12:00:00+0200", r#""2024-05-01T12:00:00+0200""#),
        ("20240501T120000Z", r#""20240501T120000Z""#),
        // A leap second is the last second of a UTC day, nothing else (found by sandbox_model).
        ("1900-01-01T00:00:60Z", r#""1900-01-01T00:00:60Z""#),
        (
            "2016-12-31T23:59:60+01:00",
            r#""2016-12-31T23:59:60+01:00""#,
        ),
        (" 2024-05-01T12:00:00Z", r#"" 2024-05-01T12:00:00Z""#),
        ("2024-05-01T12:00:00Z\n", r#""2024-05-01T12:00:00Z\n""#),
        (
            "\u{200b}2024-05-01T12:00:00Z\t",
            r#""\u200b2024-05-01T12:00:00Z\t""#,
        ),
    ];
    let good = [
        "2024-05-01T12:00:00+02:00",
        "2016-12-31T23:59:60Z",
        "2016-12-31T15:59:60-08:00",
    ];
    let cases = bad
        .iter()
        .map(|(date, quoted)| (*date, Some(*quoted)))
        .chain(good.iter().map(|date| (*date, None)));
    for (date, refused_as) in cases {
        let body = report_of(json!({"type": "w", "external_id": "1", "synced_at": date}));
        let (status, answer) = post_raw(
            &sandbox,
            "apps.operations.report",
            bearer(&sandbox),
            body.to_string(),
        )
        .await;
        let Some(quoted) = refused_as else {
            assert_eq!(status, 200, "{date:?}: {answer}");
            continue;
        };
        assert_eq!(status, 400, "{date:?}: {answer}");
        let message = error_message(&answer);
        assert!(
            message.starts_with(&format!(
                "/response/resource/synced_at: {quoted} is not an RFC 3339 date-time"
            )),
            "{message}"
        );
    }
    sandbox.shutdown().await;
}

/// Issue 20: the terminal UI reads answers through `exchange`, which must read them as
/// `appdeck report` and `appdeck connect` do: a connect answered 2xx with an empty body is an
/// accepted answer (it failed as "not JSON"), and a refusal with an error status keeps its JSON
/// body, so its `status` and `error` show (it showed `status —`).
#[tokio::test]
async fn an_exchange_reads_an_empty_connect_answer_and_the_body_of_a_refusal() {
    let connect = json!({"app_id": "acme", "version": "1.5.0", "resources": []});
    let at = |base_url: String| {
        Client::new(&ClientSettings::new(base_url, Token::new("t".to_owned()))).unwrap()
    };
    let empty = at(common::answer_once("200 OK", ""))
        .exchange(Operation::VersionConnect, &connect)
        .await;
    assert_eq!(empty.status, Some(200));
    let Ok(Reply::Answer(answer)) = &empty.result else {
        panic!("an empty 2xx connect answer is an answer: {empty:?}");
    };
    assert!(
        answer.raw.is_null() && answer.rejection().is_none(),
        "{answer:?}"
    );

    let body = r#"{"status": "error", "error": "version 1.5.0 is already registered"}"#;
    let refused = at(common::answer_once("409 Conflict", body))
        .exchange(Operation::VersionConnect, &connect)
        .await;
    assert_eq!(refused.status, Some(409));
    let Ok(Reply::Answer(answer)) = &refused.result else {
        panic!("a refusal's JSON body is an answer: {refused:?}");
    };
    assert_eq!(
        answer.response.status.get().map(String::as_str),
        Some("error")
    );
    assert!(
        matches!(answer.rejection(), Some(ApiError::Http { status: 409, .. })),
        "{answer:?}"
    );
}
