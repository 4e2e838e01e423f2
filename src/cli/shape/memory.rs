//! The memory bound of the CLI's `--jq` (issue 36 item 6). jaq has no bound of its own:
//! `[range(1e9)] | length` grew past 3-5 GB, and under a ulimit appdeck aborted with a backtrace.
//! The TUI's `:where` runs jaq in a worker process with a capped address space; `--jq` runs it
//! here, over each item as it streams, so the bound is here too: the allocator counts the bytes
//! live, and an allocation by a running expression that would take them past [`LIMIT`] ends the
//! command with an error (exit 5), the output written before it kept, instead of an abort.
//!
//! Only the thread running an expression is held to the bound, and only while it runs: the rest
//! of appdeck (a page being read, the TUI) allocates as it always did, merely counted.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::BufWriter;

use crate::cli::stdout::Out;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

/// The most memory appdeck may hold while an expression runs: that of a `:where` worker.
pub const LIMIT: usize = crate::jq::worker::MEMORY_LIMIT as usize;

/// The exit status when an expression passed the bound: `--jq`'s, as for its other errors.
const EXIT: i32 = crate::cli::list::JQ_FAILED as i32;

/// The bytes allocated and not yet freed, by every thread.
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// The output whose buffer is written out before the command ends on the bound.
static PENDING: AtomicPtr<BufWriter<Out>> = AtomicPtr::new(std::ptr::null_mut());

thread_local! {
    /// Whether this thread is running an expression now.
    static BOUND: Cell<bool> = const { Cell::new(false) };
}

/// The system's allocator, counting.
pub struct Counting;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

// SAFETY: every call goes to the system allocator with the caller's layout and pointer; the
// counting and the check around it neither allocate nor touch the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        admit(layout.size());
        // SAFETY: the caller's contract, passed on.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        admit(layout.size());
        // SAFETY: the caller's contract, passed on.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        admit(new_size.saturating_sub(layout.size()));
        // SAFETY: the caller's contract, passed on.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            LIVE.fetch_add(new_size, Ordering::Relaxed);
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        new
    }
}

/// Lets an allocation of `more` bytes through, unless this thread runs an expression and it
/// would pass the bound: then the command ends.
#[inline]
fn admit(more: usize) {
    // The count first: it is almost always well under, and reading it is cheaper than the
    // thread's flag.
    if LIVE.load(Ordering::Relaxed).saturating_add(more) > LIMIT
        && BOUND.try_with(Cell::get).unwrap_or(false)
    {
        beyond_the_bound();
    }
}

/// Writes out what the command had buffered for stdout, says why it stops, and ends it. Nothing
/// here allocates: the allocator is what called it.
#[cold]
fn beyond_the_bound() -> ! {
    BOUND.with(|bound| bound.set(false));
    // SAFETY: the pointer was registered by `keep_on_the_bound` on this very thread (the one
    // writing and running expressions), which is inside an allocation of its own now, not
    // inside a write to that output; it is cleared before the output is dropped.
    if let Some(out) = unsafe { PENDING.load(Ordering::Acquire).as_ref() } {
        write_all(1, out.buffer());
    }
    const SAID: &str = "appdeck: --jq: the expression needed more than 1 GiB of memory; stopped \
                        (what it gave before is written)\n";
    write_all(2, SAID.as_bytes());
    // SAFETY: ends the process at once, as abort would, without running what could allocate.
    unsafe { libc::_exit(EXIT) }
}

/// `write(2)` until every byte is out or it fails.
fn write_all(fd: i32, mut bytes: &[u8]) {
    while !bytes.is_empty() {
        // SAFETY: a valid slice, for its length.
        let wrote = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        match usize::try_from(wrote) {
            Ok(n) if n > 0 => bytes = &bytes[n..],
            _ => return,
        }
    }
}

/// Runs `f` (which runs an expression) held to the bound.
pub fn bounded<T>(f: impl FnOnce() -> T) -> T {
    struct Unbound;
    impl Drop for Unbound {
        fn drop(&mut self) {
            BOUND.with(|bound| bound.set(false));
        }
    }
    BOUND.with(|bound| bound.set(true));
    let _unbound = Unbound;
    f()
}

/// While this lives, what `out` holds is written out if an expression passes the bound on this
/// thread, so that no result before it is lost. It must be dropped before `out` (made after it).
pub struct Kept(());

impl Kept {
    pub fn new(out: &mut BufWriter<Out>) -> Kept {
        PENDING.store(std::ptr::from_mut(out), Ordering::Release);
        Kept(())
    }
}

impl Drop for Kept {
    fn drop(&mut self) {
        PENDING.store(std::ptr::null_mut(), Ordering::Release);
    }
}

const _: () = assert!(LIMIT == 1 << 30, "the message above says 1 GiB");
