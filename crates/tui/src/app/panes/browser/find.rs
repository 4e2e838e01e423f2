//! Which loaded rows the list shows: the engine's query ([`appdeck_listing::Query`]: the status
//! and type picked, `/`, `:where`) over the rows, and the cursor kept on its row as they change.
//! `visible` is the rows that pass, in the order of the rows.

use super::Browser;
use crate::app::action::{Command, RequestId, RequestIds};
use appdeck_listing::{Answered, Tested};

impl Browser {
    /// The `/` text changed: a new search over every field (none when the text is empty). While
    /// its job runs, the rows shown before stay: the list is worked out again when it answers,
    /// not on each key (a walk over every row).
    pub fn search_changed(&mut self, ids: &mut RequestIds, height: usize) -> Vec<Command> {
        let mut commands = Vec::new();
        let rows = self.listing.loaded().map(|l| (&l.bodies, &l.rows));
        if self
            .query
            .search_for(self.filter.text(), rows, ids, &mut commands)
        {
            self.refresh_visible(height);
        }
        commands
    }

    /// `:where EXPR` keeps the rows for which it is true; `:where` alone clears it. A wrong
    /// expression changes nothing: the error says what and where.
    pub fn set_where(
        &mut self,
        expr: Option<String>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Result<Vec<Command>, String> {
        let mut commands = Vec::new();
        let rows = self.listing.loaded().map(|l| (&l.bodies, &l.rows));
        if self.query.set_where(expr, rows, ids, &mut commands)? {
            self.refresh_visible(height);
        }
        Ok(commands)
    }

    /// `Esc` while a `/` or `:where` is running: back to the query in effect before it, with
    /// the rows it let through (rows that came since are tested by it). Returns what to say and
    /// the commands (the running jobs cancelled, the new rows' tests); `None` when nothing runs.
    pub fn restore_before(
        &mut self,
        ids: &mut RequestIds,
        height: usize,
    ) -> Option<(String, Vec<Command>)> {
        let mut commands = Vec::new();
        let restored = self.query.restore_before(&mut commands)?;
        if restored.search {
            self.filter.set(&self.query.searched);
        }
        commands.extend(self.test_new_rows(restored.tested.min(self.rows().len()), ids));
        self.refresh_visible(height);
        Some((restored.said, commands))
    }

    /// Rows from `first` on arrived: each query tests them in a job of its own.
    pub(super) fn test_new_rows(&mut self, first: usize, ids: &mut RequestIds) -> Vec<Command> {
        let rows = self.listing.loaded().map(|l| (&l.bodies, &l.rows));
        self.query.test_new_rows(rows, first, ids)
    }

    /// Whether the row at `index` passes the status filter, `/` and `:where`.
    pub fn passes(&self, index: usize) -> bool {
        self.query.passes(self.rows(), index)
    }

    /// What to show beside the row at `index`: the field `/` found it by, if no column shows it.
    pub fn note(&self, index: usize) -> Option<&str> {
        self.query.note(index)
    }

    /// Recomputes which rows are shown after a query changed or answered; the cursor stays on
    /// its row while that row is shown, or goes to the resource a reload is looking for
    /// ([`Browser::reselect`]) once it shows.
    pub fn refresh_visible(&mut self, height: usize) {
        let selected_row = self.visible.get(self.cursor.selected);
        self.visible = self.query.passing(self.rows());
        self.picked
            .see_from(self.listing.loaded(), &self.visible, 0);
        let wanted =
            (self.reselect.as_deref()).and_then(|id| self.visible.find_id(self.rows(), id, 0));
        let index = match wanted {
            Some(at) => {
                self.reselect = None;
                at
            }
            None => selected_row
                .and_then(|row| self.visible.position(row))
                .unwrap_or(0),
        };
        self.cursor.select(index, self.visible.len(), height);
        self.arrange_visible(height);
    }

    /// Whether `id` is a job of the queries applied.
    pub fn tests(&self, id: RequestId) -> bool {
        self.query.owns(id)
    }

    /// A query's job answered: its rows are shown or hidden, and a search that found them
    /// without naming their fields names them in a job of its own. When some rows could not be
    /// read, or a `:where` failed on some (they are left out): what to say. The answer of a job
    /// no query owns any more (a stale one) changes nothing.
    pub fn on_tested(
        &mut self,
        id: RequestId,
        mut tested: Tested,
        height: usize,
        ids: &mut RequestIds,
    ) -> (Option<String>, Vec<Command>) {
        let bodies = self.listing.loaded().map(|l| &l.bodies);
        let Some((answered, naming)) = self.query.on_tested(id, &mut tested, bodies, ids) else {
            return (None, Vec::new());
        };
        if answered == Answered::Rows {
            self.refresh_visible(height);
        }
        (tested.said(), naming.into_iter().collect())
    }
}
