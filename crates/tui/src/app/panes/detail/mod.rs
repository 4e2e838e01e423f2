//! The detail view of one resource: every field that is present (unknown ones too), its links,
//! and its `properties` as a tree beside their raw JSON. Everything shown is computed once when
//! the view opens, so a frame only slices what is visible. Its keys are in `keys.rs`, its
//! handling of actions in `update.rs`, where its panes go in `layout.rs`.

mod changed;
pub(crate) mod keys;
pub(crate) mod layout;
mod open;
pub(crate) mod raw;
pub(crate) mod reports;
mod update;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use ratatui::layout::Rect;
use serde_json::Value;

use crate::api::{Field, Link, PageItem, Resource};
use crate::app::action::{Command, RequestIds};
use crate::app::widgets::json_tree::JsonTree;
use crate::app::widgets::{LineInput, ListCursor};
use crate::sanitize;
use appdeck_listing::NotLive;
pub(crate) use open::{OPEN_IN_BACKGROUND_BYTES, OpenDetail, detail_of};
use raw::{RawJson, RawSource};

/// Longest value shown on one field line; the raw pane has the rest.
const FIELD_PREVIEW_CHARS: usize = 300;
/// Width of the label column of the fields pane.
pub(crate) const LABEL_WIDTH: usize = 16;
/// Columns a timestamp takes as the fields pane shows it: `2026-11-20 14:03:11 UTC (3 hours
/// ago)`, with room for the longest "how long ago".
const TIMESTAMP_WIDTH: usize = 23 + 2 + 16 + 1;
/// Most search hits kept, so a one-letter search over 5 MB stays quick.
const MAX_HITS: usize = 10_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DetailPart {
    Fields,
    Tree,
    Raw,
}

impl DetailPart {
    pub const ALL: [DetailPart; 3] = [DetailPart::Fields, DetailPart::Tree, DetailPart::Raw];

    pub(crate) fn index(self) -> usize {
        Self::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }

    pub(crate) fn cycle(self, forward: bool) -> Self {
        let n = Self::ALL.len();
        let i = self.index();
        Self::ALL[if forward {
            (i + 1) % n
        } else {
            (i + n - 1) % n
        }]
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// A heading such as "Links" or "Other fields".
    Section,
    Field,
    /// A field the spec does not name.
    Extra,
    Link,
    /// Why the item is marked (wrong types, not an object).
    Problem,
    /// A report sent about this resource, from the history (`Enter` shows it).
    Report,
}

/// One line of the fields pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldLine {
    pub kind: FieldKind,
    pub label: String,
    /// What the line shows: sanitised, and shortened for long values.
    pub value: String,
    /// Parsed timestamp, so the view can say how long ago it was.
    pub timestamp: Option<DateTime<Utc>>,
    /// The URL `o` opens on this line.
    pub url: Option<String>,
    /// What `y` copies: the value as it came, not its on-screen preview.
    pub copy: String,
    /// On a report sent about the resource: its index in [`Detail::reports`].
    pub report: Option<usize>,
}

impl FieldLine {
    fn new(kind: FieldKind, label: impl Into<String>, value: impl Into<String>) -> Self {
        let value = value.into();
        FieldLine {
            kind,
            label: label.into(),
            copy: value.clone(),
            value,
            timestamp: None,
            url: None,
            report: None,
        }
    }

    /// A line showing `value`, which `y` copies whole (a string as it is, anything else as JSON).
    fn of_value(kind: FieldKind, label: impl Into<String>, value: &Value) -> Self {
        let mut line = FieldLine::new(kind, label, preview(value));
        line.copy = match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        line
    }
}

