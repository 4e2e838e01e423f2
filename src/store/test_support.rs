//! What the store's tests share: writers on threads of their own, as two appdeck processes are.

use std::path::Path;
use std::sync::Barrier;

use super::Store;

/// Runs `work(store, thread)` on `threads` threads released at the same moment, each with its own
/// connection to the store at `path` (so each opens, and perhaps migrates, a fresh store at
/// once), and returns what each gave, in thread order.
pub fn on_threads_at_once<T: Send>(
    path: &Path,
    threads: usize,
    work: impl Fn(&Store, usize) -> T + Sync,
) -> Vec<T> {
    let barrier = Barrier::new(threads);
    std::thread::scope(|scope| {
        let writers: Vec<_> = (0..threads)
            .map(|t| {
                let (barrier, work) = (&barrier, &work);
                scope.spawn(move || {
                    barrier.wait();
                    let store = Store::open(path).unwrap();
                    work(&store, t)
                })
            })
            .collect();
        writers.into_iter().map(|w| w.join().unwrap()).collect()
    })
}
