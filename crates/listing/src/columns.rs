//! The columns of the resource table, sized from the values loaded: the widest value of each
//! column is kept as pages arrive (so a frame never scans the rows), and each frame fits those
//! widths to the terminal. Optional columns (the id, the external id...) show only when the
//! name keeps a readable width; what is left goes to the name.

use unicode_width::UnicodeWidthStr;

use super::row::{Cell, RowView};
use super::row_texts::Text;
use crate::sanitize;
use crate::text::{fit_columns, short_time};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Column {
    /// The `▶` selection marker and the `!` mark.
    Marker,
    Type,
    Name,
    Status,
    Id,
    ExternalId,
    Updated,
    /// The `k`th column `:columns` added (see `added.rs`): a path into each resource.
    Added(u8),
}

impl Column {
    /// In the order they are drawn.
    pub const ALL: [Column; 7] = [
        Column::Marker,
        Column::Type,
        Column::Name,
        Column::Status,
        Column::Id,
        Column::ExternalId,
        Column::Updated,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Column::Marker => "",
            Column::Type => "TYPE",
            Column::Name => "NAME",
            Column::Status => "STATUS",
            Column::Id => "ID",
            Column::ExternalId => "EXTERNAL ID",
            Column::Updated => "UPDATED",
            // Its header is its path: [`super::added::ColumnChoice::title`].
            Column::Added(_) => "",
        }
    }

    /// The narrowest a column is cut to (a value wider than the screen leaves too little for
    /// the rest).
    fn narrowest(self) -> usize {
        match self {
            Column::Marker => 2,
            Column::Type | Column::Status | Column::Id | Column::Added(_) => 4,
            Column::ExternalId => 6,
            Column::Name => 8,
            Column::Updated => 10,
        }
    }

    /// Optional columns, the first left out first when the screen is narrow, each once the
    /// name would be narrower than the width given with it (or than its widest value).
    const DROP_ORDER: [(Column, usize); 5] = [
        (Column::Id, 30),
        (Column::ExternalId, 30),
        (Column::Updated, 20),
        (Column::Status, 16),
        (Column::Type, 12),
    ];

    fn index(self) -> usize {
        Column::ALL.iter().position(|c| *c == self).unwrap_or(0)
    }

    /// This column's field of `row` as the service sent it (the full `updated_at`); `None` for
    /// the marker or a missing field. What the table shows and what a sort compares.
    pub fn value<'a>(self, row: RowView<'a>) -> Option<Cell<'a>> {
        match self {
            Column::Added(k) => row.added(usize::from(k)).map(Cell::Text),
            own => row.text(own.field()?),
        }
    }

    /// Which of a row's texts this column shows; none for the marker.
    pub fn field(self) -> Option<Text> {
        match self {
            Column::Marker | Column::Added(_) => None,
            Column::Type => Some(Text::Type),
            Column::Name => Some(Text::Title),
            Column::Status => Some(Text::Status),
            Column::Id => Some(Text::Id),
            Column::ExternalId => Some(Text::ExternalId),
            Column::Updated => Some(Text::UpdatedAt),
        }
    }

    /// The text of this column for `row`, sanitised, as the table shows it (before any cut).
    pub fn text(self, row: RowView<'_>) -> String {
        if row.malformed() {
            return match self {
                Column::Marker => "!".to_owned(),
                Column::Name => MALFORMED_NAME.to_owned(),
                _ => String::new(),
            };
        }
        match (self, self.value(row)) {
            (Column::Marker, _) if row.marked() => "!".to_owned(),
            (Column::Updated, Some(t)) => sanitize::line(&short_time(&t)).into_owned(),
            (_, value) => value
                .map(|s| sanitize::line(&s).into_owned())
                .unwrap_or_default(),
        }
    }

    /// The width of [`Self::text`], without making the text: [`ColumnWidths::extend`] measures
    /// every cell of every row as it comes, on the UI thread, where a `String` a cell (7 a row)
    /// made `L` over 100,000 rows take 200 ms of that thread's CPU, against 180 ms without
    /// (`/proc/PID/task/PID/stat`, median of 4 side by side, load 9).
    pub fn width(self, row: RowView<'_>) -> usize {
        if row.malformed() {
            return match self {
                Column::Marker => "!".width(),
                Column::Name => MALFORMED_NAME.width(),
                _ => 0,
            };
        }
        match (self, self.value(row)) {
            (Column::Marker, _) if row.marked() => "!".width(),
            (Column::Updated, Some(t)) => sanitize::line(&short_time(&t)).width(),
            (_, value) => value.map_or(0, |s| sanitize::line(&s).width()),
        }
    }
}

