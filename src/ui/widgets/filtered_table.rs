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
use crate::text::fit;
use crate::ui::theme::Theme;

/// A column: its title, preferred width (0: takes what is left), and the table width below
/// which it is dropped.
pub type Column = (&'static str, u16, u16);

/// What a pane gives to have its rows drawn.
pub struct FilteredTable<'a, R> {
    pub list: &'a FilteredList,
    pub rows: &'a [R],
    pub columns: &'a [Column],
    /// The text and style of a row's cell in a column (by title); the flag says it is selected.
    pub cell: &'a dyn Fn(&R, &str, bool) -> (String, Style),
}

impl<R> FilteredTable<'_, R> {
    /// Draws the table in `block` (the pane's titles), or `empty` when no row passes the filter,
    /// and the filter line when there is one.
    pub fn render(
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
        let columns: Vec<&Column> = self.columns.iter().filter(|c| inner_width >= c.2).collect();
        let fixed: u16 = columns.iter().map(|c| c.1 + 1).sum();
        let rest = inner_width.saturating_sub(fixed).max(6);
        let widths: Vec<u16> = columns
            .iter()
            .map(|c| if c.1 == 0 { rest } else { c.1 })
            .collect();
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
                    let (text, style) = (self.cell)(row, column.0, selected);
                    Span::styled(fit(&text, usize::from(w)), style)
                });
                let line = Row::new(cells);
                if selected {
                    line.style(theme.selected(true).add_modifier(Modifier::REVERSED))
                } else {
                    line
                }
            });
        let header = Row::new(columns.iter().map(|c| Span::styled(c.0, theme.header())));
        let table = Table::new(rows, widths.iter().map(|w| Constraint::Length(*w)))
            .header(header)
            .column_spacing(1)
            .block(block);
        frame.render_widget(table, areas.table);
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
pub fn matches_suffix(list: &FilteredList) -> String {
    if list.filter.text().is_empty() {
        String::new()
    } else {
        format!(" · {} match", list.visible.len())
    }
}
