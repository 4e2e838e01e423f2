//! Keys and clicks on the detail view, and on its `/` search while it is being typed.

use super::keys::DETAIL_KEYS;
use super::{Detail, DetailPart, DetailSearch};
use crate::api::PageItem;
use crate::app::Toward;
use crate::app::action::Move;
use crate::app::export::{Exported, Exporting, Items};
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::layout;
use crate::app::overlay::Overlay;
use crate::app::overlay::value::ValuePopup;
use crate::app::pane::{Ctx, News, Open, Outcome, Pane};
use crate::app::widgets::{LineEvent, is_movement};
use crate::app::{Action, Command, Delivery, RequestId};
use appdeck_listing::NotLive;

impl Pane for Detail {
    fn keys(&self) -> &'static KeyTable {
        &DETAIL_KEYS
    }

    fn input_mode(&self) -> InputMode {
        if self.search.as_ref().is_some_and(|s| s.editing) {
            InputMode::Line
        } else {
            InputMode::None
        }
    }

    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        if self.input_mode() == InputMode::Line {
            self.update_search(action, cx);
            return Outcome::done();
        }
        let focus = self.focus;
        let height = self.pane_height(focus, cx.body);
        let len = self.pane_len(focus);
        match action {
            action if is_movement(&action) => {
                self.cursor_mut(focus).apply(&action, len, height);
                if focus == DetailPart::Raw {
                    self.keep_raw_in_view(cx.body);
                }
            }
            // `Enter` on a leaf of the tree, or on any line of the raw JSON: the value in full.
            Action::Open
                if focus == DetailPart::Raw
                    || (focus == DetailPart::Tree
                        && self
                            .tree
                            .lines()
                            .get(self.cursor(focus).selected)
                            .is_some_and(|l| !l.is_container())) =>
            {
                self.show_value(cx)
            }
            Action::ShowValue => self.show_value(cx),
            Action::ToggleWrap => {
                self.raw_wrap = !self.raw_wrap;
                cx.info(if self.raw_wrap {
                    "raw JSON: long lines wrap (w cuts them again)"
                } else {
                    "raw JSON: long lines are cut at the edge, marked … (w wraps them)"
                });
                let (len, height) = (
                    self.pane_len(DetailPart::Raw),
                    self.pane_height(DetailPart::Raw, cx.body),
                );
                self.cursor_mut(DetailPart::Raw).keep_visible(len, height);
                self.keep_raw_in_view(cx.body);
            }
            Action::ToggleRawSource => {
                self.focus = DetailPart::Raw;
                let height = self.pane_height(DetailPart::Raw, cx.body);
                self.toggle_raw_source(height);
                self.keep_raw_in_view(cx.body);
                self.run_search();
                cx.info(format!(
                    "raw JSON of the {} (a switches)",
                    self.raw_source.label()
                ));
            }
            Action::Click { column, row } => self.click(column, row, cx),
            Action::Pane(toward) => {
                self.focus = focus.cycle(toward == Toward::Next);
                self.run_search();
                // When the screen is low the pane just shown was hidden: put its cursor in view.
                let (pane, height) = (self.focus, self.pane_height(self.focus, cx.body));
                let len = self.pane_len(pane);
                self.cursor_mut(pane).keep_visible(len, height);
            }
            Action::Right | Action::Left | Action::Open if focus == DetailPart::Tree => {
                let line = self.cursor(focus).selected;
                let expanded = self.tree.lines().get(line).is_some_and(|l| l.expanded);
                let changed = match action {
                    Action::Right => self.tree.set_expanded(line, true),
                    Action::Left => self.tree.set_expanded(line, false),
                    _ => self.tree.set_expanded(line, !expanded),
                };
                // `h` on a leaf or a closed node goes to its parent.
                if !changed
                    && matches!(action, Action::Left)
                    && let Some(parent) = self.tree.parent_line(line)
                {
                    self.cursor_mut(focus).select(parent, len, height);
                }
                let len = self.pane_len(focus);
                self.cursor_mut(focus).keep_visible(len, height);
            }
            // Only the fields pane gets here: the raw JSON's and the tree's `Enter` are above.
            Action::Open => {
                let line = self.fields.get(self.cursor(focus).selected);
                if let Some(sent) = line
                    .and_then(|f| f.report)
                    .and_then(|at| self.reports.sent.get(at))
                {
                    return Outcome::Open(Open::Sent(Box::new(sent.clone())));
                }
                let url = line.and_then(|f| f.url.clone());
                if url.is_some() {
                    return cx.open_url(url, "").into();
                }
            }
            Action::Search => {
                self.search = Some(DetailSearch {
                    editing: true,
                    ..DetailSearch::default()
                });
            }
            Action::Match(toward) => {
                let step = if toward == Toward::Next { 1 } else { -1 };
                self.goto_hit(step, height);
                self.keep_raw_in_view(cx.body);
            }
            Action::OpenLink => {
                let url = self.url_under_cursor();
                return cx
                    .open_url(url, "no link under the cursor and no external_url")
                    .into();
            }
            Action::Copy => {
                let (text, what) = match self.value_under_cursor() {
                    Some((text, what)) => (Some(text), what),
                    None => (None, "value"),
                };
                let what = what.to_owned() + &self.not_live_note(cx.now);
                return cx.copy(text, &what).into();
            }
            Action::Back => {
                if let Some(exporting) = self.exporting.take() {
                    cx.info(exporting.outcome(Exported::Cancelled).unwrap_or_default());
                    return vec![Command::Cancel(exporting.id)].into();
                }
                if self.search.take().is_none() {
                    return Outcome::Pop;
                }
            }
            // What shows is the text before a look's change, being laid out: not sent, not written.
            Action::Report | Action::Export { .. } if self.following.is_some() => {
                cx.error("not yet: a look's change to this resource is being laid out (R and :export once it shows)");
            }
            Action::Export { path, overwrite } => return self.export(path, overwrite, cx),
            Action::Report => {
                let text = match &self.sent {
                    Some(json) => json.to_string(),
                    None => serde_json::to_string(self.item.as_ref()).unwrap_or_default(),
                };
                let not_live = self.not_live.map(|n| n.report_warning(cx.now));
                return Outcome::Open(Open::ReportOn {
                    resource: text.into(),
                    not_live,
                });
            }
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    fn activity(&self) -> Option<String> {
        if self.following.is_some() {
            return Some("updating…".to_owned());
        }
        self.exporting.as_ref().map(Exporting::activity)
    }

    fn on_reply(&mut self, id: RequestId, delivery: Delivery, cx: &mut Ctx) -> Outcome {
        if let Delivery::History(read) = delivery {
            if self.reports.asking == Some(id) {
                self.reports_read(*read);
            }
            return Outcome::done();
        }
        if self.is_following(id) {
            let commands = match delivery {
                Delivery::Job(laid_out) => self.followed(laid_out, cx),
                _ => Vec::new(),
            };
            self.resized(cx);
            return commands.into();
        }
        if let Delivery::Job(exported) = delivery
            && let Some(exporting) = self.exporting.take_if(|e| e.id == id)
            && let Some(exported) = exported.take::<Exported>()
        {
            match exporting.outcome(exported) {
                Ok(news) => cx.info(news + &self.not_live_note(cx.now)),
                Err(problem) => cx.error(problem),
            }
        }
        Outcome::done()
    }

    /// A `:watch` look found rows changed or gone: this one follows its resource.
    fn on_broadcast(&mut self, news: &News, cx: &mut Ctx) -> Vec<Command> {
        let reported = match news {
            News::ResourceReported(Some(id)) => self.is_about(id),
            News::MarksReported(ids) => ids.iter().any(|id| self.is_about(id)),
            _ => false,
        };
        if reported {
            // The service's copy is in the list once it is fetched again, not here. A kept or
            // gone resource keeps saying so: that is the more important warning.
            self.not_live = self.not_live.or(Some(NotLive::Reported));
        }
        let News::Looked(found) = news else {
            return Vec::new();
        };
        let commands = self.follow(found, cx.now, cx);
        self.resized(cx);
        commands
    }

    fn resized(&mut self, cx: &mut Ctx) -> Vec<Command> {
        for pane in DetailPart::ALL {
            let (len, height) = (self.pane_len(pane), self.pane_height(pane, cx.body));
            self.cursor_mut(pane).keep_visible(len, height);
        }
        self.keep_raw_in_view(cx.body);
        Vec::new()
    }
}

