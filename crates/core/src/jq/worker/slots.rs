//! How many workers run at once, over every job: one per core. Each may take up to
//! [`MEMORY_LIMIT`](super::MEMORY_LIMIT); a list that loads page after page under a runaway
//! `:where` started a worker for each page, and nine of them held 584 MB and all the cores.
//! A job whose turn has not come waits, and stops waiting when it is cancelled.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// How often a job waiting for a turn looks whether it was cancelled.
const LOOK_EVERY: Duration = Duration::from_millis(100);

/// The workers running, out of the most that may.
static RUNNING: Mutex<usize> = Mutex::new(0);
static FREED: Condvar = Condvar::new();

/// A turn to run a worker; the next job waiting gets it when this is dropped.
#[derive(Debug)]
pub(super) struct Slot(());

impl Slot {
    /// Waits for a turn; `None` once `cancelled` says the job is no longer wanted.
    pub(super) fn take(cancelled: &dyn Fn() -> bool) -> Option<Slot> {
        let most = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if cancelled() {
                return None;
            }
            if *running < most {
                *running += 1;
                return Some(Slot(()));
            }
            running = FREED
                .wait_timeout(running, LOOK_EVERY)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        *running = running.saturating_sub(1);
        FREED.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// One turn per core; the next waits until one is given back, or until it is cancelled.
    #[test]
    fn turns_are_one_per_core_and_a_waiting_job_can_be_cancelled() {
        let most = std::thread::available_parallelism().map_or(1, |n| n.get());
        let never = || false;
        let held: Vec<Slot> = (0..most).filter_map(|_| Slot::take(&never)).collect();
        assert_eq!(held.len(), most);
        let cancel = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| Slot::take(&|| cancel.load(Ordering::Relaxed)));
            cancel.store(true, Ordering::Relaxed);
            assert!(waiting.join().unwrap().is_none(), "cancelled while waiting");
            let waiting = scope.spawn(|| Slot::take(&never));
            drop(held);
            assert!(
                waiting.join().unwrap().is_some(),
                "a turn given back is taken"
            );
        });
    }
}
