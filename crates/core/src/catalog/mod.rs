//! The resource types appdeck knows. The service has no operation that reads registered types
//! back, so they come from connect payloads: those `appdeck connect` sent successfully (recorded
//! in the store per base URL), files the user names (`--types FILE`, a profile's `types`), and
//! under `--demo` the demo's own payload. Every definition keeps where it came from.
//!
//! Loading ([`load`]) reads files and parses payloads; it is blocking and belongs off the UI
//! thread. The [`Catalog`] it builds is plain data: the CLI prints it, the TUI shows it.

mod analysis;
mod model;
mod newest;
mod outline;

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::api::ResourceType;
use crate::bounded_read;
use crate::validate::{self, Finding, PayloadKind, Severity, ValidateError};

pub use analysis::{Analysis, PayloadFinding, analyse};
pub use model::{AppVersion, Capabilities, KnownType, Source, TypeDefinition};
pub use newest::Baseline;
pub use outline::{OutlineType, outline};

/// What a type seen in loaded resources but defined nowhere is marked with, and how to fix it.
pub const NO_DEFINITION: &str = "no definition known";
pub const NO_DEFINITION_HINT: &str = "pass the app's connect payload with --types FILE (or a profile's `types`), or send it with `appdeck connect FILE`";

/// A connect recorded in the store (appdeck-store writes and reads them).
#[derive(Clone, Debug, PartialEq)]
pub struct KnownAppVersion {
    pub base_url: String,
    pub app_id: String,
    pub version: String,
    /// The connect payload as sent (JSON text, compact as posted). Older rows hold it as
    /// serde_json wrote the parsed payload back (`1E2` as `1e+2`, an escape as the character):
    /// they give back that text, as no row kept the bytes sent.
    pub payload: String,
    pub answer: Option<String>,
    pub recorded_at: DateTime<Utc>,
}

/// Where to look for connect payloads.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    /// Files given with `--types`, then those of the profile's `types`.
    pub files: Vec<PathBuf>,
    /// Connects recorded in the store for the current base URL, newest first.
    pub recorded: Vec<KnownAppVersion>,
    /// Include the demo payload (`--demo`).
    pub demo: bool,
}

/// Why one source gave no types.
#[derive(Debug, thiserror::Error)]
pub enum SourceProblem {
    /// A file that cannot be read.
    #[error("{}: cannot read it: {problem}", .path.display())]
    Unreadable { path: PathBuf, problem: String },
    /// A file that is not JSON, or not a connect payload at all.
    #[error("{}: {}", .path.display(), crate::sanitize::line(&.error.to_string()))]
    NotConnect { path: PathBuf, error: ValidateError },
    /// A connect payload that fails `appdeck validate`'s checks; the findings say why.
    #[error("{}: not a valid connect payload ({})", .path.display(), crate::text::counted(.findings.iter().filter(|f| f.severity == Severity::Error).count(), "error"))]
    Invalid {
        path: PathBuf,
        findings: Vec<Finding>,
    },
    /// A recorded payload that no longer parses (the store was edited by hand).
    #[error("recorded connect of {app_id} {version}: {problem}")]
    Recorded {
        app_id: String,
        version: String,
        problem: String,
    },
}

/// The outcome of [`load`]: the catalog of what could be read, what could not, and warnings
/// (validate's warnings on files that were used anyway).
#[derive(Debug, Default)]
pub struct Loaded {
    pub catalog: Catalog,
    pub problems: Vec<SourceProblem>,
    pub warnings: Vec<(PathBuf, Finding)>,
}

/// Reads every source. Files are checked like `appdeck validate` does; a file with errors is
/// left out and reported. Recorded payloads passed those checks when they were sent.
pub fn load(sources: &Sources) -> Loaded {
    let mut loaded = Loaded::default();
    let mut versions = Vec::new();
    for path in &sources.files {
        match load_file(path) {
            Ok((version, warnings)) => {
                versions.push(version);
                loaded
                    .warnings
                    .extend(warnings.into_iter().map(|w| (path.clone(), w)));
            }
            Err(problem) => loaded.problems.push(problem),
        }
    }
    for recorded in &sources.recorded {
        match from_recorded(recorded) {
            Ok(version) => versions.push(version),
            Err(problem) => loaded.problems.push(problem),
        }
    }
    if sources.demo {
        versions.push(demo());
    }
    loaded.catalog = Catalog::from_versions(versions);
    loaded
}

