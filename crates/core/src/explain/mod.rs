//! The explain tree of a JSON Schema, like `kubectl explain --recursive`: every field with its
//! type(s), whether it is required, its constraints (enum, const, format, default, bounds,
//! pattern) and its description; nested objects, array items and `oneOf`/`anyOf`/`allOf`
//! alternatives as children. Local `$ref`s (`#/$defs/…`, `#/definitions/…`, any `#/…` pointer)
//! are resolved inline; a reference back into one being expanded is marked as a cycle and not
//! followed.
//!
//! Pure and linear in the size of the schema: the TUI lays out megabytes of schemas off the UI
//! thread with it, the CLI prints it. References are expanded inline only while the tree stays
//! within a budget proportional to the schema (so a schema whose definitions reference each
//! other many times cannot blow up), and nesting stops at [`MAX_DEPTH`]. Every text taken from
//! the schema (names, descriptions, values) is neutralised with [`crate::sanitize`] here, once.

mod text;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::sanitize;

pub use text::render_text;

/// Nesting beyond this is not expanded (serde_json already limits a document's own nesting;
/// this bounds chains of references).
pub(crate) const MAX_DEPTH: usize = 64;

/// Longest value shown for a constraint (a `default` may be a whole document).
const MAX_VALUE_CHARS: usize = 160;

/// How a node relates to its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The schema itself.
    Root,
    /// A named field of an object (`properties`).
    Property,
    /// Fields whose names match a pattern (`patternProperties`); the node's name is the pattern.
    PatternProperty,
    /// Any other field (`additionalProperties` given as a schema).
    AdditionalProperties,
    /// The elements of an array (`items`), or one position of a tuple (`prefixItems`).
    Items,
    /// One alternative of `oneOf`.
    OneOf,
    /// One alternative of `anyOf`.
    AnyOf,
    /// One part of `allOf`.
    AllOf,
    /// What must not match (`not`).
    Not,
}

/// What became of a `$ref`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum RefState {
    /// Expanded inline into this node.
    Resolved,
    /// Points back into a definition being expanded: shown, not followed.
    Cycle,
    /// Not followed: remote, or no such place in this schema.
    Unresolved { reason: String },
    /// Not expanded: the tree reached its size or depth limit.
    NotExpanded,
}

/// A `$ref` of a node and what became of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reference {
    /// The reference as written (sanitised).
    pub target: String,
    #[serde(flatten)]
    pub state: RefState,
}

/// One constraint or annotation: `minimum: 0`, `enum: "a", "b"`, `format: date-time`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fact {
    /// The JSON Schema keyword.
    pub key: &'static str,
    /// The value, as compact JSON (strings bare for `pattern` and `format`), sanitised.
    pub value: String,
}

/// One field (or the schema itself, or an alternative) and what lies below it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Node {
    pub name: String,
    pub role: Role,
    /// `type` as written (`["string", "null"]`), else inferred (`object` from `properties`,
    /// `array` from `items`); empty when nothing says.
    pub types: Vec<String>,
    /// Listed in its parent's `required`.
    pub required: bool,
    pub facts: Vec<Fact>,
    /// `description` (may span lines; sanitised, newlines kept).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reference: Option<Reference>,
    /// `false` when the schema is `false`: nothing is allowed here.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub forbidden: bool,
    pub children: Vec<Node>,
}

impl Node {
    fn new(name: String, role: Role, required: bool) -> Self {
        Node {
            name,
            role,
            types: Vec::new(),
            required,
            facts: Vec::new(),
            description: None,
            reference: None,
            forbidden: false,
            children: Vec::new(),
        }
    }

    /// The types joined with `|` (`string|null`), or `any` when nothing says.
    pub fn type_label(&self) -> String {
        if self.forbidden {
            "never".to_owned()
        } else if self.types.is_empty() {
            "any".to_owned()
        } else {
            self.types.join("|")
        }
    }

    /// Every node below this one, depth first, with its depth (this one is 0).
    pub fn walk(&self) -> Vec<(usize, &Node)> {
        let mut out = Vec::new();
        let mut stack = vec![(0, self)];
        while let Some((depth, node)) = stack.pop() {
            out.push((depth, node));
            stack.extend(node.children.iter().rev().map(|c| (depth + 1, c)));
        }
        out
    }
}

/// The explain tree of one schema.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explained {
    pub root: Node,
    /// Some references were left unexpanded because the tree hit its size or depth limit.
    pub truncated: bool,
    /// How many nodes the tree holds.
    pub nodes: usize,
}

/// Builds the explain tree of `schema`, whose root is named `name` (e.g. `property_json_schema`).
pub fn explain(name: &str, schema: &Value) -> Explained {
    let mut builder = Builder {
        document: schema,
        budget: 1_000 + 2 * count_values(schema),
        used: 0,
        expanding: Vec::new(),
        truncated: false,
    };
    let root = builder.node(
        sanitize::line(name).into_owned(),
        Role::Root,
        schema,
        false,
        0,
    );
    Explained {
        root,
        truncated: builder.truncated,
        nodes: builder.used,
    }
}

