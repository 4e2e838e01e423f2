//! Runs the app's commands: API calls (any operation: a page, a report, a connect) on background
//! tasks that hold a clone of the one client, each answering with an [`Action::Reply`] on the
//! loop's channel; the panes' jobs (whatever they are), file reads and the store (the history of
//! sends, each task with a connection of its own) run on blocking tasks. Nothing here touches
//! app state, nor knows any pane.

use std::collections::{HashMap, HashSet};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

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
    /// The listings read ahead of the list (`L`), each by the list's request it follows (see
    /// [`Executor::call_reading_ahead`]).
    chains: HashMap<RequestId, Arc<Mutex<Chain>>>,
    /// The page requests in flight (the list's, read ahead or not), for [`Self::page_in_flight`].
    pages: HashSet<RequestId>,
}

/// How many pages of a listing are asked for ahead of the list's own request under `L`. One
/// page ahead left the service idle while the list's page was read for its columns (the next
/// request went out only once the page before was read whole); two keep it busy meanwhile.
/// A cursor is known only once the page before came, so the requests still go one after the
/// other: what this buys is the client's work overlapping the service's. `L` over 100,000 rows
/// from a sandbox that answers 5 ms late (`--fault slow:5`): 1979 ms before, 1852 ms after
/// (medians of 3 side by side, load 5-6); from one answering at once, no difference showed
/// (774 and 780 ms, medians of 5): the two cores were busy, not waiting.
const PAGES_AHEAD: usize = 2;

/// The pages of a listing asked for ahead of the list (`L`): each is asked for as soon as the
/// page before it names it, while at most [`PAGES_AHEAD`] wait for the list to ask for them.
/// Dropping the chain stops every request in it.
#[derive(Default)]
struct Chain {
    /// In the listing's order, each with the request the list will make for it.
    pages: Vec<(ApiCall, Answering)>,
    /// The page named while [`PAGES_AHEAD`] were ahead already: asked for once the list takes
    /// one.
    waiting: Option<ApiCall>,
}

/// What a task reading ahead needs to ask for the next page: the chain (gone once the list
/// stopped) and how to ask.
#[derive(Clone)]
struct ReadingAhead {
    chain: Weak<Mutex<Chain>>,
    client: Client,
    alive: Arc<AtomicUsize>,
}

impl ReadingAhead {
    /// Asks for `next` ahead, or keeps it waiting while the chain is full; nothing once the
    /// chain is gone.
    fn ask(&self, next: ApiCall) {
        let Some(chain) = self.chain.upgrade() else {
            return;
        };
        let mut chain = lock(&chain);
        let known = chain.pages.iter().any(|(call, _)| *call == next);
        if known || chain.waiting.as_ref() == Some(&next) {
            return;
        }
        if chain.pages.len() >= PAGES_AHEAD {
            chain.waiting = Some(next);
            return;
        }
        let reading = self.clone();
        let alive = TaskAlive::new(&self.alive);
        let call = next.clone();
        let answer = Answering(tokio::spawn(async move {
            let _alive = alive;
            exchange_reading_ahead(&call, &reading).await
        }));
        chain.pages.push((next, answer));
    }
}

/// An API task's answer to come; the task stops when this is dropped unawaited (`Esc`, a
/// page the list did not ask for after all).
struct Answering(tokio::task::JoinHandle<Exchange>);

