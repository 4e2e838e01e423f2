//! Runs the app's commands: API calls (any operation: a page, a report, a connect) on background
//! tasks that hold a clone of the one client, each answering with an `Action` on the loop's
//! channel; checks of large reports, file reads and the store (the history of sends, each task
//! with a connection of its own) run on blocking tasks. Nothing here touches app state.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use futures_util::FutureExt;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::AbortHandle;

use crate::api::{ApiError, Client, Exchange};
use crate::app::panes::browser::row::Row;
use crate::app::panes::composer::check::{self, CheckJob};
use crate::app::panes::connect::check::AnalysisJob;
use crate::app::panes::connect::new_app::{self, InferJob};
use crate::app::panes::detail::Detail;
use crate::app::panes::type_detail::{OpenType, TypeDetail};
use crate::app::{Action, ApiCall, RequestId};
use crate::bounded_read::{self, MAX_PAYLOAD_BYTES};
use crate::store::{HistoryQuery, Sent, Store};

pub struct Executor {
    client: Client,
    results: UnboundedSender<Action>,
    in_flight: HashMap<RequestId, AbortHandle>,
    /// API tasks that still exist, however they end (see [`TaskAlive`]).
    alive: Arc<AtomicUsize>,
    /// Where the known types come from (see [`Self::know_types`]).
    type_sources: Arc<super::known_types::TypeSources>,
    /// The store's file, for the history of sends; `None` when there is no data directory.
    store_path: Option<Arc<PathBuf>>,
}

impl Executor {
    pub fn new(client: Client, results: UnboundedSender<Action>) -> Self {
        Executor {
            client,
            results,
            in_flight: HashMap::new(),
            alive: Arc::default(),
            type_sources: Arc::default(),
            store_path: None,
        }
    }

    /// Talks to another service from now on (`:profile`); requests in flight were cancelled.
    pub fn set_client(&mut self, client: Client) {
        self.client = client;
    }

    /// Sets the store the history of sends is kept in.
    pub fn keep_history(&mut self, store_path: Option<PathBuf>) {
        self.store_path = store_path.map(Arc::new);
    }

    /// Records a send in the history on a blocking task, with a connection of its own.
    pub fn record_send(&self, mut sent: Box<Sent>) {
        let (results, path) = (self.results.clone(), self.store_path.clone());
        // The answer has just arrived: it was sent the time it took ago.
        let took = sent.duration.unwrap_or_default();
        sent.sent_at = chrono::Utc::now() - chrono::Duration::from_std(took).unwrap_or_default();
        tokio::task::spawn_blocking(move || {
            let result = match &path {
                Some(path) => Store::open(path)
                    .and_then(|store| store.record_send(&sent))
                    .map(drop)
                    .map_err(|e| e.to_string()),
                None => Err("no data directory for the local store (set APPDECK_DATA_DIR)".into()),
            };
            if let Err(problem) = &result {
                tracing::warn!("a send was not recorded in the history: {problem}");
            }
            let _ = results.send(Action::SendRecorded(result));
        });
    }

    /// Reads the newest sends of the history on a blocking task, with a connection of its own.
    pub fn load_history(&self, id: RequestId, limit: usize) {
        let (results, path) = (self.results.clone(), self.store_path.clone());
        tokio::task::spawn_blocking(move || {
            let query = HistoryQuery { kind: None, limit };
            let entries = match &path {
                Some(path) => Store::open(path)
                    .and_then(|store| store.history(&query))
                    .map_err(|e| e.to_string()),
                None => Err("no data directory for the local store (set APPDECK_DATA_DIR)".into()),
            };
            let entries = Box::new(entries);
            let _ = results.send(Action::HistoryLoaded { id, entries });
        });
    }

    /// Sets where [`Command::LoadTypes`](crate::app::Command::LoadTypes) looks for types.
    pub fn know_types(&mut self, sources: super::known_types::TypeSources) {
        self.type_sources = Arc::new(sources);
    }

    /// Loads the known types off the UI thread (the store is opened there, never on the loop).
    pub fn load_types(&self, id: RequestId) {
        let (results, sources) = (self.results.clone(), self.type_sources.clone());
        tokio::task::spawn_blocking(move || {
            let types = Arc::new(super::known_types::load(&sources));
            let _ = results.send(Action::TypesLoaded { id, types });
        });
    }

