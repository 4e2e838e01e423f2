//! The report composer: the composer (`panes/composer`) of the kind [`Report`], which writes an
//! `apps.operations.report` about a resource. Its fields are `task_id`, `status`, `message`,
//! `response_type` and the resource as JSON in the editor. Its keys are in `keys.rs`, its own
//! handling of actions in `update.rs`, the checks in `check.rs` (pointers are mapped to editor
//! lines by `core::json_locate`), where its parts go in `layout.rs`.

pub(crate) mod check;
pub(crate) mod draft;
pub(crate) mod external;
pub(crate) mod keys;
pub(crate) mod layout;
pub(crate) mod many;
mod update;

use std::sync::Arc;

use ratatui_textarea::TextArea;
use serde_json::{Map, Value};

use crate::app::panes::composer::{self, Composer};
use crate::app::widgets::LineInput;
use crate::app::widgets::json_editor;
use crate::report_text::AsRead;
pub(crate) use crate::report_text::Kept;

/// Reports whose text is larger than this are checked on a background task, so typing never
/// waits for a check.
pub(crate) const CHECK_IN_BACKGROUND_BYTES: usize = 32 * 1024;

/// Where reports go and what they are checked against; the same for every composer.
#[derive(Clone, Debug, Default)]
pub struct ReportContext {
    /// The service's API root, shown in the review and in the curl command.
    pub base_url: String,
    /// Known resource types, as a version-connect payload (its `resources`).
    pub types: Option<Arc<Value>>,
    /// The text `types` was read from, when known: `f` writes a schema's numbers as written.
    pub types_text: Option<Arc<str>>,
    /// Makes this run's provisional task ids differ from another run's (its start time).
    pub run_tag: String,
}

/// The composer's fields, in the order `j`/`k` visit them; the findings list comes last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    TaskId,
    Status,
    Message,
    ResponseType,
    Resource,
    Findings,
}

impl Field {
    pub const ALL: [Field; 6] = [
        Field::TaskId,
        Field::Status,
        Field::Message,
        Field::ResponseType,
        Field::Resource,
        Field::Findings,
    ];

    pub(crate) fn label(self) -> &'static str {
        match self {
            Field::TaskId => "task_id",
            Field::Status => "status",
            Field::Message => "message",
            Field::ResponseType => "response_type",
            Field::Resource => "resource",
            Field::Findings => "findings",
        }
    }

    fn step(self, forward: bool) -> Field {
        composer::step(&Field::ALL, self, forward, false)
    }
}

pub(crate) use crate::app::widgets::send_flow::{Phase, SendResult};

/// The report composer: the composer of reports.
pub(crate) type ReportComposer = Composer<Report>;

/// What a report brings to the composer: its fields and the resource's editor.
#[derive(Clone, Debug)]
pub struct Report {
    pub context: Arc<ReportContext>,
    /// What the resource is keyed by: its id, or `None` for a new one.
    pub resource_id: Option<String>,
    pub task_id: LineInput,
    /// The generated `task_id` is still untouched: the first key typed replaces it.
    pub task_id_provisional: bool,
    pub status: String,
    pub message: LineInput,
    pub response_type: LineInput,
    pub resource: TextArea<'static>,
    /// What a report that was read (a file, `$EDITOR`) holds besides the fields: unknown
    /// fields, fields absent or not strings (sent as they were, and flagged by the checks,
    /// until the field is edited), their text and key order.
    pub as_read: AsRead,
    pub field: Field,
    /// The report as the external editor left it, when that was not JSON: kept as typed, with
    /// its syntax error, until it is edited again or dropped (`x`).
    pub unparsed: Option<Unparsed>,
    /// The resource as the list showed it when `R` opened this report (its JSON text): what
    /// the answer and the history compare the sent resource with.
    pub listed: Option<Arc<str>>,
    /// `R` over marked rows: the resources this report goes to, one send each (`many.rs`).
    pub marked: Option<Box<many::Marked>>,
}

/// Text that was meant to be the whole report but is not JSON.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Unparsed {
    pub text: String,
    /// The syntax error, with its line and column.
    pub error: String,
}

impl ReportComposer {
    /// A report about `resource`, the JSON text it came as: laid out token by token, so every
    /// number, string and escape (`1E2`, `\u202e`) stays as it was received, and unknown fields
    /// and key order too.
    pub(crate) fn for_resource(context: Arc<ReportContext>, resource: &str, seed: u64) -> Self {
        /// Only the `id`: the rest of the resource is skipped, not built.
        #[derive(serde::Deserialize)]
        struct Id {
            id: Option<Value>,
        }
        let resource_id = serde_json::from_str::<Id>(resource)
            .ok()
            .and_then(|r| r.id?.as_str().map(str::to_owned));
        let text = many::as_composed(resource);
        let mut composer = ReportComposer::new(context, resource_id, &text, seed);
        composer.kind.listed = Some(Arc::from(resource));
        composer
    }

