//! The explain tree as plain text, for `appdeck types show`: one line per field (name, types,
//! `required`, where a `$ref` led), its constraints and description on the lines below it.

use std::fmt::Write;

use super::{Explained, Node, RefState};

/// Children are indented by two spaces; a node's own details by four.
const STEP: usize = 2;
const DETAIL: usize = 4;

/// Renders a tree. Its texts were sanitised when it was built, so the result is safe to print.
pub fn render_text(explained: &Explained) -> String {
    let mut out = String::new();
    for (depth, node) in explained.root.walk() {
        let indent = depth * STEP;
        let _ = writeln!(out, "{:indent$}{}", "", headline(node));
        if !node.facts.is_empty() {
            let facts: Vec<String> = node
                .facts
                .iter()
                .map(|f| format!("{}: {}", f.key, f.value))
                .collect();
            let _ = writeln!(
                out,
                "{:width$}{}",
                "",
                facts.join("; "),
                width = indent + DETAIL
            );
        }
        if let Some(description) = &node.description {
            for line in description.lines() {
                let _ = writeln!(out, "{:width$}{line}", "", width = indent + DETAIL);
            }
        }
    }
    if explained.truncated {
        out.push_str("(some references were not expanded: the schema is very large or deep)\n");
    }
    out
}

/// `name <types>, required → #/$defs/x (cycle: not followed)`.
fn headline(node: &Node) -> String {
    let mut line = format!("{} <{}>", node.name, node.type_label());
    if node.required {
        line.push_str(", required");
    }
    if let Some(reference) = &node.reference {
        let _ = write!(line, " → {}", reference.target);
        match &reference.state {
            RefState::Resolved => {}
            RefState::Cycle => line.push_str(" (cycle: not followed)"),
            RefState::Unresolved { reason } => {
                let _ = write!(line, " (not followed: {reason})");
            }
            RefState::NotExpanded => line.push_str(" (not expanded: the schema is too large)"),
        }
    }
    line
}
