//! The resource table. Only the rows in view are built, so a frame costs the same with 100 or
//! 100,000 rows loaded.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, Wrap};

use crate::app::Loadable;
use crate::app::layout;
use crate::app::panes::browser::layout::BrowserAreas;
use crate::app::panes::browser::row::Row as ListRow;
use crate::app::panes::browser::{Browser, Listing, More};
use crate::sanitize;
use crate::text::{count, fit};
use crate::ui::theme::{SELECTED_MARKER, Theme};

/// A column of the table; the narrow the terminal, the fewer columns.
struct Column {
    title: &'static str,
    /// Preferred width; the name column takes what is left.
    width: u16,
    /// Below this table width the column is dropped.
    min_table_width: u16,
}

const COLUMNS: [Column; 6] = [
    Column {
        title: "",
        width: 2,
        min_table_width: 0,
    },
    Column {
        title: "TYPE",
        width: 14,
        min_table_width: 40,
    },
    Column {
        title: "NAME",
        width: 0,
        min_table_width: 0,
    },
    Column {
        title: "STATUS",
        width: 10,
        min_table_width: 50,
    },
    Column {
        title: "EXTERNAL ID",
        width: 18,
        min_table_width: 100,
    },
    Column {
        title: "UPDATED",
        width: 16,
        min_table_width: 64,
    },
];

pub fn render(frame: &mut Frame, browser: &Browser, theme: &Theme, body: Rect) {
    let areas = browser.areas(body);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(Span::styled(title(browser), theme.title()))
        .title_bottom(paging_note(browser, theme));
    let block = match browser.visible.len() {
        0 => block,
        len => block.title_bottom(
            Line::styled(
                format!(" {}/{} ", count(browser.cursor.selected + 1), count(len)),
                theme.dim(),
            )
            .right_aligned(),
        ),
    };
    match &browser.listing {
        Loadable::Loaded(listing) if !browser.visible.is_empty() => {
            render_table(frame, browser, listing, theme, &areas, block);
        }
        state => {
            let inner = block.inner(areas.table);
            frame.render_widget(block, areas.table);
            // A third of the way down; from the top when that cuts the message; the short form
            // (what went wrong and how to retry) when even that does not fit.
            let mut message = empty_message(browser, state, theme);
            let mut top = inner.height / 3;
            let needed = crate::ui::text::wrapped_height(&message, inner.width);
            if needed + top > inner.height {
                top = 0;
                if needed > inner.height {
                    message = short_message(state, theme).unwrap_or(message);
                }
            }
            frame.render_widget(
                Paragraph::new(message)
                    .alignment(Alignment::Center)
                    .wrap(Wrap { trim: true }),
                Rect {
                    y: inner.y + top,
                    height: inner.height - top,
                    ..inner
                },
            );
        }
    }
    if let Some(area) = areas.filter {
        render_filter(frame, browser, theme, area);
    }
}

fn title(browser: &Browser) -> String {
    let filter = match &browser.type_filter {
        Some(t) => format!("type {}", sanitize::line(t)),
        None => "all types".to_owned(),
    };
    let rows = match &browser.listing {
        Loadable::Loaded(listing) => {
            let more = match listing.more {
                More::End => "all loaded",
                More::Available(_) | More::Paused(_) => "more available",
                More::Loading { .. } => "loading more…",
                More::Failed { .. } => "more failed to load",
                More::Fault(_) => "stopped: server fault",
            };
            let shown = if browser.filter.text().is_empty() {
                String::new()
            } else {
                format!("{} match · ", count(browser.visible.len()))
            };
            format!(" · {shown}{} loaded · {more}", count(listing.rows.len()))
        }
        Loadable::Loading(_) => " · loading…".to_owned(),
        _ => String::new(),
    };
    format!(" Resources · {filter}{rows} ")
}

/// The bottom border: what went wrong with the next page and how to go on.
fn paging_note(browser: &Browser, theme: &Theme) -> Line<'static> {
    match browser.listing.loaded().map(|l| &l.more) {
        Some(More::Failed { error, .. }) => Line::from(vec![
            Span::styled(" r retry · ! details ", theme.dim()),
            Span::styled(
                format!("⚠ {} ", sanitize::line(&error.to_string())),
                theme.error(),
            ),
        ]),
        Some(More::Fault(error)) => Line::from(vec![
            Span::styled(" r reload · ! details ", theme.dim()),
            Span::styled(
                format!("⚠ {} ", sanitize::line(&error.to_string())),
                theme.error(),
            ),
        ]),
        Some(More::Paused(_)) => Line::styled(" load cancelled · r resumes ", theme.warning()),
        _ => Line::default(),
    }
}

