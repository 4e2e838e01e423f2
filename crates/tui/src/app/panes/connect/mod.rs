//! The connect composer: writes an `apps.version.connect` payload (an app version and its
//! resource types), checks it as it is typed, compares it with the newest known version of the
//! same app (the breaking-change rule of `crate::diff`), shows the exact request (breaking
//! changes first, a second `Enter` when there are any), sends it and shows the answer. A version
//! the service accepts becomes a known version (the types view shows it) and goes in the history.
//!
//! It is the composer (`panes/composer`) of the kind [`Connect`]; its own parts are the starting
//! points (the newest known versions, `catalog::Baseline`; the picker; `new_app.rs`), the checks
//! (`check.rs`, with the payload's outline, `catalog::outline`), its keys (`keys.rs`), its
//! handling of actions (`update.rs`) and its layout.

pub(crate) mod check;
pub(crate) mod keys;
pub(crate) mod layout;
pub(crate) mod new_app;
mod update;

use std::sync::Arc;

use ratatui_textarea::TextArea;
use serde_json::Value;

use crate::app::panes::composer::{self, Composer};
use crate::app::widgets::json_editor;
use crate::catalog::{Baseline, OutlineType};
use crate::diff::Changes;
use crate::text::counted;
use crate::validate::Severity;
use new_app::Inferring;

/// Payloads larger than this are checked (every schema compiled) and compared on a background
/// task, so typing never waits: the demo's 30 KB payload takes several milliseconds.
pub(crate) const ANALYSE_IN_BACKGROUND_BYTES: usize = 4 * 1024;

/// Where a connect starts from.
#[derive(Clone, Debug, PartialEq)]
pub enum Start {
    /// The newest known version of an app.
    Known(Baseline),
    /// A new app whose types are being inferred from `rows` loaded rows, in the background
    /// (`new_app.rs`); it becomes [`Start::Inferred`] when they are.
    Inferring { rows: usize },
    /// A new app, its types inferred from the rows loaded in the list.
    Inferred { payload: Value, samples: usize },
}

impl Start {
    /// One line for the picker.
    pub(crate) fn label(&self) -> String {
        match self {
            Start::Known(b) => format!(
                "{} {} · newest known version ({})",
                b.app_id, b.version, b.source
            ),
            Start::Inferring { rows } => format!(
                "new app · inferring types from {} loaded…",
                counted(*rows, "row")
            ),
            Start::Inferred { samples, .. } => format!(
                "new app · types inferred from {} loaded",
                counted(*samples, "row")
            ),
        }
    }
}

/// The part of the composer that has the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectPart {
    Payload,
    Outline,
    Findings,
    Diff,
}

impl ConnectPart {
    const ORDER: [ConnectPart; 4] = [
        ConnectPart::Payload,
        ConnectPart::Outline,
        ConnectPart::Findings,
        ConnectPart::Diff,
    ];

    fn step(self, forward: bool) -> ConnectPart {
        composer::step(&ConnectPart::ORDER, self, forward, true)
    }
}

/// The comparison with the newest known version of the payload's app.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DiffState {
    /// What it is compared with (`None`: no known version of this app, nothing to compare).
    pub against: Option<Baseline>,
    /// The changes, once compared (`None` while the payload is not JSON or being compared).
    pub changes: Option<Changes>,
    /// The selected change, in review order.
    pub cursor: usize,
    /// The payload as last checked is not JSON: nothing was compared, whether or not its app is
    /// known (the pane said "no known version of this app" of a known one).
    pub not_json: bool,
}

/// The connect composer: the composer of version-connect payloads.
pub(crate) type ConnectComposer = Composer<Connect>;

