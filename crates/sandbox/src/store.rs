//! The sandbox's data behind one lock: the resource table, the registered types and the recorded
//! task failures. One lock keeps a report atomic: it is checked against the types and applied to
//! the table with nothing changing in between, and a refused report changes nothing.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

use serde_json::Value;

use super::registry::Registry;
use super::rows::{Row, RowJson, Rows};
use crate::api::{Field, Resource, ResourceType};
use crate::json_text;

/// The `organization_id` the sandbox gives every resource it stamps.
pub(crate) const SANDBOX_ORGANIZATION: &str = "org_sandbox";

/// How many recorded failures are kept; older ones are dropped so memory stays bounded.
const MAX_FAILURES: usize = 1000;

/// A task failure an app reported (`status: "error"`): recorded, nothing else changes.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedFailure {
    pub task_id: String,
    pub message: Option<String>,
    /// The resource the report carried, if any, as it came.
    pub resource: Option<Value>,
    pub received_at: String,
}

#[derive(Debug, Default)]
pub(crate) struct State {
    pub rows: Rows,
    pub registry: Registry,
    pub failures: VecDeque<RecordedFailure>,
}

/// Who sets the fields the service owns when a resource is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stamp {
    /// A report: the sandbox sets `id` (on create), `created_at` (on create), `updated_at` and
    /// `organization_id`, whatever the report says.
    Report,
    /// Demo data and direct inserts: the resource's own `id` (when free), timestamps and
    /// organisation are kept; only missing ones are filled in.
    Import,
}

impl State {
    pub(crate) fn record_failure(&mut self, failure: RecordedFailure) {
        if self.failures.len() == MAX_FAILURES {
            self.failures.pop_front();
        }
        self.failures.push_back(failure);
    }

    /// Stores a resource, as a new row (`target` is `None`) or in place of row `target`, and
    /// returns it as stored. The caller has matched and checked it.
    pub(crate) fn put(
        &mut self,
        target: Option<u64>,
        resource: Resource,
        stamp: Stamp,
    ) -> Resource {
        self.put_sent(target, resource, stamp, None)
    }

    /// [`State::put`] of a resource that came as the JSON text `sent`: the row keeps each field
    /// the sandbox does not set as that text (`1E2` as written), and so lists it.
    pub(crate) fn put_sent(
        &mut self,
        target: Option<u64>,
        mut resource: Resource,
        stamp: Stamp,
        sent: Option<&str>,
    ) -> Resource {
        let now = now();
        let existing = target.and_then(|seq| self.rows.get(seq)).cloned();
        let given_id = non_empty(&resource.id).map(str::to_owned);
        let id = match (&existing, stamp, given_id) {
            (Some(row), _, _) => row.id.clone(),
            (None, Stamp::Import, Some(id)) if !self.rows.id_taken(&id) => id,
            (None, _, _) => self.rows.new_id(),
        };
        resource.id = Field::Valid(id);

        let stored_created = existing.as_ref().and_then(|row| row.created_at.clone());
        let keep = |field: &Field<String>| {
            (stamp == Stamp::Import)
                .then(|| non_empty(field).map(str::to_owned))
                .flatten()
        };
        let created_at = keep(&resource.created_at)
            .or(stored_created)
            .unwrap_or_else(|| now.clone());
        resource.created_at = Field::Valid(created_at);
        resource.updated_at = Field::Valid(keep(&resource.updated_at).unwrap_or(now));
        let organization =
            keep(&resource.organization_id).unwrap_or_else(|| SANDBOX_ORGANIZATION.to_owned());
        resource.organization_id = Field::Valid(organization);
        if non_empty(&resource.resource_type).is_none()
            && let Some(stored_type) = existing.as_ref().and_then(|row| row.resource_type.clone())
        {
            resource.resource_type = Field::Valid(stored_type);
        }

        let row = row_of(&resource, sent);
        match target {
            Some(seq) if existing.is_some() => self.rows.replace(seq, row),
            _ => {
                self.rows.push(row);
            }
        }
        resource
    }
}

