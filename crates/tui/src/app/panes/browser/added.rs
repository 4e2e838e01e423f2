//! `:columns` in the list: the choice applied to the rows loaded (a job reading the added
//! columns' values), kept per type through the store, and a sort following its column. What a
//! choice is and where the values are kept: `appdeck_listing`'s `ColumnChoice` and `AddedCells`.

use appdeck_listing::{Column, ColumnChoice, Filled, SortSpec, type_key};

use super::Browser;
use crate::app::action::{Command, RequestId, RequestIds};
use crate::app::job::Work;

impl Browser {
    /// `:columns WORDS`: the choice changed by them, kept for this type (the store command),
    /// and what to say; `:columns` alone says which columns are shown.
    pub(crate) fn columns_command(
        &mut self,
        words: &str,
        ids: &mut RequestIds,
        height: usize,
    ) -> Result<(String, Vec<Command>), String> {
        if words.trim().is_empty() {
            return Ok((self.columns_said(), Vec::new()));
        }
        let choice = self.columns.apply(words)?;
        // Typed before the store's answer came: the answer would take it away.
        if let Some((_, question)) = &mut self.columns_asked {
            *question = None;
        }
        let mut commands = self.set_columns(choice, ids, height);
        commands.push(Command::SaveColumns {
            type_key: type_key(self.type_filter.as_deref()),
            spec: self.columns.spec(),
        });
        Ok((self.columns_said(), commands))
    }

    /// How the title and the status bar say the sort (an added column by its path).
    pub(crate) fn sort_words(&self, spec: SortSpec) -> String {
        spec.words_naming(&self.columns.name(spec.column))
    }

    fn columns_said(&self) -> String {
        format!(
            "columns: {} · :columns +PATH adds, -NAME removes, reset",
            self.columns.names().join(" ")
        )
    }

    /// Shows the columns of `choice`: values of added paths are read for the rows loaded (a
    /// job; rows arriving read theirs as they come), a sort by a column that went is dropped.
    pub(crate) fn set_columns(
        &mut self,
        choice: ColumnChoice,
        ids: &mut RequestIds,
        height: usize,
    ) -> Vec<Command> {
        let mut commands = Vec::new();
        if let Some(spec) = self.sorting.spec
            && let now = self.columns.sort_under(spec, &choice)
            && now != Some(spec)
        {
            commands.extend(self.set_sort(now, ids, height));
        }
        self.columns = choice;
        commands.extend(self.filling.take().map(Command::Cancel));
        let paths = &self.columns.added;
        if let Some(job) = (self.listing.loaded_mut()).and_then(|l| l.set_added_paths(paths)) {
            let id = ids.issue();
            self.filling = Some(id);
            commands.push(Command::Run {
                id,
                job: Work::new(job),
            });
        }
        // A look or reload under way brings rows without the new columns: it starts again.
        if self.reloading.is_some() {
            commands.extend(self.reload_in_place(ids));
        }
        commands
    }

    /// Whether `id` is the job reading the added columns' values.
    pub(crate) fn fills(&self, id: RequestId) -> bool {
        self.filling == Some(id)
    }

    /// The added columns' values of the rows loaded came: shown, and sorted by if the list is.
    pub(crate) fn on_filled(
        &mut self,
        filled: Result<Filled, String>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Result<Vec<Command>, String> {
        self.filling = None;
        let filled = filled?;
        if !(self.listing.loaded_mut()).is_some_and(|l| l.fill_added(filled)) {
            return Ok(Vec::new());
        }
        let by_added = (self.sorting.spec).is_some_and(|s| matches!(s.column, Column::Added(_)));
        Ok(match by_added {
            true => self.resort(ids, height).into_iter().collect(),
            false => Vec::new(),
        })
    }

    /// After a page of a listing whose type's kept columns were not asked for yet: the
    /// question to the store (its answer: [`Browser::on_kept_columns`]).
    pub(crate) fn ask_kept_columns(&mut self, ids: &mut RequestIds) -> Option<Command> {
        let asked = self.columns_asked.as_ref().map(|(t, _)| t);
        if asked == Some(&self.type_filter) {
            return None;
        }
        let id = ids.issue();
        self.columns_asked = Some((self.type_filter.clone(), Some(id)));
        Some(Command::LoadColumns {
            id,
            type_key: type_key(self.type_filter.as_deref()),
        })
    }

    /// Whether `id` is the question to the store for the kept columns.
    pub(crate) fn asks_kept_columns(&self, id: RequestId) -> bool {
        self.columns_asked
            .as_ref()
            .is_some_and(|(_, asked)| *asked == Some(id))
    }

    /// The store's answer: the choice kept for this type (none: the table's own).
    pub(crate) fn on_kept_columns(
        &mut self,
        spec: Option<String>,
        ids: &mut RequestIds,
        height: usize,
    ) -> Vec<Command> {
        let choice = spec
            .as_deref()
            .map(ColumnChoice::from_spec)
            .unwrap_or_default();
        self.set_columns(choice, ids, height)
    }
}
