//! `f`: the properties a type's schema requires and the resource lacks, added with placeholder
//! values of the right type (the first enum value, the default if any, 0, "", false, {} or []).

use serde_json::{Map, Value};

/// Adds the required properties missing from `properties`; returns their names.
pub fn fill_required(properties: &mut Map<String, Value>, schema: &Value) -> Vec<String> {
    fill_at(properties, schema, 0)
}

fn fill_at(properties: &mut Map<String, Value>, schema: &Value, depth: usize) -> Vec<String> {
    let mut added = Vec::new();
    let required = schema.get("required").and_then(Value::as_array);
    for name in required.into_iter().flatten().filter_map(Value::as_str) {
        if properties.contains_key(name) {
            continue;
        }
        let property = schema
            .get("properties")
            .and_then(|p| p.get(name))
            .unwrap_or(&Value::Null);
        properties.insert(name.to_owned(), placeholder(property, depth));
        added.push(name.to_owned());
    }
    added
}

/// A value that fits `schema` as far as its `enum`, `default` and `type` say.
fn placeholder(schema: &Value, depth: usize) -> Value {
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(default) = schema.get("default") {
        return default.clone();
    }
    let kind = match schema.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        // `["string", "null"]`: the first that is not null.
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(Value::as_str)
            .find(|k| *k != "null")
            .unwrap_or("null"),
        _ => "string",
    };
    match kind {
        "integer" | "number" => Value::from(0),
        "boolean" => Value::Bool(false),
        "array" => Value::Array(Vec::new()),
        "null" => Value::Null,
        // Nested objects get their own required fields, to a sane depth.
        "object" => {
            let mut object = Map::new();
            if depth < 8 {
                fill_at(&mut object, schema, depth + 1);
            }
            Value::Object(object)
        }
        _ => Value::from(""),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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
        let mut properties = json!({"kept": 1}).as_object().cloned().unwrap_or_default();
        let added = fill_required(&mut properties, &schema);
        assert_eq!(added, ["a", "b", "c", "d", "e", "f", "g"]);
        assert_eq!(
            Value::Object(properties),
            json!({"kept": 1, "a": "x", "b": 7, "c": 0, "d": false, "e": [],
                   "f": {"inner": ""}, "g": ""})
        );
    }
}
