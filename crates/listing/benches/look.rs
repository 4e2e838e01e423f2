//! A `:watch` look that changes every row: what the comparison (a job, off the UI thread) and
//! taking the look in (`Listing::take_look`, on the UI thread) cost in time and memory, with
//! what the look hands the panes (`Followed`, for a detail open on one row). Rows like the
//! sandbox's generated ones (a JSON text of about 1.1 KB), their JSON in the spill file as a
//! listing's is. Run with `cargo bench -p appdeck-listing --bench look -- [ROWS [RUNS]]`
//! (default 20,000 rows, 7 runs; medians printed).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use appdeck_core::api::PageItem;
use appdeck_core::job::Progress;
use appdeck_listing::{Bodies, CompareLook, Listing, Rows, Watch, compare};
use serde_json::{Value, json};

/// The system's allocator, counting the bytes held, their peak, and the bytes asked for.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ASKED: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let held = HELD.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(held, Ordering::Relaxed);
    ASKED.fetch_add(by, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grew(new_size);
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// A resource like the sandbox's `--generate` copies; `look` changes its status.
fn resource(i: usize, look: usize) -> Value {
    json!({
        "id": format!("res_{i}"),
        "display_name": format!("INC-1009: a failure of the login service · copy {i}"),
        "name": format!("INC-1009-copy-{i}"),
        "external_id": format!("gen-{i}"),
        "type": "incident",
        "created_at": "2024-11-09T19:00:00Z",
        "external_url": "https://incidents.acme.dev/INC-1009",
        "status": if look.is_multiple_of(2) { "open" } else { "resolved" },
        "updated_at": "2024-12-28T22:14:00Z",
        "properties": {"severity": "high", "service": "auth", "summary": "x".repeat(700)},
    })
}

/// A whole listing of `rows` rows as look `look` found them, its JSON written to its spill.
fn listing(rows: usize, look: usize) -> Listing {
    let mut listing = Listing::default();
    let (mut all, bodies) = (Rows::default(), Bodies::default());
    for i in 0..rows {
        let value = resource(i, look);
        let json = value.to_string();
        all.push_text(&PageItem::from_value(value), &json, &bodies);
        bodies.write_due();
    }
    (listing.rows, listing.bodies) = (all, bodies);
    listing
}

/// What one look cost.
#[derive(Default)]
struct Costs {
    /// The comparison job's time, and the bytes it held at its peak beyond what it started with.
    job: Duration,
    job_peak: usize,
    /// Taking the look in, on the UI thread: its time, the bytes it asked the allocator for, and
    /// the bytes the look handed the panes held (gone once they were told).
    take: Duration,
    take_asked: usize,
    followed: usize,
}

fn one_look(before: &Listing, rows: usize, look: usize) -> Costs {
    let mut after = listing(rows, look);
    let now = Instant::now();
    let mut watch = Watch::new(Duration::from_secs(5), now);
    let job = CompareLook {
        before: before.side(Some(&watch)),
        after: after.side(None),
    };
    let start = HELD.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    let t = Instant::now();
    let diff = compare(&job, &Progress::detached()).expect("the spill reads");
    let job_time = t.elapsed();
    let job_peak = PEAK.load(Ordering::Relaxed) - start;
    assert_eq!(diff.changed.len(), rows, "every row changed");
    let asked = ASKED.load(Ordering::Relaxed);
    let t = Instant::now();
    let followed = after.take_look(&mut watch, diff, &before.rows, now);
    let take = t.elapsed();
    let take_asked = ASKED.load(Ordering::Relaxed) - asked;
    let held = HELD.load(Ordering::Relaxed);
    drop(followed);
    Costs {
        job: job_time,
        job_peak,
        take,
        take_asked,
        followed: held - HELD.load(Ordering::Relaxed),
    }
}

fn median<T: Ord + Copy>(mut values: Vec<T>) -> T {
    values.sort();
    values[values.len() / 2]
}

fn main() {
    let args: Vec<usize> = (std::env::args().skip(1))
        .filter_map(|a| a.parse().ok())
        .collect();
    let rows = args.first().copied().unwrap_or(20_000);
    let runs = args.get(1).copied().unwrap_or(7).max(1);
    let before = listing(rows, 0);
    let costs: Vec<Costs> = (1..=runs).map(|_| one_look(&before, rows, 1)).collect();
    let mb = |bytes: usize| bytes as f64 / 1e6;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("a look changing all {rows} rows, median of {runs}:");
    println!(
        "  the comparison (job):  {:8.1} ms, {:7.1} MB held at its peak",
        ms(median(costs.iter().map(|c| c.job).collect())),
        mb(median(costs.iter().map(|c| c.job_peak).collect())),
    );
    println!(
        "  take_look (UI thread): {:8.1} ms, {:7.1} MB asked of the allocator",
        ms(median(costs.iter().map(|c| c.take).collect())),
        mb(median(costs.iter().map(|c| c.take_asked).collect())),
    );
    println!(
        "  Followed, told to the panes: {:7.1} MB held",
        mb(median(costs.iter().map(|c| c.followed).collect())),
    );
}
