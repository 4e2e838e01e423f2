//! Keys on the connect composer: choosing where to start, moving between its parts, editing the
//! payload (checked and compared after every change), jumping from the outline, a finding or a
//! change to its place in the editor, the review, the send and its answer.

use crate::app::Toward;
use crate::app::action::Move;
use std::sync::Arc;
use std::time::Instant;

use ratatui_textarea::CursorMove;
use serde::{Deserialize, Serialize};

use super::baseline;
use super::check::{self, Analysis, AnalysisJob};
use super::keys::{
    ANSWER_KEYS, CONNECT_KEYS, PICKER_KEYS, REVIEW_KEYS, SENDING_KEYS, WAITING_KEYS,
};
use super::{ANALYSE_IN_BACKGROUND_BYTES, ConnectComposer, ConnectPart, Start};
use crate::app::action::RequestIds;
use crate::app::job::Work;
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::pane::{Ctx, News, Outcome, Pane};
use crate::app::widgets::draft::{Restored, age_words};
use crate::app::widgets::json_editor::{self, escape_controls};
use crate::app::widgets::locate::position_of;
use crate::app::widgets::send_flow::{self, Phase, Target};
use crate::app::{Action, Command, Delivery, RequestId};
use crate::sanitize;
use crate::store::SendKind;
use crate::text::counted;

/// What a connect draft holds: the payload as typed, JSON or not.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConnectDraft {
    pub payload: String,
}

