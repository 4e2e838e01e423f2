//! `appdeck types` and `appdeck types show TYPE`: the resource types appdeck knows (from connects
//! it sent, `--types` files, a profile's `types`, the demo), and one type in full with the explain
//! tree of each of its schemas.

use std::io::Write;

use serde_json::{Value, json};

use super::args::{GlobalArgs, ShowOutput, TypesArgs, TypesCommand, TypesOutput, TypesShowArgs};
use super::shape::jq::Jq;
use super::{Failure, warn};
use crate::api::Field;
use crate::catalog::{self, Catalog, KnownType, SourceProblem, TypeDefinition};
use crate::config;
use crate::explain;
use crate::sanitize;

/// How to make a type known, for when none is.
const HOW_TO_ADD: &str = "pass a connect payload with --types FILE (or list files in a profile's `types`), \
     or send one with `appdeck connect FILE` (recorded per base URL); `appdeck --demo types` shows the demo's";

pub fn run(
    args: &TypesArgs,
    global: &GlobalArgs,
    demo: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let sources = sources(global, demo)?;
    let loaded = catalog::load(&sources);
    for (path, finding) in &loaded.warnings {
        warn(&[format!("{}: {finding}", path.display())]);
    }
    report_problems(&loaded.problems)?;
    let jq = super::shape::compile_jq(args.jq.as_deref())?;
    match &args.command {
        None => list(&loaded.catalog, args.output, jq.as_ref(), out),
        Some(TypesCommand::Show(show_args)) => show(&loaded.catalog, show_args, jq.as_ref(), out),
    }
}

/// `--types` files, then the profile's; the connects recorded for the configured base URL; the
/// demo under `--demo` (which ignores the configuration, as the demo TUI does).
pub(super) fn sources(global: &GlobalArgs, demo: bool) -> Result<catalog::Sources, Failure> {
    let mut sources = catalog::Sources {
        files: global.types.clone(),
        demo,
        ..catalog::Sources::default()
    };
    if demo {
        return Ok(sources);
    }
    let settings = config::load(&global.flags())?;
    warn(&settings.warnings);
    sources.files.extend(settings.types.iter().cloned());
    if let Some(base_url) = &settings.base_url
        && let Some(store) = super::open_store()
    {
        match store.app_versions(&base_url.value) {
            Ok(recorded) => sources.recorded = recorded,
            Err(e) => warn(&[format!("{e}; going on without it")]),
        }
    }
    Ok(sources)
}

/// A file that is not a valid connect payload gets `appdeck validate`'s findings and exit 2;
/// a recorded payload that no longer parses is only a warning.
fn report_problems(problems: &[SourceProblem]) -> Result<(), Failure> {
    let mut fatal = false;
    let mut err = std::io::stderr().lock();
    for problem in problems {
        match problem {
            SourceProblem::Recorded { .. } => {
                let _ = err.write_all(super::warning_line(&problem.to_string()).as_bytes());
            }
            SourceProblem::Invalid { path, findings } => {
                fatal = true;
                for finding in findings {
                    let _ = writeln!(err, "appdeck: {}: {finding}", path.display());
                }
                let _ = writeln!(err, "appdeck: {problem}");
            }
            SourceProblem::NotConnect { path, error } => {
                fatal = true;
                let name = path.display().to_string();
                let _ = writeln!(
                    err,
                    "appdeck: {}",
                    super::validate::describe(error, &name, &name)
                );
            }
            SourceProblem::Unreadable { .. } => {
                fatal = true;
                let _ = writeln!(err, "appdeck: {problem}");
            }
        }
    }
    if fatal {
        Err(Failure::Reported(2))
    } else {
        Ok(())
    }
}

