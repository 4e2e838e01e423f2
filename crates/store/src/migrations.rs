//! The schema, as a list of migrations applied in order. `PRAGMA user_version` records how many
//! have run. To change the schema, append a migration; never edit one that has shipped.
//!
//! Drafts came as a later migration, keyed by base URL, kind and subject; a later one still gives
//! each its owner, so that two windows never overwrite each other's.

use std::path::Path;

use rusqlite::{Connection, TransactionBehavior};

use super::StoreError;

/// Each entry moves the schema from version `i` to `i + 1`.
pub(super) const MIGRATIONS: &[&str] = &[
    // 1: the app versions appdeck knows, one row per (base URL, app, version): the last
    // successful connect of that version wins, as it does on the service.
    "CREATE TABLE app_versions (
        id          INTEGER PRIMARY KEY,
        base_url    TEXT NOT NULL,
        app_id      TEXT NOT NULL,
        version     TEXT NOT NULL,
        payload     TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        answer      TEXT,
        UNIQUE (base_url, app_id, version)
    );
    CREATE INDEX app_versions_by_time ON app_versions (base_url, recorded_at);",
    // 2: drafts of what is being composed, one per (base URL, kind, subject): the subject is the
    // resource's id, or "new"; saving again replaces the body and the time.
    "CREATE TABLE drafts (
        base_url   TEXT NOT NULL,
        kind       TEXT NOT NULL,
        subject    TEXT NOT NULL,
        body       TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (base_url, kind, subject)
    );",
    // 3: every report and connect sent, from the TUI or the CLI, whatever the answer.
    // `http_status` is NULL when no answer came (a network failure, a timeout), `duration_ms`
    // when the time is not known (a send cancelled before its answer). Never the token.
    "CREATE TABLE history (
        id          INTEGER PRIMARY KEY,
        sent_at     TEXT NOT NULL,
        base_url    TEXT NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('report', 'connect')),
        body        TEXT NOT NULL,
        answer      TEXT,
        http_status INTEGER,
        duration_ms INTEGER,
        error       TEXT
    );
    CREATE INDEX history_by_kind_and_time ON history (kind, sent_at);",
    // 4: a draft belongs to the composer that wrote it (`owner`: a window and a composer in it),
    // so two windows composing about the same subject keep one each; `revision` counts its
    // saves, so a composer that went on from a draft takes it over only while nobody changed it
    // since. Drafts from before have no owner (''): whoever goes on from one takes it over.
    "CREATE TABLE drafts_by_owner (
        id         INTEGER PRIMARY KEY,
        base_url   TEXT NOT NULL,
        kind       TEXT NOT NULL,
        subject    TEXT NOT NULL,
        owner      TEXT NOT NULL,
        revision   INTEGER NOT NULL,
        body       TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        UNIQUE (base_url, kind, subject, owner)
    );
    INSERT INTO drafts_by_owner (base_url, kind, subject, owner, revision, body, updated_at)
        SELECT base_url, kind, subject, '', 1, body, updated_at FROM drafts;
    DROP TABLE drafts;
    ALTER TABLE drafts_by_owner RENAME TO drafts;
    CREATE INDEX drafts_by_time ON drafts (base_url, updated_at);",
    // 5: when a draft's send began, written before it goes out and cleared by the next save: a
    // draft whose window ended (a crash, a full disk refusing its removal) before the answer was
    // recorded is never offered again as unsent.
    "ALTER TABLE drafts ADD COLUMN sent_at TEXT;",
    // 6: the resource a report carried, so the detail view lists the reports about it without
    // reading every body. Computed by SQLite from the body (a body that is not JSON has none).
    "ALTER TABLE history ADD COLUMN resource_id TEXT GENERATED ALWAYS AS (
        CASE WHEN kind = 'report' AND json_valid(body)
            THEN json_extract(body, '$.response.resource.id') END
    ) VIRTUAL;
    CREATE INDEX history_by_resource ON history (base_url, resource_id, sent_at)
        WHERE resource_id IS NOT NULL;",
    // 7: a report's resource as it was listed when the report was written, so the history shows
    // what the report changed (NULL: not known, as for a report from a file).
    "ALTER TABLE history ADD COLUMN resource_before TEXT;",
    // 8: the list's columns chosen with `:columns`, per resource type (`*`: the list of every
    // type), as the command's words (`-external_id +properties.language`).
    "CREATE TABLE list_columns (
        resource_type TEXT PRIMARY KEY,
        spec          TEXT NOT NULL
    );",
    // 9: the last listing shown per base URL, profile and type filter ('': none, every type),
    // its rows as the service sent them; `set_aside` says why a listing is no longer trusted.
    "CREATE TABLE kept_listings (
        id          INTEGER PRIMARY KEY,
        base_url    TEXT NOT NULL,
        profile     TEXT NOT NULL,
        type_filter TEXT NOT NULL,
        kept_at     TEXT NOT NULL,
        format      INTEGER NOT NULL,
        set_aside   TEXT,
        UNIQUE (base_url, profile, type_filter)
    );
    CREATE TABLE kept_rows (
        listing  INTEGER NOT NULL,
        position INTEGER NOT NULL,
        text     TEXT NOT NULL,
        PRIMARY KEY (listing, position)
    ) WITHOUT ROWID;",
    // 10: how many rows of a kept listing were left out as too large to keep, so that the list
    // says so rather than pass the rows kept for all there were.
    "ALTER TABLE kept_listings ADD COLUMN too_large INTEGER NOT NULL DEFAULT 0;",
    // 11: a report's resource as listed again once the service took it (`report --diff`), so
    // that the history says what --diff printed (NULL: compared with the resource it sent).
    "ALTER TABLE history ADD COLUMN resource_after TEXT;",
    // 12: the type and external id of a report's resource that had no `id` yet (a report that
    // created it), so the detail lists that report among the reports about it too.
    "ALTER TABLE history ADD COLUMN created_type TEXT GENERATED ALWAYS AS (
        CASE WHEN kind = 'report' AND json_valid(body)
                  AND json_extract(body, '$.response.resource.id') IS NULL
            THEN json_extract(body, '$.response.resource.type') END
    ) VIRTUAL;
    ALTER TABLE history ADD COLUMN created_external_id TEXT GENERATED ALWAYS AS (
        CASE WHEN kind = 'report' AND json_valid(body)
                  AND json_extract(body, '$.response.resource.id') IS NULL
            THEN json_extract(body, '$.response.resource.external_id') END
    ) VIRTUAL;
    CREATE INDEX history_by_created ON history (base_url, created_type, created_external_id)
        WHERE created_external_id IS NOT NULL;",
];

