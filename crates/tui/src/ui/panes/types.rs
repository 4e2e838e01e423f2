//! The types table. Only the rows in view are built. The selected row is reversed and marked
//! with `▶`, so it shows without colour (NO_COLOR) too.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use crate::app::panes::types::{TypeRow, TypesView};
use crate::text::count;
use crate::ui::theme::Theme;
use crate::ui::widgets::filtered_table::{Column, FilteredTable, matches_suffix};

const COLUMNS: [Column; 9] = [
    Column::MARKER,
    Column::fitted("TYPE", 0),
    Column::rest("NAME", 30),
    Column::fitted("APP VERSION", 60),
    Column::fitted("STAGE", 70),
    Column::fitted("CAPS", 40),
    Column::fitted("ACT", 50),
    Column::fitted("ROWS", 44),
    Column::fitted("SOURCE", 110),
];

pub(crate) fn render(frame: &mut Frame, view: &TypesView, theme: &Theme, body: Rect) {
    let areas = view.areas(body);
    // What a row without a definition lacks, and types files that could not be read, are said
    // in the status bar and whole under `!` (the pane's problem), not cut in a border.
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(Span::styled(title(view), theme.title()));
    let table = FilteredTable {
        list: &view.list,
        rows: &view.rows,
        columns: &COLUMNS,
        cell: &|row, column, selected| cell(theme, row, column, selected),
    };
    table.render(frame, theme, &areas, block, empty_message(theme, view));
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
    title.push_str(&matches_suffix(&view.list));
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

fn cell(theme: &Theme, row: &TypeRow, column: &str, selected: bool) -> (String, Style) {
    match column {
        "" if selected => ("▶".to_owned(), theme.title()),
        "" => (String::new(), Style::new()),
        "TYPE" => (row.shown_name.clone(), theme.key()),
        "NAME" if row.known.is_none() => (row.display_name.clone(), theme.warning()),
        "NAME" => (row.display_name.clone(), Style::new()),
        "APP VERSION" if row.removed_in.is_some() => (row.app_version.clone(), theme.warning()),
        "APP VERSION" => (row.app_version.clone(), theme.dim()),
        "STAGE" if row.removed_in.is_some() => (row.stage.clone(), theme.warning()),
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
