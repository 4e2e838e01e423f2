//! Runs the app's commands: API calls on background tasks that hold a clone of the one client,
//! each answering with an `Action` on the loop's channel. Nothing here touches app state.

use std::collections::HashMap;
use std::sync::Arc;

use std::panic::AssertUnwindSafe;

use futures_util::FutureExt;
use tokio::sync::mpsc::UnboundedSender;
use tokio::task::AbortHandle;

use crate::api::{ApiError, Client};
use crate::app::detail::Detail;
use crate::app::row::Row;
use crate::app::{Action, ApiCall, ApiReply, Notice, RequestId};

pub struct Executor {
    client: Client,
    results: UnboundedSender<Action>,
    in_flight: HashMap<RequestId, AbortHandle>,
    /// Whether URLs are really opened (off in tests, where there is no desktop).
    open_urls: bool,
}

impl Executor {
    pub fn new(client: Client, results: UnboundedSender<Action>, open_urls: bool) -> Self {
        Executor {
            client,
            results,
            in_flight: HashMap::new(),
            open_urls,
        }
    }

    pub fn call(&mut self, id: RequestId, call: ApiCall) {
        let client = self.client.clone();
        let results = self.results.clone();
        let task = tokio::spawn(async move {
            let reply = match call {
                ApiCall::ListPage(request) => {
                    // A bug while reading an answer must still answer, or the pane would say
                    // "loading" for ever; the panic itself is in the log.
                    let outcome = AssertUnwindSafe(client.list_page(&request))
                        .catch_unwind()
                        .await;
                    ApiReply::Page(Box::new(outcome.unwrap_or_else(|_| Err(internal_error()))))
                }
            };
            // The loop may be gone (the user quit): nothing to tell then.
            let _ = results.send(Action::ApiResult { id, reply });
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

    /// Opens a URL in the browser. The opener may wait a moment to see whether the launcher
    /// failed, so it runs off the UI task and reports a failure as a notice.
    pub fn open_url(&self, url: String) {
        if !self.open_urls {
            let _ = self
                .results
                .send(Action::Notice(Notice::Info(format!("would open {url}"))));
            return;
        }
        let results = self.results.clone();
        tokio::task::spawn_blocking(move || {
            if let Err(e) = open::that_detached(&url) {
                let _ = results.send(Action::Notice(Notice::Error(format!(
                    "could not open a browser: {e}"
                ))));
            }
        });
    }

    /// Prepares a detail view off the UI thread (see [`Command::OpenDetail`]).
    pub fn open_detail(&self, id: RequestId, row: Box<Row>) {
        let results = self.results.clone();
        tokio::task::spawn_blocking(move || {
            let detail = Box::new(Detail::open(Arc::new(row.item())));
            let _ = results.send(Action::DetailReady { id, detail });
        });
    }

    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
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
