//! The resource table. Only the rows in view are built, so a frame costs the same with 100 or
//! 100,000 rows loaded.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Rect};
use std::time::Instant;

use chrono::{DateTime, Utc};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Row, Table, Wrap};

use crate::api::ApiError;
use crate::app::Loadable;
use crate::app::layout;
use crate::app::layout::TableAreas;
use crate::app::panes::browser::watch::Mark;
use crate::app::panes::browser::{Browser, Listing, More};
use crate::sanitize;
use crate::text::{count, fit};
use crate::ui::theme::{SELECTED_MARKER, Theme};
use appdeck_listing::Column;
use appdeck_listing::RowView as ListRow;
use unicode_width::UnicodeWidthStr;

/// `clock`: the wall-clock time now and the app's monotonic time it stands for (the watch's
/// last look is kept as the latter and shown as the former).
pub(crate) fn render(
    frame: &mut Frame,
    browser: &Browser,
    theme: &Theme,
    body: Rect,
    clock: (DateTime<Utc>, Instant),
) {
    let areas = browser.areas(body);
    let room = usize::from(areas.table.width.saturating_sub(2));
    let title = super::browser_title::title(browser, clock, room);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(Span::styled(title, theme.title()))
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

/// The bottom border: what went wrong with the next page and how to go on.
fn paging_note(browser: &Browser, theme: &Theme) -> Line<'static> {
    match browser.listing.loaded().map(|l| &l.more) {
        Some(More::Failed { error, .. }) => Line::from(vec![
            Span::styled(
                match error {
                    // Nothing failed to arrive: the pages came, with nothing in them.
                    ApiError::EmptyPages(_) => " r go on · ! details ",
                    _ => " r retry · ! details ",
                },
                theme.dim(),
            ),
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

/// A `/` query longer than this is cut in the message that nothing matches it.
const FILTER_IN_MESSAGE: usize = 40;

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
        Loadable::Loaded(_) if browser.query.testing().is_some() && browser.visible.is_empty() => {
            vec![Line::styled(
                browser.query.testing().unwrap_or_default(),
                theme.dim(),
            )]
        }
        Loadable::Loaded(_)
            if browser.query.where_.is_some() && browser.filter.text().is_empty() =>
        {
            vec![
                Line::raw("No loaded row passes :where."),
                Line::styled(":where alone clears it", theme.dim()),
            ]
        }
        Loadable::Loaded(_) => match &browser.query.status {
            Some(status) if browser.filter.text().is_empty() => vec![
                Line::raw(format!(
                    "No loaded resource has status {}.",
                    sanitize::line(status.label())
                )),
                Line::styled("r reloads · Esc goes back", theme.dim()),
            ],
            _ => vec![
                Line::raw(format!(
                    "No loaded row matches /{}.",
                    fit(&sanitize::line(browser.filter.text()), FILTER_IN_MESSAGE)
                )),
                Line::styled("Esc clears it", theme.dim()),
            ],
        },
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
    areas: &TableAreas,
    block: Block<'_>,
) {
    let inner_width = usize::from(layout::inset(areas.table).width);
    let sort = browser.sorting.spec;
    let choice = &browser.columns;
    let own: Vec<Column> = (Column::ALL.iter().copied())
        .filter(|c| !choice.removed.contains(c))
        .collect();
    // An added column's title is its path (upper-cased), two cells wider when it has the arrow.
    let title = |c: Column| sanitize::line(&choice.title(c)).into_owned();
    let added: Vec<(Column, usize)> = (0..choice.added.len())
        .filter_map(|k| u8::try_from(k).ok().map(Column::Added))
        .map(|c| {
            let arrow = if sort.is_some_and(|s| s.column == c) {
                2
            } else {
                0
            };
            (c, title(c).width() + arrow)
        })
        .collect();
    let (columns, widths): (Vec<Column>, Vec<usize>) = listing
        .widths
        .with_room_for_mark(sort.map(|s| s.column))
        .layout_of(&own, &added, inner_width)
        .into_iter()
        .unzip();

    let height = usize::from(areas.rows.height);
    let cursor = browser.cursor;
    let end = (cursor.offset + height).min(browser.visible.len());
    let rows = (browser.visible.range(cursor.offset..end))
        .enumerate()
        .map(|(i, row)| {
            let selected = cursor.offset + i == cursor.selected;
            let cells: Vec<Line<'static>> = columns
                .iter()
                .zip(&widths)
                .map(|(&column, &w)| {
                    let item = listing.rows.at(row);
                    let (mut text, mut style) = cell(item, column, theme);
                    if column == Column::Marker {
                        let marker = if selected { SELECTED_MARKER } else { " " };
                        text = format!("{marker}{text}");
                    }
                    let mark = browser.watch.as_ref().and_then(|w| w.mark(item));
                    if let Some(mark) = mark {
                        (text, style) = marked(text, style, column, mark, theme);
                    }
                    // A row marked with Space: `●` before its name (readable without colour).
                    if column == Column::Name && browser.is_picked(item) {
                        text = format!("{PICKED} {text}");
                        style = style.add_modifier(Modifier::BOLD);
                    }
                    // A note naming a field a column shows says nothing the row does not.
                    let shown = |note: &str| {
                        let path = note.split_once(": ").map_or(note, |(path, _)| path);
                        browser.columns.added.iter().any(|c| c.path() == path)
                    };
                    match browser.note(row) {
                        Some(note) if column == Column::Name && !shown(note) => {
                            with_note(text, style, note, w, theme)
                        }
                        _ => Line::from(Span::styled(fit(&text, w), style)),
                    }
                })
                .collect();
            if selected {
                let cells: Vec<Line<'static>> = cells
                    .into_iter()
                    .map(|cell| theme.select(cell.spans, true))
                    .collect();
                Row::new(cells).style(theme.selected(true))
            } else {
                Row::new(cells)
            }
        });
    // The sorted column's title ends in ▲ or ▼ (text, so it reads the same under NO_COLOR).
    let header = Row::new(columns.iter().map(|&c| match sort {
        Some(spec) if spec.column == c => {
            Span::styled(format!("{} {}", title(c), spec.arrow()), theme.header())
        }
        _ => Span::styled(title(c), theme.header()),
    }));
    let lengths = widths
        .iter()
        .map(|w| Constraint::Length(u16::try_from(*w).unwrap_or(u16::MAX)));
    let table = Table::new(rows, lengths)
        .header(header)
        .column_spacing(1)
        .block(block);
    frame.render_widget(table, areas.table);
}

/// Before the name of a row marked with `Space`.
const PICKED: char = '●';

/// A name and, beside it, the field `/` found the row by (`properties.owner: alice`), both cut
/// to fit `width`: the note keeps at least two thirds when the name is long (the path it names
/// says where the match was).
fn with_note(name: String, style: Style, note: &str, width: usize, theme: &Theme) -> Line<'static> {
    let note = sanitize::line(note);
    let name_width = name
        .width()
        .min(width.saturating_sub(note.width() + 2).max(width / 3));
    let name = fit(&name, name_width);
    let room = width.saturating_sub(name.width() + 2);
    Line::from(vec![
        Span::styled(name, style),
        Span::styled(format!("  {}", fit_note(&note, room)), theme.info()),
    ])
}

/// `path: value` in `room` columns: whole if it fits, else with steps in the middle of the
/// path given up for a `…` (`links…title: Runbook`: its first step and its last say where it
/// is, the value why it matched), else its last step alone (`…title: Runbook`), else cut at
/// the end.
fn fit_note(note: &str, room: usize) -> String {
    if note.width() <= room {
        return note.to_owned();
    }
    let Some((path, value)) = note.split_once(": ") else {
        return fit(note, room);
    };
    let steps = path_steps(path);
    let tail = |from: usize| steps[from..].concat().trim_start_matches('.').to_owned();
    if let Some(first) = steps.first().filter(|_| steps.len() > 2) {
        // As many of the last steps as fit after the first.
        for from in 2..steps.len() {
            let cut = format!("{first}…{}: {value}", tail(from));
            if cut.width() <= room {
                return cut;
            }
        }
    }
    let last = steps.last().map_or(path, |s| s.trim_start_matches('.'));
    fit(&format!("…{last}: {value}"), room)
}

/// A path's steps, each with what starts it: `links.links[0].title` is `links`, `.links`,
/// `[0]`, `.title`.
fn path_steps(path: &str) -> Vec<&str> {
    let mut steps = Vec::new();
    let mut start = 0;
    for (at, c) in path.char_indices() {
        if at > start && (c == '.' || c == '[') {
            steps.push(&path[start..at]);
            start = at;
        }
    }
    steps.push(&path[start..]);
    steps
}

/// A cell of a row a look marked: the name starts with the mark's symbol (readable without
/// colour); a gone row is struck through and dim, a new or changed one in the info colour.
fn marked(
    text: String,
    style: Style,
    column: Column,
    mark: Mark,
    theme: &Theme,
) -> (String, Style) {
    let text = match column {
        Column::Name => format!("{} {text}", mark.symbol()),
        _ => text,
    };
    let style = match mark {
        Mark::Gone => theme.dim().add_modifier(Modifier::CROSSED_OUT),
        Mark::New | Mark::Changed if column == Column::Name => theme.info(),
        Mark::New | Mark::Changed => style,
    };
    (text, style)
}

/// The text of one cell, sanitised, and its style.
fn cell(row: ListRow<'_>, column: Column, theme: &Theme) -> (String, Style) {
    let text = column.text(row);
    if row.malformed() {
        let style = match column {
            Column::Marker | Column::Name => theme.warning(),
            _ => theme.dim(),
        };
        return (text, style);
    }
    let style = match column {
        Column::Marker if row.marked() => theme.warning(),
        Column::Marker => theme.dim(),
        Column::Type => theme.key(),
        Column::Name => Style::new(),
        Column::Status => theme.info(),
        Column::Id | Column::ExternalId | Column::Updated => theme.dim(),
        Column::Added(_) => Style::new(),
    };
    (text, style)
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

#[cfg(test)]
mod tests {
    use super::fit_note;
    use unicode_width::UnicodeWidthStr;

    /// Issue 35 item 14: cut to its last step (`…title: Runbook`) where there was room for
    /// more, the path no longer said where the match was. Steps in its middle give way first.
    #[test]
    fn a_note_that_does_not_fit_keeps_both_ends_of_its_path() {
        let note = "links.links[0].title: Runbook";
        assert_eq!(fit_note(note, 40), note);
        assert_eq!(fit_note(note, 26), "links…[0].title: Runbook");
        assert_eq!(fit_note(note, 20), "links…title: Runbook");
        assert_eq!(fit_note(note, 16), "…title: Runbook");
        let long = "properties.deployment_settings.regions[12].owner.team: 平台";
        let fitted = fit_note(long, 36);
        assert_eq!(fitted, "properties…[12].owner.team: 平台");
        assert!(fitted.width() <= 36);
        assert_eq!(
            fit_note("properties.tags[1]: Blue Sky", 15),
            "…[1]: Blue Sky"
        );
        assert!(fit_note(note, 8).width() <= 8);
    }
}