/// A search within the focused pane.
#[derive(Clone, Debug, Default)]
pub struct DetailSearch {
    pub input: LineInput,
    /// Whether the input has focus (typing) or the search is confirmed (`n`/`N` navigate).
    pub editing: bool,
    /// Lines (fields, raw) or node pointers (tree) that match, in order.
    pub hits: Vec<Hit>,
    pub current: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Hit {
    Line(usize),
    Node(String),
}

#[derive(Clone, Debug)]
pub struct Detail {
    pub item: Arc<PageItem>,
    pub title: String,
    pub fields: Vec<FieldLine>,
    pub tree: JsonTree,
    /// The raw pane's text of the properties, and of the whole resource (`a` switches).
    raw_properties: RawJson,
    raw_resource: RawJson,
    pub raw_source: RawSource,
    /// Whether the raw pane wraps long lines (`w`) instead of cutting them with `…`.
    pub raw_wrap: bool,
    /// Columns the fields pane needs to show every line whole (label and value), for its width.
    pub fields_width: usize,
    pub focus: DetailPart,
    pub cursors: [ListCursor; 3],
    pub search: Option<DetailSearch>,
    /// `:export` writing this resource to a file.
    pub exporting: Option<crate::app::export::Exporting>,
    /// The item's JSON text as the service sent it, when opened from the list: what `:export`
    /// writes (`None`: the item re-serialised compact).
    pub sent: Option<Arc<str>>,
    /// The reports sent about this resource, from the history.
    pub reports: reports::ReportsAbout,
    /// Why the resource is not live (a kept row, or one `:watch` found gone), when opened from the list on such a row: the
    /// title, `y`, `:export` and `R` say so, as the list does.
    pub(crate) not_live: Option<NotLive>,
    /// When a `:watch` look last found the resource changed, the detail following it: the
    /// title says so (see `changed.rs`).
    pub(crate) changed_by_look: Option<std::time::Instant>,
    /// A look's change being laid out off the UI thread (a large row): the detail says it is
    /// updating, and takes the change in when it answers (see `changed.rs`).
    pub(crate) following: Option<changed::Following>,
}

impl Detail {
    /// The detail said not live for this reason (`None`: live).
    pub(crate) fn not_live(mut self, not_live: Option<NotLive>) -> Detail {
        self.not_live = not_live;
        self
    }

    /// ` (kept 5 min ago, not live)` after what the resource gave, or nothing when it is live.
    fn not_live_note(&self, now: std::time::Instant) -> String {
        NotLive::note_of(self.not_live, now)
    }

    /// The detail of `item` with no text of its own (the raw pane lays out its JSON).
    #[cfg(test)]
    pub(crate) fn open(item: Arc<PageItem>) -> Self {
        let text = serde_json::to_string(&item.to_json()).unwrap_or_default();
        Detail::laid_out(item, Arc::from(text), None)
    }

    /// The detail of an item read from `json`, the text it came as: the raw pane lays that text
    /// out, and `:export` writes it.
    pub(crate) fn open_sent(item: Arc<PageItem>, json: &str) -> Self {
        let sent: Arc<str> = Arc::from(json);
        let text = match item.as_ref() {
            // An item the parser could not hold is shown as its text, quoted.
            PageItem::Malformed(m) if m.source.is_some() => {
                Arc::from(serde_json::to_string(&m.raw).unwrap_or_default())
            }
            _ => sent.clone(),
        };
        Detail::laid_out(item, text, Some(sent)).mark_keys_twice(json)
    }

    fn laid_out(item: Arc<PageItem>, text: Arc<str>, sent: Option<Arc<str>>) -> Self {
        let raw_resource = RawJson::whole(text.clone());
        let (title, fields, properties) = match item.as_ref() {
            PageItem::Resource(r) => (
                sanitize::line(
                    r.title()
                        .or(r.id.get().map(String::as_str))
                        .unwrap_or("(untitled)"),
                )
                .into_owned(),
                field_lines(r, &item.problems(), &raw_resource),
                r.properties.get().map(|p| Value::Object(p.clone())),
            ),
            PageItem::Malformed(m) => (
                "malformed item".to_owned(),
                vec![FieldLine::new(
                    FieldKind::Problem,
                    "problem",
                    sanitize::line(&m.reason),
                )],
                Some(m.raw.clone()),
            ),
        };
        // A malformed item's properties are the item itself: no second layout.
        let raw_properties = match item.as_ref() {
            PageItem::Resource(_) if properties.is_some() => {
                let within = raw_resource.span_of("/properties").unwrap_or(0..0);
                RawJson::new(text, within)
            }
            PageItem::Resource(_) => RawJson::default(),
            PageItem::Malformed(_) => raw_resource.clone(),
        };
        let properties = Arc::new(properties.unwrap_or(Value::Null));
        let focus = if raw_properties.is_empty() || !matches!(item.as_ref(), PageItem::Malformed(_))
        {
            DetailPart::Fields
        } else {
            DetailPart::Raw
        };
        Detail {
            tree: JsonTree::new(properties),
            fields_width: fields_width(&fields),
            item,
            title,
            fields,
            raw_properties,
            raw_resource,
            raw_source: RawSource::Properties,
            raw_wrap: false,
            focus,
            cursors: [ListCursor::default(); 3],
            search: None,
            exporting: None,
            sent,
            reports: reports::ReportsAbout::default(),
            not_live: None,
            changed_by_look: None,
            following: None,
        }
    }

