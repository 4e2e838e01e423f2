//! The `:where` worker (src/jq/worker) as the TUI starts it: the appdeck binary, over real
//! pipes. It answers rows in order; an expression that grows without end is stopped by its
//! memory cap, not by the system; one that runs without end is killed when cancelled.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use appdeck_core::jq::worker::{Answer, MEMORY_LIMIT, Stopped, Worker};

fn appdeck() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_appdeck"))
}

/// The fields of `/proc/PID/stat` after the name; `None` once the process is gone or a zombie
/// (dead, waiting to be reaped).
fn stat(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<String> = stat
        .rsplit(") ")
        .next()?
        .split(' ')
        .map(str::to_owned)
        .collect();
    (fields.first()? != "Z").then_some(fields)
}

fn alive(pid: u32) -> bool {
    stat(pid).is_some()
}

/// The CPU time `pid` has used, in clock ticks (user and system).
fn cpu_ticks(pid: u32) -> u64 {
    let fields = stat(pid).unwrap_or_default();
    // utime and stime: fields 14 and 15 of stat, 12 and 13 after the name.
    let tick = |at: usize| {
        fields
            .get(at)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    tick(11) + tick(12)
}

#[test]
fn a_worker_answers_each_row_in_order_and_ends_with_the_rows() {
    let mut worker = Worker::start(appdeck(), ".properties.stars > 10", &|| false).unwrap();
    let mut rows = worker.take_rows().unwrap();
    let sent = [
        r#"{"properties":{"stars":123456789012345678901234567890}}"#,
        r#"{"properties":{"stars":3}}"#,
        r#"{"properties":"none"}"#,
        r#"{"properties":{"stars":11}}"#,
    ];
    for json in sent {
        rows.send(json.as_bytes()).unwrap();
    }
    rows.finish().unwrap();
    let mut answers = Vec::new();
    while let Some(answer) = worker.next(|| false).unwrap() {
        answers.push(answer);
    }
    assert_eq!(answers.len(), 4, "{answers:?}");
    assert_eq!(answers[0], Answer::True, "a big integer compared exactly");
    assert_eq!(answers[1], Answer::False);
    assert!(
        matches!(&answers[2], Answer::Failed(e) if e.contains("cannot")),
        "{:?}",
        answers[2]
    );
    assert_eq!(answers[3], Answer::True);
}

#[cfg(target_os = "linux")]
#[test]
fn an_expression_that_grows_without_end_is_stopped_at_the_memory_cap() {
    let mut worker = Worker::start(appdeck(), "[range(1e10)] | length > 0", &|| false).unwrap();
    let mut rows = worker.take_rows().unwrap();
    rows.send(b"{}").unwrap();
    rows.send(b"{}").unwrap();
    let _ = rows.finish();
    match worker.next(|| false) {
        Err(Stopped::Ended(why)) => {
            let cap = format!("more than {} GiB of memory", MEMORY_LIMIT >> 30);
            assert!(why.contains(&cap), "{why}");
        }
        other => panic!("the worker should have stopped: {other:?}"),
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_cancelled_worker_is_killed_while_it_computes() {
    let mut worker = Worker::start(appdeck(), "last(range(1e15)) > 0", &|| false).unwrap();
    let pid = worker.id();
    let mut rows = worker.take_rows().unwrap();
    rows.send(b"{}").unwrap();
    rows.finish().unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let (answered, answer) = mpsc::channel();
    let cancelled = cancel.clone();
    std::thread::spawn(move || {
        let _ = answered.send(worker.next(|| cancelled.load(Ordering::Relaxed)));
    });
    // Computing, long past any answer a row filter would take (30 ticks: 0.3 s of CPU).
    let started = Instant::now();
    while cpu_ticks(pid) < 30 {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the worker never ran"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    cancel.store(true, Ordering::Relaxed);
    let answer = answer.recv_timeout(Duration::from_secs(10));
    assert_eq!(
        answer,
        Ok(Err(Stopped::Cancelled)),
        "stops waiting when cancelled"
    );
    assert!(!alive(pid), "killed and reaped");
}
