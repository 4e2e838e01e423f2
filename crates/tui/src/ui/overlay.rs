//! The popups: `?` help, the `:` command line, the type picker, the error details, a value in
//! full and the question before quitting.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::popup_clear::PopupClear;
use super::theme::Theme;
use crate::app::layout;
use crate::app::overlay::command_line;
use crate::app::overlay::value::ValuePopup;
use crate::app::overlay::{
    CommandLine, ErrorPopup, ErrorReport, HELP_LABEL_WIDTH, Help, QuitAsk, TypePicker,
};
use crate::sanitize;
use crate::text::{count, fit};
use crate::ui::theme::SELECTED_MARKER;

fn popup_block(theme: &Theme, title: String) -> Block<'static> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(Span::styled(title, theme.title()))
}

pub(super) fn render_help(frame: &mut Frame, help: &Help, theme: &Theme, area: Rect) {
    let entries = help.lines();
    let popup = help.popup(area);
    let in_view = help.rows_in_view(area);
    let where_ = help.keys.name;
    frame.render_widget(PopupClear, popup);
    let mut block = popup_block(theme, format!(" Keys · {where_} "));
    // Where the view is, when not everything fits.
    if entries.len() > in_view {
        let last = (help.scroll + in_view).min(entries.len());
        block = block.title_bottom(
            Line::styled(
                format!(
                    " ↑↓ PgUp/PgDn · {}-{last}/{} ",
                    help.scroll + 1,
                    entries.len()
                ),
                theme.dim(),
            )
            .right_aligned(),
        );
    }
    // The reminder only where it does not run into the position.
    let block = if entries.len() <= in_view || popup.width >= 50 {
        block.title_bottom(Line::styled(" type to filter · Esc ", theme.dim()))
    } else {
        block
    };
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let width = usize::from(inner.width);
    let mut lines = vec![Line::from(vec![
        Span::styled("filter: ", theme.dim()),
        Span::raw(sanitize::line(help.filter.text()).into_owned()),
    ])];
    if entries.is_empty() {
        lines.push(Line::styled("nothing matches", theme.dim()));
    }
    for entry in entries.iter().skip(help.scroll).take(in_view) {
        if entry.label.is_empty() {
            lines.push(Line::styled(fit(entry.text, width), theme.header()));
        } else {
            let label = format!("  {:<1$}", entry.label, HELP_LABEL_WIDTH - 2);
            let room = width.saturating_sub(label.chars().count());
            lines.push(Line::from(vec![
                Span::styled(label, theme.title()),
                Span::raw(fit(entry.text, room)),
            ]));
        }
    }
    frame.render_widget(Paragraph::new(lines), inner);
    super::text::place_cursor(frame, inner, 8, &help.filter);
}

/// The command line sits on the footer's row; Tab's candidates (or, on an empty line, the
/// commands) go just above it.
pub(super) fn render_command_line(
    frame: &mut Frame,
    line: &CommandLine,
    theme: &Theme,
    footer: Rect,
) {
    let text = sanitize::line(line.input.text()).into_owned();
    frame.render_widget(Clear, footer);
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(":", theme.title()),
            Span::raw(text),
        ])),
        footer,
    );
    super::text::place_cursor(frame, footer, 1, &line.input);
    let room = usize::from(footer.width);
    let note = match line.candidates.is_empty() {
        false => {
            // Type names come from the service: neutralised before they are measured.
            let clean: Vec<String> = (line.candidates.iter())
                .map(|c| sanitize::line(c).into_owned())
                .collect();
            let items: Vec<&str> = clean.iter().map(String::as_str).collect();
            let chosen = command_line::chosen(line.input.text(), &line.candidates);
            Some(Line::styled(
                command_line::candidates_row(&items, chosen, room),
                theme.warning(),
            ))
        }
        true if line.input.text().is_empty() => {
            let commands: Vec<&str> = command_line::COMMANDS.iter().map(|(c, _)| *c).collect();
            Some(Line::styled(
                command_line::candidates_row(&commands, None, room),
                theme.dim(),
            ))
        }
        _ => None,
    };
    if let Some(note) = note
        && footer.y > 0
    {
        let above = Rect {
            y: footer.y - 1,
            ..footer
        };
        frame.render_widget(Clear, above);
        frame.render_widget(Paragraph::new(note).style(theme.status_bar()), above);
    }
}