fn list(
    catalog: &Catalog,
    output: TypesOutput,
    jq: Option<&Jq>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    if catalog.is_empty() {
        eprintln!("appdeck: no resource types known; {HOW_TO_ADD}");
    }
    // Each definition with the app version that removed its type, if one did.
    let definitions = catalog.types().iter().flat_map(|t| {
        let removed_in = t.removed_in.as_deref();
        t.definitions.iter().map(move |d| (d, removed_in))
    });
    let listed = |(d, removed_in): (&TypeDefinition, Option<&str>)| {
        let mut value = summary_json(d);
        if let (Some(version), Value::Object(map)) = (removed_in, &mut value) {
            map.insert("removed_in".to_owned(), json!(version));
        }
        value
    };
    if let Some(jq) = jq {
        let items: Vec<Value> = definitions.map(listed).collect();
        return super::shape::write_jq(jq, &Value::Array(items), out);
    }
    match output {
        TypesOutput::Json => {
            let items: Vec<Value> = definitions.map(listed).collect();
            print_json(&Value::Array(items), out)?;
        }
        TypesOutput::Table if catalog.is_empty() => {}
        TypesOutput::Table => {
            let header = [
                "TYPE", "NAME", "APP", "VERSION", "STAGE", "CAPS", "ACTIONS", "SOURCE",
            ]
            .map(str::to_owned)
            .to_vec();
            let mut rows = vec![header];
            rows.extend(definitions.map(|(d, removed_in)| {
                let mut version = line(d.version.as_deref().unwrap_or("?"));
                if let Some(removed) = removed_in {
                    version.push_str(&format!(", removed in {}", line(removed)));
                }
                vec![
                    line(&d.name),
                    text_field(&d.definition.display_name),
                    line(d.app_id.as_deref().unwrap_or("?")),
                    version,
                    text_field(&d.definition.lifecycle_stage),
                    d.capabilities().marks(),
                    d.action_count().to_string(),
                    d.source.to_string(),
                ]
            }));
            for row in aligned(&rows) {
                writeln!(out, "{row}")?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn show(
    catalog: &Catalog,
    args: &TypesShowArgs,
    jq: Option<&Jq>,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let known = find(catalog, &args.type_name)?;
    let definition = match &args.app_version {
        Some(version) => known.of_version(version).ok_or_else(|| {
            let versions: Vec<String> = known
                .definitions
                .iter()
                .map(TypeDefinition::app_version_label)
                .collect();
            Failure::Usage(format!(
                "type {} has no definition from app version {}; it has: {}",
                line(&known.name),
                line(version),
                versions.join(", ")
            ))
        })?,
        None => known.newest().ok_or_else(|| {
            Failure::Usage(format!("type {} has no definition", line(&known.name)))
        })?,
    };
    let others: Vec<&TypeDefinition> = known
        .definitions
        .iter()
        .filter(|d| !std::ptr::eq(*d, definition))
        .collect();
    if let Some(jq) = jq {
        return super::shape::write_jq(jq, &detail_json(definition, &others), out);
    }
    match args.output {
        ShowOutput::Json => print_json(&detail_json(definition, &others), out)?,
        ShowOutput::Text => write!(out, "{}", detail_text(definition, &others))?,
    }
    out.flush()?;
    Ok(())
}

/// The type by name, or a usage error naming the known ones (or saying how to add some).
fn find<'a>(catalog: &'a Catalog, name: &str) -> Result<&'a KnownType, Failure> {
    if let Some(known) = catalog.get(name) {
        return Ok(known);
    }
    if catalog.is_empty() {
        return Err(Failure::Usage(format!(
            "no type named {}: no resource types are known; {HOW_TO_ADD}",
            line(name)
        )));
    }
    let names: Vec<String> = catalog.types().iter().map(|t| line(&t.name)).collect();
    Err(Failure::Usage(format!(
        "no type named {}; known types: {}",
        line(name),
        names.join(", ")
    )))
}

fn detail_text(d: &TypeDefinition, others: &[&TypeDefinition]) -> String {
    let def = &d.definition;
    let mut text = String::new();
    let mut push = |key: &str, value: String| text.push_str(&format!("{key}: {value}\n"));
    push("type", line(&d.name));
    if let Some(name) = shown(&def.display_name) {
        push("display_name", name);
    }
    push("app", d.app_version_label());
    push("source", d.source.to_string());
    if let Some(stage) = shown(&def.lifecycle_stage) {
        push("lifecycle_stage", stage);
    }
    for other in others {
        push(
            "also defined by",
            format!("{} ({})", other.app_version_label(), other.source),
        );
    }
    if let Some(description) = def.description.get() {
        text.push_str(&format!("description:\n{}", indented(description)));
    }
    text.push_str("capabilities:\n");
    for (name, field) in d.capabilities().each() {
        let said = match field {
            Field::Valid(true) => "yes".to_owned(),
            Field::Valid(false) => "no".to_owned(),
            Field::Absent | Field::Null => "not said".to_owned(),
            Field::Invalid(v) => format!("? ({})", line(&v.to_string())),
        };
        text.push_str(&format!("  {name:<12} {said}\n"));
    }
    let links: Vec<_> = def
        .links
        .get()
        .and_then(|l| l.links.get())
        .into_iter()
        .flatten()
        .collect();
    if !links.is_empty() {
        text.push_str("links:\n");
        for link in links {
            let title = shown(&link.title).unwrap_or_else(|| "(untitled)".to_owned());
            let url = shown(&link.url).unwrap_or_default();
            text.push_str(&format!("  {title}: {url}\n"));
        }
    }
    let actions = def.actions.get().map(Vec::as_slice).unwrap_or_default();
    text.push_str(&format!("actions ({}):\n", d.action_count()));
    for action in actions {
        let name = shown(&action.name).unwrap_or_else(|| "(unnamed)".to_owned());
        let title = shown(&action.display_name)
            .map(|t| format!(" ({t})"))
            .unwrap_or_default();
        text.push_str(&format!("  {name}{title}\n"));
        if let Some(description) = action.description.get() {
            text.push_str(&indented(&format!("  {}", description.trim())));
        }
    }
    if let Some(instructions) = def.instructions_markdown.get() {
        text.push_str(&format!("instructions:\n{}", indented(instructions)));
    }
    for (label, schema) in d.schemas() {
        let tree = explain::explain(&label, &schema);
        text.push_str(&format!("\nschema {}:\n", line(&label)));
        text.push_str(&explain::render_text(&tree));
    }
    text
}

/// Multi-line payload text, neutralised and indented by two spaces.
fn indented(text: &str) -> String {
    sanitize::multiline(text.trim_end())
        .lines()
        .map(|l| format!("  {l}\n"))
        .collect()
}

fn summary_json(d: &TypeDefinition) -> Value {
    let capabilities: serde_json::Map<String, Value> = d
        .capabilities()
        .each()
        .into_iter()
        .map(|(name, field)| (name.to_owned(), field_json(field)))
        .collect();
    json!({
        "type": d.name,
        "display_name": field_json(&d.definition.display_name),
        "app_id": d.app_id,
        "version": d.version,
        "lifecycle_stage": field_json(&d.definition.lifecycle_stage),
        "capabilities": capabilities,
        "actions": d.action_count(),
        "source": d.source.to_string(),
        "source_kind": d.source.kind(),
        "recorded_at": d.recorded_at.map(|t| t.to_rfc3339()),
    })
}

fn detail_json(d: &TypeDefinition, others: &[&TypeDefinition]) -> Value {
    let mut value = summary_json(d);
    let schemas: Vec<Value> = d
        .schemas()
        .into_iter()
        .map(|(label, schema)| {
            let tree = explain::explain(&label, &schema);
            json!({"name": label, "tree": tree})
        })
        .collect();
    value["schemas"] = Value::Array(schemas);
    value["definition"] = serde_json::to_value(&d.definition).unwrap_or(Value::Null);
    value["other_definitions"] = others
        .iter()
        .map(|o| json!({"app_id": o.app_id, "version": o.version, "source": o.source.to_string()}))
        .collect();
    value
}

/// A lenient field as JSON: its value, whatever its type, or null.
fn field_json<T: crate::api::field::FromJson>(field: &Field<T>) -> Value {
    match field {
        Field::Valid(v) => v.to_json(),
        Field::Invalid(v) => v.clone(),
        Field::Absent | Field::Null => Value::Null,
    }
}

fn print_json(value: &Value, out: &mut impl Write) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(std::io::Error::from)?;
    writeln!(out, "{}", sanitize::json_for_terminal(&text))?;
    Ok(())
}

fn line(text: &str) -> String {
    sanitize::line(text).into_owned()
}

/// A text field for one line; one of another type as its JSON.
fn shown(field: &Field<String>) -> Option<String> {
    match field {
        Field::Valid(s) => Some(line(s)),
        Field::Invalid(v) => Some(line(&v.to_string())),
        Field::Absent | Field::Null => None,
    }
}

fn text_field(field: &Field<String>) -> String {
    shown(field).unwrap_or_else(|| "-".to_owned())
}

/// Rows as columns two spaces apart, by display width; the last column is not padded.
fn aligned(rows: &[Vec<String>]) -> Vec<String> {
    use unicode_width::UnicodeWidthStr;
    let columns = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..columns)
        .map(|c| rows.iter().map(|r| r[c].width()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|row| {
            let mut text = String::new();
            for (c, cell) in row.iter().enumerate() {
                text.push_str(cell);
                if c + 1 < columns {
                    text.push_str(&" ".repeat(widths[c] - cell.width() + 2));
                }
            }
            text
        })
        .collect()
}
