//! The types table. Only the rows in view are built. The selected row is reversed and marked
//! with `▶`, so it shows without colour (NO_COLOR) too.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, Wrap};

use crate::app::layout;
use crate::app::layout::TableAreas;
use crate::app::panes::types::{TypeRow, TypesView};
use crate::catalog::NO_DEFINITION_HINT;
use crate::sanitize;
use crate::text::{count, fit};
use crate::ui::theme::Theme;

/// A column: its title, preferred width (0: takes what is left), and the table width below
/// which it is dropped.
const COLUMNS: [(&str, u16, u16); 9] = [
    ("", 1, 0),
    ("TYPE", 18, 0),
    ("NAME", 0, 30),
    ("APP VERSION", 20, 60),
    ("STAGE", 6, 70),
    ("CAPS", 6, 40),
    ("ACT", 3, 50),
    ("ROWS", 5, 44),
    ("SOURCE", 22, 110),
];

pub fn render(frame: &mut Frame, view: &TypesView, theme: &Theme, body: Rect) {
    let areas = view.areas(body);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(Span::styled(title(view), theme.title()));
    if let Some(row) = view.selected() {
        block = block.title_bottom(
            Line::styled(
                format!(" {}/{} ", view.cursor.selected + 1, view.visible.len()),
                theme.dim(),
            )
            .right_aligned(),
        );
        if row.known.is_none() {
            block = block.title_bottom(Line::styled(
                fit(
                    &format!(" {NO_DEFINITION_HINT} "),
                    usize::from(areas.table.width.saturating_sub(10)),
                ),
                theme.warning(),
            ));
        } else if let Some(problem) = view.known.as_ref().and_then(|k| k.problems.first()) {
            block = block.title_bottom(Line::styled(format!(" ⚠ {problem} "), theme.error()));
        }
    }
    if view.visible.is_empty() {
        let inner = block.inner(areas.table);
        frame.render_widget(block, areas.table);
        let message = empty_message(theme, view);
        frame.render_widget(
            Paragraph::new(message)
                .alignment(Alignment::Center)
                .wrap(Wrap { trim: true }),
            Rect {
                y: inner.y + inner.height / 4,
                height: inner.height - inner.height / 4,
                ..inner
            },
        );
    } else {
        render_table(theme, frame, view, &areas, block);
    }
    if let Some(area) = areas.filter {
        let line = Line::from(vec![
            Span::styled("/", theme.title()),
            Span::raw(sanitize::line(view.filter.text()).into_owned()),
            Span::styled(
                if view.filtering {
                    "   Enter keep · Esc clear"
                } else {
                    "   / edit · Esc clear"
                },
                theme.dim(),
            ),
        ]);
        frame.render_widget(Paragraph::new(line), area);
        if view.filtering {
            crate::ui::text::place_cursor(frame, area, 1, &view.filter);
        }
    }
}

fn title(view: &TypesView) -> String {
    let Some(known) = &view.known else {
        return " Types · loading… ".to_owned();
    };
    let defined = known.catalog.types().len();
    let undefined = view.rows.len() - view.rows.iter().filter(|r| r.known.is_some()).count();
    let mut title = format!(" Types · {} known", count(defined));
    if undefined > 0 {
        title.push_str(&format!(" · {undefined} without definition"));
    }
    if !view.filter.text().is_empty() {
        title.push_str(&format!(" · {} match", view.visible.len()));
    }
    title.push(' ');
    title
}

fn empty_message(theme: &Theme, view: &TypesView) -> Vec<Line<'static>> {
    match &view.known {
        None => vec![Line::styled("Loading the known types…", theme.dim())],
        Some(known) if view.rows.is_empty() => {
            let mut lines = vec![
                Line::raw("No resource types known."),
                Line::styled(
                    "The service cannot list them: appdeck knows the types of connects it sent \
                     (appdeck connect FILE), of files given with --types FILE or a profile's \
                     `types`, and under --demo the demo's.",
                    theme.dim(),
                ),
            ];
            lines.extend(
                known
                    .problems
                    .iter()
                    .map(|p| Line::styled(format!("⚠ {p}"), theme.error())),
            );
            lines
        }
        Some(_) => vec![
            Line::raw("No type matches the filter."),
            Line::styled("Esc clears it", theme.dim()),
        ],
    }
}

fn render_table(
    theme: &Theme,
    frame: &mut Frame,
    view: &TypesView,
    areas: &TableAreas,
    block: Block<'_>,
) {
    let table = areas.table;
    let inner_width = layout::inset(table).width;
    let columns: Vec<&(&str, u16, u16)> = COLUMNS.iter().filter(|c| inner_width >= c.2).collect();
    let fixed: u16 = columns.iter().map(|c| c.1 + 1).sum();
    let rest = inner_width.saturating_sub(fixed).max(6);
    let widths: Vec<u16> = columns
        .iter()
        .map(|c| if c.1 == 0 { rest } else { c.1 })
        .collect();
    let height = usize::from(areas.rows.height);
    let cursor = view.cursor;
    let end = (cursor.offset + height).min(view.visible.len());
    let rows = view.visible[cursor.offset.min(end)..end]
        .iter()
        .enumerate()
        .map(|(i, &index)| {
            let selected = cursor.offset + i == cursor.selected;
            let row = &view.rows[index];
            let cells = columns.iter().zip(&widths).map(|(column, &w)| {
                let (text, style) = cell(theme, row, column.0, selected);
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
    let table_widget = Table::new(rows, widths.iter().map(|w| Constraint::Length(*w)))
        .header(header)
        .column_spacing(1)
        .block(block);
    frame.render_widget(table_widget, table);
}

fn cell(theme: &Theme, row: &TypeRow, column: &str, selected: bool) -> (String, Style) {
    match column {
        "" if selected => ("▶".to_owned(), theme.title()),
        "" => (String::new(), Style::new()),
        "TYPE" => (row.shown_name.clone(), theme.key()),
        "NAME" if row.known.is_none() => (row.display_name.clone(), theme.warning()),
        "NAME" => (row.display_name.clone(), Style::new()),
        "APP VERSION" => (row.app_version.clone(), theme.dim()),
        "STAGE" => (row.stage.clone(), theme.info()),
        "CAPS" => (row.capabilities.clone(), Style::new()),
        "ACT" => (
            row.actions.map(|n| n.to_string()).unwrap_or_default(),
            Style::new(),
        ),
        "ROWS" => (count(row.loaded), theme.dim()),
        "SOURCE" => (row.source.clone(), theme.dim()),
        _ => (String::new(), Style::new()),
    }
}
