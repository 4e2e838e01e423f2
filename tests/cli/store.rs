//! The local store across processes: several `appdeck connect` at once write to one store, and a
//! store that cannot be used is a warning, never a failed send, and is left as it was.

use crate::common;

use common::{TestSandbox, run};
use serde_json::json;

fn connect_file(sandbox: &TestSandbox, n: usize) -> String {
    let payload = json!({"app_id": format!("app-{n}"), "version": "1.0.0", "resources": [
        {"type": format!("kind_{n}"), "list_supported": true}
    ]});
    let path = sandbox.path(&format!("connect-{n}.json"));
    std::fs::write(&path, payload.to_string()).unwrap();
    path.display().to_string()
}

#[test]
fn several_processes_record_their_connects_at_once() {
    let sandbox = TestSandbox::demo();
    let data = sandbox.path("data");
    let children: Vec<_> = (0..4)
        .map(|n| {
            let file = connect_file(&sandbox, n);
            let mut cmd = sandbox.appdeck();
            cmd.env("APPDECK_DATA_DIR", &data)
                .args(["connect", &file])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped());
            cmd.spawn().expect("appdeck runs")
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.is_empty(), "no store warning: {stderr}");
    }
    let out = run(sandbox
        .appdeck()
        .env("APPDECK_DATA_DIR", &data)
        .arg("types"));
    assert_eq!(out.code, 0, "{out:?}");
    for n in 0..4 {
        assert!(out.stdout.contains(&format!("kind_{n}")), "{}", out.stdout);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(data.join("appdeck.db"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
    }
    let db = std::fs::read(data.join("appdeck.db")).unwrap();
    let wal = std::fs::read(data.join("appdeck.db-wal")).unwrap_or_default();
    let all = [db, wal].concat();
    assert!(
        !String::from_utf8_lossy(&all).contains(common::TOKEN),
        "the store never holds the token"
    );
}

#[test]
fn a_corrupt_store_is_a_warning_and_is_kept() {
    let sandbox = TestSandbox::demo();
    let data = sandbox.path("data");
    std::fs::create_dir_all(&data).unwrap();
    let garbage = b"not a database at all\n".repeat(200);
    std::fs::write(data.join("appdeck.db"), &garbage).unwrap();
    let file = connect_file(&sandbox, 7);

    let out = run(sandbox
        .appdeck()
        .env("APPDECK_DATA_DIR", &data)
        .args(["connect", &file]));
    assert_eq!(out.code, 0, "the send succeeded: {out:?}");
    assert!(out.stdout.contains("status: ok"), "{}", out.stdout);
    assert!(
        out.stderr.contains("warning") && out.stderr.contains("corrupt"),
        "{}",
        out.stderr
    );
    assert_eq!(std::fs::read(data.join("appdeck.db")).unwrap(), garbage);

    let out = run(sandbox
        .appdeck()
        .env("APPDECK_DATA_DIR", &data)
        .args(["types", "--types", &file]));
    assert_eq!(out.code, 0, "types go on without the store: {out:?}");
    assert!(out.stdout.contains("kind_7"), "{}", out.stdout);
    assert!(out.stderr.contains("corrupt"), "{}", out.stderr);
    assert_eq!(std::fs::read(data.join("appdeck.db")).unwrap(), garbage);
}
