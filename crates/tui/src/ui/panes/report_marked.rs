//! A report over marked rows (`R` with rows marked, `app/panes/report/many.rs`): the words that
//! say, while it is composed and reviewed, that it goes to each marked resource; and the results
//! of its sends, a row a resource, in the place of the answer.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use unicode_width::UnicodeWidthStr;

use crate::app::panes::report::ReportComposer;
use crate::app::panes::report::many::{Marked, Run, Send};
use crate::sanitize;
use crate::text::{count, counted, fit};
use crate::ui::text::fit_spans;
use crate::ui::theme::Theme;

/// An id wider than this is cut in the results (the words after it matter more).
const ID_WIDTH: usize = 24;

/// Narrower than this, a row's verdict (`ok`, `error`) is left to its mark (`✓`, `✗`).
const WITH_VERDICT: usize = 60;

/// The composer's title over marks: how many it goes to, and whose resource is shown.
pub(super) fn title(marked: &Marked, cue: &str) -> String {
    let n = counted(marked.resources.len(), "marked resource");
    match marked.resources.first() {
        Some(first) => format!(
            " Task report to each of {n} ({} shown){cue} ",
            sanitize::line(&first.id)
        ),
        None => format!(" Task report to {n}{cue} "),
    }
}

/// The editor's title over marks: the resource shown is the first's; each carries its own.
pub(super) fn editor_title(marked: &Marked) -> String {
    let n = count(marked.resources.len());
    let first = marked.resources.first().map(|r| sanitize::line(&r.id));
    format!(
        " resource of {} (1 of {n}; each report carries its own as listed) ",
        first.unwrap_or_default()
    )
}

/// The review's first lines over marks: the request shown goes once per marked resource, each
/// with its own resource; then which resources, as many as fit on a line.
pub(super) fn review_lines(theme: &Theme, marked: &Marked, width: usize) -> [Line<'static>; 2] {
    let said = format!(
        "sends to each of {}, with its own resource as listed:",
        counted(marked.resources.len(), "marked resource")
    );
    let mut ids = String::new();
    let total = marked.resources.len();
    for (shown, resource) in marked.resources.iter().enumerate() {
        let id = sanitize::line(&resource.id);
        let next = match shown {
            0 => format!("{id} (below)"),
            _ => format!(", {id}"),
        };
        let rest = total - shown;
        // Room kept for `, … +N more` unless this is the last.
        let room = if rest > 1 {
            10 + rest.to_string().len()
        } else {
            0
        };
        if ids.width() + next.width() + room > width {
            ids += &format!(", … +{} more", count(rest));
            break;
        }
        ids += &next;
    }
    [
        Line::from(Span::styled(said, theme.warning())),
        Line::from(Span::styled(ids, theme.warning())),
    ]
}

/// The sends and their results, a row a marked resource, under a title that counts them.
pub(super) fn render_run(
    theme: &Theme,
    frame: &mut Frame,
    composer: &ReportComposer,
    run: &Run,
    area: Rect,
) {
    if area.height == 0 {
        return;
    }
    let Some(marked) = composer.marked.as_deref() else {
        return;
    };
    let total = run.sends.len();
    let (answered, ok) = run.answered();
    let failed = total - ok;
    let over = run.is_over();
    let (state, style) = match (over, run.stopped) {
        (true, _) if failed == 0 => (format!("{} ok", count(ok)), theme.info()),
        (true, _) => (
            format!("{} ok · {} failed, still marked", count(ok), count(failed)),
            theme.error(),
        ),
        (false, false) => (format!("{} ok · Esc stops", count(ok)), theme.border(true)),
        (false, true) => (
            format!(
                "{} ok · stopping: Esc cancels the sends under way",
                count(ok)
            ),
            theme.warning(),
        ),
    };
    let title = format!(
        " reports: {} of {} done · {state} ",
        count(answered),
        count(total)
    );
    let inner_width = usize::from(area.width.saturating_sub(2));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(style)
        .title(Span::styled(fit(&title, inner_width), theme.title()));
    let ids: Vec<String> = (marked.resources.iter())
        .map(|r| fit(&sanitize::line(&r.id), ID_WIDTH))
        .collect();
    let id_width = ids.iter().map(|id| id.width()).max().unwrap_or(0);
    let height = usize::from(area.height.saturating_sub(2));
    let scroll = run.scroll.min(total.saturating_sub(height));
    // Where the width is short the mark says it, and the words have the room.
    let with_verdict = inner_width >= WITH_VERDICT;
    let indent = 2 + id_width + 2 + if with_verdict { 10 } else { 0 };
    let words_width = inner_width.saturating_sub(indent).max(1);
    // A failure's reason is what the user came for: its words wrap under their column (at most
    // 3 rows) rather than being cut at the edge; an accepted report keeps to one row.
    let lines: Vec<Line> = (run.sends.iter().zip(&ids))
        .skip(scroll)
        .flat_map(|(send, id)| {
            let (mark, verdict, words, style) = shown(theme, send);
            let accepted = matches!(send, Send::Answered { ok: true, .. });
            let rows = match accepted {
                // One row, cut at the edge as every cell is.
                true => std::iter::once(0..words.len()).collect(),
                false => crate::text::wrap_ranges(&words, words_width, 3),
            };
            let mut first = vec![
                Span::styled(format!("{mark} "), style),
                Span::raw(format!("{id:<id_width$}  ")),
            ];
            if with_verdict {
                first.push(Span::styled(format!("{verdict:<10}"), style));
            }
            let mut rows = rows.into_iter().map(|r| words[r].trim_start().to_owned());
            first.push(Span::raw(rows.next().unwrap_or_default()));
            let first = Line::from(fit_spans(first, inner_width));
            let rest = rows
                .map(move |row| Line::from(format!("{:indent$}{}", "", fit(&row, words_width))));
            std::iter::once(first).chain(rest).collect::<Vec<_>>()
        })
        .take(height)
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// A send's row: its mark, its verdict (`ok`, `error`...), what came of it, and its style.
fn shown(theme: &Theme, send: &Send) -> (&'static str, &'static str, String, Style) {
    match send {
        Send::Waiting(_) => ("·", "waiting", String::new(), theme.dim()),
        Send::InFlight { .. } => ("…", "sending", String::new(), theme.dim()),
        Send::Answered { ok: true, words } => ("✓", "ok", words.clone(), theme.info()),
        Send::Answered { ok: false, words } => ("✗", "error", words.clone(), theme.error()),
        Send::Cancelled => (
            "✗",
            "cancelled",
            "in flight: the service may have received it".to_owned(),
            theme.warning(),
        ),
        Send::NotSent(why) => (
            "-",
            "not sent",
            sanitize::line(why).into_owned(),
            theme.dim(),
        ),
    }
}
