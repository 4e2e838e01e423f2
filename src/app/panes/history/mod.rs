//! The history view: every report and connect sent (from this TUI, another one, or the CLI), as
//! the local store recorded them, newest first; `/` filters, `Enter` shows a send in full (the
//! request and the answer), `E` opens a report in the composer to edit and resend, `c` copies a
//! send as curl. The store is read by the runtime off the UI thread ([`Command::LoadHistory`]);
//! what a send becomes as a record is in `record.rs`.
//!
//! Drafts not yet sent (issue 7, step 6) belong at the top of this view once the drafts table
//! exists: they would come with the same load and be prepended to `rows` in [`HistoryView::set_entries`].

pub mod keys;
pub mod layout;
pub mod record;
mod update;

use ratatui::layout::Rect;

use crate::app::action::{Command, RequestId, RequestIds};
use crate::app::widgets::{LineInput, ListCursor};
use crate::sanitize;
use crate::store::{HistoryEntry, SendKind};

/// How many sends the view loads: the newest ones.
pub const LOAD_LIMIT: usize = 1000;

/// One row of the table, its texts sanitised once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryRow {
    pub kind: String,
    /// `2026-11-22 12:40:03` (UTC).
    pub time: String,
    /// The request in a few words (a report's task, status and resource; a connect's app).
    pub sent: String,
    /// The HTTP status, or `-` when no answer came.
    pub http: String,
    /// The answer's `status` (and why, when not `ok`), or the failure.
    pub answer: String,
    /// Whether the answer was an `ok` (for its colour).
    pub ok: bool,
}

impl HistoryRow {
    fn of(entry: &HistoryEntry) -> Self {
        let sent = &entry.sent;
        let summary = sent.summary();
        let line = |text: &str| sanitize::line(text).into_owned();
        HistoryRow {
            kind: sent.kind.to_string(),
            time: sent.sent_at.format("%Y-%m-%d %H:%M:%S").to_string(),
            sent: line(&summary.request),
            http: sent
                .http_status
                .map_or_else(|| "-".to_owned(), |s| s.to_string()),
            ok: summary.answer == "ok" && sent.error.is_none(),
            answer: line(&summary.answer),
        }
    }
}

/// How a line of the detail is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineStyle {
    Heading,
    Field,
    Text,
    Problem,
}

/// One send in full (`Enter`): its lines, sanitised, and how far they are scrolled.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryDetail {
    /// Index into [`HistoryView::entries`].
    pub index: usize,
    pub lines: Vec<(LineStyle, String)>,
    pub scroll: usize,
}

#[derive(Clone, Debug)]
pub struct HistoryView {
    /// `None` until the runtime has loaded them.
    pub entries: Option<Vec<HistoryEntry>>,
    pub rows: Vec<HistoryRow>,
    /// Why the store could not be read, sanitised.
    pub problem: Option<String>,
    /// The load in flight.
    pub loading: Option<RequestId>,
    pub filter: LineInput,
    pub filtering: bool,
    /// Indices into `rows` that pass the `/` filter.
    pub visible: Vec<usize>,
    pub cursor: ListCursor,
    /// The send shown in full, if any.
    pub shown: Option<EntryDetail>,
}

impl HistoryView {
    /// A history view, loading the sends.
    pub fn open(ids: &mut RequestIds) -> (Self, Command) {
        let mut view = HistoryView {
            entries: None,
            rows: Vec::new(),
            problem: None,
            loading: None,
            filter: LineInput::new(),
            filtering: false,
            visible: Vec::new(),
            cursor: ListCursor::default(),
            shown: None,
        };
        let load = view.load(ids);
        (view, load)
    }

    /// Asks the runtime to (re)load the sends.
    pub fn load(&mut self, ids: &mut RequestIds) -> Command {
        let id = ids.issue();
        self.loading = Some(id);
        Command::LoadHistory {
            id,
            limit: LOAD_LIMIT,
        }
    }

    /// Takes what the store gave; the cursor stays on the same send when it is still listed.
    pub fn set_entries(&mut self, loaded: Result<Vec<HistoryEntry>, String>, height: usize) {
        let selected = self.selected().map(|e| e.id);
        match loaded {
            Ok(entries) => {
                self.rows = entries.iter().map(HistoryRow::of).collect();
                self.entries = Some(entries);
                self.problem = None;
            }
            Err(problem) => {
                self.problem = Some(sanitize::line(&problem).into_owned());
                if self.entries.is_none() {
                    self.entries = Some(Vec::new());
                }
            }
        }
        self.refilter(height);
        if let Some(id) = selected
            && let Some(at) = self.visible_position(id)
        {
            self.cursor.select(at, self.visible.len(), height);
        }
    }

