//! Keys and clicks on a type's detail.

use super::keys::TYPE_DETAIL_KEYS;
use super::{OpenType, TypeDetail, TypePart};
use crate::app::Toward;
use crate::app::job::Work;
use crate::app::keymap::KeyTable;
use crate::app::layout;
use crate::app::pane::{Ctx, Open, Outcome, Pane};
use crate::app::widgets::is_movement;
use crate::app::{Action, Command, Delivery, RequestId};

impl Pane for TypeDetail {
    fn keys(&self) -> &'static KeyTable {
        &TYPE_DETAIL_KEYS
    }

    fn update(&mut self, action: Action, cx: &mut Ctx) -> Outcome {
        let focus = self.focus;
        let height = self.pane_height(focus, cx.body);
        let len = self.pane_len(focus);
        match action {
            action if is_movement(&action) => self.cursor_mut(focus).apply(&action, len, height),
            Action::Click { column, row } => self.click(column, row, cx),
            Action::Pane(toward) => {
                self.focus = focus.cycle(toward == Toward::Next);
                let (pane, height) = (self.focus, self.pane_height(self.focus, cx.body));
                let len = self.pane_len(pane);
                self.cursor_mut(pane).keep_visible(len, height);
            }
            Action::Right | Action::Left | Action::Open if focus == TypePart::Schemas => {
                let line = self.cursor(focus).selected;
                let expanded = self
                    .schemas
                    .visible()
                    .get(line)
                    .is_some_and(|&i| self.schemas.is_expanded(i));
                let changed = match action {
                    Action::Right => self.schemas.set_expanded(line, true),
                    Action::Left => self.schemas.set_expanded(line, false),
                    _ => self.schemas.set_expanded(line, !expanded),
                };
                if !changed
                    && matches!(action, Action::Left)
                    && let Some(parent) = self.schemas.parent_line(line)
                {
                    self.cursor_mut(focus).select(parent, len, height);
                }
                let len = self.pane_len(focus);
                self.cursor_mut(focus).keep_visible(len, height);
            }
            // `Enter` opens a link of the about pane (`url_under_cursor` is only ever one there).
            Action::Open => {
                let url = self.url_under_cursor();
                if url.is_some() {
                    return cx.open_url(url, "").into();
                }
            }
            Action::OpenLink => {
                let url = self.url_under_cursor();
                return cx
                    .open_url(
                        url,
                        "no link under the cursor (the about pane lists the links)",
                    )
                    .into();
            }
            Action::Copy => {
                let (text, what) = match self.value_under_cursor() {
                    Some((text, what)) => (Some(text), what),
                    None => (None, "value"),
                };
                return cx.copy(text, what).into();
            }
            Action::NextVersion => {
                if self.versions < 2 {
                    cx.info("only one version of this type is known");
                } else {
                    let request = OpenType {
                        known: self.known.clone(),
                        type_index: self.type_index,
                        version: (self.version + 1) % self.versions,
                        width: cx.body.width,
                    };
                    // A large definition is laid out in the background, as from the types view:
                    // megabytes of schemas and their raw JSON take tens of milliseconds.
                    if request.is_large() {
                        let id = cx.ids.issue();
                        self.opening = Some(id);
                        cx.info("opening the other version…; Esc cancels");
                        let job = Work::new(request);
                        return vec![Command::Run { id, job }].into();
                    }
                    self.show_version(TypeDetail::open(&request), cx);
                }
            }
            Action::BrowseType => match self.definition() {
                Some(d) => return Outcome::Open(Open::TypeList(d.name.clone())),
                None => cx.error("no type here"),
            },
            Action::Back => {
                if self.opening.take().is_some() {
                    cx.info("opening cancelled");
                } else {
                    return Outcome::Pop;
                }
            }
            other => return Outcome::NotMine(other),
        }
        Outcome::done()
    }

    fn activity(&self) -> Option<String> {
        self.opening
            .map(|_| "opening the other version…".to_owned())
    }

    fn on_reply(&mut self, id: RequestId, delivery: Delivery, cx: &mut Ctx) -> Outcome {
        if let Delivery::Job(detail) = delivery
            && self.opening == Some(id)
            && let Some(detail) = detail.take::<TypeDetail>()
        {
            // Says which version shows, in place of "opening…".
            self.show_version(detail, cx);
        }
        Outcome::done()
    }

    fn resized(&mut self, cx: &mut Ctx) -> Vec<Command> {
        self.rewrap(cx.body.width);
        for pane in TypePart::ALL {
            let (len, height) = (self.pane_len(pane), self.pane_height(pane, cx.body));
            self.cursor_mut(pane).keep_visible(len, height);
        }
        Vec::new()
    }
}

impl TypeDetail {
    /// Shows `other`, another version of this type, on the same pane.
    fn show_version(&mut self, other: TypeDetail, cx: &mut Ctx) {
        let focus = self.focus;
        *self = other;
        self.focus = focus;
        cx.info(format!(
            "version {} of {}{}",
            self.version + 1,
            self.versions,
            if self.version == 0 {
                " (the newest)"
            } else {
                ""
            }
        ));
    }

    /// A click focuses the pane under it and selects the line under it.
    fn click(&mut self, column: u16, row: u16, cx: &Ctx) {
        let areas = self.areas(cx.body);
        let Some(pane) = TypePart::ALL
            .into_iter()
            .find(|p| layout::contains(areas.pane(*p), column, row))
        else {
            return;
        };
        self.focus = pane;
        let rows = areas.rows(pane);
        if layout::contains(rows, column, row) {
            let index = self.cursor(pane).offset + usize::from(row - rows.y);
            let len = self.pane_len(pane);
            if index < len {
                self.cursor_mut(pane)
                    .select(index, len, usize::from(rows.height));
            }
        }
    }
}
