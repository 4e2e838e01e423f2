//! Keys on the composer: moving between fields, editing them, the checks that follow every
//! change, the review, the send and its answer.

use ratatui_textarea::{CursorMove, Input, Key};
use serde_json::Value;

use super::check::{self, Place};
use super::keys::{ANSWER_KEYS, COMPOSER_KEYS, REVIEW_KEYS, SENDING_KEYS};
use super::{CHECK_IN_BACKGROUND_BYTES, Composer, Field, Phase, SendResult, fill};
use crate::api::{Operation, curl};
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::pane::{Ctx, Delivery, Outcome, Pane};
use crate::app::panes::history::record::{record, record_cancelled};
use crate::app::widgets::LineEvent;
use crate::app::{Action, ApiCall, Command, RequestId};
use crate::store::SendKind;

impl Pane for Composer {
    fn keys(&self) -> &'static KeyTable {
        match self.phase {
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
            _ => self.checking.map(|_| "checking…".to_owned()),
        }
    }

    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        match &self.phase {
            Phase::Editing if self.editing => self.update_editing(action, cx).into(),
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
                    return self.changed(cx).into();
                }
                self.set_findings(findings);
            }
            Delivery::Api(exchange) => {
                let Phase::Sending { id: sent, body } = &self.phase else {
                    return Outcome::done();
                };
                if *sent != id {
                    return Outcome::done();
                }
                // Every answer is recorded, a refusal or a network failure too.
                let recorded = vec![record(
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

    /// The text changed: check it again, here for a small report, off the UI thread for a large
    /// one (at most one check runs; a change meanwhile makes its result stale).
    fn changed(&mut self, cx: &mut Ctx) -> Vec<Command> {
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