    fn visible_position(&self, id: i64) -> Option<usize> {
        let entries = self.entries.as_ref()?;
        self.visible.iter().position(|&i| entries[i].id == id)
    }

    /// The send under the cursor.
    pub fn selected(&self) -> Option<&HistoryEntry> {
        let index = *self.visible.get(self.cursor.selected)?;
        self.entries.as_ref()?.get(index)
    }

    /// The send the keys act on: the one shown in full, else the one under the cursor.
    pub fn current(&self) -> Option<&HistoryEntry> {
        match &self.shown {
            Some(detail) => self.entries.as_ref()?.get(detail.index),
            None => self.selected(),
        }
    }

    /// Recomputes the rows that pass the `/` filter (kind, time, request, HTTP status, answer).
    pub fn refilter(&mut self, height: usize) {
        let needle = self.filter.text().to_lowercase();
        self.visible = (0..self.rows.len())
            .filter(|&i| {
                let r = &self.rows[i];
                needle.is_empty()
                    || [&r.kind, &r.time, &r.sent, &r.http, &r.answer]
                        .iter()
                        .any(|t| t.to_lowercase().contains(&needle))
            })
            .collect();
        self.cursor.keep_visible(self.visible.len(), height);
    }

    /// Shows the send under the cursor in full.
    pub fn show_selected(&mut self) -> bool {
        let Some(index) = self.visible.get(self.cursor.selected).copied() else {
            return false;
        };
        let Some(entry) = self.entries.as_ref().and_then(|e| e.get(index)) else {
            return false;
        };
        self.shown = Some(EntryDetail {
            index,
            lines: detail_lines(entry),
            scroll: 0,
        });
        true
    }

    pub fn areas(&self, body: Rect) -> crate::app::layout::TableAreas {
        crate::app::layout::table_areas(body, self.filtering || !self.filter.text().is_empty())
    }

    pub fn table_height(&self, body: Rect) -> usize {
        usize::from(self.areas(body).rows.height)
    }
}

/// The request and the answer of a send in full: what was posted where (the token as
/// `Bearer ••••`: it is never recorded), the body, then the answer's status, time, error and body.
pub fn detail_lines(entry: &HistoryEntry) -> Vec<(LineStyle, String)> {
    let sent = &entry.sent;
    let summary = sent.summary();
    let url = format!(
        "{}/{}",
        sent.base_url.trim_end_matches('/'),
        sent.kind.operation().path()
    );
    let took = sent
        .duration
        .map_or_else(String::new, |d| format!(" · {} ms", d.as_millis()));
    let kind = match sent.kind {
        SendKind::Report => "task report",
        SendKind::Connect => "app version (connect)",
    };
    let mut lines = vec![
        (
            LineStyle::Heading,
            format!(
                "#{} · {kind} · sent {}",
                entry.id,
                sent.sent_at.format("%Y-%m-%d %H:%M:%S UTC")
            ),
        ),
        (LineStyle::Field, format!("POST {}", sanitize::line(&url))),
        (LineStyle::Text, "Authorization: Bearer ••••".to_owned()),
        (LineStyle::Text, "Content-Type: application/json".to_owned()),
        (LineStyle::Text, String::new()),
    ];
    lines.extend(pretty(&sent.body).into_iter().map(|l| (LineStyle::Text, l)));
    lines.push((LineStyle::Text, String::new()));
    let answer = match &sent.answer {
        Some(_) => format!(
            "Answer · {}{took} · {}",
            summary.http,
            sanitize::line(&summary.answer)
        ),
        None => format!("Answer · {}{took}", summary.http),
    };
    lines.push((LineStyle::Heading, answer));
    if let Some(error) = &sent.error {
        lines.push((LineStyle::Problem, sanitize::line(error).into_owned()));
    }
    match &sent.answer {
        Some(answer) => lines.extend(pretty(answer).into_iter().map(|l| (LineStyle::Text, l))),
        None => lines.push((LineStyle::Text, "no answer came".to_owned())),
    }
    lines
}

/// Pretty JSON, one safe line each; text that is not JSON, neutralised line by line.
fn pretty(text: &str) -> Vec<String> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) => serde_json::to_string_pretty(&value)
            .unwrap_or_default()
            .lines()
            .map(|l| sanitize::line(l).into_owned())
            .collect(),
        Err(_) => text
            .lines()
            .map(|l| sanitize::line(l).into_owned())
            .collect(),
    }
}

#[cfg(test)]
mod tests;
