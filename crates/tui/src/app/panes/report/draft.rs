//! Drafts of the report being composed: what is saved (every field as typed, even a resource or
//! an edited report that is not JSON); putting a stored one back is in `update.rs`. When to
//! save, serialising, restoring and discarding are the composer's (`panes/composer`,
//! `app::widgets::draft`); the store itself is the runtime's.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::Report;

/// The report composer's draft: the shared timing, with the composer as it opened for `D`.
#[cfg(test)]
pub(crate) use crate::app::widgets::draft::{LONGEST_UNSAVED, QUIET, age_words};

/// Every field of the composer as typed: what a draft holds (as JSON text in the store).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReportDraft {
    pub task_id: String,
    #[serde(default)]
    pub task_id_provisional: bool,
    pub status: String,
    pub message: String,
    pub response_type: String,
    /// The resource's text, JSON or not.
    pub resource: String,
    #[serde(default)]
    pub extra: Map<String, Value>,
    /// An edited report that was not JSON, kept as typed.
    #[serde(default)]
    pub unparsed: Option<super::Unparsed>,
    /// Fields still as a file had them (absent, or not strings): see `Report::kept`.
    #[serde(default)]
    pub kept: BTreeMap<String, super::Kept>,
    /// The text of each field that was read (`Report::written`): `extra` above is stored parsed,
    /// which writes `1E400` back as `1e+400`. A draft saved without it sends its values so.
    #[serde(default)]
    pub written: BTreeMap<String, String>,
    /// The keys' order of the report that was read (`Report::key_order`).
    #[serde(default)]
    pub key_order: (Vec<String>, Vec<String>),
}

impl Report {
    pub fn draft_body(&self) -> ReportDraft {
        ReportDraft {
            task_id: self.task_id.text().to_owned(),
            task_id_provisional: self.task_id_provisional,
            status: self.status.clone(),
            message: self.message.text().to_owned(),
            response_type: self.response_type.text().to_owned(),
            resource: self.resource_text(),
            extra: self.as_read.extra.clone(),
            unparsed: self.unparsed.clone(),
            kept: self.as_read.kept.clone(),
            written: self.as_read.written.clone(),
            key_order: self.as_read.key_order.clone(),
        }
    }
}
