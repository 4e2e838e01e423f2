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

use std::collections::BTreeMap;
use std::sync::Arc;

use ratatui_textarea::TextArea;
use serde_json::{Map, Value};

use crate::app::panes::composer::{self, Composer};
use crate::app::widgets::LineInput;
use crate::app::widgets::json_editor;

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
    /// Top-level fields besides those above (from a file), sent as they were.
    pub extra: Map<String, Value>,
    /// Fields above as they were read when that was not a string (absent, `404`), by label:
    /// sent as they were, and flagged by the checks, until the field is edited. Opening a file
    /// changes nothing in it.
    pub kept: BTreeMap<String, Kept>,
    /// The JSON text of each field of a report that was read (by JSON pointer: `/x`,
    /// `/response/y`; the resource aside): a field of `extra` or `kept` that still holds that
    /// value is written as that text, so its numbers and escapes stay as they were.
    pub written: BTreeMap<String, String>,
    /// The order of the keys of the report that was read, and of its `response`: the report is
    /// sent with its keys in that order (new ones after). Empty for a report composed here.
    pub key_order: (Vec<String>, Vec<String>),
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

/// A field of a report as it was read, when it was not a string.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kept {
    /// Not in the report at all.
    Absent,
    /// A value of another JSON type (`"message": 404`), shown as its JSON text.
    Value(Value),
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
        let resource = resource_as_written(report, text);
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
            extra: Map::new(),
            kept: BTreeMap::new(),
            written: BTreeMap::new(),
            key_order: Default::default(),
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
    /// top-level fields the composer has no place for are kept and sent as they were, and so
    /// are fields that are absent or not strings (see [`ReportComposer::kept`]). `text` is the
    /// report's JSON text, which the resource is laid out from.
    pub(crate) fn set_report(&mut self, report: &Value, text: &str) {
        let written = written_fields(text);
        let mut extra = report.as_object().cloned().unwrap_or_default();
        let keys = |map: &Map<String, Value>| map.keys().cloned().collect::<Vec<_>>();
        let response_keys = match extra.get("response") {
            Some(Value::Object(response)) => keys(response),
            _ => Vec::new(),
        };
        self.key_order = (keys(&extra), response_keys);
        let mut kept = BTreeMap::new();
        let mut take_string = |map: &mut Map<String, Value>, field: Field| {
            let key = field.label();
            match map.shift_remove(key) {
                Some(Value::String(s)) => s,
                Some(other) => {
                    let shown = other.to_string();
                    kept.insert(key.to_owned(), Kept::Value(other));
                    shown
                }
                None => {
                    kept.insert(key.to_owned(), Kept::Absent);
                    String::new()
                }
            }
        };
        let task_id = take_string(&mut extra, Field::TaskId);
        let status = take_string(&mut extra, Field::Status);
        let message = take_string(&mut extra, Field::Message);
        let mut response = match extra.shift_remove("response") {
            Some(Value::Object(map)) => map,
            _ => Map::new(),
        };
        let response_type = take_string(&mut response, Field::ResponseType);
        response.shift_remove("resource");
        if !response.is_empty() {
            extra.insert("response".into(), Value::Object(response));
        }
        let text = crate::json_text::pretty(&resource_as_written(report, text));
        let text = crate::sanitize::json_for_terminal(&text);
        if text != self.resource_text() {
            self.replace_resource(&text);
        }
        self.task_id.set(&task_id);
        self.task_id_provisional = false;
        self.status = status;
        self.message.set(&message);
        self.response_type.set(&response_type);
        self.extra = extra;
        self.kept = kept;
        self.written = written;
    }

    /// The resource as typed.
    pub(crate) fn resource_text(&self) -> String {
        json_editor::text_of(&self.resource)
    }

    /// The report without its resource: each field as typed, or as it was read (kept).
    pub(crate) fn header(&self) -> Map<String, Value> {
        let put = |map: &mut Map<String, Value>, field: Field, typed: &str| {
            let key = field.label();
            let value = match self.kept.get(key) {
                None => Value::from(typed),
                Some(Kept::Absent) => return,
                Some(Kept::Value(value)) => value.clone(),
            };
            map.insert(key.into(), value);
        };
        let mut header = Map::new();
        put(&mut header, Field::TaskId, self.task_id.text());
        put(&mut header, Field::Status, &self.status);
        put(&mut header, Field::Message, self.message.text());
        let mut response = match self.extra.get("response") {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        put(
            &mut response,
            Field::ResponseType,
            self.response_type.text(),
        );
        header.insert("response".into(), Value::Object(response));
        for (key, value) in &self.extra {
            if key != "response" {
                header.insert(key.clone(), value.clone());
            }
        }
        header
    }

    /// Whether `field` still holds what was read rather than typed, and how to show it.
    pub(crate) fn kept(&self, field: Field) -> Option<&Kept> {
        self.kept.get(field.label())
    }

    /// The whole report, if the resource is JSON; else the syntax error, as a finding says it
    /// (the tests compare it; what is sent is the text of `Kind::body`, the report's as typed).
    #[cfg(test)]
    pub(crate) fn body(&self) -> Result<Value, String> {
        let text = self.resource_text();
        match crate::validate::parse_json(&text) {
            Ok(resource) => Ok(self.around(resource)),
            Err(error) => Err(error.to_string()),
        }
    }

    /// The report with `resource` (JSON text) as its resource: the header's fields as typed,
    /// the resource's text as written (compact). `R` over marked rows sends one a resource.
    fn body_about(&self, resource: &str) -> Result<crate::app::Body, String> {
        let parsed = crate::validate::parse_json(resource).map_err(|e| e.to_string())?;
        let value = self.around(parsed);
        match self.text_around(resource) {
            Some(text) => Ok(crate::app::Body::new(&text, value)),
            None => Ok(crate::app::Body::of_value(value)),
        }
    }

    /// The report around `resource` (JSON text) as compact text: the header's fields written
    /// by serde_json, but each still holding what was read written as it was read
    /// ([`Report::written`]), and the resource as written. `None` when a mark cannot be put in
    /// its place (a text holding a mark's own text).
    pub(crate) fn text_around(&self, resource: &str) -> Option<String> {
        let mark = Value::from(external::RESOURCE_MARK);
        let mut body = self.around(mark.clone());
        let mut splices = vec![(mark.to_string(), crate::json_text::compact(resource))];
        for (i, (pointer, text)) in self.written.iter().enumerate() {
            let Some(slot) = body.pointer_mut(pointer) else {
                continue;
            };
            if crate::validate::parse_json(text).ok().as_ref() != Some(slot) {
                continue;
            }
            let mark = Value::from(format!("\u{0}appdeck-field-{i}\u{0}"));
            splices.push((mark.to_string(), crate::json_text::compact(text)));
            *slot = mark;
        }
        let mut out = serde_json::to_string(&body).ok()?;
        for (mark, text) in splices {
            if out.matches(&mark).count() != 1 {
                return None;
            }
            out = out.replacen(&mark, &text, 1);
        }
        Some(out)
    }

    /// The header's fields around `resource`, in the order of the report that was read.
    fn around(&self, resource: Value) -> Value {
        let mut body = check::assemble(&self.header(), resource);
        let (order, response_order) = &self.key_order;
        if let Value::Object(map) = &mut body {
            in_order(map, order);
            if let Some(Value::Object(response)) = map.get_mut("response") {
                in_order(response, response_order);
            }
        }
        body
    }

    /// Replaces the resource's text as one undoable edit.
    pub(crate) fn replace_resource(&mut self, text: &str) {
        json_editor::replace_text(&mut self.resource, text);
    }
}

