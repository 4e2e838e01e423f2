//! Keys on the composer: moving between fields, editing them, the checks that follow every
//! change, the review, the send and its answer.

use ratatui_textarea::{CursorMove, Input, Key};
use serde_json::Value;

use super::check::{self, Place};
use std::time::Instant;

use super::draft::age_words;
use super::external::EditOutcome;
use super::keys::{ANSWER_KEYS, COMPOSER_KEYS, REVIEW_KEYS, SENDING_KEYS, UNPARSED_KEYS};
use super::{CHECK_IN_BACKGROUND_BYTES, Composer, Field, Phase, SendResult, fill};
use crate::api::{Operation, curl};
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::pane::{Ctx, Delivery, Outcome, Pane};
use crate::app::panes::history::record::{record, record_cancelled};
use crate::app::widgets::LineEvent;
use crate::app::{Action, ApiCall, Command, RequestId};
use crate::sanitize;
use crate::store::SendKind;

impl Pane for Composer {
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
            (Phase::Editing, true, _) => InputMode::Line,
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
        match &self.draft.saved {
            Some(Err(error)) => Some(format!("draft not saved: {}", sanitize::line(error))),
            _ => None,
        }
    }

    fn wake_at(&self) -> Option<Instant> {
        self.draft.due()
    }

    fn tick(&mut self, cx: &mut Ctx) -> Vec<Command> {
        match self.draft.due() {
            Some(due) if due <= cx.now => self.save_draft(cx.ids.issue()),
            _ => Vec::new(),
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
            Phase::Sending { id, body } => match action {
                Action::Back => {
                    let cancel = Command::Cancel(*id);
                    let record = record_cancelled(&self.context.base_url, SendKind::Report, body);
                    self.phase = Phase::Editing;
                    cx.info("send cancelled (the service may have received it already)");
                    vec![cancel, record].into()
                }
                other => Outcome::NotMine(other),
            },
            Phase::Answered(result) => match action {
                Action::OpenLink => {
                    let url = result.platform_app_url.clone();
                    cx.open_url(url, "the answer has no platform_app_url")
                        .into()
                }
                Action::Copy => {
                    let url = result.platform_app_url.clone();
                    cx.copy(url, "platform_app_url").into()
                }
                Action::Back => {
                    self.phase = Phase::Editing;
                    Outcome::done()
                }
                other => Outcome::NotMine(other),
            },
        }
    }

    fn on_reply(&mut self, id: RequestId, delivery: Delivery, cx: &mut Ctx) -> Outcome {
        match delivery {
            Delivery::Checked(findings) if self.checking == Some(id) => {
                self.checking = None;
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
            Delivery::DraftLoaded(result) if self.draft.loading == Some(id) => {
                self.draft.loading = None;
                return self.draft_loaded(result, cx).into();
            }
            Delivery::DraftSaved(result) if self.draft.saving == Some(id) => {
                self.draft.saving = None;
                // A change since this save was asked for is not in it: no "saved" cue yet.
                if result.is_err() || self.draft.unsaved.is_none() {
                    self.draft.saved = Some(result);
                }
            }
            Delivery::Api(exchange) => {
                let Phase::Sending { id: sent, body } = &self.phase else {
                    return Outcome::done();
                };
                if *sent != id {
                    return Outcome::done();
                }
                // Every answer is recorded, a refusal or a network failure too.
                let mut recorded = vec![record(
                    &self.context.base_url,
                    SendKind::Report,
                    body,
                    &exchange,
                )];
                let result = SendResult::from_exchange(&exchange);
                let ok = result.ok;
                if let Err(error) = &exchange.result {
                    cx.record_api_error("sending a report", error);
                }
                self.phase = Phase::Answered(Box::new(result));
                if ok {
                    cx.info("report sent: the service answered ok");
                    // Sent and accepted: its draft has done its job.
                    self.draft.unsaved = None;
                    self.draft.restored = None;
                    self.draft.saved = None;
                    let subject = self.draft.subject.clone();
                    recorded.push(Command::RemoveDraft(subject));
                    return Outcome::RefreshList(recorded);
                }
                cx.error("the report was refused: fix it and send again");
                return recorded.into();
            }
            _ => {}
        }
        Outcome::done()
    }

    fn resized(&mut self, _cx: &mut Ctx) -> Vec<Command> {
        Vec::new()
    }
}

