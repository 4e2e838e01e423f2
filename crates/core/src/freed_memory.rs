//! Giving freed memory back to the system. glibc's malloc keeps what is freed for the next
//! allocations, and only returns the top of its heap by itself: a page of 500 rows read (its
//! text, what the list shows of each item) and dropped once the rows are taken from it leaves
//! free memory under the rows that stay, resident for good: `cargo bench --bench row_memory`
//! (100,000 rows in pages of 500) grows the resident data (RssAnon) by 58.4 bytes a row with a
//! call after each page, 94.3 without (the call taken out of `benches/common/rows.rs`): it saves
//! 36 bytes a row, over a third of what the rows cost. The TUI calls it after a page only when
//! no other page is on its way (under `L`, once at the end): the next page reuses what the last
//! one freed. `L` over 100,000 rows: 849 ms against 891 ms with a call after each page, for a
//! growth of 85 against 65 bytes a row (medians of 3, side by side, `benches/tui_load_all.sh`
//! on a busy machine: noisy, the gain is small).

/// Returns the memory malloc holds free to the system (under half a millisecond with 100,000
/// rows loaded); nothing where the allocator is not glibc's.
pub fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory; it may be called from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