impl Detail {
    /// Whether this detail shows the resource `id`.
    fn is_about(&self, id: &str) -> bool {
        match self.item.as_ref() {
            PageItem::Resource(resource) => resource.id.get().is_some_and(|own| own == id),
            _ => false,
        }
    }

    /// `:export PATH`: this resource, written by a job.
    fn export(&mut self, path: String, overwrite: bool, cx: &mut Ctx) -> Outcome {
        if let Some(exporting) = &mut self.exporting {
            exporting.refuse(path, cx);
            return Outcome::done();
        }
        // The text the list keeps of the row, as the service sent it (as `list` writes it).
        let json = match &self.sent {
            Some(json) => json.to_string(),
            None => serde_json::to_string(self.item.as_ref()).unwrap_or_default(),
        };
        Exporting::start_in(
            &mut self.exporting,
            (path, overwrite, false),
            Items::One(json),
            cx,
        )
    }

    /// `v`: the value under the cursor in full, in a popup over the view.
    fn show_value(&mut self, cx: &mut Ctx) {
        match self.value_to_show() {
            Some((title, text)) => {
                *cx.overlay = Some(Overlay::Value(ValuePopup::new(&title, text, cx.body)));
            }
            None => cx.error("no value under the cursor"),
        }
    }

    /// A click focuses the pane under it, and selects the line under it.
    fn click(&mut self, column: u16, row: u16, cx: &Ctx) {
        let areas = self.areas(cx.body);
        let Some(pane) = DetailPart::ALL
            .into_iter()
            .find(|p| layout::contains(areas.pane(*p), column, row))
        else {
            return;
        };
        self.focus = pane;
        let inner = layout::inset(areas.pane(pane));
        if layout::contains(inner, column, row) {
            let index = self.line_at_row(pane, usize::from(row - inner.y), cx.body);
            let len = self.pane_len(pane);
            if index < len {
                self.cursor_mut(pane)
                    .select(index, len, usize::from(inner.height));
            }
        }
    }

