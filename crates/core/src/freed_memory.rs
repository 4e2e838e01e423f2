//! Giving freed memory back to the system. glibc's malloc keeps what is freed for the next
//! allocations, and only returns the top of its heap by itself: a page of 500 rows decoded
//! (its JSON as values, some megabytes) and dropped once the rows are taken from it leaves as
//! much free memory under the rows that stay, resident for good: `cargo bench --bench
//! row_memory` (100,000 rows in pages of 500) grows the resident data (RssAnon) by 65.8 bytes a
//! row with a call after each page, 103.8 without (the call taken out of `benches/common/rows.rs`):
//! it saves 38 bytes a row, over a third of what the rows cost. The TUI calls it after a page
//! only when no other page is on its way (under `L`, once at the end): the next page reuses
//! what the last one freed, and a call after each of `L`'s pages, with the page faults that
//! followed, took a fifth of the UI thread's samples.

/// Returns the memory malloc holds free to the system (under half a millisecond with 100,000
/// rows loaded); nothing where the allocator is not glibc's.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory; it may be called from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
