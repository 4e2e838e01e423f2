//! The connect composer: the payload editor (line numbers, finding marks), the findings (or the
//! answer), the outline of its types and the changes against the newest known version of the
//! app; the picker of where to start; the review, breaking changes first.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use crate::app::layout;
use crate::app::panes::connect::new_app::Inferring;
use crate::app::panes::connect::{ConnectComposer, ConnectPart, Picker};
use crate::app::widgets::send_flow::Phase;
use crate::diff::{Change, Impact};
use crate::sanitize;
use crate::text::counted;
use crate::ui::theme::Theme;
use crate::ui::widgets::json_editor::{self, FindingsText};
use crate::ui::widgets::send;
use crate::validate::Severity;

/// What stands for the whole payload where a finding has an empty pointer.
const PAYLOAD: &str = "(payload)";

pub(crate) fn render(
    frame: &mut Frame,
    composer: &ConnectComposer,
    theme: &Theme,
    area: Rect,
    read_only: Option<&crate::config::ReadOnly>,
) {
    if let Some(picker) = &composer.picker {
        render_picker(frame, picker, theme, area);
        return;
    }
    if let (true, Some(inferring)) = (composer.waiting_for_inference(), composer.inferring) {
        render_inferring(frame, inferring, theme, area);
        return;
    }
    if let Phase::Review { body, armed } = &composer.phase {
        let keys = send::review_keys(read_only);
        let review = (body, *armed, keys.as_str(), read_only.is_some());
        render_review(frame, composer, review, theme, area);
        return;
    }
    let areas = composer.areas(area);
    render_editor(frame, composer, theme, areas.editor);
    match &composer.phase {
        Phase::Answered(result) => {
            send::render_answer(frame, theme, result, "connect", areas.bottom)
        }
        _ => {
            let findings: Vec<_> = composer.findings.iter().map(|l| &l.finding).collect();
            let text = FindingsText {
                none: "the payload passes the checks of appdeck validate",
                whole: PAYLOAD,
            };
            let focused = composer.focus == ConnectPart::Findings;
            let state = (composer.finding, focused, composer.checking.is_some());
            json_editor::render_findings(frame, theme, &findings, state, &text, areas.bottom);
        }
    }
    render_outline(frame, composer, theme, areas.outline);
    render_diff(frame, composer, theme, areas.diff);
}

/// A pane's frame; a title longer than the pane ends in `…` rather than stopping mid-word.
fn block<'a>(theme: &Theme, title: String, focused: bool, area: Rect) -> Block<'a> {
    let width = usize::from(area.width.saturating_sub(2));
    theme
        .focus_block(focused)
        .title(Span::styled(crate::text::fit(&title, width), theme.title()))
}

fn render_picker(frame: &mut Frame, picker: &Picker, theme: &Theme, area: Rect) {
    let lines: Vec<Line> = picker
        .starts
        .iter()
        .enumerate()
        .map(|(i, start)| {
            let selected = i == picker.cursor;
            let marker = if selected { "▶ " } else { "  " };
            let line = Line::from(format!("{marker}{}", sanitize::line(&start.label())));
            if selected {
                line.style(theme.selected(true))
            } else {
                line
            }
        })
        .collect();
    let title = " Connect: start from (Enter), Esc back ".to_owned();
    frame.render_widget(
        Paragraph::new(lines).block(block(theme, title, true, area)),
        area,
    );
}

/// A new app's composer while its types are inferred in the background.
fn render_inferring(frame: &mut Frame, inferring: Inferring, theme: &Theme, area: Rect) {
    let lines = vec![
        Line::from(format!(
            "Inferring a resource type definition for each type among the {} loaded in the \
             list…",
            counted(inferring.rows, "row")
        )),
        Line::from(Span::styled(
            "The payload opens here, ready to edit, when they are done.",
            theme.dim(),
        )),
    ];
    let title = " Connect: new app · Esc goes back ".to_owned();
    let paragraph = Paragraph::new(lines)
        .block(block(theme, title, true, area))
        .wrap(ratatui::widgets::Wrap { trim: false });
    frame.render_widget(paragraph, area);
}

