//! The history view: every report and connect sent (from this TUI, another one, or the CLI), as
//! the local store recorded them, newest first; `/` filters, `Enter` shows a send in full (the
//! request and the answer), `E` opens a report in the composer to edit and resend, `c` copies a
//! send as curl. Drafts not sent yet are listed at the top, newest first; `Enter` (or `E`) goes on
//! with one in its composer. The store is read by the runtime off the UI thread
//! ([`Command::LoadHistory`], [`Command::ListDrafts`]); what a send becomes as a record is in
//! `record.rs`.

pub(crate) mod keys;
pub(crate) mod layout;
pub(crate) mod record;
mod update;

use ratatui::layout::Rect;

use crate::app::action::{Command, RequestId, RequestIds, UnsentDraft};
use crate::app::widgets::FilteredList;
use crate::sanitize;
use crate::store::{HistoryEntry, SendKind};

/// How many sends the view loads: the newest ones.
pub(crate) const LOAD_LIMIT: usize = 1000;

/// One row of the table, its texts sanitised once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryRow {
    pub kind: String,
    /// `2026-11-22 12:40:03` (UTC).
    pub time: String,
    /// Where it went: the service's `host:port` (`-` for a draft, not sent anywhere yet).
    pub to: String,
    /// The request in a few words (a report's task, status and resource; a connect's app).
    pub sent: String,
    /// The HTTP status, or `-` when no answer came.
    pub http: String,
    /// The answer's `status` (and why, when not `ok`), or the failure.
    pub answer: String,
    /// Whether the answer was an `ok` (for its colour).
    pub ok: bool,
    /// A draft, not sent yet.
    pub unsent: bool,
}

impl HistoryRow {
    fn of(entry: &HistoryEntry) -> Self {
        let sent = &entry.sent;
        let summary = sent.summary();
        let line = |text: &str| sanitize::line(text).into_owned();
        HistoryRow {
            kind: sent.kind.to_string(),
            time: sent.sent_at.format("%Y-%m-%d %H:%M:%S").to_string(),
            to: line(&sent.destination()),
            sent: line(&summary.request),
            http: sent
                .http_status
                .map_or_else(|| "-".to_owned(), |s| s.to_string()),
            ok: summary.answer == "ok" && sent.error.is_none(),
            answer: line(&summary.answer),
            unsent: false,
        }
    }

    fn of_draft(draft: &UnsentDraft) -> Self {
        HistoryRow {
            kind: "draft".to_owned(),
            time: draft.saved_at.format("%Y-%m-%d %H:%M:%S").to_string(),
            to: "-".to_owned(),
            sent: sanitize::line(&draft_summary(draft)).into_owned(),
            http: "-".to_owned(),
            answer: format!(
                "not sent · saved {} ago",
                crate::app::widgets::draft::age_words(draft.age)
            ),
            ok: false,
            unsent: true,
        }
    }
}

/// A draft in a few words, like a send: a report's `task_id`, `status` and resource; for another
/// kind, the kind and what it is about. Read leniently: a draft is saved as typed.
fn draft_summary(draft: &UnsentDraft) -> String {
    let body: serde_json::Value = serde_json::from_str(&draft.body).unwrap_or_default();
    let text = |key: &str| body.get(key).and_then(|v| v.as_str()).unwrap_or_default();
    let subject = &draft.subject;
    match subject.kind.as_str() {
        "report" => {
            let task = match text("task_id") {
                "" => "(no task_id)",
                task => task,
            };
            format!("{task} · {} · {}", text("status"), subject.subject)
        }
        kind => format!("{kind} · {}", subject.subject),
    }
}

/// What a row of the table is.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Listed<'a> {
    /// A draft not sent yet (drafts come first).
    Draft(&'a UnsentDraft),
    Sent(&'a HistoryEntry),
}

/// How a line of the detail is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineStyle {
    Heading,
    Field,
    Text,
    Problem,
}

/// One send in full (`Enter`): its lines, sanitised, and how far they are scrolled (in rows
/// as [`EntryDetail::rows`] wraps them).
#[derive(Clone, Debug, PartialEq)]
pub struct EntryDetail {
    /// Index into [`HistoryView::entries`].
    pub index: usize,
    pub lines: Vec<(LineStyle, String)>,
    pub scroll: usize,
}