impl Answering {
    /// The answer, once it comes; a task that failed (a bug) still answers.
    async fn outcome(mut self) -> Exchange {
        (&mut self.0)
            .await
            .unwrap_or_else(|_| Exchange::local(Err(internal_error())))
    }
}

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.abort();
    }
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
            chains: HashMap::new(),
            pages: HashSet::new(),
        }
    }

    /// Talks to another service from now on (`:profile`); requests in flight were cancelled.
    pub(crate) fn set_client(&mut self, client: Client) {
        self.client = client;
        self.chains.clear();
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
    pub(crate) fn load_reports_about(
        &self,
        id: RequestId,
        about: crate::store::ResourceKey,
        limit: usize,
    ) {
        let (results, path) = (self.results.clone(), self.store_path.clone());
        let base_url = self.client.base_url().to_owned();
        tokio::task::spawn_blocking(move || {
            let entries = match &path {
                Some(path) => Store::open(path)
                    .and_then(|store| store.reports_about(&base_url, &about, limit))
                    .map_err(|e| e.to_string()),
                None => Err("no data directory for the local store (set APPDECK_DATA_DIR)".into()),
            };
            let _ = results.send(Action::reply(id, Delivery::History(Box::new(entries))));
        });
    }

    /// Reads the columns kept for a type on a blocking task; a store that cannot be read keeps
    /// none (the table's own columns show, and the log says why).
    /// Without a store the answer (none) is sent at once, so it comes in the same step as the
    /// page that asked, not at a time of its own.
    pub(crate) fn load_columns(&self, id: RequestId, type_key: String) {
        let results = self.results.clone();
        let Some(path) = self.store_path.clone() else {
            let _ = results.send(Action::reply(id, Delivery::Columns(None)));
            return;
        };
        tokio::task::spawn_blocking(move || {
            let spec = Store::open(&path)
                .and_then(|store| store.list_columns(&type_key))
                .inspect_err(|e| tracing::warn!("the list's columns were not read: {e}"))
                .ok()
                .flatten();
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
        if gate.is_none()
            && let Some((owner, _, answer)) = self.claim_ahead(&call)
        {
            self.chains.remove(&owner);
            // Asked for ahead: this request waits for that answer, and reads on no further.
            self.answer(id, true, answer.outcome());
            return;
        }
        let is_page = call.operation == crate::api::Operation::ResourcesList;
        let client = self.client.clone();
        self.answer(id, is_page, async move {
            if let Some(gate) = gate
                && let Ok(Err(why)) = gate.await
            {
                return Exchange::local(Err(ApiError::NotSent(why)));
            }
            exchange(&client, &call).await
        });
    }

    /// Runs `reply` as request `id`'s task (cancelled by [`Self::cancel`]) and sends its answer
    /// to the loop; a page's (`is_page`) counts for [`Self::page_in_flight`].
    fn answer(
        &mut self,
        id: RequestId,
        is_page: bool,
        reply: impl Future<Output = Exchange> + Send + 'static,
    ) {
        let results = self.results.clone();
        let alive = TaskAlive::new(&self.alive);
        let task = tokio::spawn(async move {
            let _alive = alive;
            let reply = reply.await;
            // The loop may be gone (the user quit): nothing to tell then.
            let _ = results.send(Action::reply(id, Box::new(reply)));
        });
        if is_page {
            self.pages.insert(id);
        }
        self.in_flight.insert(id, task.abort_handle());
    }

    /// A page request (`call`, `id`) that reads ahead (`L`): as soon as an answer's envelope
    /// names a next page, before its items are read for the list, that page is asked for, up to
    /// [`PAGES_AHEAD`] pages beyond the list's own request (a [`Chain`]), so that the service
    /// works on the next pages while this one is read and the list takes it. The list then asks
    /// for each page as usual (this again), and that request waits for the answer already on its
    /// way. The chain goes with `Esc` ([`Self::cancel`] of the list's request), or once the
    /// update that took a page did not ask for the next ([`Self::forget_ahead`]).
    /// With the list's pages read for their columns only (`api::ItemFacts`), one page ahead
    /// took `L` over 100,000 rows from 5.3-5.6 s to 0.8-1.1 s (`benches/tui_load_all.sh`, a
    /// busy machine).
    pub(crate) fn call_reading_ahead(&mut self, id: RequestId, call: ApiCall) {
        let (chain, claimed) = match self.claim_ahead(&call) {
            Some((owner, chain, answer)) => {
                self.chains.remove(&owner);
                (chain, Some(answer))
            }
            None => (Arc::default(), None),
        };
        let reading = ReadingAhead {
            chain: Arc::downgrade(&chain),
            client: self.client.clone(),
            alive: self.alive.clone(),
        };
        self.chains.insert(id, chain);
        self.answer(id, true, async move {
            match claimed {
                Some(answer) => answer.outcome().await,
                None => exchange_reading_ahead(&call, &reading).await,
            }
        });
    }

    /// The answer to `call` asked for ahead, if it was, with the chain it was in and the request
    /// that chain followed. Taking it makes room in the chain for the page waiting.
    fn claim_ahead(&self, call: &ApiCall) -> Option<(RequestId, Arc<Mutex<Chain>>, Answering)> {
        self.chains.iter().find_map(|(owner, chain)| {
            let waiting = {
                let mut state = lock(chain);
                let at = state.pages.iter().position(|(asked, _)| asked == call)?;
                let (_, answer) = state.pages.remove(at);
                (state.waiting.take(), answer)
            };
            let (waiting, answer) = waiting;
            if let Some(next) = waiting {
                let reading = ReadingAhead {
                    chain: Arc::downgrade(chain),
                    client: self.client.clone(),
                    alive: self.alive.clone(),
                };
                reading.ask(next);
            }
            Some((*owner, chain.clone(), answer))
        })
    }

    /// The update that took the answer to `after` has had its commands run: the pages read
    /// ahead after it, if it did not ask for the next, are not wanted (the list stopped, or the
    /// server's paging broke).
    pub(crate) fn forget_ahead(&mut self, after: RequestId) {
        self.chains.remove(&after);
    }

    /// Whether a page of a listing is on its way (asked for, or read ahead): the memory freed
    /// after a page is then left to it (see `EventLoop::apply`).
    pub(crate) fn page_in_flight(&self) -> bool {
        !self.pages.is_empty() || self.chains.values().any(|c| !lock(c).pages.is_empty())
    }

    /// A reply to `id` arrived: forget its task, unless the reply is a job's progress (the job
    /// runs on, and can still be cancelled).
    pub(crate) fn replied(&mut self, id: RequestId, delivery: &Delivery) {
        if delivery.ends_request() {
            self.in_flight.remove(&id);
            self.jobs.remove(&id);
            self.pages.remove(&id);
        }
    }

    pub(crate) fn cancel(&mut self, id: RequestId) {
        if let Some(task) = self.in_flight.remove(&id) {
            task.abort();
        }
        self.pages.remove(&id);
        self.chains.remove(&id);
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
            let text = crate::user_path::expand_home(&path)
                .and_then(|at| {
                    bounded_read::file(&at, MAX_PAYLOAD_BYTES).map_err(|e| e.to_string())
                })
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
        payload: Box<crate::app::Body>,
    ) {
        let (results, path) = (self.results.clone(), self.store_path.clone());
        let at = chrono::Utc::now();
        tokio::task::spawn_blocking(move || {
            let result = match &path {
                Some(path) => Store::open(path)
                    .and_then(|store| store.record_connect(&base_url, payload.text(), None, at))
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

    /// Whether a chain is full, with a page named that waits for the list to take one.
    #[cfg(test)]
    fn waiting_ahead(&self) -> bool {
        (self.chains.values()).any(|c| lock(c).waiting.is_some())
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

/// One call and its answer.
async fn exchange(client: &Client, call: &ApiCall) -> Exchange {
    unwind_guarded(client.exchange(call.operation, &call.body)).await
}

/// [`exchange`] of a page, asking for the next page ahead as soon as the envelope names it.
async fn exchange_reading_ahead(call: &ApiCall, reading: &ReadingAhead) -> Exchange {
    let on_envelope = |envelope: &crate::api::ListResponse| {
        if let Some(next) = envelope.next_cursor().and_then(|c| call.next_page(c)) {
            reading.ask(next);
        }
    };
    unwind_guarded(
        reading
            .client
            .exchange_telling(call.operation, &call.body, on_envelope),
    )
    .await
}

/// A bug while reading an answer must still answer, or the pane would say "loading" for ever;
/// the panic itself is in the log.
async fn unwind_guarded(exchange: impl Future<Output = Exchange>) -> Exchange {
    AssertUnwindSafe(exchange)
        .catch_unwind()
        .await
        .unwrap_or_else(|_| Exchange::local(Err(internal_error())))
}

/// A chain of pages read ahead, whoever holds it: a poisoned lock (a panic while it was held)
/// still holds a consistent chain, each change being one call.
fn lock(chain: &Mutex<Chain>) -> std::sync::MutexGuard<'_, Chain> {
    chain
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
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

    /// A server of three pages (`c2`, `c3` the cursors) on loopback, which notes each request's
    /// body; its base URL.
    async fn three_pages(asked: Arc<Mutex<Vec<String>>>) -> String {
        pages(3, asked).await
    }

    /// A server of `count` pages (`c2`... the cursors, each page one item named by its number:
    /// `p1`...) on loopback, which notes each request's body; its base URL.
    async fn pages(count: usize, asked: Arc<Mutex<Vec<String>>>) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                let asked = asked.clone();
                tokio::spawn(async move {
                    let mut bytes = Vec::new();
                    let mut buf = [0u8; 4096];
                    loop {
                        let Some(head) = bytes.windows(4).position(|w| w == b"\r\n\r\n") else {
                            match socket.read(&mut buf).await {
                                Ok(0) | Err(_) => return,
                                Ok(n) => bytes.extend_from_slice(&buf[..n]),
                            }
                            continue;
                        };
                        let headers = String::from_utf8_lossy(&bytes[..head]).to_lowercase();
                        let length: usize = (headers.lines())
                            .find_map(|l| l.strip_prefix("content-length:"))
                            .map_or(0, |n| n.trim().parse().unwrap());
                        if bytes.len() < head + 4 + length {
                            match socket.read(&mut buf).await {
                                Ok(0) | Err(_) => return,
                                Ok(n) => bytes.extend_from_slice(&buf[..n]),
                            }
                            continue;
                        }
                        let body: Vec<u8> =
                            bytes.drain(..head + 4 + length).skip(head + 4).collect();
                        let body = String::from_utf8(body).unwrap();
                        let request: serde_json::Value = serde_json::from_str(&body).unwrap();
                        let number = request["next"]
                            .as_str()
                            .map_or(1, |c| c[1..].parse::<usize>().unwrap());
                        let page = if number < count {
                            let next = number + 1;
                            format!(r#"{{"resources":[{{"id":"p{number}"}}],"next":"c{next}"}}"#)
                        } else {
                            format!(r#"{{"resources":[{{"id":"p{number}"}}]}}"#)
                        };
                        asked.lock().unwrap().push(body);
                        let answer = format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{page}",
                            page.len()
                        );
                        if socket.write_all(answer.as_bytes()).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
        base
    }

    /// Waits (at most 10 s) until `done` holds.
    async fn until(what: &str, done: impl Fn() -> bool) {
        let waited = tokio::time::timeout(Duration::from_secs(10), async {
            while !done() {
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
        });
        assert!(waited.await.is_ok(), "timed out waiting for {what}");
    }

    /// The id of the next reply, a page, and its one item's id.
    async fn page_reply(
        replies: &mut tokio::sync::mpsc::UnboundedReceiver<Action>,
        executor: &mut Executor,
    ) -> (RequestId, String) {
        let next = tokio::time::timeout(Duration::from_secs(10), replies.recv()).await;
        let Ok(Some(Action::Reply { id, delivery })) = next else {
            panic!("no reply")
        };
        executor.replied(id, &delivery);
        let Delivery::Api(exchange) = delivery else {
            panic!("not an answer: {delivery:?}")
        };
        let Ok(crate::api::Reply::Page(page)) = exchange.result else {
            panic!("not a page: {:?}", exchange.result)
        };
        let (_, text) = page.items_and_texts().next().expect("an item");
        let item: serde_json::Value = serde_json::from_str(&text).unwrap();
        (id, item["id"].as_str().unwrap().to_owned())
    }

    /// `L`'s pages: the answer to a page that reads ahead asks for the next page before the
    /// list does; the list's request for it takes that answer (the server is not asked
    /// twice), and `Esc` on the last one stops what it read ahead.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_page_read_ahead_is_asked_once_and_esc_stops_it() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let base = three_pages(asked.clone()).await;
        let settings = ClientSettings::new(&base, Token::new("t"));
        let (sender, mut replies) = tokio::sync::mpsc::unbounded_channel();
        let mut executor = Executor::new(Client::new(&settings).unwrap(), sender);
        let first = ApiCall::list_page(&crate::api::ListRequest::default());
        executor.call_reading_ahead(RequestId(1), first.clone());
        assert_eq!(
            page_reply(&mut replies, &mut executor).await,
            (RequestId(1), "p1".into())
        );
        // Nobody asked for the second page yet: it is on its way all the same.
        until("the second page to be asked for", || {
            asked.lock().unwrap().len() >= 2
        })
        .await;
        assert!(asked.lock().unwrap()[1].contains(r#""next":"c2""#));
        assert!(executor.page_in_flight());
        let second = first.next_page("c2").unwrap();
        executor.call_reading_ahead(RequestId(2), second.clone());
        executor.forget_ahead(RequestId(1));
        assert_eq!(
            page_reply(&mut replies, &mut executor).await,
            (RequestId(2), "p2".into())
        );
        until("the third page to be read ahead", || {
            asked.lock().unwrap().len() == 3
        })
        .await;
        let bodies = asked.lock().unwrap().clone();
        assert_eq!(
            bodies
                .iter()
                .filter(|b| b.contains(r#""next":"c2""#))
                .count(),
            1,
            "the second page was asked for once: {bodies:?}"
        );
        // `Esc`: the list cancels its request, and the page read ahead after it goes too.
        executor.cancel(RequestId(2));
        assert!(!executor.page_in_flight());
        until("every request task to end", || executor.alive() == 0).await;
        assert!(replies.try_recv().is_err(), "nothing more is answered");
    }

    /// `L` over a long listing: the pages are asked for at most [`PAGES_AHEAD`] beyond the
    /// list's request, the chain goes on as the list takes them, and `Esc` stops every request
    /// on its way.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_chain_stays_two_pages_ahead_and_esc_stops_every_request() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let base = pages(10, asked.clone()).await;
        let settings = ClientSettings::new(&base, Token::new("t"));
        let (sender, mut replies) = tokio::sync::mpsc::unbounded_channel();
        let mut executor = Executor::new(Client::new(&settings).unwrap(), sender);
        let first = ApiCall::list_page(&crate::api::ListRequest::default());
        executor.call_reading_ahead(RequestId(1), first.clone());
        assert_eq!(
            page_reply(&mut replies, &mut executor).await,
            (RequestId(1), "p1".into())
        );
        // The list has not asked for more: two pages are asked for, the third named waits.
        until("the chain to be full", || executor.waiting_ahead()).await;
        assert_eq!(asked.lock().unwrap().len(), 3, "the list's page and two");
        assert!(executor.page_in_flight());
        // The list takes the second page: the one that waited is asked for.
        let second = first.next_page("c2").unwrap();
        executor.call_reading_ahead(RequestId(2), second);
        executor.forget_ahead(RequestId(1));
        assert_eq!(
            page_reply(&mut replies, &mut executor).await,
            (RequestId(2), "p2".into())
        );
        until("the chain to be full again", || executor.waiting_ahead()).await;
        let bodies = asked.lock().unwrap().clone();
        assert_eq!(bodies.len(), 4, "two pages beyond the second: {bodies:?}");
        assert!(bodies[3].contains(r#""next":"c4""#));
        // `Esc`: the list cancels its request; both pages on their way stop, none more is asked.
        executor.cancel(RequestId(2));
        assert!(!executor.page_in_flight());
        until("every request task to end", || executor.alive() == 0).await;
        assert_eq!(asked.lock().unwrap().len(), 4);
        assert!(replies.try_recv().is_err(), "nothing more is answered");
    }

    /// A page the list does not ask for after all (it stopped, or the paging broke): the pages
    /// read ahead go once the update that took the page before has run.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn pages_read_ahead_go_when_the_list_does_not_ask_for_them() {
        let asked = Arc::new(Mutex::new(Vec::new()));
        let base = pages(10, asked.clone()).await;
        let settings = ClientSettings::new(&base, Token::new("t"));
        let (sender, mut replies) = tokio::sync::mpsc::unbounded_channel();
        let mut executor = Executor::new(Client::new(&settings).unwrap(), sender);
        let first = ApiCall::list_page(&crate::api::ListRequest::default());
        executor.call_reading_ahead(RequestId(1), first);
        page_reply(&mut replies, &mut executor).await;
        assert!(executor.page_in_flight(), "the next page is on its way");
        executor.forget_ahead(RequestId(1));
        assert!(!executor.page_in_flight());
        until("every request task to end", || executor.alive() == 0).await;
        assert!(asked.lock().unwrap().len() <= 1 + PAGES_AHEAD);
        assert!(replies.try_recv().is_err(), "nothing more is answered");
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
