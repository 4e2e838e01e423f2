//! Resource types registered by `apps.version.connect`. Each connect registers or replaces the
//! types of one app version; the definition that checks reports of a type is the one connected
//! last, whichever app version it came with.

use std::sync::Arc;

use crate::api::ResourceType;
use crate::schema::{CompiledSchema, SchemaViolation};

/// A type definition as connected, with its property schema compiled once.
pub(crate) struct RegisteredType {
    pub name: String,
    pub definition: ResourceType,
    pub property_schema: Option<CompiledSchema>,
}

impl std::fmt::Debug for RegisteredType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegisteredType")
            .field("name", &self.name)
            .field("has_property_schema", &self.property_schema.is_some())
            .finish()
    }
}

/// The types of one connected app version.
#[derive(Debug)]
struct Registration {
    app_id: String,
    version: String,
    types: Vec<Arc<RegisteredType>>,
}

/// Every connected app version, oldest connect first.
#[derive(Debug, Default)]
pub(crate) struct Registry {
    registrations: Vec<Registration>,
}

impl Registry {
    /// Registers an app version's types, replacing what an earlier connect of the same app
    /// version registered. The new registration becomes the latest.
    pub(crate) fn register(&mut self, app_id: &str, version: &str, types: Vec<RegisteredType>) {
        self.registrations
            .retain(|r| !(r.app_id == app_id && r.version == version));
        self.registrations.push(Registration {
            app_id: app_id.to_owned(),
            version: version.to_owned(),
            types: types.into_iter().map(Arc::new).collect(),
        });
    }

    /// The definition of a type from the latest connect that registered it.
    pub(crate) fn latest(&self, name: &str) -> Option<&Arc<RegisteredType>> {
        self.registrations
            .iter()
            .rev()
            .find_map(|r| r.types.iter().find(|t| t.name == name))
    }

    /// Checks a resource's `properties` against its type's schema, if the type has one.
    /// `Ok` when the type is unknown or has no schema: only connected schemas constrain reports.
    pub(crate) fn check_properties(
        &self,
        resource_type: &str,
        properties: &serde_json::Value,
    ) -> Result<(), Vec<SchemaViolation>> {
        let Some(schema) = self
            .latest(resource_type)
            .and_then(|t| t.property_schema.as_ref())
        else {
            return Ok(());
        };
        let violations = schema.violations(properties);
        if violations.is_empty() {
            Ok(())
        } else {
            Err(violations)
        }
    }

    /// How many distinct type names are registered.
    pub(crate) fn type_count(&self) -> usize {
        let mut names: Vec<&str> = self
            .registrations
            .iter()
            .flat_map(|r| r.types.iter().map(|t| t.name.as_str()))
            .collect();
        names.sort_unstable();
        names.dedup();
        names.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn typed(name: &str, schema: serde_json::Value) -> RegisteredType {
        RegisteredType {
            name: name.into(),
            definition: ResourceType::default(),
            property_schema: Some(crate::schema::compile(&schema).unwrap()),
        }
    }

    #[test]
    fn the_latest_connect_decides_and_a_reconnect_replaces() {
        let mut registry = Registry::default();
        let strict = json!({"type": "object", "required": ["a"]});
        registry.register("app", "1", vec![typed("t", strict.clone())]);
        assert!(registry.check_properties("t", &json!({})).is_err());
        registry.register("other", "9", vec![typed("t", json!({}))]);
        assert!(registry.check_properties("t", &json!({})).is_ok());
        registry.register("other", "9", vec![typed("u", json!({}))]);
        assert!(registry.check_properties("t", &json!({})).is_err());
        assert_eq!(registry.type_count(), 2);
        assert!(registry.check_properties("unknown", &json!(1)).is_ok());
    }
}
