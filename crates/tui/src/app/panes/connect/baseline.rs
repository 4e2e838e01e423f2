//! The app versions a connect is compared with: for each `app_id` the catalog knows, its newest
//! version (the one recorded last; the demo counts as oldest), put back together as a connect
//! payload from the catalog's type definitions. And the catalog with a version just sent added,
//! so the types view shows it at once.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::catalog::{AppVersion, Catalog, Source, TypeDefinition};

/// The newest known version of one app, as a connect payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Baseline {
    pub app_id: String,
    pub version: String,
    /// Where it came from (`demo`, `sent …`, a file), for titles.
    pub source: String,
    pub payload: Arc<Value>,
}

/// One app version's definitions, as the catalog holds them.
struct Group<'a> {
    app_id: Option<String>,
    version: Option<String>,
    source: &'a Source,
    recorded_at: Option<chrono::DateTime<chrono::Utc>>,
    definitions: Vec<&'a TypeDefinition>,
}

/// The catalog's definitions grouped back into the app versions they came from, in the order
/// first seen.
fn groups(catalog: &Catalog) -> Vec<Group<'_>> {
    let mut groups: Vec<Group> = Vec::new();
    for known in catalog.types() {
        for d in &known.definitions {
            let same = |g: &Group| {
                g.app_id == d.app_id
                    && g.version == d.version
                    && *g.source == d.source
                    && g.recorded_at == d.recorded_at
            };
            match groups.iter_mut().find(|g| same(g)) {
                Some(group) => group.definitions.push(d),
                None => groups.push(Group {
                    app_id: d.app_id.clone(),
                    version: d.version.clone(),
                    source: &d.source,
                    recorded_at: d.recorded_at,
                    definitions: vec![d],
                }),
            }
        }
    }
    groups
}

/// For each app the catalog knows, its newest version, sorted by `app_id`.
pub(crate) fn newest_versions(catalog: &Catalog) -> Vec<Baseline> {
    let mut newest: BTreeMap<String, Group> = BTreeMap::new();
    for group in groups(catalog) {
        let Some(app_id) = group.app_id.clone() else {
            continue;
        };
        match newest.get(&app_id) {
            Some(kept) if kept.recorded_at >= group.recorded_at => {}
            _ => {
                newest.insert(app_id, group);
            }
        }
    }
    newest
        .into_iter()
        .map(|(app_id, group)| {
            let resources: Vec<Value> = group
                .definitions
                .iter()
                .map(|d| serde_json::to_value(&d.definition).unwrap_or(Value::Null))
                .collect();
            let mut payload = Map::new();
            payload.insert("app_id".into(), Value::from(app_id.as_str()));
            let version = group.version.clone().unwrap_or_default();
            payload.insert("version".into(), Value::from(version.as_str()));
            payload.insert("resources".into(), Value::Array(resources));
            Baseline {
                app_id,
                version,
                source: group.source.to_string(),
                payload: Arc::new(Value::Object(payload)),
            }
        })
        .collect()
}

/// The catalog with `payload` added as sent at `at`: its types' newest definitions from now on.
pub(crate) fn with_sent(
    catalog: &Catalog,
    payload: &Value,
    at: chrono::DateTime<chrono::Utc>,
) -> Catalog {
    let mut versions: Vec<AppVersion> = groups(catalog)
        .into_iter()
        .map(|g| AppVersion {
            app_id: g.app_id,
            version: g.version,
            source: g.source.clone(),
            recorded_at: g.recorded_at,
            types: g.definitions.iter().map(|d| d.definition.clone()).collect(),
        })
        .collect();
    let map = payload.as_object().cloned().unwrap_or_default();
    versions.push(AppVersion::from_payload(map, Source::Sent(at), Some(at)));
    Catalog::from_versions(versions)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo_catalog() -> Catalog {
        Catalog::from_versions(vec![crate::catalog::demo()])
    }

    #[test]
    fn the_demo_comes_back_as_one_payload_with_all_its_types() {
        let newest = newest_versions(&demo_catalog());
        assert_eq!(newest.len(), 1);
        assert_eq!(newest[0].app_id, "acme-devtools");
        assert_eq!(newest[0].version, "1.4.0");
        let demo: Value = serde_json::from_str(crate::catalog::DEMO_CONNECT).unwrap();
        let types = newest[0].payload["resources"].as_array().unwrap().len();
        assert_eq!(types, demo["resources"].as_array().unwrap().len());
        // Put back together, it differs from the demo in nothing that matters.
        assert!(crate::diff::compare(&demo, &newest[0].payload).is_empty());
    }

    #[test]
    fn a_version_sent_becomes_the_newest() {
        let demo: Value = serde_json::from_str(crate::catalog::DEMO_CONNECT).unwrap();
        let mut next = demo.clone();
        next["version"] = Value::from("1.5.0");
        next["resources"].as_array_mut().unwrap().remove(0);
        let catalog = with_sent(&demo_catalog(), &next, chrono::Utc::now());
        let newest = newest_versions(&catalog);
        assert_eq!(newest.len(), 1);
        assert_eq!(newest[0].version, "1.5.0");
        let kept = newest[0].payload["resources"].as_array().unwrap().len();
        assert_eq!(kept, demo["resources"].as_array().unwrap().len() - 1);
        // The removed type is still known, from the older version.
        let removed = demo["resources"][0]["type"].as_str().unwrap();
        assert_eq!(
            catalog
                .get(removed)
                .unwrap()
                .newest()
                .unwrap()
                .version
                .as_deref(),
            Some("1.4.0")
        );
    }
}
