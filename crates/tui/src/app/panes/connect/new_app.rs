//! A new app's starting point: one resource type definition per type seen in the rows loaded in
//! the list, inferred by `crate::infer`. With thousands of rows that takes tens of milliseconds
//! (`cargo bench --bench diff_infer`), so it runs as a job ([`InferJob`]): the composer opens at
//! once saying so, and the payload fills in when the job answers.

use std::ops::ControlFlow;

use super::Start;
use crate::api::PageItem;
use crate::app::RequestId;
use crate::infer::Inference;
use crate::text::counted;
use crate::validate::{PLACEHOLDER_APP_ID, PLACEHOLDER_VERSION};
use appdeck_listing::Row;
use appdeck_listing::{Bodies, BodyId};

/// What the background inference needs: the list's rows as they were when the composer opened,
/// as where their JSON is kept (read and parsed there, not on the UI thread).
#[derive(Clone, Debug)]
pub struct InferJob {
    pub bodies: Bodies,
    pub rows: Vec<BodyId>,
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
    pub(crate) fn words(&self) -> String {
        format!("inferring types from {} loaded…", counted(self.rows, "row"))
    }
}

impl crate::app::job::Job for InferJob {
    type Output = Start;

    fn run(&self, _: &crate::app::job::Progress) -> Start {
        infer(self)
    }
}

/// A new app whose types are inferred from the job's rows. Pure; runs off the UI thread. Its
/// `app_id` and `version` are `appdeck infer`'s placeholders, which the composer's checks (those
/// of `appdeck validate`) flag as errors until the user writes real ones.
pub fn infer(job: &InferJob) -> Start {
    let mut inference = Inference::new();
    // The bodies of the list's own rows are always there; were one not, it is left out.
    let _ = job.bodies.scan(&job.rows, |_, json| {
        match Row::item_of(json) {
            PageItem::Resource(resource) => inference.add_resource(&resource),
            // Not an object: counted as a sample without a type, as `appdeck infer` counts it.
            PageItem::Malformed(_) => inference.add_value(&serde_json::Value::Null),
        }
        ControlFlow::Continue(())
    });
    Start::Inferred {
        payload: inference.connect_payload(PLACEHOLDER_APP_ID, PLACEHOLDER_VERSION),
        samples: inference.samples(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use appdeck_listing::Texts;

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
        let bodies = Bodies::default();
        let mut texts = Texts::new();
        let rows = (values.iter().cloned())
            .map(|value| Row::from_item(&PageItem::from_value(value), &bodies, &mut texts).body)
            .collect();
        let job = InferJob { bodies, rows };
        let Start::Inferred { payload, samples } = infer(&job) else {
            panic!("a new app's start")
        };
        assert_eq!(samples, 5, "every row counts, typed or not");
        assert_eq!(payload["app_id"], PLACEHOLDER_APP_ID);
        assert_eq!(
            payload["resources"],
            json!(crate::infer::infer_types(&values))
        );
    }
}