    /// The line shown at screen row `row` of `pane`'s inside (wrapped lines of the raw JSON take
    /// several rows).
    fn line_at_row(&self, pane: DetailPart, row: usize, body: ratatui::layout::Rect) -> usize {
        let offset = self.cursor(pane).offset;
        if pane != DetailPart::Raw || !self.raw_wrap {
            return offset + row;
        }
        let (width, height) = (
            self.raw_text_width(body),
            self.pane_height(DetailPart::Raw, body),
        );
        let mut top = 0;
        for line in offset..self.pane_len(pane) {
            top += self.raw_rows(line, width, height);
            if row < top {
                return line;
            }
        }
        usize::MAX
    }

    /// The `/` search has the keyboard: hits follow the text as it is typed.
    fn update_search(&mut self, action: Action, cx: &Ctx) {
        let focus = self.focus;
        let height = self.pane_height(focus, cx.body);
        let Some(search) = self.search.as_mut() else {
            return;
        };
        match search.input.handle(action) {
            LineEvent::Changed => {
                self.run_search();
                self.goto_hit(0, height);
                self.keep_raw_in_view(cx.body);
            }
            LineEvent::Submitted => {
                search.editing = false;
                if search.input.text().is_empty() {
                    self.search = None;
                }
            }
            LineEvent::Cancelled => self.search = None,
            LineEvent::Other(action @ (Action::Move(Move::Up) | Action::Move(Move::Down))) => {
                let len = self.pane_len(focus);
                self.cursor_mut(focus).apply(&action, len, height);
            }
            LineEvent::Unchanged | LineEvent::Other(_) => {}
        }
    }
}
