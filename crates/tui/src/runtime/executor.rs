//! Runs the app's commands: API calls (any operation: a page, a report, a connect) on background
//! tasks that hold a clone of the one client, each answering with an [`Action::Reply`] on the
//! loop's channel; the panes' jobs (whatever they are), file reads and the store (the history of
//! sends, each task with a connection of its own) run on blocking tasks. Nothing here touches
//! app state, nor knows any pane.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use futures_util::FutureExt;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::AbortHandle;

use crate::api::{ApiError, Client, Exchange};
use crate::app::job::{Progress, Work};
use crate::app::{Action, ApiCall, Delivery, OpenAs, RequestId};
use crate::bounded_read::{self, MAX_PAYLOAD_BYTES};
use crate::store::{HistoryQuery, Sent, Store};

pub(crate) struct Executor {
    client: Client,
    results: UnboundedSender<Action>,
    in_flight: HashMap<RequestId, AbortHandle>,
    /// The jobs running, each with the flag that asks it to stop.
    jobs: HashMap<RequestId, Arc<AtomicBool>>,
    /// API tasks that still exist, however they end (see [`TaskAlive`]).
    alive: Arc<AtomicUsize>,
    /// Where the known types come from (see [`Self::know_types`]).
    type_sources: Arc<super::known_types::TypeSources>,
    /// The store's file, for the history of sends; `None` when there is no data directory.
    store_path: Option<Arc<PathBuf>>,
    /// The `:columns` saves, written in the order asked for.
    columns: super::columns_keeper::ColumnsKeeper,
}

impl Executor {
    pub(crate) fn new(client: Client, results: UnboundedSender<Action>) -> Self {
        Executor {
            client,
            results,
            in_flight: HashMap::new(),
            jobs: HashMap::new(),
            alive: Arc::default(),
            type_sources: Arc::default(),
            store_path: None,
            columns: Default::default(),
        }
    }

    /// Talks to another service from now on (`:profile`); requests in flight were cancelled.
    pub(crate) fn set_client(&mut self, client: Client) {
        self.client = client;
    }

    /// Sets the store the history of sends is kept in.
    pub(crate) fn keep_history(&mut self, store_path: Option<PathBuf>) {
        self.store_path = store_path.map(Arc::new);
    }

    /// Records a send in the history on a blocking task, with a connection of its own.
    pub(crate) fn record_send(&self, id: RequestId, mut sent: Box<Sent>) {
        let (results, path) = (self.results.clone(), self.store_path.clone());
        // The answer has just arrived: it was sent the time it took ago.
        let took = sent.duration.unwrap_or_default();
        sent.sent_at = chrono::Utc::now() - chrono::Duration::from_std(took).unwrap_or_default();
        tokio::task::spawn_blocking(move || {
            let result = match &path {
                Some(path) => Store::open(path)
                    .and_then(|store| store.record_send(&sent))
                    .map(drop)
                    .map_err(|e| keep_aside(path, *sent, &e)),
                None => Err("no data directory for the local store (set APPDECK_DATA_DIR)".into()),
            };
            if let Err(problem) = &result {
                tracing::warn!("a send was not recorded in the history: {problem}");
            }
            let _ = results.send(Action::reply(id, Delivery::SendRecorded(result)));
        });
    }

    /// Reads the newest sends of the history on a blocking task, with a connection of its own
    /// (opening it records what earlier sends could not: see [`crate::store::Pending`]).
    pub(crate) fn load_history(&self, id: RequestId, limit: usize) {
        let (results, path) = (self.results.clone(), self.store_path.clone());
        tokio::task::spawn_blocking(move || {
            let query = HistoryQuery { kind: None, limit };
            let entries = match &path {
                Some(path) => Store::open(path)
                    .and_then(|store| store.history(&query))
                    .map_err(|e| e.to_string()),
                None => Err("no data directory for the local store (set APPDECK_DATA_DIR)".into()),
            };
            let _ = results.send(Action::reply(id, Delivery::History(Box::new(entries))));
        });
    }

    /// Reads the reports sent to this client's service about one resource, like
    /// [`Executor::load_history`].
    pub(crate) fn load_reports_about(&self, id: RequestId, resource_id: String, limit: usize) {
        let (results, path) = (self.results.clone(), self.store_path.clone());
        let base_url = self.client.base_url().to_owned();
        tokio::task::spawn_blocking(move || {
            let entries = match &path {
                Some(path) => Store::open(path)
                    .and_then(|store| store.reports_about(&base_url, &resource_id, limit))
                    .map_err(|e| e.to_string()),
                None => Err("no data directory for the local store (set APPDECK_DATA_DIR)".into()),
            };
            let _ = results.send(Action::reply(id, Delivery::History(Box::new(entries))));
        });
    }

