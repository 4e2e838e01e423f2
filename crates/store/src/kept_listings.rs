//! The last listing the TUI showed for each base URL, profile and type filter, so that the next
//! start (or `:type`, `:profile`) shows rows at once, marked as kept, while the live page is
//! fetched. Each row is kept as the text the service sent (never re-serialised), in order.
//!
//! Bounded: [`MAX_ROWS`] rows and [`MAX_BYTES`] of row text per listing, [`MAX_LISTINGS`]
//! listings (the oldest kept is dropped first), so at most about 40 MiB in all. A row larger
//! than [`MAX_BYTES`] alone is left out and counted, the rows after it kept. An item that is
//! not an object (`"just a string"`) is kept as any other: the list shows it marked, as the live
//! page did. A listing that does not read back as appdeck wrote it (a newer format, a row that
//! is not one JSON value) is set aside: never shown again, kept in the file until `appdeck cache
//! clear`, with the reason; `appdeck cache` says so before the TUI reads it.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, TransactionBehavior, params};

use super::{Store, StoreError};
use crate::app_versions::{base_url_key, timestamp};

/// Rows kept per listing: a few screens, what a start needs before the live page replaces them.
pub const MAX_ROWS: usize = 1_000;
/// Row text kept per listing, whichever of the two bounds comes first.
pub const MAX_BYTES: usize = 2 * 1024 * 1024;
/// Listings kept in all (each base URL, profile and type filter is one).
pub const MAX_LISTINGS: usize = 20;
/// How this appdeck writes a listing's rows; a listing written another way is set aside.
const FORMAT: i64 = 1;

/// Which listing: the service (its base URL without user, query or fragment), the profile
/// (`None`: none named) and the type filter (`None`: every type). Never the token.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ListingKey {
    base_url: String,
    profile: String,
    type_filter: String,
}

impl ListingKey {
    pub fn new(base_url: &str, profile: Option<&str>, type_filter: Option<&str>) -> ListingKey {
        ListingKey {
            base_url: base_url_key(base_url),
            profile: profile.unwrap_or_default().to_owned(),
            type_filter: type_filter.unwrap_or_default().to_owned(),
        }
    }
}

/// What the store has for a listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Rows as the service sent them, in order, and when they were kept.
    Rows {
        kept_at: DateTime<Utc>,
        rows: Vec<String>,
        /// Rows left out as too large to keep (see [`Store::keep_listing`]).
        too_large: usize,
    },
    /// A listing that did not read back as appdeck writes one; the reason says what was wrong.
    /// It was set aside by this read and is never offered again.
    SetAside(String),
}

/// What `appdeck cache` shows of one kept listing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptSummary {
    pub base_url: String,
    /// `None`: no profile was named.
    pub profile: Option<String>,
    /// `None`: every type.
    pub type_filter: Option<String>,
    pub kept_at: DateTime<Utc>,
    pub rows: usize,
    pub bytes: usize,
    /// Why it is not trusted, when it was set aside.
    pub set_aside: Option<String>,
}