impl Pane for ConnectComposer {
    fn keys(&self) -> &'static KeyTable {
        if self.picker.is_some() {
            return &PICKER_KEYS;
        }
        if self.waiting_for_inference() {
            return &WAITING_KEYS;
        }
        match self.phase {
            Phase::Editing => &CONNECT_KEYS,
            Phase::Review { .. } => &REVIEW_KEYS,
            Phase::Sending { .. } => &SENDING_KEYS,
            Phase::Answered(_) => &ANSWER_KEYS,
        }
    }

    fn input_mode(&self) -> InputMode {
        // `editing` is only ever set once the picker is gone: the picker is a fresh composer's,
        // and its keys (`update_picker`) never hand the editor the keyboard.
        match (&self.phase, self.editing) {
            (Phase::Editing, true) => InputMode::Editor,
            _ => InputMode::None,
        }
    }

    fn activity(&self) -> Option<String> {
        match self.phase {
            Phase::Sending { .. } => Some("sending the connect…; Esc cancels".to_owned()),
            _ if self.editing_externally.is_some() => Some("in the external editor…".to_owned()),
            _ if self.inferring.is_some() => self
                .inferring
                .map(|inferring| format!("{}; Esc goes back", inferring.words())),
            _ => self
                .diff
                .running
                .map(|_| "checking and comparing…".to_owned()),
        }
    }

    fn problem(&self) -> Option<String> {
        self.draft.problem()
    }

    fn unsaved_work(&self) -> Option<String> {
        self.draft.problem()
    }

    fn wake_at(&self) -> Option<Instant> {
        self.draft.due()
    }

    fn tick(&mut self, cx: &mut Ctx) -> Vec<Command> {
        if self.draft.is_due(cx.now) {
            self.save_draft(cx.ids.issue())
        } else {
            Vec::new()
        }
    }

    fn closing(&mut self, cx: &mut Ctx) -> Vec<Command> {
        self.save_draft(cx.ids.issue())
    }

    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        if self.picker.is_some() {
            return self.update_picker(action, cx);
        }
        if self.waiting_for_inference() {
            return self.update_waiting(action);
        }
        let target = Target {
            kind: SendKind::Connect,
            base_url: &self.base_url,
        };
        match &self.phase {
            Phase::Editing if self.editing => self.update_editing(action, cx).into(),
            Phase::Editing => self.update_writing(action, cx),
            Phase::Review { .. } => {
                let hold = self.hold();
                let text = matches!(action, Action::Open).then(|| self.draft_text());
                let outcome = send_flow::update_review(
                    &mut self.phase,
                    &mut self.review_scroll,
                    action,
                    cx,
                    target,
                    hold,
                );
                match text {
                    Some(text) => self.draft.before_send(outcome, text),
                    None => outcome,
                }
            }
            Phase::Sending { .. } => send_flow::update_sending(&mut self.phase, action, cx, target),
            Phase::Answered(_) => send_flow::update_answered(&mut self.phase, action, cx),
        }
    }

    fn on_reply(&mut self, id: RequestId, delivery: Delivery, cx: &mut Ctx) -> Outcome {
        match delivery {
            Delivery::Job(analysis) if self.diff.running == Some(id) => {
                self.diff.running = None;
                if self.diff.again {
                    // The text changed while this ran: its results are stale.
                    return self.analyse(cx.ids).into();
                }
                if let Some(analysis) = analysis.take::<Analysis>() {
                    self.set_analysis(analysis);
                }
            }
            // A composer asks for one inference at most, and the stack drops it once cancelled.
            Delivery::Job(start) if self.inferring.is_some_and(|i| i.id == id) => {
                self.inferring = None;
                let Some(start) = start.take::<Start>() else {
                    return Outcome::done();
                };
                return self.inferred(start, cx).into();
            }
            Delivery::Edited(result) if self.editing_externally == Some(id) => {
                self.editing_externally = None;
                return self.edited(result, cx).into();
            }
            // Asked for once, when the composer starts from its payload.
            Delivery::DraftLoaded(result) => {
                let Some(stored) = self.draft.take_loaded(result, cx) else {
                    return Outcome::done();
                };
                return match self.restore_draft(&stored.body, stored.age) {
                    Ok(()) => {
                        cx.info(format!(
                            "draft from {} ago restored; D discards it",
                            age_words(stored.age)
                        ));
                        self.analyse(cx.ids).into()
                    }
                    Err(error) => {
                        cx.error(format!(
                            "a draft was found but cannot be read ({}); typing here replaces it",
                            sanitize::line(&error)
                        ));
                        Outcome::done()
                    }
                };
            }
            Delivery::DraftSaved(result) => {
                self.draft.save_answered(id, result);
            }
            Delivery::Api(exchange) => {
                let target = Target {
                    kind: SendKind::Connect,
                    base_url: &self.base_url,
                };
                let Some(answered) = send_flow::answer(&mut self.phase, id, &exchange, cx, target)
                else {
                    return Outcome::done();
                };
                let mut commands = answered.commands;
                if !answered.ok {
                    self.draft.not_sent(cx.now);
                    return commands.into();
                }
                commands.push(self.draft.sent());
                // Now a known app version: the store records it, and every pane hears of it
                // once it has (`Delivery::VersionRecorded`).
                commands.push(Command::RecordAppVersion {
                    id: cx.ids.issue(),
                    base_url: self.base_url.clone(),
                    payload: Box::new(answered.body.value().clone()),
                });
                return commands.into();
            }
            _ => {}
        }
        Outcome::done()
    }

    /// A connect the service accepted is the newest version of its app: compared with from now
    /// on.
    fn on_broadcast(&mut self, news: &News, _cx: &mut Ctx) -> Vec<Command> {
        if let News::KnownTypes(known) = news {
            self.known = Arc::new(baseline::newest_versions(&known.catalog));
        }
        Vec::new()
    }

    /// Nothing kept depends on the size: the composer is laid out anew every frame.
    fn resized(&mut self, _cx: &mut Ctx) -> Vec<Command> {
        Vec::new()
    }
}

impl ConnectComposer {
    /// Checks the payload, outlines it and compares it: here for a small payload, on a
    /// background task for a large one (at most one runs; a change meanwhile makes it stale).
    pub fn analyse(&mut self, ids: &mut RequestIds) -> Vec<Command> {
        let job = AnalysisJob {
            text: Arc::from(self.text()),
            known: self.known.clone(),
        };
        if job.text.len() < ANALYSE_IN_BACKGROUND_BYTES {
            self.diff.again = false;
            self.diff.running = None;
            self.set_analysis(check::analyse(&job));
            return Vec::new();
        }
        if self.diff.running.is_some() {
            self.diff.again = true;
            return Vec::new();
        }
        self.diff.again = false;
        self.diff.changes = None;
        let id = ids.issue();
        self.diff.running = Some(id);
        vec![Command::Run {
            id,
            job: Work::new(job),
        }]
    }

