//! The composer's drafts in the store, off the UI thread: one blocking task with its own store
//! connection takes the loads, saves and removals in the order they were asked for (so a removal
//! after a send is never overtaken by an earlier save), and answers on the loop's channel. It
//! starts on the first draft command and sleeps on its queue in between: no timer, no polling.
//! Each composer's draft is saved under its owner, this window's name and the composer's own
//! number, so two windows on one store never write over, nor remove, each other's.

use std::path::PathBuf;
use std::sync::mpsc::{Sender, channel};

use tokio::sync::mpsc::UnboundedSender;

use crate::app::{Action, DraftSlot, DraftSubject, Notice, RequestId, StoredDraft, UnsentDraft};
use crate::sanitize;
use crate::store::{DraftKey, DraftRevision, Store};

/// Where drafts go: the store's file and the base URL they are kept under.
#[derive(Clone, Debug)]
pub struct DraftPlace {
    pub store: PathBuf,
    /// The service's base URL; under `--demo`, `demo` (its port changes with every run, its
    /// resources do not).
    pub base_url: String,
}

enum Job {
    Load {
        id: RequestId,
        key: DraftKey,
    },
    Save {
        id: RequestId,
        key: DraftKey,
        owner: String,
        from: Option<DraftRevision>,
        body: String,
    },
    Remove {
        key: DraftKey,
        owner: Option<String>,
        from: Option<DraftRevision>,
    },
    List {
        id: RequestId,
        base_url: String,
    },
}

/// Hands draft jobs to the worker task, starting it on first use.
pub struct Drafts {
    place: Option<DraftPlace>,
    /// This window's name among those that share the store: its process and start time.
    window: String,
    results: UnboundedSender<Action>,
    jobs: Option<Sender<Job>>,
}

impl Drafts {
    pub fn new(place: Option<DraftPlace>, results: UnboundedSender<Action>) -> Self {
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        Drafts {
            place,
            window: format!("{}-{started}", std::process::id()),
            results,
            jobs: None,
        }
    }

    /// Keeps the drafts asked for from now on under `base_url` (after a `:profile` switch).
    /// Jobs already asked for keep the base URL they were asked under: each job carries its
    /// key, made when it was asked.
    pub fn follow(&mut self, base_url: &str) {
        if let Some(place) = &mut self.place {
            place.base_url = base_url.to_owned();
        }
    }

    pub fn load(&mut self, id: RequestId, subject: DraftSubject) {
        match self.key(subject) {
            Some(key) => self.send(Job::Load { id, key }),
            // No data directory: there is nothing to restore.
            None => {
                let _ = self.results.send(Action::DraftLoaded {
                    id,
                    result: Ok(None),
                });
            }
        }
    }

    pub fn save(&mut self, id: RequestId, slot: DraftSlot, body: String) {
        // A composer names itself with its first save's id: the same here if not yet.
        let owner = self.owner(slot.owner.unwrap_or(id.0));
        match self.key(slot.subject) {
            Some(key) => self.send(Job::Save {
                id,
                key,
                owner,
                from: slot.from,
                body,
            }),
            None => {
                let _ = self.results.send(Action::DraftSaved {
                    id,
                    result: Err("no data directory (set APPDECK_DATA_DIR)".to_owned()),
                });
            }
        }
    }

    pub fn remove(&mut self, slot: DraftSlot) {
        let owner = slot.owner.map(|n| self.owner(n));
        if let Some(key) = self.key(slot.subject) {
            let from = slot.from;
            self.send(Job::Remove { key, owner, from });
        }
    }

    /// The owner of a composer's drafts in the store: this window's, and the composer's number.
    fn owner(&self, composer: u64) -> String {
        format!("{}/{composer}", self.window)
    }

    /// Lists the drafts of this service, once the saves and removals asked for before are done.
    pub fn list(&mut self, id: RequestId) {
        match &self.place {
            Some(place) => {
                let base_url = place.base_url.clone();
                self.send(Job::List { id, base_url });
            }
            // No data directory: no drafts are kept (the history says why).
            None => {
                let _ = self.results.send(Action::DraftsListed {
                    id,
                    drafts: Ok(Vec::new()),
                });
            }
        }
    }