impl Store {
    /// Keeps `rows` (item texts as received) for `key`: `from_start` replaces what was kept (the
    /// listing's first page), otherwise they follow the rows kept so far. Rows past the bounds
    /// are left out; a row larger than [`MAX_BYTES`] could never be kept, so it alone is left
    /// out (and counted), the rows after it kept: a resource of 5 MB no longer took the place
    /// of every row after it. Returns how many rows the listing now holds.
    pub fn keep_listing(
        &mut self,
        key: &ListingKey,
        rows: &[&str],
        from_start: bool,
        now: DateTime<Utc>,
    ) -> Result<usize, StoreError> {
        let path = self.path.clone();
        let at = |e| StoreError::from_sqlite(&path, e);
        // Immediate: the write lock first, waited for as every write waits. Begun with the read
        // below, its first write failed at once while another connection held the lock.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(at)?;
        let existing: Option<(i64, Option<String>)> = tx
            .query_row(
                "SELECT id, set_aside FROM kept_listings
                 WHERE base_url = ?1 AND profile = ?2 AND type_filter = ?3",
                params![key.base_url, key.profile, key.type_filter],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()
            .map_err(at)?;
        let id = match existing {
            Some((id, None)) if !from_start => id,
            // Rows that follow a listing set aside, or a first page the store never took, have
            // nothing to follow.
            Some((_, Some(_))) | None if !from_start => return Ok(0),
            Some((id, _)) => {
                tx.execute("DELETE FROM kept_rows WHERE listing = ?1", [id])
                    .map_err(at)?;
                tx.execute(
                    "UPDATE kept_listings SET kept_at = ?2, format = ?3, set_aside = NULL,
                     too_large = 0 WHERE id = ?1",
                    params![id, timestamp(&now), FORMAT],
                )
                .map_err(at)?;
                id
            }
            None => {
                tx.execute(
                    "INSERT INTO kept_listings (base_url, profile, type_filter, kept_at, format)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![
                        key.base_url,
                        key.profile,
                        key.type_filter,
                        timestamp(&now),
                        FORMAT
                    ],
                )
                .map_err(at)?;
                tx.last_insert_rowid()
            }
        };
        let (mut count, mut bytes): (i64, i64) = tx
            .query_row(
                "SELECT count(*), coalesce(sum(length(CAST(text AS BLOB))), 0)
                 FROM kept_rows WHERE listing = ?1",
                [id],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map_err(at)?;
        let mut too_large = 0;
        {
            let mut insert = tx
                .prepare("INSERT INTO kept_rows (listing, position, text) VALUES (?1, ?2, ?3)")
                .map_err(at)?;
            for row in rows {
                let size = i64::try_from(row.len()).unwrap_or(i64::MAX);
                if count as usize >= MAX_ROWS {
                    break;
                }
                if row.len() > MAX_BYTES {
                    too_large += 1;
                    continue;
                }
                if (bytes + size) as usize > MAX_BYTES {
                    break;
                }
                insert.execute(params![id, count, row]).map_err(at)?;
                count += 1;
                bytes += size;
            }
        }
        if too_large > 0 {
            tx.execute(
                "UPDATE kept_listings SET too_large = too_large + ?2 WHERE id = ?1",
                params![id, too_large],
            )
            .map_err(at)?;
        }
        // The oldest listings beyond the bound go, with their rows.
        tx.execute_batch(&format!(
            "DELETE FROM kept_rows WHERE listing IN (
                 SELECT id FROM kept_listings ORDER BY kept_at DESC, id DESC
                 LIMIT -1 OFFSET {MAX_LISTINGS});
             DELETE FROM kept_listings WHERE id IN (
                 SELECT id FROM kept_listings ORDER BY kept_at DESC, id DESC
                 LIMIT -1 OFFSET {MAX_LISTINGS});"
        ))
        .map_err(at)?;
        tx.commit().map_err(at)?;
        Ok(count as usize)
    }

    /// The listing kept for `key`, if any. One that does not read back as appdeck wrote it is
    /// set aside here (and said so), never returned as rows.
    pub fn kept_listing(&self, key: &ListingKey) -> Result<Option<Kept>, StoreError> {
        let found: Option<(i64, String, i64, Option<String>, i64)> = self
            .conn
            .query_row(
                "SELECT id, kept_at, format, set_aside, too_large FROM kept_listings
                 WHERE base_url = ?1 AND profile = ?2 AND type_filter = ?3",
                params![key.base_url, key.profile, key.type_filter],
                |row| {
                    Ok((
                        row.get(0)?,
                        row.get(1)?,
                        row.get(2)?,
                        row.get(3)?,
                        row.get(4)?,
                    ))
                },
            )
            .optional()
            .map_err(|e| self.error(e))?;
        let Some((id, kept_at, format, set_aside, too_large)) = found else {
            return Ok(None);
        };
        if set_aside.is_some() {
            return Ok(None);
        }
        let problem = match self.read_back(id, &kept_at, format)? {
            Ok((kept_at, rows)) => {
                return Ok(Some(Kept::Rows {
                    kept_at,
                    rows,
                    too_large: usize::try_from(too_large).unwrap_or(0),
                }));
            }
            Err(problem) => problem,
        };
        self.conn
            .execute(
                "UPDATE kept_listings SET set_aside = ?2 WHERE id = ?1",
                params![id, problem],
            )
            .map_err(|e| self.error(e))?;
        Ok(Some(Kept::SetAside(problem)))
    }

    /// Listing `id`'s time and rows as appdeck wrote them, or why it does not read back: the one
    /// check behind both [`Store::kept_listing`] and `appdeck cache`, so they never disagree.
    fn read_back(&self, id: i64, kept_at: &str, format: i64) -> Result<ReadBack, StoreError> {
        Ok(match (format, DateTime::parse_from_rfc3339(kept_at)) {
            (FORMAT, Ok(at)) => self
                .kept_rows(id)?
                .map(|rows| (at.with_timezone(&Utc), rows)),
            (FORMAT, Err(e)) => Err(format!("its time {kept_at:?} is not a time ({e})")),
            (other, _) => Err(format!(
                "it is in format {other}, which this appdeck does not read"
            )),
        })
    }

