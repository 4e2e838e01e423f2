//! Keys on the composer: moving between fields, editing them, the checks that follow every
//! change, the review, the send and its answer.

use crate::app::Toward;
use crate::app::action::Move;
use ratatui_textarea::{CursorMove, Input, Key};
use serde_json::Value;

use super::check::{self, Place, ReportFinding};
use std::time::Instant;

use super::draft::age_words;
use super::external::EditOutcome;
use super::keys::{ANSWER_KEYS, COMPOSER_KEYS, REVIEW_KEYS, SENDING_KEYS, UNPARSED_KEYS};
use super::{CHECK_IN_BACKGROUND_BYTES, Field, Phase, ReportComposer};
use crate::app::job::Work;
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::pane::{Ctx, Outcome, Pane};
use crate::app::widgets::LineEvent;
use crate::app::widgets::json_editor::{self, escape_controls};
use crate::app::widgets::send_flow::{self, Target};
use crate::app::{Action, Command, Delivery, RequestId};
use crate::sanitize;
use crate::store::SendKind;
use crate::text::counted;

impl Pane for ReportComposer {
    fn keys(&self) -> &'static KeyTable {
        match self.phase {
            Phase::Editing if self.unparsed.is_some() => &UNPARSED_KEYS,
            Phase::Editing => &COMPOSER_KEYS,
            Phase::Review { .. } => &REVIEW_KEYS,
            Phase::Sending { .. } => &SENDING_KEYS,
            Phase::Answered(_) => &ANSWER_KEYS,
        }
    }

    fn input_mode(&self) -> InputMode {
        match (&self.phase, self.editing, self.field) {
            (Phase::Editing, true, Field::Resource) => InputMode::Editor,
            (Phase::Editing, true, _) => InputMode::Field,
            _ => InputMode::None,
        }
    }

    fn activity(&self) -> Option<String> {
        match self.phase {
            Phase::Sending { .. } => Some("sending the report…; Esc cancels".to_owned()),
            _ if self.editing_externally.is_some() => Some("in the external editor…".to_owned()),
            _ => self.checking.map(|_| "checking…".to_owned()),
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
        match &self.phase {
            Phase::Editing if self.editing => self.update_editing(action, cx).into(),
            Phase::Editing if self.unparsed.is_some() => self.update_unparsed(action, cx),
            Phase::Editing => self.update_writing(action, cx),
            Phase::Review { .. } => self.update_review(action, cx),
            Phase::Sending { .. } => {
                let target = Target {
                    kind: SendKind::Report,
                    base_url: &self.context.base_url,
                };
                send_flow::update_sending(&mut self.phase, action, cx, target)
            }
            Phase::Answered(_) => send_flow::update_answered(&mut self.phase, action, cx),
        }
    }

    fn on_reply(&mut self, id: RequestId, delivery: Delivery, cx: &mut Ctx) -> Outcome {
        match delivery {
            Delivery::Job(findings) if self.checking == Some(id) => {
                self.checking = None;
                let Some(findings) = findings.take::<Vec<ReportFinding>>() else {
                    return Outcome::done();
                };
                if self.recheck {
                    // The text changed while this ran: its findings are stale.
                    return self.check_again(cx).into();
                }
                self.set_findings(findings);
            }
            Delivery::Edited(result) if self.editing_externally == Some(id) => {
                self.editing_externally = None;
                return self.edited(result, cx).into();
            }
            // Asked for once, when the composer opens.
            Delivery::DraftLoaded(result) => {
                return self.draft_loaded(result, cx).into();
            }
            Delivery::DraftSaved(result) => {
                self.draft.save_answered(id, result);
            }
            Delivery::Api(exchange) => {
                let target = Target {
                    kind: SendKind::Report,
                    base_url: &self.context.base_url,
                };
                let Some(answered) = send_flow::answer(&mut self.phase, id, &exchange, cx, target)
                else {
                    return Outcome::done();
                };
                let mut recorded = answered.commands;
                if answered.ok {
                    // Sent and accepted: its draft has done its job.
                    recorded.push(self.draft.sent());
                    return Outcome::RefreshList(recorded);
                }
                self.draft.not_sent(cx.now);
                return recorded.into();
            }
            _ => {}
        }
        Outcome::done()
    }

    /// Nothing kept depends on the size: the composer is laid out anew every frame.
    fn resized(&mut self, _cx: &mut Ctx) -> Vec<Command> {
        Vec::new()
    }
}

