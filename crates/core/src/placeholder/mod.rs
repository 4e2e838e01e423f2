//! Values that satisfy a JSON Schema, for `f` in the report composer: each candidate (the
//! schema's own `const`, `enum`, `default` and examples first, then values made from its
//! keywords: `minLength`, `pattern`, `format`, `minimum`, `minItems`...) is checked with the
//! validator appdeck uses everywhere ([`crate::schema`]), and the first that passes is kept.
//! A local `$ref` is followed to its target, and each branch of an `anyOf`/`oneOf` and each
//! alternative of a `pattern` is tried in turn ([`shape`], [`pattern`]); the candidates are
//! checked against the schema where it stands in the type's, its references resolved.
//! When none passes, the plain placeholder of the right type stays and the composer's checks
//! report it, so the user sees which field to fix.

mod number;
mod pattern;
mod resource;
mod shape;

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{Map, Value};

use crate::schema::{self, CompiledSchema, SchemaDocument};
use pattern::Made;
pub use resource::{FilledText, fill_resource};
use shape::{Part, Shape};

/// What `fill_required` added.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Filled {
    /// The properties added, in the order the schema requires them.
    pub added: Vec<String>,
    /// Those of them whose placeholder still breaks their schema: the user must write them.
    pub unsatisfied: Vec<String>,
}

/// Nested objects get their own required properties down to this depth.
const MAX_DEPTH: usize = 8;

/// More items than this are not made up for a `minItems`: the placeholder stays short of it.
const MAX_ITEMS: u64 = 100;

/// How much longer than its minimum each repetition of a pattern is tried: enough to reach a
/// `minLength` of a few hundred.
const STRETCHES: [u32; 10] = [0, 1, 2, 4, 8, 16, 32, 64, 128, 256];

/// Choices of a pattern's alternatives tried (`^(v|ver)[0-9]+$` has two).
const MAX_VARIANTS: u64 = 64;

/// Schemas a fill makes candidates for, at most: each shape of each nested schema costs one,
/// so branches inside branches cannot multiply the work past this.
const MAX_SCHEMAS: usize = 1_000;

/// Adds the required properties missing from `properties` (an object that `schema` describes).
/// With several shapes (`oneOf` at the top), the first whose result passes the whole schema.
pub fn fill_required(properties: &mut Map<String, Value>, schema: &Value) -> Filled {
    let maker = Maker::new(schema);
    let whole = Part {
        schema,
        pointer: String::new(),
    };
    let check = maker.check(&whole);
    let mut first = None;
    for shape in maker.shapes(whole) {
        let (object, added) = maker.object(&shape, properties, 0);
        let passes = check
            .as_ref()
            .is_some_and(|check| check.violations(&Value::Object(object.clone())).is_empty());
        if passes {
            first = Some((object, added));
            break;
        }
        first.get_or_insert((object, added));
    }
    let mut filled = Filled::default();
    if let Some((object, added)) = first {
        *properties = object;
        for (name, fits) in added {
            if fits == Some(false) {
                filled.unsatisfied.push(name.clone());
            }
            filled.added.push(name);
        }
    }
    filled
}

/// The properties [`Maker::object`] added, each with whether its value fits its schema.
type Added = Vec<(String, Option<bool>)>;

struct Maker<'a> {
    root: &'a Value,
    /// The type's schema, to check a value against one of its parts with its references.
    document: Option<SchemaDocument<'a>>,
    /// The root's `$schema`, so that a part compiled alone is checked under the same draft.
    draft: Option<Value>,
    /// What is left of [`MAX_SCHEMAS`].
    budget: Cell<usize>,
    /// Whether a part may be checked where it stands, its references resolved: not in a schema
    /// whose references expand past what a check can follow ([`crate::schema::too_costly`]);
    /// there a part is checked alone. Filling one required property under the doubling schema of
    /// 22 levels took 155 ms checked in place, 0.1 ms checked alone; at 40 levels it never ended.
    checkable: bool,
    /// The validators compiled so far, by pointer: a schema that refers to itself is met again
    /// at each depth, and compiling costs more than making the candidates.
    checks: RefCell<HashMap<String, Option<Rc<CompiledSchema>>>>,
}

