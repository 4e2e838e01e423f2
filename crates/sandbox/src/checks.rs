//! Checking a reported resource's `properties` against its type's schema, off the server's
//! worker threads and outside the store's lock: a schema's patterns can be slow, and a slow check
//! must cost its own request time, never the other clients'.
//!
//! Checks run on tokio's blocking pool, a few at a time, and each request waits at most
//! `check_budget` for its answer. A check past its budget keeps its slot until it ends, so a flood
//! of slow reports cannot pile up threads; the reports behind it are told the sandbox is busy.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use serde_json::Value;
use tokio::sync::Semaphore;

use super::error::OpError;
use super::registry::RegisteredType;
use crate::schema::SchemaViolation;

/// Runs schema checks with bounded concurrency and a time budget per request.
#[derive(Clone, Debug)]
pub(crate) struct SchemaChecks {
    slots: Arc<Semaphore>,
    budget: Duration,
}

impl SchemaChecks {
    /// As many checks at once as there are cores (at least two).
    pub(crate) fn new(budget: Duration) -> Self {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        SchemaChecks {
            slots: Arc::new(Semaphore::new(cores.max(2))),
            budget,
        }
    }

    /// The violations of `properties` against the type's property schema (none without one).
    pub(crate) async fn violations(
        &self,
        registered: Arc<RegisteredType>,
        properties: Value,
    ) -> Result<Vec<SchemaViolation>, OpError> {
        if registered.property_schema.is_none() {
            return Ok(Vec::new());
        }
        let deadline = tokio::time::Instant::now() + self.budget;
        let seconds = self.budget.as_secs_f64();
        let Ok(Ok(slot)) =
            tokio::time::timeout_at(deadline, Arc::clone(&self.slots).acquire_owned()).await
        else {
            return Err(OpError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the sandbox is busy checking other reports against their schemas; \
                     this one could not start within {seconds}s, send it again later"
                ),
            ));
        };
        let name = registered.name.clone();
        let check = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            registered
                .property_schema
                .as_ref()
                .map(|schema| schema.violations(&properties))
                .unwrap_or_default()
        });
        match tokio::time::timeout_at(deadline, check).await {
            Ok(Ok(violations)) => Ok(violations),
            Ok(Err(_)) => Err(OpError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "checking the properties against the type's schema failed unexpectedly",
            )),
            Err(_) => {
                tracing::warn!(resource_type = ?name, "a schema check ran past its budget");
                Err(OpError::unprocessable(format!(
                    "{name}: checking the properties against the type's schema took longer than \
                     {seconds}s (a slow `pattern` in the schema?); the report was not applied"
                )))
            }
        }
    }
}
