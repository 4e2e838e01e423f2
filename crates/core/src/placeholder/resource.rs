//! `f` on a resource's text: the properties its type requires added to its `properties`, and
//! every other byte left as typed; a number the schema gives is written as the schema writes it.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::{Filled, fill_required};

/// A resource's text with the properties its type requires added, laid out (pretty), and what
/// was added.
#[derive(Debug, PartialEq, Eq)]
pub struct FilledText {
    pub text: String,
    pub filled: Filled,
}

/// The resource `typed` (JSON text) with the properties its type's schema requires (the type
/// found among `types`, a connect payload listing them) that it lacks; `None` when it lacks
/// none, `Err` saying why nothing could be filled. With `types_text`, the text `types` was read
/// from, a number taken from the schema (`"const": 1E2`) is written as the schema writes it.
pub fn fill_resource(
    typed: &str,
    types: &Value,
    types_text: Option<&str>,
) -> Result<Option<FilledText>, &'static str> {
    let Ok(mut resource) = crate::validate::parse_json(typed) else {
        return Err("the resource is not JSON: fix its syntax first");
    };
    let Some(schema) = crate::validate::type_schema(types, &resource) else {
        return Err("the resource's type is not a known type: no schema to fill from");
    };
    let Some(object) = resource.as_object_mut() else {
        return Err("the resource is not a JSON object");
    };
    // Before an absent `properties` is put in: its text is not there to splice into.
    let had = object.get("properties").cloned().unwrap_or(Value::Null);
    let properties = object
        .entry("properties")
        .or_insert_with(|| Value::Object(Default::default()));
    if properties.is_null() {
        *properties = Value::Object(Default::default());
    }
    let Some(properties) = properties.as_object_mut() else {
        return Err("`properties` is not an object: nothing filled");
    };
    let filled = fill_required(properties, schema);
    if filled.added.is_empty() {
        return Ok(None);
    }
    let schema = types_text.and_then(|text| schema_text(types, schema, text));
    let text = with_filled(typed, &had, properties, &filled.added, schema)
        .unwrap_or_else(|| serde_json::to_string(&resource).unwrap_or_default());
    let text = crate::json_text::pretty(&text);
    Ok(Some(FilledText { text, filled }))
}

/// The resource's text `typed` with the properties `added` (made by the fill, as `filled` holds
/// them) spliced into its `properties` (which held `had`): every other byte as typed, where a
/// parsed value written back would give `1e+400` for `1E400` and a raw bidi override for
/// `\u202e`. Each number a property's value takes from `schema` (its text) is spelled as that
/// property's own schema writes it, else as the rest of `schema` does. `None` when the text does
/// not hold `had` where the value has it (a key written twice).
fn with_filled(
    typed: &str,
    had: &Value,
    filled: &Map<String, Value>,
    added: &[String],
    schema: Option<&str>,
) -> Option<String> {
    let mut properties = match had {
        Value::Object(_) => {
            let span = crate::json_text::span_of(typed, "/properties")?;
            let written = &typed[span];
            (crate::validate::parse_json(written).ok().as_ref() == Some(had))
                .then(|| written.to_owned())?
        }
        _ => "{}".to_owned(),
    };
    let whole = schema.map(numbers_as_written).unwrap_or_default();
    let own_schemas = schema
        .and_then(|s| {
            Some(crate::json_text::members(
                &s[crate::json_text::span_of(s, "/properties")?],
            ))
        })
        .unwrap_or_default();
    for name in added {
        // A property's own schema first: `1E2` in one and `1e2` in another parse alike.
        let own = (own_schemas.iter())
            .find(|(key, _)| key == name)
            .map(|(_, text)| numbers_as_written(text))
            .unwrap_or_default();
        let value = written(filled.get(name)?, &[&own, &whole])?;
        properties = crate::json_text::set_member(&properties, name, &value)?;
    }
    crate::json_text::set_member(typed, "properties", &properties)
}

/// The text of `schema` (a type's, in `types`) in `types_text`, the text `types` was read from.
fn schema_text<'a>(types: &Value, schema: &Value, types_text: &'a str) -> Option<&'a str> {
    let resources = types.get("resources")?.as_array()?;
    let at = (resources.iter()).position(|r| {
        r.get("property_json_schema")
            .is_some_and(|s| std::ptr::eq(s, schema))
    })?;
    let pointer = format!("/resources/{at}/property_json_schema");
    Some(&types_text[crate::json_text::span_of(types_text, &pointer)?])
}

/// Each number in `schema` (JSON text) as written, by the text a parsed value gives it
/// (`1e+2` → `1E2`); the first spelling of a value where two differ.
fn numbers_as_written(schema: &str) -> HashMap<String, &str> {
    let mut numbers = HashMap::new();
    for line in crate::json_text::lines(schema) {
        let token = &schema[line.span];
        if !token.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
            continue;
        }
        if let Ok(value) = serde_json::from_str::<Value>(token) {
            numbers.entry(value.to_string()).or_insert(token);
        }
    }
    numbers
}

