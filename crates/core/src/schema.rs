//! JSON Schema checks shared by `appdeck validate` and the sandbox: a type's
//! `property_json_schema` must compile, and a reported resource's `properties` must satisfy it.

mod expanded;

use serde_json::Value;

#[cfg(test)]
pub(crate) use expanded::doubling;
pub use expanded::{MAX_EXPANDED, too_costly};

/// A compiled schema, ready to check many instances.
pub struct CompiledSchema(jsonschema::Validator);

/// One way an instance breaks its schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaViolation {
    /// JSON pointer of the offending value inside the instance (`""` for the instance itself).
    pub pointer: String,
    pub message: String,
}

impl std::fmt::Display for SchemaViolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(f, "{at}: {}", self.message)
    }
}

/// How many backtracking steps one `pattern` match may take when a pattern needs the
/// backtracking engine (back-references, look-around). Past it the match fails as a violation,
/// so a catastrophic pattern costs milliseconds, not minutes.
const BACKTRACK_LIMIT: usize = 100_000;

/// Compiles a schema. Its `$schema` names the draft; without one, 2020-12 applies. Remote
/// references are not fetched (appdeck works offline), so a schema that needs one does not compile.
///
/// `pattern` and `patternProperties` use the linear-time `regex` engine; only a schema whose
/// patterns need more (back-references, look-around) gets the backtracking engine, with a
/// bounded number of steps per match.
pub fn compile(schema: &Value) -> Result<CompiledSchema, String> {
    build(schema, None)
}

/// The URI a [`SchemaDocument`] is known by while one of its parts is compiled.
const DOCUMENT_URI: &str = "urn:appdeck:schema";

/// A whole schema (a type's), so that one of its parts can be compiled where it stands: the
/// part's `$ref`s to the rest of the document (`#/definitions/…`, `#/$defs/…`) resolve as they
/// do when the whole is checked, which compiling the part alone cannot do.
pub(crate) struct SchemaDocument<'a>(jsonschema::Registry<'a>);

impl<'a> SchemaDocument<'a> {
    pub(crate) fn new(root: &'a Value) -> Result<Self, String> {
        jsonschema::Registry::new()
            .add(DOCUMENT_URI, root)
            .and_then(|registry| registry.prepare())
            .map(SchemaDocument)
            .map_err(|e| crate::sanitize::line(&e.to_string()).into_owned())
    }

    /// Compiles the part at the JSON `pointer` (`""` for the whole, `/properties/name`…).
    pub(crate) fn compile_at(&self, pointer: &str) -> Result<CompiledSchema, String> {
        let reference = format!("{DOCUMENT_URI}#{}", fragment(pointer));
        build(&serde_json::json!({ "$ref": reference }), Some(&self.0))
    }
}

/// A JSON pointer written as a URI fragment: what is not plainly allowed there is %-escaped.
fn fragment(pointer: &str) -> String {
    let plain = |b: u8| b.is_ascii_alphanumeric() || b"-._~/$".contains(&b);
    pointer
        .bytes()
        .map(|b| match plain(b) {
            true => char::from(b).to_string(),
            false => format!("%{b:02X}"),
        })
        .collect()
}

/// [`compile`], with the documents a `$ref` may name besides the schema's own.
fn build(
    schema: &Value,
    registry: Option<&jsonschema::Registry<'_>>,
) -> Result<CompiledSchema, String> {
    let options = || {
        let options = if schema.get("$schema").is_some() {
            jsonschema::options()
        } else {
            jsonschema::options().with_draft(jsonschema::Draft::Draft202012)
        };
        match registry {
            Some(registry) => options.with_registry(registry),
            None => options,
        }
    };
    if let Ok(validator) = options()
        .with_pattern_options(jsonschema::PatternOptions::regex())
        .build(schema)
    {
        return Ok(CompiledSchema(validator));
    }
    options()
        .with_pattern_options(
            jsonschema::PatternOptions::fancy_regex().backtrack_limit(BACKTRACK_LIMIT),
        )
        .build(schema)
        .map(CompiledSchema)
        .map_err(|e| crate::sanitize::line(&e.to_string()).into_owned())
}

impl CompiledSchema {
    /// Every violation, in the order the validator finds them.
    pub fn violations(&self, instance: &Value) -> Vec<SchemaViolation> {
        self.0
            .iter_errors(instance)
            .map(|e| SchemaViolation {
                pointer: e.instance_path().to_string(),
                message: crate::sanitize::line(&e.to_string()).into_owned(),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn violations_carry_pointers() {
        let schema = compile(&json!({
            "type": "object",
            "properties": {"stars": {"type": "integer", "minimum": 0}},
            "required": ["name"]
        }))
        .unwrap();
        let v = schema.violations(&json!({"stars": -1}));
        assert_eq!(v.len(), 2);
        assert!(v.iter().any(|e| e.pointer == "/stars"));
        assert!(
            v.iter()
                .any(|e| e.pointer.is_empty() && e.message.contains("name"))
        );
        assert!(
            schema
                .violations(&json!({"name": "x", "stars": 2}))
                .is_empty()
        );
    }

    #[test]
    fn a_backtracking_pattern_is_bounded() {
        // `\\1` needs the backtracking engine; its step limit turns a catastrophic match into a
        // violation instead of seconds of work.
        let schema = compile(&json!({"type": "string", "pattern": "^(a|a)*\\1?$"})).unwrap();
        let started = std::time::Instant::now();
        let violations = schema.violations(&json!(format!("{}b", "a".repeat(40))));
        assert!(!violations.is_empty());
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        // A plain pattern still matches as before, on the linear-time engine.
        let plain = compile(&json!({"type": "string", "pattern": "^[a-z]+$"})).unwrap();
        assert!(plain.violations(&json!("abc")).is_empty());
        assert!(!plain.violations(&json!("ABC")).is_empty());
    }

    #[test]
    fn a_broken_schema_does_not_compile() {
        assert!(compile(&json!({"type": "no-such-type"})).is_err());
        assert!(
            compile(&json!({"$schema": "http://json-schema.org/draft-07/schema#", "minimum": "x"}))
                .is_err()
        );
    }

    #[test]
    fn a_part_compiled_in_its_document_resolves_its_references() {
        let root = json!({
            "$schema": "http://json-schema.org/draft-07/schema#",
            "properties": {
                "id": {"$ref": "#/definitions/id"},
                "odd key/~%": {"$ref": "#/properties/id"}
            },
            "definitions": {"id": {"type": "string", "minLength": 2}}
        });
        let document = SchemaDocument::new(&root).unwrap();
        for pointer in ["/properties/id", "/properties/odd key~1~0%"] {
            let id = document.compile_at(pointer).unwrap();
            assert!(id.violations(&json!("ab")).is_empty(), "{pointer}");
            assert!(!id.violations(&json!("a")).is_empty(), "{pointer}");
        }
        // The part alone does not compile: its reference points outside it.
        assert!(compile(&root["properties"]["id"]).is_err());
        assert!(document.compile_at("/properties/none").is_err());
    }
}
