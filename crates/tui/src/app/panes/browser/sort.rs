//! Sorting the list (`s`, `S`, `:sort COLUMN [desc]`): a step of its own after the filters,
//! which only reorders the rows that pass them (`visible`). Every loaded row's place in the order
//! is kept ([`Sorting`]), so a new filter is reordered in one pass, and rows that arrive later
//! are merged into it; a large list is sorted by a job off the UI thread, and the cursor stays
//! on its row whatever moves around it.

use super::Browser;
use crate::app::action::{Command, RequestId, RequestIds};
use crate::app::job::Work;
use appdeck_listing::Shown;
pub(crate) use appdeck_listing::{IN_PLACE_ROWS, SortJob};
use appdeck_listing::{SortKeys, SortSpec};

/// How the list is sorted, and every loaded row's index in that order.
#[derive(Clone, Debug, Default)]
pub struct Sorting {
    pub spec: Option<SortSpec>,
    /// The indices of the first rows loaded, sorted under `spec`; `None` while a job sorts them.
    /// Rows loaded since are merged in as they come.
    order: Option<Vec<usize>>,
    /// The job sorting them, and how far it got.
    job: Option<RequestId>,
    /// How far it got (of units of its own) and how many rows it sorts.
    pub progress: Option<(usize, usize)>,
    pub rows: usize,
    /// While a job sorts under a new spec, the sort it replaces (no job of its own): `Esc`
    /// puts it back.
    before: Option<Box<Sorting>>,
    /// Whether the user asked for the job's sort (a key, `:sort`), so that its answer says
    /// "sorted by": a reload or a `:watch` look sorting its rows again says nothing.
    pub asked: bool,
}

impl Sorting {
    /// Drops the job sorting the rows, if any: its cancel.
    fn drop_job(&mut self) -> Option<Command> {
        self.job.take().map(Command::Cancel)
    }

    /// Whether a job is sorting the rows now.
    pub(crate) fn pending(&self) -> bool {
        self.job.is_some()
    }

    pub(crate) fn job(&self) -> Option<RequestId> {
        self.job
    }
}

