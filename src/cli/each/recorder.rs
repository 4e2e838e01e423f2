//! Recording the sends of `report --each` in the history, on a thread of its own: each commit
//! waits for the disk, so the thread takes every send waiting when it is free and commits them
//! together (a group commit). Under load a commit holds hundreds; one at a time, each its own.
//! Nothing is held back on a timer: a send is waiting only while the one commit before it runs.

use std::sync::mpsc;
use std::thread::JoinHandle;

use crate::store::{Sent, Store};

/// The most sends one transaction holds.
const BATCH: usize = 1000;

/// What the recording thread did.
#[derive(Debug, Default)]
pub struct Tally {
    pub recorded: u64,
    pub lost: u64,
    /// The first error, when a batch could not be recorded.
    pub first_error: Option<String>,
}

/// The sender to the recording thread and the thread; none without a store.
pub struct Recorder(Option<(mpsc::Sender<Sent>, JoinHandle<Tally>)>);

impl Recorder {
    /// Records into `store`; with none (it could not be opened, as was said), records nothing.
    pub fn start(store: Option<Store>) -> Recorder {
        let Some(mut store) = store else {
            return Recorder(None);
        };
        let (tx, rx) = mpsc::channel::<Sent>();
        let thread = std::thread::spawn(move || {
            let mut tally = Tally::default();
            while let Ok(first) = rx.recv() {
                let mut batch = vec![first];
                batch.extend(rx.try_iter().take(BATCH - 1));
                match store.record_sends(&batch) {
                    Ok(()) => tally.recorded += batch.len() as u64,
                    Err(e) => {
                        tally.lost += batch.len() as u64;
                        tally.first_error.get_or_insert_with(|| e.to_string());
                    }
                }
            }
            tally
        });
        Recorder(Some((tx, thread)))
    }

    pub fn record(&self, sent: Sent) {
        if let Some((tx, _)) = &self.0 {
            // The thread ends only when this sender is dropped.
            let _ = tx.send(sent);
        }
    }

    /// Waits until every send handed over is committed (or failed), and says what happened;
    /// `None` when there was no store.
    pub fn finish(self) -> Option<Tally> {
        let (tx, thread) = self.0?;
        drop(tx);
        Some(thread.join().unwrap_or_else(|_| Tally {
            first_error: Some("the recording thread failed".to_owned()),
            ..Tally::default()
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{HistoryQuery, SendKind};

    #[test]
    fn every_send_handed_over_is_recorded_by_finish() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("appdeck.db");
        let recorder = Recorder::start(Some(Store::open(&path).unwrap()));
        for i in 0..2500 {
            recorder.record(Sent {
                sent_at: chrono::Utc::now(),
                base_url: "http://127.0.0.1:9/api/v1".into(),
                kind: SendKind::Report,
                body: format!(r#"{{"task_id":"t{i}"}}"#),
                answer: None,
                http_status: None,
                duration: None,
                error: None,
                resource_before: None,
                resource_after: None,
            });
        }
        let tally = recorder.finish().unwrap();
        assert_eq!((tally.recorded, tally.lost), (2500, 0));
        let store = Store::open(&path).unwrap();
        let query = HistoryQuery {
            kind: None,
            limit: usize::MAX,
        };
        assert_eq!(store.history(&query).unwrap().len(), 2500);
        assert!(Recorder::start(None).finish().is_none());
    }
}
