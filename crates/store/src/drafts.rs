//! Drafts: what is being composed (a report, a connect), saved while it is typed so that it
//! survives a quit, a crash or `kill -9`. A draft is about a service base URL, kind and subject
//! (the resource's id, or "new"), and belongs to the composer that wrote it (its owner: a window
//! and a composer in it): two windows composing about the same resource keep a draft each, and
//! neither's save or send touches the other's. A composer that went on from a stored draft takes
//! it over with its first save, unless someone changed it since it was read (its revision): then
//! it saves beside it. The body is the composer's own text: the store does not read it.

use chrono::{DateTime, Utc};
use rusqlite::{OptionalExtension, params};

use super::app_versions::timestamp;
use super::{Store, StoreError, base_url_key};

/// What a draft is about: the service, the kind of composer and the subject.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DraftKey {
    /// The service's base URL (keyed as [`base_url_key`] says).
    pub base_url: String,
    /// Which composer: `report` (later `connect`).
    pub kind: String,
    /// The resource's id, or [`DraftKey::NEW`].
    pub subject: String,
}

impl DraftKey {
    /// The subject of a draft about no existing resource.
    pub const NEW: &'static str = "new";

    /// A report draft about `resource_id` (or a new resource).
    pub fn report(base_url: &str, resource_id: Option<&str>) -> DraftKey {
        DraftKey {
            base_url: base_url_key(base_url),
            kind: "report".to_owned(),
            subject: resource_id.unwrap_or(Self::NEW).to_owned(),
        }
    }
}

/// A stored draft as it was read: which row, and how many times it had been saved. A write that
/// names it acts only while it is still so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DraftRevision {
    pub row: i64,
    pub revision: i64,
}

/// A saved draft.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub key: DraftKey,
    /// Who wrote it last.
    pub owner: String,
    pub revision: DraftRevision,
    /// The composer's text for it.
    pub body: String,
    pub updated_at: DateTime<Utc>,
    /// When its send began, if the window that sent it never removed it (it ended before the
    /// answer was recorded, or the store refused the removal): it may have reached the service.
    pub sent_at: Option<DateTime<Utc>>,
}

impl Store {
    /// Saves `owner`'s draft (`owner` is unique to one composer in one window): over its own,
    /// else over the draft it went on from (`from`, restored) while nobody changed that since
    /// it was read, else as a new one beside the others. One transaction, so two windows saving
    /// at once each land in one of these, never both in the same row.
    pub fn save_draft(
        &self,
        key: &DraftKey,
        owner: (&str, Option<DraftRevision>),
        body: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.write_draft(key, owner, body, at, None)
    }

    /// Saves `owner`'s draft as [`Store::save_draft`] does, marked as being sent from `at`: its
    /// send goes out next. A send that reached the service removes it; one that failed saves it
    /// again, which clears the mark.
    pub fn save_draft_sending(
        &self,
        key: &DraftKey,
        owner: (&str, Option<DraftRevision>),
        body: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.write_draft(key, owner, body, at, Some(at))
    }

