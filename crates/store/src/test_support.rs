//! What the store's tests share: writers on threads of their own, as two appdeck processes are,
//! and a store whose disk is full.

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

/// Makes the store at `path` refuse, as a full disk does, to record a send or to remove a draft
/// (`full`), or take them again (`!full`). Triggers, so that every connection, the runtime's
/// included, meets the same store.
pub fn full_disk(path: &Path, full: bool) {
    let conn = rusqlite::Connection::open(path).unwrap();
    let sql = if full {
        "CREATE TRIGGER full_history BEFORE INSERT ON history
            BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;
         CREATE TRIGGER full_drafts BEFORE DELETE ON drafts
            BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;"
    } else {
        "DROP TRIGGER full_history; DROP TRIGGER full_drafts;"
    };
    conn.execute_batch(sql).unwrap();
}

/// Makes the store at `path` refuse, as a full disk does, to save a draft or mark one as being
/// sent (`full`), or take them again (`!full`).
pub fn full_drafts(path: &Path, full: bool) {
    let conn = rusqlite::Connection::open(path).unwrap();
    let sql = if full {
        "CREATE TRIGGER full_draft_saves BEFORE UPDATE ON drafts
            BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;
         CREATE TRIGGER full_draft_inserts BEFORE INSERT ON drafts
            BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;"
    } else {
        "DROP TRIGGER full_draft_saves; DROP TRIGGER full_draft_inserts;"
    };
    conn.execute_batch(sql).unwrap();
}

/// Another process in the middle of a write to the store at `path`: every other connection's
/// write waits (for the busy timeout) until this is dropped.
pub struct Locked {
    _holding: rusqlite::Connection,
}

/// Takes the store's write lock, as another appdeck writing does, until the result is dropped.
pub fn locked(path: &Path) -> Locked {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
    Locked { _holding: conn }
}
