//! The history of sends: every report and connect appdeck sent, from the TUI or the CLI, with
//! the service's answer, or why none came. Rows are only ever added; listings are newest first.
//! What a listing shows of a row (its one-line summary) is in `summary.rs`.

mod summary;

use std::time::Duration;

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, Row, params};

use super::app_versions::timestamp;
use super::{Store, StoreError, base_url_key};
use crate::api::{Answer, ApiError, Operation};
pub use summary::Summary;

/// What was sent: a task report or an app version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SendKind {
    Report,
    Connect,
}

impl SendKind {
    /// The word stored, shown and typed (`--kind report`).
    pub fn as_str(self) -> &'static str {
        match self {
            SendKind::Report => "report",
            SendKind::Connect => "connect",
        }
    }

    pub(crate) fn parse(text: &str) -> Option<SendKind> {
        match text {
            "report" => Some(SendKind::Report),
            "connect" => Some(SendKind::Connect),
            _ => None,
        }
    }

    /// The operation that sends it.
    pub fn operation(self) -> Operation {
        match self {
            SendKind::Report => Operation::OperationsReport,
            SendKind::Connect => Operation::VersionConnect,
        }
    }

    /// The kind an operation sends; `None` for `resources.list`, which is not recorded.
    pub fn of(operation: Operation) -> Option<SendKind> {
        match operation {
            Operation::OperationsReport => Some(SendKind::Report),
            Operation::VersionConnect => Some(SendKind::Connect),
            Operation::ResourcesList => None,
        }
    }
}

impl std::fmt::Display for SendKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One send and what came of it, as recorded. Never holds the token: the body is the payload, and
/// the base URL is stored without credentials ([`base_url_key`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Sent {
    pub sent_at: DateTime<Utc>,
    /// The service's base URL.
    pub base_url: String,
    pub kind: SendKind,
    /// The body as sent (JSON text).
    pub body: String,
    /// The answer's body as it came (JSON text as a rule); `None` when no answer came.
    pub answer: Option<String>,
    /// `None` when no answer came (a network failure, a timeout, a cancel).
    pub http_status: Option<u16>,
    /// From sending to having read the answer; `None` when not known (cancelled).
    pub duration: Option<Duration>,
    /// What went wrong, in one line: a refusal, a network failure, an unreadable answer.
    pub error: Option<String>,
    /// A report's resource as it was listed when the report was written (its JSON text): what
    /// [`Sent::changes`] compares the sent resource with. `None`: not known.
    pub resource_before: Option<String>,
    /// The same resource listed again once the service took the report (`report --diff`): what
    /// [`Sent::changes`] compares the one before with. `None`: the resource the report sent
    /// stands in.
    pub resource_after: Option<String>,
}

impl Sent {
    /// Where it went, in a few words: the base URL's `host:port` (never its path or
    /// credentials), for the history's TO column.
    pub fn destination(&self) -> String {
        crate::api::host_of(&self.base_url)
    }

    /// A send of `body` (its text as sent) and its outcome: the answer (a refusal included, its reason as the
    /// error), or why none could be read (the start of its body kept when there was one).
    pub fn from_outcome(
        base_url: &str,
        kind: SendKind,
        body: &str,
        sent_at: DateTime<Utc>,
        http_status: Option<u16>,
        duration: Option<Duration>,
        outcome: Result<&Answer, &ApiError>,
    ) -> Sent {
        let (answer, error) = match outcome {
            // An empty body (a connect's `Value::Null`) is recorded as the empty text it was.
            Ok(answer) if answer.raw.is_null() => (
                Some(String::new()),
                answer.rejection().map(|e| e.to_string()),
            ),
            // As it came: its numbers and escapes as the service wrote them.
            Ok(answer) => (
                Some(answer.text.clone()),
                answer.rejection().map(|e| e.to_string()),
            ),
            Err(error) => (
                error.answer_excerpt().map(str::to_owned),
                Some(error.to_string()),
            ),
        };
        Sent {
            sent_at,
            base_url: base_url.to_owned(),
            kind,
            body: body.to_owned(),
            answer,
            http_status,
            duration,
            error,
            resource_before: None,
            resource_after: None,
        }
    }

    /// What a report changed: the resource listed before it was written against the same listed
    /// again ([`Sent::resource_after`]) or else against the resource it sent, value by value;
    /// `None` when the resource before is not known. [`Sent::after`] says which.
    pub fn changes(&self) -> Option<Vec<crate::changes::Change>> {
        let before = self.resource_before.as_deref()?;
        match &self.resource_after {
            Some(after) => Some(crate::changes::between(before, after)),
            None => crate::changes::made_by_report(before, &self.body),
        }
    }

    /// What [`Sent::changes`] compares with.
    pub fn after(&self) -> crate::changes::After {
        match self.resource_after {
            Some(_) => crate::changes::After::ListedAgain,
            None => crate::changes::After::Sent,
        }
    }
}

/// What finds the reports about one resource: its `id`, and its `type` and `external_id` for a
/// report that created it (sent before it had an `id`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResourceKey {
    pub id: String,
    pub resource_type: Option<String>,
    pub external_id: Option<String>,
}

/// A recorded send with its id (what `appdeck history show ID` takes).
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    pub id: i64,
    pub sent: Sent,
}

/// Which sends a listing wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HistoryQuery {
    /// Only this kind; both when `None`.
    pub kind: Option<SendKind>,
    /// At most this many, the newest.
    pub limit: usize,
}