    /// A blank report; the resource's `type` is `type_name` if given.
    pub(crate) fn blank(context: Arc<ReportContext>, type_name: Option<&str>, seed: u64) -> Self {
        let mut resource = Map::new();
        resource.insert("type".into(), Value::from(type_name.unwrap_or("")));
        resource.insert("external_id".into(), Value::from(""));
        resource.insert("name".into(), Value::from(""));
        resource.insert("properties".into(), Value::Object(Map::new()));
        let text = serde_json::to_string_pretty(&resource).unwrap_or_default();
        ReportComposer::new(context, None, &text, seed)
    }

    /// A report read from a file or sent before (`report`, parsed from `text`): its fields go
    /// to the composer's, anything else is kept.
    pub(crate) fn from_report(context: Arc<ReportContext>, report: &Value, text: &str) -> Self {
        let resource = crate::report_text::resource_as_written(report, text);
        let mut composer = ReportComposer::for_resource(context, &resource, 0);
        // From a file: how the resource was listed is not known.
        composer.kind.listed = None;
        composer.set_report(report, text);
        composer
    }

    fn new(
        context: Arc<ReportContext>,
        resource_id: Option<String>,
        text: &str,
        seed: u64,
    ) -> Self {
        let mut task_id = LineInput::new();
        task_id.set(&provisional_task_id(&context.run_tag, seed));
        let mut response_type = LineInput::new();
        response_type.set("resource");
        let subject = ReportComposer::draft_subject(resource_id.as_deref());
        let report = Report {
            context,
            resource_id,
            task_id,
            task_id_provisional: true,
            status: "ok".to_owned(),
            message: LineInput::new(),
            response_type,
            resource: json_editor::new_editor(text),
            as_read: AsRead::default(),
            field: Field::TaskId,
            unparsed: None,
            listed: None,
            marked: None,
        };
        Composer::with(report, subject)
    }

    /// How many findings point at `field` (those in the resource point at lines instead).
    pub(crate) fn findings_on(&self, field: Field) -> usize {
        self.findings
            .iter()
            .filter(|l| l.place == check::Place::Field(field))
            .count()
    }
}

impl Report {
    /// Puts a whole report's fields in place (from a file, or back from the external editor);
    /// what the fields cannot hold is kept and sent as it was ([`AsRead`]). `text` is the
    /// report's JSON text, which the resource is laid out from.
    pub(crate) fn set_report(&mut self, report: &Value, text: &str) {
        let read = AsRead::read(report, text);
        let text = crate::json_text::pretty(&read.resource);
        let text = crate::sanitize::json_for_terminal(&text);
        if text != self.resource_text() {
            self.replace_resource(&text);
        }
        let [task_id, status, message, response_type] = read.fields;
        self.task_id.set(&task_id);
        self.task_id_provisional = false;
        self.status = status;
        self.message.set(&message);
        self.response_type.set(&response_type);
        self.as_read = read.as_read;
    }

    /// The resource as typed.
    pub(crate) fn resource_text(&self) -> String {
        json_editor::text_of(&self.resource)
    }

    /// The fields as typed, in the order of `report_text::FIELDS`.
    pub(super) fn typed(&self) -> [&str; 4] {
        let (task_id, message) = (self.task_id.text(), self.message.text());
        [task_id, &self.status, message, self.response_type.text()]
    }

    /// The report without its resource: each field as typed, or as it was read (kept).
    pub(crate) fn header(&self) -> Map<String, Value> {
        self.as_read.header(self.typed())
    }

    /// Whether `field` still holds what was read rather than typed, and how to show it.
    pub(crate) fn kept(&self, field: Field) -> Option<&Kept> {
        self.as_read.kept.get(field.label())
    }

    /// The whole report, if the resource is JSON; else the syntax error, as a finding says it
    /// (the tests compare it; what is sent is the text of `Kind::body`, the report's as typed).
    #[cfg(test)]
    pub(crate) fn body(&self) -> Result<Value, String> {
        let text = self.resource_text();
        match crate::validate::parse_json(&text) {
            Ok(resource) => Ok(self.as_read.around(self.typed(), resource)),
            Err(error) => Err(error.to_string()),
        }
    }

    /// The report with `resource` (JSON text) as its resource: the header's fields as typed,
    /// the resource's text as written (compact). `R` over marked rows sends one a resource.
    fn body_about(&self, resource: &str) -> Result<crate::app::Body, String> {
        let parsed = crate::validate::parse_json(resource).map_err(|e| e.to_string())?;
        let value = self.as_read.around(self.typed(), parsed);
        match self.as_read.text_around(self.typed(), resource) {
            Some(text) => Ok(crate::app::Body::new(&text, value)),
            None => Ok(crate::app::Body::of_value(value)),
        }
    }

    /// Replaces the resource's text as one undoable edit.
    pub(crate) fn replace_resource(&mut self, text: &str) {
        json_editor::replace_text(&mut self.resource, text);
    }
}

/// A `task_id` that says it must be replaced, unique enough not to collide by accident.
fn provisional_task_id(tag: &str, seed: u64) -> String {
    format!("{}{tag}-{seed}", check::PROVISIONAL_PREFIX)
}

#[cfg(test)]
mod tests;