impl<'a> Maker<'a> {
    fn new(root: &'a Value) -> Self {
        Maker {
            root,
            document: SchemaDocument::new(root).ok(),
            draft: root.get("$schema").cloned(),
            budget: Cell::new(MAX_SCHEMAS),
            checkable: crate::schema::too_costly(root, "check").is_none(),
            checks: RefCell::default(),
        }
    }

    fn shapes(&self, part: Part<'a>) -> Vec<Shape<'a>> {
        shape::shapes(self.root, part)
    }

    /// `base` with the required properties of `shape` it lacks, each with whether its value
    /// fits its schema (see [`Maker::value_for`]).
    fn object(
        &self,
        shape: &Shape<'a>,
        base: &Map<String, Value>,
        depth: usize,
    ) -> (Map<String, Value>, Added) {
        let mut object = base.clone();
        let mut added = Vec::new();
        if depth < MAX_DEPTH {
            for name in shape.required() {
                if object.contains_key(name) {
                    continue;
                }
                let (value, fits) = self.value_for(shape.property(name), depth + 1);
                object.insert(name.to_owned(), value);
                added.push((name.to_owned(), fits));
            }
        }
        (object, added)
    }

    /// The first candidate that satisfies `part`, with `Some(true)`; else the plain placeholder,
    /// with `Some(false)`, or `None` when the schema cannot be checked. Each shape of the schema
    /// (its `$ref`'s target, each branch of an `anyOf`/`oneOf`) gives candidates in turn.
    fn value_for(&self, part: Part<'a>, depth: usize) -> (Value, Option<bool>) {
        if self.budget.get() == 0 {
            return (plain(kind_of(part.schema)), None);
        }
        let check = self.check(&part);
        let passes = |v: &Value| check.as_ref().is_some_and(|c| c.violations(v).is_empty());
        let shapes: Vec<(Value, Shape)> = self
            .shapes(part.clone())
            .into_iter()
            .map(|shape| (shape.merged(), shape))
            .collect();
        let mut fallback = None;
        for (merged, shape) in &shapes {
            if !self.spend() {
                break;
            }
            let given = given_values(merged);
            let made = self.made_values(shape, merged, depth);
            fallback.get_or_insert_with(|| match (given.first(), kind_of(merged)) {
                (Some(value), _) => value.clone(),
                (None, "object") => made.first().cloned().unwrap_or_default(),
                (None, kind) => plain(kind),
            });
            if check.is_none() {
                break;
            }
            if let Some(value) = given.into_iter().chain(made).find(passes) {
                return (value, Some(true));
            }
        }
        if check.is_some() {
            for (merged, _) in &shapes {
                if let Some(value) = pattern_values(merged).find(passes) {
                    return (value, Some(true));
                }
            }
        }
        let fallback = fallback.unwrap_or_else(|| plain(kind_of(part.schema)));
        (fallback, check.map(|_| false))
    }

    /// Takes one schema off the budget; `false` when none is left.
    fn spend(&self) -> bool {
        let left = self.budget.get();
        self.budget.set(left.saturating_sub(1));
        left > 0
    }

    /// Values made from the shape's keywords, the plain placeholder of its type first.
    fn made_values(&self, shape: &Shape<'a>, merged: &Value, depth: usize) -> Vec<Value> {
        match kind_of(merged) {
            "integer" => number::candidates(merged, true),
            "number" => number::candidates(merged, false),
            "boolean" => vec![Value::Bool(false), Value::Bool(true)],
            "null" => vec![Value::Null],
            "array" => vec![self.array(shape, merged, depth)],
            "object" => vec![Value::Object(self.object(shape, &Map::new(), depth).0)],
            _ => string_values(merged),
        }
    }

    /// An array of `minItems` placeholders of its `items` (none when that is too many).
    fn array(&self, shape: &Shape<'a>, merged: &Value, depth: usize) -> Value {
        let count = merged.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        if count == 0 || count > MAX_ITEMS || depth >= MAX_DEPTH {
            return Value::Array(Vec::new());
        }
        let item = self.value_for(shape.items(), depth + 1).0;
        Value::Array(vec![item; count as usize])
    }

    /// The validator for `part`: compiled where it stands in the type's schema (its references
    /// resolved), else alone, else only its local keywords; `None` when nothing compiles.
    fn check(&self, part: &Part) -> Option<Rc<CompiledSchema>> {
        if let Some(check) = self.checks.borrow().get(&part.pointer) {
            return check.clone();
        }
        let document = self.document.as_ref().filter(|_| self.checkable);
        let in_place = document.map(|d| d.compile_at(&part.pointer));
        let check = in_place
            .and_then(Result::ok)
            .or_else(|| self.compile(part.schema))
            .map(Rc::new);
        let mut checks = self.checks.borrow_mut();
        checks.insert(part.pointer.clone(), check.clone());
        check
    }

    /// The schema compiled as it stands (unless too costly to check), else only its local
    /// keywords (a `$ref` that does not resolve on its own); `None` when neither compiles.
    fn compile(&self, schema: &Value) -> Option<CompiledSchema> {
        let with_draft = |mut schema: Map<String, Value>| {
            if let Some(draft) = &self.draft {
                schema.entry("$schema").or_insert_with(|| draft.clone());
            }
            Value::Object(schema)
        };
        let object = schema.as_object()?;
        let whole = match schema::too_costly(schema, "check") {
            None => schema::compile(&with_draft(object.clone())),
            Some(why) => Err(why),
        };
        whole
            .or_else(|_| {
                let local = object
                    .iter()
                    .filter(|(key, _)| LOCAL_KEYWORDS.contains(&key.as_str()))
                    .map(|(key, value)| (key.clone(), value.clone()))
                    .collect();
                schema::compile(&with_draft(local))
            })
            .ok()
    }
}

/// Strings made from the schema's `pattern`, longer and longer, each choice of its alternatives
/// in turn, then padded to `minLength` (an unanchored pattern matches within a longer string).
fn pattern_values(schema: &Value) -> impl Iterator<Item = Value> {
    let hir = schema
        .get("pattern")
        .and_then(Value::as_str)
        .and_then(pattern::parse);
    let min = min_length(schema);
    STRETCHES
        .into_iter()
        .flat_map(move |stretch| {
            let hir = hir.clone();
            (0..MAX_VARIANTS)
                .map(move |variant| match &hir {
                    Some(hir) => pattern::generate(hir, stretch, variant),
                    None => Made::PastTheLast,
                })
                .take_while(|made| *made != Made::PastTheLast)
        })
        .filter_map(|made| match made {
            Made::Text(text) => Some(text),
            _ => None,
        })
        .flat_map(move |made| {
            let short = min.saturating_sub(made.chars().count());
            let padded = (short > 0).then(|| format!("{made}{}", "x".repeat(short)));
            std::iter::once(made).chain(padded)
        })
        .map(Value::String)
}

/// The keywords that constrain a value by themselves, without other schemas.
const LOCAL_KEYWORDS: [&str; 16] = [
    "type",
    "enum",
    "const",
    "minLength",
    "maxLength",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
];

/// The values the schema gives itself: `const`, each `enum` value, `default`, the examples.
fn given_values(schema: &Value) -> Vec<Value> {
    let list = |key| {
        schema
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
    };
    let one = |key| schema.get(key).into_iter();
    one("const")
        .chain(list("enum"))
        .chain(one("default"))
        .chain(list("examples"))
        .chain(one("example"))
        .cloned()
        .collect()
}

/// The JSON type a placeholder should have: the first of `type` that is not `null`, else what
/// the other keywords imply, else a string.
fn kind_of(schema: &Value) -> &str {
    match schema.get("type") {
        Some(Value::String(kind)) => return kind,
        Some(Value::Array(kinds)) => {
            let kinds = kinds.iter().filter_map(Value::as_str);
            let mut kinds = kinds.peekable();
            let first = kinds.peek().copied();
            return kinds.find(|k| *k != "null").or(first).unwrap_or("string");
        }
        _ => {}
    }
    let has = |keys: &[&str]| keys.iter().any(|k| schema.get(k).is_some());
    if has(&["properties", "required", "additionalProperties"]) {
        "object"
    } else if has(&["items", "prefixItems", "minItems", "maxItems"]) {
        "array"
    } else if has(&["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
        "number"
    } else {
        "string"
    }
}

/// The placeholder of a type when nothing fits: what `f` wrote before it knew the keywords.
fn plain(kind: &str) -> Value {
    match kind {
        "integer" | "number" => Value::from(0),
        "boolean" => Value::Bool(false),
        "array" => Value::Array(Vec::new()),
        "object" => Value::Object(Map::new()),
        "null" => Value::Null,
        _ => Value::from(""),
    }
}

/// Strings for the schema: a value of its `format`, then `minLength` times `x` (`""` when it has
/// none). Patterns come later ([`pattern_values`]): they cost a parse.
fn string_values(schema: &Value) -> Vec<Value> {
    let min = min_length(schema).min(pattern::MAX_CHARS);
    let format = schema
        .get("format")
        .and_then(Value::as_str)
        .and_then(of_format);
    // A `format` is an annotation the validator does not assert: "" would pass, so it comes first.
    format
        .map(Value::from)
        .into_iter()
        .chain([Value::from("x".repeat(min))])
        .collect()
}

/// `minLength`, in characters.
fn min_length(schema: &Value) -> usize {
    let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0);
    usize::try_from(min).unwrap_or(usize::MAX)
}

/// A plain value of a known `format`.
fn of_format(format: &str) -> Option<&'static str> {
    Some(match format {
        "date-time" => "1970-01-01T00:00:00Z",
        "date" => "1970-01-01",
        "time" => "00:00:00Z",
        "email" | "idn-email" => "user@example.com",
        "hostname" | "idn-hostname" => "example.com",
        "uri" | "iri" | "uri-reference" | "iri-reference" | "url" => "https://example.com/",
        "uuid" => "00000000-0000-0000-0000-000000000000",
        "ipv4" => "127.0.0.1",
        "ipv6" => "::1",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn fill(schema: &Value, properties: Value) -> (Value, Filled) {
        let mut properties = properties.as_object().cloned().unwrap_or_default();
        let filled = fill_required(&mut properties, schema);
        (Value::Object(properties), filled)
    }

    fn passes(schema: &Value, value: &Value) -> bool {
        let check = schema::compile(schema).expect("schema compiles");
        check.violations(value).is_empty()
    }

    #[test]
    fn fills_only_what_is_required_and_missing_with_values_of_the_right_type() {
        let schema = json!({
            "type": "object",
            "required": ["a", "b", "c", "d", "e", "f", "g", "kept"],
            "properties": {
                "a": {"type": "string", "enum": ["x", "y"]},
                "b": {"type": "integer", "default": 7},
                "c": {"type": ["number", "null"]},
                "d": {"type": "boolean"},
                "e": {"type": "array"},
                "f": {"type": "object", "required": ["inner"],
                      "properties": {"inner": {"type": "string"}}},
                "g": {},
                "optional": {"type": "string"}
            }
        });
        let (filled, report) = fill(&schema, json!({"kept": 1}));
        assert_eq!(report.added, ["a", "b", "c", "d", "e", "f", "g"]);
        assert!(report.unsatisfied.is_empty());
        assert_eq!(
            filled,
            json!({"kept": 1, "a": "x", "b": 7, "c": 0, "d": false, "e": [],
                   "f": {"inner": ""}, "g": ""})
        );
    }

    #[test]
    fn strings_numbers_and_arrays_meet_their_keywords() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "required": ["name", "key", "full_name", "sha", "at", "stars", "ratio", "tags", "even"],
            "properties": {
                "name": {"type": "string", "minLength": 5, "maxLength": 8},
                "key": {"type": "string", "minLength": 5, "pattern": "^[a-z]+-[0-9]+$"},
                "full_name": {"type": "string", "minLength": 3, "pattern": "^[^/]+/[^/]+$"},
                "sha": {"type": "string", "pattern": "^[0-9a-f]{40}$"},
                "at": {"type": "string", "format": "date-time"},
                "stars": {"type": "integer", "minimum": 3, "maximum": 9},
                "ratio": {"type": "number", "exclusiveMinimum": 0.5, "exclusiveMaximum": 1},
                "tags": {"type": "array", "minItems": 2, "items": {"type": "string", "minLength": 2}},
                "even": {"type": "integer", "minimum": 3, "multipleOf": 2}
            }
        });
        let (filled, report) = fill(&schema, json!({}));
        assert!(report.unsatisfied.is_empty(), "{report:?}");
        assert!(passes(&schema, &filled), "{filled}");
        assert_eq!(filled["name"], json!("xxxxx"));
        assert_eq!(filled["key"], json!("aa-00"));
        assert_eq!(filled["full_name"], json!("a/a"));
        assert_eq!(filled["at"], json!("1970-01-01T00:00:00Z"));
        assert_eq!(filled["tags"], json!(["xx", "xx"]));
    }

    #[test]
    fn a_value_the_schema_gives_comes_first_when_it_fits() {
        let schema = json!({
            "required": ["code", "bad_default"],
            "properties": {
                "code": {"type": "string", "pattern": "^[A-Z]{3}$", "examples": ["EUR"]},
                "bad_default": {"type": "string", "minLength": 2, "default": ""}
            }
        });
        let (filled, report) = fill(&schema, json!({}));
        assert!(report.unsatisfied.is_empty(), "{report:?}");
        assert_eq!(filled, json!({"code": "EUR", "bad_default": "xx"}));
    }

    #[test]
    fn what_cannot_be_made_keeps_the_placeholder_and_is_named() {
        let schema = json!({
            "required": ["twice", "short", "fine"],
            "properties": {
                // A back-reference: no candidate is made for it.
                "twice": {"type": "string", "pattern": "^(ab)\\1$"},
                "short": {"type": "string", "minLength": 4, "maxLength": 2},
                "fine": {"type": "string"}
            }
        });
        let (filled, report) = fill(&schema, json!({}));
        assert_eq!(filled, json!({"twice": "", "short": "", "fine": ""}));
        assert_eq!(report.unsatisfied, ["twice", "short"]);
    }

    #[test]
    fn a_reference_and_the_keywords_beside_it_both_apply() {
        let schema = json!({
            "required": ["id"],
            "properties": {"id": {"$ref": "#/$defs/id", "minLength": 3}},
            "$defs": {"id": {"type": "string", "pattern": "^[0-9]+$"}}
        });
        let (filled, report) = fill(&schema, json!({}));
        assert_eq!(filled, json!({"id": "000"}));
        assert!(report.unsatisfied.is_empty());
    }

    #[test]
    fn local_references_are_followed_to_their_targets() {
        let schema = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "required": ["owner", "repo", "count", "alias"],
            "properties": {
                "owner": {"$ref": "#/definitions/login"},
                "repo": {"$ref": "#/$defs/repo"},
                "count": {"$ref": "#/properties/stars"},
                "alias": {"$ref": "#/$defs/alias"},
                "stars": {"type": "integer", "minimum": 1}
            },
            "definitions": {"login": {"type": "string", "pattern": "^[a-z]{3,}$"}},
            "$defs": {
                "repo": {
                    "type": "object",
                    "required": ["full_name"],
                    "properties": {"full_name": {"type": "string", "pattern": "^[^/]+/[^/]+$"}}
                },
                "alias": {"$ref": "#/definitions/login"}
            }
        });
        let (filled, report) = fill(&schema, json!({}));
        assert!(report.unsatisfied.is_empty(), "{report:?}");
        assert_eq!(
            filled,
            json!({"owner": "aaa", "repo": {"full_name": "a/a"}, "count": 1, "alias": "aaa"})
        );
        assert!(passes(&schema, &filled), "{filled}");
        // The type's schema itself may be a reference.
        let schema = json!({
            "$ref": "#/definitions/Repo",
            "definitions": {
                "Repo": {"required": ["name"], "properties": {"name": {"minLength": 2}}}
            }
        });
        assert_eq!(fill(&schema, json!({})).0, json!({"name": "xx"}));
    }

    #[test]
    fn a_schema_that_refers_to_itself_is_filled_to_a_bounded_depth() {
        let schema = json!({
            "required": ["tree", "chain", "endless"],
            "properties": {
                "tree": {"$ref": "#/$defs/node"},
                "chain": {"$ref": "#/$defs/chain"},
                "endless": {"$ref": "#/$defs/endless"}
            },
            "$defs": {
                // A node's child is null or another node: the null branch ends it.
                "node": {
                    "type": "object",
                    "required": ["name", "child"],
                    "properties": {
                        "name": {"type": "string", "minLength": 1},
                        "child": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]}
                    }
                },
                // Only references, round and round.
                "chain": {"$ref": "#/$defs/loop"},
                "loop": {"$ref": "#/$defs/chain"},
                // A node that must hold another: no finite value, the fill stops all the same.
                "endless": {
                    "type": "object",
                    "required": ["next"],
                    "properties": {"next": {"$ref": "#/$defs/endless"}}
                }
            }
        });
        let (filled, report) = fill(&schema, json!({}));
        let mut node = &filled["tree"];
        let mut depth = 0;
        while node.is_object() {
            assert_eq!(node["name"], json!("x"));
            node = &node["child"];
            depth += 1;
        }
        assert!(
            node.is_null() && (1..=MAX_DEPTH).contains(&depth),
            "{filled}"
        );
        assert!(
            !report.unsatisfied.contains(&"tree".to_owned()),
            "{report:?}"
        );
        assert!(
            report.unsatisfied.contains(&"endless".to_owned()),
            "{report:?}"
        );
    }

    #[test]
    fn each_branch_of_any_of_and_one_of_is_tried_until_one_fits() {
        let schema = json!({
            "required": ["id", "size", "contact"],
            "properties": {
                // No integer is at least 10 and at most 5: the second branch.
                "id": {"anyOf": [
                    {"type": "integer", "minimum": 10, "maximum": 5},
                    {"type": "string", "format": "uuid"}
                ]},
                "size": {"oneOf": [
                    {"type": "string", "enum": ["small"], "minLength": 6},
                    {"type": "integer", "minimum": 1, "multipleOf": 3}
                ]},
                // Keywords beside the branches apply to each.
                "contact": {
                    "type": "object",
                    "maxProperties": 1,
                    "oneOf": [
                        {"required": ["phone", "fax"]},
                        {"required": ["email"], "properties": {"email": {"format": "email"}}}
                    ]
                }
            }
        });
        let (filled, report) = fill(&schema, json!({}));
        assert!(report.unsatisfied.is_empty(), "{report:?}");
        assert_eq!(
            filled,
            json!({
                "id": "00000000-0000-0000-0000-000000000000",
                "size": 3,
                "contact": {"email": "user@example.com"}
            })
        );
        assert!(passes(&schema, &filled), "{filled}");
    }

    #[test]
    fn each_alternative_of_a_pattern_is_tried_until_one_fits() {
        let schema = json!({
            "required": ["version", "state"],
            "properties": {
                "version": {"type": "string", "pattern": "^(draft|v[0-9]+\\.[0-9]+)$", "maxLength": 4},
                "state": {"type": "string", "pattern": "^(?:on|off|unknown)$", "minLength": 3}
            }
        });
        let (filled, report) = fill(&schema, json!({}));
        assert!(report.unsatisfied.is_empty(), "{report:?}");
        assert_eq!(filled, json!({"version": "v0.0", "state": "off"}));
    }
}