    /// A key written twice in one object of `json` is marked, as a wrong field is: the parsed
    /// item keeps the last, so only the text tells that another was there.
    fn mark_keys_twice(mut self, json: &str) -> Self {
        let twice: Vec<FieldLine> = crate::validate::duplicate_keys(json)
            .into_iter()
            .map(|(object, key)| {
                let place = if object.is_empty() {
                    "the item".to_owned()
                } else {
                    object
                };
                let problem = format!(
                    "the key {} is written twice in {place}: the last is shown, the other lost",
                    serde_json::Value::from(key)
                );
                FieldLine::new(FieldKind::Problem, "problem", sanitize::line(&problem))
            })
            .collect();
        if !twice.is_empty() {
            self.insert_after_problems(twice);
        }
        self
    }

    /// Puts `lines` at the top of the fields, below the item's problems; returns where.
    fn insert_after_problems(&mut self, lines: Vec<FieldLine>) -> usize {
        let at = self
            .fields
            .iter()
            .take_while(|f| f.kind == FieldKind::Problem)
            .count();
        self.fields.splice(at..at, lines);
        self.fields_width = fields_width(&self.fields);
        at
    }

    /// What the detail asks for as it opens: the reports sent about its resource (one with an
    /// `id` only).
    pub(crate) fn asks(&mut self, ids: &mut RequestIds) -> Vec<Command> {
        let PageItem::Resource(resource) = self.item.as_ref() else {
            return Vec::new();
        };
        let Some(id) = resource.id.get() else {
            return Vec::new();
        };
        // The report that created it carried no `id` yet: its type and external id find it.
        let about = crate::store::ResourceKey {
            id: id.clone(),
            resource_type: resource.resource_type.get().cloned(),
            external_id: resource.external_id.get().cloned(),
        };
        vec![self.reports.ask(about, ids)]
    }

    /// The history's answer: the reports go at the end of the fields pane.
    pub(crate) fn reports_read(&mut self, read: Result<Vec<crate::store::HistoryEntry>, String>) {
        let lines = self.reports.lines(read);
        self.fields.extend(lines);
        self.fields_width = fields_width(&self.fields);
    }

    /// With what a `:watch` look found changed in it (`d` on a row marked `~`), field by field
    /// at the top of the fields, the cursor on the first: the pointer, the value before, the
    /// value now (`y` copies the value now). `count` is how many changed, when more than listed.
    pub(crate) fn with_changes(mut self, changes: &[crate::changes::Change], count: usize) -> Self {
        // A string is shown and copied as its value, without quotes; any other value as written.
        let value_of = |text: &str| match serde_json::from_str::<String>(text) {
            Ok(string) => string,
            Err(_) => text.to_owned(),
        };
        let shown = |text: &Option<String>| match text {
            Some(text) => preview(&Value::String(value_of(text))),
            None => "(none)".to_owned(),
        };
        let heading = match count > changes.len() {
            true => format!("{count} fields; the first {} here", changes.len()),
            false => crate::text::counted(count, "field"),
        };
        let mut lines = vec![FieldLine::new(
            FieldKind::Section,
            "Changed since the look before",
            heading,
        )];
        for change in changes {
            let pointer = match change.pointer.as_str() {
                "" => "(the whole item)".to_owned(),
                pointer => sanitize::line(pointer).into_owned(),
            };
            let mut line = FieldLine::new(
                FieldKind::Field,
                pointer,
                format!("{} → {}", shown(&change.before), shown(&change.after)),
            );
            line.copy = change.after.as_deref().map(value_of).unwrap_or_default();
            lines.push(line);
        }
        let at = self.insert_after_problems(lines);
        self.focus = DetailPart::Fields;
        self.cursors[DetailPart::Fields.index()].selected = at + usize::from(!changes.is_empty());
        self
    }

