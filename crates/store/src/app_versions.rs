//! The app versions appdeck knows: every connect payload it sent successfully, per service base
//! URL, with the time and the service's answer. The catalog of types reads them back.

use chrono::{DateTime, SecondsFormat, Utc};
use rusqlite::params;

pub use appdeck_core::catalog::KnownAppVersion;

use super::{Store, StoreError};

/// A successful connect, to be recorded.
#[derive(Clone, Debug)]
pub(crate) struct NewAppVersion<'a> {
    /// The service's base URL, as configured (credentials in it are dropped, see [`base_url_key`]).
    pub base_url: &'a str,
    pub app_id: &'a str,
    pub version: &'a str,
    /// The connect payload, as sent (JSON text).
    pub payload: &'a str,
    /// The service's answer (JSON text), if it sent one.
    pub answer: Option<&'a str>,
    pub recorded_at: DateTime<Utc>,
}

/// The form of a base URL the store keys on: without user info (a password must not land in the
/// store), a query or a fragment, and without a trailing `/`, so `…/api/v1` and `…/api/v1/` match.
pub(crate) fn base_url_key(base_url: &str) -> String {
    let trimmed = base_url.trim();
    match reqwest::Url::parse(trimmed) {
        Ok(mut url) => {
            let _ = url.set_username("");
            let _ = url.set_password(None);
            url.set_query(None);
            url.set_fragment(None);
            url.as_str().trim_end_matches('/').to_owned()
        }
        Err(_) => trimmed.trim_end_matches('/').to_owned(),
    }
}

/// Fixed-width UTC text (`2026-11-22T09:30:00.123Z`), so that text order is time order.
pub(super) fn timestamp(at: &DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

impl Store {
    /// Records a connect payload the service accepted at `at`, as the text sent (`payload`, so
    /// that a connect starting from it sends each number and escape as written), with the
    /// answer's text if it sent one: its `app_id` and `version` are read from the payload (empty
    /// when it lacks them). The CLI's `connect` and the TUI's connect composer both record
    /// through here.
    pub fn record_connect(
        &self,
        base_url: &str,
        payload: &str,
        answer: Option<&str>,
        at: DateTime<Utc>,
    ) -> Result<(), StoreError> {
        let parsed = serde_json::from_str::<serde_json::Value>(payload).unwrap_or_default();
        let text = |key: &str| {
            parsed
                .get(key)
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        self.record_app_version(&NewAppVersion {
            base_url,
            app_id: &text("app_id"),
            version: &text("version"),
            payload,
            answer,
            recorded_at: at,
        })
    }

    /// Records a successful connect. Sending the same app version again replaces the payload,
    /// the answer and the time, as the service replaces its registration.
    pub(crate) fn record_app_version(&self, sent: &NewAppVersion<'_>) -> Result<(), StoreError> {
        self.conn
            .execute(
                "INSERT INTO app_versions (base_url, app_id, version, payload, recorded_at, answer)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (base_url, app_id, version) DO UPDATE SET
                    payload = excluded.payload,
                    recorded_at = excluded.recorded_at,
                    answer = excluded.answer",
                params![
                    base_url_key(sent.base_url),
                    sent.app_id,
                    sent.version,
                    sent.payload,
                    timestamp(&sent.recorded_at),
                    sent.answer,
                ],
            )
            .map(drop)
            .map_err(|e| self.error(e))
    }

    /// The app versions recorded for a base URL, newest first.
    pub fn app_versions(&self, base_url: &str) -> Result<Vec<KnownAppVersion>, StoreError> {
        let mut statement = self
            .conn
            .prepare_cached(
                "SELECT base_url, app_id, version, payload, answer, recorded_at
                 FROM app_versions WHERE base_url = ?1
                 ORDER BY recorded_at DESC, id DESC",
            )
            .map_err(|e| self.error(e))?;
        let rows = statement
            .query_map([base_url_key(base_url)], |row| {
                let recorded_at: String = row.get(5)?;
                Ok(KnownAppVersion {
                    base_url: row.get(0)?,
                    app_id: row.get(1)?,
                    version: row.get(2)?,
                    payload: row.get(3)?,
                    answer: row.get(4)?,
                    // A time this appdeck did not write is kept as the epoch rather than failing.
                    recorded_at: DateTime::parse_from_rfc3339(&recorded_at)
                        .map(|t| t.with_timezone(&Utc))
                        .unwrap_or_default(),
                })
            })
            .map_err(|e| self.error(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.error(e))
    }
}

#[cfg(test)]
mod record_connect_tests {
    use chrono::TimeZone;
    use serde_json::json;

    use super::*;

    #[test]
    fn a_connect_is_recorded_under_its_app_id_and_version_with_its_answer() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join(crate::FILE_NAME)).unwrap();
        let base_url = "http://127.0.0.1:9/api/v1";
        let at = Utc.with_ymd_and_hms(2026, 11, 22, 9, 30, 0).unwrap();
        let payload = json!({"app_id": "acme", "version": "1.5.0", "resources": []});
        store
            .record_connect(
                base_url,
                &payload.to_string(),
                Some(r#"{"status":"ok"}"#),
                at,
            )
            .unwrap();
        // Without an answer (the TUI's), and without the fields (recorded, not refused).
        store.record_connect(base_url, "{}", None, at).unwrap();
        let versions = store.app_versions(base_url).unwrap();
        let find = |app_id: &str| versions.iter().find(|v| v.app_id == app_id).unwrap();
        let acme = find("acme");
        assert_eq!(acme.version, "1.5.0");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&acme.payload).unwrap(),
            payload
        );
        assert_eq!(acme.answer.as_deref(), Some(r#"{"status":"ok"}"#));
        assert_eq!(acme.recorded_at, at);
        let bare = find("");
        assert_eq!((bare.version.as_str(), bare.answer.as_deref()), ("", None));
    }

    /// A connect starts from the recorded text (`C`): the bytes sent come back, not the parsed
    /// payload written again (`1e+2`, the character for `\u202e`).
    #[test]
    fn a_connect_is_recorded_and_given_back_as_the_text_sent() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join(crate::FILE_NAME)).unwrap();
        let base_url = "http://127.0.0.1:9/api/v1";
        let sent = r#"{"app_id":"acme","version":"1.5.0","resources":[{"type":"z","maximum":1E2,"w":1e400,"note":"\u202e\u00e9"},{"type":"a"}]}"#;
        let answer = r#"{"status":"ok","n":-0}"#;
        store
            .record_connect(base_url, sent, Some(answer), Utc::now())
            .unwrap();
        let versions = store.app_versions(base_url).unwrap();
        assert_eq!(versions[0].payload, sent);
        assert_eq!(versions[0].answer.as_deref(), Some(answer));
        assert_eq!(versions[0].app_id, "acme");
    }
}