/// Reads and checks one connect payload file. Its modification time stands for when it was
/// recorded, so that a file just edited counts as newer than an old send.
pub fn load_file(path: &Path) -> Result<(AppVersion, Vec<Finding>), SourceProblem> {
    let unreadable = |e: &dyn std::fmt::Display| SourceProblem::Unreadable {
        path: path.to_owned(),
        problem: crate::sanitize::line(&e.to_string()).into_owned(),
    };
    let (bytes, meta) =
        bounded_read::file(path, bounded_read::MAX_PAYLOAD_BYTES).map_err(|e| unreadable(&e))?;
    let text = String::from_utf8(bytes).map_err(|e| unreadable(&e))?;
    let modified = meta.modified().ok().map(DateTime::<Utc>::from);
    let not_connect = |error| SourceProblem::NotConnect {
        path: path.to_owned(),
        error,
    };
    let value = validate::parse_json(&text).map_err(not_connect)?;
    let validation = validate::validate_value(&value, None).map_err(not_connect)?;
    if validation.kind != PayloadKind::Connect {
        return Err(not_connect(ValidateError::UnknownKind(
            "this is a task report, not a connect payload (the types come from `apps.version.connect` payloads)"
                .to_owned(),
        )));
    }
    if validation.has_errors() {
        return Err(SourceProblem::Invalid {
            path: path.to_owned(),
            findings: validation.findings,
        });
    }
    let Value::Object(map) = value else {
        unreachable!("validate_value accepts objects only")
    };
    let version = AppVersion::from_payload(map, Source::File(path.to_owned()), modified);
    Ok((version.with_text(&text), validation.findings))
}

/// A connect recorded in the store.
pub(crate) fn from_recorded(recorded: &KnownAppVersion) -> Result<AppVersion, SourceProblem> {
    let problem = |problem: String| SourceProblem::Recorded {
        app_id: crate::sanitize::line(&recorded.app_id).into_owned(),
        version: crate::sanitize::line(&recorded.version).into_owned(),
        problem,
    };
    let map: Map<String, Value> =
        serde_json::from_str(&recorded.payload).map_err(|e| problem(e.to_string()))?;
    let version = AppVersion::from_payload(
        map,
        Source::Sent(recorded.recorded_at),
        Some(recorded.recorded_at),
    );
    Ok(version.with_text(&recorded.payload))
}

/// A connect payload registering the demo app's resource types (acme-devtools 1.4.0): known
/// under `--demo`, and registered by the sandbox it runs.
pub const DEMO_CONNECT: &str = include_str!("../../../../assets/demo/connect.json");

/// The demo's payload ([`DEMO_CONNECT`]), built in.
pub fn demo() -> AppVersion {
    let map = serde_json::from_str(DEMO_CONNECT).unwrap_or_default();
    AppVersion::from_payload(map, Source::Demo, None).with_text(DEMO_CONNECT)
}

/// Every known type, by name, each with its definitions newest first.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    types: Vec<KnownType>,
}

impl Catalog {
    /// Groups the types of app versions by name. Within a type the definitions are ordered by
    /// the time they were recorded (a send, a file's modification), newest first; the demo last.
    pub fn from_versions(mut versions: Vec<AppVersion>) -> Catalog {
        // Newest first, as the definitions are ordered below: the first of each app is current.
        versions.sort_by_key(|v| std::cmp::Reverse(v.recorded_at));
        let mut newest_of_app: std::collections::HashMap<String, (Option<String>, _)> =
            Default::default();
        for version in &versions {
            if let Some(app) = &version.app_id {
                newest_of_app
                    .entry(app.clone())
                    .or_insert((version.version.clone(), version.recorded_at));
            }
        }
        let mut by_name: std::collections::BTreeMap<String, Vec<TypeDefinition>> =
            Default::default();
        for version in versions {
            for definition in version.into_definitions() {
                by_name
                    .entry(definition.name.clone())
                    .or_default()
                    .push(definition);
            }
        }
        let types = by_name
            .into_iter()
            .map(|(name, mut definitions)| {
                // Stable: equal times keep the order of the sources.
                definitions.sort_by_key(|d| std::cmp::Reverse(d.recorded_at));
                let removed_in = definitions.first().and_then(|newest| {
                    let (version, at) = newest_of_app.get(newest.app_id.as_ref()?)?;
                    let current = (&newest.version, newest.recorded_at) == (version, *at);
                    (!current).then(|| version.clone().unwrap_or_else(|| "a newer version".into()))
                });
                KnownType {
                    name,
                    definitions,
                    removed_in,
                }
            })
            .collect();
        Catalog { types }
    }