    /// What the raw JSON pane's title says it shows: the properties or the whole resource; for a
    /// malformed item (no resource, so no properties) the item as it came.
    pub(crate) fn raw_label(&self) -> &'static str {
        match self.item.as_ref() {
            PageItem::Malformed(_) => "the item as it came",
            PageItem::Resource(_) => self.raw_source.label(),
        }
    }

    /// What the raw pane shows now: the properties or the whole resource.
    pub(crate) fn raw(&self) -> &RawJson {
        match self.raw_source {
            RawSource::Properties => &self.raw_properties,
            RawSource::Resource => &self.raw_resource,
        }
    }

    /// `a`: the raw pane switches between the properties and the whole resource, staying on
    /// the same value when the other side shows it too.
    pub(crate) fn toggle_raw_source(&mut self, height: usize) {
        let here = self
            .raw()
            .pointer(self.cursor(DetailPart::Raw).selected)
            .map(str::to_owned);
        self.raw_source = self.raw_source.toggled();
        let line = here
            .and_then(|p| raw::map_pointer(&p, self.raw_source))
            .and_then(|p| self.raw().line_of(&p))
            .unwrap_or(0);
        let len = self.raw().len();
        let cursor = self.cursor_mut(DetailPart::Raw);
        *cursor = ListCursor::default();
        cursor.select(line, len, height);
    }

    /// Columns of text in a row of the raw pane in `body` (its width less the borders and the
    /// selection gutter): what its lines wrap at.
    pub(crate) fn raw_text_width(&self, body: Rect) -> usize {
        let inner = crate::app::layout::inset(self.areas(body).pane(DetailPart::Raw));
        usize::from(inner.width).saturating_sub(1)
    }

    /// Screen rows line `line` of the raw pane takes: one, or when wrapping, as many as it wraps
    /// to (counted up to `cap`, the pane's height: a line is never shown past it).
    pub(crate) fn raw_rows(&self, line: usize, width: usize, cap: usize) -> usize {
        match (self.raw_wrap, self.raw().lines().get(line)) {
            (true, Some(text)) => crate::text::wrap_ranges(text, width, cap.max(1)).len(),
            _ => 1,
        }
    }

    /// While wrapping, scrolls the raw pane just enough that the selected line's first row and
    /// the lines above it down to the top fit: a wrapped line takes more than one row.
    pub(crate) fn keep_raw_in_view(&mut self, body: Rect) {
        if !self.raw_wrap {
            return;
        }
        let (width, height) = (
            self.raw_text_width(body),
            self.pane_height(DetailPart::Raw, body).max(1),
        );
        let cursor = self.cursor(DetailPart::Raw);
        let mut offset = cursor.offset.min(cursor.selected);
        // The rows from `offset` to the selected line's first row must fit in the pane.
        while offset < cursor.selected {
            let above: usize = (offset..cursor.selected)
                .map(|l| self.raw_rows(l, width, height))
                .sum();
            if above < height {
                break;
            }
            offset += 1;
        }
        self.cursor_mut(DetailPart::Raw).offset = offset;
    }

    /// Where the panes are in `body` (one at a time when it is low).
    pub(crate) fn areas(&self, body: Rect) -> layout::DetailAreas {
        layout::areas(
            body,
            self.search.is_some(),
            self.focus,
            (self.fields_width, self.tree.widest()),
        )
    }

    /// How many lines `pane` shows in `body`.
    pub(crate) fn pane_height(&self, pane: DetailPart, body: Rect) -> usize {
        usize::from(crate::app::layout::inset(self.areas(body).pane(pane)).height)
    }

    pub(crate) fn pane_len(&self, pane: DetailPart) -> usize {
        match pane {
            DetailPart::Fields => self.fields.len(),
            DetailPart::Tree => self.tree.lines().len(),
            DetailPart::Raw => self.raw().len(),
        }
    }

    pub(crate) fn cursor(&self, pane: DetailPart) -> ListCursor {
        self.cursors[pane.index()]
    }

    pub(crate) fn cursor_mut(&mut self, pane: DetailPart) -> &mut ListCursor {
        &mut self.cursors[pane.index()]
    }

