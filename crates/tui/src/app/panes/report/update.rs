//! The report's part of the composer: moving between its fields and editing them, `Space` on the
//! status, `f` filling what the type requires, the report as `$EDITOR` left it when that is not
//! JSON, what holds the send, and what an accepted report does (the list reloads).

use ratatui_textarea::{CursorMove, Input, Key, TextArea};

use super::check::{CheckJob, Place, ReportFinding};
use super::draft::ReportDraft;
use super::keys::{PHASES, UNPARSED_KEYS};
use super::{CHECK_IN_BACKGROUND_BYTES, Field, Phase, Report, ReportComposer, many};
use crate::app::Toward;
use crate::app::action::Move;
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::pane::{Ctx, Outcome};
use crate::app::panes::composer::{Edited, Kind, PhaseKeys};
use crate::app::widgets::LineEvent;
use crate::app::widgets::json_editor;
use crate::app::{Action, Command, Delivery, RequestId};
use crate::sanitize;
use crate::store::SendKind;
use crate::text::counted;

impl Kind for Report {
    type Finding = ReportFinding;
    type Check = CheckJob;
    type Checked = Vec<ReportFinding>;
    type Draft = ReportDraft;

    const SEND: SendKind = SendKind::Report;
    const TEXT: &'static str = "resource";
    const EDITED: &'static str = "report";
    const AFTER_EDIT: [&'static str; 2] = [
        "the report was updated from the editor",
        "kept as text; e edits it again",
    ];
    const BACKGROUND_BYTES: usize = CHECK_IN_BACKGROUND_BYTES;
    const CHECKING: &'static str = "checking…";
    const DISCARDED: &'static str = "draft discarded: the report starts again from the resource";
    const REVIEW_WAITS: Option<&'static str> = None;
    const KEYS: PhaseKeys = PHASES;

    fn screen(c: Box<crate::app::panes::composer::Composer<Self>>) -> crate::app::pane::Screen {
        crate::app::pane::Screen::Report(c)
    }

