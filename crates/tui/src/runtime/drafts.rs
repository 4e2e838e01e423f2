//! The composer's drafts in the store, off the UI thread: one blocking task with its own store
//! connection takes the loads, saves and removals in the order they were asked for (so a removal
//! after a send is never overtaken by an earlier save), and answers on the loop's channel. It
//! starts on the first draft command and sleeps on its queue in between: no timer, no polling.
//! Each composer's draft is saved under its owner, this window's name and the composer's own
//! number, so two windows on one store never write over, nor remove, each other's.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Sender, channel};

use tokio::sync::mpsc::UnboundedSender;

use crate::app::{
    Action, Delivery, DraftSlot, DraftSubject, Notice, RequestId, StoredDraft, UnsentDraft,
};
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
    Remove(Removal),
    /// Saves the text about to be sent, marked as being sent; `gate` lets the send go.
    MarkSending {
        key: DraftKey,
        owner: String,
        from: Option<DraftRevision>,
        body: String,
        gate: Option<Gate>,
    },
    List {
        id: RequestId,
        base_url: String,
    },
}

/// What lets a send go (`Ok`), or holds it back and says why (see [`Worker::mark_sending`]).
pub(crate) type Gate = tokio::sync::oneshot::Sender<Result<(), String>>;

/// Hands draft jobs to the worker task, starting it on first use.
pub(crate) struct Drafts {
    place: Option<DraftPlace>,
    /// This window's name among those that share the store: its process and start time.
    window: String,
    results: UnboundedSender<Action>,
    jobs: Option<Sender<Job>>,
}

