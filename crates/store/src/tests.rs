use super::*;
use crate::app_versions::NewAppVersion;
use crate::migrations::SCHEMA_VERSION;
use crate::test_support::on_threads_at_once;
use chrono::TimeZone;

fn sent<'a>(app_id: &'a str, version: &'a str, minute: u32) -> NewAppVersion<'a> {
    NewAppVersion {
        base_url: "http://127.0.0.1:9/api/v1",
        app_id,
        version,
        payload: r#"{"app_id": "x", "version": "1", "resources": []}"#,
        answer: Some(r#"{"status": "ok"}"#),
        recorded_at: Utc.with_ymd_and_hms(2026, 11, 22, 9, minute, 0).unwrap(),
    }
}

use chrono::Utc;

#[test]
fn a_new_store_is_created_private_in_wal_at_the_latest_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep/er").join(FILE_NAME);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let mode: String = store
        .conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        let dir_mode = std::fs::metadata(path.parent().unwrap())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(dir_mode & 0o077, 0, "{dir_mode:o}");
    }
}

#[test]
fn an_empty_file_is_migrated_and_reopening_keeps_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    std::fs::write(&path, b"").unwrap();
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    store.record_app_version(&sent("a", "1", 1)).unwrap();
    drop(store);
    let again = Store::open(&path).unwrap();
    let known = again.app_versions("http://127.0.0.1:9/api/v1/").unwrap();
    assert_eq!(known.len(), 1);
    assert_eq!(known[0].app_id, "a");
    assert_eq!(known[0].answer.as_deref(), Some(r#"{"status": "ok"}"#));
}

#[test]
fn versions_are_per_base_url_newest_first_and_a_resend_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join(FILE_NAME)).unwrap();
    store.record_app_version(&sent("a", "1", 1)).unwrap();
    store.record_app_version(&sent("a", "2", 3)).unwrap();
    store.record_app_version(&sent("b", "1", 2)).unwrap();
    let other = NewAppVersion {
        base_url: "https://elsewhere.example/api/v1",
        ..sent("c", "1", 4)
    };
    store.record_app_version(&other).unwrap();
    let order = |store: &Store| -> Vec<(String, String)> {
        store
            .app_versions("http://127.0.0.1:9/api/v1")
            .unwrap()
            .into_iter()
            .map(|v| (v.app_id, v.version))
            .collect()
    };
    let pairs = |v: &[(&str, &str)]| -> Vec<(String, String)> {
        v.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    assert_eq!(order(&store), pairs(&[("a", "2"), ("b", "1"), ("a", "1")]));
    // Sent again later: same row, new time.
    store.record_app_version(&sent("a", "1", 5)).unwrap();
    assert_eq!(order(&store), pairs(&[("a", "1"), ("a", "2"), ("b", "1")]));
}

#[test]
fn credentials_in_the_base_url_are_not_stored() {
    assert_eq!(
        base_url_key("https://deploy:hunter2@example.com/api/v1/?x=1"),
        "https://example.com/api/v1"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let store = Store::open(&path).unwrap();
    let with_password = NewAppVersion {
        base_url: "https://deploy:hunter2@example.com/api/v1",
        ..sent("a", "1", 1)
    };
    store.record_app_version(&with_password).unwrap();
    assert_eq!(
        store
            .app_versions("https://example.com/api/v1")
            .unwrap()
            .len(),
        1
    );
    drop(store);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.extend(std::fs::read(dir.path().join("appdeck.db-wal")).unwrap_or_default());
    assert!(!String::from_utf8_lossy(&bytes).contains("hunter2"));
}

#[test]
fn a_corrupt_file_is_an_error_and_is_kept_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let garbage = b"this is not an SQLite database, but it is somebody's file\n".repeat(100);
    std::fs::write(&path, &garbage).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    let message = err.to_string();
    assert!(
        message.contains("corrupt") && message.contains("untouched"),
        "{message}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), garbage, "the file is kept");
    // A second try says the same: nothing was recreated in between.
    assert!(matches!(
        Store::open(&path),
        Err(StoreError::Corrupt { .. })
    ));
    assert_eq!(std::fs::read(&path).unwrap(), garbage);
}

#[test]
fn a_store_from_a_newer_appdeck_is_refused_and_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch("CREATE TABLE future (x); PRAGMA user_version = 99;")
            .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let err = Store::open(&path).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Newer {
                found: 99,
                supported: SCHEMA_VERSION,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("newer appdeck"), "{err}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
}

#[test]
fn a_lock_held_past_the_busy_timeout_is_a_locked_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let store = Store::open(&path).unwrap();
    let holder = Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    store.conn.busy_timeout(Duration::from_millis(50)).unwrap();
    let err = store.record_app_version(&sent("a", "1", 1)).unwrap_err();
    assert!(matches!(err, StoreError::Locked { .. }), "{err:?}");
    holder.execute_batch("ROLLBACK").unwrap();
    store.record_app_version(&sent("a", "1", 1)).unwrap();
}

