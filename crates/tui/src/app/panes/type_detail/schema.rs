//! The schemas of a type as one collapsible tree: each schema (`property_json_schema`, the
//! create and update inputs, each action's input and output) is a root, its explain tree
//! (`crate::explain`: fields, types, required, constraints, `$ref` resolved, cycles marked,
//! `oneOf`/`anyOf`/`allOf` alternatives) below it. The tree is flattened once, in document order,
//! with where each subtree ends, so expanding and collapsing only walks what is visible.

use serde_json::Value;

use crate::explain::{self, RefState, Role};

/// Trees with at most this many nodes open fully expanded; larger ones show their schemas only.
const EXPAND_ALL_UP_TO: usize = 400;

/// One node of the flattened trees, its texts ready to show (sanitised by `explain`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SchemaNode {
    pub depth: usize,
    /// One past the last node of its subtree.
    end: usize,
    pub name: String,
    /// `string|null`, `object`, `any`, `never`.
    pub types: String,
    pub required: bool,
    /// How it relates to its parent, when that is worth saying (`oneOf 1` says it already).
    pub role: Option<&'static str>,
    /// ` → #/$defs/x (cycle: not followed)`, empty without a `$ref`.
    pub reference: String,
    /// Whether its reference is a cycle (shown as a mark of its own).
    pub cycle: bool,
    /// `format: email; maxLength: 40`.
    pub facts: String,
    pub description: Option<String>,
}

impl SchemaNode {
    pub(crate) fn has_children(&self, index: usize) -> bool {
        self.end > index + 1
    }
}

#[derive(Clone, Debug, Default)]
pub struct SchemaTree {
    nodes: Vec<SchemaNode>,
    expanded: Vec<bool>,
    /// Indices of the nodes shown, in order.
    visible: Vec<usize>,
    /// Some schema had references left unexpanded (too large or deep).
    pub truncated: bool,
}

impl SchemaTree {
    /// The trees of `schemas` (label and schema, as `TypeDefinition::schemas` gives them).
    pub(crate) fn new(schemas: &[(String, Value)]) -> Self {
        let mut tree = SchemaTree::default();
        for (label, schema) in schemas {
            let explained = explain::explain(label, schema);
            tree.truncated |= explained.truncated;
            let start = tree.nodes.len();
            for (depth, node) in explained.root.walk() {
                tree.nodes.push(flatten(depth, node));
            }
            close_subtrees(&mut tree.nodes[start..], start);
        }
        let expand_all = tree.nodes.len() <= EXPAND_ALL_UP_TO;
        tree.expanded = tree
            .nodes
            .iter()
            .map(|n| expand_all || n.depth == 0)
            .collect();
        tree.rebuild();
        tree
    }

    pub(crate) fn visible(&self) -> &[usize] {
        &self.visible
    }

    pub(crate) fn node(&self, index: usize) -> Option<&SchemaNode> {
        self.nodes.get(index)
    }

    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    pub(crate) fn is_expanded(&self, index: usize) -> bool {
        self.expanded.get(index).copied().unwrap_or(false)
    }

    /// Expands or collapses the node on visible line `line`; says whether anything changed.
    pub(crate) fn set_expanded(&mut self, line: usize, expand: bool) -> bool {
        let Some(&index) = self.visible.get(line) else {
            return false;
        };
        if !self.nodes[index].has_children(index) || self.expanded[index] == expand {
            return false;
        }
        self.expanded[index] = expand;
        self.rebuild();
        true
    }

    /// The visible line of the parent of the node on `line`.
    pub(crate) fn parent_line(&self, line: usize) -> Option<usize> {
        let depth = self.nodes[*self.visible.get(line)?].depth;
        self.visible[..line]
            .iter()
            .rposition(|&i| self.nodes[i].depth + 1 == depth)
    }

    fn rebuild(&mut self) {
        let mut visible = Vec::new();
        let mut i = 0;
        while i < self.nodes.len() {
            visible.push(i);
            i = if self.expanded[i] {
                i + 1
            } else {
                self.nodes[i].end
            };
        }
        self.visible = visible;
    }
}

fn flatten(depth: usize, node: &explain::Node) -> SchemaNode {
    let role = match node.role {
        Role::Items => Some("items"),
        Role::PatternProperty => Some("pattern"),
        Role::AdditionalProperties => Some("other fields"),
        Role::Not => Some("must not match"),
        Role::Root | Role::Property | Role::OneOf | Role::AnyOf | Role::AllOf => None,
    };
    let (reference, cycle) = match &node.reference {
        None => (String::new(), false),
        Some(r) => {
            let note = match &r.state {
                RefState::Resolved => String::new(),
                RefState::Cycle => " (cycle: not followed)".to_owned(),
                RefState::Unresolved { reason } => format!(" (not followed: {reason})"),
                RefState::NotExpanded => " (not expanded: the schema is too large)".to_owned(),
            };
            (format!(" → {}{note}", r.target), r.state == RefState::Cycle)
        }
    };
    SchemaNode {
        depth,
        end: 0,
        name: node.name.clone(),
        types: node.type_label(),
        required: node.required,
        role,
        reference,
        cycle,
        facts: node
            .facts
            .iter()
            .map(|f| format!("{}: {}", f.key, f.value))
            .collect::<Vec<_>>()
            .join("; "),
        description: node.description.clone(),
    }
}

/// Sets where each subtree ends, from the depths of a pre-order list (`offset`: its first index).
fn close_subtrees(nodes: &mut [SchemaNode], offset: usize) {
    let mut open: Vec<usize> = Vec::new();
    for i in 0..nodes.len() {
        while let Some(&top) = open.last() {
            if nodes[top].depth >= nodes[i].depth {
                nodes[top].end = offset + i;
                open.pop();
            } else {
                break;
            }
        }
        open.push(i);
    }
    for top in open {
        nodes[top].end = offset + nodes.len();
    }
}
