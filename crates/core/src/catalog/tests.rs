use super::*;
use chrono::TimeZone;
use serde_json::json;

fn version(app: &str, v: &str, types: Value, source: Source, minute: Option<u32>) -> AppVersion {
    let map = json!({"app_id": app, "version": v, "resources": types});
    let at = minute.map(|m| Utc.with_ymd_and_hms(2026, 11, 22, 9, m, 0).unwrap());
    AppVersion::from_payload(map.as_object().unwrap().clone(), source, at)
}

fn sent(minute: u32) -> Source {
    Source::Sent(Utc.with_ymd_and_hms(2026, 11, 22, 9, minute, 0).unwrap())
}

#[test]
fn types_are_grouped_by_name_newest_first_demo_last() {
    let catalog = Catalog::from_versions(vec![
        version(
            "a",
            "1",
            json!([{"type": "repo"}, {"type": "team"}]),
            sent(1),
            Some(1),
        ),
        demo(),
        version(
            "a",
            "2",
            json!([{"type": "repo", "display_name": "Repo v2"}]),
            sent(5),
            Some(5),
        ),
        version(
            "b",
            "1",
            json!([{"type": "repo"}, {"display_name": "no name"}, 7]),
            Source::File("b.json".into()),
            Some(3),
        ),
    ]);
    let repo = catalog.get("repo").unwrap();
    let order: Vec<String> = repo
        .definitions
        .iter()
        .map(|d| d.app_version_label())
        .collect();
    assert_eq!(order, ["a 2", "b 1", "a 1"]);
    assert_eq!(
        repo.newest().unwrap().source.to_string(),
        "sent 2026-11-22 09:05 UTC"
    );
    assert_eq!(repo.of_version("1").unwrap().app_version_label(), "b 1");
    assert!(catalog.get("team").is_some());
    let names: Vec<&str> = catalog.types().iter().map(|t| t.name.as_str()).collect();
    assert!(names.windows(2).all(|w| w[0] < w[1]), "sorted: {names:?}");
    assert!(names.contains(&"repository"), "the demo's types: {names:?}");
    let demo_repo = catalog.get("repository").unwrap().newest().unwrap();
    assert_eq!(demo_repo.source, Source::Demo);
    assert_eq!(demo_repo.source.to_string(), "demo");
}

#[test]
fn undefined_types_are_listed_once_sorted() {
    let catalog = Catalog::from_versions(vec![version(
        "a",
        "1",
        json!([{"type": "repo"}]),
        sent(1),
        Some(1),
    )]);
    assert_eq!(
        catalog.undefined(["zeta", "repo", "alpha", "zeta"]),
        vec!["alpha".to_owned(), "zeta".to_owned()]
    );
    assert!(NO_DEFINITION_HINT.contains("--types"));
}

#[test]
fn capabilities_show_as_compact_marks() {
    let v = version(
        "a",
        "1",
        json!([{"type": "t", "list_supported": true, "read_supported": true,
                "create_supported": false, "delete_supported": "yes",
                "healthcheck_supported": true, "actions": [{"name": "x"}, {"name": "y"}]}]),
        sent(1),
        Some(1),
    );
    let catalog = Catalog::from_versions(vec![v]);
    let t = catalog.get("t").unwrap().newest().unwrap();
    assert_eq!(t.capabilities().marks(), "LR--?H");
    assert_eq!(t.action_count(), 2);
    let labels: Vec<String> = t.schemas().into_iter().map(|(l, _)| l).collect();
    assert!(labels.is_empty(), "no schema given: {labels:?}");
}

#[test]
fn files_are_checked_like_validate_does() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.json");
    std::fs::write(
        &good,
        json!({"app_id": "a", "version": "1", "resources": [{"type": "t"}]}).to_string(),
    )
    .unwrap();
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"app_id\": ").unwrap();
    let invalid = dir.path().join("invalid.json");
    std::fs::write(&invalid, json!({"app_id": "a", "version": "1", "resources": [{"type": "t", "property_json_schema": {"type": "nope"}}]}).to_string()).unwrap();
    let report = dir.path().join("report.json");
    std::fs::write(&report, json!({"task_id": "t", "status": "ok"}).to_string()).unwrap();
    let loaded = load(&Sources {
        files: vec![
            good.clone(),
            broken,
            invalid,
            report,
            dir.path().join("absent.json"),
        ],
        ..Sources::default()
    });
    assert_eq!(loaded.catalog.types().len(), 1);
    let t = loaded.catalog.get("t").unwrap().newest().unwrap();
    assert_eq!(t.source, Source::File(good));
    assert!(
        t.recorded_at.is_some(),
        "a file's time is its modification time"
    );
    assert_eq!(loaded.problems.len(), 4, "{:#?}", loaded.problems);
    assert!(matches!(
        loaded.problems[0],
        SourceProblem::NotConnect {
            error: ValidateError::Syntax { .. },
            ..
        }
    ));
    let SourceProblem::Invalid { findings, .. } = &loaded.problems[1] else {
        panic!("{:?}", loaded.problems[1])
    };
    assert!(
        findings
            .iter()
            .any(|f| f.pointer == "/resources/0/property_json_schema"),
        "{findings:?}"
    );
    assert!(
        loaded.problems[2].to_string().contains("task report"),
        "{}",
        loaded.problems[2]
    );
    assert!(matches!(
        loaded.problems[3],
        SourceProblem::Unreadable { .. }
    ));
}

#[test]
fn recorded_connects_carry_their_send_time() {
    let at = Utc.with_ymd_and_hms(2026, 11, 22, 8, 15, 0).unwrap();
    let recorded = KnownAppVersion {
        base_url: "http://x/api/v1".into(),
        app_id: "a".into(),
        version: "3".into(),
        payload: json!({"app_id": "a", "version": "3", "resources": [{"type": "t"}]}).to_string(),
        answer: None,
        recorded_at: at,
    };
    let broken = KnownAppVersion {
        payload: "not json".into(),
        ..recorded.clone()
    };
    let loaded = load(&Sources {
        recorded: vec![recorded, broken],
        ..Sources::default()
    });
    let t = loaded.catalog.get("t").unwrap().newest().unwrap();
    assert_eq!(t.source.to_string(), "sent 2026-11-22 08:15 UTC");
    assert_eq!(loaded.problems.len(), 1);
}

/// Issue 20 item 7: a type the newest known version of its app no longer defines is marked with
/// that version; types it still defines, and types of other apps, are not.
#[test]
fn a_type_the_newest_version_of_its_app_dropped_is_marked_removed() {
    let catalog = Catalog::from_versions(vec![
        version(
            "a",
            "1.4.0",
            json!([{"type": "repo"}, {"type": "team"}]),
            sent(1),
            Some(1),
        ),
        version("b", "1", json!([{"type": "widget"}]), sent(2), Some(2)),
        version("a", "1.5.0", json!([{"type": "repo"}]), sent(5), Some(5)),
        demo(),
    ]);
    let removed = |name: &str| catalog.get(name).unwrap().removed_in.clone();
    assert_eq!(removed("team").as_deref(), Some("1.5.0"));
    assert_eq!(removed("repo"), None);
    assert_eq!(removed("widget"), None, "another app");
    // The demo's app (acme-devtools) has no newer version here: its types are current.
    assert_eq!(removed("repository"), None);
}
