//! The connect's part of the composer: choosing where to start, moving between its parts (the
//! editor, the outline, the findings, the diff), jumping from the outline, a finding or a change
//! to its place in the editor, what holds the send (breaking changes first), and what an
//! accepted connect does (it becomes a known version, which every composer is compared with).

use std::sync::Arc;

use ratatui_textarea::{CursorMove, TextArea};
use serde::{Deserialize, Serialize};

use super::check::{Analysis, AnalysisJob, PayloadFinding};
use super::keys::{PHASES, PICKER_KEYS, WAITING_KEYS};
use super::{ANALYSE_IN_BACKGROUND_BYTES, Connect, ConnectComposer, ConnectPart, Start};
use crate::app::Toward;
use crate::app::action::Move;
use crate::app::keymap::KeyTable;
use crate::app::pane::{Ctx, News, Outcome};
use crate::app::panes::composer::{Edited, Kind, PhaseKeys};
use crate::app::widgets::json_editor;
use crate::app::{Action, Command, Delivery, RequestId};
use crate::json_locate::position_of;
use crate::sanitize;
use crate::store::SendKind;
use crate::text::counted;

/// What a connect draft holds: the payload as typed, JSON or not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConnectDraft {
    pub payload: String,
}

impl Kind for Connect {
    type Finding = PayloadFinding;
    type Check = AnalysisJob;
    type Checked = Analysis;
    type Draft = ConnectDraft;

    const SEND: SendKind = SendKind::Connect;
    const TEXT: &'static str = "payload";
    const EDITED: &'static str = "payload";
    const AFTER_EDIT: [&'static str; 2] = [
        "the payload was updated from the editor; u undoes",
        "e edits it again, u undoes",
    ];
    const BACKGROUND_BYTES: usize = ANALYSE_IN_BACKGROUND_BYTES;
    const CHECKING: &'static str = "checking and comparing…";
    const DISCARDED: &'static str =
        "draft discarded: the payload starts again from where it was opened";
    const REVIEW_WAITS: Option<&'static str> =
        Some("still checking and comparing the payload; s again in a moment");
    const KEYS: PhaseKeys = PHASES;

    fn screen(c: Box<crate::app::panes::composer::Composer<Self>>) -> crate::app::pane::Screen {
        crate::app::pane::Screen::Connect(c)
    }

