//! Strategies that make JSON values from the model's schemas: the subset of JSON Schema the model
//! uses (`$ref`, `allOf` of one, `const`, `enum`, `examples`, `type`, `properties`, `required`,
//! `additionalProperties`, `items`, `format: date-time`, the one `pattern`, `minLength`,
//! `minimum`), not a general library. `if`/`then` is not generated from: the model judges each
//! body anyway.
//!
//! The leaves are where bugs hide: strings with control characters, escapes and non-ASCII;
//! numbers whose text must survive (`1.50`, `1E2`, 23-digit integers); date-times in every
//! RFC 3339 form; object keys in any order.

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Number, Value};

use super::model::Model;

/// The `pattern` of the model's strings that must not be blank: any character but Unicode's
/// White_Space ones.
const NON_BLANK: &str = concat!(
    "[^\t\n\u{b}\u{c}\r \u{85}\u{a0}\u{1680}\u{2000}-\u{200a}",
    "\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}]"
);

/// How deep free-form values (`properties`, extra fields) nest.
const FREE_FORM_DEPTH: u32 = 2;

/// A value for `schema` (a schema of the model, `$ref`s followed here).
pub fn value_for(model: &Model, schema: &Value) -> BoxedStrategy<Value> {
    let schema = model.resolve(schema);
    if let Some(constant) = schema.get("const") {
        return Just(constant.clone()).boxed();
    }
    if let Some(Value::Array(choices)) = schema.get("enum") {
        return select(choices.clone()).boxed();
    }
    if let Some(Value::Array(parts)) = schema.get("allOf")
        && let [only] = parts.as_slice()
    {
        return value_for(model, only);
    }
    if let Some(Value::Array(examples)) = schema.get("examples")
        && !examples.is_empty()
    {
        return select(examples.clone()).boxed();
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("string") => string_for(schema),
        Some("integer") => integer_for(schema),
        Some("boolean") => any::<bool>().prop_map(Value::Bool).boxed(),
        Some("array") => {
            let items = value_for(model, &schema["items"]);
            prop::collection::vec(items, 0..3)
                .prop_map(Value::Array)
                .boxed()
        }
        Some("object") if schema.get("properties").is_some() => object_for(model, schema),
        Some("object") => free_object(FREE_FORM_DEPTH),
        _ => free_value(FREE_FORM_DEPTH),
    }
}

/// Every property of the schema, the required ones always and the others half the time, in the
/// schema's order or shuffled, with up to two extra fields when the schema allows them.
fn object_for(model: &Model, schema: &Value) -> BoxedStrategy<Value> {
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    // Each field with a rank: shuffled objects are sorted by it, and a rank shrinks to 0, which
    // puts the field back in the schema's order.
    type Ranked = Option<(u8, String, Value)>;
    let mut fields: Vec<BoxedStrategy<Ranked>> = Vec::new();
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        let is_required = required.contains(&name.as_str());
        let name = name.clone();
        let field = (value_for(model, property), any::<u8>())
            .prop_map(move |(v, rank)| (rank, name.clone(), v));
        fields.push(if is_required {
            field.prop_map(Some).boxed()
        } else {
            prop::option::of(field).boxed()
        });
    }
    let extras = if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        Just(Vec::new()).boxed()
    } else {
        prop::collection::vec((any::<u8>(), extra_key(), free_value(1)), 0..=2).boxed()
    };
    (fields, extras, any::<bool>())
        .prop_map(|(fields, extras, shuffle)| {
            let mut entries: Vec<(u8, String, Value)> =
                fields.into_iter().flatten().chain(extras).collect();
            if shuffle {
                entries.sort_by_key(|(rank, _, _)| std::cmp::Reverse(*rank));
            }
            let mut map = Map::new();
            for (_, key, value) in entries {
                map.entry(key).or_insert(value);
            }
            Value::Object(map)
        })
        .boxed()
}

/// The name of a field the spec does not list: never one of the spec's names.
fn extra_key() -> impl Strategy<Value = String> {
    prop_oneof![
        "x_[a-z]{1,6}",
        Just("x_ünïcödé ①".to_owned()),
        Just("x_\u{1b}[31mred".to_owned()),
        Just("x_\"quoted\"\\".to_owned()),
    ]
}

fn string_for(schema: &Value) -> BoxedStrategy<Value> {
    if schema.get("format").and_then(Value::as_str) == Some("date-time") {
        return date_time().prop_map(Value::String).boxed();
    }
    // The model's one pattern: not blank, i.e. a character that is not Unicode White_Space,
    // which is what `char::is_whitespace` tests.
    let non_blank = match schema.get("pattern").and_then(Value::as_str) {
        None => false,
        Some(NON_BLANK) => true,
        Some(other) => panic!("the generator knows no pattern {other:?}"),
    };
    let min_length = schema["minLength"].as_u64().unwrap_or(0) as usize;
    any_string()
        .prop_filter("the schema's pattern and length", move |s| {
            s.chars().count() >= min_length && (!non_blank || s.chars().any(|c| !c.is_whitespace()))
        })
        .prop_map(Value::String)
        .boxed()
}