/// `value` as JSON text, each number spelled as the first of `numbers` that has it (else as
/// parsed).
fn written(value: &Value, numbers: &[&HashMap<String, &str>]) -> Option<String> {
    let all = |items: Vec<Option<String>>| items.into_iter().collect::<Option<Vec<_>>>();
    Some(match value {
        Value::Number(n) => {
            let text = n.to_string();
            let spelled = numbers.iter().find_map(|numbers| numbers.get(&text));
            spelled.map_or(text, |w| (*w).to_owned())
        }
        Value::Array(items) => {
            let items = all(items.iter().map(|v| written(v, numbers)).collect())?;
            format!("[{}]", items.join(","))
        }
        Value::Object(map) => {
            let members = (map.iter()).map(|(k, v)| {
                Some(format!(
                    "{}:{}",
                    crate::json_text::string(k),
                    written(v, numbers)?
                ))
            });
            format!("{{{}}}", all(members.collect())?.join(","))
        }
        other => serde_json::to_string(other).ok()?,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_fill_is_spliced_into_properties_absent_null_or_there() {
        let made = json!({"a": 2, "wanted": "yes"});
        let made = made.as_object().unwrap();
        let added = ["wanted".to_owned()];
        // As the resource's text parses: its own spelling of the number.
        let had = crate::validate::parse_json(r#"{"a": 1.0e2}"#).unwrap();
        let there = r#"{"n": 1E400, "properties": {"a": 1.0e2}, "s": "\u202e"}"#;
        assert_eq!(
            with_filled(there, &had, made, &added, None).as_deref(),
            Some(r#"{"n": 1E400, "properties": {"a": 1.0e2,"wanted":"yes"}, "s": "\u202e"}"#)
        );
        assert_eq!(
            with_filled(r#"{"n": 1E400}"#, &Value::Null, made, &added, None).as_deref(),
            Some(r#"{"n": 1E400,"properties":{"wanted":"yes"}}"#)
        );
        assert_eq!(
            with_filled(r#"{"properties": null}"#, &Value::Null, made, &added, None).as_deref(),
            Some(r#"{"properties": {"wanted":"yes"}}"#)
        );
        // The parsed value holds the last of a key written twice: not where the text is read.
        let twice = r#"{"properties": {"x": 1}, "properties": {"a": 1.0e2}}"#;
        assert_eq!(with_filled(twice, &had, made, &added, None), None);
    }

    /// A number the schema gives (`const`, `default`, `examples`) is filled as the schema
    /// writes it, as sent with the type: a parsed value writes `1E2` back as `1e+2`.
    #[test]
    fn a_number_the_schema_gives_is_filled_as_written() {
        let types_text = r#"{"resources":[{"type":"num","property_json_schema":{
            "type":"object","required":["a","d","g","m"],"properties":{
            "a":{"const":1E2},"d":{"default":0.10},"g":{"examples":[-0]},
            "m":{"const":{"x":[1E400,"s"]}}}}}]}"#;
        let types = crate::validate::parse_json(types_text).unwrap();
        let typed = r#"{"type": "num", "n": 1E-400}"#;
        let filled = fill_resource(typed, &types, Some(types_text))
            .unwrap()
            .unwrap();
        let want = r#"{
  "type": "num",
  "n": 1E-400,
  "properties": {
    "a": 1E2,
    "d": 0.10,
    "g": -0,
    "m": {
      "x": [
        1E400,
        "s"
      ]
    }
  }
}"#;
        assert_eq!(filled.text, want);
        // Without the text, the parser's.
        let parsed = fill_resource(typed, &types, None).unwrap().unwrap();
        assert!(parsed.text.contains("\"a\": 1e+2"), "{}", parsed.text);
    }

    /// Two properties giving one value in two spellings each get their own: the parsed values
    /// are alike (`1e+2`), so a look-up by value alone gave both the first.
    #[test]
    fn each_property_gets_its_own_spelling_of_one_value() {
        let types_text = r##"{"resources":[{"type":"num","property_json_schema":{
            "type":"object","required":["a","b","c"],"properties":{
            "a":{"const":1E2},"b":{"const":1e2},"c":{"$ref":"#/$defs/hundred"}},
            "$defs":{"hundred":{"const":100E0}}}}]}"##;
        let types = crate::validate::parse_json(types_text).unwrap();
        let filled = fill_resource(r#"{"type": "num"}"#, &types, Some(types_text))
            .unwrap()
            .unwrap();
        let properties = &filled.text[filled.text.find("\"properties\"").unwrap()..];
        assert!(properties.contains("\"a\": 1E2,"), "{properties}");
        assert!(properties.contains("\"b\": 1e2,"), "{properties}");
        // Behind a reference, as the rest of the schema writes it.
        assert!(properties.contains("\"c\": 100E0"), "{properties}");
    }
}
