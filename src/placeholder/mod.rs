//! Values that satisfy a JSON Schema, for `f` in the report composer: each candidate (the
//! schema's own `const`, `enum`, `default` and examples first, then values made from its
//! keywords: `minLength`, `pattern`, `format`, `minimum`, `minItems`...) is checked with the
//! validator appdeck uses everywhere ([`crate::schema`]), and the first that passes is kept.
//! When none passes, the plain placeholder of the right type stays and the composer's checks
//! report it, so the user sees which field to fix.

mod number;
mod pattern;

use serde_json::{Map, Value};

use crate::schema::{self, CompiledSchema};

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

/// Adds the required properties missing from `properties` (an object that `schema` describes).
pub fn fill_required(properties: &mut Map<String, Value>, schema: &Value) -> Filled {
    let maker = Maker {
        draft: schema.get("$schema").cloned(),
    };
    let mut filled = Filled::default();
    for (name, property) in maker.missing(properties, schema) {
        let (value, fits) = maker.value_for(property, 0);
        properties.insert(name.clone(), value);
        if fits == Some(false) {
            filled.unsatisfied.push(name.clone());
        }
        filled.added.push(name);
    }
    filled
}

struct Maker {
    /// The root's `$schema`, so that a property's schema is checked under the same draft.
    draft: Option<Value>,
}

impl Maker {
    /// The required properties `object` lacks, with their schemas.
    fn missing<'a>(
        &self,
        object: &Map<String, Value>,
        schema: &'a Value,
    ) -> Vec<(String, &'a Value)> {
        let required = schema.get("required").and_then(Value::as_array);
        required
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter(|name| !object.contains_key(*name))
            .map(|name| {
                let property = schema.get("properties").and_then(|p| p.get(name));
                (name.to_owned(), property.unwrap_or(&Value::Null))
            })
            .collect()
    }

    /// The first candidate that satisfies `schema`, with `Some(true)`; else the plain placeholder,
    /// with `Some(false)`, or `None` when the schema cannot be checked on its own.
    fn value_for(&self, schema: &Value, depth: usize) -> (Value, Option<bool>) {
        let given = given_values(schema);
        let made = self.made_values(schema, depth);
        let fallback = match (given.first(), kind_of(schema)) {
            (Some(value), _) => value.clone(),
            (None, "object") => made.first().cloned().unwrap_or_default(),
            (None, kind) => plain(kind),
        };
        let Some(check) = self.compile(schema) else {
            return (fallback, None);
        };
        let passes = |v: &Value| check.violations(v).is_empty();
        if let Some(value) = given.into_iter().chain(made).find(passes) {
            return (value, Some(true));
        }
        if let Some(value) = self.pattern_values(schema).find(passes) {
            return (value, Some(true));
        }
        (fallback, Some(false))
    }

    /// Values made from the schema's keywords, the plain placeholder of its type first.
    fn made_values(&self, schema: &Value, depth: usize) -> Vec<Value> {
        match kind_of(schema) {
            "integer" => number::candidates(schema, true),
            "number" => number::candidates(schema, false),
            "boolean" => vec![Value::Bool(false), Value::Bool(true)],
            "null" => vec![Value::Null],
            "array" => vec![self.array(schema, depth)],
            "object" => vec![self.object(schema, depth)],
            _ => string_values(schema),
        }
    }

    /// An object with its required properties, themselves filled.
    fn object(&self, schema: &Value, depth: usize) -> Value {
        let mut object = Map::new();
        if depth < MAX_DEPTH {
            for (name, property) in self.missing(&Map::new(), schema) {
                object.insert(name, self.value_for(property, depth + 1).0);
            }
        }
        Value::Object(object)
    }

    /// An array of `minItems` placeholders of its `items` (none when that is too many).
    fn array(&self, schema: &Value, depth: usize) -> Value {
        let count = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
        if count == 0 || count > MAX_ITEMS || depth >= MAX_DEPTH {
            return Value::Array(Vec::new());
        }
        let items = schema.get("items").unwrap_or(&Value::Null);
        let item = self.value_for(items, depth + 1).0;
        Value::Array(vec![item; count as usize])
    }

    /// Strings made from the schema's `pattern`, longer and longer, then padded to `minLength`
    /// (an unanchored pattern matches within a longer string).
    fn pattern_values(&self, schema: &Value) -> impl Iterator<Item = Value> {
        let hir = schema
            .get("pattern")
            .and_then(Value::as_str)
            .and_then(pattern::parse);
        let min = min_length(schema);
        STRETCHES
            .into_iter()
            .filter_map(move |stretch| pattern::generate(hir.as_ref()?, stretch))
            .flat_map(move |made| {
                let short = min.saturating_sub(made.chars().count());
                let padded = (short > 0).then(|| format!("{made}{}", "x".repeat(short)));
                std::iter::once(made).chain(padded)
            })
            .map(Value::String)
    }

    /// The schema compiled as it stands, else only its local keywords (a `$ref` to the root's
    /// definitions does not resolve on its own); `None` when neither compiles.
    fn compile(&self, schema: &Value) -> Option<CompiledSchema> {
        let with_draft = |mut schema: Map<String, Value>| {
            if let Some(draft) = &self.draft {
                schema.entry("$schema").or_insert_with(|| draft.clone());
            }
            Value::Object(schema)
        };
        let object = schema.as_object()?;
        schema::compile(&with_draft(object.clone()))
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
/// none). Patterns come later ([`Maker::pattern_values`]): they cost a parse.
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
    fn a_reference_is_checked_by_its_local_keywords() {
        let schema = json!({
            "required": ["id"],
            "properties": {"id": {"$ref": "#/$defs/id", "minLength": 3}},
            "$defs": {"id": {"type": "string"}}
        });
        let (filled, report) = fill(&schema, json!({}));
        assert_eq!(filled, json!({"id": "xxx"}));
        assert!(report.unsatisfied.is_empty());
    }
}
