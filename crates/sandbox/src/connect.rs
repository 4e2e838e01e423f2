//! `apps.version.connect`: checks an app version's resource types (names present and unique, every
//! JSON Schema compiling) and registers them. The demo data goes through here too, so the demo
//! types are registered exactly as a real connect would register them.

use std::collections::HashMap;

use serde_json::{Map, Value, json};

use super::error::OpError;
use super::registry::RegisteredType;
use super::request::{objects_in_array, refuse_connect_nulls, refuse_issues, required_string};
use super::store::SandboxStore;
use crate::api::field::json_type_name;
use crate::api::{Field, ResourceType};

/// Checks and registers a connect payload; returns the answer's body.
pub(crate) fn connect(store: &SandboxStore, body: Map<String, Value>) -> Result<Value, OpError> {
    let app_id = required_string(&body, "app_id")?.to_owned();
    let version = required_string(&body, "version")?.to_owned();
    let items = match body.get("resources") {
        Some(Value::Array(items)) => items,
        None | Some(Value::Null) => {
            return Err(OpError::bad_request(
                "resources is required (an array of resource type definitions)",
            ));
        }
        Some(other) => {
            return Err(OpError::bad_request(format!(
                "resources: expected an array, found {}",
                json_type_name(other)
            )));
        }
    };
    objects_in_array(body.get("resources"), "/resources")?;
    refuse_connect_nulls(&body)?;

    let mut types = Vec::with_capacity(items.len());
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut schema_errors = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let pointer = format!("/resources/{i}");
        objects_in_array(item.get("actions"), &format!("{pointer}/actions"))?;
        let links = item.get("links").and_then(|l| l.get("links"));
        objects_in_array(links, &format!("{pointer}/links/links"))?;
        let definition = match item {
            Value::Object(map) => ResourceType::from_map(map.clone()),
            _ => continue, // refused by objects_in_array above
        };
        refuse_issues(&pointer, &definition.field_issues())?;
        let name = match &definition.type_name {
            Field::Valid(name) if !name.trim().is_empty() => name.clone(),
            Field::Valid(_) => {
                return Err(OpError::bad_request(format!(
                    "{pointer}/type must not be empty"
                )));
            }
            _ => {
                return Err(OpError::bad_request(format!(
                    "{pointer}/type is required (the type's name)"
                )));
            }
        };
        if let Some(first) = seen.insert(name.clone(), i) {
            return Err(OpError::bad_request(format!(
                "{pointer}/type: {name:?} is already defined at /resources/{first}"
            )));
        }
        check_action_names(&definition, &pointer)?;
        let property_schema = compile_all(&definition, &pointer, &mut schema_errors);
        types.push(RegisteredType {
            name,
            definition,
            property_schema,
        });
    }
    if !schema_errors.is_empty() {
        return Err(OpError::unprocessable(schema_errors.join("; ")));
    }

    let count = types.len();
    store.write().registry.register(&app_id, &version, types);
    tracing::debug!(app_id = ?app_id, version = ?version, count, "registered resource types");
    Ok(json!({
        "status": "ok",
        "message": format!("registered {count} resource types for {app_id} {version}"),
    }))
}

/// Action names, when given, are unique within a type: they are how an action is invoked.
fn check_action_names(definition: &ResourceType, pointer: &str) -> Result<(), OpError> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (j, action) in definition.actions.get().into_iter().flatten().enumerate() {
        if let Some(name) = action.name.get()
            && let Some(first) = seen.insert(name, j)
        {
            return Err(OpError::bad_request(format!(
                "{pointer}/actions/{j}/name: {name:?} is already used by {pointer}/actions/{first}"
            )));
        }
    }
    Ok(())
}

/// Compiles every schema of a type definition, noting each failure with its pointer, and returns
/// the compiled property schema.
fn compile_all(
    definition: &ResourceType,
    pointer: &str,
    errors: &mut Vec<String>,
) -> Option<crate::schema::CompiledSchema> {
    let mut compile = |schema: &Field<Map<String, Value>>, at: String| {
        let map = schema.get()?;
        match crate::schema::compile(&Value::Object(map.clone())) {
            Ok(compiled) => Some(compiled),
            Err(e) => {
                errors.push(format!("{at}: the schema does not compile: {e}"));
                None
            }
        }
    };
    let property_schema = compile(
        &definition.property_json_schema,
        format!("{pointer}/property_json_schema"),
    );
    compile(
        &definition.create_input_schema,
        format!("{pointer}/create_input_schema"),
    );
    compile(
        &definition.update_input_schema,
        format!("{pointer}/update_input_schema"),
    );
    for (j, action) in definition.actions.get().into_iter().flatten().enumerate() {
        compile(
            &action.input_json_schema,
            format!("{pointer}/actions/{j}/input_json_schema"),
        );
        compile(
            &action.output_json_schema,
            format!("{pointer}/actions/{j}/output_json_schema"),
        );
    }
    property_schema
}
