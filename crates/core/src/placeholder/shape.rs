//! The ways a schema can be satisfied, for `f` to make a value of each in turn: a schema with a
//! local `$ref` is also its target's (`#/definitions/…`, `#/$defs/…`, any `#/…` pointer in the
//! type's schema), one with `anyOf`/`oneOf` is one shape per branch, one with `allOf` all of
//! them at once. Each part keeps its JSON pointer so the validator can check a value against
//! the schema where it stands, with every reference resolved (`schema::SchemaDocument`).

use serde_json::{Map, Value};

/// References and subschemas opened for one shape, at most: a schema that refers to itself
/// (`{"$ref": "#"}`, a tree of nodes) stops here instead of looping.
const MAX_OPENINGS: usize = 8;

/// Shapes tried for one schema, at most (branches inside branches multiply).
const MAX_SHAPES: usize = 16;

/// What a missing `properties` entry stands for: any value.
static ANY: Value = Value::Null;

/// A schema where it stands in the type's schema.
#[derive(Clone, Debug)]
pub(super) struct Part<'a> {
    pub schema: &'a Value,
    /// Its JSON pointer from the type's schema (`""` for the whole).
    pub pointer: String,
}

impl<'a> Part<'a> {
    fn child(&self, key: &str, schema: &'a Value) -> Part<'a> {
        let key = key.replace('~', "~0").replace('/', "~1");
        Part {
            schema,
            pointer: format!("{}/{key}", self.pointer),
        }
    }
}

/// One way to satisfy a schema: the parts that all apply to the value (the schema itself, its
/// `$ref`'s target, the branch taken), the schema's own keywords first.
#[derive(Debug)]
pub(super) struct Shape<'a> {
    parts: Vec<Part<'a>>,
}

impl<'a> Shape<'a> {
    /// The parts' keywords in one schema, the first part's winning: what the value makers read.
    pub(super) fn merged(&self) -> Value {
        let mut merged = Map::new();
        for part in &self.parts {
            for (key, value) in part.schema.as_object().into_iter().flatten() {
                merged.entry(key).or_insert_with(|| value.clone());
            }
        }
        Value::Object(merged)
    }

    /// Every part's `required` names, each once, in order.
    pub(super) fn required(&self) -> Vec<&'a str> {
        let mut names = Vec::new();
        for part in &self.parts {
            let required = part.schema.get("required").and_then(Value::as_array);
            for name in required.into_iter().flatten().filter_map(Value::as_str) {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
        }
        names
    }

    /// The schema of property `name`: the first part that describes it, else any value (at a
    /// pointer where the type's schema has nothing, so no check compiles for it).
    pub(super) fn property(&self, name: &str) -> Part<'a> {
        self.keyword(|part| {
            let properties = part.schema.get("properties")?;
            Some(
                part.child("properties", properties)
                    .child(name, properties.get(name)?),
            )
        })
        .unwrap_or_else(|| self.parts[0].child("properties", &ANY).child(name, &ANY))
    }

    /// The schema of the items: the first part's `items`, else any value.
    pub(super) fn items(&self) -> Part<'a> {
        self.keyword(|part| Some(part.child("items", part.schema.get("items")?)))
            .unwrap_or_else(|| self.parts[0].child("items", &ANY))
    }

    fn keyword(&self, find: impl Fn(&Part<'a>) -> Option<Part<'a>>) -> Option<Part<'a>> {
        self.parts.iter().find_map(find)
    }
}

/// The shapes of `part`, in order: each branch of an `anyOf`/`oneOf` gives one, the first
/// branch first; at most [`MAX_SHAPES`].
pub(super) fn shapes<'a>(root: &'a Value, part: Part<'a>) -> Vec<Shape<'a>> {
    let mut shapes = Vec::new();
    open(root, Vec::new(), vec![part], MAX_OPENINGS, &mut shapes);
    shapes
}

/// Takes the next of `pending` into `parts`, with what it brings: its reference's target and
/// its `allOf` to take too, one branch of each `anyOf`/`oneOf` (one shape per choice).
fn open<'a>(
    root: &'a Value,
    mut parts: Vec<Part<'a>>,
    mut pending: Vec<Part<'a>>,
    openings: usize,
    shapes: &mut Vec<Shape<'a>>,
) {
    if shapes.len() >= MAX_SHAPES {
        return;
    }
    if pending.is_empty() {
        shapes.push(Shape { parts });
        return;
    }
    let part = pending.remove(0);
    let mut choices: Vec<Vec<Part<'a>>> = vec![Vec::new()];
    if openings > 0 {
        pending.extend(target(root, part.schema));
        pending.extend(branches(&part, "allOf"));
        for keyword in ["anyOf", "oneOf"] {
            let branches = branches(&part, keyword);
            if !branches.is_empty() {
                choices = choices
                    .into_iter()
                    .flat_map(|choice| {
                        branches.iter().map(move |branch| {
                            let mut choice = choice.clone();
                            choice.push(branch.clone());
                            choice
                        })
                    })
                    .collect();
            }
        }
    }
    let next = if pending.len() + choices[0].len() > 0 {
        openings.saturating_sub(1)
    } else {
        openings
    };
    parts.push(part);
    for choice in choices {
        let mut pending = pending.clone();
        pending.extend(choice);
        open(root, parts.clone(), pending, next, shapes);
    }
}

