//! The detail view: fields and links on the left, the properties tree and its raw JSON on the
//! right. Each pane renders only the lines in view.

use std::time::Instant;

use chrono::{DateTime, Utc};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::app::layout;
use crate::app::panes::detail::{
    Detail, DetailPart, FieldKind, FieldLine, LABEL_WIDTH, relative_time,
};
use crate::app::widgets::json_tree::TreeLine;
use crate::text::fit;
use crate::ui::text::{fit_spans, highlight, slice_spans};
use crate::ui::theme::{SELECTED_MARKER, Theme};

pub(crate) fn render(
    frame: &mut Frame,
    detail: &Detail,
    theme: &Theme,
    body: Rect,
    (now, kept_now): (DateTime<Utc>, Instant),
) {
    let areas = detail.areas(body);
    let needle = detail
        .search
        .as_ref()
        .map(|s| s.input.text().to_lowercase())
        .unwrap_or_default();
    for (pane, area) in DetailPart::ALL.into_iter().zip(areas.panes) {
        if area.is_empty() {
            // Not shown: the screen is too low for all panes at once.
            continue;
        }
        let focused = detail.focus == pane;
        let inner = layout::inset(area);
        let cursor = detail.cursor(pane);
        let height = usize::from(inner.height);
        // One column of gutter for the selection marker.
        let width = usize::from(inner.width).saturating_sub(1);
        let range = cursor.offset..(cursor.offset + height).min(detail.pane_len(pane));
        let hits = if focused { needle.as_str() } else { "" };
        let lines: Vec<Line> = if pane == DetailPart::Raw && detail.raw_wrap {
            wrapped_raw_lines(detail, focused, width, height, hits, theme)
        } else {
            range
                .clone()
                .map(|i| {
                    let selected = i == cursor.selected;
                    let marker = if selected { SELECTED_MARKER } else { " " };
                    let mut spans = vec![Span::raw(marker)];
                    spans.extend(match pane {
                        DetailPart::Fields => {
                            field_line(&detail.fields[i], now, width, hits, theme)
                        }
                        // A long value is cut at the edge, marked with `…`.
                        DetailPart::Tree => {
                            fit_spans(tree_line(&detail.tree.lines()[i], hits, theme), width)
                        }
                        DetailPart::Raw => {
                            fit_spans(raw_line(&detail.raw().lines()[i], hits, theme), width)
                        }
                    });
                    if selected {
                        theme.select(spans, focused)
                    } else {
                        Line::from(spans)
                    }
                })
                .collect()
        };
        // Cut to the border, marked `…`, rather than clipped mid-word.
        let title = fit(
            &pane_title(detail, pane, kept_now),
            usize::from(area.width.saturating_sub(2)),
        );
        let block = theme
            .focus_block(focused)
            .title(Span::styled(title, theme.pane_title(focused)));
        let block = match position(cursor.selected, detail.pane_len(pane)) {
            Some(p) => block.title_bottom(Line::styled(p, theme.dim()).right_aligned()),
            None => block,
        };
        let empty = detail.pane_len(pane) == 0;
        let paragraph = if empty {
            Paragraph::new(Line::styled(empty_text(pane), theme.dim()))
        } else {
            Paragraph::new(lines)
        };
        frame.render_widget(paragraph.block(block), area);
    }
    if let (Some(area), Some(search)) = (areas.search, &detail.search) {
        let count = if search.hits.is_empty() {
            if search.input.text().is_empty() {
                String::new()
            } else {
                "  no match".to_owned()
            }
        } else {
            format!("  {}/{}", search.current + 1, search.hits.len())
        };
        let hint = if search.editing {
            "  Enter keep · Esc cancel"
        } else if search.hits.is_empty() {
            // n/N would find nothing: only the way out is offered.
            "  Esc clears"
        } else {
            "  n/N next/previous · Esc clear"
        };
        let text = crate::sanitize::line(search.input.text()).into_owned();
        frame.render_widget(
            Paragraph::new(Line::from(vec![
                Span::styled("/", theme.title()),
                Span::raw(text),
                Span::styled(count, theme.warning()),
                Span::styled(hint, theme.dim()),
            ])),
            area,
        );
        if search.editing {
            crate::ui::text::place_cursor(frame, area, 1, &search.input);
        }
    }
}

/// The raw JSON with its long lines wrapped: from the first line in view, each line on as many
/// rows as it needs (the selection marker on its first), until the pane is full.
fn wrapped_raw_lines(
    detail: &Detail,
    focused: bool,
    width: usize,
    height: usize,
    needle: &str,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let cursor = detail.cursor(DetailPart::Raw);
    let mut rows = Vec::new();
    for (i, text) in detail.raw().lines().iter().enumerate().skip(cursor.offset) {
        if rows.len() >= height {
            break;
        }
        let room = height - rows.len();
        // Only what can be shown is styled: a line of megabytes costs what fits.
        let shown = &text[..floor_char_boundary(text, (room * width + 1) * 4)];
        let spans = raw_line(shown, needle, theme);
        let selected = i == cursor.selected;
        for (k, range) in crate::text::wrap_ranges(shown, width, room)
            .into_iter()
            .enumerate()
        {
            let marker = if selected && k == 0 {
                SELECTED_MARKER
            } else {
                " "
            };
            let mut row = vec![Span::raw(marker)];
            row.extend(slice_spans(&spans, range));
            rows.push(if selected {
                theme.select(row, focused)
            } else {
                Line::from(row)
            });
        }
    }
    rows
}

