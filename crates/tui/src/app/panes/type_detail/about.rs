//! The texts of a type's first page: the about pane (description, source, capabilities spelled
//! out, links, actions) and the instructions, Markdown rendered as formatted lines. Every text
//! from the payload is neutralised here, before it is laid out.

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use serde_json::Value;
use unicode_width::UnicodeWidthChar;

use crate::api::{Field, Link};
use crate::catalog::TypeDefinition;
use crate::sanitize;

/// Width of the label column of the about pane.
pub(super) const LABEL_WIDTH: usize = 13;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AboutKind {
    /// A section heading ("Capabilities").
    Section,
    /// A labelled value.
    Field,
    /// Running text (a description), indented under its label.
    Text,
    Link,
    /// An action's name.
    Action,
    /// Something odd in the payload, or a note.
    Note,
}

/// One line of the about pane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AboutLine {
    pub kind: AboutKind,
    pub label: String,
    pub text: String,
    /// What `o` opens on this line.
    pub url: Option<String>,
    /// What `y` copies on this line (the value as it came).
    pub copy: Option<String>,
}

impl AboutLine {
    /// A line that copies its text; a line without text (a heading) copies nothing, so `y`
    /// on it says so instead of sending an empty clipboard.
    fn new(kind: AboutKind, label: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        AboutLine {
            kind,
            label: label.into(),
            copy: (!text.is_empty()).then(|| text.clone()),
            text,
            url: None,
        }
    }
}

/// The about pane of one definition, wrapped to `width` columns.
pub(super) fn about_lines(
    definition: &TypeDefinition,
    removed_in: Option<&str>,
    version: usize,
    versions: usize,
    width: usize,
) -> Vec<AboutLine> {
    let d = &definition.definition;
    let text_width = width.saturating_sub(LABEL_WIDTH).max(10);
    let mut lines = Vec::new();
    let field = |lines: &mut Vec<AboutLine>, label: &str, value: &str| {
        for (i, part) in wrap_text(&sanitize::line(value), text_width)
            .into_iter()
            .enumerate()
        {
            let label = if i == 0 { label } else { "" };
            let mut line = AboutLine::new(AboutKind::Field, label, part);
            line.copy = Some(value.to_owned());
            lines.push(line);
        }
    };
    if let Some(name) = d.display_name.get() {
        field(&mut lines, "name", name);
    }
    match d.description.get() {
        Some(description) => {
            for (i, part) in wrap_text(&sanitize::multiline(description), text_width)
                .into_iter()
                .enumerate()
            {
                let label = if i == 0 { "description" } else { "" };
                let mut line = AboutLine::new(AboutKind::Text, label, part);
                line.copy = Some(description.clone());
                lines.push(line);
            }
        }
        None => lines.push(AboutLine::new(AboutKind::Note, "description", "none given")),
    }
    field(&mut lines, "app", &definition.app_version_label());
    if let Some(newer) = removed_in {
        field(
            &mut lines,
            "removed",
            &format!("in {newer}: the app's newest known version no longer defines this type"),
        );
    }
    field(&mut lines, "source", &definition.source.to_string());
    if let Some(stage) = d.lifecycle_stage.get() {
        field(&mut lines, "stage", stage);
    }
    if versions > 1 {
        lines.push(AboutLine::new(
            AboutKind::Note,
            "versions",
            format!(
                "{} of {versions} ({}); v shows the next",
                version + 1,
                if version == 0 { "the newest" } else { "older" }
            ),
        ));
    }
    capability_lines(definition, text_width, &mut lines);
    link_lines(&d.links, text_width, &mut lines);
    action_lines(definition, text_width, &mut lines);
    lines
}