    /// What `o` opens: the link or string under the cursor of the focused pane, else the
    /// resource's `external_url`. Any string is offered, so that `open_url` refuses what is not
    /// http(s) instead of silently opening something else.
    pub(crate) fn url_under_cursor(&self) -> Option<String> {
        let selected = self.cursor(self.focus).selected;
        let here = match self.focus {
            DetailPart::Fields => self.fields.get(selected).and_then(|f| f.url.clone()),
            DetailPart::Tree => self
                .tree
                .lines()
                .get(selected)
                .and_then(|l| self.tree.root().pointer(&l.pointer))
                .and_then(Value::as_str)
                .map(str::to_owned),
            DetailPart::Raw => self
                .raw()
                .lines()
                .get(selected)
                .and_then(|l| string_in_line(l)),
        };
        here.or_else(|| self.item.resource()?.external_url.get().cloned())
    }

    /// What `y` copies: the value under the cursor as it came (not its on-screen preview), and
    /// what to call it. In the raw pane, the value the line belongs to: a closing `}` gives the
    /// object it closes, never the `}` alone.
    pub(crate) fn value_under_cursor(&self) -> Option<(String, &'static str)> {
        let selected = self.cursor(self.focus).selected;
        let as_text = |value: &Value| match value {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match self.focus {
            DetailPart::Fields => self.fields.get(selected).map(|f| {
                let what = if f.url.is_some() { "link" } else { "value" };
                (f.copy.clone(), what)
            }),
            DetailPart::Tree => {
                let line = self.tree.lines().get(selected)?;
                if let Some(text) = self.raw_properties.text_of(&line.pointer) {
                    return Some((raw::copied(text), "value"));
                }
                let value = self.tree.root().pointer(&line.pointer)?;
                Some((as_text(value), "value"))
            }
            DetailPart::Raw => Some((raw::copied(self.raw().text_at(selected)?), "value")),
        }
    }

    /// What `v` shows in full: where the value under the cursor is (a field's label, a JSON
    /// pointer), and the value itself (a string as it is, anything else as pretty JSON).
    pub(crate) fn value_to_show(&self) -> Option<(String, String)> {
        let selected = self.cursor(self.focus).selected;
        let pretty = |value: &Value| match value {
            Value::String(s) => s.clone(),
            other => serde_json::to_string_pretty(other).unwrap_or_default(),
        };
        let place = |prefix: &str, pointer: &str| {
            if pointer.is_empty() {
                prefix.to_owned()
            } else {
                format!("{prefix}{pointer}")
            }
        };
        match self.focus {
            DetailPart::Fields => {
                let field = self.fields.get(selected)?;
                match field.kind {
                    FieldKind::Section => None,
                    _ => Some((field.label.clone(), field.copy.clone())),
                }
            }
            DetailPart::Tree => {
                let line = self.tree.lines().get(selected)?;
                let place = place("properties", &line.pointer);
                // As it came (`1E2`), where the parsed value writes `1e+2`.
                if let Some(text) = self.raw_properties.text_of(&line.pointer) {
                    return Some((place, raw::shown(text)));
                }
                let value = self.tree.root().pointer(&line.pointer)?;
                Some((place, pretty(value)))
            }
            DetailPart::Raw => {
                let pointer = self.raw().pointer(selected)?;
                let text = self.raw().text_at(selected)?;
                let prefix = match self.raw_source {
                    RawSource::Properties => "properties",
                    RawSource::Resource => "resource",
                };
                Some((place(prefix, pointer), raw::shown(text)))
            }
        }
    }

    /// Recomputes the hits of the search for the focused pane.
    pub(crate) fn run_search(&mut self) {
        let Some(search) = &self.search else { return };
        let needle = search.input.text().to_lowercase();
        let hits = if needle.is_empty() {
            Vec::new()
        } else {
            match self.focus {
                DetailPart::Fields => line_hits(
                    self.fields
                        .iter()
                        .map(|f| format!("{} {}", f.label, f.value)),
                    &needle,
                ),
                DetailPart::Raw => line_hits(self.raw().lines().iter().cloned(), &needle),
                DetailPart::Tree => self
                    .tree
                    .search(&needle, MAX_HITS)
                    .into_iter()
                    .map(Hit::Node)
                    .collect(),
            }
        };
        if let Some(search) = &mut self.search {
            search.hits = hits;
            search.current = 0;
        }
    }

    /// Moves to hit `current + step` (wrapping) and puts the cursor on it.
    pub(crate) fn goto_hit(&mut self, step: isize, height: usize) {
        let Some(search) = &mut self.search else {
            return;
        };
        if search.hits.is_empty() {
            return;
        }
        let n = search.hits.len() as isize;
        search.current = (search.current as isize + step).rem_euclid(n) as usize;
        let line = match &search.hits[search.current] {
            Hit::Line(line) => Some(*line),
            Hit::Node(pointer) => {
                let pointer = pointer.clone();
                self.tree.reveal(&pointer)
            }
        };
        if let Some(line) = line {
            let len = self.pane_len(self.focus);
            self.cursor_mut(self.focus).select(line, len, height);
        }
    }
}

/// Columns the fields pane needs for every line whole: the selection gutter, the label column
/// (or a heading's or problem's own label) and the value.
pub(super) fn fields_width(fields: &[FieldLine]) -> usize {
    use unicode_width::UnicodeWidthStr;
    fields
        .iter()
        .map(|f| {
            let label = match f.kind {
                FieldKind::Section => f.label.width() + 4,
                FieldKind::Problem => (f.label.width() + 2).max(LABEL_WIDTH),
                _ => LABEL_WIDTH,
            };
            let value = match f.timestamp {
                Some(_) => TIMESTAMP_WIDTH,
                None => f.value.width(),
            };
            1 + label + value
        })
        .max()
        .unwrap_or(0)
}

fn line_hits(lines: impl Iterator<Item = String>, needle: &str) -> Vec<Hit> {
    lines
        .enumerate()
        .filter(|(_, l)| l.to_lowercase().contains(needle))
        .map(|(i, _)| Hit::Line(i))
        .take(MAX_HITS)
        .collect()
}

/// The fields pane of a resource: the spec's fields in its order, then unknown fields, then links.
fn field_lines(r: &Resource, problems: &[String], raw: &RawJson) -> Vec<FieldLine> {
    // What `y` and `v` give of a member: its text as it came (`1E2`, not the parsed `1e+2`).
    let as_sent = |mut line: FieldLine, key: &str, value: &Value| {
        let pointer = crate::json_text::child_pointer("", key);
        if let (false, Some(text)) = (value.is_string(), raw.text_of(&pointer)) {
            line.copy = raw::copied(text);
        }
        line
    };
    let mut lines: Vec<FieldLine> = problems
        .iter()
        .map(|p| FieldLine::new(FieldKind::Problem, "problem", sanitize::line(p)))
        .collect();
    let text_fields: [(&str, &Field<String>); 13] = [
        ("display_name", &r.display_name),
        ("name", &r.name),
        ("type", &r.resource_type),
        ("id", &r.id),
        ("external_id", &r.external_id),
        ("status", &r.status),
        ("external_url", &r.external_url),
        ("organization_id", &r.organization_id),
        ("created_by", &r.created_by),
        ("created_at", &r.created_at),
        ("updated_at", &r.updated_at),
        ("synced_at", &r.synced_at),
        ("deleted_at", &r.deleted_at),
    ];
    for (label, field) in text_fields {
        let Some(value) = field.to_json() else {
            continue;
        };
        let mut line = as_sent(
            FieldLine::of_value(FieldKind::Field, label, &value),
            label,
            &value,
        );
        if let Value::String(s) = &value {
            if label.ends_with("_at") {
                line.timestamp = DateTime::parse_from_rfc3339(s)
                    .ok()
                    .map(|t| t.with_timezone(&Utc));
            }
            if label == "external_url" {
                line.url = Some(s.clone());
            }
        }
        lines.push(line);
    }
    if let Some(value) = r.properties.to_json() {
        let line = FieldLine::of_value(FieldKind::Field, "properties", &value);
        let mut line = as_sent(line, "properties", &value);
        if let Value::Object(map) = &value {
            line.value = format!(
                "{} (tree and raw JSON on the right)",
                crate::text::counted(map.len(), "key")
            );
        }
        lines.push(line);
    }
    if !r.extra.is_empty() {
        lines.push(FieldLine::new(
            FieldKind::Section,
            "Other fields",
            "not in the spec, kept as sent",
        ));
        for (key, value) in &r.extra {
            let line = FieldLine::of_value(FieldKind::Extra, sanitize::line(key), value);
            lines.push(as_sent(line, key, value));
        }
    }
    if let Some(links) = r.links.to_json() {
        link_lines(&links, &mut lines);
    }
    lines
}

/// The `links` field, read from the JSON as it came so that nothing of an odd shape is hidden:
/// every object of `links.links` is a link, anything else is shown raw and marked.
fn link_lines(links: &Value, lines: &mut Vec<FieldLine>) {
    let Some(items) = links.get("links").and_then(Value::as_array) else {
        lines.push(FieldLine::new(
            FieldKind::Section,
            "Links",
            "not in the expected shape",
        ));
        lines.push(FieldLine::of_value(FieldKind::Problem, "links", links));
        return;
    };
    lines.push(FieldLine::new(
        FieldKind::Section,
        "Links",
        items.len().to_string(),
    ));
    for (i, item) in items.iter().enumerate() {
        let Value::Object(map) = item else {
            lines.push(FieldLine::of_value(
                FieldKind::Problem,
                format!("links[{i}]"),
                item,
            ));
            continue;
        };
        let link = Link::from_map(map.clone());
        let title = link.title.get().map(String::as_str).unwrap_or("(no title)");
        let kind = link.link_type.get().map(String::as_str).unwrap_or("-");
        let url = link.url.get().cloned();
        let shown_url = url.as_deref().map(sanitize::line).unwrap_or_default();
        let value = format!("[{}] {shown_url}", sanitize::line(kind));
        let mut line = FieldLine::new(FieldKind::Link, sanitize::line(title), value);
        line.copy = url.clone().unwrap_or_default();
        line.url = url;
        lines.push(line);
    }
}

/// The first JSON string on a line of pretty JSON that is a value (after `": "`, or alone in an
/// array), unescaped; for `o` in the raw pane.
fn string_in_line(line: &str) -> Option<String> {
    let trimmed = line.trim().trim_end_matches(',');
    let candidate = match trimmed.find("\": ") {
        Some(split) => &trimmed[split + 3..],
        None => trimmed,
    };
    serde_json::from_str::<String>(candidate).ok()
}

/// A value on one line: strings as they are (sanitised), anything else as compact JSON.
fn preview(value: &Value) -> String {
    let text = match value {
        Value::String(s) => sanitize::line(s).into_owned(),
        other => sanitize::line(&other.to_string()).into_owned(),
    };
    if text.chars().count() > FIELD_PREVIEW_CHARS {
        let mut cut: String = text.chars().take(FIELD_PREVIEW_CHARS).collect();
        cut.push('…');
        cut
    } else {
        text
    }
}

/// "3 minutes ago", "in 2 days": how far `t` is from `now`, coarsely.
pub(crate) fn relative_time(t: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let secs = (now - t).num_seconds();
    let (amount, future) = (secs.unsigned_abs(), secs < 0);
    let (n, unit) = match amount {
        0..=59 => return "just now".to_owned(),
        60..=3599 => (amount / 60, "minute"),
        3600..=86_399 => (amount / 3600, "hour"),
        86_400..=2_591_999 => (amount / 86_400, "day"),
        2_592_000..=31_535_999 => (amount / 2_592_000, "month"),
        _ => (amount / 31_536_000, "year"),
    };
    let plural = if n == 1 { "" } else { "s" };
    if future {
        format!("in {n} {unit}{plural}")
    } else {
        format!("{n} {unit}{plural} ago")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn open(value: Value) -> Detail {
        Detail::open(Arc::new(PageItem::from_value(value)))
    }

    #[test]
    fn shows_every_present_field_unknown_ones_and_links() {
        let d = open(json!({
            "id": "r1", "display_name": "Alpha", "created_at": "2026-11-20T10:00:00Z",
            "external_url": "https://example.com/a", "x_custom": {"k": 1},
            "properties": {"a": 1},
            "links": {"links": [{"title": "Docs", "type": "documentation", "url": "https://docs"}]}
        }));
        let labels: Vec<_> = d.fields.iter().map(|f| f.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "display_name",
                "id",
                "external_url",
                "created_at",
                "properties",
                "Other fields",
                "x_custom",
                "Links",
                "Docs"
            ]
        );
        assert!(d.fields[3].timestamp.is_some());
        assert_eq!(d.fields[8].url.as_deref(), Some("https://docs"));
        assert_eq!(d.raw().lines(), ["{", "  \"a\": 1", "}"]);
    }

    #[test]
    fn wrong_typed_fields_are_shown_and_marked() {
        let d = open(json!({"display_name": 7, "id": "x"}));
        assert_eq!(d.fields[0].kind, FieldKind::Problem);
        assert!(d.fields[0].value.contains("/display_name"));
        assert!(
            d.fields
                .iter()
                .any(|f| f.label == "display_name" && f.value == "7")
        );
    }

    /// `{"a":1,"a":2}` reads as `{"a":2}`: the detail says a key was written twice, where, and
    /// which one it shows, as it marks a wrong field (issue 36 item 3).
    #[test]
    fn a_key_written_twice_is_marked() {
        let json = r#"{"id": "x", "display_name": 7, "properties": {"a": 1, "a": 2}, "id": "y"}"#;
        let item = PageItem::from_value(serde_json::from_str(json).unwrap());
        let d = Detail::open_sent(Arc::new(item), json);
        let problems: Vec<&str> = d
            .fields
            .iter()
            .take_while(|f| f.kind == FieldKind::Problem)
            .map(|f| f.value.as_str())
            .collect();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(
            problems[0].contains("/display_name"),
            "the wrong field first"
        );
        assert_eq!(
            problems[1],
            "the key \"a\" is written twice in /properties: the last is shown, the other lost"
        );
        assert!(problems[2].contains("\"id\" is written twice in the item"));
        assert!(d.fields.iter().any(|f| f.label == "id" && f.value == "y"));
        assert!(d.fields_width >= 1 + LABEL_WIDTH + problems[1].chars().count());
        let once = r#"{"id": "x", "properties": {"a": 1}}"#;
        let item = PageItem::from_value(serde_json::from_str(once).unwrap());
        let d = Detail::open_sent(Arc::new(item), once);
        assert!(d.fields.iter().all(|f| f.kind != FieldKind::Problem));
    }

    #[test]
    fn url_under_cursor_falls_back_to_external_url() {
        let mut d = open(
            json!({"id": "x", "external_url": "https://e", "links": {"links": [{"url": "https://l"}]}}),
        );
        assert_eq!(d.url_under_cursor().as_deref(), Some("https://e"));
        let len = d.fields.len();
        d.cursor_mut(DetailPart::Fields).select(len - 1, len, 10);
        assert_eq!(d.url_under_cursor().as_deref(), Some("https://l"));
    }

    #[test]
    fn search_in_each_pane() {
        let mut d =
            open(json!({"id": "needle-id", "properties": {"deep": {"x": "a needle"}, "y": 2}}));
        d.search = Some(DetailSearch::default());
        d.search.as_mut().unwrap().input.set("NEEDLE");
        d.run_search();
        assert_eq!(d.search.as_ref().unwrap().hits, vec![Hit::Line(0)]);
        d.focus = DetailPart::Tree;
        d.run_search();
        assert_eq!(
            d.search.as_ref().unwrap().hits,
            vec![Hit::Node("/deep/x".into())]
        );
        d.goto_hit(0, 10);
        assert_eq!(d.cursor(DetailPart::Tree).selected, 1);
        d.focus = DetailPart::Raw;
        d.run_search();
        assert_eq!(d.search.as_ref().unwrap().hits.len(), 1);
    }

    #[test]
    fn relative_times() {
        let now = DateTime::parse_from_rfc3339("2026-11-21T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let at = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        assert_eq!(relative_time(at("2026-11-21T11:59:30Z"), now), "just now");
        assert_eq!(relative_time(at("2026-11-21T11:00:00Z"), now), "1 hour ago");
        assert_eq!(relative_time(at("2026-11-18T12:00:00Z"), now), "3 days ago");
        assert_eq!(
            relative_time(at("2026-11-21T12:05:00Z"), now),
            "in 5 minutes"
        );
    }
}

#[cfg(test)]
mod pane_tests;