    fn set_analysis(&mut self, analysis: Analysis) {
        let Analysis {
            is_json,
            findings,
            outline,
            against,
            changes,
        } = analysis;
        self.findings = findings;
        self.finding = self.finding.min(self.findings.len().saturating_sub(1));
        // A payload that is not JSON keeps its last outline, so the user keeps their bearings.
        if is_json {
            self.outline = outline;
        }
        self.outline_cursor = self
            .outline_cursor
            .min(self.outline.len().saturating_sub(1));
        self.diff.against = against;
        self.diff.changes = changes;
        let count = self.diff.changes.as_ref().map_or(0, |c| c.changes.len());
        self.diff.cursor = self.diff.cursor.min(count.saturating_sub(1));
    }

    /// What the first `Enter` of the review says when the send needs a second one: breaking
    /// changes (first), and findings the checks reject.
    fn hold(&self) -> Option<String> {
        let breaking = self.breaking_count();
        let errors = self.error_count();
        let against = self
            .diff
            .against
            .as_ref()
            .map(|b| {
                format!(
                    "{} {}",
                    sanitize::line(&b.app_id),
                    sanitize::line(&b.version)
                )
            })
            .unwrap_or_default();
        match (breaking, errors) {
            (0, 0) => None,
            (0, e) => Some(format!(
                "{}: Enter again sends anyway, Esc goes back",
                counted(e, "finding")
            )),
            (b, 0) => Some(format!(
                "{} against {against}: Enter again sends anyway, Esc goes back",
                counted(b, "breaking change")
            )),
            (b, e) => Some(format!(
                "{} against {against} and {}: Enter again sends anyway, Esc goes back",
                counted(b, "breaking change"),
                counted(e, "finding")
            )),
        }
    }

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
        let mut commands = self.analyse(cx.ids);
        commands.push(self.load_draft(cx.ids.issue()));
        commands
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

    /// The composer waits for the new app's inferred types: `Esc` goes back (the result is
    /// dropped when it comes); its other keys are not bound meanwhile (`WAITING_KEYS`).
    fn update_waiting(&mut self, action: Action) -> Outcome {
        match action {
            Action::Back => Outcome::Pop,
            Action::Click { .. } => Outcome::done(),
            other => Outcome::NotMine(other),
        }
    }

