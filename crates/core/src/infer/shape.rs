//! What was seen at one place of the sampled JSON (a property, an array's items), kept as counts
//! so that any number of samples takes constant memory per place, and turned into a JSON Schema
//! at the end.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

/// A string field becomes an `enum` when it takes at most this many distinct values...
pub(crate) const ENUM_MAX_VALUES: usize = 8;
/// ... over at least this many samples.
pub(crate) const ENUM_MIN_SAMPLES: usize = 20;
/// The longest value, in characters, an `enum` is made of.
pub(super) const ENUM_VALUE_MAX_CHARS: usize = 40;
/// The most words a value of an `enum` has.
pub(super) const ENUM_VALUE_MAX_WORDS: usize = 3;

/// Everything seen at one place.
#[derive(Debug, Default)]
pub(super) struct Shape {
    /// How many values were seen here (nulls included).
    seen: usize,
    nulls: usize,
    booleans: usize,
    integers: usize,
    /// Numbers that are not integers.
    fractions: usize,
    strings: Strings,
    arrays: usize,
    /// All the items of all the arrays seen here, as one shape.
    items: Option<Box<Shape>>,
    objects: Option<Box<Object>>,
}

#[derive(Debug)]
struct Strings {
    count: usize,
    /// Whether every string so far parses as an RFC 3339 date-time.
    all_date_time: bool,
    /// The distinct values, until there are too many for an `enum` (then `None`).
    distinct: Option<Vec<String>>,
}

impl Default for Strings {
    fn default() -> Self {
        Strings {
            count: 0,
            all_date_time: true,
            distinct: Some(Vec::new()),
        }
    }
}

/// The properties of the objects seen at one place, in the order they were first seen.
#[derive(Debug, Default)]
pub(super) struct Object {
    /// How many objects were seen.
    count: usize,
    index: HashMap<String, usize>,
    properties: Vec<(String, Shape)>,
}

impl Object {
    pub(super) fn add(&mut self, map: &Map<String, Value>) {
        self.count += 1;
        for (key, value) in map {
            let at = match self.index.get(key) {
                Some(&at) => at,
                None => {
                    self.index.insert(key.clone(), self.properties.len());
                    self.properties.push((key.clone(), Shape::default()));
                    self.properties.len() - 1
                }
            };
            self.properties[at].1.add(value);
        }
    }

    /// `{"type": "object", "properties": ..., "required": [...]}`: a property is required when it
    /// was in every object (null counts as present).
    pub(super) fn schema(&self) -> Map<String, Value> {
        let mut schema = Map::new();
        schema.insert("type".to_owned(), json!("object"));
        self.fill(&mut schema);
        schema
    }

    fn fill(&self, schema: &mut Map<String, Value>) {
        let properties: Map<String, Value> = self
            .properties
            .iter()
            .map(|(key, shape)| (key.clone(), Value::Object(shape.schema())))
            .collect();
        let required: Vec<Value> = self
            .properties
            .iter()
            .filter(|(_, shape)| shape.seen == self.count)
            .map(|(key, _)| json!(key))
            .collect();
        schema.insert("properties".to_owned(), Value::Object(properties));
        if !required.is_empty() {
            schema.insert("required".to_owned(), Value::Array(required));
        }
    }
}

impl Shape {
    pub(super) fn add(&mut self, value: &Value) {
        self.seen += 1;
        match value {
            Value::Null => self.nulls += 1,
            Value::Bool(_) => self.booleans += 1,
            Value::Number(n) => {
                if n.is_i64() || n.is_u64() {
                    self.integers += 1;
                } else {
                    self.fractions += 1;
                }
            }
            Value::String(s) => self.strings.add(s),
            Value::Array(items) => {
                self.arrays += 1;
                let shape = self.items.get_or_insert_with(Box::default);
                for item in items {
                    shape.add(item);
                }
            }
            Value::Object(map) => self.objects.get_or_insert_with(Box::default).add(map),
        }
    }

    /// The JSON Schema of what was seen: its types (a union when several), and the details of
    /// each (properties, items, a date-time format, an enum). Nothing seen gives `{}`.
    pub(super) fn schema(&self) -> Map<String, Value> {
        let mut types: Vec<&str> = Vec::new();
        if self.strings.count > 0 {
            types.push("string");
        }
        if self.fractions > 0 {
            types.push("number");
        } else if self.integers > 0 {
            types.push("integer");
        }
        if self.booleans > 0 {
            types.push("boolean");
        }
        if self.objects.is_some() {
            types.push("object");
        }
        if self.arrays > 0 {
            types.push("array");
        }
        if self.nulls > 0 {
            types.push("null");
        }
        let mut schema = Map::new();
        match types.as_slice() {
            [] => return schema,
            [one] => schema.insert("type".to_owned(), json!(one)),
            many => schema.insert("type".to_owned(), json!(many)),
        };
        if self.strings.count > 0 {
            self.strings.fill(&mut schema, types.len(), self.nulls > 0);
        }
        if let Some(object) = &self.objects {
            object.fill(&mut schema);
        }
        if let Some(items) = &self.items {
            let items = items.schema();
            schema.insert("items".to_owned(), Value::Object(items));
        }
        schema
    }
}

/// Whether a string could be one of a set of choices (`active`, `rolled_back`, `In review`)
/// rather than free text: a few words at most, and short. A description repeated across the
/// samples is still prose, and an `enum` of it would refuse the next one written.
fn names_a_choice(value: &str) -> bool {
    value.chars().count() <= ENUM_VALUE_MAX_CHARS
        && value.split_whitespace().count() <= ENUM_VALUE_MAX_WORDS
}

impl Strings {
    fn add(&mut self, value: &str) {
        self.count += 1;
        if self.all_date_time && chrono::DateTime::parse_from_rfc3339(value).is_err() {
            self.all_date_time = false;
        }
        if let Some(distinct) = &mut self.distinct
            && !distinct.iter().any(|d| d == value)
        {
            if distinct.len() == ENUM_MAX_VALUES || !names_a_choice(value) {
                self.distinct = None;
            } else {
                distinct.push(value.to_owned());
            }
        }
    }

    /// `format: date-time` when every string is one; otherwise an `enum` when few values were
    /// seen often enough, and only when strings (and nulls) are all this place holds, since an
    /// enum would refuse the numbers or objects also seen here.
    fn fill(&self, schema: &mut Map<String, Value>, type_count: usize, nullable: bool) {
        if self.all_date_time {
            schema.insert("format".to_owned(), json!("date-time"));
            return;
        }
        let only_strings = type_count == 1 || (type_count == 2 && nullable);
        if let Some(distinct) = &self.distinct
            && only_strings
            && self.count >= ENUM_MIN_SAMPLES
        {
            let mut values: Vec<Value> = distinct.iter().map(|v| json!(v)).collect();
            if nullable {
                values.push(Value::Null);
            }
            schema.insert("enum".to_owned(), Value::Array(values));
        }
    }
}