/// The largest char boundary of `text` at or below `at`.
fn floor_char_boundary(text: &str, at: usize) -> usize {
    if at >= text.len() {
        return text.len();
    }
    (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0)
}

/// `kept_now`: the instant a kept row's age counts to.
fn pane_title(detail: &Detail, pane: DetailPart, kept_now: Instant) -> String {
    match pane {
        // What is not live says so first, in words, where a narrow border cuts it last.
        DetailPart::Fields => match (detail.not_live, detail.changed_by_look) {
            (Some(not_live), _) => format!(
                " {} · {} ",
                not_live.words(kept_now),
                fit(&detail.title, 60)
            ),
            // A look's change to a large row being laid out: what shows is the text before.
            (None, _) if detail.following.is_some() => {
                format!(
                    " updating to a look's change… · {} ",
                    fit(&detail.title, 60)
                )
            }
            // The words of the list's `~` mark, and when: the detail followed a look.
            (None, Some(at)) => format!(
                " changed by a look {} ago · {} ",
                appdeck_listing::age_words(kept_now.saturating_duration_since(at)),
                fit(&detail.title, 60)
            ),
            (None, None) => format!(" {} ", fit(&detail.title, 60)),
        },
        DetailPart::Tree => " Properties ".to_owned(),
        DetailPart::Raw => format!(
            " Raw JSON · {}{} ",
            detail.raw_label(),
            if detail.raw_wrap { " · wrapped" } else { "" }
        ),
    }
}

fn empty_text(pane: DetailPart) -> &'static str {
    match pane {
        DetailPart::Fields => "no fields",
        DetailPart::Tree | DetailPart::Raw => "no properties",
    }
}

/// "12/340" in the bottom border when a pane scrolls.
fn position(selected: usize, len: usize) -> Option<String> {
    (len > 0).then(|| format!(" {}/{} ", selected + 1, len))
}

fn field_line(
    field: &FieldLine,
    now: DateTime<Utc>,
    width: usize,
    needle: &str,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let (label_style, value_style) = match field.kind {
        FieldKind::Section => (theme.header(), theme.dim()),
        FieldKind::Field => (theme.key(), Style::new()),
        FieldKind::Extra => (theme.extra_key(), Style::new()),
        FieldKind::Link | FieldKind::Report => (theme.info(), Style::new()),
        FieldKind::Problem => (theme.warning(), theme.warning()),
    };
    let label = match field.kind {
        FieldKind::Section => format!("── {} ", field.label),
        FieldKind::Problem => format!("⚠ {:<w$}", field.label, w = LABEL_WIDTH - 2),
        _ => format!(
            "{:<w$}",
            fit(&field.label, LABEL_WIDTH - 1),
            w = LABEL_WIDTH
        ),
    };
    let mut value = field.value.clone();
    if let Some(t) = field.timestamp {
        value = format!(
            "{} ({})",
            t.format("%Y-%m-%d %H:%M:%S UTC"),
            relative_time(t, now)
        );
    }
    let value = fit(&value, width.saturating_sub(label.chars().count()));
    let mut spans = highlight(&label, needle, label_style, theme.search_hit());
    spans.extend(highlight(&value, needle, value_style, theme.search_hit()));
    spans
}

fn tree_line(line: &TreeLine, needle: &str, theme: &Theme) -> Vec<Span<'static>> {
    let marker = match (line.is_container(), line.expanded) {
        (true, true) => "▾ ",
        (true, false) => "▸ ",
        _ => "  ",
    };
    let mut spans = vec![
        Span::raw("  ".repeat(line.depth)),
        Span::styled(marker, theme.dim()),
    ];
    spans.extend(highlight(
        &line.label,
        needle,
        theme.key(),
        theme.search_hit(),
    ));
    spans.push(Span::styled(": ", theme.dim()));
    spans.extend(highlight(
        &line.summary,
        needle,
        theme.json(line.kind),
        theme.search_hit(),
    ));
    spans
}

/// A pretty-JSON line, keys coloured apart from values.
fn raw_line(text: &str, needle: &str, theme: &Theme) -> Vec<Span<'static>> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('"')
        && let Some(split) = trimmed.find("\": ")
    {
        let indent = text.len() - trimmed.len();
        let key_end = indent + split + 1;
        let mut spans = highlight(&text[..key_end], needle, theme.key(), theme.search_hit());
        spans.extend(highlight(
            &text[key_end..],
            needle,
            Style::new(),
            theme.search_hit(),
        ));
        return spans;
    }
    highlight(text, needle, Style::new(), theme.search_hit())
}