    /// Lays a large type's detail out off the UI thread.
    pub fn open_type(&self, id: RequestId, request: Box<OpenType>) {
        let results = self.results.clone();
        tokio::task::spawn_blocking(move || {
            let detail = Box::new(TypeDetail::open(&request));
            let _ = results.send(Action::TypeDetailReady { id, detail });
        });
    }

    pub fn call(&mut self, id: RequestId, call: ApiCall) {
        let client = self.client.clone();
        let results = self.results.clone();
        let alive = TaskAlive::new(&self.alive);
        let task = tokio::spawn(async move {
            let _alive = alive;
            // A bug while reading an answer must still answer, or the pane would say "loading"
            // for ever; the panic itself is in the log.
            let reply = AssertUnwindSafe(client.exchange(call.operation, &call.body))
                .catch_unwind()
                .await
                .unwrap_or_else(|_| Exchange::local(Err(internal_error())));
            // The loop may be gone (the user quit): nothing to tell then.
            let _ = results.send(Action::ApiResult {
                id,
                reply: Box::new(reply),
            });
        });
        self.in_flight.insert(id, task.abort_handle());
    }

    /// The result of `id` arrived: forget its task.
    pub fn finished(&mut self, id: RequestId) {
        self.in_flight.remove(&id);
    }

    pub fn cancel(&mut self, id: RequestId) {
        if let Some(task) = self.in_flight.remove(&id) {
            task.abort();
        }
    }

    /// Prepares a detail view off the UI thread (see [`Command::OpenDetail`]).
    pub fn open_detail(&self, id: RequestId, row: Box<Row>) {
        let results = self.results.clone();
        tokio::task::spawn_blocking(move || {
            let detail = Box::new(Detail::open(Arc::new(row.item())));
            let _ = results.send(Action::DetailReady { id, detail });
        });
    }

    /// Checks a large report off the UI thread (see [`Command::Check`]).
    pub fn check(&self, id: RequestId, job: Box<CheckJob>) {
        let results = self.results.clone();
        tokio::task::spawn_blocking(move || {
            let findings = check::run(&job);
            let _ = results.send(Action::Checked { id, findings });
        });
    }

    /// Reads a report file for `:report PATH`.
    pub fn read_report_file(&self, path: String) {
        self.read_file(path, |path, text| Action::ReportFileRead { path, text });
    }

    /// Reads a connect payload file for `:connect PATH`.
    pub fn read_connect_file(&self, path: String) {
        self.read_file(path, |path, text| Action::ConnectFileRead { path, text });
    }

    /// Reads a file off the UI thread, bounded like every file the user names (a FIFO would
    /// hold a blocking thread for ever); `done` makes the action that brings its text back.
    fn read_file(&self, path: String, done: fn(String, Result<String, String>) -> Action) {
        let results = self.results.clone();
        tokio::task::spawn_blocking(move || {
            let text = bounded_read::file(Path::new(&path), MAX_PAYLOAD_BYTES)
                .map_err(|e| e.to_string())
                .and_then(|(bytes, _)| String::from_utf8(bytes).map_err(|e| e.to_string()));
            let _ = results.send(done(path, text));
        });
    }

    /// Checks, outlines and compares a large connect payload off the UI thread.
    pub fn analyse(&self, id: RequestId, job: Box<AnalysisJob>) {
        let results = self.results.clone();
        tokio::task::spawn_blocking(move || {
            let analysis = Box::new(crate::app::panes::connect::check::analyse(&job));
            let _ = results.send(Action::Analysed { id, analysis });
        });
    }

    /// Infers a new app's types from the list's rows off the UI thread.
    pub fn infer(&self, id: RequestId, job: Box<InferJob>) {
        let results = self.results.clone();
        tokio::task::spawn_blocking(move || {
            let start = Box::new(new_app::infer(&job));
            let _ = results.send(Action::Inferred { id, start });
        });
    }

    /// Records a connect the service accepted as a known app version, like `appdeck connect`
    /// does; its time is stamped here (`update` reads no clock).
    pub fn record_app_version(&self, base_url: String, payload: Box<serde_json::Value>) {
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
            let _ = results.send(Action::AppVersionRecorded {
                payload,
                at,
                result,
            });
        });
    }

    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// API tasks still running: unlike [`Self::in_flight`] (the handles kept), this sees whether
    /// a cancelled request really stopped.
    pub fn alive(&self) -> usize {
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
