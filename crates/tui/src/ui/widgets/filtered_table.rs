//! Drawing a [`FilteredList`] (the history and types views): the table, with only the rows in view
//! built and the selected row reversed and marked `▶` so it shows without colour too; its
//! position; a message in place of the rows when none shows; and the `/` filter line.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Table, Wrap};

use crate::app::layout::{self, TableAreas};
use crate::app::widgets::FilteredList;
use crate::sanitize;
use crate::text::{fit, fit_columns};
use crate::ui::theme::Theme;
use unicode_width::UnicodeWidthStr;

/// A column of a [`FilteredTable`].
pub(crate) struct Column {
    pub title: &'static str,
    /// The table width below which it is dropped.
    pub shown_from: u16,
    kind: Fit,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fit {
    /// As wide as its widest value.
    Values,
    /// As wide as its widest value, and what is left over.
    Rest,
    /// As wide as its widest value, never cut (a time cut to `2026-11-21 11:…` says nothing):
    /// the others give way, or it is dropped below `shown_from`.
    Whole,
    /// One cell, for the `▶` of the selected row.
    Marker,
}

impl Column {
    pub(crate) const MARKER: Column = Column {
        title: "",
        shown_from: 0,
        kind: Fit::Marker,
    };

    /// A column as wide as its values, shown from a table `shown_from` wide.
    pub(crate) const fn fitted(title: &'static str, shown_from: u16) -> Column {
        Column {
            title,
            shown_from,
            kind: Fit::Values,
        }
    }

    /// A column as wide as its values and never cut, shown from a table `shown_from` wide.
    pub(crate) const fn whole(title: &'static str, shown_from: u16) -> Column {
        Column {
            title,
            shown_from,
            kind: Fit::Whole,
        }
    }

    /// The column that takes what the others leave over.
    pub(crate) const fn rest(title: &'static str, shown_from: u16) -> Column {
        Column {
            title,
            shown_from,
            kind: Fit::Rest,
        }
    }
}

/// The rows whose values size the columns: all of them in a list of any size a store keeps,
/// while a frame stays cheap should a list ever be longer.
const MEASURED_ROWS: usize = 5_000;

/// The narrowest a cut column gets (with its `…`) before columns are dropped instead.
const NARROWEST: usize = 4;

/// What a pane gives to have its rows drawn.
pub(crate) struct FilteredTable<'a, R> {
    pub list: &'a FilteredList,
    pub rows: &'a [R],
    pub columns: &'a [Column],
    /// The text and style of a row's cell in a column (by title); the flag says it is selected.
    pub cell: &'a dyn Fn(&R, &str, bool) -> (String, Style),
}