impl EntryDetail {
    /// Its lines wrapped at `width` columns, each row with its line's style: a 3,000-character
    /// `task_id` or message reads whole, where a line cut at the border hid the rest. Lazy: a
    /// frame wraps only the lines down to what it shows.
    pub(crate) fn rows(&self, width: usize) -> impl Iterator<Item = (LineStyle, &str)> {
        (self.lines.iter()).flat_map(move |(style, text)| {
            appdeck_core::text::wrap_ranges(text, width, usize::MAX)
                .into_iter()
                .map(move |range| (*style, &text[range]))
        })
    }
}

#[derive(Clone, Debug)]
pub struct HistoryView {
    /// `None` until the runtime has loaded them.
    pub entries: Option<Vec<HistoryEntry>>,
    /// Drafts not sent yet, newest first; listed above the sends.
    pub drafts: Vec<UnsentDraft>,
    /// The drafts' rows, then the sends'.
    pub rows: Vec<HistoryRow>,
    /// Why the store could not be read, sanitised.
    pub problem: Option<String>,
    /// The load in flight.
    pub loading: Option<RequestId>,
    /// The listing of drafts in flight.
    pub listing_drafts: Option<RequestId>,
    /// The rows that pass the `/` filter, and the cursor over them.
    pub list: FilteredList,
    /// The send shown in full, if any.
    pub shown: Option<EntryDetail>,
    /// Opened on one send from elsewhere (a resource's detail): `Esc` on it closes the view.
    pub alone: bool,
}

impl HistoryView {
    /// A history view, loading the sends.
    pub(crate) fn open(ids: &mut RequestIds) -> (Self, Vec<Command>) {
        let mut view = HistoryView::empty();
        let load = view.load(ids);
        (view, load)
    }

    fn empty() -> Self {
        HistoryView {
            entries: None,
            drafts: Vec::new(),
            rows: Vec::new(),
            problem: None,
            loading: None,
            listing_drafts: None,
            list: FilteredList::default(),
            shown: None,
            alone: false,
        }
    }

    /// A view of `entry` alone, shown in full (from a resource's detail): nothing is loaded,
    /// and `Esc` goes back to where it was opened.
    pub(crate) fn showing(entry: HistoryEntry) -> Self {
        let mut view = HistoryView {
            alone: true,
            ..HistoryView::empty()
        };
        view.set_entries(Ok(vec![entry]), 1);
        view.show_selected();
        view
    }

    /// Asks the runtime to (re)load the sends and the drafts.
    pub(crate) fn load(&mut self, ids: &mut RequestIds) -> Vec<Command> {
        // Loaded, it is the whole history, whatever it was opened on.
        self.alone = false;
        let id = ids.issue();
        self.loading = Some(id);
        let drafts = ids.issue();
        self.listing_drafts = Some(drafts);
        vec![
            Command::LoadHistory {
                id,
                limit: LOAD_LIMIT,
            },
            Command::ListDrafts { id: drafts },
        ]
    }

    /// Takes what the store gave; the cursor stays on the same row when it is still listed.
    pub(crate) fn set_entries(&mut self, loaded: Result<Vec<HistoryEntry>, String>, height: usize) {
        let selected = self.selected_key();
        match loaded {
            Ok(entries) => {
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
        self.rebuild(selected, height);
    }

    /// Takes the drafts the store listed; a failure is said once, the sends stay.
    pub(crate) fn set_drafts(&mut self, listed: Result<Vec<UnsentDraft>, String>, height: usize) {
        let selected = self.selected_key();
        match listed {
            Ok(drafts) => self.drafts = drafts,
            Err(problem) => {
                self.problem = Some(format!(
                    "drafts cannot be listed: {}",
                    sanitize::line(&problem)
                ))
            }
        }
        self.rebuild(selected, height);
    }

    fn rebuild(&mut self, selected: Option<RowKey>, height: usize) {
        let sends = self.entries.iter().flatten().map(HistoryRow::of);
        self.rows = self
            .drafts
            .iter()
            .map(HistoryRow::of_draft)
            .chain(sends)
            .collect();
        self.refilter(height);
        if let Some(key) = selected
            && let Some(at) =
                (0..self.list.visible.len()).find(|&at| self.key_at(at).as_ref() == Some(&key))
        {
            self.list.cursor.select(at, self.list.visible.len(), height);
        }
    }

    /// What the row at `index` (into `rows`) is.
    pub(crate) fn listed(&self, index: usize) -> Option<Listed<'_>> {
        match index.checked_sub(self.drafts.len()) {
            None => self.drafts.get(index).map(Listed::Draft),
            Some(send) => self.entries.as_ref()?.get(send).map(Listed::Sent),
        }
    }

    /// The row under the cursor.
    pub(crate) fn selected_row(&self) -> Option<Listed<'_>> {
        self.listed(self.list.selected()?)
    }