    /// The rows of listing `id` in order, or what is wrong with them: each must be one JSON
    /// value, as every item of a page is (an object, or an odd item the list marks), so that
    /// the rows joined make one page again.
    fn kept_rows(&self, id: i64) -> Result<Result<Vec<String>, String>, StoreError> {
        let mut select = self
            .conn
            .prepare("SELECT position, text FROM kept_rows WHERE listing = ?1 ORDER BY position")
            .map_err(|e| self.error(e))?;
        let mut found = select.query([id]).map_err(|e| self.error(e))?;
        let mut rows = Vec::new();
        while let Some(row) = found.next().map_err(|e| self.error(e))? {
            let position: i64 = row.get(0).map_err(|e| self.error(e))?;
            let text = match row.get_ref(1).map_err(|e| self.error(e))? {
                rusqlite::types::ValueRef::Text(bytes) => std::str::from_utf8(bytes).ok(),
                _ => None,
            };
            let Some(text) = text.filter(|t| is_one_json_value(t)) else {
                return Ok(Err(format!(
                    "its row {} is not one JSON value",
                    position + 1
                )));
            };
            rows.push(text.to_owned());
        }
        Ok(Ok(rows))
    }

    /// Every kept listing, newest first, for `appdeck cache`: one that would be set aside when
    /// read says so already, with the reason the TUI will give.
    pub fn kept_listings(&self) -> Result<Vec<KeptSummary>, StoreError> {
        let mut select = self
            .conn
            .prepare(
                "SELECT l.base_url, l.profile, l.type_filter, l.kept_at, l.set_aside,
                        count(r.position), coalesce(sum(length(CAST(r.text AS BLOB))), 0),
                        l.id, l.format
                 FROM kept_listings l LEFT JOIN kept_rows r ON r.listing = l.id
                 GROUP BY l.id ORDER BY l.kept_at DESC, l.id DESC",
            )
            .map_err(|e| self.error(e))?;
        let found = select
            .query_map([], |row| {
                let text = |i| {
                    row.get::<_, String>(i)
                        .map(|s| Some(s).filter(|s| !s.is_empty()))
                };
                let kept_at: String = row.get(3)?;
                let summary = KeptSummary {
                    base_url: row.get(0)?,
                    profile: text(1)?,
                    type_filter: text(2)?,
                    kept_at: DateTime::parse_from_rfc3339(&kept_at)
                        .map(|t| t.with_timezone(&Utc))
                        .unwrap_or_default(),
                    set_aside: row.get(4)?,
                    rows: row.get::<_, i64>(5)? as usize,
                    bytes: row.get::<_, i64>(6)? as usize,
                };
                Ok((
                    summary,
                    row.get::<_, i64>(7)?,
                    kept_at,
                    row.get::<_, i64>(8)?,
                ))
            })
            .map_err(|e| self.error(e))?;
        let found: Vec<_> = found.collect::<Result<_, _>>().map_err(|e| self.error(e))?;
        let mut kept = Vec::with_capacity(found.len());
        for (mut summary, id, kept_at, format) in found {
            if summary.set_aside.is_none() {
                summary.set_aside = self.read_back(id, &kept_at, format)?.err();
            }
            kept.push(summary);
        }
        Ok(kept)
    }

    /// Forgets the listings kept for a base URL and profile (every type filter): keeping was
    /// turned off for it. Returns how many listings went.
    pub fn forget_kept_listings(
        &mut self,
        base_url: &str,
        profile: Option<&str>,
    ) -> Result<usize, StoreError> {
        let key = ListingKey::new(base_url, profile, None);
        self.erase(
            "WHERE base_url = ?1 AND profile = ?2",
            params![key.base_url, key.profile],
        )
    }

    /// `appdeck cache clear`: every kept listing goes, its text overwritten on disk (not only
    /// unlinked from the file's pages) and the write-ahead log emptied. Returns how many went.
    pub fn clear_kept_listings(&mut self) -> Result<usize, StoreError> {
        self.erase("", &[])
    }

