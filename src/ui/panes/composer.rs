//! The report composer: its fields, the resource editor with line numbers and the lines that
//! have findings marked, the findings (or the answer), and the review of the exact request.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph, Wrap};

use crate::app::layout;
use crate::app::panes::composer::draft::age_words;
use crate::app::panes::composer::{Composer, Field, Phase, SendResult, Unparsed};
use crate::sanitize;
use crate::text::fit;
use crate::ui::text::fit_spans;
use crate::ui::theme::Theme;
use crate::validate::Severity;

pub fn render(frame: &mut Frame, composer: &Composer, theme: &Theme, area: Rect) {
    if let Phase::Review { body, armed } = &composer.phase {
        render_review(theme, frame, composer, body, *armed, area);
        return;
    }
    let areas = composer.areas(area);
    render_fields(theme, frame, composer, areas.fields);
    if let Some(unparsed) = &composer.unparsed {
        let below = Rect {
            height: areas.editor.height + areas.bottom.height,
            ..areas.editor
        };
        render_unparsed(theme, frame, unparsed, below);
        return;
    }
    render_editor(theme, frame, composer, areas.editor);
    match &composer.phase {
        Phase::Answered(result) => render_answer(theme, frame, result, areas.bottom),
        _ => render_findings(theme, frame, composer, areas.bottom),
    }
}

