//! The history of sends: a table (only the rows in view are built; the selected row reversed and
//! marked `▶`, so it shows without colour too), or one send in full, scrolled.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::app::panes::history::layout::{detail_height, detail_width};
use crate::app::panes::history::{EntryDetail, HistoryRow, HistoryView, LineStyle};
use crate::text::{count, fit};
use crate::ui::theme::Theme;
use crate::ui::widgets::filtered_table::{Column, FilteredTable, matches_suffix};

const COLUMNS: [Column; 7] = [
    Column::MARKER,
    Column::fitted("KIND", 0),
    Column::whole("TIME (UTC)", 60),
    Column::fitted("TO", 60),
    Column::rest("SENT", 0),
    Column::fitted("HTTP", 40),
    Column::fitted("ANSWER", 50),
];

pub(crate) fn render(frame: &mut Frame, view: &HistoryView, theme: &Theme, body: Rect) {
    if let Some(detail) = &view.shown {
        render_detail(frame, detail, theme, body);
        return;
    }
    let areas = view.areas(body);
    let mut block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        // A title longer than the table ends in `…`.
        .title(Span::styled(
            fit(&title(view), usize::from(body.width.saturating_sub(2))),
            theme.title(),
        ));
    if let Some(problem) = &view.problem {
        block = block.title_bottom(Line::styled(format!(" ⚠ {problem} "), theme.error()));
    }
    let table = FilteredTable {
        list: &view.list,
        rows: &view.rows,
        columns: &COLUMNS,
        cell: &|row, column, selected| cell(theme, row, column, selected),
    };
    table.render(frame, theme, &areas, block, empty_message(theme, view));
}

fn title(view: &HistoryView) -> String {
    if view.entries.is_none() {
        return " History · loading… ".to_owned();
    }
    let sent = view.entries.as_ref().map_or(0, Vec::len);
    let mut title = match view.drafts.len() {
        0 => format!(" History · {} sent, newest first", count(sent)),
        drafts => format!(
            " History · {} not sent (drafts) · {} sent, newest first",
            count(drafts),
            count(sent)
        ),
    };
    title.push_str(&matches_suffix(&view.list));
    title.push(' ');
    title
}

fn empty_message(theme: &Theme, view: &HistoryView) -> Vec<Line<'static>> {
    match &view.entries {
        None => vec![Line::styled("Loading the history…", theme.dim())],
        Some(_) if view.problem.is_some() => vec![
            Line::raw("The history cannot be read."),
            Line::styled("r tries again; ! shows the last error", theme.dim()),
        ],
        Some(_) if view.rows.is_empty() => vec![
            Line::raw("Nothing sent yet."),
            Line::styled(
                "Reports sent here (R on a resource, :report) or with appdeck report and \
                 appdeck connect are listed here, whatever the answer.",
                theme.dim(),
            ),
        ],
        Some(_) => vec![
            Line::raw("No send matches the filter."),
            Line::styled("Esc clears it", theme.dim()),
        ],
    }
}

fn cell(theme: &Theme, row: &HistoryRow, column: &str, selected: bool) -> (String, Style) {
    match column {
        "" if selected => ("▶".to_owned(), theme.title()),
        "" => (String::new(), Style::new()),
        "KIND" if row.unsent => (row.kind.clone(), theme.warning()),
        "KIND" => (row.kind.clone(), theme.key()),
        "TIME (UTC)" => (row.time.clone(), theme.dim()),
        "TO" => (row.to.clone(), theme.dim()),
        "SENT" => (row.sent.clone(), Style::new()),
        "HTTP" => (row.http.clone(), Style::new()),
        "ANSWER" if row.unsent => (row.answer.clone(), theme.warning()),
        "ANSWER" if row.ok => (row.answer.clone(), theme.info()),
        "ANSWER" => (row.answer.clone(), theme.error()),
        _ => (String::new(), Style::new()),
    }
}

fn render_detail(frame: &mut Frame, detail: &EntryDetail, theme: &Theme, body: Rect) {
    // As the keys scroll it: the same rows in the same room.
    let (height, width) = (detail_height(body), detail_width(body));
    let rows: Vec<_> = detail.rows(width).collect();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(Span::styled(
            " Sent: the request and the answer (E edit & resend, c curl, Esc back) ",
            theme.title(),
        ))
        .title_bottom(
            Line::styled(
                format!(
                    " {}-{}/{} ",
                    (detail.scroll + 1).min(rows.len()),
                    (detail.scroll + height).min(rows.len()),
                    rows.len()
                ),
                theme.dim(),
            )
            .right_aligned(),
        );
    let lines: Vec<Line> = rows
        .iter()
        .skip(detail.scroll)
        .take(height)
        .map(|(style, text)| {
            let style = match style {
                LineStyle::Heading => theme.title(),
                LineStyle::Field => theme.key(),
                LineStyle::Text => Style::new(),
                LineStyle::Problem => theme.error(),
            };
            // Each row fits: `fit` only bounds a run of zero-width marks.
            Line::styled(fit(text, width), style)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), body);
}