    /// Normal mode: moving in and between the parts, and the composer's own keys.
    fn update_writing(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        match action {
            Action::Move(Move::Down) | Action::Scroll(Toward::Next) => self.step(1),
            Action::Move(Move::Up) | Action::Scroll(Toward::Previous) => self.step(-1),
            Action::Move(Move::PageDown) => self.step(10),
            Action::Move(Move::PageUp) => self.step(-10),
            Action::Move(Move::Top) => self.step(isize::MIN / 2),
            Action::Move(Move::Bottom) => self.step(isize::MAX / 2),
            Action::Pane(Toward::Next) => self.focus = self.focus.step(true),
            Action::Pane(Toward::Previous) => self.focus = self.focus.step(false),
            Action::Open => match self.focus {
                ConnectPart::Payload => self.editing = true,
                ConnectPart::Outline => self.go_to_type(cx),
                ConnectPart::Findings => self.go_to_finding(0),
                ConnectPart::Diff => self.go_to_change(cx),
            },
            Action::StartEdit => {
                self.focus = ConnectPart::Payload;
                self.editing = true;
            }
            Action::Undo(toward) => {
                let undo = toward == Toward::Previous;
                if let Err(nothing) = json_editor::undo_or_redo(&mut self.payload, undo) {
                    cx.info(nothing);
                    return Outcome::done();
                }
                self.focus = ConnectPart::Payload;
                return self.changed(cx).into();
            }
            Action::EditExternally => {
                let id = cx.ids.issue();
                self.editing_externally = Some(id);
                let text = self.text();
                return vec![Command::EditExternally { id, text }].into();
            }
            Action::DiscardDraft => return self.discard(cx).into(),
            Action::Match(Toward::Next) => self.go_to_finding(1),
            Action::Match(Toward::Previous) => self.go_to_finding(-1),
            Action::Review => self.review(cx),
            Action::Back => return Outcome::Pop,
            Action::Click { .. } => {}
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
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

    /// `s`: the exact request and the changes, when the payload is JSON and compared.
    fn review(&mut self, cx: &mut Ctx) {
        if self.diff.running.is_some() {
            cx.info("still checking and comparing the payload; s again in a moment");
            return;
        }
        let text = self.text();
        match crate::validate::parse_json(&text) {
            Ok(body) => {
                self.review_scroll = 0;
                let body = crate::app::Body::new(&text, body);
                self.phase = Phase::Review { body, armed: false };
            }
            Err(error) => cx.error(format!(
                "nothing to review: the payload is not JSON ({error})"
            )),
        }
    }

    /// The editor has the keyboard.
    fn update_editing(&mut self, action: Action, cx: &mut Ctx) -> Vec<Command> {
        let changed = match action {
            Action::Edit(input) => self.payload.input(input),
            Action::InsertText(text) => self.payload.insert_str(escape_controls(&text)),
            Action::Back => {
                self.editing = false;
                // Typing after coming back is a step of its own.
                self.payload.end_undo_step();
                false
            }
            _ => false,
        };
        if changed {
            self.changed(cx)
        } else {
            Vec::new()
        }
    }

    /// The payload changed: its draft is due for a save, and it is checked and compared again.
    fn changed(&mut self, cx: &mut Ctx) -> Vec<Command> {
        self.draft.touch(cx.now);
        self.analyse(cx.ids)
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

    /// Selects the finding `step` away from the current one and moves the cursor where it points.
    fn go_to_finding(&mut self, step: isize) {
        if self.findings.is_empty() {
            return;
        }
        let n = self.findings.len() as isize;
        self.finding = (self.finding as isize + step).rem_euclid(n) as usize;
        let (line, column) = self.findings[self.finding].at;
        self.focus = ConnectPart::Payload;
        json_editor::jump_to(&mut self.payload, line, column);
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

    /// The external editor is done: its text replaces the payload (JSON or not: the findings
    /// say what is wrong, and nothing typed is lost).
    fn edited(&mut self, result: Result<String, String>, cx: &mut Ctx) -> Vec<Command> {
        let text = match result {
            Ok(text) => text,
            Err(error) => {
                cx.error(format!(
                    "{}; the payload is as it was",
                    sanitize::line(&error)
                ));
                return Vec::new();
            }
        };
        let text = text.trim_end_matches('\n');
        if text == self.text() {
            cx.info("no change in the editor");
            return Vec::new();
        }
        json_editor::replace_text(&mut self.payload, &sanitize::json_for_terminal(text));
        self.focus = ConnectPart::Payload;
        let commands = self.changed(cx);
        match crate::validate::parse_json(text) {
            Ok(_) => cx.info("the payload was updated from the editor; u undoes"),
            Err(error) => cx.error(format!(
                "the edited payload is not JSON ({}): e edits it again, u undoes",
                sanitize::line(&error.to_string())
            )),
        }
        commands
    }

    /// The save of what is unsaved, now.
    pub fn save_draft(&mut self, id: RequestId) -> Vec<Command> {
        let body = self.draft_text();
        self.draft.save(id, || body)
    }

    /// The draft as the store keeps it.
    fn draft_text(&self) -> String {
        let body = ConnectDraft {
            payload: self.text(),
        };
        // A struct of one string always serialises.
        serde_json::to_string(&body).unwrap_or_default()
    }

    /// Puts a stored draft in place, keeping the composer as it was for `D`.
    pub fn restore_draft(&mut self, body: &str, age: std::time::Duration) -> Result<(), String> {
        let draft: ConnectDraft = serde_json::from_str(body).map_err(|e| e.to_string())?;
        let fresh = Box::new(self.clone());
        json_editor::replace_text(
            &mut self.payload,
            &sanitize::json_for_terminal(&draft.payload),
        );
        self.draft.restored = Some(Restored { age, fresh });
        Ok(())
    }

    /// `D`: the restored draft goes, here and in the store.
    fn discard(&mut self, cx: &mut Ctx) -> Vec<Command> {
        let Some((fresh, draft)) = self.draft.discard() else {
            cx.info("no restored draft to discard");
            return Vec::new();
        };
        *self = fresh;
        self.draft = draft;
        // `fresh` is the composer as it was when the draft came, with the analysis then in
        // flight, long answered: waiting for it again would leave this one "checking" for good.
        // A running analysis of the draft's text is not this text's; `on_reply` drops it.
        self.diff.running = None;
        self.diff.again = false;
        cx.info("draft discarded: the payload starts again from where it was opened");
        let mut commands = vec![self.draft.removal()];
        commands.extend(self.analyse(cx.ids));
        commands
    }
}