    /// Deletes the listings `filter` selects and their rows, then rebuilds the file and empties
    /// the write-ahead log, so that no free page keeps a row's text: neither these rows' nor
    /// those of listings replaced earlier (deleted, not overwritten). Keeping is turned off, or
    /// cleared, for data that must not stay on disk.
    fn erase(&mut self, filter: &str, args: &[&dyn rusqlite::ToSql]) -> Result<usize, StoreError> {
        let path = self.path.clone();
        let at = |e| StoreError::from_sqlite(&path, e);
        let tx = self.conn.transaction().map_err(at)?;
        tx.execute(
            &format!(
                "DELETE FROM kept_rows WHERE listing IN (SELECT id FROM kept_listings {filter})"
            ),
            args,
        )
        .map_err(at)?;
        let gone = tx
            .execute(&format!("DELETE FROM kept_listings {filter}"), args)
            .map_err(at)?;
        tx.commit().map_err(at)?;
        // Not rebuilt, the rows' text may still be in free pages: an error, not a warning, so
        // `cache clear` does not say it erased what it did not.
        self.conn.execute_batch("VACUUM").map_err(at)?;
        // The log holds the deleted pages as they were until it is checkpointed: empty it now.
        // Another process reading may keep it from being truncated; its next checkpoint will.
        let _ = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        Ok(gone)
    }
}

/// A kept listing's time and rows, or why it does not read back.
type ReadBack = Result<(DateTime<Utc>, Vec<String>), String>;

/// Whether `text` is one JSON value, as a page's item is: an object, or an odd item (a string,
/// a number, `null`) that the list shows marked, as the live page did.
fn is_one_json_value(text: &str) -> bool {
    serde_json::from_str::<&serde_json::value::RawValue>(text).is_ok()
}

#[cfg(test)]
mod tests {
    use chrono::{Duration, TimeZone, Utc};

    use super::*;

