//! The local store: one SQLite file (bundled SQLite, nothing to install) holding what must outlive
//! a session: the app versions appdeck knows per service base URL (connect payloads it sent), the
//! history of sends (every report and connect, with its answer), drafts (each its composer's), and
//! the list's columns chosen per type, and the last listing shown per service, profile and type
//! (bounded). It never holds the token.
//!
//! Every function here is plain blocking code: the CLI calls it directly, the TUI runtime calls it
//! off the UI thread. A store that cannot be used (locked past the busy timeout, corrupt, written
//! by a newer appdeck, unreadable) is a typed [`StoreError`]; callers report it and go on without
//! the store. A broken file is never deleted or recreated: the user may want it back.

// The core's modules under the names this crate's files use (`crate::api`...).
#![warn(unreachable_pub)]

use appdeck_core::{api, changes, sanitize};

mod app_versions;
mod drafts;
mod error;
mod history;
mod kept_listings;
mod list_columns;
mod migrations;
mod pending;

use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

pub use app_versions::KnownAppVersion;
use app_versions::base_url_key;
pub use drafts::{Draft, DraftKey, DraftRevision};
pub use error::StoreError;
pub use history::{HistoryEntry, HistoryQuery, ResourceKey, SendKind, Sent, Summary};
pub use kept_listings::{
    Kept, KeptSummary, ListingKey, MAX_BYTES as KEPT_MAX_BYTES, MAX_LISTINGS as KEPT_MAX_LISTINGS,
    MAX_ROWS as KEPT_MAX_ROWS,
};
pub use pending::{Pending, keep_pending, pending_path};

/// The store's file name inside the data directory.
pub use appdeck_core::config::STORE_FILE_NAME as FILE_NAME;

/// How long a write waits for another appdeck process holding the lock before giving up with
/// [`StoreError::Locked`]. Writes are small; anything longer means a stuck process.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// An open store. One connection; open one per thread that needs it (SQLite serialises writers
/// across connections and processes through the busy timeout).
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("path", &self.path).finish()
    }
}

impl Store {
    /// Opens the store at `path`, creating it (and its directory) on first use with mode 0600,
    /// switching it to WAL and bringing its schema up to date. An existing file is never replaced.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        create_if_missing(path)?;
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        // Not SQLITE_OPEN_CREATE: the file exists by now, with the mode set above; should it
        // vanish in between, failing beats creating one with the process's umask.
        let conn = Connection::open_with_flags(path, flags)
            .map_err(|e| StoreError::from_sqlite(path, e))?;
        let at = |e| StoreError::from_sqlite(path, e);
        conn.busy_timeout(BUSY_TIMEOUT).map_err(at)?;
        // Reading the header first tells a file that is not a database (or a corrupt one) apart
        // before anything is written to it.
        let found: i64 = conn
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(at)?;
        migrations::refuse_newer(path, found)?;
        let mode = switch_to_wal(&conn).map_err(at)?;
        if !mode.eq_ignore_ascii_case("wal") {
            tracing::warn!("store {}: journal mode is {mode}, not WAL", path.display());
        }
        // FULL: a commit is on disk when it returns, so a draft survives a power cut too, not
        // only a killed process. Writes are a few a second at most; the sync costs nothing felt.
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(at)?;
        let mut store = Store {
            conn,
            path: path.to_owned(),
        };
        // An up-to-date file needs no write lock: opening stays a read, so the connections the
        // TUI opens at start (kept rows, known types, columns) never wait on one another (with
        // the lock taken every time, the second waited in SQLite's busy handler, 1 ms then
        // 2 ms: the kept rows' read took 6-12 ms instead of under 1).
        if found != migrations::SCHEMA_VERSION {
            migrations::migrate(&mut store.conn, path)?;
        }
        // What an earlier send could not record: now, if the store takes it.
        if let Err(e) = store.apply_pending() {
            tracing::warn!("store {}: pending records not applied: {e}", path.display());
        }
        Ok(store)
    }

    /// The schema version of the file (what `PRAGMA user_version` says).
    #[cfg(test)]
    pub(crate) fn schema_version(&self) -> Result<i64, StoreError> {
        self.conn
            .query_row("PRAGMA user_version", [], |row| row.get(0))
            .map_err(|e| self.error(e))
    }

    fn error(&self, e: rusqlite::Error) -> StoreError {
        StoreError::from_sqlite(&self.path, e)
    }
}

/// Switches the file to WAL and returns the journal mode now in force. The switch needs the
/// file to itself, and SQLite answers "busy" to it at once, without calling the busy handler,
/// while another connection is opening the same fresh file; so it is retried here, within the
/// same [`BUSY_TIMEOUT`] every other write gets.
fn switch_to_wal(conn: &Connection) -> rusqlite::Result<String> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    loop {
        match conn.query_row("PRAGMA journal_mode=WAL", [], |row| row.get(0)) {
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(Duration::from_millis(5));
            }
            result => return result,
        }
    }
}

/// Creates the directory (0700) and an empty file (0600) when they do not exist. SQLite gives its
/// `-wal` and `-shm` files the database file's mode, so they are private too.
fn create_if_missing(path: &Path) -> Result<(), StoreError> {
    let io = |e: std::io::Error| StoreError::Io {
        path: path.to_owned(),
        problem: e.to_string(),
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.exists()
    {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).map_err(io)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io(e)),
    }
}

#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
#[cfg(test)]
mod tests;
