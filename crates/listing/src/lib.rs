//! appdeck-listing: the list's engine, with no terminal in sight. The rows of a listing (their
//! column texts packed in memory, their JSON in a spill file), the query over them (a status or
//! type filter, `/` text, `:where` through jq, the sort, the columns of the user's choice), what
//! they add up to (the summary the overview draws) and what a page that arrives means for them.
//!
//! The terminal UI's list pane is a view over it: it keeps the cursor, the keys and the title,
//! and hands the jobs the engine asks for ([`JobCommand`]) to its runtime.

#![warn(unreachable_pub)]

mod added;
mod bodies;
mod columns;
mod compact;
mod export;
mod field_search;
mod job_rows;
mod kept;
mod loader;
mod look;
mod narrowing;
mod ordering;
mod picks;
mod query;
mod refetch;
mod row;
mod row_list;
mod row_texts;
mod rows;
mod shown;
mod sorting;
mod spill;
mod summary;
mod texts;
mod title_starts;
mod watch;
mod where_worker;

// The core's modules under the names this crate's files use (`crate::api`...).
use appdeck_core::{api, job, jq, order, out, sanitize, text};

use appdeck_core::job::{RequestId, Work};

/// What the engine asks of the runtime for its jobs: one to run off the UI thread (its answer
/// comes back by its id), or one to stop.
#[derive(Debug)]
pub enum JobCommand {
    Run { id: RequestId, job: Work },
    Cancel(RequestId),
}

pub use added::{AddedCells, ColumnChoice, FillColumns, Filled, MAX_ADDED, type_key};
pub use bodies::{Bodies, BodyError, BodyId};
pub use columns::{Column, ColumnWidths};
pub use export::{ExportItems, ExportJob, Exported, Format, remove_unfinished};
pub use field_search::Needle;
pub use job_rows::JobRows;
pub use kept::{KeptRows, Live, NotLive, age_words};
pub use loader::{Listing, More};
pub use look::{CompareLook, LookDiff, Mark, Side, compare};
pub use narrowing::{Answered, NAME_FIELDS_AFTER, Narrowing, RowSet, Test, TestRows, Tested};
pub use ordering::{
    IN_PLACE_ROWS, SORTABLE, SortJob, SortKeys, SortSpec, merge_sorted, sort_by_keys,
};
pub use picks::{MarkedApart, Picks};
pub use query::{LoadedRows, Query, Restored, StatusShown, TypeShown, Where, status_label};
pub use refetch::Refetch;
pub use row::{Cell, Row, RowView};
pub use rows::NONE as NO_ROWS;
pub use rows::Rows;
pub use shown::Shown;
pub use sorting::{Resorted, Sorting};
pub use summary::{HOUR, LoadedSummary};
pub use texts::Texts;
pub use watch::{Followed, MARK_LOOKS, MAX_BACKOFF, MAX_EVERY, Watch};
