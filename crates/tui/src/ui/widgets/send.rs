//! The review's request head and the answer of a send, for both composers.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::app::widgets::send_flow::SendResult;
use crate::sanitize;
use crate::ui::theme::Theme;

/// What the review's keys do, for its title: under a read-only profile `Enter` sends nothing,
/// and the title says so rather than offer it.
pub(crate) fn review_keys(read_only: Option<&crate::config::ReadOnly>) -> String {
    match read_only {
        None => "Enter sends, c copies curl, Esc edits".to_owned(),
        Some(read_only) => format!("{read_only}: Enter sends nothing; c copies curl, Esc edits"),
    }
}

/// `POST <url>` and the headers (the token masked), then a blank line: the top of a review.
pub(crate) fn request_head(theme: &Theme, base_url: &str, path: &str) -> Vec<Line<'static>> {
    let url = format!("{}/{path}", base_url.trim_end_matches('/'));
    let mut lines = vec![Line::from(vec![
        Span::styled("POST ", theme.key()),
        Span::raw(sanitize::line(&url).into_owned()),
    ])];
    for header in [
        "Authorization: Bearer ••••",
        "Content-Type: application/json",
        "Accept: application/json",
    ] {
        lines.push(Line::from(Span::styled(header, theme.dim())));
    }
    lines.push(Line::default());
    lines
}

/// The body's text as pretty JSON (its numbers and strings as they are sent), from line `scroll`
/// (kept so that half the area stays filled), at most `height` lines; and the largest scroll
/// that shows a change (see [`review_bottom`]).
pub(crate) fn body_lines(body: &str, scroll: usize, height: usize) -> (Vec<Line<'static>>, usize) {
    let pretty = crate::json_text::pretty(body);
    let bottom = review_bottom(pretty.lines().count(), height);
    let lines = pretty
        .lines()
        .skip(scroll.min(bottom))
        .take(height)
        .map(|l| Line::from(sanitize::line(l).into_owned()))
        .collect();
    (lines, bottom)
}

/// The rows of a review in view: `head` rows the caller laid out, then the body's text as
/// pretty JSON (its numbers and strings as they are sent), each line wrapped at `width` columns,
/// never cut: what is sent is read whole, a 1,200-character `task_id` included. The whole
/// scrolls by `scroll` rows (kept so that half the area stays filled), `height` rows in view.
/// Returns the body's rows in view (under the head's rows from `scroll.min(bottom)` on) and the
/// largest scroll that shows a change (see [`review_bottom`]).
pub(crate) fn body_rows(
    body: &str,
    width: usize,
    (head, scroll, height): (usize, usize, usize),
) -> (Vec<Line<'static>>, usize) {
    let width = width.max(1);
    let pretty = crate::json_text::pretty(body);
    let lines: Vec<_> = pretty.lines().map(sanitize::line).collect();
    let counts: Vec<usize> = (lines.iter())
        .map(|l| crate::text::wrap_ranges(l, width, usize::MAX).len())
        .collect();
    let bottom = review_bottom(head + counts.iter().sum::<usize>(), height);
    let scroll = scroll.min(bottom);
    let room = height.saturating_sub(head.saturating_sub(scroll));
    let mut skip = scroll.saturating_sub(head);
    let mut rows = Vec::new();
    for (line, count) in lines.iter().zip(counts) {
        if rows.len() >= room {
            break;
        }
        if skip >= count {
            skip -= count;
            continue;
        }
        let wanted = skip + room - rows.len();
        let ranges = crate::text::wrap_ranges(line, width, wanted);
        rows.extend(
            (ranges.into_iter().skip(skip)).map(|range| Line::from(line[range].to_owned())),
        );
        skip = 0;
    }
    (rows, bottom)
}

/// The largest scroll of a review of `lines` lines in `height` rows: its last line halfway down,
/// so half the area stays filled.
pub(crate) fn review_bottom(lines: usize, height: usize) -> usize {
    lines.saturating_sub(height / 2)
}

/// The answer: the verdict, the service's `status`, `message`, `platform_app_url` and `error`,
/// the HTTP status and the time taken. `noun` is what was sent ("report", "connect").
pub(crate) fn render_answer(
    frame: &mut Frame,
    theme: &Theme,
    result: &SendResult,
    noun: &str,
    area: Rect,
) {
    if area.height == 0 {
        return;
    }
    let refused = format!("not accepted: fix the {noun} and send again");
    let (verdict, style) = if result.ok && result.empty {
        (
            "sent: the service accepted it with an empty answer (no body)".to_owned(),
            theme.info(),
        )
    } else if result.ok && result.unclear {
        (
            "sent: the service's answer does not say it was taken (its status is not ok)"
                .to_owned(),
            theme.warning(),
        )
    } else if result.ok {
        ("sent: the service answered ok".to_owned(), theme.info())
    } else {
        (refused, theme.error())
    };
    let http = result
        .http_status
        .map_or("no answer".to_owned(), |s| format!("HTTP {s}"));
    let title = format!(" answer · {http} · {} ms ", result.elapsed.as_millis());
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(style)
        .title(Span::styled(title, theme.title()));
    let field = |label: &str, value: &Option<String>| {
        Line::from(vec![
            Span::styled(format!("{label:<18}"), theme.key()),
            Span::raw(
                value
                    .as_deref()
                    .map_or("—".to_owned(), |v| sanitize::line(v).into_owned()),
            ),
        ])
    };
    let mut lines = vec![
        Line::from(Span::styled(verdict, style)),
        field("status", &result.status),
        field("message", &result.message),
        field("platform_app_url", &result.platform_app_url),
        field("error", &result.error),
    ];
    lines.push(Line::from(Span::styled(
        match result.platform_app_url {
            Some(_) => format!("o opens platform_app_url, y copies it, Esc back to the {noun}"),
            None => format!("Esc back to the {noun}"),
        },
        theme.dim(),
    )));
    // Below the keys, which stay in view however many values changed.
    if let Some(changes) = &result.changes {
        lines.extend(change_lines(theme, changes));
    }
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

/// What a report changed in its resource, a line a value (as the connect's diff lists its
/// changes): `changed /status: "active" → "archived"`, against the resource as listed.
pub(crate) fn change_lines(
    theme: &Theme,
    changes: &[crate::changes::Change],
) -> Vec<Line<'static>> {
    let heading = crate::app::panes::history::changes_heading(changes.len());
    let mut lines = vec![Line::from(Span::styled(heading, theme.header()))];
    lines.extend(changes.iter().map(|change| {
        let style = match change.kind() {
            "added" => theme.info(),
            "removed" => theme.warning(),
            _ => ratatui::style::Style::new(),
        };
        Line::from(Span::styled(
            sanitize::line(&change.to_string()).into_owned(),
            style,
        ))
    }));
    lines
}