/// The subschemas of `part`'s `keyword` (`allOf`, `anyOf`, `oneOf`).
fn branches<'a>(part: &Part<'a>, keyword: &str) -> Vec<Part<'a>> {
    let Some(list) = part.schema.get(keyword) else {
        return Vec::new();
    };
    let all = part.child(keyword, list);
    let items = list.as_array().into_iter().flatten().enumerate();
    items
        .map(|(i, branch)| all.child(&i.to_string(), branch))
        .collect()
}

/// What the schema's `$ref` points to, when it is a JSON pointer within the type's schema
/// (`#/definitions/id`, `#/$defs/id`, `#`); a remote reference or an anchor is not followed.
fn target<'a>(root: &'a Value, schema: &Value) -> Option<Part<'a>> {
    let reference = schema.get("$ref")?.as_str()?;
    let pointer = percent_decoded(reference.strip_prefix('#')?)?;
    if !pointer.is_empty() && !pointer.starts_with('/') {
        return None;
    }
    Some(Part {
        schema: root.pointer(&pointer)?,
        pointer,
    })
}

/// A URI fragment's `%XX` escapes decoded (`#/definitions/a%20b` names `a b`).
fn percent_decoded(text: &str) -> Option<String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&byte, after)) = rest.split_first() {
        if byte == b'%' {
            let hex = std::str::from_utf8(after.get(..2)?).ok()?;
            bytes.push(u8::from_str_radix(hex, 16).ok()?);
            rest = &after[2..];
        } else {
            bytes.push(byte);
            rest = after;
        }
    }
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pointers(root: &Value) -> Vec<Vec<String>> {
        let whole = Part {
            schema: root,
            pointer: String::new(),
        };
        let shapes = shapes(root, whole);
        let pointers = |shape: &Shape| shape.parts.iter().map(|p| p.pointer.clone()).collect();
        shapes.iter().map(pointers).collect()
    }

    #[test]
    fn a_reference_brings_its_target_and_each_branch_is_a_shape() {
        let root = json!({
            "$ref": "#/$defs/thing",
            "$defs": {
                "thing": {"anyOf": [{"$ref": "#/definitions/a%20b"}, {"required": ["c"]}]}
            },
            "definitions": {"a b": {"required": ["d"]}}
        });
        assert_eq!(
            pointers(&root),
            [
                vec![
                    "",
                    "/$defs/thing",
                    "/$defs/thing/anyOf/0",
                    "/definitions/a b"
                ],
                vec!["", "/$defs/thing", "/$defs/thing/anyOf/1"],
            ]
        );
    }

    #[test]
    fn a_reference_to_itself_stops() {
        let root = json!({"$ref": "#", "oneOf": [{"$ref": "#"}, {}]});
        let shapes = pointers(&root);
        assert!(shapes.len() <= MAX_SHAPES, "{shapes:?}");
        assert!(
            shapes
                .iter()
                .all(|parts| parts.len() <= 2 * MAX_OPENINGS + 1)
        );
        // Remote references and anchors are not followed; a bad escape is no pointer.
        for reference in ["https://example.com/s.json", "#anchor", "#/a%zz"] {
            assert_eq!(pointers(&json!({"$ref": reference})), [vec![""]]);
        }
    }

    #[test]
    fn properties_and_required_come_from_every_part() {
        let root = json!({
            "required": ["a"],
            "properties": {"a/b": {"type": "integer"}},
            "allOf": [{"required": ["a", "b"], "properties": {"b": {"type": "boolean"}}}]
        });
        let whole = Part {
            schema: &root,
            pointer: String::new(),
        };
        let shape = shapes(&root, whole).remove(0);
        assert_eq!(shape.required(), ["a", "b"]);
        assert_eq!(shape.property("a/b").pointer, "/properties/a~1b");
        assert_eq!(shape.property("b").pointer, "/allOf/0/properties/b");
        assert_eq!(shape.property("c").schema, &Value::Null);
        assert_eq!(shape.merged()["properties"], root["properties"]);
    }
}