/// Values in a JSON document, iteratively (no recursion on untrusted depth).
fn count_values(value: &Value) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        count += 1;
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}

struct Builder<'a> {
    /// The whole schema, which `#/…` references point into.
    document: &'a Value,
    /// Nodes the tree may hold before references stop being expanded.
    budget: usize,
    used: usize,
    /// References being expanded, outermost first: one met again is a cycle.
    expanding: Vec<&'a str>,
    truncated: bool,
}

/// Keywords shown as facts, in this order. `additionalProperties` is one only when it is a
/// boolean (a schema there becomes a child).
const FACT_KEYS: &[&str] = &[
    "title",
    "const",
    "enum",
    "format",
    "default",
    "minimum",
    "exclusiveMinimum",
    "maximum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "additionalProperties",
    "readOnly",
    "writeOnly",
    "deprecated",
    "contentMediaType",
    "contentEncoding",
];

impl<'a> Builder<'a> {
    fn node(
        &mut self,
        name: String,
        role: Role,
        schema: &'a Value,
        required: bool,
        depth: usize,
    ) -> Node {
        self.used += 1;
        let mut node = Node::new(name, role, required);
        self.fill(&mut node, schema, depth);
        if node.types.is_empty() {
            infer_type(&mut node, schema);
        }
        node
    }

    /// Adds what `schema` says to `node` (a `$ref` target adds to the node that refers to it).
    fn fill(&mut self, node: &mut Node, schema: &'a Value, depth: usize) {
        match schema {
            Value::Object(map) => self.fill_object(node, map, depth),
            Value::Bool(false) => node.forbidden = true,
            Value::Bool(true) => {}
            other => node.facts.push(Fact {
                key: "invalid",
                value: format!(
                    "a schema must be an object or a boolean, found {}",
                    crate::api::field::json_type_name(other)
                ),
            }),
        }
    }

    fn fill_object(&mut self, node: &mut Node, map: &'a Map<String, Value>, depth: usize) {
        declared_types(node, map);
        if node.description.is_none()
            && let Some(Value::String(d)) = map.get("description")
        {
            node.description = Some(sanitize::multiline(d.trim()).into_owned());
        }
        for key in FACT_KEYS {
            if let Some(value) = map.get(*key) {
                if *key == "additionalProperties" && !value.is_boolean() {
                    continue;
                }
                node.facts.push(Fact {
                    key,
                    value: fact_value(key, value),
                });
            }
        }
        if depth >= MAX_DEPTH {
            if has_children(map) {
                self.truncated = true;
                node.facts.push(Fact {
                    key: "not shown",
                    value: format!("nested deeper than {MAX_DEPTH} levels"),
                });
            }
        } else {
            self.children(node, map, depth + 1);
        }
        if let Some(Value::String(target)) = map.get("$ref") {
            self.follow(node, target, depth);
        }
    }