/// What the name column says of an item that is not a resource.
pub(crate) const MALFORMED_NAME: &str = "(malformed item: Enter shows it)";

/// Between two columns.
pub(crate) const GAP: usize = 1;

/// The widest value of each column among the loaded rows, titles included (the table's own
/// columns, then those `:columns` added).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnWidths {
    own: [usize; 7],
    added: Vec<usize>,
}

impl Default for ColumnWidths {
    fn default() -> Self {
        ColumnWidths {
            own: Column::ALL.map(|c| c.title().width()),
            added: Vec::new(),
        }
    }
}

impl ColumnWidths {
    /// Takes in rows that just arrived.
    pub fn extend<'a>(&mut self, rows: impl IntoIterator<Item = RowView<'a>>) {
        for row in rows {
            for column in Column::ALL {
                let w = column.width(row);
                let slot = &mut self.own[column.index()];
                *slot = (*slot).max(w);
            }
            self.extend_added([row]);
        }
    }

    /// Takes in the added columns' values of `rows` (read after the rows came).
    pub fn extend_added<'a>(&mut self, rows: impl IntoIterator<Item = RowView<'a>>) {
        for row in rows {
            let count = row.added_count();
            if self.added.len() < count {
                self.added.resize(count, 0);
            }
            for (k, slot) in self.added.iter_mut().enumerate().take(count) {
                let w = Column::Added(k as u8).width(row);
                *slot = (*slot).max(w);
            }
        }
    }

    /// The added columns changed: their widths start over.
    pub fn forget_added(&mut self) {
        self.added.clear();
    }

    fn widest(&self, column: Column) -> usize {
        match column {
            Column::Added(k) => self.added.get(usize::from(k)).copied().unwrap_or(0),
            own => self.own[own.index()],
        }
    }

    /// These widths with the title of `sorted` two cells wider, for the ` ▲` that marks it.
    pub fn with_room_for_mark(&self, sorted: Option<Column>) -> ColumnWidths {
        let mut widths = self.clone();
        if let Some(column) = sorted.filter(|c| !matches!(c, Column::Added(_))) {
            let slot = &mut widths.own[column.index()];
            *slot = (*slot).max(column.title().width() + 2);
        }
        widths
    }

    /// The table's own columns (all of them), for tests.
    pub fn layout(&self, width: usize) -> Vec<(Column, usize)> {
        self.layout_of(&Column::ALL, &[], width)
    }

    /// The columns to draw in `width` cells and the width of each: `own` (the table's columns
    /// kept) then `added` (the added columns with their title widths, the sort's arrow counted);
    /// optional columns are left out (first the id) until the name keeps a readable width; the
    /// name takes what is left.
    pub fn layout_of(
        &self,
        own: &[Column],
        added: &[(Column, usize)],
        width: usize,
    ) -> Vec<(Column, usize)> {
        let mut with_titles = self.clone();
        for &(column, title) in added {
            if let Column::Added(k) = column {
                let k = usize::from(k);
                if with_titles.added.len() <= k {
                    with_titles.added.resize(k + 1, 0);
                }
                with_titles.added[k] = with_titles.added[k].max(title);
            }
        }
        with_titles.fit_shown(own.iter().copied().chain(added.iter().map(|a| a.0)), width)
    }

    fn fit_shown(&self, shown: impl Iterator<Item = Column>, width: usize) -> Vec<(Column, usize)> {
        let mut shown: Vec<Column> = shown.collect();
        let widest_name = self.own[Column::Name.index()];
        // The added columns go after the ids (the user asked for them), the last first.
        let added = shown
            .iter()
            .rev()
            .filter(|c| matches!(c, Column::Added(_)))
            .map(|&c| (c, 24));
        let order: Vec<(Column, usize)> = (Column::DROP_ORDER[..2].iter().copied())
            .chain(added)
            .chain(Column::DROP_ORDER[2..].iter().copied())
            .collect();
        for (optional, name_needs) in order {
            if !shown.contains(&optional) {
                continue;
            }
            let widths = self.fit(&shown, width);
            let name = shown
                .iter()
                .zip(&widths)
                .find(|(c, _)| **c == Column::Name)
                .map_or(0, |(_, w)| *w);
            if name >= name_needs.min(widest_name) {
                return shown.into_iter().zip(widths).collect();
            }
            shown.retain(|c| *c != optional);
        }
        let widths = self.fit(&shown, width);
        shown.into_iter().zip(widths).collect()
    }

    fn fit(&self, shown: &[Column], width: usize) -> Vec<usize> {
        // One blank cell before the right border, as the marker column leaves one on the left.
        let room = width.saturating_sub(GAP * shown.len());
        let (natural, min): (Vec<usize>, Vec<usize>) = shown
            .iter()
            .map(|c| {
                let lo = c.narrowest();
                (self.widest(*c).max(lo), lo)
            })
            .unzip();
        // Each column as wide as its widest value; when they do not all fit, the widest give
        // way first (a status of `rolled_back_partially` stays whole while a longer name is
        // cut). What is left over widens the name, so the table spans the screen.
        let mut widths = fit_columns(&natural, &min, room);
        let left = room.saturating_sub(widths.iter().sum());
        if let Some(at) = shown.iter().position(|c| *c == Column::Name) {
            widths[at] += left;
        }
        widths
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rows::Rows;
    use serde_json::{Value, json};

    fn row(t: &str, name: &str, status: &str, id: &str) -> Value {
        json!({
            "type": t, "display_name": name, "status": status, "id": id,
            "external_id": "ser-293252716", "updated_at": "2024-06-27T10:56:00Z"
        })
    }

    fn widths_of(layout: &[(Column, usize)]) -> Vec<(&'static str, usize)> {
        layout.iter().map(|(c, w)| (c.title(), *w)).collect()
    }

    /// A column's width is that of its text, whatever the row: marked, not a resource, a time
    /// in another zone, wide or dangerous characters.
    #[test]
    fn a_cells_width_is_its_texts() {
        let rows = Rows::of_values([
            row("repository", "Feature flags", "active", "res_1"),
            json!({"type": "repo", "display_name": "日本語 \u{1b}[31m", "status": 5, "id": "x",
                   "updated_at": "2024-06-27T12:56:00+02:00"}),
            json!({"name": "no type", "updated_at": "not a time"}),
            json!(42),
        ]);
        for r in rows.iter() {
            for column in Column::ALL {
                assert_eq!(column.width(r), column.text(r).width(), "{column:?}");
            }
        }
    }

    /// Issue 9 item 3: TYPE and STATUS were cut at fixed widths (`service_accou…`,
    /// `rolled_ba…`) while the name had room to spare.
    #[test]
    fn columns_are_as_wide_as_their_values_and_the_name_takes_the_rest() {
        let mut widths = ColumnWidths::default();
        let rows = Rows::of_values([
            row("service_account", "Alert Bot 31", "rolled_back", "res_12"),
            row("repository", "Feature flags", "active", "res_1"),
        ]);
        widths.extend(rows.iter());
        let layout = widths.layout(118);
        assert_eq!(
            widths_of(&layout),
            [
                ("", 2),
                ("TYPE", 15),
                ("NAME", 118 - 7 - (2 + 15 + 11 + 6 + 13 + 16)),
                ("STATUS", 11),
                ("ID", 6),
                ("EXTERNAL ID", 13),
                ("UPDATED", 16)
            ]
        );
        for (column, width) in &layout {
            for r in rows.iter() {
                assert!(column.text(r).width() <= *width, "{column:?} cut");
            }
        }
    }

    /// Issue 20 item 6: at 120 columns a status of `rolled_back_partially` was cut at the
    /// status column's usual bound while the name kept 30 empty columns.
    #[test]
    fn a_value_longer_than_its_columns_bound_gets_the_room_left_before_the_name() {
        let mut widths = ColumnWidths::default();
        let rows = Rows::of_values([row("repository", "Docs", "rolled_back_partially", "res_1")]);
        widths.extend(rows.iter());
        for (column, width) in &widths.layout(118) {
            assert!(column.text(rows.at(0)).width() <= *width, "{column:?} cut");
        }
        let status = |w: usize| {
            widths
                .layout(w)
                .into_iter()
                .find(|(c, _)| *c == Column::Status)
                .map(|(_, w)| w)
        };
        assert!(status(50).is_some_and(|w| w < 21), "cut on a narrow screen");
    }

    /// Issue 20 item 6, with the demo's names: a name longer than the screen has room for
    /// cut `rolled_back_partially` at the status column's old bound of 16, though the name
    /// was the widest. When columns are cut, the widest are cut first: no cut column is
    /// narrower than another column (by more than the cell an uneven share leaves).
    #[test]
    fn the_widest_columns_are_cut_first() {
        let long_name = "Payments platform: the reconciliation service (eu)";
        let mut widths = ColumnWidths::default();
        let rows = Rows::of_values([
            row("repository", "dx", "rolled_back_partially", "res_301"),
            row("service_account", long_name, "active", "res_1"),
        ]);
        widths.extend(rows.iter());
        let status = |w: usize| {
            let layout = widths.layout(w);
            layout.into_iter().find(|(c, _)| *c == Column::Status)
        };
        assert_eq!(status(118), Some((Column::Status, 21)), "whole at 118");
        for width in [60, 80, 100, 118, 140] {
            let layout = widths.layout(width);
            let widest = |c: Column| rows.iter().map(|r| c.text(r).width()).max().unwrap_or(0);
            for &(cut, w) in layout.iter().filter(|(c, w)| widest(*c) > *w) {
                for &(other, ow) in &layout {
                    assert!(
                        ow <= w + 1 || w == cut.narrowest(),
                        "{width}: {cut:?} cut to {w} while {other:?} is {ow}"
                    );
                }
            }
        }
    }

    #[test]
    fn optional_columns_give_way_to_the_name_on_narrow_screens() {
        let mut widths = ColumnWidths::default();
        let rows = Rows::of_values([row(
            "service_account",
            &"a long display name ".repeat(3),
            "rolled_back",
            "res_12",
        )]);
        widths.extend(rows.iter());
        let titles =
            |w: usize| -> Vec<&str> { widths.layout(w).iter().map(|(c, _)| c.title()).collect() };
        assert_eq!(titles(78), ["", "TYPE", "NAME", "STATUS", "UPDATED"]);
        assert_eq!(titles(40), ["", "TYPE", "NAME"]);
        assert_eq!(titles(20), ["", "NAME"]);
        for w in [0, 1, 5, 20, 40, 78, 118, 300] {
            let total: usize = widths.layout(w).iter().map(|(_, w)| w + GAP).sum::<usize>() - GAP;
            assert!(total < w.max(12), "{w}: {total}");
        }
    }
}
