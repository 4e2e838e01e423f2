//! A collapsible view of a JSON value (a resource's `properties`). Only the lines of expanded
//! nodes are materialised, so a 5 MB value costs what its expanded part costs, not the whole.

use std::collections::HashSet;
use std::sync::Arc;
use unicode_width::UnicodeWidthStr;

use serde_json::Value;

use crate::json_text::child_pointer;
use crate::sanitize;

/// Longest preview of a scalar on a tree line; the raw view shows the rest.
const PREVIEW_CHARS: usize = 200;
/// A value with at most this many nodes opens fully expanded; a larger one shows its top level.
const EXPAND_ALL_UP_TO: usize = 300;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum JsonKind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

impl JsonKind {
    pub(crate) fn of(value: &Value) -> Self {
        match value {
            Value::Null => JsonKind::Null,
            Value::Bool(_) => JsonKind::Bool,
            Value::Number(_) => JsonKind::Number,
            Value::String(_) => JsonKind::String,
            Value::Array(_) => JsonKind::Array,
            Value::Object(_) => JsonKind::Object,
        }
    }
}

/// One visible line of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TreeLine {
    pub depth: usize,
    /// The key (sanitised) or `[index]`.
    pub label: String,
    /// JSON pointer of the node inside the root.
    pub pointer: String,
    pub kind: JsonKind,
    /// A scalar's value, or a container's size such as `{3}` or `[10]`.
    pub summary: String,
    pub expanded: bool,
}

impl TreeLine {
    pub(crate) fn is_container(&self) -> bool {
        matches!(self.kind, JsonKind::Array | JsonKind::Object)
    }
}

#[derive(Clone, Debug, Default)]
pub struct JsonTree {
    root: Arc<Value>,
    expanded: HashSet<String>,
    lines: Vec<TreeLine>,
    /// The cells the widest visible line takes, for the detail view to share its width by.
    widest: usize,
}

impl JsonTree {
    pub(crate) fn new(root: Arc<Value>) -> Self {
        let mut tree = JsonTree {
            root,
            ..JsonTree::default()
        };
        if count_nodes(&tree.root, EXPAND_ALL_UP_TO + 1) <= EXPAND_ALL_UP_TO {
            let mut all = HashSet::new();
            collect_containers(&tree.root, String::new(), &mut all);
            tree.expanded = all;
        }
        tree.rebuild();
        tree
    }

    pub(crate) fn lines(&self) -> &[TreeLine] {
        &self.lines
    }

    /// The cells the widest visible line takes as drawn (indent, marker, `label: summary`).
    pub(crate) fn widest(&self) -> usize {
        self.widest
    }

    pub(crate) fn root(&self) -> &Value {
        &self.root
    }

    /// Expands or collapses the container at `line`; returns whether anything changed.
    pub(crate) fn set_expanded(&mut self, line: usize, expand: bool) -> bool {
        let Some(node) = self.lines.get(line) else {
            return false;
        };
        if !node.is_container() || node.expanded == expand {
            return false;
        }
        let pointer = node.pointer.clone();
        if expand {
            self.expanded.insert(pointer);
        } else {
            self.expanded.remove(&pointer);
        }
        self.rebuild();
        true
    }

    /// The line of the parent container of `line`, for `h` on a leaf.
    pub(crate) fn parent_line(&self, line: usize) -> Option<usize> {
        let depth = self.lines.get(line)?.depth;
        self.lines[..line]
            .iter()
            .rposition(|l| l.depth + 1 == depth)
    }

    /// Pointers of every node (collapsed ones too) whose key or scalar value contains `needle`
    /// (lowercase), in document order, at most `limit`.
    pub(crate) fn search(&self, needle: &str, limit: usize) -> Vec<String> {
        let mut found = Vec::new();
        if !needle.is_empty() {
            search_value(&self.root, String::new(), needle, limit, &mut found);
        }
        found
    }