/// The row for a stamped resource, its fields as `sent` has them where the sandbox kept them.
fn row_of(resource: &Resource, sent: Option<&str>) -> Row {
    let json = match sent {
        Some(sent) => text_keeping(resource, sent),
        // Serialising a record of JSON values cannot fail; an empty object is the safe fallback.
        None => serde_json::to_string(resource).unwrap_or_else(|_| "{}".to_owned()),
    };
    Row {
        id: non_empty(&resource.id).unwrap_or_default().to_owned(),
        resource_type: non_empty(&resource.resource_type).map(str::to_owned),
        external_id: non_empty(&resource.external_id).map(str::to_owned),
        created_at: non_empty(&resource.created_at).map(str::to_owned),
        json: RowJson::Whole(Arc::from(json)),
    }
}

/// `resource` as JSON text, each field written as `sent` wrote it when its value is the same
/// (the fields the sandbox set are written anew): what the service was sent is what it serves.
/// The parsed value cannot say it (serde_json writes `1E2` as `1e+2`).
fn text_keeping(resource: &Resource, sent: &str) -> String {
    let Ok(Value::Object(fields)) = serde_json::to_value(resource) else {
        return "{}".to_owned();
    };
    let as_sent: HashMap<String, &str> = json_text::members(sent).into_iter().collect();
    let mut out = String::with_capacity(sent.len() + 128);
    out.push('{');
    for (i, (key, value)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&Value::from(key.as_str()).to_string());
        out.push(':');
        match as_sent.get(key) {
            Some(text) if serde_json::from_str::<Value>(text).is_ok_and(|v| v == *value) => {
                out.push_str(&json_text::compact(text));
            }
            _ => out.push_str(&value.to_string()),
        }
    }
    out.push('}');
    out
}

/// A string field's value when it is present, a string, and not blank.
pub(crate) fn non_empty(field: &Field<String>) -> Option<&str> {
    field
        .get()
        .map(String::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// The current time in RFC 3339, as the sandbox stamps it.
pub(crate) fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A cheap, clonable handle on the sandbox's data, for tests and benchmarks that need to look at
/// it or fill it without going through HTTP.
#[derive(Clone, Debug, Default)]
pub struct SandboxStore {
    state: Arc<RwLock<State>>,
}

impl SandboxStore {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Nothing run under the lock panics on request data. Should a bug panic there anyway,
    /// serving the data as it stands beats failing every later request, so poison is ignored.
    pub(crate) fn read(&self) -> RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    pub(crate) fn write(&self) -> RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// Puts a resource in the store without any check, and returns it as stored. A row with the
    /// same `id`, else the same `type` and `external_id`, is replaced in place; otherwise the
    /// resource is appended. Its own `id` (when free), timestamps and `organization_id` are
    /// kept, and missing ones filled in. Reports go through `apps.operations.report` instead,
    /// which also checks the type's schema.
    pub fn insert(&self, resource: Resource) -> Resource {
        let mut state = self.write();
        let target = non_empty(&resource.id)
            .and_then(|id| state.rows.seq_of_id(id))
            .or_else(|| {
                let resource_type = non_empty(&resource.resource_type)?;
                let external_id = non_empty(&resource.external_id)?;
                state.rows.seq_of_key(resource_type, external_id)
            });
        state.put(target, resource, Stamp::Import)
    }

    /// How many resources the store holds.
    pub fn len(&self) -> usize {
        self.read().rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The resource with this id, as `resources.list` would return it.
    pub fn get(&self, id: &str) -> Option<Resource> {
        let state = self.read();
        let row = state.rows.get(state.rows.seq_of_id(id)?)?;
        serde_json::from_str(&row.json.to_text()).ok()
    }

    /// The task failures reported so far (the latest 1,000), oldest first.
    pub fn failures(&self) -> Vec<RecordedFailure> {
        self.read().failures.iter().cloned().collect()
    }

    /// The definition of a registered type, from the latest connect that registered it.
    pub fn resource_type(&self, name: &str) -> Option<ResourceType> {
        self.read()
            .registry
            .latest(name)
            .map(|t| t.definition.clone())
    }
}