impl Drafts {
    pub(crate) fn new(place: Option<DraftPlace>, results: UnboundedSender<Action>) -> Self {
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

    /// The directory of the store the drafts go to (`None` without a data directory).
    pub(crate) fn dir(&self) -> Option<PathBuf> {
        let store = &self.place.as_ref()?.store;
        store.parent().map(Path::to_path_buf)
    }

    /// Keeps the drafts asked for from now on under `base_url` (after a `:profile` switch).
    /// Jobs already asked for keep the base URL they were asked under: each job carries its
    /// key, made when it was asked.
    pub(crate) fn follow(&mut self, base_url: &str) {
        if let Some(place) = &mut self.place {
            place.base_url = base_url.to_owned();
        }
    }

    pub(crate) fn load(&mut self, id: RequestId, subject: DraftSubject) {
        match self.key(subject) {
            Some(key) => self.send(Job::Load { id, key }),
            // No data directory: there is nothing to restore.
            None => {
                let _ = self
                    .results
                    .send(Action::reply(id, Delivery::DraftLoaded(Ok(None))));
            }
        }
    }

    pub(crate) fn save(&mut self, id: RequestId, slot: DraftSlot, body: String) {
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
                let unsaved = Err("no data directory (set APPDECK_DATA_DIR)".to_owned());
                let _ = self
                    .results
                    .send(Action::reply(id, Delivery::DraftSaved(unsaved)));
            }
        }
    }

    /// Saves a composer's text as it goes out, marked as being sent: should this window end
    /// before the answer is recorded, the draft is never offered again as unsent. The send
    /// waits on `gate` for the mark (with no data directory there is nothing to mark).
    pub(crate) fn sending(&mut self, slot: DraftSlot, body: String, gate: Option<Gate>) {
        let (Some(composer), Some(key)) = (slot.owner, self.key(slot.subject.clone())) else {
            if let Some(gate) = gate {
                let _ = gate.send(Ok(()));
            }
            return;
        };
        let owner = self.owner(composer);
        self.send(Job::MarkSending {
            key,
            owner,
            from: slot.from,
            body,
            gate,
        });
    }

    /// Removes a composer's draft: discarded, or (`sent`) sent and accepted.
    pub(crate) fn remove(&mut self, slot: DraftSlot, sent: bool) {
        let owner = slot.owner.map(|n| self.owner(n));
        if let Some(key) = self.key(slot.subject) {
            let sent = sent.then(chrono::Utc::now);
            let from = slot.from;
            self.send(Job::Remove(Removal {
                key,
                owner,
                from,
                sent,
            }));
        }
    }

    /// The owner of a composer's drafts in the store: this window's, and the composer's number.
    fn owner(&self, composer: u64) -> String {
        format!("{}/{composer}", self.window)
    }

    /// Lists the drafts of this service, once the saves and removals asked for before are done.
    pub(crate) fn list(&mut self, id: RequestId) {
        match &self.place {
            Some(place) => {
                let base_url = place.base_url.clone();
                self.send(Job::List { id, base_url });
            }
            // No data directory: no drafts are kept (the history says why).
            None => {
                let _ = self
                    .results
                    .send(Action::reply(id, Delivery::Drafts(Ok(Vec::new()))));
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

/// The removal of one composer's draft.
#[derive(Clone, Debug)]
struct Removal {
    key: DraftKey,
    owner: Option<String>,
    from: Option<DraftRevision>,
    /// When it was sent and accepted; `None` when it was discarded.
    sent: Option<chrono::DateTime<chrono::Utc>>,
}

impl Removal {
    /// Whether `draft` is the one this removes: the composer's own, or the one it went on from
    /// as it was then.
    fn covers(&self, draft: &crate::store::Draft) -> bool {
        draft.key.kind == self.key.kind
            && draft.key.subject == self.key.subject
            && (self.owner.as_deref() == Some(draft.owner.as_str())
                || self.from == Some(draft.revision))
    }
}

/// The worker: opens the store on its first job (and again after a failure), runs every job
/// in order, and ends when the loop is gone.
fn work(path: PathBuf, queue: std::sync::mpsc::Receiver<Job>, results: UnboundedSender<Action>) {
    let mut worker = Worker::new(path);
    for job in queue {
        let Some(action) = worker.run(job) else {
            continue;
        };
        if results.send(action).is_err() {
            return;
        }
    }
}

/// The worker's state: its store connection, and the drafts sent but not removed.
struct Worker {
    path: PathBuf,
    store: Option<Store>,
    /// Removals of sent drafts the store did not take (a full disk): tried again when the draft
    /// is looked up, and meanwhile it comes back marked as sent, never as unsent, nor listed.
    sent_not_removed: Vec<Removal>,
    /// The composers whose last send was held back because the store could not mark it: their
    /// next send goes out unmarked (the user, told, chose so); a mark taken or a save clears it.
    held_back: std::collections::HashSet<String>,
}

fn error(e: &dyn std::fmt::Display) -> String {
    sanitize::line(&e.to_string()).into_owned()
}

impl Worker {
    fn new(path: PathBuf) -> Self {
        Worker {
            path,
            store: None,
            sent_not_removed: Vec::new(),
            held_back: std::collections::HashSet::new(),
        }
    }

    /// The store, opened if it is not yet.
    fn store(&mut self) -> Result<&Store, String> {
        let store = match self.store.take() {
            Some(store) => store,
            None => Store::open(&self.path).map_err(|e| error(&e))?,
        };
        Ok(self.store.insert(store))
    }

    /// Runs one job; what to tell the loop, if anything. What earlier sends could not record
    /// is recorded first, should the store take writes again.
    fn run(&mut self, job: Job) -> Option<Action> {
        if crate::store::pending_path(&self.path).exists()
            && let Ok(store) = self.store()
        {
            let _ = store.apply_pending();
        }
        Some(match job {
            Job::Load { id, key } => Action::reply(id, Delivery::DraftLoaded(self.load(&key))),
            Job::Save {
                id,
                key,
                owner,
                from,
                body,
            } => {
                self.held_back.remove(&owner);
                let saved = self.store().and_then(|store| {
                    store
                        .save_draft(&key, (&owner, from), &body, chrono::Utc::now())
                        .map_err(|e| error(&e))
                });
                Action::reply(id, Delivery::DraftSaved(saved))
            }
            Job::MarkSending {
                key,
                owner,
                from,
                body,
                gate,
            } => return self.mark_sending(&key, owner, from, &body, gate),
            Job::List { id, base_url } => Action::reply(id, Delivery::Drafts(self.list(&base_url))),
            Job::Remove(removal) => {
                let failed = self.remove(&removal).err()?;
                if let Some(sent_at) = removal.sent {
                    // Kept beside the store too, for the next window, which removes it once the
                    // store takes writes; until then no window offers it as unsent.
                    let kept = crate::store::keep_pending(
                        &self.path,
                        &crate::store::Pending::SentDraft {
                            key: removal.key.clone(),
                            owner: removal.owner.clone(),
                            from: removal.from,
                            sent_at,
                        },
                    );
                    self.sent_not_removed.push(removal);
                    let kept = match kept {
                        Ok(path) => format!(
                            "kept as sent in {} until the store takes writes again",
                            path.display()
                        ),
                        Err(e) => format!("this window will not offer it as unsent ({e})"),
                    };
                    return Some(Action::Notice(Notice::Error(format!(
                        "the sent draft could not be removed ({failed}); {kept}"
                    ))));
                }
                Action::Notice(Notice::Error(format!(
                    "the draft could not be removed: {failed}"
                )))
            }
        })
    }

    /// Marks a draft as being sent before its send goes out. When the store cannot take the
    /// mark, a send waiting on `gate` is held back, saying why: the user chooses, and their next
    /// send goes out unmarked (said once more then). A send with no gate has gone already.
    fn mark_sending(
        &mut self,
        key: &DraftKey,
        owner: String,
        from: Option<DraftRevision>,
        body: &str,
        gate: Option<Gate>,
    ) -> Option<Action> {
        let marked = self.store().and_then(|store| {
            store
                .save_draft_sending(key, (&owner, from), body, chrono::Utc::now())
                .map_err(|e| error(&e))
        });
        let failed = match marked {
            Ok(()) => {
                self.held_back.remove(&owner);
                if let Some(gate) = gate {
                    let _ = gate.send(Ok(()));
                }
                return None;
            }
            Err(failed) => failed,
        };
        if let Some(gate) = gate {
            if self.held_back.insert(owner.clone()) {
                let _ = gate.send(Err(format!(
                    "the store cannot mark the draft as being sent ({failed}), and a send not \
                     marked could be offered again as unsent should this window end before its \
                     answer is recorded; Enter sends it all the same, Esc goes back"
                )));
                return None;
            }
            self.held_back.remove(&owner);
            let _ = gate.send(Ok(()));
        }
        Some(Action::Notice(Notice::Error(format!(
            "sent without the draft's mark ({failed}): should this window end before the answer \
             is recorded, it will be offered again as unsent"
        ))))
    }

    fn remove(&mut self, removal: &Removal) -> Result<bool, String> {
        let owner = (removal.owner.as_deref(), removal.from);
        let store = self.store()?;
        store
            .remove_draft(&removal.key, owner)
            .map_err(|e| error(&e))
    }

    /// The newest draft of `key`. One that was sent but could not be removed then is removed
    /// now if the store takes it (and the next one looked at), else it comes back marked sent.
    fn load(&mut self, key: &DraftKey) -> Result<Option<StoredDraft>, String> {
        loop {
            let Some(draft) = self.store()?.load_draft(key).map_err(|e| error(&e))? else {
                return Ok(None);
            };
            let now = chrono::Utc::now();
            let ago = |at: chrono::DateTime<chrono::Utc>| (now - at).to_std().unwrap_or_default();
            let sent = self.sent_not_removed.iter().position(|r| r.covers(&draft));
            let sent_at = match sent {
                Some(at) => {
                    let removal = self.sent_not_removed[at].clone();
                    if self.remove(&removal).unwrap_or(false) {
                        self.sent_not_removed.remove(at);
                        continue;
                    }
                    removal.sent
                }
                // A send began and no answer was recorded: it may have reached the service.
                None => draft.sent_at,
            };
            return Ok(Some(StoredDraft {
                revision: draft.revision,
                body: draft.body,
                age: ago(draft.updated_at),
                sent: sent_at.map(ago),
            }));
        }
    }

    /// The drafts of `base_url` not sent: one sent whose removal the store did not take, or
    /// whose send began with no answer recorded, is not among them.
    fn list(&mut self, base_url: &str) -> Result<Vec<UnsentDraft>, String> {
        let drafts = self.store()?.drafts(base_url).map_err(|e| error(&e))?;
        let now = chrono::Utc::now();
        Ok(drafts
            .into_iter()
            .filter(|d| d.sent_at.is_none() && !self.sent_not_removed.iter().any(|r| r.covers(d)))
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
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    /// A sent draft the store could not remove (its disk full, the history not recorded
    /// either) never comes back as unsent in this window: looked up, it says when it was sent,
    /// and it is not listed; once the store takes writes again, the next look-up removes it.
    #[test]
    fn a_sent_draft_the_store_could_not_remove_never_comes_back_as_unsent() {
        use crate::store::test_support::full_disk;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(crate::store::FILE_NAME);
        let key = DraftKey::report("http://service.example/api/v1", Some("res_1"));
        let owner = "window/1".to_owned();
        let store = Store::open(&path).unwrap();
        store
            .save_draft(&key, (&owner, None), "the report", chrono::Utc::now())
            .unwrap();
        let history = crate::store::Sent {
            sent_at: chrono::Utc::now(),
            base_url: key.base_url.clone(),
            kind: crate::store::SendKind::Report,
            body: "{}".into(),
            answer: Some(r#"{"status": "ok"}"#.into()),
            http_status: Some(200),
            duration: Some(Duration::from_millis(5)),
            error: None,
            resource_before: None,
            resource_after: None,
        };
        let mut worker = Worker::new(path.clone());
        full_disk(&path, true);
        assert!(store.record_send(&history).is_err(), "the history is full");
        let sent = chrono::Utc::now() - chrono::Duration::minutes(3);
        let said = worker.run(Job::Remove(Removal {
            key: key.clone(),
            owner: Some(owner),
            from: None,
            sent: Some(sent),
        }));
        assert!(
            matches!(&said, Some(Action::Notice(Notice::Error(e))) if e.contains("full")),
            "{said:?}"
        );
        let load = |worker: &mut Worker| {
            worker.run(Job::Load {
                id: RequestId(1),
                key: key.clone(),
            })
        };
        let Some(Action::Reply {
            delivery: Delivery::DraftLoaded(Ok(Some(draft))),
            ..
        }) = load(&mut worker)
        else {
            panic!("the draft is still in the store");
        };
        assert!(
            draft
                .sent
                .is_some_and(|ago| ago >= Duration::from_secs(179)),
            "{draft:?}"
        );
        let listed = worker.run(Job::List {
            id: RequestId(2),
            base_url: key.base_url.clone(),
        });
        assert!(
            matches!(&listed, Some(Action::Reply { delivery: Delivery::Drafts(Ok(d)), .. }) if d.is_empty()),
            "not listed as unsent: {listed:?}"
        );
        full_disk(&path, false);
        assert!(matches!(
            load(&mut worker),
            Some(Action::Reply {
                delivery: Delivery::DraftLoaded(Ok(None)),
                ..
            })
        ));
        assert_eq!(store.load_draft(&key).unwrap(), None, "removed at last");
    }

    /// A draft is saved marked as being sent before its send goes out. Should the store then
    /// refuse its removal (a full disk) and the window end, the next window (a new worker)
    /// restores it saying when it was sent and never lists it as unsent; once space is freed, the
    /// removal kept beside the store is made. A draft only marked (its answer never recorded)
    /// is restored as sent too, until a save (the text edited again) clears the mark.
    #[test]
    fn a_draft_marked_as_being_sent_is_never_offered_as_unsent_after_a_restart() {
        use crate::store::test_support::full_disk;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(crate::store::FILE_NAME);
        let key = DraftKey::report("http://service.example/api/v1", Some("res_1"));
        let owner = "window/1".to_owned();
        let mut window = Worker::new(path.clone());
        let save = |worker: &mut Worker, body: &str| {
            worker.run(Job::Save {
                id: RequestId(1),
                key: key.clone(),
                owner: owner.clone(),
                from: None,
                body: body.to_owned(),
            })
        };
        save(&mut window, "typed");
        let marked = window.run(Job::MarkSending {
            key: key.clone(),
            owner: owner.clone(),
            from: None,
            body: "as sent".to_owned(),
            gate: None,
        });
        assert!(marked.is_none(), "marked without a word: {marked:?}");
        full_disk(&path, true);
        let refused = window.run(Job::Remove(Removal {
            key: key.clone(),
            owner: Some(owner.clone()),
            from: None,
            sent: Some(chrono::Utc::now()),
        }));
        assert!(refused.is_some(), "the removal was refused");
        drop(window);
        let restored = |worker: &mut Worker| match worker.run(Job::Load {
            id: RequestId(2),
            key: key.clone(),
        }) {
            Some(Action::Reply {
                delivery: Delivery::DraftLoaded(Ok(Some(draft))),
                ..
            }) => draft,
            other => panic!("the draft is still there: {other:?}"),
        };
        let listed = |worker: &mut Worker| match worker.run(Job::List {
            id: RequestId(3),
            base_url: key.base_url.clone(),
        }) {
            Some(Action::Reply {
                delivery: Delivery::Drafts(Ok(d)),
                ..
            }) => d.len(),
            other => panic!("{other:?}"),
        };
        let mut next_window = Worker::new(path.clone());
        let draft = restored(&mut next_window);
        assert_eq!(draft.body, "as sent");
        assert!(draft.sent.is_some(), "says it was sent: {draft:?}");
        assert_eq!(listed(&mut next_window), 0, "not listed as unsent");
        // Space freed: the removal kept beside the store is made by the next window's first job.
        full_disk(&path, false);
        let mut next_window = Worker::new(path.clone());
        assert_eq!(listed(&mut next_window), 0);
        assert_eq!(Store::open(&path).unwrap().load_draft(&key).unwrap(), None);
        assert!(!crate::store::pending_path(&path).exists());

        // A send whose answer was never recorded (the window ended): marked, so restored as
        // sent; a save (the text edited again) clears the mark.
        save(&mut next_window, "typed again");
        next_window.run(Job::MarkSending {
            key: key.clone(),
            owner: owner.clone(),
            from: None,
            body: "as sent".to_owned(),
            gate: None,
        });
        drop(next_window);
        let mut last_window = Worker::new(path.clone());
        assert!(restored(&mut last_window).sent.is_some());
        assert_eq!(listed(&mut last_window), 0, "not listed as unsent");
        save(&mut last_window, "edited since");
        assert!(restored(&mut last_window).sent.is_none());
        assert_eq!(listed(&mut last_window), 1);
    }

    /// The store cannot mark the draft as being sent: its send is held back, saying why; the
    /// same composer's next send (the user, told, chose to send) goes out, said once more; a
    /// mark the store takes lets the send go at once, and the draft says it was sent.
    #[test]
    fn a_send_whose_mark_the_store_refuses_is_held_back_until_sent_again() {
        use crate::store::test_support::full_drafts;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(crate::store::FILE_NAME);
        let key = DraftKey::report("http://service.example/api/v1", Some("res_1"));
        let owner = "window/1".to_owned();
        let mut window = Worker::new(path.clone());
        window.run(Job::Save {
            id: RequestId(1),
            key: key.clone(),
            owner: owner.clone(),
            from: None,
            body: "typed".to_owned(),
        });
        let send = |window: &mut Worker| {
            let (gate, mut told) = tokio::sync::oneshot::channel();
            let said = window.run(Job::MarkSending {
                key: key.clone(),
                owner: owner.clone(),
                from: None,
                body: "as sent".to_owned(),
                gate: Some(gate),
            });
            (told.try_recv().expect("the gate is answered at once"), said)
        };
        full_drafts(&path, true);
        let (held, said) = send(&mut window);
        let why = held.expect_err("held back");
        assert!(
            why.contains("disk is full") && why.contains("Enter sends it"),
            "{why}"
        );
        assert!(said.is_none(), "the composer says it: {said:?}");
        let (went, said) = send(&mut window);
        assert_eq!(went, Ok(()), "sent when the user sends again");
        assert!(
            matches!(&said, Some(Action::Notice(Notice::Error(e))) if e.contains("without the draft's mark")),
            "{said:?}"
        );
        assert!(
            send(&mut window).0.is_err(),
            "the next send is asked about anew"
        );
        full_drafts(&path, false);
        let (went, said) = send(&mut window);
        assert_eq!((went, said.is_none()), (Ok(()), true));
        let stored = Store::open(&path)
            .unwrap()
            .load_draft(&key)
            .unwrap()
            .unwrap();
        assert!(stored.sent_at.is_some(), "marked as being sent");
    }

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