    /// Makes the node at `pointer` visible (expanding its ancestors) and returns its line.
    pub(crate) fn reveal(&mut self, pointer: &str) -> Option<usize> {
        let mut changed = false;
        let mut end = 0;
        while let Some(pos) = pointer[end + 1..].find('/').map(|p| p + end + 1) {
            changed |= self.expanded.insert(pointer[..pos].to_owned());
            end = pos;
        }
        if changed {
            self.rebuild();
        }
        self.lines.iter().position(|l| l.pointer == pointer)
    }

    /// This tree of a value's new version, folded as the reader left `was`: a container both
    /// have is open or closed as it was there; one only this tree has keeps its own state.
    pub(crate) fn keep_folds_of(&mut self, was: &JsonTree) {
        let container = |root: &Value, pointer: &str| {
            (root.pointer(pointer)).is_some_and(|v| v.is_object() || v.is_array())
        };
        let mut expanded: HashSet<String> = (self.expanded.iter())
            .filter(|p| !container(&was.root, p))
            .cloned()
            .collect();
        expanded.extend(
            (was.expanded.iter())
                .filter(|p| container(&self.root, p))
                .cloned(),
        );
        if expanded != self.expanded {
            self.expanded = expanded;
            self.rebuild();
        }
    }

    fn rebuild(&mut self) {
        let mut lines = Vec::new();
        push_children(&self.root, "", 0, &self.expanded, &mut lines);
        self.widest = (lines.iter())
            .map(|l| 2 * l.depth + 2 + l.label.width() + 2 + l.summary.width())
            .max()
            .unwrap_or(0);
        self.lines = lines;
    }
}

fn push_children(
    value: &Value,
    pointer: &str,
    depth: usize,
    expanded: &HashSet<String>,
    out: &mut Vec<TreeLine>,
) {
    let mut push = |label: String, child: &Value, child_pointer: String| {
        let is_open = expanded.contains(&child_pointer);
        out.push(TreeLine {
            depth,
            label,
            pointer: child_pointer.clone(),
            kind: JsonKind::of(child),
            summary: summary(child),
            expanded: is_open,
        });
        if is_open {
            push_children(child, &child_pointer, depth + 1, expanded, out);
        }
    };
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                push(
                    sanitize::line(key).into_owned(),
                    child,
                    child_pointer(pointer, key),
                );
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                push(format!("[{i}]"), child, format!("{pointer}/{i}"));
            }
        }
        _ => {}
    }
}

/// How a node reads on its line: scalars as JSON, containers by their size.
pub(crate) fn summary(value: &Value) -> String {
    match value {
        Value::Object(map) => format!("{{{}}}", map.len()),
        Value::Array(items) => format!("[{}]", items.len()),
        Value::String(s) => {
            let mut preview: String = sanitize::line(s).chars().take(PREVIEW_CHARS).collect();
            if s.chars().count() > PREVIEW_CHARS {
                preview.push('…');
            }
            format!("\"{preview}\"")
        }
        other => other.to_string(),
    }
}

fn count_nodes(value: &Value, stop_at: usize) -> usize {
    fn walk(value: &Value, count: &mut usize, stop_at: usize) {
        *count += 1;
        if *count >= stop_at {
            return;
        }
        match value {
            Value::Object(map) => map.values().for_each(|v| walk(v, count, stop_at)),
            Value::Array(items) => items.iter().for_each(|v| walk(v, count, stop_at)),
            _ => {}
        }
    }
    let mut count = 0;
    walk(value, &mut count, stop_at);
    count
}

fn collect_containers(value: &Value, pointer: String, out: &mut HashSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let p = child_pointer(&pointer, key);
                if child.is_object() || child.is_array() {
                    out.insert(p.clone());
                    collect_containers(child, p, out);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let p = format!("{pointer}/{i}");
                if child.is_object() || child.is_array() {
                    out.insert(p.clone());
                    collect_containers(child, p, out);
                }
            }
        }
        _ => {}
    }
}