/// Opening a store already at the latest version is a read: a writer holding its lock (another
/// connection of this process at start, or another appdeck) does not hold the open up, and the
/// rows can be read meanwhile (WAL). Before, every open took the write lock to check the schema.
#[test]
fn an_up_to_date_store_opens_and_reads_while_another_connection_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    Store::open(&path)
        .unwrap()
        .record_app_version(&sent("a", "1", 1))
        .unwrap();
    let holder = Connection::open(&path).unwrap();
    holder.execute_batch("BEGIN IMMEDIATE").unwrap();
    let (done, opened) = std::sync::mpsc::channel();
    let reader = std::thread::spawn({
        let path = path.clone();
        move || {
            let found =
                Store::open(&path).and_then(|s| s.app_versions("http://127.0.0.1:9/api/v1"));
            let _ = done.send(found.map(|v| v.len()).map_err(|e| e.to_string()));
        }
    });
    // Well within the busy timeout (5 s), which an open waiting for the lock would run out.
    let found = opened.recv_timeout(Duration::from_secs(2));
    holder.execute_batch("ROLLBACK").unwrap();
    reader.join().unwrap();
    assert_eq!(found, Ok(Ok(1)), "the open waited for the writer's lock");
}

#[test]
fn threads_with_their_own_connections_write_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    on_threads_at_once(&path, 4, |store, t| {
        for i in 0..25 {
            let app = format!("app{t}");
            let version = format!("{i}");
            store.record_app_version(&sent(&app, &version, 1)).unwrap();
        }
    });
    let store = Store::open(&path).unwrap();
    assert_eq!(
        store
            .app_versions("http://127.0.0.1:9/api/v1")
            .unwrap()
            .len(),
        100
    );
}

// ------------------------------------------------------------------------------------ drafts

fn draft_key(subject: Option<&str>) -> DraftKey {
    DraftKey::report("http://127.0.0.1:9/api/v1/", subject)
}

fn at(minute: u32) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 9, minute, 0).unwrap()
}

/// One composer's draft, as the runtime names it: a window and a composer in it.
const MINE: &str = "window-1/5";

#[test]
fn a_draft_is_saved_replaced_loaded_and_removed_by_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join(FILE_NAME)).unwrap();
    let key = draft_key(Some("res_1"));
    assert_eq!(store.load_draft(&key).unwrap(), None);
    store
        .save_draft(&key, (MINE, None), "first", at(1))
        .unwrap();
    store
        .save_draft(&key, (MINE, None), "second", at(2))
        .unwrap();
    let draft = store.load_draft(&key).unwrap().expect("the draft");
    assert_eq!(
        draft.body, "second",
        "its composer saving again replaces it"
    );
    assert_eq!(draft.updated_at, at(2));
    assert_eq!(draft.key.subject, "res_1");
    assert_eq!(draft.key.kind, "report");
    assert_eq!(draft.owner, MINE);
    assert_eq!(draft.revision.revision, 2);
    assert_eq!(store.drafts("http://127.0.0.1:9/api/v1").unwrap().len(), 1);
    // The same service written another way finds it; another subject or service does not.
    let same = DraftKey::report("http://127.0.0.1:9/api/v1", Some("res_1"));
    assert!(store.load_draft(&same).unwrap().is_some());
    assert_eq!(store.load_draft(&draft_key(None)).unwrap(), None);
    let elsewhere = DraftKey::report("https://elsewhere.example/api/v1", Some("res_1"));
    assert_eq!(store.load_draft(&elsewhere).unwrap(), None);
    assert!(store.remove_draft(&key, (Some(MINE), None)).unwrap());
    assert!(
        !store.remove_draft(&key, (Some(MINE), None)).unwrap(),
        "nothing left to remove"
    );
    assert_eq!(store.load_draft(&key).unwrap(), None);
}

#[test]
fn drafts_are_listed_per_base_url_newest_first_and_survive_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let store = Store::open(&path).unwrap();
    let save = |key: &DraftKey, body: &str, minute: u32| {
        store
            .save_draft(key, (MINE, None), body, at(minute))
            .unwrap();
    };
    save(&draft_key(Some("a")), "a", 3);
    save(&draft_key(None), "new", 5);
    save(&draft_key(Some("b")), "b", 4);
    let elsewhere = DraftKey::report("https://elsewhere.example/api/v1", Some("c"));
    save(&elsewhere, "c", 9);
    drop(store);
    let store = Store::open(&path).unwrap();
    let subjects: Vec<String> = store
        .drafts("http://127.0.0.1:9/api/v1")
        .unwrap()
        .into_iter()
        .map(|d| d.key.subject)
        .collect();
    assert_eq!(subjects, ["new", "b", "a"]);
}

