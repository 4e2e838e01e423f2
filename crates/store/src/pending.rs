//! What the store had to record after a send and could not (a full disk, a locked file): the
//! send's entry in the history, and the removal of the draft the service accepted. Kept in a small
//! file beside the store (`appdeck.db.pending`, 0600, one JSON object a line) until the store
//! takes writes again: every [`Store::open`] (the next command, the next window, the next store
//! job of this one) applies what it can and keeps the rest. Meanwhile a draft kept here as sent
//! is never listed nor restored as unsent.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::{DraftKey, DraftRevision, SendKind, Sent, Store, StoreError};

/// One thing kept for the store.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// A send to record in the history.
    Send(Sent),
    /// A draft whose send the service accepted, to remove: the composer's own (`owner`) and the
    /// one it went on from (`from`), as [`Store::remove_draft`] takes them.
    SentDraft {
        key: DraftKey,
        owner: Option<String>,
        from: Option<DraftRevision>,
        sent_at: DateTime<Utc>,
    },
}

/// The pending file of the store at `store`.
pub fn pending_path(store: &Path) -> PathBuf {
    let mut name = store.as_os_str().to_owned();
    name.push(".pending");
    PathBuf::from(name)
}

/// Adds `entry` to the pending file of the store at `store` (created 0600), written through to
/// the disk; returns the file's path, to tell the user where it is.
pub fn keep_pending(store: &Path, entry: &Pending) -> Result<PathBuf, String> {
    let path = pending_path(store);
    let mut line = entry.to_json().to_string();
    line.push('\n');
    let mut options = std::fs::OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options.open(&path).and_then(|mut file| {
        file.write_all(line.as_bytes())?;
        file.sync_all()
    });
    match written {
        Ok(()) => Ok(path),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

impl Store {
    /// Applies what the pending file holds; what the store still refuses stays in it (the file
    /// goes once it is empty). Returns how many entries were applied.
    pub fn apply_pending(&self) -> Result<usize, StoreError> {
        let path = pending_path(&self.path);
        let entries = match read_pending(&path) {
            Some(entries) if !entries.is_empty() => entries,
            _ => return Ok(0),
        };
        let mut left = Vec::new();
        let mut applied = 0;
        for entry in entries {
            let done = match &entry {
                Pending::Send(sent) => self.record_send(sent).map(drop),
                Pending::SentDraft {
                    key, owner, from, ..
                } => self.remove_draft(key, (owner.as_deref(), *from)).map(drop),
            };
            match done {
                Ok(()) => applied += 1,
                Err(_) => left.push(entry),
            }
        }
        if applied > 0 {
            rewrite(&path, &left).map_err(|e| StoreError::Io {
                path: path.clone(),
                problem: e.to_string(),
            })?;
        }
        Ok(applied)
    }

    /// The drafts kept pending as sent: when each was sent, by what it covers.
    pub(crate) fn pending_sent_drafts(&self) -> Vec<Pending> {
        read_pending(&pending_path(&self.path))
            .unwrap_or_default()
            .into_iter()
            .filter(|entry| matches!(entry, Pending::SentDraft { .. }))
            .collect()
    }
}

impl Pending {
    /// When `draft` was sent, if this says it was.
    pub(crate) fn sent(&self, draft: &super::Draft) -> Option<DateTime<Utc>> {
        let Pending::SentDraft {
            key,
            owner,
            from,
            sent_at,
        } = self
        else {
            return None;
        };
        let same_key = super::base_url_key(&key.base_url) == draft.key.base_url
            && key.kind == draft.key.kind
            && key.subject == draft.key.subject;
        let covers =
            owner.as_deref() == Some(draft.owner.as_str()) || *from == Some(draft.revision);
        (same_key && covers).then_some(*sent_at)
    }

    fn to_json(&self) -> Value {
        match self {
            Pending::Send(sent) => json!({
                "send": {
                    "sent_at": sent.sent_at.to_rfc3339(),
                    "base_url": sent.base_url,
                    "kind": sent.kind.as_str(),
                    "body": sent.body,
                    "answer": sent.answer,
                    "http_status": sent.http_status,
                    "duration_ns": sent.duration.map(|d| d.as_nanos() as u64),
                    "error": sent.error,
                    "resource_before": sent.resource_before,
                    "resource_after": sent.resource_after,
                }
            }),
            Pending::SentDraft {
                key,
                owner,
                from,
                sent_at,
            } => json!({
                "sent_draft": {
                    "base_url": key.base_url,
                    "kind": key.kind,
                    "subject": key.subject,
                    "owner": owner,
                    "from": from.map(|f| [f.row, f.revision]),
                    "sent_at": sent_at.to_rfc3339(),
                }
            }),
        }
    }

    fn from_json(value: &Value) -> Option<Pending> {
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
        let time = |v: &Value| {
            DateTime::parse_from_rfc3339(&text(v, "sent_at")?)
                .ok()
                .map(|t| t.with_timezone(&Utc))
        };
        if let Some(send) = value.get("send") {
            return Some(Pending::Send(Sent {
                sent_at: time(send)?,
                base_url: text(send, "base_url")?,
                kind: SendKind::parse(&text(send, "kind")?)?,
                body: text(send, "body")?,
                answer: text(send, "answer"),
                http_status: send
                    .get("http_status")
                    .and_then(Value::as_u64)
                    .and_then(|s| u16::try_from(s).ok()),
                duration: send
                    .get("duration_ns")
                    .and_then(Value::as_u64)
                    .map(Duration::from_nanos),
                error: text(send, "error"),
                resource_before: text(send, "resource_before"),
                resource_after: text(send, "resource_after"),
            }));
        }
        let draft = value.get("sent_draft")?;
        let from = draft.get("from").and_then(Value::as_array).and_then(|f| {
            Some(DraftRevision {
                row: f.first()?.as_i64()?,
                revision: f.get(1)?.as_i64()?,
            })
        });
        Some(Pending::SentDraft {
            key: DraftKey {
                base_url: text(draft, "base_url")?,
                kind: text(draft, "kind")?,
                subject: text(draft, "subject")?,
            },
            owner: text(draft, "owner"),
            from,
            sent_at: time(draft)?,
        })
    }
}

/// The entries of the pending file; `None` when there is none. A line that cannot be read
/// (cut by a crash mid-write) is skipped.
fn read_pending(path: &Path) -> Option<Vec<Pending>> {
    // Small by nature: a few entries, each a send's body and answer at most.
    let (bytes, _) = appdeck_core::bounded_read::file(path, 64 * 1024 * 1024).ok()?;
    Some(
        String::from_utf8_lossy(&bytes)
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter_map(|value| Pending::from_json(&value))
            .collect(),
    )
}

/// Leaves `entries` in the pending file, or removes it when there are none.
fn rewrite(path: &Path, entries: &[Pending]) -> std::io::Result<()> {
    if entries.is_empty() {
        return match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    for entry in entries {
        writeln!(temp, "{}", entry.to_json())?;
    }
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::HistoryQuery;
    use crate::test_support::full_disk;

    const ALL: HistoryQuery = HistoryQuery {
        kind: None,
        limit: 10,
    };

    fn sent() -> Sent {
        Sent {
            sent_at: Utc::now(),
            base_url: "http://service.example/api/v1".into(),
            kind: SendKind::Report,
            body: r#"{"task_id": "t-1"}"#.into(),
            answer: Some(r#"{"status": "ok"}"#.into()),
            http_status: Some(200),
            duration: Some(Duration::from_millis(7)),
            error: None,
            resource_before: None,
            resource_after: None,
        }
    }

    /// A send accepted while the store refuses writes: its record and its draft's removal are
    /// kept in a private file beside the store; meanwhile the draft is neither listed nor
    /// restored as unsent; once the store takes writes, the next open records and removes them.
    #[test]
    fn what_the_store_refused_is_kept_beside_it_until_it_takes_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(crate::FILE_NAME);
        let key = DraftKey::report("http://service.example/api/v1", Some("res_1"));
        let store = Store::open(&path).unwrap();
        store
            .save_draft(&key, ("window/1", None), "the report", Utc::now())
            .unwrap();
        full_disk(&path, true);
        assert!(store.record_send(&sent()).is_err(), "the history is full");
        assert!(store.remove_draft(&key, (Some("window/1"), None)).is_err());
        let sent_at = Utc::now();
        let kept = keep_pending(&path, &Pending::Send(sent())).unwrap();
        let draft = Pending::SentDraft {
            key: key.clone(),
            owner: Some("window/1".into()),
            from: None,
            sent_at,
        };
        assert_eq!(keep_pending(&path, &draft).unwrap(), kept);
        assert_eq!(kept, dir.path().join("appdeck.db.pending"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&kept).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }

        // Still full: a new window opens the store, nothing is applied, nothing offered unsent.
        let next = Store::open(&path).unwrap();
        assert!(next.drafts(&key.base_url).unwrap().is_empty(), "not listed");
        let restored = next.load_draft(&key).unwrap().expect("still stored");
        assert_eq!(restored.sent_at, Some(sent_at), "restored as sent");
        assert!(next.history(&ALL).unwrap().is_empty());
        assert!(kept.exists());

        full_disk(&path, false);
        let freed = Store::open(&path).unwrap();
        assert_eq!(freed.load_draft(&key).unwrap(), None, "removed");
        let history = freed.history(&ALL).unwrap();
        assert_eq!(history.len(), 1, "recorded");
        assert!(!kept.exists(), "nothing left pending");
    }
}