fn search_value(value: &Value, pointer: String, needle: &str, limit: usize, out: &mut Vec<String>) {
    let visit = |key: &str, child: &Value, p: String, out: &mut Vec<String>| {
        if out.len() >= limit {
            return;
        }
        let scalar_hit = match child {
            Value::String(s) => s.to_lowercase().contains(needle),
            Value::Number(_) | Value::Bool(_) | Value::Null => child.to_string().contains(needle),
            _ => false,
        };
        if key.to_lowercase().contains(needle) || scalar_hit {
            out.push(p.clone());
        }
        search_value(child, p, needle, limit, out);
    };
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                visit(key, child, child_pointer(&pointer, key), out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                visit("", child, format!("{pointer}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tree(value: Value) -> JsonTree {
        JsonTree::new(Arc::new(value))
    }

    /// A detail following a look's change keeps the reader's folds on the containers both
    /// versions have; a container new in the change opens as a new tree's would.
    #[test]
    fn a_new_version_keeps_the_folds_of_the_containers_it_shares() {
        let mut was = tree(json!({"a": {"x": 1}, "b": {"y": 2}, "gone": [1]}));
        let a = was.lines().iter().position(|l| l.pointer == "/a").unwrap();
        assert!(was.set_expanded(a, false));
        let mut now = tree(json!({"a": {"x": 3}, "b": {"y": 2}, "c": {"z": 4}}));
        now.keep_folds_of(&was);
        let open: Vec<(&str, bool)> = (now.lines().iter())
            .filter(|l| l.is_container())
            .map(|l| (l.pointer.as_str(), l.expanded))
            .collect();
        assert_eq!(open, [("/a", false), ("/b", true), ("/c", true)]);
    }

    #[test]
    fn small_values_open_fully() {
        let t = tree(json!({"a": {"b": [1, "x"]}, "c": null}));
        let labels: Vec<_> = t
            .lines()
            .iter()
            .map(|l| (l.depth, l.label.as_str()))
            .collect();
        assert_eq!(
            labels,
            vec![(0, "a"), (1, "b"), (2, "[0]"), (2, "[1]"), (0, "c")]
        );
        assert_eq!(t.lines()[1].summary, "[2]");
        assert_eq!(t.lines()[3].summary, "\"x\"");
    }

    #[test]
    fn collapse_expand_and_parent() {
        let mut t = tree(json!({"a": {"b": 1}, "c": 2}));
        assert!(t.set_expanded(0, false));
        assert_eq!(t.lines().len(), 2);
        assert!(!t.set_expanded(1, false), "a leaf does not collapse");
        assert!(t.set_expanded(0, true));
        assert_eq!(t.parent_line(1), Some(0));
        assert_eq!(t.parent_line(0), None);
    }

    #[test]
    fn large_values_open_at_the_top_level_only() {
        let items: Vec<Value> = (0..400).map(|i| json!({"n": i})).collect();
        let t = tree(json!({"items": items, "x": 1}));
        assert_eq!(t.lines().len(), 2);
    }

    #[test]
    fn search_finds_collapsed_nodes_and_reveal_opens_them() {
        let items: Vec<Value> = (0..400)
            .map(|i| json!({"name": format!("item {i}")}))
            .collect();
        let mut t = tree(json!({"items": items, "key/with~slash": "Needle"}));
        let hits = t.search("item 399", 10);
        assert_eq!(hits, vec!["/items/399/name"]);
        let line = t.reveal(&hits[0]).unwrap();
        assert_eq!(t.lines()[line].label, "name");
        assert_eq!(t.search("needle", 10), vec!["/key~1with~0slash"]);
    }

    #[test]
    fn hostile_keys_and_values_are_neutralised() {
        let t = tree(json!({"\u{1b}[2Jkey": "\u{1b}]0;title\u{7}"}));
        assert!(!t.lines()[0].label.contains('\u{1b}'));
        assert!(!t.lines()[0].summary.contains('\u{1b}'));
    }
}
