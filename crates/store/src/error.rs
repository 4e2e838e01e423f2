//! Why the store cannot be used. Each variant says what the user can do about it; none of them
//! stops appdeck, which goes on without the store.

use std::path::{Path, PathBuf};

use rusqlite::ErrorCode;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another process held the lock longer than the busy timeout.
    #[error("the store {} is locked by another appdeck process; try again when it is done", .path.display())]
    Locked { path: PathBuf },
    /// The file is not an SQLite database, or a damaged one. It is left as it is.
    #[error("the store {} is corrupt or not an appdeck store ({problem}); it was left untouched: move it away to start a new one", .path.display())]
    Corrupt { path: PathBuf, problem: String },
    /// The file was written by a newer appdeck, whose schema this one does not know.
    #[error("the store {} was written by a newer appdeck (schema version {found}, this one knows up to {supported}); upgrade appdeck, or set APPDECK_DATA_DIR to use another store", .path.display())]
    Newer {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    /// The file or its directory cannot be created, opened, read or written.
    #[error("cannot use the store {}: {problem}", .path.display())]
    Io { path: PathBuf, problem: String },
    /// Anything else SQLite reported.
    #[error("the store {} failed: {problem}", .path.display())]
    Sqlite { path: PathBuf, problem: String },
}

impl StoreError {
    /// Sorts an SQLite error into the cases a user can act on.
    pub(crate) fn from_sqlite(path: &Path, error: rusqlite::Error) -> Self {
        let path = path.to_owned();
        let problem = crate::sanitize::line(&error.to_string()).into_owned();
        match error.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => {
                StoreError::Locked { path }
            }
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => {
                StoreError::Corrupt { path, problem }
            }
            Some(
                ErrorCode::CannotOpen
                | ErrorCode::ReadOnly
                | ErrorCode::PermissionDenied
                | ErrorCode::SystemIoFailure
                | ErrorCode::DiskFull,
            ) => StoreError::Io { path, problem },
            _ => StoreError::Sqlite { path, problem },
        }
    }
}
