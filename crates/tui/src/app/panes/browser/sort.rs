//! Sorting the list (`s`, `S`, `:sort COLUMN [desc]`): a step of its own after the filters,
//! which only reorders the rows that pass them (`visible`). Every loaded row's place in the order
//! is kept ([`Sorting`]), so a new filter is reordered in one pass, and rows that arrive later
//! are merged into it; a large list is sorted by a job off the UI thread, and the cursor stays
//! on its row whatever moves around it.

use super::Browser;
use crate::app::action::{Command, RequestId, RequestIds};
pub(crate) use appdeck_listing::Sorting;
#[cfg(test)]
pub(crate) use appdeck_listing::{IN_PLACE_ROWS, SortJob};
use appdeck_listing::{Resorted, SortSpec};

impl Browser {
    /// Sorts by `spec` (`None`: back to the server's order). Returns the job's command when the
    /// list is too large to sort at once, and the cancel of the job it replaces.
    pub fn set_sort(
        &mut self,
        spec: Option<SortSpec>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Vec<Command> {
        let mut commands = Vec::new();
        let rows = (self.listing.loaded()).map_or(&appdeck_listing::NO_ROWS, |l| &l.rows);
        let resorted = self.sorting.set(spec, rows, ids, &mut commands);
        commands.extend(self.show_resorted(resorted, height));
        commands
    }

    /// `Esc` on a sort job: it is cancelled (the command) and the sort it was to replace comes
    /// back, with the rows loaded since merged in; the server's order when there is none (the
    /// job sorted again under the same spec rows that were replaced). Returns the spec now.
    pub fn cancel_sort(
        &mut self,
        ids: &mut RequestIds,
        height: usize,
    ) -> (Vec<Command>, Option<SortSpec>) {
        let mut commands = Vec::new();
        let rows = (self.listing.loaded()).map_or(&appdeck_listing::NO_ROWS, |l| &l.rows);
        let Some(resorted) = self.sorting.cancel(rows, &mut commands) else {
            return (self.set_sort(None, ids, height), None);
        };
        commands.extend(self.show_resorted(resorted, height));
        (commands, self.sorting.spec)
    }

    /// The rows shown as the sort now says: in its order, in the server's, or as they are
    /// until its job (returned) answers.
    fn show_resorted(&mut self, resorted: Resorted<Command>, height: usize) -> Option<Command> {
        match resorted {
            Resorted::ServerOrder => {
                // The server's order is the rows' own: one pass, no comparisons.
                let here = self.selected_index();
                let count = self.rows().len();
                self.visible = self.visible.in_order(0..count, count);
                self.keep_cursor_on(here, height);
                None
            }
            Resorted::Now => {
                self.arrange_visible(height);
                None
            }
            Resorted::Job(job) => Some(job),
        }
    }

    /// Sorts every loaded row again under the current spec (it changed, or the rows were
    /// replaced): at once when they are few, else by a job whose command is returned.
    pub fn resort(&mut self, ids: &mut RequestIds, height: usize) -> Option<Command> {
        let rows = (self.listing.loaded()).map_or(&appdeck_listing::NO_ROWS, |l| &l.rows);
        match self.sorting.resort(rows, ids) {
            Resorted::ServerOrder => None,
            resorted => self.show_resorted(resorted, height),
        }
    }

    /// The rows were replaced by a reload's, sorted by `theirs` before they came (see
    /// [`Sorting::take_sorted`]): shown in the order that gives, or sorted again.
    pub(super) fn take_sorted(
        &mut self,
        theirs: Sorting,
        ids: &mut RequestIds,
        height: usize,
    ) -> Vec<Command> {
        let mut commands = Vec::new();
        let rows = (self.listing.loaded()).map_or(&appdeck_listing::NO_ROWS, |l| &l.rows);
        match self.sorting.take_sorted(theirs, rows, ids, &mut commands) {
            Resorted::ServerOrder => {}
            resorted => commands.extend(self.show_resorted(resorted, height)),
        }
        commands
    }

    /// A sort job answered: its order (of the rows loaded when it began) takes in the rows
    /// loaded since, and the visible rows are put in it, the cursor on the row it was on.
    /// `None`: it was cancelled.
    pub fn sorted(&mut self, id: RequestId, order: Option<Vec<usize>>, height: usize) -> bool {
        let rows = (self.listing.loaded()).map_or(&appdeck_listing::NO_ROWS, |l| &l.rows);
        match self.sorting.sorted(id, order, rows) {
            None => false,
            Some(arrange) => {
                if arrange {
                    self.arrange_visible(height);
                }
                true
            }
        }
    }

    /// Puts the rows that pass the filters (`visible`) in the sort's order, the cursor on the
    /// row it was on. Called after every change of `visible` as a whole (a new filter).
    pub fn arrange_visible(&mut self, height: usize) {
        let Some(order) = self.sorting.order() else {
            return;
        };
        let here = self.selected_index();
        self.visible = (self.visible).in_order(order.iter().copied(), self.rows().len());
        self.keep_cursor_on(here, height);
        // The order is new: with the selected row on the first screen, that screen is shown
        // whole rather than the rows above the selection hidden.
        if self.cursor.selected < height {
            self.cursor.offset = 0;
        }
    }

    /// A page arrived: its rows (from `first_row` on) go into the order, and those of them that
    /// pass the filters (appended to `visible` from `first_visible` on) go where they belong.
    pub fn sort_new_rows(&mut self, first_row: usize, first_visible: usize, height: usize) {
        let rows = (self.listing.loaded()).map_or(&appdeck_listing::NO_ROWS, |l| &l.rows);
        let Some(spec) = self.sorting.merge_new_rows(first_row, rows) else {
            return;
        };
        let here = self.selected_index();
        let rows = (self.listing.loaded()).map_or(&appdeck_listing::NO_ROWS, |l| &l.rows);
        self.visible.merge_from(first_visible, rows, spec);
        self.keep_cursor_on(here, height);
    }

    /// The row (its index in the listing) under the cursor.
    fn selected_index(&self) -> Option<usize> {
        self.visible.get(self.cursor.selected)
    }

    /// The cursor back on `row` wherever it moved to in `visible` (when it is still there).
    fn keep_cursor_on(&mut self, row: Option<usize>, height: usize) {
        let len = self.visible.len();
        match row.and_then(|row| self.visible.position(row)) {
            Some(at) => self.cursor.select(at, len, height),
            None => self.cursor.keep_visible(len, height),
        }
    }
}
