use std::time::Duration;

use chrono::{TimeZone, Utc};

use super::*;
use crate::migrations::SCHEMA_VERSION;
use crate::test_support::on_threads_at_once;
use crate::{FILE_NAME, Store};

fn report(task: &str, second: u32) -> Sent {
    Sent {
        sent_at: Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, second).unwrap(),
        base_url: "http://127.0.0.1:9/api/v1".into(),
        kind: SendKind::Report,
        body: format!(r#"{{"task_id": "{task}", "status": "ok"}}"#),
        answer: Some(r#"{"status": "ok"}"#.into()),
        http_status: Some(200),
        duration: Some(Duration::from_millis(87)),
        error: None,
        resource_before: None,
        resource_after: None,
    }
}

fn connect(version: &str, second: u32) -> Sent {
    Sent {
        kind: SendKind::Connect,
        body: format!(r#"{{"app_id": "a", "version": "{version}", "resources": []}}"#),
        ..report("", second)
    }
}

fn all(store: &Store) -> Vec<HistoryEntry> {
    store
        .history(&HistoryQuery {
            kind: None,
            limit: usize::MAX,
        })
        .unwrap()
}

#[test]
fn a_send_reads_back_by_id_as_it_was_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join(FILE_NAME)).unwrap();
    let failed = Sent {
        answer: None,
        http_status: None,
        duration: None,
        error: Some("cannot connect to http://127.0.0.1:9/api/v1".into()),
        ..report("t-net", 1)
    };
    let ok = store.record_send(&report("t-ok", 2)).unwrap();
    let net = store.record_send(&failed).unwrap();
    assert_ne!(ok, net);
    assert_eq!(
        store.history_entry(ok).unwrap().unwrap().sent,
        report("t-ok", 2)
    );
    assert_eq!(store.history_entry(net).unwrap().unwrap().sent, failed);
    assert_eq!(store.history_entry(net + 100).unwrap(), None, "unknown id");
}

#[test]
fn listings_are_newest_first_filtered_by_kind_and_limited() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join(FILE_NAME)).unwrap();
    store.record_send(&report("r1", 1)).unwrap();
    store.record_send(&connect("1.0.0", 3)).unwrap();
    store.record_send(&report("r2", 2)).unwrap();
    // Same millisecond as r2: the later insert comes first.
    store.record_send(&report("r3", 2)).unwrap();
    let tasks = |entries: Vec<HistoryEntry>| -> Vec<String> {
        entries.iter().map(|e| e.sent.summary().request).collect()
    };
    assert_eq!(
        tasks(all(&store)),
        ["a 1.0.0 · 0 types", "r3 · ok", "r2 · ok", "r1 · ok"]
    );
    let reports = store
        .history(&HistoryQuery {
            kind: Some(SendKind::Report),
            limit: 2,
        })
        .unwrap();
    assert_eq!(tasks(reports), ["r3 · ok", "r2 · ok"]);
    let connects = store
        .history(&HistoryQuery {
            kind: Some(SendKind::Connect),
            limit: 10,
        })
        .unwrap();
    assert_eq!(connects.len(), 1);
    assert_eq!(connects[0].sent.kind, SendKind::Connect);
}

#[test]
fn credentials_of_the_base_url_never_reach_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let store = Store::open(&path).unwrap();
    let sent = Sent {
        base_url: "https://deploy:hunter2@example.com/api/v1/".into(),
        ..report("t", 1)
    };
    let id = store.record_send(&sent).unwrap();
    let back = store.history_entry(id).unwrap().unwrap();
    assert_eq!(back.sent.base_url, "https://example.com/api/v1");
    drop(store);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend(std::fs::read(dir.path().join("appdeck.db-wal")).unwrap_or_default());
    assert!(!String::from_utf8_lossy(&bytes).contains("hunter2"));
}

#[test]
fn a_store_of_the_first_schema_is_migrated_and_keeps_its_versions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(super::super::migrations::FIRST_FOR_TESTS)
            .unwrap();
        conn.execute_batch(
            "INSERT INTO app_versions (base_url, app_id, version, payload, recorded_at)
             VALUES ('http://h/api/v1', 'kept', '1', '{}', '2026-01-01T00:00:00.000Z');
             PRAGMA user_version = 1;",
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    assert_eq!(store.app_versions("http://h/api/v1").unwrap().len(), 1);
    store.record_send(&report("t", 1)).unwrap();
    assert_eq!(all(&store).len(), 1);
}

#[test]
fn threads_with_their_own_connections_record_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let mut ids: Vec<i64> = on_threads_at_once(&path, 4, |store, t| {
        (0..25)
            .map(|i| store.record_send(&report(&format!("t{t}-{i}"), 1)).unwrap())
            .collect::<Vec<i64>>()
    })
    .concat();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 100, "every send has its own id");
    let store = Store::open(&path).unwrap();
    assert_eq!(all(&store).len(), 100);
}

