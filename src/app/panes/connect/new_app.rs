//! A new app's starting point: one resource type definition per type seen in the rows loaded in
//! the list, inferred by `crate::infer`. With thousands of rows that takes tens of milliseconds
//! (`cargo bench --bench diff_infer`), so it runs on a background task ([`Command::Infer`]): the
//! composer opens at once saying so, and the payload fills in when [`Action::Inferred`] comes.
//!
//! [`Command::Infer`]: crate::app::Command::Infer
//! [`Action::Inferred`]: crate::app::Action::Inferred

use std::sync::Arc;

use super::Start;
use crate::api::PageItem;
use crate::app::RequestId;
use crate::app::panes::browser::row::Row;
use crate::infer::Inference;

/// The `app_id` and `version` a new app starts with, for the user to change.
pub const NEW_APP_ID: &str = "new-app";
pub const NEW_APP_VERSION: &str = "0.1.0";

/// What the background inference needs: the list's rows as they were when the composer opened,
/// each the row's compact JSON, shared with the list (no copy on the UI thread) and parsed there.
#[derive(Clone, Debug, PartialEq)]
pub struct InferJob {
    pub rows: Vec<Arc<str>>,
}

/// The inference the composer waits for: the request whose answer fills it, and how many rows
/// it reads (for the screen and the status bar).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inferring {
    pub id: RequestId,
    pub rows: usize,
}

impl Inferring {
    /// What the composer says while it waits.
    pub fn words(&self) -> String {
        format!("inferring types from {} loaded row(s)…", self.rows)
    }
}

impl crate::app::job::Job for InferJob {
    type Output = Start;

    fn run(&self, _: &crate::app::job::Progress) -> Start {
        infer(self)
    }
}

/// A new app whose types are inferred from the job's rows. Pure; runs off the UI thread.
pub fn infer(job: &InferJob) -> Start {
    let mut inference = Inference::new();
    for row in &job.rows {
        match Row::item_of(row) {
            PageItem::Resource(resource) => inference.add_resource(&resource),
            // Not an object: counted as a sample without a type, as `appdeck infer` counts it.
            PageItem::Malformed(_) => inference.add_value(&serde_json::Value::Null),
        }
    }
    Start::Inferred {
        payload: inference.connect_payload(NEW_APP_ID, NEW_APP_VERSION),
        samples: inference.samples(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn row(value: serde_json::Value) -> Arc<str> {
        Row::from_item(&PageItem::from_value(value)).json()
    }

    /// The rows give the same definitions as their raw JSON does (what `appdeck infer` reads).
    #[test]
    fn rows_infer_what_their_json_infers() {
        let values = [
            json!({"id": "1", "type": "repository", "properties": {"stars": 3, "topic": null}}),
            json!({"id": "2", "type": "repository", "properties": {"stars": 5}}),
            json!({"id": "3", "type": "team"}),
            json!({"id": "4", "type": "team", "properties": "not an object"}),
            json!("not a resource"),
        ];
        let job = InferJob {
            rows: values.iter().cloned().map(row).collect(),
        };
        let Start::Inferred { payload, samples } = infer(&job) else {
            panic!("a new app's start")
        };
        assert_eq!(samples, 5, "every row counts, typed or not");
        assert_eq!(payload["app_id"], NEW_APP_ID);
        assert_eq!(
            payload["resources"],
            json!(crate::infer::infer_types(&values))
        );
    }
}