    /// Known types, sorted by name.
    pub fn types(&self) -> &[KnownType] {
        &self.types
    }

    pub fn get(&self, name: &str) -> Option<&KnownType> {
        self.types
            .binary_search_by(|t| t.name.as_str().cmp(name))
            .ok()
            .map(|i| &self.types[i])
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }

    /// The newest definition of every type as one connect payload (only its `resources`), the
    /// shape the report checks read their type schemas from, as text: each definition as its
    /// app version wrote it (numbers and escapes as sent, which a parsed value writes back
    /// changed: `1E2` as `1e+2`), so that `f` fills a schema's own `const` as it is written.
    pub fn newest_as_payload(&self) -> String {
        // A payload's text is laid out once for all the types it defines.
        let mut laid_out: Vec<(&Arc<str>, ResourceSpans)> = Vec::new();
        let mut resources = Vec::new();
        for definition in self.types.iter().filter_map(KnownType::newest) {
            let written = definition.payload_text.as_ref().and_then(|text| {
                let at = match laid_out.iter().position(|(t, _)| Arc::ptr_eq(t, text)) {
                    Some(at) => at,
                    None => {
                        laid_out.push((text, resources_by_name(text)));
                        laid_out.len() - 1
                    }
                };
                let (_, spans) = &laid_out[at];
                let (_, span) = spans.iter().find(|(n, _)| *n == definition.name)?;
                Some(text[span.clone()].to_owned())
            });
            match written.or_else(|| serde_json::to_string(&definition.definition).ok()) {
                Some(text) => resources.push(text),
                None => continue,
            }
        }
        format!("{{\"resources\":[{}]}}", resources.join(","))
    }

    /// Type names seen in loaded resources that no known payload defines, sorted, once each.
    /// Show them with [`NO_DEFINITION`] and [`NO_DEFINITION_HINT`].
    pub fn undefined<'a>(&self, seen: impl IntoIterator<Item = &'a str>) -> Vec<String> {
        let mut missing: Vec<String> = seen
            .into_iter()
            .filter(|name| self.get(name).is_none())
            .map(str::to_owned)
            .collect();
        missing.sort_unstable();
        missing.dedup();
        missing
    }
}

/// Where each resource type of a connect payload's text is, by its name.
type ResourceSpans = Vec<(String, Range<usize>)>;

/// Where each resource type of a connect payload's `text` is, by its name (the first of a name).
fn resources_by_name(text: &str) -> ResourceSpans {
    let lines = crate::json_text::lines(text);
    let spans: std::collections::HashMap<&str, &Range<usize>> = (lines.iter())
        .map(|l| (l.pointer.as_str(), &l.span))
        .collect();
    let mut named = Vec::new();
    for line in &lines {
        let Some(item) = (line.pointer.strip_suffix("/type")).filter(|item| {
            item.strip_prefix("/resources/")
                .is_some_and(|i| i.parse::<usize>().is_ok())
        }) else {
            continue;
        };
        let (Ok(name), Some(span)) = (
            serde_json::from_str::<String>(&text[line.span.clone()]),
            spans.get(item),
        ) else {
            continue;
        };
        if !named.iter().any(|(n, _)| *n == name) {
            named.push((name, (*span).clone()));
        }
    }
    named
}

impl AppVersion {
    /// Reads a connect payload leniently: odd fields are kept, a type without a name is skipped.
    pub fn from_payload(
        map: Map<String, Value>,
        source: Source,
        recorded_at: Option<DateTime<Utc>>,
    ) -> AppVersion {
        let text = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_owned);
        let types = match map.get("resources") {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|item| match item {
                    Value::Object(definition) => Some(ResourceType::from_map(definition.clone())),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        AppVersion {
            app_id: text("app_id"),
            version: text("version"),
            source,
            recorded_at,
            types,
            text: None,
        }
    }

    /// The same version, `text` being its payload as sent or read.
    pub fn with_text(self, text: &str) -> AppVersion {
        AppVersion {
            text: Some(Arc::from(text)),
            ..self
        }
    }
}

#[cfg(test)]
mod tests;