/// Capabilities spelled out: what it supports, what it does not, what it leaves unsaid.
fn capability_lines(definition: &TypeDefinition, width: usize, lines: &mut Vec<AboutLine>) {
    lines.push(AboutLine::new(AboutKind::Section, "Capabilities", ""));
    let capabilities = definition.capabilities();
    let mut groups: [(&str, Vec<&str>); 4] = [
        ("supported", Vec::new()),
        ("not", Vec::new()),
        ("not said", Vec::new()),
        ("invalid", Vec::new()),
    ];
    for (name, field) in capabilities.each() {
        let group = match field {
            Field::Valid(true) => 0,
            Field::Valid(false) => 1,
            Field::Absent | Field::Null => 2,
            Field::Invalid(_) => 3,
        };
        groups[group].1.push(name);
    }
    for (label, names) in groups {
        if !names.is_empty() {
            let kind = if label == "invalid" {
                AboutKind::Note
            } else {
                AboutKind::Field
            };
            let names = names.join(", ");
            for (i, part) in wrap_text(&names, width).into_iter().enumerate() {
                let mut line = AboutLine::new(kind, if i == 0 { label } else { "" }, part);
                line.copy = Some(names.clone());
                lines.push(line);
            }
        }
    }
}

/// The `links` of the type, read from its JSON so an odd shape is shown, not hidden.
fn link_lines(links: &Field<crate::api::Links>, width: usize, lines: &mut Vec<AboutLine>) {
    let Some(json) = links.to_json() else {
        return;
    };
    let Some(items) = json.get("links").and_then(Value::as_array) else {
        lines.push(AboutLine::new(AboutKind::Section, "Links", ""));
        lines.push(AboutLine::new(
            AboutKind::Note,
            "links",
            sanitize::line(&json.to_string()),
        ));
        return;
    };
    lines.push(AboutLine::new(
        AboutKind::Section,
        format!("Links ({})", items.len()),
        "",
    ));
    for item in items {
        let Value::Object(map) = item else {
            lines.push(AboutLine::new(
                AboutKind::Note,
                "link",
                sanitize::line(&item.to_string()),
            ));
            continue;
        };
        let link = Link::from_map(map.clone());
        let title = link.title.get().map_or("(no title)", String::as_str);
        let kind = link.link_type.get().map_or("", String::as_str);
        let url = link.url.get().cloned();
        let shown = url
            .as_deref()
            .map(|u| sanitize::line(u).into_owned())
            .unwrap_or_default();
        let mut text = sanitize::line(title).into_owned();
        if !kind.is_empty() {
            text.push_str(&format!(" [{}]", sanitize::line(kind)));
        }
        for part in wrap_text(&text, width)
            .into_iter()
            .chain(wrap_text(&shown, width))
        {
            let mut line = AboutLine::new(AboutKind::Link, "", part);
            line.url = url.clone();
            line.copy = url.clone();
            lines.push(line);
        }
    }
}

/// Each action: its name (and display name), then its description.
fn action_lines(definition: &TypeDefinition, width: usize, lines: &mut Vec<AboutLine>) {
    let d = &definition.definition;
    lines.push(AboutLine::new(
        AboutKind::Section,
        format!("Actions ({})", definition.action_count()),
        "",
    ));
    match &d.actions {
        Field::Valid(actions) => {
            if actions.is_empty() {
                lines.push(AboutLine::new(AboutKind::Note, "", "none"));
            }
            for (i, action) in actions.iter().enumerate() {
                let name = action
                    .name
                    .get()
                    .map_or_else(|| format!("#{}", i + 1), |n| sanitize::line(n).into_owned());
                let mut head = name.clone();
                if let Some(shown) = action.display_name.get() {
                    head.push_str(&format!(" · {}", sanitize::line(shown)));
                }
                let mut line = AboutLine::new(AboutKind::Action, "", head);
                line.copy = action.name.get().cloned();
                lines.push(line);
                let description = action.description.get().map_or_else(
                    || "(no description)".to_owned(),
                    |d| sanitize::multiline(d).into_owned(),
                );
                for part in wrap_text(&description, width) {
                    let mut line = AboutLine::new(AboutKind::Text, "", part);
                    line.copy = action.description.get().cloned();
                    lines.push(line);
                }
            }
        }
        Field::Absent | Field::Null => lines.push(AboutLine::new(AboutKind::Note, "", "none")),
        Field::Invalid(value) => lines.push(AboutLine::new(
            AboutKind::Note,
            "actions",
            format!("not a list: {}", sanitize::line(&value.to_string())),
        )),
    }
}