/// The text of `report`'s resource (`report` is `text` parsed): as written, so its numbers and
/// escapes stay as they are, which the parsed value does not keep. Written anew from the value
/// only when the text does not hold it where the value has it (a key written twice).
fn resource_as_written(report: &Value, text: &str) -> String {
    let resource = report
        .get("response")
        .and_then(|r| r.get("resource"))
        .unwrap_or(&Value::Null);
    let written = crate::json_text::lines(text)
        .into_iter()
        .rev()
        .find(|l| l.pointer == check::RESOURCE_POINTER)
        .map(|l| &text[l.span]);
    match written {
        Some(written) if crate::validate::parse_json(written).ok().as_ref() == Some(resource) => {
            written.to_owned()
        }
        _ => serde_json::to_string(resource).unwrap_or_else(|_| "null".to_owned()),
    }
}

/// The text of each member of a report's top level and of its `response` (the resource aside),
/// by JSON pointer; of a key written twice, the last, as the parsed value holds it.
fn written_fields(text: &str) -> BTreeMap<String, String> {
    let pointer = |key: &str| key.replace('~', "~0").replace('/', "~1");
    let mut written = BTreeMap::new();
    for (key, value) in crate::json_text::members(text) {
        if key != "response" {
            written.insert(format!("/{}", pointer(&key)), value.to_owned());
            continue;
        }
        for (inner, value) in crate::json_text::members(value) {
            if inner != "resource" {
                written.insert(format!("/response/{}", pointer(&inner)), value.to_owned());
            }
        }
    }
    written
}

/// Puts the keys of `map` that `order` names first, in that order, and the rest after them as
/// they are.
fn in_order(map: &mut Map<String, Value>, order: &[String]) {
    if order.is_empty() {
        return;
    }
    let mut rest = std::mem::take(map);
    for key in order {
        if let Some((key, value)) = rest.shift_remove_entry(key) {
            map.insert(key, value);
        }
    }
    map.extend(rest);
}

/// A `task_id` that says it must be replaced, unique enough not to collide by accident.
fn provisional_task_id(tag: &str, seed: u64) -> String {
    format!("{}{tag}-{seed}", check::PROVISIONAL_PREFIX)
}

#[cfg(test)]
mod tests;
