//! A task report's JSON text read into the fields one types (`task_id`, `status`, `message`,
//! `response.response_type`) and its resource, and written back around a resource's text: what
//! those fields cannot hold (a field absent or not a string, unknown fields, the key order, the
//! text each was written as) is kept aside and goes out as it was read. The terminal UI's report
//! composer keeps one [`AsRead`] under what is typed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::validate::{self, Finding};

/// Where the resource sits in a report.
pub const RESOURCE_POINTER: &str = "/response/resource";

/// The fields typed as text, in this order; the last is in `response`.
pub const FIELDS: [&str; 4] = ["task_id", "status", "message", "response_type"];

/// Stands for the resource while a report is written around a resource's text.
const RESOURCE_MARK: &str = "\u{0}appdeck-resource\u{0}";

/// A field of a report as it was read, when it was not a string.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kept {
    /// Not in the report at all.
    Absent,
    /// A value of another JSON type (`"message": 404`), shown as its JSON text.
    Value(Value),
}

/// What a report that was read holds besides its typed fields and its resource. Empty for a
/// report composed from nothing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AsRead {
    /// Top-level fields besides the typed ones (and `response`'s besides `response_type` and
    /// `resource`, under `response`), sent as they were.
    pub extra: Map<String, Value>,
    /// Typed fields as they were read when that was not a string (absent, `404`), by name:
    /// sent as they were until the field is edited.
    pub kept: BTreeMap<String, Kept>,
    /// The JSON text of each field that was read (by JSON pointer: `/x`, `/response/y`; the
    /// resource aside): a field of `extra` or `kept` that still holds that value is written as
    /// that text, so its numbers and escapes stay as they were.
    pub written: BTreeMap<String, String>,
    /// The order of the keys of the report that was read, and of its `response`: the report is
    /// written with its keys in that order (new ones after).
    pub key_order: (Vec<String>, Vec<String>),
}

/// A report read from its text: its typed fields (in [`FIELDS`]' order; a field that is not a
/// string as its JSON text), its resource's text as written, and the rest.
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    pub fields: [String; 4],
    pub resource: String,
    pub as_read: AsRead,
}

impl AsRead {
    /// Reads `report`, parsed from `text`.
    pub fn read(report: &Value, text: &str) -> Read {
        let mut extra = report.as_object().cloned().unwrap_or_default();
        let keys = |map: &Map<String, Value>| map.keys().cloned().collect::<Vec<_>>();
        let response_keys = match extra.get("response") {
            Some(Value::Object(response)) => keys(response),
            _ => Vec::new(),
        };
        let key_order = (keys(&extra), response_keys);
        let mut kept = BTreeMap::new();
        let mut take_string = |map: &mut Map<String, Value>, key: &str| match map.shift_remove(key)
        {
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
        };
        let [task_id, status, message, response_type] = FIELDS;
        let task_id = take_string(&mut extra, task_id);
        let status = take_string(&mut extra, status);
        let message = take_string(&mut extra, message);
        let mut response = match extra.shift_remove("response") {
            Some(Value::Object(map)) => map,
            _ => Map::new(),
        };
        let response_type = take_string(&mut response, response_type);
        response.shift_remove("resource");
        if !response.is_empty() {
            extra.insert("response".into(), Value::Object(response));
        }
        Read {
            fields: [task_id, status, message, response_type],
            resource: resource_as_written(report, text),
            as_read: AsRead {
                extra,
                kept,
                written: written_fields(text),
                key_order,
            },
        }
    }

    /// The report without its resource: each field as `typed` (in [`FIELDS`]' order), or as
    /// it was read (kept).
    pub fn header(&self, typed: [&str; 4]) -> Map<String, Value> {
        let put = |map: &mut Map<String, Value>, key: &str, typed: &str| {
            let value = match self.kept.get(key) {
                None => Value::from(typed),
                Some(Kept::Absent) => return,
                Some(Kept::Value(value)) => value.clone(),
            };
            map.insert(key.into(), value);
        };
        let mut header = Map::new();
        for (key, typed) in FIELDS.into_iter().zip(typed).take(3) {
            put(&mut header, key, typed);
        }
        let mut response = match self.extra.get("response") {
            Some(Value::Object(map)) => map.clone(),
            _ => Map::new(),
        };
        put(&mut response, FIELDS[3], typed[3]);
        header.insert("response".into(), Value::Object(response));
        for (key, value) in &self.extra {
            if key != "response" {
                header.insert(key.clone(), value.clone());
            }
        }
        header
    }

    /// The header's fields around `resource`, in the order of the report that was read.
    pub fn around(&self, typed: [&str; 4], resource: Value) -> Value {
        let mut body = assemble(&self.header(typed), resource);
        let (order, response_order) = &self.key_order;
        if let Value::Object(map) = &mut body {
            in_order(map, order);
            if let Some(Value::Object(response)) = map.get_mut("response") {
                in_order(response, response_order);
            }
        }
        body
    }