#[test]
fn a_batch_is_recorded_whole_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join(FILE_NAME)).unwrap();
    let batch: Vec<Sent> = (0..5).map(|i| report(&format!("t{i}"), 1)).collect();
    store.record_sends(&batch).unwrap();
    let mut back: Vec<Sent> = all(&store).into_iter().map(|e| e.sent).collect();
    back.reverse(); // newest first; same second, so by id
    assert_eq!(back, batch);
}

/// A report sent at `second` whose resource is the JSON text `resource`.
fn carrying(task: &str, resource: &str, second: u32) -> Sent {
    Sent {
        body: format!(
            r#"{{"task_id": "{task}", "status": "ok", "response": {{"response_type": "resource", "resource": {resource}}}}}"#
        ),
        ..report(task, second)
    }
}

fn key(id: &str) -> crate::ResourceKey {
    crate::ResourceKey {
        id: id.to_owned(),
        ..Default::default()
    }
}

/// The tester's item 14: the report that created a resource carried no `id` (the service gave
/// it one); its `type` and `external_id` find it among the reports about the resource.
#[test]
fn the_report_that_created_a_resource_is_among_those_about_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join(FILE_NAME)).unwrap();
    let created = carrying("created", r#"{"type": "repo", "external_id": "x-1"}"#, 1);
    store.record_send(&created).unwrap();
    let other = carrying("other", r#"{"type": "repo", "external_id": "x-2"}"#, 2);
    store.record_send(&other).unwrap();
    let other_type = carrying("team", r#"{"type": "team", "external_id": "x-1"}"#, 3);
    store.record_send(&other_type).unwrap();
    let updated = carrying(
        "updated",
        r#"{"id": "res_1", "type": "repo", "external_id": "x-1"}"#,
        4,
    );
    store.record_send(&updated).unwrap();
    let about = crate::ResourceKey {
        id: "res_1".into(),
        resource_type: Some("repo".into()),
        external_id: Some("x-1".into()),
    };
    let found = store
        .reports_about("http://127.0.0.1:9/api/v1", &about, 10)
        .unwrap();
    let found: Vec<&Sent> = found.iter().map(|e| &e.sent).collect();
    assert_eq!(found, [&updated, &created], "newest first, each once");
    let just_the_id = store
        .reports_about("http://127.0.0.1:9/api/v1", &key("res_1"), 10)
        .unwrap();
    assert_eq!(just_the_id.len(), 1);
}

#[test]
fn reports_about_a_resource_are_those_carrying_it_to_that_service_newest_first() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join(FILE_NAME)).unwrap();
    let about =
        |task: &str, id: &str, second: u32| carrying(task, &format!(r#"{{"id": "{id}"}}"#), second);
    store.record_send(&about("first", "r1", 1)).unwrap();
    store.record_send(&about("other", "r2", 2)).unwrap();
    store.record_send(&about("second", "r1", 3)).unwrap();
    store
        .record_send(&Sent {
            base_url: "http://elsewhere/api/v1".into(),
            ..about("elsewhere", "r1", 4)
        })
        .unwrap();
    store
        .record_send(&Sent {
            body: "not json".into(),
            ..report("broken", 5)
        })
        .unwrap();
    store.record_send(&connect("1.0.0", 6)).unwrap();
    let found = store
        .reports_about("http://127.0.0.1:9/api/v1/", &key("r1"), 10)
        .unwrap();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].sent, about("second", "r1", 3));
    assert_eq!(found[1].sent, about("first", "r1", 1));
    assert_eq!(
        store
            .reports_about("http://127.0.0.1:9/api/v1", &key("r1"), 1)
            .unwrap()
            .len(),
        1,
        "limited"
    );
    assert!(
        store
            .reports_about("http://127.0.0.1:9/api/v1", &key("nope"), 10)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_report_keeps_its_resource_as_listed_and_says_what_it_changed() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join(FILE_NAME)).unwrap();
    let sent = Sent {
        body: r#"{"task_id":"t","status":"ok","response":{"response_type":"resource","resource":{"id":"r1","n":1E2,"status":"archived"}}}"#.into(),
        resource_before: Some(r#"{"id": "r1", "n": 1E2, "status": "active"}"#.into()),
        ..report("t", 1)
    };
    let id = store.record_send(&sent).unwrap();
    let read = store.history_entry(id).unwrap().unwrap().sent;
    assert_eq!(read, sent);
    let changes: Vec<String> = read
        .changes()
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(changes, [r#"changed /status: "active" → "archived""#]);
    assert_eq!(
        report("t", 2).changes(),
        None,
        "no resource before: not known"
    );
    assert_eq!(read.after(), crate::changes::After::Sent);
    // `report --diff` found it listed again: the changes are against that, as it printed them.
    let listed_again = r#"{"id": "r1", "n": 1E2, "status": "archived", "updated_at": "now"}"#;
    store.set_resource_after(id, listed_again).unwrap();
    let read = store.history_entry(id).unwrap().unwrap().sent;
    assert_eq!(read.resource_after.as_deref(), Some(listed_again));
    assert_eq!(read.after(), crate::changes::After::ListedAgain);
    let changes: Vec<String> = read
        .changes()
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        changes,
        [
            r#"changed /status: "active" → "archived""#,
            r#"added /updated_at: "now""#
        ]
    );
}