/// The first schema alone, for tests of an upgrade from it.
#[cfg(test)]
pub(super) const FIRST_FOR_TESTS: &str = MIGRATIONS[0];

/// The schema version this appdeck writes.
pub(crate) const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// A file from a newer appdeck is left alone: this one cannot know what its tables mean.
pub(super) fn refuse_newer(path: &Path, found: i64) -> Result<(), StoreError> {
    if !(0..=SCHEMA_VERSION).contains(&found) {
        return Err(StoreError::Newer {
            path: path.to_owned(),
            found,
            supported: SCHEMA_VERSION,
        });
    }
    Ok(())
}

/// Applies the missing migrations in one write transaction, so two processes opening a fresh
/// store at once do not both migrate it (the second waits, then finds it done).
pub(super) fn migrate(conn: &mut Connection, path: &Path) -> Result<(), StoreError> {
    let at = |e| StoreError::from_sqlite(path, e);
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(at)?;
    let found: i64 = tx
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(at)?;
    refuse_newer(path, found)?;
    let done = usize::try_from(found).unwrap_or(0);
    if done == MIGRATIONS.len() {
        return Ok(());
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(done) {
        tx.execute_batch(sql).map_err(at)?;
        tracing::info!("store {}: migrated to version {}", path.display(), i + 1);
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)
        .map_err(at)?;
    tx.commit().map_err(at)
}