    fn write_draft(
        &self,
        key: &DraftKey,
        (owner, from): (&str, Option<DraftRevision>),
        body: &str,
        at: DateTime<Utc>,
        sent_at: Option<DateTime<Utc>>,
    ) -> Result<(), StoreError> {
        let base_url = base_url_key(&key.base_url);
        let at = timestamp(&at);
        let sent_at = sent_at.as_ref().map(timestamp);
        let tx = self.write_transaction()?;
        let own = tx
            .execute(
                "UPDATE drafts SET body = ?5, updated_at = ?6, sent_at = ?7,
                    revision = revision + 1
                 WHERE base_url = ?1 AND kind = ?2 AND subject = ?3 AND owner = ?4",
                params![base_url, key.kind, key.subject, owner, body, at, sent_at],
            )
            .map_err(|e| self.error(e))?;
        let taken_over = match (own, from) {
            (0, Some(from)) => tx
                .execute(
                    "UPDATE drafts SET owner = ?6, body = ?7, updated_at = ?8, sent_at = ?9,
                        revision = revision + 1
                     WHERE id = ?1 AND revision = ?2
                        AND base_url = ?3 AND kind = ?4 AND subject = ?5",
                    params![
                        from.row,
                        from.revision,
                        base_url,
                        key.kind,
                        key.subject,
                        owner,
                        body,
                        at,
                        sent_at
                    ],
                )
                .map_err(|e| self.error(e))?,
            _ => 0,
        };
        if own == 0 && taken_over == 0 {
            tx.execute(
                "INSERT INTO drafts
                    (base_url, kind, subject, owner, revision, body, updated_at, sent_at)
                 VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?7)",
                params![base_url, key.kind, key.subject, owner, body, at, sent_at],
            )
            .map_err(|e| self.error(e))?;
        }
        tx.commit().map_err(|e| self.error(e))
    }

    /// The newest draft about this key, whoever wrote it, if there is one. One whose send was
    /// accepted but whose removal is still pending comes marked as sent.
    pub fn load_draft(&self, key: &DraftKey) -> Result<Option<Draft>, StoreError> {
        let draft = self
            .conn
            .query_row(
                &format!(
                    "{SELECT} WHERE base_url = ?1 AND kind = ?2 AND subject = ?3
                     ORDER BY updated_at DESC, id DESC LIMIT 1"
                ),
                params![base_url_key(&key.base_url), key.kind, key.subject],
                read_draft,
            )
            .optional()
            .map_err(|e| self.error(e))?;
        let pending = self.pending_sent_drafts();
        Ok(draft.map(|mut draft| {
            if let Some(sent) = pending.iter().find_map(|p| p.sent(&draft)) {
                draft.sent_at = Some(sent);
            }
            draft
        }))
    }

    /// Removes a composer's draft about this key (it was sent, or discarded): its own (`owner`,
    /// `None` before its first save), and the one it went on from (`from`) if nobody changed
    /// that since; says whether there was one. Another window's draft stays.
    pub fn remove_draft(
        &self,
        key: &DraftKey,
        (owner, from): (Option<&str>, Option<DraftRevision>),
    ) -> Result<bool, StoreError> {
        let tx = self.write_transaction()?;
        let own = tx
            .execute(
                "DELETE FROM drafts
                 WHERE base_url = ?1 AND kind = ?2 AND subject = ?3 AND owner = ?4",
                params![base_url_key(&key.base_url), key.kind, key.subject, owner],
            )
            .map_err(|e| self.error(e))?;
        let from = match from {
            Some(from) => tx
                .execute(
                    "DELETE FROM drafts WHERE id = ?1 AND revision = ?2",
                    params![from.row, from.revision],
                )
                .map_err(|e| self.error(e))?,
            None => 0,
        };
        tx.commit().map_err(|e| self.error(e))?;
        Ok(own + from > 0)
    }

    /// The drafts kept for a base URL, newest first (the history view lists them at its top).
    pub fn drafts(&self, base_url: &str) -> Result<Vec<Draft>, StoreError> {
        let mut statement = self
            .conn
            .prepare_cached(&format!(
                "{SELECT} WHERE base_url = ?1 ORDER BY updated_at DESC, kind, subject, id DESC"
            ))
            .map_err(|e| self.error(e))?;
        let rows = statement
            .query_map([base_url_key(base_url)], read_draft)
            .map_err(|e| self.error(e))?;
        let drafts: Vec<Draft> = rows.collect::<Result<_, _>>().map_err(|e| self.error(e))?;
        // A draft whose send was accepted, its removal pending, is not kept as a draft.
        let pending = self.pending_sent_drafts();
        Ok(drafts
            .into_iter()
            .filter(|d| !pending.iter().any(|p| p.sent(d).is_some()))
            .collect())
    }

    /// A transaction that takes the write lock at once, so that what it reads is still so
    /// when it writes (another window's save waits for it, within the busy timeout).
    fn write_transaction(&self) -> Result<rusqlite::Transaction<'_>, StoreError> {
        rusqlite::Transaction::new_unchecked(&self.conn, rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| self.error(e))
    }
}

/// The columns [`read_draft`] reads, in its order.
const SELECT: &str =
    "SELECT base_url, kind, subject, body, updated_at, owner, id, revision, sent_at FROM drafts";

fn read_draft(row: &rusqlite::Row<'_>) -> rusqlite::Result<Draft> {
    // A time this appdeck did not write is kept as the epoch rather than failing.
    let time = |text: String| {
        DateTime::parse_from_rfc3339(&text)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_default()
    };
    Ok(Draft {
        key: DraftKey {
            base_url: row.get(0)?,
            kind: row.get(1)?,
            subject: row.get(2)?,
        },
        body: row.get(3)?,
        updated_at: time(row.get(4)?),
        owner: row.get(5)?,
        revision: DraftRevision {
            row: row.get(6)?,
            revision: row.get(7)?,
        },
        sent_at: row.get::<_, Option<String>>(8)?.map(time),
    })
}