    fn key(&self, subject: DraftSubject) -> Option<DraftKey> {
        let place = self.place.as_ref()?;
        Some(DraftKey {
            base_url: place.base_url.clone(),
            kind: subject.kind,
            subject: subject.subject,
        })
    }

    fn send(&mut self, job: Job) {
        let Some(place) = &self.place else { return };
        let jobs = self.jobs.get_or_insert_with(|| {
            let (jobs, queue) = channel();
            let (path, results) = (place.store.clone(), self.results.clone());
            tokio::task::spawn_blocking(move || work(path, queue, results));
            jobs
        });
        if let Err(failed) = jobs.send(job) {
            // The worker ended (it panicked): start another for this job.
            self.jobs = None;
            self.send(failed.0);
        }
    }
}

/// The worker: opens the store on its first job (and again after a failure), runs every job
/// in order, and ends when the loop is gone.
fn work(path: PathBuf, queue: std::sync::mpsc::Receiver<Job>, results: UnboundedSender<Action>) {
    let mut store: Option<Store> = None;
    let error = |e: &dyn std::fmt::Display| sanitize::line(&e.to_string()).into_owned();
    for job in queue {
        let mut failed_open = None;
        if store.is_none() {
            match Store::open(&path) {
                Ok(opened) => store = Some(opened),
                Err(e) => failed_open = Some(error(&e)),
            }
        }
        let opened = store
            .as_ref()
            .ok_or_else(|| failed_open.unwrap_or_default());
        let action = match job {
            Job::Load { id, key } => Action::DraftLoaded {
                id,
                result: opened.and_then(|store| {
                    let draft = store.load_draft(&key).map_err(|e| error(&e))?;
                    Ok(draft.map(|d| StoredDraft {
                        revision: d.revision,
                        body: d.body,
                        age: (chrono::Utc::now() - d.updated_at)
                            .to_std()
                            .unwrap_or_default(),
                    }))
                }),
            },
            Job::Save {
                id,
                key,
                owner,
                from,
                body,
            } => Action::DraftSaved {
                id,
                result: opened.and_then(|store| {
                    store
                        .save_draft(&key, (&owner, from), &body, chrono::Utc::now())
                        .map_err(|e| error(&e))
                }),
            },
            Job::List { id, base_url } => Action::DraftsListed {
                id,
                drafts: opened.and_then(|store| {
                    let now = chrono::Utc::now();
                    let drafts = store.drafts(&base_url).map_err(|e| error(&e))?;
                    Ok(drafts
                        .into_iter()
                        .map(|d| UnsentDraft {
                            subject: DraftSubject {
                                kind: d.key.kind,
                                subject: d.key.subject,
                            },
                            revision: d.revision,
                            body: d.body,
                            saved_at: d.updated_at,
                            age: (now - d.updated_at).to_std().unwrap_or_default(),
                        })
                        .collect())
                }),
            },
            Job::Remove { key, owner, from } => {
                let removed = opened.and_then(|store| {
                    store
                        .remove_draft(&key, (owner.as_deref(), from))
                        .map_err(|e| error(&e))
                });
                match removed {
                    Ok(_) => continue,
                    Err(e) => Action::Notice(Notice::Error(format!(
                        "the sent report's draft could not be removed: {e}"
                    ))),
                }
            }
        };
        if results.send(action).is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_made_before_following_keeps_the_old_base_url() {
        let (results, _rx) = tokio::sync::mpsc::unbounded_channel();
        let mut drafts = Drafts::new(
            Some(DraftPlace {
                store: "unused.db".into(),
                base_url: "https://dev.example/api/v1".into(),
            }),
            results,
        );
        let subject = || DraftSubject {
            kind: "report".into(),
            subject: "res_1".into(),
        };
        let before = drafts.key(subject()).unwrap();
        drafts.follow("https://prod.example/api/v1");
        let after = drafts.key(subject()).unwrap();
        assert_eq!(before.base_url, "https://dev.example/api/v1");
        assert_eq!(after.base_url, "https://prod.example/api/v1");
    }
}
