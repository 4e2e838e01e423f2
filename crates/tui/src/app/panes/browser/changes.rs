//! `:watch`'s marks on the list: `d` on a row marked `~` (what changed, shown by the detail's
//! [`Detail::with_changes_since`](crate::app::panes::detail::Detail::with_changes_since)) and
//! `n`/`N` between the rows marked new or changed.

use super::Browser;
use crate::app::Toward;

impl Browser {
    /// `d`: the text at the look before of the row under the cursor, marked changed; or why
    /// there is nothing to show.
    pub(crate) fn text_before_change(&self) -> Result<Box<str>, &'static str> {
        let row = self.selected().ok_or("no row here")?;
        let watch = self.watch.as_ref().ok_or(NOT_MARKED)?;
        watch.text_before(row).map(Box::from).ok_or(NOT_MARKED)
    }

    /// `n` / `N`: the cursor to the next (previous) row shown that a look marked new or
    /// changed, round the end.
    pub(crate) fn jump_to_marked(
        &mut self,
        toward: Toward,
        height: usize,
    ) -> Result<(), &'static str> {
        let watch = self
            .watch
            .as_ref()
            .ok_or("no row is marked: :watch SECS marks them")?;
        let rows = self.rows();
        let marked = |i: usize| watch.is_news(rows.at(i));
        let backward = toward == Toward::Previous;
        let found = (self
            .visible
            .find_round(self.cursor.selected, backward, marked))
        .ok_or("no row shown is marked new or changed")?;
        self.reselect = None;
        self.cursor.select(found, self.visible.len(), height);
        Ok(())
    }
}

/// Why `d` shows nothing.
const NOT_MARKED: &str = "d shows what changed in a row :watch marked ~ (changed)";
