//! A table with a `/` filter line under it (the history and types views): the rows that pass the
//! filter, the cursor over them, and the keys and clicks every such table handles the same way.
//! The pane keeps its rows and says what a row's searchable texts are; this keeps the rest.

use crate::app::action::Move;
use ratatui::layout::Rect;

use super::{LineEvent, LineInput, ListCursor, is_movement};
use crate::app::Action;
use crate::app::keymap::InputMode;
use crate::app::layout::{self, TableAreas};

#[derive(Clone, Debug, Default)]
pub struct FilteredList {
    pub filter: LineInput,
    /// The filter line has the keys (`/` pressed, not yet `Enter` or `Esc`).
    pub filtering: bool,
    /// Indices into the pane's rows that pass the filter, in order.
    pub visible: Vec<usize>,
    pub cursor: ListCursor,
}

/// What the pane does after a key or a click the list has seen.
#[derive(Debug)]
pub(crate) enum ListEvent {
    /// Handled here: nothing for the pane to do.
    Done,
    /// The filter text changed: the pane calls [`FilteredList::refilter`] over its rows.
    Refilter,
    /// `Enter`, `→`, or a click on the selected row: the pane opens the selected row.
    Open,
    /// Not a list key: the pane's own.
    Other(Action),
}

impl FilteredList {
    pub(crate) fn input_mode(&self) -> InputMode {
        if self.filtering {
            InputMode::Line
        } else {
            InputMode::None
        }
    }

    /// The table, its data rows and the filter line (shown while typed or set).
    pub(crate) fn areas(&self, body: Rect) -> TableAreas {
        layout::table_areas(body, self.filtering || !self.filter.text().is_empty())
    }

    /// How many data rows show at once.
    pub(crate) fn height(&self, body: Rect) -> usize {
        usize::from(self.areas(body).rows.height)
    }

    /// The index into the pane's rows of the selected row.
    pub(crate) fn selected(&self) -> Option<usize> {
        self.visible.get(self.cursor.selected).copied()
    }

    /// Keeps the rows any of whose `texts` contains the filter, ignoring case; the cursor stays
    /// in the list.
    pub(crate) fn refilter<R, const N: usize>(
        &mut self,
        rows: &[R],
        texts: impl Fn(&R) -> [&str; N],
        height: usize,
    ) {
        let needle = self.filter.text().to_lowercase();
        self.visible = (0..rows.len())
            .filter(|&i| {
                needle.is_empty()
                    || texts(&rows[i])
                        .iter()
                        .any(|t| t.to_lowercase().contains(&needle))
            })
            .collect();
        self.cursor.keep_visible(self.visible.len(), height);
    }

