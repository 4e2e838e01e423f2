//! The history of sends: a table (only the rows in view are built; the selected row reversed and
//! marked `▶`, so it shows without colour too), or one send in full, scrolled.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, Wrap};

use crate::app::layout;
use crate::app::layout::TableAreas;
use crate::app::panes::history::{EntryDetail, HistoryRow, HistoryView, LineStyle};
use crate::sanitize;
use crate::text::{count, fit};
use crate::ui::theme::Theme;

/// A column: its title, preferred width (0: takes what is left), and the table width below
/// which it is dropped.
const COLUMNS: [(&str, u16, u16); 6] = [
    ("", 1, 0),
    ("KIND", 7, 0),
    ("TIME (UTC)", 19, 60),
    ("SENT", 0, 0),
    ("HTTP", 4, 40),
    ("ANSWER", 26, 50),
];

pub fn render(frame: &mut Frame, view: &HistoryView, theme: &Theme, body: Rect) {
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
    if view.selected().is_some() {
        block = block.title_bottom(
            Line::styled(
                format!(" {}/{} ", view.cursor.selected + 1, view.visible.len()),
                theme.dim(),
            )
            .right_aligned(),
        );
    }
    if let Some(problem) = &view.problem {
        block = block.title_bottom(Line::styled(format!(" ⚠ {problem} "), theme.error()));
    }
    if view.visible.is_empty() {
        let inner = block.inner(areas.table);
        frame.render_widget(block, areas.table);
        frame.render_widget(
            Paragraph::new(empty_message(theme, view))
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
    if !view.filter.text().is_empty() {
        title.push_str(&format!(" · {} match", view.visible.len()));
    }
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

fn render_table(
    theme: &Theme,
    frame: &mut Frame,
    view: &HistoryView,
    areas: &TableAreas,
    block: Block<'_>,
) {
    let inner_width = layout::inset(areas.table).width;
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
    let table = Table::new(rows, widths.iter().map(|w| Constraint::Length(*w)))
        .header(header)
        .column_spacing(1)
        .block(block);
    frame.render_widget(table, areas.table);
}

fn cell(theme: &Theme, row: &HistoryRow, column: &str, selected: bool) -> (String, Style) {
    match column {
        "" if selected => ("▶".to_owned(), theme.title()),
        "" => (String::new(), Style::new()),
        "KIND" if row.unsent => (row.kind.clone(), theme.warning()),
        "KIND" => (row.kind.clone(), theme.key()),
        "TIME (UTC)" => (row.time.clone(), theme.dim()),
        "SENT" => (row.sent.clone(), Style::new()),
        "HTTP" => (row.http.clone(), Style::new()),
        "ANSWER" if row.unsent => (row.answer.clone(), theme.warning()),
        "ANSWER" if row.ok => (row.answer.clone(), theme.info()),
        "ANSWER" => (row.answer.clone(), theme.error()),
        _ => (String::new(), Style::new()),
    }
}

fn render_detail(frame: &mut Frame, detail: &EntryDetail, theme: &Theme, body: Rect) {
    let height = usize::from(layout::inset(body).height);
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
                    (detail.scroll + 1).min(detail.lines.len()),
                    (detail.scroll + height).min(detail.lines.len()),
                    detail.lines.len()
                ),
                theme.dim(),
            )
            .right_aligned(),
        );
    let lines: Vec<Line> = detail
        .lines
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
            Line::styled(text.clone(), style)
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), body);
}
