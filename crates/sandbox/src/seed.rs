//! Demo data: the types of `assets/demo/connect.json`, registered through the same code as a real
//! connect, then the resources of `assets/demo/resources.json`, each checked against its type's
//! schema. For benchmarks, any number of extra resources made from the demo ones.

use std::sync::Arc;

use anyhow::{Context, anyhow};
use serde_json::Value;

use super::connect::connect;
use super::report::check_properties;
use super::request::refuse_issues;
use super::rows::{Row, RowJson};
use super::store::{SandboxStore, Stamp, non_empty};
use crate::api::{Field, Resource};
use crate::catalog::DEMO_CONNECT;

/// The demo resources: a JSON array of a few hundred resources of the demo types.
pub const DEMO_RESOURCES: &str = include_str!("../../../assets/demo/resources.json");

/// The most resources `--generate` makes: past this the sandbox would need gigabytes (see
/// [`GENERATED_BYTES_EACH`]) and end in a failed allocation rather than an error.
pub(crate) const MAX_GENERATED: usize = 5_000_000;

/// Memory one generated resource takes, rounded up from a measured sandbox (`appdeck sandbox
/// --empty --generate 1000000`: its resident size less an empty one's, per resource).
pub(crate) const GENERATED_BYTES_EACH: usize = 1024;

/// Why `count` generated resources are refused, naming the memory they would need.
pub fn refuse_generate(count: usize) -> Option<String> {
    (count > MAX_GENERATED).then(|| {
        let gib = count as f64 * GENERATED_BYTES_EACH as f64 / f64::from(1u32 << 30);
        format!(
            "{count} generated resources would need about {gib:.1} GiB of memory; at most \
             {MAX_GENERATED} can be generated"
        )
    })
}

/// Loads what the options ask for. The demo types are registered whenever demo or generated
/// resources are loaded, so that reports of those types are checked as on the real service.
pub(crate) fn load(store: &SandboxStore, demo: bool, generate: usize) -> anyhow::Result<()> {
    if !demo && generate == 0 {
        return Ok(());
    }
    if let Some(refusal) = refuse_generate(generate) {
        return Err(anyhow!(refusal));
    }
    register_demo_types(store)?;
    let resources = demo_resources()?;
    if demo {
        for (i, resource) in resources.iter().enumerate() {
            import_checked(store, resource.clone())
                .map_err(|e| anyhow!("demo resource #{i} is invalid: {e}"))?;
        }
    }
    if generate > 0 {
        generate_resources(store, &resources, generate)?;
    }
    Ok(())
}

fn register_demo_types(store: &SandboxStore) -> anyhow::Result<()> {
    let payload: Value =
        serde_json::from_str(DEMO_CONNECT).context("assets/demo/connect.json is not JSON")?;
    let Value::Object(map) = payload else {
        return Err(anyhow!("assets/demo/connect.json is not a JSON object"));
    };
    connect(store, map)
        .map(|_| ())
        .map_err(|e| anyhow!("assets/demo/connect.json is refused: {}", e.message))
}

fn demo_resources() -> anyhow::Result<Vec<Resource>> {
    serde_json::from_str(DEMO_RESOURCES)
        .context("assets/demo/resources.json is not an array of objects")
}

/// Stores a demo resource as it is (its own id and timestamps), once it passes the checks a
/// report would: well-typed fields, a type, and properties that satisfy the type's schema.
fn import_checked(store: &SandboxStore, resource: Resource) -> Result<(), String> {
    refuse_issues("", &resource.field_issues()).map_err(|e| e.message)?;
    let resource_type = non_empty(&resource.resource_type)
        .ok_or("it has no type")?
        .to_owned();
    let mut state = store.write();
    check_properties(&state.registry, &resource_type, &resource).map_err(|e| e.message)?;
    let target = non_empty(&resource.id).and_then(|id| state.rows.seq_of_id(id));
    state.put(target, resource, Stamp::Import);
    Ok(())
}

