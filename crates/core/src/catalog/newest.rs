//! The app versions a connect is compared with: for each `app_id` the catalog knows, its newest
//! version (the one recorded last; the demo counts as oldest), put back together as a connect
//! payload from the catalog's type definitions. And the catalog with a version just sent added,
//! so that what shows the known types shows it at once.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::{AppVersion, Catalog, Source, TypeDefinition};

/// The newest known version of one app, as a connect payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Baseline {
    pub app_id: String,
    pub version: String,
    /// Where it came from (`demo`, `sent …`, a file), for titles.
    pub source: String,
    pub payload: Arc<Value>,
    /// `payload`'s JSON text: as sent or read (each number, escape and type order as written)
    /// when the catalog has it, else `payload` written compact. A connect starts from it.
    pub text: Arc<str>,
}

impl Catalog {
    /// For each app the catalog knows, its newest version (recorded last; of those recorded at
    /// the same time, the first the catalog holds), sorted by `app_id`: its payload as sent or
    /// read when the catalog has its text, else all the definitions of that version put back
    /// together as one payload (types by name).
    pub fn newest_versions(&self) -> Vec<Baseline> {
        let definitions = || self.types().iter().flat_map(|t| &t.definitions);
        let mut newest: BTreeMap<&str, &TypeDefinition> = BTreeMap::new();
        for d in definitions() {
            let Some(app_id) = d.app_id.as_deref() else {
                continue;
            };
            match newest.get(app_id) {
                Some(kept) if kept.recorded_at >= d.recorded_at => {}
                _ => {
                    newest.insert(app_id, d);
                }
            }
        }
        let same_version = |a: &TypeDefinition, b: &TypeDefinition| {
            (&a.app_id, &a.version, &a.source, a.recorded_at)
                == (&b.app_id, &b.version, &b.source, b.recorded_at)
        };
        newest
            .into_iter()
            .map(|(app_id, first)| {
                let version = first.version.clone().unwrap_or_default();
                let as_written = first.payload_text.as_ref().and_then(|text| {
                    let payload = serde_json::from_str::<Value>(text).ok()?;
                    payload.is_object().then(|| (payload, text.clone()))
                });
                let (payload, text) = as_written.unwrap_or_else(|| {
                    let resources: Vec<Value> = definitions()
                        .filter(|d| same_version(d, first))
                        .map(|d| serde_json::to_value(&d.definition).unwrap_or(Value::Null))
                        .collect();
                    let payload =
                        json!({"app_id": app_id, "version": version, "resources": resources});
                    let text = Arc::from(payload.to_string());
                    (payload, text)
                });
                Baseline {
                    app_id: app_id.to_owned(),
                    version,
                    source: first.source.to_string(),
                    payload: Arc::new(payload),
                    text,
                }
            })
            .collect()
    }

    /// The catalog with `payload` (whose text as sent is `text`) added as sent at `at`: its
    /// types' newest definitions from now on. Each definition the catalog holds goes back in as
    /// it is, with its app version.
    pub fn with_sent(&self, payload: &Value, text: &str, at: DateTime<Utc>) -> Catalog {
        let known = self.types().iter().flat_map(|t| &t.definitions);
        let mut versions: Vec<AppVersion> = known
            .map(|d| AppVersion {
                app_id: d.app_id.clone(),
                version: d.version.clone(),
                source: d.source.clone(),
                recorded_at: d.recorded_at,
                types: vec![d.definition.clone()],
                text: d.payload_text.clone(),
            })
            .collect();
        let map = payload.as_object().cloned().unwrap_or_default();
        let sent = AppVersion::from_payload(map, Source::Sent(at), Some(at)).with_text(text);
        versions.push(sent);
        Catalog::from_versions(versions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{DEMO_CONNECT, demo};

    fn demo_catalog() -> Catalog {
        Catalog::from_versions(vec![demo()])
    }

    #[test]
    fn the_demo_comes_back_as_one_payload_with_all_its_types() {
        let newest = demo_catalog().newest_versions();
        assert_eq!(newest.len(), 1);
        assert_eq!(newest[0].app_id, "acme-devtools");
        assert_eq!(newest[0].version, "1.4.0");
        let demo: Value = serde_json::from_str(DEMO_CONNECT).unwrap();
        let types = newest[0].payload["resources"].as_array().unwrap().len();
        assert_eq!(types, demo["resources"].as_array().unwrap().len());
        // Put back together, it differs from the demo in nothing that matters.
        assert!(crate::diff::compare(&demo, &newest[0].payload).is_empty());
    }

    #[test]
    fn a_version_sent_becomes_the_newest() {
        let demo: Value = serde_json::from_str(DEMO_CONNECT).unwrap();
        let mut next = demo.clone();
        next["version"] = Value::from("1.5.0");
        next["resources"].as_array_mut().unwrap().remove(0);
        let catalog = demo_catalog().with_sent(&next, &next.to_string(), chrono::Utc::now());
        let newest = catalog.newest_versions();
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