/// The type picker: the filter line, then the matching types with their loaded rows, the one
/// listed now marked `✓`.
pub(super) fn render_type_picker(
    frame: &mut Frame,
    picker: &TypePicker,
    theme: &Theme,
    area: Rect,
) {
    // Border, filter line, and at least one row (for "nothing matches").
    let rows = picker.visible.len().max(1) as u16;
    let popup = layout::centered(area, 44, rows.saturating_add(3).min(22));
    frame.render_widget(PopupClear, popup);
    let legend = " ✓ listed now · rows loaded ";
    let mut block = popup_block(theme, " Type filter ".to_owned());
    if usize::from(popup.width) >= legend.chars().count() + 2 {
        block = block.title_bottom(Line::styled(legend, theme.dim()).right_aligned());
    }
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let width = usize::from(inner.width);
    let mut lines = vec![Line::from(vec![
        Span::styled("filter: ", theme.dim()),
        Span::raw(sanitize::line(picker.filter.text()).into_owned()),
    ])];
    if picker.visible.is_empty() {
        lines.push(Line::styled("no type matches", theme.dim()));
    }
    let visible = usize::from(inner.height.saturating_sub(1));
    let start = picker
        .cursor
        .selected
        .saturating_sub(visible.saturating_sub(1));
    for (at, &index) in picker.visible.iter().enumerate().skip(start).take(visible) {
        let option = &picker.options[index];
        let selected = at == picker.cursor.selected;
        let marker = if selected { SELECTED_MARKER } else { " " };
        let current = if option.name == picker.current {
            "✓ "
        } else {
            "  "
        };
        let count = option.count.map(count).unwrap_or_default();
        let room = width.saturating_sub(3 + count.chars().count() + 1);
        let label = fit(&sanitize::line(option.label()), room);
        let pad = room.saturating_sub(unicode_width::UnicodeWidthStr::width(label.as_str()));
        let spans = vec![
            Span::raw(marker),
            Span::styled(current, theme.info()),
            Span::raw(format!("{label}{} ", " ".repeat(pad))),
            Span::styled(count, theme.dim()),
        ];
        lines.push(if selected {
            theme.select(spans, true)
        } else {
            Line::from(spans)
        });
    }
    frame.render_widget(Paragraph::new(lines), inner);
    super::text::place_cursor(frame, inner, 8, &picker.filter);
}

