//! The reports sent about the resource shown (issue 37 item 3): read from the local history by
//! the runtime when the detail opens ([`Command::LoadReportsAbout`]), listed at the end of the
//! fields pane under "Reports sent", newest first; `Enter` on one shows it in full.

use serde_json::Value;

use super::{FieldKind, FieldLine};
use crate::app::action::{Command, RequestId, RequestIds};
use crate::sanitize;
use crate::store::{HistoryEntry, ResourceKey};

/// The heading of the reports' lines in the fields pane.
pub(crate) const HEADING: &str = "Reports sent";

/// How many of the newest reports about one resource the detail lists.
pub(crate) const LIMIT: usize = 50;

/// The reports about one resource, as the history gave them.
#[derive(Clone, Debug, Default)]
pub struct ReportsAbout {
    /// The read in flight.
    pub asking: Option<RequestId>,
    /// Newest first; what a [`FieldLine::report`] indexes.
    pub sent: Vec<HistoryEntry>,
}

impl ReportsAbout {
    /// Asks the runtime for the reports about `about` (sent to the service in use).
    pub(crate) fn ask(&mut self, about: ResourceKey, ids: &mut RequestIds) -> Command {
        let id = ids.issue();
        self.asking = Some(id);
        Command::LoadReportsAbout {
            id,
            about,
            limit: LIMIT,
        }
    }

    /// The lines the fields pane gets for what the history answered: a heading with the count
    /// and a line a report (when, its status and message, the service's answer); a history that
    /// cannot be read is said in the heading.
    pub(crate) fn lines(&mut self, read: Result<Vec<HistoryEntry>, String>) -> Vec<FieldLine> {
        self.asking = None;
        let sent = match read {
            Ok(sent) => sent,
            Err(problem) => {
                return vec![FieldLine::new(
                    FieldKind::Section,
                    HEADING,
                    format!("the history cannot be read: {}", sanitize::line(&problem)),
                )];
            }
        };
        self.sent = sent;
        if self.sent.is_empty() {
            return vec![FieldLine::new(
                FieldKind::Section,
                HEADING,
                "none from this machine",
            )];
        }
        let more = if self.sent.len() == LIMIT {
            " (the newest; appdeck history lists all)"
        } else {
            " (Enter shows one)"
        };
        let mut lines = vec![FieldLine::new(
            FieldKind::Section,
            HEADING,
            format!("{}{more}", self.sent.len()),
        )];
        for (index, entry) in self.sent.iter().enumerate() {
            let mut line = FieldLine::new(
                FieldKind::Report,
                // To the second, and within the label's room (Enter shows the whole date).
                entry.sent.sent_at.format("%m-%d %H:%M:%S").to_string(),
                sanitize::line(&report_words(entry)),
            );
            line.report = Some(index);
            lines.push(line);
        }
        lines
    }
}

/// A report in a few words: its status and message, then what the service answered.
fn report_words(entry: &HistoryEntry) -> String {
    let body: Value = serde_json::from_str(&entry.sent.body).unwrap_or(Value::Null);
    let field = |key: &str| body.get(key).and_then(Value::as_str).unwrap_or("");
    let status = match field("status") {
        "" => "(no status)",
        status => status,
    };
    let message = match field("message") {
        "" => String::new(),
        message => format!(" · {message}"),
    };
    let http = entry
        .sent
        .http_status
        .map_or_else(|| "no answer".to_owned(), |s| format!("HTTP {s}"));
    format!(
        "{status}{message} → {http} {} · task {}",
        entry.sent.summary().answer,
        field("task_id")
    )
}