/// What a connect brings to the composer: where it starts from, the payload's editor, its
/// outline and its comparison with the newest known version of its app.
#[derive(Clone, Debug)]
pub struct Connect {
    /// Where connects go (the review, curl).
    pub base_url: String,
    /// The newest known version of every app, to compare with and to warn about versions.
    pub known: Arc<Vec<Baseline>>,
    /// Where to start from, while the picker is open (several apps are known).
    pub picker: Option<Picker>,
    /// The new app's types being inferred in the background: the picker's last entry waits
    /// for it, or (picked, or no app known) the whole composer does.
    pub inferring: Option<Inferring>,
    pub payload: TextArea<'static>,
    pub focus: ConnectPart,
    pub outline: Vec<OutlineType>,
    pub outline_cursor: usize,
    pub diff: DiffState,
}

/// The starting points to choose from.
#[derive(Clone, Debug, PartialEq)]
pub struct Picker {
    pub starts: Vec<Start>,
    pub cursor: usize,
}

impl ConnectComposer {
    /// A composer on `text` (a payload as JSON text, not necessarily valid).
    pub(crate) fn new(base_url: &str, known: Arc<Vec<Baseline>>, text: &str) -> Self {
        let text = crate::sanitize::json_for_terminal(text);
        let connect = Connect {
            base_url: base_url.to_owned(),
            known,
            picker: None,
            inferring: None,
            payload: json_editor::new_editor(&text),
            focus: ConnectPart::Payload,
            outline: Vec::new(),
            outline_cursor: 0,
            diff: DiffState::default(),
        };
        let subject = ConnectComposer::draft_subject(connect.app_id().as_deref());
        Composer::with(connect, subject)
    }

    /// A composer starting from `start`: its payload, or (a new app still being inferred) an
    /// empty one waiting for it.
    pub(crate) fn from_start(base_url: &str, known: Arc<Vec<Baseline>>, start: &Start) -> Self {
        let text = match start {
            // As sent or read: each number and escape as written, the types in their order.
            Start::Known(baseline) => crate::json_text::pretty(&baseline.text),
            Start::Inferred { payload, .. } => {
                serde_json::to_string_pretty(payload).unwrap_or_else(|_| "{}".to_owned())
            }
            Start::Inferring { .. } => return ConnectComposer::new(base_url, known, ""),
        };
        ConnectComposer::new(base_url, known, &text)
    }

    /// A composer that waits: it first asks where to start from (`starts`, when given), and for
    /// a new app's types to be inferred (`inferring`: the picker's last start, or the payload).
    pub(crate) fn waiting(
        base_url: &str,
        known: Arc<Vec<Baseline>>,
        starts: Option<Vec<Start>>,
        inferring: Option<Inferring>,
    ) -> Self {
        let mut composer = ConnectComposer::new(base_url, known, "");
        composer.picker = starts.map(|starts| Picker { starts, cursor: 0 });
        composer.inferring = inferring;
        composer
    }
}

impl ConnectComposer {
    /// Findings that are errors (warnings are advice): they hold the send.
    pub(crate) fn error_count(&self) -> usize {
        let errors = |l: &&check::PayloadFinding| l.finding.severity == Severity::Error;
        self.findings.iter().filter(errors).count()
    }
}

impl Connect {
    /// Whether the whole composer waits for a new app's inferred types (not only the picker).
    pub(crate) fn waiting_for_inference(&self) -> bool {
        self.picker.is_none() && self.inferring.is_some()
    }

    /// The payload as typed.
    pub(crate) fn text(&self) -> String {
        json_editor::text_of(&self.payload)
    }

    /// The payload's `app_id`, when the text is JSON and has one.
    pub(crate) fn app_id(&self) -> Option<String> {
        let payload: Value = serde_json::from_str(&self.text()).ok()?;
        payload.get("app_id")?.as_str().map(str::to_owned)
    }

    /// Breaking changes (unknown ones included) against the newest known version.
    pub(crate) fn breaking_count(&self) -> usize {
        self.diff
            .changes
            .as_ref()
            .map_or(0, |c| c.breaking().count())
    }
}

#[cfg(test)]
mod tests;
