//! Invalid variants of a generated body: one change at one place (a field left out, a wrong
//! type, a null, an extra field, a date-time that is not RFC 3339, a 23-digit integer, control
//! characters and non-ASCII in a string), or a body that is not a JSON object at all. Whether the
//! result still fits the model is for the model to say, not for the mutation.

use proptest::prelude::*;
use proptest::sample::Index;
use serde_json::{Map, Value, json};

use super::generate::{any_string, not_a_date_time, number};

/// One change to a body.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// Leave out the field at the chosen place.
    Remove(Index),
    /// Put this value at the chosen place.
    Replace(Index, Value),
    /// Add a field to the chosen object (or the body, when the place is not in an object).
    AddField(Index, String, Value),
}

/// Values that are wrong for most fields, or right only by chance.
fn replacement() -> BoxedStrategy<Value> {
    prop_oneof![
        2 => Just(Value::Null),
        1 => Just(json!(true)),
        1 => Just(number("12345678901234567890123")),
        1 => Just(number("-1")),
        1 => Just(number("1.5")),
        1 => Just(json!([])),
        1 => Just(json!({})),
        1 => Just(json!(["a"])),
        2 => not_a_date_time().prop_map(Value::String),
        2 => any_string().prop_map(Value::String),
    ]
    .boxed()
}

pub fn mutation() -> BoxedStrategy<Mutation> {
    prop_oneof![
        2 => any::<Index>().prop_map(Mutation::Remove),
        5 => (any::<Index>(), replacement()).prop_map(|(at, v)| Mutation::Replace(at, v)),
        1 => (any::<Index>(), any_string(), replacement())
            .prop_map(|(at, key, v)| Mutation::AddField(at, key, v)),
    ]
    .boxed()
}

impl Mutation {
    pub fn apply(&self, body: &mut Value) {
        let places = places(body);
        let pick = |at: &Index| places[at.index(places.len())].clone();
        match self {
            Mutation::Remove(at) => {
                let place = pick(at);
                if let Some((last, parent)) = place.split_last()
                    && let Some(container) = walk(body, parent)
                {
                    match (container, last) {
                        (Value::Object(map), Step::Key(key)) => {
                            map.shift_remove(key);
                        }
                        (Value::Array(items), Step::At(i)) => {
                            items.remove(*i);
                        }
                        _ => {}
                    }
                }
            }
            Mutation::Replace(at, value) => {
                if let Some(slot) = walk(body, &pick(at)) {
                    *slot = value.clone();
                }
            }
            Mutation::AddField(at, key, value) => {
                let place = pick(at);
                let target = match walk(body, &place) {
                    Some(Value::Object(_)) => place,
                    _ => Vec::new(),
                };
                if let Some(Value::Object(map)) = walk(body, &target) {
                    map.insert(key.clone(), value.clone());
                }
            }
        }
    }
}

/// How many places a value has below itself (its fields and elements, at every depth).
pub fn place_count(body: &Value) -> usize {
    places(body).len() - 1
}

/// Puts `value` at the `n`th place below the body (in [`place_count`]'s order).
pub fn replace_nth(body: &mut Value, n: usize, value: Value) {
    let place = places(body)[n + 1].clone();
    if let Some(slot) = walk(body, &place) {
        *slot = value;
    }
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    At(usize),
}

/// Every place in a value, the value itself first.
fn places(value: &Value) -> Vec<Vec<Step>> {
    let mut out = vec![Vec::new()];
    fn visit(value: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        let children: Vec<(Step, &Value)> = match value {
            Value::Object(map) => map.iter().map(|(k, v)| (Step::Key(k.clone()), v)).collect(),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, v)| (Step::At(i), v))
                .collect(),
            _ => Vec::new(),
        };
        for (step, child) in children {
            path.push(step);
            out.push(path.clone());
            visit(child, path, out);
            path.pop();
        }
    }
    visit(value, &mut Vec::new(), &mut out);
    out
}