    fn editor(&self) -> &TextArea<'static> {
        &self.payload
    }

    fn editor_mut(&mut self) -> &mut TextArea<'static> {
        &mut self.payload
    }

    fn base_url(&self) -> &str {
        &self.base_url
    }

    fn waits(&self) -> bool {
        self.picker.is_some() || self.inferring.is_some()
    }

    /// The text's length (the editor's size counts a newline after its last line too).
    fn check_size(&self) -> usize {
        json_editor::size_of(&self.payload) - 1
    }

    fn check_job(&self) -> AnalysisJob {
        AnalysisJob {
            text: Arc::from(self.text()),
            known: self.known.clone(),
        }
    }

    fn check_started(&mut self) {
        self.diff.changes = None;
    }

    fn checked(&mut self, analysis: Analysis) -> Vec<PayloadFinding> {
        let Analysis {
            is_json,
            findings,
            outline,
            against,
            changes,
        } = analysis;
        // A payload that is not JSON keeps its last outline, so the user keeps their bearings.
        if is_json {
            self.outline = outline;
        }
        self.outline_cursor = self
            .outline_cursor
            .min(self.outline.len().saturating_sub(1));
        self.diff.against = against;
        self.diff.changes = changes;
        self.diff.not_json = !is_json;
        let count = self.diff.changes.as_ref().map_or(0, |c| c.changes.len());
        self.diff.cursor = self.diff.cursor.min(count.saturating_sub(1));
        findings
    }

    fn focus_editor(&mut self) {
        self.focus = ConnectPart::Payload;
    }

    fn draft(&self) -> ConnectDraft {
        let payload = self.text();
        ConnectDraft { payload }
    }

    fn restore(&mut self, draft: ConnectDraft) {
        let text = sanitize::json_for_terminal(&draft.payload);
        json_editor::replace_text(&mut self.payload, &text);
    }

    /// The `app_id` written, once the text parses: a draft belongs to the app it is about.
    fn draft_id(&self) -> Option<String> {
        self.app_id()
    }

    fn own_keys(c: &ConnectComposer) -> Option<&'static KeyTable> {
        if c.picker.is_some() {
            return Some(&PICKER_KEYS);
        }
        c.waiting_for_inference().then_some(&WAITING_KEYS)
    }

    fn activity(c: &ConnectComposer) -> Option<String> {
        let inferring = c.inferring?;
        Some(format!("{}; Esc goes back", inferring.words()))
    }

    fn intercept(c: &mut ConnectComposer, action: Action, cx: &mut Ctx) -> Result<Outcome, Action> {
        if c.picker.is_some() {
            return Ok(c.update_picker(action, cx));
        }
        // Waiting for a new app's inferred types: `Esc` goes back (the result is dropped when it
        // comes); the other keys are not bound meanwhile (`WAITING_KEYS`).
        Ok(match action {
            _ if !c.waiting_for_inference() => return Err(action),
            Action::Back => Outcome::Pop,
            Action::Click { .. } => Outcome::done(),
            other => Outcome::NotMine(other),
        })
    }

    /// Normal mode: moving in and between the parts.
    fn update_writing(c: &mut ConnectComposer, action: Action, cx: &mut Ctx) -> Outcome {
        match action {
            Action::Move(Move::Down) | Action::Scroll(Toward::Next) => c.step(1),
            Action::Move(Move::Up) | Action::Scroll(Toward::Previous) => c.step(-1),
            Action::Move(Move::PageDown) => c.step(10),
            Action::Move(Move::PageUp) => c.step(-10),
            Action::Move(Move::Top) => c.step(isize::MIN / 2),
            Action::Move(Move::Bottom) => c.step(isize::MAX / 2),
            Action::Pane(Toward::Next) => c.focus = c.focus.step(true),
            Action::Pane(Toward::Previous) => c.focus = c.focus.step(false),
            Action::Open => match c.focus {
                ConnectPart::Payload => c.editing = true,
                ConnectPart::Outline => c.go_to_type(cx),
                ConnectPart::Findings => c.go_to_finding(0),
                ConnectPart::Diff => c.go_to_change(cx),
            },
            Action::StartEdit => {
                c.focus = ConnectPart::Payload;
                c.editing = true;
            }
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    fn go_to(c: &mut ConnectComposer, i: usize) {
        let (line, column) = c.findings[i].at;
        c.focus = ConnectPart::Payload;
        json_editor::jump_to(&mut c.payload, line, column);
    }

    /// Its text replaces the payload (JSON or not: the findings say what is wrong).
    fn take_edited(&mut self, text: String) -> Edited {
        let text = text.trim_end_matches('\n');
        if text == self.text() {
            return Edited::Unchanged;
        }
        json_editor::replace_text(&mut self.payload, &sanitize::json_for_terminal(text));
        self.focus = ConnectPart::Payload;
        match crate::validate::parse_json(text) {
            Ok(_) => Edited::Applied,
            Err(error) => Edited::NotJson(error.to_string()),
        }
    }

    /// Breaking changes (first) and findings the checks reject hold the send.
    fn hold(c: &ConnectComposer) -> Vec<String> {
        let (breaking, errors) = (c.breaking_count(), c.error_count());
        let against = c.diff.against.as_ref().map(|b| {
            let (app_id, version) = (sanitize::line(&b.app_id), sanitize::line(&b.version));
            format!("{app_id} {version}")
        });
        let breaking = (breaking > 0).then(|| {
            let against = against.unwrap_or_default();
            format!("{} against {against}", counted(breaking, "breaking change"))
        });
        let errors = (errors > 0).then(|| counted(errors, "finding"));
        breaking.into_iter().chain(errors).collect()
    }

    /// Now a known app version: the store records it, and every pane hears of it once it has
    /// (`Delivery::VersionRecorded`).
    fn accepted(
        c: &mut ConnectComposer,
        body: crate::app::Body,
        mut commands: Vec<Command>,
        cx: &mut Ctx,
    ) -> Outcome {
        commands.push(Command::RecordAppVersion {
            id: cx.ids.issue(),
            base_url: c.base_url.clone(),
            payload: Box::new(body),
        });
        commands.into()
    }

    /// A composer asks for one inference at most, and the stack drops it once cancelled.
    fn on_reply(
        c: &mut ConnectComposer,
        id: RequestId,
        delivery: Delivery,
        cx: &mut Ctx,
    ) -> Outcome {
        match delivery {
            Delivery::Job(start) if c.inferring.is_some_and(|i| i.id == id) => {
                c.inferring = None;
                let Some(start) = start.take::<Start>() else {
                    return Outcome::done();
                };
                c.inferred(start, cx).into()
            }
            _ => Outcome::done(),
        }
    }

    /// A connect the service accepted is the newest version of its app: compared with from now
    /// on, the payload on screen at once (sending it again warns of the same version).
    fn on_broadcast(c: &mut ConnectComposer, news: &News, cx: &mut Ctx) -> Vec<Command> {
        let News::KnownTypes(known) = news else {
            return Vec::new();
        };
        c.known = Arc::new(known.catalog.newest_versions());
        if c.waits() {
            return Vec::new();
        }
        c.check(|| cx.ids.issue())
    }
}

impl ConnectComposer {
    /// The picker is open: choose where the payload starts from.
    fn update_picker(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        let Some(picker) = &mut self.picker else {
            return Outcome::done();
        };
        let last = picker.starts.len().saturating_sub(1);
        match action {
            Action::Move(Move::Down) | Action::Scroll(Toward::Next) => {
                picker.cursor = (picker.cursor + 1).min(last)
            }
            Action::Move(Move::Up) | Action::Scroll(Toward::Previous) => {
                picker.cursor = picker.cursor.saturating_sub(1)
            }
            Action::Move(Move::Top) | Action::Move(Move::PageUp) => picker.cursor = 0,
            Action::Move(Move::Bottom) | Action::Move(Move::PageDown) => picker.cursor = last,
            Action::Open => {
                let Some(start) = picker.starts.get(picker.cursor).cloned() else {
                    return Outcome::done();
                };
                if let Start::Inferring { .. } = start {
                    // The payload fills in when the inference is done (`inferred`).
                    self.picker = None;
                    cx.info("starting from a new app: its types are still being inferred");
                    return Outcome::done();
                }
                // A new app's inference still running is not needed any more.
                let cancel = self.inferring.take().map(|i| Command::Cancel(i.id));
                let mut commands = self.start_from(&start, cx);
                commands.extend(cancel);
                return commands.into();
            }
            Action::Back => return Outcome::Pop,
            Action::Click { .. } => {}
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    /// The composer starts from `start`: its payload, checked and compared, and the stored
    /// draft of its app looked up.
    fn start_from(&mut self, start: &Start, cx: &mut Ctx) -> Vec<Command> {
        *self = ConnectComposer::from_start(&self.base_url, self.known.clone(), start);
        if let Start::Inferred { samples, .. } = start {
            // Its app_id and version are placeholders the checks flag: the cursor waits on the
            // first, and the status bar says so first (it is cut at 80 columns).
            let (line, column) = position_of(&self.text(), "/app_id");
            json_editor::jump_to(&mut self.payload, line, column);
            cx.info(format!(
                "new app: replace its app_id and version; types inferred from {} loaded",
                counted(*samples, "row")
            ));
        } else {
            cx.info(format!("starting from {}", sanitize::line(&start.label())));
        }
        self.begin(cx.ids, true)
    }

    /// The new app's types were inferred: the picker's entry offers them, or (the composer
    /// waited for them) they become the payload.
    fn inferred(&mut self, start: Start, cx: &mut Ctx) -> Vec<Command> {
        let Some(picker) = &mut self.picker else {
            return self.start_from(&start, cx);
        };
        for entry in &mut picker.starts {
            if let Start::Inferring { .. } = entry {
                *entry = start.clone();
            }
        }
        Vec::new()
    }

    /// `j`/`k` and the page keys in the part that has the cursor.
    fn step(&mut self, by: isize) {
        let moved = |at: usize, len: usize| {
            (at as isize)
                .saturating_add(by)
                .clamp(0, len.saturating_sub(1) as isize) as usize
        };
        match self.focus {
            ConnectPart::Payload => {
                let lines = self.payload.lines().len();
                let row = self.payload.cursor().0;
                json_editor::jump_to(&mut self.payload, moved(row, lines), 0);
            }
            ConnectPart::Outline => {
                self.outline_cursor = moved(self.outline_cursor, self.outline.len())
            }
            ConnectPart::Findings => self.finding = moved(self.finding, self.findings.len()),
            ConnectPart::Diff => {
                let count = self.diff.changes.as_ref().map_or(0, |c| c.changes.len());
                self.diff.cursor = moved(self.diff.cursor, count);
            }
        }
    }

    /// `Enter` on the outline: the cursor goes to the type's definition in the editor.
    fn go_to_type(&mut self, cx: &mut Ctx) {
        let Some(entry) = self.outline.get(self.outline_cursor) else {
            cx.info("no types in the payload");
            return;
        };
        let (line, column) = entry.at;
        self.focus = ConnectPart::Payload;
        let height = self.editor_height(cx.body);
        json_editor::jump_to_top(&mut self.payload, line, column, height);
    }

    /// The rows of text the editor shows in `body` (laid out with the editor focused).
    fn editor_height(&self, body: ratatui::layout::Rect) -> usize {
        usize::from(crate::app::layout::inset(self.areas(body).editor).height)
    }

    /// `Enter` on a change: where it is in the payload (for a removal, where it was).
    fn go_to_change(&mut self, cx: &mut Ctx) {
        let Some(changes) = &self.diff.changes else {
            cx.info("nothing compared: no earlier version of this app is known");
            return;
        };
        let ordered = changes.in_review_order();
        let Some(change) = ordered.get(self.diff.cursor) else {
            return;
        };
        let text = self.text();
        let (line, column) = position_of(&text, &change.path);
        self.focus = ConnectPart::Payload;
        json_editor::jump_to(&mut self.payload, line, column);
        self.payload.move_cursor(CursorMove::Head);
    }
}