    /// The report around `resource` (JSON text) as compact text: the header's fields written
    /// by serde_json, but each still holding what was read written as it was read
    /// ([`AsRead::written`]), and the resource as written. `None` when a mark cannot be put in
    /// its place (a text holding a mark's own text).
    pub fn text_around(&self, typed: [&str; 4], resource: &str) -> Option<String> {
        let mark = Value::from(RESOURCE_MARK);
        let mut body = self.around(typed, mark.clone());
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

    /// The whole report laid out (pretty), around `resource` as typed: its numbers and escapes
    /// as written (a parsed value would give `1e+400` for `1E400`), and a resource that is not
    /// JSON put in its place as it is.
    pub fn pretty_around(&self, typed: [&str; 4], resource: &str) -> String {
        let spliced = crate::validate::parse_json(resource)
            .ok()
            .and_then(|_| self.text_around(typed, resource));
        if let Some(whole) = spliced {
            return crate::json_text::pretty(&whole);
        }
        let report = assemble(&self.header(typed), Value::from(RESOURCE_MARK));
        let laid_out = serde_json::to_string_pretty(&report).unwrap_or_else(|_| "{}".into());
        let resource = match crate::validate::parse_json(resource) {
            Ok(_) => crate::json_text::pretty(resource),
            Err(_) => resource.to_owned(),
        };
        put_resource(&laid_out, &resource).unwrap_or(laid_out)
    }
}

/// The checks of the report `header` around the resource's text `resource`, those of `appdeck
/// report FILE`: the rules, the resource's properties against its type's schema when `types` (a
/// connect payload listing them) knows its type, and keys written twice in the resource. `Err`:
/// the one finding of a resource that is not JSON (with, for a syntax error, its 0-based line
/// and column in `resource`) or of a report that cannot be checked.
pub fn check(
    header: &Map<String, Value>,
    resource: &str,
    types: Option<&Value>,
) -> Result<Vec<Finding>, validate::Stopped> {
    let parsed = validate::parse_or_finding(resource, RESOURCE_POINTER)?;
    let types = types.filter(|types| validate::type_schema(types, &parsed).is_some());
    let body = assemble(header, parsed);
    let validation = validate::validate_value(&body, types)
        .map_err(|error| (Finding::error("", error.to_string()), None))?;
    let mut findings = validation.findings;
    // The parsed value keeps the last of a key written twice: only the text can tell.
    findings.extend(
        validate::duplicate_key_findings(resource).map(|finding| Finding {
            pointer: format!("{RESOURCE_POINTER}{}", finding.pointer),
            ..finding
        }),
    );
    Ok(findings)
}

/// The report to send: the header with the resource put in `response.resource`.
pub fn assemble(header: &Map<String, Value>, resource: Value) -> Value {
    let mut body = header.clone();
    let response = body
        .entry("response")
        .or_insert_with(|| Value::Object(Map::new()));
    if !response.is_object() {
        *response = Value::Object(Map::new());
    }
    if let Value::Object(response) = response {
        response.insert("resource".to_owned(), resource);
    }
    Value::Object(body)
}

/// `laid_out`, a report laid out with [`RESOURCE_MARK`] as its resource, with the text
/// `resource` in the (first) mark's place, its lines indented as the line the mark is on.
fn put_resource(laid_out: &str, resource: &str) -> Option<String> {
    let mark = Value::from(RESOURCE_MARK).to_string();
    let at = laid_out.find(&mark)?;
    let indent = laid_out[..at]
        .rsplit('\n')
        .next()
        .map_or(0, |line| line.len() - line.trim_start().len());
    let resource = resource.replace('\n', &format!("\n{}", " ".repeat(indent)));
    Some(laid_out.replacen(&mark, &resource, 1))
}

/// The text of `report`'s resource (`report` is `text` parsed): as written, so its numbers and
/// escapes stay as they are, which the parsed value does not keep. Written anew from the value
/// only when the text does not hold it where the value has it (a key written twice).
pub fn resource_as_written(report: &Value, text: &str) -> String {
    let resource = report
        .get("response")
        .and_then(|r| r.get("resource"))
        .unwrap_or(&Value::Null);
    let written = crate::json_text::lines(text)
        .into_iter()
        .rev()
        .find(|l| l.pointer == RESOURCE_POINTER)
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
    use crate::json_text::child_pointer;
    let mut written = BTreeMap::new();
    for (key, value) in crate::json_text::members(text) {
        if key != "response" {
            written.insert(child_pointer("", &key), value.to_owned());
            continue;
        }
        for (inner, value) in crate::json_text::members(value) {
            if inner != "resource" {
                written.insert(child_pointer("/response", &inner), value.to_owned());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_resource_goes_in_the_marks_place_its_lines_indented_as_the_marks() {
        let mark = Value::from(RESOURCE_MARK).to_string();
        let laid_out = format!("{{\n  \"response\": {{\n    \"resource\": {mark}\n  }}\n}}");
        let put = put_resource(&laid_out, "{\n  \"a\": 1\n}");
        let expected = "{\n  \"response\": {\n    \"resource\": {\n      \"a\": 1\n    }\n  }\n}";
        assert_eq!(put.as_deref(), Some(expected));
        assert_eq!(put_resource("{}", "1"), None, "no mark, no place");
    }
}
