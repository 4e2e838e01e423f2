//! Sorting and exporting the list, in process (issue 22's goals: sort 1,000,000 rows within 1 s
//! off the UI thread; `:export` 100,000 rows to `.ndjson` within 1 s). The rows are loaded
//! through `update` in pages of 500, as the sandbox sends them; each step is timed as the TUI
//! runs it: the keypress on the UI thread, the job off it, the answer applied on the UI thread.
//! Run with `cargo bench --bench sort_export`.

mod common;
use common::{measure, ms};
#[path = "common/rows.rs"]
mod rows;

use std::time::Instant;

use appdeck_listing::{SortKeys, merge_sorted, sort_by_keys};
use appdeck_tui::harness::{press, type_text};
use appdeck_tui::{Action, App, Command, Delivery, Move, Notice};
use crossterm::event::KeyCode;
use serde_json::{Value, json};

const TYPES: [&str; 3] = ["repository", "deployment", "incident"];
const STATUSES: [&str; 4] = ["active", "degraded", "archived", "Pending"];

/// A resource whose name and date sort in an order unrelated to the server's.
fn resource(i: usize) -> Value {
    let scrambled = (i * 7_919) % 1_000_003;
    json!({
        "id": format!("res_{i:07}"),
        "type": TYPES[i % 3],
        "display_name": format!("Resource {scrambled} — ünïcødé"),
        "status": STATUSES[i % 4],
        "external_id": format!("ext-{scrambled}"),
        "updated_at": format!("2026-{:02}-{:02}T{:02}:30:00Z", 1 + scrambled % 12, 1 + scrambled % 28, scrambled % 24),
        "properties": {"stars": i, "tags": ["a", "b"], "owner": {"name": "Zoë", "team": "platform"}},
    })
}

/// Runs a `:` command as typed.
fn command(app: &mut App, line: &str) -> Vec<Command> {
    press(app, KeyCode::Char(':'));
    type_text(app, line);
    press(app, KeyCode::Enter)
}

/// Runs `line` (which starts one job), times its three steps and returns the notice it ends on.
fn timed_job(app: &mut App, line: &str, what: &str) -> Option<Notice> {
    let t = Instant::now();
    let commands = command(app, line);
    let keypress = t.elapsed();
    let Some(Command::Run { id, job }) = commands
        .into_iter()
        .find(|c| matches!(c, Command::Run { .. }))
    else {
        panic!("{line}: no job")
    };
    let t = Instant::now();
    let output = job.run();
    let background = t.elapsed();
    let t = Instant::now();
    app.update(Action::reply(id, Delivery::Job(output)));
    let answer = t.elapsed();
    println!(
        "{what:<52} keypress {:>7.1} ms   job {:>7.1} ms   answer {:>7.1} ms   total {:>7.1} ms",
        ms(keypress),
        ms(background),
        ms(answer),
        ms(keypress + background + answer)
    );
    app.notice.clone()
}

fn main() {
    let t = Instant::now();
    let mut app = rows::app_with_rows(1_000_000, resource);
    println!(
        "{:<52} {:>8.1} ms",
        "load 1,000,000 rows (2,000 pages)",
        ms(t.elapsed())
    );
    assert_eq!(app.browser.rows().len(), 1_000_000);
    app.update(Action::Move(Move::Top));
    for _ in 0..100 {
        app.update(Action::Move(Move::Down));
    }
    let here = app
        .browser
        .selected()
        .and_then(|r| r.id().map(Box::<str>::from));

    for (line, what) in [
        ("sort name", "sort 1,000,000 rows by name"),
        ("sort name desc", "sort 1,000,000 rows by name, descending"),
        ("sort updated_at", "sort 1,000,000 rows by updated_at"),
        (
            "sort status desc",
            "sort 1,000,000 rows by status (many ties)",
        ),
    ] {
        let said = timed_job(&mut app, line, what);
        assert!(
            matches!(&said, Some(Notice::Info(s)) if s.starts_with("sorted by")),
            "{said:?}"
        );
        assert_eq!(
            app.browser
                .selected()
                .and_then(|r| r.id().map(Box::<str>::from)),
            here
        );
    }

    // A page arriving into a sorted million is merged on the UI thread, into the order of every
    // row and into the visible rows: twice this.
    let rows = app.browser.rows();
    let spec = app.browser.sorting.spec.expect("sorted");
    let keys = SortKeys::of_first(rows, 999_500, spec.column);
    let order = sort_by_keys(&keys, spec.descending, |_, _| true).expect("sorted");
    let mut times = Vec::new();
    for _ in 0..5 {
        let mut merged = order.clone();
        let t = Instant::now();
        merge_sorted(&mut merged, (999_500..1_000_000).collect(), rows, spec);
        times.push(t.elapsed());
        assert_eq!(merged.len(), 1_000_000);
    }
    times.sort();
    println!(
        "{:<52} median {:>7.2} ms   max {:>7.2} ms",
        "merge a page of 500 into 999,500 sorted rows",
        ms(times[2]),
        ms(times[4])
    );
    measure(
        "a new / filter reordered, 1,000,000 sorted rows",
        1,
        5,
        || {
            app.browser.arrange_visible(30);
        },
    );

    let dir = tempfile::tempdir().expect("a temp dir");
    let mut app = rows::app_with_rows(100_000, resource);
    for (file, what) in [
        ("rows.ndjson", "export 100,000 rows to .ndjson"),
        ("rows.json", "export 100,000 rows to .json"),
        ("rows.csv", "export 100,000 rows to .csv"),
    ] {
        let path = dir.path().join(file);
        let said = timed_job(&mut app, &format!("export {}", path.display()), what);
        assert!(
            matches!(&said, Some(Notice::Info(s)) if s.starts_with("wrote 100,000 rows")),
            "{said:?}"
        );
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        println!("{:<52} {:>8.1} MB", format!("  {file}"), bytes as f64 / 1e6);
    }
}
