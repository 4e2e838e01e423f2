//! Where the rows' JSON goes, measured: the spill file behind `Bodies` against a table in
//! SQLite (the local store's engine), with a million resources of the demo's kinds (~1.2 KB
//! each). For each: the cost of keeping one page of 500 (the UI thread pays it as a page
//! arrives), a scan of every text in order looking for a string (what `/` over every field
//! does; its goal is 1 s for a million rows), and reading one text (the detail).
//! Run with `cargo bench --bench bodies [ROWS]`; the files go where the TUI puts its own.

mod common;
use common::{measure, ms};

use std::ops::ControlFlow;
use std::time::Instant;

use appdeck_listing::{Bodies, BodyId};
use serde_json::Value;

const PAGE: usize = 500;

fn main() {
    let rows: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let texts = texts(rows);
    let bytes: usize = texts.iter().map(String::len).sum();
    println!(
        "{rows} texts, {:.0} MB, {} bytes each on average",
        bytes as f64 / 1e6,
        bytes / rows
    );
    let started = Instant::now();
    spill_file(&texts);
    println!("  (all of it: {:.0} ms)", ms(started.elapsed()));
    let started = Instant::now();
    sqlite_table(&texts);
    println!("  (all of it: {:.0} ms)", ms(started.elapsed()));
}

/// The demo's resources, each made distinct by its id, over and over.
fn texts(rows: usize) -> Vec<String> {
    let demo: Vec<Value> = serde_json::from_str(appdeck_sandbox::DEMO_RESOURCES).unwrap();
    let demo: Vec<String> = demo.iter().map(|v| v.to_string()).collect();
    (0..rows)
        .map(|i| demo[i % demo.len()].replacen("\"id\":\"", &format!("\"id\":\"g{i}-"), 1))
        .collect()
}

fn spill_file(texts: &[String]) {
    println!("spill file (Bodies):");
    let bodies = Bodies::default();
    let mut ids: Vec<BodyId> = Vec::with_capacity(texts.len());
    let mut pages = texts.chunks(PAGE);
    measure("  keep a page of 500", 0, texts.len() / PAGE, || {
        if let Some(page) = pages.next() {
            ids.extend(page.iter().map(|t| bodies.push(t)));
            // The UI thread appends; the runtime writes (`Command::WriteBodies`).
            bodies.write_due();
        }
    });
    let needle = memchr::memmem::Finder::new("no such text anywhere");
    measure("  scan every text for a string", 1, 5, || {
        let mut found = 0;
        bodies
            .scan(&ids, |_, text| {
                found += usize::from(needle.find(text.as_bytes()).is_some());
                ControlFlow::Continue(())
            })
            .unwrap();
        assert_eq!(found, 0);
    });
    let every_tenth: Vec<BodyId> = ids.iter().step_by(10).copied().collect();
    measure("  scan every tenth text", 1, 5, || {
        bodies
            .scan(&every_tenth, |_, _| ControlFlow::Continue(()))
            .unwrap();
    });
    let mut at = 0;
    measure("  read one text", 10, 1000, || {
        at = (at + 7919) % ids.len();
        assert!(!bodies.read(ids[at]).unwrap().is_empty());
    });
}

fn sqlite_table(texts: &[String]) {
    println!("SQLite table (no journal, no sync: the fastest it goes):");
    let dir = tempfile::tempdir_in(std::env::temp_dir()).unwrap();
    let db = rusqlite::Connection::open(dir.path().join("bodies.db")).unwrap();
    db.execute_batch(
        "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
         CREATE TABLE bodies (id INTEGER PRIMARY KEY, json TEXT NOT NULL);",
    )
    .unwrap();
    let mut pages = texts.chunks(PAGE);
    measure("  keep a page of 500", 0, texts.len() / PAGE, || {
        if let Some(page) = pages.next() {
            let tx = db.unchecked_transaction().unwrap();
            {
                let mut insert = tx
                    .prepare_cached("INSERT INTO bodies (json) VALUES (?1)")
                    .unwrap();
                for text in page {
                    insert.execute([text]).unwrap();
                }
            }
            tx.commit().unwrap();
        }
    });
    let needle = memchr::memmem::Finder::new("no such text anywhere");
    measure("  scan every text for a string", 1, 5, || {
        let mut select = db
            .prepare_cached("SELECT json FROM bodies ORDER BY id")
            .unwrap();
        let mut rows = select.query([]).unwrap();
        let mut found = 0;
        while let Some(row) = rows.next().unwrap() {
            let text = row.get_ref(0).unwrap().as_bytes().unwrap();
            found += usize::from(needle.find(text).is_some());
        }
        assert_eq!(found, 0);
    });
    let mut select = db
        .prepare_cached("SELECT json FROM bodies WHERE id = ?1")
        .unwrap();
    let mut at: i64 = 0;
    measure("  read one text", 10, 1000, || {
        at = (at + 7919) % texts.len() as i64;
        let text: String = select.query_row([at + 1], |row| row.get(0)).unwrap();
        assert!(!text.is_empty());
    });
}