/// A demo resource reduced to the text that generated copies share.
struct Template {
    resource_type: String,
    display_name: String,
    name: String,
    created_at: Option<String>,
    /// The serialised resource without the fields each copy varies: `,...}` or `}`.
    tail: Arc<str>,
}

impl Template {
    fn new(resource: &Resource) -> Option<Template> {
        let resource_type = non_empty(&resource.resource_type)?.to_owned();
        let display_name = resource.title().unwrap_or(&resource_type).to_owned();
        // Copies of the one resource with escape sequences would only multiply the demonstration.
        if display_name.chars().any(char::is_control) {
            return None;
        }
        let mut rest = resource.clone();
        rest.id = Field::Absent;
        rest.display_name = Field::Absent;
        rest.name = Field::Absent;
        rest.external_id = Field::Absent;
        let text = serde_json::to_string(&rest).ok()?;
        let tail = match text.strip_prefix('{') {
            Some("}") | None => "}".to_owned(),
            Some(fields) => format!(",{fields}"),
        };
        Some(Template {
            resource_type,
            display_name,
            name: non_empty(&resource.name).unwrap_or("resource").to_owned(),
            created_at: non_empty(&resource.created_at).map(str::to_owned),
            tail: Arc::from(tail),
        })
    }
}

/// Appends `count` resources copied round-robin from the demo ones, each with its own id, name,
/// display name and external id. Their properties are the demo ones, so they satisfy the schemas.
/// The copies share their template's text, which keeps 100,000 of them quick to make and small.
fn generate_resources(
    store: &SandboxStore,
    resources: &[Resource],
    count: usize,
) -> anyhow::Result<()> {
    let templates: Vec<Template> = resources.iter().filter_map(Template::new).collect();
    if templates.is_empty() {
        return Err(anyhow!(
            "the demo data has no resource to generate copies from"
        ));
    }
    let mut state = store.write();
    for n in 1..=count {
        let template = &templates[(n - 1) % templates.len()];
        let id = state.rows.new_id();
        let external_id = format!("gen-{n}");
        let mut head = String::with_capacity(160);
        head.push_str("{\"id\":");
        push_quoted(&mut head, &id);
        head.push_str(",\"display_name\":");
        push_quoted(&mut head, &format!("{} · copy {n}", template.display_name));
        head.push_str(",\"name\":");
        push_quoted(&mut head, &format!("{}-copy-{n}", template.name));
        head.push_str(",\"external_id\":");
        push_quoted(&mut head, &external_id);
        state.rows.push(Row {
            id,
            resource_type: Some(template.resource_type.clone()),
            external_id: Some(external_id),
            created_at: template.created_at.clone(),
            json: RowJson::Spliced {
                head: Arc::from(head),
                tail: Arc::clone(&template.tail),
            },
        });
    }
    Ok(())
}

/// Appends `text` as a JSON string literal.
fn push_quoted(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_matches_serde_json() {
        for text in [
            "plain",
            "quo\"te\\back",
            "tab\tnew\nline\u{1b}",
            "é 日本 🚀",
        ] {
            let mut out = String::new();
            push_quoted(&mut out, text);
            assert_eq!(serde_json::from_str::<String>(&out).unwrap(), text);
        }
    }

    #[test]
    fn generated_rows_are_valid_json_with_distinct_keys() {
        let store = SandboxStore::new();
        load(&store, false, 700).unwrap();
        assert_eq!(store.len(), 700);
        let state = store.read();
        let page = state.rows.page(None, 0, 1000);
        let mut ids = std::collections::HashSet::new();
        for item in &page.items {
            let value: Value = serde_json::from_str(&item.to_text()).unwrap();
            assert!(value["type"].is_string() && value["properties"].is_object());
            assert!(ids.insert(value["id"].as_str().unwrap().to_owned()));
        }
        assert_eq!(ids.len(), 700);
    }
}