/// Text of every kind a client may send: plain words, non-ASCII, control characters (an escape
/// sequence, NUL, DEL, C1), quotes and backslashes, blanks.
pub fn any_string() -> BoxedStrategy<String> {
    let special = select(vec![
        '\0', '\u{1b}', '\u{7f}', '\u{9b}', '\n', '\t', '\r', '"', '\\', '/', ' ', 'é', '①', '🦀',
        '\u{202e}', '\u{feff}', '\u{fffd}', '中',
    ]);
    let piece = prop_oneof![
        4 => "[a-z0-9_-]{1,8}",
        2 => prop::collection::vec(special, 1..4).prop_map(String::from_iter),
        1 => any::<char>().prop_map(String::from),
    ];
    prop_oneof![
        8 => prop::collection::vec(piece, 1..4).prop_map(|parts| parts.concat()),
        1 => Just(String::new()),
        1 => Just("   ".to_owned()),
    ]
    .boxed()
}

/// An integer at or above the schema's `minimum`: small ones, and ones past 64 bits.
fn integer_for(schema: &Value) -> BoxedStrategy<Value> {
    let minimum = schema["minimum"].as_i64().unwrap_or(i64::MIN);
    let small = (minimum.max(-1000)..minimum.max(-1000) + 1000).prop_map(|n| n.to_string());
    prop_oneof![
        8 => small,
        1 => Just("12345678901234567890123".to_owned()),
        1 => Just(u64::MAX.to_string()),
    ]
    .prop_map(|text| number(&text))
    .boxed()
}

/// A JSON number with exactly this text.
pub fn number(text: &str) -> Value {
    let number: Number = serde_json::from_str(text).expect("number text");
    Value::Number(number)
}

/// Number texts that a parse through f64, or a tidy-up of the text, would change.
fn any_number() -> BoxedStrategy<Value> {
    prop_oneof![
        3 => any::<i64>().prop_map(|n| n.to_string()),
        3 => select(vec![
            "0", "-0", "1.50", "1E2", "1e-7", "2.5E+3", "12345678901234567890123",
            "-98765432109876543210.000001", "1e400", "0.1", "3.141592653589793238462643383279",
            "18446744073709551616",
        ])
        .prop_map(str::to_owned),
        1 => (any::<i32>(), 1usize..40)
            .prop_map(|(int, decimals)| format!("{int}.{}", "7".repeat(decimals))),
    ]
    .prop_map(|text| number(&text))
    .boxed()
}

/// Any JSON value, nesting at most `depth` levels.
fn free_value(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        3 => any_number(),
        3 => any_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(depth, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((any_string(), inner), 0..4)
                .prop_map(|entries| { Value::Object(entries.into_iter().collect()) }),
        ]
    })
    .boxed()
}

/// A free-form object (`properties`): any keys, any values.
fn free_object(depth: u32) -> BoxedStrategy<Value> {
    prop::collection::vec((any_string(), free_value(depth)), 0..5)
        .prop_map(|entries| Value::Object(entries.into_iter().collect()))
        .boxed()
}

/// Date-times in RFC 3339's forms (a `T` or `t`, `Z`, `z` or an offset, 0 to 9 decimals), with
/// days past a month's end and leap seconds now and then, which the model judges.
pub fn date_time() -> BoxedStrategy<String> {
    let date = (1900u32..2200, 1u32..=12, 1u32..=31);
    let time = (
        0u32..24,
        0u32..60,
        prop_oneof![20 => 0u32..60, 1 => Just(60u32)],
    );
    let fraction = prop::option::of(1usize..=9).prop_map(|digits| match digits {
        Some(n) => format!(".{}", "123456789".get(..n).unwrap_or_default()),
        None => String::new(),
    });
    let offset = prop_oneof![
        3 => Just("Z".to_owned()),
        1 => Just("z".to_owned()),
        2 => (select(vec!['+', '-']), 0u32..24, select(vec![0u32, 30, 45]))
            .prop_map(|(sign, h, m)| format!("{sign}{h:02}:{m:02}")),
    ];
    (date, time, fraction, offset, select(vec!['T', 't']))
        .prop_map(|((y, mo, d), (h, mi, s), fraction, offset, t)| {
            format!("{y:04}-{mo:02}-{d:02}{t}{h:02}:{mi:02}:{s:02}{fraction}{offset}")
        })
        .boxed()
}

/// Date-times that are not RFC 3339: the other ISO 8601 forms and plain garbage.
pub fn not_a_date_time() -> BoxedStrategy<String> {
    select(vec![
        "2024-05-01T12:00:00",
        "2024-05-01 12:00:00Z",
        "2024-05-01T12:00:00+0200",
        "20240501T120000Z",
        "2024-05-01",
        "2024-13-01T00:00:00Z",
        "2024-02-30T00:00:00Z",
        "2024-05-01T24:00:00Z",
        "yesterday",
        "",
        "1714564800",
    ])
    .prop_map(str::to_owned)
    .boxed()
}