const COLUMNS: &str = "id, sent_at, base_url, kind, body, answer, http_status, duration_ms, error, resource_before, \
     resource_after";

impl Store {
    /// Records a send; returns its id.
    pub fn record_send(&self, sent: &Sent) -> Result<i64, StoreError> {
        insert_send(&self.conn, sent).map_err(|e| self.error(e))
    }

    /// The report recorded as `id` was compared with its resource listed again (`report --diff`,
    /// once the service took it): `resource` is that listing's text.
    pub fn set_resource_after(&self, id: i64, resource: &str) -> Result<(), StoreError> {
        self.conn
            .execute(
                "UPDATE history SET resource_after = ?2 WHERE id = ?1",
                params![id, resource],
            )
            .map(drop)
            .map_err(|e| self.error(e))
    }

    /// Records many sends in one transaction: all of them, or none (then the error says why).
    /// `report --each` records thousands a second this way: each commit waits for the disk
    /// (`synchronous = FULL`), so one commit per send would cap the rate.
    pub fn record_sends(&mut self, sents: &[Sent]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let at = |e| StoreError::from_sqlite(&path, e);
        let transaction = self.conn.transaction().map_err(at)?;
        for sent in sents {
            insert_send(&transaction, sent).map_err(at)?;
        }
        transaction.commit().map_err(at)
    }

    /// The sends `query` asks for, newest first (by time, then by id for sends in the same
    /// millisecond).
    pub fn history(&self, query: &HistoryQuery) -> Result<Vec<HistoryEntry>, StoreError> {
        let limit = i64::try_from(query.limit).unwrap_or(i64::MAX);
        let mut statement = self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM history
                 WHERE ?1 IS NULL OR kind = ?1
                 ORDER BY sent_at DESC, id DESC LIMIT ?2"
            ))
            .map_err(|e| self.error(e))?;
        let rows = statement
            .query_map(params![query.kind.map(SendKind::as_str), limit], entry)
            .map_err(|e| self.error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.error(e))
    }

    /// The reports sent to `base_url` about the resource `about`, newest first, at most `limit`
    /// (the detail view's "Reports sent"): those carrying its `id`, and those that created it
    /// (their resource had no `id` yet; its `type` and `external_id` match).
    pub fn reports_about(
        &self,
        base_url: &str,
        about: &ResourceKey,
        limit: usize,
    ) -> Result<Vec<HistoryEntry>, StoreError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let mut statement = self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM history WHERE base_url = ?1 AND resource_id = ?2
                 UNION ALL
                 SELECT {COLUMNS} FROM history
                 WHERE base_url = ?1 AND created_type = ?3 AND created_external_id = ?4
                 ORDER BY sent_at DESC, id DESC LIMIT ?5"
            ))
            .map_err(|e| self.error(e))?;
        let params = params![
            base_url_key(base_url),
            about.id,
            about.resource_type,
            about.external_id,
            limit
        ];
        let rows = statement
            .query_map(params, entry)
            .map_err(|e| self.error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.error(e))
    }

    /// One send by its id; `None` when there is none.
    pub fn history_entry(&self, id: i64) -> Result<Option<HistoryEntry>, StoreError> {
        self.conn
            .query_row(
                &format!("SELECT {COLUMNS} FROM history WHERE id = ?1"),
                [id],
                entry,
            )
            .optional()
            .map_err(|e| self.error(e))
    }
}

/// Inserts one send; returns its id.
fn insert_send(conn: &rusqlite::Connection, sent: &Sent) -> rusqlite::Result<i64> {
    let duration_ms = sent
        .duration
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    conn.prepare_cached(
        "INSERT INTO history
            (sent_at, base_url, kind, body, answer, http_status, duration_ms, error,
             resource_before, resource_after)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        timestamp(&sent.sent_at),
        base_url_key(&sent.base_url),
        sent.kind.as_str(),
        sent.body,
        sent.answer,
        sent.http_status,
        duration_ms,
        sent.error,
        sent.resource_before,
        sent.resource_after,
    ])?;
    Ok(conn.last_insert_rowid())
}

/// A row read back. Values this appdeck did not write (a time that does not parse, a status out
/// of range) are kept as the epoch or dropped rather than failing the whole listing.
fn entry(row: &Row<'_>) -> rusqlite::Result<HistoryEntry> {
    let sent_at: String = row.get(1)?;
    let kind: String = row.get(3)?;
    let http_status: Option<i64> = row.get(6)?;
    let duration_ms: Option<i64> = row.get(7)?;
    Ok(HistoryEntry {
        id: row.get(0)?,
        sent: Sent {
            sent_at: DateTime::parse_from_rfc3339(&sent_at)
                .map(|t| t.with_timezone(&Utc))
                .unwrap_or_default(),
            base_url: row.get(2)?,
            // The table's CHECK allows these two only.
            kind: SendKind::parse(&kind).unwrap_or(SendKind::Report),
            body: row.get(4)?,
            answer: row.get(5)?,
            http_status: http_status.and_then(|s| u16::try_from(s).ok()),
            duration: duration_ms
                .and_then(|ms| u64::try_from(ms).ok())
                .map(Duration::from_millis),
            error: row.get(8)?,
            resource_before: row.get(9)?,
            resource_after: row.get(10)?,
        },
    })
}

#[cfg(test)]
mod tests;
