//! A type's detail: a line naming the pages, then the panes of the focused page. Each pane
//! renders only the lines in view. The focused pane's border and title are marked with `▶`
//! and its selected line reversed, so focus and selection show without colour too.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use crate::app::panes::type_detail::layout::MARKER_WIDTH;
use crate::app::panes::type_detail::schema::SchemaTree;
use crate::app::panes::type_detail::{AboutKind, AboutLine, TypeDetail, TypePart};
use crate::text::fit;
use crate::ui::theme::{SELECTED_MARKER, Theme};

/// Width of the about pane's label column (as the lines were wrapped for).
const LABEL_WIDTH: usize = 13;

pub(crate) fn render(frame: &mut Frame, detail: &TypeDetail, theme: &Theme, body: Rect) {
    let areas = detail.areas(body);
    render_tabs(theme, frame, detail, areas.tabs);
    for pane in TypePart::ALL {
        let area = areas.pane(pane);
        if area.is_empty() {
            continue;
        }
        let focused = detail.focus == pane;
        let rows = areas.rows(pane);
        let cursor = detail.cursor(pane);
        let len = detail.pane_len(pane);
        let height = usize::from(rows.height);
        let width = usize::from(rows.width);
        let range = cursor.offset.min(len)..(cursor.offset + height).min(len);
        // Instructions scroll; the other parts have a selected line, marked in a column of its own.
        let selectable = pane != TypePart::Instructions;
        let width = match selectable {
            true => width.saturating_sub(MARKER_WIDTH),
            false => width,
        };
        let lines: Vec<Line> = range
            .map(|i| {
                let line = match pane {
                    TypePart::About => about_line(theme, &detail.about[i], width),
                    TypePart::Instructions => {
                        let mut line = detail.instructions[i].clone();
                        line.style = theme.content(line.style);
                        for span in &mut line.spans {
                            span.style = theme.content(span.style);
                        }
                        line
                    }
                    TypePart::Schemas => {
                        schema_line(theme, &detail.schemas, detail.schemas.visible()[i], width)
                    }
                    TypePart::Raw => Line::raw(fit(&detail.raw[i], width)),
                };
                if !selectable {
                    return line;
                }
                let chosen = i == cursor.selected;
                let marker = if chosen { SELECTED_MARKER } else { " " };
                let line = Line::from_iter(std::iter::once(Span::raw(marker)).chain(line.spans))
                    .style(line.style);
                match chosen {
                    true => line.patch_style(selected(theme, focused)),
                    false => line,
                }
            })
            .collect();
        let marker = if focused { "▶ " } else { "" };
        let mut block = theme.focus_block(focused).title(Span::styled(
            format!(" {marker}{} ", pane_title(detail, pane)),
            if focused { theme.title() } else { theme.dim() },
        ));
        if len > height {
            block = block.title_bottom(
                Line::styled(format!(" {}/{} ", cursor.selected + 1, len), theme.dim())
                    .right_aligned(),
            );
        }
        frame.render_widget(block, area);
        let content = if len == 0 {
            Paragraph::new(Line::styled(empty_text(pane), theme.dim()))
        } else {
            Paragraph::new(lines)
        };
        frame.render_widget(content, rows);
        if pane == TypePart::Schemas
            && let Some(node_area) = areas.node
        {
            render_node(theme, frame, detail, node_area);
        }
    }
}

/// Reversed and bold when focused, so it shows without colour.
fn selected(theme: &Theme, focused: bool) -> Style {
    if focused {
        theme.selected(true).add_modifier(Modifier::REVERSED)
    } else {
        theme.selected(false).add_modifier(Modifier::UNDERLINED)
    }
}

fn render_tabs(theme: &Theme, frame: &mut Frame, detail: &TypeDetail, area: Rect) {
    let page = detail.focus.page();
    let mut spans = vec![Span::styled(
        format!(" {} ", fit(&detail.title, 40)),
        theme.title(),
    )];
    for (i, name) in ["Overview", "Schemas · Raw JSON"].iter().enumerate() {
        if i == page {
            spans.push(Span::styled(
                format!("[{name}]"),
                theme.title().add_modifier(Modifier::REVERSED),
            ));
        } else {
            spans.push(Span::styled(format!(" {name} "), theme.dim()));
        }
        spans.push(Span::raw(" "));
    }
    spans.push(Span::styled("Tab next pane", theme.dim()));
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn pane_title(detail: &TypeDetail, pane: TypePart) -> String {
    match pane {
        TypePart::About => format!("About {}", fit(&detail.title, 40)),
        TypePart::Instructions => "Instructions".to_owned(),
        TypePart::Schemas => format!("Schemas ({})", count_roots(&detail.schemas)),
        TypePart::Raw => "Raw JSON".to_owned(),
    }
}

fn count_roots(tree: &SchemaTree) -> usize {
    (0..tree.len())
        .filter(|&i| tree.node(i).is_some_and(|n| n.depth == 0))
        .count()
}

fn empty_text(pane: TypePart) -> &'static str {
    match pane {
        TypePart::About => "nothing known",
        TypePart::Instructions => "no instructions (instructions_markdown is not set)",
        TypePart::Schemas => "no schemas",
        TypePart::Raw => "no definition",
    }
}