    fn children(&mut self, node: &mut Node, map: &'a Map<String, Value>, depth: usize) {
        let required: Vec<&str> = match map.get("required") {
            Some(Value::Array(names)) => names.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if let Some(Value::Object(properties)) = map.get("properties") {
            for (key, schema) in properties {
                let is_required = required.contains(&key.as_str());
                let name = sanitize::line(key).into_owned();
                let child = self.node(name, Role::Property, schema, is_required, depth);
                node.children.push(child);
            }
        }
        if let Some(Value::Object(patterns)) = map.get("patternProperties") {
            for (pattern, schema) in patterns {
                let name = format!("/{}/", sanitize::line(pattern));
                let child = self.node(name, Role::PatternProperty, schema, false, depth);
                node.children.push(child);
            }
        }
        if let Some(schema @ Value::Object(_)) = map.get("additionalProperties") {
            let child = self.node(
                "*".to_owned(),
                Role::AdditionalProperties,
                schema,
                false,
                depth,
            );
            node.children.push(child);
        }
        let tuple = match (map.get("prefixItems"), map.get("items")) {
            (Some(Value::Array(positions)), _) | (None, Some(Value::Array(positions))) => {
                Some(positions)
            }
            _ => None,
        };
        if let Some(positions) = tuple {
            for (i, schema) in positions.iter().enumerate() {
                let child = self.node(format!("[{i}]"), Role::Items, schema, false, depth);
                node.children.push(child);
            }
        }
        if let Some(schema @ (Value::Object(_) | Value::Bool(_))) = map.get("items") {
            let name = if tuple.is_some() { "[…]" } else { "[]" };
            let child = self.node(name.to_owned(), Role::Items, schema, false, depth);
            node.children.push(child);
        }
        for (keyword, role) in [
            ("oneOf", Role::OneOf),
            ("anyOf", Role::AnyOf),
            ("allOf", Role::AllOf),
        ] {
            if let Some(Value::Array(alternatives)) = map.get(keyword) {
                for (i, schema) in alternatives.iter().enumerate() {
                    let name = format!("{keyword} {}", i + 1);
                    let child = self.node(name, role, schema, false, depth);
                    node.children.push(child);
                }
            }
        }
        if let Some(schema) = map.get("not") {
            let child = self.node("not".to_owned(), Role::Not, schema, false, depth);
            node.children.push(child);
        }
    }

    /// Expands a `$ref` into `node`, unless it is remote, missing, a cycle, or over the limits.
    fn follow(&mut self, node: &mut Node, target: &'a str, depth: usize) {
        let shown = sanitize::line(target).into_owned();
        let state = if !target.starts_with('#') {
            RefState::Unresolved {
                reason: "only references inside the schema (#/…) are followed".to_owned(),
            }
        } else if self.expanding.contains(&target) {
            // Its type still helps the reader: `[] <object> → #/$defs/node (cycle)`.
            if node.types.is_empty()
                && let Some(Value::Object(map)) = resolve(self.document, target)
            {
                declared_types(node, map);
                if node.types.is_empty() {
                    infer_from_map(node, map);
                }
            }
            RefState::Cycle
        } else if self.used >= self.budget
            || depth >= MAX_DEPTH
            || self.expanding.len() >= MAX_DEPTH
        {
            // A chain of references stays on one node (its depth does not grow): bounded too.
            self.truncated = true;
            RefState::NotExpanded
        } else {
            match resolve(self.document, target) {
                Some(resolved) => {
                    self.expanding.push(target);
                    self.fill(node, resolved, depth);
                    self.expanding.pop();
                    RefState::Resolved
                }
                None => RefState::Unresolved {
                    reason: "no such place in this schema".to_owned(),
                },
            }
        };
        // The first reference of a node is the one shown, unless a later one (of a chain) went
        // wrong: that is what the reader needs to know.
        let keep_first = node
            .reference
            .as_ref()
            .is_some_and(|_| state == RefState::Resolved);
        if !keep_first {
            node.reference = Some(Reference {
                target: shown,
                state,
            });
        }
    }
}

/// The types `type` names, a string or an array of strings.
fn declared_types(node: &mut Node, map: &Map<String, Value>) {
    match map.get("type") {
        Some(Value::String(t)) => push_type(node, t),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .for_each(|t| push_type(node, t)),
        _ => {}
    }
}

fn push_type(node: &mut Node, t: &str) {
    let t = sanitize::line(t);
    if !node.types.iter().any(|known| *known == t) {
        node.types.push(t.into_owned());
    }
}

fn has_children(map: &Map<String, Value>) -> bool {
    [
        "properties",
        "patternProperties",
        "items",
        "prefixItems",
        "oneOf",
        "anyOf",
        "allOf",
        "not",
    ]
    .iter()
    .any(|k| map.contains_key(*k))
}

/// `object` for a schema with fields, `array` for one with items, when `type` does not say.
fn infer_type(node: &mut Node, schema: &Value) {
    if let Value::Object(map) = schema {
        infer_from_map(node, map);
    }
}

fn infer_from_map(node: &mut Node, map: &Map<String, Value>) {
    if ["properties", "patternProperties"]
        .iter()
        .any(|k| map.contains_key(*k))
        || map
            .get("additionalProperties")
            .is_some_and(Value::is_object)
    {
        node.types.push("object".to_owned());
    } else if map.contains_key("items") || map.contains_key("prefixItems") {
        node.types.push("array".to_owned());
    } else if let Some(value) = map.get("const") {
        push_type(node, json_type(value));
    } else if let Some(Value::Array(values)) = map.get("enum") {
        values.iter().for_each(|v| push_type(node, json_type(v)));
    }
}

/// The JSON Schema type name of a value (`integer` for whole numbers).
fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A JSON pointer fragment (`#/$defs/a%20b/x~1y`) resolved in `document`.
fn resolve<'a>(document: &'a Value, target: &str) -> Option<&'a Value> {
    let fragment = target.strip_prefix('#')?;
    let pointer = percent_decode(fragment)?;
    if pointer.is_empty() {
        return Some(document);
    }
    document.pointer(&pointer)
}

/// Decodes `%XX` escapes of a URI fragment; `None` when they do not make UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    if !text.contains('%') {
        return Some(text.to_owned());
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = text.get(i + 1..i + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A value for one line: bare text for `pattern`, `format` and the like, compact JSON otherwise
/// (so `"1"` and `1` differ), each value of an `enum` separated by `, `; cut when long.
fn fact_value(key: &str, value: &Value) -> String {
    let text = match (key, value) {
        (
            "pattern" | "format" | "title" | "contentMediaType" | "contentEncoding",
            Value::String(s),
        ) => s.clone(),
        ("enum", Value::Array(values)) => values
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        _ => value.to_string(),
    };
    let text = sanitize::line(&text);
    if text.chars().count() > MAX_VALUE_CHARS {
        let mut cut: String = text.chars().take(MAX_VALUE_CHARS - 1).collect();
        cut.push('…');
        cut
    } else {
        text.into_owned()
    }
}

#[cfg(test)]
mod tests;
