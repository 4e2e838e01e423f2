//! Keys and clicks on the resource list, and on its `/` filter while it is being typed.

use std::iter;
use std::sync::Arc;

use super::cursor::ListCursor;
use super::detail::Detail;
use super::overlay::{Overlay, TypePicker};
use super::{Action, App, Command, Notice, View, is_movement, move_cursor};
use crate::sanitize;
use crate::ui::layout;

/// Rows whose JSON is larger than this open on a background task: laying out megabytes of
/// properties takes tens of milliseconds (about 100 ms for 5 MB), too long for a keypress.
const OPEN_IN_BACKGROUND_BYTES: usize = 256 * 1024;

impl App {
    pub(super) fn update_browser(&mut self, action: Action) -> Vec<Command> {
        let height = self.table_height();
        let len = self.browser.visible.len();
        match action {
            action if is_movement(&action) => {
                move_cursor(&mut self.browser.cursor, &action, len, height);
                return self
                    .browser
                    .prefetch(&mut self.ids, height)
                    .into_iter()
                    .collect();
            }
            Action::Click { column, row } => {
                let rows = self.browser_areas().rows;
                if layout::contains(rows, column, row) {
                    let cursor = &mut self.browser.cursor;
                    let index = cursor.offset + usize::from(row - rows.y);
                    if index < len {
                        if index == cursor.selected {
                            return self.open_detail();
                        }
                        cursor.select(index, len, height);
                    }
                }
            }
            Action::Open | Action::Right => return self.open_detail(),
            Action::Search => self.browser.filtering = true,
            Action::Back => {
                if self.opening.take().is_some() {
                    self.notice = Some(Notice::Info("opening cancelled".into()));
                    return Vec::new();
                }
                if let Some(id) = self.browser.cancel() {
                    self.notice = Some(Notice::Info("load cancelled; r resumes".into()));
                    return vec![Command::Cancel(id)];
                }
                if !self.browser.filter.text().is_empty() {
                    self.browser.filter.set("");
                    self.browser.refilter(self.table_height());
                }
            }
            Action::Refresh => return self.browser.refresh(&mut self.ids),
            Action::TypePicker => self.open_type_picker(),
            Action::OpenLink => {
                let url = self
                    .browser
                    .selected()
                    .and_then(|r| r.external_url.as_deref().map(str::to_owned));
                return self.open_url(url, "this resource has no external_url");
            }
            Action::Copy => {
                let id = self
                    .browser
                    .selected()
                    .and_then(|r| r.id.as_deref().map(str::to_owned));
                return self.copy(id, "resource id");
            }
            other => return self.update_global(other),
        }
        Vec::new()
    }

    /// The `/` filter has the keyboard: the rows narrow as the user types.
    pub(super) fn update_filter_input(&mut self, action: Action) -> Vec<Command> {
        let changed = match action {
            Action::Edit(input) => self.browser.filter.edit(input),
            Action::InsertText(text) => self.browser.filter.insert(&text),
            Action::Submit => {
                self.browser.filtering = false;
                false
            }
            Action::Back => {
                self.browser.filtering = false;
                self.browser.filter.set("");
                true
            }
            Action::Up | Action::Down => return self.update_browser(action),
            Action::ForceQuit => return self.quit(),
            _ => false,
        };
        if changed {
            self.browser.refilter(self.table_height());
        }
        Vec::new()
    }

    fn open_detail(&mut self) -> Vec<Command> {
        let Some(row) = self.browser.selected() else {
            return Vec::new();
        };
        if row.json_len() <= OPEN_IN_BACKGROUND_BYTES {
            self.detail = Some(Detail::open(Arc::new(row.item())));
            self.view = View::Detail;
            return Vec::new();
        }
        let (row, id) = (Box::new(row.clone()), self.ids.issue());
        self.notice = Some(Notice::Info(format!(
            "opening a large resource ({:.1} MB)…; Esc cancels",
            row.json_len() as f64 / 1e6
        )));
        self.opening = Some(id);
        vec![Command::OpenDetail { id, row }]
    }

    fn open_type_picker(&mut self) {
        let options: Vec<Option<String>> = iter::once(None)
            .chain(self.browser.types_seen.iter().cloned().map(Some))
            .collect();
        let current = options
            .iter()
            .position(|o| *o == self.browser.type_filter)
            .unwrap_or(0);
        let mut cursor = ListCursor::default();
        cursor.select(current, options.len(), options.len());
        self.overlay = Some(Overlay::TypePicker(TypePicker { options, cursor }));
    }

    /// Lists another type (or all types), from the first page.
    pub(super) fn set_type_filter(&mut self, type_filter: Option<String>) -> Vec<Command> {
        self.notice = Some(Notice::Info(match &type_filter {
            Some(t) => format!("showing type {}", sanitize::line(t)),
            None => "showing all types".to_owned(),
        }));
        self.browser.type_filter = type_filter;
        self.show_list();
        self.browser.restart(&mut self.ids)
    }

    /// Back to the list, closing the detail view.
    pub(super) fn show_list(&mut self) {
        self.view = View::Browser;
        self.detail = None;
    }
}
