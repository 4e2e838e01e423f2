//! Drafts of the report being composed: when to save (a quiet second after the last change, and
//! never while nothing changes), what is saved (every field as typed, even a resource or an
//! edited report that is not JSON), restoring one when the composer opens on the same subject,
//! and discarding it. The store itself is the runtime's: this only asks, with commands.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::Composer;
use crate::app::{Command, DraftSubject, RequestId};

/// A save is due this long after the last change: a burst of typing is one write.
pub const QUIET: Duration = Duration::from_millis(500);

/// ... but never later than this after the first unsaved change, so that typing without a
/// pause still reaches the store: a crash loses at most the last second of typing.
pub const LONGEST_UNSAVED: Duration = Duration::from_secs(1);

/// Where the composer's draft stands.
#[derive(Clone, Debug)]
pub struct DraftState {
    pub subject: DraftSubject,
    /// Changes not yet handed to the store: since when, and the last one.
    pub unsaved: Option<Unsaved>,
    /// The look-up of a stored draft, while it runs.
    pub loading: Option<RequestId>,
    /// The last save asked for, while it runs.
    pub saving: Option<RequestId>,
    /// What the last save said, for the title (`None` before any).
    pub saved: Option<Result<(), String>>,
    /// The restored draft's age, and the composer as it was before, for `D`.
    pub restored: Option<Restored>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsaved {
    pub since: Instant,
    pub last: Instant,
}

#[derive(Clone, Debug)]
pub struct Restored {
    pub age: Duration,
    pub fresh: Box<Composer>,
}

impl DraftState {
    pub fn new(subject: DraftSubject) -> Self {
        DraftState {
            subject,
            unsaved: None,
            loading: None,
            saving: None,
            saved: None,
            restored: None,
        }
    }

    /// Something changed at `now`.
    pub fn touch(&mut self, now: Instant) {
        let since = self.unsaved.map_or(now, |u| u.since);
        self.unsaved = Some(Unsaved { since, last: now });
        self.saved = None;
    }

    /// When the next save is due: [`QUIET`] after the last change, at the latest
    /// [`LONGEST_UNSAVED`] after the first; `None` while nothing is unsaved.
    pub fn due(&self) -> Option<Instant> {
        self.unsaved
            .map(|u| (u.last + QUIET).min(u.since + LONGEST_UNSAVED))
    }
}

/// Every field of the composer as typed: what a draft holds (as JSON text in the store).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DraftBody {
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
}

impl Composer {
    /// The subject a report draft is keyed by: the resource's id, or `new`.
    pub fn draft_subject(resource_id: Option<&str>) -> DraftSubject {
        DraftSubject {
            kind: "report".to_owned(),
            subject: resource_id.unwrap_or("new").to_owned(),
        }
    }

    /// Asks for the stored draft of this subject, to restore it when it comes.
    pub fn load_draft(&mut self, id: RequestId) -> Command {
        self.draft.loading = Some(id);
        Command::LoadDraft {
            id,
            subject: self.draft.subject.clone(),
        }
    }

    pub fn draft_body(&self) -> DraftBody {
        DraftBody {
            task_id: self.task_id.text().to_owned(),
            task_id_provisional: self.task_id_provisional,
            status: self.status.clone(),
            message: self.message.text().to_owned(),
            response_type: self.response_type.text().to_owned(),
            resource: self.resource_text(),
            extra: self.extra.clone(),
            unparsed: self.unparsed.clone(),
        }
    }

    /// The save of what is unsaved, now; nothing when everything is saved.
    pub fn save_draft(&mut self, id: RequestId) -> Vec<Command> {
        if self.draft.unsaved.take().is_none() {
            return Vec::new();
        }
        self.draft.saving = Some(id);
        // A struct of strings and a JSON map always serialises.
        let body = serde_json::to_string(&self.draft_body()).unwrap_or_default();
        vec![Command::SaveDraft {
            id,
            subject: self.draft.subject.clone(),
            body,
        }]
    }

    /// Puts a stored draft's fields in place, keeping the composer as it was for `D`. A body
    /// this appdeck cannot read is an error, and the composer stays as it was.
    pub fn restore_draft(&mut self, body: &str, age: Duration) -> Result<(), String> {
        let draft: DraftBody = serde_json::from_str(body).map_err(|e| e.to_string())?;
        let fresh = Box::new(self.clone());
        self.task_id.set(&draft.task_id);
        self.task_id_provisional = draft.task_id_provisional;
        self.status = draft.status;
        self.message.set(&draft.message);
        self.response_type.set(&draft.response_type);
        self.replace_resource(&crate::sanitize::json_for_terminal(&draft.resource));
        self.extra = draft.extra;
        self.unparsed = draft.unparsed;
        self.draft.restored = Some(Restored { age, fresh });
        Ok(())
    }

    /// `D`: back to the composer as it opened, before the draft was restored. Returns whether
    /// there was a restored draft to discard.
    pub fn discard_draft(&mut self) -> bool {
        let Some(restored) = self.draft.restored.take() else {
            return false;
        };
        let mut draft = self.draft.clone();
        draft.unsaved = None;
        draft.saved = None;
        *self = *restored.fresh;
        self.draft = draft;
        true
    }
}

/// "12 s", "3 min", "2 h", "4 days": how old a draft is, in the notice that restores it.
pub fn age_words(age: Duration) -> String {
    let s = age.as_secs();
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min", s / 60),
        3600..86400 => format!("{} h", s / 3600),
        _ => match s / 86400 {
            1 => "1 day".to_owned(),
            d => format!("{d} days"),
        },
    }
}
