//! Keys, clicks and replies on the types view, and its `/` filter while it is being typed.

use super::TypesView;
use super::keys::TYPES_KEYS;
use crate::app::keymap::{InputMode, KeyTable};
use crate::app::layout;
use crate::app::pane::{Ctx, Delivery, Outcome, Pane, Screen};
use crate::app::panes::type_detail::{OpenType, TypeDetail};
use crate::app::widgets::{LineEvent, is_movement};
use crate::app::{Action, Command, RequestId};
use crate::catalog::NO_DEFINITION_HINT;

impl Pane for TypesView {
    fn keys(&self) -> &'static KeyTable {
        &TYPES_KEYS
    }

    fn input_mode(&self) -> InputMode {
        if self.filtering {
            InputMode::Line
        } else {
            InputMode::None
        }
    }

    fn activity(&self) -> Option<String> {
        if self.opening.is_some() {
            Some("opening the type…".to_owned())
        } else if self.loading.is_some() {
            Some("loading the known types…".to_owned())
        } else {
            None
        }
    }

    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        let height = self.table_height(cx.body);
        if self.filtering {
            match self.filter.handle(action) {
                LineEvent::Changed => self.refilter(height),
                LineEvent::Submitted => self.filtering = false,
                LineEvent::Cancelled => {
                    self.filtering = false;
                    self.filter.set("");
                    self.refilter(height);
                }
                LineEvent::Other(action @ (Action::Up | Action::Down)) => {
                    self.cursor.apply(&action, self.visible.len(), height)
                }
                LineEvent::Unchanged | LineEvent::Other(_) => {}
            }
            return Outcome::done();
        }
        let len = self.visible.len();
        match action {
            action if is_movement(&action) => self.cursor.apply(&action, len, height),
            Action::Click { column, row } => {
                let rows = self.areas(cx.body).rows;
                if layout::contains(rows, column, row) {
                    let index = self.cursor.offset + usize::from(row - rows.y);
                    if index < len {
                        if index == self.cursor.selected {
                            return self.open_selected(cx);
                        }
                        self.cursor.select(index, len, height);
                    }
                }
            }
            Action::Open | Action::Right => return self.open_selected(cx),
            Action::Search => self.filtering = true,
            Action::Refresh => {
                cx.info("reloading the known types");
                return vec![self.load(cx.ids)].into();
            }
            Action::Copy => {
                let name = self.selected().map(|r| r.name.clone());
                return cx.copy(name, "type name").into();
            }
            Action::BrowseType => match self.selected() {
                Some(row) => return Outcome::NotMine(Action::ListType(row.name.clone())),
                None => cx.error("no type under the cursor"),
            },
            Action::Back => {
                if self.opening.take().is_some() {
                    cx.info("opening cancelled");
                } else if self.filter.text().is_empty() {
                    return Outcome::Pop;
                } else {
                    self.filter.set("");
                    self.refilter(height);
                }
            }
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    fn on_reply(&mut self, id: RequestId, delivery: Delivery, cx: &mut Ctx) -> Outcome {
        match delivery {
            Delivery::Types(known) if self.loading == Some(id) => {
                self.loading = None;
                let height = self.table_height(cx.body);
                self.set_known(known, height);
            }
            Delivery::TypeDetail(detail) if self.opening == Some(id) => {
                self.opening = None;
                *cx.notice = None;
                return Outcome::Push(Screen::TypeDetail(detail), Vec::new());
            }
            _ => {}
        }
        Outcome::done()
    }

    fn resized(&mut self, cx: &mut Ctx) -> Vec<Command> {
        let height = self.table_height(cx.body);
        self.cursor.keep_visible(self.visible.len(), height);
        Vec::new()
    }
}

impl TypesView {
    /// `Enter`: the type's detail, laid out here when it is small, in the background when its
    /// definition is large (megabytes of schemas take tens of milliseconds to lay out).
    fn open_selected(&mut self, cx: &mut Ctx) -> Outcome {
        let (Some(row), Some(known)) = (self.selected(), &self.known) else {
            return Outcome::done();
        };
        let Some(index) = row.known else {
            cx.error(format!(
                "{}: {}; {NO_DEFINITION_HINT}",
                row.shown_name,
                crate::catalog::NO_DEFINITION
            ));
            return Outcome::done();
        };
        let request = OpenType {
            known: known.clone(),
            type_index: index,
            version: 0,
            width: cx.body.width,
        };
        if !request.is_large() {
            let detail = TypeDetail::open(&request);
            return Outcome::Push(Screen::TypeDetail(Box::new(detail)), Vec::new());
        }
        let id = cx.ids.issue();
        self.opening = Some(id);
        cx.info("opening a large type…; Esc cancels");
        vec![Command::OpenType {
            id,
            request: Box::new(request),
        }]
        .into()
    }
}
