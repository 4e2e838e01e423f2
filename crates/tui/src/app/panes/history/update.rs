//! Keys, clicks and replies on the history view: the list with its `/` filter, and one send
//! shown in full.

use super::keys::{ENTRY_KEYS, HISTORY_KEYS};
use super::{HistoryView, Listed, layout};
use crate::api::curl;
use crate::app::Toward;
use crate::app::action::Move;
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::pane::{Ctx, News, Open, Outcome, Pane};
use crate::app::widgets::ListEvent;
use crate::app::{Action, Command, Delivery, RequestId};
use crate::store::SendKind;

impl Pane for HistoryView {
    fn keys(&self) -> &'static KeyTable {
        if self.shown.is_some() {
            &ENTRY_KEYS
        } else {
            &HISTORY_KEYS
        }
    }

    fn input_mode(&self) -> InputMode {
        match self.shown {
            Some(_) => InputMode::None,
            None => self.list.input_mode(),
        }
    }

    fn activity(&self) -> Option<String> {
        self.loading.map(|_| "loading the history…".to_owned())
    }

    fn problem(&self) -> Option<String> {
        self.problem.clone()
    }

    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        if self.shown.is_some() {
            return self.update_detail(action, cx);
        }
        let height = self.table_height(cx.body);
        match self.list.update(action, cx.body) {
            ListEvent::Done => {}
            ListEvent::Refilter => self.refilter(height),
            ListEvent::Open => return self.open_selected(cx),
            ListEvent::Other(Action::Refresh) => {
                cx.info("reloading the history");
                return self.load(cx.ids).into();
            }
            ListEvent::Other(Action::EditAndResend) => return self.edit_and_resend(cx),
            ListEvent::Other(Action::CopyCurl) => return self.copy_curl(cx).into(),
            ListEvent::Other(Action::Back) => return Outcome::Pop,
            ListEvent::Other(other) => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    fn on_reply(&mut self, id: RequestId, delivery: Delivery, cx: &mut Ctx) -> Outcome {
        let height = self.table_height(cx.body);
        match delivery {
            Delivery::History(loaded) if self.loading == Some(id) => {
                self.loading = None;
                self.set_entries(*loaded, height);
            }
            Delivery::Drafts(listed) if self.listing_drafts == Some(id) => {
                self.listing_drafts = None;
                self.set_drafts(listed, height);
            }
            _ => {}
        }
        Outcome::done()
    }

    /// A send was recorded: it is listed at once.
    fn on_broadcast(&mut self, news: &News, cx: &mut Ctx) -> Vec<Command> {
        match news {
            News::SendRecorded => self.load(cx.ids),
            _ => Vec::new(),
        }
    }

    fn resized(&mut self, cx: &mut Ctx) -> Vec<Command> {
        let height = self.table_height(cx.body);
        self.list
            .cursor
            .keep_visible(self.list.visible.len(), height);
        Vec::new()
    }
}

impl HistoryView {
    /// `Enter`: a send is shown in full; a draft goes on in its composer.
    fn open_selected(&mut self, cx: &mut Ctx) -> Outcome {
        match self.selected_row() {
            Some(Listed::Draft(draft)) => Outcome::Open(Open::Draft(Box::new(draft.clone()))),
            Some(Listed::Sent(_)) => {
                self.show_selected();
                Outcome::done()
            }
            None => {
                cx.error("nothing under the cursor");
                Outcome::done()
            }
        }
    }

    /// One send in full: movement scrolls it, `Esc` goes back to the list.
    fn update_detail(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        let page = layout::detail_height(cx.body).max(1);
        let Some(detail) = &mut self.shown else {
            return Outcome::done();
        };
        let rows = detail.rows(layout::detail_width(cx.body)).count();
        let last = rows.saturating_sub(page);
        let scroll = detail.scroll;
        detail.scroll = match action {
            Action::Move(Move::Down) | Action::Scroll(Toward::Next) => (scroll + 1).min(last),
            Action::Move(Move::Up) | Action::Scroll(Toward::Previous) => scroll.saturating_sub(1),
            Action::Move(Move::PageDown) => (scroll + page).min(last),
            Action::Move(Move::PageUp) => scroll.saturating_sub(page),
            Action::Move(Move::Top) => 0,
            Action::Move(Move::Bottom) => last,
            Action::Back | Action::Left if self.alone => return Outcome::Pop,
            Action::Back | Action::Left => {
                self.shown = None;
                return Outcome::done();
            }
            Action::EditAndResend => return self.edit_and_resend(cx),
            Action::CopyCurl => return self.copy_curl(cx).into(),
            Action::Click { .. } => scroll,
            other => return Outcome::NotMine(other),
        };
        Outcome::done()
    }

    /// `E`: a report goes to the report composer, a connect to the connect composer (the app
    /// opens them, with this service's settings).
    fn edit_and_resend(&mut self, cx: &mut Ctx) -> Outcome {
        if self.shown.is_none()
            && let Some(Listed::Draft(draft)) = self.selected_row()
        {
            return Outcome::Open(Open::Draft(Box::new(draft.clone())));
        }
        let Some(entry) = self.current() else {
            cx.error("no send under the cursor");
            return Outcome::done();
        };
        let kind = entry.sent.kind;
        // The text as sent: a parsed value would give its numbers and escapes another spelling.
        let body = entry.sent.body.as_str().into();
        match crate::validate::parse_json(&entry.sent.body) {
            Ok(_) if kind == SendKind::Connect => Outcome::Open(Open::Connect(body)),
            Ok(_) => Outcome::Open(Open::Report(body)),
            Err(error) => {
                cx.error(format!("the recorded {kind} is not JSON ({error})"));
                Outcome::done()
            }
        }
    }

    /// `c`: the send as a curl command to where it was sent; the token stays out of it.
    fn copy_curl(&self, cx: &mut Ctx) -> Vec<Command> {
        if self.shown.is_none() && matches!(self.selected_row(), Some(Listed::Draft(_))) {
            cx.error(
                "a draft is not sent yet: Enter opens it, and its review (s) copies it as curl",
            );
            return Vec::new();
        }
        let Some(entry) = self.current() else {
            return cx.copy(None, "curl command");
        };
        // The body as it was recorded, which is as it was sent.
        let line = crate::validate::parse_json(&entry.sent.body).map(|_| {
            let operation = entry.sent.kind.operation();
            curl::command(&entry.sent.base_url, operation, &entry.sent.body)
        });
        match line {
            Ok(line) => cx.copy(Some(line), "curl command"),
            Err(error) => {
                cx.error(format!("the recorded body is not JSON ({error})"));
                Vec::new()
            }
        }
    }
}