impl<R> FilteredTable<'_, R> {
    /// Draws the table in `block` (the pane's titles), or `empty` when no row passes the filter,
    /// and the filter line when there is one.
    pub(crate) fn render(
        &self,
        frame: &mut Frame,
        theme: &Theme,
        areas: &TableAreas,
        mut block: Block<'_>,
        empty: Vec<Line<'_>>,
    ) {
        let list = self.list;
        if list.selected().is_some() {
            block = block.title_bottom(
                Line::styled(
                    format!(" {}/{} ", list.cursor.selected + 1, list.visible.len()),
                    theme.dim(),
                )
                .right_aligned(),
            );
        }
        if list.visible.is_empty() {
            let inner = block.inner(areas.table);
            frame.render_widget(block, areas.table);
            frame.render_widget(
                Paragraph::new(empty)
                    .alignment(Alignment::Center)
                    .wrap(Wrap { trim: true }),
                Rect {
                    y: inner.y + inner.height / 4,
                    height: inner.height - inner.height / 4,
                    ..inner
                },
            );
        } else {
            self.render_rows(frame, theme, areas, block);
        }
        if let Some(area) = areas.filter {
            render_filter_line(frame, theme, list, area);
        }
    }

    fn render_rows(&self, frame: &mut Frame, theme: &Theme, areas: &TableAreas, block: Block<'_>) {
        let inner_width = layout::inset(areas.table).width;
        let columns: Vec<&Column> = self
            .columns
            .iter()
            .filter(|c| inner_width >= c.shown_from)
            .collect();
        let widths = self.widths(&columns, usize::from(inner_width));
        let height = usize::from(areas.rows.height);
        let cursor = self.list.cursor;
        let visible = &self.list.visible;
        let end = (cursor.offset + height).min(visible.len());
        let rows = visible[cursor.offset.min(end)..end]
            .iter()
            .enumerate()
            .map(|(i, &index)| {
                let selected = cursor.offset + i == cursor.selected;
                let row = &self.rows[index];
                let cells = columns.iter().zip(&widths).map(|(column, &w)| {
                    let (text, style) = (self.cell)(row, column.title, selected);
                    Span::styled(fit(&text, usize::from(w)), style)
                });
                let line = Row::new(cells);
                if selected {
                    line.style(theme.selected(true).add_modifier(Modifier::REVERSED))
                } else {
                    line
                }
            });
        let header = Row::new(
            columns
                .iter()
                .map(|c| Span::styled(c.title, theme.header())),
        );
        let table = Table::new(rows, widths.iter().map(|w| Constraint::Length(*w)))
            .header(header)
            .column_spacing(1)
            .block(block);
        frame.render_widget(table, areas.table);
    }
}

impl<R> FilteredTable<'_, R> {
    /// The one fitting rule of every table: each column as wide as its widest value (and its
    /// title); when they do not all fit, the widest are cut first, to the same width, so that no
    /// column is wider than its values while another is cut (a time is never cut: the others
    /// give way); what is left over widens the column that takes the rest.
    fn widths(&self, columns: &[&Column], inner_width: usize) -> Vec<u16> {
        let natural: Vec<usize> = columns
            .iter()
            .map(|column| {
                if column.kind == Fit::Marker {
                    return 1;
                }
                let widest = self.list.visible.iter().take(MEASURED_ROWS).map(|&index| {
                    let (text, _) = (self.cell)(&self.rows[index], column.title, false);
                    text.width()
                });
                widest.fold(column.title.width(), usize::max)
            })
            .collect();
        let least: Vec<usize> = (natural.iter().zip(columns))
            .map(|(&n, column)| match column.kind {
                Fit::Whole => n,
                _ => n.min(NARROWEST),
            })
            .collect();
        // A gap between columns, and one blank cell before the right border as the marker
        // column leaves one on the left.
        let room = inner_width.saturating_sub(columns.len());
        let mut widths = fit_columns(&natural, &least, room);
        let used: usize = widths.iter().sum();
        if let Some(rest) = columns.iter().position(|c| c.kind == Fit::Rest) {
            widths[rest] += room.saturating_sub(used);
        }
        widths
            .into_iter()
            .map(|w| u16::try_from(w).unwrap_or(u16::MAX))
            .collect()
    }
}

/// `/` and the filter's text (neutralised), with the keys that apply, and the cursor while typed.
fn render_filter_line(frame: &mut Frame, theme: &Theme, list: &FilteredList, area: Rect) {
    let line = Line::from(vec![
        Span::styled("/", theme.title()),
        Span::raw(sanitize::line(list.filter.text()).into_owned()),
        Span::styled(
            if list.filtering {
                "   Enter keep · Esc clear"
            } else {
                "   / edit · Esc clear"
            },
            theme.dim(),
        ),
    ]);
    frame.render_widget(Paragraph::new(line), area);
    if list.filtering {
        crate::ui::text::place_cursor(frame, area, 1, &list.filter);
    }
}

/// ` · N match` for a title while a filter is set.
pub(crate) fn matches_suffix(list: &FilteredList) -> String {
    if list.filter.text().is_empty() {
        String::new()
    } else {
        format!(" · {} match", list.visible.len())
    }
}
