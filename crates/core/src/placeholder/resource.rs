//! `f` on a resource's text: the properties its type requires added to its `properties`, and
//! every other byte left as typed.

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
/// none, `Err` saying why nothing could be filled.
pub fn fill_resource(typed: &str, types: &Value) -> Result<Option<FilledText>, &'static str> {
    let Ok(mut resource) = crate::validate::parse_json(typed) else {
        return Err("the resource is not JSON: fix its syntax first");
    };
    let Some(schema) = crate::validate::type_schema(types, &resource).cloned() else {
        return Err("the resource's type is not a known type: no schema to fill from");
    };
    let Some(object) = resource.as_object_mut() else {
        return Err("the resource is not a JSON object");
    };
    let properties = object
        .entry("properties")
        .or_insert_with(|| Value::Object(Default::default()));
    let had = properties.clone();
    if properties.is_null() {
        *properties = Value::Object(Default::default());
    }
    let Some(properties) = properties.as_object_mut() else {
        return Err("`properties` is not an object: nothing filled");
    };
    let filled = fill_required(properties, &schema);
    if filled.added.is_empty() {
        return Ok(None);
    }
    let text = with_filled(typed, &had, properties, &filled.added)
        .unwrap_or_else(|| serde_json::to_string(&resource).unwrap_or_default());
    let text = crate::json_text::pretty(&text);
    Ok(Some(FilledText { text, filled }))
}

/// The resource's text `typed` with the properties `added` (made by the fill, as `filled` holds
/// them) spliced into its `properties` (which held `had`): every other byte as typed, where a
/// parsed value written back would give `1e+400` for `1E400` and a raw bidi override for
/// `\u202e`. `None` when the text does not hold `had` where the value has it (a key written
/// twice).
fn with_filled(
    typed: &str,
    had: &Value,
    filled: &Map<String, Value>,
    added: &[String],
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
    for name in added {
        let value = serde_json::to_string(filled.get(name)?).ok()?;
        properties = crate::json_text::set_member(&properties, name, &value)?;
    }
    crate::json_text::set_member(typed, "properties", &properties)
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
            with_filled(there, &had, made, &added).as_deref(),
            Some(r#"{"n": 1E400, "properties": {"a": 1.0e2,"wanted":"yes"}, "s": "\u202e"}"#)
        );
        assert_eq!(
            with_filled(r#"{"n": 1E400}"#, &Value::Null, made, &added).as_deref(),
            Some(r#"{"n": 1E400,"properties":{"wanted":"yes"}}"#)
        );
        assert_eq!(
            with_filled(r#"{"properties": null}"#, &Value::Null, made, &added).as_deref(),
            Some(r#"{"properties": {"wanted":"yes"}}"#)
        );
        // The parsed value holds the last of a key written twice: not where the text is read.
        let twice = r#"{"properties": {"x": 1}, "properties": {"a": 1.0e2}}"#;
        assert_eq!(with_filled(twice, &had, made, &added), None);
    }
}
