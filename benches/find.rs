//! `/` over every field and `:where` (issue 22 items 1 and 2) over 100,000 and 1,000,000 rows,
//! in process. For each key typed: the UI thread's part (the key's `update`: the job handed
//! out), the job's (reading every row's JSON, off the UI thread), and applying its answer (on
//! the UI thread again). Goals: each key answered within 50 ms over 100,000 rows; over
//! 1,000,000, results within 1 s and no UI-thread step over 16 ms. Run with
//! `cargo bench --bench find` (knobs: see [`from_env`]).

mod common;
use common::{cpu_time, measure, ms};
#[path = "common/rows.rs"]
mod rows;

use std::time::{Duration, Instant};

use appdeck_tui::Theme;
use appdeck_tui::harness::{key, press};
use appdeck_tui::{Action, App, Command, Delivery, Move};
use chrono::Utc;
use crossterm::event::KeyCode;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use serde_json::{Value, json};

const TYPES: [&str; 3] = ["repository", "deployment", "incident"];
const OWNERS: [&str; 7] = ["alice", "bob", "carol", "dave", "erin", "frank", "grace"];

/// A resource like the sandbox's: a few columns, then properties with nested values.
fn resource(i: usize) -> Value {
    json!({
        "id": format!("res_{i:07}"),
        "type": TYPES[i % 3],
        "display_name": format!("Resource number {i} — ünïcødé"),
        "name": format!("resource-{i}"),
        "status": "active",
        "external_id": format!("ext-{i}"),
        "updated_at": "2026-11-20T09:30:00Z",
        "created_at": "2026-01-02T03:04:05Z",
        "properties": {"stars": i, "tags": ["a", "b"], "language": "Rust",
            "owner": {"login": OWNERS[i % 7], "team": "platform"},
            "description": "A service of the platform, described at some length as real ones are."},
        "links": {"links": [{"title": "Docs", "type": "documentation", "url": "https://docs.example.com"}]}
    })
}

/// An app with `rows` loaded, the cursor on the first.
fn app_with_rows(rows: usize) -> App {
    let mut app = rows::app_with_rows(rows, resource);
    app.update(Action::Move(Move::Top));
    app
}

/// Times of one key: the UI thread's update, the jobs', and applying their answers.
struct KeyTimes {
    update: Duration,
    job: Duration,
    /// The jobs' CPU time, all their threads counted.
    job_cpu: Duration,
    apply: Duration,
    /// After the rows were shown: the jobs their answer handed out (naming the fields the rows
    /// were found by), run and applied.
    named: Duration,
}

/// Runs the jobs `commands` hand out (as the executor would, here in turn) and applies their
/// answers; then the jobs those answers hand out, timed apart: (the jobs, their CPU, applying
/// their answers, the jobs after).
fn run_jobs(app: &mut App, commands: Vec<Command>) -> (Duration, Duration, Duration, Duration) {
    let (mut job_time, mut job_cpu, mut apply_time) =
        (Duration::ZERO, Duration::ZERO, Duration::ZERO);
    let mut after = Vec::new();
    for command in commands {
        if let Command::Run { id, job } = command {
            let (t, cpu) = (Instant::now(), cpu_time());
            let answer = job.run();
            job_time += t.elapsed();
            job_cpu += cpu_time() - cpu;
            let t = Instant::now();
            after.extend(app.update(Action::reply(id, Delivery::Job(answer))));
            apply_time += t.elapsed();
        }
    }
    let t = Instant::now();
    while let Some(command) = after.pop() {
        if let Command::Run { id, job } = command {
            let answer = job.run();
            after.extend(app.update(Action::reply(id, Delivery::Job(answer))));
        }
    }
    (job_time, job_cpu, apply_time, t.elapsed())
}

/// Types `text` after `/`, key by key, each key's jobs run to the end before the next key.
fn type_search(app: &mut App, text: &str) -> (Vec<KeyTimes>, usize) {
    key(app, '/');
    let times = text
        .chars()
        .map(|c| {
            let t = Instant::now();
            let commands = key(app, c);
            let update = t.elapsed();
            let (job, job_cpu, apply, named) = run_jobs(app, commands);
            KeyTimes {
                update,
                job,
                job_cpu,
                apply,
                named,
            }
        })
        .collect();
    let shown = app.browser.visible.len();
    // Esc clears the search for the next one.
    press(app, KeyCode::Esc);
    (times, shown)
}

