//! The overview: the loaded rows by type and by status as two horizontal bar charts side by
//! side (the bar under the cursor marked `▶` and in the selection style, so it shows without
//! colour), and their `updated_at` over time as a histogram below, dated at both ends.

use chrono::DateTime;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Sparkline};
use unicode_width::UnicodeWidthStr;

use crate::app::panes::overview::{Overview, OverviewPart};
use crate::sanitize;
use crate::text::{count, counted, fit};
use crate::ui::theme::{SELECTED_MARKER, Theme};

mod bars;
#[cfg(test)]
mod tests;

use bars::{BarColumns, bar_cells};

/// Rows the histogram takes at least: its bars, the dates under them and the border.
const HISTOGRAM_HEIGHT: u16 = 7;

/// `kept`: how long ago the rows counted were kept, when they are rows kept from the last run.
pub(crate) fn render(
    frame: &mut Frame,
    overview: &Overview,
    theme: &Theme,
    body: Rect,
    kept: Option<std::time::Duration>,
) {
    // The charts are as tall as their longest needs (and the histogram takes the rest), but
    // leave the histogram its height first.
    let bars = (overview.bar_count(OverviewPart::Types))
        .max(overview.bar_count(OverviewPart::Statuses))
        .max(1);
    let charts_height = u16::try_from(bars + 2).unwrap_or(u16::MAX);
    let room = body.height.saturating_sub(1 + HISTOGRAM_HEIGHT);
    // Too short for both: the charts, without the histogram.
    let charts_height = match room {
        0..3 => body.height.saturating_sub(1),
        room => charts_height.min(room),
    };
    let [header, charts, histogram] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(charts_height),
        Constraint::Min(0),
    ])
    .areas(body);
    frame.render_widget(
        Paragraph::new(Span::styled(
            fit(&header_text(overview, kept), usize::from(header.width)),
            theme.title(),
        )),
        header,
    );
    let [types, statuses] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(charts);
    render_chart(frame, overview, OverviewPart::Types, theme, types);
    render_chart(frame, overview, OverviewPart::Statuses, theme, statuses);
    render_histogram(frame, overview, theme, histogram);
}

/// What the charts count: how many rows, of which type, and whether the service has more; rows
/// kept from the last run are said to be, never counted as live ones.
fn header_text(overview: &Overview, kept: Option<std::time::Duration>) -> String {
    let summary = &overview.summary;
    let of = match &summary.type_filter {
        Some(t) => format!("type {}", sanitize::line(t)),
        None => "all types".to_owned(),
    };
    if let Some(age) = kept {
        return format!(
            "Overview · {} kept {} ago, not live · {of}",
            counted(summary.rows, "row"),
            crate::app::panes::browser::kept::age_words(age)
        );
    }
    let more = if summary.more {
        "more pages exist"
    } else {
        "all loaded"
    };
    format!(
        "Overview · {} loaded · {of} · {more}",
        counted(summary.rows, "row")
    )
}

fn render_chart(
    frame: &mut Frame,
    overview: &Overview,
    part: OverviewPart,
    theme: &Theme,
    area: Rect,
) {
    let focused = overview.focus == part;
    let bars = overview.bars(part);
    let name = match part {
        OverviewPart::Types => "By type",
        OverviewPart::Statuses => "By status",
    };
    let block = theme.focus_block(focused).title(Span::styled(
        format!(" {name} ({}) ", count(bars.len())),
        theme.pane_title(focused),
    ));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // Every row loaded has a bar, `(none)` included: no bars, no rows.
    if bars.is_empty() {
        let text = Span::styled("No rows loaded.", theme.dim());
        frame.render_widget(Paragraph::new(text), inner);
        return;
    }
    // The bars in view: from the top, scrolled so that the selected one shows.
    let height = usize::from(inner.height).max(1);
    let selected = overview.selected(part);
    let first = (selected + 1).saturating_sub(height);
    let columns = BarColumns::of(&bars, usize::from(inner.width));
    let lines: Vec<Line> = bars
        .iter()
        .enumerate()
        .skip(first)
        .take(height)
        .map(|(i, bar)| {
            let marker = if i == selected { SELECTED_MARKER } else { " " };
            // Padded by display width: a wide character takes two cells, not one.
            let name = fit(&sanitize::line(bar.label()), columns.name);
            let pad = " ".repeat(columns.name.saturating_sub(name.width()));
            let label = format!(
                "{marker} {name}{pad} {:>width$} ",
                count(bar.rows),
                width = columns.count
            );
            let label = if i == selected {
                Span::styled(label, theme.selected(focused))
            } else {
                Span::raw(label)
            };
            let cells = "█".repeat(bar_cells(bar.rows, columns.most, columns.bar));
            Line::from(vec![label, Span::styled(cells, theme.info())])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), inner);
}

fn render_histogram(frame: &mut Frame, overview: &Overview, theme: &Theme, area: Rect) {
    if area.height < 3 {
        return;
    }
    let columns = usize::from(area.width.saturating_sub(2));
    let histogram = overview.histogram(columns);
    let mut title = " Updated (UTC) ".to_owned();
    if let Some(histogram) = &histogram {
        // The scale and the width of a bar, so that a bar's height reads as a number.
        title.push_str(&format!(
            "· {} buckets · max {} ",
            hours_words(histogram.hours_per_bucket),
            count(usize::try_from(histogram.most()).unwrap_or(usize::MAX))
        ));
    }
    let undated = overview.summary.undated;
    if undated > 0 {
        title.push_str(&format!("· {} without a date ", count(undated)));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(false))
        .title(Span::styled(title, theme.pane_title(false)));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let Some(histogram) = histogram else {
        let text = "No loaded row has an updated_at date.";
        frame.render_widget(Paragraph::new(Span::styled(text, theme.dim())), inner);
        return;
    };
    let [bars, dates] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(inner);
    // Each bucket as wide as the room allows, all of them the same.
    let len = histogram.buckets.len().max(1);
    let repeat = (usize::from(bars.width) / len).max(1);
    let data: Vec<u64> = (histogram.buckets.iter())
        .flat_map(|&n| std::iter::repeat_n(n, repeat))
        .collect();
    let drawn = u16::try_from(data.len())
        .unwrap_or(u16::MAX)
        .min(bars.width);
    frame.render_widget(
        Sparkline::default().data(&data).style(theme.info()),
        Rect {
            width: drawn,
            ..bars
        },
    );
    let date = |seconds: i64| {
        DateTime::from_timestamp(seconds, 0)
            .map_or_else(String::new, |d| d.format("%Y-%m-%d %H:00").to_string())
    };
    let (from, to) = (date(histogram.first), date(histogram.last));
    // The dates under the ends of the bars, where they fit there.
    let both = from.chars().count() + to.chars().count() + 1;
    let under = if usize::from(drawn) >= both {
        drawn
    } else {
        dates.width
    };
    let gap = usize::from(under).saturating_sub(from.chars().count() + to.chars().count());
    let line = if histogram.first == histogram.last {
        from
    } else {
        format!("{from}{}{to}", " ".repeat(gap.max(1)))
    };
    frame.render_widget(
        Paragraph::new(Span::styled(
            fit(&line, usize::from(dates.width)),
            theme.dim(),
        )),
        dates,
    );
}

/// `1 h`, `6 h`, `1 day`, `3 days`: a bucket's width.
fn hours_words(hours: i64) -> String {
    match (hours % 24, hours / 24) {
        (0, 1) => "1 day".to_owned(),
        (0, days) if days > 1 => format!("{days} days"),
        _ => format!("{hours} h"),
    }
}