    fn key_at(&self, at: usize) -> Option<RowKey> {
        Some(match self.listed(*self.list.visible.get(at)?)? {
            Listed::Draft(draft) => RowKey::Draft(draft.revision.row),
            Listed::Sent(entry) => RowKey::Sent(entry.id),
        })
    }

    /// What the cursor stays on across a reload: the same row, unless it is at the top (then
    /// the top, so a view that has just opened starts at its newest row whichever load came
    /// first).
    fn selected_key(&self) -> Option<RowKey> {
        match self.list.cursor.selected {
            0 => None,
            at => self.key_at(at),
        }
    }

    /// The send under the cursor (none on a draft).
    pub(crate) fn selected(&self) -> Option<&HistoryEntry> {
        match self.selected_row()? {
            Listed::Sent(entry) => Some(entry),
            Listed::Draft(_) => None,
        }
    }

    /// The send the keys act on: the one shown in full, else the one under the cursor.
    pub(crate) fn current(&self) -> Option<&HistoryEntry> {
        match &self.shown {
            Some(detail) => match self.listed(detail.index)? {
                Listed::Sent(entry) => Some(entry),
                Listed::Draft(_) => None,
            },
            None => self.selected(),
        }
    }

    /// Recomputes the rows that pass the `/` filter (kind, time, request, HTTP status, answer).
    pub(crate) fn refilter(&mut self, height: usize) {
        self.list.refilter(
            &self.rows,
            |r| [&r.kind, &r.time, &r.to, &r.sent, &r.http, &r.answer].map(String::as_str),
            height,
        );
    }

    /// Shows the send under the cursor in full.
    pub(crate) fn show_selected(&mut self) -> bool {
        let Some(index) = self.list.selected() else {
            return false;
        };
        let Some(Listed::Sent(entry)) = self.listed(index) else {
            return false;
        };
        self.shown = Some(EntryDetail {
            index,
            lines: detail_lines(entry),
            scroll: 0,
        });
        true
    }

    pub(crate) fn areas(&self, body: Rect) -> crate::app::layout::TableAreas {
        self.list.areas(body)
    }

    pub(crate) fn table_height(&self, body: Rect) -> usize {
        self.list.height(body)
    }
}

/// Keeps the cursor on the same row across a reload.
#[derive(Clone, Debug, PartialEq, Eq)]
enum RowKey {
    /// A stored draft's row: two windows may each keep one about the same subject.
    Draft(i64),
    Sent(i64),
}

/// The request and the answer of a send in full: what was posted where (the token as
/// `Bearer ••••`: it is never recorded), the body, then the answer's status, time, error and body.
pub(crate) fn detail_lines(entry: &HistoryEntry) -> Vec<(LineStyle, String)> {
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
    if let Some(changes) = sent.changes() {
        lines.push((LineStyle::Text, String::new()));
        let heading = format!(
            "What it changed · {}",
            crate::changes::counted(changes.len(), sent.after())
        );
        lines.push((LineStyle::Heading, heading));
        lines.extend(
            changes
                .iter()
                .map(|c| (LineStyle::Text, sanitize::line(&c.to_string()).into_owned())),
        );
    }
    lines
}

/// The heading above what a report changed, in the answer pane and here.
pub(crate) fn changes_heading(count: usize) -> String {
    format!(
        "What it changed · {}",
        crate::changes::counted(count, crate::changes::After::Sent)
    )
}

/// Pretty JSON laid out token by token (every number and string as it was sent), one safe line
/// each; text that is not JSON, neutralised line by line.
fn pretty(text: &str) -> Vec<String> {
    let is_json = serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
    let text = match is_json {
        true => crate::json_text::pretty(text),
        false => text.to_owned(),
    };
    text.lines()
        .map(|l| sanitize::line(l).into_owned())
        .collect()
}

#[cfg(test)]
mod tests;