fn walk<'a>(mut value: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    for step in path {
        value = match (value, step) {
            (Value::Object(map), Step::Key(key)) => map.get_mut(key)?,
            (Value::Array(items), Step::At(i)) => items.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(value)
}

/// A body as bytes on the wire, including the ones that are not a JSON object.
#[derive(Clone, Debug)]
pub enum RawBody {
    /// The JSON text of the (possibly mutated) body.
    Json(Value),
    /// The body's text cut short.
    Truncated(Value, Index),
    /// Nothing, or only blanks.
    Blank(&'static str),
    /// JSON, but not an object.
    NotAnObject(Value),
    /// A string holding a lone surrogate escape, which is no Unicode text.
    LoneSurrogate,
    /// Bytes that are not UTF-8.
    NotUtf8,
    /// The body with a string of 1 MiB added (as a field, or beside it in an array): over the
    /// sandbox's limit.
    OverLimit(Value),
}

impl RawBody {
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            RawBody::Json(body) => body.to_string().into_bytes(),
            RawBody::Truncated(body, at) => {
                let text = body.to_string();
                let cut = at.index(text.len().max(1));
                let cut = (0..=cut)
                    .rev()
                    .find(|i| text.is_char_boundary(*i))
                    .unwrap_or(0);
                text.as_bytes()[..cut].to_vec()
            }
            RawBody::Blank(text) => text.as_bytes().to_vec(),
            RawBody::NotAnObject(value) => value.to_string().into_bytes(),
            RawBody::LoneSurrogate => br#"{"task_id": "\ud800"}"#.to_vec(),
            RawBody::NotUtf8 => b"{\"task_id\": \"\xff\xfe\"}".to_vec(),
            RawBody::OverLimit(body) => {
                let padding = Value::String("x".repeat(1024 * 1024));
                let mut body = body.clone();
                match &mut body {
                    Value::Object(map) => {
                        map.insert("x_padding".into(), padding);
                    }
                    other => *other = Value::Array(vec![other.clone(), padding]),
                }
                body.to_string().into_bytes()
            }
        }
    }

    /// The JSON object the sandbox will read, when the bytes are one.
    pub fn object(&self) -> Option<&Map<String, Value>> {
        match self {
            RawBody::Json(Value::Object(map)) => Some(map),
            _ => None,
        }
    }
}

/// How a body goes on the wire, chosen apart from the body so that both shrink on their own.
#[derive(Clone, Debug)]
pub enum Wire {
    Json,
    Truncated(Index),
    Blank(&'static str),
    NotAnObject(Value),
    /// In an array, as the only element.
    Wrapped,
    LoneSurrogate,
    NotUtf8,
    OverLimit,
}

impl Wire {
    pub fn carry(self, body: Value) -> RawBody {
        match self {
            Wire::Json => RawBody::Json(body),
            Wire::Truncated(at) => RawBody::Truncated(body, at),
            Wire::Blank(text) => RawBody::Blank(text),
            Wire::NotAnObject(value) => RawBody::NotAnObject(value),
            Wire::Wrapped => RawBody::NotAnObject(Value::Array(vec![body])),
            Wire::LoneSurrogate => RawBody::LoneSurrogate,
            Wire::NotUtf8 => RawBody::NotUtf8,
            Wire::OverLimit => RawBody::OverLimit(body),
        }
    }
}

/// Mostly the body's JSON; now and then bytes that are not a JSON object.
pub fn wire() -> BoxedStrategy<Wire> {
    prop_oneof![
        40 => Just(Wire::Json),
        2 => any::<Index>().prop_map(Wire::Truncated),
        1 => proptest::sample::select(vec!["", " ", "\n\t "]).prop_map(Wire::Blank),
        1 => prop_oneof![
            Just(json!([])),
            Just(json!("text")),
            Just(Value::Null),
            Just(number("12345678901234567890123")),
        ]
        .prop_map(Wire::NotAnObject),
        1 => Just(Wire::Wrapped),
        1 => Just(Wire::LoneSurrogate),
        1 => Just(Wire::NotUtf8),
        1 => Just(Wire::OverLimit),
    ]
    .boxed()
}