impl Browser {
    /// Sorts by `spec` (`None`: back to the server's order). Returns the job's command when the
    /// list is too large to sort at once, and the cancel of the job it replaces.
    pub(crate) fn set_sort(
        &mut self,
        spec: Option<SortSpec>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Vec<Command> {
        // The sort to go back to: the one shown, or, while a job replaced it, the one before.
        let before = match self.sorting.job {
            Some(_) => self.sorting.before.take(),
            None => Some(Box::new(std::mem::take(&mut self.sorting))),
        };
        let mut commands: Vec<Command> = self.sorting.drop_job().into_iter().collect();
        self.sorting = Sorting {
            spec,
            ..Sorting::default()
        };
        if spec.is_none() {
            // The server's order is the rows' own: one pass, no comparisons.
            let here = self.selected_index();
            self.visible = self.visible_in(0..self.rows().len());
            self.keep_cursor_on(here, height);
            return commands;
        }
        commands.extend(self.resort(ids, height));
        if self.sorting.pending() {
            self.sorting.before = before;
            self.sorting.asked = true;
        }
        commands
    }

    /// `Esc` on a sort job: it is cancelled (the command) and the sort it was to replace comes
    /// back, with the rows loaded since merged in; the server's order when there is none (the
    /// job sorted again under the same spec rows that were replaced). Returns the spec now.
    pub(crate) fn cancel_sort(
        &mut self,
        ids: &mut RequestIds,
        height: usize,
    ) -> (Vec<Command>, Option<SortSpec>) {
        let Some(before) = self.sorting.before.take() else {
            return (self.set_sort(None, ids, height), None);
        };
        let cancel = self.sorting.drop_job();
        self.sorting = *before;
        match (self.sorting.spec, self.sorting.order.take()) {
            (Some(spec), Some(mut order)) => {
                self.merge_later_rows(&mut order, spec);
                self.sorting.order = Some(order);
                self.arrange_visible(height);
            }
            _ => {
                let here = self.selected_index();
                self.visible = self.visible_in(0..self.rows().len());
                self.keep_cursor_on(here, height);
            }
        }
        (cancel.into_iter().collect(), self.sorting.spec)
    }

    /// The rows loaded after those `order` holds go into it, where `spec` puts them.
    fn merge_later_rows(&self, order: &mut Vec<usize>, spec: SortSpec) {
        let rows = self.rows();
        appdeck_listing::merge_sorted(order, (order.len()..rows.len()).collect(), rows, spec);
    }

    /// Sorts every loaded row again under the current spec (it changed, or the rows were
    /// replaced): at once when they are few, else by a job whose command is returned.
    pub(crate) fn resort(&mut self, ids: &mut RequestIds, height: usize) -> Option<Command> {
        let spec = self.sorting.spec?;
        let keys = SortKeys::of(self.rows(), spec.column);
        if keys.len() <= IN_PLACE_ROWS {
            self.sorting.order = appdeck_listing::sort_by_keys(&keys, spec.descending, |_, _| true);
            self.arrange_visible(height);
            return None;
        }
        let id = ids.issue();
        self.sorting.order = None;
        self.sorting.job = Some(id);
        self.sorting.asked = false;
        self.sorting.progress = Some((0, keys.len()));
        self.sorting.rows = keys.len();
        let job = Work::new(SortJob {
            keys,
            descending: spec.descending,
        });
        Some(Command::Run { id, job })
    }

    /// The rows were replaced by a reload's, sorted by `theirs` (their spec and order, if
    /// sorted) before they came. A job sorting the rows replaced is dropped (the cancel), and:
    /// - under the spec sorted now, their order is taken as it is: no job, nothing for `Esc`;
    /// - under the spec a job of the user's was to replace (asked for while they were being
    ///   sorted), that sort is sorted again over them, and `Esc` still goes back to theirs;
    /// - else they are sorted again (at once, or by a job).
    pub(super) fn take_sorted(
        &mut self,
        theirs: Sorting,
        ids: &mut RequestIds,
        height: usize,
    ) -> Vec<Command> {
        let mut commands: Vec<Command> = self.sorting.drop_job().into_iter().collect();
        let before = self.sorting.before.take();
        self.sorting.progress = None;
        let Sorting { spec, order, .. } = theirs;
        match (spec, order) {
            (Some(spec), Some(order)) if self.sorting.spec == Some(spec) => {
                self.sorting.order = Some(order);
                self.arrange_visible(height);
            }
            (Some(spec), Some(order)) if before.as_ref().is_some_and(|b| b.spec == Some(spec)) => {
                commands.extend(self.resort(ids, height));
                if self.sorting.pending() {
                    self.sorting.before = Some(Box::new(Sorting {
                        spec: Some(spec),
                        order: Some(order),
                        ..Sorting::default()
                    }));
                }
            }
            _ => commands.extend(self.resort(ids, height)),
        }
        commands
    }

    /// How far the sort job `id` got, if it is the one in flight.
    pub(crate) fn sort_progress(&mut self, id: RequestId, done: u64, total: u64) -> bool {
        if self.sorting.job != Some(id) {
            return false;
        }
        let (done, total) = (usize::try_from(done), usize::try_from(total));
        if let (Ok(done), Ok(total)) = (done, total) {
            self.sorting.progress = Some((done, total));
        }
        true
    }

    /// The listing starts over (another type, a reload): nothing loaded is in the order, and a
    /// job sorting the old rows is dropped (its command: the cancel).
    pub(crate) fn sort_restarted(&mut self) -> Option<Command> {
        let job = self.sorting.drop_job();
        self.sorting.progress = None;
        self.sorting.before = None;
        self.sorting.order = self.sorting.spec.map(|_| Vec::new());
        job
    }

    /// A sort job answered: its order (of the rows loaded when it began) takes in the rows
    /// loaded since, and the visible rows are put in it, the cursor on the row it was on.
    /// `None`: it was cancelled.
    pub(crate) fn sorted(
        &mut self,
        id: RequestId,
        order: Option<Vec<usize>>,
        height: usize,
    ) -> bool {
        if self.sorting.job != Some(id) {
            return false;
        }
        self.sorting.job = None;
        self.sorting.progress = None;
        self.sorting.before = None;
        let (Some(spec), Some(mut order)) = (self.sorting.spec, order) else {
            return true;
        };
        self.merge_later_rows(&mut order, spec);
        self.sorting.order = Some(order);
        self.arrange_visible(height);
        true
    }

    /// Puts the rows that pass the filters (`visible`) in the sort's order, the cursor on the
    /// row it was on. Called after every change of `visible` as a whole (a new filter).
    pub fn arrange_visible(&mut self, height: usize) {
        let (Some(_), Some(order)) = (self.sorting.spec, &self.sorting.order) else {
            return;
        };
        let here = self.selected_index();
        self.visible = self.visible_in(order.iter().copied());
        self.keep_cursor_on(here, height);
        // The order is new: with the selected row on the first screen, that screen is shown
        // whole rather than the rows above the selection hidden.
        if self.cursor.selected < height {
            self.cursor.offset = 0;
        }
    }

    /// The visible rows in the order of `order` (every loaded row's index, once each).
    fn visible_in(&self, order: impl Iterator<Item = usize>) -> Shown {
        let mut passes = vec![false; self.rows().len()];
        for i in self.visible.iter() {
            passes[i] = true;
        }
        order.filter(|&i| passes[i]).collect()
    }

    /// A page arrived: its rows (from `first_row` on) go into the order, and those of them that
    /// pass the filters (appended to `visible` from `first_visible` on) go where they belong.
    pub(crate) fn sort_new_rows(&mut self, first_row: usize, first_visible: usize, height: usize) {
        let (Some(spec), Some(mut order)) = (self.sorting.spec, self.sorting.order.take()) else {
            return;
        };
        let here = self.selected_index();
        let rows = self.rows();
        appdeck_listing::merge_sorted(&mut order, (first_row..rows.len()).collect(), rows, spec);
        let new = self.visible.split_off(first_visible);
        let mut visible: Vec<usize> = self.visible.iter().collect();
        appdeck_listing::merge_sorted(&mut visible, new, self.rows(), spec);
        self.visible = visible.into();
        self.sorting.order = Some(order);
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