fn render_editor(frame: &mut Frame, composer: &ConnectComposer, theme: &Theme, area: Rect) {
    if area.height == 0 {
        return;
    }
    let focused = composer.focus == ConnectPart::Payload;
    let title = match &composer.phase {
        Phase::Sending { .. } => " Connect: sending… (Esc cancels) ".to_owned(),
        _ => {
            let mode = if composer.editing {
                "editing: Esc leaves"
            } else {
                "Enter edits, e $EDITOR, u/^r undo/redo"
            };
            format!(" Connect payload (JSON) · {mode}{} ", composer.draft.cue())
        }
    };
    let marks = composer
        .findings
        .iter()
        .map(|l| (l.at.0, l.finding.severity));
    let block = block(theme, title, focused, area);
    json_editor::render_marked(frame, theme, &composer.payload, marks, block, area);
}

fn render_outline(frame: &mut Frame, composer: &ConnectComposer, theme: &Theme, area: Rect) {
    if area.height == 0 {
        return;
    }
    let focused = composer.focus == ConnectPart::Outline;
    let title = format!(
        " outline: {} · Enter goes to one ",
        counted(composer.outline.len(), "type")
    );
    let block = block(theme, title, focused, area);
    let inner = block.inner(area);
    let (height, width) = (usize::from(inner.height), usize::from(inner.width));
    let offset = (composer.outline_cursor + 1).saturating_sub(height);
    let lines: Vec<Line> = if composer.outline.is_empty() {
        vec![Line::from(Span::styled(
            "no types in the payload",
            theme.dim(),
        ))]
    } else {
        composer
            .outline
            .iter()
            .enumerate()
            .skip(offset)
            .take(height)
            .map(|(i, entry)| {
                let actions = if entry.actions.is_empty() {
                    String::new()
                } else {
                    format!(" · {}", sanitize::line(&entry.actions.join(", ")))
                };
                let selected = focused && i == composer.outline_cursor;
                // A type's actions cut at the border end in `…`, never passing for all of them.
                let mut line = Line::from(crate::ui::text::fit_spans(
                    vec![
                        Span::raw(if selected { "▶ " } else { "  " }),
                        Span::styled(format!("{} ", entry.capabilities), theme.dim()),
                        Span::styled(sanitize::line(&entry.name).into_owned(), theme.key()),
                        Span::raw(actions),
                    ],
                    width,
                ));
                if selected {
                    line = line.style(theme.selected(true));
                }
                line
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// One change as a line: its impact, where, and why.
fn change_line<'a>(theme: &Theme, change: &Change) -> Line<'a> {
    let style = match change.impact {
        Impact::Breaking | Impact::Unknown => theme.error(),
        Impact::NonBreaking => theme.dim(),
    };
    Line::from(vec![
        Span::styled(format!("{} ", change.impact.label()), style),
        Span::styled(sanitize::line(&change.subject).into_owned(), theme.key()),
        Span::raw(format!(
            ": {} ({})",
            sanitize::line(&change.reason),
            sanitize::line(&change.path)
        )),
    ])
}

fn render_diff(frame: &mut Frame, composer: &ConnectComposer, theme: &Theme, area: Rect) {
    if area.height == 0 {
        return;
    }
    let focused = composer.focus == ConnectPart::Diff;
    let diff = &composer.diff;
    let title = match (&diff.against, &diff.changes, composer.checking) {
        (_, _, Some(_)) => " diff: comparing… ".to_owned(),
        (None, _, None) if diff.not_json => " diff: the payload is not JSON ".to_owned(),
        (None, _, None) => " diff: no known version of this app ".to_owned(),
        (Some(b), Some(c), None) => format!(
            " diff: {} breaking of {} · vs {} {} ",
            c.breaking().count(),
            c.changes.len(),
            sanitize::line(&b.app_id),
            sanitize::line(&b.version),
        ),
        (Some(b), None, None) => format!(
            " diff vs {} {} ",
            sanitize::line(&b.app_id),
            sanitize::line(&b.version)
        ),
    };
    let block = block(theme, title, focused, area);
    let height = usize::from(block.inner(area).height);
    let lines: Vec<Line> = match &diff.changes {
        Some(changes) if !changes.is_empty() => {
            let offset = (diff.cursor + 1).saturating_sub(height);
            changes
                .in_review_order()
                .into_iter()
                .enumerate()
                .skip(offset)
                .take(height)
                .map(|(i, change)| {
                    let mut line = change_line(theme, change);
                    if focused && i == diff.cursor {
                        line.spans.insert(0, Span::raw("▶ "));
                        line.style(theme.selected(true))
                    } else {
                        line
                    }
                })
                .collect()
        }
        Some(_) => vec![Line::from(Span::styled(
            "no change against that version",
            theme.dim(),
        ))],
        None if diff.against.is_none() && !diff.not_json => vec![Line::from(Span::styled(
            "nothing to compare: a first version breaks nobody",
            theme.dim(),
        ))],
        None => vec![Line::from(Span::styled(
            "the payload is not JSON: nothing compared",
            theme.dim(),
        ))],
    };
    // A change's reason matters more than the width: it wraps.
    let paragraph = Paragraph::new(lines)
        .block(block)
        .wrap(ratatui::widgets::Wrap { trim: false });
    frame.render_widget(paragraph, area);
}

fn render_review(
    frame: &mut Frame,
    composer: &ConnectComposer,
    (body, armed, keys, read_only): (&crate::app::Body, bool, &str, bool),
    theme: &Theme,
    area: Rect,
) {
    let title = format!(" Review: the changes and the exact request ({keys}) ");
    let block = block(theme, title, true, area);
    let inner = layout::inset(area);
    let mut lines = Vec::new();
    let (breaking, errors) = (composer.breaking_count(), composer.error_count());
    if breaking > 0 || errors > 0 {
        let found = format!(
            "{}, {} the checks reject",
            counted(breaking, "breaking change"),
            counted(errors, "finding")
        );
        // Under a read-only profile no Enter sends: the title says so, and nothing here offers it.
        let text = match (armed, read_only) {
            (_, true) => found,
            (true, false) => "press Enter again to send anyway".to_owned(),
            (false, false) => format!("{found}: Enter twice sends anyway"),
        };
        lines.push(Line::from(Span::styled(text, theme.warning())));
    }
    // What the checks reject, by name: a placeholder `app_id` says what to replace.
    let rejected = composer.findings.iter().map(|l| &l.finding);
    lines.extend(
        rejected
            .filter(|f| f.severity == Severity::Error)
            .map(|f| json_editor::finding_line(theme, f, PAYLOAD)),
    );
    match (&composer.diff.against, &composer.diff.changes) {
        (Some(b), Some(changes)) => {
            lines.push(Line::from(Span::styled(
                format!(
                    "against {} {} ({}): {}, breaking first",
                    sanitize::line(&b.app_id),
                    sanitize::line(&b.version),
                    sanitize::line(&b.source),
                    counted(changes.changes.len(), "change")
                ),
                theme.key(),
            )));
            lines.extend(
                changes
                    .in_review_order()
                    .into_iter()
                    .map(|c| change_line(theme, c)),
            );
        }
        _ => lines.push(Line::from(Span::styled(
            "no known version of this app: nothing to compare",
            theme.dim(),
        ))),
    }
    lines.push(Line::default());
    lines.extend(send::request_head(
        theme,
        &composer.base_url,
        "apps.version.connect",
    ));
    let height = usize::from(inner.height);
    lines.extend(send::body_lines(body.text(), 0, usize::MAX).0);
    let bottom = send::review_bottom(lines.len(), height);
    composer.review_bottom.set(Some(bottom));
    let scroll = composer.review_scroll.min(bottom);
    let lines: Vec<Line> = lines.into_iter().skip(scroll).take(height).collect();
    let paragraph = Paragraph::new(lines)
        .block(block)
        .wrap(ratatui::widgets::Wrap { trim: false });
    frame.render_widget(paragraph, area);
}