fn about_line(theme: &Theme, line: &AboutLine, width: usize) -> Line<'static> {
    match line.kind {
        AboutKind::Section => Line::styled(format!("── {} ", line.label), theme.header()),
        AboutKind::Link => Line::from(vec![
            Span::raw(" ".repeat(2)),
            Span::styled(
                fit(&line.text, width.saturating_sub(2)),
                theme.info().add_modifier(Modifier::UNDERLINED),
            ),
        ]),
        AboutKind::Action => Line::from(vec![
            Span::raw("  "),
            Span::styled(
                fit(&line.text, width.saturating_sub(2)),
                theme.key().add_modifier(Modifier::BOLD),
            ),
        ]),
        kind => {
            let label = format!("{:<w$}", fit(&line.label, LABEL_WIDTH - 1), w = LABEL_WIDTH);
            let style = if kind == AboutKind::Note {
                theme.warning()
            } else {
                Style::new()
            };
            let indent = label;
            let rest = width.saturating_sub(indent.chars().count());
            Line::from(vec![
                Span::styled(indent, theme.key()),
                Span::styled(fit(&line.text, rest), style),
            ])
        }
    }
}

/// `▾ name <string|null> required → #/$defs/x  format: email`.
fn schema_line(theme: &Theme, tree: &SchemaTree, index: usize, width: usize) -> Line<'static> {
    let Some(node) = tree.node(index) else {
        return Line::default();
    };
    let marker = match (node.has_children(index), tree.is_expanded(index)) {
        (true, true) => "▾ ",
        (true, false) => "▸ ",
        _ => "  ",
    };
    let name_style = if node.depth == 0 {
        theme.header()
    } else {
        theme.key()
    };
    let mut spans = vec![
        Span::raw("  ".repeat(node.depth.min(30))),
        Span::styled(marker, theme.dim()),
        Span::styled(node.name.clone(), name_style),
        Span::styled(format!(" <{}>", node.types), theme.info()),
    ];
    if node.required {
        spans.push(Span::styled(
            " required",
            theme.warning().add_modifier(Modifier::BOLD),
        ));
    }
    if let Some(role) = node.role {
        spans.push(Span::styled(format!(" ({role})"), theme.dim()));
    }
    if !node.reference.is_empty() {
        let style = if node.cycle {
            theme.warning()
        } else {
            theme.extra_key()
        };
        let mark = if node.cycle { " ⟲" } else { "" };
        spans.push(Span::styled(format!("{}{mark}", node.reference), style));
    }
    if !node.facts.is_empty() {
        spans.push(Span::styled(format!("  {}", node.facts), theme.dim()));
    }
    if let Some(description) = &node.description {
        let first = description.lines().next().unwrap_or_default();
        spans.push(Span::styled(format!("  {first}"), theme.dim()));
    }
    Line::from(crate::ui::text::cut_spans(spans, width))
}

/// The selected schema field in full: constraints and description, wrapped.
fn render_node(theme: &Theme, frame: &mut Frame, detail: &TypeDetail, area: Rect) {
    let selected = detail.cursor(TypePart::Schemas).selected;
    let Some(node) = detail
        .schemas
        .visible()
        .get(selected)
        .and_then(|&i| detail.schemas.node(i))
    else {
        return;
    };
    let mut lines = vec![Line::from(vec![
        Span::styled("─ ", theme.dim()),
        Span::styled(node.name.clone(), theme.key()),
        Span::styled(format!(" <{}>", node.types), theme.info()),
        Span::styled(
            if node.required {
                " required"
            } else {
                " optional"
            },
            theme.dim(),
        ),
        Span::styled(node.reference.clone(), theme.extra_key()),
    ])];
    if !node.facts.is_empty() {
        lines.push(Line::styled(node.facts.clone(), theme.dim()));
    }
    if let Some(description) = &node.description {
        lines.extend(description.lines().map(|l| Line::raw(l.to_owned())));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: false }), area);
}
