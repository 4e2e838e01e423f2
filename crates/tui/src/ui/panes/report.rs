//! The report composer: its fields, the resource editor with line numbers and the lines that
//! have findings marked, the findings (or the answer), and the review of the exact request.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};

use crate::app::layout;
use crate::app::panes::report::check::PROVISIONAL_PREFIX;
use crate::app::panes::report::{Field, Kept, Phase, ReportComposer, SendResult, Unparsed};
use crate::config::ReadOnly;
use crate::sanitize;
use crate::text::{counted, fit};
use crate::ui::text::{fit_spans, wrap_line};
use crate::ui::theme::Theme;
use crate::ui::widgets::json_editor::{self, FindingsText};
use crate::ui::widgets::send;

/// What stands for the whole report where a finding has an empty pointer.
const REPORT: &str = "(report)";

pub(crate) fn render(
    frame: &mut Frame,
    composer: &ReportComposer,
    theme: &Theme,
    area: Rect,
    read_only: Option<&ReadOnly>,
) {
    if let Some(run) = composer.marked.as_deref().and_then(|m| m.run.as_ref()) {
        // The results take the place of the editor and the answer; on a low screen, all of it.
        let areas = composer.areas(area);
        let results = if area.height < 16 {
            area
        } else {
            render_fields(theme, frame, composer, areas.fields);
            Rect::new(
                area.x,
                areas.editor.y,
                area.width,
                area.bottom() - areas.editor.y,
            )
        };
        super::report_marked::render_run(theme, frame, composer, run, results);
        return;
    }
    if let Phase::Review { body, armed } = &composer.phase {
        let keys = send::review_keys(read_only);
        let review = (body, *armed, keys.as_str(), read_only.is_some());
        render_review(theme, frame, composer, review, area);
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

fn render_fields(theme: &Theme, frame: &mut Frame, composer: &ReportComposer, area: Rect) {
    let title = match &composer.phase {
        Phase::Sending { .. } => " Task report: sending… (Esc cancels) ".to_owned(),
        _ if composer.marked.is_some() => match composer.marked.as_deref() {
            Some(marked) => super::report_marked::title(marked, &draft_cue(composer)),
            None => String::new(),
        },
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
    let block = theme
        .focus_block(focused)
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
            let shown = match composer.kept(*field) {
                // Sent without it, as the file had it: say so rather than show an empty string.
                Some(Kept::Absent) => Span::styled("(absent)", theme.dim()),
                _ => Span::styled(sanitize::line(value).into_owned(), value_style),
            };
            let mut spans = vec![
                Span::raw(marker),
                Span::styled(format!("{:<14}", field.label()), label_style),
                shown,
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
fn draft_cue(composer: &ReportComposer) -> String {
    composer.draft.cue()
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
            " edited report, not JSON · e edits it again, X drops it ",
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

fn render_editor(theme: &Theme, frame: &mut Frame, composer: &ReportComposer, area: Rect) {
    if area.height == 0 {
        return;
    }
    let focused = composer.field == Field::Resource;
    let mode = if composer.editing && focused {
        "editing: Esc leaves"
    } else {
        "Enter edits, f fills, u/^r undo/redo"
    };
    let title = match composer.marked.as_deref() {
        Some(marked) => super::report_marked::editor_title(marked),
        None => format!(" resource (JSON) · {mode} "),
    };
    let block = theme
        .focus_block(focused)
        .title(Span::styled(title, theme.title()));
    let marks = composer
        .findings
        .iter()
        .filter_map(|l| Some((l.line()?, l.finding.severity)));
    json_editor::render_marked(frame, theme, &composer.resource, marks, block, area);
}

fn render_findings(theme: &Theme, frame: &mut Frame, composer: &ReportComposer, area: Rect) {
    let findings: Vec<_> = composer.findings.iter().map(|l| &l.finding).collect();
    let focused = composer.field == Field::Findings;
    let text = FindingsText {
        none: "the report passes the checks of appdeck validate",
        whole: REPORT,
    };
    let state = (composer.finding, focused, composer.checking.is_some());
    json_editor::render_findings(frame, theme, &findings, state, &text, area);
}

fn render_answer(theme: &Theme, frame: &mut Frame, result: &SendResult, area: Rect) {
    send::render_answer(frame, theme, result, "report", area);
}

fn render_review(
    theme: &Theme,
    frame: &mut Frame,
    composer: &ReportComposer,
    (body, armed, keys, read_only): (&crate::app::Body, bool, &str, bool),
    area: Rect,
) {
    let inner = layout::inset(area);
    let width = usize::from(inner.width);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(Span::styled(
            fit(&format!(" Review: the exact request ({keys}) "), width),
            theme.title(),
        ));
    let mut lines = Vec::new();
    if let Some(marked) = composer.marked.as_deref() {
        lines.extend(super::report_marked::review_lines(theme, marked, width));
    }
    let errors = composer.findings.len();
    if errors > 0 {
        let findings = counted(errors, "finding");
        // Under a read-only profile no Enter sends: the title says so, and nothing here offers it.
        let text = match (armed, read_only) {
            (_, true) => format!("{findings}: the checks reject this report"),
            (true, false) => format!("{findings}: press Enter again to send anyway"),
            (false, false) => {
                format!("{findings}: the checks reject this report; Enter twice sends it anyway")
            }
        };
        lines.push(Line::from(Span::styled(text, theme.warning())));
        // Which ones, by name, in at most half the review: the request stays in sight below.
        let findings: Vec<_> = composer.findings.iter().map(|l| &l.finding).collect();
        let room = usize::from(inner.height).saturating_sub(1) / 2;
        lines.extend(json_editor::review_findings(
            theme,
            &findings,
            REPORT,
            (width, room),
        ));
    }
    if composer.task_id.text().starts_with(PROVISIONAL_PREFIX) {
        // Sent as it is, the report would be filed under a task that does not exist.
        lines.push(Line::from(Span::styled(
            "warning: task_id is still the provisional one appdeck made up: Esc, then write the \
             task's id",
            theme.warning(),
        )));
    }
    lines.extend(send::request_head(
        theme,
        &composer.context.base_url,
        "apps.operations.report",
    ));
    // Every line wraps and the whole scrolls, as the connect's review does: the user confirms
    // the request whole, at any size.
    let head: Vec<Line> = (lines.into_iter())
        .flat_map(|l| wrap_line(l, width))
        .collect();
    let (body_rows, bottom) = send::body_rows(
        body.text(),
        width,
        (
            head.len(),
            composer.review_scroll,
            usize::from(inner.height),
        ),
    );
    composer.review_bottom.set(Some(bottom));
    let skipped = composer.review_scroll.min(bottom);
    let mut rows: Vec<Line> = head.into_iter().skip(skipped).collect();
    rows.extend(body_rows);
    frame.render_widget(Paragraph::new(rows).block(block), area);
}
