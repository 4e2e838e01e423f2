//! Drafts: what is being composed (a report, later a connect), saved while it is typed so that it
//! survives a quit, a crash or `kill -9`. One draft per service base URL, kind and subject (the
//! resource's id, or "new"); saving again replaces it. The body is the composer's own text: the
//! store does not read it.

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

/// A saved draft.
#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    pub key: DraftKey,
    /// The composer's text for it.
    pub body: String,
    pub updated_at: DateTime<Utc>,
}

impl Store {
    /// Saves a draft, replacing the one with the same key.
    pub fn save_draft(
        &self,
        key: &DraftKey,
        body: &str,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        self.conn
            .execute(
                "INSERT INTO drafts (base_url, kind, subject, body, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (base_url, kind, subject) DO UPDATE SET
                    body = excluded.body,
                    updated_at = excluded.updated_at",
                params![
                    base_url_key(&key.base_url),
                    key.kind,
                    key.subject,
                    body,
                    timestamp(&at)
                ],
            )
            .map(drop)
            .map_err(|e| self.error(e))
    }

    /// The draft with this key, if there is one.
    pub fn load_draft(&self, key: &DraftKey) -> Result<Option<Draft>, StoreError> {
        self.conn
            .query_row(
                "SELECT base_url, kind, subject, body, updated_at FROM drafts
                 WHERE base_url = ?1 AND kind = ?2 AND subject = ?3",
                params![base_url_key(&key.base_url), key.kind, key.subject],
                read_draft,
            )
            .optional()
            .map_err(|e| self.error(e))
    }

    /// Removes the draft with this key; says whether there was one.
    pub fn remove_draft(&self, key: &DraftKey) -> Result<bool, StoreError> {
        self.conn
            .execute(
                "DELETE FROM drafts WHERE base_url = ?1 AND kind = ?2 AND subject = ?3",
                params![base_url_key(&key.base_url), key.kind, key.subject],
            )
            .map(|n| n > 0)
            .map_err(|e| self.error(e))
    }

    /// The drafts kept for a base URL, newest first (the history view lists them at its top).
    pub fn drafts(&self, base_url: &str) -> Result<Vec<Draft>, StoreError> {
        let mut statement = self
            .conn
            .prepare_cached(
                "SELECT base_url, kind, subject, body, updated_at FROM drafts
                 WHERE base_url = ?1 ORDER BY updated_at DESC, kind, subject",
            )
            .map_err(|e| self.error(e))?;
        let rows = statement
            .query_map([base_url_key(base_url)], read_draft)
            .map_err(|e| self.error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.error(e))
    }
}

fn read_draft(row: &rusqlite::Row<'_>) -> rusqlite::Result<Draft> {
    let updated_at: String = row.get(4)?;
    Ok(Draft {
        key: DraftKey {
            base_url: row.get(0)?,
            kind: row.get(1)?,
            subject: row.get(2)?,
        },
        body: row.get(3)?,
        // A time this appdeck did not write is kept as the epoch rather than failing.
        updated_at: DateTime::parse_from_rfc3339(&updated_at)
            .map(|t| t.with_timezone(&Utc))
            .unwrap_or_default(),
    })
}