/// A value in full: wrapped to the popup, scrolled, with where it is in the title and the
/// position and keys in the bottom border.
pub(super) fn render_value(frame: &mut Frame, popup: &ValuePopup, theme: &Theme, body: Rect) {
    let area = popup.area(body);
    let inner = popup.text_area(body);
    let height = usize::from(inner.height);
    frame.render_widget(PopupClear, area);
    let mut block = popup_block(
        theme,
        format!(
            " {} ",
            fit(&popup.title, usize::from(inner.width).saturating_sub(2))
        ),
    );
    let rows = popup.row_count();
    let keys = " y copy · Esc close ";
    let position = (rows > height).then(|| {
        format!(
            " {}-{}/{} ",
            popup.scroll + 1,
            (popup.scroll + height).min(rows),
            rows
        )
    });
    let room = usize::from(area.width).saturating_sub(2);
    let position_width = position.as_ref().map_or(0, |p| p.chars().count());
    if keys.chars().count() + position_width <= room {
        block = block.title_bottom(Line::styled(keys, theme.dim()));
    }
    if let Some(position) = position
        && position_width <= room
    {
        block = block.title_bottom(Line::styled(position, theme.dim()).right_aligned());
    }
    let lines: Vec<Line> = (popup.scroll..(popup.scroll + height).min(rows))
        .filter_map(|r| popup.row(r))
        .map(|text| Line::raw(text.to_owned()))
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// The error popup is this wide at most; as high as its text, up to the screen.
const ERROR_WIDTH: u16 = 72;
const ERROR_MIN_HEIGHT: u16 = 12;

pub(super) fn render_error(frame: &mut Frame, popup_state: &ErrorPopup, theme: &Theme, area: Rect) {
    let report = &popup_state.report;
    let mut lines = vec![
        Line::styled(format!("While {}:", report.doing), theme.dim()),
        Line::raw(""),
        Line::styled(report.message.clone(), theme.error()),
    ];
    if let Some(hint) = &report.hint {
        lines.push(Line::raw(""));
        lines.push(Line::styled(format!("Hint: {hint}"), theme.warning()));
    }
    let exchange = exchange_lines(report, theme);
    if !exchange.is_empty() {
        lines.push(Line::raw(""));
        lines.extend(exchange.iter().cloned());
    }
    let text_width = ERROR_WIDTH.min(area.width).saturating_sub(2);
    let wanted = super::text::wrapped_height(&lines, text_width).saturating_add(2);
    let popup = layout::centered(area, ERROR_WIDTH, wanted.max(ERROR_MIN_HEIGHT));
    frame.render_widget(PopupClear, popup);
    let block = popup_block(theme, " Error ".to_owned())
        .border_style(theme.error())
        .title_bottom(Line::styled(" Esc close · j/k scroll ", theme.dim()));
    // On a tiny screen the error itself comes first, and j/k scroll to the rest.
    if super::text::wrapped_height(&lines, layout::inset(popup).width) > layout::inset(popup).height
    {
        lines = vec![
            Line::styled(report.message.clone(), theme.error()),
            Line::styled(format!("(while {})", report.doing), theme.dim()),
        ];
        if let Some(hint) = &report.hint {
            lines.push(Line::styled(format!("Hint: {hint}"), theme.warning()));
        }
        lines.extend(exchange);
    }
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((popup_state.scroll.min(u16::MAX as usize) as u16, 0))
            .block(block),
        popup,
    );
}

/// The request that failed, the status and the start of the answer, when the service answered.
fn exchange_lines(report: &ErrorReport, theme: &Theme) -> Vec<Line<'static>> {
    let Some(exchange) = &report.exchange else {
        return Vec::new();
    };
    let field = |label: &'static str, value: String| {
        Line::from(vec![Span::styled(label, theme.dim()), Span::raw(value)])
    };
    let body = if exchange.body_start.is_empty() {
        "(empty)".to_owned()
    } else {
        exchange.body_start.clone()
    };
    vec![
        field("Request  ", exchange.request.clone()),
        field("Status   ", format!("HTTP {}", exchange.status)),
        field("Answer   ", body),
    ]
}

/// The question before quitting is this wide at most.
const QUIT_WIDTH: u16 = 64;

/// `q` with a draft the store did not take: what would be lost and why, whole (wrapped), and
/// what each answer does.
pub(super) fn render_quit(frame: &mut Frame, ask: &QuitAsk, quit: &str, theme: &Theme, area: Rect) {
    let mut lines = Vec::new();
    for work in &ask.unsaved {
        lines.push(Line::styled(
            format!("The store did not take the {} as a draft:", work.what),
            theme.title(),
        ));
        lines.push(Line::styled(
            sanitize::line(&work.why).into_owned(),
            theme.error(),
        ));
        lines.push(Line::raw(""));
    }
    lines.push(Line::from(vec![
        Span::styled(format!("{quit} "), theme.key()),
        Span::raw(
            "quits all the same: the text is kept in a file, whose name appdeck prints as it \
             exits.",
        ),
    ]));
    lines.push(Line::from(vec![
        Span::styled("Esc ", theme.key()),
        Span::raw("stays: the draft is saved again at the next change."),
    ]));
    let text_width = QUIT_WIDTH.min(area.width).saturating_sub(2);
    let wanted = super::text::wrapped_height(&lines, text_width).saturating_add(2);
    let popup = layout::centered(area, QUIT_WIDTH, wanted);
    frame.render_widget(PopupClear, popup);
    let block = popup_block(theme, " Quit? ".to_owned())
        .border_style(theme.error())
        .title_bottom(Line::styled(
            format!(" {quit} quit · Esc stay "),
            theme.dim(),
        ));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block),
        popup,
    );
}
