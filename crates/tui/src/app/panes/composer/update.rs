//! The composer's handling of actions, the same for every kind: the editor's keys and the
//! checks that follow every change, `$EDITOR`, the draft (saved, restored, discarded), the
//! review, the send and its answer. The kind's own keys and answers are its [`Kind`]'s.

use std::time::Instant;

use super::{Composer, Edited, Kind};
use crate::app::Toward;
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::pane::{Ctx, News, Outcome, Pane, UnsavedWork};
use crate::app::widgets::draft::age_words;
use crate::app::widgets::json_editor::{self, escape_controls};
use crate::app::widgets::send_flow::{self, Phase, Target};
use crate::app::{Action, Command, Delivery, RequestId, StoredDraft};
use crate::sanitize;

impl<K: Kind> Pane for Composer<K> {
    fn keys(&self) -> &'static KeyTable {
        if let Some(own) = K::own_keys(self) {
            return own;
        }
        match self.phase {
            Phase::Editing => K::KEYS.writing,
            Phase::Review { .. } => K::KEYS.review,
            Phase::Sending { .. } => K::KEYS.sending,
            Phase::Answered(_) => K::KEYS.answer,
        }
    }

    fn input_mode(&self) -> InputMode {
        match (&self.phase, self.editing) {
            (Phase::Editing, true) => self.kind.editing_mode(),
            _ => InputMode::None,
        }
    }

    fn activity(&self) -> Option<String> {
        match self.phase {
            Phase::Sending { .. } => {
                Some(format!("sending the {}…; Esc cancels", K::SEND.as_str()))
            }
            _ if self.editing_externally.is_some() => Some("in the external editor…".to_owned()),
            _ => K::activity(self).or_else(|| self.checking.map(|_| K::CHECKING.to_owned())),
        }
    }

    fn idle_keys(&self) -> &'static [&'static str] {
        send_flow::idle_keys(&self.phase)
    }

    fn problem(&self) -> Option<String> {
        self.draft.problem()
    }

    fn unsaved_work(&self) -> Option<UnsavedWork> {
        Some(UnsavedWork {
            why: self.draft.save_error()?,
            what: K::SEND.as_str(),
            text: self.kind.external_text(),
        })
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

    /// The draft saved, and a send in flight recorded as cancelled: the history keeps every
    /// send, one `q` or `:profile` cut short too.
    fn closing(&mut self, cx: &mut Ctx) -> Vec<Command> {
        let mut commands = K::abandon_in_flight(self, cx);
        commands.extend(send_flow::abandon_sending(
            &mut self.phase,
            cx,
            target(&self.kind),
        ));
        commands.extend(self.save_draft(cx.ids.issue()));
        commands
    }

    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        let action = match K::intercept(self, action, cx) {
            Ok(outcome) => return outcome,
            Err(action) => action,
        };
        let target = target(&self.kind);
        match &self.phase {
            Phase::Editing if self.editing => self.update_editing(action, cx).into(),
            Phase::Editing => self.update_writing(action, cx),
            Phase::Review { .. } => {
                let hold = self.hold_words();
                let text = matches!(action, Action::Open).then(|| self.draft_text());
                let outcome = send_flow::update_review(
                    &mut self.phase,
                    (&mut self.review_scroll, self.review_bottom.get()),
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
            Delivery::Job(checked) if self.checking == Some(id) => {
                self.checking = None;
                if self.recheck {
                    // The text changed while this ran: its results are stale.
                    return self.check(|| cx.ids.issue()).into();
                }
                if let Some(checked) = checked.take::<K::Checked>() {
                    self.set_findings(checked);
                }
            }
            Delivery::Edited(result) if self.editing_externally == Some(id) => {
                self.editing_externally = None;
                return match result {
                    Ok(text) => self.edited(text, cx).into(),
                    Err(error) => {
                        let error = sanitize::line(&error);
                        cx.error(format!("{error}; the {} is as it was", K::EDITED));
                        Outcome::done()
                    }
                };
            }
            // Asked for once, when the composer opens.
            Delivery::DraftLoaded(result) => return self.draft_loaded(result, cx).into(),
            Delivery::DraftSaved(result) => {
                self.draft.save_answered(id, result);
            }
            Delivery::Api(exchange) => {
                let target = target(&self.kind);
                let Some(answered) = send_flow::answer(&mut self.phase, id, &exchange, cx, target)
                else {
                    // Not the send of the phase: one of the kind's own (a report over marks).
                    return K::on_reply(self, id, Delivery::Api(exchange), cx);
                };
                let mut commands = answered.commands;
                if !answered.ok {
                    self.draft.not_sent(cx.now);
                    return commands.into();
                }
                // Sent and accepted: its draft has done its job.
                commands.push(self.draft.sent());
                return K::accepted(self, answered.body, commands, cx);
            }
            other => return K::on_reply(self, id, other, cx),
        }
        Outcome::done()
    }

    fn on_broadcast(&mut self, news: &News, cx: &mut Ctx) -> Vec<Command> {
        K::on_broadcast(self, news, cx)
    }

    /// Nothing kept depends on the size: the composer is laid out anew every frame.
    fn resized(&mut self, _cx: &mut Ctx) -> Vec<Command> {
        Vec::new()
    }
}

impl<K: Kind> Composer<K> {
    /// What the review's first `Enter` says when something holds the send ([`Kind::hold`]).
    pub(crate) fn hold_words(&self) -> Option<String> {
        self.hold_words_with(Vec::new())
    }

    /// [`Self::hold_words`], with `more` that holds the send besides what the kind says.
    pub(crate) fn hold_words_with(&self, more: Vec<String>) -> Option<String> {
        let mut hold = K::hold(self);
        hold.extend(more);
        let hold = (!hold.is_empty()).then(|| hold.join(" and "))?;
        Some(format!("{hold}: Enter again sends anyway, Esc goes back"))
    }

    /// Normal mode: the keys every kind has, then the kind's own.
    fn update_writing(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        match action {
            Action::Undo(toward) => {
                let undo = toward == Toward::Previous;
                if let Err(nothing) = json_editor::undo_or_redo(self.kind.editor_mut(), undo) {
                    cx.info(nothing);
                    return Outcome::done();
                }
                self.kind.focus_editor();
                return self.changed(cx).into();
            }
            Action::EditExternally => return vec![self.edit_externally(cx.ids.issue())].into(),
            Action::DiscardDraft => return self.discard(cx).into(),
            Action::Match(Toward::Next) => self.go_to_finding(1),
            Action::Match(Toward::Previous) => self.go_to_finding(-1),
            Action::Review => self.review(cx),
            Action::Back => return Outcome::Pop,
            Action::Click { .. } => {}
            other => return K::update_writing(self, other, cx),
        }
        Outcome::done()
    }

    /// `s`: the exact request, when the text is JSON (and, for a kind that waits, checked).
    fn review(&mut self, cx: &mut Ctx) {
        if let (Some(wait), Some(_)) = (K::REVIEW_WAITS, self.checking) {
            cx.info(wait);
            return;
        }
        match self.kind.body() {
            Ok(body) => {
                self.review_scroll = 0;
                self.review_bottom.set(None);
                self.phase = Phase::Review { body, armed: false };
            }
            Err(error) => cx.error(format!(
                "nothing to review: the {} is not JSON ({error})",
                K::TEXT
            )),
        }
    }

    /// The editor has the keyboard.
    fn update_editing(&mut self, action: Action, cx: &mut Ctx) -> Vec<Command> {
        let editor = self.kind.editor_mut();
        let changed = match action {
            Action::Edit(input) => editor.input(input),
            Action::InsertText(text) => editor.insert_str(escape_controls(&text)),
            Action::Back => {
                self.editing = false;
                // Typing after coming back is a step of its own.
                editor.end_undo_step();
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

    /// What `$EDITOR` left: in place, checked, and said.
    fn edited(&mut self, text: String, cx: &mut Ctx) -> Vec<Command> {
        let [applied, kept] = K::AFTER_EDIT;
        match self.kind.take_edited(text) {
            Edited::Unchanged => {
                cx.info("no change in the editor");
                return Vec::new();
            }
            Edited::Applied => cx.info(applied),
            Edited::NotJson(error) => cx.error(format!(
                "the edited {} is not JSON ({}): {kept}",
                K::EDITED,
                sanitize::line(&error)
            )),
        }
        self.changed(cx)
    }

    /// The stored draft of this subject arrived: restore it, unless typing started meanwhile.
    fn draft_loaded(
        &mut self,
        result: Result<Option<StoredDraft>, String>,
        cx: &mut Ctx,
    ) -> Vec<Command> {
        let Some(stored) = self.draft.take_loaded(result, cx) else {
            return Vec::new();
        };
        match self.restore_draft(&stored.body, stored.age) {
            Ok(()) => {
                let restored = format!(
                    "draft from {} ago restored; D discards it",
                    age_words(stored.age)
                );
                self.say_with_warning(restored, cx);
                self.check(|| cx.ids.issue())
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

    /// `news` about the draft, after the warning said as the composer opened, if any: one
    /// line, so that neither hides the other.
    fn say_with_warning(&self, news: String, cx: &mut Ctx) {
        match &self.warned {
            Some(warning) => cx.error(format!("{warning}; {news}")),
            None => cx.info(news),
        }
    }

    /// `D`: the restored draft goes, here and in the store.
    fn discard(&mut self, cx: &mut Ctx) -> Vec<Command> {
        if !self.discard_draft() {
            cx.info("no restored draft to discard");
            return Vec::new();
        }
        self.say_with_warning(K::DISCARDED.to_owned(), cx);
        let mut commands = vec![self.draft.removal()];
        commands.extend(self.check(|| cx.ids.issue()));
        commands
    }
}

/// Where a kind's sends go, and what the answer compares them with.
fn target<K: Kind>(kind: &K) -> Target<'_> {
    Target {
        kind: K::SEND,
        base_url: kind.base_url(),
        resource_before: kind.resource_before(),
    }
}