impl ReportComposer {
    /// Normal mode: moving between fields and the composer's own keys.
    fn update_writing(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        match action {
            Action::Move(Move::Down) | Action::Scroll(Toward::Next) => {
                if self.field == Field::Findings {
                    self.finding = (self.finding + 1).min(self.findings.len().saturating_sub(1));
                } else {
                    self.field = self.field.step(true);
                }
            }
            Action::Move(Move::Up) | Action::Scroll(Toward::Previous) => {
                if self.field == Field::Findings && self.finding > 0 {
                    self.finding -= 1;
                } else {
                    self.field = self.field.step(false);
                }
            }
            Action::Move(Move::Top) => self.field = Field::TaskId,
            Action::Move(Move::Bottom) => self.field = Field::Findings,
            Action::Move(Move::PageDown) if self.field == Field::Resource => {
                self.resource.move_cursor(CursorMove::ParagraphForward)
            }
            Action::Move(Move::PageUp) if self.field == Field::Resource => {
                self.resource.move_cursor(CursorMove::ParagraphBack)
            }
            Action::Open if self.field == Field::Findings => self.go_to_finding(0),
            Action::Open | Action::StartEdit => match self.field {
                Field::Status => return self.toggle_status(cx).into(),
                Field::Findings => {}
                _ => self.editing = true,
            },
            Action::Toggle => return self.toggle_status(cx).into(),
            Action::Undo(toward) => {
                let undo = toward == Toward::Previous;
                if let Err(nothing) = json_editor::undo_or_redo(&mut self.resource, undo) {
                    cx.info(nothing);
                    return Outcome::done();
                }
                self.field = Field::Resource;
                return self.changed(cx).into();
            }
            Action::Fill => return self.fill(cx).into(),
            Action::EditExternally => return vec![self.edit_externally(cx.ids.issue())].into(),
            Action::DiscardDraft => return self.discard(cx).into(),
            Action::Match(Toward::Next) => self.go_to_finding(1),
            Action::Match(Toward::Previous) => self.go_to_finding(-1),
            Action::Review => match self.sent_body() {
                Ok(body) => {
                    self.review_scroll = 0;
                    self.phase = Phase::Review { body, armed: false };
                }
                Err(error) => cx.error(format!(
                    "nothing to review: the resource is not JSON ({error})"
                )),
            },
            Action::Back => return Outcome::Pop,
            Action::Click { .. } => {}
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    /// A field has the keyboard: a one-line input, or the resource editor.
    fn update_editing(&mut self, action: Action, cx: &mut Ctx) -> Vec<Command> {
        if self.field == Field::Resource {
            let changed = match action {
                Action::Edit(input) => self.resource.input(input),
                Action::InsertText(text) => self.resource.insert_str(escape_controls(&text)),
                Action::Back => {
                    self.editing = false;
                    // Typing after coming back is a step of its own.
                    self.resource.end_undo_step();
                    false
                }
                _ => false,
            };
            return if changed {
                self.changed(cx)
            } else {
                Vec::new()
            };
        }
        let action = match action {
            Action::Edit(input) if self.field == Field::TaskId && self.task_id_provisional => {
                self.task_id_provisional = false;
                // The generated id is selected: typing replaces it, a movement keeps it.
                if replaces_selection(&input) {
                    self.task_id.set("");
                    if matches!(input.key, Key::Backspace | Key::Delete) {
                        return self.field_changed(cx);
                    }
                }
                Action::Edit(input)
            }
            Action::InsertText(text) if self.field == Field::TaskId && self.task_id_provisional => {
                self.task_id_provisional = false;
                self.task_id.set("");
                Action::InsertText(text)
            }
            other => other,
        };
        let input = match self.field {
            Field::TaskId => &mut self.task_id,
            Field::Message => &mut self.message,
            Field::ResponseType => &mut self.response_type,
            _ => {
                self.editing = false;
                return Vec::new();
            }
        };
        match input.handle(action) {
            LineEvent::Changed => self.field_changed(cx),
            LineEvent::Submitted | LineEvent::Cancelled => {
                self.editing = false;
                Vec::new()
            }
            LineEvent::Other(action @ (Action::Move(Move::Up) | Action::Move(Move::Down))) => {
                self.editing = false;
                self.field = self.field.step(matches!(action, Action::Move(Move::Down)));
                Vec::new()
            }
            LineEvent::Unchanged | LineEvent::Other(_) => Vec::new(),
        }
    }

    fn update_review(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        // A check still running may yet find something: the send waits for a second `Enter`.
        let hold = if self.checking.is_some() {
            Some("the checks are still running: Enter again sends anyway, Esc goes back".into())
        } else {
            (!self.findings.is_empty()).then(|| {
                format!(
                    "{}: Enter again sends anyway, Esc goes back",
                    counted(self.findings.len(), "finding")
                )
            })
        };
        let target = Target {
            kind: SendKind::Report,
            base_url: &self.context.base_url,
        };
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

    fn toggle_status(&mut self, cx: &mut Ctx) -> Vec<Command> {
        self.status = if self.status == "ok" { "error" } else { "ok" }.to_owned();
        self.field = Field::Status;
        self.field_changed(cx)
    }

    /// `f`: adds what the type's schema requires, as one undoable edit of the resource.
    fn fill(&mut self, cx: &mut Ctx) -> Vec<Command> {
        let Some(types) = self.context.types.clone() else {
            cx.error("no types are known here, so there is no schema to fill from");
            return Vec::new();
        };
        let Ok(mut resource) = crate::validate::parse_json(&self.resource_text()) else {
            cx.error("the resource is not JSON: fix its syntax first");
            return Vec::new();
        };
        let Some(schema) = check::type_schema(&types, &resource).cloned() else {
            cx.error("the resource's type is not a known type: no schema to fill from");
            return Vec::new();
        };
        let Some(object) = resource.as_object_mut() else {
            cx.error("the resource is not a JSON object");
            return Vec::new();
        };
        let properties = object
            .entry("properties")
            .or_insert_with(|| Value::Object(Default::default()));
        if properties.is_null() {
            *properties = Value::Object(Default::default());
        }
        let Some(properties) = properties.as_object_mut() else {
            cx.error("`properties` is not an object: nothing filled");
            return Vec::new();
        };
        let filled = crate::placeholder::fill_required(properties, &schema);
        if filled.added.is_empty() {
            cx.info("every required property is there");
            return Vec::new();
        }
        let text = serde_json::to_string_pretty(&resource).unwrap_or_default();
        self.replace_resource(&text);
        self.field = Field::Resource;
        let added = filled.added.join(", ");
        if filled.unsatisfied.is_empty() {
            cx.info(format!("filled {added}; u undoes"));
        } else {
            // The checks mark these lines; saying their names tells what is left to write.
            let left = filled.unsatisfied.join(", ");
            cx.error(format!(
                "filled {added}; no value fits the schema of {left}: write it (n goes to the findings); u undoes"
            ));
        }
        self.changed(cx)
    }

    /// Selects the finding `step` away from the current one and moves the cursor where it points.
    fn go_to_finding(&mut self, step: isize) {
        if self.findings.is_empty() {
            return;
        }
        let n = self.findings.len() as isize;
        self.finding = (self.finding as isize + step).rem_euclid(n) as usize;
        match self.findings[self.finding].place {
            Place::Resource { line, column } => {
                self.field = Field::Resource;
                json_editor::jump_to(&mut self.resource, line, column);
            }
            Place::Field(field) => self.field = field,
        }
    }

    /// The field under the cursor was edited: what it holds now is what was typed, no longer
    /// the value read from a file (see [`ReportComposer::kept`]).
    fn field_changed(&mut self, cx: &mut Ctx) -> Vec<Command> {
        self.kept.remove(self.field.label());
        self.changed(cx)
    }

    /// The text changed: its draft is due for a save, and it is checked again.
    fn changed(&mut self, cx: &mut Ctx) -> Vec<Command> {
        self.draft.touch(cx.now);
        self.check_again(cx)
    }

    /// Checks the text again, here for a small report, off the UI thread for a large one (at
    /// most one check runs; a change meanwhile makes its result stale).
    fn check_again(&mut self, cx: &mut Ctx) -> Vec<Command> {
        let size = json_editor::size_of(&self.resource);
        if size < CHECK_IN_BACKGROUND_BYTES {
            self.recheck = false;
            self.checking = None;
            self.set_findings(check::run(&self.check_job()));
            return Vec::new();
        }
        if self.checking.is_some() {
            self.recheck = true;
            return Vec::new();
        }
        let job = self.check_job();
        self.recheck = false;
        let id = cx.ids.issue();
        self.checking = Some(id);
        vec![Command::Run {
            id,
            job: Work::new(job),
        }]
    }

    /// The edited report, kept as text because it is not JSON: edit it again, or drop it.
    fn update_unparsed(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        match action {
            Action::EditExternally => vec![self.edit_externally(cx.ids.issue())].into(),
            Action::DropEdited => {
                self.unparsed = None;
                cx.info("the edited text was dropped; the report is as it was before e");
                self.changed(cx).into()
            }
            Action::Back => Outcome::Pop,
            other => Outcome::NotMine(other),
        }
    }

    /// The external editor is done.
    fn edited(&mut self, result: Result<String, String>, cx: &mut Ctx) -> Vec<Command> {
        let text = match result {
            Ok(text) => text,
            Err(error) => {
                cx.error(format!(
                    "{}; the report is as it was",
                    sanitize::line(&error)
                ));
                return Vec::new();
            }
        };
        match self.take_edited(text) {
            EditOutcome::Unchanged => {
                cx.info("no change in the editor");
                Vec::new()
            }
            EditOutcome::Applied => {
                cx.info("the report was updated from the editor");
                self.changed(cx)
            }
            EditOutcome::Kept => {
                let error = self.unparsed.as_ref().map(|u| u.error.clone());
                cx.error(format!(
                    "the edited report is not JSON ({}): kept as text; e edits it again",
                    sanitize::line(&error.unwrap_or_default())
                ));
                self.changed(cx)
            }
        }
    }

    /// The stored draft of this subject arrived: restore it, unless typing started meanwhile.
    fn draft_loaded(
        &mut self,
        result: Result<Option<crate::app::StoredDraft>, String>,
        cx: &mut Ctx,
    ) -> Vec<Command> {
        let Some(stored) = self.draft.take_loaded(result, cx) else {
            return Vec::new();
        };
        match self.restore_draft(&stored.body, stored.age) {
            Ok(()) => {
                cx.info(format!(
                    "draft from {} ago restored; D discards it",
                    age_words(stored.age)
                ));
                self.check_again(cx)
            }
            Err(error) => {
                cx.error(format!(
                    "a draft was found but cannot be read ({}); typing here replaces it",
                    sanitize::line(&error)
                ));
                Vec::new()
            }
        }
    }

    /// `D`: the restored draft goes, here and in the store.
    fn discard(&mut self, cx: &mut Ctx) -> Vec<Command> {
        if !self.discard_draft() {
            cx.info("no restored draft to discard");
            return Vec::new();
        }
        cx.info("draft discarded: the report starts again from the resource");
        let mut commands = vec![self.draft.removal()];
        commands.extend(self.check_again(cx));
        commands
    }

    fn set_findings(&mut self, findings: Vec<check::ReportFinding>) {
        self.findings = findings;
        self.finding = self.finding.min(self.findings.len().saturating_sub(1));
    }
}

/// Whether a key typed on the selected provisional id replaces it (text, or deleting it).
fn replaces_selection(input: &Input) -> bool {
    !input.ctrl && !input.alt && matches!(input.key, Key::Char(_) | Key::Backspace | Key::Delete)
}
