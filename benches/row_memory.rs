//! Where the memory of loaded rows goes (issue 22's goal: with 100,000 rows loaded, at most
//! twice the start's resident memory). Loads 100,000 rows shaped like the sandbox's generated
//! ones through `update`, in pages of 500, and prints the heap they hold, a row at a time: all
//! of it (a counting allocator), and the lists that grow with the rows; then how much the
//! process's resident data grew, which counts besides the memory the allocator keeps free (see
//! `src/freed_memory.rs`). Run with `cargo bench --bench row_memory`.

#[path = "common/rows.rs"]
mod rows;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

/// The system's allocator, counting the bytes held.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size(), Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        HELD.fetch_add(new_size, Ordering::Relaxed);
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

const ROWS: usize = 100_000;

/// A resource like the sandbox's `--generate` copies (columns of 90 bytes in all, a JSON text
/// of about 1.1 KB).
fn resource(i: usize) -> Value {
    json!({
        "id": format!("res_{i}"),
        "display_name": format!("INC-1009: a failure of the login service · copy {i}"),
        "name": format!("INC-1009-copy-{i}"),
        "external_id": format!("gen-{i}"),
        "type": "incident",
        "created_at": "2024-11-09T19:00:00Z",
        "created_by": "李雷",
        "external_url": "https://incidents.acme.dev/INC-1009",
        "organization_id": "org_sandbox",
        "status": "open",
        "synced_at": "2024-12-29T02:43:00Z",
        "updated_at": "2024-12-28T22:14:00Z",
        "properties": {"severity": "high", "service": "auth", "summary": "x".repeat(700)},
    })
}

fn per_row(bytes: usize) -> f64 {
    bytes as f64 / ROWS as f64
}

/// This process's resident data (RssAnon), in bytes.
fn resident_data() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let line = status.lines().find(|l| l.starts_with("RssAnon:"));
    let kib = line.and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok());
    kib.unwrap_or(0) * 1024
}

fn main() {
    let resident = resident_data();
    let before = HELD.load(Ordering::Relaxed);
    let app = rows::app_with_rows(ROWS, resource);
    let held = HELD.load(Ordering::Relaxed) - before;
    assert_eq!(app.browser.rows().len(), ROWS);
    println!(
        "{:<44} {:>7.1} bytes a row",
        "heap held with 100,000 rows",
        per_row(held)
    );
    let rows = app.browser.rows();
    let lists = [
        ("  the rows", rows.capacity_bytes()),
        ("  their columns' texts", rows.text_bytes()),
        (
            "  the rows shown (visible)",
            app.browser.visible.capacity_bytes(),
        ),
    ];
    let mut rest = held;
    for (what, bytes) in lists {
        println!("{what:<44} {:>7.1} bytes a row", per_row(bytes));
        rest = rest.saturating_sub(bytes);
    }
    println!("{:<44} {:>7.1} bytes a row", "  the rest", per_row(rest));
    let grown = resident_data().saturating_sub(resident);
    println!(
        "{:<44} {:>7.1} bytes a row",
        "resident data grown by (RssAnon)",
        per_row(grown)
    );
}
