//! Schema inference: from resources as `resources.list` returns them, a resource type definition
//! per type, whose `property_json_schema` describes the `properties` actually observed. It is the
//! start of a connect payload for an app that has none yet (`appdeck infer`, and the connect
//! composer's "new app" start).
//!
//! Pure and streaming: [`Inference::add_value`] (or [`Inference::add_resource`]) folds one
//! resource into counts per type and per property, so any number of rows takes memory in
//! proportion to the distinct properties, not to the rows. The rules:
//! - the JSON types seen (integers and fractions together give `number`; a field that is
//!   sometimes null gets a union with `null`);
//! - `required` for the properties present in every sample of the type (null counts as present);
//! - nested objects and arrays of objects inferred the same way, recursively;
//! - `format: date-time` for a string field whose values all parse as RFC 3339;
//! - `enum` for a string field with at most [`ENUM_MAX_VALUES`] distinct values over at least
//!   [`ENUM_MIN_SAMPLES`] samples, each a choice rather than prose (at most
//!   [`shape::ENUM_VALUE_MAX_WORDS`] words and [`shape::ENUM_VALUE_MAX_CHARS`] characters).
//!
//! Capabilities default to list and read only. The number of samples is in the definition's
//! `description` and in its schema's `x-appdeck-samples` (an annotation JSON Schema ignores).

mod shape;
#[cfg(test)]
mod tests;

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use crate::api::Resource;
use shape::Object;

/// The draft the inferred schemas are written in.
pub(crate) const SCHEMA_DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";
/// The annotation of an inferred `property_json_schema` that counts its samples.
pub(crate) const SAMPLES_KEYWORD: &str = "x-appdeck-samples";

/// What has been observed so far, per resource type, in the order the types were first seen.
#[derive(Debug, Default)]
pub struct Inference {
    index: HashMap<String, usize>,
    types: Vec<TypeSamples>,
    /// Resources without a readable `type`: they cannot be attributed to a definition.
    untyped: usize,
}

#[derive(Debug)]
struct TypeSamples {
    name: String,
    samples: usize,
    properties: Object,
}

impl Inference {
    pub fn new() -> Self {
        Self::default()
    }

    /// Folds in one resource given as raw JSON. Anything without a string `type` is counted as
    /// untyped; a `properties` that is missing or null counts as an empty object, one of another
    /// type as a sample whose properties are not known.
    pub fn add_value(&mut self, resource: &Value) {
        let Some(name) = resource.get("type").and_then(Value::as_str) else {
            self.untyped += 1;
            return;
        };
        let properties = match resource.get("properties") {
            None | Some(Value::Null) => Some(None),
            Some(Value::Object(map)) => Some(Some(map)),
            Some(_) => None,
        };
        self.add(name, properties);
    }

    /// Folds in one resource of the API's model (as the TUI holds its rows).
    pub fn add_resource(&mut self, resource: &Resource) {
        let Some(name) = resource.resource_type.get() else {
            self.untyped += 1;
            return;
        };
        let properties = match resource.properties.get() {
            Some(map) => Some(Some(map)),
            None if resource.properties.is_present() => None,
            None => Some(None),
        };
        self.add(name, properties);
    }

    /// `properties`: `Some(Some(map))` seen, `Some(None)` absent (an empty object), `None`
    /// unusable.
    #[allow(clippy::option_option)]
    fn add(&mut self, name: &str, properties: Option<Option<&Map<String, Value>>>) {
        let at = match self.index.get(name) {
            Some(&at) => at,
            None => {
                self.index.insert(name.to_owned(), self.types.len());
                self.types.push(TypeSamples {
                    name: name.to_owned(),
                    samples: 0,
                    properties: Object::default(),
                });
                self.types.len() - 1
            }
        };
        let samples = &mut self.types[at];
        samples.samples += 1;
        match properties {
            Some(Some(map)) => samples.properties.add(map),
            Some(None) => samples.properties.add(&Map::new()),
            None => {}
        }
    }

    /// How many resources were folded in, typed or not.
    pub fn samples(&self) -> usize {
        self.types.iter().map(|t| t.samples).sum::<usize>() + self.untyped
    }

    /// Resources that had no readable `type`.
    pub fn untyped(&self) -> usize {
        self.untyped
    }

    /// The type names seen, in the order first seen.
    pub fn type_names(&self) -> impl Iterator<Item = &str> {
        self.types.iter().map(|t| t.name.as_str())
    }

    /// One resource type definition per type seen, in the order first seen.
    pub(crate) fn type_definitions(&self) -> Vec<Value> {
        self.types.iter().map(TypeSamples::definition).collect()
    }

    /// A whole connect payload with these types, for `app_id` and `version`.
    pub fn connect_payload(&self, app_id: &str, version: &str) -> Value {
        json!({
            "app_id": app_id,
            "version": version,
            "resources": self.type_definitions(),
        })
    }
}

/// Infers the type definitions of raw resources in one call.
pub fn infer_types<'a>(resources: impl IntoIterator<Item = &'a Value>) -> Vec<Value> {
    let mut inference = Inference::new();
    for resource in resources {
        inference.add_value(resource);
    }
    inference.type_definitions()
}

impl TypeSamples {
    fn definition(&self) -> Value {
        let mut schema = Map::new();
        schema.insert("$schema".to_owned(), json!(SCHEMA_DRAFT));
        schema.extend(self.properties.schema());
        schema.insert(SAMPLES_KEYWORD.to_owned(), json!(self.samples));
        let samples = match self.samples {
            1 => "1 sampled resource".to_owned(),
            n => format!("{n} sampled resources"),
        };
        json!({
            "type": self.name,
            "display_name": display_name(&self.name),
            "description": format!(
                "Inferred by appdeck from {samples}; review the schema before connecting."
            ),
            "list_supported": true,
            "read_supported": true,
            "create_supported": false,
            "update_supported": false,
            "delete_supported": false,
            "healthcheck_supported": false,
            "property_json_schema": schema,
            "actions": [],
        })
    }
}

/// `pull_request` and `pull-request` become `Pull request`.
fn display_name(type_name: &str) -> String {
    let words = type_name.replace(['_', '-'], " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => words,
    }
}