fn empty_message(
    browser: &Browser,
    state: &Loadable<Listing>,
    theme: &Theme,
) -> Vec<Line<'static>> {
    match state {
        Loadable::Loading(_) => vec![
            Line::styled("Loading resources…", theme.dim()),
            Line::styled("Esc cancels", theme.dim()),
        ],
        Loadable::NotLoaded => vec![
            Line::raw("Nothing loaded."),
            Line::styled("r loads the first page", theme.dim()),
        ],
        Loadable::Failed(error) => {
            let mut lines = vec![
                Line::styled("Could not load resources", theme.error()),
                Line::raw(sanitize::line(&error.to_string()).into_owned()),
            ];
            if let Some(hint) = error.hint() {
                lines.push(Line::styled(hint, theme.dim()));
            }
            lines.push(Line::styled("r retry · ! details · q quit", theme.dim()));
            lines
        }
        Loadable::Loaded(listing) if listing.rows.is_empty() => vec![
            Line::raw(match &browser.type_filter {
                Some(t) => format!("No resources of type {}.", sanitize::line(t)),
                None => "No resources.".to_owned(),
            }),
            Line::styled("t picks another type · r reloads", theme.dim()),
        ],
        Loadable::Loaded(_) => vec![
            Line::raw("No loaded row matches the filter."),
            Line::styled("Esc clears it", theme.dim()),
        ],
    }
}

/// The message of a failed load for a tiny screen: the reason and the way out, nothing else.
fn short_message(state: &Loadable<Listing>, theme: &Theme) -> Option<Vec<Line<'static>>> {
    match state {
        Loadable::Failed(error) => Some(vec![
            Line::styled(
                sanitize::line(&error.to_string()).into_owned(),
                theme.error(),
            ),
            Line::styled("r retry · ! details", theme.dim()),
        ]),
        _ => None,
    }
}

fn render_table(
    frame: &mut Frame,
    browser: &Browser,
    listing: &Listing,
    theme: &Theme,
    areas: &BrowserAreas,
    block: Block<'_>,
) {
    let inner_width = layout::inset(areas.table).width;
    let columns: Vec<&Column> = COLUMNS
        .iter()
        .filter(|c| inner_width >= c.min_table_width)
        .collect();
    let fixed: u16 = columns.iter().map(|c| c.width + 1).sum();
    let name_width = inner_width.saturating_sub(fixed).max(8);
    let widths: Vec<u16> = columns
        .iter()
        .map(|c| if c.width == 0 { name_width } else { c.width })
        .collect();

    let height = usize::from(areas.rows.height);
    let cursor = browser.cursor;
    let end = (cursor.offset + height).min(browser.visible.len());
    let rows = browser.visible[cursor.offset.min(end)..end]
        .iter()
        .enumerate()
        .map(|(i, &row)| {
            let selected = cursor.offset + i == cursor.selected;
            let cells: Vec<Span<'static>> = columns
                .iter()
                .zip(&widths)
                .map(|(column, &w)| {
                    let (mut text, style) = cell(&listing.rows[row], column.title, theme);
                    if column.title.is_empty() {
                        let marker = if selected { SELECTED_MARKER } else { " " };
                        text = format!("{marker}{text}");
                    }
                    Span::styled(fit(&text, usize::from(w)), style)
                })
                .collect();
            if selected {
                let line = theme.select(cells, true);
                Row::new(line.spans).style(line.style)
            } else {
                Row::new(cells)
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

/// The text of one cell, sanitised, and its style.
fn cell(row: &ListRow, column: &str, theme: &Theme) -> (String, Style) {
    if row.malformed {
        return match column {
            "" => ("!".to_owned(), theme.warning()),
            "NAME" => (
                "(malformed item: Enter shows it)".to_owned(),
                theme.warning(),
            ),
            _ => (String::new(), theme.dim()),
        };
    }
    let text = |f: &Option<Box<str>>| {
        f.as_deref()
            .map(|s| sanitize::line(s).into_owned())
            .unwrap_or_default()
    };
    match column {
        "" if row.marked => ("!".to_owned(), theme.warning()),
        "" => (String::new(), theme.dim()),
        "TYPE" => (text(&row.resource_type), theme.key()),
        "NAME" => (text(&row.title), Style::new()),
        "STATUS" => (text(&row.status), theme.info()),
        "EXTERNAL ID" => (text(&row.external_id), theme.dim()),
        "UPDATED" => (short_time(row.updated_at.as_deref()), theme.dim()),
        _ => (String::new(), theme.dim()),
    }
}

/// `2026-11-20T14:03:11Z` as `2026-11-20 14:03`; anything unparseable as it is.
fn short_time(value: Option<&str>) -> String {
    let Some(value) = value else {
        return String::new();
    };
    match chrono::DateTime::parse_from_rfc3339(value) {
        Ok(t) => t
            .with_timezone(&chrono::Utc)
            .format("%Y-%m-%d %H:%M")
            .to_string(),
        Err(_) => sanitize::line(value).into_owned(),
    }
}

fn render_filter(frame: &mut Frame, browser: &Browser, theme: &Theme, area: Rect) {
    let text = sanitize::line(browser.filter.text()).into_owned();
    let line = Line::from(vec![
        Span::styled("/", theme.title()),
        Span::raw(text),
        Span::styled(
            if browser.filtering {
                "   Enter keep · Esc clear"
            } else {
                "   / edit · Esc clear"
            },
            theme.dim(),
        ),
    ]);
    frame.render_widget(Paragraph::new(line), area);
    if browser.filtering {
        crate::ui::text::place_cursor(frame, area, 1, &browser.filter);
    }
}
