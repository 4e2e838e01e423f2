//! The catalog's data: app versions, type definitions with their source, capabilities.

use std::fmt;
use std::path::PathBuf;

use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::api::{Field, ResourceType};

/// Where a definition came from, shown next to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A connect payload file (`--types`, a profile's `types`).
    File(PathBuf),
    /// A connect `appdeck connect` sent successfully at that time, recorded in the store.
    Sent(DateTime<Utc>),
    /// The demo's payload (`--demo`).
    Demo,
}

impl Source {
    /// `file`, `sent` or `demo`, for JSON output.
    pub fn kind(&self) -> &'static str {
        match self {
            Source::File(_) => "file",
            Source::Sent(_) => "sent",
            Source::Demo => "demo",
        }
    }
}

/// The file's path, `sent 2026-11-22 09:30 UTC`, or `demo`; safe to print.
impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::File(path) => f.write_str(&crate::sanitize::line(&path.display().to_string())),
            Source::Sent(at) => write!(f, "sent {}", at.format("%Y-%m-%d %H:%M UTC")),
            Source::Demo => f.write_str("demo"),
        }
    }
}

/// One connect payload, read leniently.
#[derive(Clone, Debug)]
pub struct AppVersion {
    pub app_id: Option<String>,
    pub version: Option<String>,
    pub source: Source,
    /// When it was sent, or the file last modified; `None` for the demo.
    pub recorded_at: Option<DateTime<Utc>>,
    pub types: Vec<ResourceType>,
    /// The payload's JSON text as sent or read, when appdeck has it: a connect starting from
    /// this version starts from it (its numbers, escapes and type order as written), where the
    /// parsed types would write `1E2` as `1e+2` and sort the types by name.
    pub text: Option<Arc<str>>,
}

impl AppVersion {
    /// Its types as definitions that carry the app, the version and the source. Types without
    /// a name cannot be looked up and are left out.
    pub(super) fn into_definitions(self) -> Vec<TypeDefinition> {
        let AppVersion {
            app_id,
            version,
            source,
            recorded_at,
            types,
            text,
        } = self;
        types
            .into_iter()
            .filter_map(|definition| {
                let name = definition.type_name.get()?.clone();
                Some(TypeDefinition {
                    name,
                    app_id: app_id.clone(),
                    version: version.clone(),
                    source: source.clone(),
                    recorded_at,
                    definition,
                    payload_text: text.clone(),
                })
            })
            .collect()
    }
}

/// One definition of a type, by one app version.
#[derive(Clone, Debug)]
pub struct TypeDefinition {
    /// The type's name (raw: sanitise before showing).
    pub name: String,
    pub app_id: Option<String>,
    pub version: Option<String>,
    pub source: Source,
    pub recorded_at: Option<DateTime<Utc>>,
    /// The definition as registered, every field kept (`serde_json::to_value` gives its JSON).
    pub definition: ResourceType,
    /// The whole payload of its app version as text ([`AppVersion::text`]), shared by the
    /// version's definitions.
    pub payload_text: Option<Arc<str>>,
}

impl TypeDefinition {
    pub fn capabilities(&self) -> Capabilities {
        Capabilities::of(&self.definition)
    }

    /// Actions declared (items that are not objects included).
    pub fn action_count(&self) -> usize {
        match &self.definition.actions {
            Field::Valid(actions) => actions.len(),
            Field::Invalid(Value::Array(items)) => items.len(),
            _ => 0,
        }
    }

    /// Every schema of the type, labelled: `property_json_schema`, `create_input_schema`,
    /// `update_input_schema`, then `actions/NAME/input_json_schema` and `…/output_json_schema`
    /// for each action. Absent schemas are left out.
    pub fn schemas(&self) -> Vec<(String, Value)> {
        let d = &self.definition;
        let mut out = Vec::new();
        let mut push = |label: String, schema: &Field<Map<String, Value>>| match schema {
            Field::Valid(map) => out.push((label, Value::Object(map.clone()))),
            Field::Invalid(value) => out.push((label, value.clone())),
            Field::Absent | Field::Null => {}
        };
        push("property_json_schema".to_owned(), &d.property_json_schema);
        push("create_input_schema".to_owned(), &d.create_input_schema);
        push("update_input_schema".to_owned(), &d.update_input_schema);
        for (i, action) in d.actions.get().into_iter().flatten().enumerate() {
            let name = action
                .name
                .get()
                .cloned()
                .unwrap_or_else(|| format!("#{}", i + 1));
            push(
                format!("actions/{name}/input_json_schema"),
                &action.input_json_schema,
            );
            push(
                format!("actions/{name}/output_json_schema"),
                &action.output_json_schema,
            );
        }
        out
    }

    /// `app 1.2.0`, with `?` for what the payload leaves out; safe to print.
    pub fn app_version_label(&self) -> String {
        let app = self.app_id.as_deref().unwrap_or("?");
        let version = self.version.as_deref().unwrap_or("?");
        crate::sanitize::line(&format!("{app} {version}")).into_owned()
    }
}

/// What a type says it supports. A capability left out is unknown, not "no".
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Capabilities {
    pub list: Field<bool>,
    pub read: Field<bool>,
    pub create: Field<bool>,
    pub update: Field<bool>,
    pub delete: Field<bool>,
    pub healthcheck: Field<bool>,
}

impl Capabilities {
    /// What the definition `d` says it supports.
    pub fn of(d: &ResourceType) -> Capabilities {
        Capabilities {
            list: d.list_supported.clone(),
            read: d.read_supported.clone(),
            create: d.create_supported.clone(),
            update: d.update_supported.clone(),
            delete: d.delete_supported.clone(),
            healthcheck: d.healthcheck_supported.clone(),
        }
    }

    /// Each capability with its name and its mark.
    pub fn each(&self) -> [(&'static str, &Field<bool>); 6] {
        [
            ("list", &self.list),
            ("read", &self.read),
            ("create", &self.create),
            ("update", &self.update),
            ("delete", &self.delete),
            ("healthcheck", &self.healthcheck),
        ]
    }

    /// Compact marks in the order list, read, create, update, delete, healthcheck: the initial
    /// when supported, `-` when not or not said, `?` when the field is not a boolean. `LRCUDH`
    /// reads "everything"; `LR---H` a read-only type with a health check.
    pub fn marks(&self) -> String {
        self.each()
            .iter()
            .map(|(name, field)| match field {
                Field::Valid(true) => name.chars().next().unwrap_or('?').to_ascii_uppercase(),
                Field::Invalid(_) => '?',
                _ => '-',
            })
            .collect()
    }
}

/// One type name and all its definitions, newest first.
#[derive(Clone, Debug)]
pub struct KnownType {
    pub name: String,
    pub definitions: Vec<TypeDefinition>,
    /// The version of its app that no longer defines it, when the newest known version of that
    /// app left it out: it is not current, however recent its own definition looks.
    pub removed_in: Option<String>,
}

impl KnownType {
    /// The definition shown first (a catalog never holds a type without one).
    pub fn newest(&self) -> Option<&TypeDefinition> {
        self.definitions.first()
    }

    /// The definition of one app version, e.g. to reach an older one.
    pub fn of_version(&self, version: &str) -> Option<&TypeDefinition> {
        self.definitions
            .iter()
            .find(|d| d.version.as_deref() == Some(version))
    }
}