    /// Reads the columns kept for a type on a blocking task; a store that cannot be read keeps
    /// none (the table's own columns show, and the log says why).
    pub(crate) fn load_columns(&self, id: RequestId, type_key: String) {
        let (results, path) = (self.results.clone(), self.store_path.clone());
        tokio::task::spawn_blocking(move || {
            let spec = path.and_then(|path| {
                Store::open(&path)
                    .and_then(|store| store.list_columns(&type_key))
                    .inspect_err(|e| tracing::warn!("the list's columns were not read: {e}"))
                    .ok()
                    .flatten()
            });
            let _ = results.send(Action::reply(id, Delivery::Columns(spec)));
        });
    }

    /// Keeps the columns chosen for a type, after those chosen before (one queue); a failure
    /// is logged (the columns stay for this run).
    pub(crate) fn save_columns(&mut self, type_key: String, spec: String) {
        if let Some(path) = self.store_path.clone() {
            self.columns.save(path, type_key, spec);
        }
    }

    /// Writes the list's rows' JSON gathered in memory to its spill file on a blocking thread
    /// (the UI thread appending meanwhile waits at most for that write).
    pub(crate) fn write_bodies(&self, bodies: appdeck_listing::Bodies) {
        tokio::task::spawn_blocking(move || bodies.write_due());
    }

    /// Sets where [`Command::LoadTypes`](crate::app::Command::LoadTypes) looks for types.
    pub(crate) fn know_types(&mut self, sources: super::known_types::TypeSources) {
        self.type_sources = Arc::new(sources);
    }

    /// Loads the known types off the UI thread (the store is opened there, never on the loop).
    pub(crate) fn load_types(&self, id: RequestId) {
        let (results, sources) = (self.results.clone(), self.type_sources.clone());
        tokio::task::spawn_blocking(move || {
            let types = Arc::new(super::known_types::load(&sources));
            let _ = results.send(Action::reply(id, Delivery::Types(types)));
        });
    }

    pub(crate) fn call(&mut self, id: RequestId, call: ApiCall) {
        self.call_after(id, call, None);
    }

    /// Makes the call once `gate` says it may go (a send waits for its draft's mark); when the
    /// gate says why not, nothing goes out and the answer is [`ApiError::NotSent`]. A gate
    /// dropped unanswered lets it go, as a send went before there were gates.
    pub(crate) fn call_after(
        &mut self,
        id: RequestId,
        call: ApiCall,
        gate: Option<tokio::sync::oneshot::Receiver<Result<(), String>>>,
    ) {
        let client = self.client.clone();
        let results = self.results.clone();
        let alive = TaskAlive::new(&self.alive);
        let task = tokio::spawn(async move {
            let _alive = alive;
            if let Some(gate) = gate
                && let Ok(Err(why)) = gate.await
            {
                let held = Exchange::local(Err(ApiError::NotSent(why)));
                let _ = results.send(Action::reply(id, Box::new(held)));
                return;
            }
            // A bug while reading an answer must still answer, or the pane would say "loading"
            // for ever; the panic itself is in the log.
            let reply = AssertUnwindSafe(client.exchange(call.operation, &call.body))
                .catch_unwind()
                .await
                .unwrap_or_else(|_| Exchange::local(Err(internal_error())));
            // The loop may be gone (the user quit): nothing to tell then.
            let _ = results.send(Action::reply(id, Box::new(reply)));
        });
        self.in_flight.insert(id, task.abort_handle());
    }

    /// A reply to `id` arrived: forget its task, unless the reply is a job's progress (the job
    /// runs on, and can still be cancelled).
    pub(crate) fn replied(&mut self, id: RequestId, delivery: &Delivery) {
        if delivery.ends_request() {
            self.in_flight.remove(&id);
            self.jobs.remove(&id);
        }
    }