#[test]
fn two_connections_saving_drafts_at_once_lose_none() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    // Both save, replace and remove drafts interleaved.
    on_threads_at_once(&path, 2, |store, t| {
        for i in 0..40 {
            let key = draft_key(Some(&format!("t{t}-{i}")));
            store
                .save_draft(&key, (MINE, None), "draft", at(1))
                .unwrap();
            let body = format!("{t}/{i}");
            store.save_draft(&key, (MINE, None), &body, at(2)).unwrap();
            if i % 4 == 0 {
                assert!(store.remove_draft(&key, (Some(MINE), None)).unwrap());
            }
        }
    });
    let store = Store::open(&path).unwrap();
    let drafts = store.drafts("http://127.0.0.1:9/api/v1").unwrap();
    assert_eq!(drafts.len(), 60);
    for draft in drafts {
        let (t, i) = draft.key.subject[1..].split_once('-').unwrap();
        assert_eq!(draft.body, format!("{t}/{i}"));
    }
}

/// Two windows on one home, each with its own connection, compose about the same resource:
/// both texts are kept, both are listed, and a send removes only its own window's.
#[test]
fn two_windows_composing_about_one_resource_keep_a_draft_each() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let (first, second) = (Store::open(&path).unwrap(), Store::open(&path).unwrap());
    let key = draft_key(Some("res_1"));
    let (a, b) = ("window-a/3", "window-b/3");
    first.save_draft(&key, (a, None), "a typed", at(1)).unwrap();
    second
        .save_draft(&key, (b, None), "b typed", at(2))
        .unwrap();
    first
        .save_draft(&key, (a, None), "a typed more", at(3))
        .unwrap();
    let bodies = |store: &Store| -> Vec<String> {
        let listed = store.drafts("http://127.0.0.1:9/api/v1").unwrap();
        listed.into_iter().map(|d| d.body).collect()
    };
    assert_eq!(bodies(&second), ["a typed more", "b typed"]);
    assert!(second.remove_draft(&key, (Some(b), None)).unwrap());
    assert_eq!(
        bodies(&first),
        ["a typed more"],
        "b's send removed only b's"
    );
}

/// A window that went on from a stored draft takes it over with its first save; a second
/// window that went on from the same draft, saving after that, keeps its text beside it rather
/// than over it, and the first one's send does not remove the second's.
#[test]
fn a_draft_two_windows_went_on_from_is_taken_over_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    let (first, second) = (Store::open(&path).unwrap(), Store::open(&path).unwrap());
    let key = draft_key(Some("res_1"));
    first
        .save_draft(&key, ("crashed/1", None), "left behind", at(1))
        .unwrap();
    let stored = first.load_draft(&key).unwrap().expect("the draft");
    let from = Some(stored.revision);
    let (a, b) = ("window-a/2", "window-b/2");
    first
        .save_draft(&key, (a, from), "a went on", at(2))
        .unwrap();
    second
        .save_draft(&key, (b, from), "b went on", at(3))
        .unwrap();
    let listed = first.drafts("http://127.0.0.1:9/api/v1").unwrap();
    let owned: Vec<(&str, &str)> = listed
        .iter()
        .map(|d| (d.owner.as_str(), d.body.as_str()))
        .collect();
    assert_eq!(owned, [(b, "b went on"), (a, "a went on")]);
    assert_eq!(
        listed[1].revision.row, stored.revision.row,
        "a took it over"
    );
    // a sends: its draft goes; b's stays, and so would have a's had b sent first.
    assert!(first.remove_draft(&key, (Some(a), from)).unwrap());
    let left = second.drafts("http://127.0.0.1:9/api/v1").unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].body, "b went on");
    assert!(
        !second.remove_draft(&key, (None, from)).unwrap(),
        "a removal naming a draft changed since it was read removes nothing"
    );
}

/// A store from before owners: its drafts are kept, and a window takes one over by going on
/// from it.
#[test]
fn drafts_from_before_owners_are_kept_and_can_be_taken_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(FILE_NAME);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        for sql in &super::migrations::MIGRATIONS[..3] {
            conn.execute_batch(sql).unwrap();
        }
        conn.execute_batch(
            "PRAGMA user_version = 3;
             INSERT INTO drafts VALUES
                ('http://127.0.0.1:9/api/v1', 'report', 'res_1', 'old body',
                 '2026-11-22T09:01:00Z');",
        )
        .unwrap();
    }
    let store = Store::open(&path).unwrap();
    assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    let key = draft_key(Some("res_1"));
    let old = store.load_draft(&key).unwrap().expect("kept");
    assert_eq!((old.body.as_str(), old.owner.as_str()), ("old body", ""));
    store
        .save_draft(&key, (MINE, Some(old.revision)), "went on", at(5))
        .unwrap();
    let listed = store.drafts("http://127.0.0.1:9/api/v1").unwrap();
    assert_eq!(listed.len(), 1, "taken over, not copied");
    assert_eq!(listed[0].body, "went on");
}