    /// The keys and clicks of a filterable table, in the pane's `body`.
    pub(crate) fn update(&mut self, action: Action, body: Rect) -> ListEvent {
        let height = self.height(body);
        let len = self.visible.len();
        if self.filtering {
            match self.filter.handle(action) {
                LineEvent::Changed => return ListEvent::Refilter,
                LineEvent::Submitted => self.filtering = false,
                LineEvent::Cancelled => {
                    self.filtering = false;
                    self.filter.set("");
                    return ListEvent::Refilter;
                }
                // The cursor still moves while the filter is typed, so the user can see where
                // `Enter` will leave it.
                LineEvent::Other(action @ (Action::Move(Move::Up) | Action::Move(Move::Down))) => {
                    self.cursor.apply(&action, len, height)
                }
                LineEvent::Unchanged | LineEvent::Other(_) => {}
            }
            return ListEvent::Done;
        }
        match action {
            action if is_movement(&action) => self.cursor.apply(&action, len, height),
            Action::Click { column, row } => {
                let rows = self.areas(body).rows;
                if layout::contains(rows, column, row) {
                    let index = self.cursor.offset + usize::from(row - rows.y);
                    if index < len {
                        if index == self.cursor.selected {
                            return ListEvent::Open;
                        }
                        self.cursor.select(index, len, height);
                    }
                }
            }
            Action::Open | Action::Right => return ListEvent::Open,
            Action::Search => self.filtering = true,
            // `Esc` clears a filter first; without one it is the pane's (it closes).
            Action::Back if !self.filter.text().is_empty() => {
                self.filter.set("");
                return ListEvent::Refilter;
            }
            other => return ListEvent::Other(other),
        }
        ListEvent::Done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: Rect = Rect::new(0, 0, 40, 12);

    fn list_of(rows: &[&str]) -> FilteredList {
        let mut list = FilteredList::default();
        list.refilter(rows, |r| [*r], 10);
        list
    }

    fn typed(list: &mut FilteredList, rows: &[&str], text: &str) {
        assert!(matches!(list.update(Action::Search, BODY), ListEvent::Done));
        if let ListEvent::Refilter = list.update(Action::InsertText(text.to_owned()), BODY) {
            let height = list.height(BODY);
            list.refilter(rows, |r| [*r], height);
        }
    }

    #[test]
    fn the_filter_keeps_the_rows_that_contain_it_ignoring_case() {
        let rows = ["Alpha", "beta", "GAMMA", "alphabet"];
        let mut list = list_of(&rows);
        assert_eq!(list.visible, [0, 1, 2, 3]);
        typed(&mut list, &rows, "ALPH");
        assert_eq!(list.visible, [0, 3]);
        assert_eq!(list.input_mode(), InputMode::Line);
        assert!(matches!(
            list.update(Action::Move(Move::Down), BODY),
            ListEvent::Done
        ));
        assert_eq!(
            list.selected(),
            Some(3),
            "Down moves while the filter is typed"
        );
        assert!(matches!(list.update(Action::Submit, BODY), ListEvent::Done));
        assert!(!list.filtering);
        assert_eq!(list.visible, [0, 3], "Enter keeps the filter");
        assert!(matches!(
            list.update(Action::Back, BODY),
            ListEvent::Refilter
        ));
        list.refilter(&rows, |r| [*r], 10);
        assert_eq!(list.visible, [0, 1, 2, 3], "Esc cleared the filter");
        assert!(
            matches!(
                list.update(Action::Back, BODY),
                ListEvent::Other(Action::Back)
            ),
            "with no filter, Esc is the pane's"
        );
    }

    #[test]
    fn esc_while_typing_clears_the_filter() {
        let rows = ["one", "two"];
        let mut list = list_of(&rows);
        typed(&mut list, &rows, "tw");
        assert_eq!(list.visible, [1]);
        assert!(matches!(
            list.update(Action::Back, BODY),
            ListEvent::Refilter
        ));
        assert!(!list.filtering);
        assert_eq!(list.filter.text(), "");
    }

    #[test]
    fn a_click_selects_a_row_and_a_click_on_the_selected_row_opens_it() {
        let rows = ["a", "b", "c"];
        let mut list = list_of(&rows);
        let first = list.areas(BODY).rows.y;
        let click = |row| Action::Click { column: 3, row };
        assert!(matches!(
            list.update(click(first + 2), BODY),
            ListEvent::Done
        ));
        assert_eq!(list.selected(), Some(2));
        assert!(matches!(
            list.update(click(first + 2), BODY),
            ListEvent::Open
        ));
        assert!(matches!(
            list.update(click(first + 5), BODY),
            ListEvent::Done
        ));
        assert_eq!(
            list.selected(),
            Some(2),
            "a click below the last row selects nothing"
        );
        assert!(matches!(list.update(Action::Open, BODY), ListEvent::Open));
        assert!(matches!(
            list.update(Action::Refresh, BODY),
            ListEvent::Other(Action::Refresh)
        ));
    }

    #[test]
    fn a_click_maps_its_row_and_the_row_just_below_the_last_selects_nothing() {
        let rows = ["a", "b", "c"];
        let mut list = list_of(&rows);
        let first = list.areas(BODY).rows.y;
        let click = |row| Action::Click { column: 3, row };
        list.update(click(first + 3), BODY);
        assert_eq!(list.selected(), Some(0), "one row below the last");
        list.update(click(first + 1), BODY);
        assert_eq!(list.selected(), Some(1));
        list.update(click(first), BODY);
        assert_eq!(list.selected(), Some(0), "the first row");
    }

    #[test]
    fn the_filter_line_shows_while_the_filter_is_typed_or_set() {
        let rows = ["one", "two"];
        let mut list = list_of(&rows);
        assert_eq!(list.areas(BODY).filter, None);
        list.update(Action::Search, BODY);
        assert!(list.areas(BODY).filter.is_some(), "typed, still empty");
        list.update(Action::InsertText("tw".to_owned()), BODY);
        list.update(Action::Submit, BODY);
        assert!(!list.filtering);
        let areas = list.areas(BODY);
        assert!(areas.filter.is_some(), "set");
        assert_eq!(list.height(BODY), usize::from(BODY.height) - 4);
        list.update(Action::Back, BODY);
        assert_eq!(list.areas(BODY).filter, None);
        assert_eq!(list.height(BODY), usize::from(BODY.height) - 3);
    }
}