impl Composer {
    /// Normal mode: moving between fields and the composer's own keys.
    fn update_writing(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        match action {
            Action::Down | Action::ScrollDown => {
                if self.field == Field::Findings {
                    self.finding = (self.finding + 1).min(self.findings.len().saturating_sub(1));
                } else {
                    self.field = self.field.step(true);
                }
            }
            Action::Up | Action::ScrollUp => {
                if self.field == Field::Findings && self.finding > 0 {
                    self.finding -= 1;
                } else {
                    self.field = self.field.step(false);
                }
            }
            Action::Top => self.field = Field::TaskId,
            Action::Bottom => self.field = Field::Findings,
            Action::PageDown if self.field == Field::Resource => {
                self.resource.move_cursor(CursorMove::ParagraphForward)
            }
            Action::PageUp if self.field == Field::Resource => {
                self.resource.move_cursor(CursorMove::ParagraphBack)
            }
            Action::Open if self.field == Field::Findings => self.go_to_finding(0),
            Action::Open | Action::StartEdit => match self.field {
                Field::Status => return self.toggle_status(cx).into(),
                Field::Findings => {}
                _ => self.editing = true,
            },
            Action::Toggle => return self.toggle_status(cx).into(),
            Action::Undo | Action::Redo => {
                let undo = matches!(action, Action::Undo);
                let done = if undo {
                    self.resource.undo()
                } else {
                    self.resource.redo()
                };
                if !done {
                    cx.info(if undo {
                        "nothing to undo"
                    } else {
                        "nothing to redo"
                    });
                    return Outcome::done();
                }
                self.field = Field::Resource;
                return self.changed(cx).into();
            }
            Action::Fill => return self.fill(cx).into(),
            Action::EditExternally => return vec![self.edit_externally(cx.ids.issue())].into(),
            Action::DiscardDraft => return self.discard(cx).into(),
            Action::NextMatch => self.go_to_finding(1),
            Action::PrevMatch => self.go_to_finding(-1),
            Action::Review => match self.body() {
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
                        return self.changed(cx);
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
            LineEvent::Changed => self.changed(cx),
            LineEvent::Submitted | LineEvent::Cancelled => {
                self.editing = false;
                Vec::new()
            }
            LineEvent::Other(action @ (Action::Up | Action::Down)) => {
                self.editing = false;
                self.field = self.field.step(matches!(action, Action::Down));
                Vec::new()
            }
            LineEvent::Unchanged | LineEvent::Other(_) => Vec::new(),
        }
    }

    fn update_review(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        let Phase::Review { body, armed } = &mut self.phase else {
            return Outcome::done();
        };
        match action {
            Action::Down | Action::ScrollDown => self.review_scroll += 1,
            Action::Up | Action::ScrollUp => {
                self.review_scroll = self.review_scroll.saturating_sub(1)
            }
            Action::PageDown => self.review_scroll += 10,
            Action::PageUp => self.review_scroll = self.review_scroll.saturating_sub(10),
            Action::Top => self.review_scroll = 0,
            Action::Bottom => self.review_scroll = usize::MAX / 2,
            Action::Open => {
                if cx.refuse_write("report") {
                    return Outcome::done();
                }
                if self.findings.is_empty() || *armed {
                    let id = cx.ids.issue();
                    let body = body.clone();
                    let call = ApiCall::report(body.clone());
                    self.phase = Phase::Sending { id, body };
                    return vec![Command::Api { id, call }].into();
                }
                *armed = true;
                cx.info(format!(
                    "{} finding(s): Enter again sends anyway, Esc goes back",
                    self.findings.len()
                ));
            }
            Action::CopyCurl => {
                let line = curl::command(&self.context.base_url, Operation::OperationsReport, body);
                return cx.copy(Some(line), "curl command").into();
            }
            Action::Back => self.phase = Phase::Editing,
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    fn toggle_status(&mut self, cx: &mut Ctx) -> Vec<Command> {
        self.status = if self.status == "ok" { "error" } else { "ok" }.to_owned();
        self.field = Field::Status;
        self.changed(cx)
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
        let added = fill::fill_required(properties, &schema);
        if added.is_empty() {
            cx.info("every required property is there");
            return Vec::new();
        }
        let text = serde_json::to_string_pretty(&resource).unwrap_or_default();
        self.replace_resource(&text);
        self.field = Field::Resource;
        cx.info(format!("filled {}; u undoes", added.join(", ")));
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
                let clamp = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
                self.resource
                    .move_cursor(CursorMove::Jump(clamp(line), clamp(column)));
            }
            Place::Field(field) => self.field = field,
        }
    }

    /// The text changed: its draft is due for a save, and it is checked again.
    fn changed(&mut self, cx: &mut Ctx) -> Vec<Command> {
        self.draft.touch(cx.now);
        self.check_again(cx)
    }

    /// Checks the text again, here for a small report, off the UI thread for a large one (at
    /// most one check runs; a change meanwhile makes its result stale).
    fn check_again(&mut self, cx: &mut Ctx) -> Vec<Command> {
        let size: usize = self.resource.lines().iter().map(|l| l.len() + 1).sum();
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
        vec![Command::Check {
            id,
            job: Box::new(job),
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
        let stored = match result {
            Ok(Some(stored)) => stored,
            Ok(None) => return Vec::new(),
            Err(error) => {
                cx.error(format!(
                    "the store could not be read for a draft: {}",
                    sanitize::line(&error)
                ));
                return Vec::new();
            }
        };
        if self.draft.unsaved.is_some() {
            // Typing won the race: the next save replaces the stored draft.
            cx.info(format!(
                "a draft from {} ago was not restored: typing had started",
                age_words(stored.age)
            ));
            return Vec::new();
        }
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
        let mut commands = vec![Command::RemoveDraft(self.draft.subject.clone())];
        commands.extend(self.check_again(cx));
        commands
    }

    fn set_findings(&mut self, findings: Vec<check::Located>) {
        self.findings = findings;
        self.finding = self.finding.min(self.findings.len().saturating_sub(1));
    }
}

/// Whether a key typed on the selected provisional id replaces it (text, or deleting it).
fn replaces_selection(input: &Input) -> bool {
    !input.ctrl && !input.alt && matches!(input.key, Key::Char(_) | Key::Backspace | Key::Delete)
}

/// Pasted text for the resource editor: control characters other than newline and tab become
/// `\u` escapes (the same data inside a JSON string), so none reaches the terminal raw.
fn escape_controls(text: &str) -> String {
    text.replace("\r\n", "\n")
        .chars()
        .map(|c| match c {
            '\n' | '\t' => c.to_string(),
            c if c.is_control() => format!("\\u{:04x}", u32::from(c)),
            c => c.to_string(),
        })
        .collect()
}