    fn editor(&self) -> &TextArea<'static> {
        &self.resource
    }

    fn editor_mut(&mut self) -> &mut TextArea<'static> {
        &mut self.resource
    }

    fn base_url(&self) -> &str {
        &self.context.base_url
    }

    fn resource_before(&self) -> Option<&str> {
        self.listed.as_deref()
    }

    fn check_job(&self) -> CheckJob {
        CheckJob {
            header: self.header(),
            resource_text: std::sync::Arc::from(self.resource_text()),
            types: self.context.types.clone(),
        }
    }

    fn checked(&mut self, findings: Vec<ReportFinding>) -> Vec<ReportFinding> {
        findings
    }

    fn focus_editor(&mut self) {
        self.field = Field::Resource;
    }

    fn external_text(&self) -> String {
        self.report_text()
    }

    /// The report written with the resource's text as typed (compact), so its numbers and
    /// strings go out as written.
    fn body(&self) -> Result<crate::app::Body, String> {
        self.body_about(&self.resource_text())
    }

    fn draft(&self) -> ReportDraft {
        self.draft_body()
    }

    fn restore(&mut self, draft: ReportDraft) {
        self.task_id.set(&draft.task_id);
        self.task_id_provisional = draft.task_id_provisional;
        self.status = draft.status;
        self.message.set(&draft.message);
        self.response_type.set(&draft.response_type);
        self.as_read.extra = draft.extra;
        self.as_read.kept = draft.kept;
        self.as_read.written = draft.written;
        self.as_read.key_order = draft.key_order;
        // Over marks, each send carries its own resource as listed: the draft's is not put back.
        if self.marked.is_none() {
            self.replace_resource(&sanitize::json_for_terminal(&draft.resource));
            self.unparsed = draft.unparsed;
        }
    }

    fn editing_mode(&self) -> InputMode {
        match self.field {
            Field::Resource => InputMode::Editor,
            _ => InputMode::Field,
        }
    }

    fn own_keys(c: &ReportComposer) -> Option<&'static KeyTable> {
        if let Some(keys) = many::own_keys(c) {
            return Some(keys);
        }
        let unparsed = matches!(c.phase, Phase::Editing) && c.unparsed.is_some();
        unparsed.then_some(&UNPARSED_KEYS)
    }

    /// A report over marks, a one-line field being edited, and the edited report kept as text
    /// because it is not JSON (edit it again, or drop it).
    fn abandon_in_flight(c: &mut ReportComposer, cx: &mut Ctx) -> Vec<Command> {
        super::many::abandon_in_flight(c, cx)
    }

    fn intercept(c: &mut ReportComposer, action: Action, cx: &mut Ctx) -> Result<Outcome, Action> {
        let action = match many::intercept(c, action, cx) {
            Ok(outcome) => return Ok(outcome),
            Err(action) => action,
        };
        if c.editing && matches!(c.phase, Phase::Editing) {
            return update_field(c, action, cx).map(Outcome::from);
        }
        if c.editing || c.unparsed.is_none() || !matches!(c.phase, Phase::Editing) {
            return Err(action);
        }
        Ok(match action {
            Action::EditExternally => vec![c.edit_externally(cx.ids.issue())].into(),
            Action::DropEdited => {
                c.unparsed = None;
                cx.info("the edited text was dropped; the report is as it was before e");
                c.changed(cx).into()
            }
            Action::Back => Outcome::Pop,
            other => Outcome::NotMine(other),
        })
    }

    /// Normal mode: moving between fields and the report's own keys.
    fn update_writing(c: &mut ReportComposer, action: Action, cx: &mut Ctx) -> Outcome {
        match action {
            Action::Move(Move::Down) | Action::Scroll(Toward::Next) => {
                if c.field == Field::Findings {
                    c.finding = (c.finding + 1).min(c.findings.len().saturating_sub(1));
                } else {
                    c.field = c.field.step(true);
                }
            }
            Action::Move(Move::Up) | Action::Scroll(Toward::Previous) => {
                if c.field == Field::Findings && c.finding > 0 {
                    c.finding -= 1;
                } else {
                    c.field = c.field.step(false);
                }
            }
            Action::Move(Move::Top) => c.field = Field::TaskId,
            Action::Move(Move::Bottom) => c.field = Field::Findings,
            Action::Move(Move::PageDown) if c.field == Field::Resource => {
                c.resource.move_cursor(CursorMove::ParagraphForward)
            }
            Action::Move(Move::PageUp) if c.field == Field::Resource => {
                c.resource.move_cursor(CursorMove::ParagraphBack)
            }
            Action::Open if c.field == Field::Findings => c.go_to_finding(0),
            Action::Open | Action::StartEdit => match c.field {
                Field::Status => return toggle_status(c, cx).into(),
                Field::Findings => {}
                _ => c.editing = true,
            },
            Action::Toggle => return toggle_status(c, cx).into(),
            Action::Fill => return fill(c, cx).into(),
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    fn activity(c: &ReportComposer) -> Option<String> {
        many::activity(c)
    }

    /// The answers to the sends of a report over marks.
    fn on_reply(c: &mut ReportComposer, id: RequestId, d: Delivery, cx: &mut Ctx) -> Outcome {
        many::on_reply(c, id, d, cx).unwrap_or_else(Outcome::done)
    }

    fn go_to(c: &mut ReportComposer, i: usize) {
        match c.findings[i].place {
            Place::Resource { line, column } => {
                c.field = Field::Resource;
                json_editor::jump_to(&mut c.resource, line, column);
            }
            Place::Field(field) => c.field = field,
        }
    }

    fn take_edited(&mut self, text: String) -> Edited {
        Report::take_edited(self, text)
    }

    /// A check still running may yet find something: the send waits for a second `Enter`.
    fn hold(c: &ReportComposer) -> Vec<String> {
        if c.checking.is_some() {
            return vec!["the checks are still running".to_owned()];
        }
        let findings = (!c.findings.is_empty()).then(|| counted(c.findings.len(), "finding"));
        findings.into_iter().collect()
    }

    /// The answer says what the report changed in its resource, against the resource as
    /// listed; the lists fetch their rows again, and a detail open on it says it is as before.
    fn accepted(
        c: &mut ReportComposer,
        body: crate::app::Body,
        commands: Vec<Command>,
        _: &mut Ctx,
    ) -> Outcome {
        if let (Some(listed), Phase::Answered(result)) = (&c.kind.listed, &mut c.phase) {
            result.changes = crate::changes::made_by_report(listed, body.text());
        }
        let reported = c.kind.resource_id.as_deref().map(std::sync::Arc::from);
        Outcome::Tell(crate::app::pane::News::ResourceReported(reported), commands)
    }
}

/// A one-line field has the keyboard, or the action back when the resource's editor (the
/// composer's) has it.
fn update_field(
    c: &mut ReportComposer,
    action: Action,
    cx: &mut Ctx,
) -> Result<Vec<Command>, Action> {
    if c.field == Field::Resource {
        return Err(action);
    }
    let action = match action {
        Action::Edit(input) if c.field == Field::TaskId && c.task_id_provisional => {
            c.task_id_provisional = false;
            // The generated id is selected: typing replaces it, a movement keeps it.
            if replaces_selection(&input) {
                c.task_id.set("");
                if matches!(input.key, Key::Backspace | Key::Delete) {
                    return Ok(field_changed(c, cx));
                }
            }
            Action::Edit(input)
        }
        Action::InsertText(text) if c.field == Field::TaskId && c.task_id_provisional => {
            c.task_id_provisional = false;
            c.task_id.set("");
            Action::InsertText(text)
        }
        other => other,
    };
    let input = match c.field {
        Field::TaskId => &mut c.kind.task_id,
        Field::Message => &mut c.kind.message,
        Field::ResponseType => &mut c.kind.response_type,
        _ => {
            c.editing = false;
            return Ok(Vec::new());
        }
    };
    Ok(match input.handle(action) {
        LineEvent::Changed => field_changed(c, cx),
        LineEvent::Submitted | LineEvent::Cancelled => {
            c.editing = false;
            Vec::new()
        }
        LineEvent::Other(action @ (Action::Move(Move::Up) | Action::Move(Move::Down))) => {
            c.editing = false;
            c.field = c.field.step(matches!(action, Action::Move(Move::Down)));
            Vec::new()
        }
        LineEvent::Unchanged | LineEvent::Other(_) => Vec::new(),
    })
}

fn toggle_status(c: &mut ReportComposer, cx: &mut Ctx) -> Vec<Command> {
    c.status = if c.status == "ok" { "error" } else { "ok" }.to_owned();
    c.field = Field::Status;
    field_changed(c, cx)
}

/// The field under the cursor was edited: what it holds now is what was typed, no longer the
/// value read from a file (see [`Report::kept`]).
fn field_changed(c: &mut ReportComposer, cx: &mut Ctx) -> Vec<Command> {
    let label = c.field.label();
    c.as_read.kept.remove(label);
    c.changed(cx)
}

/// `f`: adds what the type's schema requires, as one undoable edit of the resource.
fn fill(c: &mut ReportComposer, cx: &mut Ctx) -> Vec<Command> {
    let Some(types) = c.context.types.clone() else {
        cx.error("no types are known here, so there is no schema to fill from");
        return Vec::new();
    };
    let types_text = c.context.types_text.as_deref();
    let filled = match crate::placeholder::fill_resource(&c.resource_text(), &types, types_text) {
        Ok(Some(filled)) => filled,
        Ok(None) => {
            cx.info("every required property is there");
            return Vec::new();
        }
        Err(why) => {
            cx.error(why);
            return Vec::new();
        }
    };
    c.replace_resource(&sanitize::json_for_terminal(&filled.text));
    c.field = Field::Resource;
    let added = filled.filled.added.join(", ");
    if filled.filled.unsatisfied.is_empty() {
        cx.info(format!("filled {added}; u undoes"));
    } else {
        // The checks mark these lines; saying their names tells what is left to write.
        let left = filled.filled.unsatisfied.join(", ");
        cx.error(format!(
            "filled {added}; no value fits the schema of {left}: write it (n goes to the findings); u undoes"
        ));
    }
    c.changed(cx)
}

/// Whether a key typed on the selected provisional id replaces it (text, or deleting it).
fn replaces_selection(input: &Input) -> bool {
    !input.ctrl && !input.alt && matches!(input.key, Key::Char(_) | Key::Backspace | Key::Delete)
}