/// The instructions (`instructions_markdown`) as formatted lines: headings, emphasis, lists,
/// code blocks, tables and links, wrapped to `width`. The Markdown is neutralised before it is
/// parsed, so nothing in it can reach the terminal as a control sequence.
pub(super) fn instructions(definition: &TypeDefinition, width: usize) -> Vec<Line<'static>> {
    let markdown = match &definition.definition.instructions_markdown {
        Field::Valid(text) => text.clone(),
        Field::Invalid(value) => {
            return vec![Line::raw(format!(
                "instructions_markdown is not text: {}",
                sanitize::line(&value.to_string())
            ))];
        }
        Field::Absent | Field::Null => return Vec::new(),
    };
    let safe = sanitize::multiline(&markdown);
    let table_width = u16::try_from(width).unwrap_or(u16::MAX);
    let options = tui_markdown::Options::default().table_width(table_width);
    let text = tui_markdown::from_str_with_options(&safe, &options);
    let mut lines = Vec::new();
    for line in text.lines {
        let style = text.style.patch(line.style);
        let spans: Vec<Span<'static>> = line
            .spans
            .into_iter()
            .map(|s| Span::styled(s.content.into_owned(), style.patch(s.style)))
            .collect();
        lines.extend(wrap_spans(spans, width));
    }
    lines
}

/// Wraps styled spans at `width` columns, at the last space when there is one.
fn wrap_spans(spans: Vec<Span<'static>>, width: usize) -> Vec<Line<'static>> {
    let width = width.max(1);
    let chars: Vec<(char, Style)> = spans
        .iter()
        .flat_map(|s| s.content.chars().map(move |c| (c, s.style)))
        .collect();
    let mut rows: Vec<Vec<(char, Style)>> = Vec::new();
    let mut row: Vec<(char, Style)> = Vec::new();
    let mut used = 0;
    for (c, style) in chars {
        let w = c.width().unwrap_or(0);
        if used + w > width && !row.is_empty() {
            let cut = row
                .iter()
                .rposition(|(c, _)| *c == ' ')
                .filter(|&p| p > 0)
                .unwrap_or(row.len());
            let rest = row.split_off(cut);
            rows.push(std::mem::take(&mut row));
            row = rest.into_iter().skip_while(|(c, _)| *c == ' ').collect();
            used = row.iter().map(|(c, _)| c.width().unwrap_or(0)).sum();
        }
        row.push((c, style));
        used += w;
    }
    rows.push(row);
    rows.into_iter()
        .map(|r| Line::from(group_spans(r)))
        .collect()
}

fn group_spans(chars: Vec<(char, Style)>) -> Vec<Span<'static>> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut text = String::new();
    let mut current: Option<Style> = None;
    for (c, style) in chars {
        if current.is_some_and(|s| s != style) {
            spans.push(Span::styled(
                std::mem::take(&mut text),
                current.unwrap_or_default(),
            ));
        }
        current = Some(style);
        text.push(c);
    }
    if !text.is_empty() {
        spans.push(Span::styled(text, current.unwrap_or_default()));
    }
    spans
}

/// Plain text wrapped at `width` columns, keeping its own line breaks.
pub(super) fn wrap_text(text: &str, width: usize) -> Vec<String> {
    let mut out = Vec::new();
    for paragraph in text.trim().lines() {
        for line in wrap_spans(vec![Span::raw(paragraph.to_owned())], width) {
            out.push(line.spans.iter().map(|s| s.content.as_ref()).collect());
        }
    }
    if out.is_empty() {
        out.push(String::new());
    }
    out
}