fn render_fields(theme: &Theme, frame: &mut Frame, composer: &Composer, area: Rect) {
    let title = match &composer.phase {
        Phase::Sending { .. } => " Task report: sending… (Esc cancels) ".to_owned(),
        _ => match &composer.resource_id {
            Some(id) => format!(
                " Task report about {}{} ",
                sanitize::line(id),
                draft_cue(composer)
            ),
            None => format!(" Task report (new resource){} ", draft_cue(composer)),
        },
    };
    let focused = composer.field != Field::Resource && composer.field != Field::Findings;
    // Anything cut at the border ends in `…`, the title as the fields.
    let width = usize::from(area.width.saturating_sub(2));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(Span::styled(fit(&title, width), theme.title()));
    let rows = [
        (Field::TaskId, composer.task_id.text().to_owned()),
        (Field::Status, composer.status.clone()),
        (Field::Message, composer.message.text().to_owned()),
        (
            Field::ResponseType,
            composer.response_type.text().to_owned(),
        ),
    ];
    let lines: Vec<Line> = rows
        .iter()
        .map(|(field, value)| {
            let selected = composer.field == *field;
            let marker = if selected { "▸ " } else { "  " };
            let mut value_style = Style::default();
            if *field == Field::TaskId && composer.task_id_provisional {
                // Selected: the first key typed replaces it.
                value_style = value_style.add_modifier(Modifier::REVERSED);
            }
            let label_style = if selected {
                theme.selected(true)
            } else {
                theme.key()
            };
            let mut spans = vec![
                Span::raw(marker),
                Span::styled(format!("{:<14}", field.label()), label_style),
                Span::styled(sanitize::line(value).into_owned(), value_style),
            ];
            if *field == Field::Status {
                spans.push(Span::styled("  (Space toggles)", theme.dim()));
            }
            if composer.findings_on(*field) > 0 {
                spans.push(Span::styled("  ●", theme.error()));
            }
            Line::from(fit_spans(spans, width))
        })
        .collect();
    let inner = block.inner(area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
    if composer.editing && composer.field != Field::Resource {
        let row = match composer.field {
            Field::TaskId => 0,
            Field::Message => 2,
            _ => 3,
        };
        let input = match composer.field {
            Field::TaskId => &composer.task_id,
            Field::Message => &composer.message,
            _ => &composer.response_type,
        };
        if row < inner.height {
            let line = Rect::new(inner.x, inner.y + row, inner.width, 1);
            crate::ui::text::place_cursor(frame, line, 16, input);
        }
    }
}

/// Where the draft stands, for the title: saved, not saved, or restored.
fn draft_cue(composer: &Composer) -> String {
    let draft = &composer.draft;
    match (&draft.saved, &draft.restored, draft.unsaved) {
        (Some(Ok(())), _, None) => " · draft saved".to_owned(),
        (Some(Err(_)), _, _) => " · draft not saved".to_owned(),
        (_, Some(restored), _) => format!(
            " · draft from {} ago (D discards it)",
            age_words(restored.age)
        ),
        _ => String::new(),
    }
}

/// The report as the external editor left it, not JSON: its syntax error, then its text with
/// line numbers, kept until it is edited again or dropped.
fn render_unparsed(theme: &Theme, frame: &mut Frame, unparsed: &Unparsed, area: Rect) {
    if area.height == 0 {
        return;
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.error())
        .title(Span::styled(
            " edited report, not JSON · e edits it again, x drops it ",
            theme.title(),
        ));
    let mut lines = vec![Line::from(Span::styled(
        sanitize::line(&unparsed.error).into_owned(),
        theme.error(),
    ))];
    let count = unparsed.text.lines().count().max(1);
    let width = count.to_string().len();
    lines.extend(unparsed.text.lines().enumerate().map(|(i, text)| {
        Line::from(vec![
            Span::styled(format!("{:>width$} ", i + 1), theme.dim()),
            Span::raw(sanitize::line(text).into_owned()),
        ])
    }));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn render_editor(theme: &Theme, frame: &mut Frame, composer: &Composer, area: Rect) {
    if area.height == 0 {
        return;
    }
    let focused = composer.field == Field::Resource;
    let mode = if composer.editing && focused {
        "editing: Esc leaves"
    } else {
        "Enter edits, f fills, u/^r undo/redo"
    };
    let title = format!(" resource (JSON) · {mode} ");
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(Span::styled(title, theme.title()));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.width < 2 || inner.height == 0 {
        return;
    }
    // One column on the left marks the lines that have findings.
    let marks = Rect::new(inner.x, inner.y, 1, inner.height);
    let text = Rect::new(inner.x + 1, inner.y, inner.width - 1, inner.height);
    frame.render_widget(&composer.resource, text);
    theme.uncolour(frame.buffer_mut(), text);
    let (top, _) = composer.resource.scroll_offset();
    let top = usize::from(top);
    for located in &composer.findings {
        let Some(line) = located.line() else { continue };
        if line >= top && line < top + usize::from(marks.height) {
            let row = marks.y + (line - top) as u16;
            let style = match located.finding.severity {
                Severity::Error => theme.error(),
                Severity::Warning => theme.warning(),
            };
            frame.render_widget(
                Paragraph::new(Span::styled("●", style)),
                Rect::new(marks.x, row, 1, 1),
            );
        }
    }
}

fn render_findings(theme: &Theme, frame: &mut Frame, composer: &Composer, area: Rect) {
    if area.height == 0 {
        return;
    }
    let focused = composer.field == Field::Findings;
    let title = match (composer.findings.len(), composer.checking.is_some()) {
        (_, true) => " findings: checking… ".to_owned(),
        (0, false) => " findings: none ".to_owned(),
        (n, false) => format!(" findings: {n} (Enter goes to one, n/N next/previous) "),
    };
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(focused))
        .title(Span::styled(title, theme.title()));
    let height = usize::from(block.inner(area).height);
    let offset = if composer.finding >= height {
        composer.finding + 1 - height
    } else {
        0
    };
    let lines: Vec<Line> = if composer.findings.is_empty() {
        vec![Line::from(Span::styled(
            "the report passes the checks of appdeck validate",
            theme.dim(),
        ))]
    } else {
        composer
            .findings
            .iter()
            .enumerate()
            .skip(offset)
            .take(height)
            .map(|(i, located)| {
                let finding = &located.finding;
                let style = match finding.severity {
                    Severity::Error => theme.error(),
                    Severity::Warning => theme.warning(),
                };
                let pointer = if finding.pointer.is_empty() {
                    "(report)".to_owned()
                } else {
                    sanitize::line(&finding.pointer).into_owned()
                };
                let mut line = Line::from(vec![
                    Span::styled(format!("{} ", finding.severity), style),
                    Span::styled(pointer, theme.key()),
                    Span::raw(": "),
                    Span::raw(sanitize::line(&finding.message).into_owned()),
                ]);
                if focused && i == composer.finding {
                    line = line.style(theme.selected(true));
                }
                line
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

fn render_answer(theme: &Theme, frame: &mut Frame, result: &SendResult, area: Rect) {
    if area.height == 0 {
        return;
    }
    let (verdict, style) = if result.ok {
        ("sent: the service answered ok", theme.info())
    } else {
        ("not accepted: fix the report and send again", theme.error())
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
    let lines = vec![
        Line::from(Span::styled(verdict, style)),
        field("status", &result.status),
        field("message", &result.message),
        field("platform_app_url", &result.platform_app_url),
        field("error", &result.error),
        Line::from(Span::styled(
            "o opens platform_app_url, y copies it, Esc back to the report",
            theme.dim(),
        )),
    ];
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

fn render_review(
    theme: &Theme,
    frame: &mut Frame,
    composer: &Composer,
    body: &serde_json::Value,
    armed: bool,
    area: Rect,
) {
    let inner = layout::inset(area);
    let width = usize::from(inner.width);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(Span::styled(
            fit(
                " Review: the exact request (Enter sends, c copies curl, Esc edits) ",
                width,
            ),
            theme.title(),
        ));
    let url = format!(
        "{}/apps.operations.report",
        composer.context.base_url.trim_end_matches('/')
    );
    let mut lines = Vec::new();
    let errors = composer.findings.len();
    if errors > 0 {
        let text = if armed {
            format!("{errors} finding(s): press Enter again to send anyway")
        } else {
            format!(
                "{errors} finding(s): the checks reject this report; Enter twice sends it anyway"
            )
        };
        lines.push(Line::from(Span::styled(text, theme.warning())));
    }
    lines.push(Line::from(vec![
        Span::styled("POST ", theme.key()),
        Span::raw(sanitize::line(&url).into_owned()),
    ]));
    for header in [
        "Authorization: Bearer ••••",
        "Content-Type: application/json",
        "Accept: application/json",
    ] {
        lines.push(Line::from(Span::styled(header, theme.dim())));
    }
    lines.push(Line::default());
    let pretty = serde_json::to_string_pretty(body).unwrap_or_default();
    let max_scroll = pretty
        .lines()
        .count()
        .saturating_sub(usize::from(inner.height) / 2);
    let scroll = composer.review_scroll.min(max_scroll);
    lines.extend(
        pretty
            .lines()
            .skip(scroll)
            .take(usize::from(inner.height))
            .map(|l| Line::from(sanitize::line(l).into_owned())),
    );
    // A line cut at the border ends in `…`: a cut URL or value never passes for a whole one.
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|l| Line::from(fit_spans(l.spans, width)).style(l.style))
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