fn report(rows: usize, query: &str, times: &[KeyTimes], shown: usize) {
    let total = |t: &KeyTimes| t.update + t.job + t.apply;
    if std::env::var_os("FIND_KEYS").is_some() {
        for (typed, t) in query
            .char_indices()
            .map(|(i, c)| &query[..i + c.len_utf8()])
            .zip(times)
        {
            println!(
                "  /{typed:<10} {:>7.1} ms (UI update {:>5.1} ms, job {:>7.1} ms, CPU {:>7.1} ms, \
                 apply {:>5.1} ms; fields named {:>5.1} ms after)",
                ms(total(t)),
                ms(t.update),
                ms(t.job),
                ms(t.job_cpu),
                ms(t.apply),
                ms(t.named)
            );
        }
    }
    let max = |f: fn(&KeyTimes) -> Duration| times.iter().map(f).max().unwrap_or_default();
    let worst = times.iter().max_by_key(|t| total(t));
    println!(
        "/{query:<10} {rows:>9} rows: worst key {:>7.1} ms (its job's CPU {:>7.1} ms; UI update \
         {:>5.1} ms, job {:>7.1} ms, apply {:>5.1} ms), {shown} shown; fields named at most \
         {:>5.1} ms after",
        ms(worst.map(total).unwrap_or_default()),
        ms(worst.map(|t| t.job_cpu).unwrap_or_default()),
        ms(max(|t| t.update)),
        ms(max(|t| t.job)),
        ms(max(|t| t.apply)),
        ms(max(|t| t.named)),
    );
}

/// `FIND_ROWS` (100000,1000000 by default) and `FIND_QUERIES` (comma-separated) choose what to
/// time; `FIND_KEYS=1` prints each key's times.
fn from_env<T>(name: &str, default: &str, parse: impl Fn(&str) -> T) -> Vec<T> {
    let list = std::env::var(name).unwrap_or_else(|_| default.to_owned());
    list.split(',').map(|item| parse(item.trim())).collect()
}

fn main() {
    // `:where` runs in a worker process, as in the TUI; `FIND_WHERE_IN_PLACE=1` runs it on the
    // job's threads instead, to see what the worker costs.
    if std::env::var_os("FIND_WHERE_IN_PLACE").is_none() {
        appdeck_core::jq::worker::enable_with(env!("CARGO_BIN_EXE_appdeck").into());
    }
    let sizes = from_env("FIND_ROWS", "100000,1000000", |n| {
        n.parse::<usize>().expect("FIND_ROWS: numbers")
    });
    // A name in properties only (a note beside each row found), a column, a key's name only
    // (found in the text, in no value), a date's `Z` then nothing, a value in every row.
    let queries = from_env(
        "FIND_QUERIES",
        "alice,number 12,propert,zzzz,platform",
        str::to_owned,
    );
    for rows in sizes {
        let t = Instant::now();
        let mut app = app_with_rows(rows);
        println!(
            "load {rows} rows into the app: {:.1} s",
            t.elapsed().as_secs_f64()
        );
        for query in &queries {
            let (times, shown) = type_search(&mut app, query);
            report(rows, query, &times, shown);
        }
        // A frame of the list found by a field the table does not show: a note beside each row.
        key(&mut app, '/');
        for c in "alice".chars() {
            let commands = key(&mut app, c);
            run_jobs(&mut app, commands);
        }
        press(&mut app, KeyCode::Enter);
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
        let (now, mut flip) = (Utc::now(), false);
        measure(
            &format!("frame, /alice over {rows} rows (notes)"),
            5,
            100,
            || {
                flip = !flip;
                app.update(Action::Move(if flip { Move::Bottom } else { Move::Top }));
                terminal
                    .draw(|f| appdeck_tui::render(f, &app, &Theme::COLOR, now))
                    .expect("draw");
            },
        );
        press(&mut app, KeyCode::Esc);

        let t = Instant::now();
        key(&mut app, ':');
        appdeck_tui::harness::type_text(&mut app, "where .properties.stars > 500");
        let commands = app.update(Action::Submit);
        let update = t.elapsed();
        let (job, job_cpu, apply, _) = run_jobs(&mut app, commands);
        println!(
            ":where .properties.stars > 500 {rows:>9} rows: UI update {:>5.1} ms, job {:>8.1} ms \
             (CPU {:>8.1} ms), apply {:>5.1} ms, {} shown",
            ms(update),
            ms(job),
            ms(job_cpu),
            ms(apply),
            app.browser.visible.len()
        );
        drop(app);
    }
}