    pub(crate) fn cancel(&mut self, id: RequestId) {
        if let Some(task) = self.in_flight.remove(&id) {
            task.abort();
        }
        if let Some(stop) = self.jobs.remove(&id) {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Runs a pane's job off the UI thread; its progress and answer go back to the pane that
    /// asked.
    pub(crate) fn run(&mut self, id: RequestId, job: Work) {
        let results = self.results.clone();
        let stop = Arc::new(AtomicBool::new(false));
        self.jobs.insert(id, stop.clone());
        let progress = Progress::new(
            move |done, total| {
                let _ = results.send(Action::reply(id, Delivery::Progress { done, total }));
            },
            stop,
        );
        let results = self.results.clone();
        tokio::task::spawn_blocking(move || {
            let _ = results.send(Action::reply(id, Delivery::Job(job.run_with(&progress))));
        });
    }

    /// Reads a file the user named (`:report PATH`, `:connect PATH`) off the UI thread, bounded
    /// like every file the user names (a FIFO would hold a blocking thread for ever).
    pub(crate) fn read_file(&self, id: RequestId, path: String, opens: OpenAs) {
        let results = self.results.clone();
        tokio::task::spawn_blocking(move || {
            let text = bounded_read::file(Path::new(&path), MAX_PAYLOAD_BYTES)
                .map_err(|e| e.to_string())
                .and_then(|(bytes, _)| String::from_utf8(bytes).map_err(|e| e.to_string()));
            let _ = results.send(Action::reply(id, Delivery::FileRead { path, opens, text }));
        });
    }

    /// Records a connect the service accepted as a known app version, like `appdeck connect`
    /// does; its time is stamped here (`update` reads no clock).
    pub(crate) fn record_app_version(
        &self,
        id: RequestId,
        base_url: String,
        payload: Box<serde_json::Value>,
    ) {
        let (results, path) = (self.results.clone(), self.store_path.clone());
        let at = chrono::Utc::now();
        tokio::task::spawn_blocking(move || {
            let result = match &path {
                Some(path) => Store::open(path)
                    .and_then(|store| store.record_connect(&base_url, &payload, None, at))
                    .map_err(|e| e.to_string()),
                None => Err("no data directory for the local store (set APPDECK_DATA_DIR)".into()),
            };
            if let Err(problem) = &result {
                tracing::warn!("a connect was not recorded as a known version: {problem}");
            }
            let recorded = Delivery::VersionRecorded {
                payload,
                at,
                result,
            };
            let _ = results.send(Action::reply(id, recorded));
        });
    }

    pub(crate) fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// API tasks still running: unlike [`Self::in_flight`] (the handles kept), this sees whether
    /// a cancelled request really stopped.
    pub(crate) fn alive(&self) -> usize {
        self.alive.load(Ordering::SeqCst)
    }
}

/// Counts one API task as alive from its spawn until the task is dropped: when it answers, fails,
/// or is aborted (an aborted task is dropped without running further).
struct TaskAlive(Arc<AtomicUsize>);

impl TaskAlive {
    fn new(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::SeqCst);
        TaskAlive(Arc::clone(count))
    }
}

impl Drop for TaskAlive {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Drop for Executor {
    /// Quitting must not wait for a slow server.
    fn drop(&mut self) {
        for task in self.in_flight.values() {
            task.abort();
        }
    }
}

fn internal_error() -> ApiError {
    ApiError::Decode {
        problem: "appdeck failed while reading the answer (a bug; the log has the details)".into(),
        excerpt: String::new(),
    }
}

/// Why a send was not recorded (`problem`), after keeping it in the store's pending file, which
/// the next open of the store records: the message says where it waits.
fn keep_aside(store: &Path, sent: Sent, problem: &dyn std::fmt::Display) -> String {
    match crate::store::keep_pending(store, &crate::store::Pending::Send(sent)) {
        Ok(kept) => format!(
            "{problem}; kept in {} until the store takes writes again",
            kept.display()
        ),
        Err(also) => format!("{problem}; it could not be kept aside either ({also})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ClientSettings, Token};
    use crate::app::job::Job;
    use std::time::Duration;

    /// Reports once, then waits until it is cancelled; answers whether it was.
    #[derive(Debug)]
    struct UntilCancelled;

    impl Job for UntilCancelled {
        type Output = &'static str;
        fn run(&self, progress: &Progress) -> &'static str {
            progress.set(1, 2);
            let deadline = std::time::Instant::now() + Duration::from_secs(10);
            while !progress.cancelled() {
                if std::time::Instant::now() > deadline {
                    return "never cancelled";
                }
                std::thread::yield_now();
            }
            "cancelled"
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_job_reports_progress_and_stops_when_cancelled() {
        let settings = ClientSettings::new("http://127.0.0.1:9/api/v1", Token::new("t"));
        let (sender, mut replies) = tokio::sync::mpsc::unbounded_channel();
        let mut executor = Executor::new(Client::new(&settings).unwrap(), sender);
        let id = RequestId(7);
        executor.run(id, Work::new(UntilCancelled));
        let mut next = async || tokio::time::timeout(Duration::from_secs(10), replies.recv()).await;
        match next().await {
            Ok(Some(Action::Reply {
                id: got,
                delivery: delivery @ Delivery::Progress { done: 1, total: 2 },
            })) => {
                assert_eq!(got, id);
                // The loop hands every reply to the executor: progress is not the job's end, it
                // can still be cancelled.
                executor.replied(id, &delivery);
            }
            other => panic!("expected progress, got {other:?}"),
        }
        executor.cancel(id);
        match next().await {
            Ok(Some(Action::Reply {
                delivery: Delivery::Job(answer),
                ..
            })) => assert_eq!(answer.take::<&str>(), Some("cancelled")),
            other => panic!("expected the answer, got {other:?}"),
        }
    }
}
