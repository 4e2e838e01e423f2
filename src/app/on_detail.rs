//! Keys and clicks on the detail view, and on its `/` search while it is being typed.

use super::detail::{DetailPane, DetailSearch};
use super::{Action, App, Command, is_movement, move_cursor};
use crate::ui::layout;

impl App {
    pub(super) fn update_detail(&mut self, action: Action) -> Vec<Command> {
        let Some(focus) = self.detail.as_ref().map(|d| d.focus) else {
            self.show_list();
            return Vec::new();
        };
        let height = self.pane_height(focus);
        let areas = self.detail_areas();
        let Some(detail) = self.detail.as_mut() else {
            return Vec::new();
        };
        if detail.search.as_ref().is_some_and(|s| s.editing) {
            return self.update_detail_search(action, height);
        }
        let len = detail.pane_len(focus);
        match action {
            action if is_movement(&action) => {
                move_cursor(detail.cursor_mut(focus), &action, len, height);
            }
            Action::Click { column, row } => {
                if let Some(i) = areas
                    .panes
                    .iter()
                    .position(|p| layout::contains(*p, column, row))
                {
                    let pane = DetailPane::ALL[i];
                    detail.focus = pane;
                    let inner = layout::inset(areas.panes[i]);
                    if layout::contains(inner, column, row) {
                        let index = detail.cursor(pane).offset + usize::from(row - inner.y);
                        let len = detail.pane_len(pane);
                        if index < len {
                            detail
                                .cursor_mut(pane)
                                .select(index, len, usize::from(inner.height));
                        }
                    }
                }
            }
            Action::NextPane | Action::PrevPane => {
                detail.focus = focus.cycle(matches!(action, Action::NextPane));
                detail.run_search();
            }
            Action::Right | Action::Left | Action::Open if focus == DetailPane::Tree => {
                let line = detail.cursor(focus).selected;
                let expanded = detail.tree.lines().get(line).is_some_and(|l| l.expanded);
                let changed = match action {
                    Action::Right => detail.tree.set_expanded(line, true),
                    Action::Left => detail.tree.set_expanded(line, false),
                    _ => detail.tree.set_expanded(line, !expanded),
                };
                // `h` on a leaf or a closed node goes to its parent.
                if !changed
                    && matches!(action, Action::Left)
                    && let Some(parent) = detail.tree.parent_line(line)
                {
                    detail.cursor_mut(focus).select(parent, len, height);
                }
                let len = detail.pane_len(focus);
                detail.cursor_mut(focus).keep_visible(len, height);
            }
            Action::Open if focus == DetailPane::Fields => {
                let url = detail
                    .fields
                    .get(detail.cursor(focus).selected)
                    .and_then(|f| f.url.clone());
                if url.is_some() {
                    return self.open_url(url, "");
                }
            }
            Action::Search => {
                detail.search = Some(DetailSearch {
                    editing: true,
                    ..DetailSearch::default()
                });
            }
            Action::NextMatch | Action::PrevMatch => {
                let step = if matches!(action, Action::NextMatch) {
                    1
                } else {
                    -1
                };
                detail.goto_hit(step, height);
            }
            Action::OpenLink => {
                let url = detail.url_under_cursor();
                return self.open_url(url, "no link under the cursor and no external_url");
            }
            Action::Copy => {
                let (text, what) = match detail.value_under_cursor() {
                    Some((text, what)) => (Some(text), what),
                    None => (None, "value"),
                };
                return self.copy(text, what);
            }
            Action::Back => {
                if detail.search.take().is_none() {
                    self.show_list();
                }
            }
            other => return self.update_global(other),
        }
        Vec::new()
    }

    /// The `/` search has the keyboard: hits follow the text as it is typed.
    fn update_detail_search(&mut self, action: Action, height: usize) -> Vec<Command> {
        let Some(detail) = self.detail.as_mut() else {
            return Vec::new();
        };
        let Some(search) = detail.search.as_mut() else {
            return Vec::new();
        };
        let changed = match action {
            Action::Edit(input) => search.input.edit(input),
            Action::InsertText(text) => search.input.insert(&text),
            Action::Submit => {
                search.editing = false;
                if search.input.text().is_empty() {
                    detail.search = None;
                }
                false
            }
            Action::Back => {
                detail.search = None;
                false
            }
            Action::Up | Action::Down => {
                let focus = detail.focus;
                let len = detail.pane_len(focus);
                move_cursor(detail.cursor_mut(focus), &action, len, height);
                false
            }
            Action::ForceQuit => return self.quit(),
            _ => false,
        };
        if changed {
            detail.run_search();
            detail.goto_hit(0, height);
        }
        Vec::new()
    }
}