    fn open() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("appdeck.db")).unwrap();
        (dir, store)
    }

    fn at(minute: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 12, 2, 9, minute, 0).unwrap()
    }

    /// Another connection writing (another appdeck, or one of this one's opening the store at
    /// start) when a page comes to be kept: the page waits for the write lock, as every write
    /// does, and is kept. It began with a read, and SQLite fails such a transaction's first
    /// write at once, without waiting, while another holds the lock: the first page of a run
    /// quit at once was then lost now and then.
    #[test]
    fn a_page_kept_while_another_connection_writes_waits_for_it_and_is_kept() {
        let (dir, mut store) = open();
        let lock = crate::test_support::locked(&dir.path().join("appdeck.db"));
        let released = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(200));
            drop(lock);
        });
        let key = ListingKey::new("http://127.0.0.1:9/api/v1", None, None);
        let kept = store.keep_listing(&key, &[r#"{"id":"a"}"#], true, at(1));
        released.join().unwrap();
        assert_eq!(kept.unwrap(), 1);
        let Some(Kept::Rows { rows, .. }) = store.kept_listing(&key).unwrap() else {
            panic!("nothing kept");
        };
        assert_eq!(rows, [r#"{"id":"a"}"#]);
    }

    #[test]
    fn a_listing_is_kept_as_sent_per_service_profile_and_type_and_its_next_pages_follow() {
        let (_dir, mut store) = open();
        let key = ListingKey::new("http://user:pw@svc.test/api/v1/?q=1", Some("prod"), None);
        let first = [r#"{"id":"res_1","n":1E2}"#, "{ \"id\" : \"res_2\" }"];
        assert_eq!(store.keep_listing(&key, &first, true, at(1)).unwrap(), 2);
        assert_eq!(
            store
                .keep_listing(&key, &[r#"{"id":"res_3"}"#], false, at(2))
                .unwrap(),
            3
        );
        let Some(Kept::Rows { kept_at, rows, .. }) = store.kept_listing(&key).unwrap() else {
            panic!("no rows kept");
        };
        assert_eq!(
            kept_at,
            at(1),
            "the first page says when the listing was kept"
        );
        assert_eq!(rows, [first[0], first[1], r#"{"id":"res_3"}"#]);
        // The same service written another way is the same listing; another profile or type
        // filter is not.
        let same = ListingKey::new("http://svc.test/api/v1", Some("prod"), None);
        assert!(matches!(
            store.kept_listing(&same).unwrap(),
            Some(Kept::Rows { .. })
        ));
        for other in [
            ListingKey::new("http://svc.test/api/v1", None, None),
            ListingKey::new("http://svc.test/api/v1", Some("prod"), Some("user")),
            ListingKey::new("http://other.test/api/v1", Some("prod"), None),
        ] {
            assert_eq!(store.kept_listing(&other).unwrap(), None, "{other:?}");
        }
        // A new first page replaces the listing.
        store
            .keep_listing(&key, &[r#"{"id":"res_9"}"#], true, at(5))
            .unwrap();
        let Some(Kept::Rows { kept_at, rows, .. }) = store.kept_listing(&key).unwrap() else {
            panic!("no rows kept");
        };
        assert_eq!(
            (kept_at, rows),
            (at(5), vec![r#"{"id":"res_9"}"#.to_owned()])
        );
    }

    #[test]
    fn rows_past_the_bounds_are_left_out_and_the_oldest_listing_goes_first() {
        let (_dir, mut store) = open();
        let key = ListingKey::new("http://svc.test/api/v1", None, None);
        let row = r#"{"id":"r"}"#.to_owned();
        let many: Vec<&str> = std::iter::repeat_n(row.as_str(), MAX_ROWS + 5).collect();
        assert_eq!(
            store.keep_listing(&key, &many, true, at(0)).unwrap(),
            MAX_ROWS
        );
        assert_eq!(
            store.keep_listing(&key, &many[..3], false, at(0)).unwrap(),
            MAX_ROWS
        );
        let big = format!(r#"{{"id":"big","s":"{}"}}"#, "x".repeat(MAX_BYTES / 3));
        let bigs = [big.as_str(), &big, &big, &big];
        assert_eq!(
            store.keep_listing(&key, &bigs, true, at(0)).unwrap(),
            2,
            "by bytes too"
        );
        // A row that could never be kept is left out alone, counted; the rows after it stay.
        let huge = format!(r#"{{"id":"huge","s":"{}"}}"#, "x".repeat(MAX_BYTES));
        let rows = [r#"{"id":"a"}"#, &huge, r#"{"id":"b"}"#];
        assert_eq!(store.keep_listing(&key, &rows, true, at(1)).unwrap(), 2);
        store
            .keep_listing(&key, &[&huge, r#"{"id":"c"}"#], false, at(1))
            .unwrap();
        let Some(Kept::Rows {
            rows, too_large, ..
        }) = store.kept_listing(&key).unwrap()
        else {
            panic!("no rows kept");
        };
        assert_eq!((rows.len(), too_large), (3, 2));
        store
            .keep_listing(&key, &[r#"{"id":"d"}"#], true, at(2))
            .unwrap();
        assert!(
            matches!(
                store.kept_listing(&key).unwrap(),
                Some(Kept::Rows { too_large: 0, .. })
            ),
            "a new first page counts afresh"
        );

        for i in 0..MAX_LISTINGS as u32 + 2 {
            let key = ListingKey::new("http://svc.test/api/v1", None, Some(&format!("t{i}")));
            store
                .keep_listing(
                    &key,
                    &[r#"{"id":"a"}"#],
                    true,
                    at(10) + Duration::minutes(i.into()),
                )
                .unwrap();
        }
        let kept = store.kept_listings().unwrap();
        assert_eq!(kept.len(), MAX_LISTINGS);
        assert_eq!(
            kept[0].type_filter.as_deref(),
            Some(&*format!("t{}", MAX_LISTINGS + 1))
        );
        assert_eq!(store.kept_listing(&key).unwrap(), None, "the oldest went");
    }

    #[test]
    fn a_listing_that_does_not_read_back_is_set_aside_with_why_and_never_offered_again() {
        let (_dir, mut store) = open();
        let key = ListingKey::new("http://svc.test/api/v1", None, Some("user"));
        store
            .keep_listing(&key, &[r#"{"id":"a"}"#, r#"{"id":"b"}"#], true, at(0))
            .unwrap();
        store
            .conn
            .execute("UPDATE kept_rows SET text = '[1, 2' WHERE position = 1", [])
            .unwrap();
        assert_eq!(
            store.kept_listing(&key).unwrap(),
            Some(Kept::SetAside("its row 2 is not one JSON value".into()))
        );
        assert_eq!(store.kept_listing(&key).unwrap(), None);
        let listed = store.kept_listings().unwrap();
        assert_eq!(
            listed[0].set_aside.as_deref(),
            Some("its row 2 is not one JSON value")
        );
        // Rows that would follow it are not added to it; a new first page starts afresh.
        assert_eq!(
            store
                .keep_listing(&key, &[r#"{"id":"c"}"#], false, at(1))
                .unwrap(),
            0
        );
        assert_eq!(store.kept_listing(&key).unwrap(), None);
        store
            .keep_listing(&key, &[r#"{"id":"c"}"#], true, at(1))
            .unwrap();
        assert!(matches!(
            store.kept_listing(&key).unwrap(),
            Some(Kept::Rows { .. })
        ));

        store
            .conn
            .execute("UPDATE kept_listings SET format = 7", [])
            .unwrap();
        assert_eq!(
            store.kept_listing(&key).unwrap(),
            Some(Kept::SetAside(
                "it is in format 7, which this appdeck does not read".into()
            ))
        );
    }

    /// An item of a page that is not an object (the list shows it marked) is kept as the
    /// service sent it, in its place: the listing reads back whole, and `appdeck cache` calls
    /// it healthy, as the TUI finds it. Before, it set the whole listing aside at the next read.
    #[test]
    fn an_item_that_is_not_an_object_is_kept_in_its_place_not_set_aside() {
        let (_dir, mut store) = open();
        let key = ListingKey::new("http://svc.test/api/v1", None, None);
        let rows = [
            r#"{"id":"a"}"#,
            r#""just a string""#,
            "null",
            "1E400",
            r#"[1, {"id":"x"}]"#,
            r#"{"id":"b"}"#,
        ];
        assert_eq!(store.keep_listing(&key, &rows, true, at(0)).unwrap(), 6);
        assert_eq!(store.kept_listings().unwrap()[0].set_aside, None);
        let Some(Kept::Rows { rows: kept, .. }) = store.kept_listing(&key).unwrap() else {
            panic!("the listing was not read back");
        };
        assert_eq!(kept, rows);
        assert_eq!(store.kept_listings().unwrap()[0].set_aside, None);
    }

    /// `appdeck cache` says a listing that will not read back is set aside before the TUI has
    /// read it, with the TUI's reason, rather than call it healthy until then.
    #[test]
    fn cache_says_a_listing_will_be_set_aside_before_it_is_read() {
        let (_dir, mut store) = open();
        let key = ListingKey::new("http://svc.test/api/v1", None, None);
        store
            .keep_listing(&key, &[r#"{"id":"a"}"#, r#"{"id":"b"}"#], true, at(0))
            .unwrap();
        store
            .conn
            .execute(
                r#"UPDATE kept_rows SET text = '1],"next":"x' WHERE position = 1"#,
                [],
            )
            .unwrap();
        let why = Some("its row 2 is not one JSON value".to_owned());
        assert_eq!(store.kept_listings().unwrap()[0].set_aside, why);
        assert_eq!(
            store.kept_listing(&key).unwrap(),
            Some(Kept::SetAside(why.clone().unwrap()))
        );
        assert_eq!(store.kept_listings().unwrap()[0].set_aside, why);
    }

    #[test]
    fn forgetting_and_clearing_erase_the_rows_from_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("appdeck.db");
        let mut store = Store::open(&path).unwrap();
        let secret = r#"{"id":"a","properties":{"note":"SECRET-ROW-TEXT"}}"#;
        let prod = ListingKey::new("http://svc.test/api/v1", Some("prod"), None);
        let dev = ListingKey::new("http://svc.test/api/v1", Some("dev"), Some("user"));
        store.keep_listing(&prod, &[secret], true, at(0)).unwrap();
        store.keep_listing(&dev, &[secret], true, at(0)).unwrap();
        // A listing replaced by a newer one: its old rows must not stay in free pages.
        let replaced = r#"{"id":"b","properties":{"note":"SECRET-ROW-TEXT"}}"#;
        let user = ListingKey::new("http://svc.test/api/v1", Some("dev"), Some("repo"));
        store.keep_listing(&user, &[replaced], true, at(0)).unwrap();
        store
            .keep_listing(&user, &[r#"{"id":"c"}"#], true, at(1))
            .unwrap();
        assert_eq!(
            store
                .forget_kept_listings("http://svc.test/api/v1/", Some("prod"))
                .unwrap(),
            1
        );
        assert_eq!(store.kept_listing(&prod).unwrap(), None);
        assert!(store.kept_listing(&dev).unwrap().is_some());
        assert_eq!(store.clear_kept_listings().unwrap(), 2);
        assert!(store.kept_listings().unwrap().is_empty());
        drop(store);
        for file in ["appdeck.db", "appdeck.db-wal"] {
            let Ok(bytes) = std::fs::read(dir.path().join(file)) else {
                continue;
            };
            let found = bytes.windows(15).any(|w| w == b"SECRET-ROW-TEXT");
            assert!(!found, "{file} still holds a kept row's text");
        }
    }
}
